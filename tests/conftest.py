"""Shared test fixtures: the external rule vectors (a copy of ../shared/vectors, with its licence
notices, in tests/data/vectors)."""
from __future__ import annotations

from pathlib import Path

import pytest

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
        from engine import memory

        monkeypatch.setattr(memory, "rss_bytes", lambda: ENGINE_RSS)
