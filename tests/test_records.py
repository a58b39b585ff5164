"""Game records: Piskvork .psq read and written (engine.records.psq), on real Gomocup records and
broken ones."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.board import Board, Result, Rule
from engine.native import Occupied
from engine.records import psq

RECORDS = Path(__file__).parent / "data" / "records"


def test_a_gomocup_record_reads_to_a_game_that_ends_in_a_five():
    r = psq.read(RECORDS / "gomocup2020-renju-five.psq")
    assert r.size == 15 and r.names == ["YIXIN18.zip", "EMBRYO20.R.zip"]
    assert len(r.moves) == 35
    assert [ms for _, _, ms in r.moves[:5]] == [0] * 5  # the referee's opening stones
    assert r.moves[0][:2] == (7, 7)  # "8,8" is 1-based
    b = Board(r.size, Rule.RENJU)
    for x, y in r.points():
        b.play(x, y)
    assert b.game_over and b.result in (Result.BLACK_WINS, Result.WHITE_WINS)


def test_a_record_drawn_at_the_cap_and_one_lost_on_an_occupied_point():
    drawn = psq.read(RECORDS / "gomocup2020-renju-draw200.psq")
    assert len(drawn.moves) == 200
    lost = psq.read(RECORDS / "gomocup2020-renju-occupied.psq")
    b = Board(15, Rule.RENJU)
    *before, last = lost.points()
    for x, y in before:
        b.play(x, y)
    with pytest.raises(Occupied):  # the reader keeps the losing move; judging it is the caller's
        b.play(*last)


def test_what_the_writer_writes_the_reader_reads():
    opening, moves = [(7, 7), (8, 8)], [(6, 6, 120), (9, 9, 980), (0, 14, 5)]
    text = psq.dumps(15, opening, moves, ["pbrain-renju", "alphabeta"])
    r = psq.loads(text)
    assert r.moves == [(7, 7, 0), (8, 8, 0)] + moves
    assert r.names == ["pbrain-renju", "alphabeta"]


@pytest.mark.parametrize("text, error", [
    ("", "empty record"),
    ("8,8,0\n", "line 1: not a Piskvork header"),
    ("Piskvorky 15x20, 11:11, 0\n8,8,0\n", "rectangular|15x20"),
    ("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,x,0\n", "line 3: not a move line"),
    ("Piskvorky 15x15, 11:11, 0\n8,8\n", "line 2: not a move line"),
    ("Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,30\n", "line 3: move 16,1 off the 15x15 board"),
    ("Piskvorky 15x15, 11:11, 0\n8,8,-5\n", "line 2: negative time"),
])
def test_a_broken_record_is_refused_with_its_line(text, error):
    with pytest.raises(ValueError, match=error):
        psq.loads(text)


def test_a_truncated_record_keeps_the_moves_it_has(tmp_path):
    whole = (RECORDS / "gomocup2020-renju-five.psq").read_text().splitlines()
    cut = tmp_path / "cut.psq"
    cut.write_text("\n".join(whole[:11]) + "\n")  # the header and ten moves, no names
    r = psq.read(cut)
    assert len(r.moves) == 10 and r.names == []
    cut.write_text("Piskvorky 15x15, 11:11, 0\n1,2,3,4\n")
    with pytest.raises(ValueError, match="cut.psq: line 2"):  # read() names the file
        psq.read(cut)
