"""Threat levels, D(c), A(c), M(c) and the move filter."""
from __future__ import annotations

import json
import subprocess
import sys

from engine.board import Board, Color
from tests import diagrams as D
from tests.engine_paths import ROOT


def stones(diagram):
    grid, marks = D.parse_diagram(diagram)
    n = len(grid)
    black = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == 1]
    white = [(x, y) for x in range(n) for y in range(n) if grid[x][y] == 2]
    return black, white, marks


def test_open_three_defence_points():
    # White's open three on row 7 (5..7) with room both sides; black to move.
    b = Board.from_stones([(0, 0), (0, 2), (14, 14), (14, 12)], [(5, 7), (6, 7), (7, 7)], to_move=Color.BLACK)
    assert b.threat(Color.WHITE) == 1 and b.threat(Color.BLACK) == 0
    d = set(b.defence_set())
    assert {(4, 7), (8, 7)} <= d  # the straight-four points
    assert d <= {(2, 7), (3, 7), (4, 7), (8, 7), (9, 7), (10, 7)}
    for q in d:  # each really stops the straight four
        b2 = b.copy()
        b2.play(*q)
        assert b2.threat(Color.WHITE) == 0


def test_four_defence_is_the_five_point_and_foul_blocks_are_dropped():
    black, white, marks = stones(D.FORBIDDEN_DEFENCE)
    b = Board.from_stones(black, white, to_move=Color.BLACK)
    assert b.threat(Color.WHITE) == 2
    assert b.defence_set() == []  # the only block, g9, is black's double three
    assert b.unified_set() == []
    b.to_move = Color.WHITE
    assert marks["g"] in b.candidate_moves()  # white simply wins there


def test_attack_set_pure_attacks_first():
    b = Board.from_stones([(6, 7), (7, 7), (7, 8), (8, 8)], [(0, 0), (0, 2), (0, 4), (14, 14)], to_move=Color.BLACK)
    attack, pure = b.attack_set()
    assert pure == len(attack) > 0  # no threat against black: every attack is a pure one
    for m in attack:
        pats = b.patterns(Color.BLACK)[m[1], m[0]]
        assert max(pats) >= 7  # a three (LIVE3) or better
    assert set(attack) <= set(b.unified_set())


def test_filter_radius_and_wins_first():
    b = Board.from_moves([(7, 7)])
    cands = set(b.candidate_moves(1))
    assert cands == {(x, y) for x in range(6, 9) for y in range(6, 9)} - {(7, 7)}
    assert len(b.candidate_moves(3)) == 48
    assert Board().candidate_moves() == [(7, 7)]
    win = Board.from_stones([(1, 3), (2, 3), (3, 3), (4, 3)], [(9, 9), (10, 9), (11, 9)], to_move=Color.BLACK)
    assert set(win.candidate_moves()) == {(0, 3), (5, 3)}


def test_filter_only_unified_set_when_threatened():
    b = Board.from_stones([(0, 0), (0, 2), (14, 14), (14, 12)], [(5, 7), (6, 7), (7, 7)], to_move=Color.BLACK)
    assert set(b.candidate_moves()) == set(b.unified_set())
    # Black's own four counts as an answer too.
    b = Board.from_stones([(1, 1), (2, 2), (3, 3), (13, 13)], [(5, 7), (6, 7), (7, 7)], to_move=Color.BLACK)
    assert (4, 4) in b.candidate_moves() and (0, 0) in b.candidate_moves()


def test_black_sets_exclude_fouls():
    b = Board.from_moves([(7, 7), (7, 8), (8, 6), (8, 8), (7, 9), (8, 5), (8, 10), (8, 11)])
    assert (6, 8) not in b.attack_set()[0]
    assert (6, 8) not in b.candidate_moves()


def run_solve(*args):
    return subprocess.run([sys.executable, "-m", "engine", "solve", *args], cwd=ROOT, capture_output=True, text=True)


def test_solve_cli_json_and_errors():
    r = run_solve("--rule", "renju", "--moves", "h8,h9,i8,i9,j8,j9,k8,k9")
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert out["result"] == "win" and out["line"][0] in ("g8", "l8") and out["depth"] == 1
    assert set(out) == {"result", "line", "nodes", "ms", "depth"}
    r = run_solve("--black", "h8,i8,j8", "--white", "h9,i9,j9", "--to-move", "white", "--kind", "utss")
    assert r.returncode == 0 and json.loads(r.stdout)["result"] == "win"  # white's open three becomes four
    r = run_solve("--black", "h8,i8,j8", "--white", "h9,i9,j9", "--to-move", "white", "--kind", "vct")
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["result"] == "win" and out["line"][0] in ("g9", "k9") and len(out["line"]) == 3
    r = run_solve("--black", "h8,i8,j8,h10", "--white", "h9,i9,j9,g8", "--to-move", "black", "--kind", "vct-direct",
                  "--budget-nodes", "100000")
    out = json.loads(r.stdout)  # white's open three outruns black's threats: searched out, no win
    assert r.returncode == 0 and out["result"] == "unknown" and out["nodes"] < 100000
    fukumi = ["--black", "g8,h8,e9,j9,f10,g10,h10,h11,i11,h12", "--white", "d8,f8,f9,g9,h9,i9,i10,j10,g11,i13",
              "--to-move", "black", "--budget-nodes", "3000000"]  # quintet's puzzle: a quiet first move
    assert json.loads(run_solve(*fukumi, "--kind", "vct").stdout)["result"] == "unknown"
    out = json.loads(run_solve(*fukumi, "--kind", "vct3").stdout)
    assert out["result"] == "win" and out["line"][0] == "g12"
    for bad in (["--moves", "h8,zz"], ["--moves", "h8,h8"], ["--black", "h8", "--white", "h8"],
                ["--moves", "h8,h9,i8,i9,j8,j9,k8,k9,l8"], ["--kind", "nope"], ["--black", "z99"],
                ["--moves", "7,7;7,7"]):
        r = run_solve(*bad)
        assert r.returncode == 2, bad
        assert r.stdout == "" and r.stderr.strip()


def test_solve_cli_stone_sets_side_to_move():
    stones = ["--black", "7,7;8,7;9,7;10,7", "--white", "0,0;0,2;0,4", "--rule", "freestyle"]
    out = json.loads(run_solve(*stones).stdout)  # 4 against 3: white to move, and no VCF for white
    assert out["result"] == "unknown" and out["line"] == []
    out = json.loads(run_solve(*stones, "--to-move", "black").stdout)
    assert out["result"] == "win" and out["line"] == [out["line"][0]] and out["line"][0] in ("g8", "l8")
