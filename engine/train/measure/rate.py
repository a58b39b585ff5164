"""Rating over training: each saved iteration's net (run/models/iterNNNN.onnx) plays evaluation
games against baselines; scores and Elo go to run/ratings.json, which the run's report plots.

    python -m engine.train.measure.rate --run runs/r2 --every 4 --games 20 --ms 200 --opponents greedy,alphabeta
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
from pathlib import Path

import numpy as np

from engine.match.stats import Tally, elo_interval
from engine.train.measure.evaluate import eval_game
from engine.train.measure.report import write_report


def rate(run_dir: Path, every: int, games: int, ms: int, opponents: list[str], workers: int | None) -> dict:
    path = run_dir / "ratings.json"
    ratings = json.loads(path.read_text()) if path.exists() else {}
    models = sorted((run_dir / "models").glob("iter*.onnx"))
    chosen = [m for m in models if int(m.stem[4:]) % every == 0] or models[-1:]
    if models and models[-1] not in chosen:
        chosen.append(models[-1])
    with mp.get_context("spawn").Pool(workers) as pool:
        for model in chosen:
            it = str(int(model.stem[4:]))
            for opp in opponents:
                key = f"{opp}@{ms}ms"
                if ratings.get(it, {}).get(key, {}).get("games", 0) >= games:
                    continue
                points = pool.map(eval_game, [(str(model), opp, i, ms) for i in range(games)])
                t = Tally()
                for p in points:
                    t.add(p)
                elo, lo, hi = elo_interval(t)
                ratings.setdefault(it, {})[key] = {"games": games, "score": float(np.mean(points)),
                                                   "elo": elo, "elo_low": lo, "elo_high": hi}
                path.write_text(json.dumps(ratings, indent=2, sort_keys=True) + "\n")
                print(f"iteration {it} vs {opp}: {np.mean(points):.3f} ({games} games, Elo {elo:+.0f})", flush=True)
    return ratings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.measure.rate", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", required=True, type=Path)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--ms", type=int, default=200)
    ap.add_argument("--opponents", default="greedy,alphabeta")
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args(argv)
    rate(args.run, args.every, args.games, args.ms, args.opponents.split(","), args.workers)
    write_report(args.run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
