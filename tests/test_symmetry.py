"""The board's 8 symmetries in the search: leaves evaluated turned (leaf_symmetry) and the root's
priors averaged over all 8 (root_symmetries)."""
from __future__ import annotations

import time

import numpy as np

from engine.board import Board, Rule
from engine.board.symmetry import INVERSE, transform, untransform
from engine.net.evaluator import Evaluator
from engine.search.mcts import MCTS, MCTSConfig

N = 15


class _PlaneNet(Evaluator):
    """A net on input planes: logits = 2 own stones + attack set + tilt * (x + y / 2)
    (the tilt, x + y / 2 when non-zero, makes it depend on the board's orientation), value from the stone
    count and the tilt's sum over own stones."""

    takes_planes = True
    name = "planes"

    def __init__(self, tilt: float = 0.0) -> None:
        self.tilt = tilt
        self.batches: list[np.ndarray] = []

    def evaluate(self, boards):
        planes = np.zeros((len(boards), 7, N, N), dtype=np.float32)
        for i, b in enumerate(boards):
            b.planes(planes[i])
        return self.evaluate_planes(planes)

    def evaluate_planes(self, planes):
        self.batches.append(np.array(planes))
        k, n = len(planes), planes.shape[-1]
        column = np.add.outer(0.5 * np.arange(n), np.arange(n)).astype(np.float32)  # [y, x] -> x + y / 2
        logits = 2.0 * planes[:, 0] + planes[:, 4] + self.tilt * column
        own = planes[:, 0]
        values = np.tanh(0.01 * own.sum(axis=(1, 2)) + self.tilt * (own * column).sum(axis=(1, 2)) / 50)
        return logits.reshape(k, n * n).astype(np.float32), values.astype(np.float32)


def _position() -> Board:
    return Board.from_moves([(7, 7), (7, 8), (9, 6), (8, 8), (6, 7)], rule=Rule.RENJU)


def _planes(boards: list[Board]) -> np.ndarray:
    out = np.zeros((len(boards), 7, N, N), dtype=np.float32)
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


def test_an_orientation_free_net_gives_the_same_answers_turned():
    """Logits and value that do not depend on the orientation come back unchanged, leaf by leaf,
    in every symmetry, one leaf per symmetry or several."""
    planes = _planes([_position()] * 8)
    planes[3, :, 0, 0] = 1.0  # leaves that differ
    want_logits, want_values = _PlaneNet().evaluate_planes(planes)
    for r in (1, 2, 8):
        m = MCTS(_PlaneNet(), MCTSConfig(leaf_symmetry=r))
        for _ in range(8):  # the next symmetry at each call
            got_logits, got_values = m._evaluate_symmetric(planes)
            np.testing.assert_allclose(got_logits, want_logits, atol=1e-5)
            np.testing.assert_allclose(got_values, want_values, atol=1e-6)


def test_each_batch_is_evaluated_in_the_next_symmetry_and_its_policy_turned_back():
    net = _PlaneNet(tilt=0.3)
    m = MCTS(net, MCTSConfig(leaf_symmetry=1))
    b = _position()
    planes = _planes([b, b.copy()])
    planes[1, :, 0, 0] = 1.0
    answers = []
    for s in range(9):  # the count wraps after 8
        logits, values = m._evaluate_symmetric(planes)
        np.testing.assert_array_equal(net.batches[-1], transform(planes, s % 8))
        direct, direct_v = _PlaneNet(tilt=0.3).evaluate_planes(np.ascontiguousarray(transform(planes, s % 8)))
        back = np.ascontiguousarray(untransform(direct.reshape(2, N, N), s % 8)).reshape(2, N * N)
        np.testing.assert_allclose(logits, back, atol=1e-6)  # turned back
        np.testing.assert_allclose(values, direct_v, atol=1e-6)
        answers.append(logits[0])
    assert len({tuple(np.round(a, 4)) for a in answers[:8]}) == 8  # the tilt shows in each symmetry
    np.testing.assert_allclose(answers[8], answers[0], atol=1e-6)


def test_leaves_in_several_symmetries_give_the_mean_of_their_answers():
    """leaf_symmetry=2: the batch goes to the net in two symmetries running on from the last, and
    each leaf's logits and value are the means of the two, turned back."""
    m = MCTS(_PlaneNet(tilt=0.3), MCTSConfig(leaf_symmetry=2))
    b = _position()
    planes = _planes([b, b.copy()])
    planes[1, :, 0, 0] = 1.0  # a second, different leaf
    logits, values = m._evaluate_symmetric(planes)
    assert logits.shape == (2, N * N) and values.shape == (2,) and m._sym_next == 2
    for j, pair in enumerate(((0, 1), (0, 1))):
        want_l, want_v = np.zeros(N * N), 0.0
        for s in pair:
            lo, v = _PlaneNet(tilt=0.3).evaluate_planes(np.ascontiguousarray(transform(planes[j:j + 1], s)))
            want_l += np.ascontiguousarray(untransform(lo.reshape(N, N), s)).reshape(-1) / 2
            want_v += float(v[0]) / 2
        np.testing.assert_allclose(logits[j], want_l, atol=1e-5)
        assert abs(float(values[j]) - want_v) < 1e-6
    single, _ = MCTS(_PlaneNet(tilt=0.3), MCTSConfig(leaf_symmetry=1))._evaluate_symmetric(planes[:1])
    assert not np.allclose(single[0], logits[0])  # the mean is not one symmetry's answer


def test_root_priors_are_the_mean_over_the_eight_symmetries():
    """One black stone in the centre: the position is symmetric, so priors averaged over the 8
    symmetries are equal on points the symmetries exchange; a tilted net alone favours one side."""
    b = Board.from_moves([(7, 7)], rule=Rule.RENJU)
    priors = {}
    for avg in (False, True):
        m = MCTS(_PlaneNet(tilt=0.3), MCTSConfig(root_symmetries=avg, verify_ms=0, root_vcf_ms=0))
        m.search(b, time.monotonic() + 5, 5.0, max_playouts=16)
        priors[avg] = dict(zip(m.root.moves, m.root.priors.tolist()))
    for p in (priors[False], priors[True]):
        assert abs(sum(p.values()) - 1.0) < 1e-5
    east, west, north = (9, 7), (5, 7), (7, 5)
    assert priors[False][east] > 2 * priors[False][west]  # the tilt
    assert abs(priors[True][east] - priors[True][west]) < 1e-6
    assert abs(priors[True][east] - priors[True][north]) < 1e-6
    # and it is the mean of the 8 softmaxes, each over the root's moves
    moves = list(priors[True])
    at = np.array([y * N + x for x, y in moves])
    planes = _planes([b])[0]
    mean = np.zeros(len(moves))
    for s in range(8):
        logits, _ = _PlaneNet(tilt=0.3).evaluate_planes(np.ascontiguousarray(transform(planes, s))[None])
        z = np.ascontiguousarray(untransform(logits.reshape(N, N), s)).reshape(-1)[at].astype(np.float64)
        e = np.exp(z - z.max())
        mean += e / e.sum() / 8
    np.testing.assert_allclose([priors[True][mv] for mv in moves], mean, atol=1e-6)


def test_the_search_with_both_plays_a_legal_move_and_averages_each_new_root_once():
    net = _PlaneNet(tilt=0.1)
    m = MCTS(net, MCTSConfig(leaf_symmetry=1, root_symmetries=True, verify_ms=0))
    b = _position()
    move = m.search(b, time.monotonic() + 5, 5.0, max_playouts=64)
    assert b.is_legal(*move)
    eights = sum(len(x) == 8 and np.array_equal(x[1], transform(x[0], 1)) for x in net.batches)
    assert eights == 1
    m.search(b, time.monotonic() + 5, 5.0, max_playouts=64)  # the same root again: not averaged again
    assert sum(len(x) == 8 and np.array_equal(x[1], transform(x[0], 1)) for x in net.batches) == 1
    b.play(*move)
    m.search(b, time.monotonic() + 5, 5.0, max_playouts=64)
    assert sum(len(x) == 8 and np.array_equal(x[1], transform(x[0], 1)) for x in net.batches) == 2


def test_the_symmetry_check_of_a_net_on_match_positions():
    """valuecheck --symmetries on the shipped net: a position the symmetries leave unchanged (one
    stone in the centre) gets 8 equal values (its top moves, turned back, are images of one
    point); the mean of 8 is scored like a single value."""
    from engine.search.player import shipped_model
    from engine.train.valuecheck import check, symmetry_check

    model = shipped_model()
    centre = _planes([Board.from_moves([(7, 7)], rule=Rule.RENJU)])
    sc = symmetry_check(model, centre, np.array([1.0]))
    assert sc.value_std < 1e-6
    single = check(model, centre, np.array([1.0]))
    assert abs(sc.mean_of_8.mean - single.mean) < 1e-5  # the one value, eight times
    boards = [_position(), Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6), (9, 9)], rule=Rule.RENJU)]
    sc = symmetry_check(model, _planes(boards), np.array([1.0, -1.0]))
    assert sc.mean_of_8.positions == 2 and 0.0 <= sc.top1 <= 1.0 and sc.value_std > 0
