"""A game's review: at every position the engine's search (its win rate and the move it prefers)
and the provers (a win proven for the side to move, with its line), then the turning points.

Turning points are judged from the proofs first and the evaluation second:
- "let go": the mover had a proven win, played another move than the proof's, and two plies later
  (after the opponent's reply) no win is proven for it any more;
- "into loss": after the move the opponent has a proven win that it did not already hold (it had
  none two plies before, or let that one go);
- "drop": the mover's win rate fell by at least DROP over the move, the engine preferred another
  move, and no proof explains it; the largest few only, since the search's noise is about a tenth.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.board import Board, Color, Move
from engine.prover import Proof, Prover
from engine.records.game import Game
from engine.search.mcts import MCTS

# The smallest fall in the mover's win rate that counts as a drop, and how many drops are kept.
DROP = 0.2
MAX_DROPS = 3
# How much longer a win that seems gone is proved again.
CONFIRM = 4
# Visits a played move needs before its root value counts beside the next position's search.
MIN_VISITS = 8
# The VCF's node budget before the VCT gets the rest of a position's proof time: most real wins
# are VCFs, which this settles in a few milliseconds.
VCF_NODES = 200_000


@dataclass
class Position:
    """The position before stone `ply` (0-based) of the game."""
    ply: int
    mover: Color
    played: Move | None  # the game's move from here (None: the game ended here)
    best: Move | None  # the engine's choice (None: not searched)
    winrate: float  # the side to move's, from the search (a proven root counts 1 or 0)
    proof: Proof | None = None  # a win proven for the side to move
    proof_kind: str = ""  # which prover found it
    playouts: int = 0
    lost: bool = False  # the opponent's proven win from the ply before still stands
    played_q: float | None = None  # the mover's win rate after the move played, by this search's root

    @property
    def black(self) -> float:
        """Black's chance, the proofs overriding the search."""
        own = 1.0 if self.proof is not None else 0.0 if self.lost else self.winrate
        return own if self.mover == Color.BLACK else 1.0 - own


@dataclass
class TurningPoint:
    ply: int  # the position the move was played from
    kind: str  # "let go", "into loss" or "drop"
    mover: Color
    played: Move
    better: Move | None  # the proof's first move, or the engine's choice
    line: list[Move] = field(default_factory=list)  # the winning line drawn with it
    line_from: int = 0  # the ply the line starts at (ply for "let go", ply + 1 for "into loss")
    drop: float = 0.0  # the mover's fall in win rate over the move


@dataclass
class Review:
    game: Game
    positions: list[Position]
    turning_points: list[TurningPoint]
    ms: float
    proof_ms: float
    playouts: int = 0  # a fixed number a position instead of `ms`

    def worst(self) -> TurningPoint | None:
        """The turning point the picture shows: a win let go before a move into a loss before a
        drop, then the largest fall."""
        if not self.turning_points:
            return None
        rank = {"let go": 2, "into loss": 1, "drop": 0}
        return max(self.turning_points, key=lambda t: (rank[t.kind], t.drop))


def prove(prover: Prover, board: Board, proof_ms: float) -> tuple[Proof | None, str]:
    """A win for the side to move, by VCF then, with the rest of the time, VCT3 (a VCT first, then
    one with quiet threats too), or None; its line completed to the five where it can be."""
    t0 = time.monotonic()
    proof, kind = _win(prover, board, proof_ms)
    if proof is not None:
        proof.line = _complete(prover, board, proof.line, proof_ms - (time.monotonic() - t0) * 1000)
    return proof, kind


def _win(prover: Prover, board: Board, proof_ms: float) -> tuple[Proof | None, str]:
    t0 = time.monotonic()
    proof = prover.solve(board, "vcf", budget_nodes=VCF_NODES, budget_ms=proof_ms)
    if proof.result == "win" and proof.line:
        return proof, "vcf"
    left = proof_ms - (time.monotonic() - t0) * 1000
    if left > 1:
        proof = prover.solve(board, "vct3", budget_ms=left)
        if proof.result == "win" and proof.line:
            return proof, "vct3"
    return None, ""


def _complete(prover: Prover, board: Board, line: list[Move], ms: float) -> list[Move]:
    """The line, and where it stops on a defender's move (a line read back from the prover's
    table can end before the five), the attacker's win from there, proved again, appended."""
    b = board.copy()
    for m in line:
        b.play(*m)
    line = list(line)
    while len(line) % 2 == 0 and not b.game_over and ms > 1 and len(line) < 120:
        t0 = time.monotonic()
        more, _ = _win(prover, b, ms)
        if more is None:
            break
        for m in more.line:
            b.play(*m)
        line += more.line
        ms -= (time.monotonic() - t0) * 1000
    return line


def review(game: Game, mcts: MCTS, ms: float = 1000.0, proof_ms: float | None = None,
           prover: Prover | None = None, progress: Callable[[int], None] | None = None,
           playouts: int = 0) -> Review:
    """Searches every position from the end of the referee's opening (and at least the first stone)
    to the last, `ms` each (or, playouts > 0, that many playouts each, whatever the time: the same
    review on any machine), and proves each for the side to move (`proof_ms`, default ms / 2)."""
    proof_ms = ms / 2 if proof_ms is None else proof_ms
    prover = prover or Prover()
    board = Board(game.size, game.rule)
    start = max(game.opening, 1)
    positions: list[Position] = []
    for ply, move in enumerate(game.moves + [None]):
        if board.game_over:
            break
        if ply >= start:
            positions.append(_position(board, ply, move, mcts, ms, proof_ms, prover, playouts))
            if progress:
                progress(1)
        if move is None or not board.is_legal(*move):
            break  # the last move was a foul or on an occupied or off-board point: the game ends here
        board.play(*move)
    mcts.clear()
    _confirm(game, positions, prover, proof_ms)
    _settle(positions)
    return Review(game, positions, turning_points(positions), ms, proof_ms, playouts)


def _confirm(game: Game, positions: list[Position], prover: Prover, proof_ms: float) -> None:
    """Proves again, CONFIRM times longer, where a side's proven win is gone two plies later: a
    win that outgrew the proof time is not a win let go."""
    at = {p.ply: p for p in positions}
    for p in positions:
        earlier = at.get(p.ply - 2)
        if p.proof is None and earlier is not None and earlier.proof is not None:
            board = Board.from_moves(game.moves[:p.ply], size=game.size, rule=game.rule)
            p.proof, p.proof_kind = prove(prover, board, proof_ms * CONFIRM)


def _settle(positions: list[Position]) -> None:
    """Marks the positions lost to a proof that stood (the opponent played its move, or proved it
    again after), and gives a position the search did not look at (a forced reply, no playouts)
    the chance of the one before, so the curve does not fall back to an even 0.5."""
    for before, p, later in zip([None] + positions, positions, positions[2:] + [None, None]):
        if before is None:
            continue
        if before.proof is not None:
            p.lost = before.played == before.proof.line[0] or (later is not None and later.proof is not None)
        if p.playouts == 0 and not p.lost and p.proof is None:
            p.winrate = before.black if p.mover == Color.BLACK else 1.0 - before.black


def _position(board: Board, ply: int, move: Move | None, mcts: MCTS, ms: float, proof_ms: float,
              prover: Prover, playouts: int) -> Position:
    seconds = 3600.0 if playouts else ms / 1000
    best = mcts.search(board, time.monotonic() + seconds, seconds, max_playouts=playouts, early_stop=False)
    info = mcts.info
    root = mcts.root
    played_q = None
    if move in root.moves:
        i = root.moves.index(move)
        if root.N[i] >= MIN_VISITS:
            played_q = 0.5 + 0.5 * float(root.W[i] / root.N[i])
    proof, kind = prove(prover, board, proof_ms)
    if proof is None and info.proven > 0 and mcts.root_line:  # the search's own root proof
        proof, kind = Proof("win", list(mcts.root_line)), "search"
    return Position(ply, board.to_move, move, best, info.winrate, proof, kind, info.playouts, played_q=played_q)


def turning_points(positions: list[Position]) -> list[TurningPoint]:
    """The moves where the game turned (see the module's note), in the order they were played."""
    at = {p.ply: p for p in positions}
    points: list[TurningPoint] = []
    let_go: set[int] = set()
    for p in positions:
        if p.played is None:
            continue
        after, reply = at.get(p.ply + 1), at.get(p.ply + 2)
        drop = _drop(p, after)
        if p.proof is not None and p.played != p.proof.line[0] and after is not None and \
                (reply is None or reply.proof is None):
            let_go.add(p.ply)
            points.append(TurningPoint(p.ply, "let go", p.mover, p.played, p.proof.line[0], list(p.proof.line),
                                       p.ply, drop))
        if after is not None and after.proof is not None and not _lost(at.get(p.ply - 1), let_go) \
                and p.proof is None:
            better = p.best if p.best != p.played else None
            points.append(TurningPoint(p.ply, "into loss", p.mover, p.played, better, list(after.proof.line),
                                       p.ply + 1, drop))
    proven = {t.ply for t in points}
    drops = [TurningPoint(p.ply, "drop", p.mover, p.played, p.best, [], p.ply, _drop(p, at.get(p.ply + 1)))
             for p in positions if p.played is not None and p.ply not in proven and p.best is not None
             and p.best != p.played and p.proof is None and not _lost(at.get(p.ply - 1), let_go)]
    drops = sorted((t for t in drops if t.drop >= DROP), key=lambda t: -t.drop)[:MAX_DROPS]
    return sorted(points + drops, key=lambda t: (t.ply, t.kind))


def _lost(before: Position | None, let_go: set[int]) -> bool:
    """Whether the opponent's proven win from the ply before still stood (nothing left to drop)."""
    return before is not None and before.proof is not None and before.ply not in let_go


def _drop(p: Position, after: Position | None) -> float:
    """How much the mover's chance fell over its move (0 when nothing follows): by the next
    position's search and, where the move was searched enough here, by this root's value of it
    too, the smaller of the two, since each search's own side-to-move bias makes a lone
    comparison of two searches swing by a quarter in the opening."""
    if after is None:
        return 0.0
    own = p.black if p.mover == Color.BLACK else 1.0 - p.black
    later = after.black if p.mover == Color.BLACK else 1.0 - after.black
    if p.played_q is not None and p.proof is None:
        later = max(later, p.played_q)
    return max(0.0, own - later)
