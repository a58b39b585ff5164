"""The provers' speed on a fixed amount of work: the tree's UTSS calls of `make bench-prover`
(tests/data/utss_calls.jsonl, the node-budgeted ones, 1,000 calls) replayed without a time limit,
so every build searches the same nodes and only the time differs. Best of `--repeats` runs.

    .venv/bin/python scripts/prover_replay.py [--repeats 3] [--calls 0]

For comparing two builds of native/ on a shared machine: run them in turns, several times
(docs/benchmarks.md, thirty-second session). A measurement tool, not part of the engine.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bench_prover import UTSS_CALLS, call_class, load  # noqa: E402
from engine.board import Board  # noqa: E402
from engine.coords import parse_points  # noqa: E402
from engine.prover import Prover  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--calls", type=int, default=0, help="the first N calls only (0: all)")
    args = ap.parse_args()
    calls = [c for c in load(UTSS_CALLS) if call_class(c) != "check of the leading move"]
    calls = calls[:args.calls] if args.calls else calls
    boards = [Board.from_moves(parse_points(c["moves"])) for c in calls]
    best, nodes = float("inf"), 0
    for _ in range(args.repeats):
        prover, nodes, t0 = Prover(tt_bits=16), 0, time.perf_counter()
        for c, b in zip(calls, boards):
            prover.clear()
            nodes += prover.solve(b, "utss", c["max_depth"], c["budget_nodes"], 0.0).nodes
        best = min(best, time.perf_counter() - t0)
    print(f"{len(calls)} calls, {nodes} nodes, best {best * 1e3:.0f} ms, {nodes / best / 1e6:.2f} M nodes/s")


if __name__ == "__main__":
    main()
