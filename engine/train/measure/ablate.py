"""The method's ablations at equal self-play budget: the full method, no UTSS, no move filter, no
threat planes. Each variant trains from scratch with the same seed, games and updates; then each
final model plays evaluation games (with the variant's own search settings) against baselines.

    python -m engine.train.measure.ablate --out runs/ablate --iterations 6 --games 32 --eval-games 40
"""
from __future__ import annotations

import argparse
import json
import logging
import multiprocessing as mp
import sys
from pathlib import Path

import numpy as np

from engine.train.config import RunConfig
from engine.train.measure.evaluate import eval_game
from engine.train.measure.report import load_log

VARIANTS = {
    "full method": {},
    "no UTSS": {"utss": False},
    "no move filter": {"move_filter": False},
    "no threat planes": {"threat_planes": False},
}


def variant_config(base: RunConfig, name: str, out: Path) -> RunConfig:
    cfg = RunConfig.from_dict(json.loads(base.to_json()))
    cfg.run = str(out / name.replace(" ", "-"))
    for key, value in VARIANTS[name].items():
        target = cfg.net if key == "threat_planes" else cfg.play
        setattr(target, key, value)
    return cfg


def summary_from_log(log: list[dict]) -> dict:
    """A variant's training figures: the mean loss over the whole run (the published comparison),
    the final losses, and game length and branching over the last third of self-play."""
    last = log[-max(1, len(log) // 3):]
    lengths = [x for e in last for x in e["selfplay"]["lengths"]]
    return {"mean_loss": float(np.mean([e["train"]["loss"] for e in log])),
            "policy_loss": log[-1]["train"]["policy_loss"], "value_loss": log[-1]["train"]["value_loss"],
            "length": float(np.mean(lengths)), "length_sd": float(np.std(lengths)),
            "branching": float(np.mean([e["selfplay"]["branching"] for e in last])), "score": {}}


def summarise(cfg: RunConfig, opponents: list[str], games: int, ms: int) -> dict:
    row = summary_from_log(load_log(Path(cfg.run)))
    model = str(Path(cfg.run) / "model.onnx")
    search = {"utss": cfg.play.utss, "move_filter": cfg.play.move_filter}
    with mp.get_context("spawn").Pool(cfg.workers or None) as pool:
        for opp in opponents:
            args = [(model, opp, i, ms, search) for i in range(games)]
            row["score"][opp] = float(np.mean(pool.map(eval_game, args)))
    return row


def table(rows: dict[str, dict], opponents: list[str], games: int) -> str:
    """Markdown; the mean loss also relative to the first row (the full method)."""
    head = ("| variant | mean loss (vs full) | final policy loss | final value loss | game length (sd) | branching | "
            + " | ".join(f"score vs {o} ({games} games)" for o in opponents) + " |")
    lines = [head, "|" + "---|" * (6 + len(opponents))]
    base = next(iter(rows.values()))["mean_loss"] if rows else 1.0
    for name, r in rows.items():
        lines.append(f"| {name} | {r['mean_loss']:.3f} ({r['mean_loss'] / base - 1:+.0%}) | {r['policy_loss']:.3f} | "
                     f"{r['value_loss']:.3f} | {r['length']:.1f} ({r['length_sd']:.1f}) | {r['branching']:.1f} | " +
                     " | ".join(f"{r['score'][o]:.2f}" for o in opponents) + " |")
    return "\n".join(lines)


def plot(out: Path, names: list[str]) -> Path:
    """Loss, game length and branching per iteration, one line per variant (ablation.png)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    for name in names:
        log = load_log(out / name.replace(" ", "-"))
        games = np.cumsum([e["selfplay"]["games"] for e in log])
        axes[0].plot(games, [e["train"]["loss"] for e in log], marker="o", label=name)
        axes[1].plot(games, [e["selfplay"]["mean_length"] for e in log], marker="o", label=name)
        axes[2].plot(games, [e["selfplay"]["branching"] for e in log], marker="o", label=name)
    for ax, title in zip(axes, ("training loss (policy + value)", "mean game length (stones)",
                                "branching (moves at the root)")):
        ax.set(title=title, xlabel="self-play games")
        ax.legend()
    fig.tight_layout()
    path = out / "ablation.png"
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.measure.ablate", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="runs/ablate")
    ap.add_argument("--iterations", type=int, default=6)
    ap.add_argument("--games", type=int, default=32)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--playouts", type=int, default=128)
    ap.add_argument("--eval-games", type=int, default=40)
    ap.add_argument("--eval-ms", type=int, default=200)
    ap.add_argument("--opponents", default="greedy,alphabeta")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(message)s")
    from engine.train.selfplay.run import Run

    out = Path(args.out)
    base = RunConfig(iterations=args.iterations, games=args.games, seed=11)
    base.learn.steps, base.play.playouts = args.steps, args.playouts
    opponents = args.opponents.split(",")
    rows = {}
    for name in args.variants.split(","):
        cfg = variant_config(base, name, out)
        Run(cfg).loop()
        rows[name] = summarise(cfg, opponents, args.eval_games, args.eval_ms)
        logging.info("%s: %s", name, rows[name])
    text = table(rows, opponents, args.eval_games)
    (out / "ablation.md").write_text(text + "\n")
    (out / "ablation.json").write_text(json.dumps(rows, indent=2) + "\n")
    plot(out, list(rows))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
