"""Distillation: a net fitted to the mean of its teacher's outputs over the 8 symmetries of each
position (the softmaxes turned back and averaged; the values averaged), and, where a search
targets file gives them, to the engine's own search's answers instead. A net trained with
augmentation still answers differently in each symmetry, and the mean of the 8 predicts results
better; averaging in the search would cost playouts, a student that has learnt the mean costs
nothing at play time. The search's answers at the positions where match games are decided teach
the net what its search finds there.

v3's step (v1 and v2 are in git at 9923559: `git show 9923559:models/pbrain-renju-v1.onnx`;
runs/b1/model.pt is v2's torch weights, written beside v2's ONNX file by the same command with
`--init runs/v1.pt` from `engine.train.model.unfold` and no search targets):

    python -m engine.train.learn.distill --teacher v1.onnx --init runs/b1/model.pt \
        --buffer runs/d1/buffer.npz --buffer runs/q1b/buffer.npz --matches 'matches/*/results.json' \
        --search-targets runs/st1/targets.npz --search-targets runs/st3/standard.npz --search-repeat 8 \
        --out runs/st3/model.onnx --epochs 4 [--lr 5e-4 --z-weight 0 --batch 256 --seed 1]

The positions are every stored position of the `--buffer` runs and every position after the
opening of the distinct `--matches` games; one group (a stored game, a match game) in ten is held
out. `--z-weight w` mixes the game's result into the value target: (1 - w) mean + w result.
`--records FILE` adds the positions of strong engines' game records (outside the split that
`engine.train.learn.supervised` validates on), `--records-z-weight w` their results into their value
targets: the teacher's mean alone would keep the teacher's errors of sign, which the results of
strong engines' games correct.
`--search-targets FILE` (engine.train.data.searchtargets) gives some positions the engine's own search
as targets: their policy (1 - a) mean + a search, their value (1 - b) mean + b search
(`--search-weight a,b`, default 1,1), each passed over `--search-repeat` times an epoch, since a
single pass barely moves the net towards them; positions the buffers and matches lack are added.
Beside the ONNX file go its sidecar, NAME.pt (the torch weights) and NAME.png (the held-out curves).
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import logging
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from engine.board import FEATURE_PLANES, PLANES_OF_VERSION, Board, Color
from engine.board.symmetry import outputs_in_each
from engine.train.data.augment import augment_batch
from engine.train.data.matchdata import distinct_games, game_positions, load_results, match_files
from engine.train.data.searchtargets import record_games
from engine.train.model.network import (
    PolicyValueNet,
    export_onnx,
    feature_version,
    load_weights,
    widen_input,
    write_sidecar,
)
from engine.train.selfplay.buffer import ReplayBuffer, is_held_out

log = logging.getLogger("pbrain.train")


@dataclasses.dataclass
class Positions:
    planes: np.ndarray  # [N, C, n, n] uint8
    z: np.ndarray  # [N] the game's result for the side to move (0: draw or unknown)
    group: np.ndarray  # [N] the game each position comes from
    recorded: np.ndarray  # [N] bool: the position comes from a game record of strong engines


def gather(buffers: list[str], matches: list[str], records: list[dict] | None = None) -> Positions:
    """Every position of the buffers' games, of the distinct match games and of the records' games
    (in the match runner's game form), with a game index."""
    planes, z, group, recorded = [], [], [], []
    g = 0
    for path in buffers:
        for _, arrays in ReplayBuffer.load(Path(path), 10**9).games:
            planes.append(arrays["planes"].astype(np.uint8))
            z.append(arrays["value"].astype(np.float32))
            group.append(np.full(len(arrays["value"]), g))
            recorded.append(np.zeros(len(arrays["value"]), bool))
            g += 1
    sources = [(game, False) for game in distinct_games(load_results(matches))]
    sources += [(game, True) for game in records or []]
    for game, is_record in sources:
        game_planes, game_z = game_positions(game)
        if len(game_z):
            planes.append(game_planes)
            z.append(game_z)
            group.append(np.full(len(game_z), g))
            recorded.append(np.full(len(game_z), is_record))
            g += 1
    return Positions(np.concatenate(planes), np.concatenate(z), np.concatenate(group), np.concatenate(recorded))


def current_planes(planes: np.ndarray) -> np.ndarray:
    """Planes of an older feature version (a searchtargets file written before the layout grew) in
    today's layout, recomputed from their stones and side to move (planes 0-2 of every version):
    Renju positions, as every kept file holds."""
    if planes.shape[1] == FEATURE_PLANES:
        return planes
    n = planes.shape[-1]
    out = np.zeros((len(planes), FEATURE_PLANES, n, n), np.float32)
    for i, p in enumerate(planes):
        me = Color.BLACK if p[2, 0, 0] else Color.WHITE
        mine, theirs = (list(zip(*np.nonzero(p[k].T))) for k in (0, 1))
        black, white = (mine, theirs) if me == Color.BLACK else (theirs, mine)
        Board.from_stones(black, white, to_move=me, size=n).planes(out[i])
    return out.astype(planes.dtype)


def add_positions(pos: Positions, planes: np.ndarray, z: np.ndarray, game: np.ndarray) -> tuple[Positions, np.ndarray]:
    """`pos` with those of the given positions it lacks appended (a new group per game); and the
    index in the result of each given position."""
    index = {row.tobytes(): i for i, row in enumerate(pos.planes)}
    where = np.zeros(len(planes), np.int64)
    extra: list[int] = []
    base = int(pos.group.max()) + 1 if len(pos.group) else 0
    for j, row in enumerate(planes):
        i = index.get(row.tobytes())
        if i is None:
            i = index[row.tobytes()] = len(pos.z) + len(extra)
            extra.append(j)
        where[j] = i
    if extra:
        pos = Positions(np.concatenate([pos.planes, planes[extra]]), np.concatenate([pos.z, z[extra]]),
                        np.concatenate([pos.group, base + game[extra]]),
                        np.concatenate([pos.recorded, np.zeros(len(extra), bool)]))
    return pos, where


def value_targets(value: np.ndarray, pos: Positions, z_weight: float, records_z_weight: float) -> np.ndarray:
    """The value target of each position: (1 - w) target + w result, w the records' weight at
    positions of decided record games (strong engines' results say who stood better; a draw or a
    stopped game leaves the target as it is) and `z_weight` elsewhere."""
    w = np.where(pos.recorded, np.where(pos.z != 0, records_z_weight, 0.0), z_weight)
    return ((1 - w) * value + w * pos.z).astype(np.float32)


def blend_targets(policy: np.ndarray, value: np.ndarray, where: np.ndarray, search_policy: np.ndarray,
                  search_value: np.ndarray, policy_weight: float, value_weight: float) -> None:
    """The targets at `where` moved towards the search's, in place; a NaN search value (a teacher
    that gave none there) leaves the value as it is."""
    policy[where] = (1 - policy_weight) * policy[where] + policy_weight * search_policy
    known = np.isfinite(search_value)
    at = where[known]
    value[at] = (1 - value_weight) * value[at] + value_weight * search_value[known]


def ensemble_targets(model: str | Path, planes: np.ndarray, batch: int = 256) -> tuple[np.ndarray, np.ndarray]:
    """The teacher's softmax [N, n*n] and value [N], each the mean over the 8 symmetries of the
    position (a policy computed on a turned board is turned back before it is averaged)."""
    from engine.net.onnx_eval import plain_session

    run = plain_session(model)
    policy = np.zeros((len(planes), planes.shape[-1] ** 2), np.float64)
    value = np.zeros(len(planes), np.float64)
    for _, logits, v in outputs_in_each(run, planes, batch):
        logits = logits.astype(np.float64)
        e = np.exp(logits - logits.max(1, keepdims=True))
        policy += e / e.sum(1, keepdims=True)
        value += v
    return (policy / 8).astype(np.float32), (value / 8).astype(np.float32)


def _batch(planes, policy, value, idx, rng):
    x, p = planes[idx].astype(np.float32), policy[idx]
    if rng is not None:  # a random symmetry per sample: the targets are equivariant, so they turn alike
        x, p = augment_batch(x, p, rng.integers(0, 8, len(idx)))
    return torch.from_numpy(x), torch.from_numpy(p), torch.from_numpy(value[idx])


def distill_losses(net: PolicyValueNet, x: torch.Tensor, p: torch.Tensor,
                   v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """KL from the target policy to the net's (cross-entropy less the target's entropy), value MSE,
    and the net's values."""
    logits, value = net(x)
    kl = (p * (torch.log(p.clamp(min=1e-12)) - F.log_softmax(logits, 1))).sum(1).mean()
    return kl, ((value - v) ** 2).mean(), value


def evaluate(net: PolicyValueNet, planes: np.ndarray, policy: np.ndarray, value: np.ndarray, z: np.ndarray,
             batch: int = 512) -> dict:
    """Held-out KL and value MSE against the targets, and the value's sign agreement with decided results."""
    net.eval()
    kl = mse = 0.0
    agree = decided = 0
    with torch.no_grad():
        for i in range(0, len(value), batch):
            idx = np.arange(i, min(len(value), i + batch))
            x, p, v = _batch(planes, policy, value, idx, None)
            a, b, out = distill_losses(net, x, p, v)
            kl += float(a) * len(idx)
            mse += float(b) * len(idx)
            out = out.numpy()
            mask = z[idx] != 0
            agree += int((np.sign(out[mask]) == z[idx][mask]).sum())
            decided += int(mask.sum())
    return {"kl": kl / len(value), "value_mse": mse / len(value), "agreement": agree / max(1, decided)}


def distill(net: PolicyValueNet, planes: np.ndarray, policy: np.ndarray, value: np.ndarray, z: np.ndarray,
            held: np.ndarray, epochs: int, batch: int = 256, lr: float = 5e-4, weight_decay: float = 1e-4,
            seed: int = 1, repeat: np.ndarray | None = None) -> list[dict]:
    """Fit `net` to the targets of the positions not `held`, each `repeat` times an epoch (default
    once), cosine learning rate; per-epoch log."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    train, val = np.nonzero(~held)[0], np.nonzero(held)[0]
    if repeat is not None:
        train = np.repeat(train, repeat[train])
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
    steps = max(1, len(train) // batch)
    total, step = epochs * steps, 0
    history = [{"epoch": 0, **evaluate(net, planes[val], policy[val], value[val], z[val])}]
    log.info("before: %s", history[0])
    for epoch in range(1, epochs + 1):
        t0 = time.time()
        net.train()
        order = rng.permutation(train)
        for s in range(steps):
            for g in opt.param_groups:
                g["lr"] = lr * 0.5 * (1 + math.cos(math.pi * step / total))
            x, p, v = _batch(planes, policy, value, order[s * batch:(s + 1) * batch], rng)
            kl, mse, _ = distill_losses(net, x, p, v)
            opt.zero_grad()
            (kl + mse).backward()
            opt.step()
            step += 1
        history.append({"epoch": epoch, "seconds": round(time.time() - t0, 1),
                        **evaluate(net, planes[val], policy[val], value[val], z[val])})
        log.info("epoch %d: %s", epoch, history[-1])
    return history


def write_curves(path: Path, history: list[dict]) -> Path:
    """The held-out KL and value error (left) and the value's sign agreement with the results
    (right) after each epoch, as a PNG at `path`."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = [h["epoch"] for h in history]
    fig, (ax_l, ax_a) = plt.subplots(1, 2, figsize=(11, 4))
    for key, label in (("kl", "policy KL"), ("value_mse", "value MSE")):
        ax_l.plot(epochs, [h[key] for h in history], marker="o", label=label)
    ax_l.set(title="held-out losses", xlabel="epoch")
    ax_l.legend(fontsize=8)
    ax_a.plot(epochs, [h["agreement"] for h in history], marker="o", label="value sign")
    ax_a.set(title="held-out value sign agreement", xlabel="epoch")
    ax_a.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.learn.distill", description=__doc__.split("\n\n")[0])
    ap.add_argument("--teacher", required=True, help="the ONNX net whose symmetry mean is learnt")
    ap.add_argument("--init", required=True, help="torch weights to start from (engine.train.model.unfold writes them)")
    ap.add_argument("--buffer", action="append", default=[], help="a run's buffer.npz (repeatable)")
    ap.add_argument("--matches", action="append", default=[], help="results.json files or a glob (repeatable)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--z-weight", type=float, default=0.0, help="the game's result's share of the value target")
    ap.add_argument("--records", action="append", default=[],
                    help="game records of strong engines (files, folders, archives; repeatable): the positions "
                         "of their Renju games outside the records' validation split join the others")
    ap.add_argument("--records-z-weight", type=float, default=0.0,
                    help="the result's share of the value target at the records' positions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--search-targets", action="append", default=[],
                    help="an engine.train.data.searchtargets file (repeatable); its positions join the --matches ones")
    ap.add_argument("--search-weight", default="1,1", help="policy,value weights of the search targets")
    ap.add_argument("--search-repeat", type=int, default=1, help="passes over the searched positions an epoch")
    ap.add_argument("--planes", type=int, default=FEATURE_PLANES, choices=sorted(PLANES_OF_VERSION.values()),
                    help="input planes the net reads; an --init net reading fewer is widened, the new planes' "
                         "weights zero")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    matches = match_files(args.matches or [])
    records = record_games(args.records) if args.records else None
    pos = gather(args.buffer, matches, records)
    searched, searched_by = None, None
    if args.search_targets:
        files = [np.load(f) for f in args.search_targets]
        searched = {k: np.concatenate([current_planes(f[k]) if k == "planes" else f[k] for f in files])
                    for k in ("planes", "policy", "value", "z", "game")}
        searched_by = [str(f["made_by"]) if "made_by" in f.files else None for f in files]
        pos, where = add_positions(pos, searched["planes"], searched["z"], searched["game"])
    log.info("%d positions from %d games", len(pos.z), int(pos.group.max()) + 1)
    t0 = time.time()
    policy, value = ensemble_targets(args.teacher, pos.planes)
    log.info("teacher's symmetry means in %.0f s", time.time() - t0)
    weights = [float(w) for w in args.search_weight.split(",")]
    if searched is not None:
        blend_targets(policy, value, where, searched["policy"], searched["value"], *weights)
        log.info("%d positions with search targets", len(where))
    target_v = value_targets(value, pos, args.z_weight, args.records_z_weight)
    net = widen_input(load_weights(args.init), args.planes)
    net_cfg = net.cfg
    held = np.array([is_held_out(int(g)) for g in pos.group])
    repeat = None
    if searched is not None and args.search_repeat > 1:
        repeat = np.ones(len(pos.z), np.int64)
        repeat[where] = args.search_repeat
    history = distill(net, pos.planes, policy, target_v, pos.z, held, args.epochs, args.batch, args.lr,
                      seed=args.seed, repeat=repeat)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"channels": net_cfg.channels, "blocks": net_cfg.blocks, "threat_planes": int(net_cfg.threat_planes),
            "distilled_from": str(args.teacher)}
    export_onnx(net, args.out, 15, meta)
    torch.save({"net": net.state_dict(), "net_cfg": dataclasses.asdict(net_cfg), "distilled_from": str(args.teacher)},
               args.out.with_suffix(".pt"))
    write_sidecar(args.out, {
        "made_by": "python -m engine.train.learn.distill " + " ".join(argv if argv is not None else sys.argv[1:]),
        "date": datetime.date.today().isoformat(), "feature_version": feature_version(net_cfg),
        "teacher": str(args.teacher), "init": args.init, "buffers": args.buffer, "matches": matches,
        "positions": int(len(pos.z)), "held_out": int(held.sum()), "epochs": args.epochs, "lr": args.lr,
        "batch": args.batch, "z_weight": args.z_weight, "seed": args.seed,
        "records": args.records, "record_positions": int(pos.recorded.sum()), "records_z_weight": args.records_z_weight,
        "search_targets": args.search_targets,
        "search_targets_made_by": searched_by,
        "search_weight": weights if searched is not None else None, "search_repeat": args.search_repeat,
        "net": dataclasses.asdict(net_cfg), "validation": history,
    })
    write_curves(args.out.with_suffix(".png"), history)
    log.info("wrote %s", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
