"""Supervised training on game records (Gomocup's tournament games): every position after the
referee's opening, each batch sample in a random one of the board's 8 symmetries, the move the
engine chose as the policy target and the game's result for the side to move as the value target.

    python -m engine.train.learn.supervised --records /work/shared/data/gomocup/renju-2019.tar.gz \
        /work/shared/data/gomocup/renju-2020.tar.gz --out runs/sup1 [--epochs 4 --channels 32 --blocks 3]

Targets: a position's policy target is the point played from it; black's foul and an illegal
(occupied) last move are not targets, nor are the opening's stones. Its value target is +1 when the
side to move won, -1 when it lost (a foul is a loss for black), 0 for a draw; a game that stopped
(a time-out or a crash) gives no value target (`Game.valued`). Records that cannot be read or
replayed are skipped and counted, as are games on boards other than 15x15.

Validation: one game in ten (`--val-share`) by a hash of its moves (not of its file name, so the
same game read twice, or from a renamed file, lands on one side), never a game on both sides.
Per epoch it reports policy and value losses, top-1 and top-5 accuracy of the net's most likely
empty point (the logits masked to empty points; black's forbidden points are not masked) against
the move played, and the value's sign agreement with the result at positions of decided games.

Rules: `--records RULE:PATH` reads a path under its own rule (e.g. `standard:standard-2021.tar.gz`);
a bare path is read under the first of `--rule`. Only games of the `--rule` list (default renju)
are trained on, and validation uses the first rule's games only; the net has no rule input, so a
mixed run should be measured against a Renju-only one before it is kept.

The run folder holds positions.npz (the positions, reused by a rerun with the same records),
checkpoint.pt (after every epoch: rerunning the command continues, a larger --epochs trains on),
log.jsonl (one line an epoch, epoch 0 the untrained net), report.png, and at the end model.onnx,
its sidecar model.json and model.pt (the torch weights, as engine.train.learn.distill writes them)."""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import logging
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from tqdm import tqdm

from engine.board import FEATURE_PLANES, FEATURE_VERSION, PLANES_OF_VERSION, Board, BoardError, Rule
from engine.records import load
from engine.records.game import Game, RecordError
from engine.train.config import NetConfig
from engine.train.data.augment import augment_batch
from engine.train.data.split import VAL_SHARE, game_key, held_out
from engine.train.model.network import (
    PolicyValueNet,
    export_onnx,
    feature_version,
    load_weights,
    widen_input,
    write_sidecar,
)
from engine.train.model.unfold import unfold

log = logging.getLogger("pbrain.train")

SIZE = 15
LOST_ON_THE_LAST_MOVE = ("foul", "illegal")  # the last move lost on the spot: never a move to learn
SHOWN_ERRORS = 5  # unreadable records whose messages are printed; the rest are only counted
CACHE_VERSION = 2


@dataclasses.dataclass
class Records:
    planes: np.ndarray  # [N, C, n, n] uint8: the planes are 0/1
    move: np.ndarray  # [N] int16, y * n + x: the point played
    z: np.ndarray  # [N] float32: the result for the side to move (+1 won, -1 lost, 0 a draw or none)
    has_value: np.ndarray  # [N] bool: False in games that stopped
    game: np.ndarray  # [N] int32: the position's game
    key: np.ndarray  # [G] uint32: a hash of each game's rule and moves, which decides its side
    rule: np.ndarray  # [G] int8: each game's Rule
    info: dict  # counts and sources, for the sidecar
    mover: np.ndarray  # [N] int16: the side to move's name, an index into `players`
    players: list[str]  # the records' names, lower case

    def held_out(self, share: float) -> np.ndarray:
        """[G] bool: the validation games."""
        return held_out(self.key, share)


def game_samples(game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """A judged game's positions from its first chosen move: planes [k, C, n, n] uint8, the moves
    played [k] (y * n + x), the results for the side to move [k], and whether they are value targets."""
    n = game.size
    last = len(game.moves) - (1 if game.end in LOST_ON_THE_LAST_MOVE else 0)
    board = Board(n, game.rule)
    for x, y in game.moves[:game.opening]:
        board.play(x, y)
    count = max(0, last - game.opening)
    planes = np.zeros((count, FEATURE_PLANES, n, n), np.uint8)
    move, z = np.zeros(count, np.int16), np.zeros(count, np.float32)
    buf = np.zeros((FEATURE_PLANES, n, n), np.float32)
    for j, (x, y) in enumerate(game.moves[game.opening:last]):
        planes[j] = board.planes(buf)
        move[j] = y * n + x
        if game.winner is not None:
            z[j] = 1.0 if board.to_move == game.winner else -1.0
        board.play(x, y)
    return planes, move, z, game.valued


def parse_source(text: str, default: Rule) -> tuple[Rule, str]:
    """`RULE:PATH` or a bare `PATH` (read under `default`)."""
    head, sep, rest = text.partition(":")
    if sep and not Path(text).exists():
        try:
            return Rule.parse(head), rest
        except BoardError:
            pass
    return default, text


def _games(sources: list[tuple[Rule, str]]) -> Iterator[Game | RecordError]:
    for rule, path in sources:
        yield from load([path], rule)


def build(sources: list[tuple[Rule, str]], max_games: int = 0) -> Records:
    """Every position of the sources' 15x15 games (the first `max_games` of them, 0: all)."""
    planes, move, z, has_value, game, keys, rules, mover = [], [], [], [], [], [], [], []
    players: dict[str, int] = {}
    errors: list[str] = []
    other_size = 0
    ends: Counter[str] = Counter()
    with tqdm(desc="records", unit=" games", disable=None) as bar:
        for item in _games(sources):
            if isinstance(item, RecordError):
                if len(errors) < SHOWN_ERRORS:
                    log.warning("skipped: %s", item)
                errors.append(str(item))
                continue
            if item.size != SIZE:
                other_size += 1
                continue
            p, m, v, valued = game_samples(item)
            g = len(keys)
            ids = [players.setdefault(name.strip().lower(), len(players)) for name in item.names]
            first = item.opening % 2  # the colour to move at the first sample: 0 black, 1 white
            mover.append(np.array([ids[(first + j) % 2] for j in range(len(m))], np.int16))
            planes.append(p)
            move.append(m)
            z.append(v)
            has_value.append(np.full(len(m), valued))
            game.append(np.full(len(m), g, np.int32))
            keys.append(game_key(item))
            rules.append(int(item.rule))
            ends[item.end] += 1
            bar.update()
            if max_games and len(keys) >= max_games:
                break
    if errors:
        log.warning("%d records skipped (unreadable or impossible games)", len(errors))
    if not keys:
        raise SystemExit("no games in the records")
    info = {"games": len(keys), "positions": int(sum(len(m) for m in move)), "skipped_records": len(errors),
            "skipped_messages": errors[:SHOWN_ERRORS], "other_size_games": other_size, "ends": dict(ends)}
    return Records(np.concatenate(planes), np.concatenate(move), np.concatenate(z), np.concatenate(has_value),
                   np.concatenate(game), np.array(keys, np.uint32), np.array(rules, np.int8), info,
                   np.concatenate(mover), list(players))


def save_records(path: Path, data: Records, key: dict) -> None:
    n = data.planes.shape[-1]
    packed = np.packbits(data.planes.reshape(len(data.move), -1), axis=1)  # 8x smaller, unpacked on load
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, planes=packed, move=data.move, z=data.z, has_value=data.has_value, game=data.game, key=data.key,
             rule=data.rule, mover=data.mover, size=n,
             meta=json.dumps({"key": key, "info": data.info, "players": data.players}))
    os.replace(tmp, path)


def load_records(path: Path, key: dict) -> Records | None:
    """The cached positions, or None when they were made from other records."""
    if not path.exists():
        return None
    with np.load(path) as f:
        meta = json.loads(str(f["meta"]))
        if meta["key"] != key:
            return None
        n = int(f["size"])
        planes = np.unpackbits(f["planes"], axis=1, count=FEATURE_PLANES * n * n).reshape(-1, FEATURE_PLANES, n, n)
        return Records(planes, f["move"], f["z"], f["has_value"], f["game"], f["key"], f["rule"], meta["info"],
                       f["mover"], meta["players"])


def records_for(out: Path, sources: list[tuple[Rule, str]], max_games: int) -> Records:
    """The positions of the sources, from the run folder's cache when it was made from the same files."""
    files = [[rule.name.lower(), str(Path(p).resolve()), Path(p).stat().st_size if Path(p).is_file() else 0]
             for rule, p in sources]
    key = {"version": CACHE_VERSION, "feature_version": FEATURE_VERSION, "sources": files, "max_games": max_games}
    path = out / "positions.npz"
    data = load_records(path, key)
    if data is not None:
        log.info("positions from %s", path)
        return data
    t0 = time.time()
    data = build(sources, max_games)
    save_records(path, data, key)
    log.info("%d positions of %d games in %.0f s, cached in %s", data.info["positions"], data.info["games"],
             time.time() - t0, path)
    return data


def split(data: Records, share: float, rules: list[Rule],
          exclude: tuple[str, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Position indices to train on (the rules' games not held out, less the positions where a
    player named in `exclude` is to move) and to validate on (the held-out games of the first rule,
    all of their positions)."""
    val_game = data.held_out(share)[data.game]
    rule = data.rule[data.game]
    used = np.isin(rule, [int(r) for r in rules])
    train = used & ~val_game
    names = {e.strip().lower() for e in exclude}
    skip = [i for i, name in enumerate(data.players) if name in names]
    if skip:
        train &= ~np.isin(data.mover, skip)
    return np.nonzero(train)[0], np.nonzero(val_game & (rule == int(rules[0])))[0]


def pool_targets(data: Records, files: list[str], z_weight: float) -> tuple[Records, Teacher]:
    """The records' positions and those of engine target files (engine.train.data.enginetargets,
    searchtargets: planes, policy, value, the game's result z) pooled into one set, with the
    targets as a Teacher that replaces both: at a record position the move played and the result,
    at a target position the engine's policy and (1 - z_weight) x its value + z_weight x the
    game's result where the game was decided. The target positions are never held out (their games
    get a key above every validation share): validation stays the records' split."""
    from engine.train.learn.distill import current_planes

    n2 = data.planes.shape[-1] ** 2
    policies = [np.eye(n2, dtype=np.float16)[data.move]]
    values, known = [data.z.astype(np.float32)], [data.has_value.copy()]
    planes, moves, zs, games = [data.planes], [data.move], [data.z], [data.game]
    keys, rules, base = [data.key], [data.rule], len(data.key)
    counts = {}
    for path in files:
        with np.load(path) as f:
            p, v, z, g = f["policy"], f["value"].astype(np.float32), f["z"].astype(np.float32), f["game"]
            planes.append(current_planes(f["planes"]).astype(np.uint8))
        _, g = np.unique(g, return_inverse=True)
        decided = np.isfinite(v) & (z != 0)
        values.append(np.where(decided, (1 - z_weight) * v + z_weight * z, v).astype(np.float32))
        known.append(np.isfinite(v))
        values[-1][~known[-1]] = 0.0
        policies.append(p.astype(np.float16))
        moves.append(p.argmax(1).astype(data.move.dtype))
        zs.append(z)
        games.append((base + g).astype(data.game.dtype))
        count = int(g.max()) + 1 if len(g) else 0
        keys.append(np.full(count, np.iinfo(np.uint32).max, data.key.dtype))
        rules.append(np.full(count, int(Rule.RENJU), data.rule.dtype))
        base += count
        counts[Path(path).name] = len(v)
    pooled = Records(np.concatenate(planes), np.concatenate(moves), np.concatenate(zs).astype(np.float32),
                     np.concatenate(known), np.concatenate(games), np.concatenate(keys), np.concatenate(rules),
                     {**data.info, "target_positions": counts},
                     np.concatenate([data.mover, np.full(sum(counts.values()), -1,
                                                         data.mover.dtype)]), data.players)
    teacher = Teacher(np.concatenate(policies), np.concatenate(values), 1.0, 1.0, np.concatenate(known))
    return pooled, teacher


def lr_at(args: argparse.Namespace, progress: float) -> float:
    """The learning rate at `progress` (0..1) of the run's epochs."""
    if args.schedule == "cosine":
        return args.lr * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))
    return args.lr * (0.1 ** sum(progress >= m for m in (0.5, 0.75)))  # step: 10x lower at half, again at 3/4


def losses(net: PolicyValueNet, x: torch.Tensor, target: torch.Tensor, z: torch.Tensor, has_value: torch.Tensor,
           reduction: str = "mean") -> tuple[torch.Tensor, ...]:
    """Policy cross-entropy against the move played (or a target distribution), value squared
    error over the value targets (summed when reduction is "sum"), and the net's logits and values."""
    logits, v = net(x)
    policy = F.cross_entropy(logits, target, reduction=reduction)
    w = has_value.float()
    value = ((v - z) ** 2 * w).sum()
    return policy, value if reduction == "sum" else value / w.sum().clamp(min=1), logits, v


@dataclasses.dataclass
class Teacher:
    """A net's outputs at every position of the records (the mean over the 8 symmetries), and how
    much of each target they replace: the policy target becomes (1 - policy) x the move played +
    policy x the teacher's softmax, and the value target value x the teacher's value + (1 - value)
    x the result (the teacher's value alone where a game gives no result)."""
    policy_out: np.ndarray  # [N, n*n] float16
    value_out: np.ndarray  # [N] float32
    policy: float
    value: float
    value_known: np.ndarray | None = None  # [N] bool: where value_out counts (None: everywhere)


def teacher_for(out: Path, model: str, data: Records, policy: float, value: float) -> Teacher:
    """The teacher's outputs, from the run folder's cache when they were made by the same file on
    the same positions."""
    from engine.train.learn.distill import ensemble_targets

    f = Path(model)
    key = json.dumps({"model": str(f.resolve()), "bytes": f.stat().st_size, "positions": len(data.move),
                      "games": int(len(data.key)), "keys": int(data.key.astype(np.uint64).sum())})
    path = out / "teacher.npz"
    if path.exists():
        with np.load(path) as c:
            if str(c["key"]) == key:
                return Teacher(c["policy"], c["value"], policy, value)
    t0 = time.time()
    p, v = ensemble_targets(model, data.planes)  # uint8 planes: each symmetry is made float in turn
    p = p.astype(np.float16)
    np.savez(path, policy=p, value=v, key=key)
    log.info("the teacher's symmetry means at %d positions in %.0f s", len(v), time.time() - t0)
    return Teacher(p, v, policy, value)


def tensors(data: Records, idx: np.ndarray, device: str, ks: np.ndarray | None = None,
            teacher: Teacher | None = None):
    """Planes, the policy target (the point played, or with a teacher a distribution [B, n*n]),
    the value target and where it counts, for the positions idx in the symmetries ks (none:
    as recorded)."""
    x = data.planes[idx].astype(np.float32)
    target = data.move[idx].astype(np.int64)
    z, has_value = data.z[idx], data.has_value[idx]
    soft = teacher is not None and teacher.policy > 0
    if ks is not None or soft:
        n = x.shape[-1]
        dist = np.zeros((len(idx), n * n), np.float32)
        dist[np.arange(len(idx)), target] = 1.0
        if soft:
            dist = (1 - teacher.policy) * dist + teacher.policy * teacher.policy_out[idx].astype(np.float32)
        if ks is not None:  # one symmetry per sample, the target turned with the stones
            x, dist = augment_batch(x, dist, ks)
        target = dist if soft else dist.argmax(1)
    if teacher is not None and teacher.value > 0:
        tv = teacher.value_out[idx]
        z = np.where(has_value, teacher.value * tv + (1 - teacher.value) * z, tv).astype(np.float32)
        has_value = np.ones(len(idx), bool) if teacher.value_known is None else teacher.value_known[idx]
    return (torch.from_numpy(x).to(device), torch.from_numpy(np.asarray(target)).to(device),
            torch.from_numpy(z).to(device), torch.from_numpy(has_value).to(device))


def _tally(sums: Counter, x: torch.Tensor, logits: torch.Tensor, v: torch.Tensor, target: torch.Tensor,
           z: torch.Tensor, has_value: torch.Tensor) -> None:
    """Adds one batch's hits: the net's five most likely empty points against the move played, and
    the value's sign against the result at positions of decided games with a value target."""
    empty = (x[:, 0] + x[:, 1]).flatten(1) == 0
    top = logits.masked_fill(~empty, -math.inf).topk(5, 1).indices
    decided = has_value & (z != 0)
    sums.update(top1=int((top[:, 0] == target).sum()), top5=int((top == target[:, None]).any(1).sum()),
                valued=int(has_value.sum()), decided=int(decided.sum()),
                sign=int(((torch.sign(v) == z) & decided).sum()))


def _rates(sums: Counter, n: int) -> dict:
    return {"top1": sums["top1"] / n, "top5": sums["top5"] / n, "value_sign": sums["sign"] / max(1, sums["decided"]),
            "positions": n, "decided_positions": sums["decided"]}


def evaluate(net: PolicyValueNet, data: Records, idx: np.ndarray, device: str = "cpu", batch: int = 1024) -> dict:
    """Losses, top-1/top-5 accuracy of the empty points the net ranks first, and value-sign accuracy
    at positions of decided games with a value target, on the positions `idx`."""
    if not len(idx):
        return {}
    net.eval()
    sums = Counter()
    with torch.no_grad():
        for i in range(0, len(idx), batch):
            x, target, z, has_value = tensors(data, idx[i:i + batch], device)
            policy, value, logits, v = losses(net, x, target, z, has_value, "sum")
            sums.update(policy=float(policy), value=float(value))
            _tally(sums, x, logits, v, target, z, has_value)
    n = len(idx)
    return {"policy_loss": sums["policy"] / n, "value_loss": sums["value"] / max(1, sums["valued"]), **_rates(sums, n)}


def evaluate_onnx(path: str, data: Records, idx: np.ndarray, batch: int = 1024) -> dict:
    """The same measures for a shipped ONNX net (as onnxruntime runs it in the engine), on the
    positions `idx`: how a new net compares with the one it would replace."""
    from engine.net.onnx_eval import ONNXEvaluator

    if not len(idx):
        return {}
    ev = ONNXEvaluator(path, threads=max(1, torch.get_num_threads()), gpu=False)
    sums = Counter()
    for i in range(0, len(idx), batch):
        x, target, z, has_value = tensors(data, idx[i:i + batch], "cpu")
        logits, v = ev.evaluate_planes(x.numpy())
        logits = torch.from_numpy(np.asarray(logits, dtype=np.float32).reshape(len(x), -1))
        _tally(sums, x, logits, torch.from_numpy(np.asarray(v, dtype=np.float32).reshape(-1)), target, z, has_value)
    return _rates(sums, len(idx))


def initial_net(path: Path, data: Records, idx: np.ndarray, positions: int = 8192) -> PolicyValueNet:
    """The net a run starts from: torch weights as written by engine.train (model.pt), or an ONNX
    net unfolded (engine.train.model.unfold), its BatchNorms calibrated on training positions."""
    if path.suffix == ".onnx":
        rng = np.random.default_rng(0)
        pick = rng.choice(idx, size=min(positions, len(idx)), replace=False)
        return unfold(path, data.planes[np.sort(pick)].astype(np.float32))
    return load_weights(path)


def train_epoch(net: PolicyValueNet, opt: torch.optim.Optimizer, data: Records, idx: np.ndarray, epoch: int,
                args: argparse.Namespace, device: str, teacher: Teacher | None = None) -> dict:
    """One pass over `idx` in an order and symmetries drawn from (seed, epoch), so a resumed run
    repeats exactly what an uninterrupted one does."""
    rng = np.random.default_rng([args.seed, epoch])
    order = rng.permutation(idx)
    steps = max(1, math.ceil(len(order) / args.batch))
    net.train()
    sums = Counter()
    bar = tqdm(range(steps), desc=f"epoch {epoch}/{args.epochs}", leave=False, disable=None, mininterval=2)
    for s in bar:
        lr = lr_at(args, (epoch - 1 + s / steps) / args.epochs)
        for g in opt.param_groups:
            g["lr"] = lr
        b = order[s * args.batch:(s + 1) * args.batch]
        policy, value, _, _ = losses(net, *tensors(data, b, device, rng.integers(0, 8, len(b)), teacher))
        opt.zero_grad()
        (policy + args.value_weight * value).backward()
        opt.step()
        sums.update(policy=policy.item() * len(b), value=value.item() * len(b), n=len(b))
        if s % 50 == 0:
            bar.set_postfix(policy=f"{sums['policy'] / sums['n']:.3f}", value=f"{sums['value'] / sums['n']:.3f}")
    return {"policy_loss": sums["policy"] / sums["n"], "value_loss": sums["value"] / sums["n"], "lr": lr,
            "steps": steps}


def write_plots(out: Path, history: list[dict]) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_l, ax_a) = plt.subplots(1, 2, figsize=(11, 4))
    for part, style in (("train", "-"), ("val", "--")):
        rows = [h for h in history if h.get(part)]
        for key in ("policy_loss", "value_loss"):
            ax_l.plot([h["epoch"] for h in rows], [h[part][key] for h in rows], style, marker="o",
                      label=f"{part} {key.replace('_', ' ')}")
    ax_l.set(title="losses", xlabel="epoch")
    ax_l.legend(fontsize=8)
    rows = [h for h in history if h.get("val")]
    for key, label in (("top1", "top-1"), ("top5", "top-5"), ("value_sign", "value sign")):
        ax_a.plot([h["epoch"] for h in rows], [h["val"][key] for h in rows], marker="o", label=label)
    ax_a.set(title="validation accuracy", xlabel="epoch", ylim=(0, 1))
    ax_a.legend(fontsize=8)
    fig.tight_layout()
    path = out / "report.png"
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def _save(path: Path, state: dict) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    os.replace(tmp, path)  # an interrupted save leaves the last checkpoint whole


def _write_log(out: Path, history: list[dict]) -> None:
    (out / "log.jsonl").write_text("".join(json.dumps(h) + "\n" for h in history))


def parser() -> argparse.ArgumentParser:
    class Help(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
        pass

    ap = argparse.ArgumentParser(prog="python -m engine.train.learn.supervised", description=__doc__,
                                 formatter_class=Help)
    ap.add_argument("--records", nargs="+", required=True, metavar="[RULE:]PATH",
                    help=".psq files, folders and Gomocup .tar.gz archives; RULE: reads one under its own rule")
    ap.add_argument("--out", required=True, type=Path, help="the run folder (rerunning the command resumes it)")
    ap.add_argument("--rule", default="renju", help="comma-separated rules of the games trained on; the first is "
                    "the bare paths' rule and the validation's")
    ap.add_argument("--epochs", type=int, default=4, help="epochs in all (a rerun with more trains on)")
    ap.add_argument("--channels", type=int, default=32, help="the net's width (the shipped net: 32)")
    ap.add_argument("--blocks", type=int, default=3, help="residual blocks (the shipped net: 3)")
    ap.add_argument("--planes", type=int, default=FEATURE_PLANES, choices=sorted(PLANES_OF_VERSION.values()),
                    help="input planes the net reads (its feature version's); an --init net reading fewer is "
                         "widened, the new planes' weights zero")
    ap.add_argument("--batch", type=int, default=256, help="positions a step")
    ap.add_argument("--lr", type=float, default=2e-3, help="the peak learning rate (AdamW)")
    ap.add_argument("--schedule", choices=("cosine", "step"), default="cosine",
                    help="cosine to 0 over the epochs, or step: 10x lower at half and at three quarters")
    ap.add_argument("--weight-decay", type=float, default=1e-4, help="AdamW's weight decay")
    ap.add_argument("--value-weight", type=float, default=1.0, help="the value loss's weight beside the policy's")
    ap.add_argument("--val-share", type=float, default=VAL_SHARE, help="share of the games held out for validation")
    ap.add_argument("--seed", type=int, default=1, help="the net's initial weights, batch order and symmetries")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    ap.add_argument("--device", default="auto", help="auto (CUDA when there is one), cpu or cuda")
    ap.add_argument("--init", default=None, metavar="MODEL",
                    help="start from this net (an ONNX file, e.g. the shipped one, or torch weights .pt) instead "
                         "of random weights; its shape replaces --channels/--blocks")
    ap.add_argument("--exclude-movers", default="", metavar="NAME,...",
                    help="do not train on the positions where these players (the records' names) are to move: "
                         "learn one side of a match, say a strong engine's moves against ours")
    ap.add_argument("--teacher", default=None, metavar="MODEL.onnx",
                    help="a net whose outputs (the mean over the 8 symmetries) blend into the targets, by "
                         "--teacher-policy and --teacher-value")
    ap.add_argument("--teacher-policy", type=float, default=0.0,
                    help="the teacher's share of the policy target (the rest: the move played)")
    ap.add_argument("--teacher-value", type=float, default=1.0,
                    help="the teacher's share of the value target (the rest: the game's result); 1 keeps the "
                         "teacher's judgement of positions while the policy learns the records' moves")
    ap.add_argument("--targets", action="append", default=[], metavar="FILE.npz",
                    help="engine target files (enginetargets, searchtargets) whose positions join the records', "
                         "their policy and value as targets (repeatable; not with --teacher)")
    ap.add_argument("--targets-z-weight", type=float, default=0.5,
                    help="the game's result's share of a target position's value (the rest: the engine's)")
    ap.add_argument("--max-games", type=int, default=0, help="read only the first N games (0: all)")
    ap.add_argument("--evaluate", nargs="+", default=[], metavar="MODEL.onnx",
                    help="instead of training: these nets' top-1, top-5 and value-sign on the validation split, "
                         "as JSON lines")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    if args.threads:
        torch.set_num_threads(args.threads)
    rules = [Rule.parse(r) for r in args.rule.split(",")]
    sources = [parse_source(s, rules[0]) for s in args.records]
    for _, path in sources:
        name = Path(path).name.lower()
        if "renju" in name and "2021" in name:  # the held-out test set must never be trained on
            raise SystemExit(f"{path}: the 2021 Renju league is the held-out test set")
    if len(rules) > 1:
        log.warning("mixing rules %s: the net has no rule input", [r.name.lower() for r in rules])
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    data = records_for(out, sources, args.max_games)
    if args.targets and args.teacher:
        raise SystemExit("--targets and --teacher both replace the targets: give one")
    pooled = None
    if args.targets:
        data, pooled = pool_targets(data, args.targets, args.targets_z_weight)
    exclude = tuple(e for e in args.exclude_movers.split(",") if e)
    train_idx, val_idx = split(data, args.val_share, rules, exclude)
    val_games = len(np.unique(data.game[val_idx]))
    log.info("%d training positions, %d validation positions of %d games", len(train_idx), len(val_idx), val_games)
    if not len(train_idx):
        raise SystemExit("no training positions")
    if not len(val_idx):
        log.warning("no validation games: raise --val-share or give more records")
    if args.evaluate:
        for model in args.evaluate:
            print(json.dumps({"model": model, **evaluate_onnx(model, data, val_idx)}), flush=True)
        return 0
    device = ("cuda" if torch.cuda.is_available() else "cpu") if args.device == "auto" else args.device
    teacher = (teacher_for(out, args.teacher, data, args.teacher_policy, args.teacher_value)
               if args.teacher else pooled)
    torch.manual_seed(args.seed)
    if args.init:
        net = widen_input(initial_net(Path(args.init), data, train_idx), args.planes).to(device)
        net_cfg = net.cfg
    else:
        net_cfg = NetConfig(channels=args.channels, blocks=args.blocks, planes=args.planes)
        net = PolicyValueNet(net_cfg).to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    # What the checkpoint must share with this command: other values would change the data or the net.
    identity = {"sources": [[r.name.lower(), str(Path(p).resolve())] for r, p in sources],
                "rules": [r.name.lower() for r in rules], "max_games": args.max_games, "val_share": args.val_share,
                "seed": args.seed, "net": dataclasses.asdict(net_cfg), "init": args.init,
                "exclude_movers": list(exclude),
                "teacher": [args.teacher, args.teacher_policy, args.teacher_value] if args.teacher else None,
                "targets": [[str(Path(t).resolve()), args.targets_z_weight] for t in args.targets]}
    ckpt, history = out / "checkpoint.pt", []
    if ckpt.exists():
        state = torch.load(ckpt, map_location=device, weights_only=False)
        if state["identity"] != identity:
            raise SystemExit(f"{ckpt} belongs to another run ({state['identity']}); give another --out")
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        history = state["history"]
        log.info("resuming after epoch %d", history[-1]["epoch"])
    else:
        history = [{"epoch": 0, "val": evaluate(net, data, val_idx, device), "finished": _now()}]
    for epoch in range(history[-1]["epoch"] + 1, args.epochs + 1):
        t0 = time.time()
        train = train_epoch(net, opt, data, train_idx, epoch, args, device, teacher)
        history.append({"epoch": epoch, "train": train, "val": evaluate(net, data, val_idx, device),
                        "seconds": round(time.time() - t0, 1), "finished": _now()})
        _save(ckpt, {"net": net.state_dict(), "opt": opt.state_dict(), "identity": identity, "history": history})
        _write_log(out, history)
        write_plots(out, history)
        log.info("epoch %d: %s", epoch, {k: round(v, 4) for k, v in {**train, **history[-1]["val"]}.items()})
    _write_log(out, history)
    write_plots(out, history)
    export(net, out, data, args, argv, history, val_games, len(train_idx), len(val_idx))
    return 0


def export(net: PolicyValueNet, out: Path, data: Records, args: argparse.Namespace, argv: list[str] | None,
           history: list[dict], val_games: int, train_positions: int, val_positions: int) -> None:
    """model.onnx (checked against torch), model.pt and the sidecar model.json."""
    cfg = net.cfg
    final = history[-1].get("val", {})
    model = out / "model.onnx"
    export_onnx(net, model, SIZE, {"channels": cfg.channels, "blocks": cfg.blocks,
                                   "threat_planes": int(cfg.threat_planes), "supervised_epochs": history[-1]["epoch"]})
    torch.save({"net": {k: v.cpu() for k, v in net.state_dict().items()}, "net_cfg": dataclasses.asdict(cfg)},
               out / "model.pt")
    write_sidecar(model, {
        "made_by": "python -m engine.train.learn.supervised " + " ".join(argv if argv is not None else sys.argv[1:]),
        "date": datetime.date.today().isoformat(), "feature_version": feature_version(cfg),
        "records": args.records, "rules": args.rule, **data.info,
        "training_positions": train_positions, "validation_games": val_games, "validation_positions": val_positions,
        "val_share": args.val_share, "epochs": history[-1]["epoch"], "batch": args.batch, "lr": args.lr,
        "schedule": args.schedule, "weight_decay": args.weight_decay, "value_weight": args.value_weight,
        "seed": args.seed, "net": dataclasses.asdict(cfg), "init": args.init, "exclude_movers": args.exclude_movers,
        "teacher": args.teacher, "teacher_policy": args.teacher_policy if args.teacher else None,
        "teacher_value": args.teacher_value if args.teacher else None,
        "targets": args.targets, "targets_z_weight": args.targets_z_weight if args.targets else None,
        "val_top1": final.get("top1"), "val_top5": final.get("top5"), "val_value_sign": final.get("value_sign"),
        "history": history,
    })
    log.info("wrote %s: val top-1 %s, top-5 %s, value sign %s", model, final.get("top1"), final.get("top5"),
             final.get("value_sign"))


def _now() -> str:
    return datetime.datetime.now().isoformat(timespec="seconds")


if __name__ == "__main__":
    sys.exit(main())
