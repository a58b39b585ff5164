"""Time management: how long one move may think, from the manager's limits.

Gomocup's referee measures a move from writing the command to reading the reply, and counts a
late move as a loss; its 1000 ms tolerance is not ours to spend. So every budget keeps a safety
margin for Python, the pipe and scheduling, and the first move also pays for start-up, because
the referee freezes the engine right after START and the first move's clock runs while the
engine is still loading (docs/protocol.md, "How managers drive an engine")."""
from __future__ import annotations

from dataclasses import dataclass

UNLIMITED_MS = 2_147_483_647  # what managers send for "no limit"

# Fixed part of the safety margin: reading the command, answering, flushing, the OS switching
# processes; the proportional part covers the player's own overshoot checks (docs/history.md has
# the moves the referee timed).
MARGIN_S = 0.060
MARGIN_SHARE = 0.05
# Never stake more than this share of the remaining match time on one move.
MATCH_SHARE_CAP = 0.25
# Loading waits for the disk and for other processes, which CPU time does not show: seen here, a
# first move of 1,037 ms at 1 s a move when four engines loaded at once (a match start). Wall time
# shows it but also holds any suspension after START, so it counts up to this much more than CPU
# (and than the wait for a core, where the platform reports it: see loading_charge).
LOAD_WAIT_S = 0.15


def loading_charge(cpu: float, wall: float, queued: float = 0.0) -> float:
    """Seconds of loading that the first move's clock may have paid, from the CPU and wall time
    spent so far and the time spent runnable but waiting for a core (`queued`: Linux reports it;
    a frozen process is not runnable, so a suspension is not in it): the wall time, but no more
    than the CPU time plus the queueing plus LOAD_WAIT_S."""
    return max(cpu, min(wall, cpu + queued + LOAD_WAIT_S))


@dataclass
class TimeControl:
    """The manager's limits, as INFO gives them (milliseconds; None when never given)."""

    timeout_turn: int | None = None  # 0: move as fast as possible
    timeout_match: int | None = None  # 0: no match limit
    time_left: int | None = None  # may be negative; UNLIMITED_MS when the match is unlimited


def bankable(tc: TimeControl) -> bool:
    """Is time saved on this move available later? Only when a match clock runs; with a turn limit
    alone, stopping early throws the rest away."""
    if tc.time_left is not None:
        return tc.time_left != UNLIMITED_MS
    return bool(tc.timeout_match) and tc.timeout_match != UNLIMITED_MS


@dataclass(frozen=True)
class Budget:
    optimum: float  # seconds to aim for
    maximum: float  # seconds never to exceed

    @property
    def instant(self) -> bool:
        return self.maximum <= 0


DEFAULT_TURN_MS = 5_000  # when no limit was given at all (Gomocup's fastest league)


def moves_to_go(stones: int, cells: int) -> int:
    """Own moves still to come, a rough guess: games against strong engines rarely fill more than
    ~30% of the board, and a higher guess leaves a match clock unspent."""
    return max(10, int(cells * 0.3 - stones) // 2)


def budget(tc: TimeControl, stones: int, cells: int, startup: float = 0.0) -> Budget:
    """The budget of one move. `startup` is time already spent that the manager's clock counts
    (the first move's share of loading)."""
    if tc.timeout_turn == 0:
        return Budget(0.0, 0.0)
    turn = (tc.timeout_turn if tc.timeout_turn is not None else DEFAULT_TURN_MS) / 1000.0
    cap = turn
    share = turn
    left_ms = tc.time_left
    if left_ms is None and tc.timeout_match:
        left_ms = tc.timeout_match  # no time_left yet: the whole match is ahead
    if left_ms is not None and left_ms != UNLIMITED_MS:
        left = max(0.0, left_ms / 1000.0)
        cap = min(cap, left * MATCH_SHARE_CAP)
        share = min(share, left / moves_to_go(stones, cells))
    maximum = max(0.0, cap * (1.0 - MARGIN_SHARE) - MARGIN_S - startup)
    optimum = min(maximum, max(0.0, share * (1.0 - MARGIN_SHARE) - startup))
    return Budget(optimum, maximum)
