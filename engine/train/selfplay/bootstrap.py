"""A bootstrap for self-play: games of the alphabeta baseline against itself (varied by random
openings and a few random early moves) give the first policy targets (the teacher's move) and
value targets (the result; its proven VCF wins exactly), so that self-play starts from a net that
already plays like the teacher. Self-play then takes over from it (v1's first two steps):

    python -m engine.train.selfplay.bootstrap --run runs/r2 --teacher-games 400 --ms 60 --bootstrap-steps 300 \
        --kl-target 0.1 --seed 5
    python -m engine.train --run runs/r2 --iterations 12 --games 96 --steps 80 --kl-target 0.02

A bootstrap's buffer also calibrates `engine.train.model.unfold` and anchors `engine.train.learn.distill`.
"""
from __future__ import annotations

import argparse
import logging
import multiprocessing as mp
import sys
import time

import numpy as np
from tqdm import tqdm

from engine.board import FEATURE_PLANES, Board, Color, Result
from engine.players import Limits
from engine.train.config import RunConfig, SelfPlayConfig, add_arguments, apply_overrides
from engine.train.selfplay.play import GameRecord, _add, _opening

log = logging.getLogger("pbrain.train")
EXPLORE = 0.15  # chance of a random nearby move instead of the teacher's, in the early game
EXPLORE_UNTIL = 16  # stones


def one_hot(move: tuple[int, int], n: int) -> np.ndarray:
    """A policy target putting all its mass on the teacher's move."""
    target = np.zeros(n * n, dtype=np.float32)
    target[move[1] * n + move[0]] = 1.0
    return target


def teacher_game(args: tuple[SelfPlayConfig, int, int]) -> GameRecord:
    from engine.players.baselines import AlphaBetaPlayer

    cfg, seed, ms = args
    rng = np.random.default_rng(seed)
    board = Board(cfg.size, cfg.rule)
    _opening(board, cfg.random_opening + int(rng.integers(0, 3)), rng)
    teacher = AlphaBetaPlayer()
    rec = GameRecord(moves=list(board.moves))
    n = cfg.size
    buf = np.zeros((FEATURE_PLANES, n, n), dtype=np.float32)
    while not board.game_over and board.stone_count < min(cfg.max_moves, n * n):
        mover = board.to_move
        if not board.legal_moves():
            break
        (move, score), *_ = teacher.ranked(board, Limits(deadline=time.monotonic() + ms / 1000, optimum=ms / 1000))
        _add(rec, board, buf, one_hot(move, n), mover, 1.0 if score >= 1e9 else float("nan"))  # a VCF: won exactly
        rec.branching.append(len(board.candidate_moves()))
        if board.stone_count < EXPLORE_UNTIL and score < 1e9 and rng.random() < EXPLORE:
            near = board.candidate_moves(2)
            if near:
                move = near[int(rng.integers(len(near)))]
        board.play(*move)
        rec.moves.append(move)
    if board.result in (Result.BLACK_WINS, Result.WHITE_WINS):
        rec.winner = int(Color.BLACK if board.result == Result.BLACK_WINS else Color.WHITE)
    return rec


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.selfplay.bootstrap", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(ap)
    ap.add_argument("--teacher-games", type=int, default=400)
    ap.add_argument("--ms", type=int, default=60, help="the teacher's time a move")
    ap.add_argument("--bootstrap-steps", type=int, default=300)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(message)s")
    from engine.train.selfplay.run import Run

    cfg = apply_overrides(RunConfig(), args)
    run = Run(cfg)
    if run.state["trained"]:
        log.info("%s already holds a trained net; nothing to bootstrap", run.dir)
        return 0
    t0 = time.time()
    jobs = [(cfg.play, cfg.seed * 7_919 + g, args.ms) for g in range(args.teacher_games)]
    lengths, positions = [], 0
    with mp.get_context("spawn").Pool(run._workers()) as pool:
        for rec in tqdm(pool.imap_unordered(teacher_game, jobs), total=len(jobs), desc="teacher games", disable=None):
            arrays = rec.arrays()
            if len(arrays["value"]):
                run.buffer.add(-1, arrays)
                positions += len(arrays["value"])
            lengths.append(len(rec.moves))
    log.info("%d teacher games, %d positions, mean length %.1f, %.0f s", len(jobs), positions,
             float(np.mean(lengths)), time.time() - t0)
    rng = np.random.default_rng(cfg.seed)
    steps = cfg.learn.steps
    cfg.learn.steps = args.bootstrap_steps
    stats = run.train(rng)
    cfg.learn.steps = steps
    run.state.update(bootstrap={"teacher": "alphabeta", "ms": args.ms, "games": len(jobs), "positions": positions,
                                "steps": args.bootstrap_steps, "seconds": round(time.time() - t0), **stats})
    run.export()
    run._save()
    log.info("bootstrap net: %s", stats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
