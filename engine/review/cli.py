"""`python -m engine review GAME`: where a game turned, as a picture and a summary.

    python -m engine review game.psq [--game N] [--ms 1000] [--proof-ms T] [--png OUT.png] [--json]

GAME is a Piskvork .psq, an SGF collection, RenjuNet's database (.xml/.rif) or the match runner's
results.json; --game N picks the N-th game of a file that holds several. The summary goes to
stdout (text, or one JSON object with --json), the progress bar to stderr. A file that cannot be
read exits with status 2 and a message on stderr."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.board import Color, Rule
from engine.board.coords import format_point
from engine.records.game import RecordError
from engine.review.analysis import Review, review
from engine.review.source import read_game


def summary(rev: Review) -> str:
    """The review as text: the game, the wins proven for each side, then the turning points."""
    g = rev.game
    winner = {Color.BLACK: "black", Color.WHITE: "white"}.get(g.winner, "nobody")
    lines = [f"{g.source}: {' vs '.join(n or '?' for n in g.names)}, {len(g.moves)} stones, {g.end or 'unjudged'}, "
             f"{winner} won; reviewed at {budget(rev)} (+{rev.proof_ms:.0f} ms of proofs)"]
    for colour in (Color.BLACK, Color.WHITE):
        plies = [p.ply + 1 for p in rev.positions if p.proof is not None and p.mover == colour]
        lines.append(f"wins proven for {colour.name.lower()} before moves: {_spans(plies) or 'none'}")
    if not rev.turning_points:
        lines.append("no turning point")
    for t in rev.turning_points:
        text = f"move {t.ply + 1} {t.mover.name.lower()} {format_point(t.played)}: {t.kind}"
        if t.kind == "let go":
            text += f", {format_point(t.better)} won: {_line(t.line)}"
        elif t.kind == "into loss":
            text += f", then {t.mover.opponent.name.lower()} wins by {_line(t.line)}"
            if t.better is not None:
                text += f"; the engine preferred {format_point(t.better)}"
        else:
            text += f" (win rate -{t.drop:.2f}); the engine preferred {format_point(t.better)}"
        lines.append(text)
    return "\n".join(lines)


def budget(rev: Review) -> str:
    return f"{rev.playouts} playouts a move" if rev.playouts else f"{rev.ms:.0f} ms a move"


def as_json(rev: Review) -> dict:
    fmt = format_point
    return {
        "source": rev.game.source, "names": list(rev.game.names), "end": rev.game.end,
        "winner": {Color.BLACK: "black", Color.WHITE: "white"}.get(rev.game.winner),
        "ms": None if rev.playouts else rev.ms, "playouts": rev.playouts or None, "proof_ms": rev.proof_ms,
        "positions": [{"move": p.ply + 1, "to_move": p.mover.name.lower(),
                       "played": fmt(p.played) if p.played else None, "best": fmt(p.best) if p.best else None,
                       "black_winrate": round(p.black, 4), "playouts": p.playouts,
                       "proof": {"kind": p.proof_kind, "line": [fmt(m) for m in p.proof.line]} if p.proof else None}
                      for p in rev.positions],
        "turning_points": [{"move": t.ply + 1, "kind": t.kind, "by": t.mover.name.lower(), "played": fmt(t.played),
                            "better": fmt(t.better) if t.better else None, "line": [fmt(m) for m in t.line],
                            "line_from_move": t.line_from + 1, "drop": round(t.drop, 4)}
                           for t in rev.turning_points],
    }


def _line(line: list) -> str:
    return f"{' '.join(format_point(m) for m in line)} ({len(line)} plies)"


def _spans(plies: list[int]) -> str:
    """[3, 5, 7, 12] -> "3-7, 12" (a side's proven wins come every other ply)."""
    out: list[list[int]] = []
    for p in plies:
        if out and p - out[-1][-1] == 2:
            out[-1].append(p)
        else:
            out.append([p])
    return ", ".join(f"{s[0]}-{s[-1]}" if len(s) > 1 else str(s[0]) for s in out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine review", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", help="a .psq, .sgf, RenjuNet .xml/.rif or results.json file")
    ap.add_argument("--game", dest="number", type=int, default=1, help="which game of the file, from 1")
    ap.add_argument("--rule", default="renju", help="the rule where the record names none (default renju)")
    ap.add_argument("--ms", type=float, default=1000.0, help="search time a position (default 1000)")
    ap.add_argument("--playouts", type=int, default=0,
                    help="search this many playouts a position instead of --ms (the same review on any machine)")
    ap.add_argument("--proof-ms", type=float, default=None, help="proof time a position (default ms / 2)")
    ap.add_argument("--model", default="shipped", help="ONNX model, or 'heuristic' (default: the shipped net)")
    ap.add_argument("--png", default=None, help="the picture (default: GAME's name with -review.png, here)")
    ap.add_argument("--json", action="store_true", help="print the review as one JSON object")
    try:
        args = ap.parse_args(argv)
        if args.ms <= 0 or args.playouts < 0 or (args.proof_ms is not None and args.proof_ms < 0):
            ap.error("--ms must be positive, --playouts and --proof-ms not negative")
    except SystemExit as e:
        return int(e.code or 0) if e.code in (0, None) else 2
    try:
        game = read_game(args.game, args.number, Rule.parse(args.rule))
    except (RecordError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        import matplotlib  # noqa: F401  (the picture's, checked before the long search)
        from tqdm import tqdm
    except ImportError as e:
        print(f"error: the review needs matplotlib and tqdm ({e}): pip install 'pbrain-renju[review]'",
              file=sys.stderr)
        return 2
    png = Path(args.png) if args.png else Path(f"{Path(args.game).name.split('.')[0]}-{args.number}-review.png")
    from engine.net.onnx_eval import load_evaluator
    from engine.search.mcts import MCTS
    from engine.search.player import shipped_model

    model = None if args.model == "heuristic" else shipped_model() if args.model == "shipped" else args.model
    evaluator, message = load_evaluator(model)
    if message and args.model != "heuristic":
        print(f"warning: {message}", file=sys.stderr)
    with tqdm(total=max(0, len(game.moves) - max(game.opening, 1) + 1), unit="pos", file=sys.stderr,
              desc="review") as bar:
        rev = review(game, MCTS(evaluator, seed=0), args.ms, args.proof_ms, progress=bar.update,
                     playouts=args.playouts)
    from engine.review.picture import draw

    draw(rev, png)
    if args.json:
        print(json.dumps({**as_json(rev), "png": str(png)}))
    else:
        print(summary(rev))
        print(f"picture: {png}")
    return 0
