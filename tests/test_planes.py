"""Input planes against a Python recomputation from the board's own queries."""
from __future__ import annotations

import random

import numpy as np
import pytest

from engine.board import FEATURE_PLANES, FEATURE_VERSION, PLANES_OF_VERSION, Board, Color, Pattern, Rule
from tests.randomgames import random_game


def level(pattern: int, color: Color, rule: Rule) -> int:
    """A line's threat: 4 five, 3 straight four, 2 four, 1 live three, -1 forbidden, 0 none."""
    if pattern == Pattern.OVERLINE:
        wins = rule == Rule.FREESTYLE or (rule == Rule.RENJU and color == Color.WHITE)
        return 4 if wins else -1 if rule == Rule.RENJU else 0
    return {Pattern.FIVE: 4, Pattern.LIVE4: 3, Pattern.DEAD4: 2, Pattern.LIVE3: 1, Pattern.FORBID: -1}.get(pattern, 0)


def reference(board: Board) -> np.ndarray:
    n, me = board.size, board.to_move
    stones = board.stones()
    ref = np.zeros((18, n, n), dtype=np.float32)
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
    fouls = board.forbidden_points()
    for base, color in ((7, me), (12, me.opponent)):
        pats = board.patterns(color)
        for y in range(n):
            for x in range(n):
                if stones[y, x] != Color.EMPTY:
                    continue
                levels = [level(p, color, board.rule) for p in pats[y, x]]
                may = color == Color.WHITE or not fouls[y, x]
                if max(levels) == 4:
                    ref[base, y, x] = 1
                elif may and max(levels) >= 1:
                    ref[base + 4 - max(levels), y, x] = 1
                ref[base + 4, y, x] = may and max(levels) < 4 and sum(v >= 1 for v in levels) >= 2
    ref[17] = (fouls > 0) & (stones == Color.EMPTY)
    return ref


def test_version_and_shape():
    assert FEATURE_VERSION == 2 and FEATURE_PLANES == 18 and PLANES_OF_VERSION == {1: 7, 2: 18}
    planes = Board().planes()
    assert planes.shape == (18, 15, 15) and planes.dtype == np.float32
    assert planes[2].all() and not planes[[0, 1] + list(range(3, 18))].any()


def test_planes_match_reference_on_random_games():
    rng = random.Random(4)
    buf = np.zeros((18, 15, 15), dtype=np.float32)
    seen = np.zeros(18, bool)
    for rule in (Rule.RENJU, Rule.FREESTYLE, Rule.STANDARD):
        for _ in range(15):
            board = random_game(rng, rule, rng.randint(1, 40))
            if board.game_over:
                board.undo()
            got = board.planes(buf)
            assert got is buf
            assert np.array_equal(got, reference(board))
            seen |= got.any((1, 2))
    assert seen.all()  # every plane was set somewhere, so each was compared on real content


def test_a_double_four_is_forbidden_not_a_threat():
    black = [(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)]
    white = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10)]
    for to_move, base in ((Color.BLACK, 7), (Color.WHITE, 12)):
        planes = Board.from_stones(black, white, to_move=to_move).planes()
        assert planes[17, 7, 7] == 1 and planes[base:base + 5, 7, 7].sum() == 0
        assert planes[base + 1, 7, 3] == 1  # the straight four elsewhere on the line stays
    free = Board.from_stones(black, white, to_move=Color.BLACK, rule=Rule.FREESTYLE).planes()
    assert free[17].sum() == 0 and free[8, 7, 7] == 1 and free[11, 7, 7] == 1


def test_white_overline_is_a_five_in_renju_only():
    white = [(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)]
    black = [(3, 9), (5, 9), (7, 9), (9, 9), (11, 11), (13, 13)]
    assert Board.from_stones(black, white, to_move=Color.WHITE).planes()[7, 7, 6] == 1
    assert Board.from_stones(black, white, to_move=Color.WHITE, rule=Rule.STANDARD).planes()[7, 7, 6] == 0


def test_a_buffer_of_another_shape_is_refused_not_overrun():
    board = Board.from_moves([(7, 7), (8, 8)])
    for bad in (np.zeros((7, 15, 15), np.float32), np.zeros((18, 15, 15), np.float64),
                np.zeros((18, 15, 30), np.float32)[:, :, ::2]):
        with pytest.raises(ValueError):
            board.planes(bad)


def test_version_one_is_the_first_planes_of_today():
    rng = random.Random(9)
    for rule in (Rule.RENJU, Rule.STANDARD):
        for _ in range(10):
            board = random_game(rng, rule, rng.randint(1, 40))
            if board.game_over:
                board.undo()
            old = board.planes(version=1)
            assert old.shape == (PLANES_OF_VERSION[1], 15, 15)
            assert np.array_equal(old, board.planes()[:PLANES_OF_VERSION[1]])


def test_the_search_hands_an_older_net_its_own_planes():
    from engine.net.evaluator import Evaluator
    from engine.search.mcts import MCTS, MCTSConfig

    class Old(Evaluator):
        takes_planes, feature_version = True, 1
        shapes: list[tuple[int, ...]] = []

        def evaluate(self, boards):
            raise AssertionError("the search hands over planes")

        def evaluate_planes(self, planes):
            self.shapes.append(planes.shape)
            return np.zeros((len(planes), 225), np.float32), np.zeros(len(planes), np.float32)

    ev = Old()
    MCTS(ev, MCTSConfig()).search(Board.from_moves([(7, 7), (8, 8), (6, 8)]), float("inf"), float("inf"),
                                  max_playouts=40)
    assert ev.shapes and all(s[1:] == (PLANES_OF_VERSION[1], 15, 15) for s in ev.shapes)
