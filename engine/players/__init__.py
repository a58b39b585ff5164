"""Players: what the protocol asks for a move. Every player returns a legal move (never, as
black in Renju, a forbidden one); the search player is engine.search.player.MCTSPlayer.

`PatternPlayer` is the strongest simple policy: win now, else block the opponent's five, else the
point with the best pattern score for both sides."""
from __future__ import annotations

import abc
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from engine.board import Board, Move
from engine.native import ffi, lib


@dataclass
class Limits:
    """What one decision may spend. Times are time.monotonic() values."""

    deadline: float  # the move must be returned by then
    optimum: float = 0.0  # seconds the player should aim to use
    stop: threading.Event = field(default_factory=threading.Event)  # set by STOP/YXSTOP/END
    max_nodes: int = 0  # 0: no node limit (INFO max_node)
    report: Callable[[str], None] | None = None  # realtime MESSAGE texts while thinking (INFO show_detail)
    bankable: bool = True  # time saved now can be spent later (a match clock runs)
    memory: int = 0  # bytes a search may still allocate (0: no limit given)

    def expired(self) -> bool:
        return self.stop.is_set() or time.monotonic() >= self.deadline


class Player(abc.ABC):
    name: str = "player"

    def new_game(self) -> None:
        """Forget anything kept between moves (a new game begins)."""

    def clear_hash(self) -> None:
        """Drop caches (YXHASHCLEAR)."""

    def set_threads(self, threads: int) -> None:
        """INFO thread_num: how many threads the player may use (most use one)."""

    @abc.abstractmethod
    def ranked(self, board: Board, limits: Limits) -> list[tuple[Move, float]]:
        """Candidate moves for the side to move, best first, with a score; never empty while
        the game is on and a legal move exists."""

    def choose(self, board: Board, limits: Limits) -> Move:
        ranked = self.ranked(board, limits)
        return ranked[0][0]


FIVE_SCORE = 1_000_000  # a point's score when the stone wins; blocking a five scores 900,000


class PatternPlayer(Player):
    """Win now; else block a five; else the best pattern score (attack plus 0.9 of the defence,
    native/src/baseline.c), ties broken towards the centre, then by a seeded random draw."""

    name = "pattern"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def ranked(self, board: Board, limits: Limits) -> list[tuple[Move, float]]:
        n = board.size
        if board.game_over:
            return []
        if board.stone_count == 0:
            return [((n // 2, n // 2), 0.0)]
        scores = np.zeros((n, n), dtype=np.int32)
        if lib.rj_point_scores(board._b, ffi.from_buffer("int32_t[]", scores)) < 0:
            return []  # no legal point
        yy, xx = np.mgrid[0:n, 0:n]
        centre = -np.hypot(xx - (n - 1) / 2, yy - (n - 1) / 2) * 1e-3
        jitter = np.array([self.rng.random() for _ in range(n * n)]).reshape(n, n) * 1e-6
        total = np.where(scores >= 0, scores + centre + jitter, -np.inf)
        out = []
        for idx in np.argsort(-total, axis=None):
            y, x = divmod(int(idx), n)
            if scores[y, x] < 0:
                break
            out.append(((x, y), float(scores[y, x])))
        return out


class DeliberatePlayer(PatternPlayer):
    """The pattern player, but it spends its whole optimum budget (or until stopped), as the
    search players will: a probe of the time manager and the protocol's overheads."""

    name = "deliberate"

    def choose(self, board: Board, limits: Limits) -> Move:
        move = super().choose(board, limits)
        until = min(limits.deadline, time.monotonic() + limits.optimum)
        while not limits.stop.is_set() and time.monotonic() < until:
            limits.stop.wait(min(0.01, max(0.0, until - time.monotonic())))
        return move
