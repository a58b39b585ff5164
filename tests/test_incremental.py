"""Every incremental structure equals a from-scratch recomputation after every play and undo,
under every rule and several sizes; pattern codes equal the table classification of the line
window read off the stones in Python."""
from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import Board, Color, Rule
from engine.native import GameOver, ffi, lib

DIRS = [(1, 0), (0, 1), (1, 1), (-1, 1)]


def window_codes(board: Board, color: Color) -> np.ndarray:
    """Pattern codes recomputed in Python: the 11-cell window of each point and direction read
    from the stones, classified by the table (rj_classify_line), independent of the board's keys."""
    n = board.size
    stones = board.stones()
    out = np.zeros((n, n, 4), dtype=np.uint8)
    cells = ffi.new("uint8_t[11]")
    for y in range(n):
        for x in range(n):
            for d, (dx, dy) in enumerate(DIRS):
                for k in range(-5, 6):
                    px, py = x + k * dx, y + k * dy
                    cells[k + 5] = int(stones[py, px]) if 0 <= px < n and 0 <= py < n else lib.RJ_WALL
                out[y, x, d] = lib.rj_classify_line(int(board.rule), int(color), cells)
    return out


@settings(max_examples=80, deadline=None)
@given(
    rule=st.sampled_from(list(Rule)),
    size=st.sampled_from([5, 6, 8, 15, 20, 22]),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(1, 150),
    undo_rate=st.floats(0.0, 0.5),
)
def test_random_play_undo_matches_recomputation(rule, size, seed, steps, undo_rate):
    rng = random.Random(seed)
    board = Board(size, rule)
    hashes = [board.hash]
    for _ in range(steps):
        legal = board.legal_moves()
        if legal and rng.random() < 0.05:  # a blocked point (continuous games' field 3)
            board.put(*rng.choice(legal), Color.BLOCKED)
            hashes.append(board.hash)
        elif board.stone_count and (not legal or rng.random() < undo_rate):
            board.undo()
            hashes.pop()
            assert board.hash == hashes[-1]
        elif legal:
            # Cluster play near the last stone so lines fill up and shapes form.
            last = board.last_move
            if last and rng.random() < 0.8:
                near = [m for m in legal if max(abs(m[0] - last[0]), abs(m[1] - last[1])) <= 2]
                legal = near or legal
            board.play(*rng.choice(legal))
            hashes.append(board.hash)
        board.check()
    while board.stone_count:
        board.undo()
        board.check()
    assert board.hash == hashes[0]


@settings(max_examples=25, deadline=None)
@given(rule=st.sampled_from(list(Rule)), size=st.sampled_from([7, 15, 20]), seed=st.integers(0, 2**32 - 1))
def test_pattern_codes_equal_window_classification(rule, size, seed):
    rng = random.Random(seed)
    board = Board(size, rule)
    for _ in range(rng.randint(5, size * 3)):
        legal = board.legal_moves()
        if not legal:
            break
        board.play(*rng.choice(legal))
    for color in (Color.BLACK, Color.WHITE):
        assert np.array_equal(board.patterns(color), window_codes(board, color))
        # Counts cover exactly the empty points.
        codes = board.patterns(color)[board.stones() == Color.EMPTY]
        assert np.array_equal(np.bincount(codes.ravel(), minlength=12), board.pattern_counts(color))


def test_long_random_games_every_rule():
    """Many full games (to a win, a draw or 200 stones), checked after every move and undo."""
    rng = random.Random(2026)
    for rule in Rule:
        for size in (15, 20):
            for _ in range(4):
                board = Board(size, rule)
                while not board.game_over and board.stone_count < 200:
                    legal = board.legal_moves()
                    last = board.last_move
                    if last:
                        legal = [m for m in legal if max(abs(m[0] - last[0]), abs(m[1] - last[1])) <= 3] or legal
                    board.play(*rng.choice(legal))
                    board.check()
                while board.stone_count:
                    board.undo()
                    board.check()


def test_blocked_point_cuts_lines_like_the_edge():
    """Stones in the 9x9 corner of a 15x15 board whose column x = 9 is blocked have the same
    horizontal pattern codes as on a 9x9 board."""
    rng = random.Random(99)
    for rule in Rule:
        for _ in range(20):
            cells = [(x, y) for x in range(9) for y in range(9)]
            rng.shuffle(cells)
            black, white = cells[:12], cells[12:22]
            try:
                small = Board.from_stones(black, white, size=9, rule=rule)
                big = Board.from_stones(black, white, size=15, rule=rule, blocked=[(9, y) for y in range(15)])
            except GameOver:
                continue
            big.check()
            for color in (Color.BLACK, Color.WHITE):
                assert np.array_equal(big.patterns(color)[:9, :9, 0], small.patterns(color)[:, :, 0])


@settings(max_examples=30, deadline=None)
@given(rule=st.sampled_from(list(Rule)), seed=st.integers(0, 2**32 - 1), steps=st.integers(2, 80))
def test_undo_after_recompute_and_on_a_copy(rule, seed, steps):
    """Undo restores from the log of what each stone changed: still exact after a from-scratch
    recomputation in mid-game (which leaves occupied points' codes as the stones stand now) and
    on a copy (which takes the log with it)."""
    rng = random.Random(seed)
    board = Board(15, rule)
    for _ in range(steps):
        legal = board.legal_moves()
        if board.game_over or not legal:
            break
        last = board.last_move
        if last:
            legal = [m for m in legal if max(abs(m[0] - last[0]), abs(m[1] - last[1])) <= 2] or legal
        board.play(*rng.choice(legal))
    lib.rj_board_recompute(board._b)
    twin = board.copy()
    for b in (board, twin):
        while b.stone_count:
            b.undo()
            b.check()
