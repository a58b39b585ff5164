"""The self-play VCF set (tests/data/vcf_positions.jsonl): at least 200 positions, every one
solved again within a node budget, every line replayed to the attacker's five."""
from __future__ import annotations

from engine.bench.prover import attacking_moves, board_of, load
from engine.board import Color, Result
from engine.prover import Prover


def test_dataset_is_large_and_solved():
    records = load()
    assert len(records) >= 200
    prover = Prover()
    for rec in records:
        board = board_of(rec)
        assert board.to_move.name.lower() == rec["to_move"]
        proof = prover.solve(board, "vcf", max_depth=40, budget_nodes=2_000_000)
        assert proof.result == "win", rec["moves"]
        assert attacking_moves(proof.line) == rec["vcf_moves"]  # the shortest VCF, found again
        b = board.copy()
        attacker = b.to_move
        for move in proof.line:
            b.play(*move)
        assert b.result == (Result.BLACK_WINS if attacker == Color.BLACK else Result.WHITE_WINS)
