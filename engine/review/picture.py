"""A review as one PNG: black's win rate across the game with the turning points marked, beside
the board at the worst move with the move played, the better move and the winning line."""
from __future__ import annotations

from pathlib import Path

from engine.board import Color
from engine.board.coords import format_point
from engine.review.analysis import Review, TurningPoint

MARKS = {"let go": ("v", "#d62728"), "into loss": ("X", "#ff7f0e"), "drop": ("o", "#9467bd")}
WOOD = "#e3b866"


def draw(rev: Review, path: str | Path) -> Path:
    """Writes the picture to `path` (a .png) and returns it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (curve, board) = plt.subplots(1, 2, figsize=(14, 6.4), gridspec_kw={"width_ratios": [1.35, 1]})
    _curve(curve, rev)
    _board(board, rev, rev.worst())
    budget = f"{rev.playouts} playouts a move" if rev.playouts else f"{rev.ms:.0f} ms a move"
    names = " vs ".join(n or "?" for n in rev.game.names)
    winner = {Color.BLACK: "black wins", Color.WHITE: "white wins"}.get(rev.game.winner, "no winner")
    fig.suptitle(f"{names} — {winner} ({rev.game.end or 'unjudged'}, {len(rev.game.moves)} stones); "
                 f"{budget}", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _curve(ax, rev: Review) -> None:
    moves = [p.ply + 1 for p in rev.positions]  # the position before stone ply + 1 is played
    ax.plot(moves, [p.black for p in rev.positions], color="black", lw=1.6, label="black's win rate")
    proven = [(p.ply + 1, p.black) for p in rev.positions if p.proof is not None]
    if proven:
        ax.scatter(*zip(*proven), s=14, color="#2ca02c", zorder=3, label="win proven for the side to move")
    seen = set()
    for t in rev.turning_points:
        marker, colour = MARKS[t.kind]
        p = next(p for p in rev.positions if p.ply == t.ply)
        ax.scatter([t.ply + 1], [p.black], marker=marker, s=90, color=colour, zorder=4,
                   label=t.kind if t.kind not in seen else None)
        seen.add(t.kind)
        ax.annotate(f"{t.ply + 1}. {format_point(t.played)}", (t.ply + 1, p.black), textcoords="offset points",
                    xytext=(4, 8 if p.black < 0.8 else -14), fontsize=8, color=colour)
    ax.axhline(0.5, color="grey", lw=0.6, ls=":")
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("move (the position before it)")
    ax.set_ylabel("black's win rate")
    ax.legend(loc="best", fontsize=8)
    ax.grid(alpha=0.3)


def _board(ax, rev: Review, worst: TurningPoint | None) -> None:
    size = rev.game.size
    upto = worst.ply if worst is not None else len(rev.game.moves)
    ax.set_facecolor(WOOD)
    for i in range(size):
        ax.plot([0, size - 1], [i, i], color="#5a4020", lw=0.6, zorder=1)
        ax.plot([i, i], [0, size - 1], color="#5a4020", lw=0.6, zorder=1)
        ax.text(i, -0.9, chr(ord("a") + i), ha="center", va="center", fontsize=7)
        ax.text(-0.9, i, str(i + 1), ha="center", va="center", fontsize=7)
    # "into loss": the board after the move, where the opponent's line starts; "let go" and
    # "drop": before it, the move played only ringed.
    upto += worst is not None and worst.kind == "into loss"
    for k, (x, y) in enumerate(rev.game.moves[:upto]):
        _stone(ax, x, y, Color.BLACK if k % 2 == 0 else Color.WHITE, str(k + 1))
    ax.set_xlim(-1.5, size - 0.5)
    ax.set_ylim(-1.5, size - 0.5)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    if worst is None:
        ax.set_title("no turning point: the final position", fontsize=10)
        return
    x, y = worst.played
    ax.add_patch(_ring(x, y, "#d62728"))
    title = f"{worst.ply + 1}. {format_point(worst.played)} ({worst.mover.name.lower()}): {worst.kind}"
    if worst.better is not None:
        bx, by = worst.better
        ax.add_patch(_ring(bx, by, "#2ca02c", lw=2.4))
        title += f"; better {format_point(worst.better)}"
    # The line: from the position it starts at, its moves numbered 1, 2, ... in its own colours.
    side = worst.mover if worst.kind == "let go" else worst.mover.opponent
    for k, (lx, ly) in enumerate(worst.line):
        colour = side if k % 2 == 0 else side.opponent
        _stone(ax, lx, ly, colour, str(k + 1), alpha=0.6, text_colour="#ffd21f" if colour == Color.BLACK else "#c81e1e",
               edge="#1f4fbf")
    if worst.line:
        who = "the win let go" if worst.kind == "let go" else "the opponent's win"
        title += f"\n{who}: {' '.join(format_point(m) for m in worst.line[:14])}{' ...' * (len(worst.line) > 14)}"
    ax.set_title(title, fontsize=9)


def _stone(ax, x: int, y: int, colour: Color, label: str, alpha: float = 1.0, text_colour: str | None = None,
           edge: str = "black") -> None:
    import matplotlib.patches as patches

    fill = "black" if colour == Color.BLACK else "white"
    ax.add_patch(patches.Circle((x, y), 0.45, facecolor=fill, edgecolor=edge, lw=0.6 if edge == "black" else 1.6,
                                alpha=alpha, zorder=2))
    ax.text(x, y, label, ha="center", va="center", fontsize=6 if text_colour is None else 7, zorder=3,
            fontweight="normal" if text_colour is None else "bold",
            color=text_colour or ("white" if colour == Color.BLACK else "black"))


def _ring(x: int, y: int, colour: str, lw: float = 2.0):
    import matplotlib.patches as patches

    return patches.Circle((x, y), 0.52, fill=False, edgecolor=colour, lw=lw, zorder=4)
