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
# After a resume seen while loading, the CPU and run-queue time may be charged up to this much
# more: the resume's own timestamp is taken late when a C call holds the interpreter.
LOAD_WAIT_S = 0.15


def loading_charge(cpu: float, wall: float, queued: float = 0.0, since_resume: float | None = None) -> float:
    """Seconds of loading that the first move's clock may have paid. `wall` runs from the start of
    the engine's module (plus the CPU used before it), `queued` is the time spent runnable but
    waiting for a core, `since_resume` the time since a resume (SIGCONT) that arrived while
    loading, None when none did. A manager that freezes an engine does it right after START,
    before Python is even running: with no resume seen, no suspension lies in `wall` and all of it
    is charged, disk and page faults and busy cores included (where nothing froze the engine it is
    more than the clock holds, which only shortens the first move). After a resume the clock ran
    from it: that time, or the CPU and queue since the start if more, within the wall."""
    if since_resume is None:
        return max(cpu, wall)
    return max(since_resume, cpu, min(wall, cpu + queued + LOAD_WAIT_S))


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


def budget(tc: TimeControl, stones: int, cells: int, startup: float = 0.0, overrun: float = 0.0) -> Budget:
    """The budget of one move. `startup` is time already spent that the manager's clock counts
    (the first move's share of loading); `overrun` is kept off the maximum besides the fixed
    margin (recent moves that ended past their own deadline)."""
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
    maximum = max(0.0, cap * (1.0 - MARGIN_SHARE) - MARGIN_S - startup - overrun)
    optimum = min(maximum, max(0.0, share * (1.0 - MARGIN_SHARE) - startup))
    return Budget(optimum, maximum)
