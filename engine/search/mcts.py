"""PUCT MCTS over the move filter, guided by an `Evaluator`, with proofs.

Leaf order (fixed): game over -> immediate threats from the threat sets (a five point of the side
to move wins; two five points of the opponent, or one it cannot block, lose) -> UTSS within
UTSS_PLIES of the root (node-budgeted) -> the evaluator. Settled nodes are terminal with exact
values and proofs propagate: a node with a child lost for the child's mover is won; a node whose
children are all won for their movers is lost. A node expands the move filter's moves, or only
the answers to the opponent's hidden VCF when it has one (Prover.filter_moves). Leaves are
evaluated in batches, kept apart by virtual loss. The subtree of the moves played is kept between moves."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.board import Board, Move, Result
from engine.native import ffi, lib
from engine.net.evaluator import Evaluator, pattern_logits
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
    # with the faster prover: 64.0% -> 70.5% for 500 ms from 30% of the move, 60% of it at most).
    verify_ms: float = 500.0  # per check (0: no checks)
    verify_depth: int = 13
    verify_share: float = 0.6  # of the move's time, at most, for all checks together
    verify_after: float = 0.3  # of the move's time gone before the first check (or the search is decided)
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
    node_bytes: int = 4096  # memory per expanded node (measured ~3.9 KB; see test_mcts)
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


_EMPTY_F = np.zeros(0, dtype=np.float32)
_EMPTY_I = np.zeros(0, dtype=np.int8)


def _softmax(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits.astype(np.float64) - logits.max())
    return p / p.sum()


def sharpen(values: np.ndarray, k: float) -> np.ndarray:
    """tanh(k * atanh(v)), v kept inside (-1, 1) so that a saturated value stays finite."""
    v = np.clip(np.asarray(values, dtype=np.float64), -0.999999, 0.999999)
    return np.tanh(k * np.arctanh(v)).astype(np.float32)


class Node:
    __slots__ = ("moves", "priors", "N", "W", "cp", "children", "proven", "expanded", "visits", "pending", "noised",
                 "ptrs", "win_move", "verified")

    def __init__(self) -> None:
        self.moves: list[Move] = []
        # Shared empty arrays until expansion replaces them (most nodes are never expanded).
        self.priors = _EMPTY_F
        self.N = _EMPTY_F
        self.W = _EMPTY_F  # values for the mover into each child
        self.cp = _EMPTY_I  # each child's proven value (for the child's mover)
        self.children: list[Node | None] = []
        self.proven = 0  # +1 won / -1 lost for the side to move here, 0 open
        self.expanded = False
        self.visits = 0
        self.pending = False
        self.noised = False
        self.ptrs: tuple = ()  # cffi views of priors, N, W, cp for the C selection rule
        self.win_move: Move | None = None  # the first move of the proof that settled this node as won
        self.verified = False  # a deep UTSS has looked at this position (see MCTSConfig.verify_ms)

    def bind(self) -> None:
        """(Re)make the C views; call whenever an array is replaced."""
        self.ptrs = (ffi.from_buffer("float[]", self.priors), ffi.from_buffer("float[]", self.N),
                     ffi.from_buffer("float[]", self.W), ffi.from_buffer("int8_t[]", self.cp))


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
        self.root: Node | None = None
        self.root_moves: list[Move] = []
        self.root_line: list[Move] = []  # a proof's line from the root, when one settled it
        self.info = SearchInfo()

    def clear(self) -> None:
        self.root, self.root_moves = None, []
        self.prover.clear()

    # ---- tree reuse ---------------------------------------------------------------------

    def _root_for(self, board: Board) -> Node:
        moves = board.moves
        node = self.root
        if node is not None and moves[: len(self.root_moves)] == self.root_moves:
            for m in moves[len(self.root_moves):]:
                if node is None or not node.expanded or m not in node.moves:
                    node = None
                    break
                node = node.children[node.moves.index(m)]
        else:
            node = None
        self.root, self.root_moves = node or Node(), moves
        return self.root

    # ---- leaves -------------------------------------------------------------------------

    def _settle(self, b: Board, node: Node, ply: int) -> float | None:
        """The exact value of a leaf for its side to move, or None if it needs the evaluator."""
        if b.game_over:
            node.proven = 0 if b.result == Result.DRAW else -1  # the last mover made five
            return float(node.proven) if node.proven else 0.0
        me = b.to_move
        if b.threat(me) >= 2:  # a five point of our own
            node.proven = 1
            return 1.0
        theirs = b.threat(me.opponent)
        if theirs == 3 or (theirs == 2 and not b.candidate_moves(self.cfg.radius)):
            node.proven = -1
            return -1.0
        limit = self.cfg.utss_plies if ply % 2 else self.cfg.utss_plies_own
        if self.cfg.utss and ply <= limit and b.stone_count >= 4:
            deep = ply == 1
            proof = self.prover.solve(b, "utss", max_depth=self.cfg.utss_depth_ply1 if deep else self.cfg.utss_depth,
                                      budget_nodes=self.cfg.utss_nodes_ply1 if deep else self.cfg.utss_nodes)
            if proof.result in ("win", "loss"):
                node.proven = 1 if proof.result == "win" else -1
                if node.proven > 0 and proof.line:
                    node.win_move = proof.line[0]
                return float(node.proven)
        elif self.cfg.utss and self.cfg.leaf_vcf_nodes > 0 and b.stone_count >= 6:
            proof = self.prover.solve(b, "vcf", max_depth=20, budget_nodes=self.cfg.leaf_vcf_nodes)
            if proof.result == "win":
                node.proven = 1
                node.win_move = proof.line[0] if proof.line else None
                return 1.0
        return None

    def _expand(self, node: Node, b: Board, logits: np.ndarray, ply: int = 0) -> None:
        if not self.cfg.move_filter:
            moves = b.legal_moves()
        elif self.cfg.threat_vcf_depth > 0 and self.cfg.utss:
            moves, _ = self.prover.filter_moves(b, self.cfg.radius, self.cfg.threat_vcf_depth, self.cfg.threat_nodes)
        else:
            moves = b.candidate_moves(self.cfg.radius)
        n = b.size
        if not moves:  # a full board (a draw: value 0), or a loss _settle has already proven
            node.expanded = True
            return
        idx = np.array([y * n + x for x, y in moves])
        p = _softmax(logits[idx])
        mix = self.cfg.prior_mix_opp if ply % 2 else self.cfg.prior_mix_own
        if mix > 0:
            p = (1.0 - mix) * p + mix * _softmax(pattern_logits(b)[0][idx])
        node.moves = moves
        node.priors = p.astype(np.float32)
        k = len(moves)
        node.N = np.zeros(k, dtype=np.float32)
        node.W = np.zeros(k, dtype=np.float32)
        node.cp = np.zeros(k, dtype=np.int8)
        node.children = [None] * k
        node.bind()
        node.expanded = True

    # ---- selection ----------------------------------------------------------------------

    def _select(self, node: Node) -> int:
        p, n, w, cp = node.ptrs
        return lib.rj_puct_select(p, n, w, cp, len(node.moves), self.cfg.c_puct, self.cfg.fpu)

    def _propagate_proofs(self, path: list[tuple[Node, int]], leaf: Node) -> None:
        """Record the leaf's proof in its parent, and carry proofs up while they settle nodes."""
        child = leaf
        for node, i in reversed(path):
            node.cp[i] = child.proven
            if node.proven:
                break
            if (node.cp < 0).any():
                node.proven = 1
            elif len(node.cp) and (node.cp > 0).all():
                node.proven = -1
            else:
                break
            child = node

    # ---- the search ---------------------------------------------------------------------

    def search(self, board: Board, deadline: float, optimum: float, max_playouts: int = 0, stop=None,
               report: Callable[[str], None] | None = None, early_stop: bool = True, memory_bytes: int = 0) -> Move:
        """The move to play. `report` receives Yixin-style realtime texts (REALTIME BEST x,y when
        the most visited root move changes, REALTIME POS x,y for the root move being searched).
        early_stop: stop once the best move cannot be overtaken (worth it when saved time is
        banked for later moves). memory_bytes > 0: stop before the tree would outgrow it."""
        t0 = time.monotonic()
        soft = min(deadline, t0 + optimum)
        root = self._root_for(board)
        b = board.copy()
        self.root_line = []
        if not root.expanded:
            if b.stone_count >= 4:
                self._settle(b, root, 0)  # a proven root ends the search at once
        if not root.proven and self.cfg.utss and b.stone_count >= 6 and self.cfg.root_vcf_ms > 0:
            budget = min(self.cfg.root_vcf_ms, 100 * min(optimum, deadline - t0))
            proof = self.prover.solve(b, "vcf", budget_ms=max(budget, 1.0))
            if proof.result == "win" and proof.line:
                root.proven, self.root_line = 1, proof.line
        if not root.expanded:
            logits, _ = self.ev.evaluate([b])
            self._expand(root, b, logits[0])
        if self.cfg.dirichlet_alpha > 0 and not root.noised and len(root.moves) > 1:
            noise = self.rng.dirichlet([self.cfg.dirichlet_alpha] * len(root.moves))
            eps = self.cfg.dirichlet_eps
            root.priors = ((1 - eps) * root.priors + eps * noise).astype(np.float32)
            root.bind()
            root.noised = True
        playouts = 0
        # The kept subtree has at most one expanded node per visit; each playout adds at most one.
        node_cap = max(0, memory_bytes // self.cfg.node_bytes - int(root.N.sum()) - 1) if memory_bytes > 0 else -1
        vl = self.cfg.virtual_loss
        last_report, reported_best, root_pick = t0, None, -1
        verify_spent = 0.0  # not counted in the playout rate of the early-stop rule
        verify_left = self.cfg.verify_share * min(optimum, deadline - t0) if self.cfg.verify_ms > 0 else 0.0
        if report:
            report("REALTIME REFRESH")
        while True:
            now = time.monotonic()
            if report and now - last_report >= REPORT_EVERY_S and len(root.moves):
                last_report = now
                best_move = root.moves[int(np.argmax(root.N))]
                if best_move != reported_best:
                    reported_best = best_move
                    report("REALTIME BEST %d,%d" % best_move)
                if root_pick >= 0:
                    report("REALTIME POS %d,%d" % root.moves[root_pick])
            if root.proven or now >= soft or (max_playouts and playouts >= max_playouts) or (stop and stop.is_set()):
                break
            if len(root.moves) == 1 or (node_cap >= 0 and playouts + self.cfg.batch > node_cap):
                break
            searched = now - t0 - verify_spent
            decided = early_stop and playouts >= 64 and self._decided(root, playouts, searched, soft - now)
            late = now - t0 >= self.cfg.verify_after * (soft - t0)
            if verify_left > 0.002 and self.cfg.utss and playouts >= 16 and (late or decided):
                top = self._leader(root)
                child = root.children[top] if top >= 0 else None
                if top >= 0 and not (child is not None and (child.verified or child.proven)):
                    budget = min(self.cfg.verify_ms / 1000, verify_left, max(0.0, deadline - now - 0.005))
                    self._verify(b, root, top, budget)
                    spent_verifying = time.monotonic() - now
                    verify_left -= spent_verifying
                    verify_spent += spent_verifying
                    continue
            if decided:
                break
            batch: list[tuple[list[tuple[Node, int]], Node, Board]] = []
            for _ in range(self.cfg.batch):
                path: list[tuple[Node, int]] = []
                node, ply = root, 0
                while node.expanded and not node.proven and node.moves:
                    i = self._select(node)
                    if node is root:
                        root_pick = i
                    path.append((node, i))
                    node.N[i] += vl
                    node.W[i] -= vl
                    lib.rj_play(b._b, *node.moves[i])  # legal by construction: the filter drops fouls
                    ply += 1
                    child = node.children[i]
                    if child is None:
                        child = node.children[i] = Node()
                    node = child
                if node.proven or (node.expanded and not node.moves):
                    value = float(node.proven)
                    self._backup(path, value, vl)
                    self._propagate_proofs(path, node)
                    playouts += 1
                elif node.pending:  # another leaf of this batch: undo the virtual loss only
                    for parent, i in path:
                        parent.N[i] -= vl
                        parent.W[i] += vl
                else:
                    value = self._settle(b, node, ply)
                    if value is not None:
                        self._backup(path, value, vl)
                        self._propagate_proofs(path, node)
                        playouts += 1
                    else:
                        node.pending = True
                        batch.append((path, node, b.copy()))
                for _ in range(ply):
                    lib.rj_undo(b._b)
            if batch:
                logits, values = self.ev.evaluate([leaf_board for _, _, leaf_board in batch])
                if self.cfg.value_sharpen != 1.0:
                    values = sharpen(values, self.cfg.value_sharpen)
                for (path, node, leaf_board), lg, v in zip(batch, logits, values):
                    node.pending = False
                    self._expand(node, leaf_board, lg, len(path))
                    self._backup(path, float(v), vl)
                    playouts += 1
        self.info = self._summary(root, playouts, time.monotonic() - t0)
        if not root.moves:  # lost: the filter left nothing (say, black's only block is a foul)
            return self._any_legal(board)
        return self._best(root)

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
        if not len(root.N):
            return -1
        n = np.where(root.cp == 0, root.N, -1.0)
        i = int(np.argmax(n))
        return i if n[i] >= 0 else -1

    def _verify(self, b: Board, root: Node, i: int, seconds: float) -> None:
        """A deep UTSS after root move i, the opponent to move: its win proves our move lost, its
        loss proves our move won; either way the proof propagates."""
        child = root.children[i]
        if child is None:
            child = root.children[i] = Node()
        child.verified = True
        lib.rj_play(b._b, *root.moves[i])
        try:
            if b.game_over or seconds <= 0:
                return
            proof = self.prover.solve(b, "utss", max_depth=self.cfg.verify_depth, budget_ms=seconds * 1000)
        finally:
            lib.rj_undo(b._b)
        if proof.result in ("win", "loss"):
            child.proven = 1 if proof.result == "win" else -1
            if child.proven > 0 and proof.line:
                child.win_move = proof.line[0]
            self._propagate_proofs([(root, i)], child)

    def _backup(self, path: list[tuple[Node, int]], value: float, vl: float) -> None:
        """value is for the side to move at the leaf; each edge stores it for its mover."""
        for node, i in reversed(path):
            value = -value
            node.N[i] += 1 - vl
            node.W[i] += value + vl
            node.visits += 1

    def _decided(self, root: Node, playouts: int, spent: float, left: float) -> bool:
        """Stop when the most visited move can no longer be overtaken in the time left."""
        if len(root.N) < 2:
            return True
        top = np.sort(root.N)[-2:]
        rate = playouts / max(spent, 1e-6)
        return top[1] - top[0] > rate * left

    def _best(self, root: Node) -> Move:
        if root.proven > 0:
            for m, c in zip(root.moves, root.children):
                if c is not None and c.proven < 0:
                    return m
            for line_move in (self.root_line[:1] + [root.win_move]):
                if line_move in root.moves:
                    return line_move
        order = np.argsort(-(root.N + 1e-3 * root.priors))  # by visits; the prior breaks ties (and no visits)
        for i in order:  # avoid a proven loss while another move remains
            if root.cp[i] <= 0:
                return root.moves[int(i)]
        return root.moves[int(order[0])]

    def _summary(self, root: Node, playouts: int, seconds: float) -> SearchInfo:
        pv: list[Move] = []
        node, depth = root, 0
        while node is not None and node.expanded and node.moves and len(pv) < 12:
            i = int(np.argmax(node.N))
            if node.N[i] <= 0:
                break
            pv.append(node.moves[i])
            node = node.children[i]
            depth += 1
        best = int(np.argmax(root.N)) if len(root.N) else 0
        wr = 0.5
        if len(root.N) and root.N[best] > 0:
            wr = 0.5 + 0.5 * float(root.W[best] / root.N[best])
        if root.proven:
            wr = 1.0 if root.proven > 0 else 0.0
        return SearchInfo(playouts, seconds, depth, wr, tuple(pv), root.proven)
