"""The playout loop written out in Python over the Board and Prover APIs: the reference the C
loop (native/src/tree.c) is checked against. The same rules step by step — PUCT selection under
virtual loss, leaves settled in order (game over, the threat sets, UTSS near the root), batches
sent to the evaluator, backup, proofs carried up — with none of the search's time keeping."""
from __future__ import annotations

import numpy as np

from engine.board import Board, Move, Result
from engine.native import ffi, lib
from engine.net.evaluator import Evaluator
from engine.prover import Prover
from engine.search.mcts import MCTSConfig


class RefNode:
    def __init__(self) -> None:
        self.moves: list[Move] = []
        self.priors = self.N = self.W = np.zeros(0, dtype=np.float32)
        self.cp = np.zeros(0, dtype=np.int8)
        self.children: list[RefNode | None] = []
        self.proven, self.expanded, self.pending = 0, False, False
        self.value = 0.0  # the evaluator's, once expanded


def _softmax(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits.astype(np.float64) - logits.max())
    return p / p.sum()


class ReferenceMCTS:
    def __init__(self, evaluator: Evaluator, cfg: MCTSConfig) -> None:
        self.ev, self.cfg = evaluator, cfg
        self.prover = Prover(tt_bits=cfg.prover_tt_bits)
        self.root = RefNode()
        self.table: dict[int, RefNode] = {}  # position key -> the first node expanded there
        self.shared_proofs = 0  # leaves settled by a transposition's proof

    def settle(self, b: Board, node: RefNode, ply: int) -> float | None:
        cfg = self.cfg
        if b.game_over:
            node.proven = 0 if b.result == Result.DRAW else -1
            return float(node.proven)
        me = b.to_move
        if b.threat(me) >= 2:
            node.proven = 1
            return 1.0
        theirs = b.threat(me.opponent)
        if theirs == 3 or (theirs == 2 and not b.candidate_moves(cfg.radius)):
            node.proven = -1
            return -1.0
        limit = cfg.utss_plies if ply % 2 else cfg.utss_plies_own
        if cfg.utss and ply <= limit and b.stone_count >= 4:
            deep = ply == 1
            proof = self.prover.solve(b, "utss", max_depth=cfg.utss_depth_ply1 if deep else cfg.utss_depth,
                                      budget_nodes=cfg.utss_nodes_ply1 if deep else cfg.utss_nodes)
            if proof.result in ("win", "loss"):
                node.proven = 1 if proof.result == "win" else -1
                return float(node.proven)
        return None

    def expand(self, node: RefNode, b: Board, logits: np.ndarray, ply: int) -> None:
        cfg = self.cfg
        if not cfg.move_filter:
            moves = b.legal_moves()
        elif cfg.threat_vcf_depth > 0 and cfg.utss:
            moves, _ = self.prover.filter_moves(b, cfg.radius, cfg.threat_vcf_depth, cfg.threat_nodes)
        else:
            moves = b.candidate_moves(cfg.radius)
        node.expanded = True
        if not moves:
            return
        idx = np.array([y * b.size + x for x, y in moves])
        p = _softmax(logits[idx])
        k = len(moves)
        node.moves, node.priors = moves, p.astype(np.float32)
        node.N, node.W = np.zeros(k, dtype=np.float32), np.zeros(k, dtype=np.float32)
        node.cp, node.children = np.zeros(k, dtype=np.int8), [None] * k

    def transposes(self) -> bool:
        cfg = self.cfg
        return cfg.transpositions

    def transpose(self, node: RefNode, key: int) -> bool:
        """Expands node as a copy of the expanded node of the same position, if there is one:
        its moves, priors and value, with fresh statistics."""
        twin = self.table.get(key) if self.transposes() else None
        if twin is None:
            return False
        k = len(twin.moves)
        node.moves, node.priors, node.value = list(twin.moves), twin.priors.copy(), twin.value
        node.N, node.W = np.zeros(k, dtype=np.float32), np.zeros(k, dtype=np.float32)
        node.cp, node.children = np.zeros(k, dtype=np.int8), [None] * k
        node.expanded = True
        node.proven = twin.proven  # a proof holds whatever the order of the moves
        self.shared_proofs += bool(twin.proven)
        return True

    def transposed_value(self, node: RefNode, twin: RefNode) -> float:
        """What a transposed leaf backs up: its twin's proof, else its net value or, with
        transposition_q, the twin's mean over its visits (summed in order, in double, as C does)."""
        if node.proven:
            return float(node.proven)
        if not self.cfg.transposition_q or not twin.moves:
            return node.value
        w, n = float(twin.value), 1.0
        for wi, ni in zip(twin.W.tolist(), twin.N.tolist()):
            w, n = w + wi, n + ni
        return float(np.float32(w / n))

    def remember(self, node: RefNode, key: int, value: float) -> None:
        node.value = value
        if self.transposes():
            self.table.setdefault(key, node)

    def select(self, node: RefNode) -> int:
        return lib.rj_puct_select(ffi.from_buffer("float[]", node.priors), ffi.from_buffer("float[]", node.N),
                                  ffi.from_buffer("float[]", node.W), ffi.from_buffer("int8_t[]", node.cp),
                                  len(node.moves), self.cfg.c_puct, self.cfg.fpu)

    def backup(self, path, value: float, vl: float) -> None:
        for node, i in reversed(path):
            value = -value
            node.N[i] += 1 - vl
            node.W[i] += value + vl

    def propagate(self, path, leaf: RefNode) -> None:
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

    def run(self, board: Board, playouts: int) -> RefNode:
        """Expands the root, then plays batches until `playouts` (as MCTS.search counts them)."""
        b, root, vl = board.copy(), self.root, self.cfg.virtual_loss
        if b.stone_count >= 4:
            self.settle(b, root, 0)
        logits, values = self.ev.evaluate([b])
        self.expand(root, b, logits[0], 0)
        self.remember(root, b.hash, float(values[0]))
        done = 0
        while done < playouts and not root.proven and len(root.moves) > 1:
            batch = []
            for _ in range(self.cfg.batch):
                path, node, ply = [], root, 0
                while node.expanded and not node.proven and node.moves:
                    i = self.select(node)
                    path.append((node, i))
                    node.N[i] += vl
                    node.W[i] -= vl
                    b.play(*node.moves[i])
                    ply += 1
                    if node.children[i] is None:
                        node.children[i] = RefNode()
                    node = node.children[i]
                if node.proven or (node.expanded and not node.moves):
                    self.backup(path, float(node.proven), vl)
                    self.propagate(path, node)
                    done += 1
                elif node.pending:
                    for parent, i in path:
                        parent.N[i] -= vl
                        parent.W[i] += vl
                else:
                    value = self.settle(b, node, ply)
                    if value is not None:
                        self.backup(path, value, vl)
                        self.propagate(path, node)
                        done += 1
                    elif self.transpose(node, b.hash):
                        self.backup(path, self.transposed_value(node, self.table[b.hash]), vl)
                        if node.proven:
                            self.propagate(path, node)
                        done += 1
                    else:
                        node.pending = True
                        batch.append((path, node, b.copy()))
                for _ in range(ply):
                    b.undo()
            if batch:
                logits, values = self.ev.evaluate([leaf for _, _, leaf in batch])
                for (path, node, leaf), lg, v in zip(batch, logits, values):
                    node.pending = False
                    self.expand(node, leaf, lg, len(path))
                    self.remember(node, leaf.hash, float(v))
                    self.backup(path, float(v), vl)
                    done += 1
        return root
