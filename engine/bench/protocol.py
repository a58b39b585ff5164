"""`make bench-protocol`: the engine as a manager sees it — executable size, cold start to `OK`,
peak memory in a game, and time used per move against the manager's limit — recorded in
docs/benchmarks.md.

    python -m engine.bench.protocol [--exe dist/pbrain-renju] [--onedir dist/pbrain-renju-onedir/pbrain-renju]
                                    [--moves 100] [--write docs/benchmarks.md]
"""
from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from engine.bench.core import section, write
from engine.board import Board, Rule
from engine.match.enginepipe import PYTHON_ENGINE, EngineProcess
from engine.protocol.timeman import MARGIN_S, MARGIN_SHARE

START, END = "<!-- bench:protocol:start -->", "<!-- bench:protocol:end -->"


def cold_start(command: list[str], runs: int = 5) -> float:
    """Median seconds from spawning the engine to reading its `OK` to START."""
    times = []
    with tempfile.TemporaryDirectory() as cwd:
        for _ in range(runs):
            with EngineProcess(command, cwd=Path(cwd)) as engine:
                t0 = engine.started
                engine.send("START 15")
                assert engine.reply(60) == "OK"
                times.append(time.monotonic() - t0)
    return statistics.median(times)


def size_of(path: Path) -> int:
    return path.stat().st_size if path.is_file() else sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def play_moves(command: list[str], moves: int, infos: list[str], match_ms: int | None, seed: int = 1):
    """Engine moves against a random-near opponent until `moves` engine moves were timed.
    Returns [(seconds used, seconds allowed)] and the largest resident memory of the engine's
    process tree seen after a move, in bytes (the referee samples after every move)."""
    rng = random.Random(seed)
    turn = int(next(i.split()[-1] for i in infos if "timeout_turn" in i)) / 1000
    timed: list[tuple[float, float]] = []
    peak = 0
    with tempfile.TemporaryDirectory() as cwd, EngineProcess(command, cwd=Path(cwd)) as engine:
        assert engine.ask("START 15") == "OK"
        engine.send("INFO rule 4", *infos)
        while len(timed) < moves:
            board = Board(15, Rule.RENJU)
            left = match_ms
            request = ["BEGIN"]
            while not board.game_over and board.stone_count < 200 and len(timed) < moves:
                pre = [f"INFO time_left {left}"] if left is not None else []
                move, dt = engine.move(*pre, *request, timeout=60)
                allowed = min(turn, left / 1000) if left is not None else turn
                timed.append((dt, allowed))
                peak = max(peak, engine.memory() or 0)
                if left is not None:
                    left -= int(dt * 1000)
                assert board.is_legal(*move), move
                board.play(*move)
                if board.game_over:
                    break
                near = [m for m in board.legal_moves()
                        if any(max(abs(m[0] - p[0]), abs(m[1] - p[1])) <= 2 for p in board.moves[-4:])]
                reply = rng.choice(near or board.legal_moves())
                board.play(*reply)
                request = [f"TURN {reply[0]},{reply[1]}"]
            engine.ask("RESTART")
        assert engine.bad == []
    return timed, peak


def ratios(timed: list[tuple[float, float]]) -> tuple[float, float]:
    r = [used / allowed for used, allowed in timed if allowed > 0]
    return max(r), statistics.median(r)


def run(exe: Path | None, onedir: Path | None, moves: int) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    engines = [("python -m engine", PYTHON_ENGINE)]
    if exe and exe.exists():
        rows.append(("executable size, one file", f"{size_of(exe) / 2**20:.1f} MB"))
        engines.append(("frozen, one file", [str(exe.resolve())]))
    if onedir and onedir.exists():
        rows.append(("executable size, one folder", f"{size_of(onedir.parent) / 2**20:.1f} MB"))
        engines.append(("frozen, one folder", [str(onedir.resolve())]))
    for label, command in engines:
        rows.append((f"cold start to OK, median of 5 ({label})", f"{cold_start(command) * 1e3:.0f} ms"))
    command = engines[1][1] if len(engines) > 1 else PYTHON_ENGINE
    label = engines[1][0] if len(engines) > 1 else engines[0][0]
    timed, peak = play_moves(command, 40, ["INFO timeout_turn 5000"], None)
    # the default player: MCTS with the bundled net
    rows.append((f"peak memory in games, default player, 5 s a move ({label})", f"{peak / 2**20:.1f} MB"))
    rows.append((f"time per move, default player, 5 s a move, median ({label})",
                 f"{statistics.median(t for t, _ in timed) * 1e3:.1f} ms"))
    probe = command + ["--player", "deliberate"]
    timed, _ = play_moves(probe, moves, ["INFO timeout_turn 1000", "INFO timeout_match 0"], None)
    worst, median = ratios(timed)
    rows.append((f"used/allowed over {len(timed)} moves, timeout_turn 1000, budget-filling probe ({label})",
                 f"max {worst:.2f}, median {median:.2f}"))
    timed, _ = play_moves(probe, moves, ["INFO timeout_turn 5000", "INFO timeout_match 120000"], 120_000)
    worst, median = ratios(timed)
    rows.append((f"used/allowed over {len(timed)} moves, 5000 / match 120000, budget-filling probe ({label})",
                 f"max {worst:.2f}, median {median:.2f}"))
    return rows


def render(rows, command: str) -> str:
    return section(START, END, "Protocol engine", command, rows,
                   "Allowed = min(timeout_turn, time_left) as the manager sends them; used = from writing the "
                   "command to reading the move, as the referee measures it. Target: max ratio "
                   f"< {1 - MARGIN_SHARE:g} (the budget is {1 - MARGIN_SHARE:.0%} of the turn less "
                   f"{MARGIN_S * 1e3:.0f} ms).")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", type=Path, default=Path("dist/pbrain-renju"))
    ap.add_argument("--onedir", type=Path, default=Path("dist/pbrain-renju-onedir/pbrain-renju"))
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--write", type=Path)
    args = ap.parse_args(argv)
    rows = run(args.exe, args.onedir, args.moves)
    width = max(len(r[0]) for r in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    if args.write:
        write(args.write, render(rows, "make bench-protocol"), START, END)
        print(f"written to {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
