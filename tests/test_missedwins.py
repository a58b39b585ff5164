"""The sets of wins our own games let go and of the moves that lost them (engine.bench.missedwins):
which moves are walked, which oracle answers make a record, collections through a scripted oracle
engine (several oracles, merged runs), and the judge of the engine's moves."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from engine.bench import missedwins as mw
from engine.bench.prover import MISSED, load
from engine.board import Board
from engine.board.coords import parse_points

FAKE = Path(__file__).resolve().parent / "fakes" / "fake_pentazen.py"

# White ("new") answers a three-stone opening far away; nothing is decided on the board.
QUIET = {"black": "pentazen", "white": "new", "opening": [[7, 7], [7, 8], [8, 8]],
         "moves": [[0, 0, 5], [14, 14, 5], [0, 14, 5], [14, 0, 5], [2, 0, 5]], "winner": "black", "reason": "five"}
# Black ("new") makes five on row 7; its last move ends the game.
FIVE = {"black": "new", "white": "pentazen", "opening": [[7, 7]],
        "moves": [[0, 0, 5], [8, 7, 5], [0, 2, 5], [9, 7, 5], [0, 4, 5], [10, 7, 5], [0, 6, 5], [11, 7, 5]],
        "winner": "black", "reason": "five"}

# White ("new") wins when black ("pentazen") makes an overline, a foul the referee never played.
FOUL = {"black": "pentazen", "white": "new", "opening": [[7, 7]],
        "moves": [[14, 14, 5], [0, 7, 5], [14, 12, 5], [1, 7, 5], [14, 10, 5], [2, 7, 5], [12, 14, 5], [4, 7, 5],
                  [10, 14, 5], [5, 7, 5], [12, 0, 5], [3, 7, 5]], "winner": "white", "reason": "foul"}


def test_the_engines_moves_are_walked_but_not_the_opening_nor_a_move_that_ends_the_game():
    quiet = mw.turns([QUIET], "new", "r.json")
    assert [t.played for t in quiet] == [(0, 0), (0, 14), (2, 0)]
    assert [len(t.before) for t in quiet] == [3, 5, 7]
    assert quiet[1].before == ((7, 7), (7, 8), (8, 8), (0, 0), (14, 14)) and quiet[1].source == "r.json game 1 ply 5"
    five = mw.turns([QUIET, FIVE], "new", "r.json")[3:]
    assert [t.played for t in five] == [(8, 7), (9, 7), (10, 7)]  # (11, 7), the five, has no position after it
    assert five[0].source == "r.json game 2 ply 2"
    assert [t.played for t in mw.turns([QUIET], "pentazen", "r.json")] == [(14, 14), (14, 0)]  # not its opening stones
    foul = mw.turns([FOUL], "new", "r.json")  # the opponent's foul at the end is not replayed
    assert [t.played for t in foul] == [(14, 14), (14, 12), (14, 10), (12, 14), (10, 14), (12, 0)]
    assert mw.turns([FOUL], "pentazen", "r.json")[-1].played == (5, 7)
    # --lost-only: the games the engine won are left out, the others kept
    assert mw.turns([FIVE], "new", "r.json", lost_only=True) == []
    assert len(mw.turns([QUIET], "new", "r.json", lost_only=True)) == 3
    assert [mw.walked(g, "new", True) for g in (QUIET, FIVE)] == [True, False]
    assert [mw.walked(g, "nobody") for g in (QUIET, FIVE)] == [False, False]


def test_a_record_needs_an_announced_win_another_move_and_no_loss_after_it():
    walked = mw.turns([QUIET], "new", "r.json")  # three moves: (0,0), (0,14), (2,0)
    # the oracle's view of each position before the move, then of each position after it
    before = {3: ((6, 7), ("win", 17.0)),    # a win, and the move played is another: recorded
              5: ((0, 14), ("win", 9.0)),    # a win, but the engine played the oracle's move
              7: ((6, 7), ("score", 400.0))}  # no announced win
    asked: list[list[tuple]] = []

    def ask(positions):
        asked.append(positions)
        if len(asked) == 1:
            return [before[len(p)] for p in positions]
        return [((1, 1), ("score", -300.0)) for _ in positions]

    recs = mw.missed(walked, ask, "rapfi")
    assert [len(p) for p in asked[1]] == [4]  # only the candidate is judged after the move
    assert recs == [{"moves": "h8,h9,i9", "rule": "renju", "to_move": "white", "source": "r.json game 1 ply 3",
                     "oracle": "rapfi", "oracle_move": "g8", "oracle_plies": 17, "played": "a1"}]

    def still_lost(positions):  # after the move the opponent is still lost: another way to the win
        return [before[len(p)] for p in positions] if len(positions) == 3 else [((1, 1), ("loss", 15.0))]

    assert mw.missed(walked, still_lost) == []


def test_the_move_that_lost_is_the_first_after_which_the_opponent_wins():
    walked = mw.turns([QUIET], "new", "r.json")  # three moves: (0,0), (0,14), (2,0), 3, 5 and 7 stones before

    def ask(positions, verdict):
        def one(p):
            if len(p) == 6 and p[-1] == (0, 14):  # after the second move: the opponent wins
                return (9, 9), ("win", 21.0)
            if len(p) == 6:  # after the oracle's own move instead
                return (9, 9), verdict
            return (6, 7), ("score", 100.0)
        return [one(p) for p in positions]

    [rec] = mw.losing(walked, lambda ps: ask(ps, ("score", 50.0)), "pentazen")
    assert rec == {"moves": "h8,h9,i9,a1,o15", "rule": "renju", "to_move": "white", "source": "r.json game 1 ply 5",
                   "oracle": "pentazen", "played": "a15", "opponent_plies": 21, "oracle_move": "g8", "held": True}
    [rec] = mw.losing(walked, lambda ps: ask(ps, ("win", 25.0)))  # the oracle's move loses too
    assert not rec["held"]
    # the oracle saw the mover lost before the move: the game gives no losing move
    lost_first = [((6, 7), ("loss", 30.0))] + [((6, 7), ("score", 0.0))] * 2
    assert mw.losing(walked, lambda ps: ask(ps, ("score", 50.0)), answers=lost_first) == []


def collect(tmp_path, *extra):
    results = tmp_path / "m" / "results.json"
    results.parent.mkdir(exist_ok=True)
    results.write_text(json.dumps([QUIET, FIVE]))
    return mw.main(["collect", str(results), "--name", "new", "--ms", "50", "--workers", "1",
                    "--out", str(tmp_path / "missed.jsonl"), "--date", "2026-12-06", *extra])


def test_collect_through_a_scripted_oracle(tmp_path):
    # the fake announces +v7 at every position and plays the free point nearest the centre
    out = tmp_path / "missed.jsonl"
    assert collect(tmp_path, "--oracle", f"{sys.executable} {FAKE}") == 0
    header, *recs = [json.loads(line) for line in out.read_text().splitlines()]
    [run] = header["runs"]
    assert run["games"] == 2 and run["turns"] == 6 and run["date"] == "2026-12-06" and run["added"] == 6
    assert header["positions"] == 6 and {r["oracle"] for r in recs} == {"fake_pentazen"}
    assert [r["played"] for r in recs] == ["a1", "a15", "c1", "i8", "j8", "k8"]
    assert {r["oracle_plies"] for r in recs} == {7}
    for r in recs:  # the oracle's move is legal and not the one played
        board = Board.from_moves(parse_points(r["moves"]))
        assert board.is_legal(*parse_points(r["oracle_move"])[0]) and r["oracle_move"] != r["played"]


def test_two_oracles_a_losing_set_and_a_merged_second_run(tmp_path):
    """Wins announced at 6 stones only: FIVE's engine let one go (ply 6), and QUIET's engine moved
    into one (ply 5; the oracle's own move there loses too). A second run, wins at 4 stones,
    merged in: each file keeps its records and adds the new, its header lists both runs."""
    fake = f"{sys.executable} {FAKE}"
    missed, losing = tmp_path / "missed.jsonl", tmp_path / "losing.jsonl"
    assert collect(tmp_path, "--oracle", f"rapfi={fake} --wins-at 6", "--oracle", f"pentazen={fake} --score-only",
                   "--losing-out", str(losing)) == 0
    [m] = mw.read_set(missed)[1]
    assert (m["source"], m["oracle"], m["played"]) == ("m/results.json game 2 ply 6", "rapfi", "k8")
    [lost] = mw.read_set(losing)[1]
    assert (lost["source"], lost["played"], lost["opponent_plies"], lost["held"]) == (
        "m/results.json game 1 ply 5", "a15", 7, False)
    assert collect(tmp_path, "--oracle", f"rapfi={fake} --wins-at 4", "--losing-out", str(losing), "--merge") == 0
    header, recs = mw.read_set(missed)
    assert [r["source"] for r in recs] == ["m/results.json game 2 ply 6", "m/results.json game 2 ply 4"]
    assert [run["added"] for run in header["runs"]] == [1, 1] and header["runs"][0]["oracles"] == ["rapfi", "pentazen"]
    header, recs = mw.read_set(losing)
    assert [r["source"] for r in recs] == ["m/results.json game 1 ply 5", "m/results.json game 1 ply 3"]
    assert header["positions"] == 2 and len(header["runs"]) == 2


def test_judge_counts_the_wins_kept_and_the_losses_avoided(tmp_path, capsys):
    recs = [{"moves": "h8,h9,i9", "rule": "renju", "source": "a"},
            {"moves": "h8,h9,i9,a1", "rule": "renju", "source": "b"}]
    answers = {4: ("loss", 9.0), 5: ("win", 11.0)}  # after the first move the oracle is lost; after the second it wins
    out = mw.judge(recs, lambda b: (0, 14) if b.stone_count == 3 else (14, 0),
                   lambda ps: [((1, 1), answers[len(p)]) for p in ps])
    assert out == [{"source": "a", "move": "a15", "kept_win": True, "avoided_loss": True},
                   {"source": "b", "move": "o1", "kept_win": False, "avoided_loss": False}]
    # through the command: a losing set counts the positions where another move held
    losing = tmp_path / "losing.jsonl"
    mw.write_set(losing, "x", [], [{**recs[0], "held": True}, {**recs[1], "held": False}])
    fake = f"{sys.executable} {FAKE} --loses-at 99"  # never a loss: its +v7 is the opponent's win everywhere
    assert mw.main(["judge", "--set", str(losing), "--oracle", fake, "--player", "pattern", "--ms", "50",
                    "--engine-ms", "50", "--workers", "1"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["positions"], summary["counted"], summary["avoided_loss"]) == (2, 1, 0)
    kept = tmp_path / "missed.jsonl"
    mw.write_set(kept, "x", [], recs)
    assert mw.main(["judge", "--set", str(kept), "--oracle", f"{sys.executable} {FAKE} --loses-at 4,5",
                    "--player", "pattern", "--ms", "50", "--engine-ms", "50", "--workers", "1"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["counted"], summary["kept_win"]) == (2, 2)


def test_the_shipped_set_is_well_formed():
    recs = load(MISSED)
    assert recs
    for r in recs:
        board = Board.from_moves(parse_points(r["moves"]), rule=r["rule"])
        assert not board.game_over and board.to_move.name.lower() == r["to_move"]
        oracle, played = parse_points(r["oracle_move"])[0], parse_points(r["played"])[0]
        assert oracle != played and board.is_legal(*oracle) and board.is_legal(*played)
        assert r["oracle_plies"] >= 1 and r["oracle"]


def test_judge_takes_search_settings_for_an_ablation():
    cfg = mw.search_config(["verify_ms=0", "utss=false", "radius=2"])
    assert (cfg.verify_ms, cfg.utss, cfg.radius) == (0.0, False, 2)
    with pytest.raises(SystemExit, match="no 'nonsense'"):
        mw.search_config(["nonsense=1"])


def test_the_shipped_losing_set_is_well_formed():
    header, recs = mw.read_set(mw.LOSING)
    assert recs and header["positions"] == len(recs) and header["runs"]
    for r in recs:
        board = Board.from_moves(parse_points(r["moves"]), rule=r["rule"])
        assert not board.game_over and board.to_move.name.lower() == r["to_move"]
        played, oracle = parse_points(r["played"])[0], parse_points(r["oracle_move"])[0]
        assert board.is_legal(*played) and board.is_legal(*oracle) and r["opponent_plies"] >= 1
        assert isinstance(r["held"], bool) and (not r["held"] or oracle != played)
