"""A benchmark set of real-game threat-sequence wins (VCT positions): `tests/data/vct_positions.jsonl`; the
moves' classes are engine.bench.movekind's, the engines' word on each position engine.bench.oracles'.

    python -m engine.bench.vctset records --archives A.tar.gz... --out FILE [--limit N] [--seed S]
                                          [--pentazen PATH] [--ms 1000]
    python -m engine.bench.vctset games MATCH_DIR --out FILE [--engine pentazen]
    python -m engine.bench.vctset oracles --oracle pentazen=PATH --oracle rapfi=PATH [--ms 1000]

`records` replays the Gomocup Renju games of the archives given (renju-2019 and renju-2020 from
gomocup.org; never the 2021 league, the project's held-out set) that ended in a five, and cuts
each at the earliest ply from which every move of the eventual winner made a four or a live three (or was the five): the
position before that move, the winner to move, is a threat-sequence win that strong engines
played out. --limit samples the positions down to N (seeded by --seed); --pentazen labels each one
with what the PentaZen engine says of it at --ms a move (`ev +vN`: a forced win in N plies).

`games` reads a match folder written by `python -m engine.match ... --log-io` and adds, for every
game PentaZen won on the board, the first position where PentaZen (to move) announced `ev +vN`
(source "pentazen-game FOLDER/NNNN ply P"; the first matches' records name no folder).
When FILE exists its records are kept (those of the same source replaced) and its header updated.

`oracles` asks independent engines afresh about every position (a fresh process each, --ms a
move, the position alone): each NAME (pentazen, rapfi) gets its fields (summarise), PentaZen's
word in its own game kept as `pentazen_in_game`. No position is dropped for what our own
provers find: the sets are classified by these engines only.

Each line after the header is one position:
    {"moves": "h8,h9,...", "rule": "renju", "to_move": "white", "source": "...", "plies_to_end": 9,
     "winner_moves": 5, "threes": 2, "fours_only": false, "kinds": ["3", "4", "3", "4L", "5"], ...}
`opponent_four`: the side to move must first stop the opponent's four. `kinds` names each winner
move: 5 five, 4 a four, 4L a straight four, 44 two fours, 43 a four and a live three, 3 a live
three, 33 two threes (white only), - neither.
"""
from __future__ import annotations

import argparse
import datetime
import json
import random
import re
import shlex
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.bench.movekind import count_threes, is_four, is_threat, move_kind
from engine.bench.oracles import ORACLES, label, summarise
from engine.board import Board, Color, Move, Rule
from engine.board.coords import format_point
from engine.records import load
from engine.records.game import Game

ROOT = Path(__file__).resolve().parents[2]
DATASET = ROOT / "tests" / "data" / "vct_positions.jsonl"
MIN_WINNER_MOVES = 3

# ---- cutting a game ------------------------------------------------------------------------

@dataclass
class Cut:
    """The earliest ply (stones on the board) from which every winner move was a threat."""

    ply: int
    kinds: list[str]  # the winner's moves from `ply` on, the five last
    plies_to_end: int

    @property
    def threes(self) -> int:
        return count_threes(self.kinds)

    @property
    def fours_only(self) -> bool:
        return all(map(is_four, self.kinds))


def winner_kinds(moves: list[Move], start: int, winner: Color, rule: Rule = Rule.RENJU,
                 size: int = 15) -> list[str]:
    """move_kind of every winner move from ply `start` (stones on the board) to the end."""
    board = Board(size, rule)
    kinds = []
    for i, (x, y) in enumerate(moves):
        if i >= start and board.to_move == winner:
            kinds.append(move_kind(board, (x, y)))
        board.play(x, y)
    return kinds


def threat_cut(moves: list[Move], winner: Color, opening: int = 0, rule: Rule = Rule.RENJU,
               size: int = 15) -> Cut | None:
    """The cut of a game that `winner` won by a five on its last move: the earliest winner move,
    at or after the referee's `opening` stones, from which every winner move made a four or a
    live three (or was the five). The loser's moves in between may be anything. None when the
    last move is not the winner's five."""
    board = Board(size, rule)
    plies: list[tuple[int, str]] = []  # (ply, kind) of each winner move after the opening
    for i, (x, y) in enumerate(moves):
        if i >= opening and board.to_move == winner:
            plies.append((i, move_kind(board, (x, y))))
        board.play(x, y)
    if not plies or plies[-1][0] != len(moves) - 1 or plies[-1][1] != "5":
        return None
    first = len(plies) - 1
    while first > 0 and is_threat(plies[first - 1][1]):
        first -= 1
    ply = plies[first][0]
    return Cut(ply, [k for _, k in plies[first:]], len(moves) - ply)


def points_text(moves: Iterable[Move]) -> str:
    return ",".join(format_point(m) for m in moves)


def position_of(game: Game, min_winner_moves: int = MIN_WINNER_MOVES) -> dict | None:
    """The game's position record (see the module docstring), or None: the game did not end in a
    five (a foul, a draw, a time-out, a crash, an illegal move), or its threat sequence is shorter
    than `min_winner_moves` winner moves."""
    if game.end != "five" or game.winner is None:
        return None
    cut = threat_cut(game.moves, game.winner, game.opening, game.rule, game.size)
    if cut is None or len(cut.kinds) < min_winner_moves:
        return None
    return {"moves": points_text(game.moves[:cut.ply]), "rule": game.rule.name.lower(),
            "to_move": game.winner.name.lower(), "source": f"{_short(game.source)} ply {cut.ply}",
            "plies_to_end": cut.plies_to_end, "winner_moves": len(cut.kinds), "threes": cut.threes,
            "fours_only": cut.fours_only, "kinds": cut.kinds,
            "opponent_four": opponent_four(game.moves[:cut.ply], game.rule, game.size)}


def opponent_four(moves: list[Move], rule: Rule = Rule.RENJU, size: int = 15) -> bool:
    """Whether the side to move must first stop a four of the opponent's (its move is forced;
    PentaZen then plays it without a search and says `ev 0`)."""
    board = Board.from_moves(moves, size, rule)
    return board.threat(board.to_move.opponent) >= 2


def _short(source: str) -> str:
    """"/path/renju-2019.tar.gz:renju-2019/0_1_2_1.psq" -> "renju-2019.tar.gz:renju-2019/0_1_2_1.psq"."""
    path, sep, member = source.partition(":")
    return Path(path).name + sep + member


@dataclass
class Harvest:
    positions: list[dict] = field(default_factory=list)
    games: int = 0
    errors: int = 0
    ends: Counter = field(default_factory=Counter)


def gomocup_positions(paths: list[str | Path], progress: bool = True) -> Harvest:
    """Every game of the archives (Gomocup's renju-2019 and renju-2020 tournament archives, say),
    read with engine.records, and the position records of those that qualify (position_of)."""
    from tqdm import tqdm

    paths = list(paths)
    for p in paths:
        # the 2021 Renju league is the project's held-out test set: it must not leak into benchmarks
        if "2021" in Path(p).name and "renju" in Path(p).name.lower():
            raise ValueError(f"{p}: the 2021 Renju games are held out")
    out = Harvest()
    for game in tqdm(load(paths), desc="games", unit="game", file=sys.stderr, disable=not progress):
        if not isinstance(game, Game):
            out.errors += 1
            continue
        out.games += 1
        out.ends[game.end] += 1
        record = position_of(game)
        if record is not None:
            out.positions.append(record)
    return out


# ---- match logs ----------------------------------------------------------------------------

_LOG_LINE = re.compile(r"^\s*\d+\.\d+ ([<>]) (.*)$")
_HEAD = re.compile(r"^(.*) \(black\) - (.*) \(white\), ")
_RESULT = re.compile(r"^result: (?:(black|white) wins|draw) \((\w+)\)")


def read_turns(log: list[str]) -> tuple[int, list[tuple[list[str], Move]]]:
    """An engine's protocol I/O as engine.match --log-io saves it ("  12.345 > TURN 7,7",
    "  12.346 < 7,8"): the stones of its first BOARD block and, for each of its moves, the
    MESSAGE lines it printed before it and the move."""
    stones, in_board, board_done = 0, False, False
    turns: list[tuple[list[str], Move]] = []
    messages: list[str] = []
    for raw in log:
        m = _LOG_LINE.match(raw)
        if not m:
            continue
        arrow, line = m.group(1), m.group(2).strip()
        if arrow == ">":
            word = line.split(" ", 1)[0].upper()
            if word == "BOARD" and not board_done:
                in_board = True
            elif word == "DONE" and in_board:
                in_board, board_done = False, True
            elif in_board:
                stones += 1
            continue
        parts = line.split(",")
        if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
            turns.append((messages, (int(parts[0]), int(parts[1]))))
            messages = []
        elif line.upper() != "OK":
            messages.append(line)  # MESSAGE lines, and the tails of split ones (see _EV)
    return stones, turns


def match_positions(folder: str | Path, engine: str = "pentazen", rule: Rule = Rule.RENJU,
                    size: int = 15) -> list[dict]:
    """For every game of a --log-io match folder that `engine` won on the board (a five, or
    black's foul), the first position where it was to move and announced `ev +vN`."""
    from engine.records import psq

    folder = Path(folder)
    games = folder / "games" if (folder / "games").is_dir() else folder
    match = (folder if games != folder else folder.parent).resolve().name  # game numbers repeat across matches
    out = []
    for txt in sorted(games.glob("*.txt")):
        lines = txt.read_text(errors="replace").splitlines()
        head = _HEAD.match(lines[0]) if lines else None
        result = next((m for m in map(_RESULT.match, lines) if m), None)
        if not head or not result or result.group(1) is None or result.group(2) not in ("five", "foul"):
            continue
        winner = Color.BLACK if result.group(1) == "black" else Color.WHITE
        if head.group(1 if winner == Color.BLACK else 2).lower() != engine.lower():
            continue
        stem = txt.name[:-len(".txt")]
        safe = f"{engine}_({winner.name.lower()})".replace("/", "_").replace(" ", "_")
        log = games / f"{stem}.{safe}.io.log"
        record_file = games / f"{stem}.psq"
        if not log.is_file() or not record_file.is_file():
            continue
        moves = psq.read(record_file).points()
        first, turns = read_turns(log.read_text(errors="replace").splitlines())
        for j, (messages, move) in enumerate(turns):
            ply = first + 2 * j
            if ply >= len(moves) or moves[ply] != move:
                break  # the log and the record disagree: trust neither from here
            info = summarise(messages, move, moves=moves[:ply])
            if info["pentazen"] is None:
                continue
            kinds = winner_kinds(moves, ply, winner, rule, size)
            game_id = stem.split("_", 1)[0]
            threes = count_threes(kinds)
            out.append({"moves": points_text(moves[:ply]), "rule": rule.name.lower(),
                        "to_move": winner.name.lower(), "source": f"pentazen-game {match}/{game_id} ply {ply}",
                        "plies_to_end": len(moves) - ply, "winner_moves": len(kinds), "threes": threes,
                        "fours_only": all(map(is_four, kinds)), "kinds": kinds,
                        "opponent_four": opponent_four(moves[:ply], rule, size), "end": result.group(2), **info})
            break
    return out


# ---- the file ------------------------------------------------------------------------------

ABOUT = ("Real-game threat-sequence wins (VCT positions) for the side to move, Renju 15x15. "
         "Gomocup records (renju-2019, renju-2020; the 2021 league held out): each game won by a five, "
         "cut at the earliest ply from which every winner move made a four or a live three "
         "(engine.bench.movekind.move_kind), kept with at least 3 winner moves (fours_only: a VCF), "
         "at most one a game. PentaZen games: the first position where PentaZen, to move, announced "
         "ev +vN in a game it then won. pentazen: PentaZen's last +vN at the header's pentazen.ms_per_move "
         "(null: none), pentazen_ms the tm of its first +v message. ply = stones on the board.")


def read_file(path: str | Path) -> tuple[dict, list[dict]]:
    lines = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    if lines and "about" in lines[0]:
        return lines[0], lines[1:]
    return {}, lines


def counts(records: list[dict]) -> dict:
    gomocup = [r for r in records if not r["source"].startswith("pentazen-game")]
    games = [r for r in records if r["source"].startswith("pentazen-game")]
    labelled = [r for r in gomocup if "pentazen" in r]
    wins = [r for r in labelled if r["pentazen"]]
    return {"positions": len(records), "gomocup_positions": len(gomocup),
            "gomocup_fours_only": sum(1 for r in gomocup if r["fours_only"]),
            "gomocup_opponent_four": sum(1 for r in gomocup if r.get("opponent_four")),
            "gomocup_labelled": len(labelled), "gomocup_pentazen_win": len(wins),
            "gomocup_plies_to_end": dict(sorted(Counter(r["plies_to_end"] for r in gomocup).items())),
            "gomocup_pentazen_plies": dict(sorted(Counter(int(r["pentazen"][2:]) for r in wins).items())),
            "pentazen_game_positions": len(games),
            **{f"{o}_wins": dict(sorted(Counter(r.get(f"{o}_first", "?") for r in records if r.get(o)).items()))
               for o in ORACLES if any(o in r for r in records)}}


def write_file(path: str | Path, header: dict, records: list[dict]) -> None:
    header = {**header, "counts": counts(records)}
    text = "\n".join(json.dumps(r, separators=(", ", ": ")) for r in [header, *records]) + "\n"
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(text)


def _command(argv: list[str]) -> str:
    return shlex.join(["python", "-m", "engine.bench.vctset", *argv])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    ap = argparse.ArgumentParser(prog="python -m engine.bench.vctset", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("records", help="positions from the Gomocup records (a new file)")
    rec.add_argument("--out", type=Path, default=DATASET)
    rec.add_argument("--archives", nargs="+", required=True,
                     help="record archives or folders: Gomocup's renju-2019.tar.gz and renju-2020.tar.gz")
    rec.add_argument("--limit", type=int, default=None, help="sample down to this many positions")
    rec.add_argument("--seed", type=int, default=2026)
    rec.add_argument("--pentazen", default=None, help="PentaZen's executable: label each position")
    rec.add_argument("--ms", type=int, default=1000, help="PentaZen's time a move (default %(default)s)")
    rec.add_argument("--pentazen-commit", default=None, help="recorded in the header")
    rec.add_argument("--date", default=None, help="recorded in the header (default: today)")
    gam = sub.add_parser("games", help="add the positions PentaZen announced in a --log-io match")
    gam.add_argument("match_dir", type=Path)
    gam.add_argument("--out", type=Path, default=DATASET)
    gam.add_argument("--engine", default="pentazen", help="the engine's name in the match")
    gam.add_argument("--match-command", default=None, help="how the match was played, for the header")
    ora = sub.add_parser("oracles", help="label every position afresh with independent engines")
    ora.add_argument("--out", type=Path, default=DATASET)
    ora.add_argument("--oracle", action="append", required=True, metavar="NAME=CMD",
                     help=f"an engine to ask (NAME one of {', '.join(ORACLES)}); repeatable")
    ora.add_argument("--ms", type=int, default=1000, help="each engine's time a position (default %(default)s)")
    ora.add_argument("--workers", type=int, default=2)
    ora.add_argument("--date", default=None, help="recorded in the header (default: today)")
    args = ap.parse_args(argv)

    if args.cmd == "oracles":
        header, records = read_file(args.out)
        asked = dict(header.get("oracles", {}))
        for spec in args.oracle:
            name, sep, cmd = spec.partition("=")
            if not sep or name not in ORACLES:
                ap.error(f"--oracle {spec!r}: NAME=CMD with NAME one of {', '.join(ORACLES)}")
            if name == "pentazen":  # what it said in its own game, with its game's table, stays
                records = [{**r, "pentazen_in_game": r["pentazen"]}
                           if r["source"].startswith("pentazen-game") and "pentazen_in_game" not in r else r
                           for r in records]
            records = label(records, shlex.split(cmd), args.ms, oracle=name, workers=args.workers)
            asked[name] = {"command": cmd.replace(str(Path.home()), "~"), "ms_per_move": args.ms,
                           "workers": args.workers, "date": args.date or datetime.date.today().isoformat()}
        commands = [c for c in header.get("commands", []) if " oracles " not in c] + [_command(argv)]
        write_file(args.out, {**header, "oracles": asked, "commands": commands}, records)
        print(json.dumps(counts(records)))
        return 0

    if args.cmd == "records":
        harvest = gomocup_positions(args.archives)
        found = harvest.positions
        positions = found
        if args.limit is not None and len(found) > args.limit:
            positions = random.Random(args.seed).sample(found, args.limit)
            positions.sort(key=lambda r: r["source"])
        if args.pentazen:
            positions = label(positions, [args.pentazen], args.ms)
        header = {"about": ABOUT, "date": args.date or datetime.date.today().isoformat(),
                  "commands": [_command(argv)],
                  "gomocup": {"archives": [Path(p).name for p in args.archives],
                              "games_read": harvest.games, "unreadable": harvest.errors,
                              "ends": dict(sorted(harvest.ends.items())),
                              "positions_found": len(found),
                              "fours_only_found": sum(1 for r in found if r["fours_only"]),
                              "sample_seed": args.seed if len(positions) < len(found) else None}}
        if args.pentazen:
            header["pentazen"] = {"path": args.pentazen, "commit": args.pentazen_commit,
                                  "ms_per_move": args.ms}
        write_file(args.out, header, positions)
        print(json.dumps(counts(positions)))
        return 0

    new = match_positions(args.match_dir, args.engine)
    header, records = read_file(args.out) if args.out.is_file() else ({"about": ABOUT}, [])
    sources = {r["source"] for r in new}
    records = [r for r in records if r["source"] not in sources] + new
    commands = header.get("commands", [])
    header = {**header, "commands": commands + [_command(argv)] if _command(argv) not in commands else commands}
    results = args.match_dir / "results.txt"
    match = {"folder": args.match_dir.name, "command": args.match_command, "positions": len(new),
             "result": results.read_text().splitlines()[0] if results.is_file() else None}
    header["matches"] = [m for m in header.get("matches", []) if m.get("folder") != match["folder"]] + [match]
    write_file(args.out, header, records)
    print(json.dumps({"added": len(new), **counts(records)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
