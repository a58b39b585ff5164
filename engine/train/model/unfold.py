"""Turn a shipped ONNX net back into trainable torch weights, so that training can continue from
it (`python -m engine.train --init FILE.pt`, `python -m engine.train.learn.distill --init FILE.pt`).

The export folds each BatchNorm into the convolution before it (weights scaled, a bias added).
Unfolding keeps the folded convolution and gives its BatchNorm the statistics of that
convolution's outputs on real positions, with the scale and shift that undo them: in eval mode
the net is then exactly the ONNX one, and in train mode (batch statistics) nearly so.

    python -m engine.train.model.unfold models/pbrain-renju-v13.onnx --matches 'matches/*/results.json' \
        --out runs/v13.pt
"""
from __future__ import annotations

import argparse
import dataclasses
import logging
import sys
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from engine.train.config import NetConfig, RunConfig
from engine.train.data.matchdata import distinct_games, game_positions, load_results, match_files
from engine.train.model.network import PolicyValueNet, verify_onnx
from engine.train.selfplay.buffer import ReplayBuffer

log = logging.getLogger("pbrain.train")


def onnx_weights(path: Path) -> tuple[list[tuple[np.ndarray, np.ndarray]], dict[str, np.ndarray], NetConfig]:
    """The folded (weight, bias) of every trunk convolution in graph order, the named head
    weights, and the net's shape (from the graph itself, checked against its metadata)."""
    model = onnx.load(str(path))
    init = {i.name: numpy_helper.to_array(i).copy() for i in model.graph.initializer}
    convs = []
    for node in model.graph.node:
        if node.op_type == "Conv" and not node.input[1].startswith("policy."):
            w, b = init[node.input[1]], init[node.input[2]] if len(node.input) > 2 else None
            convs.append((w, b if b is not None else np.zeros(w.shape[0], np.float32)))
    channels, blocks = convs[0][0].shape[0], (len(convs) - 1) // 2
    if len(convs) != 2 * blocks + 1:
        raise ValueError(f"{path}: {len(convs)} trunk convolutions is not a stem plus residual blocks")
    meta = {p.key: p.value for p in model.metadata_props}
    for key, value in (("channels", channels), ("blocks", blocks)):
        if key in meta and int(meta[key]) != value:
            raise ValueError(f"{path}: metadata says {key} {meta[key]}, the graph {value}")
    mask = init.get("plane_mask")
    threat = bool(mask is None or mask.min() > 0)
    return convs, init, NetConfig(channels=channels, blocks=blocks, threat_planes=threat,
                                   planes=convs[0][0].shape[1])


def unfold(path: Path, planes: np.ndarray) -> PolicyValueNet:
    """A torch net equal to the ONNX net at `path`, its BatchNorms calibrated on `planes`."""
    convs, init, cfg = onnx_weights(path)
    net = PolicyValueNet(cfg).eval()
    pairs = [(net.stem[0], net.stem[1])]
    for block in net.blocks:
        pairs += [(block.conv1, block.bn1), (block.conv2, block.bn2)]
    outputs: dict[int, list[torch.Tensor]] = {i: [] for i in range(len(pairs))}
    hooks = []
    with torch.no_grad():
        for i, ((conv, bn), (w, b)) in enumerate(zip(pairs, convs)):
            conv.weight.copy_(torch.from_numpy(w))
            # the identity first, so that the recorded outputs are those of the ONNX net
            bn.running_mean.zero_(), bn.running_var.fill_(1.0 - bn.eps)
            bn.weight.fill_(1.0), bn.bias.copy_(torch.from_numpy(b))
            hooks.append(conv.register_forward_hook(lambda m, a, out, i=i: outputs[i].append(out)))
        net.policy.weight.copy_(torch.from_numpy(init["policy.weight"]))
        net.policy.bias.copy_(torch.from_numpy(init["policy.bias"]))
        for k in (0, 2):
            net.value_fc[k].weight.copy_(torch.from_numpy(init[f"value_fc.{k}.weight"]))
            net.value_fc[k].bias.copy_(torch.from_numpy(init[f"value_fc.{k}.bias"]))
        x = torch.from_numpy(planes.astype(np.float32))
        for start in range(0, len(x), 1024):
            net(x[start:start + 1024])
        for h in hooks:
            h.remove()
        for i, ((_, bn), (_, b)) in enumerate(zip(pairs, convs)):
            y = torch.cat(outputs[i])
            mu, var = y.mean((0, 2, 3)), y.var((0, 2, 3), unbiased=False)
            bn.running_mean.copy_(mu), bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps)), bn.bias.copy_(mu + torch.from_numpy(b))
    return net


def calibration_planes(run: Path | None, matches: list[str], n: int,
                       rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """Up to `n` positions to calibrate on, and the board size: a run's buffer, or, where no run is
    at hand (a shipped net), the positions of match games."""
    if run is not None:
        cfg = RunConfig.load(run / "config.json")
        buffer = ReplayBuffer.load(run / "buffer.npz", cfg.learn.buffer_games)
        return buffer.sample(n, rng)["planes"], cfg.play.size
    games = distinct_games(load_results(matches))
    if not games:
        raise ValueError(f"no match games in {matches}")
    planes = np.concatenate([game_positions(g)[0] for g in games])
    return planes[rng.permutation(len(planes))[:n]], 15


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.model.unfold", description=__doc__.split("\n\n")[0])
    ap.add_argument("model", type=Path, help="an ONNX net exported by engine.train")
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--run", type=Path,
                        help="a run folder: its buffered positions calibrate the BatchNorms, and `--init` "
                             "imports its games as older generations")
    source.add_argument("--matches", action="append",
                        help="match results.json files or a glob (repeatable): their positions calibrate instead")
    ap.add_argument("--out", required=True, type=Path, help="the .pt file to write")
    ap.add_argument("--positions", type=int, default=8192, help="positions for the calibration")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    matches = match_files(args.matches or [])
    try:
        planes, size = calibration_planes(args.run, matches, args.positions, np.random.default_rng(0))
    except (OSError, ValueError) as e:
        log.error("%s", e)
        return 2
    net = unfold(args.model, planes)
    diff = verify_onnx(net, args.model, size, tolerance=1e-3)
    net.train()
    with torch.no_grad():  # train mode uses batch statistics: how far that moves the outputs
        batch = torch.from_numpy(planes[:512].astype(np.float32))
        p_train, v_train = net(batch)
        net.eval()
        p_eval, v_eval = net(batch)
    log.info("unfolded %s: eval-mode difference from ONNX %.2g; train-mode policy/value shift %.3f/%.3f",
             args.model, diff, float((p_train - p_eval).abs().mean()), float((v_train - v_eval).abs().mean()))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"net": net.state_dict(), "net_cfg": dataclasses.asdict(net.cfg),
                "source_run": str(args.run) if args.run else None,
                "unfolded_from": str(args.model)}, args.out)
    log.info("wrote %s", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
