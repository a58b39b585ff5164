"""Candidate net shapes against the shipped one (32 channels, 3 full residual blocks): onnxruntime's
time per position at batch 8 on one core, float and int8 (engine.train.quantize's recipe), for
engine.train.model's net with other blocks in place of its own, with random weights (the time does
not depend on them). Depthwise-separable and inverted-residual blocks do a fraction of the
multiply-adds; whether onnxruntime turns that into time is what this measures.

    python scripts/net_shapes.py [NAME...]        # models written to $TMPDIR/net_shapes
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import onnxruntime as ort
import torch
import torch.nn as nn

from engine.board import FEATURE_PLANES
from engine.train.config import NetConfig
from engine.train.model import PolicyValueNet
from engine.train.quantize import quantize, sample_positions


class Separable(nn.Module):
    """Two depthwise 3x3 + pointwise 1x1 convolutions: a seventh of a full block's multiply-adds."""

    def __init__(self, c: int) -> None:
        super().__init__()
        self.d1, self.p1 = nn.Conv2d(c, c, 3, padding=1, groups=c, bias=False), nn.Conv2d(c, c, 1, bias=False)
        self.d2, self.p2 = nn.Conv2d(c, c, 3, padding=1, groups=c, bias=False), nn.Conv2d(c, c, 1, bias=False)
        self.b1, self.b2 = nn.BatchNorm2d(c), nn.BatchNorm2d(c)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.b2(self.p2(self.d2(torch.relu(self.b1(self.p1(self.d1(x))))))))


class InvertedResidual(nn.Module):
    """1x1 expansion, depthwise 3x3, 1x1 projection (MobileNetV2's block)."""

    def __init__(self, c: int, expand: int) -> None:
        super().__init__()
        h = c * expand
        self.e, self.b0 = nn.Conv2d(c, h, 1, bias=False), nn.BatchNorm2d(h)
        self.d, self.b1 = nn.Conv2d(h, h, 3, padding=1, groups=h, bias=False), nn.BatchNorm2d(h)
        self.p, self.b2 = nn.Conv2d(h, c, 1, bias=False), nn.BatchNorm2d(c)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.b2(self.p(torch.relu(self.b1(self.d(torch.relu(self.b0(self.e(x))))))))


def net(channels: int, blocks: list[nn.Module] | int) -> PolicyValueNet:
    """The engine's net (engine.train.model) with `channels`; an int keeps its own full residual
    blocks, a list puts those blocks in their place (the stem and heads stay as shipped)."""
    if isinstance(blocks, int):
        return PolicyValueNet(NetConfig(channels=channels, blocks=blocks))
    model = PolicyValueNet(NetConfig(channels=channels, blocks=0))
    model.blocks = nn.Sequential(*blocks)
    return model


SHAPES = {
    "full32x3": lambda: net(32, 3),  # the shipped shape
    "full32x2": lambda: net(32, 2),
    "full24x3": lambda: net(24, 3),
    "sep32x6": lambda: net(32, [Separable(32) for _ in range(6)]),
    "sep48x4": lambda: net(48, [Separable(48) for _ in range(4)]),
    "ir32x6": lambda: net(32, [InvertedResidual(32, 2) for _ in range(6)]),
    "ir32x4e3": lambda: net(32, [InvertedResidual(32, 3) for _ in range(4)]),
}


def per_position_us(path: Path, x, rounds: int = 5, calls: int = 40) -> float:
    """The best of `rounds` means over `calls` runs of batch x, per position, one thread."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = opts.inter_op_num_threads = 1
    session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    for _ in range(30):
        session.run(None, {"planes": x})
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(calls):
            session.run(None, {"planes": x})
        best = min(best, (time.perf_counter() - t) / calls / len(x) * 1e6)
    return best


def main() -> None:
    calibration = sample_positions(128, 1)
    out = Path(tempfile.gettempdir()) / "net_shapes"
    out.mkdir(exist_ok=True)
    for name in sys.argv[1:] or list(SHAPES):
        torch.manual_seed(0)
        model = SHAPES[name]().eval()
        for m in model.modules():  # BatchNorm statistics away from the identity, as in a trained net
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
        float_path, int8_path = out / f"{name}.onnx", out / f"{name}-int8.onnx"
        torch.onnx.export(model, torch.zeros(2, FEATURE_PLANES, 15, 15), str(float_path), input_names=["planes"],
                          output_names=["policy", "value"], opset_version=17, dynamo=False,
                          dynamic_axes={"planes": {0: "batch"}, "policy": {0: "batch"}, "value": {0: "batch"}})
        quantize(float_path, int8_path, calibration)
        params = sum(p.numel() for p in model.parameters())
        print(f"{name}: {params} parameters; float {per_position_us(float_path, calibration[:8]):.0f} us a position, "
              f"int8 {per_position_us(int8_path, calibration[:8]):.0f} us", flush=True)


if __name__ == "__main__":
    main()
