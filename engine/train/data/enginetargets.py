"""Targets from another engine's search: a Gomocup protocol engine (the sparring engine, say)
given a fixed time at positions of match games and game records, its move as the policy target
and the evaluation it reports (PentaZen's `MESSAGE ... ev SCORE`, `ev +vN` for a win in N, `ev -vN`
for a loss; Rapfi's `Eval SCORE`, `+MN`, `-MN`) as the value target, for `engine.train.learn.distill
--search-targets`. The engine's own search teaches the net what a few hundred playouts see; an
alpha-beta engine's search teaches it the tactics ten and more plies deep that decide games against
such engines.

    python -m engine.train.data.enginetargets --engine ~/sparring/pbrain-pentazen --ms 200 \
        --matches 'matches/pz3*-v8/results.json' --records renju-2019.tar.gz --records renju-2020.tar.gz \
        --sample 4000 --stones 6-30 --out runs/pzt/targets.npz --workers 2

A score becomes a value by tanh(score / scale), the scale the one under which the scores best
predict the results of the games the positions come from (least squares over a grid; `--scale`
fixes it). A position the engine answers without searching (a single forced reply, a five) has
no value target (NaN: the distillation keeps its teacher's value there); a position whose
answer is not a legal move of ours (a foul by black) is left out.
"""
from __future__ import annotations

import argparse
import logging
import math
import multiprocessing as mp
import queue
import re
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from engine.board import FEATURE_PLANES, Board, Move, Rule
from engine.match.enginepipe import EngineProcess
from engine.match.evals import board_block, parse_message
from engine.train.data.matchdata import load_results, match_files
from engine.train.data.searchtargets import pick, record_games

log = logging.getLogger("pbrain.train")

_MOVE = re.compile(r"^(\d+),(\d+)$")
_SCALES = (25, 50, 75, 100, 150, 200, 300, 400, 600, 800, 1200, 1600, 2400)


def evaluation(lines: list[str]) -> tuple[str, float] | None:
    """The last evaluation in what an engine printed while it thought: ("win", plies), ("loss",
    plies) or ("score", score); None where there is none or the score comes from no search (one
    node: a forced reply)."""
    said = [e for e in map(parse_message, lines) if e is not None]
    if not said:
        return None
    e = said[-1]
    if e.win is not None:
        return "win", float(e.win)
    if e.loss is not None:
        return "loss", float(e.loss)
    if e.nodes is not None and e.nodes <= 1:
        return None
    return "score", float(e.score)


def value_of(ev: tuple[str, float] | None, scale: float) -> float:
    """A reported evaluation as a value for the side to move in [-1, 1] (NaN: none)."""
    if ev is None:
        return math.nan
    kind, x = ev
    if kind == "win":
        return 1.0
    if kind == "loss":
        return -1.0
    return math.tanh(x / scale)


def fit_scale(scores: np.ndarray, z: np.ndarray, scales: tuple[float, ...] = _SCALES) -> float:
    """The scale under which tanh(score / scale) is closest to the decided results z (least
    squares); the middle of the grid where no result is decided."""
    keep = np.isfinite(scores) & (z != 0)
    if not keep.any():
        return float(scales[len(scales) // 2])
    errors = [float(((np.tanh(scores[keep] / s) - z[keep]) ** 2).mean()) for s in scales]
    return float(scales[int(np.argmin(errors))])


class EngineTeacher:
    """One engine process asked for its move at one position after another (RESTART, then the
    position as a BOARD), the rule Renju on 15x15."""

    def __init__(self, command: list[str], ms: float) -> None:
        self.ms = ms
        self.proc = EngineProcess(command)
        if self.proc.ask("START 15", timeout=60) != "OK":
            raise RuntimeError(f"{command[0]} refused START 15")
        self._info()

    def _info(self) -> None:
        self.proc.send("INFO rule 4", f"INFO timeout_turn {int(self.ms)}",
                       "INFO timeout_match 1000000000", "INFO time_left 1000000000")

    def _restart(self, tries: int = 30, wait: float = 1.0) -> None:
        """RESTART, sent again while no OK comes: Rapfi drops a command that reaches it in the
        moment its search thread ends, just after it wrote its move."""
        for _ in range(tries):
            self.proc.send("RESTART")
            try:
                while self.proc.reply(timeout=wait) != "OK":
                    pass
                return
            except queue.Empty:
                continue
        raise RuntimeError(f"no OK to RESTART within {tries * wait:.0f} s")

    def ask(self, moves: tuple[Move, ...] | list[Move]) -> tuple[Move, tuple[str, float] | None]:
        """The engine's move at the position these moves reach, and its evaluation there."""
        self._restart()
        self._info()
        self.proc.send("BOARD", *board_block(list(moves)), "DONE")
        said = []
        while True:  # MESSAGE lines may come in pieces: keep every line until the move
            line = self.proc.reply(timeout=30 + self.ms / 100, skip_messages=False)
            m = _MOVE.match(line)
            if m:
                return (int(m.group(1)), int(m.group(2))), evaluation(said)
            said.append(line)

    def close(self) -> None:
        self.proc.close()


_teacher: EngineTeacher | None = None


def _init(command: list[str], ms: float) -> None:
    global _teacher
    _teacher = EngineTeacher(command, ms)


def _work(moves: tuple[Move, ...]) -> tuple[Move, tuple[str, float] | None]:
    assert _teacher is not None
    return _teacher.ask(moves)


def ask_all(positions: list[tuple[Move, ...]], command: list[str], ms: float,
            workers: int) -> list[tuple[Move, tuple[str, float] | None]]:
    """The engine's move and evaluation at each position, in order, from `workers` processes."""
    answers: list[tuple[Move, tuple[str, float] | None]] = []
    if not positions:
        return answers
    with mp.get_context("spawn").Pool(workers, initializer=_init, initargs=(command, ms)) as pool:
        for r in pool.imap(_work, positions, chunksize=4):
            answers.append(r)
            if len(answers) % 500 == 0:
                log.info("%d / %d", len(answers), len(positions))
    return answers


def build(games: list[dict], command: list[str], ms: float, stones: tuple[int, int], workers: int,
          records: list[dict] | None = None, count: int = 0, seed: int = 0,
          scale: float | None = None) -> tuple[dict[str, np.ndarray], float]:
    """The targets of the positions `searchtargets.pick` takes from the match games and the
    records, answered by the engine on `workers` processes; and the scale."""
    picked = pick(games, stones, "all", records, count, seed)
    log.info("%d positions from %d games, %.0f ms each on %d workers", len(picked),
             len({g for g, _, _ in picked}), ms, workers)
    answers = ask_all([moves for _, moves, _ in picked], command, ms, workers)
    rows, planes_of, policy_of, evals = [], [], [], []
    for (g, moves, z), (move, ev) in zip(picked, answers):
        board = Board.from_moves(list(moves), rule=Rule.RENJU)
        if not board.is_legal(*move):
            continue
        planes = np.zeros((FEATURE_PLANES, board.size, board.size), np.float32)
        board.planes(planes)
        policy = np.zeros(board.size * board.size, np.float32)
        policy[move[1] * board.size + move[0]] = 1.0
        rows.append((g, z))
        planes_of.append(planes.astype(np.uint8))
        policy_of.append(policy)
        evals.append(ev)
    if len(rows) < len(picked):
        log.warning("%d answers that are not legal moves left out", len(picked) - len(rows))
    z = np.array([z for _, z in rows], np.float32)
    if scale is None:
        scores = np.array([e[1] if e and e[0] == "score" else np.nan for e in evals], np.float64)
        scale = fit_scale(scores, z)
    return {"planes": np.stack(planes_of), "policy": np.stack(policy_of),
            "value": np.array([value_of(e, scale) for e in evals], np.float32), "z": z,
            "game": np.array([g for g, _ in rows], np.int64)}, scale


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.data.enginetargets", description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True, help="the teacher's command line (a Gomocup protocol engine)")
    ap.add_argument("--matches", action="append", default=[], help="results.json files or a glob (repeatable)")
    ap.add_argument("--records", action="append", default=[],
                    help="game records of strong engines (files, folders, archives; repeatable)")
    ap.add_argument("--sample", type=int, default=0, help="positions taken from the records (0: all)")
    ap.add_argument("--seed", type=int, default=0, help="the records' sample")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--ms", type=float, default=200.0, help="the engine's time per position (timeout_turn)")
    ap.add_argument("--stones", default="6-30", help="stone counts, inclusive (default %(default)s)")
    ap.add_argument("--scale", type=float, default=None, help="score scale (default: fitted to the results)")
    ap.add_argument("--workers", type=int, default=0, help="engine processes (0: every core)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    lo, hi = (int(s) for s in args.stones.split("-"))
    matches = match_files(args.matches or [])
    if not matches and not args.records:
        ap.error("no positions: pass --matches or --records")
    t0 = time.time()
    data, scale = build(load_results(matches), shlex.split(args.engine), args.ms, (lo, hi),
                        args.workers or mp.cpu_count(), record_games(args.records), args.sample, args.seed,
                        args.scale)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    made_by = "python -m engine.train.data.enginetargets " + " ".join(argv if argv is not None else sys.argv[1:])
    np.savez_compressed(args.out, made_by=np.array(made_by), scale=np.array(scale), **data)
    log.info("wrote %s: %d positions (%d with a value, scale %.0f) in %.0f s", args.out, len(data["value"]),
             int(np.isfinite(data["value"]).sum()), scale, time.time() - t0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
