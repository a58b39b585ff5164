"""Where a move's time goes on this machine: the root checks' df-pn and UTSS calls (count, time,
results) against the playouts, over positions of a match's games where our engine was to move.

    .venv/bin/python scripts/check_split.py matches/s25-v3-15/results.json \
        --model models/pbrain-renju-v3-int8.onnx --positions 150 [--search k=v,...]

Each position gets a fresh search of 0.89 s (the budget at 1 s a move) without the early stop, as
in a match with a turn limit only. Calls with a budget under 100 ms (the tree's own proofs) are
left out. A measurement tool for docs/strength.md, not part of the engine.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.board import Board  # noqa: E402
from engine.match.compare import followed_engine, game_moves  # noqa: E402
from engine.net.onnx_eval import load_evaluator  # noqa: E402
from engine.registry import search_config  # noqa: E402
from engine.search.mcts import MCTS  # noqa: E402


def our_positions(games: list[dict], count: int) -> list[list[tuple[int, int]]]:
    """Every `len/count`-th position where the engine that is not a baseline was to move."""
    me = followed_engine(games)
    found = []
    for g in games:
        moves = game_moves(g)
        black = g["black"] == me
        found += [moves[:k] for k in range(len(g["opening"]), len(moves)) if (k % 2 == 0) == black]
    return found[:: max(1, len(found) // count)][:count]


def timed_search(evaluator, board: Board, seconds: float, config=None):
    """A fresh search of `seconds` without the early stop, as in a match with a turn limit only:
    its move, the search, and its checks of the leading move as (kind, result, budget ran out,
    seconds): the df-pn and UTSS calls with a budget over 100 ms (the tree's own proofs have less)."""
    mcts = MCTS(evaluator, config)
    solve, checks = mcts.prover.solve, []

    def timed(b, kind, **kw):
        t = time.monotonic()
        proof = solve(b, kind, **kw)
        if kind in ("dfpn", "utss") and kw.get("budget_ms", 0) > 100:
            checks.append((kind, proof.result, proof.aborted, time.monotonic() - t))
        return proof

    mcts.prover.solve = timed
    start = time.monotonic()
    move = mcts.search(board, start + seconds, seconds, early_stop=False)
    return move, mcts, checks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results")
    ap.add_argument("--model", required=True)
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--seconds", type=float, default=0.89)
    ap.add_argument("--search", default="", help="MCTSConfig overrides, k=v,...")
    args = ap.parse_args()
    games = json.loads(Path(args.results).read_text())
    evaluator, message = load_evaluator(args.model)
    if message:
        sys.exit(f"model: {message}")
    calls: dict[str, list[tuple[str, bool, float]]] = collections.defaultdict(list)
    playouts = spent = 0.0
    positions = our_positions(games, args.positions)
    config = search_config(args.search) if args.search else None
    for moves in positions:
        t0 = time.monotonic()
        _, mcts, checks = timed_search(evaluator, Board.from_moves(moves), args.seconds, config)
        spent += time.monotonic() - t0
        playouts += mcts.info.playouts
        for kind, result, aborted, seconds in checks:
            calls[kind].append((result, aborted, seconds))
    print(f"{len(positions)} positions, {spent:.1f} s, {playouts:.0f} playouts")
    for kind, rows in calls.items():
        total = sum(r[2] for r in rows)
        print(f"{kind}: {len(rows)} checks, {total:.1f} s ({total / spent:.0%} of the time)")
        for key, n in collections.Counter((r[0], r[1]) for r in rows).most_common():
            mean = sum(r[2] for r in rows if (r[0], r[1]) == key) / n
            print(f"    {key[0]}{' (budget ran out)' if key[1] else ''}: {n}, {1000 * mean:.0f} ms each")


if __name__ == "__main__":
    main()
