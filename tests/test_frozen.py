"""Smoke test of the frozen executable (`make build`): it starts, plays a short game through its
pipes and passes the Gomocup ZIP checks. `make test` builds it and sets PBRAIN_EXE."""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from engine.board import Board, Color, Rule
from engine.board.coords import parse_points
from engine.match.enginepipe import EngineProcess
from tests.conftest import VECTORS

EXE = os.environ.get("PBRAIN_EXE")
pytestmark = pytest.mark.skipif(not EXE, reason="no frozen executable given (PBRAIN_EXE); `make smoke` builds one")


def test_frozen_engine_plays_a_short_game(tmp_path):
    exe = Path(EXE).resolve()
    assert exe.is_file()
    rng = random.Random(1)
    with EngineProcess([str(exe)], cwd=tmp_path) as engine:  # the manager's cwd is not ours
        assert engine.ask("START 15") == "OK"
        assert engine.ask("ABOUT").startswith('name="pbrain-renju"')
        engine.send("YXSHOWINFO")
        info = [engine.reply(skip_messages=False) for _ in range(8)]
        assert "MESSAGE INFO MODELS_DIR ok" in info  # the bundled models/, found through sys._MEIPASS
        engine.send("INFO rule 4", "INFO timeout_turn 1000", f"INFO folder {tmp_path}")
        board = Board(15, Rule.RENJU)
        move, dt = engine.move("BEGIN")
        for _ in range(15):
            assert board.is_legal(*move) and dt < 1.0
            board.play(*move)
            if board.game_over:
                break
            reply = rng.choice([m for m in board.legal_moves() if max(abs(m[0] - 7), abs(m[1] - 7)) <= 4])
            board.play(*reply)
            if board.game_over:
                break
            move, dt = engine.move(f"TURN {reply[0]},{reply[1]}")
        engine.send("END")
        assert engine.proc.wait(5) == 0
        assert engine.bad == []
    assert (tmp_path / "pbrain-renju" / "pbrain-renju.log").is_file()  # logs went to INFO folder


def test_frozen_engine_passes_the_zip_checks(tmp_path):
    checks = json.loads((VECTORS / "gomocup_acceptance_checks.json").read_text())["checks"]
    for check in checks:
        moves = parse_points(check["moves"])
        me = Color.BLACK if len(moves) % 2 == 0 else Color.WHITE
        lines = [f"{x},{y},{1 if (i % 2 == 0) == (me == Color.BLACK) else 2}" for i, (x, y) in enumerate(moves)]
        with EngineProcess([str(Path(EXE).resolve())], cwd=tmp_path) as engine:
            assert engine.ask("START 15") == "OK"
            engine.send(f"INFO rule {check['rule']}", "INFO timeout_turn 5000")
            move, _ = engine.move("BOARD", *lines, "DONE")
            if "must_play_one_of" in check:
                assert list(move) in check["protocol_xy"]
            else:
                assert list(move) not in check["protocol_xy"]


def test_frozen_engine_plays_from_a_book_it_is_given(tmp_path):
    from engine import book as bk

    opening = [(7, 7), (7, 8), (9, 7)]
    key, k = bk.position_key(Board.from_moves(opening))
    path = tmp_path / "b.json.gz"
    bk.Book(Rule.RENJU, 15, {key: bk.Entry(bk.to_image((3, 3), k, 15), 0.0, 1)}).save(path)
    lines = [f"{x},{y},{1 if i % 2 == 1 else 2}" for i, (x, y) in enumerate(opening)]  # the engine is white
    with EngineProcess([str(Path(EXE).resolve()), "--book", str(path)], cwd=tmp_path) as engine:
        assert engine.ask("START 15") == "OK"
        engine.send("INFO rule 4", "INFO timeout_turn 5000", "BOARD", *lines, "DONE")
        replies = [engine.reply(skip_messages=False)]
        while replies[-1].startswith("MESSAGE"):
            replies.append(engine.reply(skip_messages=False))
        assert replies[-1] == "3,3" and "MESSAGE book 3,3" in replies  # no search plays 3,3 here
