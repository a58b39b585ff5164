"""The VCT prover (kind "vct") and its verifier: quintet's VCT puzzles at their stated depths (the
Renju foul puzzles among them), VCFs, positions where the defender escapes, random positions
checked against UTSS, and every proof the tests find checked in full by the verifier."""
from __future__ import annotations

import json
import random

import pytest

from engine.bench.prover import VCT_SET, board_of, load
from engine.board import Board, Color, Result, Rule
from engine.native import BoardError
from engine.prover import Prover
from tests import diagrams as D
from tests.conftest import VECTORS
from tests.randomgames import random_game
from tests.test_prover import quintet_point, replay_wins


def quintet_cases(solver: str, quiet: bool = False):
    """quintet's checks of one solver; `quiet`: also the puzzle whose win needs a quiet move."""
    cases = []
    for line in (VECTORS / "quintet_mate.jsonl").read_text().splitlines():
        rec = json.loads(line)
        for check in rec["checks"]:
            if check["solver"] == solver and (quiet or "fukumi" not in rec["id"]):
                cases.append(pytest.param(rec, check, id=f'{rec["id"]}-{check["max_depth"]}-{check["expect"]}'))
    return cases


def puzzle_board(rec, check) -> Board:
    attacker = Color.BLACK if check["attacker"] == "black" else Color.WHITE
    return Board.from_stones([quintet_point(p) for p in rec["black"]], [quintet_point(p) for p in rec["white"]],
                             to_move=attacker)


def proved_and_verified(board: Board, plies: int = 120, nodes: int = 5_000_000) -> bool:
    """Solve; on a win, the line replays legally to the attacker's five and the verifier answers
    every defence. Returns whether it was a win."""
    p = Prover(tt_bits=20)
    before = (board.hash, board.moves)
    proof = p.solve(board, "vct", max_depth=plies, budget_nodes=nodes)
    assert (board.hash, board.moves) == before
    if proof.result != "win":
        return False
    replay_wins(board, proof.line, board.to_move)
    check = p.verify(board, max_depth=plies, budget_nodes=50_000_000)
    assert check.result == "verified", (check, board)
    assert (board.hash, board.moves) == before
    board.check()
    return True


@pytest.mark.parametrize("rec, check", quintet_cases("VCTDFS"))
def test_quintet_vct_puzzles_at_their_depths(rec, check):
    """Their depth counts attacking moves: N of them is 2N - 1 plies. test_vct_forbidden_breaker and
    test_vct_dual_forbiddens are Renju foul puzzles (a defence on a forbidden point)."""
    board = puzzle_board(rec, check)
    won = proved_and_verified(board, plies=2 * check["max_depth"] - 1)
    assert won == (check["expect"] == "solution")


@pytest.mark.parametrize("rec, check",
                         [c for c in quintet_cases("VCTDFS", quiet=True) if "fukumi" in c.values[0]["id"]])
def test_a_win_that_needs_a_quiet_move_is_not_claimed(rec, check):
    """The fukumi puzzle's win starts with a move that is neither a four nor a three: outside the
    VCT's threat space, so no proof at any depth, and never a false one."""
    board = puzzle_board(rec, check)
    assert Prover(tt_bits=20).solve(board, "vct", budget_nodes=2_000_000).result == "unknown"


@pytest.mark.parametrize("rec, check", [c for c in quintet_cases("VCFDFS") if c.values[1]["expect"] == "solution"
                                        and c.values[1]["max_depth"] < 60])
def test_every_vcf_puzzle_is_a_vct(rec, check):
    assert proved_and_verified(puzzle_board(rec, check))


def test_white_wins_where_blacks_only_block_is_a_foul():
    """White's four whose only block is black's double three (docs/rules.md): a win of one move,
    and with one more white stone missing, a three first."""
    grid, marks = D.parse_diagram(D.FORBIDDEN_DEFENCE)
    n = len(grid)
    black = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == 1]
    white = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == 2]
    white.remove((10, 8))
    board = Board.from_stones(black, white, to_move=Color.WHITE)
    assert board.foul(*marks["g"]).name == "DOUBLE_THREE"
    assert proved_and_verified(board)
    proof = Prover().solve(board, "vct")
    assert len(proof.line) == 3  # a four (at k9 or g9), black's reply, the five


def test_black_never_wins_through_a_foul():
    """Black's quickest win is the double four at h8 (a foul in Renju, a win in freestyle): under
    Renju black's proof goes round it, every move legal, and verifies."""
    black = [(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)]
    white = [(3, 7), (7, 3), (1, 1), (13, 13)]
    lines = {}
    for rule in (Rule.RENJU, Rule.FREESTYLE):
        board = Board.from_stones(black, white, to_move=Color.BLACK, rule=rule)
        assert board.foul(7, 7).name == ("DOUBLE_FOUR" if rule == Rule.RENJU else "NONE")
        assert proved_and_verified(board)
        lines[rule] = Prover().solve(board, "vct").line
    assert (7, 7) not in lines[Rule.RENJU][0::2]
    assert len(lines[Rule.FREESTYLE]) == 3 and lines[Rule.FREESTYLE][0] == (7, 7)


def test_the_defenders_own_threat_changes_the_race():
    """Black wins by threes from its cluster; give white an open three far away and black's threes
    are too slow (white's straight four comes first): no VCT. Give white instead a three whose
    block makes a black three, and black blocks with tempo and still wins."""
    black = [(6, 7), (7, 7), (7, 8), (8, 8), (6, 9)]
    quiet = [(12, 2), (13, 3), (12, 12)]
    assert proved_and_verified(Board.from_stones(black, quiet, to_move=Color.BLACK))
    far_three = Board.from_stones(black, quiet + [(1, 2), (1, 3), (1, 4)], to_move=Color.BLACK)
    assert far_three.threat(Color.WHITE) == 1
    assert Prover().solve(far_three, "vct", budget_nodes=2_000_000).result == "unknown"
    near_three = Board.from_stones(black, quiet + [(2, 2), (3, 3), (4, 4)], to_move=Color.BLACK)
    assert near_three.threat(Color.WHITE) == 1
    assert proved_and_verified(near_three)
    assert Prover().solve(near_three, "vct").line[0] in ((5, 5), (1, 1))


def random_positions(seed: int, rule: Rule, games: int = 90):
    """Positions of random games (14 to 69 moves), those not already decided."""
    rng = random.Random(seed)
    for _ in range(games):
        board = random_game(rng, rule, rng.randrange(14, 70))
        if not board.game_over:
            yield board


@pytest.mark.parametrize("rule", [Rule.RENJU, Rule.FREESTYLE])
def test_vct_on_random_positions_against_utss(rule):
    """Every VCT proof replays and verifies; VCT never claims a win where UTSS proves the side to
    move lost; and what UTSS proves within fours and threes at 7 plies, VCT proves too."""
    p, wins, compared = Prover(tt_bits=20), 0, 0
    for board in random_positions(29, rule):
        p.clear()
        utss = p.solve(board, "utss", max_depth=7, budget_nodes=300_000, threat_depth=1)
        won = proved_and_verified(board, nodes=2_000_000)
        wins += won
        if utss.result == "loss":
            assert not won, board
        if utss.result == "win" and not utss.aborted:
            compared += 1
            assert won, board
    assert wins >= 10 and compared >= 5


def test_budgets_stop_it_and_the_board_stays():
    board = Board.from_stones([quintet_point(p) for p in ("H8", "I9", "J10", "H10", "H11")],
                              [quintet_point(p) for p in ("G7", "K11", "H9", "G10")], to_move=Color.BLACK)
    before = (board.hash, board.moves)
    proof = Prover().solve(board, "vct", budget_nodes=40)
    assert proof.aborted and proof.result == "unknown" and proof.nodes <= 41 + 2000
    assert (board.hash, board.moves) == before
    board.check()
    quiet = Board.from_moves([(7, 7), (7, 8), (8, 8)])
    assert Prover().solve(quiet, "vct").result == "unknown"


def test_the_verifier_refutes_a_position_without_a_win():
    quiet = Board.from_moves([(7, 7), (7, 8), (8, 8)])
    assert Prover().verify(quiet).result == "refuted"
    decided = Board.from_moves([(7, 7), (0, 0), (8, 7), (0, 1), (9, 7), (0, 2), (10, 7), (0, 3), (11, 7)])
    with pytest.raises(BoardError):
        Prover().verify(decided)


def line_still_wins(p: Prover, board: Board, line: list) -> None:
    """A direct win's line is legal and ends in the attacker's five, or (read back short of it
    where the table lost the proof's entries) at a position that is again a direct win."""
    b = board.copy()
    for move in line:
        assert b.is_legal(*move), (move, b)
        b.play(*move)
    if b.result == Result.ONGOING:
        assert b.to_move == board.to_move
        p.clear()
        assert p.solve(b, "vct-direct", budget_nodes=2_000_000).result == "win", b
    else:
        assert b.result == (Result.BLACK_WINS if board.to_move == Color.BLACK else Result.WHITE_WINS)


def vct_record(source: str) -> Board:
    """A position of tests/data/vct_positions.jsonl (real games; the file's header says whence)."""
    return board_of(next(r for r in load(VCT_SET) if r["source"] == source))


@pytest.mark.parametrize("rule", [Rule.RENJU, Rule.FREESTYLE])
def test_direct_vct_bounds_the_vct_on_random_positions(rule):
    """vct-direct leaves out only the defender's delaying fours, so every VCT win is a direct win,
    and a direct search that finishes without one rules the VCT out; its line (against direct
    defences) replays legally towards the attacker's five (line_still_wins)."""
    p, exact_wins, ruled_out = Prover(tt_bits=20), 0, 0
    for board in random_positions(31, rule):
        p.clear()
        exact = p.solve(board, "vct", budget_nodes=500_000)
        p.clear()
        direct = p.solve(board, "vct-direct", budget_nodes=500_000)
        if exact.result == "win":
            exact_wins += 1
            assert direct.result == "win", board
        elif direct.result != "win" and not direct.aborted:
            ruled_out += 1
        if direct.result == "win":
            line_still_wins(p, board, direct.line)
    assert exact_wins >= 10 and ruled_out >= 10


def test_a_delaying_four_is_what_the_direct_vct_leaves_out():
    """White to move in a PentaZen game: against direct defences white wins (734 nodes), but black's
    own fours escape: the VCT searches it out without a win, and the verifier refutes it."""
    board = vct_record("pentazen-game v6-23/0079 ply 35")
    p = Prover(tt_bits=20)
    direct = p.solve(board, "vct-direct", budget_nodes=300_000)
    assert direct.result == "win"
    line_still_wins(p, board, direct.line)
    p.clear()
    exact = p.solve(board, "vct", budget_nodes=3_000_000)
    assert exact.result == "unknown" and not exact.aborted
    p.clear()
    assert p.verify(board, budget_nodes=20_000_000).result == "refuted"


def test_open_numbers_never_add_up_to_a_disproof():
    """Black to move in a PentaZen game (+v19): a proof of about 1.7 M nodes, whose open
    children's disproof numbers once summed to RJ_PN_INF, the mark of a proven node, and the root
    then read as searched out without a win. Sums of open children stay below it now."""
    board = vct_record("pentazen-game 0020 ply 14")
    p = Prover(tt_bits=20)
    proof = p.solve(board, "vct", budget_nodes=4_000_000)
    assert proof.result == "win", (proof.nodes, proof.aborted)
    assert p.verify(board, budget_nodes=40_000_000).result == "verified"
