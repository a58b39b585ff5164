"""Helpers for the protocol tests: a deterministic test player and the transcript format."""
from __future__ import annotations

from pathlib import Path

from engine.board import Board, Move
from engine.match.enginepipe import PROTOCOL_LINE
from engine.players import Limits, Player

TRANSCRIPTS = Path(__file__).resolve().parent / "data" / "transcripts"
__all__ = ["PROTOCOL_LINE", "TRANSCRIPTS", "CentrePlayer", "read_transcript"]


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
