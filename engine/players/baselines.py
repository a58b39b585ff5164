"""Baseline players for measuring strength: random, greedy, alpha-beta and UCT. Their hot loops
(pattern scores, alpha-beta, rollouts) run in C (native/src/baseline.c)."""
from __future__ import annotations

import math
import random
import time

import numpy as np

from engine.board import Board, Color, Move
from engine.native import ffi, lib
from engine.players import FIVE_SCORE, Limits, PatternPlayer, Player
from engine.prover import Prover


class RandomPlayer(Player):
    """A random legal (never forbidden) point next to the stones."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def ranked(self, board: Board, limits: Limits) -> list[tuple[Move, float]]:
        moves = board.candidate_moves(radius=1) if board.stone_count else [(board.size // 2, board.size // 2)]
        if not moves:
            moves = board.legal_moves()
        self.rng.shuffle(moves)
        return [(m, 0.0) for m in moves]


class GreedyPlayer(PatternPlayer):
    """Pattern score of every point for both sides; the best point (win and block first)."""

    name = "greedy"


class AlphaBetaPlayer(Player):
    """A VCF check first, then iterative-deepening alpha-beta over the pattern evaluation."""

    name = "alphabeta"
    VCF_SHARE = 0.2  # of the move's time, for proving a forced win

    def __init__(self, max_depth: int = 12) -> None:
        self.max_depth = max_depth
        self.prover = Prover(tt_bits=16)
        self.fallback = PatternPlayer()

    def clear_hash(self) -> None:
        self.prover.clear()

    def new_game(self) -> None:
        self.prover.clear()

    def ranked(self, board: Board, limits: Limits) -> list[tuple[Move, float]]:
        if board.stone_count == 0:
            return [((board.size // 2, board.size // 2), 0.0)]
        left = max(0.0, min(limits.optimum or 1e9, limits.deadline - time.monotonic()))
        proof = self.prover.solve(board, "vcf", max_depth=30, budget_ms=left * 1000 * self.VCF_SHARE)
        if proof.result == "win" and proof.line:
            return [(proof.line[0], 1e9)]
        left = max(0.001, min(limits.optimum or 1e9, limits.deadline - time.monotonic()))
        x, y = ffi.new("int16_t *"), ffi.new("int16_t *")
        depth, nodes, value = ffi.new("int *"), ffi.new("int64_t *"), ffi.new("int *")
        status = lib.rj_alphabeta(board._b, self.max_depth, left * 1000, x, y, depth, nodes, value)
        if status != lib.RJ_OK:
            return self.fallback.ranked(board, limits)
        return [((x[0], y[0]), float(depth[0]))]


class _Node:
    __slots__ = ("move", "parent", "children", "untried", "visits", "wins")

    def __init__(self, move: Move | None, parent: _Node | None, untried: list[Move]) -> None:
        self.move, self.parent, self.children, self.untried = move, parent, [], untried
        self.visits, self.wins = 0, 0.0


class UCTPlayer(Player):
    """UCT with heuristic rollouts in C: win if you can, block a five, otherwise score-weighted."""

    name = "uct"
    EXPLORATION = 0.7
    WIDTH = 12  # children per node: the best-scored candidates
    ROLLOUT_MOVES = 60

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.fallback = PatternPlayer()

    def _candidates(self, board: Board) -> list[Move]:
        if board.game_over:
            return []
        cands = board.candidate_moves(radius=2)
        if len(cands) <= self.WIDTH:
            return cands
        scores = np.zeros(board.size * board.size, dtype=np.int32)
        lib.rj_point_scores(board._b, ffi.from_buffer("int32_t[]", scores))
        cands.sort(key=lambda m: -scores[m[1] * board.size + m[0]])
        return cands[: self.WIDTH]

    def ranked(self, board: Board, limits: Limits) -> list[tuple[Move, float]]:
        first = self.fallback.ranked(board, limits)
        if not first or first[0][1] >= 0.9 * FIVE_SCORE or board.stone_count == 0:  # a win or a forced block
            return first
        root = _Node(None, None, self._candidates(board))
        end = min(limits.deadline, time.monotonic() + (limits.optimum or 1.0))
        b = board.copy()
        playouts = 0
        while time.monotonic() < end and not limits.stop.is_set():
            node, depth = root, 0
            while not node.untried and node.children:  # select
                log_n = math.log(node.visits)
                node = max(node.children, key=lambda ch: ch.wins / ch.visits
                           + self.EXPLORATION * math.sqrt(log_n / ch.visits))
                b.play(*node.move)
                depth += 1
            if node.untried and not b.game_over:  # expand
                move = node.untried.pop(0)
                b.play(*move)
                depth += 1
                child = _Node(move, node, self._candidates(b))
                node.children.append(child)
                node = child
            if b.game_over:
                winner = {1: Color.BLACK, 2: Color.WHITE}.get(int(b.result))
            else:
                w = lib.rj_rollout(b._b, self.rng.getrandbits(63), self.ROLLOUT_MOVES)
                winner = Color(w) if w in (1, 2) else None
            while node is not None:  # back up: a node's wins are for the side that moved into it
                node.visits += 1
                if node.move is not None:
                    mover = b.to_move.opponent  # node.move is on the board until the undo below
                    node.wins += 1.0 if winner == mover else 0.5 if winner is None else 0.0
                    b.undo()
                node = node.parent
            playouts += 1
        if not root.children:
            return first
        best = sorted(root.children, key=lambda ch: -ch.visits)
        return [(ch.move, ch.visits) for ch in best]
