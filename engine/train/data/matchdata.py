"""Positions of match games (`python -m engine.match ... --out DIR`, DIR/results.json) for
`engine.train.learn.distill` and `engine.train.data.searchtargets`: games at full time per move against a
baseline reach the build-ups where games are decided, which self-play from random starts rarely
does. Games that recur move for move (the standard openings of every seed) are kept once."""
from __future__ import annotations

import glob
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from engine.board import FEATURE_PLANES, Board, Color, Rule
from engine.records.results import game_moves


def match_files(patterns: list[str]) -> list[str]:
    """The results.json files that the patterns (files or globs) name, once each, sorted."""
    return sorted({p for pattern in patterns for p in glob.glob(pattern)})


def load_results(paths: list[str]) -> list[dict]:
    return [g for p in paths for g in json.loads(Path(p).read_text())]


def distinct_games(results: list[dict]) -> list[dict]:
    """The games once each (the first of those with the same stones in the same order)."""
    seen, out = set(), []
    for game in results:
        key = tuple(game_moves(game))
        if key not in seen:
            seen.add(key)
            out.append(game)
    return out


def replay(game: dict, size: int = 15, rule: Rule | str = Rule.RENJU) -> Iterator[tuple[int, Board]]:
    """One board walked through a game: before each move (the opening's included), the index of the
    move played from it and the board, up to the game's end; a foul of black's that ended the game
    gives its position and stops there (the referee never played it)."""
    board = Board(size, rule)
    for i, (x, y) in enumerate(game_moves(game)):
        if board.game_over:
            return
        yield i, board
        if not board.is_legal(x, y):
            return
        board.play(x, y)


def game_positions(game: dict, size: int = 15, rule: Rule | str = Rule.RENJU) -> tuple[np.ndarray, np.ndarray]:
    """The planes (uint8 [N, C, n, n]) of one game's positions after its opening, up to its last
    move (the position of a foul that ended it included), and the game's result for the side to
    move at each (+1 won, -1 lost, 0 a draw)."""
    winner = {"black": Color.BLACK, "white": Color.WHITE}.get(game.get("winner"))
    buf = np.zeros((FEATURE_PLANES, size, size), np.float32)
    planes, values = [], []
    for i, board in replay(game, size, rule):
        if i < len(game["opening"]):
            continue
        board.planes(buf)
        planes.append(buf.astype(np.uint8))
        values.append(0.0 if winner is None else 1.0 if board.to_move == winner else -1.0)
    if not planes:
        return np.zeros((0, FEATURE_PLANES, size, size), np.uint8), np.zeros(0, np.float32)
    return np.stack(planes), np.array(values, dtype=np.float32)
