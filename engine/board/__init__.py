"""Board, colours, rules and pattern names over the native core.

Coordinates are (x, y), 0-based, x the column, as in the Gomocup protocol. Bulk queries return
numpy arrays indexed [y, x] (row-major), filled by one C call each.
"""
from __future__ import annotations

import enum
from collections.abc import Iterable

import numpy as np

from engine.native import BoardError, ForbiddenMove, GameOver, Occupied, OffBoard, check, ffi, lib

Move = tuple[int, int]
# One shared tuple per point: move lists (a search tree holds thousands) then cost a pointer a move.
_POINTS = [[(x, y) for y in range(lib.RJ_MAX_SIZE)] for x in range(lib.RJ_MAX_SIZE)]
FEATURE_VERSION = int(lib.RJ_FEATURE_VERSION)  # input-plane layout, checked against models' metadata
FEATURE_PLANES = int(lib.RJ_PLANES)
# Each layout extends the one before: a model of version v reads the first PLANES_OF_VERSION[v].
PLANES_OF_VERSION = {1: int(lib.RJ_PLANES_V1), FEATURE_VERSION: FEATURE_PLANES}


class Color(enum.IntEnum):
    EMPTY = lib.RJ_EMPTY
    BLACK = lib.RJ_BLACK
    WHITE = lib.RJ_WHITE
    BLOCKED = lib.RJ_BLOCKED  # nobody may play here (continuous games); cuts lines like the edge

    @property
    def opponent(self) -> Color:
        if self not in (Color.BLACK, Color.WHITE):
            raise ValueError(f"{self.name} has no opponent")
        return Color.WHITE if self is Color.BLACK else Color.BLACK


class Rule(enum.IntEnum):
    FREESTYLE = lib.RJ_FREESTYLE
    STANDARD = lib.RJ_STANDARD
    RENJU = lib.RJ_RENJU
    # Caro as the Gomocup referee judges it: an end is blocked by an opponent stone or the edge.
    CARO = lib.RJ_CARO  # Gomocup rule 8: six or more, or a five not blocked at both ends
    CARO_EXACT = lib.RJ_CARO_EXACT  # Gomocup rule 9: exactly five, not blocked at both ends

    @classmethod
    def from_gomocup(cls, bits: int) -> Rule:
        """Decode Gomocup's `INFO rule` bitmask: renju when bit 4 is set, then caro (bit 8, exact
        five when bit 1 is also set), then standard (bit 1); bit 2 (continuous game) is ignored,
        except that 2 alone is renju: Yixin-Board sends 0, 1 and 2 for freestyle, standard and
        renju (Rapfi reads it so too), and Gomocup's managers never send the continuous bit alone."""
        if bits < 0:
            raise BoardError(f"bad rule value {bits}")
        if bits & 4 or bits == 2:
            return cls.RENJU
        if bits & 8:
            return cls.CARO_EXACT if bits & 1 else cls.CARO
        return cls.STANDARD if bits & 1 else cls.FREESTYLE

    @classmethod
    def parse(cls, name: str | int | Rule) -> Rule:
        """A rule from its name ("renju", "caro-exact", ...), its Gomocup number, or itself."""
        if isinstance(name, Rule):
            return name
        if isinstance(name, int):
            return cls.from_gomocup(name)
        if not isinstance(name, str):
            raise BoardError(f"unknown rule {name!r}")
        key = name.strip().lower().replace("-", "_")
        if key.isdigit():
            return cls.from_gomocup(int(key))
        try:
            return cls[key.upper()]
        except KeyError:
            raise BoardError(f"unknown rule {name!r}") from None


class Pattern(enum.IntEnum):
    """What a stone placed on a point makes on one line through it (see native/include/renju.h).
    `O` own stone, `X` opponent, `_` empty, `*` the new stone."""

    NONE = lib.RJ_PT_NONE  # no five can ever be made through the point on this line
    FORBID = lib.RJ_PT_FORBID  # same-line double four, Renju black only: O_O*O_O
    DEAD1 = lib.RJ_PT_DEAD1  # X*____
    LIVE1 = lib.RJ_PT_LIVE1  # __*___
    DEAD2 = lib.RJ_PT_DEAD2  # XO*___
    LIVE2 = lib.RJ_PT_LIVE2  # __O*__
    DEAD3 = lib.RJ_PT_DEAD3  # XOO*__
    LIVE3 = lib.RJ_PT_LIVE3  # _OO*__
    DEAD4 = lib.RJ_PT_DEAD4  # XOOO*_
    LIVE4 = lib.RJ_PT_LIVE4  # _OOO*_
    FIVE = lib.RJ_PT_FIVE  # OOOO*
    OVERLINE = lib.RJ_PT_OVERLINE  # OOO*OO


class Foul(enum.IntEnum):
    NONE = lib.RJ_FOUL_NONE
    DOUBLE_THREE = lib.RJ_FOUL_DOUBLE_THREE
    DOUBLE_FOUR = lib.RJ_FOUL_DOUBLE_FOUR
    OVERLINE = lib.RJ_FOUL_OVERLINE


class Result(enum.IntEnum):
    ONGOING = lib.RJ_ONGOING
    BLACK_WINS = lib.RJ_BLACK_WINS
    WHITE_WINS = lib.RJ_WHITE_WINS
    DRAW = lib.RJ_DRAW


def threat_level(rule: Rule, color: Color, pattern: Pattern) -> int:
    """The method's threat level of a pattern type: -1 forbidden, 0 quiet ... 4 five."""
    return int(lib.rj_threat_level(int(rule), int(color), int(pattern)))


class Board:
    """A board under one rule, with play/undo history, backed by an incremental C structure."""

    def __init__(self, size: int = 15, rule: Rule | str | int = Rule.RENJU) -> None:
        if not isinstance(size, int) or not lib.RJ_MIN_SIZE <= size <= lib.RJ_MAX_SIZE:
            raise BoardError(f"board size must be an integer from {lib.RJ_MIN_SIZE} to {lib.RJ_MAX_SIZE}, got {size!r}")
        rule = Rule.parse(rule)
        handle = lib.rj_board_new(size, int(rule))
        if handle == ffi.NULL:
            raise BoardError("could not create the board (out of memory?)")
        self._b = ffi.gc(handle, lib.rj_board_free)
        self.size = size
        self.rule = rule

    # ---- construction -------------------------------------------------------------------

    @classmethod
    def from_moves(cls, moves: Iterable[Move], size: int = 15, rule: Rule | str | int = Rule.RENJU) -> Board:
        """Replay moves in order (black first), with every rule enforced."""
        board = cls(size, rule)
        for x, y in moves:
            board.play(x, y)
        return board

    @classmethod
    def from_stones(
        cls,
        black: Iterable[Move],
        white: Iterable[Move],
        to_move: Color | None = None,
        size: int = 15,
        rule: Rule | str | int = Rule.RENJU,
        blocked: Iterable[Move] = (),
    ) -> Board:
        """A position as it stands (a puzzle): stones are placed without turn order or foul checks.
        The side to move defaults to black when the counts are equal, else white. A position
        that already holds a winning line (or a full board) raises GameOver."""
        board = cls(size, rule)
        black, white = list(black), list(white)
        grid = np.zeros((board.size, board.size), dtype=np.uint8)
        for color, stones in ((Color.BLACK, black), (Color.WHITE, white), (Color.BLOCKED, list(blocked))):
            for x, y in stones:
                board._validate(x, y)
                if not board.on_board(x, y):
                    raise OffBoard(f"({x}, {y}) is off the {size}x{size} board")
                if grid[y, x]:
                    raise Occupied(f"({x}, {y}) is given twice")
                grid[y, x] = color
        if to_move is None:
            to_move = Color.BLACK if len(black) == len(white) else Color.WHITE
        check(lib.rj_board_load(board._b, ffi.from_buffer("uint8_t[]", grid), int(to_move)), "from_stones")
        if board.game_over:
            raise GameOver(f"the position is already decided ({board.result.name.lower().replace('_', ' ')})")
        return board

    def copy(self) -> Board:
        other = Board(self.size, self.rule)
        lib.rj_board_copy(other._b, self._b)
        return other

    def clear(self) -> None:
        lib.rj_board_clear(self._b)

    # ---- state --------------------------------------------------------------------------

    @property
    def to_move(self) -> Color:
        return Color(lib.rj_to_move(self._b))

    @to_move.setter
    def to_move(self, color: Color) -> None:
        check(lib.rj_set_to_move(self._b, int(color)), "to_move")

    @property
    def result(self) -> Result:
        return Result(lib.rj_result(self._b))

    @property
    def game_over(self) -> bool:
        return self.result != Result.ONGOING

    @property
    def stone_count(self) -> int:
        """Occupied points (blocked points included)."""
        return int(lib.rj_stone_count(self._b))

    @property
    def hash(self) -> int:
        return int(lib.rj_hash(self._b))

    def __getitem__(self, point: Move) -> Color:
        x, y = point
        v = lib.rj_get(self._b, x, y)
        if v == lib.RJ_WALL:
            raise BoardError(f"({x}, {y}) is off the {self.size}x{self.size} board")
        return Color(v)

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def history(self) -> list[tuple[Move, Color]]:
        """Stones in the order they were placed, with their colours."""
        n = self.stone_count
        xs, ys = ffi.new("int16_t[]", max(n, 1)), ffi.new("int16_t[]", max(n, 1))
        cs = ffi.new("uint8_t[]", max(n, 1))
        n = lib.rj_history(self._b, xs, ys, cs)
        return [((xs[i], ys[i]), Color(cs[i])) for i in range(n)]

    @property
    def moves(self) -> list[Move]:
        return [m for m, _ in self.history()]

    @property
    def last_move(self) -> Move | None:
        h = self.history()
        return h[-1][0] if h else None

    def stones(self) -> np.ndarray:
        """uint8 array [y, x] of Color values."""
        out = np.zeros((self.size, self.size), dtype=np.uint8)
        lib.rj_stones(self._b, ffi.from_buffer("uint8_t[]", out))
        return out

    # ---- moves --------------------------------------------------------------------------

    def _validate(self, x: int, y: int) -> None:
        if not (isinstance(x, (int, np.integer)) and isinstance(y, (int, np.integer))):
            raise BoardError(f"coordinates must be integers, got ({x!r}, {y!r})")
        if not (-(2**31) <= x < 2**31 and -(2**31) <= y < 2**31):  # beyond C's int: surely off the board
            raise OffBoard(f"({x}, {y}) is off the {self.size}x{self.size} board")

    def play(self, x: int, y: int) -> None:
        """Play the side to move at (x, y). Raises OffBoard, Occupied, GameOver or (black in
        Renju) ForbiddenMove, leaving the board unchanged."""
        self._validate(x, y)
        if self.rule == Rule.RENJU and self.to_move == Color.BLACK and self.on_board(x, y):
            foul = Foul(lib.rj_foul(self._b, x, y))
            if foul != Foul.NONE and lib.rj_result(self._b) == lib.RJ_ONGOING:
                raise ForbiddenMove(f"({x}, {y}) is forbidden for black: {foul.name.lower()}", foul)
        check(lib.rj_play(self._b, x, y), f"play ({x}, {y})")

    def put(self, x: int, y: int, color: Color) -> None:
        """Place a stone of `color` (or Color.BLOCKED) without changing the side to move or checking
        fouls (position set-up). A stone that completes a winning line ends the game."""
        self._validate(x, y)
        check(lib.rj_put(self._b, x, y, int(color)), f"put ({x}, {y})")

    def undo(self) -> Move:
        """Take back the last stone; returns its point."""
        last = self.last_move
        check(lib.rj_undo(self._b), "undo")
        assert last is not None
        return last

    # ---- rules --------------------------------------------------------------------------

    def foul(self, x: int, y: int) -> Foul:
        """Why black may not play (x, y) under Renju; Foul.NONE for other rules, occupied and
        off-board points."""
        self._validate(x, y)
        return Foul(lib.rj_foul(self._b, x, y))

    def is_legal(self, x: int, y: int) -> bool:
        """Can the side to move play (x, y) now?"""
        if not self.on_board(x, y) or self.game_over or self[x, y] != Color.EMPTY:
            return False
        return not (self.to_move == Color.BLACK and self.foul(x, y) != Foul.NONE)

    def forbidden_points(self) -> np.ndarray:
        """uint8 array [y, x] of Foul codes for black (all zero unless the rule is Renju)."""
        out = np.zeros((self.size, self.size), dtype=np.uint8)
        lib.rj_forbidden_points(self._b, ffi.from_buffer("uint8_t[]", out))
        return out

    def forbidden_list(self) -> list[Move]:
        ys, xs = np.nonzero(self.forbidden_points())
        return sorted(zip(xs.tolist(), ys.tolist()))

    def legal_moves(self) -> list[Move]:
        """Every point the side to move may play, in row-major order."""
        if self.game_over:
            return []
        empty = self.stones() == Color.EMPTY
        if self.to_move == Color.BLACK:
            empty &= self.forbidden_points() == Foul.NONE
        ys, xs = np.nonzero(empty)
        return list(zip(xs.tolist(), ys.tolist()))

    def wins_at(self, x: int, y: int, color: Color | None = None) -> bool:
        """Would a stone of `color` (default: side to move) on the empty (x, y) win?"""
        self._validate(x, y)
        color = self.to_move if color is None else color
        return bool(lib.rj_wins_at(self._b, x, y, int(color)))

    # ---- threats -----------------------------------------------------------------------

    def _points(self, fn, *args) -> list[Move]:
        xs, ys = ffi.new("int16_t[]", lib.RJ_MAX_MOVES), ffi.new("int16_t[]", lib.RJ_MAX_MOVES)
        n = fn(self._b, *args, xs, ys) if args else fn(self._b, xs, ys)
        return [_POINTS[xs[i]][ys[i]] for i in range(n)]

    def threat(self, color: Color) -> int:
        """The threat `color` poses now: 3 two or more five points, 2 one (a four), 1 a playable
        straight-four point (a live three), 0 none."""
        return int(lib.rj_threat(self._b, int(color)))

    def defence_set(self) -> list[Move]:
        """D(c): points where the side to move lowers the opponent's threat."""
        return self._points(lib.rj_defence_set)

    def attack_set(self) -> tuple[list[Move], int]:
        """A(c), pure attacks first, and how many of them are pure."""
        xs, ys = ffi.new("int16_t[]", lib.RJ_MAX_MOVES), ffi.new("int16_t[]", lib.RJ_MAX_MOVES)
        pure = ffi.new("int *")
        n = lib.rj_attack_set(self._b, xs, ys, pure)
        return [(xs[i], ys[i]) for i in range(n)], int(pure[0])

    def unified_set(self) -> list[Move]:
        """M(c) = A(c) ∪ D(c)."""
        return self._points(lib.rj_unified_set)

    def candidate_moves(self, radius: int = 3) -> list[Move]:
        """The move filter: immediate wins if any; else M(c) when the opponent threatens; else
        every playable point within `radius` (Chebyshev) of a stone."""
        if self.game_over:
            return []
        return self._points(lib.rj_filter_moves, int(radius))

    # ---- network input ------------------------------------------------------------------

    def planes(self, out: np.ndarray | None = None, version: int = FEATURE_VERSION) -> np.ndarray:
        """float32 [planes, size, size] input planes from the side to move's view (layout:
        native/include/renju.h), those of feature `version` (PLANES_OF_VERSION[version] of
        them), filled by one C call; `out` is reused."""
        shape = (PLANES_OF_VERSION[version], self.size, self.size)
        if out is None:
            out = np.zeros(shape, dtype=np.float32)
        elif out.shape != shape or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(f"planes need a C-contiguous float32 array of shape {shape}, not {out.dtype} {out.shape}")
        lib.rj_planes_version(self._b, version, ffi.from_buffer("float[]", out))
        return out

    # ---- patterns -----------------------------------------------------------------------

    def patterns(self, color: Color) -> np.ndarray:
        """uint8 array [y, x, direction] of Pattern codes for a stone of `color` on each point;
        directions: horizontal, vertical, diagonal (x+1, y+1), anti-diagonal (x-1, y+1)."""
        out = np.zeros((self.size, self.size, 4), dtype=np.uint8)
        lib.rj_patterns(self._b, int(color), ffi.from_buffer("uint8_t[]", out))
        return out

    def pattern_counts(self, color: Color) -> np.ndarray:
        """int32 array [Pattern] counting (empty point, direction) pairs of each type."""
        out = np.zeros(len(Pattern), dtype=np.int32)
        lib.rj_pattern_counts(self._b, int(color), ffi.from_buffer("int32_t[]", out))
        return out

    def check(self) -> None:
        """Raise AssertionError if any incremental structure differs from a recomputation."""
        code = lib.rj_board_check(self._b)
        names = {1: "line keys", 2: "pattern codes", 3: "pattern counts", 4: "hash", 5: "stone count", 6: "result",
                 7: "threat point sets"}
        if code:
            raise AssertionError(f"incremental state differs from recomputation: {names.get(code, code)}")

    # ---- display ------------------------------------------------------------------------

    def __str__(self) -> str:
        """Diagram with the top row (largest y) first: X black, O white, # blocked, . empty."""
        grid = self.stones()
        chars = {Color.EMPTY: ".", Color.BLACK: "X", Color.WHITE: "O", Color.BLOCKED: "#"}
        return "\n".join("".join(chars[int(v)] for v in grid[y]) for y in range(self.size - 1, -1, -1))

    def __repr__(self) -> str:
        return f"Board(size={self.size}, rule={self.rule.name}, moves={len(self.moves)}, to_move={self.to_move.name})"

