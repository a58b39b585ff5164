"""How well nets' values predict real games: positions of decided match games (every `every`-th
ply), the value for the side to move against the game's result.

    python -m engine.train.valuecheck matches/NAME/results.json MODEL.onnx [MODEL.onnx ...] [--every 3]

Per model: sign agreement with the result, mean squared error, and the mean value. These positions
have each side to move about equally often in won and lost games, so a calibrated net's mean is
near 0; a large mean is a bias towards (or against) the side to move, which self-play targets can
teach without the self-play loss showing it.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.board import FEATURE_PLANES, Board, Color, Rule


@dataclass
class ValueCheck:
    positions: int
    agreement: float  # share of positions whose value has the sign of the result
    mse: float
    mean: float  # mean value for the side to move: the bias


def match_positions(results: list[dict], every: int = 3, size: int = 15,
                    rule: Rule = Rule.RENJU) -> tuple[np.ndarray, np.ndarray]:
    """Planes [N, C, n, n] and results z [N] (+1 the side to move won) of every `every`-th position
    of the decided games, the final position excluded."""
    planes, z = [], []
    for game in results:
        if game.get("winner") not in ("black", "white"):
            continue
        winner = Color.BLACK if game["winner"] == "black" else Color.WHITE
        moves = [tuple(m[:2]) for m in game["opening"]] + [tuple(m[:2]) for m in game["moves"]]
        board = Board(size, rule)
        for i, (x, y) in enumerate(moves[:-1]):
            board.play(x, y)
            if (i + 1) % every == 0 and not board.game_over:
                planes.append(board.planes(np.zeros((FEATURE_PLANES, size, size), np.float32)))
                z.append(1.0 if board.to_move == winner else -1.0)
    return np.stack(planes), np.array(z, dtype=np.float32)


def check(model: str | Path, planes: np.ndarray, z: np.ndarray, batch: int = 256) -> ValueCheck:
    """Score one ONNX net on the positions."""
    import onnxruntime as ort

    sess = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    values = np.concatenate([sess.run(None, {name: planes[i:i + batch]})[1].reshape(-1)
                             for i in range(0, len(planes), batch)])
    return ValueCheck(len(z), float(np.mean(np.sign(values) == z)), float(np.mean((values - z) ** 2)),
                      float(values.mean()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.valuecheck", description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="a match's results.json")
    ap.add_argument("models", nargs="+")
    ap.add_argument("--every", type=int, default=3, help="keep every N-th position (default 3)")
    ap.add_argument("--rule", default="renju")
    args = ap.parse_args(argv)
    results = json.loads(Path(args.results).read_text())
    planes, z = match_positions(results, args.every, rule=Rule.parse(args.rule))
    print(f"{len(z)} positions of {sum(g.get('winner') in ('black', 'white') for g in results)} decided games")
    print(f"{'model':50} {'agree':>6} {'mse':>6} {'mean':>6}")
    for model in args.models:
        r = check(model, planes, z)
        print(f"{model:50} {r.agreement:6.3f} {r.mse:6.3f} {r.mean:+6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
