"""Openings: one per line (letter-number like "h8h9i7" or "h8,h9,i7", or "x,y" pairs separated by
";" or spaces); `#` starts a comment. Shipped sets live in engine/match/data/."""
from __future__ import annotations

from pathlib import Path

from engine.board import Board, Move, Rule
from engine.board.coords import parse_points

DATA = Path(__file__).resolve().parent / "data"
SHIPPED = {"renju26": DATA / "renju26.txt", "balanced": DATA / "balanced.txt"}


def load(source: str | Path) -> list[list[Move]]:
    """Openings from a file path or a shipped set's name."""
    path = SHIPPED.get(str(source), Path(source))
    openings = []
    for n, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            try:
                openings.append(parse_points(line))
            except ValueError as e:
                raise ValueError(f"{path}:{n}: {e}") from None
    return openings


def validate(opening: list[Move], size: int, rule: Rule) -> Board:
    """The opening played out under the rule (legal, no foul, no five), or ValueError."""
    board = Board(size, rule)
    for x, y in opening:
        board.play(x, y)
    if board.game_over:
        raise ValueError("the opening already decides the game")
    return board


def vary(opening: list[Move], rng, size: int, rule: Rule, plies: int = 2) -> list[Move]:
    """The opening with `plies` more stones at random next to it (the side to move unchanged for
    even plies), chosen so that the result is legal and no side has a VCF: a fresh game for a
    match that has used every opening once with each colour, since deterministic engines would
    otherwise replay the same games."""
    from engine.prover import Prover

    prover = Prover(tt_bits=12)
    for _ in range(1000):
        board = validate(opening, size, rule)
        extra: list[Move] = []
        for _ in range(plies):
            near = [p for p in board.candidate_moves(2) if board.is_legal(*p)]
            if not near:
                break
            move = near[rng.randrange(len(near))]
            board.play(*move)
            extra.append(move)
            if board.game_over:
                break
        if len(extra) < plies or board.game_over:
            continue
        if no_vcf_either_side(board, prover, 20.0):
            return list(opening) + extra
    return list(opening)


def no_vcf_either_side(board: Board, prover, budget_ms: float) -> bool:
    """Neither the side to move nor its opponent (were it to move) has a VCF the prover finds."""
    other = board.copy()
    other.to_move = other.to_move.opponent
    return all(prover.solve(b, "vcf", max_depth=10, budget_ms=budget_ms).result != "win" for b in (board, other))


def renju26() -> list[list[Move]]:
    """The 26 standard Renju openings, by symmetry class: black h8, then white h9 (13 direct
    openings: the third stone in columns h..j, rows 6..10) or i9 (13 indirect ones: the third
    stone on or below the diagonal h8-i9 in f..j x 6..10)."""
    centre = (7, 7)
    direct = [(x, y) for x in (7, 8, 9) for y in range(5, 10) if (x, y) not in (centre, (7, 8))]
    indirect = [(x, y) for x in range(5, 10) for y in range(5, 10) if x >= y and (x, y) not in (centre, (8, 8))]
    return [[centre, (7, 8), p] for p in direct] + [[centre, (8, 8), p] for p in indirect]


def balanced(count: int = 24, seed: int = 8, size: int = 15, rule: Rule = Rule.RENJU) -> list[list[Move]]:
    """Four-stone openings near the centre where neither side has a VCF and the pattern
    player's static balance is small: a cheap stand-in for "balanced" until the engine is
    strong enough to judge openings by self-play."""
    import random

    from engine.players import Limits, PatternPlayer
    from engine.protocol.session import side_balance
    from engine.prover import Prover

    rng = random.Random(seed)
    prover, judge = Prover(tt_bits=14), PatternPlayer()
    c = size // 2
    found: list[list[Move]] = []
    seen: set[tuple[Move, ...]] = set()
    while len(found) < count:
        cells = [(x, y) for x in range(c - 3, c + 4) for y in range(c - 3, c + 4)]
        opening = [(c, c)] + rng.sample([p for p in cells if p != (c, c)], 3)
        try:
            board = validate(opening, size, rule)
        except ValueError:
            continue
        key = tuple(sorted(opening[0::2])) + tuple(sorted(opening[1::2]))
        if key in seen:
            continue
        seen.add(key)
        if not no_vcf_either_side(board, prover, 50.0):
            continue
        if abs(side_balance(board, judge, Limits(deadline=float("inf")))) > 150:
            continue
        found.append(opening)
    return found
