"""The 8 symmetries of the square, applied alike to input planes and policy targets (Renju's rules
are symmetric under all of them, so every position gives eight)."""
from __future__ import annotations

import numpy as np

from engine.board.symmetry import transform


def augment(planes: np.ndarray, policy: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """planes [C, n, n] and policy [n*n] (index y*n + x) under symmetry k."""
    n = planes.shape[-1]
    p = transform(policy.reshape(n, n), k).reshape(n * n)
    return np.ascontiguousarray(transform(planes, k)), np.ascontiguousarray(p)


def augment_batch(planes: np.ndarray, policy: np.ndarray, ks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One symmetry per sample: planes [B, C, n, n], policy [B, n*n], ks [B]."""
    out_x, out_p = np.empty_like(planes), np.empty_like(policy)
    for k in range(8):
        sel = np.nonzero(ks == k)[0]
        if len(sel):
            n = planes.shape[-1]
            out_x[sel] = transform(planes[sel], k)
            out_p[sel] = transform(policy[sel].reshape(-1, n, n), k).reshape(len(sel), n * n)
    return out_x, out_p
