"""Training samples from match games (`python -m engine.match ... --out DIR`, DIR/results.json):
games at full time per move against a baseline, which reach the build-ups that self-play from
random starts rarely does (docs/strength.md). Every position before a move gets the game's
result as its value target; the winner's moves are the policy targets (the loser's positions get
an all-zero policy: no policy loss, full value weight — unlike the value-only settled samples,
which `settled_weight` discounts). Games that recur move for move (the standard openings of
every seed) are kept once.

    python -m engine.train.matchdata --init runs/v1.pt --out runs/m1 --matches A/results.json ...
        [--also runs/q2] [--steps 300] [--lr 5e-4] [--policy-from NET.onnx] [--train-only PREFIX]

fine-tunes the net in `--init` (a torch checkpoint: `engine.train.unfold` or `refit` writes them)
with each batch half from the match games and half from the older games of the init's source run
and of the `--also` runs, then exports DIR/model.onnx with its sidecar. `--policy-from` replaces
the match positions' policy targets with a net's own policy (so that only the value learns from
them); `--train-only value_fc` updates the value head alone. What these nets measured:
docs/training.md, "Fine-tuning on match games".
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

import numpy as np
import torch

from engine.board import FEATURE_PLANES, Board, Color, Rule
from engine.records.results import game_moves
from engine.train.buffer import ReplayBuffer
from engine.train.selfplay import one_hot

log = logging.getLogger("pbrain.train")


def distinct_games(results: list[dict]) -> list[dict]:
    """The games once each (the first of those with the same stones in the same order)."""
    seen, out = set(), []
    for game in results:
        key = tuple(game_moves(game))
        if key not in seen:
            seen.add(key)
            out.append(game)
    return out


def game_arrays(game: dict, size: int = 15, rule: Rule | str = Rule.RENJU) -> dict[str, np.ndarray]:
    """Samples of one game's positions after its opening, up to its last move: planes (uint8),
    policy (the move played when its mover won the game, else zeros), value (+1 when the side to
    move won, -1 when it lost, 0 for a draw) and has_policy (True: full weight in the value loss)."""
    winner = {"black": Color.BLACK, "white": Color.WHITE}.get(game.get("winner"))
    moves = game_moves(game)
    board = Board(size, rule)
    for x, y in moves[:len(game["opening"])]:
        board.play(x, y)
    buf = np.zeros((FEATURE_PLANES, size, size), np.float32)
    planes, policies, values = [], [], []
    for x, y in moves[len(game["opening"]):]:
        if board.game_over:
            break
        mover = board.to_move
        board.planes(buf)
        planes.append(buf.astype(np.uint8))
        policies.append(one_hot((x, y), size) if mover == winner else np.zeros(size * size, np.float32))
        values.append(0.0 if winner is None else 1.0 if mover == winner else -1.0)
        board.play(x, y)
    n = len(values)
    return {"planes": np.stack(planes) if n else np.zeros((0, FEATURE_PLANES, size, size), np.uint8),
            "policy": np.stack(policies) if n else np.zeros((0, size * size), np.float32),
            "value": np.array(values, dtype=np.float32), "has_policy": np.ones(n, dtype=bool)}


def freeze_except(net: torch.nn.Module, prefix: str) -> None:
    """Only the parameters named `prefix`... learn; BatchNorms stop tracking statistics (momentum 0),
    so the frozen part's eval-mode outputs do not move."""
    if not any(name.startswith(prefix) for name, _ in net.named_parameters()):
        raise ValueError(f"no parameter of the net is named {prefix}...")
    for name, p in net.named_parameters():
        p.requires_grad_(name.startswith(prefix))
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.momentum = 0.0


def net_policy(ev, planes: np.ndarray) -> np.ndarray:
    """A net's policy (an ONNXEvaluator's softmax over every point, as the training loss sees it)
    at each position."""
    logits = np.concatenate([ev.evaluate_planes(planes[i:i + 256].astype(np.float32))[0]
                             for i in range(0, len(planes), 256)])
    e = np.exp(logits - logits.max(1, keepdims=True))
    return (e / e.sum(1, keepdims=True)).astype(np.float32)


def load_results(paths: list[str]) -> list[dict]:
    return [g for p in paths for g in json.loads(Path(p).read_text())]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.matchdata", description=__doc__.split("\n\n")[0])
    ap.add_argument("--init", required=True, help="torch weights to start from (unfold/refit output)")
    ap.add_argument("--out", required=True, help="the run folder to write")
    ap.add_argument("--matches", nargs="+", required=True, help="match results.json files")
    ap.add_argument("--also", action="append", default=[], metavar="RUN", help="another run's games as older data")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--kl-target", type=float, default=0.02)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy-from", default="", metavar="MODEL.onnx",
                    help="policy targets of every match position from this net's policy instead of the winner's "
                         "moves (the init's own net: the value learns from the matches, the policy stays put)")
    ap.add_argument("--train-only", default="", metavar="PREFIX",
                    help="update only the parameters whose names start with PREFIX (value_fc: the value head), "
                         "BatchNorm statistics kept, so the rest of the net answers exactly as before")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    from engine.net.onnx_eval import ONNXEvaluator
    from engine.train.config import RunConfig
    from engine.train.model import PolicyValueNet
    from engine.train.run import Run

    cfg = RunConfig(run=args.out, init=args.init, iterations=0, seed=args.seed)
    cfg.learn.steps, cfg.learn.lr, cfg.learn.kl_target = args.steps, args.lr, args.kl_target
    cfg.learn.buffer_games = 10**6
    if Path(args.out, "state.json").exists():
        raise SystemExit(f"{args.out} already holds a run")
    if args.train_only:  # checked before the run folder is made
        freeze_except(PolicyValueNet(cfg.net), args.train_only)
    teacher = ONNXEvaluator(args.policy_from) if args.policy_from else None
    run = Run(cfg)  # the init's weights, its source run's games as older generations
    for extra in args.also:
        for gen, arrays in ReplayBuffer.load(Path(extra) / "buffer.npz", 10**9).games:
            run.buffer.add(min(gen, 0) - 10**6, arrays)  # always older than the match games
    games = distinct_games(load_results(args.matches))
    positions = 0
    for game in games:
        arrays = game_arrays(game, cfg.play.size, cfg.play.rule)
        if len(arrays["value"]):
            if args.policy_from:
                arrays["policy"] = net_policy(teacher, arrays["planes"])
            run.buffer.add(1, arrays)
            positions += len(arrays["value"])
    log.info("%d distinct match games (%d positions); %d games buffered in all", len(games), positions,
             len(run.buffer.games))
    if args.train_only:
        freeze_except(run.net, args.train_only)
    stats = run.train(np.random.default_rng(args.seed))
    run.state.update(iteration=1, match_finetune={"matches": args.matches, "also": args.also, "games": len(games),
                                                  "positions": positions, "steps": args.steps, "lr": args.lr,
                                                  "train_only": args.train_only, "policy_from": args.policy_from,
                                                  **stats})
    run.export()
    run._save()
    log.info("fine-tuned: %s", stats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
