"""Input planes against a Python recomputation from the board's own queries."""
from __future__ import annotations

import random

import numpy as np
import pytest

from engine.board import FEATURE_PLANES, FEATURE_VERSION, Board, Color, Pattern, Rule
from tests.randomgames import random_game


def reference(board: Board) -> np.ndarray:
    n, me = board.size, board.to_move
    stones = board.stones()
    ref = np.zeros((7, n, n), dtype=np.float32)
    ref[0] = stones == me
    ref[1] = stones == me.opponent
    ref[2] = 1.0 if me == Color.BLACK else 0.0
    occupied = (stones == Color.BLACK) | (stones == Color.WHITE)
    ys, xs = np.nonzero(occupied)
    for x, y in zip(xs, ys):
        ref[3, max(0, y - 3):y + 4, max(0, x - 3):x + 4] = 1
    ref[3][stones != Color.EMPTY] = 0
    for x, y in board.attack_set()[0]:
        ref[4, y, x] = 1
    for x, y in board.defence_set():
        ref[5, y, x] = 1
    pats = board.patterns(me)
    for y in range(n):
        for x in range(n):
            if board.is_legal(x, y):
                best = max((p for p in pats[y, x] if p not in (Pattern.FORBID, Pattern.OVERLINE)), default=0)
                ref[6, y, x] = best >= Pattern.LIVE2
    return ref


def test_version_and_shape():
    assert FEATURE_VERSION == 1 and FEATURE_PLANES == 7
    planes = Board().planes()
    assert planes.shape == (7, 15, 15) and planes.dtype == np.float32
    assert planes[2].all() and not planes[[0, 1, 3, 4, 5, 6]].any()


def test_planes_match_reference_on_random_games():
    rng = random.Random(4)
    buf = np.zeros((7, 15, 15), dtype=np.float32)
    for rule in (Rule.RENJU, Rule.FREESTYLE):
        for _ in range(15):
            board = random_game(rng, rule, rng.randint(1, 40))
            if board.game_over:
                board.undo()
            got = board.planes(buf)
            assert got is buf
            assert np.array_equal(got, reference(board))


def test_a_buffer_of_another_shape_is_refused_not_overrun():
    board = Board.from_moves([(7, 7), (8, 8)])
    for bad in (np.zeros((6, 15, 15), np.float32), np.zeros((7, 15, 15), np.float64),
                np.zeros((7, 15, 30), np.float32)[:, :, ::2]):
        with pytest.raises(ValueError):
            board.planes(bad)
