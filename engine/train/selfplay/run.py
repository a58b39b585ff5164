"""The training loop over a resumable run folder:
config.json, state.json, checkpoint.pt, buffer.npz, log.jsonl, model.onnx (+ model.json)."""
from __future__ import annotations

import contextlib
import dataclasses
import datetime
import json
import logging
import multiprocessing as mp
import os
import shutil
import time
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from engine.train.config import RunConfig
from engine.train.learn.learner import Learner
from engine.train.measure.evaluate import eval_game
from engine.train.model.network import PolicyValueNet, export_onnx, feature_version, write_sidecar
from engine.train.selfplay.buffer import ReplayBuffer
from engine.train.selfplay.inference import serve
from engine.train.selfplay.play import init_remote_worker, init_worker, worker_game

log = logging.getLogger("pbrain.train")

# Under a time budget, another iteration starts only if its self-play has room for this share of a
# full iteration's games at the last iteration's pace (a fraction of a generation trains little).
MIN_ITERATION_SHARE = 0.25


class Run:
    def __init__(self, cfg: RunConfig) -> None:
        self.cfg = cfg
        self.dir = Path(cfg.run)
        self.dir.mkdir(parents=True, exist_ok=True)
        torch.manual_seed(cfg.seed)
        self.net = PolicyValueNet(cfg.net)
        self.device = "cuda" if torch.cuda.is_available() else "cpu"  # the learner's; self-play is on CPU workers
        self.learner = Learner(self.net, cfg.learn, self.device)
        self.buffer = ReplayBuffer(cfg.learn.buffer_games)
        self.state = {"iteration": 0, "games": 0, "steps": 0, "positions": 0, "trained": False}
        if (self.dir / "state.json").exists():
            self._resume()
        else:
            (self.dir / "config.json").write_text(cfg.to_json() + "\n")
            if cfg.init:
                self._init_from(Path(cfg.init))

    @property
    def model_path(self) -> Path:
        return self.dir / "model.onnx"

    def _resume(self) -> None:
        self.state = json.loads((self.dir / "state.json").read_text())
        ckpt = torch.load(self.dir / "checkpoint.pt", weights_only=False, map_location=self.device)
        self.net.load_state_dict(ckpt["net"])
        self.learner.opt.load_state_dict(ckpt["opt"])
        self.learner.lr_mult = ckpt["lr_mult"]
        if (self.dir / "buffer.npz").exists():
            self.buffer = ReplayBuffer.load(self.dir / "buffer.npz", self.cfg.learn.buffer_games)
        log.info("resumed %s at iteration %d", self.dir, self.state["iteration"])

    def _init_from(self, path: Path) -> None:
        """Start from torch weights (engine.train.model.unfold writes them): the weights, and the buffer
        of the run they name as older generations (renumbered below 0, so this run's own games are
        always the newest)."""
        ckpt = torch.load(path, weights_only=False, map_location=self.device)
        if ckpt["net_cfg"] != dataclasses.asdict(self.cfg.net):
            raise ValueError(f"{path} holds a {ckpt['net_cfg']} net, the run is configured for {self.cfg.net}")
        self.net.load_state_dict(ckpt["net"])
        source = ckpt["source_run"] and Path(ckpt["source_run"]) / "buffer.npz"  # None: calibrated on match games
        if source and source.exists():
            old = ReplayBuffer.load(source, self.cfg.learn.buffer_games)  # only its games are used
            top = old.newest + 1
            for gen, arrays in old.games:
                self.buffer.add(gen - top, arrays)
        self.state.update(trained=True, init=str(path))
        self.export()
        self._save()
        log.info("started %s from %s (%d buffered games)", self.dir, path, len(self.buffer.games))

    def _save(self) -> None:
        torch.save({"net": self.net.state_dict(), "opt": self.learner.opt.state_dict(),
                    "lr_mult": self.learner.lr_mult}, self.dir / "checkpoint.pt")
        self.buffer.save(self.dir / "buffer.npz")
        (self.dir / "state.json").write_text(json.dumps(self.state, indent=2) + "\n")

    def _workers(self) -> int:
        return self.cfg.workers or os.cpu_count() or 1

    def _pool(self, model: str | None):
        return mp.get_context("spawn").Pool(self._workers(), initializer=init_worker, initargs=(model,))

    def _use_server(self) -> bool:
        mode = self.cfg.inference
        if mode not in ("auto", "local", "server"):
            raise ValueError(f"inference must be auto, local or server, not {mode!r}")
        return mode == "server" or (mode == "auto" and self.device == "cuda")

    @contextlib.contextmanager
    def _server_pool(self):
        """Workers feeding one inference server process (torch, on the learner's device)."""
        ctx = mp.get_context("spawn")
        n = self._workers()
        requests, responses, ids = ctx.Queue(), [ctx.Queue() for _ in range(n)], ctx.Queue()
        for i in range(n):
            ids.put(i)
        stop = ctx.Event()
        weights = {k: v.detach().cpu() for k, v in self.net.state_dict().items()}
        server = ctx.Process(target=serve, args=(weights, self.cfg.net, self.device, requests, responses, stop),
                             daemon=True)
        server.start()
        try:
            with ctx.Pool(n, initializer=init_remote_worker, initargs=(ids, requests, responses)) as pool:
                yield pool
        finally:
            stop.set()
            server.join(10)

    def selfplay(self, it: int, deadline: float | None = None) -> dict:
        """One iteration's games. With a `deadline` (time.time()), the games that have finished by
        then are kept (at least one) and the rest are abandoned: a lent machine is held for a fixed
        time, and a cut generation trains on proportionally fewer updates (loop)."""
        cfg = self.cfg
        model = str(self.model_path) if self.state["trained"] else None
        if model is None and not cfg.play.bootstrap_heuristic:
            model = str(self.model_path)
            self.export()  # the untrained net plays the first games
        seeds = [(cfg.play, cfg.seed * 1_000_003 + it * 10_007 + g) for g in range(cfg.games)]
        lengths, branching, proven, wins = [], [], 0, {0: 0, 1: 0, 2: 0}
        positions, done = 0, 0
        pool_cm = self._server_pool() if model is not None and self._use_server() else self._pool(model)
        with pool_cm as pool:
            for rec in tqdm(pool.imap_unordered(worker_game, seeds), total=len(seeds),
                            desc=f"self-play {it}", leave=False, disable=None):
                arrays = rec.arrays()
                if len(arrays["value"]):
                    self.buffer.add(it, arrays)
                    positions += len(arrays["value"])
                lengths.append(len(rec.moves))
                branching.extend(rec.branching)
                proven += rec.proven_end
                wins[rec.winner] += 1
                done += 1
                if deadline is not None and time.time() >= deadline and done < len(seeds):
                    log.info("self-play %d: %d of %d games by the budget's end; the rest abandoned", it, done,
                             len(seeds))
                    break  # leaving the pool's block terminates the workers and their unfinished games
        self.state["games"] += done
        self.state["positions"] += positions
        return {"games": done, "planned": len(seeds), "positions": positions, "lengths": lengths,
                "mean_length": float(np.mean(lengths)), "branching": float(np.mean(branching)) if branching else 0.0,
                "branching_hist": np.bincount(np.minimum(branching, 225), minlength=226).tolist(),
                "proven_end": proven, "black_wins": wins[1], "white_wins": wins[2], "draws": wins[0],
                "evaluator": "heuristic" if model is None else "net-server" if self._use_server() else "net"}

    def train(self, rng: np.random.Generator, steps: int | None = None) -> dict:
        steps = self.cfg.learn.steps if steps is None else steps
        stats = [self.learner.step(self.buffer.sample(self.cfg.learn.batch, rng), rng)
                 for _ in tqdm(range(steps), desc="train", leave=False, disable=None)]
        self.state["steps"] += len(stats)
        self.state["trained"] = True
        mean = lambda f: float(np.mean([getattr(s, f) for s in stats]))  # noqa: E731
        return {k: mean(k) for k in ("loss", "policy_loss", "value_loss", "entropy", "kl", "lr", "epochs")}

    def export(self) -> None:
        meta = {"channels": self.cfg.net.channels, "blocks": self.cfg.net.blocks,
                "threat_planes": int(self.cfg.net.threat_planes), "iteration": self.state["iteration"]}
        export_onnx(self.net, self.model_path, self.cfg.play.size, meta)
        write_sidecar(self.model_path, self.sidecar())
        history = self.dir / "models"  # every iteration's net, for rating over training afterwards
        history.mkdir(exist_ok=True)
        shutil.copyfile(self.model_path, history / f"iter{self.state['iteration']:04d}.onnx")

    def sidecar(self) -> dict:
        return {"made_by": "python -m engine.train", "date": datetime.date.today().isoformat(),
                "feature_version": feature_version(self.cfg.net), "iterations": self.state["iteration"],
                "selfplay_games": self.state["games"], "positions": self.state["positions"],
                "training_steps": self.state["steps"], "config": json.loads(self.cfg.to_json())}

    def evaluate(self, opponent: str) -> float:
        args = [(str(self.model_path), opponent, i, self.cfg.eval_ms) for i in range(self.cfg.eval_games)]
        with mp.get_context("spawn").Pool(self._workers()) as pool:
            points = list(pool.imap_unordered(eval_game, args))
        return float(np.mean(points))

    def loop(self) -> None:
        rng = np.random.default_rng(self.cfg.seed + self.state["iteration"])
        budget = self.cfg.budget_s
        # The budget's end less what training and export took last time (before any: a guess) is
        # when self-play stops; full_selfplay is a whole iteration's self-play at the last pace.
        started, tail, full_selfplay = time.time(), min(60.0, 0.1 * budget), 0.0
        while self.state["iteration"] < self.cfg.iterations:
            deadline = None
            if budget:
                left = budget - (time.time() - started) - tail
                if full_selfplay and left < MIN_ITERATION_SHARE * full_selfplay:
                    log.info("stopping: %.0f s of the %.0f s budget left for self-play, a full iteration's "
                             "takes %.0f s", max(left, 0.0), budget, full_selfplay)
                    break
                deadline = time.time() + max(left, 0.0)  # the first iteration plays at least one game
            it = self.state["iteration"]
            t0 = time.time()
            entry = {"iteration": it, "selfplay": self.selfplay(it, deadline)}
            t1 = time.time()
            done = entry["selfplay"]["games"]
            full_selfplay = (t1 - t0) * self.cfg.games / max(done, 1)
            entry["train"] = self.train(rng, max(1, round(self.cfg.learn.steps * done / self.cfg.games)))
            self.state["iteration"] = it + 1
            self.export()
            if self.cfg.eval_every and (it + 1) % self.cfg.eval_every == 0:
                entry["eval"] = {opp: self.evaluate(opp) for opp in ("greedy", "alphabeta")}
            entry.update(seconds_selfplay=t1 - t0, seconds_total=time.time() - t0, total_games=self.state["games"],
                         total_steps=self.state["steps"])
            with open(self.dir / "log.jsonl", "a") as f:
                f.write(json.dumps(entry) + "\n")
            self._save()
            tail = time.time() - t1
            sp, tr = entry["selfplay"], entry["train"]
            cut = f" of {sp['planned']}" if sp["games"] < sp["planned"] else ""
            log.info("iteration %d: %d%s games (mean length %.1f, branching %.1f) loss %.3f (policy %.3f value %.3f) "
                     "kl %.4f lr %.2g%s", it, sp["games"], cut, sp["mean_length"], sp["branching"], tr["loss"],
                     tr["policy_loss"], tr["value_loss"], tr["kl"], tr["lr"],
                     f" eval {entry['eval']}" if "eval" in entry else "")
