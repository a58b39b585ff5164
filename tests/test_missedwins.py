"""The set of wins our own games let go (engine.bench.missedwins): which moves are walked, which
oracle answers make a record, and a collection through a scripted oracle engine."""
from __future__ import annotations

import json
import sys
from pathlib import Path

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

    recs = mw.missed(walked, ask)
    assert [len(p) for p in asked[1]] == [4]  # only the candidate is judged after the move
    assert recs == [{"moves": "h8,h9,i9", "rule": "renju", "to_move": "white", "source": "r.json game 1 ply 3",
                     "oracle_move": "g8", "oracle_plies": 17, "played": "a1"}]

    def still_lost(positions):  # after the move the opponent is still lost: another way to the win
        return [before[len(p)] for p in positions] if len(positions) == 3 else [((1, 1), ("loss", 15.0))]

    assert mw.missed(walked, still_lost) == []


def test_collect_through_a_scripted_oracle(tmp_path):
    # the fake announces +v7 at every position and plays the free point nearest the centre
    results = tmp_path / "m" / "results.json"
    results.parent.mkdir()
    results.write_text(json.dumps([QUIET, FIVE]))
    out = tmp_path / "missed.jsonl"
    assert mw.main(["collect", str(results), "--name", "new", "--oracle", f"{sys.executable} {FAKE}",
                    "--ms", "50", "--workers", "1", "--out", str(out), "--date", "2026-12-06"]) == 0
    header, *recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert header["games"] == 2 and header["turns"] == 6 and header["date"] == "2026-12-06"
    assert [r["played"] for r in recs] == ["a1", "a15", "c1", "i8", "j8", "k8"]
    assert {r["oracle_plies"] for r in recs} == {7}
    for r in recs:  # the oracle's move is legal and not the one played
        board = Board.from_moves(parse_points(r["moves"]))
        assert board.is_legal(*parse_points(r["oracle_move"])[0]) and r["oracle_move"] != r["played"]


def test_the_shipped_set_is_well_formed():
    recs = load(MISSED)
    assert recs
    for r in recs:
        board = Board.from_moves(parse_points(r["moves"]), rule=r["rule"])
        assert not board.game_over and board.to_move.name.lower() == r["to_move"]
        oracle, played = parse_points(r["oracle_move"])[0], parse_points(r["played"])[0]
        assert oracle != played and board.is_legal(*oracle) and board.is_legal(*played)
        assert r["oracle_plies"] >= 1
