"""The wins the engine's own games let go, and the moves that lost them: benchmark sets of
`tests/data/missed_wins.jsonl` and `tests/data/losing_moves.jsonl`.

    python -m engine.bench.missedwins collect RESULTS.json... --name NAME --oracle [ONAME=]CMD...
                                      [--ms 700] [--lost-only] [--workers 2] [--out FILE]
                                      [--losing-out FILE] [--merge]
    python -m engine.bench.missedwins judge [--set FILE] --oracle CMD [--ms 1000] [--engine-ms 1000]

`collect` walks the Renju match games (`python -m engine.match` results files) in which the
engine named NAME played, and asks each oracle engine (a strong one given --ms a position:
Rapfi with its classical evaluator, PentaZen) for its move and evaluation at each position
where NAME was to move, and after each of NAME's moves. A position where an oracle announced a
forced win for NAME (`+MN` or `+vN`: N plies), where NAME played another move, and after which
the oracle no longer announced the loss of the side then to move, is a win the engine let go
(--out). The first move of a game after which an oracle announced the opponent's win, where it
had announced no loss for NAME before it, is the move that lost (--losing-out); `held` says
whether the oracle's own move there left the opponent no announced win. --merge adds to the
files' records (a position already held stays as it is) and to their headers' list of runs, so
the sets grow as the engine's games accumulate. --lost-only walks only the games NAME did not win.

`judge` puts the engine (the shipped net, --engine-ms a move; `--player pattern` for a quick
look) in front of each position of a set and asks the oracle after its move: a missed win is kept
when the oracle, to move, announces its own loss; a losing move is avoided (counted where another
move held) when the oracle announces no win for the opponent.

Each line after a header is one position:
    {"moves": "h8,h9,...", "rule": "renju", "to_move": "black", "source": "FILE game 12 ply 28",
     "oracle": "rapfi", "oracle_move": "h3", "oracle_plies": 25, "played": "j10"}
and in the losing set "opponent_plies" (the win the oracle announced after the move) and "held".
"""
from __future__ import annotations

import argparse
import datetime
import json
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.board import Board, Color, Move
from engine.board.coords import format_point, parse_points
from engine.records.results import game_moves
from engine.train.data.matchdata import replay

ROOT = Path(__file__).resolve().parents[2]
DATASET = ROOT / "tests" / "data" / "missed_wins.jsonl"
LOSING = ROOT / "tests" / "data" / "losing_moves.jsonl"

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


def missed(moves: list[Turn], ask: Ask, oracle: str = "oracle", answers: list[Answer] | None = None) -> list[dict]:
    """The turns where the oracle saw a win for the mover and, after the move played, no longer a
    loss for the opponent (`ask` answers a list of positions with the oracle's move and
    evaluation at each, as engine.train.data.enginetargets.evaluation reads it; `answers`, where
    given, are its answers before the moves already)."""
    answers = answers if answers is not None else ask([t.before for t in moves])
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
                        "source": t.source, "oracle": oracle, "oracle_move": format_point(tuple(move)),
                        "oracle_plies": int(ev[1]), "played": format_point(t.played)})
    return records


def losing(moves: list[Turn], ask: Ask, oracle: str = "oracle", answers: list[Answer] | None = None) -> list[dict]:
    """The move that lost each game, where the oracle saw it: the first turn after which it
    announced the opponent's win, where before the move it had announced no loss for the mover (a
    game whose mover it saw lost first yields none), with whether the oracle's own move there
    left the opponent no announced win (`held`; the oracle's move was the one played: not held)."""
    answers = answers if answers is not None else ask([t.before for t in moves])
    after = ask([t.before + (t.played,) for t in moves])
    found, done = [], set()
    for t, (move, ev), (_, then) in zip(moves, answers, after):
        game = t.source.rsplit(" ply ", 1)[0]
        if game in done:
            continue
        if ev is not None and ev[0] == "loss":
            done.add(game)  # lost before any move the oracle saw lose it
            continue
        if then is not None and then[0] == "win":
            done.add(game)
            found.append((t, tuple(move), int(then[1])))
    tried = [(t, move) for t, move, _ in found if move != t.played]
    held = {t.source: then is None or then[0] != "win"
            for (t, _), (_, then) in zip(tried, ask([t.before + (move,) for t, move in tried]))}
    return [{"moves": ",".join(format_point(m) for m in t.before), "rule": "renju",
             "to_move": "black" if len(t.before) % 2 == 0 else "white", "source": t.source, "oracle": oracle,
             "played": format_point(t.played), "opponent_plies": plies, "oracle_move": format_point(move),
             "held": held.get(t.source, False)} for t, move, plies in found]


def read_set(path: Path) -> tuple[dict, list[dict]]:
    """A set file's header and records (an empty header and none where the file is missing)."""
    if not path.exists():
        return {}, []
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return lines[0], lines[1:]


def merged(old: list[dict], new: list[dict]) -> list[dict]:
    """Old records, then the new ones at positions the old do not hold."""
    held = {r["moves"] for r in old}
    out = list(old)
    for r in new:
        if r["moves"] not in held:
            held.add(r["moves"])
            out.append(r)
    return out


def write_set(path: Path, about: str, runs: list[dict], records: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    header = {"about": about, "positions": len(records), "runs": runs}
    path.write_text(json.dumps(header) + "\n" + "".join(json.dumps(r) + "\n" for r in records))


MISSED_ABOUT = ("Positions of the engine's match games (Renju 15x15) where an oracle engine announced a forced win "
                "for the engine, to move, and the engine's move let it go (engine.bench.missedwins): oracle, "
                "oracle_move and oracle_plies are the oracle that saw it, its move and its announced length, "
                "played the engine's move. runs: each collection that added to the set.")
LOSING_ABOUT = ("The move that lost each of the engine's match games (Renju 15x15), where an oracle saw it: the "
                "first move after which the oracle announced the opponent's win, where it had announced no loss for "
                "the engine before it (engine.bench.missedwins): played the move, opponent_plies the win announced "
                "after it, oracle_move the oracle's own move there, held whether that move left the opponent no "
                "announced win. runs: each collection that added to the set.")


def oracle_specs(specs: list[str]) -> list[tuple[str, list[str]]]:
    """`NAME=CMD` or `CMD` (named by the stem of its last path: the engine, not an interpreter
    before it) as (name, argv) pairs."""
    out = []
    for spec in specs:
        name, sep, cmd = spec.partition("=")
        if not sep or " " in name or "/" in name:
            words = shlex.split(spec)
            name, cmd = Path(([w for w in words if "/" in w] or words)[-1]).stem, spec
        out.append((name, shlex.split(cmd)))
    return out


def judge(records: list[dict], choose: Callable[[Board], Move], ask: Ask) -> list[dict]:
    """The engine's move at each position (`choose`) and the oracle's evaluation after it: a
    missed win is kept where the oracle, to move, announces its loss; a losing move is avoided
    where it announces no win."""
    boards = [Board.from_moves(parse_points(r["moves"]), rule=r["rule"]) for r in records]
    moves = [choose(b) for b in boards]
    after = ask([tuple(parse_points(r["moves"])) + (m,) for r, m in zip(records, moves)])
    out = []
    for r, m, (_, then) in zip(records, moves, after):
        kept = then is not None and then[0] == "loss"
        lost = then is not None and then[0] == "win"
        out.append({"source": r["source"], "move": format_point(m), "kept_win": kept, "avoided_loss": not lost})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.bench.missedwins", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["collect", "judge"])
    ap.add_argument("results", nargs="*", type=Path, help="collect: results.json files of engine.match")
    ap.add_argument("--name", help="collect: the engine's name in the results")
    ap.add_argument("--oracle", action="append", required=True, metavar="[NAME=]CMD",
                    help="an oracle's command line (a Gomocup protocol engine); collect takes several")
    ap.add_argument("--ms", type=float, default=700.0, help="the oracle's time a position")
    ap.add_argument("--lost-only", action="store_true", help="only the games the engine did not win")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=DATASET)
    ap.add_argument("--losing-out", type=Path, default=None, help="collect: also the moves that lost (a file)")
    ap.add_argument("--merge", action="store_true", help="collect: add to the files rather than replace them")
    ap.add_argument("--date", default=datetime.date.today().isoformat())
    ap.add_argument("--set", type=Path, default=DATASET, help="judge: the set (missed wins or losing moves)")
    ap.add_argument("--engine-ms", type=float, default=1000.0, help="judge: the engine's time a move")
    ap.add_argument("--player", choices=["mcts", "pattern"], default="mcts", help="judge: the engine")
    ap.add_argument("--config", action="append", default=[], metavar="KEY=VALUE",
                    help="judge: a setting of the search (MCTSConfig), for an ablation; repeatable")
    args = ap.parse_args(argv)
    from engine.train.data.enginetargets import ask_all

    said = " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])).replace(str(Path.home()), "~")
    oracles = oracle_specs(args.oracle)
    if args.command == "judge":
        return judge_main(args, oracles[0][1], ask_all)
    if not args.results or not args.name:
        ap.error("collect needs results files and --name")
    moves: list[Turn] = []
    games = 0
    for path in args.results:
        results = json.loads(path.read_text())
        games += sum(walked(g, args.name, args.lost_only) for g in results)
        moves += turns(results, args.name, f"{path.parent.name}/{path.name}", args.lost_only)
    found: list[dict] = []
    lost: list[dict] = []
    for name, command in oracles:
        def ask(positions, command=command):
            return ask_all(positions, command, args.ms, args.workers)
        answers = ask([t.before for t in moves])
        found = merged(found, missed(moves, ask, name, answers))
        if args.losing_out:
            lost = merged(lost, losing(moves, ask, name, answers))
    run = {"command": "python -m engine.bench.missedwins " + said, "date": args.date,
           "oracles": [n for n, _ in oracles], "oracle_ms": args.ms, "games": games, "turns": len(moves)}
    outputs = [(args.out, MISSED_ABOUT, found)] + ([(args.losing_out, LOSING_ABOUT, lost)] if args.losing_out else [])
    for path, about, records in outputs:
        header, old = read_set(path) if args.merge else ({}, [])
        runs = header.get("runs") or ([{k: header[k] for k in ("command", "date", "oracle_ms", "games", "turns")
                                        if k in header}] if header else [])
        kept = merged(old, records)
        write_set(path, about, runs + [{**run, "added": len(kept) - len(old)}], kept)
        print(f"{path}: {len(kept) - len(old)} added, {len(kept)} in all, from {len(moves)} moves of {games} games",
              file=sys.stderr)
    return 0


def search_config(settings: list[str]):
    """MCTSConfig with `KEY=VALUE` settings, each read as its field's type."""
    import dataclasses

    from engine.search.mcts import MCTSConfig

    cfg = MCTSConfig()
    for setting in settings:
        key, _, value = setting.partition("=")
        if not hasattr(cfg, key):
            raise SystemExit(f"--config {setting!r}: MCTSConfig has no {key!r}")
        kind = type(getattr(cfg, key))
        cfg = dataclasses.replace(cfg, **{key: value.lower() in ("1", "true") if kind is bool else kind(value)})
    return cfg


def judge_main(args, command: list[str], ask_all) -> int:
    """`judge`: the engine at each position of a set, the oracle after its move; a summary on stdout."""
    from engine.players import Limits, PatternPlayer

    _, records = read_set(args.set)
    if args.player == "pattern":
        player = PatternPlayer()
    else:
        from engine.search.player import MCTSPlayer
        player = MCTSPlayer(config=search_config(args.config))

    def choose(board: Board) -> Move:
        player.new_game()
        seconds = args.engine_ms / 1000
        return player.choose(board, Limits(deadline=time.monotonic() + seconds, optimum=seconds))

    verdicts = judge(records, choose, lambda positions: ask_all(positions, command, args.ms, args.workers))
    losing_set = any("held" in r for r in records)
    if losing_set:
        counted = [v for r, v in zip(records, verdicts) if r["held"]]
        good = sum(v["avoided_loss"] for v in counted)
    else:
        counted = verdicts
        good = sum(v["kept_win"] for v in counted)
    print(json.dumps({"set": str(args.set.name), "positions": len(records), "counted": len(counted),
                      "avoided_loss" if losing_set else "kept_win": good, "engine_ms": args.engine_ms,
                      "player": args.player, "config": args.config, "oracle_ms": args.ms, "date": args.date,
                      "verdicts": verdicts}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
