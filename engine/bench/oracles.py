"""Independent engines' word on a position: a fresh process of a Gomocup protocol engine (PentaZen,
Rapfi) given the position alone for a fixed time, and what its messages announce (a forced win, its
node count, its move and that move's class)."""
from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from engine.bench.movekind import is_four, move_kind
from engine.board import Board, Move
from engine.board.coords import format_point, parse_points
from engine.match.evals import board_block, parse_message

ORACLES = ("pentazen", "rapfi")


def first_class(kind: str) -> str:
    """A first move's class for the bench's split: "four" (a four or more), "three" (a live three
    or two) or "quiet" (neither: a win no VCT can open)."""
    return "four" if is_four(kind) else "three" if kind in ("3", "33") else "quiet"


def summarise(messages: Iterable[str], move: Move | None, oracle: str = "pentazen",
              moves: list[Move] | None = None) -> dict:
    """An oracle's fields of a position from one move's messages: its last announced win (+vN,
    Rapfi's +MN; None without one), the tm and the node count of the first message that announced
    it, the last ev whatever it was, the move, and (given the stones, `moves`) the class of that
    move where a win was announced (first_class)."""
    evals = [e for e in map(parse_message, messages) if e is not None]
    wins = [e for e in evals if e.win is not None]
    out = {oracle: wins[-1].ev if wins else None,
           f"{oracle}_ms": wins[0].tm if wins else None,
           f"{oracle}_nodes": wins[0].nodes if wins else None,
           f"{oracle}_ev": evals[-1].ev if evals else None,
           f"{oracle}_move": format_point(move) if move is not None else None}
    if moves is not None and wins and move is not None:
        board = Board.from_moves(moves)
        if board.is_legal(*move):
            out[f"{oracle}_first"] = first_class(move_kind(board, move))
    return out


def ask_oracle(moves: list[Move], command: list[str], ms: int = 1000, size: int = 15,
               oracle: str = "pentazen") -> dict:
    """Runs an engine (a fresh process) on one position (the stones of `moves`, black first) at
    `ms` a move and returns its fields (summarise). The BOARD block lists the stones in move
    order: PentaZen reads the colours from that order, not from the 1/2 field (own/opponent, as
    the protocol has it), which is sent right all the same."""
    from engine.match.enginepipe import EngineProcess

    board_lines = board_block(moves)
    with tempfile.TemporaryDirectory(prefix="vctset-") as folder, \
            EngineProcess(command, cwd=Path(folder)) as proc:
        proc.send(f"START {size}")
        proc.reply(timeout=30)  # OK (or an ERROR: then the move below never comes)
        proc.send(f"INFO timeout_turn {ms}", "INFO timeout_match 100000000", "INFO rule 4",
                  "INFO max_memory 367001600", "BOARD", *board_lines, "DONE")
        messages: list[str] = []
        move = None
        deadline = time.monotonic() + ms / 1000 + 10
        while time.monotonic() < deadline:
            try:
                line = proc.reply(timeout=max(0.0, deadline - time.monotonic()), skip_messages=False)
            except Exception:  # queue.Empty on a time-out, EOFError when it exits
                break
            parts = line.split(",")
            if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
                move = (int(parts[0]), int(parts[1]))
                break
            messages.append(line)  # MESSAGE lines, and the tails of split ones (see _EV)
    return summarise(messages, move, oracle, moves)


def label(positions: list[dict], command: list[str], ms: int = 1000, progress: bool = True,
          oracle: str = "pentazen", workers: int = 1) -> list[dict]:
    """Adds an oracle's fields to each position (one fresh engine process a position, `workers`
    at a time)."""
    from concurrent.futures import ThreadPoolExecutor

    from tqdm import tqdm

    def one(record: dict) -> dict:
        return {**record, **ask_oracle(parse_points(record["moves"]), command, ms, oracle=oracle)}

    with ThreadPoolExecutor(max(1, workers)) as pool:
        return list(tqdm(pool.map(one, positions), total=len(positions), desc=oracle, unit="pos",
                         file=sys.stderr, disable=not progress))
