"""Shared test fixtures: the external rule vectors (tests/data/vectors, with their licence
notices)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

# The suite runs in two workers on two cores: a worker's torch must not start a thread per core
# as well, or the engine processes that the timing tests start wait for a core (set before any
# test imports torch, which reads it once).
os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "tests" / "data" / "vectors"


@pytest.fixture(scope="session")
def vectors() -> Path:
    assert VECTORS.is_dir(), f"test vectors missing at {VECTORS}"
    return VECTORS



ENGINE_RSS = 100 * 2**20  # the engine process after a 3 s search with the shipped net: ~97 MB measured


@pytest.fixture(autouse=True)
def engine_sized_process(request, monkeypatch):
    """In-process sessions measure their own process for the memory allowance; a pytest worker
    that has imported torch (the training tests) holds ~300 MB the engine never would. Tests marked
    `real_rss` see the real figure."""
    if "real_rss" not in request.keywords:
        from engine.protocol import memory

        monkeypatch.setattr(memory, "rss_bytes", lambda: ENGINE_RSS)
