"""Yixin-Board's exact command sequences (tests/data/yixin: recorded from the GUI, see NOTICE.md)
replayed through the engine. The GUI reads a reply line as a move unless it starts with OK,
MESSAGE, DETAIL, DEBUG, ERROR, UNKNOWN or FORBID, and it reads FORBID four digits at a time up to
a '.', so every line the engine writes must be one of those, and a move line must answer exactly
the requests that wait for one."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from engine.board import Board, Color, Move
from engine.match.enginepipe import PYTHON_ENGINE, EngineProcess
from engine.players import Limits, Player
from engine.protocol.session import Session
from tests.protocol_helpers import CentrePlayer

DATA = Path(__file__).parent / "data" / "yixin"
LOGS = sorted(DATA.glob("*.log"))
GUI_READS = re.compile(r"^(OK|MESSAGE .*|DETAIL .*|DEBUG .*|ERROR .*|UNKNOWN .*|FORBID (\d{4})*\.)$")
MOVE = re.compile(r"^(\d+),(\d+)$")
UNOFFERED = {"YXBALANCEONE", "YXBALANCETWO", "YXSEARCHDEFEND"}


def recorded(path: Path) -> list[tuple[str, str]]:
    """("sent", line) for the GUI's lines, ("reply", line) for the stand-in's, in order."""
    events = []
    for raw in path.read_text().splitlines():
        if raw.startswith("> "):
            events.append(("sent", raw[2:]))
        elif raw.startswith("< "):
            events.append(("reply", raw[2:]))
    return events


def move_requests(events: list[tuple[str, str]]) -> list[Move]:
    """The stand-in's moves that answered the requests this engine answers with a move (BOARD
    ... DONE, TURN, BEGIN, YXNBEST), in order."""
    moves, waiting, in_board = [], False, False
    for kind, line in events:
        word = line.split()[0].upper() if line.split() else ""
        if kind == "sent":
            if word == "BOARD":
                in_board = True
            elif word == "DONE" and in_board:
                in_board, waiting = False, True
            elif word in ("TURN", "BEGIN", "YXNBEST"):
                waiting = True
            elif word in UNOFFERED:
                waiting = False
        elif (m := MOVE.match(line)) and waiting:
            moves.append((int(m.group(1)), int(m.group(2))))
            waiting = False
    return moves


class Scripted(Player):
    """Plays the stand-in's recorded moves, so that the GUI's later lines (a bare TURN after
    the engine's move) stay true of the engine's board."""

    name = "scripted"

    def __init__(self, moves: list[Move]) -> None:
        self.moves = list(moves)

    def ranked(self, board: Board, limits: Limits) -> list[tuple[Move, float]]:
        move = self.moves.pop(0)
        assert board.is_legal(*move), (move, str(board))
        return [(move, 1.0)]


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_the_gui_reads_every_reply_and_gets_one_move_per_request(path):
    events = recorded(path)
    expected_moves = move_requests(events)
    session = Session(Scripted(expected_moves))
    ours_moves, ours_forbid, theirs_forbid, in_board, apart = [], [], [], False, False
    for kind, line in events:
        word = line.split()[0].upper() if line.split() else ""
        if kind == "reply":
            if word == "FORBID" and not apart:
                theirs_forbid.append(line)
            continue
        # The stand-in answered these analysis commands with a move, which the GUI played; this
        # engine does not offer them (UNKNOWN): the GUI's position and its own differ until the
        # GUI sends a whole board again.
        apart = (apart or word in UNOFFERED) and word not in ("BOARD", "YXBOARD")
        replies = session.handle(line)
        waits = (word == "DONE" and in_board) or word in ("TURN", "BEGIN", "YXNBEST")
        in_board = word == "BOARD" or (in_board and word != "DONE")
        for r in replies:
            assert GUI_READS.match(r) or MOVE.match(r), (line, r)
        moves = [r for r in replies if MOVE.match(r)]
        assert len(moves) == (1 if waits else 0), (line, replies)
        ours_moves += [tuple(map(int, m.split(","))) for m in moves]
        ours_forbid += [r for r in replies if r.startswith("FORBID") and not apart]
    assert ours_moves == expected_moves  # one move for each request that waits for one, none elsewhere
    assert ours_forbid == theirs_forbid  # the forbidden points the GUI drew
    assert session.ended  # the GUI quits only once the engine has ended


def test_renju_is_rule_2_and_the_forbidden_point_is_the_double_three():
    events = recorded(DATA / "renju-engine-white-forbid.log")
    assert ("sent", "INFO rule 2") in events
    session = Session(Scripted(move_requests(events)))
    answers = [r for kind, line in events if kind == "sent" for r in session.handle(line) if r.startswith("FORBID")]
    assert "FORBID 1005." in answers  # black's h6 (GUI row 10, column 5) is a double three here


def test_block_points_are_not_played_until_reset():
    """YXBLOCK's points are left out of the moves the engine plays and lists (as Yixin sends them:
    `yxblock`, `x,y` lines, `done`), YXBLOCKUNDO takes some back, YXBLOCKRESET all."""
    s = Session(CentrePlayer())
    s.handle("START 15 15")
    for line in ("yxblock", "7,7", "6,6", "done"):
        assert s.handle(line) == []
    assert s.blocked == {(7, 7), (6, 6)}
    first = s.handle("BEGIN")[-1]
    assert first not in ("7,7", "6,6")
    s.handle("start 15 15")
    for line in ("yxboard", "done"):
        s.handle(line)
    listed = [r.split()[3] for r in s.handle("YXNBEST 3") if r.startswith("MESSAGE NBEST")]
    assert listed and not {"7,7", "6,6"} & set(listed)
    for line in ("yxblockundo", "7,7", "done"):
        s.handle(line)
    assert s.blocked == {(6, 6)}
    s.handle("yxblockreset")
    assert s.blocked == set()
    assert s.handle("yxblock") == [] and s.handle("7,x") == [] and s.handle("done")[0].startswith("ERROR")


def test_database_and_file_commands_are_read_to_their_end():
    """The GUI sends yxquerydatabaseall with its board lines after every change, and file
    commands with the file name on the next line: none of those lines is taken for a command."""
    s = Session(CentrePlayer())
    s.handle("START 15 15")
    for line in ("yxquerydatabaseall", "7,7", "8,8", "done"):
        assert s.handle(line) == []
    assert s.handle("yxhashdump") == []
    reply = s.handle("ABOUT")  # the file name line: answered, not run as the command it names
    assert len(reply) == 1 and reply[0].startswith("ERROR yxhashdump ABOUT")
    assert s.handle("ABOUT")[0].startswith("name=")


def test_the_gui_session_through_the_process(tmp_path):
    """The start-up and a move request exactly as the GUI sends them, to the real engine: it
    answers each, stops writing to stderr once the GUI has identified itself (Yixin-Board never
    reads it), answers at once when a new position arrives while it thinks (the GUI's undo), and
    exits on `end`."""
    events = recorded(DATA / "stop-and-undo-while-thinking.log")
    sent = [line for kind, line in events if kind == "sent"]
    startup = sent[: sent.index("INFO rule 2") + 1]
    with EngineProcess(PYTHON_ENGINE + ["--player", "deliberate"]) as engine:
        engine.send("INFO rule -1")  # a bad value: a warning on stderr, before the GUI says hello
        deadline = time.monotonic() + 10
        while not engine.stderr and time.monotonic() < deadline:
            time.sleep(0.05)
        assert engine.stderr
        engine.send(*startup)
        replies = [engine.reply(skip_messages=False) for _ in range(8 + 1)]  # YXSHOWINFO's lines, START's OK
        assert replies[-1] == "OK" and all(r.startswith("MESSAGE INFO") for r in replies[:-1])
        before = len(engine.stderr)
        engine.send("INFO rule -2", "start 15 15", "board", "7,7,2", "done")  # INFO timeout_turn is 30 s here
        assert engine.reply() == "OK"
        time.sleep(0.5)
        asked = time.monotonic()
        engine.send("start 15 15")  # the GUI's undo arrives while the engine thinks
        move = engine.reply(timeout=10)
        assert MOVE.match(move) and time.monotonic() - asked < 5
        assert engine.reply() == "OK"
        engine.send("yxboard", "7,7,1", "6,7,2", "done", "yxshowforbid", "yxstop", "end")
        assert engine.reply() == "FORBID ."  # black to move, nothing forbidden; yxstop is silent
        assert engine.proc.wait(10) == 0
        assert len(engine.stderr) == before
        assert engine.bad == []


class _BlackAhead(Player):
    """Scores every position as black's: the side-to-move balance then favours black."""

    name = "black-ahead"

    def ranked(self, board: Board, limits: Limits) -> list[tuple[Move, float]]:
        move = board.legal_moves()[0]
        return [(move, 1000.0 if board.to_move == Color.BLACK else 0.0)]


@pytest.mark.parametrize("player, answer", [(CentrePlayer, "NO"), (_BlackAhead, "YES")])
def test_yixin_swap2_steps(player, answer):
    """Yixin-Board's Swap2 as it sends it: step 1 the three stones (`x y`, space-separated), step
    2 after YXBOARD with three stones whether to swap to black, step 3 after five which colour to
    take; a player that sees black ahead swaps to black at both, one that sees no difference stays."""
    s = Session(player())
    s.handle("START 15 15")
    assert s.handle("yxswap2step1") == ["MESSAGE SWAP2 MOVE1 7 7", "MESSAGE SWAP2 MOVE2 8 8",
                                        "MESSAGE SWAP2 MOVE3 5 8"]
    for line in ("start 15 15", "yxboard", "7,7,2", "8,8,1", "5,8,2", "done"):
        s.handle(line)
    assert s.handle("yxswap2step2") == [f"MESSAGE SWAP2 SWAP1 {answer}"]
    for line in ("start 15 15", "yxboard", "7,7,1", "8,8,2", "5,8,1", "9,9,2", "4,9,1", "done"):
        s.handle(line)
    assert s.handle("yxswap2step3") == [f"MESSAGE SWAP2 SWAP2 {answer}"]
    assert s.handle("yxswap2step2")[0].startswith("ERROR this Swap2 step needs a position of 3 stones")
