"""Test-only reference implementation of the Renju forbidden-move rule and of
the win rules used by the Gomocup protocol.

Deliberately simple pure Python (standard library only).  It is the oracle
the native rule code is checked against, so it favours being obviously
correct over being fast.  Written from the semantics of
docs/rules.md (the Gomocup referee's algorithm and the corner cases); no code
was taken from any other project.

Conventions
-----------
* ``EMPTY, BLACK, WHITE = 0, 1, 2``.
* A board is ``grid[x][y]``: a square list of lists of size N (5..22).
* Cells beyond the board edge behave as a wall: neither black nor empty.

Forbidden moves (black only, Renju)
-----------------------------------
``ref_forbidden(grid, x, y)`` evaluates black playing the empty point p=(x, y)
along the four lines through p, in this order:

a. an exact five through p (a run of exactly five black stones)  -> "legal"
   (five wins, even if p is also a 3-3, 4-4 or overline elsewhere);
b. fours: on each line, the empty points q such that black on q makes an
   exact five containing p.  A line counts the number of such q, except that
   a straight four ``_XXXX_`` counts as one.  Same-line double fours
   (``X_XXX_X``, ``XX_XX_XX``, ``XXX_X_XXX`` with p in the middle part) count
   two.  Total >= 2 -> "double_four";
c. threes: on each line, the empty points q such that black on q makes a
   straight four containing p (exactly four in a row, both ends empty and
   each end completing an exact five).  The line holds a three if at least
   one such q is usable: with p's stone on the board, q must neither make an
   exact five nor be forbidden itself (checked recursively by this same
   procedure).  At most one three per line; total >= 2 -> "double_three";
d. six or more black stones in a row through p                  -> "overline";
e. otherwise                                                     -> "legal".

Win rules (``rule`` argument of ``ref_wins`` / ``ref_has_five``)
----------------------------------------------------------------
* "freestyle":  five or more in a row (Gomocup rule 0);
* "standard":   exactly five (rule 1);
* "renju":      black exactly five, white five or more (rule 4);
* "caro":       five or more, not blocked at both ends (rule 8);
* "caro_exact": exactly five, not blocked at both ends (rule 9).
For the caro rules a run is "blocked" at an end only by an opponent stone;
see CARO_EDGE_BLOCKS and CARO_OVERLINE_ALWAYS_WINS below.
"""

EMPTY, BLACK, WHITE = 0, 1, 2
_WALL = 3  # what a cell beyond the board edge reads as

# The four line directions through a point: horizontal, vertical, diagonal,
# anti-diagonal.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

LEGAL = "legal"
DOUBLE_FOUR = "double_four"
DOUBLE_THREE = "double_three"
OVERLINE = "overline"
_FIVE = "five"  # internal only: p makes an exact five

RULES = ("freestyle", "standard", "renju", "caro", "caro_exact")

# Two caro details, as the Gomocup referee (GomocupJudge ai_match.make_move, rule 8/9 branch)
# judges them and protocol.md 1.7 describes rule 8: stepping off the board counts as a blocked
# end, and under rule 8 any run of six or more wins whatever its ends. The tests read these.
CARO_EDGE_BLOCKS = True
CARO_OVERLINE_ALWAYS_WINS = True


# --------------------------------------------------------------------------
# Small board helpers


def _at(grid, x, y):
    """Colour at (x, y), or _WALL when (x, y) is off the board."""
    n = len(grid)
    if 0 <= x < n and 0 <= y < n:
        return grid[x][y]
    return _WALL


def _run(grid, x, y, dx, dy, color):
    """The unbroken run of ``color`` through (x, y) along (dx, dy).

    (x, y) must already hold ``color``.  Returns ``(length, before, after)``
    where ``before`` and ``after`` are the coordinates of the cells just
    beyond the two ends of the run (possibly off the board).
    """
    back = 1
    while _at(grid, x - back * dx, y - back * dy) == color:
        back += 1
    fwd = 1
    while _at(grid, x + fwd * dx, y + fwd * dy) == color:
        fwd += 1
    before = (x - back * dx, y - back * dy)
    after = (x + fwd * dx, y + fwd * dy)
    return back + fwd - 1, before, after


def _check_point(grid, x, y):
    n = len(grid)
    if not (5 <= n <= 22) or any(len(col) != n for col in grid):
        raise ValueError("grid must be square, size 5..22")
    if not (0 <= x < n and 0 <= y < n):
        raise ValueError("point (%d, %d) is off the board" % (x, y))
    if grid[x][y] != EMPTY:
        raise ValueError("point (%d, %d) is not empty" % (x, y))


# --------------------------------------------------------------------------
# Renju forbidden moves


def _five_points(grid, x, y, dx, dy):
    """Black stands on (x, y).  Returns (run length through (x, y), the empty
    points on this line where one more black stone makes an exact five
    containing (x, y)).

    Such a point must touch the run through (x, y) (every cell between it and
    (x, y) is black), so only the two cells just beyond the run's ends can
    qualify.
    """
    length, before, after = _run(grid, x, y, dx, dy, BLACK)
    points = []
    for qx, qy in (before, after):
        if _at(grid, qx, qy) != EMPTY:
            continue
        grid[qx][qy] = BLACK
        if _run(grid, qx, qy, dx, dy, BLACK)[0] == 5:
            points.append((qx, qy))
        grid[qx][qy] = EMPTY
    return length, points


def _fours_on_line(grid, x, y, dx, dy):
    """Number of fours black's stone on (x, y) has on this line: a straight
    four _XXXX_ counts one, any other pair of completion points (a same-line
    double four) counts two."""
    length, points = _five_points(grid, x, y, dx, dy)
    if len(points) == 2 and length == 4:
        return 1  # the two completion points are exactly 5 apart
    return len(points)


def _is_straight_four(grid, x, y, dx, dy):
    """Black stands on (x, y): is the run through it exactly four stones long
    with both ends empty and each end completing an exact five?"""
    length, points = _five_points(grid, x, y, dx, dy)
    return length == 4 and len(points) == 2


def _straight_four_points(grid, x, y, dx, dy):
    """Black stands on (x, y).  The empty points on this line where one more
    black stone makes a straight four containing (x, y).  As for fives, only
    the cells just beyond the ends of the run through (x, y) can qualify."""
    _, before, after = _run(grid, x, y, dx, dy, BLACK)
    points = []
    for qx, qy in (before, after):
        if _at(grid, qx, qy) != EMPTY:
            continue
        grid[qx][qy] = BLACK
        if _is_straight_four(grid, qx, qy, dx, dy):
            points.append((qx, qy))
        grid[qx][qy] = EMPTY
    return points


def _classify(grid, x, y):
    """Classify black playing the empty point (x, y) on ``grid`` as it is
    (stones of outer recursion levels included).  Returns _FIVE, DOUBLE_FOUR,
    DOUBLE_THREE, OVERLINE or LEGAL.  The grid is restored before returning.
    """
    grid[x][y] = BLACK
    try:
        # a. exact five
        for dx, dy in DIRECTIONS:
            if _run(grid, x, y, dx, dy, BLACK)[0] == 5:
                return _FIVE

        # b. fours
        fours = 0
        for dx, dy in DIRECTIONS:
            fours += _fours_on_line(grid, x, y, dx, dy)
        if fours >= 2:
            return DOUBLE_FOUR

        # c. threes.  A line is a three candidate when it has at least one
        # straight-four point; only recurse when two or more lines are
        # candidates (one line alone can never make a double three).
        candidates = []
        for dx, dy in DIRECTIONS:
            points = _straight_four_points(grid, x, y, dx, dy)
            if points:
                candidates.append(points)
        if len(candidates) >= 2:
            threes = 0
            for points in candidates:
                # usable: not a five and not forbidden, with (x, y) on board
                if any(_classify(grid, qx, qy) == LEGAL for qx, qy in points):
                    threes += 1
                    if threes >= 2:
                        return DOUBLE_THREE

        # d. overline
        for dx, dy in DIRECTIONS:
            if _run(grid, x, y, dx, dy, BLACK)[0] >= 6:
                return OVERLINE

        return LEGAL
    finally:
        grid[x][y] = EMPTY


def ref_forbidden(grid, x, y):
    """Renju status of black playing the EMPTY point (x, y): one of "legal",
    "double_four", "double_three", "overline".  A move making an exact five
    is "legal".  The grid is left unchanged."""
    _check_point(grid, x, y)
    kind = _classify(grid, x, y)
    return LEGAL if kind == _FIVE else kind


def ref_all_forbidden(grid):
    """{(x, y): kind} for every empty point that is forbidden for black."""
    n = len(grid)
    result = {}
    for x in range(n):
        for y in range(n):
            if grid[x][y] == EMPTY:
                kind = ref_forbidden(grid, x, y)
                if kind != LEGAL:
                    result[(x, y)] = kind
    return result


# --------------------------------------------------------------------------
# Win rules


def _run_wins(grid, length, before, after, color, rule):
    """Does an unbroken run of ``length`` stones of ``color`` whose outer
    neighbours are ``before`` and ``after`` count as a win under ``rule``?"""
    if rule == "freestyle":
        return length >= 5
    if rule == "standard":
        return length == 5
    if rule == "renju":
        return length == 5 if color == BLACK else length >= 5
    if rule in ("caro", "caro_exact"):
        if rule == "caro_exact" and length != 5:
            return False
        if length < 5:
            return False
        if rule == "caro" and length >= 6 and CARO_OVERLINE_ALWAYS_WINS:
            return True
        opponent = WHITE if color == BLACK else BLACK
        blockers = (opponent, _WALL) if CARO_EDGE_BLOCKS else (opponent,)
        blocked_before = _at(grid, *before) in blockers
        blocked_after = _at(grid, *after) in blockers
        return not (blocked_before and blocked_after)
    raise ValueError("unknown rule %r (expected one of %s)" % (rule, RULES))


def ref_wins(grid, x, y, color, rule):
    """Does ``color`` placing a stone on the empty point (x, y) make a winning
    line under ``rule``?  Forbidden moves are not considered here (under
    renju a black exact five wins whatever else the move does; a black
    overline alone is not a win).  The grid is left unchanged."""
    _check_point(grid, x, y)
    if color not in (BLACK, WHITE):
        raise ValueError("color must be BLACK or WHITE")
    if rule not in RULES:
        raise ValueError("unknown rule %r (expected one of %s)" % (rule, RULES))
    grid[x][y] = color
    try:
        for dx, dy in DIRECTIONS:
            length, before, after = _run(grid, x, y, dx, dy, color)
            if _run_wins(grid, length, before, after, color, rule):
                return True
        return False
    finally:
        grid[x][y] = EMPTY


def ref_has_five(grid, color, rule):
    """Does the board already contain a winning line for ``color`` under
    ``rule``?  Every maximal run of ``color`` on every line is examined."""
    if rule not in RULES:
        raise ValueError("unknown rule %r (expected one of %s)" % (rule, RULES))
    n = len(grid)
    for x in range(n):
        for y in range(n):
            if grid[x][y] != color:
                continue
            for dx, dy in DIRECTIONS:
                if _at(grid, x - dx, y - dy) == color:
                    continue  # not the first stone of its run
                length, before, after = _run(grid, x, y, dx, dy, color)
                if _run_wins(grid, length, before, after, color, rule):
                    return True
    return False
