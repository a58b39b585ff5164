"""The board's 8 symmetries (engine.board.symmetry), and the check of how far a net is from
symmetric (engine.train.measure.valuecheck --symmetries)."""
from __future__ import annotations

import numpy as np

from engine.board import FEATURE_PLANES, Board, Rule
from engine.board.symmetry import INVERSE, transform, untransform

N = 15


def _position() -> Board:
    return Board.from_moves([(7, 7), (7, 8), (9, 6), (8, 8), (6, 7)], rule=Rule.RENJU)


def _planes(boards: list[Board]) -> np.ndarray:
    out = np.zeros((len(boards), FEATURE_PLANES, N, N), dtype=np.float32)
    for i, b in enumerate(boards):
        b.planes(out[i])
    return out


def test_the_eight_symmetries_are_distinct_and_undone_by_their_inverses():
    flat = np.arange(N * N).reshape(N, N)
    seen = set()
    for s in range(8):
        turned = transform(flat, s)
        np.testing.assert_array_equal(untransform(turned, s), flat)
        np.testing.assert_array_equal(transform(turned, INVERSE[s]), flat)
        seen.add(tuple(np.ascontiguousarray(turned).reshape(-1)))
    assert len(seen) == 8  # eight distinct maps
    np.testing.assert_array_equal(transform(flat, 0), flat)  # symmetry 0 is the identity


def test_the_symmetry_check_of_a_net_on_match_positions():
    """valuecheck --symmetries on the shipped net: a position the symmetries leave unchanged (one
    stone in the centre) gets 8 equal values (its top moves, turned back, are images of one
    point); the mean of 8 is scored like a single value."""
    from engine.search.player import shipped_model
    from engine.train.measure.valuecheck import check, symmetry_check

    model = shipped_model()
    centre = _planes([Board.from_moves([(7, 7)], rule=Rule.RENJU)])
    sc = symmetry_check(model, centre, np.array([1.0]))
    assert sc.value_std < 1e-6
    single = check(model, centre, np.array([1.0]))
    assert abs(sc.mean_of_8.mean - single.mean) < 1e-5  # the one value, eight times
    boards = [_position(), Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6), (9, 9)], rule=Rule.RENJU)]
    sc = symmetry_check(model, _planes(boards), np.array([1.0, -1.0]))
    assert sc.mean_of_8.positions == 2 and 0.0 <= sc.top1 <= 1.0 and sc.value_std > 0
