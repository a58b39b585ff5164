"""Every player by name, for `--player NAME` and the match runner."""
from __future__ import annotations

import dataclasses

from engine.players import DeliberatePlayer, PatternPlayer, Player
from engine.players.baselines import AlphaBetaPlayer, GreedyPlayer, RandomPlayer, UCTPlayer
from engine.search.mcts import MCTSConfig
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


def search_config(text: str) -> MCTSConfig:
    """MCTSConfig from "key=value,key=value" (values typed like the defaults), or ValueError."""
    cfg = MCTSConfig()
    names = [f.name for f in dataclasses.fields(MCTSConfig)]
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, value = (part.strip() for part in item.partition("="))
        if not sep or key not in names:
            raise ValueError(f"bad search setting {item!r}; known: {', '.join(names)}")
        kind = type(getattr(cfg, key))
        setattr(cfg, key, value.lower() in ("1", "true", "yes") if kind is bool else kind(value))
    return cfg


def make_player(name: str, model: str | None = None, search: str | None = None, book: str | None = None) -> Player:
    """The player called `name`; `model` (an ONNX file, or `heuristic` for the heuristic
    evaluator), `search` (MCTSConfig overrides, "key=value,...") and `book` (a book file, or `none`)
    are for the search player only."""
    if name not in PLAYERS:
        raise ValueError(f"unknown player {name!r}; choose from {', '.join(sorted(PLAYERS))}")
    if name == "mcts":  # the engine itself: the book in models/, if any, unless told otherwise
        chosen = "shipped" if model is None else None if model in ("none", "heuristic") else model
        return MCTSPlayer(model=chosen, config=search_config(search) if search else None,
                          book="shipped" if book is None else None if book == "none" else book)
    return PLAYERS[name]()
