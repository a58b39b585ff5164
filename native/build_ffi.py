"""cffi builder for the native core: compiles native/src into the extension `engine._native`.

Out-of-line API mode: the compiler checks every declaration and constant below against
native/include/renju.h, so the Python view of the C API cannot drift from the header.
"""
from __future__ import annotations

import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SOURCES = sorted(str(p.relative_to(ROOT)) for p in (HERE / "src").glob("*.c"))

CDEF = """
#define RJ_MIN_SIZE ...
#define RJ_MAX_SIZE ...
#define RJ_MAX_MOVES ...
#define RJ_EMPTY ...
#define RJ_BLACK ...
#define RJ_WHITE ...
#define RJ_WALL ...
#define RJ_BLOCKED ...
#define RJ_FREESTYLE ...
#define RJ_STANDARD ...
#define RJ_RENJU ...
#define RJ_CARO ...
#define RJ_CARO_EXACT ...
#define RJ_NUM_RULES ...
#define RJ_PT_COUNT ...
#define RJ_PT_NONE ...
#define RJ_PT_FORBID ...
#define RJ_PT_DEAD1 ...
#define RJ_PT_LIVE1 ...
#define RJ_PT_DEAD2 ...
#define RJ_PT_LIVE2 ...
#define RJ_PT_DEAD3 ...
#define RJ_PT_LIVE3 ...
#define RJ_PT_DEAD4 ...
#define RJ_PT_LIVE4 ...
#define RJ_PT_FIVE ...
#define RJ_PT_OVERLINE ...
#define RJ_FOUL_DOUBLE_THREE ...
#define RJ_FOUL_DOUBLE_FOUR ...
#define RJ_FOUL_OVERLINE ...
#define RJ_ONGOING ...
#define RJ_BLACK_WINS ...
#define RJ_WHITE_WINS ...
#define RJ_DRAW ...
#define RJ_FOUL_NONE ...
#define RJ_OK ...
#define RJ_E_OFFBOARD ...
#define RJ_E_OCCUPIED ...
#define RJ_E_GAMEOVER ...
#define RJ_E_NOHISTORY ...
#define RJ_E_BADSIZE ...
#define RJ_E_BADRULE ...
#define RJ_E_NOMEM ...
#define RJ_E_BADCOLOR ...
#define RJ_E_BADKIND ...
#define RJ_MAX_LINE_PLIES ...
#define RJ_MAX_VCT_PLIES ...
#define RJ_AB_WIN ...
#define RJ_FEATURE_VERSION ...
#define RJ_PLANES_V1 ...
#define RJ_PLANES ...
#define RJ_PROVE_VCF ...
#define RJ_PROVE_UTSS ...
#define RJ_PROVE_UTSS_EXACT ...
#define RJ_PROVE_DFPN ...
#define RJ_PROVE_VCT ...
#define RJ_PROVE_VCT_DIRECT ...
#define RJ_PROVE_VCT3 ...
#define RJ_VCT3_QUIET ...
#define RJ_PROOF_WIN ...
#define RJ_PROOF_DRAW ...
#define RJ_PROOF_LOSS ...
#define RJ_PROOF_UNKNOWN ...
#define RJ_TREE_MAX_BATCH ...
#define RJ_TREE_PLY_STATS ...
#define RJ_CAP_MARGIN ...
#define RJ_NODE_EXPANDED ...
#define RJ_NODE_PENDING ...
#define RJ_NODE_VERIFIED ...
#define RJ_NODE_NOISED ...

typedef struct rj_board rj_board;

int rj_tables_init(int rule);
size_t rj_tables_memory(void);
int rj_classify_line(int rule, int color, const uint8_t cells[11]);
int rj_threat_level(int rule, int color, int pattern);
int rj_pattern_wins(int rule, int color, int pattern);

rj_board *rj_board_new(int size, int rule);
void rj_board_free(rj_board *b);
void rj_board_copy(rj_board *dst, const rj_board *src);
void rj_board_clear(rj_board *b);
int rj_size(const rj_board *b);
int rj_rule(const rj_board *b);
int rj_to_move(const rj_board *b);
int rj_stone_count(const rj_board *b);
int rj_result(const rj_board *b);
uint64_t rj_hash(const rj_board *b);
int rj_get(const rj_board *b, int x, int y);
void rj_stones(const rj_board *b, uint8_t *out);
int rj_history(const rj_board *b, int16_t *xs, int16_t *ys, uint8_t *colors);
int rj_play(rj_board *b, int x, int y);
int rj_put(rj_board *b, int x, int y, int color);
int rj_board_load(rj_board *b, const uint8_t *grid, int to_move);
int rj_undo(rj_board *b);
int rj_set_to_move(rj_board *b, int color);
int rj_wins_at(const rj_board *b, int x, int y, int color);
void rj_patterns(const rj_board *b, int color, uint8_t *out);
void rj_pattern_counts(const rj_board *b, int color, int32_t *out);
int rj_board_check(const rj_board *b);
void rj_board_recompute(rj_board *b);

int rj_foul(rj_board *b, int x, int y);
int rj_forbidden_points(rj_board *b, uint8_t *out);

int rj_defence_set(rj_board *b, int16_t *xs, int16_t *ys);
int rj_attack_set(rj_board *b, int16_t *xs, int16_t *ys, int *pure);
int rj_unified_set(rj_board *b, int16_t *xs, int16_t *ys);
int rj_threat(rj_board *b, int color);
int rj_filter_moves(rj_board *b, int radius, int16_t *xs, int16_t *ys);

typedef struct {
    int value;
    int depth;
    int aborted;
    int64_t nodes;
    double ms;
    int line_len;
    int16_t line_x[256];
    int16_t line_y[256];
} rj_proof;
typedef struct rj_prover rj_prover;
rj_prover *rj_prover_new(int tt_bits);
void rj_prover_free(rj_prover *p);
void rj_prover_clear(rj_prover *p);
size_t rj_prover_memory(const rj_prover *p);
int rj_prove(rj_prover *p, rj_board *b, int kind, int max_depth, int threat_depth, int64_t max_nodes, double max_ms,
             rj_proof *out);
typedef struct {
    int result;
    int64_t or_nodes, and_nodes, replies, vcf_leaves, nodes;
    double ms;
    int line_len;
    int16_t line_x[256];
    int16_t line_y[256];
} rj_verification;
int rj_vct_verify(rj_prover *p, rj_board *b, int max_depth, int quiet, int64_t max_nodes, double max_ms,
                  rj_verification *out);
int rj_filter_threats(rj_prover *p, rj_board *b, int radius, int vcf_depth, int64_t max_nodes, int16_t *xs,
                      int16_t *ys, int *threatened);

int rj_planes(rj_board *b, float *out);
int rj_planes_version(rj_board *b, int version, float *out);
int rj_puct_select(const float *prior, const float *visits, const float *value_sum, const int8_t *proven, int k,
                   float c_puct, float fpu);
int rj_point_scores(rj_board *b, int32_t *out);

typedef struct {
    float c_puct, fpu, virtual_loss;
    int radius;
    int move_filter;
    int utss;
    int utss_plies;
    int utss_plies_own;
    int utss_depth, utss_depth_ply1;
    int64_t utss_nodes, utss_nodes_ply1;
    int threat_vcf_depth;
    int64_t threat_nodes;
    int transpositions;
    int transposition_q;
    int draw_stones;
    int draw_fade;
    int feature_version;
} rj_tree_config;
typedef struct {
    int32_t first;
    int32_t n;
    int32_t visits;
    int8_t proven;
    uint8_t flags;
    int16_t win_x, win_y;
    float net_value;
    uint64_t hash;
} rj_tree_node;
typedef struct {
    int16_t *x, *y;
    float *prior, *visits, *value;
    int8_t *proven;
    int32_t *child;
} rj_tree_edges;
typedef struct rj_tree rj_tree;
rj_tree *rj_tree_new(void);
void rj_tree_free(rj_tree *t);
void rj_tree_reset(rj_tree *t);
int32_t rj_tree_root(const rj_tree *t);
int32_t rj_tree_nodes(const rj_tree *t);
size_t rj_tree_memory(const rj_tree *t);
rj_tree_node *rj_tree_node_at(rj_tree *t, int32_t id);
void rj_tree_edges_of(rj_tree *t, rj_tree_edges *out);
int32_t rj_tree_child(rj_tree *t, int32_t node, int i);
int rj_tree_advance(rj_tree *t, int x, int y);
void rj_tree_compact(rj_tree *t);
int rj_tree_gather(rj_tree *t, rj_board *b, rj_prover *p, const rj_tree_config *cfg, int batch, float *planes,
                   int *playouts, int *root_pick);
int rj_tree_leaf_path(const rj_tree *t, int j, int16_t *xs, int16_t *ys);
void rj_tree_apply(rj_tree *t, const rj_tree_config *cfg, const float *logits, const float *values, int size);
void rj_tree_cancel(rj_tree *t);
void rj_tree_prove_child(rj_tree *t, int32_t node, int i, int value, int win_x, int win_y);
int64_t rj_tree_utss_calls(const rj_tree *t, int ply);
int64_t rj_tree_transpositions(const rj_tree *t);
int32_t rj_tree_find(const rj_tree *t, uint64_t key);
int rj_alphabeta(rj_board *b, int max_depth, double max_ms, int16_t *x, int16_t *y, int *depth_reached,
                 int64_t *nodes, int *value);
int rj_rollout(rj_board *b, uint64_t seed, int max_moves);

double rj_bench_play_undo(rj_board *b, const int16_t *xs, const int16_t *ys, int n, int rounds);
double rj_bench_probe(rj_board *b, const int16_t *xs, const int16_t *ys, int n, int rounds);
double rj_bench_forbidden(rj_board *b, int rounds);
double rj_bench_recompute(rj_board *b, int rounds);
double rj_bench_table_build(int rule, int rounds);
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "engine._native",
    '#include "renju.h"',
    sources=SOURCES,
    include_dirs=[str((HERE / "include").relative_to(ROOT))],
    # MSVC on Windows, gcc/clang elsewhere; `make cwarn` holds the sources to -Wall -Wextra -Werror.
    extra_compile_args=["/O2", "/std:c11"] if sys.platform == "win32" else ["-std=c11", "-O2", "-Wall", "-Wextra"],
    libraries=[] if sys.platform == "win32" else ["m"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
