"""engine.bench.vctset: the threat-sequence cut of hand-made games, the games it skips, PentaZen's
search lines, labelling through a fake PentaZen, the match-log reader on a --log-io folder, and
the shipped tests/data/vct_positions.jsonl (every record replays legally, no five on the board)."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from engine.bench import movekind, oracles, vctset
from engine.board import Board, Color, Foul, Pattern, Result, Rule
from engine.board.coords import format_point, parse_points
from engine.match.arena import GameRecord, MatchConfig
from engine.records.game import Game, judge
from engine.records.text import save

ROOT = Path(__file__).resolve().parents[1]
FAKE = ROOT / "tests" / "fakes" / "fake_pentazen.py"

# Black's groups: a row two at y=12 (x=2,3) that becomes a three, then a four; a column of three
# at x=10 (y=2..4, white at y=1: a dead three) and a row two at y=5 (x=11,12), so that (10,5) is a
# four-three. White's stones are scattered and quiet.
SETUP = [(2, 12), (14, 14), (3, 12), (0, 7), (10, 2), (10, 1), (10, 3), (7, 14), (11, 5), (14, 9),
         (12, 5), (5, 0)]
# three, four, four-three; white then blocks the three instead of the four; five.
GAME = SETUP + [(10, 4), (14, 0),  # ply 12: black's quiet move (the column's dead three)
                (4, 12), (5, 12),  # ply 14: three
                (1, 12), (0, 12),  # ply 16: four
                (10, 5), (9, 5),  # ply 18: four-three; white blocks the three
                (10, 6)]  # ply 20: five
# The same groups with the quiet move after the four: the cut starts after it, at the four-three.
QUIET_IN_THE_MIDDLE = SETUP + [(4, 12), (5, 12), (1, 12), (0, 12),
                               (10, 4), (14, 0),  # ply 16: quiet
                               (10, 5), (10, 6),  # ply 18: four-three; white blocks the four
                               (9, 5), (8, 5),  # ply 20: straight four
                               (13, 5)]  # ply 22: five


def game_of(moves, source="hand"):
    return judge(Game(15, Rule.RENJU, list(moves), source=source))


def test_move_kinds_from_the_pattern_machinery():
    board = Board.from_moves(GAME[:14])
    assert movekind.move_kind(board, (4, 12)) == "3"
    assert movekind.move_kind(board, (10, 4)) == "-"  # a dead three: no straight four can follow
    board = Board.from_moves(GAME[:18])
    assert movekind.move_kind(board, (10, 5)) == "43"
    assert movekind.move_kind(board, (10, 5), Color.WHITE) == "-"
    board = Board.from_moves(QUIET_IN_THE_MIDDLE[:20])
    assert movekind.move_kind(board, (9, 5)) == "4L"


def test_black_three_whose_straight_four_points_are_fouls_is_no_three():
    # (8,7) makes a black row three at y=7 (x=6..8); its straight-four points (5,7) and (9,7) also
    # complete a split four in the columns x=5 and x=9 (three stones each, white below): a double
    # four, so both are fouls and the three is no three
    black = [(6, 7), (7, 7), (5, 3), (5, 4), (5, 5), (9, 3), (9, 4), (9, 5)]
    white = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10), (0, 12), (2, 14), (5, 2), (9, 2)]
    board = Board.from_stones(black, white, to_move=Color.BLACK)
    assert board.patterns(Color.BLACK)[7, 8, 0] == Pattern.LIVE3
    after = board.copy()
    after.put(8, 7, Color.BLACK)
    assert after.foul(5, 7) == after.foul(9, 7) == Foul.DOUBLE_FOUR
    assert movekind.move_kind(board, (8, 7)) == "-"
    # with one column only, one straight-four point is still playable: a three
    assert movekind.move_kind(Board.from_stones(black[:5], white, to_move=Color.BLACK), (8, 7)) == "3"
    assert movekind.move_kind(Board.from_stones(black[:2], white, to_move=Color.BLACK), (8, 7)) == "3"


def test_cut_of_a_three_four_four_three_five_game():
    cut = vctset.threat_cut(GAME, Color.BLACK)
    assert (cut.ply, cut.kinds, cut.plies_to_end, cut.threes, cut.fours_only) == (14, ["3", "4", "43", "5"], 7, 1,
                                                                                  False)
    record = vctset.position_of(game_of(GAME, "x.tar.gz:g.psq"))
    assert record == {"moves": ",".join(format_point(m) for m in GAME[:14]), "rule": "renju", "to_move": "black",
                      "source": "x.tar.gz:g.psq ply 14", "plies_to_end": 7, "winner_moves": 4, "threes": 1,
                      "fours_only": False, "kinds": ["3", "4", "43", "5"], "opponent_four": False}


def test_a_quiet_move_in_the_middle_starts_the_cut_after_it():
    cut = vctset.threat_cut(QUIET_IN_THE_MIDDLE, Color.BLACK)
    assert (cut.ply, cut.kinds, cut.plies_to_end) == (18, ["43", "4L", "5"], 5)
    record = vctset.position_of(game_of(QUIET_IN_THE_MIDDLE))
    assert record["fours_only"] and record["threes"] == 0 and record["winner_moves"] == 3


def test_the_opening_is_not_part_of_the_sequence():
    cut = vctset.threat_cut(GAME, Color.BLACK, opening=17)
    assert cut.ply == 18 and cut.kinds == ["43", "5"]
    game = game_of(GAME)
    game.opening = 17
    assert vctset.position_of(game) is None  # two winner moves only


def test_games_ending_in_a_foul_or_stopped_are_skipped():
    foul = game_of([(7, 7), (0, 0), (8, 7), (0, 14), (9, 8), (14, 0), (9, 9), (14, 14), (9, 7)])
    assert foul.end == "foul"
    assert vctset.position_of(foul) is None
    stopped = game_of(GAME[:-1])  # a time-out or a crash: the record just stops
    assert stopped.end == "stopped"
    assert vctset.position_of(stopped) is None
    assert vctset.threat_cut(GAME[:-1], Color.BLACK) is None


def test_labelling_through_a_fake_pentazen():
    positions = [vctset.position_of(game_of(GAME))]
    [out] = oracles.label(positions, [sys.executable, str(FAKE)], ms=200, progress=False)
    assert out["pentazen"] == "+v7" and out["pentazen_ms"] == 81 and out["pentazen_ev"] == "+v7"
    assert out["pentazen_move"] == "h8" and out["pentazen_nodes"] == 50_000  # the first win's nd
    board = Board.from_moves(parse_points(positions[0]["moves"]), rule=Rule.RENJU)
    assert out["pentazen_first"] == oracles.first_class(movekind.move_kind(board, parse_points("h8")[0]))
    assert out["source"] == positions[0]["source"]


def test_oracles_relabel_every_position_and_keep_pentazens_in_game_word(tmp_path):
    out = tmp_path / "set.jsonl"
    gomocup = vctset.position_of(game_of(GAME, "a:b"))
    in_game = {**gomocup, "source": "pentazen-game m/0001 ply 14", "pentazen": "+v21"}
    vctset.write_file(out, {"about": "x", "commands": ["first"]}, [gomocup, in_game])
    fake = f"{sys.executable} {FAKE}"
    argv = ["oracles", "--out", str(out), "--oracle", f"pentazen={fake}", "--oracle", f"rapfi={fake} --score-only",
            "--ms", "200", "--workers", "2", "--date", "2026-12-07"]
    assert vctset.main(argv) == 0
    header, records = vctset.read_file(out)
    assert [r["pentazen"] for r in records] == ["+v7", "+v7"]  # asked afresh, the position alone
    assert [r.get("pentazen_in_game") for r in records] == [None, "+v21"]
    assert [r["rapfi"] for r in records] == [None, None] and records[0]["rapfi_ev"] == "35"
    assert "rapfi_first" not in records[0]  # no win announced: no first move to class
    assert set(header["oracles"]) == {"pentazen", "rapfi"} and header["oracles"]["rapfi"]["ms_per_move"] == 200
    assert header["counts"]["pentazen_wins"] == {records[0]["pentazen_first"]: 2}
    assert vctset.main(argv) == 0  # a second run replaces its command in the header, keeps the in-game word
    header, records = vctset.read_file(out)
    assert header["commands"][0] == "first" and sum(" oracles " in c for c in header["commands"]) == 1
    assert records[1]["pentazen_in_game"] == "+v21"
    with pytest.raises(SystemExit):
        vctset.main(["oracles", "--out", str(out), "--oracle", "stockfish=x"])


def _log(board_moves, turns):
    """PentaZen's side of a game as --log-io writes it (EngineProcess.transcript)."""
    t, lines = 0.0, []

    def add(arrow, line):
        nonlocal t
        t += 0.5
        lines.append(f"{t:9.3f} {arrow} {line}")

    for cmd in ("START 15", "INFO timeout_turn 1000", "INFO rule 4", "INFO time_left 2147483647", "BOARD"):
        add(">", cmd)
    for i, (x, y) in enumerate(board_moves):
        add(">", f"{x},{y},{1 if i % 2 == len(board_moves) % 2 else 2}")
    add(">", "DONE")
    add("<", "MESSAGE PentaZen 0.4.17 by Sun Yuliang")
    add("<", "OK")
    for i, (messages, (x, y), reply) in enumerate(turns):
        if i:
            add(">", "INFO time_left 2147483647")
            add(">", f"TURN {reply[0]},{reply[1]}")
        for m in messages:
            add("<", m)
        add("<", f"{x},{y}")
    return lines


def test_match_log_reader(tmp_path):
    cfg = MatchConfig()
    opening, moves = GAME[:3], GAME[3:]
    # PentaZen is black: its turns are plies 4, 6, ..., 20; it announces +v at ply 14 (and later)
    turns = []
    for ply in range(4, len(GAME), 2):
        messages = ["MESSAGE dep 5-9 ev 40 nd 1k tm 900 sp 1"]
        if ply >= 14:
            messages = [f"MESSAGE dep - ev +v{len(GAME) - ply} nd 1 tm 3 sp 1", "MESSAGE dep ev"]
        turns.append((messages, GAME[ply], GAME[ply - 1]))
    won = GameRecord("pentazen", "pbrain-renju", opening, [(x, y, 100) for x, y in moves], Color.BLACK, "five",
                     io={"pentazen (black)": _log(GAME[:4], turns), "pbrain-renju (white)": ["    0.001 > START 15"]})
    save(won, cfg, tmp_path / "games", 1)
    # a game PentaZen (white) lost, and one it won on time: neither gives a position
    lost = GameRecord("pbrain-renju", "pentazen", opening, [(x, y, 100) for x, y in moves], Color.BLACK, "five",
                      io={"pentazen (white)": _log(GAME[:3], [(["MESSAGE dep - ev +v3 tm 1"], GAME[3], None)])})
    save(lost, cfg, tmp_path / "games", 2)
    on_time = GameRecord("pentazen", "pbrain-renju", opening, [(x, y, 100) for x, y in moves[:5]], Color.BLACK,
                         "timeout", io={"pentazen (black)": _log(GAME[:4], turns[:1])})
    save(on_time, cfg, tmp_path / "games", 3)
    assert sorted(p.name for p in (tmp_path / "games").iterdir())[0:3] == [
        "0001_pentazen-vs-pbrain-renju.pbrain-renju_(white).io.log",
        "0001_pentazen-vs-pbrain-renju.pentazen_(black).io.log", "0001_pentazen-vs-pbrain-renju.psq"]
    [record] = vctset.match_positions(tmp_path)
    assert record["source"] == f"pentazen-game {tmp_path.name}/0001 ply 14"
    assert record["moves"] == ",".join(format_point(m) for m in GAME[:14]) and record["to_move"] == "black"
    assert (record["pentazen"], record["pentazen_ms"], record["pentazen_move"]) == ("+v7", 3, format_point(GAME[14]))
    assert (record["plies_to_end"], record["kinds"], record["threes"], record["fours_only"]) == (
        7, ["3", "4", "43", "5"], 1, False)
    # `games` adds them to a file, keeping its records and updating the header
    out = tmp_path / "set.jsonl"
    vctset.write_file(out, {"about": "x", "commands": ["first"]}, [vctset.position_of(game_of(GAME, "a:b"))])
    assert vctset.main(["games", str(tmp_path), "--out", str(out)]) == 0
    assert vctset.main(["games", str(tmp_path), "--out", str(out)]) == 0  # a second time replaces, not repeats
    header, records = vctset.read_file(out)
    assert [r["source"] for r in records] == ["a:b ply 14", f"pentazen-game {tmp_path.name}/0001 ply 14"]
    assert header["counts"]["pentazen_game_positions"] == 1 and len(header["commands"]) == 2
    assert header["matches"] == [{"folder": tmp_path.name, "command": None, "positions": 1, "result": None}]
    # another match's game 0001 is another game: added beside the first
    other = tmp_path.parent / (tmp_path.name + "-b")
    shutil.copytree(tmp_path / "games", other / "games")
    assert vctset.main(["games", str(other), "--out", str(out)]) == 0
    assert [r["source"] for r in vctset.read_file(out)[1]][1:] == [
        f"pentazen-game {tmp_path.name}/0001 ply 14", f"pentazen-game {other.name}/0001 ply 14"]


def test_held_out_archives_are_refused():
    with pytest.raises(ValueError, match="held out"):
        vctset.gomocup_positions(["/data/renju-2021.tar.gz"], progress=False)


def test_the_shipped_dataset_replays_legally():
    path = vctset.DATASET
    assert path.stat().st_size < 250_000
    header, records = vctset.read_file(path)
    assert header["about"] and header["counts"]["positions"] == len(records) > 0
    sources = set()
    for r in records:
        assert r["rule"] == "renju" and r["source"] not in sources
        sources.add(r["source"])
        board = Board.from_moves(parse_points(r["moves"]), rule=Rule.RENJU)  # raises on an illegal move
        assert board.result == Result.ONGOING
        assert board.to_move.name.lower() == r["to_move"]
        assert r["winner_moves"] == (r["plies_to_end"] + 1) // 2 == len(r["kinds"])
        assert r["kinds"][-1] == "5" and r["threes"] == sum(k in ("3", "33") for k in r["kinds"])
        assert r["fours_only"] == all(k[0] in "45" for k in r["kinds"])
        if not r["source"].startswith("pentazen-game"):
            assert r["winner_moves"] >= 3 and "-" not in r["kinds"]
    assert json.loads(path.read_text().splitlines()[0]) == header
