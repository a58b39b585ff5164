"""engine.match.compare: game-by-game comparison of two matches over the same openings."""
from __future__ import annotations

import json

import pytest

from engine.match.compare import compare, main, points


def game(black: str, white: str, winner: str | None, opening=((7, 7),)) -> dict:
    return {"black": black, "white": white, "opening": [list(m) for m in opening], "moves": [],
            "winner": winner, "reason": "five" if winner else "draw200"}


def test_points_and_pairs():
    ref = [game("a", "alphabeta", "black"), game("alphabeta", "a", "black"), game("a", "alphabeta", None)]
    new = [game("b", "alphabeta", "black"), game("alphabeta", "b", "white"), game("b", "alphabeta", "white")]
    assert points(ref[2], "a") == 0.5 and points(new[1], "b") == 1.0
    r = compare(ref, new, "a", "b")
    assert (r.better, r.worse, r.same) == (1, 1, 1)
    assert r.score_a == pytest.approx(1.5 / 3) and r.score_b == pytest.approx(2 / 3)
    assert r.p_value == 1.0


def test_sign_test_and_mismatches():
    ref = [game("a", "alphabeta", "white") for _ in range(10)]
    new = [game("b", "alphabeta", "black") for _ in range(10)]
    r = compare(ref, new, "a", "b")
    assert r.better == 10 and r.p_value == pytest.approx(2 / 1024)
    with pytest.raises(ValueError):
        compare(ref, new[:9], "a", "b")
    with pytest.raises(ValueError):  # another opening
        compare(ref[:1], [game("b", "alphabeta", "black", opening=((7, 7), (7, 8)))], "a", "b")
    with pytest.raises(ValueError):  # another colour
        compare(ref[:1], [game("alphabeta", "b", "black")], "a", "b")


def test_command_line(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps([game("a", "alphabeta", "white"), game("alphabeta", "a", "white")]))
    b.write_text(json.dumps([game("b", "alphabeta", "black"), game("alphabeta", "b", "white")]))
    assert main([str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "1 games better, 0 worse, 1 the same" in out
    assert main([str(a), str(tmp_path / "missing.json")]) == 2
    assert main([str(a), str(b), "--first", "1"]) == 0
    assert "over the same 1 games" in capsys.readouterr().out
