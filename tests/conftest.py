"""Shared test helpers: the external rule vectors (a copy of ../shared/vectors, with its licence
notices, in tests/data/vectors) and building boards from diagrams."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.board import Board, Color, Rule, diagram_stones

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "tests" / "data" / "vectors"


@pytest.fixture(scope="session")
def vectors() -> Path:
    assert VECTORS.is_dir(), f"test vectors missing at {VECTORS}"
    return VECTORS


def board_from_diagram(rows: list[str], rule: Rule | str = Rule.RENJU, to_move: Color | None = None) -> Board:
    """A board from a diagram whose first row is the top (y = size - 1): X black, O white."""
    black, white = diagram_stones(rows)
    return Board.from_stones(black, white, to_move=to_move, size=len(rows), rule=rule)
