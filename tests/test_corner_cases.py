"""The corner cases of docs/rules.md on the native board, each also checked against
the pure-Python reference so both implementations are held to the same diagrams."""
from __future__ import annotations

import pytest

from engine.board import Board, Color, Foul, Result, Rule
from engine.native import ForbiddenMove
from tests import diagrams as D
from tests.reference_rules import BLACK, EMPTY, WHITE, ref_forbidden, ref_wins

KIND = {Foul.NONE: "legal", Foul.DOUBLE_THREE: "double_three", Foul.DOUBLE_FOUR: "double_four",
        Foul.OVERLINE: "overline"}
RULE_NAMES = {Rule.FREESTYLE: "freestyle", Rule.STANDARD: "standard", Rule.RENJU: "renju", Rule.CARO: "caro",
              Rule.CARO_EXACT: "caro_exact"}


def board_of(grid, rule: Rule = Rule.RENJU, to_move: Color = Color.BLACK) -> Board:
    n = len(grid)
    black = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == BLACK]
    white = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == WHITE]
    return Board.from_stones(black, white, to_move=to_move, size=n, rule=rule)


def foul(grid, point) -> str:
    """The foul kind at point, asserting that the C board and the reference agree."""
    board = board_of(grid)
    c = KIND[board.foul(*point)]
    assert c == ref_forbidden(grid, *point), f"C says {c} at {point}"
    board.check()
    return c


def test_item1_fake_three_whose_four_point_is_forbidden():
    grid, m = D.parse_diagram(D.FAKE_THREE)
    assert foul(grid, m["q"]) == "double_four"
    assert foul(grid, m["p"]) == "legal"
    grid, m = D.parse_diagram(D.REAL_DOUBLE_THREE)
    assert foul(grid, m["p"]) == "double_three"


def test_item1_forbidden_status_follows_one_white_stone():
    """Gomocup's ZIP check position: g9 is a double three; a white stone at the far end of one
    three makes g9 legal, and taking it back restores the foul (AG's ChainedForbidden idea)."""
    board = Board.from_moves([(7, 7), (7, 8), (8, 6), (8, 8), (7, 9), (8, 5), (8, 10), (8, 11)])
    assert board.foul(6, 8) == Foul.DOUBLE_THREE
    board.play(0, 14)  # black elsewhere
    board.play(9, 11)  # white j12 caps g9-h10-i11
    assert board.foul(6, 8) == Foul.NONE
    board.undo()
    assert board.foul(6, 8) == Foul.DOUBLE_THREE


def test_item2_cramped_three():
    for diagram, (wx, wy) in ((D.CRAMPED_THREE, (9, 7)), (D.EDGE_CRAMPED_THREE, (5, 7))):
        grid, m = D.parse_diagram(diagram)
        assert foul(grid, m["p"]) == "legal"
        grid[wx][wy] = EMPTY  # room again: a real three
        assert foul(grid, m["p"]) == "double_three"


@pytest.mark.parametrize("row, expected", [
    ("....X.XpX.X....", "double_four"),  # X_XXX_X
    ("....X.pXX.X....", "double_four"),
    ("...XX.Xp.XX....", "double_four"),  # XX_XX_XX
    ("...XXX.p.XXX...", "double_four"),  # XXX_X_XXX
    ("....p.XXX.X....", "legal"),  # the stone outside the middle: one four
    ("...XX.XpX.X....", "legal"),  # the left completion would be six
    ("...XXX.p.XX....", "legal"),
    ("...XXXXp.......", "legal"),  # an exact five wins
    ("....XXXp.......", "legal"),  # a plain straight four
])
def test_item3_same_line_double_four(row, expected):
    grid, m = D.row_board(row)
    assert foul(grid, m["p"]) == expected


def test_item3_no_same_line_double_three():
    grid, m = D.row_board("...X.Xp.X.X....")
    assert foul(grid, m["p"]) == "legal"


def test_item4_four_or_three_into_overline():
    grid, m = D.parse_diagram(D.FOUR_INTO_OVERLINE)
    assert foul(grid, m["p"]) == "legal"
    grid[2][7] = EMPTY
    assert foul(grid, m["p"]) == "double_four"
    grid, m = D.parse_diagram(D.THREE_INTO_OVERLINE)
    assert foul(grid, m["p"]) == "legal"
    grid[9][7] = EMPTY
    assert foul(grid, m["p"]) == "double_three"


@pytest.mark.parametrize("diagram, without_five", [
    (D.FIVE_AND_OVERLINE, "overline"),
    (D.FIVE_AND_DOUBLE_FOUR, "double_four"),
    (D.FIVE_AND_DOUBLE_THREE, "double_three"),
])
def test_item5_exact_five_beats_forbidden(diagram, without_five):
    grid, m = D.parse_diagram(diagram)
    p = m["p"]
    assert foul(grid, p) == "legal"
    board = board_of(grid)
    assert board.wins_at(*p)
    board.play(*p)
    assert board.result == Result.BLACK_WINS
    grid[3][7] = EMPTY
    assert foul(grid, p) == without_five
    board = board_of(grid)
    with pytest.raises(ForbiddenMove):
        board.play(*p)


def test_item6_joining_into_six_is_overline():
    grid, m = D.row_board("....XXXpXX.....")
    assert foul(grid, m["p"]) == "overline"
    for rule in Rule:
        assert board_of(grid, rule).wins_at(*m["p"], Color.BLACK) == ref_wins(grid, *m["p"], BLACK, RULE_NAMES[rule])
    assert not board_of(grid).wins_at(*m["p"], Color.BLACK)


def test_item7_white_overline_wins_and_white_has_no_fouls():
    grid, m = D.row_board("....OOOpOO.....")
    board = board_of(grid, to_move=Color.WHITE)
    assert board.wins_at(*m["p"], Color.WHITE)
    board.play(*m["p"])
    assert board.result == Result.WHITE_WINS
    # White may make any shape: the double three of the ZIP-check position, colours swapped.
    board = Board.from_stones([(0, 0), (14, 14), (0, 14), (14, 0), (1, 0)],
                              [(7, 7), (8, 6), (7, 9), (8, 10)], to_move=Color.WHITE)
    assert board.is_legal(6, 8)
    board.play(6, 8)


def test_item8_three_whose_four_points_make_fives_is_no_three():
    grid, m = D.parse_diagram(D.THREE_POINT_MAKES_FIVE)
    for q in ("a", "b"):
        assert board_of(grid).wins_at(*m[q], Color.BLACK)
    assert foul(grid, m["p"]) == "legal"
    for x, y in [(8, 8), (8, 9), (8, 10), (8, 11)]:  # b no longer makes a five
        grid[x][y] = EMPTY
    assert foul(grid, m["p"]) == "double_three"


def test_item9_white_wins_through_blacks_forbidden_point():
    grid, m = D.parse_diagram(D.FORBIDDEN_DEFENCE)
    g = m["g"]
    assert foul(grid, g) == "double_three"
    board = board_of(grid, to_move=Color.BLACK)
    assert board.wins_at(*g, Color.WHITE)
    assert not board.is_legal(*g) and g not in board.legal_moves()
    board.play(0, 0)  # black cannot block
    assert board.is_legal(*g)
    board.play(*g)
    assert board.result == Result.WHITE_WINS


def test_item10_status_changes_as_stones_arrive_anywhere_on_the_lines():
    """j10 (9, 9) becomes a double three when black adds a stone three points away on its
    diagonal, legal again when white caps that diagonal four points away, and each undo restores
    the previous status (AG's ForcedForbidden / RemoveForbidden)."""
    q = (9, 9)
    board = Board.from_moves([(7, 9), (0, 14), (8, 9), (14, 14), (7, 7), (14, 0)])
    seen = [board.foul(*q)]
    board.play(6, 6)  # black: g7 h8 . j10 is now a split three
    seen.append(board.foul(*q))
    board.play(5, 5)  # white caps it: O X X . X can no longer become a straight four
    board.play(0, 0)
    seen.append(board.foul(*q))
    board.undo()
    board.undo()
    seen.append(board.foul(*q))
    board.undo()
    seen.append(board.foul(*q))
    assert seen == [Foul.NONE, Foul.DOUBLE_THREE, Foul.NONE, Foul.DOUBLE_THREE, Foul.NONE]
    board.check()


def test_item11_fouls_belong_to_black_whoever_is_to_move():
    board = Board.from_moves([(7, 7), (7, 8), (8, 6), (8, 8), (7, 9), (8, 5), (8, 10), (8, 11)])
    board.play(0, 0)
    assert board.to_move == Color.WHITE
    assert board.forbidden_list() == [(6, 8)]  # still black's foul point
    assert board.is_legal(6, 8)  # but white may play it


def test_item12_full_board_draw_and_no_moves_left():
    board = Board(7, Rule.RENJU)
    cells = [(x, y) for y in range(7) for x in range(7)]
    black = [p for p in cells if (p[0] + p[1] + p[1] // 2) % 2 == 1]
    white = [p for p in cells if p not in black]
    board = Board.from_stones(black, white[:-1], to_move=Color.WHITE, size=7, rule=Rule.RENJU)
    assert board.result == Result.ONGOING
    board.play(*white[-1])
    assert board.result == Result.DRAW and board.legal_moves() == []
