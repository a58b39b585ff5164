"""A deeper net that starts as a trained one: residual blocks inserted after the net's own, each
with its last BatchNorm's scale and shift at zero, so that every new block adds nothing and the
grown net gives the old one's outputs exactly (in eval and in train mode); training then lets the
new blocks learn from where the old net stands instead of from random weights.

    python -m engine.train.grow runs/kd9/model.pt --blocks 6 --out runs/g6/init.pt
    python -m engine.train.supervised ... --init runs/g6/init.pt
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import torch

from engine.train.model import Block, PolicyValueNet, load_weights


def grow(net: PolicyValueNet, blocks: int, seed: int = 0) -> PolicyValueNet:
    """`net` with `blocks` residual blocks in all: the old ones in order, the new ones spread among
    them (after the first old blocks, one each, then at the end) and zeroed to the identity."""
    old = list(net.blocks)
    if blocks < len(old):
        raise ValueError(f"the net has {len(old)} blocks already; cannot grow it to {blocks}")
    torch.manual_seed(seed)
    cfg = dataclasses.replace(net.cfg, blocks=blocks)
    grown = PolicyValueNet(cfg)
    state = {k: v for k, v in net.state_dict().items() if not k.startswith("blocks.")}
    grown.load_state_dict(state, strict=False)
    extra = blocks - len(old)
    order: list[Block] = []
    for i, block in enumerate(old):
        order.append(block)
        if i < extra:
            order.append(_identity_block(net.cfg.channels))
    order += [_identity_block(net.cfg.channels) for _ in range(extra - min(extra, len(old)))]
    grown.blocks = torch.nn.Sequential(*order)
    return grown


def _identity_block(channels: int) -> Block:
    block = Block(channels)
    with torch.no_grad():
        block.bn2.weight.zero_()
        block.bn2.bias.zero_()
    return block


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.grow", description=__doc__.split("\n\n")[0])
    ap.add_argument("weights", type=Path, help="torch weights (model.pt, or engine.train.unfold's .pt)")
    ap.add_argument("--blocks", type=int, required=True, help="residual blocks in the grown net")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=0, help="the new blocks' first convolutions")
    args = ap.parse_args(argv)
    try:
        net = grow(load_weights(args.weights), args.blocks, args.seed)
    except ValueError as e:
        ap.error(str(e))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"net": net.state_dict(), "net_cfg": dataclasses.asdict(net.cfg)}, args.out)
    print(f"wrote {args.out}: {args.blocks} blocks of {net.cfg.channels} channels", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
