"""Random positions for tests: games played near the stones already on the board."""
from __future__ import annotations

import random

from engine.board import Board, Rule


def random_game(rng: random.Random, rule: Rule, moves: int, radius: int = 2, size: int = 15) -> Board:
    """Up to `moves` random candidate moves (within `radius` of a stone); stops at a win."""
    board = Board(size, rule)
    for _ in range(moves):
        legal = board.candidate_moves(radius)
        if not legal:
            break
        board.play(*rng.choice(legal))
        if board.game_over:
            break
    return board
