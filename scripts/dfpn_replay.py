"""df-pn on the refutations that lost games: the positions after the engine's decisive moves
(docs/data/s34/refutations.jsonl, the opponent to move and winning), each proved by the search's
check (df-pn, lines of up to 40 plies) from a cleared prover.

    .venv/bin/python scripts/dfpn_replay.py                # to the proof: CPU time and nodes
    .venv/bin/python scripts/dfpn_replay.py --ms 420       # proofs found within a check's df-pn time

The first form searches each position to its proof (a node budget, no clock), so a build's CPU
time is comparable with another's on the same machine when the two are run in turns; the second
counts what a check of that length would have refuted. A measurement tool, not part of the engine
(docs/benchmarks.md, thirty-fourth session).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.board import Board  # noqa: E402
from engine.coords import parse_points  # noqa: E402
from engine.prover import Prover  # noqa: E402

POSITIONS = ROOT / "docs" / "data" / "s34" / "refutations.jsonl"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ms", type=float, default=0.0, help="a time budget per proof (0: each to its proof)")
    ap.add_argument("--nodes", type=int, default=20_000_000, help="node budget per proof without --ms")
    ap.add_argument("--positions", default=str(POSITIONS))
    args = ap.parse_args()
    recs = [json.loads(line) for line in Path(args.positions).read_text().splitlines()[1:]]
    boards = [Board.from_moves(parse_points(r["moves"])) for r in recs]
    prover = Prover(tt_bits=20)  # the search's table
    won = nodes = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for board in boards:
        prover.clear()
        proof = prover.solve(board, "dfpn", max_depth=40, budget_nodes=0 if args.ms else args.nodes,
                             budget_ms=args.ms)
        won += proof.result == "win"
        nodes += proof.nodes
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    budget = f"{args.ms:.0f} ms each" if args.ms else f"to the proof (at most {args.nodes:,} nodes)"
    print(f"{len(boards)} positions, {budget}: {won} proved, {nodes:,} nodes, CPU {cpu:.1f} s, wall {wall:.1f} s")


if __name__ == "__main__":
    main()
