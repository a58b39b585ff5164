"""The C forbidden check agrees with the slow pure-Python reference (tests/reference_rules.py,
written from the referee's algorithm without any pattern table) on 10,000 random Renju
positions, every empty point of each compared."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from engine.board import Board, Color, Foul, Rule
from engine.native import GameOver
from tests.reference_rules import ref_all_forbidden, ref_wins

POSITIONS = 10_000
CHUNKS = 40  # separate tests, so pytest-xdist spreads them over the cores
KIND = {"double_three": Foul.DOUBLE_THREE, "double_four": Foul.DOUBLE_FOUR, "overline": Foul.OVERLINE}


def game_position(rng: random.Random) -> Board:
    """A legal game, moves clustered near earlier stones, stopped before anyone wins."""
    board = Board(15, Rule.RENJU)
    board.play(rng.randint(4, 10), rng.randint(4, 10))
    for _ in range(rng.randint(10, 80)):
        legal = board.legal_moves()
        placed = board.moves
        near = [m for m in legal if any(max(abs(m[0] - p[0]), abs(m[1] - p[1])) <= 2 for p in placed[-8:])]
        move = rng.choice(near or legal)
        if board.wins_at(*move):
            break
        board.play(*move)
    return board


def dense_position(rng: random.Random, rule: Rule | str = Rule.RENJU) -> Board | None:
    """Stones thrown into a small region with black in the majority: far more threes and fours
    than real games, and forbidden shapes everywhere. Positions with a five are skipped."""
    size = 15
    span = rng.randint(6, 11)
    x0, y0 = rng.randint(0, size - span), rng.randint(0, size - span)
    cells = [(x, y) for x in range(x0, x0 + span) for y in range(y0, y0 + span)]
    rng.shuffle(cells)
    n = rng.randint(span * span // 5, span * span // 2)
    share = rng.uniform(0.5, 0.75)
    black = [c for c in cells[:n] if rng.random() < share]
    white = [c for c in cells[:n] if c not in set(black)]
    try:
        return Board.from_stones(black, white, to_move=Color.BLACK, rule=rule)
    except GameOver:
        return None


def grid_of(board: Board) -> list[list[int]]:
    s = board.stones()
    return [[int(s[y, x]) for y in range(board.size)] for x in range(board.size)]


def compare(board: Board) -> Counter:
    expected = {p: KIND[k] for p, k in ref_all_forbidden(grid_of(board)).items()}
    fb = board.forbidden_points()
    got = {(int(x), int(y)): Foul(fb[y, x]) for y, x in zip(*np.nonzero(fb))}
    assert got == expected, f"moves {board.moves}\n{board}"
    return Counter(expected.values())


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_forbidden_points_agree_with_reference(chunk):
    rng = random.Random(1000 + chunk)
    kinds: Counter = Counter()
    done = 0
    while done < POSITIONS // CHUNKS:
        board = game_position(rng) if done % 2 else dense_position(rng)
        if board is None:
            continue
        kinds += compare(board)
        done += 1
    # The positions must exercise the rules, or agreement means little.
    assert kinds[Foul.DOUBLE_THREE] > 0 and kinds[Foul.DOUBLE_FOUR] > 0 and sum(kinds.values()) >= 50


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju", "caro", "caro_exact"])
def test_win_check_agrees_with_reference(rule):
    rng = random.Random(hash(rule) & 0xFFFF)
    wins = 0
    for _ in range(300):
        board = dense_position(rng, rule)
        if board is None:
            continue
        grid = grid_of(board)
        for x in range(15):
            for y in range(15):
                if grid[x][y] == 0:
                    for color in (Color.BLACK, Color.WHITE):
                        expect = ref_wins(grid, x, y, int(color), rule)
                        assert board.wins_at(x, y, color) == expect, (rule, x, y, color, board.moves)
                        wins += expect
    assert wins > 50
