"""Where an engine's lost games were lost, by the threat-space prover: for each loss, walking back
from the end, the first of the engine's moves after which the opponent has a proven (UTSS) win, how
long that win is, and whether the position before it was already lost (no candidate move survives).

    python -m engine.match.losses matches/NAME/results.json --engine pbrain-renju [--ms 1500] [--kind dfpn|vct]

With `--replay 0.89,2.7,8` the engine's search (the mcts player, `--model`, `--search`) is run
again at each decisive move, not lost already, for each of those times (seconds, fresh tree), and
the move it chooses is refuted or not by df-pn (`--ms`, twice the time): does more time save it?

A "lost already" loss means the real mistake came earlier, where the prover sees nothing: typically
a quiet move of the opponent after which every defence loses. `--kind dfpn` proves with the
proof-number search (lines of up to 40 plies) instead of UTSS (17 plies, alternatives 13): it finds
the long refutations UTSS misses, so it blames earlier moves; `--kind vct` with the VCT prover
(fours and threes, lines of up to 120 plies).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.board import Board, Move, Rule
from engine.board.coords import format_point
from engine.prover import Prover
from engine.records.results import game_moves


@dataclass
class Loss:
    game: int  # 1-based, as in the match's records
    colour: str
    length: int  # stones at the end
    decisive: int | None  # index (0-based, opening included) of the engine's move after which it is proven lost
    line: list[Move]  # the opponent's win from there
    nodes: int
    safe: int  # candidate moves before the decisive move that no 13-ply UTSS refutes
    candidates: int


def analyse_game(game: dict, engine: str, prover: Prover, ms: float, rule: Rule = Rule.RENJU,
                 size: int = 15, index: int = 0, kind: str = "utss") -> Loss | None:
    """The loss's decisive move, or None when `engine` did not lose this game."""
    deep, shallow = {"dfpn": (40, 40), "vct": (120, 120)}.get(kind, (17, 13))
    winner = game.get("winner")
    if winner not in ("black", "white") or game[winner] == engine:
        return None
    colour = "black" if game["black"] == engine else "white"
    seq = game_moves(game)
    mine = [i for i in range(len(game["opening"]), len(seq)) if (i % 2 == 0) == (colour == "black")]
    decisive, line, nodes = None, [], 0
    for i in reversed(mine):
        board = Board.from_moves(seq[: i + 1], size=size, rule=rule)
        if board.game_over:
            continue
        prover.clear()
        proof = prover.solve(board, kind, max_depth=deep, budget_ms=ms)
        if proof.result != "win":
            break
        decisive, line, nodes = i, proof.line, proof.nodes
    safe = candidates = 0
    if decisive is not None:
        before = Board.from_moves(seq[:decisive], size=size, rule=rule)
        moves = [m for m in before.candidate_moves(3) if before.is_legal(*m)]
        candidates = len(moves)
        for m in moves:
            after = before.copy()
            after.play(*m)
            prover.clear()
            if after.game_over or prover.solve(after, kind, max_depth=shallow, budget_ms=ms / 10).result != "win":
                safe += 1
    return Loss(index, colour, len(seq), decisive, line, nodes, safe, candidates)


def search_again(board: Board, player, seconds: float) -> Move:
    """The player's move at `board` after `seconds` of search from a fresh tree."""
    import time

    from engine.players import Limits

    player.new_game()
    t = time.monotonic()
    return player.ranked(board, Limits(deadline=t + seconds, optimum=seconds, bankable=False))[0][0]


def holds(board: Board, move: Move, prover: Prover, ms: float) -> bool:
    """Does `move` hold: no df-pn win for the opponent after it in `ms` (lines of up to 40 plies)?"""
    after = board.copy()
    after.play(*move)
    prover.clear()
    return after.game_over or prover.solve(after, "dfpn", max_depth=40, budget_ms=ms).result != "win"


def replay(game: dict, loss: Loss, player, seconds: list[float], prover: Prover, ms: float,
           rule: Rule = Rule.RENJU, size: int = 15) -> list[tuple[float, Move, bool]]:
    """The engine's move at the loss's decisive position after each of `seconds` of search, and
    whether it holds (see holds)."""
    before = Board.from_moves(game_moves(game)[: loss.decisive], size=size, rule=rule)
    out = []
    for s in seconds:
        move = search_again(before, player, s)
        out.append((s, move, holds(before, move, prover, ms)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.match.losses", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", type=Path, help="a match's results.json")
    ap.add_argument("--engine", default="pbrain-renju")
    ap.add_argument("--ms", type=float, default=1500.0, help="prover time per position (default %(default)s)")
    ap.add_argument("--kind", choices=["utss", "dfpn", "vct"], default="utss", help="the prover (default %(default)s)")
    ap.add_argument("--replay", default="", help="seconds, comma-separated: search the decisive moves again")
    ap.add_argument("--model", default=None, help="for --replay: the model (default: the shipped one)")
    ap.add_argument("--search", default=None, help="for --replay: search settings, key=value,...")
    ap.add_argument("--rule", default="renju")
    ap.add_argument("--size", type=int, default=15)
    args = ap.parse_args(argv)
    games = json.loads(args.results.read_text())
    prover = Prover(tt_bits=20)
    rule = Rule.parse(args.rule)
    losses = already = 0
    seconds = [float(x) for x in args.replay.split(",") if x.strip()]
    player = None
    if seconds:
        from engine.players.registry import make_player

        player = make_player("mcts", model=args.model, search=args.search)
    saved, replayed = {s: 0 for s in seconds}, 0
    for n, game in enumerate(games, start=1):
        loss = analyse_game(game, args.engine, prover, args.ms, rule, args.size, n, args.kind)
        if loss is None:
            continue
        losses += 1
        if loss.decisive is None:
            print(f"game {n:3d} ({loss.colour}): no proven win for the opponent before the end")
            continue
        lost_before = loss.safe == 0
        already += lost_before
        seq = game_moves(game)
        print(f"game {n:3d} ({loss.colour}): move {loss.decisive + 1} {format_point(seq[loss.decisive])} "
              f"{loss.length - loss.decisive - 1} plies before the end; win of {len(loss.line)} plies "
              f"({loss.nodes} nodes); safe alternatives {loss.safe}/{loss.candidates}"
              + (" — lost already" if lost_before else ""), flush=True)
        if player is not None and not lost_before:
            found = replay(game, loss, player, seconds, prover, 2 * args.ms, rule, args.size)
            replayed += 1
            for s, move, holds in found:
                saved[s] += holds
            print("    replayed: " + ", ".join(f"{s:g} s {format_point(m)} {'holds' if h else 'refuted'}"
                                          for s, m, h in found), flush=True)
    print(f"{losses} losses; {already} were already lost before the move the prover blames")
    if seconds:
        print("replayed decisive moves that hold: " + ", ".join(f"{saved[s]} of {replayed} at {s:g} s"
                                                               for s in seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
