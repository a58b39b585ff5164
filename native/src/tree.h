/*
 * tree.h — the MCTS tree in flat arrays: nodes, and each expanded node's children as a run of
 * edges (move, prior, visits, value sum, proven value, child node) stored column by column, so
 * that a node's children are the contiguous arrays rj_puct_select reads. The playout loop —
 * descent under virtual loss, the leaf's proofs, its move filter and input planes, backup and
 * proof propagation — runs here; only the evaluator (the net) stays in Python, between
 * rj_tree_gather and rj_tree_apply. Ids are indices, so the arrays may grow (realloc) at will.
 */
#ifndef RJ_TREE_H
#define RJ_TREE_H

#include "board.h"

/* One leaf of a batch waiting for the evaluator: the path to it and the moves it will expand. */
struct rj_pending {
    int32_t node;
    int len;                       /* path length = the leaf's ply below the root */
    int nmoves;
    float fade;                    /* the leaf's net value is multiplied by this (the draw cap) */
    int32_t path_node[RJ_MAX_MOVES];
    int32_t path_edge[RJ_MAX_MOVES];
    int16_t mx[RJ_MAX_MOVES], my[RJ_MAX_MOVES];
};

struct rj_tree {
    rj_tree_node *node;
    int32_t nnodes, cap_nodes;
    int16_t *ex, *ey;
    float *prior, *visits, *value;
    int8_t *proven;
    int32_t *child;
    int32_t nedges, cap_edges;
    int32_t root;
    int npending;
    float vl;                      /* the virtual loss the waiting leaves carry */
    struct rj_pending *pending;    /* RJ_TREE_MAX_BATCH slots */
    int64_t utss_calls[RJ_TREE_PLY_STATS]; /* leaf proofs by ply since the last reset */
    /* Transpositions: Zobrist key -> an expanded node of that position (open addressing, at most
     * half full; rebuilt when the tree is compacted, emptied when the move filter's settings
     * change, since a node's moves are the filter's). */
    uint64_t *tt_key;              /* 0: an empty slot (a position whose key is 0 is not stored) */
    int32_t *tt_node;
    int32_t tt_cap, tt_count;
    int tt_radius, tt_filter, tt_utss, tt_vcf_depth;
    int64_t tt_vcf_nodes;
    int64_t transpositions;        /* leaves expanded from the table since the last reset */
};

#endif
