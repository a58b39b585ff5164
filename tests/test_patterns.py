"""Pattern tables: line shapes give the expected types under each rule, and the C tables agree
with a direct Python rendering of the same recursive definition on random windows."""
from __future__ import annotations

import functools
import random

import pytest

from engine.board import Color, Pattern, Rule
from engine.native import ffi, lib

CELL = {".": lib.RJ_EMPTY, "X": lib.RJ_BLACK, "O": lib.RJ_WHITE, "|": lib.RJ_WALL}


def window(line: str) -> list[int]:
    """An 11-cell window from a line string centred on '*': X black, O white, . empty, | wall
    (beyond a wall everything is wall); cells not shown are empty."""
    c = line.index("*")
    cells = []
    for k in range(-5, 6):
        i = c + k
        cells.append(CELL[line[i]] if 0 <= i < len(line) and line[i] != "*" else lib.RJ_EMPTY)
    for side in (range(4, -1, -1), range(6, 11)):  # walls extend outwards
        wall = False
        for i in side:
            wall = wall or cells[i] == lib.RJ_WALL
            if wall:
                cells[i] = lib.RJ_WALL
    cells[5] = lib.RJ_EMPTY
    return cells


def classify(line: str, color: Color, rule: Rule) -> Pattern:
    return Pattern(lib.rj_classify_line(int(rule), int(color), ffi.new("uint8_t[11]", window(line))))


B, W = Color.BLACK, Color.WHITE


@pytest.mark.parametrize("line, color, rule, expect", [
    ("...XX*XX...", B, Rule.RENJU, Pattern.FIVE),
    ("..XXX*XX...", B, Rule.RENJU, Pattern.OVERLINE),  # joining into six
    ("..OOO*OO...", W, Rule.RENJU, Pattern.OVERLINE),  # white's overline (a win, see levels)
    ("..XXX*XX...", B, Rule.FREESTYLE, Pattern.OVERLINE),
    ("..XXX*XX...", B, Rule.STANDARD, Pattern.OVERLINE),
    ("...._XXX*_....".replace("_", "."), B, Rule.RENJU, Pattern.LIVE4),
    ("....OXXX*.....", B, Rule.RENJU, Pattern.DEAD4),
    ("|XXX*.", B, Rule.RENJU, Pattern.DEAD4),  # the edge blocks one end
    ("...X.X*X.X...", B, Rule.RENJU, Pattern.FORBID),  # X_XXX_X: same-line double four
    ("...X.X*X.X...", W, Rule.RENJU, Pattern.NONE),  # black stones are not white's
    ("...O.O*O.O...", W, Rule.RENJU, Pattern.LIVE4),  # white may: two ways to five
    ("..XX.*X.XX...", B, Rule.RENJU, Pattern.FORBID),  # XX_XX_XX
    ("XXX.*.XXX", B, Rule.RENJU, Pattern.FORBID),  # XXX_X_XXX
    ("XXX.*.XXX", B, Rule.FREESTYLE, Pattern.LIVE4),
    ("....*.XXX.X..", B, Rule.RENJU, Pattern.DEAD4),  # X_XXX_X with the stone outside the middle: one four
    ("...X.XXX*.....", B, Rule.RENJU, Pattern.DEAD4),  # left completion makes six: one four
    ("...X.XXX*.X...", B, Rule.RENJU, Pattern.NONE),  # both completions make six: no four
    ("...X.XXX*.X...", B, Rule.FREESTYLE, Pattern.LIVE4),
    ("....XX*......", B, Rule.RENJU, Pattern.LIVE3),
    ("...X.X*......", B, Rule.RENJU, Pattern.LIVE3),
    ("..O.XX*.O....", B, Rule.RENJU, Pattern.DEAD3),  # x . o o o . x: cramped, no straight four
    ("...OXX*......", B, Rule.RENJU, Pattern.DEAD3),
    ("..X.XX*......", B, Rule.RENJU, Pattern.DEAD4),  # X_XXX is already a four
    ("...X..*.X....", B, Rule.RENJU, Pattern.LIVE2),
    (".....X*......", B, Rule.RENJU, Pattern.LIVE2),
    ("....OX*......", B, Rule.RENJU, Pattern.DEAD2),
    ("......*......", B, Rule.RENJU, Pattern.LIVE1),
    ("....O.*......", B, Rule.RENJU, Pattern.LIVE1),
    ("|*..O", B, Rule.RENJU, Pattern.NONE),  # no room for five
    ("|*...O", B, Rule.RENJU, Pattern.NONE),
    ("|*....O", B, Rule.RENJU, Pattern.DEAD1),
    ("O*....O", B, Rule.RENJU, Pattern.DEAD1),
    # Caro (as the Gomocup referee judges it): a five blocked at both ends, by the opponent or
    # the edge, is nothing; rule 8 lets any six or more win.
    ("..OXX*XXO..", B, Rule.CARO, Pattern.NONE),
    ("...XX*XXO..", B, Rule.CARO, Pattern.FIVE),
    ("|XX*XX.", B, Rule.CARO, Pattern.FIVE),
    ("|XX*XXO", B, Rule.CARO, Pattern.NONE),  # the edge blocks
    ("|XX*XXO", B, Rule.CARO_EXACT, Pattern.NONE),
    ("..OXX*XXXO.", B, Rule.CARO, Pattern.OVERLINE),  # six or more wins under rule 8
    ("..OXX*XXXO.", B, Rule.CARO_EXACT, Pattern.OVERLINE),  # ... and never under rule 9
    ("...XX*XXX..", B, Rule.CARO, Pattern.OVERLINE),
    ("...XX*XXX..", B, Rule.CARO_EXACT, Pattern.OVERLINE),
    ("..OXXX*.O..", B, Rule.CARO, Pattern.NONE),  # can only become a blocked five
    ("..OXXX*..O.", B, Rule.CARO, Pattern.DEAD4),
])
def test_line_shapes(line, color, rule, expect):
    assert classify(line, color, rule) == expect


# ---- an independent rendering of the definition, for random windows ----------------------

def _wins(rule: Rule, c: int, a: tuple[int, ...]) -> tuple[bool, int, int]:
    left = 0
    while 5 - left - 1 >= 0 and a[5 - left - 1] == c:
        left += 1
    r = 0
    while 5 + r + 1 <= 10 and a[5 + r + 1] == c:
        r += 1
    n = left + r + 1
    if n < 5:
        return False, left, r
    opp = 3 - c
    left_end = a[5 - left - 1] if 5 - left - 1 >= 0 else 0
    right_end = a[5 + r + 1] if 5 + r + 1 <= 10 else 0
    blocked = left_end in (opp, 3) and right_end in (opp, 3)
    win = {
        Rule.FREESTYLE: True,
        Rule.STANDARD: n == 5,
        Rule.RENJU: c == 2 or n == 5,
        Rule.CARO: n > 5 or not blocked,
        Rule.CARO_EXACT: n == 5 and not blocked,
    }[rule]
    return win, left, r


STEP_DOWN = {Pattern.LIVE4: Pattern.LIVE3, Pattern.DEAD4: Pattern.DEAD3, Pattern.LIVE3: Pattern.LIVE2,
             Pattern.DEAD3: Pattern.DEAD2, Pattern.LIVE2: Pattern.LIVE1, Pattern.DEAD2: Pattern.DEAD1}


@functools.lru_cache(maxsize=None)
def py_classify(rule: Rule, c: int, a: tuple[int, ...]) -> Pattern:
    win, left, r = _wins(rule, c, a)
    n = left + r + 1
    if win:
        return Pattern.FIVE if n == 5 else Pattern.OVERLINE
    if n >= 6:
        return Pattern.OVERLINE
    if n >= 5:
        return Pattern.NONE
    completions = 0
    for q in (5 - left - 1, 5 + r + 1):
        if 0 <= q <= 10 and a[q] == 0:
            completions += _wins(rule, c, a[:q] + (c,) + a[q + 1:])[0]
    if completions == 2:
        return Pattern.LIVE4 if n == 4 or not (rule == Rule.RENJU and c == 1) else Pattern.FORBID
    if completions == 1:
        return Pattern.DEAD4
    best = Pattern.NONE
    for q in range(11):
        if q != 5 and a[q] == 0:
            child = py_classify(rule, c, a[:q] + (c,) + a[q + 1:])
            best = max(best, STEP_DOWN.get(child, Pattern.NONE))
    return best


def random_window(rng: random.Random) -> list[int]:
    cells = [rng.choice([0, 0, 0, 1, 1, 2]) for _ in range(11)]
    for side in (range(4, -1, -1), range(6, 11)):
        wall_from = rng.choice([None, None, None, 1, 2, 3, 4, 5])
        for i, idx in enumerate(side, start=1):
            if wall_from is not None and i >= wall_from:
                cells[idx] = 3
    return cells


@pytest.mark.parametrize("rule", list(Rule))
def test_tables_match_python_definition(rule):
    rng = random.Random(int(rule) + 7)
    for _ in range(3000):
        cells = random_window(rng)
        for c in (1, 2):
            a = list(cells)
            a[5] = c
            expect = py_classify(rule, c, tuple(a))
            got = lib.rj_classify_line(int(rule), c, ffi.new("uint8_t[11]", cells))
            assert got == expect, (rule, c, cells)
