"""Self-play games with the engine's own MCTS: visit distributions as policy targets, the result
as value target, and positions the threat-space search settled as extra exact value targets."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from engine.board import FEATURE_PLANES, Board, Color, Result, Rule
from engine.net.evaluator import Evaluator, HeuristicEvaluator
from engine.search.mcts import MCTS, MCTSConfig
from engine.train.config import SelfPlayConfig

MAX_SETTLED_PER_MOVE = 4


@dataclass
class GameRecord:
    planes: list[np.ndarray] = field(default_factory=list)  # uint8 [C, n, n]
    policies: list[np.ndarray] = field(default_factory=list)  # float32 [n*n], zeros for value-only
    movers: list[int] = field(default_factory=list)  # the side to move (Color) of each sample
    exact: list[float] = field(default_factory=list)  # nan, or a proven value for the side to move
    moves: list[tuple[int, int]] = field(default_factory=list)
    branching: list[int] = field(default_factory=list)  # moves the filter left at each root
    winner: int = 0  # Color, 0 for a draw
    proven_end: bool = False
    opening: int = 0  # stones on the board when the search took over

    def arrays(self) -> dict[str, np.ndarray]:
        """Samples with their value targets: the exact value when proven, else the game's result."""
        movers = np.array(self.movers, dtype=np.int8)
        z = np.where(movers == self.winner, 1.0, -1.0) if self.winner else np.zeros(len(movers))
        exact = np.array(self.exact, dtype=np.float32)
        value = np.where(np.isnan(exact), z, exact).astype(np.float32)
        return {"planes": np.stack(self.planes), "policy": np.stack(self.policies).astype(np.float16),
                "value": value, "has_policy": np.array([p.sum() > 0 for p in self.policies])}


def mcts_config(cfg: SelfPlayConfig) -> MCTSConfig:
    return MCTSConfig(utss=cfg.utss, move_filter=cfg.move_filter, dirichlet_alpha=cfg.dirichlet_alpha,
                      dirichlet_eps=cfg.dirichlet_eps, batch=4, verify_ms=0.0,
                      prover_tt_bits=16)  # no deep checks in self-play: a small table does


def _opening(board: Board, plies: int, rng: np.random.Generator) -> None:
    """The centre stone, then random legal points near the centre: varied starts."""
    c = board.size // 2
    board.play(c, c)
    for _ in range(max(0, plies - 1)):
        near = [(x, y) for x, y in board.legal_moves() if abs(x - c) <= 2 and abs(y - c) <= 2]
        x, y = near[rng.integers(len(near))]
        board.play(x, y)


def _set_opening(board: Board, cfg: SelfPlayConfig, rng: np.random.Generator) -> None:
    """The game's start: an opening of `cfg.openings` picked by the rng (sometimes varied by two
    random stones), or the random start near the centre."""
    if not cfg.openings:
        _opening(board, cfg.random_opening, rng)
        return
    import random

    from engine.match import openings as op

    book = _book(cfg.openings, cfg.size, cfg.rule)
    moves = book[int(rng.integers(len(book)))]
    if rng.random() < cfg.opening_vary:
        moves = op.vary(moves, random.Random(int(rng.integers(2**31))), cfg.size, board.rule)
    for x, y in moves:
        board.play(x, y)


_BOOKS: dict[tuple[str, int, str], list] = {}


def _book(source: str, size: int, rule: str) -> list:
    """The openings of a set that are legal and undecided on this board, loaded once a process."""
    key = (source, size, rule)
    if key not in _BOOKS:
        from engine.match import openings as op

        kept = []
        for moves in op.load(source):
            try:
                op.validate(moves, size, Rule.parse(rule))
                kept.append(moves)
            except ValueError:
                pass
        if not kept:
            raise ValueError(f"no usable opening in {source} for {size}x{size} {rule}")
        _BOOKS[key] = kept
    return _BOOKS[key]


def play_game(evaluator: Evaluator, cfg: SelfPlayConfig, seed: int) -> GameRecord:
    """One game of the search against itself."""
    rng = np.random.default_rng(seed)
    board = Board(cfg.size, cfg.rule)
    _set_opening(board, cfg, rng)
    opening_plies = board.stone_count
    mcts = MCTS(evaluator, mcts_config(cfg), seed=int(rng.integers(2**31)))
    rec = GameRecord(moves=list(board.moves), opening=opening_plies)
    n = cfg.size
    buf = np.zeros((FEATURE_PLANES, n, n), dtype=np.float32)
    while not board.game_over and board.stone_count < min(cfg.max_moves, n * n):
        mover = board.to_move
        mcts.search(board, deadline=float("inf"), optimum=float("inf"), max_playouts=cfg.playouts)
        root = mcts.root
        if not root.moves:
            break
        if cfg.resign_proven and root.proven:
            rec.winner = int(mover if root.proven > 0 else mover.opponent)
            rec.proven_end = True
            _add(rec, board, buf, np.zeros(n * n, np.float32), mover, float(root.proven))
            break
        visits = root.N.astype(np.float64)
        target = np.zeros(n * n, dtype=np.float32)
        for (x, y), v in zip(root.moves, visits):
            target[y * n + x] = v
        target /= max(target.sum(), 1e-9)
        _add(rec, board, buf, target, mover, float("nan"))
        rec.branching.append(len(root.moves))
        _add_settled(rec, board, buf, root)
        if len(rec.moves) < cfg.temperature_moves + opening_plies and visits.sum() > 0:
            i = int(rng.choice(len(visits), p=visits / visits.sum()))
            move = root.moves[i]
        else:
            move = mcts._best(root)
        board.play(*move)
        rec.moves.append(move)
    if board.game_over and board.result in (Result.BLACK_WINS, Result.WHITE_WINS):
        rec.winner = int(Color.BLACK if board.result == Result.BLACK_WINS else Color.WHITE)
    return rec


def _add(rec: GameRecord, board: Board, buf: np.ndarray, policy: np.ndarray, mover: Color, exact: float) -> None:
    board.planes(buf)
    rec.planes.append(buf.astype(np.uint8))
    rec.policies.append(policy)
    rec.movers.append(int(mover))
    rec.exact.append(exact)


def _add_settled(rec: GameRecord, board: Board, buf: np.ndarray, root) -> None:
    """Children of the root that the leaf checks or UTSS settled: exact values, no policy."""
    n = board.size
    added = 0
    for move, child in zip(root.moves, root.children):
        if child is None or not child.proven or added >= MAX_SETTLED_PER_MOVE:
            continue
        board.play(*move)
        if not board.game_over:
            _add(rec, board, buf, np.zeros(n * n, np.float32), board.to_move, float(child.proven))
            added += 1
        board.undo()


# ---- worker processes ---------------------------------------------------------------------

_EVALUATOR: Evaluator | None = None


def init_worker(model: str | None) -> None:
    """Each worker loads the model once (its own onnxruntime session, one thread)."""
    global _EVALUATOR
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if model is None:
        _EVALUATOR = HeuristicEvaluator()
    else:
        from engine.net.onnx_eval import ONNXEvaluator
        _EVALUATOR = ONNXEvaluator(model, threads=1, gpu=False)


def init_remote_worker(ids, requests, responses) -> None:
    """A worker whose evaluations go to the inference server (see inference.py)."""
    global _EVALUATOR
    from engine.train.selfplay.inference import RemoteEvaluator

    worker = ids.get()
    _EVALUATOR = RemoteEvaluator(worker, requests, responses[worker])


def worker_game(args: tuple[SelfPlayConfig, int]) -> GameRecord:
    """(config, seed) -> the game's record."""
    assert _EVALUATOR is not None
    return play_game(_EVALUATOR, *args)
