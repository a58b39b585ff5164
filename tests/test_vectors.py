"""The native core against the external vectors in tests/data/vectors (see its README for the
coordinate conventions of each file)."""
from __future__ import annotations

import json

from engine.board import Board, Color, Foul, Pattern, Result, Rule
from engine.board.coords import parse_points

KIND = {"legal": Foul.NONE, "double_three": Foul.DOUBLE_THREE, "double_four": Foul.DOUBLE_FOUR,
        "overline": Foul.OVERLINE}


def quintet_point(name: str) -> tuple[int, int]:
    """quintet: letters A..O including I = x from 0, number = y + 1."""
    return ord(name[0].upper()) - ord("A"), int(name[1:]) - 1


def katagomo_point(name: str) -> tuple[int, int]:
    """KataGomo: letters A..P without I; y counted from the top (number 15 is y = 0)."""
    letters = "ABCDEFGHJKLMNOP"
    return letters.index(name[0].upper()), 15 - int(name[1:])


def load_quintet(vectors):
    with open(vectors / "quintet_forbidden.jsonl") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_quintet_forbidden_queries(vectors):
    records = load_quintet(vectors)
    checked = 0
    for rec in records:
        board = Board.from_stones([quintet_point(p) for p in rec["black"]], [quintet_point(p) for p in rec["white"]],
                                  to_move=Color.BLACK)
        fb = board.forbidden_points()
        for q in rec["queries"]:
            x, y = q["xy"]
            assert quintet_point(q["point"]) == (x, y)
            assert board.foul(x, y) == KIND[q["expect"]], f'{rec["id"]} {q["point"]}'
            assert fb[y, x] == KIND[q["expect"]], f'{rec["id"]} {q["point"]} (bulk)'
            checked += 1
        if "complete_forbidden_list" in rec:
            expected = {tuple(q["xy"]): KIND[q["expect"]] for q in rec["complete_forbidden_list"]}
            got = {(x, y): Foul(fb[y, x]) for x, y in board.forbidden_list()}
            assert got == expected, rec["id"]
            checked += 1
        board.check()
    assert checked >= 23


def test_quintet_deep_recursion_pair(vectors):
    """test_double_three#7/#8: one white stone at O6 decides whether G8 is a real double three."""
    recs = {r["id"]: r for r in load_quintet(vectors)}
    a, b = recs["quintet:test_double_three#7"], recs["quintet:test_double_three#8"]
    assert set(a["black"]) == set(b["black"])
    assert set(a["white"]) ^ set(b["white"]) == {"O6"}
    kinds = set()
    for rec in (a, b):
        board = Board.from_stones([quintet_point(p) for p in rec["black"]], [quintet_point(p) for p in rec["white"]],
                                  to_move=Color.BLACK)
        kinds.add(board.foul(*quintet_point("G8")))
    assert kinds == {Foul.NONE, Foul.DOUBLE_THREE}


def test_katagomo_forbidden_cases(vectors):
    data = json.loads((vectors / "katagomo_renju_forbidden_cases.json").read_text())
    for case in data["cases"]:
        board = Board(15, Rule.RENJU)
        for color, name in case["moves"]:
            assert board.to_move == (Color.BLACK if color == "B" else Color.WHITE)
            board.play(*katagomo_point(name))
        assert board.to_move == (Color.BLACK if case["nextPlayer"] == "B" else Color.WHITE)
        for name in case["mustBeForbidden"]:
            assert board.foul(*katagomo_point(name)) != Foul.NONE, (case["name"], name)
            assert not board.is_legal(*katagomo_point(name))
        for name in case["mustBeLegal"]:
            assert board.is_legal(*katagomo_point(name)), (case["name"], name)
            if board.to_move == Color.BLACK:
                assert board.foul(*katagomo_point(name)) == Foul.NONE
        board.check()


def test_katagomo_full_board_draw(vectors):
    data = json.loads((vectors / "katagomo_renju_terminal_cases.json").read_text())
    (case,) = data["cases"]
    board = Board(15, Rule.RENJU)
    for i, (color, name) in enumerate(case["moves"]):
        x, y = katagomo_point(name)
        assert (Color.BLACK if color == "B" else Color.WHITE) == board.to_move
        # The fixture's colouring rule, to pin the coordinate convention.
        assert ((x + y + y // 4) % 2 == 1) == (color == "B")
        assert board.is_legal(x, y), f"move {i + 1} {name} refused"  # KataGomo judged it legal
        assert board.result == Result.ONGOING
        board.play(x, y)
    expected = case["expected"]
    assert board.stone_count == expected["moveCount"] == 225
    assert board.result == Result.DRAW
    assert board.legal_moves() == [] and board.forbidden_list() == []
    board.check()


def gomocup_checks(vectors):
    return json.loads((vectors / "gomocup_acceptance_checks.json").read_text())["checks"]


def test_gomocup_renju_checks(vectors):
    renju = [c for c in gomocup_checks(vectors) if c["rule"] == 4]
    assert len(renju) == 2
    for c in renju:
        board = Board.from_moves(parse_points(c["moves"]), size=c["board"], rule=Rule.from_gomocup(c["rule"]))
        assert board.to_move == Color.BLACK
        for x, y in c.get("protocol_xy", []):
            if "must_not_play" in c:
                assert board.foul(x, y) == Foul.DOUBLE_THREE
                assert not board.is_legal(x, y)
            else:
                assert board.wins_at(x, y)  # complete the four
                b2 = board.copy()
                b2.play(x, y)
                assert b2.result == Result.BLACK_WINS


def test_gomocup_standard_check(vectors):
    (c,) = [c for c in gomocup_checks(vectors) if c["rule"] == 1]
    board = Board.from_moves(parse_points(c["moves"]), size=15, rule=Rule.from_gomocup(1))
    assert board.to_move == Color.WHITE
    h13 = parse_points("h13")[0]
    assert not board.wins_at(*h13)  # h9..h14 would be six: no win under exact five
    free = Board.from_moves(parse_points(c["moves"]), size=15, rule=Rule.FREESTYLE)
    assert free.wins_at(*h13)
    # Black's g8 h8 i8 is an open three: f8 and j8 (the expected answers) make straight fours.
    pb = board.patterns(Color.BLACK)
    for x, y in c["protocol_xy"]:
        assert pb[y, x, 0] == Pattern.LIVE4


def test_gomocup_caro_check(vectors):
    (c,) = [c for c in gomocup_checks(vectors) if c["rule"] == 8]
    board = Board.from_moves(parse_points(c["moves"]), size=15, rule=Rule.from_gomocup(8))
    assert board.to_move == Color.BLACK
    k8 = parse_points("k8")[0]
    assert not board.wins_at(*k8)  # g8..k8 blocked by f8 and l8
    assert Board.from_moves(parse_points(c["moves"]), size=15, rule=Rule.FREESTYLE).wins_at(*k8)
    # White's f7 f8 f9: f6/f10 make a straight four, f5/f11 a four; the four expected answers.
    pw = board.patterns(Color.WHITE)
    kinds = {parse_points(p)[0]: k for p, k in [("f6", Pattern.LIVE4), ("f10", Pattern.LIVE4),
                                                  ("f5", Pattern.DEAD4), ("f11", Pattern.DEAD4)]}
    assert set(kinds) == {tuple(p) for p in c["protocol_xy"]}
    for (x, y), kind in kinds.items():
        assert pw[y, x, 1] == kind
