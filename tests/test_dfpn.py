"""The proof-number search (kind "dfpn"): quintet's puzzles, soundness against every defence,
agreement with UTSS on random positions, the refutations from lost games, and the check of the
search's leading move that uses it."""
from __future__ import annotations

import json
import random
import time
from pathlib import Path

import numpy as np
import pytest

from engine.board import Board, Color, Result, Rule
from engine.board.coords import parse_points
from engine.net.evaluator import HeuristicEvaluator
from engine.prover import Prover
from engine.search.mcts import MCTS, MCTSConfig
from tests.conftest import VECTORS
from tests.randomgames import random_game
from tests.test_prover import quintet_point, replay_wins

REFUTATIONS = Path(__file__).parent / "data" / "refutations.jsonl"
CAP = 40  # plies, as the search's checks use


def refutations() -> dict[int, Board]:
    """Match game number -> the position after the engine's decisive move (the opponent to move)."""
    recs = [json.loads(line) for line in REFUTATIONS.read_text().splitlines()[1:]]
    return {r["game"]: Board.from_moves(parse_points(r["moves"])) for r in recs}


def quintet_wins():
    """The puzzles with a stated solution that fits the cap (the 255-ply VCF does not)."""
    cases = []
    for line in (VECTORS / "quintet_mate.jsonl").read_text().splitlines():
        rec = json.loads(line)
        for check in rec["checks"]:
            if check["solver"] in ("VCFDFS", "VCTDFS") and check["expect"] == "solution" and check["max_depth"] < 20:
                cases.append(pytest.param(rec, check, id=f'{rec["id"]}-{check["kind"]}{check["max_depth"]}'))
    return cases


def puzzle_board(rec, check) -> tuple[Board, Color]:
    attacker = Color.BLACK if check["attacker"] == "black" else Color.WHITE
    return Board.from_stones([quintet_point(p) for p in rec["black"]], [quintet_point(p) for p in rec["white"]],
                             to_move=attacker), attacker


@pytest.mark.parametrize("rec, check", quintet_wins())
def test_dfpn_proves_the_quintet_puzzles(rec, check):
    board, attacker = puzzle_board(rec, check)
    before = (board.hash, board.moves)
    proof = Prover(tt_bits=20).solve(board, "dfpn", max_depth=CAP, budget_nodes=5_000_000,
                                     threat_depth=check["vct_threat_limit"])
    assert proof.result == "win" and not proof.aborted
    assert (board.hash, board.moves) == before
    board.check()
    replay_wins(board, proof.line, attacker)


def test_dfpn_answers_win_or_unknown_and_keeps_the_board_when_stopped():
    b = refutations()[12]
    before = (b.hash, b.moves)
    p = Prover(tt_bits=20)
    stopped = p.solve(b, "dfpn", max_depth=CAP, budget_nodes=50)
    assert stopped.result == "unknown" and stopped.aborted and stopped.nodes <= 51
    assert (b.hash, b.moves) == before
    b.check()
    quiet = Board.from_moves([(7, 7), (7, 8), (8, 8)])  # no threats at all: disproved at once
    proof = p.solve(quiet, "dfpn", max_depth=CAP, budget_nodes=10_000)
    assert proof.result == "unknown" and not proof.aborted and proof.nodes == 1


def test_every_defence_still_loses_after_the_proofs_first_move():
    """Soundness beyond the proof's own move lists: after the attacker's first move, each legal
    reply of the defender (not just the defences the search generates) leaves a proven win or a
    five at once."""
    p = Prover(tt_bits=20)
    for game in (16, 18, 63):  # proofs of 10-100 ms
        board = refutations()[game]
        attacker = board.to_move
        proof = p.solve(board, "dfpn", max_depth=CAP, budget_ms=5000)
        assert proof.result == "win", board
        after = board.copy()
        after.play(*proof.line[0])
        assert not after.game_over
        for reply in after.legal_moves():
            b = after.copy()
            b.play(*reply)
            assert not b.game_over or b.result == (Result.BLACK_WINS if attacker == Color.BLACK else Result.WHITE_WINS)
            if b.game_over:
                continue
            p.clear()
            again = p.solve(b, "dfpn", max_depth=CAP, budget_ms=5000)
            assert again.result == "win", f"{reply} holds after {proof.line[0]} in\n{after}"


@pytest.mark.parametrize("rule", [Rule.RENJU, Rule.FREESTYLE])
def test_dfpn_agrees_with_utss_on_random_positions(rule):
    """Both search one threat space: what a 9-ply UTSS proves won, df-pn proves too; and df-pn
    never proves a win where UTSS proves the side to move lost."""
    rng = random.Random(13)
    p, compared = Prover(tt_bits=20), 0
    for _ in range(120):
        board = random_game(rng, rule, rng.randrange(12, 60))
        if board.game_over:
            continue
        p.clear()
        utss = p.solve(board, "utss", max_depth=9, budget_nodes=300_000)
        p.clear()
        dfpn = p.solve(board, "dfpn", max_depth=CAP, budget_nodes=2_000_000)
        if utss.result == "win" and not dfpn.aborted:
            compared += 1
            assert dfpn.result == "win", board
            replay_wins(board, dfpn.line, board.to_move)
        if dfpn.result == "win":
            assert utss.result != "loss", board
    assert compared >= 10


def test_dfpn_reaches_the_refutations_that_lost_games():
    """The positions after the engine's decisive moves in a match it lost 20 games of: with the
    same node budget, df-pn proves far more of the opponent's wins than UTSS (the check's 13
    plies), which proves almost none."""
    p = Prover(tt_bits=20)
    proved = {"dfpn": 0, "utss": 0}
    boards = list(refutations().values())
    for board in boards:
        for kind, depth in (("dfpn", CAP), ("utss", 13)):
            p.clear()
            proved[kind] += p.solve(board, kind, max_depth=depth, budget_nodes=300_000).result == "win"
    assert proved["dfpn"] >= 2 * len(boards) // 5  # 8 of 20 when written (UTSS: 1)
    assert proved["dfpn"] >= proved["utss"] + 6


def test_the_check_with_dfpn_refutes_the_move_that_lost():
    """The search's check of its leading move, given 0.3 s with df-pn first, proves refuted the
    move the engine played in a lost game (UTSS alone needed 1.6 s for it here)."""
    board = refutations()[33]
    before = Board.from_moves(board.moves[:-1])
    played = board.moves[-1]
    m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_vct=0.0, verify_dfpn=0.8))
    m.search(before, time.monotonic() + 5, 5.0, max_playouts=1)  # expands the root
    i = m.root.moves.index(played)
    m._verify(before.copy(), m.root, i, seconds=0.3)
    assert m.root.cp[i] == 1  # won for the opponent, the child's mover
    assert m.root.children[i].win_move is not None
    assert before.moves == board.moves[:-1]  # the board is unchanged


@pytest.mark.parametrize("vct", [0.0, 0.4])
def test_after_a_disproof_the_check_gives_utss_the_rest(monkeypatch, vct):
    """VCT (when on), then df-pn; when they have searched the opponent's threats out without a win,
    the UTSS gets the rest of the check's time (for our own wins), and no more than that."""
    before = Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6), (9, 9), (5, 9)])
    m = MCTS(HeuristicEvaluator(), MCTSConfig(verify_vct=vct, verify_dfpn=0.8))
    m.search(before, time.monotonic() + 5, 5.0, max_playouts=1)
    calls = []
    real = m.prover.solve

    def record(board, kind="vcf", *args, **kwargs):
        proof = real(board, kind, *args, **kwargs)
        calls.append((kind, proof))
        return proof

    monkeypatch.setattr(m.prover, "solve", record)
    i = int(np.argmax(m.root.priors))
    m._verify(before.copy(), m.root, i, seconds=0.2)
    kinds = ["vct", "dfpn", "utss"] if vct else ["dfpn", "utss"]
    assert [kind for kind, _ in calls] == kinds
    assert all(p.result == "unknown" and not p.aborted for _, p in calls[:-1])  # disproved
    assert calls[-1][1].ms <= 0.2 * 1000 - sum(p.ms for _, p in calls[:-1]) + 5


def test_a_prover_that_kept_its_move_lists_proves_as_a_fresh_one():
    """df-pn keeps each node's moves for the rest of its proof (prover.c's move cache); a later
    proof, here with other threat depths and line lengths, must not take the earlier one's lists:
    one prover cleared between proofs finds the same results, lines and node counts as a new
    prover for each."""
    kept = Prover(tt_bits=18)
    boards = list(refutations().values())[:6]
    settings = [(depth, cap) for depth in (3, 1, 0) for cap in (CAP, 21)]
    for board in boards:
        for threat_depth, cap in settings:
            kept.clear()
            again = kept.solve(board, "dfpn", max_depth=cap, budget_nodes=150_000, threat_depth=threat_depth)
            fresh = Prover(tt_bits=18).solve(board, "dfpn", max_depth=cap, budget_nodes=150_000,
                                             threat_depth=threat_depth)
            assert (again.result, again.line, again.nodes) == (fresh.result, fresh.line, fresh.nodes), \
                (threat_depth, cap, board)
