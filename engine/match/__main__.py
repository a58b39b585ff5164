"""`python -m engine.match`: play Gomocup engines against each other.

    python -m engine.match --engine pbrain-renju --engine greedy --games 20 --tc 1000 --rule renju
    python -m engine.match --engine "mine=dist/pbrain-renju" --engine "other=/path/to/pbrain-x" --tc 5000/120000

An engine is a player name of ours (random, greedy, alphabeta, uct, pattern), `pbrain-renju` (our
engine with its default player), a command line, or `name=command`. Two engines play a match;
three or more play a round robin with OpenSkill ratings. Each opening is played with both colours.
"""
from __future__ import annotations

import argparse
import json
import random
import shlex
import statistics
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations
from pathlib import Path

from engine.board import Color, Rule
from engine.match import openings as op
from engine.match.arena import EngineSpec, GameRecord, MatchConfig, play_game
from engine.match.stats import Tally, elo_interval, ratings, sprt
from engine.records.text import save


def engine_spec(text: str) -> EngineSpec:
    from engine.players.registry import PLAYERS

    first = text.split(" ", 1)[0]
    name, command = (text.split("=", 1) if "=" in first else ("", text))
    command = command.strip()
    if command == "pbrain-renju":
        argv, default = [sys.executable, "-m", "engine"], "pbrain-renju"
    elif command in PLAYERS:
        argv, default = [sys.executable, "-m", "engine", "--player", command], command
    else:
        # each engine runs in a folder of its own (arena.py), so a relative path to a file here
        # (`--model runs/x.onnx`) would name nothing there: it is made absolute
        argv = [str(Path(a).resolve()) if not Path(a).is_absolute() and Path(a).is_file() else a
                for a in shlex.split(command)]
        default = Path(argv[0]).name
    return EngineSpec(name.strip() or default, tuple(argv))


def parse_tc(text: str) -> tuple[int, int]:
    turn, _, match = text.partition("/")
    return int(turn), int(match or 0)


def schedule(engines: list[EngineSpec], games: int, openings: list, rng: random.Random, size: int = 15,
             rule: Rule = Rule.RENJU):
    """(black, white, opening) triples: every pair plays each opening with both colours. Past the
    last opening the list starts again with two random stones added to each (`openings.vary`), so
    no game repeats another."""
    order = list(openings)
    rng.shuffle(order)
    out = []
    for a, b in combinations(engines, 2):
        for i in range((games + 1) // 2):
            opening = order[i % len(order)]
            if i >= len(order):
                opening = op.vary(opening, rng, size, rule)
            out += [(a, b, opening), (b, a, opening)]
    return out


def time_use(records: list[GameRecord], name: str) -> str | None:
    """The time `name` used: per game (median and range) and per move (mean and longest), as a
    match clock's users judge an engine; None where it made no move."""
    per_game, per_move = [], []
    for r in records:
        if name not in (r.black, r.white):
            continue
        is_black = r.black == name
        mine = [ms for i, (_, _, ms) in enumerate(r.moves) if ((len(r.opening) + i) % 2 == 0) == is_black]
        per_game.append(sum(mine) / 1000)
        per_move += mine
    if not per_move:
        return None
    return (f"  time of {name}: a game {statistics.median(per_game):.1f} s median ({min(per_game):.1f}-"
            f"{max(per_game):.1f} s), a move {statistics.mean(per_move):.0f} ms mean, {max(per_move)} ms longest")


def table(engines: list[EngineSpec], records: list[GameRecord], sprt_args=None) -> str:
    lines = []
    for a, b in combinations(engines, 2):
        pair = [r for r in records if {r.black, r.white} == {a.name, b.name}]
        total, as_black, as_white = Tally(), Tally(), Tally()
        for r in pair:
            pts = r.score_for(a.name)
            total.add(pts)
            (as_black if r.black == a.name else as_white).add(pts)
        e, lo, hi = elo_interval(total)
        lines += [f"{a.name} vs {b.name}: {total.games} games, score {total.score:.1%} for {a.name}",
                  f"  {'':10s} {'wins':>5s} {'losses':>6s} {'draws':>5s}",
                  f"  {'as black':10s} {as_black.wins:5d} {as_black.losses:6d} {as_black.draws:5d}",
                  f"  {'as white':10s} {as_white.wins:5d} {as_white.losses:6d} {as_white.draws:5d}",
                  f"  {'total':10s} {total.wins:5d} {total.losses:6d} {total.draws:5d}",
                  f"  Elo difference {e:+.0f} (95% interval {lo:+.0f} to {hi:+.0f})"]
        reasons: dict[str, int] = {}
        for r in pair:
            reasons[r.reason] = reasons.get(r.reason, 0) + 1
        lines.append("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
        lines += [line for e in (a, b) if (line := time_use(pair, e.name))]
        if sprt_args:
            verdict, llr, low, up = sprt(total, *sprt_args)
            lines.append(f"  SPRT elo0={sprt_args[0]} elo1={sprt_args[1]}: LLR {llr:.2f} "
                         f"[{low:.2f}, {up:.2f}] -> {verdict}")
    if len(engines) > 2:
        rated = ratings([e.name for e in engines], [(r.black, r.white, r.score_for(r.black)) for r in records])
        lines.append("OpenSkill ratings (mu - 3 sigma):")
        for name, (mu, sigma) in sorted(rated.items(), key=lambda kv: -(kv[1][0] - 3 * kv[1][1])):
            lines.append(f"  {name:20s} {mu - 3 * sigma:7.2f}  (mu {mu:.2f}, sigma {sigma:.2f})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.match", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", required=True, help="repeat: two or more engines")
    ap.add_argument("--games", type=int, default=20, help="games per pair (rounded up to even)")
    ap.add_argument("--tc", default="1000", help="turn ms, or turn/match ms (default %(default)s)")
    ap.add_argument("--rule", default="renju")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--openings", default=None, help="renju26, balanced or a file (default: renju26 for renju)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tolerance", type=int, default=1000, help="ms added to every deadline (default %(default)s)")
    ap.add_argument("--max-memory", type=int, default=350, help="MB (default %(default)s)")
    ap.add_argument("--out", type=Path, default=Path("matches/latest"))
    ap.add_argument("--log-io", action="store_true", help="save each engine's protocol I/O")
    ap.add_argument("--sprt", help="elo0,elo1[,alpha,beta]")
    ap.add_argument("--no-suspend", action="store_true", help="do not freeze the engine off its turn")
    ap.add_argument("--odds", action="append", default=[], metavar="NAME=FACTOR",
                    help="time odds: NAME's limits times FACTOR (repeat; to measure scaling with time)")
    args = ap.parse_args(argv)
    engines = [engine_spec(e) for e in args.engine]
    if len(engines) < 2 or len({e.name for e in engines}) != len(engines):
        ap.error("give at least two engines with distinct names (use name=command)")
    rule = Rule.parse(args.rule)
    turn, match_ms = parse_tc(args.tc)
    odds = {}
    for item in args.odds:
        name, _, factor = item.partition("=")
        try:
            odds[name] = float(factor)
        except ValueError:
            ap.error(f"bad --odds {item!r}: give NAME=FACTOR")
        if name not in {e.name for e in engines} or odds[name] <= 0:
            ap.error(f"bad --odds {item!r}: NAME must be one of the engines, FACTOR positive")
    cfg = MatchConfig(size=args.size, rule=rule, timeout_turn=turn, timeout_match=match_ms,
                      max_memory=args.max_memory * 1024 * 1024, tolerance=args.tolerance,
                      suspend=not args.no_suspend, log_io=args.log_io, odds=odds)
    source = args.openings or ("renju26" if rule == Rule.RENJU and args.size == 15 else None)
    openings = op.load(source) if source else [[(args.size // 2, args.size // 2)]]
    for o in openings:
        op.validate(o, args.size, rule)
    sprt_args = tuple(float(v) for v in args.sprt.split(",")) if args.sprt else None
    jobs = schedule(engines, args.games, openings, random.Random(args.seed), args.size, rule)
    records: list[GameRecord | None] = [None] * len(jobs)
    from tqdm import tqdm

    lock = threading.Lock()
    bar = tqdm(total=len(jobs), desc="games", unit="game", file=sys.stderr)

    def run(i: int) -> None:
        black, white, opening = jobs[i]
        rec = play_game(black, white, opening, cfg)
        save(rec, cfg, args.out / "games", i + 1)
        with lock:
            records[i] = rec
            bar.update(1)

    with ThreadPoolExecutor(max_workers=max(1, args.concurrency)) as pool:
        list(pool.map(run, range(len(jobs))))
    bar.close()
    done = [r for r in records if r is not None]
    report = table(engines, done, sprt_args)
    print(report)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.txt").write_text(report + "\n")
    (args.out / "results.json").write_text(json.dumps([
        {"black": r.black, "white": r.white, "opening": r.opening, "moves": r.moves,
         "winner": None if r.winner is None else Color(r.winner).name.lower(), "reason": r.reason}
        for r in done], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
