"""`python -m engine review`: the turning points of real Gomocup games (a missed VCF flagged at its
move with the winning line, a clean short game with only the move that lost), every reader's
format accepted, broken files refused with a message, and the picture written."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.board import Board, Color
from engine.board.coords import format_point
from engine.net.onnx_eval import load_evaluator
from engine.prover import Prover
from engine.records.game import RecordError
from engine.records.results import from_game
from engine.review import cli
from engine.review.analysis import Position, review, turning_points
from engine.review.source import read_game
from engine.search.mcts import MCTS
from engine.search.player import shipped_model

RECORDS = Path(__file__).parent / "data" / "records"
MISSED = RECORDS / "gomocup2019-renju-missed-vcf.psq"
SHORT = RECORDS / "gomocup2019-renju-short.psq"


@pytest.fixture(scope="module")
def mcts() -> MCTS:
    evaluator, _ = load_evaluator(shipped_model())
    return MCTS(evaluator, seed=0)


def replays_to_five(board: Board, line: list) -> bool:
    b = board.copy()
    for m in line:
        b.play(*m)
    return b.game_over and b.last_move == line[-1] and len(line) % 2 == 1


def test_a_missed_vcf_is_flagged_at_its_move_with_the_winning_line(mcts):
    game = read_game(MISSED)
    rev = review(game, mcts, proof_ms=400, playouts=100)
    let_go = [t for t in rev.turning_points if t.kind == "let go"]
    assert [t.ply + 1 for t in let_go] == [45]  # black played h11 where g4 won by fours
    t = let_go[0]
    assert t.mover == Color.BLACK and format_point(t.played) == "h11"
    before = Board.from_moves(game.moves[:t.ply])
    assert t.better == t.line[0] and t.better != t.played
    assert rev.worst() is t  # the picture shows the win let go
    assert replays_to_five(before, t.line)
    # every stone of the line but the last is a four: it is a VCF
    b = before.copy()
    for k, m in enumerate(t.line[:-1]):
        b.play(*m)
        if k % 2 == 0:
            assert any(b.wins_at(x, y, Color.BLACK) for x, y in b.legal_moves())
    # and white's win from move 48 on, after black's 47th, is the one that came true
    assert any(t.kind == "into loss" and t.mover == Color.BLACK and t.ply + 1 == 47 for t in rev.turning_points)


def test_a_clean_short_game_has_only_the_move_that_lost(mcts):
    game = read_game(SHORT)
    rev = review(game, mcts, proof_ms=400, playouts=100)
    assert game.winner == Color.BLACK
    assert len(rev.turning_points) == 1, rev.turning_points
    t = rev.turning_points[0]
    assert t.kind == "into loss" and t.mover == Color.WHITE
    after = Board.from_moves(game.moves[:t.ply + 1])
    assert Prover().verify(after, kind="vct3", budget_ms=20000).result == "verified"
    # from that move on black's win is proven at each of its turns, and never let go
    black_turns = [p for p in rev.positions if p.mover == Color.BLACK and p.ply > t.ply]
    assert black_turns and all(p.proof is not None for p in black_turns)
    assert all(p.black == 1.0 for p in rev.positions if p.ply > t.ply)


def position(ply: int, played, best, winrate: float, proof=None) -> Position:
    from engine.prover import Proof

    return Position(ply, Color.BLACK if ply % 2 == 0 else Color.WHITE, played, best, winrate,
                    Proof("win", proof) if proof else None, "vcf" if proof else "", 100)


def test_a_drop_needs_the_engine_to_prefer_another_move_and_a_fall_of_a_fifth():
    a, b = (7, 7), (8, 8)
    rows = [position(10, a, b, 0.70), position(11, a, a, 0.55), position(12, b, b, 0.3), position(13, a, a, 0.5)]
    kinds = [(t.ply, t.kind) for t in turning_points(rows)]
    # black: 0.70 -> 1 - 0.55 = 0.45 with another move preferred is a drop; white's 0.55 -> 0.70
    # played as preferred is not; black's 0.3 -> 0.5 is a rise
    assert kinds == [(10, "drop")]
    rows[0].best = a
    assert turning_points(rows) == []


def test_each_reader_s_format_gives_its_game():
    sgf_game = read_game(RECORDS / "c-gomoku-cli-renju.sgf", 1)
    psq_game = read_game(RECORDS / "gomocup2020-renju-five.psq")
    assert sgf_game.moves == psq_game.moves  # the same Gomocup game written both ways
    assert read_game(RECORDS / "c-gomoku-cli-renju.sgf", 3).source.endswith("game 3")
    assert len(read_game(RECORDS / "renjunet-sample.xml", 2).moves) > 0


def test_a_results_game_is_read_by_its_number(tmp_path):
    games = [from_game(read_game(RECORDS / name)) for name in ("gomocup2019-renju-short.psq",
                                                               "gomocup2020-renju-five.psq")]
    path = tmp_path / "results.json"
    path.write_text(json.dumps(games))
    second = read_game(path, 2)
    assert second.moves == read_game(RECORDS / "gomocup2020-renju-five.psq").moves
    assert second.opening == 5 and second.names == ("YIXIN18.zip", "EMBRYO20.R.zip")
    assert second.winner == read_game(RECORDS / "gomocup2020-renju-five.psq").winner


@pytest.mark.parametrize("name,text,number,message", [
    ("broken.psq", "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,99,100\n", 1, "broken.psq: line 3"),
    ("headless.psq", "8,8,0\n9,9,100\n", 1, "not a Piskvork header"),
    ("broken.sgf", "(;GM[4]SZ[15];B[hh];W[h", 1, "broken.sgf"),
    ("occupied.psq", "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,100\n9,9,100\n-1\n", 1, "occupied"),
    ("notes.txt", "h8 h9", 1, "not a game record"),
    ("results.json", "{\"black\": 1}", 1, "not a results file"),
    ("results.json", "[{\"black\": \"a\"}]", 1, "not a match game"),
    ("one.psq", "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,100\n-1\n", 2, "not game 2"),
])
def test_a_broken_file_gets_a_clear_error(tmp_path, capsys, name, text, number, message):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(RecordError, match=message):
        read_game(path, number)
    assert cli.main([str(path), "--game", str(number), "--png", str(tmp_path / "x.png")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error:") and not (tmp_path / "x.png").exists()


def test_the_command_writes_the_picture_and_the_json(tmp_path, capsys):
    png = tmp_path / "short.png"
    from engine.__main__ import main

    assert main(["review", str(SHORT), "--playouts", "30", "--proof-ms", "200", "--png", str(png), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    game = read_game(SHORT)
    assert game.opening == 8  # the referee's stones, written with 0 ms
    assert [p["move"] for p in out["positions"]] == list(range(game.opening + 1, len(game.moves) + 1))
    assert out["winner"] == "black" and out["png"] == str(png)
    assert all(0.0 <= p["black_winrate"] <= 1.0 for p in out["positions"])
    assert "into loss" in [t["kind"] for t in out["turning_points"]]


def test_without_matplotlib_the_command_says_what_to_install(monkeypatch, capsys, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    assert cli.main([str(SHORT), "--png", str(tmp_path / "x.png")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "pbrain-renju[review]" in err and not (tmp_path / "x.png").exists()
