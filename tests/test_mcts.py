"""MCTS with the heuristic evaluator: wins, blocks, proofs, the move filter, tree reuse."""
from __future__ import annotations

import time

import numpy as np
import pytest

from engine.board import Board, Color, Rule
from engine.native import ffi, lib
from engine.net.evaluator import HeuristicEvaluator
from engine.protocol.session import Session
from engine.prover import Prover
from engine.search.mcts import MCTS, MCTSConfig, Node
from engine.search.player import MCTSPlayer
from tests.test_vct import vct_record


def run(board, playouts=400, seconds=5.0, mcts=None):
    mcts = mcts or MCTS(HeuristicEvaluator())
    move = mcts.search(board, time.monotonic() + seconds, seconds, max_playouts=playouts)
    return move, mcts


def test_plays_a_one_move_win_and_the_root_is_proven():
    b = Board.from_stones([(3, 3), (4, 3), (5, 3), (6, 3)], [(3, 9), (4, 9), (5, 9), (6, 9)], to_move=Color.BLACK,
                          rule=Rule.FREESTYLE)
    move, m = run(b)
    assert move in {(2, 3), (7, 3)}
    assert m.root.proven == 1


def test_blocks_a_five():
    b = Board.from_stones([(3, 3), (4, 3), (5, 3), (6, 3), (10, 10)], [(3, 9), (4, 9), (5, 10)],
                          to_move=Color.WHITE, rule=Rule.FREESTYLE)
    move, _ = run(b)
    assert move in {(2, 3), (7, 3)}


def test_plays_a_proven_win_from_the_prover():
    # Black's open three plus a second three: UTSS proves the win at the root's children.
    b = Board.from_stones([(6, 7), (7, 7), (8, 7), (7, 9), (7, 10)], [(0, 0), (0, 2), (14, 14), (14, 12)],
                          to_move=Color.BLACK, rule=Rule.FREESTYLE)
    move, m = run(b, playouts=2000)
    assert m.root.proven == 1
    after = b.copy()
    after.play(*move)
    assert after.threat(Color.BLACK) >= 1


def test_avoids_a_proven_loss_and_sees_a_lost_root():
    # White has two open fours coming: black to move is lost whatever it does (a double five threat).
    b = Board.from_stones([(0, 0), (0, 2), (0, 4), (14, 14), (14, 12)], [(5, 7), (6, 7), (7, 7), (8, 7), (5, 5)],
                          to_move=Color.BLACK, rule=Rule.FREESTYLE)
    move, m = run(b, playouts=300)
    assert m.root.proven == -1
    assert b.is_legal(*move)


def walk(node: Node, board: Board, radius: int):
    if not node.expanded or not node.moves:
        return 0
    # the plain filter's moves, or fewer where a hidden VCF of the opponent's narrowed them
    assert set(node.moves) <= set(board.candidate_moves(radius))
    seen = 1
    for move, child in zip(node.moves, node.children):
        if child is not None:
            board.play(*move)
            seen += walk(child, board, radius)
            board.undo()
    return seen


def test_never_expands_a_filtered_out_move():
    b = Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6), (9, 7)])
    _, m = run(b, playouts=600)
    assert walk(m.root, b.copy(), m.cfg.radius) > 10


def test_tree_reuse_keeps_statistics():
    b = Board.from_moves([(7, 7), (8, 8), (6, 8)])
    m = MCTS(HeuristicEvaluator(), MCTSConfig())
    move, _ = run(b, playouts=800, mcts=m)
    i = m.root.moves.index(move)
    child = m.root.children[i]
    reply = child.moves[int(np.argmax(child.N))]
    kept = child.children[child.moves.index(reply)]
    kept_moves, before = kept.moves, kept.N.copy()  # views: copy before the tree changes
    assert before.sum() > 0
    nodes = int(lib.rj_tree_nodes(m._tree))
    b.play(*move)
    b.play(*reply)
    run(b, playouts=1, mcts=m)
    # the kept subtree is the new root (compacted: the rest of the tree is freed)
    assert m.root.moves == kept_moves and (m.root.N >= before).all() and m.root.N.sum() >= before.sum() + 1
    assert int(lib.rj_tree_nodes(m._tree)) < nodes


def test_player_reports_the_missing_model_and_analysis():
    player = MCTSPlayer(model=None)
    s = Session(player)
    s.handle("START 15")
    s.handle("INFO timeout_turn 500")
    replies = s.handle("TURN 7,7")
    assert replies[0].startswith("MESSAGE no model given") and replies[-1].count(",") == 1
    assert any(r.startswith("MESSAGE depth") for r in replies)


def test_nbest_lists_root_moves_by_visits():
    s = Session(MCTSPlayer(model=None))
    s.handle("START 15")
    s.handle("INFO timeout_turn 300")
    s.handle("YXBOARD")
    for line in ["7,7,1", "8,8,2", "6,8,1", "8,6,2", "DONE"]:
        s.handle(line)
    replies = s.handle("YXNBEST 3")
    nbest = [r for r in replies if r.startswith("MESSAGE NBEST")]
    assert len(nbest) == 3 and replies[-1].count(",") == 1
    assert nbest[0].split()[3] == replies[-1]
    assert len({r.split()[3] for r in nbest}) == 3


def test_realtime_lines_only_when_show_detail_asks():
    emitted: list[str] = []
    s = Session(MCTSPlayer(model=None), emit=emitted.append)
    s.handle("START 15")
    s.handle("INFO timeout_turn 1500")
    first = s.handle("TURN 7,7")[-1]
    assert emitted == []  # show_detail off: nothing while thinking
    s.handle("INFO show_detail 1")
    replies = s.handle("TURN 9,9")
    assert emitted[0] == "MESSAGE REALTIME REFRESH"
    best = [e for e in emitted if e.startswith("MESSAGE REALTIME BEST ")]
    pos = [e for e in emitted if e.startswith("MESSAGE REALTIME POS ")]
    assert best and pos
    board = Board.from_moves([(7, 7), tuple(map(int, first.split(","))), (9, 9)])
    for line in best + pos:  # each names an empty point of the position searched
        x, y = map(int, line.split()[-1].split(","))
        assert board[x, y] == Color.EMPTY
    assert not any(r.startswith("MESSAGE REALTIME") for r in replies)  # realtime lines go out at once


def test_info_thread_num_reaches_the_onnx_session(tmp_path):
    from tests.test_evaluator import tiny_net

    path = tmp_path / "tiny.onnx"
    tiny_net(path)
    player = MCTSPlayer(model=str(path))
    assert player.mcts.ev.name == "onnx" and player.mcts.ev.threads == 1
    s = Session(player)
    s.handle("START 15")
    s.handle("INFO thread_num 2")
    assert player.mcts.ev.threads == min(2, __import__("os").cpu_count())
    s.handle("INFO thread_num 0")  # nonsense is clamped to one thread
    assert player.mcts.ev.threads == 1


def test_a_long_vcf_at_the_root_is_played_at_once():
    """Positions with a VCF of six fours or more, longer than the in-tree UTSS depth, are proven at
    the root (by its UTSS, which may find a shorter win through a quiet move, or by the root's deep
    VCF) and the proof's first move is played."""
    from engine.bench.prover import board_of, load
    from engine.prover import Prover

    long = [r for r in load() if r["vcf_moves"] >= 6][:5]
    assert long
    for rec in long:
        board = board_of(rec)
        m = MCTS(HeuristicEvaluator())
        move = m.search(board, time.monotonic() + 5, 1.0, max_playouts=50)
        assert m.root.proven == 1 and move in m.root_line[:1] + [m.root.win_move]
        b = board.copy()
        b.play(*move)
        # after every reply the attacker still has a proven win (the move may be a quiet one
        # that threatens a VCF: UTSS proves those)
        for reply in b.candidate_moves():
            b.play(*reply)
            assert b.game_over or Prover().solve(b, "utss", max_depth=13, budget_nodes=5_000_000).result == "win"
            b.undo()


def numpy_select(p, n, w, cp, cfg: MCTSConfig) -> int:
    """The selection rule written out in numpy (float64), the reference for the C version."""
    n, w, p = n.astype(np.float64), w.astype(np.float64), p.astype(np.float64)
    n_total = n.sum()
    q = np.where(n > 0, w / np.maximum(n, 1e-9), 0.0)
    if n_total > 0:
        q = np.where(n > 0, q, w.sum() / n_total - cfg.fpu)
    u = cfg.c_puct * p * np.sqrt(n_total + 1) / (1 + n)
    score = np.where(cp < 0, 1e9, np.where(cp > 0, u - 1e9, q + u))
    return int(np.argmax(score))


def test_c_selection_rule_equals_the_numpy_rule():
    rng = np.random.default_rng(4)
    cfg = MCTSConfig()
    for trial in range(2000):
        k = int(rng.integers(1, 60))
        p = rng.random(k) ** 3
        priors = (p / p.sum()).astype(np.float32)
        n = np.where(rng.random(k) < 0.5, 0, rng.integers(1, 50, k)).astype(np.float32)
        w = (n * rng.uniform(-1, 1, k)).astype(np.float32)
        cp = np.where(rng.random(k) < 0.9, 0, rng.choice([-1, 1], k)).astype(np.int8)
        if trial % 3 == 0:
            cp[:] = np.where(cp < 0, 1, cp)  # no winning child: lost ones come last
        got = lib.rj_puct_select(ffi.from_buffer("float[]", priors), ffi.from_buffer("float[]", n),
                                 ffi.from_buffer("float[]", w), ffi.from_buffer("int8_t[]", cp), k, cfg.c_puct,
                                 cfg.fpu)
        assert got == numpy_select(priors, n, w, cp, cfg), trial


def test_black_whose_only_block_is_a_foul_still_plays_a_legal_move():
    """White's four can only be blocked on black's double-three: the filter leaves nothing, the
    root is lost, and the search still returns a legal (non-forbidden) move."""
    black = [(2, 7), (5, 5), (6, 6), (8, 6), (9, 5)]
    white = [(3, 7), (4, 7), (5, 7), (6, 7)]
    b = Board.from_stones(black, white, to_move=Color.BLACK, rule=Rule.RENJU)
    assert b.foul(7, 7) != 0 and b.candidate_moves() == []
    m = MCTS(HeuristicEvaluator())
    move = m.search(b, time.monotonic() + 2, 0.2, max_playouts=50)
    assert m.root.proven == -1 and b.is_legal(*move) and move != (7, 7)


def test_a_root_the_prover_settles_plays_the_proofs_move():
    """Proven at once (no playouts to rank the moves): the move must be the proof's, not the
    first of the filter's list."""
    b = Board.from_stones([(6, 7), (7, 7), (8, 7), (7, 9), (7, 10)], [(0, 0), (0, 2), (14, 14), (14, 12)],
                          to_move=Color.BLACK, rule=Rule.FREESTYLE)
    m = MCTS(HeuristicEvaluator(), MCTSConfig(root_vct_ms=0))  # the root's UTSS, not its VCT
    move = m.search(b, time.monotonic() + 5, 5.0, max_playouts=1)
    assert m.root.proven == 1 and m.root.win_move == move
    assert move != m.root.moves[0] or m.root.moves[0] == m.root.win_move
    after = b.copy()
    after.play(*move)
    from engine.prover import Prover
    assert Prover().solve(after, "utss", max_depth=5, budget_ms=2000).result == "loss"


# A game the search lost to alphabeta: after black's (5, 8) white wins by a threat sequence of 11
# plies (a four, then threes and fours), deeper than the tree's own proofs look.
LOST_GAME = [(7, 7), (7, 8), (7, 5), (9, 5), (6, 6), (8, 4), (6, 7), (8, 7), (9, 6), (7, 6), (9, 8), (8, 8), (10, 6),
             (6, 4), (5, 4), (6, 9), (8, 9), (5, 10), (4, 11), (6, 11), (4, 9), (6, 10), (6, 12), (5, 11), (4, 12),
             (4, 10), (7, 10), (8, 5), (8, 6), (5, 9)]


def test_verification_proves_a_deeply_lost_root_move():
    b = Board.from_moves(LOST_GAME)
    for vct, dfpn in ((0.0, 0.0), (0.0, 0.6), (0.4, 0.6)):  # UTSS only; df-pn first; VCT first (the default)
        m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_vct=vct, verify_dfpn=dfpn))
        m.search(b, time.monotonic() + 5, 5.0, max_playouts=1)  # expands the root
        i = m.root.moves.index((5, 8))
        m._verify(b.copy(), m.root, i, seconds=5.0)
        assert m.root.children[i].proven == 1 and m.root.cp[i] == 1  # won for white, the child's mover
        first = m.root.children[i].win_move
        if dfpn == 0.0 and vct == 0.0:
            assert first == (3, 10)
        after = Board.from_moves(LOST_GAME + [(5, 8), first])
        assert Prover().solve(after, "utss", max_depth=13, budget_ms=5000).result == "loss"
        assert b.moves == LOST_GAME  # the board is unchanged


def test_a_vct3_check_sees_a_loss_that_opens_with_a_quiet_move():
    """After black's move in a game PentaZen won against the engine, white wins by a line whose
    first move is quiet: the plain VCT searches out without it (and UTSS finds nothing in a
    second), the check's VCT3 proves black's move lost."""
    after = vct_record("pentazen-game v6-23/0083 ply 17")
    b = Board.from_moves(after.moves[:-1])
    lost = {}
    for kind in ("vct", "vct3"):
        m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_vct=1.0, verify_dfpn=0.0, verify_vct_kind=kind))
        m.search(b, time.monotonic() + 5, 5.0, max_playouts=1)  # expands the root
        i = m.root.moves.index(after.moves[-1])
        m._verify(b.copy(), m.root, i, seconds=1.0)
        lost[kind] = int(m.root.cp[i])
    assert lost == {"vct": 0, "vct3": 1}


def test_an_unknown_check_kind_is_refused():
    with pytest.raises(ValueError, match="verify_vct_kind"):
        MCTS(HeuristicEvaluator(), MCTSConfig(verify_vct_kind="vcf"))


def test_without_a_match_clock_the_search_uses_its_time(monkeypatch):
    """The early stop (best move cannot be overtaken) only when saved time is banked."""
    b = Board.from_moves([(7, 7), (8, 8)])
    played = {}
    for early, after in ((True, 0.0), (False, 0.0), (True, 0.5)):
        m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_ms=0, batch=1, early_stop_after=after))
        monkeypatch.setattr(m, "_decided", lambda *a: True)  # as if the leader could not be caught
        m.search(b, time.monotonic() + 30, 30.0, max_playouts=300, early_stop=early)
        played[early, after] = m.info.playouts
    # banked time: a stop at once, or only once half the optimum is gone (not within 300 playouts)
    assert played[True, 0.0] == 64 and played[False, 0.0] == 300 and played[True, 0.5] == 300


def test_a_refuted_leader_makes_the_move_think_longer(monkeypatch):
    """Each check that refutes the leader moves the soft limit on by refuted_extend of the optimum,
    up to max_extensions times, never past the hard limit."""
    b = Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6), (9, 9), (5, 9)])
    used = {}
    for refute in (False, True):
        m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_after=0.0, verify_gap=0.0, refuted_extend=0.5,
                                                  max_extensions=2))

        refuted = []

        def fake_verify(board, root, i, seconds, m=m, refuted=refuted):
            root.child(i).verified = True
            if refute and len(refuted) < 3:  # three leaders refuted: two extensions
                refuted.append(i)
                lib.rj_tree_prove_child(m._tree, root.id, i, 1, -1, -1)

        monkeypatch.setattr(m, "_verify", fake_verify)
        t0 = time.monotonic()
        m.search(b, t0 + 0.9, 0.3)
        used[refute] = time.monotonic() - t0
    assert used[False] < 0.45  # the optimum, 0.3 s
    assert 0.5 < used[True] < 0.9  # 0.3 s and two extensions of 0.15 s


def test_verification_waits_for_the_leader_to_settle(monkeypatch):
    b = Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6), (9, 9), (5, 9)])
    m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_after=0.5))
    calls = []
    real = m._verify

    def record(board, root, i, seconds):
        start = time.monotonic()
        real(board, root, i, seconds)
        calls.append((start - t0, seconds, time.monotonic() - start))

    monkeypatch.setattr(m, "_verify", record)
    t0 = time.monotonic()
    m.search(b, t0 + 0.6, 0.6, early_stop=False)
    assert calls and calls[0][0] >= 0.3 - 0.01  # not before half the move's time
    spent = 0.0
    for _, budget, took in calls:  # each check gets at most what is left of the share
        assert budget <= m.cfg.verify_share * 0.6 - spent + 1e-6
        spent += took


def test_a_decided_search_still_verifies_its_move_before_stopping(monkeypatch):
    b = Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6), (9, 9), (5, 9)])
    m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_after=1.0, batch=1, early_stop_after=0.0))
    monkeypatch.setattr(m, "_decided", lambda *a: True)
    verified = []

    def check(board, root, i, seconds):  # finds nothing, like most checks
        verified.append(root.moves[i])
        root.child(i).verified = True

    monkeypatch.setattr(m, "_verify", check)
    move = m.search(b, time.monotonic() + 30, 30.0, early_stop=True)
    assert m.info.playouts == 64 and verified and verified[-1] == move


def test_after_a_refuted_leader_the_next_check_waits_for_the_playouts(monkeypatch):
    """verify_gap: the move checked after a refutation is one the tree has looked at since, not
    the next in line at once (with verify_gap=0 it is checked at once)."""
    b = Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6), (9, 9), (5, 9)])
    for gap in (0.0, 0.5):
        m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_after=0.0, verify_gap=gap, batch=1))
        done = [0]
        real_playouts = m._playouts

        def counted(board, real=real_playouts, done=done):
            n = real(board)
            done[0] += n
            return n

        checks = []

        def refute(board, root, i, seconds, m=m, done=done, checks=checks):  # each check finds a win
            checks.append(done[0])
            root.child(i).verified = True
            if len(checks) <= 3:
                lib.rj_tree_prove_child(m._tree, root.id, i, 1, -1, -1)

        monkeypatch.setattr(m, "_playouts", counted)
        monkeypatch.setattr(m, "_verify", refute)
        m.search(b, time.monotonic() + 30, 30.0, max_playouts=3000, early_stop=False)
        assert len(checks) >= 4
        if gap == 0:
            assert checks[1] == checks[0] and checks[2] == checks[0]  # one after another, no playouts between
        else:
            for before, after in zip(checks[:3], checks[1:4]):
                assert after >= before + max(8, int(gap * before))


def test_the_tree_frees_what_a_new_root_leaves_behind():
    b = Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6), (9, 9), (5, 9)])
    m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_ms=0))
    m.search(b, time.monotonic() + 30, 30.0, max_playouts=1500, early_stop=False)
    big, nodes = int(lib.rj_tree_memory(m._tree)), int(lib.rj_tree_nodes(m._tree))
    root = m.root
    i = int(np.argmin(np.where(root.N > 0, root.N, np.inf)))  # a move the search barely looked at
    b.play(*root.moves[i])
    m.search(b, time.monotonic() + 30, 30.0, max_playouts=1, early_stop=False)
    assert int(lib.rj_tree_nodes(m._tree)) < nodes / 10 and int(lib.rj_tree_memory(m._tree)) < big


def test_the_memory_allowance_caps_the_tree():
    b = Board.from_moves([(7, 7), (8, 8)])
    played, grown = [], []
    for allowance in (100_000, 400_000, 1_600_000):
        m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_ms=0, batch=1))
        before = int(lib.rj_tree_memory(m._tree))
        m.search(b, time.monotonic() + 30, 30.0, max_playouts=20000, early_stop=False, memory_bytes=allowance)
        played.append(m.info.playouts)
        grown.append(int(lib.rj_tree_memory(m._tree)) - before)
        assert grown[-1] <= allowance
    assert 0 < played[0] < played[1] < played[2] < 20000
    tiny = MCTS(HeuristicEvaluator())
    move = tiny.search(b, time.monotonic() + 30, 30.0, max_playouts=5000, memory_bytes=1)
    assert tiny.info.playouts == 0 and b.is_legal(*move)
    assert tiny.root.priors[tiny.root.moves.index(move)] == tiny.root.priors.max()  # no visits: the best prior


def test_utss_depth_limits_apply_to_each_side_separately():
    """utss_plies bounds the tree's UTSS where the opponent is to move (odd plies), utss_plies_own
    where the root's side is (even plies)."""
    start = [(7, 7), (8, 8), (6, 8), (8, 6), (9, 9), (5, 9), (6, 6), (9, 7)]
    b = Board.from_moves(start)
    seen: dict[tuple[int, int], set[int]] = {}
    for odd, own in ((5, 2), (3, 4)):
        m = MCTS(HeuristicEvaluator(), MCTSConfig(utss_plies=odd, utss_plies_own=own, verify_ms=0, root_vct_ms=0))
        m.search(b, time.monotonic() + 30, 30.0, max_playouts=1500, early_stop=False)
        seen[(odd, own)] = {p for p in range(lib.RJ_TREE_PLY_STATS) if lib.rj_tree_utss_calls(m._tree, p)}
    assert max(p for p in seen[(5, 2)] if p % 2) == 5 and max(p for p in seen[(5, 2)] if p % 2 == 0) == 2
    assert max(p for p in seen[(3, 4)] if p % 2) == 3 and max(p for p in seen[(3, 4)] if p % 2 == 0) == 4


def test_a_hidden_vcf_narrows_the_root_to_its_answers():
    """White would win with a double four at j6 if it had the move: black's root keeps only the
    moves that stop it and its own fours, and plays one of them; without the check (the plain
    filter) the root holds every nearby point."""
    black = [(4, 5), (9, 9), (0, 14), (2, 12), (3, 12), (4, 12)]
    white = [(5, 5), (6, 5), (7, 5), (9, 6), (9, 7), (9, 8), (14, 0)]
    b = Board.from_stones(black, white, to_move=Color.BLACK)
    move, m = run(b, playouts=300)
    assert set(m.root.moves) < set(b.candidate_moves(3))
    assert {(8, 5), (9, 5), (9, 4)} <= set(m.root.moves)
    assert move in m.root.moves
    after = b.copy()
    after.play(*move)
    if after.threat(Color.BLACK) < 2:  # not a four of black's: then it must have broken the VCF
        assert Prover().solve(after, "vcf", max_depth=4).result != "win"
    _, plain = run(b, playouts=50, mcts=MCTS(HeuristicEvaluator(), MCTSConfig(threat_vcf_depth=0)))
    assert set(plain.root.moves) == set(b.candidate_moves(3))


def test_realtime_lines_mark_searched_and_lost_root_moves():
    """Yixin-Board draws POS (being searched), DONE (searched), BEST and LOST marks: each is sent
    when it changes, DONE names a point POS named before, and LOST each root move proven lost
    (here white's threes beat most of black's moves)."""
    black = [(10, 10), (11, 3), (2, 12), (12, 12)]
    white = [(5, 5), (6, 5), (7, 6), (7, 7)]
    b = Board.from_stones(black, white, to_move=Color.BLACK)
    lines: list[str] = []
    m = MCTS(HeuristicEvaluator())
    m.search(b, time.monotonic() + 3, 1.5, report=lines.append, early_stop=False)
    kinds = [line.split()[1] for line in lines]
    assert kinds[0] == "REFRESH" and "BEST" in kinds and "POS" in kinds
    points = {k: [tuple(map(int, line.split()[2].split(","))) for line in lines if line.split()[1] == k]
              for k in ("BEST", "POS", "DONE", "LOST")}
    lost = set(points["LOST"])
    assert len(lost) == len(points["LOST"]) >= 3  # each once
    assert lost == {mv for mv, cp in zip(m.root.moves, m.root.cp) if cp > 0}
    for i, done in enumerate(points["DONE"]):
        assert done == points["POS"][i]  # DONE closes the POS before the next one
    for k in ("BEST", "POS"):
        assert all(p != q for p, q in zip(points[k], points[k][1:]))  # sent only when it changes


def test_the_vct_lines_of_a_game_end_at_one_stone_count():
    """Table entries are keyed by where a VCT's lines end: the same count all game long (Renju's
    draw cap less the margin), so a proof can use what an earlier move's proofs stored."""
    m = MCTS(HeuristicEvaluator())
    ends = set()
    for stones in (20, 41, 110):
        board = _filled(stones)
        ends.add(board.stone_count + m._vct_plies(board))
    assert ends == {225 - 25 - lib.RJ_CAP_MARGIN}


def _filled(stones: int) -> Board:
    """A Renju position of `stones` stones and no five: every other row, colours alternating."""
    b = Board(rule=Rule.RENJU)
    for p in [(x, y) for y in range(0, 15, 2) for x in range(15)][:stones]:
        b.play(*p)
    assert b.stone_count == stones and not b.game_over
    return b


def test_the_search_says_where_its_time_went():
    """SearchInfo.times: the tree's C loop and the evaluator take time in any search; the checks'
    provers only where a check ran; all parts together within the search's seconds."""
    from engine.search.mcts import TIME_PARTS

    b = Board.from_moves(LOST_GAME)
    m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_ms=300, verify_after=0.0))
    m.search(b, time.monotonic() + 1.0, 1.0, early_stop=False)
    times = m.info.times
    assert set(times) == set(TIME_PARTS)
    assert times["tree (C)"] > 0 and times["evaluator"] > 0
    assert times["check: vct"] > 0  # a check ran: it begins with the VCT
    assert sum(times.values()) <= m.info.seconds + 1e-3
    quiet = MCTS(HeuristicEvaluator(), MCTSConfig(verify_ms=0))
    quiet.search(Board.from_moves([(7, 7)]), time.monotonic() + 0.3, 0.3, max_playouts=50)
    assert quiet.info.times["check: vct"] == quiet.info.times["check: utss"] == 0.0  # no checks, no root VCT
    assert quiet.info.times["root VCT"] == 0.0 and quiet.info.times["evaluator"] > 0
