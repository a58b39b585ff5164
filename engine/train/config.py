"""Training settings as dataclasses; every field is also a command-line flag (`--games 40`,
`--no-utss`), so a run is fully described by its config.json."""
from __future__ import annotations

import argparse
import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class NetConfig:
    channels: int = 32
    blocks: int = 3
    threat_planes: bool = True  # False: planes 5-7 (attack, defence, live-two points) are zeroed


@dataclass
class SelfPlayConfig:
    size: int = 15
    rule: str = "renju"
    playouts: int = 160  # per move
    temperature_moves: int = 8  # moves sampled in proportion to visits; later moves take the most visited
    dirichlet_alpha: float = 0.15
    dirichlet_eps: float = 0.25
    random_opening: int = 2  # plies played at random near the centre before the search takes over
    # Start from a set of openings instead (a shipped set's name, "renju26", or a file): the
    # positions a match or tournament starts from. Each game takes one by its seed, and with
    # probability `opening_vary` two more random stones next to it (as a match varies openings
    # it has used up). The match's varied openings are where the net's early values go most
    # wrong (docs/training.md). "": the random start above.
    openings: str = ""
    opening_vary: float = 0.5
    # Value targets as (1 - q_weight) * result + q_weight * the root's searched value, for the
    # positions the search played (proven values stay exact): the result of a game decided
    # many moves later says little about an opening position, the search's value is less noisy.
    q_weight: float = 0.0
    utss: bool = True
    move_filter: bool = True
    bootstrap_heuristic: bool = True  # until the first net exists, self-play uses the heuristic evaluator
    resign_proven: bool = True  # a proven root ends the game with its exact result
    max_moves: int = 200
    # Games against a tactical baseline among each iteration's games: our moves get the search's
    # visits as targets, the opponent's its move; every position the result. Self-play alone
    # rarely reaches the quiet build-ups a tactical engine wins with (docs/training.md).
    opponent: str = ""  # a baseline by name ("alphabeta"), or "" for self-play only
    opponent_share: float = 0.0  # of each iteration's games
    opponent_ms: int = 100  # the opponent's time a move


@dataclass
class LearnConfig:
    batch: int = 256
    lr: float = 2e-3
    weight_decay: float = 1e-4
    steps: int = 60  # updates per iteration
    epochs_per_batch: int = 3  # passes over one sampled batch, cut short by the KL target
    kl_target: float = 0.02
    # Cap on the KL controller's learning-rate multiplier (10 in runs r1/r2, which ran at 7-11x the
    # base throughout). The controller watches only the policy; the cap bounds what the value head
    # gets. (It is not what made the value swing between iterations: docs/training.md, run r3.)
    lr_mult_max: float = 3.0
    # Exponential moving average of the weights, updated after every step: what self-play uses and
    # what is exported (0: the raw weights). Runs r3/r4 showed the raw net's mean value on its own
    # kind of position swinging by up to 0.4 from one iteration to the next (docs/training.md, r5).
    ema_decay: float = 0.0
    buffer_games: int = 3000  # replay buffer size in games
    # Generations whose games make the "newest" half of each batch (1: one iteration's ~3,800
    # positions, passed over ~2.7 times by 80 updates). 4 did not steady the value (run r4).
    recent_generations: int = 1
    value_weight: float = 1.0
    # Value-loss weight of the value-only samples (root children the search proved). They are
    # mostly "the side to move has won", and at full weight they biased the value towards the
    # side to move by about +0.15 (same buffer, refit with 1 vs 0: docs/training.md).
    settled_weight: float = 0.25


@dataclass
class RunConfig:
    run: str = "runs/latest"
    iterations: int = 10
    games: int = 40  # self-play games per iteration
    workers: int = 0  # 0: every core
    # Self-play inference: "local" (an onnxruntime session per worker), "server" (one torch
    # process batching every worker's positions), "auto" (the server when CUDA is available).
    inference: str = "auto"
    seed: int = 1
    eval_every: int = 0  # iterations between evaluation matches (0: none)
    eval_games: int = 20
    eval_ms: int = 100
    # A new run may start from a refit net (python -m engine.train.refit writes NAME.pt beside its
    # ONNX): its weights, and the buffer of the run it was fitted to as older generations.
    init: str = ""
    # Wall-clock seconds for this invocation (0: no limit; a lent GPU machine is held for a fixed
    # time): self-play stops at the budget's end less the last training's time, keeping the games
    # finished by then and training on proportionally fewer updates; no iteration starts with room
    # for less than a quarter of its games (run.py).
    budget_s: float = 0.0
    net: NetConfig = field(default_factory=NetConfig)
    play: SelfPlayConfig = field(default_factory=SelfPlayConfig)
    learn: LearnConfig = field(default_factory=LearnConfig)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=2)

    @classmethod
    def from_dict(cls, d: dict) -> RunConfig:
        subs = {"net": NetConfig, "play": SelfPlayConfig, "learn": LearnConfig}
        kw = {k: (subs[k](**v) if k in subs else v) for k, v in d.items()}
        return cls(**kw)

    @classmethod
    def load(cls, path: Path) -> RunConfig:
        return cls.from_dict(json.loads(Path(path).read_text()))


def _flags(obj, prefix: str = ""):
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value):
            yield from _flags(value, "")
        else:
            yield f.name, value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One flag per leaf field (names are unique across the sub-configs)."""
    for name, value in _flags(RunConfig()):
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            parser.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction, default=None)
        else:
            parser.add_argument(flag, dest=name, type=type(value), default=None)


def apply_overrides(cfg: RunConfig, args: argparse.Namespace) -> RunConfig:
    def walk(obj):
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            if dataclasses.is_dataclass(value):
                walk(value)
            elif getattr(args, f.name, None) is not None:
                setattr(obj, f.name, getattr(args, f.name))
    walk(cfg)
    return cfg
