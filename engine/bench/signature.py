"""`make signature`: the search's moves at a fixed playout budget, with no timed part, as a
signature of the engine's behaviour (as a chess engine's `bench` node count is): a change that
should not alter play (a refactoring, a new tool) leaves it as it was; one that should, rewrites it.

    python -m engine.bench.signature [--model FILE] [--playouts 400] [--write FILE] [--check FILE]

The positions are the openings of a Gomocup 2019 Renju game (WULIN-PELA17) at every second stone
from 4 to 26, and the three of `make bench-search`; the search is the shipped one less its timed
parts (the leader's checks and the root VCT, whose results depend on the machine's speed), with the
shipped float net: the int8 twin's kernels differ between CPUs (VNNI, AMX), and so do its moves.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from engine import paths
from engine.bench.search import POSITIONS
from engine.board import Board
from engine.board.coords import format_point, parse_points
from engine.net.onnx_eval import load_evaluator
from engine.search.mcts import MCTS, MCTSConfig

GAME = "h8,i7,j10,g7,j7,j8,h6,h9,k9,i11,k7,k6,l9,m9,k8,m10,i10,k10,l7,j9,m7,n7,l8,n6,l6,l10,l5"
PLAYOUTS = 400
DEFAULT_FILE = Path(__file__).resolve().parents[2] / "tests" / "data" / "signature.json"


def positions() -> dict[str, str]:
    """Name -> the position's moves, in play order."""
    moves = GAME.split(",")
    found = {f"WULIN-PELA17 after {n} stones": ",".join(moves[:n]) for n in range(4, 27, 2)}
    found.update(POSITIONS)
    return found


def signature(model: str | Path | None = None, playouts: int = PLAYOUTS) -> dict:
    """The search's move, its visits and the principal line at each position."""
    if model is None:
        model = paths.newest_net()[0] or paths.newest_net()[1]
    evaluator, message = load_evaluator(model)
    if message:
        raise SystemExit(message)
    config = replace(MCTSConfig(), verify_ms=0.0, root_vct_ms=0.0)
    rows = []
    for name, moves in positions().items():
        mcts = MCTS(evaluator, config, seed=0)
        move = mcts.search(Board.from_moves(parse_points(moves)), deadline=float("inf"), optimum=float("inf"),
                           max_playouts=playouts, early_stop=False)
        rows.append({"position": name, "moves": moves, "move": format_point(move),
                     "playouts": mcts.info.playouts, "line": ",".join(format_point(m) for m in mcts.info.pv)})
    return {"model": Path(model).name, "playouts": playouts, "positions": rows}


def differences(expected: dict, found: dict) -> list[str]:
    """What differs between two signatures, one line each (nothing: the same behaviour)."""
    out = [f"{key}: {expected.get(key)} -> {found.get(key)}" for key in ("model", "playouts")
           if expected.get(key) != found.get(key)]
    old = {row["position"]: row for row in expected.get("positions", [])}
    for row in found["positions"]:
        before = old.pop(row["position"], None)
        if before is None:
            out.append(f"{row['position']}: new")
        elif (before["move"], before["line"]) != (row["move"], row["line"]):
            out.append(f"{row['position']}: {before['move']} ({before['line']}) -> {row['move']} ({row['line']})")
    out += [f"{name}: gone" for name in old]
    return out


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.bench.signature", description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="ONNX net (default: the shipped float net)")
    ap.add_argument("--playouts", type=int, default=PLAYOUTS)
    ap.add_argument("--write", type=Path, help="write the signature to this JSON file")
    ap.add_argument("--check", type=Path, nargs="?", const=DEFAULT_FILE,
                    help=f"compare with a stored signature (default {DEFAULT_FILE.name}); exit 1 where it differs")
    args = ap.parse_args(argv)
    found = signature(args.model, args.playouts)
    if args.write:
        found["made_at"] = _commit()
        args.write.write_text(json.dumps(found, indent=1) + "\n")
    if args.check:
        diff = differences(json.loads(args.check.read_text()), found)
        for line in diff:
            print(line)
        print(f"{len(found['positions']) - len(diff)} of {len(found['positions'])} positions as in {args.check}")
        return 1 if diff else 0
    if not args.write:
        for row in found["positions"]:
            print(f"{row['position']:45} {row['move']:4} {row['line']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
