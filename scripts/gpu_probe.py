"""On a lent GPU machine: does onnxruntime's CUDA provider run the shipped net, how long does it
take to come up, how much resident memory does it add, and how fast is a batch? Prints a report.

    python scripts/gpu_probe.py models/pbrain-renju-v3.onnx [models/pbrain-renju-v3-int8.onnx]
"""
from __future__ import annotations

import sys
import time

import numpy as np

from engine.board import FEATURE_PLANES
from engine.memory import rss_bytes


def mb() -> str:
    return f"{rss_bytes() / 2**20:.0f} MB"


def main() -> None:
    print("rss at start", mb())
    t = time.monotonic()
    import onnxruntime as ort
    print(f"onnxruntime {ort.__version__} imported in {time.monotonic() - t:.2f} s, rss {mb()}; "
          f"providers {ort.get_available_providers()}")
    if hasattr(ort, "preload_dlls"):
        t = time.monotonic()
        try:
            ort.preload_dlls()
            print(f"preload_dlls {time.monotonic() - t:.2f} s, rss {mb()}")
        except Exception as e:  # noqa: BLE001 - a report
            print("preload_dlls failed:", e)
    for path in sys.argv[1:]:
        for opts in ({"cudnn_conv_algo_search": "HEURISTIC"}, {}):
            o = ort.SessionOptions()
            o.intra_op_num_threads = 1
            t = time.monotonic()
            try:
                s = ort.InferenceSession(path, o, providers=[("CUDAExecutionProvider", opts), "CPUExecutionProvider"])
            except Exception as e:  # noqa: BLE001
                print(path, "CUDA session failed:", e)
                continue
            made = time.monotonic() - t
            name = s.get_inputs()[0].name
            x = (np.random.rand(8, FEATURE_PLANES, 15, 15) > 0.7).astype(np.float32)
            t = time.monotonic()
            s.run(None, {name: x})
            first = time.monotonic() - t
            print(f"{path} {opts or 'default algo search'}: providers {s.get_providers()}, session {made:.2f} s, "
                  f"first run {first:.2f} s, rss {mb()}")
            for b in (1, 8, 16, 64):
                x = (np.random.rand(b, FEATURE_PLANES, 15, 15) > 0.7).astype(np.float32)
                t = time.monotonic()
                s.run(None, {name: x})
                shape_first = time.monotonic() - t
                for _ in range(20):
                    s.run(None, {name: x})
                n = 200
                t = time.perf_counter()
                for _ in range(n):
                    s.run(None, {name: x})
                dt = (time.perf_counter() - t) / n
                print(f"  batch {b}: first {shape_first * 1e3:.1f} ms, {dt * 1e6:.0f} us/call, "
                      f"{dt * 1e6 / b:.1f} us/position")
            del s


if __name__ == "__main__":
    main()
