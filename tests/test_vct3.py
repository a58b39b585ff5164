"""The VCT3 prover (kind "vct3": the VCT with the attacker's quiet threats, λ-search's order 3) and
its verification: wins that open with a quiet move (quintet's fukumi puzzle, a PentaZen game),
no claim where there is no win, Renju's fouls on both sides, random positions against the plain
VCT; every proof replayed to the five and checked in full by the verifier."""
from __future__ import annotations

import pytest

from engine.bench.movekind import move_kind
from engine.board import Board, Color, Rule
from engine.prover import Prover
from tests import diagrams as D
from tests.test_prover import replay_wins
from tests.test_vct import puzzle_board, quintet_cases, random_positions, vct_record


def proved_and_verified(board: Board, nodes: int = 3_000_000, quiet: int = 1, p: Prover | None = None):
    """The VCT3 proof of the side to move, or None: on a win the line replays legally (fouls
    included) to the attacker's five and the verifier answers every defence."""
    p = p or Prover(tt_bits=20)
    before = (board.hash, board.moves)
    p.clear()
    proof = p.solve(board, "vct3", budget_nodes=nodes, threat_depth=quiet)
    assert (board.hash, board.moves) == before
    if proof.result != "win":
        return None
    replay_wins(board, proof.line, board.to_move)
    check = p.verify(board, kind="vct3", quiet=quiet, budget_nodes=50_000_000)
    assert check.result == "verified", (check, board)
    assert (board.hash, board.moves) == before
    board.check()
    return proof


def is_quiet(board: Board, move) -> bool:
    """Neither a four nor a three (nor a five) for the side to move."""
    return move_kind(board, move) == "-"


def test_the_fukumi_puzzle_opens_with_a_quiet_threat():
    """quintet's fukumi puzzle, which the plain VCT cannot prove (test_vct): VCT3 plays its quiet
    move, G12, and the proof verifies."""
    [(rec, check)] = [c.values for c in quintet_cases("VCTDFS", quiet=True)
                      if "fukumi" in c.values[0]["id"] and c.values[1]["expect"] == "solution"]
    board = puzzle_board(rec, check)
    proof = proved_and_verified(board)
    assert proof is not None and proof.line[0] == (6, 11) and is_quiet(board, proof.line[0])


def test_a_real_games_quiet_first_win():
    """White to move in a game PentaZen won against the engine (PentaZen and Rapfi both announce
    the win, opening with a quiet move): the plain VCT searches its space out without a win, VCT3
    proves it with a quiet first move."""
    board = vct_record("pentazen-game v6-23/0083 ply 17")
    p = Prover(tt_bits=20)
    plain = p.solve(board, "vct", budget_nodes=2_000_000)
    assert plain.result == "unknown" and not plain.aborted
    proof = proved_and_verified(board, nodes=2_000_000, p=p)
    assert proof is not None and is_quiet(board, proof.line[0])


def test_no_win_is_claimed_where_there_is_none():
    """Three stones of an opening: quiet threats are tried, none wins, the search ends without a
    proof before its budget, and the verifier refutes the position."""
    quiet = Board.from_moves([(7, 7), (7, 8), (8, 8)])
    p = Prover(tt_bits=20)
    plain = p.solve(quiet, "vct", budget_nodes=5_000_000)
    proof = p.solve(quiet, "vct3", budget_nodes=5_000_000)
    assert proof.result == "unknown" and not proof.aborted and proof.nodes > plain.nodes
    assert p.verify(quiet, kind="vct3").result == "refuted"


def test_white_wins_where_blacks_only_block_is_a_foul():
    """White's four whose only block is black's double three (docs/rules.md), one white stone short:
    VCT3 proves it as the VCT does, the line legal for both sides."""
    grid, _ = D.parse_diagram(D.FORBIDDEN_DEFENCE)
    n = len(grid)
    black = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == 1]
    white = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == 2 and (x, y) != (10, 8)]
    assert proved_and_verified(Board.from_stones(black, white, to_move=Color.WHITE)) is not None


def test_black_never_wins_through_a_foul():
    """Black's quickest win is the double four at h8, a foul in Renju: VCT3's Renju proof goes round
    it, every black move legal."""
    black = [(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)]
    white = [(3, 7), (7, 3), (1, 1), (13, 13)]
    board = Board.from_stones(black, white, to_move=Color.BLACK, rule=Rule.RENJU)
    assert board.foul(7, 7).name == "DOUBLE_FOUR"
    proof = proved_and_verified(board)
    assert proof is not None and (7, 7) not in proof.line[0::2]


@pytest.mark.parametrize("rule", [Rule.RENJU, Rule.FREESTYLE])
def test_vct3_on_random_positions_against_the_vct(rule):
    """VCT3 gives its plain VCT half its budget first, so every win the VCT finds within that half
    VCT3 finds too; every VCT3 proof replays and verifies, for either colour to move."""
    p, wins, colours = Prover(tt_bits=20), 0, set()
    for board in random_positions(37, rule, games=40):
        p.clear()
        plain = p.solve(board, "vct", budget_nodes=100_000)
        proof = proved_and_verified(board, nodes=200_000, p=p)
        if plain.result == "win":
            assert proof is not None, board
        if proof is not None:
            wins += 1
            colours.add(board.to_move)
    assert wins >= 5 and colours == {Color.BLACK, Color.WHITE}
