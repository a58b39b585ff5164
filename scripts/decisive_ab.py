"""Search settings compared at the decisive positions of lost games: each position where the
engine played the move after which the opponent has a proven win (found by
`python -m engine.match.losses ... --kind dfpn`, whose text report this reads) is searched again
with each setting, fresh tree, no book, and the move chosen is judged by df-pn (`--judge-ms`): does
the opponent still have a threat-space win after it? Positions already lost, or with one legal
candidate, are skipped. Settings run in turns, so machine drift falls on all of them alike.

    .venv/bin/python -m engine.match.losses matches/NAME/results.json --engine NAME --kind dfpn \\
        --ms 2000 > losses.txt
    .venv/bin/python scripts/decisive_ab.py --reps 2 "verify_gap=0" "verify_gap=0.25" \\
        -- matches/NAME/results.json:losses.txt [...]

A measurement tool, not part of the engine (docs/strength.md, thirty-third session).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.board import Board, Move  # noqa: E402
from engine.match.compare import game_moves  # noqa: E402
from engine.match.losses import holds, search_again  # noqa: E402
from engine.prover import Prover  # noqa: E402
from engine.registry import search_config  # noqa: E402
from engine.search.player import MCTSPlayer  # noqa: E402

# one line of engine.match.losses' report
LOSS_LINE = re.compile(r"game\s+(\d+) \((\w+)\): move (\d+) \S+ .*safe alternatives (\d+)/(\d+)(.*)")


def decisive_positions(results: str, report: str) -> list[tuple[str, list[Move], Move]]:
    """(name, moves before the decisive move, the decisive move) for each loss in the report."""
    games = json.loads(Path(results).read_text())
    found = []
    for line in Path(report).read_text().splitlines():
        m = LOSS_LINE.match(line)
        if not m or "lost already" in m[6] or int(m[5]) <= 1:
            continue
        game, index = int(m[1]), int(m[3]) - 1  # the report counts moves from 1
        seq = game_moves(games[game - 1])
        found.append((f"{Path(results).parent.name}:g{game}", seq[:index], seq[index]))
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("settings", nargs="+", help='search settings, e.g. "verify_gap=0.25" ("" for the defaults)')
    ap.add_argument("--pairs", nargs="+", required=True, metavar="RESULTS:REPORT")
    ap.add_argument("--seconds", type=float, default=0.89, help="search time a move (default %(default)s)")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--judge-ms", type=float, default=2000.0)
    ap.add_argument("--model", default="models/pbrain-renju-v3-int8.onnx")
    argv = sys.argv[1:]
    if "--" in argv:  # settings -- pairs
        k = argv.index("--")
        argv = argv[:k] + ["--pairs"] + argv[k + 1:]
    args = ap.parse_args(argv)
    positions = [p for pair in args.pairs for p in decisive_positions(*pair.split(":"))]
    players = {s: MCTSPlayer(model=args.model, book=None, config=search_config(s)) for s in args.settings}
    judge, verdicts = Prover(), {}

    def refuted(seq: list[Move], move: Move) -> bool:  # each (position, move) judged once: 2 s a time
        key = (tuple(seq), move)
        if key not in verdicts:
            verdicts[key] = not holds(Board.from_moves(seq), move, judge, args.judge_ms)
        return verdicts[key]

    total = dict.fromkeys(args.settings, 0)
    better = dict.fromkeys(args.settings[1:], 0)
    worse = dict.fromkeys(args.settings[1:], 0)
    for name, seq, played in positions:
        row = []
        for _ in range(args.reps):
            bad = {}
            for s in args.settings:
                move = search_again(Board.from_moves(seq), players[s], args.seconds)
                bad[s] = refuted(seq, move)
                total[s] += bad[s]
                row.append(f"{s or 'defaults'}:{move[0]},{move[1]}{'X' if bad[s] else '.'}")
            for s in args.settings[1:]:
                better[s] += bad[args.settings[0]] and not bad[s]
                worse[s] += bad[s] and not bad[args.settings[0]]
        print(f"{name} played {played} {'X' if refuted(seq, played) else '.'}  " + " ".join(row), flush=True)
    n = len(positions) * args.reps
    print(f"{len(positions)} positions x {args.reps}: refuted choices (X) " +
          ", ".join(f"{s or 'defaults'} {total[s]} of {n}" for s in args.settings))
    for s in args.settings[1:]:
        print(f"{s} against {args.settings[0] or 'defaults'}: {better[s]} better, {worse[s]} worse")
    return 0


if __name__ == "__main__":
    sys.exit(main())
