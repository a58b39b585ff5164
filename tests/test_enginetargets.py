"""Targets from another engine's search (engine.train.data.enginetargets): its evaluation lines read
as values, the score scale fitted to results, and a run through a scripted engine."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.board import Board, Rule
from engine.train.data import enginetargets as et

FAKE = Path(__file__).resolve().parent / "fakes" / "fake_pentazen.py"


def test_the_last_evaluation_counts_and_a_split_line_still_reads():
    lines = ["MESSAGE dep 5-9 ev 35 nd 12k tm 40 sp 300", "MESSAGE dep ", "-$ ev -v9 nd 50k tm 81 sp 600"]
    assert et.evaluation(lines) == ("loss", 9.0)
    assert et.evaluation(lines[:1]) == ("score", 35.0)
    assert et.evaluation(["MESSAGE dep 3-7 ev +v5 nd 9k tm 2 sp 4500", "MESSAGE hello"]) == ("win", 5.0)


def test_rapfis_lines_read_as_evaluations():
    said = ["MESSAGE OptiTime 333ms | MaxTime 370ms", "MESSAGE Depth 14-24 | Eval -58 | Time 370ms | G8 H7",
            "MESSAGE Speed 826K | Depth 14-24 | Eval -58 | Node 305K | Time 370ms"]
    assert et.evaluation(said) == ("score", -58.0)
    assert et.evaluation(["MESSAGE Speed 50000 | Depth 26-2 | Eval +M3 | Node 50 | Time 0ms"]) == ("win", 3.0)
    assert et.evaluation(["MESSAGE Depth 26-2 | Eval -M2 | Time 0ms | L8"]) == ("loss", 2.0)


def test_a_dropped_restart_is_sent_again():
    teacher = et.EngineTeacher([sys.executable, str(FAKE), "--drop-restart"], 100)
    try:
        opening = [(7, 7), (7, 6), (8, 6)]
        assert teacher.ask(opening) == ((6, 7), ("win", 7.0))
        with pytest.raises(RuntimeError):  # the one RESTART it gets is dropped: no OK comes
            teacher._restart(tries=1, wait=0.2)
        assert teacher.ask(opening + [(6, 7)])[0] == (7, 8)  # a RESTART that is not the first after a move
        assert teacher.ask(opening + [(6, 7), (7, 8)])[0] == (8, 7)  # the first is dropped, the next answered
    finally:
        teacher.close()


def test_a_score_from_no_search_is_no_evaluation():
    # PentaZen answers a single forced reply at once: "ev 0 nd 1", which says nothing of the position
    assert et.evaluation(["MESSAGE dep - ev 0 nd 1 tm 1 sp 1"]) is None
    assert et.evaluation(["MESSAGE dep - ev +v1 nd 1 tm 1 sp 1"]) == ("win", 1.0)  # a five is known
    assert et.evaluation([]) is None and et.evaluation(["MESSAGE book"]) is None


def test_values_of_evaluations():
    assert et.value_of(("win", 17.0), 200) == 1.0 and et.value_of(("loss", 3.0), 200) == -1.0
    assert math.isclose(et.value_of(("score", 100.0), 200), math.tanh(0.5))
    assert math.isclose(et.value_of(("score", -100.0), 50), -math.tanh(2.0))
    assert math.isnan(et.value_of(None, 200))


def test_the_fitted_scale_is_the_one_the_results_were_drawn_with():
    rng = np.random.default_rng(3)
    scores = rng.normal(0, 300, 20_000)
    for true in (100, 400):
        p_win = (1 + np.tanh(scores / true)) / 2
        z = np.where(rng.random(len(scores)) < p_win, 1.0, -1.0)
        assert et.fit_scale(scores, z) == true
    # undecided games and missing scores are left out; with nothing left, the grid's middle
    assert et.fit_scale(np.array([np.nan, 50.0]), np.array([1.0, 0.0])) == et._SCALES[len(et._SCALES) // 2]


def _game(opening, moves, winner):
    return {"black": "a", "white": "b", "opening": [list(m) for m in opening],
            "moves": [list(m) for m in moves], "winner": winner}


def test_targets_through_a_scripted_engine():
    # The scripted engine answers the free point nearest the centre, after lines that end in "+v7".
    plain = _game([(7, 7), (7, 6), (8, 6)], [(6, 8), (9, 7), (6, 6), (10, 8), (4, 4), (11, 11)], "white")
    # Black to move at 8 stones where the centre is black's double three: that answer is left out.
    foul = _game([(5, 7), (0, 0), (6, 7)], [(14, 14), (7, 5), (0, 14), (7, 6), (14, 0), (10, 10)], "black")
    board = Board.from_moves([(5, 7), (0, 0), (6, 7), (14, 14), (7, 5), (0, 14), (7, 6), (14, 0)], rule=Rule.RENJU)
    assert not board.is_legal(7, 7)
    data, scale = et.build([plain, foul], [sys.executable, str(FAKE)], ms=100, stones=(8, 8), workers=1)
    assert len(data["value"]) == 1 and data["value"][0] == 1.0  # "+v7": a win for the side to move
    assert data["z"][0] == -1.0 and data["game"][0] == 0  # black to move at 8 stones, and white won
    assert data["policy"].shape == (1, 225) and data["policy"][0].sum() == 1.0
    assert data["policy"][0][7 * 15 + 6] == 1.0  # the engine's answer, (6, 7)
    planes = np.zeros_like(data["planes"][0], np.float32)
    Board.from_moves([(7, 7), (7, 6), (8, 6), (6, 8), (9, 7), (6, 6), (10, 8), (4, 4)], rule=Rule.RENJU).planes(planes)
    assert np.array_equal(data["planes"][0], planes.astype(np.uint8))
    assert scale in et._SCALES
