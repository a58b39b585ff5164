"""Fuzzing the protocol: random and malformed lines never crash the engine, never put a
non-protocol line on stdout, and a valid game command afterwards is still answered."""
from __future__ import annotations

import io
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.match.enginepipe import EngineProcess
from engine.players import PatternPlayer
from engine.protocol.loop import serve
from engine.protocol.session import Session
from tests.protocol_helpers import PROTOCOL_LINE

COMMANDS = ["START", "RECTSTART", "RESTART", "BEGIN", "TURN", "BOARD", "YXBOARD", "SWAP2BOARD", "DONE", "INFO",
            "ABOUT", "TAKEBACK", "PLAY", "YXSHOWFORBID", "YXNBEST", "YXSTOP", "STOP", "YXHASHCLEAR",
            "YXSHOWINFO", "SUGGEST", "start", "turn"]
INFO_KEYS = ["timeout_turn", "timeout_match", "time_left", "max_memory", "rule", "game_type", "folder",
             "max_node", "thread_num", "evaluate", "x"]

numbers = st.one_of(st.integers(-5, 25), st.integers(-(2**70), 2**70))
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # what str.splitlines splits on
text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters=LINE_BREAKS), max_size=30)
coords = st.one_of(st.builds(lambda x, y: f"{x},{y}", numbers, numbers),
                   st.builds(lambda x, y, f: f"{x},{y},{f}", numbers, numbers, st.integers(-1, 5)), text)
line = st.one_of(
    st.builds(lambda c, a: f"{c} {a}", st.sampled_from(COMMANDS), st.one_of(coords, numbers.map(str), text)),
    st.sampled_from(COMMANDS),
    st.builds(lambda k, v: f"INFO {k} {v}", st.sampled_from(INFO_KEYS), st.one_of(numbers.map(str), text)),
    coords,
    text,
).filter(lambda s: s.strip().split(" ")[0].upper() != "END" if s.strip() else True)


def _served(script: str) -> tuple[Session, list[str]]:
    session, out = Session(PatternPlayer()), io.StringIO()
    assert serve(session, io.StringIO(script), out) == 0
    return session, out.getvalue().splitlines()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(line, max_size=25))
def test_random_lines_never_break_the_protocol(lines):
    script = "\n".join(lines + ["DONE", "START 15", "TURN 7,7"]) + "\n"
    out = io.StringIO()
    status = serve(Session(PatternPlayer()), io.StringIO(script), out)
    assert status == 0
    replies = out.getvalue().splitlines()
    assert all(PROTOCOL_LINE.match(r) for r in replies), [r for r in replies if not PROTOCOL_LINE.match(r)]
    assert re.fullmatch(r"\d+,\d+", replies[-1]), replies[-3:]


def test_binary_garbage_through_the_real_process():
    rng = random.Random(5)
    with EngineProcess() as engine:
        assert engine.proc.stdin is not None
        raw = engine.proc.stdin.buffer if hasattr(engine.proc.stdin, "buffer") else None
        assert raw is not None
        for _ in range(200):
            junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
            raw.write(junk.replace(b"\n", b" ").replace(b"\r", b" ") + b"\r\n")
        raw.write(b"\xff\xfe\x00START 15\r\nSTART 15\r\nTURN 7,7\r\n")
        raw.flush()
        while True:
            reply = engine.reply(timeout=30)
            if "," in reply and reply.replace(",", "").isdigit():
                break
        assert engine.bad == []
        assert engine.proc.poll() is None  # still alive


block_line = coords.filter(lambda s: s.strip().upper() not in ("DONE", "END"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(line, max_size=15), st.sampled_from(["BOARD", "YXBOARD", "SWAP2BOARD", "yxboard"]),
       st.lists(block_line, max_size=8), st.sampled_from(["END", "end", "  END  ", "End\r"]))
def test_end_ends_the_engine_wherever_it_arrives(before, block, data, end):
    """After any lines, END inside an unfinished block ends the session: the lines after it
    (a new game and a move asked for) get no reply, so the output is that of the input cut at END."""
    head = before + ["DONE", "START 15", block] + data + [end]
    session, replies = _served("\n".join(head + ["START 15", "BEGIN", "ABOUT"]) + "\n")
    assert session.ended
    _, cut = _served("\n".join(head) + "\n")
    assert replies == cut
    assert all(PROTOCOL_LINE.match(r) for r in replies)
