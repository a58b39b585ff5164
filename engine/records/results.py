"""The games of the match runner's `results.json` (`python -m engine.match ... --out DIR`)."""
from __future__ import annotations

from engine.board import Color
from engine.records.game import Game


def points(game: dict, engine: str) -> float:
    """The engine's points in one game record: 1 a win, 0.5 a draw, 0 a loss."""
    if engine not in (game["black"], game["white"]):
        raise ValueError(f"{engine!r} did not play game {game['black']} vs {game['white']}")
    winner = game.get("winner")
    if winner not in ("black", "white"):
        return 0.5
    return 1.0 if game[winner] == engine else 0.0


def game_moves(game: dict) -> list[tuple[int, int]]:
    """The opening's stones then the moves, as (x, y)."""
    return [tuple(m[:2]) for m in game["opening"]] + [tuple(m[:2]) for m in game["moves"]]


def from_game(game: Game) -> dict:
    """A judged record in the match runner's game form (names, opening, moves, winner), for the
    tools that read match games."""
    return {"black": game.names[0], "white": game.names[1],
            "winner": {Color.BLACK: "black", Color.WHITE: "white"}.get(game.winner),
            "opening": [list(m) for m in game.moves[:game.opening]],
            "moves": [list(m) for m in game.moves[game.opening:]]}
