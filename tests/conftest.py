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

