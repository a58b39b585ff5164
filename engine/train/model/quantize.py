"""Int8 quantisation of a net (onnxruntime static QDQ, per-channel weights), calibrated on
positions from games of the pattern player, and a comparison with the float net on other positions:
policy top-1 agreement, value error and time per batch on one core. On a CPU the int8 twin is much
faster a batch, so the search gets more playouts in a move's time.

    python -m engine.train.model.quantize runs/st3/model.onnx --out runs/st3/model-int8.onnx   # v3's twin

The feature version and the rest of the metadata are carried over, so the engine loads the result
like any model (`--model FILE`; on a CPU it prefers `NAME-int8.onnx` beside the newest `NAME.onnx`),
and a sidecar `NAME-int8.json` records how it was made. Whether it keeps its strength is a match's
question.
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from engine.board import FEATURE_PLANES, Board
from engine.players import Limits, PatternPlayer


def sample_positions(count: int, seed: int, size: int = 15) -> np.ndarray:
    """[count, planes, size, size] from pattern-player games with random early moves."""
    rng = np.random.default_rng(seed)
    player = PatternPlayer()
    out = np.zeros((count, FEATURE_PLANES, size, size), dtype=np.float32)
    n = 0
    while n < count:
        board = Board(size)
        board.play(size // 2, size // 2)
        while not board.game_over and n < count and board.stone_count < 120:
            near = board.candidate_moves(2)
            if not near:
                break
            if rng.random() < 0.3:
                move = near[int(rng.integers(len(near)))]
            else:
                move = player.choose(board, Limits(deadline=time.monotonic() + 1))
            board.play(*move)
            if not board.game_over and rng.random() < 0.5:
                board.planes(out[n])
                n += 1
    return out


def quantize(model: Path, out: Path, positions: np.ndarray) -> None:
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from engine.board import PLANES_OF_VERSION
    from engine.net.onnx_eval import model_input, model_version

    source = onnx.load(str(model))
    name = source.graph.input[0].name
    count = PLANES_OF_VERSION[model_version(model, {p.key: p.value for p in source.metadata_props})]
    positions = model_input(positions, count)

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.batches = iter([{name: positions[i:i + 16]} for i in range(0, len(positions), 16)])

        def get_next(self):
            return next(self.batches, None)

    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
        quantize_static(str(prepared), str(out), Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    result = onnx.load(str(out))
    del result.metadata_props[:]
    for prop in source.metadata_props:
        result.metadata_props.add(key=prop.key, value=prop.value)
    result.metadata_props.add(key="quantized", value="int8 static QDQ, per-channel weights")
    onnx.save(result, str(out))


def compare(float_model: Path, int8_model: Path, positions: np.ndarray, batch: int = 8) -> dict:
    """Top-1 policy agreement, mean absolute value difference, and ms per batch for each net."""
    from engine.net.onnx_eval import ONNXEvaluator, model_input

    ev = ONNXEvaluator(float_model, threads=1, gpu=False)
    a, b = ev.session, ONNXEvaluator(int8_model, threads=1, gpu=False).session
    name = a.get_inputs()[0].name
    positions = model_input(positions, ev.planes)
    pa, va = a.run(None, {name: positions})
    pb, vb = b.run(None, {name: positions})
    pa, pb = pa.reshape(len(positions), -1), pb.reshape(len(positions), -1)
    legal = positions[:, 0] + positions[:, 1] == 0  # own and opponent stones are planes 0 and 1
    mask = legal.reshape(len(positions), -1)
    top_a = np.where(mask, pa, -np.inf).argmax(1)
    top_b = np.where(mask, pb, -np.inf).argmax(1)
    timing = {}
    for label, s in (("float", a), ("int8", b)):
        chunk = positions[:batch]
        s.run(None, {name: chunk})
        t0 = time.perf_counter()
        reps = 200
        for _ in range(reps):
            s.run(None, {name: chunk})
        timing[label] = (time.perf_counter() - t0) / reps * 1000
    return {"top1_agreement": float((top_a == top_b).mean()),
            "value_mae": float(np.abs(va.reshape(-1) - vb.reshape(-1)).mean()),
            "ms_per_batch_float": timing["float"], "ms_per_batch_int8": timing["int8"], "batch": batch,
            "feature_version": int(ev.metadata["feature_version"])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.train.model.quantize", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--calibration", type=int, default=512, help="positions to calibrate on")
    ap.add_argument("--test", type=int, default=512, help="other positions to compare on")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    quantize(args.model, args.out, sample_positions(args.calibration, args.seed))
    report = compare(args.model, args.out, sample_positions(args.test, args.seed + 1))
    for key, value in report.items():
        print(f"{key:20s} {value:.4g}" if isinstance(value, float) else f"{key:20s} {value}")
    sidecar = {"made_by": "python -m engine.train.model.quantize", "date": datetime.date.today().isoformat(),
               "source": args.model.name, "feature_version": report.pop("feature_version"),
               "method": "onnxruntime quantize_static, QDQ, per-channel int8 weights, uint8 activations",
               "calibration_positions": args.calibration, "seed": args.seed, "comparison": report}
    args.out.with_suffix(".json").write_text(json.dumps(sidecar, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
