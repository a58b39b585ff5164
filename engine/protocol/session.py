"""The protocol session: a state machine from command lines to reply lines. It does no I/O
(engine.protocol.loop owns stdin/stdout), so every command family is tested by transcripts.

Replies follow docs/protocol.md: `OK`, `x,y`, `ERROR <reason>`, `UNKNOWN <text>`, `MESSAGE
<text>`, the ABOUT line, SWAP2BOARD answers and Yixin's `FORBID` line. Bad input never changes the
position."""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from engine import __version__, paths
from engine.board import Board, Color, Foul, Move, Rule
from engine.native import BoardError, ForbiddenMove, GameOver, Occupied, OffBoard
from engine.players import Limits, Player
from engine.protocol import memory
from engine.protocol.commands import ProtocolError, parse_int64, parse_xy, parse_xyf, split_command
from engine.protocol.timeman import TimeControl, bankable, budget

log = logging.getLogger("pbrain.session")

NAME = "pbrain-renju"
ABOUT = f'name="{NAME}", version="{__version__}", author="the pbrain-renju authors", country="International"'
DEFAULT_MAX_MEMORY = 350 * 1024 * 1024  # Gomocup's limit; INFO max_memory 0 means this
MIN_SIZE, MAX_SIZE = 5, 22
# INFO keys that only need storing (Gomocup's and Yixin-Board's); unknown keys are ignored too.
STORED_KEYS = {"game_type", "thread_num", "hash_size", "max_node", "max_depth", "pondering",
               "show_detail", "time_increment", "caution_factor", "checkmate", "nbestsym", "vcthread",
               "usedatabase", "protocol_lag", "auto_pondering", "analysis_mode"}
BLOCK_COMMANDS = {"BOARD", "YXBOARD", "SWAP2BOARD"}
# Yixin-Board's database and block-path commands, whose `x,y` lines follow until DONE: the engine
# has no database, so they are read to their end and answered with nothing.
YIXIN_DATA_BLOCKS = {"YXQUERYDATABASEALL", "YXQUERYDATABASEONE", "YXDELETEDATABASEONE", "YXDELETEDATABASEALL",
                     "YXSETBESTMOVEDATABASE", "YXCLEARBESTMOVEDATABASE", "YXEDITLABELDATABASE",
                     "YXEDITTVDDATABASE", "YXBLOCKPATH", "YXBLOCKPATHUNDO"}
# Yixin-Board's commands whose argument (a file name) is the next line.
YIXIN_FILE_COMMANDS = {"YXHASHDUMP", "YXHASHLOAD", "YXSETDATABASE", "YXDBTOPOS", "YXDBTOTXT", "YXTXTTODB"}


# How much of a late move's overrun is still kept off the budget one move later.
OVERRUN_DECAY = 0.5


def fmt(move: Move) -> str:
    return f"{move[0]},{move[1]}"


class Session:
    """One engine process's protocol state. `handle(line)` returns the reply lines."""

    def __init__(
        self,
        player: Player,
        stop: threading.Event | None = None,
        clock: Callable[[], float] = time.monotonic,
        startup: float = 0.0,
        on_folder: Callable[[Path], None] | None = None,
        emit: Callable[[str], None] | None = None,
        on_gui: Callable[[], None] | None = None,
    ) -> None:
        self.player = player
        self.stop = stop or threading.Event()
        self.clock = clock
        self.startup = startup  # seconds of loading the first move's clock still pays for
        self.overrun = 0.0  # seconds recent moves ran past their own deadline, kept off the next budgets
        self.on_folder = on_folder
        self.emit = emit  # writes a line at once, while the player thinks (realtime analysis)
        self.on_gui = on_gui  # called once a GUI (YXSHOWINFO) is known to be the manager
        self.board: Board | None = None
        self.rule = Rule.FREESTYLE  # Gomocup's rule 0 until INFO rule says otherwise
        self.tc = TimeControl()
        self.max_memory = DEFAULT_MAX_MEMORY
        self.info: dict[str, int | str] = {}
        self.block: str | None = None  # BOARD / YXBOARD / SWAP2BOARD / a Yixin block collecting data lines
        self.block_lines: list[str] = []
        self.file_argument: str | None = None  # a Yixin file command waiting for its file name line
        self.blocked: set[Move] = set()  # YXBLOCK: points the engine must not play
        self.notices: list[str] = []  # MESSAGE lines owed before the next reply
        self.ended = False

    # ---- dispatch -----------------------------------------------------------------------

    def handle(self, line: str, received: float | None = None) -> list[str]:
        """Reply lines for one input line. `received` is when the line arrived (monotonic)."""
        line = line.strip()
        if not line or self.ended:
            return []
        if received is None:
            received = self.clock()
        word = line.upper()
        if (self.block is not None or self.file_argument is not None) and word == "END":
            # a manager may end the engine at any time: the unfinished block is dropped
            self.block, self.block_lines, self.file_argument, self.ended = None, [], None, True
            return []
        if self.file_argument is not None:
            command, self.file_argument = self.file_argument, None
            return self._flush([f"ERROR {command.lower()} {line[:60]}: files are not supported by this engine"])
        if self.block is not None:  # inside BOARD / YXBOARD / SWAP2BOARD / a Yixin block
            if word != "DONE":
                self.block_lines.append(line)
                return []
            cmd, arg, handler = self.block, "", self._finish_block
        else:
            cmd, arg = split_command(line)
            handler = getattr(self, "_cmd_" + cmd.lower(), None) if cmd.isalnum() else None
            if cmd in YIXIN_DATA_BLOCKS:
                self.block, self.block_lines = cmd, []
                return self._flush([])
            if cmd in YIXIN_FILE_COMMANDS:
                self.file_argument = cmd
                return self._flush([])
        try:
            if cmd == "INFO":  # never answered: the manager is not reading while it sends INFO
                self._info(arg)
                return []
            if handler is None:
                return self._flush([f"UNKNOWN command not understood: {line[:60]}"])
            return self._flush(handler(arg, received))
        except ProtocolError as e:
            return self._flush([f"ERROR {e}"])
        except Exception:  # never a traceback on stdout, never a dead engine
            log.exception("internal error on %r", line)
            return [] if cmd == "INFO" else self._flush([f"ERROR internal error while handling {cmd}"])

    def _flush(self, lines: list[str]) -> list[str]:
        out, self.notices = self.notices + lines, []
        return out

    # ---- game set-up --------------------------------------------------------------------

    def _need_board(self) -> Board:
        if self.board is None:
            raise ProtocolError("no board: send START first")
        return self.board

    def _new_board(self, size: int) -> None:
        self.board = Board(size, self.rule)
        self.player.new_game()

    def _cmd_start(self, arg: str, received: float) -> list[str]:
        """START n, or START w h as Yixin-Board sends it (width and height: square boards only)."""
        words = arg.split()
        try:
            sizes = [parse_int64(w) for w in words]
        except ProtocolError:
            sizes = []
        if len(sizes) not in (1, 2):
            raise ProtocolError(f"bad START parameter {arg.strip()!r}: expected the board size")
        if len(sizes) == 2 and sizes[0] != sizes[1]:
            raise ProtocolError(f"rectangular boards are not supported ({sizes[0]}x{sizes[1]})")
        size = sizes[0]
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"unsupported board size {size}: this engine plays {MIN_SIZE} to {MAX_SIZE}")
        self._new_board(size)
        return ["OK"]

    def _cmd_rectstart(self, arg: str, received: float) -> list[str]:
        w, h = parse_xy(arg)
        if w != h:
            raise ProtocolError(f"rectangular boards are not supported ({w}x{h})")
        return self._cmd_start(str(w), received)

    def _cmd_restart(self, arg: str, received: float) -> list[str]:
        board = self._need_board()
        self._new_board(board.size)
        return ["OK"]

    def _cmd_end(self, arg: str, received: float) -> list[str]:
        self.ended = True
        return []

    def _cmd_about(self, arg: str, received: float) -> list[str]:
        return [ABOUT]

    # ---- INFO ---------------------------------------------------------------------------

    def _info(self, arg: str) -> None:
        key, _, value = arg.strip().partition(" ")
        key, value = key.lower(), value.strip()
        if key == "evaluate":  # the point under the GUI's mouse: debug builds only
            return
        if key == "folder":
            self.info[key] = value
            if self.on_folder and value:
                self.on_folder(Path(value))
            return
        try:
            number = parse_int64(value)
        except ProtocolError as e:
            log.warning("INFO %s ignored: %s", key, e)
            return
        self.info[key] = number
        if key == "timeout_turn":
            self.tc.timeout_turn = max(0, number)
        elif key == "timeout_match":
            self.tc.timeout_match = max(0, number)
        elif key == "time_left":
            self.tc.time_left = number
        elif key == "max_memory":
            self.max_memory = number if number > 0 else DEFAULT_MAX_MEMORY
            used = memory.rss_bytes()
            if used and memory.search_allowance(self.max_memory, used) == 0:
                # Said with the next reply: the manager is not reading while it sends INFO.
                self.notices.append(f"MESSAGE max_memory {self.max_memory >> 20} MB is below what the engine "
                                    f"needs ({used >> 20} MB in use); it will play without a search tree")
        elif key == "rule":
            self._set_rule(number)
        elif key == "thread_num":
            self.player.set_threads(max(1, min(number, os.cpu_count() or 1)))
        elif key not in STORED_KEYS:
            log.info("INFO %s %s: unknown key, ignored", key, value)

    def _set_rule(self, bits: int) -> None:
        try:
            rule = Rule.from_gomocup(bits)
        except BoardError as e:
            log.warning("INFO rule ignored: %s", e)
            return
        if rule == self.rule:
            return
        self.rule = rule
        if self.board is not None:  # keep the stones, judged under the new rule
            old = self.board
            self.board = Board(old.size, rule)
            for (x, y), color in old.history():
                if not self.board.game_over:
                    self.board.put(x, y, color)
            self.board.to_move = old.to_move

    # ---- moves --------------------------------------------------------------------------

    def _cmd_begin(self, arg: str, received: float) -> list[str]:
        board = self._need_board()
        if board.stone_count:
            raise ProtocolError("BEGIN on a board that already has stones")
        return self._reply_move(received)

    def _cmd_turn(self, arg: str, received: float) -> list[str]:
        board = self._need_board()
        x, y = parse_xy(arg)
        if board.game_over:
            raise ProtocolError(f"the game is over ({board.result.name.lower().replace('_', ' ')})")
        self._play(board, x, y)
        if board.game_over:
            raise ProtocolError(f"the game is over after {x},{y} ({board.result.name.lower().replace('_', ' ')})")
        return self._reply_move(received)

    def _cmd_play(self, arg: str, received: float) -> list[str]:
        """The manager forces our move (the answer to SUGGEST, which we never send)."""
        board = self._need_board()
        x, y = parse_xy(arg)
        self._play(board, x, y)
        return [f"{x},{y}"]

    def _cmd_takeback(self, arg: str, received: float) -> list[str]:
        board = self._need_board()
        x, y = parse_xy(arg)
        if board.last_move != (x, y):
            raise ProtocolError(f"TAKEBACK {x},{y}: only the last move ({self._last()}) can be taken back")
        board.undo()
        return ["OK"]

    def _last(self) -> str:
        last = self.board.last_move if self.board else None
        return fmt(last) if last else "none"

    def _play(self, board: Board, x: int, y: int) -> None:
        try:
            board.play(x, y)
        except OffBoard:
            raise ProtocolError(f"{x},{y} is off the {board.size}x{board.size} board") from None
        except Occupied:
            raise ProtocolError(f"{x},{y} is occupied") from None
        except ForbiddenMove as e:
            raise ProtocolError(f"{x},{y} is forbidden for black ({e.foul.name.lower().replace('_', ' ')})") from None
        except GameOver:
            raise ProtocolError("the game is over") from None
        except BoardError as e:
            raise ProtocolError(str(e)) from None

    def _reply_move(self, received: float) -> list[str]:
        board = self._need_board()
        move = self._think(board, received)
        board.play(*move)
        analysis = getattr(self.player, "analysis", None)
        messages = [f"MESSAGE {text}" for text in analysis()] if analysis else []
        return messages + [fmt(move)]

    def _limits(self, board: Board, received: float) -> Limits:
        b = budget(self.tc, board.stone_count, board.size * board.size, startup=self.startup,
                   overrun=self.overrun)
        self.startup = 0.0  # only the process's first move pays for loading
        self.stop.clear()
        max_node = self.info.get("max_node", 0)
        detail = self.info.get("show_detail", 0)
        report = None
        if self.emit is not None and isinstance(detail, int) and detail > 0:
            emit = self.emit
            report = lambda text: emit(f"MESSAGE {text}")  # noqa: E731
        return Limits(deadline=received + b.maximum, optimum=b.optimum, stop=self.stop,
                      max_nodes=max(0, int(max_node)) if isinstance(max_node, int) else 0, report=report,
                      bankable=bankable(self.tc), memory=max(1, memory.search_allowance(self.max_memory)))

    def _think(self, board: Board, received: float) -> Move:
        """The player's move, or a safe legal one if the player fails: a crash or an illegal
        answer must never lose the game."""
        if not board.legal_moves():
            raise ProtocolError("no legal move left")
        limits = self._limits(board, received)
        try:
            move = self._choose(board, limits)
        except Exception:
            log.exception("player %s failed; playing a fallback move", self.player.name)
            move = None
        if move is None or not board.is_legal(*move):
            log.error("player %s gave %r, not a legal move; playing a fallback move", self.player.name, move)
            move = fallback_move(board, self.blocked)
        done = self.clock()
        log.info("move %s after %.0f ms (budget %.0f ms)", fmt(move), (done - received) * 1e3,
                 (limits.deadline - received) * 1e3)
        # A move that ended past its deadline (a busy machine, a C call that ran long) shortens the
        # next budgets by as much, the debt halving with each move that keeps its time.
        self.overrun = max(done - limits.deadline, self.overrun * OVERRUN_DECAY, 0.0)
        return move

    def _choose(self, board: Board, limits: Limits) -> Move:
        """The player's move; with blocked points (YXBLOCK), its best-ranked move that is not
        one, from the same search."""
        if not self.blocked:
            return self.player.choose(board, limits)
        for move, _ in self.player.ranked(board, limits):
            if move not in self.blocked and board.is_legal(*move):
                return move
        return fallback_move(board, self.blocked)  # the player ranked only blocked points

    # ---- multi-line commands ------------------------------------------------------------

    def _open_block(self, name: str) -> list[str]:
        self._need_board()
        self.block, self.block_lines = name, []
        return []

    def _cmd_board(self, arg: str, received: float) -> list[str]:
        return self._open_block("BOARD")

    def _cmd_yxboard(self, arg: str, received: float) -> list[str]:
        return self._open_block("YXBOARD")

    def _cmd_swap2board(self, arg: str, received: float) -> list[str]:
        return self._open_block("SWAP2BOARD")

    def _cmd_yxblock(self, arg: str, received: float) -> list[str]:
        return self._open_block("YXBLOCK")

    def _cmd_yxblockundo(self, arg: str, received: float) -> list[str]:
        return self._open_block("YXBLOCKUNDO")

    def _finish_block(self, arg: str, received: float) -> list[str]:
        """DONE: act on the collected lines. A bad block changes nothing."""
        block, lines = self.block, self.block_lines
        self.block, self.block_lines = None, []
        if block == "SWAP2BOARD":
            return self._swap2(lines, received)
        if block in ("YXBLOCK", "YXBLOCKUNDO"):
            points = {parse_xy(line) for line in lines}
            self.blocked = self.blocked | points if block == "YXBLOCK" else self.blocked - points
            return []
        if block in YIXIN_DATA_BLOCKS:
            return []
        board = self._position(lines)
        if block == "YXBOARD":
            self.board = board
            return []
        if board.game_over:
            raise ProtocolError("the position is already decided")
        self.board = board
        return self._reply_move(received)

    def _position(self, lines: list[str]) -> Board:
        """A new board from BOARD lines (in move order): the side to move is black when the
        stone count is even, so `own` stones are black then."""
        old = self._need_board()
        entries = [parse_xyf(line) for line in lines]
        stones = sum(1 for _, _, f in entries if f in (1, 2))
        me = Color.BLACK if stones % 2 == 0 else Color.WHITE
        colors = {1: me, 2: me.opponent, 3: Color.BLOCKED}
        board = Board(old.size, self.rule)
        for x, y, f in entries:
            try:
                board.put(x, y, colors[f])
            except OffBoard:
                raise ProtocolError(f"{x},{y} is off the {old.size}x{old.size} board") from None
            except Occupied:
                raise ProtocolError(f"{x},{y} is given twice") from None
            except GameOver:
                raise ProtocolError("the position is already decided") from None
        board.to_move = me
        return board

    def _swap2(self, lines: list[str], received: float) -> list[str]:
        board = self._need_board()
        moves = [parse_xy(line) for line in lines]
        if len(moves) not in (0, 3, 5):
            raise ProtocolError(f"SWAP2BOARD needs 0, 3 or 5 stones, got {len(moves)}")
        if not moves:
            return [" ".join(fmt(m) for m in swap2_opening(board.size))]
        position = Board(board.size, self.rule)
        for x, y in moves:
            self._play(position, x, y)
        if self._swaps(position, received):
            return ["SWAP"]
        return [fmt(self._think(position, received))]

    def _swaps(self, position: Board, received: float) -> bool:
        """Swap2's choice: take the other colour when the side to move is clearly behind."""
        return side_balance(position, self.player, self._limits(position, received)) < -SWAP_MARGIN

    # Yixin-Board's Swap2 (its Swap2 rule, which it sends as `INFO rule 1`): step 1 asks for the
    # three opening stones, step 2 (after YXBOARD with three) whether to swap, step 3 (five) which
    # colour to take; the answers are MESSAGE lines, points as `x y`.
    def _cmd_yxswap2step1(self, arg: str, received: float) -> list[str]:
        board = self._need_board()
        return [f"MESSAGE SWAP2 MOVE{i} {x} {y}" for i, (x, y) in enumerate(swap2_opening(board.size), start=1)]

    def _cmd_yxswap2step2(self, arg: str, received: float) -> list[str]:
        board = self._yixin_swap_board(3)
        return [f"MESSAGE SWAP2 SWAP1 {'YES' if self._swaps(board, received) else 'NO'}"]

    def _cmd_yxswap2step3(self, arg: str, received: float) -> list[str]:
        board = self._yixin_swap_board(5)
        # YES: the engine takes black (white, behind, is the side to move); NO: white, and the
        # GUI then asks for the sixth move
        return [f"MESSAGE SWAP2 SWAP2 {'YES' if self._swaps(board, received) else 'NO'}"]

    def _yixin_swap_board(self, stones: int) -> Board:
        board = self._need_board()
        if board.stone_count != stones or board.game_over:
            raise ProtocolError(f"this Swap2 step needs a position of {stones} stones, not {board.stone_count}")
        return board

    # ---- Yixin-Board extensions ---------------------------------------------------------

    def _cmd_yxshowforbid(self, arg: str, received: float) -> list[str]:
        board = self._need_board()
        points = board.forbidden_list() if board.to_move == Color.BLACK else []
        return ["FORBID " + "".join(f"{x:02d}{y:02d}" for x, y in points) + "."]

    def _cmd_yxnbest(self, arg: str, received: float) -> list[str]:
        board = self._need_board()
        n = max(1, int(parse_int64(arg))) if arg.strip() else 1
        if board.game_over or not board.legal_moves():
            raise ProtocolError("no move to analyse")
        ranked = [(m, s) for m, s in self.player.ranked(board, self._limits(board, received))
                  if board.is_legal(*m) and m not in self.blocked]
        if not ranked:
            ranked = [(fallback_move(board, self.blocked), 0.0)]
        lines = [f"MESSAGE NBEST {i + 1} {fmt(m)} score {s:.0f}" for i, (m, s) in enumerate(ranked[:n])]
        board.play(*ranked[0][0])  # Yixin-Board plays the answer as the engine's move (Rapfi does so too)
        return lines + [fmt(ranked[0][0])]

    def _cmd_yxstop(self, arg: str, received: float) -> list[str]:
        return []  # heard by the loop while thinking; nothing to stop otherwise

    _cmd_stop = _cmd_yxstop

    def _cmd_yxblockreset(self, arg: str, received: float) -> list[str]:
        self.blocked = set()
        return []

    def _cmd_yxblockpathreset(self, arg: str, received: float) -> list[str]:
        return []  # block paths (YXBLOCKPATH) are read and left aside

    def _cmd_yxhashclear(self, arg: str, received: float) -> list[str]:
        self.player.clear_hash()
        return []

    def _cmd_yxshowinfo(self, arg: str, received: float) -> list[str]:
        if self.on_gui is not None:  # Yixin-Board asks this first; it never reads the engine's stderr
            self.on_gui()
            self.on_gui = None
        unset = "unset"
        return [
            "MESSAGE INFO MAX_THREAD_NUM 1",
            f"MESSAGE INFO RULE {self.rule.name.lower()}",
            f"MESSAGE INFO PLAYER {self.player.name}",
            f"MESSAGE INFO MAX_MEMORY {self.max_memory}",
            f"MESSAGE INFO TIMEOUT_TURN {unset if self.tc.timeout_turn is None else self.tc.timeout_turn}",
            f"MESSAGE INFO TIMEOUT_MATCH {unset if self.tc.timeout_match is None else self.tc.timeout_match}",
            f"MESSAGE INFO TIME_LEFT {unset if self.tc.time_left is None else self.tc.time_left}",
            f"MESSAGE INFO MODELS_DIR {'ok' if paths.models_dir().is_dir() else 'missing'}",
        ]


SWAP_MARGIN = 300.0  # pattern-score points; a clear lead, not noise


def swap2_opening(size: int) -> list[Move]:
    """The three stones the engine opens Swap2 with: a fixed shape at the centre."""
    c = size // 2
    return [(c, c), (c + 1, c + 1), (c - 2, c + 1)]


def side_balance(board: Board, player: Player, limits: Limits) -> float:
    """Static balance for the side to move: its best move's score minus the opponent's best
    had it been the opponent's turn."""
    mine = player.ranked(board, limits)
    other = board.copy()
    other.to_move = board.to_move.opponent
    theirs = player.ranked(other, limits)
    return (mine[0][1] if mine else 0.0) - (theirs[0][1] if theirs else 0.0)


def fallback_move(board: Board, avoid: set[Move] | frozenset[Move] = frozenset()) -> Move:
    """A legal move found without the player: the one nearest the last stone (or the centre),
    outside `avoid` while another remains."""
    legal = board.legal_moves()
    if not legal:
        raise ProtocolError("no legal move left")
    legal = [m for m in legal if m not in avoid] or legal
    cx, cy = board.last_move or (board.size // 2, board.size // 2)
    return min(legal, key=lambda m: (max(abs(m[0] - cx), abs(m[1] - cy)), m))


__all__ = ["Session", "Foul", "ABOUT", "NAME"]
