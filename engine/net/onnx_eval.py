"""The ONNX evaluator: onnxruntime with the CUDA provider when it really works (checked on the
session, not on the list of providers compiled in), otherwise the CPU; one intra-op thread by
default; its warnings silenced; nothing on stdout."""
from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from engine.board import PLANES_OF_VERSION, Board
from engine.net.evaluator import Evaluator, HeuristicEvaluator, ModelError

log = logging.getLogger("pbrain.net")
META_FEATURE_VERSION = "feature_version"


def cuda_driver_present() -> bool:
    """Is an NVIDIA driver installed? Without one, asking onnxruntime for CUDA only costs a second
    of start-up and a screenful of errors."""
    import ctypes

    for name in ("libcuda.so.1", "nvcuda.dll"):
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            continue
    return False


def model_version(path: str | Path, meta: dict[str, str]) -> int:
    """The feature version in a model's metadata `meta` (a ModelError for one this engine cannot
    compute)."""
    version = meta.get(META_FEATURE_VERSION)
    try:
        return next(v for v in PLANES_OF_VERSION if str(v) == version)
    except StopIteration:
        raise ModelError(f"model {path} was trained on input features version {version}, "
                         f"this engine computes versions {sorted(PLANES_OF_VERSION)}") from None


def model_input(planes: np.ndarray, count: int) -> np.ndarray:
    """planes [batch, FEATURE_PLANES or count, n, n] as a model reading the first `count` takes them."""
    return planes if planes.shape[1] == count else np.ascontiguousarray(planes[:, :count])


def plain_session(path: str | Path) -> Callable[[np.ndarray], list[np.ndarray]]:
    """A one-provider CPU session for the model at `path` (for training tools) as a function from
    this engine's planes [batch, FEATURE_PLANES, n, n] to the model's [policy, value]."""
    import onnxruntime as ort

    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    count = PLANES_OF_VERSION[model_version(path, sess.get_modelmeta().custom_metadata_map)]
    return lambda planes: sess.run(None, {name: model_input(planes, count)})


class ONNXEvaluator(Evaluator):
    name = "onnx"
    takes_planes = True

    def __init__(self, path: str | Path, threads: int = 1, gpu: bool | None = None, quiet: bool = True) -> None:
        import onnxruntime as ort  # imported here: the search never needs it

        path = Path(path)
        if not path.is_file():
            raise ModelError(f"model {path} not found")
        opts = ort.SessionOptions()
        self.threads = max(1, threads)
        opts.intra_op_num_threads = self.threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3  # errors only, and those go to stderr
        ort.set_default_logger_severity(4 if quiet else 2)  # provider-loading chatter
        wanted = ["CPUExecutionProvider"]
        if gpu is None:
            gpu = cuda_driver_present()
        if gpu and "CUDAExecutionProvider" in ort.get_available_providers():
            wanted.insert(0, "CUDAExecutionProvider")
        try:
            self.session = ort.InferenceSession(str(path), sess_options=opts, providers=wanted)
        except Exception as e:  # onnxruntime raises its own types for corrupt files
            if wanted[0] != "CPUExecutionProvider":
                try:
                    self.session = ort.InferenceSession(str(path), sess_options=opts,
                                                        providers=["CPUExecutionProvider"])
                except Exception as e2:
                    raise ModelError(f"cannot load model {path}: {e2}") from None
            else:
                raise ModelError(f"cannot load model {path}: {e}") from None
        self.device = "cuda" if "CUDAExecutionProvider" in self.session.get_providers() else "cpu"
        meta = self.session.get_modelmeta().custom_metadata_map
        self.feature_version = model_version(path, meta)
        self.planes = PLANES_OF_VERSION[self.feature_version]  # the first this many of today's
        inputs = self.session.get_inputs()
        if len(inputs) != 1 or inputs[0].shape[1] not in (self.planes, "planes"):
            raise ModelError(f"model {path} does not take [batch, {self.planes}, size, size] planes")
        self.input = inputs[0].name
        self.metadata = dict(meta)
        self._buf: np.ndarray | None = None
        log.info("model %s on %s", path.name, self.device)

    def evaluate(self, boards: Sequence[Board]) -> tuple[np.ndarray, np.ndarray]:
        n = boards[0].size
        shape = (len(boards), self.planes, n, n)
        if self._buf is None or self._buf.shape != shape:
            self._buf = np.zeros(shape, dtype=np.float32)
        for i, board in enumerate(boards):
            board.planes(self._buf[i], self.feature_version)
        return self.evaluate_planes(self._buf)

    def evaluate_planes(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """From planes of this engine's layout (or of the model's own, older one)."""
        k, n = len(planes), planes.shape[-1]
        policy, value = self.session.run(None, {self.input: model_input(planes, self.planes)})
        return policy.reshape(k, n * n).astype(np.float32), value.reshape(-1).astype(np.float32)


def load_evaluator(path: str | Path | None, threads: int = 1) -> tuple[Evaluator, str | None]:
    """The ONNX evaluator for `path`, or the heuristic one with a message saying why (a missing,
    corrupt or wrong-version model never stops the engine)."""
    if path is None:
        return HeuristicEvaluator(), "no model given: using the heuristic evaluator"
    try:
        return ONNXEvaluator(path, threads=threads), None
    except ModelError as e:
        return HeuristicEvaluator(), f"{e}; using the heuristic evaluator"
    except ImportError as e:
        return HeuristicEvaluator(), f"onnxruntime unavailable ({e}); using the heuristic evaluator"
