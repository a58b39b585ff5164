"""The 8 symmetries of the square board, on the last two axes of an array ([..., y, x]): Renju's
rules are symmetric under all of them. Training augments samples with them (engine.train.augment);
the search can evaluate positions turned (MCTSConfig.leaf_symmetry, root_symmetries)."""
from __future__ import annotations

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
