"""Positions of match games (engine.train.data.matchdata): the planes and the result for the side to
move at each position after the opening, and games that recur move for move kept once."""
from __future__ import annotations

import json

import numpy as np

from engine.board import FEATURE_PLANES, Board, Color
from engine.train.data.matchdata import distinct_games, game_positions, load_results

OPENING = [[7, 7], [7, 8], [9, 9]]
# after the opening white moves first; black makes five on row 0 while white wastes its moves
BLACK_WINS = [[0, 5, 900], [0, 0, 900], [1, 5, 900], [1, 0, 900], [2, 5, 900], [2, 0, 900], [3, 5, 900],
              [3, 0, 900], [14, 14, 900], [4, 0, 900]]


def game(moves=BLACK_WINS, winner="black", opening=OPENING) -> dict:
    return {"black": "a", "white": "b", "opening": opening, "moves": moves, "winner": winner, "reason": "five"}


def test_each_position_gets_its_planes_and_the_result_for_the_side_to_move():
    planes, z = game_positions(game())
    assert len(z) == len(BLACK_WINS) and planes.dtype == np.uint8
    board = Board(15, "renju")
    for x, y in OPENING:
        board.play(x, y)
    buf = np.zeros((FEATURE_PLANES, 15, 15), np.float32)
    for i, (x, y, _) in enumerate(BLACK_WINS):
        np.testing.assert_array_equal(planes[i], board.planes(buf).astype(np.uint8))
        assert z[i] == (1.0 if board.to_move == Color.BLACK else -1.0)
        board.play(x, y)
    assert board.game_over


def test_a_draw_gives_zero_values():
    planes, z = game_positions(game(BLACK_WINS[:6], winner=None))
    assert len(z) == len(planes) == 6 and not z.any()
    empty_planes, empty_z = game_positions(game([], winner=None))
    assert empty_planes.shape == (0, FEATURE_PLANES, 15, 15) and len(empty_z) == 0


def test_white_wins_are_results_for_white():
    moves = [[0, 0, 1], [5, 0, 1], [0, 1, 1], [5, 1, 1], [0, 2, 1], [6, 3, 1], [0, 3, 1], [14, 0, 1], [0, 4, 1]]
    _, z = game_positions(game(moves, winner="white"))
    assert list(z) == [1.0, -1.0] * 4 + [1.0]  # white to move at the first position


def test_games_that_recur_move_for_move_are_kept_once(tmp_path):
    a, b = game(), game(BLACK_WINS[:6], winner=None)
    again = json.loads(json.dumps(a))
    again["moves"] = [[x, y, 5] for x, y, _ in BLACK_WINS]  # other times, same stones
    assert distinct_games([a, b, again, b]) == [a, b]
    (tmp_path / "one.json").write_text(json.dumps([a, b]))
    (tmp_path / "two.json").write_text(json.dumps([again]))
    assert distinct_games(load_results([str(tmp_path / "one.json"), str(tmp_path / "two.json")])) == [a, b]


def test_a_game_lost_on_a_foul_gives_its_positions_up_to_the_foul():
    # black's 3x3 at (7, 9): open threes on column 7 (7,7 7,8) and row 9 (5,9 6,9); the referee ends the game there
    opening = [[7, 7], [0, 0], [7, 8]]
    moves = [[14, 0, 1], [5, 9, 1], [0, 14, 1], [6, 9, 1], [14, 14, 1], [7, 9, 1]]
    board = Board(15, "renju")
    for x, y in opening + [m[:2] for m in moves[:-1]]:
        board.play(x, y)
    assert not board.is_legal(7, 9)  # the last move is black's foul
    planes, z = game_positions(game(moves, winner="white", opening=opening))
    assert len(z) == len(planes) == len(moves)  # the position of the foul included, nothing after it
    np.testing.assert_array_equal(planes[-1], board.planes(np.zeros((FEATURE_PLANES, 15, 15), np.float32)))
    assert z[-1] == -1.0  # black, to move there, lost
