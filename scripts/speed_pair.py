"""The engine's search and the alphabeta baseline at 1 s a move on one core, side by side: MCTS
playouts a second and alpha-beta nodes in the time (with the depth reached) on make
bench-search's positions, so that a match's score on one machine can be set beside another's
(both engines get faster together).

    python scripts/speed_pair.py [--model models/pbrain-renju-v3-int8.onnx] [--seconds 1.0] [--repeats 3]
"""
from __future__ import annotations

import argparse
import statistics
import time

from engine.bench_search import POSITIONS
from engine.board import Board
from engine.coords import parse_points
from engine.native import ffi, lib
from engine.net.onnx_eval import load_evaluator
from engine.search.mcts import MCTS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="models/pbrain-renju-v3-int8.onnx")
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    evaluator, message = load_evaluator(args.model)
    if message:
        raise SystemExit(message)
    print(f"{args.model} on {getattr(evaluator, 'device', 'cpu')}", flush=True)
    for name, moves in POSITIONS.items():
        board = Board.from_moves(parse_points(moves))
        playouts, nodes, depths = [], [], []
        for _ in range(args.repeats):
            mcts = MCTS(evaluator)
            start = time.monotonic()
            mcts.search(board, start + args.seconds, args.seconds)
            # a rate: a search may stop early once its move is decided
            playouts.append(mcts.info.playouts / max(time.monotonic() - start, 1e-3))
            x, y = ffi.new("int16_t *"), ffi.new("int16_t *")
            depth, count, value = ffi.new("int *"), ffi.new("int64_t *"), ffi.new("int *")
            lib.rj_alphabeta(board._b, 12, args.seconds * 1000, x, y, depth, count, value)
            nodes.append(count[0])
            depths.append(depth[0])
        print(f"{name}: playouts a second {statistics.median(playouts):.0f}; alpha-beta nodes in "
              f"{args.seconds:g} s {statistics.median(nodes):.0f} (depth {min(depths)}-{max(depths)})", flush=True)


if __name__ == "__main__":
    main()
