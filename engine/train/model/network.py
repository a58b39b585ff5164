"""The policy-value network (a small fully convolutional ResNet, so one net plays any board size)
and its ONNX export, checked against torch before it is kept."""
from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

from engine.board import PLANES_OF_VERSION
from engine.net.onnx_eval import META_FEATURE_VERSION
from engine.train.config import NetConfig

FIRST_THREAT_PLANE = 4  # the attack set; every plane after it is a threat plane too (renju.h's layout)


class Block(nn.Module):
    def __init__(self, c: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(h)))


class PolicyValueNet(nn.Module):
    """planes [B, P, n, n] -> (policy logits [B, n*n], value [B] in -1..1 for the side to move); the
    net reads the first cfg.planes of them (a net of an older feature version takes today's planes)."""

    def __init__(self, cfg: NetConfig) -> None:
        super().__init__()
        self.cfg = cfg
        if cfg.planes not in PLANES_OF_VERSION.values():
            raise ValueError(f"{cfg.planes} input planes is no feature version's layout")
        mask = torch.ones(1, cfg.planes, 1, 1)
        if not cfg.threat_planes:  # the ablation: the net never sees the threat planes
            mask[0, FIRST_THREAT_PLANE:] = 0.0
        self.register_buffer("plane_mask", mask)
        c = cfg.channels
        self.stem = nn.Sequential(nn.Conv2d(cfg.planes, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.blocks = nn.Sequential(*[Block(c) for _ in range(cfg.blocks)])
        self.policy = nn.Conv2d(c, 1, 1)
        self.value_fc = nn.Sequential(nn.Linear(2 * c, 32), nn.ReLU(), nn.Linear(32, 1), nn.Tanh())

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.blocks(self.stem(x[:, :self.cfg.planes] * self.plane_mask))
        policy = self.policy(h).flatten(1)
        pooled = torch.cat([h.mean((2, 3)), h.amax((2, 3))], 1)  # mean and max: "is there a threat anywhere"
        return policy, self.value_fc(pooled).squeeze(1)


def load_weights(path: str | Path) -> PolicyValueNet:
    """A net from torch weights as engine.train writes them (model.pt, unfold's .pt): its shape and
    state dict."""
    state = torch.load(path, map_location="cpu", weights_only=False)
    # weights written before the field existed: the stem says how many planes the net reads
    cfg = {"planes": state["net"]["stem.0.weight"].shape[1], **state["net_cfg"]}
    net = PolicyValueNet(NetConfig(**cfg))
    net.load_state_dict(state["net"])
    return net


def feature_version(cfg: NetConfig) -> int:
    """The input-plane layout a net of this shape reads (what its export says in its metadata)."""
    return next(v for v, count in PLANES_OF_VERSION.items() if count == cfg.planes)


def widen_input(net: PolicyValueNet, planes: int) -> PolicyValueNet:
    """The net reading `planes` input planes instead of its own (fewer): the new planes' stem
    weights are zero, so the wider net gives exactly the old one's outputs and training starts
    from them."""
    if planes == net.cfg.planes:
        return net
    if planes < net.cfg.planes:
        raise ValueError(f"cannot narrow a net from {net.cfg.planes} to {planes} input planes")
    wide = PolicyValueNet(dataclasses.replace(net.cfg, planes=planes))
    state = {k: v.clone() for k, v in net.state_dict().items()}
    w = state["stem.0.weight"]
    state["stem.0.weight"] = torch.cat([w, w.new_zeros(w.shape[0], planes - w.shape[1], *w.shape[2:])], 1)
    mask = state["plane_mask"]
    state["plane_mask"] = torch.cat([mask, mask.new_ones(1, planes - mask.shape[1], 1, 1)], 1)
    wide.load_state_dict(state)
    return wide.train(net.training)


def export_onnx(net: PolicyValueNet, path: Path, size: int = 15, metadata: dict | None = None) -> None:
    """Write the net as ONNX (batch and board size dynamic) with the feature version and `metadata`
    in its metadata, then check onnxruntime's outputs against torch's on random positions."""
    import onnx

    path = Path(path)
    net = copy.deepcopy(net).cpu().eval()  # exported from the CPU, whatever trained it
    example = torch.zeros(2, net.cfg.planes, size, size)
    tmp = path.with_suffix(".tmp.onnx")
    torch.onnx.export(net, example, str(tmp), input_names=["planes"], output_names=["policy", "value"],
                      dynamic_axes={"planes": {0: "batch", 2: "height", 3: "width"},
                                    "policy": {0: "batch", 1: "points"}, "value": {0: "batch"}},
                      opset_version=17, dynamo=False)
    model = onnx.load(str(tmp))
    meta = {META_FEATURE_VERSION: str(feature_version(net.cfg)), **{k: str(v) for k, v in (metadata or {}).items()}}
    for k, v in meta.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = k, v
    onnx.save(model, str(path))
    tmp.unlink()
    verify_onnx(net, path, size)


def verify_onnx(net: PolicyValueNet, path: Path, size: int = 15, tolerance: float = 1e-3) -> float:
    """Largest difference between onnxruntime and torch on random 0/1 planes; raises if too big."""
    import onnxruntime as ort

    rng = np.random.default_rng(0)
    x = (rng.random((4, net.cfg.planes, size, size)) < 0.2).astype(np.float32)
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    p_onnx, v_onnx = sess.run(None, {"planes": x})
    net = copy.deepcopy(net).cpu().eval()
    with torch.no_grad():
        p_t, v_t = net(torch.from_numpy(x))
    diff = max(float(np.abs(p_onnx - p_t.numpy()).max()), float(np.abs(v_onnx - v_t.numpy()).max()))
    if diff > tolerance:
        raise RuntimeError(f"ONNX export differs from torch by {diff}")
    return diff


def write_sidecar(path: Path, info: dict) -> None:
    Path(path).with_suffix(".json").write_text(json.dumps(info, indent=2) + "\n")
