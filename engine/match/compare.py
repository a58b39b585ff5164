"""Two matches over the same openings, game by game: how often the engine under test did better,
worse or the same than in the reference match, with a two-sided sign test on the changed games.

    python -m engine.match.compare matches/BASE/results.json matches/NEW/results.json \
        [--engine-a pbrain-renju] [--engine-b pbrain-new]

Scores on this shared machine drift by several points between runs of one engine (the search is
time-bound), so a variant is judged against a replay of the same day on the same openings (same
--seed), not against an old figure."""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from math import comb
from pathlib import Path

from engine.records.results import points

BASELINES = {"random", "greedy", "alphabeta", "uct"}


@dataclass
class Paired:
    better: int
    worse: int
    same: int
    score_a: float
    score_b: float

    @property
    def p_value(self) -> float:
        """Two-sided sign test over the games whose result changed (ties dropped)."""
        n, k = self.better + self.worse, min(self.better, self.worse)
        if n == 0:
            return 1.0
        return min(1.0, 2 * sum(comb(n, i) for i in range(k + 1)) / 2 ** n)


def _colour(game: dict, engine: str) -> str:
    return "black" if game["black"] == engine else "white"


def compare(a: list[dict], b: list[dict], engine_a: str, engine_b: str) -> Paired:
    """Match game i of `a` with game i of `b`; each pair must share its opening and our colour."""
    if len(a) != len(b):
        raise ValueError(f"the matches differ in length ({len(a)} and {len(b)} games)")
    better = worse = same = 0
    total_a = total_b = 0.0
    for i, (ga, gb) in enumerate(zip(a, b), start=1):
        if ga["opening"] != gb["opening"] or _colour(ga, engine_a) != _colour(gb, engine_b):
            raise ValueError(f"game {i} differs in opening or colour: were both matches played with one seed?")
        pa, pb = points(ga, engine_a), points(gb, engine_b)
        total_a, total_b = total_a + pa, total_b + pb
        better += pb > pa
        worse += pb < pa
        same += pb == pa
    n = max(1, len(a))
    return Paired(better, worse, same, total_a / n, total_b / n)


def followed_engine(games: list[dict], given: str | None = None) -> str:
    """The engine to follow: the given name, else the one name in every game that is not a baseline."""
    if given:
        return given
    names = set.intersection(*({g["black"], g["white"]} for g in games)) if games else set()
    candidates = sorted(names - BASELINES)
    if len(candidates) != 1:
        raise ValueError("cannot tell which engine to follow: give --engine-a/--engine-b")
    return candidates[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.match.compare", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reference", type=Path, help="the reference match's results.json")
    ap.add_argument("candidate", type=Path, help="the candidate match's results.json")
    ap.add_argument("--engine-a", help="the engine followed in the reference (default: the non-baseline one)")
    ap.add_argument("--engine-b", help="the engine followed in the candidate")
    ap.add_argument("--first", type=int, default=0,
                    help="only the first N games of each (a shorter match of the same seed)")
    args = ap.parse_args(argv)
    try:
        a, b = (json.loads(p.read_text()) for p in (args.reference, args.candidate))
        if args.first > 0:
            a, b = a[:args.first], b[:args.first]
        ea, eb = followed_engine(a, args.engine_a), followed_engine(b, args.engine_b)
        r = compare(a, b, ea, eb)
    except (OSError, ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{eb} against {ea} over the same {len(a)} games: {r.score_b:.1%} against {r.score_a:.1%}; "
          f"{r.better} games better, {r.worse} worse, {r.same} the same (sign test p = {r.p_value:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
