"""`make net`: the shipped net remade from scratch in one resumable run, from the data files that
models/data/manifest.json lists.

    python -m engine.train.recipe --out runs/net [--epochs 5] [--channels 32] [--blocks 3] [--threads 2]

1. The positions, pooled: every position after the referee's opening of the Gomocup records
   (2019-2020 Renju, 2021 standard), the move played as the policy target and the result as the
   value; and the stored engine targets (PentaZen's, Rapfi's and the engine's own searches at
   positions of match games and records), the engine's policy and half its evaluation, half the
   game's result as the value. Each sample in a random one of the 8 symmetries.
2. A net trained from random weights on them (engine.train.learn.supervised, cosine learning
   rate; a rerun resumes after the last finished epoch). Validation: the held-out tenth of the
   Renju records, split by a hash of each game as every run splits them.
3. Its int8 twin (engine.train.model.quantize).
4. The report (report.md, report.png): the new net, its twin and the shipped net on the same
   validation positions, and each stage's time.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from engine import paths

MANIFEST = paths.models_dir() / "data" / "manifest.json"


def shown(path: Path) -> Path:
    """The path relative to the working directory where it lies under it, so that the command in the
    net's sidecar reads the same in every clone."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def read_manifest(path: Path = MANIFEST) -> dict:
    """The manifest, each file's path resolved beside it; a listed file that is missing is an error."""
    manifest = json.loads(path.read_text())
    for entry in manifest["records"] + manifest["targets"]:
        entry["path"] = shown(path.parent / entry["file"])
        if not entry["path"].is_file():
            raise SystemExit(f"{entry['path']}: listed in {path} but missing")
    return manifest


def training_args(manifest: dict, out: Path, epochs: int, channels: int, blocks: int, threads: int) -> list[str]:
    """engine.train.learn.supervised's arguments for the recipe (the first rule listed is the
    validation's)."""
    rules = list(dict.fromkeys(r["rule"] for r in manifest["records"]))
    args = ["--records", *[f"{r['rule']}:{r['path']}" if r["rule"] != rules[0] else str(r["path"])
                           for r in manifest["records"]], "--rule", ",".join(rules)]
    for t in manifest["targets"]:
        args += ["--targets", str(t["path"])]
    return args + ["--targets-z-weight", str(manifest["targets_z_weight"]), "--epochs", str(epochs),
                   "--channels", str(channels), "--blocks", str(blocks), "--threads", str(threads),
                   "--out", str(out)]


def _step(name: str, command: list[str], times: dict) -> None:
    t0 = time.monotonic()
    print(f"== {name}: {' '.join(command)}", file=sys.stderr, flush=True)
    subprocess.run(command, check=True)
    times[name] = round(time.monotonic() - t0, 1)


def report(out: Path, manifest_path: Path, train: list[str], times: dict) -> Path:
    """report.md: the validation figures of the new net, its twin and the shipped net, side by side."""
    from engine.search.player import shipped_model

    shipped = paths.newest_net()[0]
    models = [out / "model.onnx", out / "model-int8.onnx"] + [m for m in (shipped, shipped_model(gpu=False)) if m]
    run = subprocess.run([sys.executable, "-m", "engine.train.learn.supervised", *train, "--evaluate",
                          *map(str, models)], check=True, capture_output=True, text=True)
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    history = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    seconds = sum(h.get("seconds", 0) for h in history)
    lines = ["# The recipe's net", "", f"Data: {shown(manifest_path)}; "
             f"{history[-1]['epoch']} epochs, {seconds / 60:.0f} min of training "
             f"({', '.join(f'{k} {v:.0f} s' for k, v in times.items())} in this call).", "",
             "| model | top-1 | top-5 | value sign | positions |", "| --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| {Path(r['model']).name} | {r['top1']:.4f} | {r['top5']:.4f} | {r['value_sign']:.4f} "
                     f"| {r['positions']} |")
    lines += ["", "![curves](report.png)", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    (out / "validation.json").write_text(json.dumps(rows, indent=1))
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.recipe", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("runs/net"), help="the run folder (a rerun resumes it)")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--channels", type=int, default=32, help="the net's width (the shipped net: 32)")
    ap.add_argument("--blocks", type=int, default=3, help="residual blocks (the shipped net: 3)")
    ap.add_argument("--threads", type=int, default=2, help="torch threads")
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    args = ap.parse_args(argv)
    manifest = read_manifest(args.manifest)
    train = training_args(manifest, args.out, args.epochs, args.channels, args.blocks, args.threads)
    times: dict[str, float] = {}
    py = sys.executable
    _step("train", [py, "-m", "engine.train.learn.supervised", *train], times)
    _step("int8", [py, "-m", "engine.train.model.quantize", str(args.out / "model.onnx"),
                   "--out", str(args.out / "model-int8.onnx")], times)
    print(report(args.out, args.manifest, train, times).read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
