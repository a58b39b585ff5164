"""Makes the opening book (engine.book): long searches of the positions a game from a set of openings
is most likely to reach, best first, on worker processes.

From each opening two trees grow, one for the engine moving first and one for it answering. Where
the engine is to move, only the move its long search chose follows; where its opponent is, each
reply the search gave at least `min_share` of its visits follows (the `max_replies` most visited),
with the chance of being played taken as its visit share to the power `spread`, normalised (below 1
spreads the chances over more replies: opponents play moves other than ours). A position's reach is
the product of those chances along its line, times its tree's weight (`mover_weight` for the tree
where the engine moves first, 1 for the other); the most likely unsearched position goes next, until
`positions` have been searched. Every searched position becomes an entry, whichever tree reached
it, so the book serves both colours. A build can be stopped and resumed: the file is rewritten as
entries come in, and entries already in it are not searched again.

With `--engine`, another Gomocup engine (Renju only) chooses each entry's move in a search of
`--engine-ms`, and its evaluation is the entry's value; the engine's own shorter search still gives
the replies the trees grow by, so the book holds a stronger searcher's moves along the lines our
search expects. Where that engine's move is not legal for us (a foul), the entry keeps our move.

    python -m engine.book.make --out models/book-renju.json.gz --ms 3000 --positions 2400
    python -m engine.book.make --out book.json.gz --ms 300 --engine ~/sparring/rapfi/pbrain-rapfi \
        --engine-ms 2000 --positions 2000 --mover-weight 3 --workers 2
"""
from __future__ import annotations

import argparse
import heapq
import itertools
import logging
import math
import multiprocessing as mp
import shlex
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from engine import book as bk
from engine.board import Board, Move, Rule
from engine.match import openings as op

log = logging.getLogger("pbrain.book")


@dataclass(frozen=True)
class Grow:
    """How the trees grow (module docstring)."""

    min_share: float = 0.05
    max_replies: int = 4
    spread: float = 0.5
    max_stones: int = 40
    # The reach of the tree where the engine moves first from the opening, the tree where it answers
    # having reach 1: above 1 spends the searches on the side that needs them (from the standard
    # openings the engine loses as white, seldom as black).
    mover_weight: float = 1.0


def children(board: Board, entry: bk.Entry, k: int, ours: bool, reach: float, grow: Grow) -> list[tuple[float, Move]]:
    """The moves that follow a searched position in a tree, with the reach of the positions they
    make: the chosen move where the tree's engine is to move, else the opponent's likely replies."""
    if ours:
        return [(reach, bk.to_board(entry.move, k, board.size))]
    likely = [(i, s) for i, s in entry.replies if s >= grow.min_share][:grow.max_replies]
    weights = [s ** grow.spread for _, s in likely]
    total = sum(weights)
    return [(reach * w / total, bk.to_board(i, k, board.size)) for (i, _), w in zip(likely, weights)]


@dataclass(frozen=True)
class Teacher:
    """Another engine that chooses the entries' moves: its command, its time a position, and the
    scale that turns its score into a value (`engine.train.data.enginetargets.value_of`)."""

    command: tuple[str, ...]
    ms: float
    scale: float = 200.0


_player = None
_teacher = None


def _init(model: str | None, teacher: Teacher | None = None) -> None:
    global _player, _teacher
    from engine.search.player import MCTSPlayer

    # no book: each search must be the engine's own, not an earlier entry played back
    _player = MCTSPlayer(model=model or "shipped", threads=1, book=None)
    if teacher is not None:
        from engine.train.data.enginetargets import EngineTeacher

        _teacher = (EngineTeacher(list(teacher.command), teacher.ms), teacher.scale)


def _search(moves: tuple[Move, ...], rule: Rule, size: int, seconds: float) -> bk.Entry:
    """A long search of the position after `moves`, as an entry in the frame of its key."""
    from engine.train.data.searchtargets import searched_root

    board = Board.from_moves(moves, size, rule)
    key = bk.position_key(board)
    assert key is not None
    k = key[1]
    move, policy, value, visits = searched_root(_player, board, seconds)
    if _teacher is not None:
        from engine.train.data.enginetargets import value_of

        teacher, scale = _teacher
        theirs, ev = teacher.ask(moves)
        if board.is_legal(*theirs):
            move = theirs
            said = value_of(ev, scale)
            value = said if math.isfinite(said) else value
        else:
            log.warning("the teacher's move %s is not legal after %s; the entry keeps ours", theirs, moves)
    order = sorted((i for i in range(len(policy)) if policy[i] > 0), key=lambda i: -policy[i])
    # rounded as the file keeps them, so that an entry is the same before and after a save
    replies = [(bk.to_image((i % size, i // size), k, size), round(float(policy[i]), 4)) for i in order[:8]]
    return bk.Entry(bk.to_image(move, k, size), round(value, 4), visits, replies)


def build(book: bk.Book, lines: list[list[Move]], seconds: float, positions: int, workers: int,
          out: Path | None, grow: Grow = Grow(), model: str | None = None, save_every: int = 20,
          teacher: Teacher | None = None) -> bk.Book:
    """Adds up to `positions` searched entries to `book`, the most likely positions of the trees
    from `lines` (openings) first; rewrites `out` as it goes. With a teacher, its moves fill the
    entries (module docstring)."""
    rule, size = book.rule, book.size
    tie = itertools.count()
    frontier: list[tuple[float, int, tuple[Move, ...], bool]] = []  # (-reach, tie, moves, ours to move)
    for line in lines:
        for ours in (True, False):
            heapq.heappush(frontier, (-(grow.mover_weight if ours else 1.0), next(tie), tuple(line), ours))
    expanded: set[tuple[str, bool]] = set()
    # a tree node: (reach, moves, ours to move, its board, the symmetry to its key's image)
    pending: dict[str, list[tuple]] = {}  # key -> the nodes waiting on its search
    added, t0 = 0, time.monotonic()

    def expand(node: tuple, key: str, entry: bk.Entry) -> None:
        reach, moves, ours, board, k = node
        if (key, ours) in expanded or abs(entry.value) >= 1.0 or len(moves) >= grow.max_stones:
            return  # a proven position needs no book beyond its move: the search proves it again
        expanded.add((key, ours))
        for r, move in children(board, entry, k, ours, reach, grow):
            board.play(*move)
            if not board.game_over:
                heapq.heappush(frontier, (-r, next(tie), moves + (move,), not ours))
            board.undo()

    with ProcessPoolExecutor(workers, mp.get_context("spawn"), initializer=_init, initargs=(model, teacher)) as pool:
        running: dict = {}
        while frontier or running:
            while frontier and len(running) < workers:
                neg, _, moves, ours = heapq.heappop(frontier)
                board = Board.from_moves(moves, size, rule)
                key, k = bk.position_key(board)
                node = (-neg, moves, ours, board, k)
                if key in book.entries:  # searched before (this run or an earlier one)
                    expand(node, key, book.entries[key])
                elif key in pending:
                    pending[key].append(node)
                elif added + len(running) < positions:
                    pending[key] = [node]
                    running[pool.submit(_search, moves, rule, size, seconds)] = key
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                key = running.pop(future)
                book.entries[key] = entry = future.result()
                added += 1
                for node in pending.pop(key):
                    expand(node, key, entry)
                if out is not None and added % save_every == 0:
                    book.save(out)
                    log.info("%d positions searched (%d in the book), %.0f s; next reach %.4f", added,
                             len(book), time.monotonic() - t0, -frontier[0][0] if frontier else 0.0)
    if out is not None:
        book.save(out)
    return book


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.book.make", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, type=Path, help="the book file (added to when it exists)")
    ap.add_argument("--openings", default="renju26", help="renju26, balanced or a file of openings")
    ap.add_argument("--rule", default="renju")
    ap.add_argument("--model", default=None, help="the net the searches run (default: the shipped one)")
    ap.add_argument("--ms", type=float, default=3000.0, help="search time per position")
    ap.add_argument("--engine", default=None, help="another engine's command: its moves fill the entries")
    ap.add_argument("--engine-ms", type=float, default=2000.0, help="that engine's time per position")
    ap.add_argument("--engine-scale", type=float, default=Teacher.scale,
                    help="its score over this is the value's atanh (200 fits Rapfi's Eval)")
    ap.add_argument("--positions", type=int, default=100, help="positions to search in this run")
    ap.add_argument("--workers", type=int, default=0, help="processes (0: every core)")
    ap.add_argument("--min-share", type=float, default=Grow.min_share)
    ap.add_argument("--max-replies", type=int, default=Grow.max_replies)
    ap.add_argument("--spread", type=float, default=Grow.spread)
    ap.add_argument("--max-stones", type=int, default=Grow.max_stones)
    ap.add_argument("--mover-weight", type=float, default=Grow.mover_weight,
                    help="the reach of the tree where the engine moves first (the other: 1)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    rule = Rule.parse(args.rule)
    lines = op.renju26() if args.openings == "renju26" else op.load(args.openings)
    if args.out.exists():
        book = bk.load(args.out)
        if book.rule != rule:
            ap.error(f"{args.out} is a {book.rule.name.lower()} book")
    else:
        book = bk.Book(rule, 15)
    for line in lines:
        op.validate(line, book.size, rule)
    from engine.search.player import shipped_model

    model = args.model or shipped_model(gpu=False)
    grow = Grow(args.min_share, args.max_replies, args.spread, args.max_stones, args.mover_weight)
    teacher = None
    if args.engine:
        if rule != Rule.RENJU:
            ap.error("--engine makes Renju books only")
        teacher = Teacher(tuple(shlex.split(args.engine)), args.engine_ms, args.engine_scale)
    run = {"model": Path(model).name if model else "heuristic", "ms": args.ms, "openings": args.openings,
           "positions": args.positions, "grow": vars(grow), "made": time.strftime("%Y-%m-%d")}
    if teacher is not None:
        run["engine"] = {"name": Path(teacher.command[0]).name, "ms": teacher.ms, "scale": teacher.scale}
    book.about = {**book.about, "runs": list(book.about.get("runs", [])) + [run]}  # how each run grew it
    t0 = time.time()
    n0 = len(book)
    build(book, lines, args.ms / 1000, args.positions, args.workers or mp.cpu_count(), args.out, grow, model,
          teacher=teacher)
    log.info("wrote %s: %d entries (%d new) in %.0f s", args.out, len(book), len(book) - n0, time.time() - t0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
