/*
 * search.h — the provers' shared internals (prover.c, vct.c): the transposition table, the
 * reusable search state with its budgets and principal-variation table, and probe moves. Private
 * to the native core.
 */
#ifndef RJ_SEARCH_H
#define RJ_SEARCH_H

#include <stdint.h>

#include "board.h"
#include "clock.h"
#include "prover.h"
#include "threats.h"

/* Transposition table entry. Proven values hold at any depth; DRAW and a failed VCF hold for
 * searches no deeper than `depth`. */
struct tt_entry {
    uint64_t key;
    union {
        struct { /* VCF and UTSS */
            int8_t value;
            uint8_t depth;
            int16_t move;
            uint32_t pad;
        };
        struct { /* df-pn: proof and disproof numbers */
            uint32_t pn, dn;
        };
    };
};

struct search;

/* df-pn's move lists by position, for the nodes it enters again: proof-number search returns to
 * the same open nodes many times over, and a node's moves (the attacker's threats, with the quiet
 * ones found by trying each for a VCF; the defences against a quiet move's VCF) cost far more
 * than the node itself. Valid within one proof (`gen`) and for nodes on the same side of the
 * fukumi ply, so a list is the one dfpn_moves would make; a list longer than MC_MOVES is not kept.
 * 2^16 entries of 104 bytes (6.8 MB). */
#define MC_BITS 16
#define MC_MOVES 44
struct mc_entry {
    uint64_t key;
    uint32_t gen;
    uint8_t n;
    uint8_t fukumi; /* made at a ply that adds fukumi moves to the attacker's (dfpn_moves) */
    int16_t pos[MC_MOVES];
};

struct rj_prover {
    int bits;
    struct tt_entry *tt;
    struct search *scratch; /* one search state, reused: it is large (the PV table) */
    struct mc_entry *mc;
    uint32_t gen;
};

struct search {
    rj_board *b;
    struct tt_entry *tt;
    uint64_t mask;
    int64_t nodes, max_nodes;
    double deadline_ns;
    int aborted;
    int threat_depth; /* longest VCF a quiet attack may threaten (a three threatens one four) */
    int exact;        /* tell draws from unknowns: no stop at a node's first holding move */
    int max_ply; /* df-pn: the deepest ply a line may reach */
    uint64_t salt; /* df-pn: the proof's key namespace */
    struct mc_entry *mc; /* df-pn: the move lists of this proof's nodes (those with s->gen) */
    uint32_t gen;
    int stone_limit;  /* VCT: a line ends unproven where the board holds this many stones */
    int64_t vcf_cap;  /* VCT: nodes one VCF check of a node may spend */
    int direct;       /* VCT: a three is answered only by the points that stop it (RJ_PROVE_VCT_DIRECT) */
    int quiet_plies;  /* VCT3: the attacker may play quiet threats at plies below this (0: none) */
    int64_t threat_cap; /* VCT3: nodes the VCT behind one quiet threat may spend */
    uint64_t vct_base;  /* VCT: the proof's key namespace; VCT3 nodes salt it by their ply */
    int pn_slack;       /* proof-number search: a child's threshold passes the second-best sibling by 1/pn_slack */
    int vcf_cut;      /* VCF: the search below stopped somewhere at its depth limit (see vcf) */
    int16_t pv[RJ_MAX_LINE_PLIES][RJ_MAX_LINE_PLIES]; /* triangular principal-variation table */
    int pv_len[RJ_MAX_LINE_PLIES];
};

#define KEY_VCF 0x5bd1e9955bd1e995ull
#define KEY_UTSS 0x27d4eb2f165667c5ull

static inline int out_of_budget(struct search *s)
{
    if (s->aborted)
        return 1;
    /* the node cap at every node; the clock, dearer than a node, only every RJ_BUDGET_CHECK nodes */
    if (++s->nodes >= s->max_nodes && s->max_nodes > 0)
        s->aborted = 1;
    else if (s->nodes % RJ_BUDGET_CHECK == 0 && s->deadline_ns > 0 && rj_now_ns() >= s->deadline_ns)
        s->aborted = 1;
    return s->aborted;
}

static inline struct tt_entry *tt_slot(struct search *s, uint64_t key) { return &s->tt[key & s->mask]; }

/* A probe move for the side to move, and its undo. */
static inline void probe(rj_board *b, int pos)
{
    rj_probe_stone(b, pos, b->to_move);
    b->to_move = 3 - b->to_move;
    b->hash ^= RJ_ZOBRIST_WHITE_TO_MOVE;
}

static inline void unprobe(rj_board *b, int pos)
{
    rj_probe_stone(b, pos, RJ_EMPTY);
    b->to_move = 3 - b->to_move;
    b->hash ^= RJ_ZOBRIST_WHITE_TO_MOVE;
}

static inline void pv_set(struct search *s, int ply, int move, int child_len)
{
    s->pv[ply][0] = (int16_t)move;
    for (int i = 0; i < child_len && i + 1 < RJ_MAX_LINE_PLIES; i++)
        s->pv[ply][i + 1] = s->pv[ply + 1][i];
    s->pv_len[ply] = child_len + 1 < RJ_MAX_LINE_PLIES ? child_len + 1 : RJ_MAX_LINE_PLIES;
}

/* The single point of a set, or -1 if it has none or several. */
static inline int only_point(rj_board *b, int color, int set)
{
    int found = -1, count = 0;
    RJ_FOR_SET(b, color, set, pos, {
        found = pos;
        count++;
    });
    return count == 1 ? found : -1;
}

static inline int first_point(rj_board *b, int color, int set)
{
    RJ_FOR_SET(b, color, set, pos, return pos);
    return -1;
}

/* Does c's stone at pos make more than a single three or four (a straight or double four, a
 * five, or threats on two lines)? */
static inline int two_threats(const rj_board *b, int color, int pos)
{
    int lines = 0;
    for (int d = 0; d < 4; d++) {
        int t = rj_pat(b, pos, d, color);
        if (t == RJ_PT_LIVE3 || t == RJ_PT_DEAD4)
            lines++;
        else if (t >= RJ_PT_LIVE4 || t == RJ_PT_FORBID)
            return 1;
    }
    return lines >= 2;
}

/* Did a budget of the whole proof (max_nodes, or the deadline) run out, not only a check's own cap? */
static inline int rj_budget_spent(const struct search *s, int64_t max_nodes)
{
    return (max_nodes > 0 && s->nodes >= max_nodes) || (s->deadline_ns > 0 && rj_now_ns() >= s->deadline_ns);
}

static inline void rj_push_unique(rj_list *l, rj_points *seen, int pos)
{
    if (!rj_points_has(seen, pos) && l->n < RJ_MAX_LIST) {
        rj_points_add(seen, pos);
        l->pos[l->n++] = (int16_t)pos;
    }
}

/* Would `color` have a VCF of at most `depth` fours if it were to move now? The line is left in
 * s->pv[ply]; the side to move is restored (prover.c). */
int rj_has_vcf(struct search *s, int color, int depth, int ply);
/* A VCF of `color` within `fours` fours, its search capped at `cap` nodes (0: none): a search that
 * reaches its cap (not the proof's budget) answers no. The line is left in s->pv[ply] (prover.c). */
int rj_capped_vcf(struct search *s, int color, int fours, int64_t cap, int ply);
/* The side to move faces the opponent's VCF whose line (of at most `max_fours` fours) a search
 * left in s->pv[ply + 1], threatened by a quiet move: its answers are its fours and every point
 * after which no VCF of the opponent's is left (VCF searches capped at `cap` nodes; one that
 * gives up keeps the point). Points that touch none of the line's lines (beyond 5 along them)
 * cannot break it and are not tried, except for Renju black, whose distant stone can change
 * which of its blocks are fouls. Returns 0 with answers, 1 with none (the threat wins), -1 when
 * the proof's budget ran out (prover.c). */
int rj_vcf_answers(struct search *s, int max_fours, int64_t cap, int ply, rj_list *moves);
/* Extends the line in s->pv[0], a proof for `attacker`, to the five (prover.c). */
void rj_complete_line(struct search *s, int attacker);
/* Stable sort of moves[start..n) for `color`, the likely decisive first: two threats at once,
 * fours, then the lines the stone builds and breaks (prover.c). */
void rj_order_moves(const rj_board *b, int color, rj_list *moves, int start);
/* Proof-number search's shared parts (prover.c: df-pn; vct.c: the VCT prover). Table entries
 * hold a position's proof and disproof numbers; RJ_PN_INF is proven the other way. */
#define RJ_PN_INF 100000000u
struct rj_pn_pick {
    uint32_t pn, dn;       /* the node's numbers */
    int best;              /* the child to search next */
    uint32_t cthpn, cthdn; /* its thresholds */
};
int rj_pn_find(struct search *s, uint64_t key, uint32_t *pn, uint32_t *dn);
void rj_pn_store(struct search *s, uint64_t key, uint32_t pn, uint32_t dn);
/* The key of the position after `pos` is played, without playing it. */
uint64_t rj_pn_child_key(const rj_board *b, int pos, uint64_t salt);
int rj_pn_select(struct search *s, const rj_list *moves, int or_node, uint32_t thpn, uint32_t thdn,
                 struct rj_pn_pick *out);
/* The prover's reusable search state, reset for a new proof of b. */
struct search *rj_start_search(rj_prover *p, rj_board *b, int64_t max_nodes, double max_ms, double t0);

#endif
