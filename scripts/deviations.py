"""Where two runs of our engine on the same openings part (say at 1 s and at 2 s a move), and what
a fresh search makes of each such move: for every game whose result changed and where our engine
played differently first, the position at that move searched `--repeats` times at each budget,
with the move picked, whether the first run's move is proven lost, the playouts, and the time the
checks of the leading move took (check_split.timed_search).

    .venv/bin/python scripts/deviations.py matches/s25-v3-15/results.json matches/s28-v3x2-15/results.json \
        --model models/pbrain-renju-v3-int8.onnx --budgets 0.89,1.84

A measurement tool for docs/strength.md, not part of the engine.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from check_split import timed_search  # noqa: E402  (beside this script)

from engine.board import Board  # noqa: E402
from engine.match.compare import followed_engine, game_moves, points  # noqa: E402
from engine.net.onnx_eval import load_evaluator  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("--model", required=True)
    ap.add_argument("--budgets", default="0.89,1.84", help="seconds a search, comma-separated")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    a, b = (json.loads(Path(p).read_text()) for p in (args.first, args.second))
    me_a, me_b = followed_engine(a), followed_engine(b)
    evaluator, message = load_evaluator(args.model)
    if message:
        sys.exit(f"model: {message}")
    for number, (g, h) in enumerate(zip(a, b), 1):
        if points(g, me_a) == points(h, me_b):
            continue
        ma, mb = game_moves(g), game_moves(h)
        k = next((j for j, (x, y) in enumerate(zip(ma, mb)) if x != y), None)
        if k is None or (k % 2 == 0) != (g["black"] == me_a):
            continue  # the same moves, or the opponent played differently first
        board = Board.from_moves(ma[:k])
        print(f"game {number}, move {k + 1}: first run {ma[k]} ({points(g, me_a):g}), "
              f"second run {mb[k]} ({points(h, me_b):g})")
        for seconds in (float(s) for s in args.budgets.split(",")):
            picks: collections.Counter = collections.Counter()
            refuted = playouts = checks = 0.0
            for _ in range(args.repeats):
                move, mcts, calls = timed_search(evaluator, board, seconds)
                picks[move] += 1
                root = mcts.root
                if ma[k] in root.moves:  # a child won for its mover is a move proven lost for us
                    refuted += int(root.cp[root.moves.index(ma[k])] == 1)
                playouts += mcts.info.playouts / args.repeats
                checks += sum(c[3] for c in calls) / args.repeats
            print(f"  {seconds:.2f} s: picks {dict(picks)}; first run's move proven lost {refuted:.0f}/{args.repeats}; "
                  f"playouts {playouts:.0f}; checks {checks:.2f} s", flush=True)


if __name__ == "__main__":
    main()
