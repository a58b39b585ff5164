"""A match game as the runner saves it: its Piskvork .psq record (what Piskvork and Gomocup viewers
open), a text record people can read, and each engine's protocol I/O when it was logged."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from engine.board import Board, Color
from engine.board.coords import format_point
from engine.records import psq as psq_format

if TYPE_CHECKING:
    from engine.match.arena import GameRecord, MatchConfig


def psq(record: GameRecord, cfg: MatchConfig) -> str:
    """Piskvork's format: a header, one `x,y,ms` line per move (1-based), `-1`, then the names."""
    return psq_format.dumps(cfg.size, record.opening, record.moves, [record.black, record.white])


def text(record: GameRecord, cfg: MatchConfig) -> str:
    board = Board(cfg.size, cfg.rule)
    for m in record.opening:
        board.play(*m)
    lines = [f"{record.black} (black) - {record.white} (white), {cfg.rule.name.lower()} {cfg.size}x{cfg.size}, "
             f"{cfg.timeout_turn} ms a move" + (f", {cfg.timeout_match} ms a game" if cfg.timeout_match else "")
             + "".join(f"; time odds {name} x{k:g}" for name, k in sorted(cfg.odds.items())
                       if name in (record.black, record.white)),
             "opening: " + " ".join(format_point(m) for m in record.opening)]
    for i, (x, y, ms) in enumerate(record.moves, start=len(record.opening) + 1):
        who = "black" if i % 2 else "white"
        name = format_point((x, y)) if board.on_board(x, y) else f"{x},{y}"
        lines.append(f"{i:3d}. {who:5s} {name:4s} {ms:6d} ms")
        if board.on_board(x, y) and board[x, y] == Color.EMPTY and board.is_legal(x, y):
            board.play(x, y)
    result = "draw" if record.winner is None else f"{record.winner.name.lower()} wins"
    lines += [f"result: {result} ({record.reason})", "", str(board)]
    return "\n".join(lines) + "\n"


def save(record: GameRecord, cfg: MatchConfig, folder: Path, index: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{index:04d}_{record.black}-vs-{record.white}".replace("/", "_").replace(" ", "_")
    (folder / f"{stem}.psq").write_text(psq(record, cfg))
    (folder / f"{stem}.txt").write_text(text(record, cfg))
    for engine, lines in record.io.items():
        safe = engine.replace("/", "_").replace(" ", "_")
        (folder / f"{stem}.{safe}.io.log").write_text("\n".join(lines) + "\n")
