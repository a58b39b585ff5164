"""The replay buffer: the last `capacity` games' samples; each batch takes half from the newest
generation's games and half from older ones (all from the newest while nothing older exists), so
that the newest games weigh as much as the rest of the buffer together."""
from __future__ import annotations

from pathlib import Path

import numpy as np

KEYS = ("planes", "policy", "value", "has_policy")
HOLDOUT_EVERY = 10  # distill and valuecheck hold out every 10th game


def is_held_out(index: int) -> bool:
    """Whether the `index`-th game is held out of fitting (kept for validation)."""
    return index % HOLDOUT_EVERY == 0


class ReplayBuffer:
    def __init__(self, capacity_games: int) -> None:
        self.capacity = capacity_games
        self.games: list[tuple[int, dict[str, np.ndarray]]] = []  # (generation, arrays)
        self._cache: tuple[dict[str, np.ndarray], np.ndarray] | None = None

    def add(self, generation: int, arrays: dict[str, np.ndarray]) -> None:
        self.games.append((generation, arrays))
        del self.games[: max(0, len(self.games) - self.capacity)]
        self._cache = None

    def __len__(self) -> int:
        return sum(len(a["value"]) for _, a in self.games)

    @property
    def newest(self) -> int:
        return max(g for g, _ in self.games)

    def _flat(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        if self._cache is None:
            data = {k: np.concatenate([a[k] for _, a in self.games]) for k in KEYS}
            gens = np.concatenate([np.full(len(a["value"]), g) for g, a in self.games])
            self._cache = (data, gens)
        return self._cache

    def sample(self, batch: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        data, gens = self._flat()
        is_new = gens == self.newest
        new, old = np.nonzero(is_new)[0], np.nonzero(~is_new)[0]
        if len(old) == 0:
            idx = rng.choice(new, batch)
        else:
            half = batch // 2
            idx = np.concatenate([rng.choice(new, half), rng.choice(old, batch - half)])
        return {k: v[idx] for k, v in data.items()}

    def save(self, path: Path) -> None:
        arrays = {}
        for i, (g, a) in enumerate(self.games):
            arrays[f"gen{i}"] = np.array(g)
            for k in KEYS:
                arrays[f"{k}{i}"] = a[k]
        np.savez_compressed(path, count=np.array(len(self.games)), **arrays)

    @classmethod
    def load(cls, path: Path, capacity_games: int) -> ReplayBuffer:
        buf = cls(capacity_games)
        with np.load(path) as f:
            for i in range(int(f["count"])):
                buf.add(int(f[f"gen{i}"]), {k: f[f"{k}{i}"] for k in KEYS})
        return buf
