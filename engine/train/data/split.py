"""The validation split of game records: a game's side is decided by a hash of its rule and moves,
so the same game is held out whichever file, order or run it comes in."""
from __future__ import annotations

import hashlib

import numpy as np

from engine.records.game import Game

VAL_SHARE = 0.1  # one game in ten validates


def game_key(game: Game) -> int:
    """A 32-bit hash of the game's size, rule and moves."""
    text = f"{game.size} {int(game.rule)} " + " ".join(f"{x},{y}" for x, y in game.moves)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "little")


def held_out(key, share: float = VAL_SHARE):
    """Whether a game with this key (`game_key`; an int or an array of them) is a validation game."""
    return key < np.uint64(round(share * 2**32))
