"""The referee: scripted fake engines that time out, crash, go silent, print garbage, play
occupied, off-board or forbidden moves, or use too much memory, each adjudicated with the
opponent credited; records; statistics against hand-computed values."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from engine.board import Color, Rule
from engine.match import openings as op
from engine.match.__main__ import engine_spec, main, schedule, time_use
from engine.match.arena import EngineSpec, GameRecord, MatchConfig, play_game
from engine.match.stats import Tally, elo, elo_interval, expected_score, ratings, sprt, sprt_llr
from engine.prover import Prover
from engine.records.text import psq, text

ROOT = Path(__file__).resolve().parents[1]
FAKE = ROOT / "tests" / "fakes" / "fake_engine.py"


def fake(mode: str, name: str | None = None) -> EngineSpec:
    return EngineSpec(name or mode, (sys.executable, str(FAKE), mode, str(ROOT)))


GOOD = fake("good")
CFG = MatchConfig(timeout_turn=400, tolerance=300, rule=Rule.FREESTYLE)


@pytest.mark.parametrize("mode, reason", [
    ("timeout", "timeout"), ("silent", "timeout"), ("garbage", "timeout"), ("crash", "crash"),
    ("occupied", "occupied"), ("offboard", "offboard"),
])
@pytest.mark.parametrize("bad_colour", [Color.BLACK, Color.WHITE])
def test_failures_lose_and_credit_the_opponent(mode, reason, bad_colour):
    bad = fake(mode)
    black, white = (bad, GOOD) if bad_colour == Color.BLACK else (GOOD, bad)
    rec = play_game(black, white, [(7, 7), (8, 8)], CFG)
    assert rec.reason == reason
    assert rec.winner == bad_colour.opponent
    assert rec.score_for(GOOD.name) == 1.0 and rec.score_for(bad.name) == 0.0


def test_black_foul_in_renju_loses():
    # The ZIP-check position: black (the fake) to move with g9 forbidden.
    opening = [(7, 7), (7, 8), (8, 6), (8, 8), (7, 9), (8, 5), (8, 10), (8, 11)]
    rec = play_game(fake("forbidden"), GOOD, opening, MatchConfig(timeout_turn=1000, rule=Rule.RENJU))
    assert (rec.winner, rec.reason) == (Color.WHITE, "foul")
    assert rec.moves[0][:2] == (6, 8)


def test_five_and_draw_under_rules():
    rec = play_game(GOOD, GOOD.__class__("good2", GOOD.command), [(0, 0)], MatchConfig(timeout_turn=1000, size=7,
                                                                                       rule=Rule.STANDARD))
    assert rec.reason in ("five", "full")
    # Greedy against the nearest-the-centre fake under freestyle: both deterministic, and greedy
    # makes a five (random opponents can fill the board: about 1 game in 100).
    rec = play_game(EngineSpec("greedy", (sys.executable, "-m", "engine", "--player", "greedy")), GOOD, [(7, 7)],
                    MatchConfig(timeout_turn=1000, rule=Rule.FREESTYLE))
    assert (rec.reason, rec.winner) == ("five", Color.BLACK)


def test_match_time_runs_out():
    slow = fake("slow=300", "slow")
    cfg = MatchConfig(timeout_turn=1000, timeout_match=1000, tolerance=100, rule=Rule.FREESTYLE)
    rec = play_game(slow, GOOD, [], cfg)
    assert (rec.reason, rec.winner) == ("timeout", Color.WHITE)
    slow_moves = rec.moves[0::2]  # black's: 300 ms moves (the first also pays for start-up) until the clock is gone
    # the clock charges each move 10 ms less than it took (GomocupJudge's pipe latency), and the
    # records truncate to whole ms (up to 1 ms a move below the clock)
    used = sum(ms - 10 for _, _, ms in slow_moves)
    # lost at the first move the clock could not pay
    assert len(slow_moves) >= 2 and used <= 1000 + 100 < used + len(slow_moves) + 300


def test_memory_over_the_limit_loses():
    cfg = MatchConfig(timeout_turn=5000, max_memory=200 * 1024 * 1024, rule=Rule.FREESTYLE)
    rec = play_game(GOOD, fake("memory"), [(7, 7)], cfg)
    assert (rec.reason, rec.winner) == ("memory", Color.BLACK)


def test_records_and_io_log():
    cfg = MatchConfig(timeout_turn=1000, rule=Rule.FREESTYLE, log_io=True)
    rec = play_game(fake("good", "a"), fake("offboard", "b"), [(7, 7), (8, 8)], cfg)
    p = psq(rec, cfg).splitlines()
    assert p[0] == "Piskvorky 15x15, 11:11, 0" and p[1] == "8,8,0" and p[2] == "9,9,0"
    assert p[-4:] == ["-1", "a", "b", "-1"]
    t = text(rec, cfg)
    assert "a (black) - b (white)" in t and "black wins (offboard)" in t
    io = rec.io["a (black)"]
    assert any("> START 15" in line for line in io) and any("< OK" in line for line in io)
    assert any("> BOARD" in line for line in io) and any("> INFO time_left" in line for line in io)


def test_statistics_hand_computed():
    t = Tally(wins=6, losses=2, draws=2)
    assert t.games == 10 and t.score == pytest.approx(0.7)
    assert elo(0.7) == pytest.approx(-400 * math.log10(1 / 0.7 - 1))  # 147.19
    assert elo(0.7) == pytest.approx(147.19, abs=0.01)
    # per-game variance: (6*0.3^2 + 2*0.2^2 + 2*0.7^2)/10 = 0.16; se = 0.4/sqrt(10) = 0.12649
    lo_s, hi_s = 0.7 - 1.959964 * 0.4 / math.sqrt(10), 0.7 + 1.959964 * 0.4 / math.sqrt(10)
    e, lo, hi = elo_interval(t)
    assert lo == pytest.approx(elo(lo_s)) and hi == pytest.approx(elo(hi_s))
    assert lo == pytest.approx(-33.40, abs=0.01) and hi == pytest.approx(504.03, abs=0.01)
    assert expected_score(0) == 0.5 and expected_score(400) == pytest.approx(10 / 11)
    # LLR = N/2 ((s-s0)^2 - (s-s1)^2)/var with s0 = 0.5, s1 = expected_score(50) = 0.57146
    s1 = 1 / (1 + 10 ** (-50 / 400))
    assert sprt_llr(t, 0, 50) == pytest.approx(5 * ((0.2) ** 2 - (0.7 - s1) ** 2) / 0.16)
    verdict, llr, low, up = sprt(t, 0, 50)
    assert verdict == "continue" and low == pytest.approx(math.log(0.05 / 0.95)) and up == pytest.approx(-low)
    assert sprt(Tally(wins=300, losses=100, draws=0), 0, 50)[0] == "H1"
    assert sprt(Tally(wins=100, losses=300, draws=0), 0, 50)[0] == "H0"
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


def test_a_clean_sweep_still_has_a_finite_bound():
    """All games won: the point estimate is infinite, but Wilson's lower bound, n / (n + z^2) as a
    score, is finite and rises with the games; all lost mirrors it; all drawn brackets 0."""
    for n in (8, 24):
        e, lo, hi = elo_interval(Tally(wins=n))
        assert e == math.inf and hi == math.inf
        assert lo == pytest.approx(elo(n / (n + 1.959964 ** 2)))
        assert elo_interval(Tally(losses=n))[1:] == (-math.inf, pytest.approx(-lo))
    assert elo_interval(Tally(wins=24))[1] > elo_interval(Tally(wins=8))[1] > 0
    e, lo, hi = elo_interval(Tally(draws=10))
    assert e == 0 and lo < 0 < hi and lo == pytest.approx(-hi)


def test_openskill_orders_a_gauntlet():
    r = ratings(["a", "b", "c"], [("a", "b", 1.0)] * 6 + [("b", "c", 1.0)] * 6 + [("a", "c", 1.0)] * 6)
    assert r["a"][0] > r["b"][0] > r["c"][0]


def test_openings_shipped_and_valid():
    r26 = op.load("renju26")
    assert len(r26) == 26 and len({tuple(o) for o in r26}) == 26
    bal = op.load("balanced")
    assert len(bal) >= 20
    for o in r26 + bal:
        op.validate(o, 15, Rule.RENJU)


def test_schedule_plays_each_opening_with_both_colours():
    import random

    a, b = EngineSpec("a", ("x",)), EngineSpec("b", ("y",))
    jobs = schedule([a, b], 6, [[(7, 7)], [(7, 7), (8, 8)], [(1, 1)]], random.Random(3))
    assert len(jobs) == 6
    for i in range(0, 6, 2):
        assert jobs[i][0] == jobs[i + 1][1] and jobs[i][2] == jobs[i + 1][2]


def test_schedule_varies_openings_once_they_are_used_up():
    import random

    a, b = EngineSpec("a", ("x",)), EngineSpec("b", ("y",))
    base = op.load("renju26")[:3]
    jobs = schedule([a, b], 16, base, random.Random(5), 15, Rule.RENJU)
    pairs = [jobs[i][2] for i in range(0, 16, 2)]
    assert sorted(map(tuple, pairs[:3])) == sorted(map(tuple, base))
    assert len({tuple(o) for o in pairs}) == 8  # no game repeats another
    prover = Prover()
    for o in pairs[3:]:
        assert len(o) == 5 and o[:3] in base
        board = op.validate(o, 15, Rule.RENJU)  # legal, no foul, no five
        assert board.to_move == Color.WHITE and prover.solve(board, "vcf", max_depth=10).result != "win"


def test_engine_specs():
    assert engine_spec("greedy").name == "greedy" and engine_spec("greedy").command[-1] == "greedy"
    assert engine_spec("pbrain-renju").command[-2:] == ("-m", "engine")
    assert engine_spec("me=/bin/pbrain-x --fast").name == "me"
    assert engine_spec("/opt/pbrain-x").name == "pbrain-x"


def test_engine_specs_make_paths_to_files_here_absolute(tmp_path, monkeypatch):
    # engines run in folders of their own: a relative model path must still name the file
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "net.onnx").write_bytes(b"x")
    monkeypatch.chdir(tmp_path)
    spec = engine_spec("me=python -m engine --model runs/net.onnx --search c_puct=2 --log-level INFO")
    assert spec.command == ("python", "-m", "engine", "--model", str((tmp_path / "runs" / "net.onnx").resolve()),
                            "--search", "c_puct=2", "--log-level", "INFO")
    assert engine_spec("python -m engine --model runs/missing.onnx").command[-1] == "runs/missing.onnx"


def test_cli_runs_a_short_match(tmp_path, capsys):
    status = main(["--engine", "greedy", "--engine", "random", "--games", "2", "--tc", "500", "--rule", "freestyle",
                   "--out", str(tmp_path), "--sprt", "0,100"])
    assert status == 0
    out = capsys.readouterr().out
    assert "greedy vs random: 2 games" in out and "Elo difference" in out and "SPRT" in out
    assert "time of greedy: a game" in out and "time of random: a game" in out
    assert len(list((tmp_path / "games").glob("*.psq"))) == 2
    assert (tmp_path / "results.json").exists()
    for bad in ("greedy", "greedy=x", "nobody=2", "greedy=-1"):  # NAME=FACTOR, a playing engine, positive
        with pytest.raises(SystemExit):
            main(["--engine", "greedy", "--engine", "random", "--odds", bad, "--out", str(tmp_path)])


def test_time_use_counts_each_engines_own_moves():
    """After an opening of three stones white moves first; after two, black. Hand-computed."""
    odd = GameRecord("a", "b", [(7, 7), (7, 8), (8, 8)], [(1, 1, 100), (2, 2, 4000), (3, 3, 300)], Color.BLACK)
    even = GameRecord("b", "a", [(7, 7), (7, 8)], [(1, 1, 50), (2, 2, 700), (3, 3, 60), (4, 4, 900)], Color.WHITE)
    line_a = time_use([odd, even], "a")  # a: 4000 (odd, black) and 700 + 900 (even, white)
    assert line_a == "  time of a: a game 2.8 s median (1.6-4.0 s), a move 1867 ms mean, 4000 ms longest"
    line_b = time_use([odd, even], "b")  # b: 100 + 300 (odd, white) and 50 + 60 (even, black)
    assert line_b == "  time of b: a game 0.3 s median (0.1-0.4 s), a move 128 ms mean, 300 ms longest"
    assert time_use([odd], "c") is None


def test_loss_analysis_finds_the_move_that_lost():
    from engine.match.losses import analyse_game

    # Black (the engine) ignores white's open three at move 7, then white fours and fives.
    moves = [(0, 0), (5, 5), (0, 2), (6, 5), (0, 4), (7, 5), (14, 14), (8, 5), (0, 6), (9, 5)]
    game = {"black": "me", "white": "them", "opening": [list(m) for m in moves[:1]],
            "moves": [[x, y, 10] for x, y in moves[1:]], "winner": "white", "reason": "five"}
    loss = analyse_game(game, "me", Prover(), 200.0, Rule.FREESTYLE, 15, 1)
    assert loss is not None and loss.colour == "black" and loss.length == 10
    assert loss.decisive == 6 and moves[loss.decisive] == (14, 14)
    assert loss.line and loss.line[0] in ((4, 5), (8, 5))  # white's open four
    assert loss.safe == loss.candidates == 4  # the filter's answers to the three (its four blocks) all hold
    assert analyse_game(game, "them", Prover(), 200.0, Rule.FREESTYLE, 15, 1) is None  # the winner lost nothing
    by_dfpn = analyse_game(game, "me", Prover(), 200.0, Rule.FREESTYLE, 15, 1, kind="dfpn")
    assert by_dfpn.decisive == 6 and by_dfpn.safe == by_dfpn.candidates == 4


def test_time_odds_multiply_one_engines_limits():
    """With x2.5 odds an engine is sent (and refereed by) 2.5 times the turn and match limits; its
    opponent keeps the plain ones."""
    cfg = MatchConfig(timeout_turn=1000, timeout_match=20000, rule=Rule.FREESTYLE, size=7, log_io=True,
                      odds={"a": 2.5})
    assert cfg.limits_for("a") == (2500, 50000) and cfg.limits_for("b") == (1000, 20000)
    rec = play_game(fake("good", "a"), fake("good", "b"), [], cfg)
    assert rec.reason in ("five", "full")
    a, b = rec.io["a (black)"], rec.io["b (white)"]
    sent_a, sent_b = "\n".join(a), "\n".join(b)
    assert "> INFO timeout_turn 2500" in sent_a and "> INFO timeout_match 50000" in sent_a
    assert "> INFO timeout_turn 1000" in sent_b and "> INFO timeout_match 20000" in sent_b
    assert any("> INFO time_left 5" in line for line in a) and not any("> INFO time_left 5" in line for line in b)
    assert "time odds a x2.5" in text(rec, cfg)


def test_a_replayed_decisive_move_is_searched_again_and_judged_by_dfpn():
    """The same loss replayed with the search (heuristic evaluator): it blocks the three, and the
    block holds; the move actually played does not."""
    from engine.match.losses import analyse_game, replay
    from engine.players.registry import make_player

    moves = [(0, 0), (5, 5), (0, 2), (6, 5), (0, 4), (7, 5), (14, 14), (8, 5), (0, 6), (9, 5)]
    game = {"black": "me", "white": "them", "opening": [list(m) for m in moves[:1]],
            "moves": [[x, y, 10] for x, y in moves[1:]], "winner": "white", "reason": "five"}
    loss = analyse_game(game, "me", Prover(), 200.0, Rule.FREESTYLE, 15, 1, kind="dfpn")
    player = make_player("mcts", model="heuristic", search="verify_ms=0")
    found = replay(game, loss, player, [0.2, 0.4], Prover(), 300.0, Rule.FREESTYLE, 15)
    assert [s for s, _, _ in found] == [0.2, 0.4]
    for _, move, holds in found:
        assert move in ((4, 5), (8, 5), (3, 5), (9, 5)) and holds  # a block of the open three
    played = replay(game, loss, _Fixed(moves[6]), [0.1], Prover(), 300.0, Rule.FREESTYLE, 15)
    assert played == [(0.1, (14, 14), False)]


class _Fixed:
    """A player that always answers one move."""

    def __init__(self, move):
        self.move = move

    def new_game(self):
        pass

    def ranked(self, board, limits):
        return [(self.move, 1.0)]
