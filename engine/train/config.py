"""Training settings as dataclasses; every field is also a command-line flag (`--games 40`,
`--no-utss`), so a run is fully described by its config.json."""
from __future__ import annotations

import argparse
import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from engine.board import FEATURE_PLANES


@dataclass
class NetConfig:
    channels: int = 32
    blocks: int = 3
    planes: int = FEATURE_PLANES  # input planes read: PLANES_OF_VERSION[v] for a net of feature version v
    threat_planes: bool = True  # False (an ablation): planes 5 on (the sets and threat points) are zeroed


@dataclass
class SelfPlayConfig:
    size: int = 15
    rule: str = "renju"
    playouts: int = 160  # per move
    temperature_moves: int = 8  # moves sampled in proportion to visits; later moves take the most visited
    dirichlet_alpha: float = 0.15
    dirichlet_eps: float = 0.25
    random_opening: int = 2  # plies played at random near the centre before the search takes over
    # Start from a set of openings instead (a shipped set's name, "renju26", or a file), each game
    # one by its seed and, with probability `opening_vary`, two more random stones next to it, as
    # a match varies them: the positions matches start from, which a random start rarely reaches.
    # "": the random start above.
    openings: str = ""
    opening_vary: float = 0.5
    utss: bool = True  # False: an ablation
    move_filter: bool = True  # False: an ablation
    bootstrap_heuristic: bool = True  # until the first net exists, self-play uses the heuristic evaluator
    resign_proven: bool = True  # a proven root ends the game with its exact result
    max_moves: int = 200


@dataclass
class LearnConfig:
    batch: int = 256
    lr: float = 2e-3
    weight_decay: float = 1e-4
    steps: int = 60  # updates per iteration
    epochs_per_batch: int = 3  # passes over one sampled batch, cut short by the KL target
    kl_target: float = 0.02
    # Cap on the KL controller's learning-rate multiplier: the controller watches only the policy,
    # so without a cap nothing bounds the rate the value head is trained at.
    lr_mult_max: float = 3.0
    buffer_games: int = 3000  # replay buffer size in games
    value_weight: float = 1.0
    # Value-loss weight of the value-only samples (root children the search proved): they are
    # mostly "the side to move has won", and at full weight they bias the value that way.
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
    # A new run may start from torch weights (python -m engine.train.model.unfold turns a shipped ONNX
    # net into them): those weights, and the buffer of the run they name as older generations.
    init: str = ""
    # Wall-clock seconds for this invocation (0: no limit), for a machine lent for a fixed time:
    # self-play stops at the budget's end less the last training's time, keeping the games
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
