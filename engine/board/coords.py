"""Point notation: letter-number ("h8": letter a.. is x from 0, number is y + 1, either case, as
GomocupJudge and the rule vectors in tests/data/vectors write them) and protocol pairs ("7,7")."""
from __future__ import annotations

import re

from engine.native import BoardError

Move = tuple[int, int]

_LETTER_NUMBER = re.compile(r"([a-zA-Z])(\d{1,2})")
_PAIR = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*")


def parse_point(text: str) -> Move:
    """Parse "h8" or "7,7" into (x, y). Raises BoardError on anything else."""
    m = _LETTER_NUMBER.fullmatch(text.strip())
    if m:
        y = int(m.group(2)) - 1
        if y < 0:
            raise BoardError(f"bad point {text!r}: rows are numbered from 1")
        return ord(m.group(1).lower()) - ord("a"), y
    m = _PAIR.fullmatch(text)
    if m:
        return int(m.group(1)), int(m.group(2))
    raise BoardError(f"bad point {text!r}: expected letter-number like h8 or a pair like 7,7")


def parse_points(text: str) -> list[Move]:
    """Parse a list of points: letter-number tokens separated by commas or spaces ("h8,h9 i7"),
    a concatenated string ("h8h9i7", as GomocupJudge writes openings), or "x,y" pairs separated
    by ";" or spaces ("7,7;7,8" or "7,7 7,8")."""
    text = text.strip()
    if not text:
        return []
    if re.fullmatch(r"(?:[a-zA-Z]\d{1,2})+", text):
        return [parse_point(m.group(0)) for m in _LETTER_NUMBER.finditer(text)]
    chunks = [c for c in re.split(r"[;\s]+", text) if c]
    if all(_PAIR.fullmatch(c) for c in chunks):
        return [parse_point(c) for c in chunks]
    tokens = [t for t in re.split(r"[\s,;]+", text) if t]
    if all(_LETTER_NUMBER.fullmatch(t) for t in tokens):
        return [parse_point(t) for t in tokens]
    raise BoardError(f"bad point list {text!r}")


def format_point(move: Move) -> str:
    """(7, 7) -> "h8"."""
    x, y = move
    if not 0 <= x < 26 or y < 0:
        raise BoardError(f"({x}, {y}) has no letter-number name")
    return f"{chr(ord('a') + x)}{y + 1}"
