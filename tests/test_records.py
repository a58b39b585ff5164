"""Game records: Piskvork .psq read and written (engine.records.psq), SGF collections
(engine.records.sgf), RenjuNet's database (engine.records.renjunet), judge's end of a game, and
load() over folders and archives; on real Gomocup records, samples written as the writers lay
them out, and broken ones."""
from __future__ import annotations

import gzip
import re
import tarfile
import zipfile
from pathlib import Path

import pytest

from engine.board import Board, Color, Result, Rule
from engine.native import Occupied
from engine.records import load, psq, renjunet, sgf
from engine.records.game import Game, RecordError, confirm, judge

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


# ---- judge: how a game ended ------------------------------------------------------------------

# Black's double three at j8 (renju notation; x, y with y from the top): h8 i8 across, j6 j7 up.
FOUL_MOVES = [(7, 7), (0, 14), (8, 7), (0, 0), (9, 9), (14, 14), (9, 8), (14, 0), (9, 7)]
FIVE_MOVES = [(7, 7), (7, 6), (8, 7), (8, 6), (9, 7), (9, 6), (10, 7), (10, 6), (11, 7)]


@pytest.mark.parametrize("moves, end, winner", [
    (FIVE_MOVES, "five", Color.BLACK),
    (FIVE_MOVES[:-1] + [(0, 0), (11, 6)], "five", Color.WHITE),
    (FOUL_MOVES, "foul", Color.WHITE),  # black's last move is its forbidden point: white wins
    (FOUL_MOVES[:-1], "stopped", None),  # a time-out, a crash or a resignation, as far as the board tells
    (FIVE_MOVES[:4] + [(8, 6)], "illegal", Color.WHITE),  # black played on white's stone and lost
])
def test_judge_classifies_how_a_game_ended(moves, end, winner):
    game = judge(Game(15, Rule.RENJU, list(moves)))
    assert (game.end, game.winner) == (end, winner)
    assert game.valued == (end != "stopped")


def test_judge_calls_the_200th_stone_a_draw_and_refuses_a_move_past_it():
    r = psq.read(RECORDS / "gomocup2020-renju-draw200.psq")
    game = judge(Game(15, Rule.RENJU, r.points()))
    assert (game.end, game.winner) == ("draw200", None)
    with pytest.raises(RecordError, match="past the 200-stone draw"):
        judge(Game(15, Rule.RENJU, r.points() + [(14, 14)]))


def test_the_same_moves_under_freestyle_are_no_foul_but_an_unfinished_game():
    assert judge(Game(15, Rule.FREESTYLE, list(FOUL_MOVES))).end == "stopped"


@pytest.mark.parametrize("moves, error", [
    (FOUL_MOVES + [(1, 1)], "black's foul at move 9"),
    (FIVE_MOVES + [(0, 0)], "move 10 .* after the game was decided"),
    ([(7, 7), (7, 7), (8, 8)], "move 2 .* occupied"),
])
def test_judge_refuses_a_record_that_cannot_have_been_played(moves, error):
    with pytest.raises(RecordError, match=error):
        judge(Game(15, Rule.RENJU, moves, source="here"))


def test_confirm_refuses_a_result_the_board_contradicts():
    game = judge(Game(15, Rule.RENJU, list(FIVE_MOVES), extra={"result": "white"}, source="g"))
    with pytest.raises(RecordError, match="g: the record's result is white, the board's is black"):
        confirm(game)
    stopped = judge(Game(15, Rule.RENJU, FIVE_MOVES[:-1], extra={"result": "white"}))
    assert confirm(stopped) is stopped  # a resignation agrees with any result


# ---- SGF --------------------------------------------------------------------------------------

def _sgf(body: str, root: str = "GM[4]FF[4]SZ[15]RU[4]") -> list:
    return list(sgf.loads(f"(;{root}{body})", Rule.RENJU, "t.sgf"))


def _points_sgf(moves) -> str:
    return "".join(f";{'BW'[i % 2]}[{chr(97 + x)}{chr(97 + y)}]" for i, (x, y) in enumerate(moves))


def test_c_gomoku_cli_games_read_as_the_gomocup_records_they_were_written_from():
    games = list(sgf.read(RECORDS / "c-gomoku-cli-renju.sgf", Rule.FREESTYLE))  # RU[4] overrides the default
    assert all(isinstance(g, Game) for g in games) and len(games) == 3
    five, draw, lost = games
    assert five.moves == psq.read(RECORDS / "gomocup2020-renju-five.psq").points()
    assert five.moves[:2] == [(7, 7), (7, 6)]  # hh hg: x then y, rows from the top, as psq's 8,8 8,7
    assert (five.size, five.rule, five.opening, five.names) == (15, Rule.RENJU, 5, ("YIXIN18", "EMBRYO20.R"))
    assert (five.end, five.winner, five.extra["result"], five.extra["reason"]) == ("five", Color.BLACK, "black", "five")
    assert (len(draw.moves), draw.opening, draw.end, draw.extra["reason"]) == (200, 4, "draw200", "adjudication")
    occupied = psq.read(RECORDS / "gomocup2020-renju-occupied.psq").points()
    assert lost.moves == occupied[:-1]  # c-gomoku-cli leaves the illegal move out ...
    assert (lost.end, lost.extra["result"], lost.extra["reason"]) == ("stopped", "white", "illegal")  # ... and says so
    assert lost.source.endswith("c-gomoku-cli-renju.sgf game 3")


def test_sgf_points_are_column_then_row_from_the_top_left():
    (g,) = _sgf(";B[ao];W[oa];B[hh]")
    assert g.moves == [(0, 14), (14, 0), (7, 7)]
    (big,) = _sgf(";B[tt]", root="GM[4]SZ[20]")  # on a 20x20 board "tt" is a point, not a pass
    assert big.moves == [(19, 19)] and big.size == 20
    (small,) = _sgf(";B[hh];W[tt]")  # on 15x15 it is FF[3]'s pass, which ends the record
    assert small.moves == [(7, 7)] and small.extra["passes"] == 1


def test_sgf_setup_stones_are_the_opening_and_the_main_line_is_read():
    text = r"""(;GM[4]FF[4]SZ[15]RU[renju]PB[Black \] player]PlayerWhite[Wh\\ite]C[a soft\
break]AB[hh][jj]AW[ii]
      ;W[gg]C[first choice]
      (;B[kk];W[ll](;B[mm])(;B[aa]))
      (;B[oo]))
    (;GM[4]AB[aa:ab]AW[ba][bb];B[cc])"""
    first, second = sgf.loads(text, Rule.FREESTYLE, "t")
    assert first.moves == [(7, 7), (8, 8), (9, 9), (6, 6), (10, 10), (11, 11), (12, 12)]
    assert first.opening == 3 and first.rule == Rule.RENJU
    assert first.names == ("Black ] player", "Wh\\ite")  # escapes, and FF[3]'s long identifiers
    assert second.moves == [(0, 0), (1, 0), (0, 1), (1, 1), (2, 2)] and second.opening == 4
    assert second.rule == Rule.FREESTYLE  # no RU: the caller's rule


@pytest.mark.parametrize("ru, rule", [
    ("0", Rule.FREESTYLE), ("1", Rule.STANDARD), ("2", Rule.RENJU), ("4", Rule.RENJU),
    ("RIF", Rule.RENJU), ("Yamaguchi", Rule.RENJU), ("Renju", Rule.RENJU), ("freestyle", Rule.FREESTYLE),
    ("Standard gomoku", Rule.STANDARD), ("caro", Rule.CARO),
    ("gomoku", Rule.CARO_EXACT), ("五子棋", Rule.CARO_EXACT),  # labels that name no rule: the caller's
])
def test_sgf_rule_comes_from_ru_when_ru_names_one(ru, rule):
    (g,) = sgf.loads(f"(;GM[4]RU[{ru}];B[hh])", Rule.CARO_EXACT, "t")
    assert g.rule == rule and g.extra["RU"] == ru


@pytest.mark.parametrize("text, error", [
    ("(;GM[4]SZ[15];B[hh];W[h", "game 1 .*cut short: line 1: the value of W is never closed"),
    ("(;GM[4]SZ[15];B[hh];W[hi]\n", "cut short: no closing"),
    ("(;GM[4];B[hh];W[hh];B[ii])", "t.sgf game 1: move 2 .* occupied"),
    ("(;GM[4]" + _points_sgf(FOUL_MOVES + [(1, 1)]) + ")", "black's foul at move 9"),
    ("(;GM[4]" + _points_sgf(FIVE_MOVES + [(0, 0)]) + ")", "move 10 .* after the game was decided"),
    ("(;GM[4];B[h8])", "move 1: 'h8' is not a point"),
    ("(;GM[4];B[hh];W[zz])", "move 2: 'zz' is off the 15x15 board"),
    ("(;GM[4];B[hh];B[ii])", r"move 2 is B\[ii\] but W is to play"),
    ("(;GM[4];W[hh])", "move 1 is W"),
    ("(;GM[1]SZ[19];B[pd];W[dd])", "GM\\[1\\] is not a Gomoku or Renju game"),
    ("(;GM[4];B[hh];W[];B[ii])", "move 3 follows a pass"),
    ("(;GM[4]RE[W+R]" + _points_sgf(FIVE_MOVES) + ")", "the record's result is white, the board's is black"),
    ("(;GM[4]SZ[15:19];B[hh])", "not a square board"),
    ("(;GM[4]RU[5];B[hh])", "RU\\[5\\] is no rule number"),
    ("(;GM[4];B[hh]W[ii])", "two moves in one node"),
    ("(;GM[4]AB[hh][ii][jj]AW[aa];W[bb])", "3 black and 1 white setup stones"),
    ("(;GM[4]AB[hh];B[ii])", r"move 2 is B\[ii\] but W is to play"),
    ("(;GM[4];B[hh];AB[aa])", "setup stones after move 1"),
    ("(;GM[4];B[hh]!)", "line 1: .!. where a node"),
    ("(;GM[4];B[hh]junk)", "property junk has no value"),
    ("(;GM[4];B[hh]C)", "property C has no value"),
    ("nothing here", "no SGF game tree"),
])
def test_a_broken_sgf_game_is_reported_with_where(text, error):
    (bad,) = sgf.loads(text, Rule.RENJU, "t.sgf")
    assert isinstance(bad, RecordError)
    assert re.search(error, str(bad)), str(bad)


def test_a_bad_game_in_a_collection_is_skipped_and_the_others_read():
    good = "(;GM[4]RU[4]" + _points_sgf(FIVE_MOVES) + ")"
    out = list(sgf.loads(good + "\n(;GM[4];B[hh];W[hh];B[aa])\n" + good + "\n(;GM[4];B[hh]", Rule.RENJU, "c"))
    assert [type(g).__name__ for g in out] == ["Game", "RecordError", "Game", "RecordError"]
    assert "c game 2: move 2" in str(out[1]) and "game 4" in str(out[3]) and "cut short" in str(out[3])


def test_a_foul_as_the_last_sgf_move_is_white_s_win():
    (g,) = _sgf(_points_sgf(FOUL_MOVES), root="GM[4]RU[4]RE[W+F]")
    assert (g.end, g.winner, g.extra["result"], g.extra["reason"]) == ("foul", Color.WHITE, "white", "forfeit")


# ---- RenjuNet ---------------------------------------------------------------------------------

def test_the_renjunet_sample_reads_its_games_and_reports_its_bad_ones():
    out = list(renjunet.read(RECORDS / "renjunet-sample.xml", Rule.FREESTYLE))
    games = [g for g in out if isinstance(g, Game)]
    errors = [str(e) for e in out if isinstance(e, RecordError)]
    assert [g.extra["id"] for g in games] == ["101", "102", "103", "104"]
    five, resigned, gomoku, foul = games
    assert five.moves[:3] == [(7, 7), (7, 6), (8, 7)]  # h8 h9 i8: rows count from the bottom
    assert (five.size, five.rule, five.opening, five.names) == (15, Rule.RENJU, 3, ("Anna Example", "Boris Sample"))
    assert (five.end, five.winner, five.extra["result"]) == ("five", Color.BLACK, "black")
    assert five.extra["tournament"] == "Sample Open & Cup" and five.extra["rule_name"] == "RIF"
    assert (resigned.end, resigned.extra["result"], resigned.extra["info"]) == ("stopped", "white", "Black resigned.")
    assert len(resigned.moves) == 10 and resigned.extra["opening_name"] == "Ugetsu"
    assert (gomoku.rule, gomoku.extra["result"], gomoku.names[0]) == (Rule.STANDARD, "draw", "Testa")
    assert (foul.rule, foul.end, foul.winner) == (Rule.RENJU, "foul", Color.WHITE)  # the tournament's rule
    assert len(errors) == 6
    for gid, error in zip(range(105, 111), ["move 3 .* occupied", "move 2 'p16' is not a point", "no moves",
                                           "move 10 .* after the game was decided", "record's result is white",
                                           "category '3'"]):
        assert any(re.search(f"game {gid}: .*{error}", e) for e in errors), (gid, errors)


def test_a_cut_renjunet_file_keeps_the_games_before_the_cut():
    data = (RECORDS / "renjunet-sample.xml").read_bytes()
    cut = data[: data.index(b'<game id="103"') + 30]
    out = list(renjunet.loads(cut, Rule.RENJU, "cut.xml"))
    assert [g.extra["id"] for g in out[:-1]] == ["101", "102"]
    assert isinstance(out[-1], RecordError) and "cut.xml: the XML breaks" in str(out[-1])


def test_a_renjunet_game_without_rules_takes_the_caller_s_rule_and_other_xml_is_refused():
    xml = '<database><games><game id="1"><move>h8 h9 a1</move></game></games></database>'
    (g,) = renjunet.loads(xml, Rule.FREESTYLE)
    assert g.rule == Rule.FREESTYLE and g.moves == [(7, 7), (7, 6), (0, 14)] and "result" not in g.extra
    (bad,) = renjunet.loads("<project><build/></project>", Rule.RENJU, "pom.xml")
    assert isinstance(bad, RecordError) and "pom.xml: no RenjuNet <game>" in str(bad)


# ---- load: files, folders, archives -----------------------------------------------------------

def test_load_reads_every_kind_and_skips_the_bad_records(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    for name in ("gomocup2020-renju-five.psq", "c-gomoku-cli-renju.sgf", "renjunet-sample.xml"):
        (folder / name).write_bytes((RECORDS / name).read_bytes())
    (folder / "cut.sgf").write_text("(;GM[4]RU[4];B[hh];W[hi];B[")
    (folder / "broken.psq").write_text("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,x,0\n")
    (folder / "notes.txt").write_text("(;GM[4];B[hh]) is not read from a .txt")
    (folder / "other.xml").write_text("<project/>")
    sub = folder / "packed"
    sub.mkdir()
    with tarfile.open(sub / "games.tar.gz", "w:gz") as tar:
        tar.add(RECORDS / "c-gomoku-cli-renju.sgf", arcname="a/c.sgf")
    with zipfile.ZipFile(sub / "db.zip", "w") as z:
        z.write(RECORDS / "renjunet-sample.xml", arcname="renjunet.rif")
    (sub / "one.sgf.gz").write_bytes(gzip.compress(b"(;GM[4]RU[0];B[hh];W[ii])"))
    (sub / "bad.zip").write_bytes(b"not a zip")

    out = list(load([folder]))
    games = [g for g in out if isinstance(g, Game)]
    errors = [str(e) for e in out if isinstance(e, RecordError)]
    assert len(games) == 1 + 3 + 4 + 3 + 4 + 1
    assert len(errors) == 1 + 1 + 1 + 6 + 6 + 1
    assert any("cut.sgf" in e and "cut short" in e for e in errors)
    assert any("broken.psq: line 3" in e for e in errors)
    assert any("other.xml: no RenjuNet" in e for e in errors)
    assert any("bad.zip" in e for e in errors)
    assert any(g.source.endswith("games.tar.gz:a/c.sgf game 1") and g.end == "five" for g in games)
    assert any(g.source.endswith("db.zip:renjunet.rif game 104") and g.end == "foul" for g in games)
    assert any(g.source.endswith("one.sgf.gz game 1") and g.rule == Rule.FREESTYLE for g in games)
