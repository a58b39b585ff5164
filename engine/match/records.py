"""Game records: Piskvork .psq files (what Piskvork and Gomocup viewers open) and a text record
people can read."""
from __future__ import annotations

from pathlib import Path

from engine.board import Board, Color
from engine.coords import format_point
from engine.match.arena import GameRecord, MatchConfig


def psq(record: GameRecord, cfg: MatchConfig) -> str:
    """Piskvork's format: a header, one `x,y,ms` line per move (1-based), `-1`, then the names."""
    lines = [f"Piskvorky {cfg.size}x{cfg.size}, 11:11, 0"]
    lines += [f"{x + 1},{y + 1},0" for x, y in record.opening]
    lines += [f"{x + 1},{y + 1},{ms}" for x, y, ms in record.moves]
    lines += ["-1", record.black, record.white, "-1"]
    return "\n".join(lines) + "\n"


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
