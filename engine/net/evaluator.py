"""The evaluator interface, and the heuristic evaluator used in tests and whenever no model can
be loaded."""
from __future__ import annotations

import abc
from collections.abc import Sequence

import numpy as np

from engine.board import Board, Color
from engine.native import ffi, lib


class ModelError(RuntimeError):
    """A model that cannot be used: missing, corrupt, or for another input-feature version."""


class Evaluator(abc.ABC):
    name: str = "evaluator"
    # True: evaluate_planes works, and the search hands over the leaves' input planes (made in C)
    # instead of boards.
    takes_planes: bool = False

    @abc.abstractmethod
    def evaluate(self, boards: Sequence[Board]) -> tuple[np.ndarray, np.ndarray]:
        """Policy logits [len(boards), size * size] (index y * size + x; illegal points may
        hold anything, the search masks them) and values [len(boards)] in -1..1 for each
        board's side to move."""

    def evaluate_planes(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """As evaluate, from float32 input planes [batch, FEATURE_PLANES, size, size]."""
        raise NotImplementedError(f"{self.name} evaluates boards, not planes")


PATTERN_SCALE = 1.5  # logit per factor e of pattern score


def pattern_logits(board: Board) -> tuple[np.ndarray, int]:
    """Prior logits from the C pattern scores of the side to move (log-scaled; illegal points
    -30), and the best score."""
    buf = np.zeros(board.size * board.size, dtype=np.int32)
    best = lib.rj_point_scores(board._b, ffi.from_buffer("int32_t[]", buf))
    return np.where(buf >= 0, PATTERN_SCALE * np.log1p(np.maximum(buf, 0)), -30.0).astype(np.float32), best


class HeuristicEvaluator(Evaluator):
    """Priors from the C pattern scores (log-scaled), value from the best attack against the
    best defence: a fair stand-in for a net, and deterministic."""

    name = "heuristic"
    VALUE_SCALE = 2000.0  # pattern-score difference worth tanh(1)

    def evaluate(self, boards: Sequence[Board]) -> tuple[np.ndarray, np.ndarray]:
        n = boards[0].size
        logits = np.zeros((len(boards), n * n), dtype=np.float32)
        values = np.zeros(len(boards), dtype=np.float32)
        buf = np.zeros(n * n, dtype=np.int32)
        for i, board in enumerate(boards):
            logits[i], best = pattern_logits(board)
            other = board.copy()
            other.to_move = board.to_move.opponent if board.to_move in (Color.BLACK, Color.WHITE) else board.to_move
            theirs = lib.rj_point_scores(other._b, ffi.from_buffer("int32_t[]", buf))
            values[i] = np.tanh((max(best, 0) - max(theirs, 0)) / self.VALUE_SCALE)
        return logits, values
