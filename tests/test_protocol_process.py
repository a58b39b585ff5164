"""The real engine process through its pipes: whole games against a scripted opponent, colour
detection from BOARD, TAKEBACK, RESTART, the Gomocup ZIP checks, a clean exit."""
from __future__ import annotations

import json
import random

import pytest

from engine.board import Board, Color, Result, Rule
from engine.board.coords import parse_points
from engine.match.enginepipe import PYTHON_ENGINE, EngineProcess
from tests.conftest import VECTORS


def opponent_move(board: Board, rng: random.Random) -> tuple[int, int]:
    """The scripted opponent: a random legal point near the last stones."""
    legal = board.legal_moves()
    recent = board.moves[-4:]
    near = [m for m in legal if any(max(abs(m[0] - p[0]), abs(m[1] - p[1])) <= 2 for p in recent)]
    return rng.choice(near or legal)


def play_out(engine: EngineProcess, board: Board, rng: random.Random, engine_color: Color, max_moves: int = 60) -> None:
    """Alternate TURNs until the game ends, checking every engine move on our own board."""
    for _ in range(max_moves):
        if board.game_over:
            return
        assert board.to_move != engine_color
        x, y = opponent_move(board, rng)
        board.play(x, y)
        if board.game_over:
            return
        move, _ = engine.move(f"TURN {x},{y}")
        assert board.to_move == engine_color
        assert board.is_legal(*move), f"engine played illegal {move}\n{board}"
        board.play(*move)


# Games played out move by move use the fast pattern player; the default (search) player is
# exercised by the ZIP checks below and by tests/test_frozen.py.
PATTERN = PYTHON_ENGINE + ["--player", "pattern"]


def test_whole_game_colour_detection_takeback_restart():
    rng = random.Random(7)
    with EngineProcess(PATTERN) as engine:
        assert engine.ask("START 15") == "OK"
        engine.send("INFO timeout_turn 2000", "INFO timeout_match 120000", "INFO rule 4", "INFO max_memory 367001600")
        # BOARD with two stones: the engine is black and answers.
        board = Board(15, Rule.RENJU)
        board.play(7, 7)
        board.play(8, 8)
        move, _ = engine.move("INFO time_left 120000", "BOARD", "7,7,1", "8,8,2", "DONE")
        assert board.to_move == Color.BLACK and board.is_legal(*move)
        board.play(*move)
        play_out(engine, board, rng, Color.BLACK, max_moves=20)
        # TAKEBACK the engine's last stone (and our last), then continue from there.
        if not board.game_over:
            assert engine.ask(f"TAKEBACK {board.last_move[0]},{board.last_move[1]}") == "OK"
            board.undo()
            x, y = board.last_move
            assert engine.ask(f"TAKEBACK {x},{y}") == "OK"
            board.undo()
            play_out(engine, board, rng, Color.BLACK, max_moves=10)
        # RESTART, then a BOARD with three stones: now the engine is white.
        assert engine.ask("RESTART") == "OK"
        board = Board(15, Rule.RENJU)
        for m in [(7, 7), (8, 7), (7, 8)]:
            board.play(*m)
        move, _ = engine.move("BOARD", "7,7,2", "8,7,1", "7,8,2", "DONE")
        assert board.to_move == Color.WHITE and board.is_legal(*move)
        board.play(*move)
        play_out(engine, board, rng, Color.WHITE)
        engine.send("END")
        assert engine.proc.wait(10) == 0
        assert engine.bad == []


def test_engine_begins_and_plays_to_the_end():
    rng = random.Random(11)
    with EngineProcess(PATTERN) as engine:
        assert engine.ask("START 15") == "OK"
        engine.send("INFO rule 0", "INFO timeout_turn 1000")
        board = Board(15, Rule.FREESTYLE)
        move, _ = engine.move("BEGIN")
        board.play(*move)
        play_out(engine, board, rng, Color.BLACK, max_moves=120)
        assert board.game_over  # the pattern player beats a random opponent
        assert board.result == Result.BLACK_WINS
        assert engine.bad == []


def test_eof_exits_cleanly_and_stdout_stays_clean():
    with EngineProcess() as engine:
        engine.send("START 15", "FOO", "TURN 99,99", "BEGIN", "INFO folder /nonexistent/\0bad")
        engine.proc.stdin.close()
        assert engine.proc.wait(10) == 0
        lines = []
        while (line := engine.lines.get(timeout=5)) is not None:
            lines.append(line)
        assert lines[0] == "OK" and lines[1].startswith("UNKNOWN") and lines[2].startswith("ERROR")
        assert engine.bad == []
        assert not any("Traceback" in line for line in lines)


def gomocup_checks():
    return json.loads((VECTORS / "gomocup_acceptance_checks.json").read_text())["checks"]


@pytest.mark.parametrize("check", gomocup_checks(), ids=lambda c: f"rule{c['rule']}-{c['moves']}")
def test_gomocup_zip_checks_through_the_protocol(check):
    """The positions Gomocup's ZIP checker sends: complete the four, never the foul, block."""
    moves = parse_points(check["moves"])
    me = Color.BLACK if len(moves) % 2 == 0 else Color.WHITE
    assert me.name.lower() == check["to_move"]
    lines = [f"{x},{y},{1 if (i % 2 == 0) == (me == Color.BLACK) else 2}" for i, (x, y) in enumerate(moves)]
    with EngineProcess() as engine:
        assert engine.ask(f"START {check['board']}") == "OK"
        engine.send(f"INFO rule {check['rule']}", "INFO timeout_turn 30000", "INFO timeout_match 180000")
        move, _ = engine.move("INFO time_left 180000", "BOARD", *lines, "DONE")
        if "must_play_one_of" in check:
            assert list(move) in check["protocol_xy"]
        if "must_not_play" in check:
            assert list(move) not in check["protocol_xy"]
        assert engine.bad == []


@pytest.mark.parametrize("rule", [0, 1, 4, 8])
def test_gomocup_self_play_check(rule):
    """Gomocup's ZIP checker also self-plays from b2 e2 e3 mirrored to the far corner: no
    timeout, illegal move or crash."""
    size = 15
    opening = [(size - 1 - x, size - 1 - y) for x, y in parse_points("b2e2e3")]
    board = Board(size, Rule.from_gomocup(rule))
    for m in opening:
        board.play(*m)
    engines = [EngineProcess(PATTERN), EngineProcess(PATTERN)]
    try:
        for e in engines:
            assert e.ask(f"START {size}") == "OK"
            e.send(f"INFO rule {rule}", "INFO timeout_turn 1000", "INFO timeout_match 60000")
        # Engine 0 gets the three opening stones (so it is white), engine 1 those plus 0's answer.
        lines = [f"{x},{y},{1 if (i % 2) == (len(opening) % 2) else 2}" for i, (x, y) in enumerate(opening)]
        move, dt = engines[0].move("BOARD", *lines, "DONE")
        assert board.is_legal(*move) and dt < 1.0
        board.play(*move)
        current = 1
        seen = board.moves
        lines = [f"{x},{y},{1 if (i % 2) == (len(seen) % 2) else 2}" for i, (x, y) in enumerate(seen)]
        move, dt = engines[current].move("BOARD", *lines, "DONE")
        while True:
            assert board.is_legal(*move) and dt < 1.0
            board.play(*move)
            if board.game_over or board.stone_count >= size * size - 25:
                break
            current = 1 - current
            move, dt = engines[current].move(f"TURN {move[0]},{move[1]}")
        assert all(e.bad == [] for e in engines)
    finally:
        for e in engines:
            e.close()


def test_console_script_speaks_the_protocol():
    import sys
    from pathlib import Path

    script = Path(sys.executable).parent / "pbrain-renju"
    assert script.exists(), "the pbrain-renju console script is installed with the package"
    with EngineProcess([str(script)]) as engine:
        assert engine.ask("START 15") == "OK"
        move, _ = engine.move("BEGIN")
        assert move == (7, 7)


@pytest.mark.parametrize("block, lines", [("BOARD", ["7,7,1", "8,8,2"]), ("YXBOARD", ["7,7,1"]),
                                          ("SWAP2BOARD", ["7,7"])])
def test_end_inside_a_block_ends_the_process(block, lines):
    """The manager's END reaches an engine that is still reading a block (its stdin left open):
    the process exits at once, without a reply."""
    with EngineProcess(PATTERN) as engine:
        assert engine.ask("START 15") == "OK"
        engine.send(block, *lines, "END")
        assert engine.proc.wait(10) == 0
        assert engine.bad == []
