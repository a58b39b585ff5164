"""Fit a fresh net to a run's whole replay buffer: supervised passes over every stored game with
a falling learning rate, one game in ten held out, instead of self-play's small, drifting
updates on the newest games.

    python -m engine.train.refit --run runs/r2 --out runs/refit/model.onnx [--epochs 8]
        [--also OTHER_RUN ...] [--channels 32 --blocks 3] [--settled W] [--batch 256 --lr 2e-3 --seed 1]

`--settled W` weights the value-only samples (root children the search proved, mostly "the side
to move has won": a skew a value head absorbs) by W in the value loss; 0 drops them (default:
the learner's settled_weight). Each epoch logs the held-out policy loss, value loss and value
sign agreement. Beside the ONNX file (and its .json sidecar) goes NAME.pt, the torch weights a new
self-play run can start from (`python -m engine.train --run DIR --init NAME.pt`).
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import logging
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch

from engine.board import FEATURE_VERSION
from engine.train.augment import augment_batch
from engine.train.buffer import KEYS, ReplayBuffer, is_held_out
from engine.train.config import LearnConfig, NetConfig, RunConfig
from engine.train.learner import losses
from engine.train.model import PolicyValueNet, export_onnx, write_sidecar

log = logging.getLogger("pbrain.train")


def split_games(buffer: ReplayBuffer) -> tuple[dict, dict]:
    """(train, validation) arrays: every held-out game goes to validation whole, so no position of
    a validation game is seen in training."""
    parts: tuple[list, list] = ([], [])
    for i, (_, arrays) in enumerate(buffer.games):
        parts[is_held_out(i)].append(arrays)
    return tuple({k: np.concatenate([a[k] for a in games]) for k in KEYS} for games in parts)


def _tensors(data: dict, idx: np.ndarray, rng: np.random.Generator | None):
    planes, policy = data["planes"][idx].astype(np.float32), data["policy"][idx].astype(np.float32)
    if rng is not None:  # a random symmetry per sample
        planes, policy = augment_batch(planes, policy, rng.integers(0, 8, len(idx)))
    return (torch.from_numpy(planes), torch.from_numpy(policy), torch.from_numpy(data["value"][idx]),
            torch.from_numpy(data["has_policy"][idx]))


def validate(net: PolicyValueNet, data: dict, settled: float, batch: int = 512) -> dict:
    net.eval()
    n = len(data["value"])
    totals = {"policy_loss": 0.0, "value_loss": 0.0}
    agree, counted = 0, 0
    with torch.no_grad():
        for i in range(0, n, batch):
            idx = np.arange(i, min(n, i + batch))
            x, p, z, has_p = _tensors(data, idx, None)
            pl, vl, v = losses(net, x, p, z, has_p, settled)
            totals["policy_loss"] += float(pl) * len(idx)
            totals["value_loss"] += float(vl) * len(idx)
            decided = (z != 0) & has_p
            agree += int((torch.sign(v) == z)[decided].sum())
            counted += int(decided.sum())
    out = {k: v / n for k, v in totals.items()}
    out["agreement"] = agree / max(1, counted)
    return out


def refit(buffer: ReplayBuffer, net_cfg: NetConfig, epochs: int, batch: int = 256, lr: float = 2e-3,
          weight_decay: float = 1e-4, settled: float = 0.25, seed: int = 1) -> tuple[PolicyValueNet, list[dict]]:
    """A fresh net fitted to the buffer; the per-epoch validation log."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    train, val = split_games(buffer)
    net = PolicyValueNet(net_cfg)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
    n = len(train["value"])
    steps_per_epoch = max(1, n // batch)
    total = epochs * steps_per_epoch
    history = []
    step = 0
    for epoch in range(1, epochs + 1):
        t0 = time.time()
        net.train()
        order = rng.permutation(n)
        for s in range(steps_per_epoch):
            for g in opt.param_groups:  # cosine decay to zero over the whole fit
                g["lr"] = lr * 0.5 * (1 + math.cos(math.pi * step / total))
            x, p, z, has_p = _tensors(train, order[s * batch:(s + 1) * batch], rng)
            pl, vl, _ = losses(net, x, p, z, has_p, settled)
            opt.zero_grad()
            (pl + vl).backward()
            opt.step()
            step += 1
        entry = {"epoch": epoch, "seconds": time.time() - t0, **validate(net, val, settled)}
        history.append(entry)
        log.info("epoch %d: held-out policy %.3f value %.3f agreement %.3f (%.0f s)", epoch,
                 entry["policy_loss"], entry["value_loss"], entry["agreement"], entry["seconds"])
    return net, history


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.refit", description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", required=True, help="a run folder with buffer.npz")
    ap.add_argument("--also", action="append", default=[], metavar="RUN",
                    help="another run whose buffered games are added (repeatable; e.g. a bootstrap's teacher games)")
    ap.add_argument("--out", required=True, help="the ONNX file to write (a .json sidecar beside it)")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--channels", type=int, default=None, help="default: the run's")
    ap.add_argument("--blocks", type=int, default=None, help="default: the run's")
    ap.add_argument("--settled", type=float, default=LearnConfig().settled_weight,
                    help="value-loss weight of value-only samples (default %(default)s)")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    run = Path(args.run)
    cfg = RunConfig.load(run / "config.json")
    net_cfg = NetConfig(channels=args.channels or cfg.net.channels, blocks=args.blocks or cfg.net.blocks,
                        threat_planes=cfg.net.threat_planes)
    buffer = ReplayBuffer.load(run / "buffer.npz", cfg.learn.buffer_games)
    for extra in args.also:  # appended: the hold-out rule then runs over the whole list
        for gen, arrays in ReplayBuffer.load(Path(extra) / "buffer.npz", 10**9).games:
            buffer.capacity += 1
            buffer.add(gen, arrays)
    log.info("%d games, %d positions from %s", len(buffer.games), len(buffer), ", ".join([str(run), *args.also]))
    net, history = refit(buffer, net_cfg, args.epochs, args.batch, args.lr, cfg.learn.weight_decay,
                         args.settled, args.seed)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    export_onnx(net, out, cfg.play.size, {"channels": net_cfg.channels, "blocks": net_cfg.blocks,
                                          "threat_planes": int(net_cfg.threat_planes), "refit_of": str(run)})
    torch.save({"net": net.state_dict(), "net_cfg": dataclasses.asdict(net_cfg), "source_run": str(run)},
               out.with_suffix(".pt"))
    state = json.loads((run / "state.json").read_text())
    write_sidecar(out, {
        "made_by": "python -m engine.train.refit " + " ".join(argv if argv is not None else sys.argv[1:]),
        "date": datetime.date.today().isoformat(), "feature_version": FEATURE_VERSION,
        "source_run": str(run), "source_iterations": state["iteration"], "source_selfplay_games": state["games"],
        "also": args.also,
        "buffer_games": len(buffer.games), "buffer_positions": len(buffer), "epochs": args.epochs,
        "batch": args.batch, "lr": args.lr, "settled_weight": args.settled, "seed": args.seed,
        "net": {"channels": net_cfg.channels, "blocks": net_cfg.blocks, "threat_planes": net_cfg.threat_planes},
        "validation": history, "source_config": json.loads((run / "config.json").read_text()),
    })
    log.info("wrote %s", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
