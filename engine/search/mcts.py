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
from dataclasses import dataclass

import numpy as np

from engine.board import FEATURE_PLANES, Board, Move, Rule
from engine.board.symmetry import transform, untransform
from engine.native import ffi, lib
from engine.net.evaluator import PATTERN_SCALE, Evaluator
from engine.prover import Prover

REPORT_EVERY_S = 0.2  # realtime analysis lines at most this often


@dataclass
class MCTSConfig:
    c_puct: float = 1.6
    batch: int = 8
    virtual_loss: float = 1.0
    radius: int = 3  # the move filter's radius
    # UTSS at nodes no deeper than this below the root, where the opponent is to move (odd plies:
    # its threat sequences refute our lines) and where we are (even plies: our own wins).
    utss_plies: int = 4
    utss_plies_own: int = 4
    utss_depth: int = 5  # plies per UTSS call
    utss_nodes: int = 3000  # node budget per UTSS call
    # The root's children (the opponent to move after each of our candidates) get a deeper look:
    # most games against a tactical engine are lost to a threat sequence missed right there.
    utss_depth_ply1: int = 9
    utss_nodes_ply1: int = 8000
    # The most visited root move is checked by a deep UTSS for the opponent before it is played
    # (each new leader in turn): the tree's shallow proofs miss threat sequences of 10+ plies. The
    # checks wait until the leader has settled (verify_after) so the time goes to one deep check of
    # the move likely to be played rather than to shallow checks of passing leaders: the attacks
    # that beat us need 2x10^5-2x10^6 prover nodes (docs/strength.md: 57.5% -> 67% -> 71.5% against
    # alphabeta as the checks went from 100 ms each to one of 250 ms, then 400 ms; ninth session,
    # with the faster prover: 64.0% -> 70.5% for 500 ms from 30% of the move, 60% of it at most;
    # tenth, with the playout loop in C reaching the same playouts in half the time: 700 ms from 20%
    # of the move, 75% of it at most, 70.0% over two 100-game runs (75.5%, 64.5%) - level, kept).
    verify_ms: float = 700.0  # per check (0: no checks)
    verify_depth: int = 13
    # The share of each check that goes first to a proof-number search (df-pn) of the opponent's
    # threat-space win, with lines of up to verify_dfpn_plies; the UTSS gets the rest (it also
    # proves our wins). df-pn reaches the long narrow refutations that UTSS's iterations do not:
    # in 200 ms it proves 40 of 60 positions from lost games that UTSS proves 27 of in 700 ms
    # (docs/strength.md, thirteenth session). 0: UTSS only. At 0.6 the engine scored 84.5%, 78.0%
    # and 88.0% against alphabeta on seeds 7, 8 and 9 (83.5%; UTSS only 80.9% on the same
    # openings), and game by game on seeds 7 and 9 against UTSS only 25 games better, 10 worse
    # (p = 0.02); at the moves that lost 17 games it plays a refuted move at 10 where UTSS only
    # plays one at 16 (nineteenth session; at 0.8 in the thirteenth, 77.0% against 77.0%).
    verify_dfpn: float = 0.6
    verify_dfpn_plies: int = 40
    # When df-pn has disproved the opponent's win (searched it out, no budget cut), the share of
    # the check's remaining time that the UTSS still gets, for our own wins; the rest goes back to
    # the playouts (1: all of it). On a slow machine 0 gave 20% more playouts and 79.0% against
    # 79.25% over 200 games; all of each check to df-pn (verify_dfpn=1) 76.5%: level (twenty-sixth session).
    verify_utss_after_disproof: float = 1.0
    # Moves the df-pn check leaves unsettled: its budget (at least unsettled_min_ms) ran out with
    # neither a win for the opponent nor a disproof. In games against alphabeta 84% of our moves are
    # disproved within 300 ms and 6% run out; of the 17 moves that lost a match's games, 11 were
    # refuted and 6 ran out, none disproved (docs/strength.md, nineteenth session). With
    # avoid_unsettled > 0 the check goes on to the next most visited move, and the move played is
    # the most visited disproved one instead of an unsettled or unchecked leader whose mean value
    # beats it by less than avoid_unsettled (0: off; needs verify_dfpn > 0).
    avoid_unsettled: float = 0.0
    unsettled_min_ms: float = 150.0
    unsettled_min_visits: int = 10  # an alternative needs this many visits to be preferred
    verify_share: float = 0.75  # of the move's time, at most, for all checks together
    verify_after: float = 0.2  # of the move's time gone before the first check (or the search is decided)
    # After a check proves a root move lost, the playouts go on until they have grown by this share
    # before the next check (0: the next most visited move is checked at once). At once, the check
    # goes to a move the tree has barely looked at - after a refuted leader, often one with 1-10% of
    # the visits, or none - and a position under attack spends its checks on such moves one by one.
    # At the decisive positions of 52 lost games, searched twice each, 0.25 chose a refuted move 7
    # times fewer and 1 time more than 0; against alphabeta 80.0% and 77.0% on seeds 15 and 16
    # against 73.5% and 78.5% the same day (24 games better, 18 worse: level; thirty-third session).
    verify_gap: float = 0.25
    # Hidden threats: where the opponent would win by a VCF of up to this many fours if it had the
    # move, a node expands only the moves that break it and its own fours (0: the plain filter).
    threat_vcf_depth: int = 10
    threat_nodes: int = 3000  # prover nodes per expansion for that check
    # The prover's transposition table: 2^bits entries of 16 bytes (20: 16 MB). The checks of the
    # leading move search 10^5-10^6 nodes; a 2^16 table made them ~40% slower (docs/strength.md).
    prover_tt_bits: int = 20
    # Beyond the UTSS plies, a VCF of up to this many prover nodes for the side to move at each
    # new leaf (0: none): the net's value is least reliable where a forced win is on the board.
    leaf_vcf_nodes: int = 0
    fpu: float = 0.3  # first-play urgency: an unvisited child's Q is its parent's Q minus this
    move_filter: bool = True  # False: expand over every legal move (the ablation)
    utss: bool = True  # False: no threat-space proofs at the leaves (the ablation)
    dirichlet_alpha: float = 0.0  # > 0: root noise for self-play
    dirichlet_eps: float = 0.25
    root_vcf_ms: float = 40.0  # a deep VCF at a fresh root (at most a tenth of the move's time)
    # The net's values as tanh(k * atanh(v)): k > 1 makes them more decisive, k < 1 less (1: as is).
    value_sharpen: float = 1.0
    # Priors as (1 - w) net + w pattern scores (the heuristic evaluator's priors), w by whose move
    # it is: where the opponent moves, the pattern scores point at the shape-building attacks of a
    # tactical opponent that a net trained on its own games may rate low (0: the net alone).
    prior_mix_own: float = 0.0
    prior_mix_opp: float = 0.0
    # A leaf whose position another expanded node already holds (the same stones reached in another
    # order) takes that node's moves and priors instead of a new evaluation (a tenth to a third of a
    # search's leaves: 1.08-1.39x the playouts, docs/benchmarks.md). Statistics stay per node;
    # proofs are shared.
    transpositions: bool = True
    # ... and backs up that node's mean value over its visits so far rather than its net value: a
    # searched value where one exists (docs/strength.md, fifteenth session: 80.5% against alphabeta
    # with it, 77.5% without, 75.5% without transpositions - the same 100 openings, p = 0.52).
    transposition_q: bool = True
    # Gomocup stops a renju game as a draw at 200 stones (size^2 - 25; docs/rules.md): positions
    # there are draws, no proof may end past it, and net values fade to 0 over the last draw_fade
    # plies before it. -1: that cap in renju, none in the other rules; 0: none; n: n stones.
    draw_stones: int = -1
    draw_fade: int = 20
    # The net is far from symmetric: over 1,489 positions of match games, v1's top move in one of
    # the board's 8 symmetries is its top move in the identity 76% of the time, and its value varies
    # by 0.15 (standard deviation) across them against a mean |value| of 0.51 (engine.train.valuecheck
    # --symmetries). Averaging them was level against alphabeta at 1 s (80.75% against 81.25% over
    # 200 games; two symmetries a leaf, for 40% fewer playouts, 71.5%; docs/strength.md, twentieth
    # session), so both settings are off. leaf_symmetry 1: each
    # batch of leaves is evaluated in the next of the 8 symmetries (the policies mapped back), so
    # that those errors differ from node to node instead of leaning one way over the whole tree;
    # k > 1: each batch in the next k of them, the mean of the k logits and values (0: the identity).
    # root_symmetries: the root's priors as the mean of the net's in all 8 symmetries.
    leaf_symmetry: int = 0
    root_symmetries: bool = False


def sharpen(values: np.ndarray, k: float) -> np.ndarray:
    """tanh(k * atanh(v)), v kept inside (-1, 1) so that a saturated value stays finite."""
    v = np.clip(np.asarray(values, dtype=np.float64), -0.999999, 0.999999)
    return np.tanh(k * np.arctanh(v)).astype(np.float32)


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


class MCTS:
    def __init__(self, evaluator: Evaluator, config: MCTSConfig | None = None, seed: int | None = None) -> None:
        self.ev = evaluator
        self.cfg = config or MCTSConfig()
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
        self._sym_next = 0  # the symmetry of the next batch of leaves (leaf_symmetry)
        self._sym_root: list[Move] | None = None  # the root whose priors were averaged last
        self.root_moves: list[Move] = []
        self.root_line: list[Move] = []  # a proof's line from the root, when one settled it
        self.safety: dict[Move, bool] = {}  # this search's df-pn checks: disproved (True) or unsettled
        self.info = SearchInfo()

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
        c.threat_vcf_depth, c.threat_nodes, c.leaf_vcf_nodes = k.threat_vcf_depth, k.threat_nodes, k.leaf_vcf_nodes
        c.prior_mix_own, c.prior_mix_opp, c.pattern_scale = k.prior_mix_own, k.prior_mix_opp, PATTERN_SCALE
        c.transpositions, c.transposition_q = int(k.transpositions), int(k.transposition_q)

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
        shape = (batch, FEATURE_PLANES, n, n)
        if self._planes is None or self._planes.shape != shape:
            self._planes = np.zeros(shape, dtype=np.float32)
        wants_planes = self.ev.takes_planes
        planes = ffi.from_buffer("float[]", self._planes) if wants_planes else ffi.NULL
        k = lib.rj_tree_gather(self._tree, b._b, self.prover._p, self._ccfg, batch, planes, self._counts,
                               self._counts + 1)
        done = int(self._counts[0])
        if not k:
            return done
        try:
            if wants_planes and self.cfg.leaf_symmetry:
                logits, values = self._evaluate_symmetric(self._planes[:k])
            elif wants_planes:
                logits, values = self.ev.evaluate_planes(self._planes[:k])
            else:
                logits, values = self.ev.evaluate([self._leaf_board(b, j) for j in range(k)])
        except BaseException:
            lib.rj_tree_cancel(self._tree)
            raise
        if self.cfg.value_sharpen != 1.0:
            values = sharpen(values, self.cfg.value_sharpen)
        logits = np.ascontiguousarray(logits, dtype=np.float32)
        values = np.ascontiguousarray(values, dtype=np.float32)
        lib.rj_tree_apply(self._tree, self._ccfg, ffi.from_buffer("float[]", logits),
                          ffi.from_buffer("float[]", values), n)
        return done + k

    def _evaluate_symmetric(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The evaluator on the batch turned by each of the next leaf_symmetry of the 8
        symmetries (one call), the policies turned back; the mean of the logits and values."""
        k, n = planes.shape[0], planes.shape[-1]
        r = max(1, min(8, int(self.cfg.leaf_symmetry)))
        syms = [(self._sym_next + i) % 8 for i in range(r)]
        self._sym_next = (self._sym_next + r) % 8
        logits, values = self.ev.evaluate_planes(np.concatenate([transform(planes, s) for s in syms]))
        turned = np.asarray(logits).reshape(r, k, n, n)
        back = sum(untransform(turned[i], s) for i, s in enumerate(syms)) / r
        return np.ascontiguousarray(back, dtype=np.float32).reshape(k, n * n), np.asarray(values).reshape(r, k).mean(0)

    def _average_root_priors(self, b: Board, root: Node) -> None:
        """The root's priors as the mean over the 8 symmetries of the net's softmax over the
        root's moves (its moves left as they were made)."""
        self._sym_root = list(b.moves)
        moves = root.moves
        if len(moves) < 2 or not self.ev.takes_planes or self.cfg.prior_mix_own > 0 or self.cfg.prior_mix_opp > 0:
            return  # (with pattern mixing the tree's priors hold a share that this mean would drop)
        n = b.size
        planes = np.zeros((1, FEATURE_PLANES, n, n), dtype=np.float32)
        b.planes(planes[0])
        logits, _ = self.ev.evaluate_planes(np.concatenate([transform(planes, s) for s in range(8)]))
        turned = np.asarray(logits, dtype=np.float64).reshape(8, n, n)
        at = np.array([y * n + x for x, y in moves])
        z = np.stack([untransform(turned[s], s).reshape(n * n)[at] for s in range(8)])
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        root.priors[:] = p.mean(axis=0).astype(np.float32)

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
        soft = min(deadline, t0 + optimum)
        self._config(board)
        root = self._root_for(board)
        b = board.copy()
        self.root_line = []
        self.safety = {}
        playouts = 0
        if not root.expanded:  # settles the root (a proven root ends the search) and expands it
            self._playouts(b)
        if not root.proven and self.cfg.utss and b.stone_count >= 6 and self.cfg.root_vcf_ms > 0:
            budget = min(self.cfg.root_vcf_ms, 100 * min(optimum, deadline - t0))
            fours = min(60, self._plies_left(b) // 2)  # k fours take 2k + 1 plies
            proof = self.prover.solve(b, "vcf", max_depth=fours, budget_ms=max(budget, 1.0)) if fours > 0 else None
            if proof is not None and proof.result == "win" and proof.line:
                root._c.proven, self.root_line = 1, proof.line
        if self.cfg.root_symmetries and not root.proven and self._sym_root != board.moves:
            self._average_root_priors(b, root)
        if self.cfg.dirichlet_alpha > 0 and not root.noised and len(root.moves) > 1:
            priors = root.priors
            noise = self.rng.dirichlet([self.cfg.dirichlet_alpha] * len(priors))
            eps = self.cfg.dirichlet_eps
            priors[:] = (1 - eps) * priors + eps * noise
            root.noised = True
        # The tree's arrays grow by doubling: stop while what it has grown, plus one more doubling,
        # fits the memory allowed.
        start_bytes = int(lib.rj_tree_memory(self._tree))
        last_report, reported_best = t0, None
        verify_spent = 0.0  # not counted in the playout rate of the early-stop rule
        verify_left = self.cfg.verify_share * min(optimum, deadline - t0) if self.cfg.verify_ms > 0 else 0.0
        next_check = 0  # playouts before the next check may start (verify_gap)
        if report:
            report("REALTIME REFRESH")
        while True:
            now = time.monotonic()
            n_root = root.N
            if report and now - last_report >= REPORT_EVERY_S and len(n_root):
                last_report = now
                moves = root.moves
                best_move = moves[int(np.argmax(n_root))]
                if best_move != reported_best:
                    reported_best = best_move
                    report("REALTIME BEST %d,%d" % best_move)
                if self._counts[1] >= 0:
                    report("REALTIME POS %d,%d" % moves[self._counts[1]])
            if root.proven or now >= soft or (max_playouts and playouts >= max_playouts) or (stop and stop.is_set()):
                break
            if len(n_root) <= 1 or (memory_bytes > 0 and self._outgrows(start_bytes, memory_bytes)):
                break
            searched = now - t0 - verify_spent
            # proven-lost moves cannot be played, so they do not count towards a decided search
            decided = early_stop and playouts >= 64 and self._decided(np.where(root.cp > 0, 0.0, n_root), playouts,
                                                                       searched, soft - now)
            late = now - t0 >= self.cfg.verify_after * (soft - t0)
            if verify_left > 0.002 and self.cfg.utss and playouts >= 16 and (late or decided) \
                    and (playouts >= next_check or decided):
                top = self._to_check(root)
                child = root.children[top] if top >= 0 else None
                if top >= 0 and not (child is not None and (child.verified or child.proven)):
                    budget = min(self.cfg.verify_ms / 1000, verify_left, max(0.0, deadline - now - 0.005))
                    self._verify(b, root, top, budget)
                    spent_verifying = time.monotonic() - now
                    verify_left -= spent_verifying
                    verify_spent += spent_verifying
                    if self.cfg.verify_gap > 0 and root.cp[top] > 0:
                        next_check = playouts + max(8, int(self.cfg.verify_gap * playouts))
                    continue
            if decided:
                break
            playouts += self._playouts(b)
        self.info = self._summary(root, playouts, time.monotonic() - t0)
        if not root.moves:  # lost: the filter left nothing (say, black's only block is a foul)
            return self._any_legal(board)
        return self._best(root)

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

    def _to_check(self, root: Node) -> int:
        """The root move to check next: the leader, or with avoid_unsettled the most visited move
        not proven and not left unsettled by its check (-1: none)."""
        if self.cfg.avoid_unsettled <= 0:
            return self._leader(root)
        visits, cp, moves = root.N, root.cp, root.moves
        for i in np.argsort(-visits, kind="stable"):
            i = int(i)
            if cp[i] != 0 or self.safety.get(moves[i]) is False:
                continue
            return i if visits[i] >= self.cfg.unsettled_min_visits or i == self._leader(root) else -1
        return -1

    def _verify(self, b: Board, root: Node, i: int, seconds: float) -> None:
        """A deep look after root move i, the opponent to move (df-pn first when verify_dfpn > 0,
        then UTSS): its win proves our move lost, its loss proves our move won; either way the
        proof propagates."""
        child = root.child(i)
        child.verified = True
        lib.rj_play(b._b, *root.moves[i])
        try:
            if b.game_over or seconds <= 0:
                return
            end = time.monotonic() + seconds
            share = min(max(self.cfg.verify_dfpn, 0.0), 1.0)
            plies = self._plies_left(b)
            if plies <= 0:
                return
            proof = None
            if share > 0:
                proof = self.prover.solve(b, "dfpn", max_depth=min(self.cfg.verify_dfpn_plies, plies),
                                          budget_ms=seconds * share * 1000)
            left = end - time.monotonic()
            if proof is not None and proof.result != "win":
                if not proof.aborted:
                    self.safety[root.moves[i]] = True
                    left *= min(max(self.cfg.verify_utss_after_disproof, 0.0), 1.0)
                elif self.cfg.avoid_unsettled > 0 and seconds * share * 1000 >= self.cfg.unsettled_min_ms:
                    self.safety[root.moves[i]] = False  # the time left goes to the next move's check
                    return
            if (proof is None or proof.result != "win") and left > 0.001:
                proof = self.prover.solve(b, "utss", max_depth=min(self.cfg.verify_depth, plies),
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
        if not open_moves:
            return moves[int(order[0])]
        first = open_moves[0]
        if self.cfg.avoid_unsettled > 0 and self.safety and not self.safety.get(moves[first]):
            # an unsettled leader, or one that took the lead after the checks: a disproved move
            # whose value is close is the safer choice
            q = root.W / np.maximum(visits, 1e-9)
            for j in open_moves[1:]:
                if (self.safety.get(moves[j]) and visits[j] >= self.cfg.unsettled_min_visits
                        and q[j] >= q[first] - self.cfg.avoid_unsettled):
                    return moves[j]
        return moves[first]

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
        return SearchInfo(playouts, seconds, depth, wr, tuple(pv), root.proven)
