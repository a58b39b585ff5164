"""The search player: MCTS with the shipped model (or the heuristic evaluator when no model
loads, with a MESSAGE saying so)."""
from __future__ import annotations

import logging
import time
from pathlib import Path

from engine import book as opening_book
from engine import paths
from engine.board import Board, Move
from engine.net.onnx_eval import cuda_driver_present, load_evaluator
from engine.players import Limits, PatternPlayer, Player
from engine.search.mcts import MCTS, MCTSConfig

log = logging.getLogger("pbrain.search")


def shipped_model(gpu: bool | None = None, folder: Path | None = None) -> str | None:
    """The newest net in models/ (the highest version, numbers compared as numbers): its int8 twin
    (`NAME-int8.onnx`) on a CPU, where it is ~2x faster, the float net on a GPU."""
    newest, twin = paths.newest_net(folder)
    if newest is None or twin is None:  # one net, or none: no choice to make
        only = newest or twin
        return str(only) if only else None
    if gpu is None:
        gpu = cuda_driver_present()
    return str(newest if gpu else twin)


def load_book(book: str | None) -> tuple[opening_book.Book | None, str | None]:
    """The opening book ("shipped": the one in models/, if any; None: no book), or None and a
    message saying why it could not be read (the engine then plays without one)."""
    path = opening_book.shipped_book() if book == "shipped" else book
    if path is None:
        return None, None
    try:
        return opening_book.load(path, replies=False), None
    except ValueError as e:
        return None, f"no opening book: {e}"


class MCTSPlayer(Player):
    name = "mcts"

    def __init__(self, model: str | None = "shipped", threads: int = 1, config: MCTSConfig | None = None,
                 book: str | None = None) -> None:
        self.model_path = shipped_model() if model == "shipped" else model
        self.threads = threads
        evaluator, self.load_message = load_evaluator(self.model_path, threads=threads)
        if self.load_message:
            log.warning(self.load_message)
        self.book, book_message = load_book(book)
        if book_message:
            log.warning(book_message)
            self.load_message = f"{self.load_message}; {book_message}" if self.load_message else book_message
        self.book_move: Move | None = None  # the last move, when the book gave it
        self.mcts = MCTS(evaluator, config)
        self.fallback = PatternPlayer()

    def set_threads(self, threads: int) -> None:
        """INFO thread_num: onnxruntime's intra-op threads (the tree search itself is one thread)."""
        if threads == self.threads or self.mcts.ev.name != "onnx":
            return
        evaluator, message = load_evaluator(self.model_path, threads=threads)
        if message is None:
            self.mcts.ev, self.threads = evaluator, threads

    def new_game(self) -> None:
        self.mcts.clear()

    def clear_hash(self) -> None:
        self.mcts.clear()

    def analysis(self) -> list[str]:
        """MESSAGE texts about the last search (and, once, why no model loaded)."""
        out = []
        if self.load_message:
            out.append(self.load_message)
            self.load_message = None
        i = self.mcts.info
        if self.book_move is not None:
            out.append(f"book {self.book_move[0]},{self.book_move[1]}")
        elif i.playouts:
            pv = " ".join(f"{x},{y}" for x, y in i.pv)
            out.append(f"depth {i.depth} n {i.playouts} n/s {i.playouts / max(i.seconds, 1e-6):.0f} "
                       f"tm {i.seconds * 1000:.0f} wr {i.winrate:.3f} pv {pv}")
        return out

    def ranked(self, board: Board, limits: Limits) -> list[tuple[Move, float]]:
        self.book_move = None
        if board.stone_count == 0:
            return [((board.size // 2, board.size // 2), 0.0)]
        if self.book is not None and (move := self.book.move(board)) is not None:
            self.book_move = move
            return [(move, 0.0)]
        left = limits.deadline - time.monotonic()
        if left <= 0.005:  # no time to search: the pattern policy answers at once
            return self.fallback.ranked(board, limits)
        move = self.mcts.search(board, limits.deadline, limits.optimum or left, limits.max_nodes, limits.stop,
                                limits.report, early_stop=limits.bankable,
                                memory_bytes=limits.memory)
        root = self.mcts.root
        others = sorted(((m, float(n)) for m, n in zip(root.moves, root.N) if m != move), key=lambda t: -t[1])
        chosen = float(root.N[root.moves.index(move)]) if move in root.moves else 0.0
        return [(move, chosen)] + others  # YXNBEST lists these: the played move, then by visits
