"""Piskvork's `.psq` game record, as Piskvork and Gomocup's referee write it:

    Piskvorky 15x15, 11:11, 0     header: the board size (the rest is the GUI's)
    8,9,0                         one line a move: x,y (1-based), milliseconds used (0: opening stone)
    ...
    -1                            then, optionally, the engines' names (black's first) and more lines

A record that does not follow it is refused with a ValueError naming the line, never half-read."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_HEADER = re.compile(r"^\s*Piskvorky\s+(\d+)\s*x\s*(\d+)")


@dataclass
class PsqRecord:
    size: int
    moves: list[tuple[int, int, int]] = field(default_factory=list)  # x, y (0-based), ms
    names: list[str] = field(default_factory=list)  # the lines after the moves' -1, up to the next -1

    def points(self) -> list[tuple[int, int]]:
        return [(x, y) for x, y, _ in self.moves]


def dumps(size: int, opening: list[tuple[int, int]], moves: list[tuple[int, int, int]], names: list[str]) -> str:
    """A record: the opening's stones with 0 ms, then the moves (x, y 0-based, ms), `-1`, the names."""
    lines = [f"Piskvorky {size}x{size}, 11:11, 0"]
    lines += [f"{x + 1},{y + 1},0" for x, y in opening]
    lines += [f"{x + 1},{y + 1},{ms}" for x, y, ms in moves]
    lines += ["-1", *names, "-1"]
    return "\n".join(lines) + "\n"


def loads(text: str) -> PsqRecord:
    """Parses a record; raises ValueError for a missing header, a malformed or off-board move line
    or a point played twice (the legality of the moves under a rule is the caller's to check)."""
    lines = text.splitlines()
    if not lines:
        raise ValueError("empty record")
    m = _HEADER.match(lines[0])
    if not m:
        raise ValueError(f"line 1: not a Piskvork header: {lines[0][:40]!r}")
    width, height = int(m.group(1)), int(m.group(2))
    if width != height or not 5 <= width <= 32:
        raise ValueError(f"line 1: board {width}x{height} (square boards of 5..32 only)")
    record, seen = PsqRecord(width), set()
    for i, line in enumerate(lines[1:], start=2):
        line = line.strip()
        if line == "-1":
            for name in lines[i:]:
                if name.strip() == "-1":
                    break
                record.names.append(name.strip())
            return record
        parts = line.split(",")
        if len(parts) != 3 or not all(p.strip().lstrip("-").isdigit() for p in parts):
            if not line:
                continue
            raise ValueError(f"line {i}: not a move line 'x,y,ms': {line[:40]!r}")
        x, y, ms = (int(p) for p in parts)
        if not (1 <= x <= width and 1 <= y <= width) or ms < 0:
            raise ValueError(f"line {i}: move {x},{y} off the {width}x{width} board" if ms >= 0
                             else f"line {i}: negative time {ms}")
        if (x, y) in seen:
            raise ValueError(f"line {i}: point {x},{y} played twice")
        seen.add((x, y))
        record.moves.append((x - 1, y - 1, ms))
    return record  # a record cut before its -1 keeps the moves it has (the referee may stop there)


def read(path: str | Path) -> PsqRecord:
    try:
        return loads(Path(path).read_text(errors="replace"))
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
