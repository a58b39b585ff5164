"""`make bench`: speed of the native core, timed inside C, printed and recorded in
docs/benchmarks.md (between markers, so other sections of that file are kept).

    python -m engine.bench.core [--write docs/benchmarks.md] [--quick]
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine.board import Board, Color, Rule
from engine.native import GameOver, ffi, lib

START, END = "<!-- bench:native:start -->", "<!-- bench:native:end -->"


def random_game(rng: random.Random, stones: int, rule: Rule = Rule.RENJU, size: int = 15) -> Board:
    """A legal game of `stones` moves clustered like real play (each move near the previous
    ones), redrawn until it reaches that length without a win."""
    while True:
        board = Board(size, rule)
        board.play(size // 2, size // 2)
        while board.stone_count < stones and not board.game_over:
            legal = board.legal_moves()
            placed = board.moves
            near = [m for m in legal if any(max(abs(m[0] - p[0]), abs(m[1] - p[1])) <= 2 for p in placed[-6:])]
            board.play(*rng.choice(near or legal))
        if not board.game_over:
            return board


def dense_position(rng: random.Random, stones: int = 60) -> Board:
    """`stones` stones thrown into a 9x9 square, 60% black and no five: threes and fours on every
    line, the hard case for the forbidden-point scan."""
    while True:
        cells = [(x, y) for x in range(3, 12) for y in range(3, 12)]
        rng.shuffle(cells)
        nb = int(stones * 0.6)
        try:
            board = Board.from_stones(cells[:nb], cells[nb:stones], to_move=Color.BLACK)
        except GameOver:
            continue
        return board


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu}, {os.cpu_count()} cores, {system}, Python {platform.python_version()}"


def startup_cost() -> tuple[float, float, float, float]:
    """In a fresh process: ms to build the Renju table on first use, resident memory that build
    added and the whole process's resident memory after it (MB, from /proc), and the bytes the
    tables hold (MB)."""
    code = (
        "import time\n"
        "from engine.native import lib\n"
        "def rss():\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmRSS:'):\n"
        "            return int(line.split()[1]) / 1024\n"
        "r0 = rss()\n"
        "t = time.perf_counter(); lib.rj_tables_init(lib.RJ_RENJU); dt = time.perf_counter() - t\n"
        "r1 = rss()\n"
        "print(dt * 1e3, r1 - r0, r1, lib.rj_tables_memory() / 2**20)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    ms, grew, total, held = (float(v) for v in out.split())
    return ms, grew, total, held


def run(quick: bool) -> list[tuple[str, str, str]]:
    rng = random.Random(12345)
    rounds = 200 if quick else 2000
    rows: list[tuple[str, str, str]] = []

    # play + undo of a 60-move game, per move.
    games = [random_game(rng, 60) for _ in range(5 if quick else 20)]
    per_move = []
    for g in games:
        moves = g.moves
        xs = ffi.new("int16_t[]", [m[0] for m in moves])
        ys = ffi.new("int16_t[]", [m[1] for m in moves])
        empty = Board(15, Rule.RENJU)
        per_move.append(lib.rj_bench_play_undo(empty._b, xs, ys, len(moves), rounds))
    play_undo = statistics.median(per_move)
    rows.append(("play + undo, per move (60-move Renju games, 15x15)", f"{play_undo:.0f} ns", "<= 300 ns"))
    # The same moves as the provers' probe moves (no pattern counts: the hot path of VCF and UTSS).
    probe = statistics.median(
        lib.rj_bench_probe(Board(15, Rule.RENJU)._b, ffi.new("int16_t[]", [m[0] for m in g.moves]),
                           ffi.new("int16_t[]", [m[1] for m in g.moves]), len(g.moves), rounds) for g in games)
    rows.append(("probe + take back, per move (the provers' probe moves, same games)", f"{probe:.0f} ns", ""))

    # All forbidden points of 60-stone positions.
    fb = [lib.rj_bench_forbidden(g._b, rounds) / 1e3 for g in games]
    found = sum(len(g.forbidden_list()) for g in games)
    median_fb = statistics.median(fb)
    rows.append(("all forbidden points, 60-stone Renju position (median)", f"{median_fb:.1f} µs", "<= 50 µs"))
    rows.append(("all forbidden points, 60-stone Renju position (slowest)", f"{max(fb):.1f} µs", "<= 50 µs"))
    rows.append(("  forbidden points found over those positions", f"{found} in {len(games)} positions", ""))
    dense = [dense_position(rng) for _ in range(len(games))]
    fd = [lib.rj_bench_forbidden(d._b, rounds) / 1e3 for d in dense]
    found = sum(len(d.forbidden_list()) for d in dense)
    rows.append(("all forbidden points, 60 stones packed in 9x9, 60% black (slowest)", f"{max(fd):.1f} µs", "<= 50 µs"))
    rows.append(("  forbidden points found over those positions", f"{found} in {len(dense)} positions", ""))

    # Tables: build time and memory.
    build = lib.rj_bench_table_build(lib.RJ_RENJU, 3 if quick else 10) / 1e6
    first_ms, grew_mb, total_mb, held_mb = startup_cost()
    rows.append(("pattern table build, one rule (timed in C)", f"{build:.1f} ms", "<= 100 ms"))
    rows.append(("first-use table build in a fresh process", f"{first_ms:.1f} ms", "<= 100 ms"))
    memory = f"{grew_mb:.1f} MB / {held_mb:.1f} MB"
    rows.append(("memory of the tables: resident growth / bytes held", memory, "<= 64 MB"))
    rows.append(("  whole process after start-up (Python, cffi, tables)", f"{total_mb:.1f} MB", ""))

    # The alpha-beta baseline (the match's reference opponent) runs on this core too: its speed
    # moves with the core's, which a strength comparison across versions must keep in mind.
    x, y = ffi.new("int16_t *"), ffi.new("int16_t *")
    depth, nodes, value = ffi.new("int *"), ffi.new("int64_t *"), ffi.new("int *")
    ab_ms, ab_nodes, ab_depth = 50.0 if quick else 200.0, 0, 0
    for g in games:
        position = g.copy()
        for _ in range(40):  # 20 stones: a middle game, where the baseline's search is widest
            position.undo()
        lib.rj_alphabeta(position._b, 12, ab_ms, x, y, depth, nodes, value)
        ab_nodes += nodes[0]
        ab_depth += depth[0]
    rows.append((f"alpha-beta baseline: nodes per second (20-stone positions, {ab_ms:.0f} ms each)",
                 f"{ab_nodes / (len(games) * ab_ms / 1e3) / 1e3:.0f} k (mean depth {ab_depth / len(games):.1f})", ""))

    rows += book_rows(games)

    # Incremental update against a from-scratch recomputation.
    recompute = statistics.median(lib.rj_bench_recompute(g._b, rounds // 4 or 1) for g in games)
    rows.append(("from-scratch recomputation of all keys and codes", f"{recompute / 1e3:.1f} µs", ""))
    rows.append(("speed ratio: recomputation / one incremental update", f"{recompute / (play_undo / 2):.0f}x", ""))
    return rows


def book_rows(games: list[Board]) -> list[tuple[str, str, str]]:
    """The shipped opening book's load time (paid out of the first move's clock) and its lookup
    time, at positions it holds and at the early positions of random games (mostly misses)."""
    from engine import book as bk

    path = bk.shipped_book()
    if path is None:
        return []
    t = time.perf_counter()
    book = bk.load(path, replies=False)  # as the engine loads it
    load_ms = (time.perf_counter() - t) * 1e3
    held = [bk.board_of_key(key, book.size, book.rule) for key in list(book.entries)[:200]]
    early = []
    for g in games:
        position = g.copy()
        while position.stone_count > 8:
            position.undo()
        early.append(position)

    def per_lookup(boards: list[Board]) -> float:
        t = time.perf_counter()
        found = sum(book.move(b) is not None for b in boards)
        return (time.perf_counter() - t) / len(boards) * 1e6, found

    hit_us, hits = per_lookup(held)
    miss_us, _ = per_lookup(early)
    return [(f"opening book: load ({len(book)} entries, {path.stat().st_size / 1e3:.0f} kB)", f"{load_ms:.0f} ms", ""),
            (f"opening book: lookup at positions it holds ({hits} of {len(held)} answered)", f"{hit_us:.0f} µs", ""),
            ("opening book: lookup at 8-stone positions of random games", f"{miss_us:.0f} µs", "")]


def commit() -> str:
    """The checkout's short commit (with `+` when the tree has changes), or "unknown"."""
    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head + ("+" if dirty else "")) if head else "unknown"


def section(start: str, end: str, title: str, command: str, rows: list[tuple[str, ...]], note: str = "") -> str:
    """A docs/benchmarks.md section between its markers: title, command, date and machine, an
    optional note, and a table of (measure, value[, target]) rows."""
    targets = len(rows[0]) == 3 if rows else False
    when = f"{datetime.date.today().isoformat()}, commit {commit()}"
    lines = [start, f"## {title}", "", f"Command: `{command}` — {when} — {machine()}", ""]
    if note:
        lines += [note, ""]
    lines += ["| measure | value | target |", "| --- | --- | --- |"] if targets else ["| measure | value |",
                                                                                  "| --- | --- |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines + ["", end])


def render(rows: list[tuple[str, str, str]], command: str) -> str:
    return section(START, END, "Native core", command, rows)


def write(path: Path, section: str, start: str = START, end: str = END) -> None:
    header = "# Benchmarks\n\nEach figure with the command that produced it, the date and the machine.\n"
    text = path.read_text() if path.exists() else header
    if start in text and end in text:
        text = re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _: section, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", type=Path, help="update this markdown file's native-core section")
    ap.add_argument("--quick", action="store_true", help="fewer rounds (for smoke tests)")
    args = ap.parse_args(argv)
    rows = run(args.quick)
    width = max(len(r[0]) for r in rows)
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>22}  {target}")
    if args.write:
        write(args.write, render(rows, "make bench"))
        print(f"written to {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
