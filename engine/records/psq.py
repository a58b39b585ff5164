"""Piskvork's `.psq` game record, as Piskvork and Gomocup's referee write it:

    Piskvorky 15x15, 11:11, 0     header: the board size (the rest is the GUI's)
    8,9,0                         one line a move: x,y (1-based), milliseconds used (0: opening stone)
    ...
    BLACK.zip                     then, optionally, the engines' names (black's first; the match
    WHITE.zip                     runner and Piskvork write a -1 line before them),
    -1                            a -1 line, and what else the writer adds (Gomocup: the league's tag)

A record that does not follow it is refused with a ValueError naming the line, never half-read."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from engine.board import Rule
from engine.records.game import Game, judge

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
    """Parses a record; raises ValueError for a missing header or a malformed or off-board move
    line. The moves' legality under a rule is the caller's to judge: a referee's record ends with
    the move that lost the game, an occupied point or a foul included."""
    lines = text.splitlines()
    if not lines:
        raise ValueError("empty record")
    m = _HEADER.match(lines[0])
    if not m:
        raise ValueError(f"line 1: not a Piskvork header: {lines[0][:40]!r}")
    width, height = int(m.group(1)), int(m.group(2))
    if width != height or not 5 <= width <= 32:
        raise ValueError(f"line 1: board {width}x{height} (square boards of 5..32 only)")
    record = PsqRecord(width)
    for i, line in enumerate(lines[1:], start=2):
        line = line.strip()
        if not line:
            continue
        if line == "-1" or not _looks_like_a_move(line):
            record.names = _names(lines[i - 1:])
            return record
        parts = line.split(",")
        if len(parts) != 3 or not all(p.strip().lstrip("-").isdigit() for p in parts):
            raise ValueError(f"line {i}: not a move line 'x,y,ms': {line[:40]!r}")
        x, y, ms = (int(p) for p in parts)
        if not (1 <= x <= width and 1 <= y <= width):
            raise ValueError(f"line {i}: move {x},{y} off the {width}x{width} board")
        if ms < 0:
            raise ValueError(f"line {i}: negative time {ms}")
        record.moves.append((x - 1, y - 1, ms))
    return record  # a record cut after its moves (the referee may stop there) keeps them


def _looks_like_a_move(line: str) -> bool:
    """Move lines start with a number and a comma; anything else ends the moves (the trailer of
    names and tags). A line that starts like a move but is not one is an error, not a name."""
    head = line.split(",", 1)[0].strip()
    return "," in line and head.lstrip("-").isdigit()


def _names(trailer: list[str]) -> list[str]:
    """The engines' names: Gomocup's referee writes them right after the moves and ends them with
    -1 (a tag line follows); the match runner and Piskvork put a -1 first."""
    rest = [t.strip() for t in trailer]
    if rest and rest[0] == "-1":
        rest = rest[1:]
    names = []
    for t in rest:
        if t == "-1":
            break
        if t:
            names.append(t)
    return names


def read(path: str | Path) -> PsqRecord:
    try:
        return loads(Path(path).read_text(errors="replace"))
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


def to_game(record: PsqRecord, rule: Rule, source: str = "") -> Game:
    """The record as a judged Game: its leading stones with 0 ms are the referee's opening (Gomocup
    writes them so), the names black's then white's."""
    opening = 0
    for _, _, ms in record.moves:
        if ms != 0:
            break
        opening += 1
    if opening == len(record.moves):  # no timed move at all: a hand-made record, every move chosen
        opening = 0
    names = (record.names + ["", ""])[:2]
    return judge(Game(record.size, rule, record.points(), opening=opening, names=(names[0], names[1]), source=source))
