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
import subprocess
import sys
import threading
import time

OPENING = [(7, 7), (8, 8), (6, 6), (10, 10), (8, 12)]  # not in the book: the first move searches


def one_round(command: list[str], engines: int) -> list[int]:
    procs = [subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, bufsize=1, start_new_session=True) for _ in range(engines)]
    for p in procs:
        p.stdin.write("START 15\nINFO timeout_turn 1000\nINFO timeout_match 180000\nINFO rule 4\n")
        p.stdin.flush()
        os.kill(p.pid, signal.SIGSTOP)
    time.sleep(0.05)
    board = "".join(f"{x},{y},{1 if (len(OPENING) - i) % 2 == 0 else 2}\n" for i, (x, y) in enumerate(OPENING))
    started, times = {}, []

    def wait(p: subprocess.Popen) -> None:
        for line in p.stdout:
            if "," in line and not line.startswith(("MESSAGE", "DEBUG")):
                break
        times.append(round((time.monotonic() - started[p.pid]) * 1000))

    for p in procs:
        os.kill(p.pid, signal.SIGCONT)
        started[p.pid] = time.monotonic()
        p.stdin.write("INFO time_left 180000\nBOARD\n" + board + "DONE\n")
        p.stdin.flush()
    waiters = [threading.Thread(target=wait, args=(p,)) for p in procs]
    for w in waiters:
        w.start()
    for w in waiters:
        w.join()
    for p in procs:
        p.stdin.write("END\n")
        p.stdin.flush()
        p.wait(timeout=10)
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engines", type=int, default=4, help="engines loading at once (default %(default)s)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("options", nargs="*", help="engine options, after --")
    args = ap.parse_args()
    command = [sys.executable, "-m", "engine", *args.options]
    times = [t for _ in range(args.rounds) for t in one_round(command, args.engines)]
    print(f"{args.engines} engines at once, {args.rounds} rounds: first moves {sorted(times)} ms, max {max(times)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
