"""The C tree (native/src/tree.c) against the playout loop written out in Python
(tests/reference_mcts.py), and its structure after real searches."""
from __future__ import annotations

import time

import numpy as np
import pytest

from engine.board import Board, Rule
from engine.native import lib
from engine.net.evaluator import HeuristicEvaluator
from engine.search.mcts import MCTS, MCTSConfig, Node
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
@pytest.mark.parametrize("variant", ["default", "no-filter", "no-utss", "no-transpositions",
                                     "net-value-transpositions"])
def test_the_c_loop_matches_the_reference_loop(batch, variant):
    """Same evaluator, same config: the same root moves, priors, visits, values and proofs."""
    extra = {"no-filter": {"move_filter": False}, "no-utss": {"utss": False},
             "no-transpositions": {"transpositions": False},
             "net-value-transpositions": {"transposition_q": False}}.get(variant, {})
    cfg = MCTSConfig(batch=batch, verify_ms=0, root_vct_ms=0, prover_tt_bits=16, **extra)
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


def test_a_proof_found_under_one_order_of_moves_settles_its_transpositions():
    """Tactical positions with UTSS at the first two plies only, so that proofs deeper down come
    from the tree: the reference loop settles some leaves by their twins' proofs, and the C loop
    makes the same search."""
    rng = np.random.default_rng(23)
    cfg = MCTSConfig(batch=8, verify_ms=0, root_vct_ms=0, prover_tt_bits=16, utss_plies=2, utss_plies_own=2)
    shared = 0
    for k in range(6):
        b = random_position(rng, (Rule.RENJU, Rule.FREESTYLE)[k % 2], int(rng.integers(8, 20)))
        if b.game_over:
            continue
        ref = ReferenceMCTS(HeuristicEvaluator(), cfg)
        theirs = ref.run(b, 600)
        shared += ref.shared_proofs
        m = MCTS(HeuristicEvaluator(), cfg)
        m.search(b, time.monotonic() + 60, 60.0, max_playouts=600, early_stop=False)
        root = m.root
        assert root.proven == theirs.proven and root.moves == theirs.moves, str(b)
        np.testing.assert_array_equal(root.N, theirs.N)
        np.testing.assert_allclose(root.W, theirs.W, atol=1e-5)
        np.testing.assert_array_equal(root.cp, theirs.cp)
    assert shared >= 2


def check_node(node, board: Board, seen: list[int]) -> None:
    """Every expanded node: visits add up (no virtual loss left), values within [-1, 1] per visit,
    priors a distribution over legal moves, proofs consistent with the children's."""
    if not node.expanded:
        return
    seen[0] += 1
    assert node._c.hash == board.hash  # the key the transposition table files it under
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
    m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_ms=0, root_vct_ms=0))
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


def expanded_nodes(node, board: Board, out: list) -> None:
    """(node, position key, moves to it) of every expanded node below and including `node`."""
    if not node.expanded:
        return
    out.append((node, board.hash, list(board.moves)))
    for move, child in zip(node.moves, node.children):
        if child is not None:
            board.play(*move)
            expanded_nodes(child, board, out)
            board.undo()


class CountingEvaluator(HeuristicEvaluator):
    def __init__(self) -> None:
        super().__init__()
        self.positions = 0

    def evaluate(self, boards):
        self.positions += len(boards)
        return super().evaluate(boards)


@pytest.mark.parametrize("rule", [Rule.RENJU, Rule.FREESTYLE])
def test_transposed_leaves_share_their_twins_moves_priors_and_value_not_their_statistics(rule):
    rng = np.random.default_rng(11)
    b = random_position(rng, rule, 5)
    ev = CountingEvaluator()
    m = MCTS(ev, MCTSConfig(verify_ms=0, root_vct_ms=0))
    m.search(b, time.monotonic() + 60, 60.0, max_playouts=3000, early_stop=False)
    nodes: list = []
    expanded_nodes(m.root, b.copy(), nodes)
    transposed = int(lib.rj_tree_transpositions(m._tree))
    assert transposed > 50
    # each expanded node was either evaluated or copied from a twin
    assert ev.positions + transposed == len(nodes)
    groups: dict[int, list] = {}
    for node, key, moves in nodes:
        groups.setdefault(key, []).append((node, moves))
    shared = [g for g in groups.values() if len(g) > 1]
    assert shared
    for g in shared:
        (first, _), rest = g[0], g[1:]
        # the same stones of each colour, reached in another order
        assert len({(tuple(sorted(mv[0::2])), tuple(sorted(mv[1::2]))) for _, mv in g}) == 1
        for node, _ in rest:
            assert node.moves == first.moves
            np.testing.assert_array_equal(node.priors, first.priors)
            assert node._c.net_value == first._c.net_value
    # statistics stay each node's own: some twins were visited a different number of times
    assert any(len({node.visits for node, _ in g}) > 1 for g in shared)
    # without the table the same playouts cost one evaluation per expanded node
    ev_off = CountingEvaluator()
    off = MCTS(ev_off, MCTSConfig(verify_ms=0, root_vct_ms=0, transpositions=False))
    off.search(b, time.monotonic() + 60, 60.0, max_playouts=3000, early_stop=False)
    assert int(lib.rj_tree_transpositions(off._tree)) == 0
    assert ev_off.positions > ev.positions


def test_the_table_survives_compaction_and_forgets_another_filters_moves():
    """After the root moves on, every node kept is found again under its key (the ids renumbered);
    after the move filter's radius changes, no node copies moves filtered at the old radius."""
    rng = np.random.default_rng(5)
    b = random_position(rng, Rule.RENJU, 6)
    cfg = MCTSConfig(verify_ms=0, root_vct_ms=0, threat_vcf_depth=0, radius=2)
    m = MCTS(HeuristicEvaluator(), cfg)
    move = m.search(b, time.monotonic() + 60, 60.0, max_playouts=3000, early_stop=False)
    child = m.root.children[m.root.moves.index(move)]
    b.play(*move)
    b.play(*child.moves[int(np.argmax(child.N))])
    m.search(b, time.monotonic() + 60, 60.0, max_playouts=1, early_stop=False)  # advances and compacts
    nodes: list = []
    expanded_nodes(m.root, b.copy(), nodes)
    assert len(nodes) > 50 and m.root.id == 0
    for node, key, _ in nodes:
        twin = Node(m, int(lib.rj_tree_find(m._tree, key)))
        assert twin.id >= 0 and twin.expanded and twin.moves == node.moves
    kept = int(lib.rj_tree_nodes(m._tree))
    cfg.radius = 3
    m.search(b, time.monotonic() + 60, 60.0, max_playouts=3000, early_stop=False)
    nodes = []
    expanded_nodes(m.root, b.copy(), nodes)
    new = 0
    for node, _, moves in nodes:
        if node.id < kept:
            continue
        new += 1
        pos = Board(15, Rule.RENJU)
        for mv in moves:
            pos.play(*mv)
        assert sorted(node.moves) == sorted(pos.candidate_moves(3)), moves
    assert new > 100
