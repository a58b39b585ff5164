"""A run's plots (matplotlib PNGs) and a short markdown report, drawn from its log.jsonl."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def load_log(run_dir: Path) -> list[dict]:
    path = Path(run_dir) / "log.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def write_report(run_dir: Path) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run_dir = Path(run_dir)
    log = load_log(run_dir)
    out = run_dir / "report.md"
    if not log:
        out.write_text("# Training report\n\nNo iterations logged yet.\n")
        return out
    its = [e["iteration"] for e in log]
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    ax = axes[0][0]
    for key in ("policy_loss", "value_loss", "entropy"):
        ax.plot(its, [e["train"][key] for e in log], label=key.replace("_", " "))
    ax.set(title="losses", xlabel="iteration")
    ax.legend()
    ax = axes[0][1]
    first, last = log[: max(1, len(log) // 3)], log[-max(1, len(log) // 3):]
    for part, label in ((first, "first third"), (last, "last third")):
        ax.hist(np.concatenate([e["selfplay"]["lengths"] for e in part]), bins=30, alpha=0.6, label=label)
    ax.set(title="self-play game length (stones)", xlabel="stones")
    ax.legend()
    ax = axes[1][0]
    for part, label in ((first, "first third"), (last, "last third")):
        hist = np.sum([e["selfplay"]["branching_hist"] for e in part], axis=0)
        ax.plot(np.arange(len(hist)), hist / max(hist.sum(), 1), label=label)
    ax.set(title="branching factor at the root (moves after the filter)", xlabel="moves")
    ax.legend()
    ax = axes[1][1]
    evals = [e for e in log if "eval" in e]
    for opp in sorted({k for e in evals for k in e["eval"]}):
        ax.plot([e["iteration"] for e in evals], [e["eval"][opp] for e in evals], marker="o", label=f"vs {opp}")
    rated = json.loads((run_dir / "ratings.json").read_text()) if (run_dir / "ratings.json").exists() else {}
    for key in sorted({k for r in rated.values() for k in r}):
        its_r = sorted(int(i) for i, r in rated.items() if key in r)
        ax.plot(its_r, [rated[str(i)][key]["score"] for i in its_r], marker="s", label=f"vs {key}")
    ax.set(title="evaluation score (model's points per game)", xlabel="iteration", ylim=(0, 1))
    if evals or rated:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(run_dir / "report.png", dpi=90)
    plt.close(fig)
    last_e = log[-1]
    lines = ["# Training report", "", f"Run folder `{run_dir}`; {len(log)} iterations, "
             f"{last_e['total_games']} self-play games, {last_e['total_steps']} updates.", "",
             "![plots](report.png)", "",
             "| iteration | games | mean length | branching | policy loss | value loss | KL | lr | eval |",
             "|---|---|---|---|---|---|---|---|---|"]
    for e in log:
        sp, tr = e["selfplay"], e["train"]
        ev = " ".join(f"{k} {v:.2f}" for k, v in e.get("eval", {}).items())
        lines.append(f"| {e['iteration']} | {sp['games']} | {sp['mean_length']:.1f} | {sp['branching']:.1f} | "
                     f"{tr['policy_loss']:.3f} | {tr['value_loss']:.3f} | {tr['kl']:.4f} | {tr['lr']:.2g} | {ev} |")
    out.write_text("\n".join(lines) + "\n")
    return out
