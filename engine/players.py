"""Players: what the protocol asks for a move. Every player returns a legal move (never, as
black in Renju, a forbidden one); the search players arrive with later issues.

`PatternPlayer` is the strongest simple policy: win now, else block the opponent's five, else the
point with the best pattern score for both sides."""
from __future__ import annotations

import abc
import random
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from engine.board import Board, Color, Foul, Move, Pattern, Rule


@dataclass
class Limits:
    """What one decision may spend. Times are time.monotonic() values."""

    deadline: float  # the move must be returned by then
    optimum: float = 0.0  # seconds the player should aim to use
    stop: threading.Event = field(default_factory=threading.Event)  # set by STOP/YXSTOP/END
    max_nodes: int = 0  # 0: no node limit (INFO max_node)

    def expired(self) -> bool:
        return self.stop.is_set() or time.monotonic() >= self.deadline


class Player(abc.ABC):
    name: str = "player"

    def new_game(self) -> None:
        """Forget anything kept between moves (a new game begins)."""

    def clear_hash(self) -> None:
        """Drop caches (YXHASHCLEAR)."""

    @abc.abstractmethod
    def ranked(self, board: Board, limits: Limits) -> list[tuple[Move, float]]:
        """Candidate moves for the side to move, best first, with a score; never empty while
        the game is on and a legal move exists."""

    def choose(self, board: Board, limits: Limits) -> Move:
        ranked = self.ranked(board, limits)
        return ranked[0][0]


# Weights of the pattern a stone makes on one line, for the mover (attack) and, scaled by
# DEFENCE, for the opponent (what the stone takes away). Hand-set starting values; the search
# players replace this policy.
_WEIGHT = np.zeros(len(Pattern), dtype=np.float64)
for _p, _w in {
    Pattern.DEAD1: 1, Pattern.LIVE1: 3, Pattern.DEAD2: 8, Pattern.LIVE2: 30, Pattern.DEAD3: 40,
    Pattern.LIVE3: 400, Pattern.DEAD4: 500, Pattern.LIVE4: 20_000, Pattern.FIVE: 1_000_000,
}.items():
    _WEIGHT[_p] = _w
DEFENCE = 0.9
FORK_FOUR_FOUR = 20_000  # two fours: a win next move
FORK_FOUR_THREE = 10_000  # four plus open three: a win unless the four's answer also defends
FORK_THREE_THREE = 2_000


def pattern_scores(board: Board, color: Color) -> np.ndarray:
    """Score [y, x] of a stone of `color` on each point from its four line patterns."""
    pat = board.patterns(color)
    w = _WEIGHT.copy()
    if board.rule in (Rule.FREESTYLE, Rule.CARO) or (board.rule == Rule.RENJU and color == Color.WHITE):
        w[Pattern.OVERLINE] = _WEIGHT[Pattern.FIVE]
    if not (board.rule == Rule.RENJU and color == Color.BLACK):
        w[Pattern.FORBID] = _WEIGHT[Pattern.LIVE4]  # two fours on one line
    score = w[pat].sum(axis=2)
    fours = ((pat == Pattern.DEAD4) | (pat == Pattern.LIVE4)).sum(axis=2)
    threes = (pat == Pattern.LIVE3).sum(axis=2)
    score += FORK_FOUR_FOUR * (fours >= 2) + FORK_FOUR_THREE * ((fours >= 1) & (threes >= 1))
    score += FORK_THREE_THREE * (threes >= 2)
    return score


class PatternPlayer(Player):
    """Win now; else block a five; else the best pattern score (attack plus defence), ties broken
    towards the centre, then by a seeded random draw."""

    name = "pattern"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def ranked(self, board: Board, limits: Limits) -> list[tuple[Move, float]]:
        me, opp = board.to_move, board.to_move.opponent
        n = board.size
        legal = board.stones() == Color.EMPTY
        if me == Color.BLACK and board.rule == Rule.RENJU:
            legal &= board.forbidden_points() == Foul.NONE
        if not legal.any():
            return []
        if board.stone_count == 0:
            return [((n // 2, n // 2), 0.0)]
        score = pattern_scores(board, me) + DEFENCE * pattern_scores(board, opp)
        # Exact override: a win now, then a block of the opponent's five.
        ys, xs = np.nonzero(legal)
        for x, y in zip(xs.tolist(), ys.tolist()):
            if board.wins_at(x, y, me):
                score[y, x] = 1e12
            elif board.wins_at(x, y, opp):
                score[y, x] = max(score[y, x], 1e11)
        yy, xx = np.mgrid[0:n, 0:n]
        centre = -np.hypot(xx - (n - 1) / 2, yy - (n - 1) / 2) * 1e-3
        jitter = np.array([self.rng.random() for _ in range(n * n)]).reshape(n, n) * 1e-6
        total = np.where(legal, score + centre + jitter, -np.inf)
        order = np.argsort(-total, axis=None)
        out = []
        for idx in order:
            y, x = divmod(int(idx), n)
            if not legal[y, x]:
                break
            out.append(((x, y), float(score[y, x])))
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


PLAYERS: dict[str, type[Player]] = {"pattern": PatternPlayer, "deliberate": DeliberatePlayer}


def make_player(name: str) -> Player:
    try:
        return PLAYERS[name]()
    except KeyError:
        raise ValueError(f"unknown player {name!r}; choose from {', '.join(sorted(PLAYERS))}") from None
