"""PUCT MCTS over the move filter, guided by an `Evaluator`, with proofs.

Leaf order (fixed): game over -> the draw cap (Gomocup's 200 stones in renju: a draw) -> immediate
threats from the threat sets (a five point of the side to move wins; two five points of the
opponent, or one it cannot block, lose) -> UTSS within UTSS_PLIES of the root (node-budgeted, no
deeper than the cap allows) -> the evaluator (its value fading to 0 near the cap). Settled nodes
are terminal with exact values and proofs propagate: a node with a child lost for the child's
mover is won; a node whose children are all won for their movers is lost. A node expands the move
filter's moves, or only the answers to the opponent's hidden VCF when it has one
(Prover.filter_moves). Leaves are evaluated in batches, kept apart by virtual loss. The subtree of
the moves played is kept between moves.

The tree and the playout loop live in C (native/src/tree.c): each batch is one call that descends,
settles and collects leaves (with their input planes), one evaluator call, and one call that
expands and backs up. Python keeps what happens a few times a move: time, the checks of the
leading move, root noise, the choice of the move and the reports."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from engine.board import FEATURE_VERSION, PLANES_OF_VERSION, Board, Move, Rule
from engine.native import ffi, lib
from engine.net.evaluator import Evaluator
from engine.prover import Prover

REPORT_EVERY_S = 0.2  # realtime analysis lines at most this often


@dataclass
class MCTSConfig:
    """The search's settings. Those that are off by default are the method's ablations or
    self-play's; docs/history.md has what the others were tuned against."""
    c_puct: float = 1.6
    batch: int = 8  # leaves per evaluator call, kept apart by virtual loss
    virtual_loss: float = 1.0
    radius: int = 3  # the move filter's
    # UTSS at nodes this close to the root, where the opponent moves (odd plies: its threat
    # sequences refute our lines) and where we do (even plies: our own wins).
    utss_plies: int = 4
    utss_plies_own: int = 4
    utss_depth: int = 5  # plies per UTSS call
    utss_nodes: int = 3000  # prover nodes per UTSS call
    # The opponent's replies to our candidates get a deeper look: most games against a tactical
    # engine are lost to a threat sequence missed right there.
    utss_depth_ply1: int = 9
    utss_nodes_ply1: int = 8000
    # Before a move is played, a deep check of the opponent's threat-space win after it (each new
    # leader in turn), since the tree's shallow proofs miss sequences of ten and more plies.
    verify_ms: float = 700.0  # per check (0: no checks)
    verify_depth: int = 13  # the UTSS part's plies
    # The share of a check that goes first to the VCT prover (fours and threes, the long threat
    # sequences real engines win by), then of what is left to df-pn (which also tries quiet moves
    # near the root); UTSS gets the rest, for our own wins too (0 and 0: UTSS only).
    verify_vct: float = 0.4
    verify_vct_kind: str = "vct"  # "vct3": that share to VCT3, which also plays quiet threats
    verify_dfpn: float = 0.6
    verify_dfpn_plies: int = 40
    verify_share: float = 0.75  # of the move's time, at most, for all checks together
    # The checks wait until this share of the move's time is gone (or the search is decided), so
    # the time goes to the move likely to be played rather than to passing leaders.
    verify_after: float = 0.2
    # After a check refutes the leader, the playouts grow by this share before the next check, so
    # that it goes to a move the tree has looked at rather than to a barely visited one.
    verify_gap: float = 0.25
    # A refuted leader means the position is critical: each refutation moves the move's soft time
    # limit on by this share of its optimum (never past the hard limit), up to max_extensions
    # times, and the move no longer stops early.
    refuted_extend: float = 0.5
    max_extensions: int = 2
    # Where saved time is banked (a match clock), the search stops early only after this share of
    # the optimum: a move decided by the visits alone is still worth its checks and playouts.
    early_stop_after: float = 0.75
    # Where the opponent would win by a VCF of up to this many fours if it had the move, a node
    # expands only the moves that break it and its own fours (0: the plain filter).
    threat_vcf_depth: int = 10
    threat_nodes: int = 3000  # prover nodes per expansion for that check
    # The prover's transposition table, 2^bits entries of 16 bytes: the checks search 10^5-10^6 nodes.
    prover_tt_bits: int = 20
    fpu: float = 0.3  # first-play urgency: an unvisited child's Q is its parent's Q minus this
    move_filter: bool = True  # False: expand every legal move (the ablation)
    utss: bool = True  # False: no threat-space proofs in the tree (the ablation)
    dirichlet_alpha: float = 0.0  # > 0: root noise, for self-play
    dirichlet_eps: float = 0.25
    root_vct_ms: float = 100.0  # our own VCT at a fresh root (at most a tenth of the move's time)
    # A leaf whose stones another expanded node holds (reached in another order) takes its moves
    # and priors instead of a new evaluation, and shares its proofs; statistics stay per node.
    transpositions: bool = True
    # ... and backs up that node's mean value so far rather than its net value: a searched value.
    transposition_q: bool = True
    # Gomocup stops a renju game as a draw at 200 stones (size^2 - 25; docs/rules.md): positions
    # there are draws, no proof may end past it, and net values fade to 0 over the last draw_fade
    # plies before it. -1: that cap in renju, none in the other rules; 0: none; n: n stones.
    draw_stones: int = -1
    draw_fade: int = 20


def _column(ptr, first: int, n: int, dtype) -> np.ndarray:
    """A writable numpy view of n entries of one edge column (valid until the tree grows)."""
    if n <= 0:
        return np.zeros(0, dtype=dtype)
    size = np.dtype(dtype).itemsize
    return np.frombuffer(ffi.buffer(ptr + first, n * size), dtype=dtype)


class Node:
    """A view of one node of the C tree (native/src/tree.c): its moves and its children's
    statistics as numpy arrays over the tree's memory. Views are cheap; make them afresh after the
    tree grows (a search), since the arrays they show may have moved."""

    __slots__ = ("_mcts", "id")

    def __init__(self, mcts: MCTS, node_id: int) -> None:
        self._mcts, self.id = mcts, node_id

    @property
    def _c(self):
        return lib.rj_tree_node_at(self._mcts._tree, self.id)

    def _edges(self):
        e = self._mcts._edges
        lib.rj_tree_edges_of(self._mcts._tree, e)
        return e

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and other._mcts is self._mcts and other.id == self.id

    def __hash__(self) -> int:
        return hash((id(self._mcts), self.id))

    @property
    def expanded(self) -> bool:
        return bool(self._c.flags & lib.RJ_NODE_EXPANDED)

    @property
    def proven(self) -> int:
        return int(self._c.proven)

    @property
    def visits(self) -> int:
        return int(self._c.visits)

    @property
    def win_move(self) -> Move | None:
        c = self._c
        return (int(c.win_x), int(c.win_y)) if c.win_x >= 0 else None

    def _flag(self, bit: int) -> bool:
        return bool(self._c.flags & bit)

    def _set_flag(self, bit: int, on: bool) -> None:
        c = self._c
        c.flags = (c.flags | bit) if on else (c.flags & ~bit & 0xFF)

    verified = property(lambda self: self._flag(lib.RJ_NODE_VERIFIED),
                        lambda self, on: self._set_flag(lib.RJ_NODE_VERIFIED, on),
                        doc="a deep UTSS has looked at this position (see MCTSConfig.verify_ms)")
    noised = property(lambda self: self._flag(lib.RJ_NODE_NOISED),
                      lambda self, on: self._set_flag(lib.RJ_NODE_NOISED, on))

    def _col(self, name: str, dtype) -> np.ndarray:
        c = self._c
        return _column(getattr(self._edges(), name), c.first, c.n if c.first >= 0 else 0, dtype)

    @property
    def moves(self) -> list[Move]:
        xs, ys = self._col("x", np.int16).tolist(), self._col("y", np.int16).tolist()
        return [_POINTS[x][y] for x, y in zip(xs, ys)]

    @property
    def priors(self) -> np.ndarray:
        return self._col("prior", np.float32)

    @property
    def N(self) -> np.ndarray:  # noqa: N802 (the usual MCTS names)
        return self._col("visits", np.float32)

    @property
    def W(self) -> np.ndarray:  # noqa: N802
        """Value sums for the mover into each child."""
        return self._col("value", np.float32)

    @property
    def cp(self) -> np.ndarray:
        """Each child's proven value, for the child's mover."""
        return self._col("proven", np.int8)

    @property
    def children(self) -> list[Node | None]:
        return [Node(self._mcts, int(c)) if c >= 0 else None for c in self._col("child", np.int32)]

    def child(self, i: int) -> Node:
        """Child i, made if the search has not made it yet."""
        return Node(self._mcts, int(lib.rj_tree_child(self._mcts._tree, self.id, i)))


_POINTS = [[(x, y) for y in range(32)] for x in range(32)]  # shared tuples: trees hold many


@dataclass
class SearchInfo:
    playouts: int = 0
    seconds: float = 0.0
    depth: int = 0
    winrate: float = 0.5
    pv: tuple[Move, ...] = ()
    proven: int = 0
    # Seconds by part of the search (TIME_PARTS); the rest of `seconds` is the Python driver.
    times: dict[str, float] = field(default_factory=dict)


# Where a search's time goes: the tree's C loop (descents, the proofs and threat checks at its
# nodes, the input planes), the evaluator, and the prover calls the driver makes itself.
TIME_PARTS = ("tree (C)", "evaluator", "root VCT", "check: vct", "check: dfpn", "check: utss")


class MCTS:
    def __init__(self, evaluator: Evaluator, config: MCTSConfig | None = None, seed: int | None = None) -> None:
        self.ev = evaluator
        self.cfg = config or MCTSConfig()
        if self.cfg.verify_vct_kind not in ("vct", "vct3"):
            raise ValueError(f"verify_vct_kind must be vct or vct3, not {self.cfg.verify_vct_kind!r}")
        self.rng = np.random.default_rng(seed)
        self.prover = Prover(tt_bits=self.cfg.prover_tt_bits)
        tree = lib.rj_tree_new()
        if tree == ffi.NULL:
            raise MemoryError("cannot allocate the search tree")
        self._tree = ffi.gc(tree, lib.rj_tree_free)
        self._fixed_bytes = int(lib.rj_tree_memory(tree))  # an empty tree: nothing that doubles yet
        self._edges = ffi.new("rj_tree_edges *")
        self._ccfg = ffi.new("rj_tree_config *")
        self._counts = ffi.new("int[2]")  # settled playouts, the root child of the last descent
        self._planes: np.ndarray | None = None
        # the planes the evaluator's net reads (an older net's, at their cost)
        self._feature_version = getattr(evaluator, "feature_version", FEATURE_VERSION)
        self.root_moves: list[Move] = []
        self.root_line: list[Move] = []  # a proof's line from the root, when one settled it
        self.info = SearchInfo()
        self._times = dict.fromkeys(TIME_PARTS, 0.0)

    @property
    def root(self) -> Node:
        return Node(self, int(lib.rj_tree_root(self._tree)))

    def clear(self) -> None:
        lib.rj_tree_reset(self._tree)
        self.root_moves = []
        self.prover.clear()

    def draw_stones(self, board: Board) -> int:
        """The stone count at which the game is drawn (0: none)."""
        if self.cfg.draw_stones >= 0:
            return self.cfg.draw_stones
        return board.size * board.size - 25 if board.rule == Rule.RENJU else 0

    def _plies_left(self, board: Board) -> int:
        """Plies a proof from `board` may take before the draw cap (a large number without one)."""
        cap = self.draw_stones(board)
        return cap - board.stone_count - lib.RJ_CAP_MARGIN if cap > 0 else 1 << 20

    def _vct_plies(self, board: Board) -> int:
        """The VCT's longest line from `board`: to a fixed stone count for the whole game (the draw
        cap, else a full board) where the prover allows it, so that the table's entries, keyed by
        that count, serve every proof of the game."""
        cap = self.draw_stones(board)
        end = cap - lib.RJ_CAP_MARGIN if cap > 0 else board.size * board.size
        return max(0, min(end - board.stone_count, lib.RJ_MAX_VCT_PLIES))

    def _config(self, board: Board) -> None:
        """Copies the config into the C struct (read at every search: tests and players may
        change self.cfg between searches)."""
        c, k = self._ccfg, self.cfg
        c.draw_stones, c.draw_fade = self.draw_stones(board), k.draw_fade
        c.c_puct, c.fpu, c.virtual_loss, c.radius = k.c_puct, k.fpu, k.virtual_loss, k.radius
        c.move_filter, c.utss = int(k.move_filter), int(k.utss)
        c.utss_plies, c.utss_plies_own = k.utss_plies, k.utss_plies_own
        c.utss_depth, c.utss_depth_ply1 = k.utss_depth, k.utss_depth_ply1
        c.utss_nodes, c.utss_nodes_ply1 = k.utss_nodes, k.utss_nodes_ply1
        c.threat_vcf_depth, c.threat_nodes = k.threat_vcf_depth, k.threat_nodes
        c.transpositions, c.transposition_q = int(k.transpositions), int(k.transposition_q)
        c.feature_version = self._feature_version

    # ---- tree reuse ---------------------------------------------------------------------

    def _root_for(self, board: Board) -> Node:
        moves = board.moves
        if moves[: len(self.root_moves)] == self.root_moves:
            new = moves[len(self.root_moves):]
            for m in new:
                if not lib.rj_tree_advance(self._tree, *m):
                    break  # the tree is reset: a fresh root
            if new:
                lib.rj_tree_compact(self._tree)
        else:
            lib.rj_tree_reset(self._tree)
        self.root_moves = moves
        return self.root

    # ---- one batch of playouts ----------------------------------------------------------

    def _playouts(self, b: Board) -> int:
        """Up to cfg.batch playouts: the C loop descends, settles what it can and hands the other
        leaves to the evaluator; returns the playouts completed."""
        n = b.size
        batch = max(1, min(self.cfg.batch, lib.RJ_TREE_MAX_BATCH))
        shape = (batch, PLANES_OF_VERSION[self._feature_version], n, n)
        if self._planes is None or self._planes.shape != shape:
            self._planes = np.zeros(shape, dtype=np.float32)
        wants_planes = self.ev.takes_planes
        planes = ffi.from_buffer("float[]", self._planes) if wants_planes else ffi.NULL
        t0 = time.perf_counter()
        k = lib.rj_tree_gather(self._tree, b._b, self.prover._p, self._ccfg, batch, planes, self._counts,
                               self._counts + 1)
        t1 = time.perf_counter()
        self._times["tree (C)"] += t1 - t0
        done = int(self._counts[0])
        if not k:
            return done
        try:
            if wants_planes:
                logits, values = self.ev.evaluate_planes(self._planes[:k])
            else:
                logits, values = self.ev.evaluate([self._leaf_board(b, j) for j in range(k)])
        except BaseException:
            lib.rj_tree_cancel(self._tree)
            raise
        t2 = time.perf_counter()
        self._times["evaluator"] += t2 - t1
        logits = np.ascontiguousarray(logits, dtype=np.float32)
        values = np.ascontiguousarray(values, dtype=np.float32)
        lib.rj_tree_apply(self._tree, self._ccfg, ffi.from_buffer("float[]", logits),
                          ffi.from_buffer("float[]", values), n)
        self._times["tree (C)"] += time.perf_counter() - t2
        return done + k

    def _solve(self, part: str, b: Board, kind: str, **limits):
        """A prover call of the driver's, its time counted under `part` (TIME_PARTS)."""
        t0 = time.perf_counter()
        try:
            return self.prover.solve(b, kind, **limits)
        finally:
            self._times[part] += time.perf_counter() - t0

    def _leaf_board(self, b: Board, j: int) -> Board:
        """Waiting leaf j's position, for evaluators that read boards rather than planes."""
        xs, ys = ffi.new("int16_t[]", lib.RJ_MAX_MOVES), ffi.new("int16_t[]", lib.RJ_MAX_MOVES)
        leaf = b.copy()
        for i in range(lib.rj_tree_leaf_path(self._tree, j, xs, ys)):
            lib.rj_play(leaf._b, xs[i], ys[i])
        return leaf

    # ---- the search ---------------------------------------------------------------------

    def search(self, board: Board, deadline: float, optimum: float, max_playouts: int = 0, stop=None,
               report: Callable[[str], None] | None = None, early_stop: bool = True, memory_bytes: int = 0) -> Move:
        """The move to play. `report` receives Yixin-style realtime texts (REALTIME BEST x,y when
        the most visited root move changes, REALTIME POS x,y for the root move being searched).
        early_stop: stop once the best move cannot be overtaken (worth it when saved time is
        banked for later moves). memory_bytes > 0: stop before the tree would outgrow it."""
        t0 = time.monotonic()
        self._times = dict.fromkeys(TIME_PARTS, 0.0)
        soft = min(deadline, t0 + optimum)
        self._config(board)
        root = self._root_for(board)
        b = board.copy()
        self.root_line = []
        playouts = 0
        if not root.expanded:  # settles the root (a proven root ends the search) and expands it
            self._playouts(b)
        if not root.proven and self.cfg.utss and b.stone_count >= 6 and self.cfg.root_vct_ms > 0:
            budget = min(self.cfg.root_vct_ms, 100 * min(optimum, deadline - t0))
            plies = self._vct_plies(b)
            proof = (self._solve("root VCT", b, "vct", max_depth=plies, budget_ms=max(budget, 1.0))
                     if plies > 0 else None)
            if proof is not None and proof.result == "win" and proof.line:
                root._c.proven, self.root_line = 1, proof.line
        if self.cfg.dirichlet_alpha > 0 and not root.noised and len(root.moves) > 1:
            priors = root.priors
            noise = self.rng.dirichlet([self.cfg.dirichlet_alpha] * len(priors))
            eps = self.cfg.dirichlet_eps
            priors[:] = (1 - eps) * priors + eps * noise
            root.noised = True
        # The tree's arrays grow by doubling: stop while what it has grown, plus one more doubling,
        # fits the memory allowed.
        start_bytes = int(lib.rj_tree_memory(self._tree))
        last_report = t0
        shown: dict[str, object] = {"best": None, "pos": None, "lost": set()}
        verify_spent = 0.0  # not counted in the playout rate of the early-stop rule
        verify_left = self.cfg.verify_share * min(optimum, deadline - t0) if self.cfg.verify_ms > 0 else 0.0
        next_check = 0  # playouts before the next check may start (verify_gap)
        extensions = 0
        stop_from = t0 + self.cfg.early_stop_after * (soft - t0)  # no early stop before this
        if report:
            report("REALTIME REFRESH")
        while True:
            now = time.monotonic()
            n_root = root.N
            if report and now - last_report >= REPORT_EVERY_S and len(n_root):
                last_report = now
                self._realtime(root, n_root, report, shown)
            if root.proven or now >= soft or (max_playouts and playouts >= max_playouts) or (stop and stop.is_set()):
                break
            if len(n_root) <= 1 or (memory_bytes > 0 and self._outgrows(start_bytes, memory_bytes)):
                break
            searched = now - t0 - verify_spent
            # proven-lost moves cannot be played, so they do not count towards a decided search
            may_stop = early_stop and playouts >= 64 and now >= stop_from and not extensions
            decided = may_stop and self._decided(np.where(root.cp > 0, 0.0, n_root), playouts, searched, soft - now)
            late = now - t0 >= self.cfg.verify_after * (soft - t0)
            if verify_left > 0.002 and self.cfg.utss and playouts >= 16 and (late or decided) \
                    and (playouts >= next_check or decided):
                top = self._leader(root)
                child = root.children[top] if top >= 0 else None
                if top >= 0 and not (child is not None and (child.verified or child.proven)):
                    budget = min(self.cfg.verify_ms / 1000, verify_left, max(0.0, deadline - now - 0.005))
                    self._verify(b, root, top, budget)
                    spent_verifying = time.monotonic() - now
                    verify_left -= spent_verifying
                    verify_spent += spent_verifying
                    if root.cp[top] > 0:  # refuted
                        if self.cfg.verify_gap > 0:
                            next_check = playouts + max(8, int(self.cfg.verify_gap * playouts))
                        if extensions < self.cfg.max_extensions and self.cfg.refuted_extend > 0:
                            extensions += 1
                            soft = min(deadline, soft + self.cfg.refuted_extend * optimum)
                    continue
            if decided:
                break
            playouts += self._playouts(b)
        if report and len(root.N):
            self._realtime(root, root.N, report, shown)
        self.info = self._summary(root, playouts, time.monotonic() - t0)
        if not root.moves:  # lost: the filter left nothing (say, black's only block is a foul)
            return self._any_legal(board)
        return self._best(root)

    def _realtime(self, root: Node, visits: np.ndarray, report: Callable[[str], None], shown: dict) -> None:
        """Yixin-style analysis lines, each only when it changes: BEST the most visited root move,
        POS the root move the last descent went through (DONE the one before it), LOST each root
        move proven lost."""
        moves = root.moves
        best = moves[int(np.argmax(visits))]
        if best != shown["best"]:
            shown["best"] = best
            report("REALTIME BEST %d,%d" % best)
        for i in np.flatnonzero(root.cp > 0):
            if moves[int(i)] not in shown["lost"]:
                shown["lost"].add(moves[int(i)])
                report("REALTIME LOST %d,%d" % moves[int(i)])
        if 0 <= self._counts[1] < len(moves) and moves[self._counts[1]] != shown["pos"]:
            if shown["pos"] is not None:
                report("REALTIME DONE %d,%d" % shown["pos"])
            shown["pos"] = moves[self._counts[1]]
            report("REALTIME POS %d,%d" % shown["pos"])

    def _outgrows(self, start_bytes: int, allowance: int) -> bool:
        """Would one more doubling of the tree's arrays take it past the allowance?"""
        now = int(lib.rj_tree_memory(self._tree))
        return (now - start_bytes) + (now - self._fixed_bytes) > allowance

    @staticmethod
    def _any_legal(board: Board) -> Move:
        """A legal move for a lost root: the closest to the last move (a game can only end by a
        move, and a draw or a blunder by the opponent is still possible)."""
        legal = board.legal_moves()
        if not legal:
            raise ValueError("no legal move in this position")
        lx, ly = board.last_move or (board.size // 2, board.size // 2)
        return min(legal, key=lambda m: max(abs(m[0] - lx), abs(m[1] - ly)))

    @staticmethod
    def _leader(root: Node) -> int:
        """The most visited root move not yet proven, or -1."""
        visits = root.N
        if not len(visits):
            return -1
        n = np.where(root.cp == 0, visits, -1.0)
        i = int(np.argmax(n))
        return i if n[i] >= 0 else -1

    def _verify(self, b: Board, root: Node, i: int, seconds: float) -> None:
        """A deep look after root move i, the opponent to move (VCT, then df-pn, then UTSS, by the
        shares verify_vct and verify_dfpn): its win proves our move lost, its loss proves our move
        won; either way the proof propagates."""
        child = root.child(i)
        child.verified = True
        lib.rj_play(b._b, *root.moves[i])
        try:
            if b.game_over or seconds <= 0:
                return
            end = time.monotonic() + seconds
            plies = self._plies_left(b)
            if plies <= 0:
                return
            proof = None
            vct_share = min(max(self.cfg.verify_vct, 0.0), 1.0)
            if vct_share > 0:
                proof = self._solve("check: vct", b, self.cfg.verify_vct_kind, max_depth=self._vct_plies(b),
                                    budget_ms=seconds * vct_share * 1000)
            left = end - time.monotonic()
            share = min(max(self.cfg.verify_dfpn, 0.0), 1.0)
            if (proof is None or proof.result != "win") and share > 0 and left > 0.001:
                proof = self._solve("check: dfpn", b, "dfpn", max_depth=min(self.cfg.verify_dfpn_plies, plies),
                                    budget_ms=left * share * 1000)
            left = end - time.monotonic()
            if (proof is None or proof.result != "win") and left > 0.001:
                proof = self._solve("check: utss", b, "utss", max_depth=min(self.cfg.verify_depth, plies),
                                    budget_ms=left * 1000)
            if proof is None:
                return
        finally:
            lib.rj_undo(b._b)
        if proof.result in ("win", "loss"):
            win = proof.line[0] if proof.result == "win" and proof.line else (-1, -1)
            lib.rj_tree_prove_child(self._tree, root.id, i, 1 if proof.result == "win" else -1, *win)

    def _decided(self, visits: np.ndarray, playouts: int, spent: float, left: float) -> bool:
        """Stop when the most visited move can no longer be overtaken in the time left."""
        if len(visits) < 2:
            return True
        top = np.sort(visits)[-2:]
        rate = playouts / max(spent, 1e-6)
        return top[1] - top[0] > rate * left

    def _best(self, root: Node) -> Move:
        moves = root.moves
        if root.proven > 0:
            for m, c in zip(moves, root.children):
                if c is not None and c.proven < 0:
                    return m
            for line_move in (self.root_line[:1] + [root.win_move]):
                if line_move in moves:
                    return line_move
        visits, cp = root.N, root.cp
        order = np.argsort(-(visits + 1e-3 * root.priors))  # by visits; the prior breaks ties (and no visits)
        open_moves = [int(i) for i in order if cp[i] <= 0]  # avoid a proven loss while another move remains
        if not open_moves:  # every move loses: the most visited that makes a four or three of ours
            threats = self._threat_moves(root)
            return next((moves[int(i)] for i in order if moves[int(i)] in threats), moves[int(order[0])])
        return moves[open_moves[0]]

    def _threat_moves(self, root: Node) -> set[Move]:
        """The root moves that make a four or a live three for the side to move."""
        b = Board.from_moves(self.root_moves)
        pats = b.patterns(b.to_move)
        return {m for m in root.moves if int(pats[m[1], m[0]].max()) >= lib.RJ_PT_LIVE3}

    def _summary(self, root: Node, playouts: int, seconds: float) -> SearchInfo:
        pv: list[Move] = []
        node: Node | None = root
        depth = 0
        while node is not None and node.expanded and len(pv) < 12:
            visits = node.N
            if not len(visits):
                break
            i = int(np.argmax(visits))
            if visits[i] <= 0:
                break
            pv.append(node.moves[i])
            node = node.children[i]
            depth += 1
        visits = root.N
        best = int(np.argmax(visits)) if len(visits) else 0
        wr = 0.5
        if len(visits) and visits[best] > 0:
            wr = 0.5 + 0.5 * float(root.W[best] / visits[best])
        if root.proven:
            wr = 1.0 if root.proven > 0 else 0.0
        return SearchInfo(playouts, seconds, depth, wr, tuple(pv), root.proven, dict(self._times))
