"""The C tree (native/src/tree.c) against the playout loop written out in Python
(tests/reference_mcts.py), and its structure after real searches."""
from __future__ import annotations

import time

import numpy as np
import pytest

from engine.board import Board, Rule
from engine.net.evaluator import HeuristicEvaluator
from engine.search.mcts import MCTS, MCTSConfig
from tests.reference_mcts import ReferenceMCTS


def random_position(rng: np.random.Generator, rule: Rule, stones: int) -> Board:
    """A random game of `stones` moves near the centre and each other (the move filter's moves)."""
    b = Board(15, rule)
    b.play(7, 7)
    while b.stone_count < stones and not b.game_over:
        moves = b.candidate_moves(2)
        if not moves:
            break
        b.play(*moves[int(rng.integers(len(moves)))])
    return b


def positions():
    rng = np.random.default_rng(17)
    out = []
    for k in range(12):
        rule = (Rule.RENJU, Rule.FREESTYLE)[k % 2]
        b = random_position(rng, rule, int(rng.integers(3, 24)))
        if not b.game_over:
            out.append(b)
    return out


@pytest.mark.parametrize("batch", [1, 8])
@pytest.mark.parametrize("variant", ["default", "no-filter", "no-utss", "mix"])
def test_the_c_loop_matches_the_reference_loop(batch, variant):
    """Same evaluator, same config: the same root moves, priors, visits, values and proofs."""
    extra = {"no-filter": {"move_filter": False}, "no-utss": {"utss": False},
             "mix": {"prior_mix_opp": 0.3, "prior_mix_own": 0.1}}.get(variant, {})
    cfg = MCTSConfig(batch=batch, verify_ms=0, root_vcf_ms=0, prover_tt_bits=16, **extra)
    playouts = 120 if variant == "no-filter" else 300
    compared = 0
    for b in positions()[: 4 if variant == "no-filter" else 12]:
        ref = ReferenceMCTS(HeuristicEvaluator(), cfg).run(b, playouts)
        m = MCTS(HeuristicEvaluator(), cfg)
        m.search(b, time.monotonic() + 60, 60.0, max_playouts=playouts, early_stop=False)
        root = m.root
        assert root.proven == ref.proven and root.moves == ref.moves, str(b)
        np.testing.assert_array_equal(root.priors, ref.priors)
        np.testing.assert_array_equal(root.N, ref.N)
        np.testing.assert_allclose(root.W, ref.W, atol=1e-5)
        np.testing.assert_array_equal(root.cp, ref.cp)
        for i in np.flatnonzero(ref.N >= 10):  # and one level down
            theirs, ours = ref.children[i], root.children[i]
            assert ours is not None and ours.moves == theirs.moves and ours.proven == theirs.proven
            np.testing.assert_array_equal(ours.N, theirs.N)
        compared += 1
    assert compared >= 3


def check_node(node, board: Board, seen: list[int]) -> None:
    """Every expanded node: visits add up (no virtual loss left), values within [-1, 1] per visit,
    priors a distribution over legal moves, proofs consistent with the children's."""
    if not node.expanded:
        return
    seen[0] += 1
    n, w, cp, p = node.N, node.W, node.cp, node.priors
    if not len(n):
        return
    assert abs(float(p.sum()) - 1.0) < 1e-4 and (p >= 0).all()
    assert (n >= 0).all() and np.allclose(n, np.round(n)) and (np.abs(w) <= n + 1e-3).all()
    assert all(board.is_legal(*m) for m in node.moves)
    if node.proven == 0:
        assert not (cp < 0).any() and not (cp > 0).all()
    for move, child, c in zip(node.moves, node.children, cp):
        if child is None:
            assert c == 0
            continue
        assert c == child.proven
        board.play(*move)
        check_node(child, board, seen)
        board.undo()


@pytest.mark.parametrize("rule", [Rule.RENJU, Rule.FREESTYLE])
def test_the_tree_stays_consistent_through_a_game_with_reuse(rule):
    rng = np.random.default_rng(3)
    b = random_position(rng, rule, 6)
    m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_ms=0))
    checked = 0
    for _ in range(8):
        if b.game_over:
            break
        move = m.search(b, time.monotonic() + 60, 60.0, max_playouts=400, early_stop=False)
        seen = [0]
        check_node(m.root, b.copy(), seen)
        checked += seen[0]
        assert b.is_legal(*move)
        b.play(*move)
        if b.game_over:
            break
        reply = b.candidate_moves(3)[int(rng.integers(len(b.candidate_moves(3))))]
        b.play(*reply)
    assert checked > 50
