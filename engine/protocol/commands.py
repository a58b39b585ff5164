"""Parsing of protocol command arguments. Pure functions; errors are ProtocolError with the text
that follows `ERROR `."""
from __future__ import annotations

import re

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class ProtocolError(ValueError):
    """A known command that cannot be honoured; the message follows `ERROR `."""


_PAIR = re.compile(r"\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*")
_TRIPLE = re.compile(r"\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*")


def parse_int64(text: str) -> int:
    """A decimal integer that fits in 64 bits (INFO values)."""
    text = text.strip()
    if not re.fullmatch(r"[+-]?\d+", text):
        raise ProtocolError(f"not an integer: {text!r}")
    value = int(text)
    if not INT64_MIN <= value <= INT64_MAX:
        raise ProtocolError(f"out of 64-bit range: {text}")
    return value


def parse_xy(text: str) -> tuple[int, int]:
    """`x,y` as the protocol writes points."""
    m = _PAIR.fullmatch(text)
    if not m:
        raise ProtocolError(f"bad coordinates {text.strip()!r}: expected x,y")
    return int(m.group(1)), int(m.group(2))


def parse_xyf(text: str) -> tuple[int, int, int]:
    """`x,y,f` lines of BOARD: f = 1 own stone, 2 opponent's, 3 blocked (continuous games)."""
    m = _TRIPLE.fullmatch(text)
    if not m:
        raise ProtocolError(f"bad BOARD line {text.strip()!r}: expected x,y,field")
    x, y, f = (int(g) for g in m.groups())
    if f not in (1, 2, 3):
        raise ProtocolError(f"bad BOARD field {f} in {text.strip()!r}: expected 1, 2 or 3")
    return x, y, f


def split_command(line: str) -> tuple[str, str]:
    """Upper-cased command word and the rest of the line."""
    parts = line.strip().split(maxsplit=1)
    if not parts:
        return "", ""
    return parts[0].upper(), parts[1] if len(parts) > 1 else ""
