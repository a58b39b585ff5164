"""The Python board API: moves, history, errors that leave the board unchanged, set-up."""
from __future__ import annotations

import numpy as np
import pytest

from engine.board import Board, Color, Foul, Pattern, Result, Rule, threat_level
from engine.native import BoardError, ForbiddenMove, GameOver, NoHistory, Occupied, OffBoard


def snapshot(board: Board):
    return (board.hash, board.moves, board.to_move, board.result, board.stones().tobytes(),
            board.patterns(Color.BLACK).tobytes(), board.patterns(Color.WHITE).tobytes())


def test_new_board_is_empty_black_to_move():
    b = Board(15, Rule.RENJU)
    assert b.stone_count == 0 and b.to_move == Color.BLACK and b.result == Result.ONGOING
    assert b.moves == [] and b.last_move is None
    assert not b.stones().any()
    b.check()


@pytest.mark.parametrize("size", [4, 23, 0, -1, 15.0, "15"])
def test_bad_size_raises(size):
    with pytest.raises(BoardError):
        Board(size, Rule.FREESTYLE)


@pytest.mark.parametrize("rule", ["go", "", 99 + 0.5, "renju!"])
def test_bad_rule_raises(rule):
    with pytest.raises(BoardError):
        Board(15, rule)


@pytest.mark.parametrize("bits, rule", [(0, Rule.FREESTYLE), (1, Rule.STANDARD), (4, Rule.RENJU), (6, Rule.RENJU),
                                        (5, Rule.RENJU), (8, Rule.CARO), (9, Rule.CARO_EXACT), (2, Rule.RENJU),
                                        (3, Rule.STANDARD), (12, Rule.RENJU)])
def test_gomocup_rule_bitmask(bits, rule):
    assert Rule.from_gomocup(bits) == rule
    assert Rule.parse(str(bits)) == rule


def test_rule_names():
    assert Rule.parse("renju") == Rule.RENJU
    assert Rule.parse("Caro-Exact") == Rule.CARO_EXACT
    assert Rule.parse(Rule.STANDARD) == Rule.STANDARD


def test_play_alternates_and_records_history():
    b = Board(15)
    b.play(7, 7)
    b.play(8, 8)
    assert b.to_move == Color.BLACK
    assert b[7, 7] == Color.BLACK and b[8, 8] == Color.WHITE and b[0, 0] == Color.EMPTY
    assert b.history() == [((7, 7), Color.BLACK), ((8, 8), Color.WHITE)]
    assert b.last_move == (8, 8)
    stones = b.stones()
    assert stones[7, 7] == Color.BLACK and stones[8, 8] == Color.WHITE and stones.sum() == 3


@pytest.mark.parametrize("point, exc", [((15, 0), OffBoard), ((0, 15), OffBoard), ((-1, 3), OffBoard),
                                        ((7, 7), Occupied), ((2**40, 1), OffBoard), ((1, -(2**70)), OffBoard)])
def test_illegal_moves_raise_and_leave_board_unchanged(point, exc):
    b = Board(15)
    b.play(7, 7)
    b.play(8, 7)
    before = snapshot(b)
    with pytest.raises(exc):
        b.play(*point)
    assert snapshot(b) == before
    b.check()


def test_non_integer_coordinates_raise():
    b = Board(15)
    with pytest.raises(BoardError):
        b.play("7", 7)
    with pytest.raises(BoardError):
        b.play(7.0, 7)


def test_move_after_game_end_raises_and_undo_reopens():
    b = Board(15, Rule.FREESTYLE)
    for i in range(4):
        b.play(i, 0)
        b.play(i, 5)
    b.play(4, 0)
    assert b.result == Result.BLACK_WINS and b.game_over
    before = snapshot(b)
    with pytest.raises(GameOver):
        b.play(9, 9)
    with pytest.raises(GameOver):
        b.put(9, 9, Color.WHITE)
    assert snapshot(b) == before
    assert b.legal_moves() == [] and not b.is_legal(9, 9)
    assert b.undo() == (4, 0)
    assert b.result == Result.ONGOING and b.to_move == Color.BLACK
    b.play(9, 9)
    b.check()


def test_forbidden_move_raises_and_leaves_board_unchanged():
    # Gomocup's ZIP check: after h8 h9 i7 i9 h10 i6 i11 i12 black g9 is a double three.
    b = Board.from_moves([(7, 7), (7, 8), (8, 6), (8, 8), (7, 9), (8, 5), (8, 10), (8, 11)])
    before = snapshot(b)
    with pytest.raises(ForbiddenMove) as info:
        b.play(6, 8)
    assert info.value.foul == Foul.DOUBLE_THREE
    assert snapshot(b) == before
    assert not b.is_legal(6, 8) and (6, 8) not in b.legal_moves()
    assert b.forbidden_list() == [(6, 8)]
    b.check()


def test_white_may_play_blacks_forbidden_point():
    b = Board.from_moves([(7, 7), (7, 8), (8, 6), (8, 8), (7, 9), (8, 5), (8, 10), (8, 11)])
    b.play(0, 0)  # black elsewhere; now white to move
    assert b.is_legal(6, 8)
    b.play(6, 8)
    assert b[6, 8] == Color.WHITE


def test_forbidden_moves_only_in_renju():
    moves = [(7, 7), (7, 8), (8, 6), (8, 8), (7, 9), (8, 5), (8, 10), (8, 11)]
    for rule in (Rule.FREESTYLE, Rule.STANDARD, Rule.CARO, Rule.CARO_EXACT):
        b = Board.from_moves(moves, rule=rule)
        assert b.foul(6, 8) == Foul.NONE
        assert not b.forbidden_points().any()
        b.play(6, 8)


def test_undo_restores_everything():
    b = Board(15)
    start = snapshot(b)
    moves = [(7, 7), (8, 8), (6, 6), (9, 9), (5, 5), (7, 8)]
    states = []
    for m in moves:
        states.append(snapshot(b))
        b.play(*m)
    for m, state in zip(reversed(moves), reversed(states)):
        assert b.undo() == m
        assert snapshot(b) == state
    assert snapshot(b) == start
    with pytest.raises(NoHistory):
        b.undo()


def test_hash_depends_on_position_not_order():
    a = Board.from_moves([(7, 7), (8, 8), (6, 6), (9, 9)])
    b = Board.from_moves([(6, 6), (9, 9), (7, 7), (8, 8)])
    c = Board.from_moves([(7, 7), (9, 9), (6, 6), (8, 8)])
    assert a.hash == b.hash == c.hash
    d = Board.from_moves([(7, 7), (8, 8), (6, 6), (9, 8)])
    assert d.hash != a.hash
    e = a.copy()
    e.to_move = Color.WHITE
    assert e.hash != a.hash


def test_copy_is_independent():
    a = Board.from_moves([(7, 7), (8, 8)])
    b = a.copy()
    b.play(6, 6)
    assert a.stone_count == 2 and b.stone_count == 3 and a[6, 6] == Color.EMPTY
    assert b.moves == [(7, 7), (8, 8), (6, 6)]
    a.check()
    b.check()


def test_from_stones_side_to_move_and_put():
    b = Board.from_stones([(7, 7), (8, 7)], [(7, 8)])
    assert b.to_move == Color.WHITE and b.stone_count == 3
    b = Board.from_stones([(7, 7)], [(7, 8)])
    assert b.to_move == Color.BLACK
    b = Board.from_stones([(7, 7)], [(7, 8)], to_move=Color.WHITE)
    assert b.to_move == Color.WHITE
    with pytest.raises(BoardError):
        b.put(1, 1, Color.EMPTY)
    b.check()


def test_from_stones_with_a_five_is_rejected():
    with pytest.raises(GameOver, match="black wins"):
        Board.from_stones([(i, 3) for i in range(5)], [(i, 9) for i in range(4)], rule=Rule.FREESTYLE)
    with pytest.raises(GameOver, match="white wins"):
        Board.from_stones([(i, 3) for i in range(3)], [(i, 9) for i in range(5)], rule=Rule.FREESTYLE)
    # Six in a row is no win for black in Renju: the position stands.
    b = Board.from_stones([(i, 3) for i in range(6)], [(i, 9) for i in range(4)] + [(0, 0), (14, 14)])
    assert b.result == Result.ONGOING
    b.check()
    with pytest.raises(Occupied):
        Board.from_stones([(1, 1)], [(1, 1)])
    with pytest.raises(OffBoard):
        Board.from_stones([(15, 1)], [])


def test_full_board_is_a_draw():
    # A 5x5 board filled with no five for either side: colour by (x + 2y) mod 4 < 2 pattern.
    b = Board(5, Rule.FREESTYLE)
    cells = [(x, y) for y in range(5) for x in range(5)]
    black = [p for p in cells if (p[0] + 2 * p[1]) % 4 < 2]
    white = [p for p in cells if p not in black]
    for p in black:
        b.put(*p, Color.BLACK)
    for p in white[:-1]:
        b.put(*p, Color.WHITE)
    assert b.result == Result.ONGOING
    b.put(*white[-1], Color.WHITE)
    assert b.result == Result.DRAW
    b.check()


def test_pattern_queries_shapes():
    b = Board.from_moves([(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4)], rule=Rule.FREESTYLE)
    pb = b.patterns(Color.BLACK)
    assert pb.shape == (15, 15, 4) and pb.dtype == np.uint8
    # _XXX_ : adding at (6,7) or (10,7) makes a straight four horizontally.
    assert pb[7, 6, 0] == Pattern.LIVE4 and pb[7, 10, 0] == Pattern.LIVE4
    counts = b.pattern_counts(Color.BLACK)
    assert counts.shape == (len(Pattern),)
    assert counts.sum() == 4 * (225 - b.stone_count)
    assert counts[Pattern.LIVE4] >= 2


def test_threat_levels_follow_the_method():
    assert threat_level(Rule.RENJU, Color.BLACK, Pattern.OVERLINE) == -1
    assert threat_level(Rule.RENJU, Color.WHITE, Pattern.OVERLINE) == 4
    assert threat_level(Rule.RENJU, Color.BLACK, Pattern.FORBID) == -1
    assert threat_level(Rule.RENJU, Color.WHITE, Pattern.FIVE) == 4
    assert threat_level(Rule.RENJU, Color.BLACK, Pattern.LIVE4) == 3
    assert threat_level(Rule.RENJU, Color.BLACK, Pattern.DEAD4) == 2
    assert threat_level(Rule.RENJU, Color.BLACK, Pattern.LIVE3) == 1
    assert threat_level(Rule.RENJU, Color.BLACK, Pattern.DEAD3) == 0
    assert threat_level(Rule.FREESTYLE, Color.BLACK, Pattern.OVERLINE) == 4
    assert threat_level(Rule.STANDARD, Color.WHITE, Pattern.OVERLINE) == 0


def test_str_diagram():
    b = Board.from_moves([(0, 0), (4, 4)], size=5)
    assert str(b).splitlines() == ["....O", ".....", ".....", ".....", "X...."]


def test_blocked_points_are_occupied_and_undoable():
    b = Board(15, Rule.FREESTYLE)
    b.put(7, 7, Color.BLOCKED)
    assert b[7, 7] == Color.BLOCKED and not b.is_legal(7, 7) and b.stone_count == 1
    assert "#" in str(b)
    with pytest.raises(Occupied):
        b.play(7, 7)
    for x in (3, 4, 5, 6):  # four black stones against the blocked point: one way to five
        b.play(x, 7)
        b.play(x, 0)
    assert b.patterns(Color.BLACK)[7, 2, 0] == Pattern.FIVE
    assert b.patterns(Color.BLACK)[7, 8, 0] != Pattern.FIVE  # the blocked point cuts the line
    b.check()
    while b.stone_count:
        b.undo()
    assert b[7, 7] == Color.EMPTY
    b.check()
