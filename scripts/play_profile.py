"""A steady load for a profiler: the engine plays itself from a varied opening at the budget of
a 1 s move (0.89 s, no early stop), as in a match, so that `perf record` sees where a match's
time goes (docs/benchmarks.md, thirty-second session).

    perf record -F 1999 -o /tmp/play.data .venv/bin/python scripts/play_profile.py --moves 40
    perf report -i /tmp/play.data --no-children --sort dso

A measurement tool, not part of the engine.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.board import Board  # noqa: E402
from engine.players import Limits  # noqa: E402
from engine.search.player import MCTSPlayer  # noqa: E402

OPENING = [(7, 7), (8, 8), (9, 5), (10, 10), (12, 11)]  # a standard opening and two random stones


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="models/pbrain-renju-v3-int8.onnx")
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=0.89)
    args = ap.parse_args()
    player = MCTSPlayer(model=args.model, book=None)
    board = Board.from_moves(OPENING)
    for _ in range(args.moves):
        if board.game_over:
            break
        t = time.monotonic()
        board.play(*player.choose(board, Limits(deadline=t + args.seconds, optimum=args.seconds, bankable=False)))
    print(" ".join(f"{x},{y}" for x, y in board.moves))


if __name__ == "__main__":
    main()
