"""How far the opening book carries the engine in played matches: for each results file, how many of
the engine's moves the book answered per game and the score with and without a book move; over all
files, how often the opponent's reply to a book move was one the book's search had weighed (its rank
among that search's moves, 0: not weighed), and the stones on the board after the engine's last book
move in games from 3-stone openings.

    .venv/bin/python scripts/book_reach.py --engine cur matches/s35-cur-*/results.json

A measurement tool, not part of the engine (docs/strength.md, thirty-sixth session).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import book as bk  # noqa: E402
from engine.board import Board  # noqa: E402
from engine.match.compare import game_moves, points  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--engine", required=True, help="the engine's name in the results")
    ap.add_argument("--book", default="models/book-renju.json.gz")
    args = ap.parse_args()
    book = bk.load(args.book)
    ranks: Counter = Counter()
    depth: Counter = Counter()
    for path in args.results:
        per_game: Counter = Counter()
        scores: dict[bool, list[float]] = {False: [], True: []}
        for g in json.loads(Path(path).read_text()):
            if args.engine not in (g["black"], g["white"]):
                continue
            opening = len(g["opening"])
            seq = game_moves(g)
            board = Board.from_moves(seq[:opening])
            black = g["black"] == args.engine
            hits, last, booked = 0, 0, False
            for x, y in seq[opening:]:
                if (board.stone_count % 2 == 0) == black:  # our move
                    booked = book.move(board) is not None
                    hits += booked
                    last = board.stone_count + 1 if booked else last
                elif booked:  # the opponent answers a book move
                    found = bk.position_key(board)
                    entry = book.entries.get(found[0]) if found else None
                    if entry is None:
                        ranks["no entry"] += 1
                    else:
                        weighed = [i for i, _ in entry.replies]
                        at = bk.to_image((x, y), found[1], board.size)
                        ranks[weighed.index(at) + 1 if at in weighed else 0] += 1
                board.play(x, y)
            per_game[hits] += 1
            scores[hits > 0].append(points(g, args.engine))
            if opening == 3 and last:
                depth[last] += 1
        shown = {k: f"{len(v)} games, {100 * sum(v) / len(v):.1f}%" for k, v in scores.items() if v}
        print(f"{path}: book moves a game {sorted(per_game.items())}; "
              f"with a book move {shown.get(True, '-')}, without {shown.get(False, '-')}")
    print("the opponent's reply to a book move, its rank among the book search's moves:",
          sorted(ranks.items(), key=str))
    print("stones after the engine's last book move (3-stone openings):", sorted(depth.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
