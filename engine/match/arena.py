"""One game between two Gomocup engines, refereed as GomocupJudge does (docs/protocol.md, "How
managers drive an engine"): START and the INFO block, each engine's first move from BOARD (the
opening in move order), TURN afterwards, INFO time_left before every move, the engine suspended while it is not
its turn, END then kill. Every way of losing the referee knows is adjudicated here."""
from __future__ import annotations

import os
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.board import Board, Color, Foul, Move, Result, Rule
from engine.match.enginepipe import EngineProcess

UNLIMITED_MS = 2_147_483_647


@dataclass(frozen=True)
class EngineSpec:
    name: str
    command: tuple[str, ...]


@dataclass
class MatchConfig:
    size: int = 15
    rule: Rule = Rule.RENJU
    timeout_turn: int = 1000  # ms
    timeout_match: int = 0  # ms; 0: no match limit
    max_memory: int = 350 * 1024 * 1024  # bytes; 0: no limit
    tolerance: int = 1000  # ms the referee adds to every deadline (GomocupJudge's default)
    game_type: int = 1
    suspend: bool = True  # freeze the engine that is not on move (POSIX)
    log_io: bool = False
    # Time odds, for measuring how strength scales with thinking time: an engine named here gets
    # its turn and match limits multiplied by the factor (sent by INFO and refereed).
    odds: dict[str, float] = field(default_factory=dict)

    def limits_for(self, name: str) -> tuple[int, int]:
        """(timeout_turn, timeout_match) in ms for the engine called `name`."""
        k = self.odds.get(name, 1.0)
        return round(self.timeout_turn * k), round(self.timeout_match * k)


@dataclass
class GameRecord:
    black: str
    white: str
    opening: list[Move]
    moves: list[tuple[int, int, int]] = field(default_factory=list)  # x, y, ms (opening excluded)
    winner: Color | None = None  # None: a draw
    reason: str = ""  # five, foul, occupied, offboard, timeout, crash, memory, draw200, full
    io: dict[str, list[str]] = field(default_factory=dict)

    def score_for(self, name: str) -> float:
        if self.winner is None:
            return 0.5
        winner = self.black if self.winner == Color.BLACK else self.white
        return 1.0 if winner == name else 0.0


def _signal(proc: EngineProcess, sig: int) -> None:
    if sys.platform == "win32" or proc.proc.poll() is not None:
        return
    try:
        os.killpg(proc.proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def play_game(black: EngineSpec, white: EngineSpec, opening: list[Move], cfg: MatchConfig) -> GameRecord:
    record = GameRecord(black.name, white.name, list(opening))
    board = Board(cfg.size, cfg.rule)
    for x, y in opening:
        board.play(x, y)
    specs = {Color.BLACK: black, Color.WHITE: white}
    engines: dict[Color, EngineProcess] = {}
    used = {Color.BLACK: 0.0, Color.WHITE: 0.0}
    started = {Color.BLACK: False, Color.WHITE: False}
    rule_bits = {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4, Rule.CARO: 8, Rule.CARO_EXACT: 9}[cfg.rule]
    folders = tempfile.TemporaryDirectory(prefix="pbrain-match-")
    try:
        for color in (Color.BLACK, Color.WHITE):
            folder = Path(folders.name) / color.name.lower()
            folder.mkdir()
            proc = EngineProcess(list(specs[color].command), cwd=folder, new_session=True, transcript=cfg.log_io)
            engines[color] = proc
            turn, match = cfg.limits_for(specs[color].name)
            proc.send(f"START {cfg.size}", f"INFO timeout_turn {turn}",
                      f"INFO timeout_match {match}", f"INFO max_memory {cfg.max_memory}",
                      f"INFO game_type {cfg.game_type}", f"INFO rule {rule_bits}", f"INFO folder {folder}")
            if cfg.suspend:
                _signal(proc, signal.SIGSTOP)
        while True:
            me = board.to_move
            proc = engines[me]
            timeout_turn, timeout_match = cfg.limits_for(specs[me].name)
            if timeout_match > 0:
                left_ms = int(timeout_match - used[me] * 1000)
            else:
                left_ms = UNLIMITED_MS
            turn_ms = timeout_turn if timeout_turn > 0 else UNLIMITED_MS
            limit_ms = min(turn_ms, left_ms if timeout_match > 0 else UNLIMITED_MS)
            if started[me]:
                last = board.last_move
                commands = [f"INFO time_left {left_ms}", f"TURN {last[0]},{last[1]}"]
            else:  # an engine's first move: the whole position, own stones = 1, the opponent's = 2
                commands = [f"INFO time_left {left_ms}", "BOARD"]
                commands += [f"{x},{y},{1 if c == me else 2}" for (x, y), c in board.history()]
                commands.append("DONE")
                started[me] = True
            if cfg.suspend:
                _signal(proc, signal.SIGCONT)
            t0 = time.monotonic()
            try:
                proc.send(*commands)
                reply = proc.wait_move(t0 + (max(0, limit_ms) + cfg.tolerance) / 1000.0)
            except (BrokenPipeError, OSError):
                reply = "eof"
            elapsed = time.monotonic() - t0
            if cfg.suspend:
                _signal(proc, signal.SIGSTOP)
            if reply is None or reply == "eof":
                crashed = reply == "eof" or proc.proc.poll() is not None
                return _end(record, me.opponent, "crash" if crashed else "timeout")
            used[me] += max(0.0, elapsed - 0.010)  # GomocupJudge forgives 10 ms of pipe latency
            x, y = reply
            record.moves.append((x, y, int(elapsed * 1000)))
            if not board.on_board(x, y):
                return _end(record, me.opponent, "offboard")
            if board[x, y] != Color.EMPTY:
                return _end(record, me.opponent, "occupied")
            if cfg.rule == Rule.RENJU and me == Color.BLACK and board.foul(x, y) != Foul.NONE:
                return _end(record, Color.WHITE, "foul")
            board.play(x, y)
            if cfg.max_memory > 0:
                memory = proc.memory()
                if memory is not None and memory > cfg.max_memory:
                    return _end(record, me.opponent, "memory")
            if board.result in (Result.BLACK_WINS, Result.WHITE_WINS):
                return _end(record, me, "five")
            if board.result == Result.DRAW:
                return _end(record, None, "full")
            if cfg.rule == Rule.RENJU and board.stone_count >= cfg.size * cfg.size - 25:
                return _end(record, None, "draw200")
    finally:
        for color, proc in engines.items():
            if cfg.suspend:
                _signal(proc, signal.SIGCONT)
            try:
                proc.send("END")
            except (BrokenPipeError, OSError, ValueError):
                pass
        deadline = time.monotonic() + 0.5
        for proc in engines.values():
            try:
                proc.proc.wait(max(0.0, deadline - time.monotonic()))
            except Exception:
                pass
            if proc.proc.poll() is None:
                _signal(proc, signal.SIGKILL)
                proc.proc.kill()
        for color, proc in engines.items():
            if proc.transcript is not None:
                record.io[specs[color].name + f" ({color.name.lower()})"] = proc.transcript + [
                    "stderr: " + line.rstrip() for line in proc.stderr]
        folders.cleanup()


def _end(record: GameRecord, winner: Color | None, reason: str) -> GameRecord:
    record.winner = winner
    record.reason = reason
    return record
