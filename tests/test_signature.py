"""The search's moves at a fixed playout budget (engine.bench.signature) are those stored in
tests/data/signature.json: a change that alters the engine's play must say so by rewriting it
(`make signature`)."""
from __future__ import annotations

import copy
import json

import pytest

from engine import paths
from engine.bench import signature
from engine.board import Board
from engine.board.coords import parse_points

STORED = json.loads(signature.DEFAULT_FILE.read_text())


@pytest.mark.skipif(paths.newest_net()[0] is None, reason="no shipped float net")
def test_the_shipped_search_plays_the_stored_moves():
    found = signature.signature(paths.models_dir() / STORED["model"], STORED["playouts"])
    assert signature.differences(STORED, found) == []


def test_a_changed_move_or_line_is_reported():
    found = copy.deepcopy(STORED)
    found["positions"][0]["move"] = "a1"
    found["positions"][1]["line"] = "a1,b2"
    del found["positions"][2]
    diff = signature.differences(STORED, found)
    assert len(diff) == 3
    assert diff[0].startswith(STORED["positions"][0]["position"]) and "-> a1" in diff[0]
    assert diff[2] == f"{STORED['positions'][2]['position']}: gone"


def test_every_position_is_a_legal_unfinished_game():
    for moves in signature.positions().values():
        board = Board.from_moves(parse_points(moves))
        assert not board.game_over and board.stone_count == len(moves.split(","))


def test_check_exits_1_on_a_difference(tmp_path, capsys):
    changed = copy.deepcopy(STORED)
    changed["positions"] = changed["positions"][:3]
    changed["positions"][0]["move"] = "a1"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(changed))
    assert signature.main(["--check", str(path)]) == 1
    assert "-> " in capsys.readouterr().out
