"""Wins under every rule on 15x15 and 20x20, on all four directions and against both edges:
the native board's wins_at, the result after playing the move, and the reference agree."""
from __future__ import annotations

import pytest

from engine.board import Board, Color, Result, Rule
from tests.reference_rules import ref_wins

RULES = [Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU, Rule.CARO, Rule.CARO_EXACT]
NAMES = {Rule.FREESTYLE: "freestyle", Rule.STANDARD: "standard", Rule.RENJU: "renju", Rule.CARO: "caro",
         Rule.CARO_EXACT: "caro_exact"}
B, W = Color.BLACK, Color.WHITE

# A line read from the board edge ('p' the move); expected wins under
#                          freestyle standard renju caro  caro_exact
CASES = [
    ("...XXXXp.......", B, (1, 1, 1, 1, 1)),
    ("...OOOOp.......", W, (1, 1, 1, 1, 1)),
    ("..XXXpXX.......", B, (1, 0, 0, 1, 0)),  # six
    ("..OOOpOO.......", W, (1, 0, 1, 1, 0)),  # white's six wins in Renju
    ("...XXXp........", B, (0, 0, 0, 0, 0)),
    ("...XXX.pX......", B, (0, 0, 0, 0, 0)),
    ("..OXXXXp.......", B, (1, 1, 1, 1, 1)),  # blocked at one end
    ("..OXXXXpO......", B, (1, 1, 1, 0, 0)),  # blocked at both ends
    ("..XOOOOpX......", W, (1, 1, 1, 0, 0)),
    ("..OXXXXp.XO....", B, (1, 1, 1, 1, 1)),  # own stone beyond the gap does not block
    ("XXXXpO.........", B, (1, 1, 1, 0, 0)),  # the edge blocks in caro
    ("pXXXXO.........", B, (1, 1, 1, 0, 0)),
    ("pXXXX..........", B, (1, 1, 1, 1, 1)),
    ("OXXXXpXX.O.....", B, (1, 0, 0, 1, 0)),  # joining into seven
    (".OXXXpXXO......", B, (1, 0, 0, 1, 0)),  # blocked six: rule 8 still wins
    ("XXXpX.OOOO.....", B, (1, 1, 1, 1, 1)),  # edge at one end only
]

DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]


def place(row: str, size: int, direction: tuple[int, int], flip: bool):
    """Lay the row along a line from the board edge in `direction` (index 0 on the edge); flipped,
    from the opposite edge. Returns the stones by colour and the move point."""
    dx, dy = direction
    stones: dict[Color, list[tuple[int, int]]] = {B: [], W: []}
    p = None
    for i, ch in enumerate(row):
        k = size - 1 - i if flip else i
        x = k if dx else 3
        y = 3 if dy == 0 else (k if dy == 1 else size - 1 - k)
        if ch in "XO":
            stones[B if ch == "X" else W].append((x, y))
        elif ch == "p":
            p = (x, y)
    return stones, p


@pytest.mark.parametrize("size", [15, 20])
@pytest.mark.parametrize("direction", DIRECTIONS)
@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize("row, color, expected", CASES)
def test_wins(size, direction, flip, row, color, expected):
    stones, p = place(row, size, direction, flip)
    for rule, want in zip(RULES, expected):
        board = Board.from_stones(stones[B], stones[W], to_move=color, size=size, rule=rule)
        grid = [[int(board[x, y]) for y in range(size)] for x in range(size)]
        assert board.wins_at(*p, color) == bool(want), rule
        assert ref_wins(grid, *p, int(color), NAMES[rule]) == bool(want), rule
        if board.is_legal(*p):
            board.play(*p)
            assert board.result == (Result(int(color)) if want else Result.ONGOING), rule
            board.check()
        else:
            assert rule == Rule.RENJU and color == B and not want  # black's overline is a foul
