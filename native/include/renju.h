/*
 * renju.h — the one public C API of the pbrain-renju native core.
 *
 * Everything is prefixed rj_. Boards are opaque handles; bulk queries write into caller-owned
 * buffers (row-major, index y * size + x), so Python never holds a pointer into a board.
 * Functions that can fail return an rj_status (0 = OK, negative = error).
 *
 * Coordinates: x is the column, y the row, both 0-based, as in the Gomocup protocol.
 */
#ifndef RENJU_H
#define RENJU_H

#include <stddef.h>
#include <stdint.h>

#define RJ_MIN_SIZE 5
#define RJ_MAX_SIZE 22
#define RJ_MAX_MOVES (RJ_MAX_SIZE * RJ_MAX_SIZE)

/* Point states. RJ_WALL marks the padding around the board. RJ_BLOCKED is a point nobody may
 * play (field 3 of the protocol's BOARD in continuous games): it cuts lines like the edge does
 * (its low two bits are RJ_WALL's, and line keys hold the low two bits). */
enum rj_color { RJ_EMPTY = 0, RJ_BLACK = 1, RJ_WHITE = 2, RJ_WALL = 3, RJ_BLOCKED = 7 };

/* Rules. Gomocup's `INFO rule` bitmask maps onto these (engine.board.Rule.from_gomocup).
 * In caro an end is blocked by an opponent stone or the board edge, as the Gomocup referee
 * (GomocupJudge ai_match.make_move) judges it. */
enum rj_rule {
    RJ_FREESTYLE = 0,  /* five or more in a row wins                               (rule 0) */
    RJ_STANDARD = 1,   /* exactly five wins, an overline does not                   (rule 1) */
    RJ_RENJU = 2,      /* RIF: black exactly five and forbidden moves; white 5+ wins (rule 4) */
    RJ_CARO = 3,       /* six or more, or five not blocked at both ends              (rule 8) */
    RJ_CARO_EXACT = 4, /* exactly five, not blocked at both ends                     (rule 9) */
    RJ_NUM_RULES = 5
};

/*
 * Line pattern types: what a stone of colour c placed on an (empty) point makes on one line
 * through it. Ordered from weakest to strongest except FORBID and OVERLINE.
 *   NONE      no five can ever be made through the point on this line
 *   FORBID    a same-line double four (black in Renju only): X_XXX_X, XX_XX_XX, XXX_X_XXX
 *   DEAD1..LIVE4   one more stone of c on the line could make the next stronger dead/live type
 *   DEAD4     exactly one point completes a five through the stone
 *   LIVE4     a straight four (two completion points)
 *   FIVE      a winning five
 *   OVERLINE  six or more in a row; it wins or is forbidden or is nothing, depending on the rule
 */
enum rj_pattern {
    RJ_PT_NONE = 0,
    RJ_PT_FORBID = 1,
    RJ_PT_DEAD1 = 2,
    RJ_PT_LIVE1 = 3,
    RJ_PT_DEAD2 = 4,
    RJ_PT_LIVE2 = 5,
    RJ_PT_DEAD3 = 6,
    RJ_PT_LIVE3 = 7,
    RJ_PT_DEAD4 = 8,
    RJ_PT_LIVE4 = 9,
    RJ_PT_FIVE = 10,
    RJ_PT_OVERLINE = 11,
    RJ_PT_COUNT = 12
};

/* Why a black move is forbidden in Renju. */
enum rj_foul { RJ_FOUL_NONE = 0, RJ_FOUL_DOUBLE_THREE = 1, RJ_FOUL_DOUBLE_FOUR = 2, RJ_FOUL_OVERLINE = 3 };

enum rj_result { RJ_ONGOING = 0, RJ_BLACK_WINS = 1, RJ_WHITE_WINS = 2, RJ_DRAW = 3 };

enum rj_status {
    RJ_OK = 0,
    RJ_E_OFFBOARD = -1,
    RJ_E_OCCUPIED = -2,
    RJ_E_GAMEOVER = -3,
    RJ_E_NOHISTORY = -4,
    RJ_E_BADSIZE = -5,
    RJ_E_BADRULE = -6,
    RJ_E_NOMEM = -7,
    RJ_E_BADCOLOR = -8,
    RJ_E_BADKIND = -9
};

typedef struct rj_board rj_board;

/* ---- pattern tables (tables.c) ---- */

/* Builds the pattern table of a rule if not built yet (the only global state mutated after start).
 * Call before sharing boards between threads. Returns RJ_OK or an error. */
int rj_tables_init(int rule);
/* Bytes held by all pattern tables built so far. */
size_t rj_tables_memory(void);
/* Pattern type of colour c at the centre of an 11-cell line window (cells[5] is ignored; cells
 * hold rj_color values, RJ_WALL beyond the edge). Builds the rule's table if needed. */
int rj_classify_line(int rule, int color, const uint8_t cells[11]);
/* Threat level of a pattern type for (rule, colour): -1 forbidden, 0 quiet, 1 live three,
 * 2 dead four, 3 live four, 4 five. */
int rj_threat_level(int rule, int color, int pattern);
/* Whether a pattern type wins for (rule, colour). */
int rj_pattern_wins(int rule, int color, int pattern);

/* ---- boards (board.c) ---- */

rj_board *rj_board_new(int size, int rule);
void rj_board_free(rj_board *b);
/* Copies src into dst (both must exist). */
void rj_board_copy(rj_board *dst, const rj_board *src);
/* Empties the board; black to move. */
void rj_board_clear(rj_board *b);

int rj_size(const rj_board *b);
int rj_rule(const rj_board *b);
int rj_to_move(const rj_board *b);
int rj_stone_count(const rj_board *b);
int rj_result(const rj_board *b);
uint64_t rj_hash(const rj_board *b);
/* Colour at (x, y), RJ_WALL when off the board. */
int rj_get(const rj_board *b, int x, int y);
/* out[y * size + x] = rj_color of every point. */
void rj_stones(const rj_board *b, uint8_t *out);
/* Fills xs/ys (length >= stone count) with the stones in the order they were placed; returns
 * the count. colors may be NULL. */
int rj_history(const rj_board *b, int16_t *xs, int16_t *ys, uint8_t *colors);

/* Plays the side to move at (x, y): RJ_E_OFFBOARD, RJ_E_OCCUPIED or RJ_E_GAMEOVER leave the
 * board unchanged. Does NOT reject forbidden moves: check rj_foul() first. */
int rj_play(rj_board *b, int x, int y);
/* Places a stone of a given colour (or RJ_BLOCKED) without changing the side to move (position
 * set-up). Blocked points count as occupied in rj_stone_count. */
int rj_put(rj_board *b, int x, int y, int color);
/* Sets the whole position at once: grid[y * size + x] holds rj_color values (EMPTY, BLACK,
 * WHITE or BLOCKED). Stones enter the history in row-major order; the result is judged from the final
 * position (not stone by stone), so a puzzle is taken exactly as it stands. */
int rj_board_load(rj_board *b, const uint8_t *grid, int to_move);
/* Takes back the last placed stone (by play or put), restoring side to move and result. */
int rj_undo(rj_board *b);
int rj_set_to_move(rj_board *b, int color);

/* Would a stone of colour c at the empty point (x, y) win? Exact (scans the real board). */
int rj_wins_at(const rj_board *b, int x, int y, int color);

/* Pattern codes: out[(y * size + x) * 4 + d] for directions d = 0 horizontal, 1 vertical,
 * 2 diagonal (x+1, y+1), 3 anti-diagonal (x-1, y+1). Occupied points hold the codes of their
 * line as if the point were empty. */
void rj_patterns(const rj_board *b, int color, uint8_t *out);
/* Number of (empty point, direction) pairs of each pattern type for colour c. */
void rj_pattern_counts(const rj_board *b, int color, int32_t out[RJ_PT_COUNT]);

/* Compares every incremental structure (line keys, the pattern codes of empty points, counts,
 * hash, stone count, result) with a from-scratch recomputation. 0 if they agree, otherwise a positive code naming
 * the first mismatch (1 keys, 2 patterns, 3 counts, 4 hash, 5 stone count, 6 result, 7 threat
 * point sets). */
int rj_board_check(const rj_board *b);
/* Rebuilds every incremental structure from the stones alone (the slow path the check uses). */
void rj_board_recompute(rj_board *b);

/* ---- Renju forbidden moves (forbid.c) ---- */

/* Foul kind for black at (x, y) under the board's rule: RJ_FOUL_NONE unless the rule is Renju
 * and the point is empty and forbidden. An exact five is never forbidden. Exact: the three
 * check is recursive. The board is restored before returning. */
int rj_foul(rj_board *b, int x, int y);
/* out[y * size + x] = foul kind of every point for black; returns the number of forbidden
 * points. All zero unless the rule is Renju. */
int rj_forbidden_points(rj_board *b, uint8_t *out);

/* ---- threat sets and the move filter (threats.c) ---- */

/* Each fills xs/ys (room for RJ_MAX_MOVES) with points for the side to move and returns the
 * count. Defence D(c), attack A(c) (pure attacks first; *pure receives their number), unified
 * M(c) = A ∪ D. Black's forbidden points never appear in black's sets. */
int rj_defence_set(rj_board *b, int16_t *xs, int16_t *ys);
int rj_attack_set(rj_board *b, int16_t *xs, int16_t *ys, int *pure);
int rj_unified_set(rj_board *b, int16_t *xs, int16_t *ys);
/* The threat colour c poses now: 3 two or more five points, 2 one, 1 a playable straight-four
 * point (a live three), 0 none. */
int rj_threat(rj_board *b, int color);
/* Search candidates: immediate wins if any; else M(c) when the opponent threatens; else every
 * playable point within `radius` of a stone (the centre of an empty board). */
int rj_filter_moves(rj_board *b, int radius, int16_t *xs, int16_t *ys);

/* ---- threat-space prover (prover.c) ---- */

#define RJ_MAX_LINE_PLIES 256
/* RJ_PROVE_UTSS settles wins and losses; a node whose parent only asks whether it is lost stops
 * at its first move that holds within the depth, so a quiet position may come back unknown.
 * RJ_PROVE_UTSS_EXACT searches on to tell draws (no threat wins for either side) from unknowns. */
/* RJ_PROVE_DFPN proves the side to move's threat-space win by proof-number search (max_depth caps
 * a line's plies); it answers WIN or UNKNOWN. RJ_PROVE_VCT proves a victory by continuous fours
 * and threes by proof-number search (vct.c; max_depth caps a line's plies, at most
 * RJ_MAX_VCT_PLIES: a line's VCF checks and its read-back need the rest of the PV table); WIN or
 * UNKNOWN. RJ_PROVE_VCT_DIRECT is the same search with the defender answering a three only by
 * the points that stop it, never by a four of its own elsewhere (Allis's threat-space search
 * before its four check): a WIN is not a proof against every defence, but a complete search that
 * finds none (UNKNOWN, not aborted) shows that no RJ_PROVE_VCT win exists within the same limit,
 * and it settles in a fraction of the nodes. RJ_PROVE_VCT3 adds quiet threats (λ-search order 3):
 * an attacker move that makes no four or three but after which, were the defender to pass, the
 * attacker would win by VCT; the defender answers by its fours and threes and the points of that
 * VCT's reach. threat_depth is then how many quiet threats a line may hold (negative: the
 * default, RJ_VCT3_QUIET); WIN or UNKNOWN, a WIN to be checked by rj_vct_verify. */
#define RJ_MAX_VCT_PLIES (RJ_MAX_LINE_PLIES - 80)
#define RJ_VCT3_QUIET 1
enum rj_proof_kind {
    RJ_PROVE_VCF = 0,
    RJ_PROVE_UTSS = 1,
    RJ_PROVE_UTSS_EXACT = 2,
    RJ_PROVE_DFPN = 3,
    RJ_PROVE_VCT = 4,
    RJ_PROVE_VCT_DIRECT = 5,
    RJ_PROVE_VCT3 = 6
};
/* Values for the side to move. */
enum rj_proof_value { RJ_PROOF_WIN = 1, RJ_PROOF_DRAW = 0, RJ_PROOF_LOSS = -1, RJ_PROOF_UNKNOWN = -2 };

typedef struct {
    int value;      /* rj_proof_value */
    int depth;      /* deepest iteration completed (VCF: attacker moves; UTSS: plies) */
    int aborted;    /* a budget ran out */
    int64_t nodes;
    double ms;
    int line_len;   /* the principal line, alternating from the side to move */
    int16_t line_x[RJ_MAX_LINE_PLIES];
    int16_t line_y[RJ_MAX_LINE_PLIES];
} rj_proof;

typedef struct rj_prover rj_prover;
/* A prover owns a transposition table of 2^tt_bits entries (16 bytes each). */
rj_prover *rj_prover_new(int tt_bits);
void rj_prover_free(rj_prover *p);
void rj_prover_clear(rj_prover *p);
size_t rj_prover_memory(const rj_prover *p);
/* Proves the position for the side to move: VCF with at most max_depth attacking moves, or UTSS
 * with iterative deepening up to max_depth plies. UTSS's attacks are fours, threes and quiet
 * "fukumi" moves that threaten a VCF of at most threat_depth fours (a three threatens one; 0
 * allows fours only; negative: the default, 3). max_nodes / max_ms <= 0 mean no limit. The board
 * is unchanged afterwards. Returns RJ_OK or an error (RJ_E_GAMEOVER, RJ_E_BADKIND). */
int rj_prove(rj_prover *p, rj_board *b, int kind, int max_depth, int threat_depth, int64_t max_nodes, double max_ms,
             rj_proof *out);

/* A VCT proof checked in full: from the position, the attacker's moves are the VCT prover's
 * (lines of at most max_depth plies; with quiet > 0 VCT3's, that many quiet threats from each
 * attacker node), and at every defender node every legal move of the board is tried; a node where the attacker has a five or a VCF (the VCF prover, trusted) is won.
 * result: 1 every defence answered, 0 a defence escapes (line: the path to it), -1 a budget ran
 * out first. */
typedef struct {
    int result;
    int64_t or_nodes, and_nodes, replies, vcf_leaves, nodes;
    double ms;
    int line_len;
    int16_t line_x[RJ_MAX_LINE_PLIES];
    int16_t line_y[RJ_MAX_LINE_PLIES];
} rj_verification;
int rj_vct_verify(rj_prover *p, rj_board *b, int max_depth, int quiet, int64_t max_nodes, double max_ms,
                  rj_verification *out);

/* The move filter (rj_filter_moves) narrowed against a hidden threat: when the opponent would
 * win by a VCF of at most vcf_depth fours if it had the move, only the moves after which it no
 * longer has one (within what is left of max_nodes) and the mover's own fours remain, and
 * *threatened is set. Moves far from the VCF's line cannot break it and are dropped unprobed.
 * When no move survives, or there is no such VCF, the plain filter's moves are returned. The
 * prover's transposition table is used and kept. */
int rj_filter_threats(rj_prover *p, rj_board *b, int radius, int vcf_depth, int64_t max_nodes, int16_t *xs,
                      int16_t *ys, int *threatened);

/* ---- neural-network input planes (planes.c) ---- */

/* Version of the input-plane layout below. Written into every exported model's metadata and
 * checked when a model loads: change it whenever a plane changes meaning or order. Each version
 * extends the one before, so a model of an older version reads the first RJ_PLANES_V<n> planes. */
#define RJ_FEATURE_VERSION 2
#define RJ_PLANES_V1 7
#define RJ_PLANES 18
/* Fills out[(plane * size + y) * size + x] (float32, RJ_PLANES planes) from the side to move c:
 *   0 c's stones          1 the opponent's stones      2 ones when c is black
 *   3 empty points within 3 (Chebyshev) of a stone      4 A(c), the attack set
 *   5 D(c), the defence set                             6 points where c's stone makes a live two
 *                                                         or better (and c may play)
 * (version 1 ends here) and, for c (planes 7-11) and the opponent (12-16), the empty points where
 * that side's stone makes, in some line:
 *   +0 a five             +1 a straight four            +2 a four with one completion point
 *   +3 a live three       +4 two or more lines of a live three or better
 * (all but the five only where that side may play), and
 *   17 black's forbidden points (Renju only).
 * Returns RJ_PLANES. */
int rj_planes(rj_board *b, float *out);
/* The planes of feature version `version` (1 or RJ_FEATURE_VERSION; 0: the latest), at that
 * version's cost: RJ_PLANES_V1 or RJ_PLANES of them; returns their number, or RJ_E_BADKIND. */
int rj_planes_version(rj_board *b, int version, float *out);

/* ---- MCTS selection (puct.c) ---- */

/* The child of one node to descend into: argmax of Q + c_puct * prior * sqrt(N + 1) / (1 + n),
 * where n and Q = value_sum / n are the child's (value_sum for the node's mover), N their sum, and an
 * unvisited child's Q is the node's mean value minus fpu. proven[i] < 0 (the child is lost for its
 * mover) is taken at once; proven[i] > 0 only when every other child is proven too. k >= 1. */
int rj_puct_select(const float *prior, const float *visits, const float *value_sum, const int8_t *proven, int k,
                   float c_puct, float fpu);

/* ---- the MCTS tree and its playout loop (tree.c) ---- */
typedef struct {
    float c_puct, fpu, virtual_loss;
    int radius;            /* the move filter's */
    int move_filter;       /* 0: expand every legal move (the ablation) */
    int utss;              /* 0: no threat-space proofs at the leaves (the ablation) */
    int utss_plies;        /* UTSS at leaves this deep below the root, the opponent to move (odd plies) */
    int utss_plies_own;    /* ... and we (even plies) */
    int utss_depth, utss_depth_ply1;
    int64_t utss_nodes, utss_nodes_ply1;
    int threat_vcf_depth;  /* > 0: expand only the answers to the opponent's hidden VCF (rj_filter_threats) */
    int64_t threat_nodes;
    int transpositions;    /* 1: a leaf whose position an expanded node already holds takes that
                              node's moves, priors and net value instead of the evaluator's; a
                              proof of that node's is the leaf's too */
    int transposition_q;   /* 1: ... and backs up that node's mean value over its visits so far
                              (its evaluation and its children's value sums) instead of its net value */
    int draw_stones;       /* > 0: the game is drawn once this many stones are on the board (Gomocup's
                              renju cap, 200 on 15x15): leaves there are draws, proofs are kept
                              short enough to finish before it (RJ_CAP_MARGIN) */
    int draw_fade;         /* > 0: net values shrink linearly to 0 over the last draw_fade plies
                              before draw_stones */
    int feature_version;   /* the leaves' input planes (rj_planes_version; 0: the latest) */
} rj_tree_config;
/* Plies a proof of depth d may take beyond d (a depth-0 UTSS node still sees a five, a double
 * five threat or an undefendable four): proofs near the cap get d <= plies left - this. */
#define RJ_CAP_MARGIN 4
#define RJ_NODE_EXPANDED 1
#define RJ_NODE_PENDING 2
#define RJ_NODE_VERIFIED 4
#define RJ_NODE_NOISED 8
typedef struct {
    int32_t first;         /* the first child edge; -1 before expansion */
    int32_t n;             /* number of children (moves) */
    int32_t visits;
    int8_t proven;         /* +1 won / -1 lost for the side to move here, 0 open */
    uint8_t flags;         /* RJ_NODE_* */
    int16_t win_x, win_y;  /* first move of the proof that won it (-1: none) */
    float net_value;       /* the evaluator's value here, for the side to move (once expanded) */
    uint64_t hash;         /* the position's Zobrist key (set when the node is first reached as a leaf) */
} rj_tree_node;
/* Edge columns: a node's children are [first, first + n). value is the sum of values for the
 * node's mover; proven is the child's proven value for the child's mover; child -1 = not made. */
typedef struct {
    int16_t *x, *y;
    float *prior, *visits, *value;
    int8_t *proven;
    int32_t *child;
} rj_tree_edges;
#define RJ_TREE_MAX_BATCH 64 /* leaves waiting for the evaluator at once */
#define RJ_TREE_PLY_STATS 16
typedef struct rj_tree rj_tree;
rj_tree *rj_tree_new(void);
void rj_tree_free(rj_tree *t);
/* Drops every node: the root is a fresh, unexpanded node. */
void rj_tree_reset(rj_tree *t);
int32_t rj_tree_root(const rj_tree *t);
int32_t rj_tree_nodes(const rj_tree *t);
size_t rj_tree_memory(const rj_tree *t);
/* Pointers into the tree, valid until it next grows (rj_tree_gather, rj_tree_apply,
 * rj_tree_child, rj_tree_advance). */
rj_tree_node *rj_tree_node_at(rj_tree *t, int32_t id);
void rj_tree_edges_of(rj_tree *t, rj_tree_edges *out);
/* The node under child i of `node` (made if absent); -1 if node has no child i. */
int32_t rj_tree_child(rj_tree *t, int32_t node, int i);
/* Moves the root to its child by (x, y). Returns 1, or 0 (and resets the tree) when the root has
 * no expanded child there. The rest of the tree stays allocated until rj_tree_compact. */
int rj_tree_advance(rj_tree *t, int x, int y);
/* Copies the root's subtree to the front of fresh arrays (breadth first) and frees the rest. */
void rj_tree_compact(rj_tree *t);
/* Runs up to `batch` playouts from the root of board b (the root's position; restored after).
 * Leaves settled by the game, the threat sets or the prover are backed up at once (counted in
 * *playouts); the others wait for the evaluator: their input planes (cfg->feature_version's, P of
 * them) go to planes[j * P * size * size] (planes may be NULL) and the count of them is returned.
 * *root_pick receives the root child of the last descent (-1: none). */
int rj_tree_gather(rj_tree *t, rj_board *b, rj_prover *p, const rj_tree_config *cfg, int batch, float *planes,
                   int *playouts, int *root_pick);
/* The moves from the root to waiting leaf j; returns their number. */
int rj_tree_leaf_path(const rj_tree *t, int j, int16_t *xs, int16_t *ys);
/* Expands the waiting leaves with the evaluator's logits[j * size * size + y * size + x] (a
 * softmax over the leaf's moves) and backs up values[j] (for the leaf's side to move). */
void rj_tree_apply(rj_tree *t, const rj_tree_config *cfg, const float *logits, const float *values, int size);
/* Forgets the waiting leaves (their virtual loss undone), as if never gathered. */
void rj_tree_cancel(rj_tree *t);
/* Child i of `node` is proven (value for the child's mover; win_x/win_y its proof's first move or
 * -1): records it in the node and settles the node when that decides it. */
void rj_tree_prove_child(rj_tree *t, int32_t node, int i, int value, int win_x, int win_y);
/* UTSS calls made at leaves `ply` below the root since the tree was last reset (the last entry
 * counts every deeper ply). */
int64_t rj_tree_utss_calls(const rj_tree *t, int ply);
/* Leaves expanded from a transposition (rj_tree_config.transpositions) since the last reset. */
int64_t rj_tree_transpositions(const rj_tree *t);
/* The expanded node the transposition table files under `key`, or -1. */
int32_t rj_tree_find(const rj_tree *t, uint64_t key);
/* ---- classic engines' hot loops (baseline.c) ---- */

/* out[y * size + x] = pattern score of the side to move's stone there (attack plus 0.9 of the
 * defence), -1 where it may not play; returns the best score. */
int rj_point_scores(rj_board *b, int32_t *out);
/* Iterative-deepening alpha-beta over the pattern evaluation, best-scored candidates only, until
 * max_depth plies or max_ms; the move and value (for the side to move) of the deepest completed
 * iteration. A value beyond +-(RJ_AB_WIN - RJ_MAX_LINE_PLIES) is a five forced within the
 * candidates searched (not a proof: only the best-scored replies were tried). */
#define RJ_AB_WIN 1000000
int rj_alphabeta(rj_board *b, int max_depth, double max_ms, int16_t *x, int16_t *y, int *depth_reached,
                 int64_t *nodes, int *value);
/* Plays a heuristic game from the position (win if possible, block a five, else score-weighted
 * among points next to stones) for at most max_moves, takes it back, and returns the winner
 * (RJ_BLACK, RJ_WHITE) or RJ_ONGOING for none. */
int rj_rollout(rj_board *b, uint64_t seed, int max_moves);

/* ---- benchmarks measured inside C (bench.c) ---- */

/* Plays the given moves in order, then undoes them, `rounds` times; returns ns per play+undo pair. */
double rj_bench_play_undo(rj_board *b, const int16_t *xs, const int16_t *ys, int n, int rounds);
/* The same moves placed and taken back as the provers' probe moves (no pattern counts, no
 * legality or win checks, colours alternating from black); returns ns per place+remove pair. */
double rj_bench_probe(rj_board *b, const int16_t *xs, const int16_t *ys, int n, int rounds);
/* Calls rj_forbidden_points `rounds` times; returns ns per call. */
double rj_bench_forbidden(rj_board *b, int rounds);
/* Calls rj_board_recompute `rounds` times; returns ns per call. */
double rj_bench_recompute(rj_board *b, int rounds);
/* Builds a fresh table for the rule `rounds` times in a private buffer; returns ns per build. */
double rj_bench_table_build(int rule, int rounds);

#endif /* RENJU_H */
