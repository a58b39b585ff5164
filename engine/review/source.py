"""The one game a review reads: from a Piskvork .psq, an SGF collection, RenjuNet's database or the
match runner's results.json, the N-th where the file holds several."""
from __future__ import annotations

import json
from pathlib import Path

from engine import records
from engine.board import Rule
from engine.records.game import Game, RecordError, judge


def read_game(path: str | Path, number: int = 1, rule: Rule = Rule.RENJU) -> Game:
    """Game `number` (from 1) of the file, judged; RecordError says why there is none (a file that
    cannot be read, a broken record, a number past the last game)."""
    path = Path(path)
    if number < 1:
        raise RecordError(f"--game counts from 1, not {number}")
    if not path.is_file():
        raise RecordError(f"{path}: no such file")
    if path.suffix.lower() == ".json":
        return _results_game(path, number, rule)
    if not records.record_kind(path.name[:-3] if path.suffix == ".gz" else path.name):
        raise RecordError(f"{path}: not a game record (.psq, .sgf, RenjuNet's .xml/.rif, or results.json)")
    count = 0
    for game in records.load([path], rule):
        count += 1
        if count == number:
            if isinstance(game, RecordError):
                raise game
            return game
    raise RecordError(f"{path}: holds {count} game{'s' * (count != 1)}, not game {number}")


def _results_game(path: Path, number: int, rule: Rule) -> Game:
    """A game of the match runner's results.json (`python -m engine.match --out DIR`)."""
    try:
        games = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RecordError(f"{path}: not a results file ({e})") from None
    if not isinstance(games, list):
        raise RecordError(f"{path}: not a results file (a list of games expected)")
    if number > len(games):
        raise RecordError(f"{path}: holds {len(games)} games, not game {number}")
    g = games[number - 1]
    try:
        opening = [(int(m[0]), int(m[1])) for m in g["opening"]]
        moves = opening + [(int(m[0]), int(m[1])) for m in g["moves"]]
        names = (str(g["black"]), str(g["white"]))
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise RecordError(f"{path}: game {number} is not a match game ({e!r})") from None
    return judge(Game(int(g.get("size", 15)), rule, moves, opening=len(opening), names=names,
                      source=f"{path}:{number}"))
