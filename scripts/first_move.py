"""First-move reply times when several engines load at once and are frozen right after START, as
Gomocup's referee does (it writes START and the INFO lines without waiting for OK, suspends the
process, and resumes it when it writes the first move's BOARD): the clock of that move holds
whatever loading is left. Run from the checkout whose engine is measured (`python -m engine` takes
the package from the working directory).

    .venv/bin/python scripts/first_move.py [--engines 4] [--rounds 3] [-- engine options]

A measurement tool, not part of the engine (docs/benchmarks.md).
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.enginepipe import PYTHON_ENGINE, EngineProcess  # noqa: E402

OPENING = [(7, 7), (8, 8), (6, 6), (10, 10), (8, 12)]  # not in the book: the first move searches


def one_round(command: list[str], engines: int) -> list[int]:
    """Each engine's first-move time (ms) from its resume to its reply."""
    procs = [EngineProcess(command, cwd=Path.cwd(), new_session=True) for _ in range(engines)]
    for p in procs:
        p.send("START 15", "INFO timeout_turn 1000", "INFO timeout_match 180000", "INFO rule 4")
        os.killpg(p.proc.pid, signal.SIGSTOP)
    time.sleep(0.05)
    board = [f"{x},{y},{1 if (len(OPENING) - i) % 2 == 0 else 2}" for i, (x, y) in enumerate(OPENING)]
    times: list[int] = []

    def resume_and_wait(p: EngineProcess) -> None:  # one thread each: the replies' times must not queue
        os.killpg(p.proc.pid, signal.SIGCONT)
        t0 = time.monotonic()
        p.send("INFO time_left 180000", "BOARD", *board, "DONE")
        p.wait_move(t0 + 30)
        times.append(round((time.monotonic() - t0) * 1000))

    waiters = [threading.Thread(target=resume_and_wait, args=(p,)) for p in procs]
    for w in waiters:
        w.start()
    for w in waiters:
        w.join()
    for p in procs:
        p.close()
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engines", type=int, default=4, help="engines loading at once (default %(default)s)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("options", nargs="*", help="engine options, after --")
    args = ap.parse_args()
    command = [*PYTHON_ENGINE, *args.options]
    times = [t for _ in range(args.rounds) for t in one_round(command, args.engines)]
    print(f"{args.engines} engines at once, {args.rounds} rounds: first moves {sorted(times)} ms, max {max(times)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
