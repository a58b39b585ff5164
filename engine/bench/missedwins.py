"""A benchmark set of the wins the engine's own games let go: `tests/data/missed_wins.jsonl`.

    python -m engine.bench.missedwins collect RESULTS.json... --name NAME --oracle CMD --out FILE
                                      [--ms 700] [--lost-only] [--workers 2]

`collect` walks the Renju match games (`python -m engine.match` results files) in which the
engine named NAME played, and asks an oracle engine (a strong one given --ms a position: Rapfi
with its classical evaluator, say) for its move and evaluation at each position where NAME was to
move. A position where the oracle announced a forced win for NAME (`+MN` or `+vN`: N plies), where
NAME played another move, and after which the oracle no longer announced the loss of the side then
to move, is a win the engine let go. Such wins need quiet moves more often than not, so the VCT
set (engine.bench.vctset) does not hold them; `make bench-prover` says how many of them the
provers prove within a second and how often the engine's search plays the oracle's move.
--lost-only walks only the games NAME did not win.

Each line after the header is one position:
    {"moves": "h8,h9,...", "rule": "renju", "to_move": "black", "source": "FILE game 12 ply 28",
     "oracle_move": "h3", "oracle_plies": 25, "played": "j10"}
"""
from __future__ import annotations

import argparse
import datetime
import json
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.board import Color, Move
from engine.board.coords import format_point
from engine.records.results import game_moves
from engine.train.matchdata import replay

ROOT = Path(__file__).resolve().parents[2]
DATASET = ROOT / "tests" / "data" / "missed_wins.jsonl"

Answer = tuple[Move, tuple[str, float] | None]
Ask = Callable[[list[tuple[Move, ...]]], list[Answer]]


@dataclass(frozen=True)
class Turn:
    """One move of the named engine: the stones before it, the move, where it comes from."""
    before: tuple[Move, ...]
    played: Move
    source: str


def turns(games: list[dict], name: str, source: str, lost_only: bool = False) -> list[Turn]:
    """The named engine's moves in these games (opening stones excluded), except a move that ends
    the game: no position follows it for the oracle to judge."""
    out: list[Turn] = []
    for i, game in enumerate(games):
        if not walked(game, name, lost_only):
            continue
        stones = game_moves(game)
        for ply, board in replay(game):  # it stops at a foul that ended the game
            move = stones[ply]
            mover = game["black"] if board.to_move == Color.BLACK else game["white"]
            if ply < len(game["opening"]) or mover != name:
                continue
            if ply == len(stones) - 1:  # only the last move can end the game
                after = board.copy()
                if not after.is_legal(*move):
                    continue
                after.play(*move)
                if after.game_over:
                    continue
            out.append(Turn(tuple(stones[:ply]), move, f"{source} game {i + 1} ply {ply}"))
    return out


def walked(game: dict, name: str, lost_only: bool = False) -> bool:
    """Whether `turns` walks this game: the engine played it (and, with lost_only, did not win it)."""
    if name not in (game["black"], game["white"]):
        return False
    return not lost_only or game["winner"] != ("black" if game["black"] == name else "white")


def missed(moves: list[Turn], ask: Ask) -> list[dict]:
    """The turns where the oracle saw a win for the mover and, after the move played, no longer a
    loss for the opponent (`ask` answers a list of positions with the oracle's move and
    evaluation at each, as engine.train.enginetargets.evaluation reads it)."""
    answers = ask([t.before for t in moves])
    won = [(t, move, ev) for t, (move, ev) in zip(moves, answers)
           if ev is not None and ev[0] == "win" and tuple(move) != t.played]
    after = ask([t.before + (t.played,) for t, _, _ in won])
    records, seen = [], set()
    for (t, move, ev), (_, then) in zip(won, after):
        if then is not None and then[0] == "loss":
            continue  # another way to the win: the opponent is still lost
        key = ",".join(format_point(m) for m in t.before)
        if key in seen:
            continue
        seen.add(key)
        records.append({"moves": key, "rule": "renju", "to_move": "black" if len(t.before) % 2 == 0 else "white",
                        "source": t.source, "oracle_move": format_point(tuple(move)), "oracle_plies": int(ev[1]),
                        "played": format_point(t.played)})
    return records


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.bench.missedwins", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["collect"])
    ap.add_argument("results", nargs="+", type=Path, help="results.json files of engine.match")
    ap.add_argument("--name", required=True, help="the engine's name in the results")
    ap.add_argument("--oracle", required=True, help="the oracle's command line (a Gomocup protocol engine)")
    ap.add_argument("--ms", type=float, default=700.0, help="the oracle's time a position")
    ap.add_argument("--lost-only", action="store_true", help="only the games the engine did not win")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=DATASET)
    ap.add_argument("--date", default=datetime.date.today().isoformat())
    args = ap.parse_args(argv)
    from engine.train.enginetargets import ask_all

    moves: list[Turn] = []
    games = 0
    for path in args.results:
        results = json.loads(path.read_text())
        games += sum(walked(g, args.name, args.lost_only) for g in results)
        moves += turns(results, args.name, f"{path.parent.name}/{path.name}", args.lost_only)
    command = shlex.split(args.oracle)
    records = missed(moves, lambda positions: ask_all(positions, command, args.ms, args.workers))
    said = " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])).replace(str(Path.home()), "~")
    header = {"about": "Positions of the engine's match games (Renju 15x15) where an oracle engine announced a forced "
                       "win for the engine, to move, and the engine's move let it go (engine.bench.missedwins): "
                       "oracle_move and oracle_plies are the oracle's move and announced length, played the "
                       "engine's move.", "date": args.date, "oracle_ms": args.ms, "games": games,
              "turns": len(moves), "command": "python -m engine.bench.missedwins " + said}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(header) + "\n" + "".join(json.dumps(r) + "\n" for r in records))
    print(f"{len(records)} wins let go in {len(moves)} moves of {games} games: {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
