"""Quick in-process evaluation games during training: the search with a model against a baseline,
both colours of each opening, a fixed time a move. (Strength claims for the docs come from
`make match`, which referees real engine processes.)"""
from __future__ import annotations

import time

from engine.board import Board, Color, Result
from engine.match import openings
from engine.players import Limits, Player
from engine.players.registry import make_player
from engine.search.player import MCTSPlayer


def play(black: Player, white: Player, opening: list, ms: int, size: int = 15, rule: str = "renju") -> float:
    """Black's points: 1, 0.5 or 0."""
    board = Board(size, rule)
    for m in opening:
        board.play(*m)
    for p in (black, white):
        p.new_game()
    while not board.game_over and board.stone_count < min(200, size * size):
        player = black if board.to_move == Color.BLACK else white
        if not board.legal_moves():  # black with only forbidden points left: a draw
            break
        move = player.choose(board, Limits(deadline=time.monotonic() + ms / 1000, optimum=ms / 1000))
        board.play(*move)
    if board.result == Result.BLACK_WINS:
        return 1.0
    if board.result == Result.WHITE_WINS:
        return 0.0
    return 0.5


def eval_game(args: tuple) -> float:
    """(model, opponent, index, ms[, search settings]) -> the model's points in game `index`:
    opening index // 2, the model black on even indices. Search settings (utss, move_filter)
    let an ablation's model play with the search it was trained with."""
    model, opponent, index, ms = args[:4]
    book = openings.renju26()
    ours, theirs = MCTSPlayer(model=model), make_player(opponent)
    for key, value in (args[4] if len(args) > 4 else {}).items():
        setattr(ours.mcts.cfg, key, value)
    opening = book[(index // 2) % len(book)]
    if index % 2 == 0:
        return play(ours, theirs, opening, ms)
    return 1.0 - play(theirs, ours, opening, ms)
