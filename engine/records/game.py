"""A game record whatever file it came from, replayed under its rule: how it ended and who won.

Readers (psq, sgf, renjunet) turn a file into `Game`s; `judge` replays one and fills in its end.
A record that cannot be a real game (a move on an occupied or off-board point before the last
move, black's foul before the last move, moves after the game was decided) raises RecordError, so
that a caller reports it and skips it instead of learning from a misread game."""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.board import Board, Color, Move, Result, Rule
from engine.native import ForbiddenMove, GameOver, Occupied, OffBoard

# How a game ended: a five; black's foul (its last move, a loss for black); Gomocup's 200-stone
# draw in Renju; a full board; or none of those on the board (the record stops: a time-out, a
# crash or a resignation, which the record alone does not tell apart); or an illegal last move
# (occupied or off the board), which loses for the side that played it.
ENDS = ("five", "foul", "draw200", "full", "stopped", "illegal")


class RecordError(ValueError):
    """The record is not a game that can have been played; the message says where."""


@dataclass
class Game:
    size: int
    rule: Rule
    moves: list[Move]  # every stone in order, the opening's included
    opening: int = 0  # how many leading stones the referee placed (not chosen by either player)
    names: tuple[str, str] = ("", "")  # black's, white's
    source: str = ""  # where it came from, for reports
    end: str = ""  # one of ENDS once judged
    winner: Color | None = None  # None: a draw, or no result (see `valued`)
    extra: dict = field(default_factory=dict)  # what a reader knows besides (its own result tag, ...)

    @property
    def valued(self) -> bool:
        """Whether the result says who played better: a stopped game (a time-out or a crash)
        does not."""
        return self.end not in ("", "stopped")


def judge(game: Game, draw_stones: int | None = None) -> Game:
    """Replays the moves under the game's rule and sets `end` and `winner`. draw_stones: the
    stone count at which the game is drawn (default: size^2 - 25 in Renju, as Gomocup's referee;
    none in the other rules)."""
    if draw_stones is None:
        draw_stones = game.size * game.size - 25 if game.rule == Rule.RENJU else 0
    board = Board(game.size, game.rule)
    last = len(game.moves) - 1
    for i, (x, y) in enumerate(game.moves):
        if board.game_over:
            raise RecordError(f"{game.source}: move {i + 1} ({x},{y}) after the game was decided")
        if draw_stones and board.stone_count >= draw_stones:
            raise RecordError(f"{game.source}: move {i + 1} past the {draw_stones}-stone draw")
        mover = board.to_move
        try:
            board.play(x, y)
        except ForbiddenMove:
            if i != last:
                raise RecordError(f"{game.source}: black's foul at move {i + 1} ({x},{y}) before the end") from None
            game.end, game.winner = "foul", Color.WHITE
            return game
        except (Occupied, OffBoard):
            if i != last:
                raise RecordError(f"{game.source}: move {i + 1} ({x},{y}) on an occupied or off-board point") from None
            game.end, game.winner = "illegal", mover.opponent
            return game
        except GameOver:  # unreachable: game_over is checked above
            raise RecordError(f"{game.source}: move {i + 1} after the end") from None
    if board.result in (Result.BLACK_WINS, Result.WHITE_WINS):
        game.end = "five"
        game.winner = Color.BLACK if board.result == Result.BLACK_WINS else Color.WHITE
    elif board.result == Result.DRAW:
        game.end, game.winner = "full", None
    elif draw_stones and board.stone_count >= draw_stones:
        game.end, game.winner = "draw200", None
    else:
        game.end, game.winner = "stopped", None
    return game


def confirm(game: Game) -> Game:
    """Refuses a judged game whose record states a winner the board contradicts (a five for black
    in a game the record gives to white): one of the two was misread. `extra["result"]`, as the
    readers set it, is "black", "white" or "draw"; a stopped game (a resignation, a time-out) can
    agree with any of them."""
    claimed = game.extra.get("result")
    if claimed is None or game.end in ("", "stopped"):
        return game
    board = {Color.BLACK: "black", Color.WHITE: "white", None: "draw"}[game.winner]
    if claimed != board:
        raise RecordError(f"{game.source}: the record's result is {claimed}, the board's is {board} ({game.end})")
    return game
