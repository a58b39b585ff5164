"""The 8 symmetries of the square board, on the last two axes of an array ([..., y, x]): Renju's
rules are symmetric under all of them. Training augments samples with them (engine.train.data.augment),
the opening book keys positions up to them, and valuecheck measures how far a net is from symmetric."""
from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

INVERSE = (0, 3, 2, 1, 4, 5, 6, 7)  # transform(transform(a, k), INVERSE[k]) == a


def transform(a: np.ndarray, k: int) -> np.ndarray:
    """Symmetry k (0..7, 0 the identity) of the last two axes: k % 4 quarter turns, then a mirror
    when k >= 4. A view where numpy allows."""
    a = np.rot90(a, k % 4, axes=(-2, -1))
    if k >= 4:
        a = np.flip(a, axis=-1)
    return a


def untransform(a: np.ndarray, k: int) -> np.ndarray:
    """An array given in symmetry k, back in the board's own orientation."""
    return transform(a, INVERSE[k])


def outputs_in_each(run: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], planes: np.ndarray,
                    batch: int = 256) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """For each symmetry s, a net's answers on the positions turned by s: (s, logits [N, n*n]
    turned back to the board's orientation, values [N]). `run` maps float planes [B, C, n, n] to
    (logits, values), e.g. an onnxruntime session's outputs."""
    k, n = len(planes), planes.shape[-1]
    for s in range(8):
        turned = np.ascontiguousarray(transform(planes, s), dtype=np.float32)
        logits, values = np.zeros((k, n * n), np.float32), np.zeros(k, np.float32)
        for i in range(0, k, batch):
            out_l, out_v = run(turned[i:i + batch])
            m = len(out_v)
            logits[i:i + m] = untransform(np.asarray(out_l).reshape(m, n, n), s).reshape(m, n * n)
            values[i:i + m] = np.asarray(out_v).reshape(-1)
        yield s, logits, values
