"""`make bench-search`: MCTS playouts per second on one core at 1 s a move, in opening,
middle-game and tactical positions, with the share of time in the evaluator, in the C calls
(the playout loop of native/src/tree.c with its proofs and threat checks, the root's checks) and
in Python (the search's driver) — recorded in docs/benchmarks.md.

    python -m engine.bench.search [--model models/x.onnx | --model none] [--seconds 1.0] [--write docs/benchmarks.md]

By default the shipped model is measured, then the heuristic evaluator for comparison.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time
from pathlib import Path

from engine.bench.core import section, write
from engine.board import Board
from engine.board.coords import parse_points
from engine.native import lib
from engine.net.onnx_eval import load_evaluator
from engine.search.mcts import MCTS, MCTSConfig

START, END = "<!-- bench:search:start -->", "<!-- bench:search:end -->"
POSITIONS = {
    "opening (3 stones)": "h8,i9,g9",
    "middle game (20 stones)": "h8,i9,g9,i7,i8,g10,f11,j6,k5,h9,j7,g7,f8,h7,j9,k8,j10,j8,l9,k10",
    "tactical (white to stop an open three)": "h8,a1,i8,a3,j8",
}


def profile_search(board: Board, evaluator, seconds: float,
                   config: MCTSConfig | None = None) -> tuple[int, dict[str, float]]:
    """Playouts in `seconds`, and the seconds spent in the evaluator, in C and in the rest."""
    mcts = MCTS(evaluator, config)
    prof = cProfile.Profile()
    prof.enable()
    mcts.search(board, time.monotonic() + seconds, seconds)
    prof.disable()
    stats = pstats.Stats(prof)
    total = stats.total_tt
    net = c_time = 0.0
    for (filename, _, func), (_, _, tt, ct, callers) in stats.stats.items():
        if func in ("evaluate", "evaluate_planes") and "engine/net" in filename:
            net += ct
        elif filename == "~" and ("rj_" in func or "lib" in func):
            # C called by the evaluator's own code (the heuristic's pattern scores) is the evaluator's time
            c_time += tt - sum(c[2] for k, c in callers.items() if "engine/net" in k[0])
    return mcts.info.playouts, {"net": net, "c": c_time, "total": total}


def run(model: str | None, seconds: float, repeats: int = 5, config: MCTSConfig | None = None,
        tag: str = "") -> list[tuple[str, str]]:
    evaluator, message = load_evaluator(model)
    label = (Path(model).name if model and not message else evaluator.name) + tag
    rows = [("evaluator", label + (f" ({message})" if message else ""))]
    for name, moves in POSITIONS.items():
        board = Board.from_moves(parse_points(moves))
        # Runs without the profiler give the speed (the median of `repeats`: one second is noisy);
        # a profiled run gives the shares.
        runs = []
        for _ in range(repeats):
            mcts = MCTS(evaluator, config)
            t0 = time.monotonic()
            mcts.search(board, t0 + seconds, seconds)
            spent = time.monotonic() - t0
            copied = int(lib.rj_tree_transpositions(mcts._tree))
            runs.append((mcts.info.playouts / spent, mcts.info.playouts, spent, copied))
        rate, playouts, spent, copied = sorted(runs)[len(runs) // 2]
        _, share = profile_search(board, evaluator, seconds, config)
        total = share["total"] or 1.0
        rows.append((f"[{label}] {name}: playouts per second", f"{rate:.0f} ({playouts} in {spent:.2f} s; "
                     f"median of {repeats}, range {min(r[0] for r in runs):.0f}-{max(r[0] for r in runs):.0f}; "
                     f"{copied / max(playouts, 1):.0%} transposed)"))
        rows.append((f"[{label}] {name}: time in evaluator / C / Python (profiled)",
                     f"{share['net'] / total:.0%} / {share['c'] / total:.0%} / "
                     f"{max(0.0, 1 - (share['net'] + share['c']) / total):.0%}"))
    return rows


MISSED = Path(__file__).resolve().parents[2] / "tests" / "data" / "missed_wins.jsonl"


def play_rows(seconds: float = 1.0, path: Path = MISSED, limit: int = 0) -> list[tuple[str, str]]:
    """A move as the engine plays it (the shipped player, its checks on) at positions of its own
    games (the missed-wins set: middle games, 13-30 stones), and where its time goes, by part
    (engine.search.mcts.TIME_PARTS; the rest is the Python driver)."""
    from engine.players import Limits
    from engine.search.mcts import TIME_PARTS
    from engine.search.player import MCTSPlayer

    lines = [json.loads(line) for line in path.read_text().splitlines()[1:] if line.strip()]
    lines = lines[:limit] if limit else lines
    player = MCTSPlayer()
    spent = dict.fromkeys(TIME_PARTS, 0.0)
    total, playouts = 0.0, 0
    for rec in lines:
        board = Board.from_moves(parse_points(rec["moves"]))
        player.new_game()
        now = time.monotonic()
        player.choose(board, Limits(deadline=now + seconds, optimum=seconds))
        info = player.mcts.info
        total += info.seconds
        playouts += info.playouts
        for part in TIME_PARTS:
            spent[part] += info.times.get(part, 0.0)
    total = total or 1e-9
    python = max(0.0, 1 - sum(spent.values()) / total)
    name = f"in play, {len(lines)} positions of the engine's games, {seconds:g} s"
    loop = spent["tree (C)"] + spent["evaluator"]
    return [(f"[{name}] playouts per second of the move; of the time in playouts", f"{playouts / total:.0f}; "
             f"{playouts / max(loop, 1e-9):.0f}"),
            (f"[{name}] time by part: " + " / ".join(TIME_PARTS) + " / Python",
             " / ".join(f"{spent[p] / total:.0%}" for p in TIME_PARTS) + f" / {python:.0%}")]


def render(rows, command: str) -> str:
    play = MCTSConfig()
    return section(START, END, "Search", command, rows,
                   "One core, 1 s a move, a fresh tree per position. The search stops early when the best move "
                   "cannot be overtaken, so playouts/s is computed over the time actually spent. \"C\" includes the "
                   "threat-space proofs: the root's VCF and UTSS at the tree's first plies. The deep checks of "
                   "the leading root move are off (`verify_ms=0`): in play they take a fixed share of the move "
                   f"(up to {play.verify_share:.0%}, from {play.verify_after:.0%} of it) and add no playouts, so they "
                   "would only hide the loop's speed. "
                   "On a CPU the engine "
                   "plays the int8 twin of the newest net; its float source is measured in the same run for the "
                   "ratio, and without the hidden-VCF check of each expansion (\"plain filter\", "
                   "`threat_vcf_depth=0`), and without the transposition table (\"no transpositions\": "
                   "every leaf evaluated, none copied from a node of the same position; \"transposed\" is the "
                   "share of playouts that ended at such a copy). The heuristic evaluator works on board "
                   "copies whose C calls are "
                   "counted in both its share and C's, so its shares add up to more than 100%. "
                   "The in-play rows time the engine's own moves with the checks on, at the "
                   "positions of tests/data/missed_wins.jsonl (its games' middle games): playouts per second "
                   "over the whole move and over the time in playouts alone, and the share of the move in the "
                   "tree's C loop (descents, the proofs and hidden-VCF checks at its nodes, the planes), the "
                   "evaluator, the root's VCT, each prover of the checks of the leading move, and the Python "
                   "driver. "
                   "Figures drift between runs on this shared machine (the float net's middle game gave "
                   "1,331 to 1,659 playouts/s across runs on 2026-11-22): compare rows of one run.")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="shipped", help="an ONNX file, 'shipped' (default) or 'none'")
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=5, help="timed runs per position (the median is reported)")
    ap.add_argument("--write", type=Path)
    args = ap.parse_args(argv)
    from engine.search.player import shipped_model

    model = shipped_model() if args.model == "shipped" else None if args.model == "none" else args.model
    loop = MCTSConfig(verify_ms=0)  # the checks of the leading move are a time budget, not playouts
    rows = run(model, args.seconds, args.repeats, loop)
    if args.model == "shipped" and shipped_model(gpu=True) != model:  # the float net beside its int8 twin
        rows += run(shipped_model(gpu=True), args.seconds, args.repeats, loop)
    if model is not None:  # in the same run: without the hidden-VCF check, and the heuristic evaluator
        rows += run(model, args.seconds, args.repeats, MCTSConfig(verify_ms=0, threat_vcf_depth=0),
                    ", plain filter")[1:]
        rows += run(model, args.seconds, args.repeats, MCTSConfig(verify_ms=0, transpositions=False),
                    ", no transpositions")[1:]
        rows += run(None, args.seconds, args.repeats, loop)[1:]
    if args.model == "shipped":
        rows += play_rows(args.seconds)
    for a, b in rows:
        print(f"{a:<60s} {b}")
    if args.write:
        write(args.write, render(rows, "make bench-search"), START, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
