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


def make_player(name: str, model: str | None = None) -> Player:
    """The player called `name`; `model` (an ONNX file, or `heuristic` for the heuristic
    evaluator) is for the search player only."""
    if name not in PLAYERS:
        raise ValueError(f"unknown player {name!r}; choose from {', '.join(sorted(PLAYERS))}")
    if model is not None and name == "mcts":
        return MCTSPlayer(model=None if model in ("none", "heuristic") else model)
    return PLAYERS[name]()
