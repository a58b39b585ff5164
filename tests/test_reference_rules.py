"""Checks of the pure-Python rule reference (tests/reference_rules.py) itself:
against the external vectors in tests/data/vectors and against hand-made
diagrams for the corner cases of docs/rules.md."""

import json
import random

import pytest

from tests.conftest import VECTORS
from tests.diagrams import (
    FIVE_AND_OVERLINE,
    empty_board,
    parse_diagram,
    row_board,
)
from tests.reference_rules import (
    BLACK,
    EMPTY,
    RULES,
    WHITE,
    ref_all_forbidden,
    ref_forbidden,
    ref_has_five,
    ref_wins,
)

needs_vectors = pytest.mark.usefixtures("vectors")


# --------------------------------------------------------------------------
# Helpers


def copy_grid(grid):
    return [col[:] for col in grid]


QUINTET_LETTERS = "ABCDEFGHIJKLMNO"  # I included
KATAGOMO_LETTERS = "ABCDEFGHJKLMNOP"  # I skipped


def quintet_point(s):
    return QUINTET_LETTERS.index(s[0]), int(s[1:]) - 1


def katagomo_point(s):
    # Only consistency matters (the fixtures are symmetric enough), so the
    # row number is read as y = number - 1.
    return KATAGOMO_LETTERS.index(s[0]), int(s[1:]) - 1


def gomocup_moves(s):
    """'h8h9i10' -> [(7, 7), (7, 8), (8, 9)] (letter a.. = x, number = y+1)."""
    moves = []
    i = 0
    while i < len(s):
        x = ord(s[i]) - ord("a")
        j = i + 1
        while j < len(s) and s[j].isdigit():
            j += 1
        moves.append((x, int(s[i + 1 : j]) - 1))
        i = j
    return moves


def board_from_moves(moves, n=15):
    """Alternating moves, black first."""
    grid = empty_board(n)
    for k, (x, y) in enumerate(moves):
        assert grid[x][y] == EMPTY
        grid[x][y] = BLACK if k % 2 == 0 else WHITE
    return grid


def winning_points(grid, color, rule):
    n = len(grid)
    return {
        (x, y)
        for x in range(n)
        for y in range(n)
        if grid[x][y] == EMPTY and ref_wins(grid, x, y, color, rule)
    }


def load_quintet():
    with open(VECTORS / "quintet_forbidden.jsonl") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_json(name):
    with open(VECTORS / name) as f:
        return json.load(f)


# --------------------------------------------------------------------------
# Parser / API sanity


def test_parse_diagram_orientation():
    grid, marks = parse_diagram(["p....", ".....", ".....", ".....", "X...O"])
    assert grid[0][0] == BLACK  # bottom-left
    assert grid[4][0] == WHITE  # bottom-right
    assert marks == {"p": (0, 4)}  # top-left
    assert grid[0][4] == EMPTY


def test_gomocup_move_parser():
    assert gomocup_moves("h8h9i10a1o15") == [(7, 7), (7, 8), (8, 9), (0, 0), (14, 14)]


def test_reference_rejects_occupied_point_and_unknown_rule():
    grid = empty_board()
    grid[7][7] = BLACK
    with pytest.raises(ValueError):
        ref_forbidden(grid, 7, 7)
    with pytest.raises(ValueError):
        ref_wins(grid, 0, 0, BLACK, "gomoku")


def test_empty_board_has_nothing_forbidden():
    for n in (5, 15, 20, 22):
        assert ref_all_forbidden(empty_board(n)) == {}


# --------------------------------------------------------------------------
# quintet vectors


QUINTET = load_quintet()
QUINTET_QUERIES = [
    pytest.param(rec, q, id="%s:%s" % (rec["id"].split(":", 1)[1], q["point"]))
    for rec in QUINTET
    for q in rec["queries"]
]


@needs_vectors
@pytest.mark.parametrize("rec", QUINTET, ids=[r["id"] for r in QUINTET])
def test_quintet_diagram_matches_stone_lists(rec):
    grid, _ = parse_diagram(rec["diagram"])
    n = len(grid)
    black = {quintet_point(p) for p in rec["black"]}
    white = {quintet_point(p) for p in rec["white"]}
    assert {(x, y) for x in range(n) for y in range(n) if grid[x][y] == BLACK} == black
    assert {(x, y) for x in range(n) for y in range(n) if grid[x][y] == WHITE} == white


@needs_vectors
@pytest.mark.parametrize("rec,query", QUINTET_QUERIES)
def test_quintet_query(rec, query):
    grid, _ = parse_diagram(rec["diagram"])
    x, y = query["xy"]
    assert quintet_point(query["point"]) == (x, y)
    before = copy_grid(grid)
    assert ref_forbidden(grid, x, y) == query["expect"]
    assert grid == before  # the recursion restored the board


@needs_vectors
def test_quintet_complete_forbidden_list():
    recs = [r for r in QUINTET if "complete_forbidden_list" in r]
    assert recs, "quintet file has no complete_forbidden_list entry"
    for rec in recs:
        grid, _ = parse_diagram(rec["diagram"])
        expected = {}
        for item in rec["complete_forbidden_list"]:
            assert quintet_point(item["point"]) == tuple(item["xy"])
            expected[tuple(item["xy"])] = item["expect"]
        assert ref_all_forbidden(grid) == expected


# --------------------------------------------------------------------------
# katagomo vectors


def _katagomo_cases():
    return load_json("katagomo_renju_forbidden_cases.json")["cases"]


@needs_vectors
@pytest.mark.parametrize("case", _katagomo_cases(), ids=lambda c: c["name"])
def test_katagomo_forbidden_case(case):
    grid = empty_board(15)
    for color, point in case["moves"]:
        x, y = katagomo_point(point)
        assert grid[x][y] == EMPTY
        grid[x][y] = BLACK if color == "B" else WHITE
    if case["nextPlayer"] == "W":
        # White has no forbidden moves. The case is black's double-three
        # geometry with colours swapped: swapped back, the reference must call
        # those points double threes, so the case really tests the colour rule.
        assert not case["mustBeForbidden"]
        swapped = [[{BLACK: WHITE, WHITE: BLACK}.get(v, v) for v in col] for col in grid]
        for point in case["mustBeLegal"]:
            assert ref_forbidden(swapped, *katagomo_point(point)) == "double_three", point
        return
    for point in case["mustBeForbidden"]:
        x, y = katagomo_point(point)
        assert ref_forbidden(grid, x, y) != "legal", point
    for point in case["mustBeLegal"]:
        x, y = katagomo_point(point)
        assert ref_forbidden(grid, x, y) == "legal", point


@needs_vectors
def test_katagomo_full_board_game():
    """A 225-move game whose black moves were chosen among the points
    KataGomo's rule code called legal, and which never contains a five."""
    data = load_json("katagomo_renju_terminal_cases.json")
    for case in data["cases"]:
        grid = empty_board(15)
        for color, point in case["moves"]:
            x, y = katagomo_point(point)
            assert grid[x][y] == EMPTY
            c = BLACK if color == "B" else WHITE
            if c == BLACK:
                assert ref_forbidden(grid, x, y) == "legal", point
            assert not ref_wins(grid, x, y, c, "renju"), point
            grid[x][y] = c
        assert all(grid[x][y] != EMPTY for x in range(15) for y in range(15))
        for rule in RULES:
            assert not ref_has_five(grid, BLACK, rule)
            assert not ref_has_five(grid, WHITE, rule)


# --------------------------------------------------------------------------
# Gomocup ZIP-checker positions


def _gomocup_checks():
    return load_json("gomocup_acceptance_checks.json")["checks"]


@needs_vectors
def test_gomocup_renju_complete_the_five():
    check = next(c for c in _gomocup_checks() if c["rule"] == 4 and "must_play_one_of" in c)
    grid = board_from_moves(gomocup_moves(check["moves"]))
    expected = {tuple(p) for p in check["protocol_xy"]}
    assert expected == {gomocup_moves(m)[0] for m in check["must_play_one_of"]}
    assert winning_points(grid, BLACK, "renju") == expected
    for x, y in expected:
        assert ref_forbidden(grid, x, y) == "legal"


@needs_vectors
def test_gomocup_renju_double_three_g9():
    check = next(c for c in _gomocup_checks() if c["rule"] == 4 and "must_not_play" in c)
    grid = board_from_moves(gomocup_moves(check["moves"]))
    assert check["must_not_play"] == ["g9"]
    x, y = gomocup_moves("g9")[0]
    assert [x, y] == check["protocol_xy"][0]
    assert ref_forbidden(grid, x, y) == "double_three"


@needs_vectors
def test_gomocup_standard_white_six_is_not_a_win():
    # White h9 h10 h11 h12 . h14: h13 joins six, which wins under freestyle
    # but not under the exact-five rule, so white has no win in one and has
    # to stop black's open three g8 h8 i8 at f8 or j8.
    check = next(c for c in _gomocup_checks() if c["rule"] == 1)
    grid = board_from_moves(gomocup_moves(check["moves"]))
    h13 = gomocup_moves("h13")[0]
    assert ref_wins(grid, *h13, WHITE, "freestyle")
    assert not ref_wins(grid, *h13, WHITE, "standard")
    assert winning_points(grid, WHITE, "standard") == set()
    assert winning_points(grid, WHITE, "freestyle") == {h13}
    assert winning_points(grid, BLACK, "standard") == set()
    assert {tuple(p) for p in check["protocol_xy"]} == {(5, 7), (9, 7)}


@needs_vectors
def test_gomocup_caro_five_blocked_at_both_ends():
    # Black g8 h8 i8 j8 between white f8 and l8: k8 makes a five blocked at
    # both ends, a win under freestyle but not under caro, so black must stop
    # white's open three f7 f8 f9 instead.
    check = next(c for c in _gomocup_checks() if c["rule"] == 8)
    grid = board_from_moves(gomocup_moves(check["moves"]))
    k8 = gomocup_moves("k8")[0]
    assert ref_wins(grid, *k8, BLACK, "freestyle")
    assert ref_wins(grid, *k8, BLACK, "standard")
    assert not ref_wins(grid, *k8, BLACK, "caro")
    assert not ref_wins(grid, *k8, BLACK, "caro_exact")
    assert winning_points(grid, BLACK, "caro") == set()
    assert winning_points(grid, BLACK, "freestyle") == {k8}


# --------------------------------------------------------------------------
# Corner cases (protocol.md 3.4) are in test_corner_cases.py, which holds the
# reference and the C board to the same diagrams; here only what needs a
# position the C board refuses (a five already on the board).



def test_extending_an_existing_five_is_overline():
    grid, _ = row_board("...XXXXX.......")
    assert ref_has_five(grid, BLACK, "renju")
    assert ref_forbidden(grid, 2, 7) == "overline"
    assert ref_forbidden(grid, 8, 7) == "overline"




# --------------------------------------------------------------------------
# Win rules


def test_black_five_beside_its_overline():
    # p makes an exact five horizontally and six vertically: a win for black
    # under renju (AlphaGomoku's WinInsideOverline situation).
    grid, m = parse_diagram(FIVE_AND_OVERLINE)
    assert ref_wins(grid, *m["p"], BLACK, "renju")
    assert ref_wins(grid, *m["p"], BLACK, "standard")
    assert ref_wins(grid, *m["p"], BLACK, "caro_exact")


def test_has_five_scans_every_line():
    n = 15
    for dx, dy, x0, y0 in ((1, 0, 2, 3), (0, 1, 4, 9), (1, 1, 9, 9), (1, -1, 3, 14)):
        grid = empty_board(n)
        for k in range(5):
            grid[x0 + k * dx][y0 + k * dy] = WHITE
        for rule in RULES:
            assert ref_has_five(grid, WHITE, rule), (dx, dy, rule)
            assert not ref_has_five(grid, BLACK, rule)
        grid[x0 + 5 * dx][y0 + 5 * dy] = WHITE  # six: exact-five rules lose it
        got = {rule: ref_has_five(grid, WHITE, rule) for rule in RULES}
        assert got == {
            "freestyle": True,
            "standard": False,
            "renju": True,
            "caro": True,
            "caro_exact": False,
        }


def test_wins_agrees_with_has_five_on_random_boards():
    rng = random.Random(12345)
    checked = 0
    for _ in range(30):
        n = rng.choice([9, 12, 15])
        grid = empty_board(n)
        for _ in range(rng.randint(15, n * n // 2)):
            x, y = rng.randrange(n), rng.randrange(n)
            grid[x][y] = rng.choice([BLACK, WHITE])
        empties = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == EMPTY]
        for color in (BLACK, WHITE):
            for rule in RULES:
                if ref_has_five(grid, color, rule):
                    continue
                for x, y in rng.sample(empties, min(40, len(empties))):
                    wins = ref_wins(grid, x, y, color, rule)
                    grid[x][y] = color
                    assert ref_has_five(grid, color, rule) == wins, (x, y, color, rule)
                    grid[x][y] = EMPTY
                    checked += 1
    assert checked > 1000


def test_forbidden_leaves_random_boards_unchanged():
    rng = random.Random(7)
    for _ in range(20):
        grid = empty_board(15)
        for _ in range(rng.randint(20, 50)):
            x, y = rng.randrange(4, 11), rng.randrange(4, 11)
            grid[x][y] = BLACK if rng.random() < 0.6 else WHITE
        before = copy_grid(grid)
        ref_all_forbidden(grid)
        assert grid == before
