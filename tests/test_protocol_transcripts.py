"""Transcript tests: each file in tests/data/transcripts is a protocol conversation (`>` sent,
`<` expected back) replayed through a Session driven by the deterministic test player."""
from __future__ import annotations

import pytest

from engine import __version__
from engine.protocol.session import Session
from tests.protocol_helpers import PROTOCOL_LINE, TRANSCRIPTS, CentrePlayer, read_transcript

FILES = sorted(TRANSCRIPTS.glob("*.txt"))


def test_there_is_a_transcript_per_command_family():
    assert {p.stem for p in FILES} >= {"start", "moves", "board", "info", "takeback", "swap2", "yixin", "misc", "renju"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_transcript(path):
    sent, expected = read_transcript(path)
    session = Session(CentrePlayer())
    got = [reply for line in sent for reply in session.handle(line)]
    expected = [line.replace("{version}", __version__) for line in expected]
    assert got == expected
    assert all(PROTOCOL_LINE.match(line) for line in got)
