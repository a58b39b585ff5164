"""The opening book: positions the engine searched for far longer than a move's time ahead of a game,
and the move each of those searches chose. Positions are keyed up to the board's 8 symmetries, so
one entry serves every turned or mirrored copy of its position. The book is made by
`python -m engine.book.make` (which also says how the entries are chosen).

A book answers only for the rule and board size it was made for, and only with a move that is legal
(never a forbidden point for black) in the position at hand; anything else falls through to the
search."""
from __future__ import annotations

import gzip
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine import paths
from engine.board import Board, Color, Move, Rule
from engine.board.symmetry import transform, untransform

log = logging.getLogger("pbrain.book")

FORMAT = "pbrain-renju-book"
VERSION = 1
SHIPPED_NAME = "book-renju.json.gz"


def shipped_book(folder: Path | None = None) -> Path | None:
    """The book in models/ (frozen or not), or None when there is none."""
    path = (folder or paths.models_dir()) / SHIPPED_NAME
    return path if path.exists() else None


def position_key(board: Board) -> tuple[str, int] | None:
    """The position's key, the least of its 8 symmetric images (the side to move, then black's and
    white's points in that image), and the symmetry that turns the board into that image. None for
    a board with blocked points, which no book holds."""
    grid = board.stones()
    if (grid == Color.BLOCKED).any():
        return None
    best: tuple[bytes, int] | None = None
    for k in range(8):
        image = np.ascontiguousarray(transform(grid, k)).tobytes()
        if best is None or image < best[0]:
            best = (image, k)
    image = np.frombuffer(best[0], np.uint8)
    side = "b" if board.to_move == Color.BLACK else "w"
    black = ".".join(map(str, np.flatnonzero(image == Color.BLACK)))
    white = ".".join(map(str, np.flatnonzero(image == Color.WHITE)))
    return f"{side}/{black}/{white}", best[1]


def board_of_key(key: str, size: int = 15, rule: Rule = Rule.RENJU) -> Board:
    """The position a key names (in its image's frame): the inverse of `position_key`."""
    side, black, white = key.split("/")
    stones = [[(int(i) % size, int(i) // size) for i in filter(None, part.split("."))] for part in (black, white)]
    return Board.from_stones(*stones, to_move=Color.BLACK if side == "b" else Color.WHITE, size=size, rule=rule)


def to_board(index: int, k: int, size: int) -> Move:
    """A point given as an index into symmetry k's image of the board, in the board's own frame."""
    onehot = np.zeros(size * size, np.uint8)
    onehot[index] = 1
    y, x = np.unravel_index(int(np.argmax(untransform(onehot.reshape(size, size), k))), (size, size))
    return int(x), int(y)


def to_image(move: Move, k: int, size: int) -> int:
    """A point of the board as an index into symmetry k's image (the inverse of `to_board`)."""
    onehot = np.zeros((size, size), np.uint8)
    onehot[move[1], move[0]] = 1
    return int(np.argmax(np.ascontiguousarray(transform(onehot, k))))


@dataclass
class Entry:
    """One searched position: the move chosen (an index into the key's image), the search's value
    for the side to move, its playouts, and the replies it weighed (index, visit share), best first."""

    move: int
    value: float
    visits: int
    replies: list[tuple[int, float]] = field(default_factory=list)

    def to_json(self) -> list:
        return [self.move, round(self.value, 4), self.visits, [[i, round(s, 4)] for i, s in self.replies]]

    @classmethod
    def from_json(cls, raw: list, replies: bool = True) -> Entry:
        move, value, visits, weighed = raw
        return cls(int(move), float(value), int(visits), [(int(i), float(s)) for i, s in weighed] if replies else [])


@dataclass
class Book:
    rule: Rule = Rule.RENJU
    size: int = 15
    entries: dict[str, Entry] = field(default_factory=dict)
    about: dict = field(default_factory=dict)  # how it was made (model, search time, date)

    def __len__(self) -> int:
        return len(self.entries)

    def move(self, board: Board) -> Move | None:
        """The book's move for this position, in the board's frame, or None (not in the book, another
        rule or size, or a move the position does not allow)."""
        if board.rule != self.rule or board.size != self.size or not self.entries:
            return None
        found = position_key(board)
        if found is None or found[0] not in self.entries:
            return None
        key, k = found
        move = to_board(self.entries[key].move, k, self.size)
        if not board.is_legal(*move):
            log.warning("book move %s is not legal in its position; searching instead", move)
            return None
        return move

    def save(self, path: str | Path) -> None:
        doc = {"format": FORMAT, "version": VERSION, "rule": self.rule.name.lower(), "size": self.size,
               "about": self.about, "entries": {k: e.to_json() for k, e in sorted(self.entries.items())}}
        tmp = Path(str(path) + ".tmp")
        with gzip.open(tmp, "wt", encoding="ascii") as f:
            json.dump(doc, f, separators=(",", ":"))
        tmp.replace(path)  # a build stopped mid-write leaves the previous book whole


def load(path: str | Path, replies: bool = True) -> Book:
    """A book file, or ValueError saying what is wrong with it. replies=False leaves out the replies,
    which only the bookmaker reads: about a third of the load time, which the engine pays at start-up."""
    try:
        with gzip.open(path, "rt", encoding="ascii") as f:
            doc = json.load(f)
        if doc.get("format") != FORMAT or doc.get("version") != VERSION:
            raise ValueError(f"not a version-{VERSION} {FORMAT} file")
        size = int(doc["size"])
        book = Book(Rule.parse(doc["rule"]), size, about=dict(doc.get("about", {})))
        for key, raw in doc["entries"].items():
            entry = Entry.from_json(raw, replies)
            if not all(0 <= i < size * size for i in [entry.move] + [i for i, _ in entry.replies]):
                raise ValueError(f"entry {key}: a point off the board")
            book.entries[str(key)] = entry
        return book
    except ValueError as e:
        raise ValueError(f"book {path}: {e}") from None
    except (OSError, EOFError, KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"book {path}: unreadable ({type(e).__name__}: {e})") from None
