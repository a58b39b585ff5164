"""What a move makes for its side: a five, a four (straight or not), two fours, a four and a live
three, a live three, two threes, or none of those; the classes the benchmark sets sort moves by."""
from __future__ import annotations

from engine.board import Board, Color, Foul, Move, Pattern, Rule, threat_level

# Directions of Board.patterns' last axis: horizontal, vertical, diagonal, anti-diagonal.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 1))


def move_kind(board: Board, move: Move, color: Color | None = None) -> str:
    """What `color` (default: the side to move) makes by playing the empty point `move` now, from
    the board's own pattern machinery (one of the codes in the module docstring).

    A four: the pattern type of the point before the move, in some direction, is DEAD4 or LIVE4
    (threat level 2 or 3: the stone leaves exactly one, or two, points that complete a five on
    that line; the tables already judge black's overlines under Renju). A live three: the type in
    some direction is LIVE3 (one more stone could make a straight four on that line), confirmed
    on the board after the move: some empty point on that line, within four of the stone, must
    now be a LIVE4 point in that direction that was not one before, and (black under Renju) not
    forbidden. Only then is it a three in the RIF sense, a line that can become a straight four;
    LIVE3 alone does not know whether black's straight-four point is a foul.
    """
    color = board.to_move if color is None else color
    x, y = move
    if board.wins_at(x, y, color):
        return "5"
    before = board.patterns(color)
    levels = [threat_level(board.rule, color, Pattern(int(p))) for p in before[y, x]]
    fours = sum(1 for lv in levels if lv in (2, 3))
    live_four = any(lv == 3 for lv in levels)
    three_dirs = [d for d, lv in enumerate(levels) if lv == 1]
    threes = 0
    if three_dirs:
        after = board.copy()
        after.put(x, y, color)
        now = after.patterns(color)
        black_fouls = board.rule == Rule.RENJU and color == Color.BLACK
        for d in three_dirs:
            dx, dy = DIRECTIONS[d]
            for step in (*range(-4, 0), *range(1, 5)):
                px, py = x + step * dx, y + step * dy
                if not after.on_board(px, py) or after[px, py] != Color.EMPTY:
                    continue
                if now[py, px, d] != Pattern.LIVE4 or before[py, px, d] == Pattern.LIVE4:
                    continue
                if black_fouls and after.foul(px, py) != Foul.NONE:
                    continue
                threes += 1
                break
    if fours >= 2:
        return "44"
    if fours and threes:
        return "43"
    if fours:
        return "4L" if live_four else "4"
    if threes >= 2:
        return "33"
    return "3" if threes else "-"


def is_four(kind: str) -> bool:
    return kind.startswith("4") or kind == "5"


def is_threat(kind: str) -> bool:
    return kind != "-"


def count_threes(kinds: list[str]) -> int:
    """Moves whose strongest threat was a live three (a four-three counts as a four)."""
    return sum(1 for k in kinds if k in ("3", "33"))
