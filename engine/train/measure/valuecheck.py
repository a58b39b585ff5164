"""How well nets' values predict real games: positions of decided match games (every `every`-th
ply), the value for the side to move against the game's result. A net is promoted by a match, not
by its training loss; this check takes seconds and shows a value that drifted before a match is
spent on it.

    python -m engine.train.measure.valuecheck matches/NAME/results.json MODEL.onnx [MODEL.onnx ...] [--every 3]
    python -m engine.train.measure.valuecheck runs/NAME/buffer.npz MODEL.onnx ... [--min-generation 13]
    python -m engine.train.measure.valuecheck matches/NAME/results.json MODEL.onnx --symmetries

Per model: sign agreement with the result, mean squared error, the mean value and the mean |value|. These positions
have each side to move about equally often in won and lost games, so a calibrated net's mean is
near 0; a large mean is a bias towards (or against) the side to move, which self-play targets can
teach without the self-play loss showing it. Given a run's buffer instead, it scores the held-out
games (every tenth, `buffer.is_held_out`) from `--min-generation` on (games a net of an earlier
iteration never saw), with their policy targets too: policy cross-entropy and how often the net's
top move is the search's. With `--symmetries` each position also goes to the net in the board's 8
symmetries: how often the top move of each is the identity's (turned back), the spread of the 8
values, and the mean of the 8 values scored as above (what `engine.train.learn.distill` teaches a net).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.board import FEATURE_PLANES, Board, Color, Rule
from engine.train.selfplay.buffer import ReplayBuffer, is_held_out


@dataclass
class ValueCheck:
    positions: int
    agreement: float  # share of positions whose value has the sign of the result
    mse: float
    mean: float  # mean value for the side to move: the bias
    decisive: float  # mean |value|: how far from "even" the net dares to go
    policy_loss: float = float("nan")  # against visit distributions, when there are any
    top1: float = float("nan")  # share of positions whose top policy point is the target's


def match_positions(results: list[dict], every: int = 3, size: int = 15, rule: Rule = Rule.RENJU,
                    stones: tuple[int, int] = (0, 10**9),
                    opening_stones: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Planes [N, C, n, n] and results z [N] (+1 the side to move won) of every `every`-th position
    of the decided games, the final position excluded; only positions with `stones` (lo, hi)
    stones, and only games whose opening had `opening_stones` stones when given."""
    planes, z = [], []
    for game in results:
        if game.get("winner") not in ("black", "white"):
            continue
        if opening_stones is not None and len(game["opening"]) != opening_stones:
            continue
        winner = Color.BLACK if game["winner"] == "black" else Color.WHITE
        moves = [tuple(m[:2]) for m in game["opening"]] + [tuple(m[:2]) for m in game["moves"]]
        board = Board(size, rule)
        for i, (x, y) in enumerate(moves[:-1]):
            board.play(x, y)
            if (i + 1) % every == 0 and not board.game_over and stones[0] <= board.stone_count <= stones[1]:
                planes.append(board.planes(np.zeros((FEATURE_PLANES, size, size), np.float32)))
                z.append(1.0 if board.to_move == winner else -1.0)
    if not planes:
        return np.zeros((0, FEATURE_PLANES, size, size), np.float32), np.zeros(0, np.float32)
    return np.stack(planes), np.array(z, dtype=np.float32)


def buffer_positions(path: str | Path, min_generation: int = -(10**9)) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Planes, decided value targets and policy targets of the held-out games of a run's buffer
    from `min_generation` on (samples with a policy target and a non-zero result only)."""
    buf = ReplayBuffer.load(Path(path), capacity_games=10**9)
    games = [a for i, (g, a) in enumerate(buf.games) if is_held_out(i) and g >= min_generation]
    if not games:
        raise ValueError(f"{path} holds no held-out game from generation {min_generation} on")
    data = {k: np.concatenate([a[k] for a in games]) for k in ("planes", "policy", "value", "has_policy")}
    keep = data["has_policy"] & (data["value"] != 0)
    return (data["planes"][keep].astype(np.float32), data["value"][keep].astype(np.float32),
            data["policy"][keep].astype(np.float32))


def check(model: str | Path, planes: np.ndarray, z: np.ndarray, policy: np.ndarray | None = None,
          batch: int = 256) -> ValueCheck:
    """Score one ONNX net on the positions (and on their policy targets, when given)."""
    from engine.net.onnx_eval import plain_session

    run = plain_session(model)
    outs = [run(planes[i:i + batch]) for i in range(0, len(planes), batch)]
    values = np.concatenate([v.reshape(-1) for _, v in outs])
    result = ValueCheck(len(z), float(np.mean(np.sign(values) == z)), float(np.mean((values - z) ** 2)),
                        float(values.mean()), float(np.abs(values).mean()))
    if policy is not None:
        logits = np.concatenate([p.reshape(len(p), -1) for p, _ in outs]).astype(np.float64)
        logits -= logits.max(1, keepdims=True)
        logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
        result.policy_loss = float(-(policy * logp).sum(1).mean())
        result.top1 = float(np.mean(logits.argmax(1) == policy.argmax(1)))
    return result


@dataclass
class SymmetryCheck:
    top1: float  # share of (position, symmetry) pairs whose top move is the identity's
    value_std: float  # mean over positions of the standard deviation of the 8 values
    mean_of_8: ValueCheck  # the mean of the 8 values, scored against the results


def symmetry_check(model: str | Path, planes: np.ndarray, z: np.ndarray, batch: int = 32) -> SymmetryCheck:
    """The net on every position in each of the board's 8 symmetries (policies turned back)."""
    from engine.board.symmetry import outputs_in_each
    from engine.net.onnx_eval import plain_session

    run = plain_session(model)
    values = np.zeros((len(planes), 8))
    tops = np.zeros((len(planes), 8), dtype=np.int64)
    for s, logits, v in outputs_in_each(run, planes, batch):
        values[:, s], tops[:, s] = v, logits.argmax(1)
    mean = values.mean(1)
    return SymmetryCheck(float(np.mean(tops == tops[:, :1])), float(values.std(1).mean()),
                         ValueCheck(len(planes), float(np.mean(np.sign(mean) == z)), float(np.mean((mean - z) ** 2)),
                                    float(mean.mean()), float(np.abs(mean).mean())))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.measure.valuecheck", description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="a match's results.json")
    ap.add_argument("models", nargs="+")
    ap.add_argument("--every", type=int, default=3, help="keep every N-th position (default 3)")
    ap.add_argument("--rule", default="renju")
    ap.add_argument("--min-generation", type=int, default=-(10**9), help="with a buffer: first generation scored")
    ap.add_argument("--stones", default="0-1000000000", help="with a match: positions with LO-HI stones only")
    ap.add_argument("--opening-stones", type=int, help="with a match: games whose opening had N stones only")
    ap.add_argument("--symmetries", action="store_true", help="also each net in the board's 8 symmetries")
    args = ap.parse_args(argv)
    try:
        lo, hi = (int(v) for v in args.stones.split("-"))
    except ValueError:
        print(f"--stones wants LO-HI, not {args.stones!r}", file=sys.stderr)
        return 2
    missing = [m for m in [args.results, *args.models] if not Path(m).is_file()]
    if missing:
        print(f"not found: {', '.join(missing)}", file=sys.stderr)
        return 2
    policy = None
    if args.results.endswith(".npz"):
        planes, z, policy = buffer_positions(args.results, args.min_generation)
        print(f"{len(z)} positions of held-out self-play games from generation {args.min_generation}")
    else:
        results = json.loads(Path(args.results).read_text())
        planes, z = match_positions(results, args.every, rule=Rule.parse(args.rule), stones=(lo, hi),
                                    opening_stones=args.opening_stones)
        print(f"{len(z)} positions of {sum(g.get('winner') in ('black', 'white') for g in results)} decided games")
        if not len(z):
            print("no position passes the filters", file=sys.stderr)
            return 2
    extra = f" {'policy':>6} {'top1':>6}" if policy is not None else ""
    print(f"{'model':50} {'agree':>6} {'mse':>6} {'mean':>6} {'|v|':>6}{extra}")
    for model in args.models:
        r = check(model, planes, z, policy)
        print(f"{model:50} {r.agreement:6.3f} {r.mse:6.3f} {r.mean:+6.3f} {r.decisive:6.3f}"
              + (f" {r.policy_loss:6.3f} {r.top1:6.3f}" if policy is not None else ""))
        if args.symmetries:
            sc = symmetry_check(model, planes, z)
            m = sc.mean_of_8
            print(f"{'  mean of the 8 symmetries':50} {m.agreement:6.3f} {m.mse:6.3f} {m.mean:+6.3f} {m.decisive:6.3f}"
                  f"   top move as the identity's {sc.top1:.3f}, value spread (std) {sc.value_std:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
