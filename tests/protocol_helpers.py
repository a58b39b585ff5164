"""Helpers for the protocol tests: a deterministic test player and the transcript format."""
from __future__ import annotations

import re
from pathlib import Path

from engine.board import Board, Move
from engine.players import Limits, Player

TRANSCRIPTS = Path(__file__).resolve().parent / "data" / "transcripts"

# Every line the engine may print on stdout.
PROTOCOL_LINE = re.compile(
    r"^(OK|SWAP|UNKNOWN .*|ERROR .*|MESSAGE .*|DEBUG .*|\d+,\d+( \d+,\d+)*|FORBID (\d{4})*\.|name=\".*)$"
)


class CentrePlayer(Player):
    """Test double: the legal point nearest the centre (Chebyshev distance, then y, then x), so
    transcripts do not change when the real players get stronger."""

    name = "centre"

    def ranked(self, board: Board, limits: Limits) -> list[tuple[Move, float]]:
        c = board.size // 2
        legal = board.legal_moves()
        legal.sort(key=lambda m: (max(abs(m[0] - c), abs(m[1] - c)), m[1], m[0]))
        return [(m, 0.0) for m in legal]


def read_transcript(path: Path) -> tuple[list[str], list[str]]:
    """`> line` is sent to the engine, `< line` is expected back, in order; `#` starts a
    comment; `<CR>` in an input line stands for a carriage return."""
    sent, expected = [], []
    for raw in path.read_text().splitlines():
        if raw.startswith("> "):
            sent.append(raw[2:].replace("<CR>", "\r"))
        elif raw.startswith("< "):
            expected.append(raw[2:])
        elif raw.strip() and not raw.startswith("#"):
            raise ValueError(f"{path.name}: bad transcript line {raw!r}")
    return sent, expected
