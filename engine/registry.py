"""Every player by name, for `--player NAME` and the match runner."""
from __future__ import annotations

from engine.baselines import AlphaBetaPlayer, GreedyPlayer, RandomPlayer, UCTPlayer
from engine.players import DeliberatePlayer, PatternPlayer, Player
from engine.search.player import MCTSPlayer

PLAYERS: dict[str, type[Player]] = {
    "pattern": PatternPlayer,
    "deliberate": DeliberatePlayer,
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "alphabeta": AlphaBetaPlayer,
    "uct": UCTPlayer,
    "mcts": MCTSPlayer,
}


def make_player(name: str) -> Player:
    try:
        return PLAYERS[name]()
    except KeyError:
        raise ValueError(f"unknown player {name!r}; choose from {', '.join(sorted(PLAYERS))}") from None
