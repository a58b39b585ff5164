"""The threat-space prover: quintet's mate puzzles at their stated depths, replayed lines,
Renju-foul-aware cases, one-move wins, budgets, and the board left untouched."""
from __future__ import annotations

import json
import random
import time

import pytest

from engine.board import Board, Color, Result, Rule
from engine.prover import Prover, solve
from tests import diagrams as D
from tests.conftest import VECTORS
from tests.randomgames import random_game


def quintet_point(name: str) -> tuple[int, int]:
    return ord(name[0].upper()) - ord("A"), int(name[1:]) - 1


def puzzle_cases():
    cases = []
    for line in (VECTORS / "quintet_mate.jsonl").read_text().splitlines():
        rec = json.loads(line)
        for check in rec["checks"]:
            if check["solver"] in ("VCFDFS", "VCTDFS"):  # the other solvers repeat the same puzzles
                cases.append(pytest.param(rec, check, id=f'{rec["id"]}-{check["kind"]}{check["max_depth"]}'
                                                        f'-t{check["vct_threat_limit"]}-{check["expect"]}'))
    return cases


def replay_wins(board: Board, line: list[tuple[int, int]], attacker: Color) -> None:
    """Every move of the line is legal (fouls included) and the attacker ends with a five."""
    b = board.copy()
    for move in line:
        assert b.is_legal(*move), f"{move} is not legal in\n{b}"
        b.play(*move)
    assert b.result == (Result.BLACK_WINS if attacker == Color.BLACK else Result.WHITE_WINS)


@pytest.mark.parametrize("rec, check", puzzle_cases())
def test_quintet_puzzles_at_their_depths(rec, check):
    attacker = Color.BLACK if check["attacker"] == "black" else Color.WHITE
    board = Board.from_stones([quintet_point(p) for p in rec["black"]], [quintet_point(p) for p in rec["white"]],
                              to_move=attacker)
    before = (board.hash, board.moves)
    if check["kind"] == "vcf":
        proof = Prover().solve(board, "vcf", max_depth=check["max_depth"], budget_nodes=50_000_000)
    else:  # max_depth counts attacking moves: N of them is 2N - 1 plies
        proof = Prover().solve(board, "utss", max_depth=2 * check["max_depth"] - 1, budget_nodes=150_000_000,
                               threat_depth=check["vct_threat_limit"])
    assert not proof.aborted
    assert (board.hash, board.moves) == before
    board.check()
    if check["expect"] == "solution":
        assert proof.result == "win"
        replay_wins(board, proof.line, attacker)
        if check["kind"] == "vcf":  # a VCF line is the attacker's fours and forced blocks
            assert len(proof.line) <= 2 * check["max_depth"] + 1
    else:
        assert proof.result != "win"


def test_white_wins_through_blacks_forbidden_block():
    """White's four whose only block is black's double three is a VCF of one move for white."""
    grid, marks = D.parse_diagram(D.FORBIDDEN_DEFENCE)
    n = len(grid)
    black = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == 1]
    white = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == 2]
    g = marks["g"]
    # Take back one white stone of the four so that white has to make it: h9..k9 minus k9.
    white.remove((10, 8))
    board = Board.from_stones(black, white, to_move=Color.WHITE)
    assert board.foul(*g).name == "DOUBLE_THREE"
    proof = solve(board, "vcf", max_depth=1)
    assert proof.result == "win"
    replay_wins(board, proof.line, Color.WHITE)


def test_black_vcf_never_uses_a_forbidden_four():
    """Black's only 'fours' here complete a double four (a foul): no VCF for black, although
    the same stones would give white (no fouls) a win."""
    grid, marks = D.parse_diagram(D.FIVE_AND_DOUBLE_FOUR)
    n = len(grid)
    grid[3][7] = 0  # no five through p any more: p is a plain double four
    black = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == 1]
    board = Board.from_stones(black, [(0, 0), (14, 14), (0, 14), (14, 0), (1, 1), (13, 13)], to_move=Color.BLACK)
    p = marks["p"]
    assert board.foul(*p).name == "DOUBLE_FOUR"
    proof = solve(board, "vcf", max_depth=2)
    assert p not in proof.line[:1]
    if proof.result == "win":
        replay_wins(board, proof.line, Color.BLACK)
    free = Board.from_stones(black, [(0, 0), (14, 14), (0, 14), (14, 0), (1, 1), (13, 13)], to_move=Color.BLACK,
                             rule=Rule.FREESTYLE)
    assert solve(free, "vcf", max_depth=1).result == "win"  # under freestyle the double four wins


@pytest.mark.parametrize("rule", list(Rule))
def test_random_positions_with_a_one_move_win_are_solved(rule):
    rng = random.Random(int(rule))
    found = 0
    while found < 25:
        board = random_game(rng, rule, rng.randint(8, 60))
        if board.game_over:
            continue
        winning = [m for m in board.legal_moves() if board.wins_at(*m)]
        if not winning:
            continue
        found += 1
        for kind in ("vcf", "utss"):
            proof = solve(board, kind, max_depth=1)
            assert proof.result == "win" and proof.line[0] in winning
            replay_wins(board, proof.line, board.to_move)


@pytest.mark.parametrize("rule", [Rule.RENJU, Rule.STANDARD])
def test_a_warm_vcf_table_answers_as_a_fresh_search_at_every_depth(rule):
    """A VCF search that failed without meeting its depth limit is stored as failing at any depth;
    one that met it, only up to that depth. A table warmed by searches of every depth, at the
    position and at those below it (after each four and its block), must answer each depth as a
    fresh search does, including the positions whose VCF needs exactly that depth."""
    rng = random.Random(int(rule) + 40)
    shared = Prover(tt_bits=14)  # small: entries of many positions meet in the same slots
    depths = (1, 2, 3, 5, 40, 4, 2)
    binding = 0
    for _ in range(60):
        board = random_game(rng, rule, rng.randint(16, 70), radius=1)
        if board.game_over:
            continue
        fresh = {d: Prover(tt_bits=14).solve(board, "vcf", max_depth=d).result for d in depths}
        binding += len(set(fresh.values())) > 1  # a VCF that a shallower limit misses
        mover, fours = board.to_move, 0
        for move in board.legal_moves():
            below = board.copy()
            below.play(*move)
            if below.game_over or below.threat(mover) != 2 or fours == 4:
                continue
            fours += 1
            block = next(m for m in below.legal_moves() + below.forbidden_list() if below.wins_at(*m, mover))
            if below.is_legal(*block):
                below.play(*block)
                if not below.game_over:
                    for d in depths:
                        shared.solve(below, "vcf", max_depth=d)
        for d in depths:
            assert shared.solve(board, "vcf", max_depth=d).result == fresh[d], (d, str(board))
    assert binding >= 3


def test_budgets_are_honoured():
    rec = next(json.loads(line) for line in (VECTORS / "quintet_mate.jsonl").read_text().splitlines()
               if "fukumi" in line)
    board = Board.from_stones([quintet_point(p) for p in rec["black"]], [quintet_point(p) for p in rec["white"]],
                              to_move=Color.BLACK)
    for ms in (5.0, 30.0, 100.0):
        prover = Prover()
        cpu = time.thread_time()
        proof = prover.solve(board, "utss", max_depth=13, budget_ms=ms)
        cpu_ms = (time.thread_time() - cpu) * 1000
        assert proof.aborted and proof.result == "unknown"
        # The deadline is wall-clock, but a loaded machine may deschedule us past it: what the
        # search must not do is go on working, so its CPU time is what is bounded.
        assert cpu_ms <= ms + 5.0  # never more than 5 ms over
    proof = Prover().solve(board, "utss", max_depth=13, budget_nodes=20_000)
    assert proof.aborted and proof.nodes <= 20_000
    board.check()


def test_utss_proves_a_loss():
    """Black to move cannot stop white's straight four: a loss for black."""
    board = Board.from_stones([(0, 0), (0, 2), (0, 4), (14, 14)], [(5, 7), (6, 7), (7, 7), (8, 7)],
                              to_move=Color.BLACK, rule=Rule.RENJU)
    proof = solve(board, "utss", max_depth=3)
    assert proof.result == "loss"
    b = board.copy()
    for move in proof.line:
        b.play(*move)
    assert b.result == Result.WHITE_WINS


def test_quiet_position_is_a_draw_for_utss():
    board = Board.from_moves([(7, 7), (8, 8)])
    assert solve(board, "utss", max_depth=5).result in ("draw", "unknown")
    assert solve(board, "utss-exact", max_depth=5).result == "draw"


def _settled_positions(rng: random.Random, rule: Rule, count: int) -> list[Board]:
    """Random positions where threats are on the board: games played on until one side has a
    three or a four, half of them with the other side to move."""
    out = []
    while len(out) < count:
        board = random_game(rng, rule, rng.randint(12, 50), radius=1)
        if not board.game_over and (board.threat(Color.BLACK) or board.threat(Color.WHITE)
                                    or board.stone_count >= 30):
            out.append(board)
    return out


@pytest.mark.parametrize("rule", [Rule.RENJU, Rule.FREESTYLE])
def test_utss_settles_the_same_wins_and_losses_as_the_exact_search(rule):
    """The fast UTSS stops a node at its first holding move where only "is it lost?" matters; it
    must prove exactly the wins and losses that the exact search (which tells draws from
    unknowns) proves, with lines that replay, and differ only by answering unknown for a draw."""
    rng = random.Random(11 + int(rule))
    decided = 0
    fast_nodes = exact_nodes = 0
    for board in _settled_positions(rng, rule, 120):
        fast = Prover(tt_bits=16).solve(board, "utss", max_depth=5, threat_depth=2)
        exact = Prover(tt_bits=16).solve(board, "utss-exact", max_depth=5, threat_depth=2)
        assert not fast.aborted and not exact.aborted
        assert fast.result == exact.result or (exact.result, fast.result) == ("draw", "unknown"), board
        if fast.result in ("win", "loss"):
            decided += 1
            winner = board.to_move if fast.result == "win" else board.to_move.opponent
            replay_wins(board, fast.line, winner)
        fast_nodes += fast.nodes
        exact_nodes += exact.nodes
    assert decided >= 10
    assert fast_nodes < exact_nodes  # the point of the cut


def test_utss_agrees_with_the_exact_search_on_the_searchs_own_calls():
    """Positions the search itself put to the prover in match games (tests/data/utss_calls.jsonl):
    at 5 plies the fast UTSS proves exactly the wins and losses the exact search proves."""
    from engine.bench.prover import UTSS_CALLS, load
    from engine.board.coords import parse_points

    calls = [c for c in load(UTSS_CALLS) if c["max_depth"] == 5][:150]
    assert len(calls) == 150
    decided = 0
    for call in calls:
        board = Board.from_moves(parse_points(call["moves"]))
        fast = Prover(tt_bits=16).solve(board, "utss", max_depth=5)
        exact = Prover(tt_bits=16).solve(board, "utss-exact", max_depth=5)
        assert fast.result == exact.result or (exact.result, fast.result) == ("draw", "unknown"), call["moves"]
        decided += fast.result in ("win", "loss")
    assert decided >= 3


def test_game_over_and_bad_kind_are_errors():
    from engine.native import BoardError, GameOver

    board = Board.from_moves([(0, 0), (0, 5), (1, 0), (1, 5), (2, 0), (2, 5), (3, 0), (3, 5), (4, 0)],
                             rule=Rule.FREESTYLE)
    with pytest.raises(GameOver):
        solve(board)
    with pytest.raises(BoardError):
        solve(Board(), "vct?")


# From a lost match game (docs/strength.md): white to move wins by a threat sequence that opens with
# a quiet three at (4, 7), which a fours-only search does not play.
WHITE_WINS_WITH_A_THREE = [(7, 7), (7, 8), (8, 7), (9, 9), (8, 5), (8, 6), (7, 5), (9, 8), (9, 7), (6, 7), (10, 7),
                           (11, 7), (6, 5), (5, 5), (7, 4), (9, 6), (7, 6), (7, 3), (5, 4), (4, 3), (6, 4), (8, 4),
                           (9, 5), (10, 5), (6, 3), (6, 2), (5, 6), (8, 3), (4, 4), (3, 4), (3, 6), (4, 5), (4, 6),
                           (6, 6), (2, 6), (1, 6), (5, 2), (4, 1), (3, 5), (1, 7), (5, 7), (6, 8), (2, 4), (1, 3),
                           (3, 8)]


def test_a_fours_only_search_never_claims_a_loss_it_did_not_search():
    """threat_depth 0 lets the prover play fours only: when none wins, the answer is "no proof"
    (draw), never a loss, since the threes and blocks it skipped may hold (here one even wins)."""
    b = Board.from_moves(WHITE_WINS_WITH_A_THREE)
    assert b.to_move == Color.WHITE
    full = Prover().solve(b, "utss", max_depth=11, budget_ms=20_000)
    assert full.result == "win" and full.line[0] == (4, 7)
    fours_only = Prover().solve(b, "utss", max_depth=11, threat_depth=0, budget_ms=20_000)
    assert fours_only.result == "draw"
    assert Prover().solve(b, "vcf", budget_ms=20_000).result != "win"  # no VCF either: draw is right


# Black to move at ply 30 of one of our games against PentaZen (1 s a move): l6 (12, 5) threatens
# two VCFs at once; the threat search finds the one through l5 (11, 4) first, but white's answer
# m5 (12, 4) lies on the other one's line and breaks both (the game went on so, and black lost).
QUIET_THREAT_ANSWERED_OFF_ITS_LINE = [
    (7, 7), (8, 8), (8, 7), (7, 5), (8, 4), (6, 7), (10, 6), (7, 8), (11, 7), (9, 5), (10, 8), (10, 7),
    (12, 6), (13, 5), (11, 6), (9, 6), (11, 5), (11, 8), (8, 5), (13, 10), (12, 9), (10, 4), (8, 6), (8, 3),
    (9, 9), (8, 10), (13, 6), (14, 6), (12, 7), (12, 8)]


def test_a_quiet_threat_is_answered_off_its_vcf_line():
    """A quiet move that threatens a VCF is answered by every point that leaves no VCF, not only
    by the points of the first VCF found: UTSS and df-pn do not claim the quiet move's win, and
    still prove black's real win (the four at m5)."""
    board = Board.from_moves(QUIET_THREAT_ANSWERED_OFF_ITS_LINE)
    threat = board.copy()
    threat.play(12, 5)
    passed = threat.copy()
    passed.to_move = Color.BLACK  # white passes: what black threatens
    first = Prover().solve(passed, "vcf", max_depth=10)
    assert first.result == "win" and (12, 4) not in first.line  # the threat, and a line off m5
    answered = threat.copy()
    answered.play(12, 4)
    assert Prover().solve(answered, "vcf", budget_ms=5_000).result != "win"  # m5 answers it
    for depth in (5, 9):
        assert Prover().solve(threat, "utss", max_depth=depth, budget_ms=5_000).result != "loss"
        proof = Prover().solve(board, "utss", max_depth=depth, budget_ms=5_000)
        assert proof.result != "win" or proof.line[0] != (12, 5)
    for kind in ("dfpn", "vct", "utss"):
        proof = Prover().solve(board, kind, max_depth=9 if kind == "utss" else None, budget_ms=20_000)
        assert proof.result == "win" and proof.line[0] == (12, 4), kind


def test_every_reply_to_a_quiet_winning_move_still_loses():
    """Soundness beyond UTSS's own answer lists, on the search's own calls (tests/data/utss_calls.jsonl):
    where UTSS proves a win that opens with a quiet move (no three, no four), every legal reply of
    the defender still leaves the attacker a win that a prover finds."""
    from engine.bench.prover import UTSS_CALLS, load
    from engine.board.coords import parse_points
    from engine.native import lib

    quiet = 0
    for call in load(UTSS_CALLS):
        board = Board.from_moves(parse_points(call["moves"]))
        proof = Prover(tt_bits=16).solve(board, "utss", max_depth=7, budget_nodes=50_000)
        if proof.result != "win" or int(board.patterns(board.to_move)[proof.line[0][1], proof.line[0][0]].max()) \
                >= lib.RJ_PT_LIVE3:
            continue
        quiet += 1
        after = board.copy()
        after.play(*proof.line[0])
        for reply in after.legal_moves():
            b = after.copy()
            b.play(*reply)
            assert b.game_over or any(
                Prover(tt_bits=16).solve(b, kind, max_depth=depth, budget_nodes=200_000).result == "win"
                for kind, depth in (("vcf", None), ("utss", 7), ("dfpn", 40))), f"{reply} holds in\n{after}"
    assert quiet >= 3  # 4 of the 1,060 calls when written


def test_threat_filter_keeps_only_the_answers_to_a_hidden_vcf():
    """White (to move after black) has no four yet but a double four at j6 in one move: black's
    moves that leave it (every quiet move far away) go; the blocks and black's own fours stay."""
    black = [(4, 5), (9, 9), (0, 14), (2, 12), (3, 12), (4, 12)]
    white = [(5, 5), (6, 5), (7, 5), (9, 6), (9, 7), (9, 8), (14, 0)]
    board = Board.from_stones(black, white, to_move=Color.BLACK)
    assert board.threat(Color.WHITE) == 0
    plain = board.candidate_moves(3)
    moves, threatened = Prover().filter_moves(board, 3)
    assert threatened
    assert set(moves) < set(plain)
    assert {(8, 5), (9, 5), (9, 4)} <= set(moves)  # the blocks of the double four
    assert {(1, 12), (5, 12)} <= set(moves)  # black's own fours (a three on row 12)
    assert (12, 12) not in moves
    white_to_move = Board.from_stones(black, white, to_move=Color.WHITE)
    assert solve(white_to_move, "vcf", max_depth=2).result == "win"


@pytest.mark.parametrize("rule", [Rule.RENJU, Rule.FREESTYLE])
def test_threat_filter_against_the_prover_on_random_positions(rule):
    """Every move the filter drops leaves the opponent a VCF; every quiet move it keeps does not;
    without a hidden VCF it is the plain filter."""
    rng = random.Random(5 + int(rule))
    prover, narrowed = Prover(tt_bits=18), 0
    for _ in range(300):
        board = random_game(rng, rule, rng.randint(10, 50))
        if board.game_over:
            continue
        plain = board.candidate_moves(3)
        moves, threatened = prover.filter_moves(board, 3, vcf_depth=8, budget_nodes=1_000_000)
        if not threatened:
            assert moves == plain
            continue
        narrowed += 1
        me, opp = board.to_move, board.to_move.opponent
        fours = {m for m in plain if board.copy().play(*m) is None and _makes_four(board, m, me)}
        for m in plain:
            after = board.copy()
            after.play(*m)
            if after.game_over:
                continue
            vcf = Prover().solve(after, "vcf", max_depth=8).result == "win"
            if m in moves:
                assert m in fours or not vcf, m
            else:
                assert vcf, m
        assert opp != me
    assert narrowed >= 3


def _makes_four(board: Board, move, color) -> bool:
    after = board.copy()
    after.play(*move)
    return after.threat(color) >= 2
