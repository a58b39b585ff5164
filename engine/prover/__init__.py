"""Threat-space proofs over the native prover: VCF, UTSS, df-pn and VCT for the side to move.

    proof = solve(board, kind="vcf", max_depth=12, budget_nodes=1_000_000, budget_ms=1000)
    proof.result -> "win" | "loss" | "draw" | "unknown"; proof.line -> [(x, y), ...]
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.board import _POINTS, Board, Move
from engine.native import BoardError, check, ffi, lib

# "utss" settles wins and losses and may answer "unknown" for a quiet position; "utss-exact" searches
# on to tell "draw" (no threat wins for either side) from "unknown", at some cost; "dfpn" proves
# the side to move's win by proof-number search over the same threat space ("win" or "unknown");
# "vct" proves a victory by continuous fours and threes by proof-number search ("win" or "unknown");
# "vct-direct" is that search with the defender answering a three only where it stops it, never by
# a four of its own elsewhere: its "win" is not a proof against every defence, but its complete
# "unknown" (not aborted) rules out a "vct" win, and it settles in a fraction of the nodes;
# "vct3" adds the attacker's quiet threats (a move after which, were the defender to pass, a VCT
# would win; threat_depth: how many a line may hold), answered by the points of that VCT's reach
# and the defender's fours and threes: a "win" to be checked by `verify(kind="vct3")`.
KINDS = {"vcf": lib.RJ_PROVE_VCF, "utss": lib.RJ_PROVE_UTSS, "utss-exact": lib.RJ_PROVE_UTSS_EXACT,
         "dfpn": lib.RJ_PROVE_DFPN, "vct": lib.RJ_PROVE_VCT, "vct-direct": lib.RJ_PROVE_VCT_DIRECT,
         "vct3": lib.RJ_PROVE_VCT3}
RESULTS = {lib.RJ_PROOF_WIN: "win", lib.RJ_PROOF_DRAW: "draw", lib.RJ_PROOF_LOSS: "loss",
           lib.RJ_PROOF_UNKNOWN: "unknown"}
DEFAULT_TT_BITS = 18  # 4 MB
VCT_PLIES = 120


@dataclass
class Verification:
    result: str  # "verified" (every defence answered), "refuted" (line: the path to an escape), "incomplete"
    line: list[Move] = field(default_factory=list)
    or_nodes: int = 0
    and_nodes: int = 0
    replies: int = 0  # defender moves tried
    vcf_leaves: int = 0
    nodes: int = 0
    ms: float = 0.0


@dataclass
class Proof:
    result: str  # "win" / "loss" for the side to move, "draw" (quiet: no threat wins), "unknown"
    line: list[Move] = field(default_factory=list)  # principal line, from the side to move
    nodes: int = 0
    ms: float = 0.0
    depth: int = 0  # VCF: attacking moves; UTSS: plies (deepest completed iteration)
    aborted: bool = False  # a budget ran out

    def as_json(self, fmt=lambda m: f"{m[0]},{m[1]}") -> dict:
        return {"result": self.result, "line": [fmt(m) for m in self.line], "nodes": self.nodes,
                "ms": round(self.ms, 3), "depth": self.depth}


class Prover:
    """Owns a transposition table that persists across proofs (clear() empties it)."""

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS) -> None:
        handle = lib.rj_prover_new(tt_bits)
        if handle == ffi.NULL:
            raise MemoryError("cannot allocate the prover's transposition table")
        self._p = ffi.gc(handle, lib.rj_prover_free)
        self._out = ffi.new("rj_proof *")

    def clear(self) -> None:
        lib.rj_prover_clear(self._p)

    @property
    def memory(self) -> int:
        return int(lib.rj_prover_memory(self._p))

    def solve(self, board: Board, kind: str = "vcf", max_depth: int | None = None, budget_nodes: int = 0,
              budget_ms: float = 0.0, threat_depth: int | None = None) -> Proof:
        """Prove the position for the side to move. max_depth: attacking moves for VCF (default 60),
        plies for UTSS (default 9), the longest line for df-pn (default 40) and either VCT (default
        120). threat_depth: UTSS's longest VCF (in fours) that a quiet attack may threaten — a three
        threatens one, 0 means fours only, None the default (3); VCT3's quiet threats a line may
        hold (None: 1).
        Budgets <= 0 mean none. The board is unchanged."""
        if kind not in KINDS:
            raise BoardError(f"unknown proof kind {kind!r}: choose {', '.join(KINDS)}")
        if max_depth is None:
            max_depth = {"vcf": 60, "dfpn": 40}.get(kind, VCT_PLIES if kind.startswith("vct") else 9)
        out = self._out
        depth_of_threats = -1 if threat_depth is None else threat_depth
        check(lib.rj_prove(self._p, board._b, KINDS[kind], max_depth, depth_of_threats, budget_nodes, budget_ms, out),
              "solve")
        line = [(out.line_x[i], out.line_y[i]) for i in range(out.line_len)]
        return Proof(RESULTS[out.value], line, int(out.nodes), float(out.ms), int(out.depth), bool(out.aborted))

    def verify(self, board: Board, max_depth: int = VCT_PLIES, budget_nodes: int = 0,
               budget_ms: float = 0.0, kind: str = "vct", quiet: int | None = None) -> Verification:
        """Checks the VCT (kind "vct3": VCT3) proof for the side to move in full: at every defender
        node every legal move of the board is tried, and each must lose to a five, a VCF (the VCF
        prover is trusted) or the prover's next move, checked the same way (rj_vct_verify in
        renju.h). For tests and benchmarks: it costs many proofs."""
        if board.game_over:
            raise BoardError("the position is already decided")
        if kind not in ("vct", "vct3"):
            raise BoardError(f"verify checks vct and vct3 proofs, not {kind!r}")
        quiet = 0 if kind == "vct" else lib.RJ_VCT3_QUIET if quiet is None else quiet
        out = ffi.new("rj_verification *")
        check(lib.rj_vct_verify(self._p, board._b, max_depth, quiet, budget_nodes, budget_ms, out), "verify")
        result = {1: "verified", 0: "refuted", -1: "incomplete"}[out.result]
        line = [(out.line_x[i], out.line_y[i]) for i in range(out.line_len)]
        return Verification(result, line, int(out.or_nodes), int(out.and_nodes), int(out.replies),
                            int(out.vcf_leaves), int(out.nodes), float(out.ms))

    def filter_moves(self, board: Board, radius: int = 3, vcf_depth: int = 10,
                     budget_nodes: int = 3000) -> tuple[list[Move], bool]:
        """The move filter narrowed against a hidden threat: when the opponent would win by a VCF
        if it had the move, only the moves that break it (and our own fours) remain. Returns the
        moves and whether such a threat narrowed them (see rj_filter_threats in renju.h)."""
        if board.game_over:
            return [], False
        xs, ys = ffi.new("int16_t[]", lib.RJ_MAX_MOVES), ffi.new("int16_t[]", lib.RJ_MAX_MOVES)
        flag = ffi.new("int *")
        n = lib.rj_filter_threats(self._p, board._b, int(radius), int(vcf_depth), int(budget_nodes), xs, ys, flag)
        return [_POINTS[xs[i]][ys[i]] for i in range(n)], bool(flag[0])  # shared tuples: trees hold many


_default: Prover | None = None


def solve(board: Board, kind: str = "vcf", max_depth: int | None = None, budget_nodes: int = 0,
          budget_ms: float = 0.0, threat_depth: int | None = None) -> Proof:
    """`Prover.solve` with a shared default prover."""
    global _default
    if _default is None:
        _default = Prover()
    return _default.solve(board, kind, max_depth, budget_nodes, budget_ms, threat_depth)
