"""The baseline players: legal moves only, wins taken, fives blocked, budgets kept."""
from __future__ import annotations

import random
import time

import pytest

from engine.board import Board, Color, Rule
from engine.players import Limits
from engine.players.registry import PLAYERS, make_player

BASELINES = ["random", "greedy", "alphabeta", "uct"]


def limits(seconds: float = 0.2) -> Limits:
    return Limits(deadline=time.monotonic() + seconds, optimum=seconds)


@pytest.mark.parametrize("name", BASELINES)
def test_registered_and_legal_in_random_positions(name):
    assert name in PLAYERS
    rng = random.Random(5)
    for rule in (Rule.RENJU, Rule.FREESTYLE):
        board = Board(15, rule)
        player = make_player(name)
        for _ in range(12):
            if board.game_over:
                break
            move = player.choose(board, limits(0.05))
            assert board.is_legal(*move), (name, move)
            board.play(*move)
            if board.game_over:
                break
            board.play(*rng.choice(board.candidate_moves(2)))


@pytest.mark.parametrize("name", ["greedy", "alphabeta", "uct"])
def test_takes_the_win_and_blocks_the_five(name):
    win = Board.from_stones([(3, 3), (4, 3), (5, 3), (6, 3)], [(3, 9), (4, 9), (5, 9), (6, 9)],
                            to_move=Color.BLACK, rule=Rule.FREESTYLE)
    assert make_player(name).choose(win, limits()) in {(2, 3), (7, 3)}
    block = Board.from_stones([(3, 3), (4, 3), (5, 3), (6, 3), (10, 10)], [(3, 9), (4, 9), (5, 10)],
                              to_move=Color.WHITE, rule=Rule.FREESTYLE)
    assert make_player(name).choose(block, limits()) in {(2, 3), (7, 3)}


@pytest.mark.parametrize("name", ["greedy", "alphabeta"])
@pytest.mark.parametrize("rule, mover, wins", [
    (Rule.FREESTYLE, Color.BLACK, True), (Rule.RENJU, Color.WHITE, True),
    (Rule.RENJU, Color.BLACK, False), (Rule.STANDARD, Color.BLACK, False),
])
def test_an_overline_counts_as_a_five_only_where_it_wins(name, rule, mover, wins):
    # The mover's only completion is (6, 3), an overline (2..7); its (1, 3) end is blocked. The
    # opponent has a four to block at (2, 9) or (7, 9).
    own = [(2, 3), (3, 3), (4, 3), (5, 3), (7, 3), (12, 12)]
    other = [(1, 3), (3, 9), (4, 9), (5, 9), (6, 9), (12, 0)]
    black, white = (own, other) if mover == Color.BLACK else (other, own)
    board = Board.from_stones(black, white, to_move=mover, rule=rule)
    assert board.wins_at(6, 3) == wins
    move = make_player(name).choose(board, limits())
    assert move == (6, 3) if wins else move in {(2, 9), (7, 9)}


def test_alphabeta_never_plays_blacks_foul():
    board = Board.from_moves([(7, 7), (7, 8), (8, 6), (8, 8), (7, 9), (8, 5), (8, 10), (8, 11)])
    assert make_player("alphabeta").choose(board, limits()) != (6, 8)


@pytest.mark.parametrize("name", ["alphabeta", "uct"])
def test_time_budget_is_kept(name):
    board = Board.from_moves([(7, 7), (8, 8), (6, 8), (8, 6)])
    t0 = time.monotonic()
    make_player(name).choose(board, limits(0.3))
    assert time.monotonic() - t0 < 0.3 + 0.25  # its own budget, plus slack for a loaded machine


def test_alphabeta_finds_a_vcf():
    # Black plays a VCF: h8 i8 j8 (three) and a second line: the prover answers first.
    board = Board.from_stones([(7, 7), (8, 7), (9, 7), (7, 9), (7, 10), (7, 11)], [(6, 7), (0, 0), (0, 2), (14, 14),
                                                                                  (14, 12)], to_move=Color.BLACK,
                              rule=Rule.FREESTYLE)
    move = make_player("alphabeta").choose(board, limits(0.5))
    after = board.copy()
    after.play(*move)
    assert after.threat(Color.BLACK) >= 2  # a four (or better): the forcing line starts


def test_alphabeta_reports_a_forced_five_in_its_value():
    from engine.native import ffi, lib

    def value(board: Board) -> int:
        x, y = ffi.new("int16_t *"), ffi.new("int16_t *")
        depth, nodes, v = ffi.new("int *"), ffi.new("int64_t *"), ffi.new("int *")
        assert lib.rj_alphabeta(board._b, 64, 200, x, y, depth, nodes, v) == lib.RJ_OK
        return v[0]

    forced = lib.RJ_AB_WIN - lib.RJ_MAX_LINE_PLIES
    assert abs(value(Board.from_moves([(7, 7), (8, 8), (6, 8)]))) < forced  # a quiet opening
    # White to move with an open three: the open four, then the five.
    b = Board.from_stones([(0, 0), (0, 2), (14, 12), (3, 3), (14, 14)], [(5, 7), (6, 7), (7, 7), (9, 9)],
                          to_move=Color.WHITE, rule=Rule.FREESTYLE)
    before = [b[x, y] for x in range(15) for y in range(15)]
    assert value(b) >= forced
    assert [b[x, y] for x in range(15) for y in range(15)] == before  # the board is unchanged
