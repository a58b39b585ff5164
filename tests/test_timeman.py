"""Per-move budgets from the manager's limits."""
from __future__ import annotations

import os

import pytest

from engine.players import PatternPlayer
from engine.protocol.timeman import (
    LOAD_WAIT_S,
    MARGIN_S,
    MARGIN_SHARE,
    UNLIMITED_MS,
    TimeControl,
    budget,
    loading_charge,
    moves_to_go,
)


def test_turn_limit_with_margin():
    b = budget(TimeControl(timeout_turn=1000), stones=10, cells=225)
    assert 0 < b.maximum < 1.0 - MARGIN_S
    assert b.maximum <= 0.9 * 1.0  # well inside the turn
    assert 0 < b.optimum <= b.maximum


def test_zero_turn_means_move_at_once():
    b = budget(TimeControl(timeout_turn=0, timeout_match=100000, time_left=100000), 10, 225)
    assert b.instant and b.maximum == 0 and b.optimum == 0


@pytest.mark.parametrize("left", [-500, 0, 50])
def test_spent_clock_gives_no_time(left):
    b = budget(TimeControl(timeout_turn=5000, timeout_match=120000, time_left=left), 40, 225)
    assert b.maximum == 0.0


def test_match_clock_limits_a_long_turn():
    tc = TimeControl(timeout_turn=300_000, timeout_match=1_000_000, time_left=20_000)
    b = budget(tc, stones=30, cells=225)
    assert b.maximum <= 20 * 0.25
    assert b.optimum <= 20 / moves_to_go(30, 225)


def test_unlimited_match_uses_the_turn():
    tc = TimeControl(timeout_turn=5000, timeout_match=0, time_left=UNLIMITED_MS)
    b = budget(tc, 20, 225)
    assert b.maximum == pytest.approx(5 * (1 - MARGIN_SHARE) - MARGIN_S)


def test_no_time_left_yet_counts_the_whole_match():
    tc = TimeControl(timeout_turn=30_000, timeout_match=180_000)
    assert budget(tc, 0, 225).maximum <= 180 * 0.25


def test_startup_is_paid_by_the_first_move():
    tc = TimeControl(timeout_turn=1000)
    plain, first = budget(tc, 0, 225), budget(tc, 0, 225, startup=0.3)
    assert first.maximum == pytest.approx(plain.maximum - 0.3)
    assert budget(tc, 0, 225, startup=5.0).maximum == 0.0


def test_no_limits_at_all_uses_a_default():
    b = budget(TimeControl(), 0, 225)
    assert 0 < b.maximum < 5.0


def test_moves_to_go_shrinks_but_not_below_ten():
    assert moves_to_go(0, 225) > moves_to_go(60, 225) >= 10
    assert moves_to_go(200, 225) == 10


def test_time_is_bankable_only_with_a_match_clock():
    from engine.protocol.timeman import UNLIMITED_MS, TimeControl, bankable

    assert not bankable(TimeControl(timeout_turn=1000))
    assert not bankable(TimeControl(timeout_turn=1000, timeout_match=0))
    assert not bankable(TimeControl(timeout_turn=1000, time_left=UNLIMITED_MS))
    assert bankable(TimeControl(timeout_turn=1000, timeout_match=60000))
    assert bankable(TimeControl(timeout_turn=1000, timeout_match=60000, time_left=5000))


def test_loading_counts_every_wait_when_no_resume_came_while_loading():
    """A manager freezes an engine right after START, before Python runs: when no resume arrives
    while loading, the wall time holds no suspension, and the disk's and the cores' waits are
    on the first move's clock (a first move of 1,190 ms at 1 s a move when that was capped)."""
    assert loading_charge(cpu=0.30, wall=0.38) == pytest.approx(0.38)
    assert loading_charge(cpu=0.30, wall=0.90, queued=0.10) == pytest.approx(0.90)
    assert loading_charge(cpu=0.30, wall=0.25) == pytest.approx(0.30)  # threads: CPU ran ahead of the wall


def test_a_resume_while_loading_starts_the_clock():
    """Frozen after the module started: the seconds since the resume count, not the suspension;
    the CPU and queue (within LOAD_WAIT_S) stand in when the resume was noted late."""
    assert loading_charge(cpu=0.30, wall=30.0, since_resume=0.50) == pytest.approx(0.50)
    assert loading_charge(cpu=0.30, wall=30.0, since_resume=0.05) == pytest.approx(0.30 + LOAD_WAIT_S)
    assert loading_charge(cpu=0.30, wall=30.0, queued=0.40, since_resume=0.05) == pytest.approx(0.70 + LOAD_WAIT_S)
    assert loading_charge(cpu=0.30, wall=0.50, queued=0.40, since_resume=0.05) == pytest.approx(0.50)  # within the wall


def test_a_resume_while_loading_is_noted(monkeypatch):
    """The engine's SIGCONT handler notes the resume, and startup_seconds charges from it."""
    import signal

    import engine.__main__ as main

    if not hasattr(signal, "SIGCONT"):
        pytest.skip("no SIGCONT on this platform")
    monkeypatch.setattr(main, "_RESUMED", [])
    monkeypatch.setattr(main, "_LOAD_T0", main.time.monotonic() - 60.0)  # a minute ago, mostly frozen
    monkeypatch.setattr(main.time, "process_time", lambda: 0.30)  # the loading's CPU, not the test run's
    monkeypatch.setattr(main, "queued_seconds", lambda: 0.0)
    signal.signal(signal.SIGCONT, main._note_resume)
    os.kill(os.getpid(), signal.SIGCONT)
    assert len(main._RESUMED) == 1
    spent = main.startup_seconds()
    assert spent == pytest.approx(0.30 + LOAD_WAIT_S, abs=0.05)  # not the minute since loading began
    assert signal.getsignal(signal.SIGCONT) == signal.SIG_DFL  # later resumes are not noted
    monkeypatch.setattr(main, "_RESUMED", [])
    assert main.startup_seconds() >= 60.0  # no resume seen: all of the wall time


def test_the_run_queue_wait_is_read_from_schedstat(tmp_path):
    from engine.__main__ import queued_seconds

    stat = tmp_path / "schedstat"
    stat.write_text("62879699 403451000 22\n")
    assert queued_seconds(str(stat)) == pytest.approx(0.403451)
    stat.write_text("garbage\n")
    assert queued_seconds(str(stat)) == 0.0
    assert queued_seconds(str(tmp_path / "missing")) == 0.0


class _LatePlayer(PatternPlayer):
    """Answers `late` seconds past each deadline on a fake clock, and notes each budget it got."""

    name = "late"

    def __init__(self, clock: list[float], late: list[float]) -> None:
        super().__init__()
        self.clock, self.late, self.budgets = clock, late, []

    def choose(self, board, limits):
        self.budgets.append(limits.deadline - self.clock[0])
        self.clock[0] = limits.deadline + self.late.pop(0)
        return super().choose(board, limits)


def test_a_move_past_its_deadline_shortens_the_next_budgets():
    from engine.protocol.session import OVERRUN_DECAY, Session

    now = [100.0]
    player = _LatePlayer(now, [0.0, 0.2, 0.0, 0.0, -0.3])
    s = Session(player, clock=lambda: now[0])
    s.handle("START 15")
    s.handle("INFO timeout_turn 1000")
    moves = ["BEGIN", "0,0", "0,2", "0,4", "0,6"]
    for line in moves:
        cmd = line if line == "BEGIN" else f"TURN {line}"
        assert len(s.handle(cmd)) == 1
        now[0] += 1.0  # the opponent's turn
    full = budget(TimeControl(timeout_turn=1000), 0, 225).maximum
    assert player.budgets[0] == pytest.approx(full) and player.budgets[1] == pytest.approx(full)
    assert player.budgets[2] == pytest.approx(full - 0.2)  # the 0.2 s overrun comes off the next move
    assert player.budgets[3] == pytest.approx(full - 0.2 * OVERRUN_DECAY)  # and fades while moves keep time
    assert player.budgets[4] == pytest.approx(full - 0.2 * OVERRUN_DECAY**2)
    assert s.overrun == pytest.approx(0.2 * OVERRUN_DECAY**3)  # an early move pays nothing back
