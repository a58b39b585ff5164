/*
 * vct.c — the VCT prover (vct.h) and the verifier of its proofs (renju.h, rj_vct_verify).
 * Probe moves go through rj_probe_stone and are always taken back.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <string.h>

#include "vct.h"

#define KEY_VCT 0xc2b2ae3d27d4eb4full
/* Fours a node's VCF check may spend: a VCF that deep is rare, and the check is only a shortcut
 * (a node whose check gives up is expanded as any other). */
#define VCT_VCF_DEPTH 30
/* The longest VCF a quiet block may threaten, in fours. */
#define VCT_THREAT_FOURS 8

/* Table keys of one proof: its attacker, its stone limit and whether the defender's fours count. */
static uint64_t vct_salt(int attacker, int stone_limit, int direct)
{
    return KEY_VCT ^ (uint64_t)attacker * 0x9E3779B97F4A7C15ull ^ (uint64_t)(stone_limit + 1) * 0xBF58476D1CE4E5B9ull ^
           (direct ? 0x94D049BB133111EBull : 0);
}

/* A VCF of `color` within VCT_VCF_DEPTH fours and s->vcf_cap nodes (line in s->pv[ply]). A check
 * that reaches its cap answers no. */
static int vcf_check(struct search *s, int color, int ply)
{
    /* within the line's stone limit: a VCF of k fours takes 2k - 1 more stones */
    int left = (s->stone_limit - s->b->nstones + 1) / 2;
    return rj_capped_vcf(s, color, left < VCT_VCF_DEPTH ? left : VCT_VCF_DEPTH, s->vcf_cap, ply);
}

/* The most fours a quiet move's threatened VCF may take here: VCT_THREAT_FOURS, within the line's
 * stone limit. */
static int threat_fours(const struct search *s)
{
    const int left = (s->stone_limit - s->b->nstones) / 2;
    return left < VCT_THREAT_FOURS ? left : VCT_THREAT_FOURS;
}

/* The attacker's block `o` made no four or three: it holds only if it threatens a VCF (of at
 * most VCT_THREAT_FOURS fours), which the defender (to move) answers (rj_vcf_answers). Returns as
 * vct_moves does. */
static int vcf_threat_answers(struct search *s, int o, int ply, rj_list *moves)
{
    int threat = rj_capped_vcf(s, o, threat_fours(s), s->vcf_cap, ply + 1);
    if (!threat || s->aborted)
        return -1;
    return rj_vcf_answers(s, threat_fours(s), s->vcf_cap, ply, moves);
}

/* The moves of a node, or its value when the position settles it: 1 the attacker wins, -1 it
 * does not (within fours and threes and the stone limit), 0 open with `moves` to search. An
 * attacker node settled by its VCF check leaves the VCF's line in s->pv[ply]. */
static int vct_moves(struct search *s, int attacker, int ply, rj_list *moves)
{
    rj_board *b = s->b;
    const int c = b->to_move, o = 3 - c, or_node = c == attacker;
    moves->n = 0;
    if (first_point(b, c, RJ_SET_FIVE) >= 0)
        return or_node ? 1 : -1;
    const int level = rj_threat_of(b, o); /* what the side to move faces */
    if (level == 3)
        return or_node ? -1 : 1;
    if (level == 2) { /* a four: its five point is the only move, and a foul there loses */
        int q = first_point(b, o, RJ_SET_FIVE);
        if (!rj_legal_for(b, c, q))
            return or_node ? -1 : 1;
        if (b->nstones >= s->stone_limit)
            return -1;
        moves->pos[moves->n++] = (int16_t)q;
        return 0;
    }
    if (b->nstones >= s->stone_limit)
        return -1;
    rj_points seen = {{0}};
    if (or_node) {
        if (vcf_check(s, c, ply))
            return 1;
        if (s->aborted)
            return -1;
        /* a playable straight four would have been the VCF: plain fours only */
        RJ_FOR_SET(b, c, RJ_SET_FOUR, pos, if (rj_legal_for(b, c, pos)) rj_push_unique(moves, &seen, pos));
        if (level == 0) {
            RJ_FOR_SET(b, c, RJ_SET_THREE, pos, if (rj_legal_for(b, c, pos)) rj_push_unique(moves, &seen, pos));
        } else { /* the defender has a three: fours, or a block (which must threaten a VCF) */
            rj_list d;
            rj_defence(b, &d);
            for (int i = 0; i < d.n; i++)
                rj_push_unique(moves, &seen, d.pos[i]);
        }
        rj_order_moves(b, c, moves, 0);
        return moves->n ? 0 : -1;
    }
    if (vcf_check(s, c, ply)) /* the defender's own VCF outruns a three or a quiet threat */
        return -1;
    if (s->aborted)
        return -1;
    if (level == 0) /* the attacker's last move, a block, made no four or three */
        return vcf_threat_answers(s, o, ply, moves);
    rj_defence(b, moves);
    if (s->direct) /* no delaying fours: the search that settles in a fraction of the nodes */
        return moves->n ? 0 : 1;
    for (int i = 0; i < moves->n; i++)
        rj_points_add(&seen, moves->pos[i]);
    RJ_FOR_SET(b, c, RJ_SET_LIVE4, pos, if (rj_legal_for(b, c, pos)) rj_push_unique(moves, &seen, pos));
    RJ_FOR_SET(b, c, RJ_SET_FOUR, pos, if (rj_legal_for(b, c, pos)) rj_push_unique(moves, &seen, pos));
    return moves->n ? 0 : 1;
}

/* The node's move list, from the cache when this proof made it before. */
static int node_moves(struct search *s, int attacker, int ply, uint64_t key, rj_list *moves)
{
    struct mc_entry *cached = &s->mc[key & (((uint64_t)1 << MC_BITS) - 1)];
    if (cached->key == key && cached->gen == s->gen && cached->fukumi == 2) {
        moves->n = cached->n;
        memcpy(moves->pos, cached->pos, (size_t)cached->n * sizeof moves->pos[0]);
        return 0;
    }
    int settled = vct_moves(s, attacker, ply, moves);
    if (!settled && !s->aborted && moves->n <= MC_MOVES) {
        cached->key = key;
        cached->gen = s->gen;
        cached->n = (uint8_t)moves->n;
        cached->fukumi = 2; /* a VCT list, never taken for df-pn's */
        memcpy(cached->pos, moves->pos, (size_t)moves->n * sizeof moves->pos[0]);
    }
    return settled;
}

/* Multiple iterative deepening at one node, until its proof or disproof number reaches its
 * threshold or a budget runs out; stores and returns both numbers. */
static void mid(struct search *s, int attacker, int ply, uint32_t thpn, uint32_t thdn, uint32_t *out_pn,
                uint32_t *out_dn)
{
    rj_board *b = s->b;
    const uint64_t salt = s->salt, key = b->hash ^ salt;
    *out_pn = *out_dn = 1;
    if (out_of_budget(s)) {
        rj_pn_find(s, key, out_pn, out_dn);
        return;
    }
    rj_list moves;
    int settled = node_moves(s, attacker, ply, key, &moves);
    if (s->aborted) {
        rj_pn_find(s, key, out_pn, out_dn);
        return;
    }
    if (settled) {
        *out_pn = settled > 0 ? 0 : RJ_PN_INF;
        *out_dn = settled > 0 ? RJ_PN_INF : 0;
        rj_pn_store(s, key, *out_pn, *out_dn);
        return;
    }
    const int or_node = b->to_move == attacker;
    uint32_t pn = 1, dn = 1;
    for (;;) {
        struct rj_pn_pick pick;
        const int more = rj_pn_select(s, &moves, or_node, thpn, thdn, &pick);
        pn = pick.pn;
        dn = pick.dn;
        if (!more)
            break;
        const int best = pick.best;
        const uint32_t cthpn = pick.cthpn, cthdn = pick.cthdn;
        uint32_t cpn, cdn;
        probe(b, moves.pos[best]);
        mid(s, attacker, ply + 1, cthpn, cthdn, &cpn, &cdn);
        unprobe(b, moves.pos[best]);
        if (s->aborted)
            break;
    }
    rj_pn_store(s, key, pn, dn);
    *out_pn = pn;
    *out_dn = dn;
}

/* A proven child of the node (the first in move order), or -1 when the table no longer holds
 * one. An open node's list is made afresh. */
static int proven_child(struct search *s, int attacker, int ply)
{
    rj_list moves;
    if (vct_moves(s, attacker, ply, &moves) != 0 || s->aborted)
        return -1;
    for (int i = 0; i < moves.n; i++) {
        uint32_t cpn, cdn;
        if (rj_pn_find(s, rj_pn_child_key(s->b, moves.pos[i], s->salt), &cpn, &cdn) && cpn == 0)
            return moves.pos[i];
    }
    return -1;
}

/* After a proof: its line, read back from the table into s->pv[0] and finished to the five. */
static void read_line(struct search *s, int attacker)
{
    rj_board *b = s->b;
    int16_t line[RJ_MAX_LINE_PLIES];
    int n = 0;
    while (n < RJ_MAX_VCT_PLIES) {
        rj_list moves;
        int settled = vct_moves(s, attacker, n, &moves);
        if (s->aborted)
            break;
        if (settled > 0 && b->to_move == attacker) { /* the VCF check settled it: its line */
            for (int i = 0; i < s->pv_len[n] && n + i < RJ_MAX_LINE_PLIES - 8; i++)
                line[n + i] = s->pv[n][i];
            int added = s->pv_len[n];
            for (int i = 0; i < n; i++)
                unprobe(b, line[n - 1 - i]);
            memcpy(s->pv[0], line, (size_t)(n + added) * sizeof line[0]);
            s->pv_len[0] = n + added;
            rj_complete_line(s, attacker);
            return;
        }
        if (settled != 0)
            break;
        int m = proven_child(s, attacker, n);
        if (m < 0)
            break;
        line[n++] = (int16_t)m;
        probe(b, m);
    }
    for (int i = n - 1; i >= 0; i--)
        unprobe(b, line[i]);
    memcpy(s->pv[0], line, (size_t)n * sizeof line[0]);
    s->pv_len[0] = n;
    rj_complete_line(s, attacker);
}

int rj_vct_prove(struct search *s)
{
    const int attacker = s->b->to_move;
    s->salt = vct_salt(attacker, s->stone_limit, s->direct);
    uint32_t pn, dn;
    mid(s, attacker, 0, RJ_PN_INF, RJ_PN_INF, &pn, &dn);
    s->pv_len[0] = 0;
    if (pn != 0)
        return 0;
    const int aborted = s->aborted;
    s->aborted = 0;
    read_line(s, attacker);
    s->aborted = aborted;
    return 1;
}

/* ---- the verifier ---------------------------------------------------------------------- */

/* Nodes a leaf's VCF may spend: the verifier trusts the VCF prover, not the VCT's pruning. */
#define VERIFY_VCF_DEPTH 60
#define VERIFY_VCF_NODES 200000

struct verify {
    rj_prover *p;
    rj_board *b;
    int stone_limit;
    uint32_t gen;
    int64_t nodes, max_nodes;
    double deadline_ns;
    rj_verification *out;
    int depth;
    int16_t path[RJ_MAX_LINE_PLIES];
};

static int verify_spent(struct verify *v)
{
    return (v->max_nodes > 0 && v->nodes >= v->max_nodes) || (v->deadline_ns > 0 && rj_now_ns() >= v->deadline_ns);
}

static void note_failure(struct verify *v)
{
    rj_verification *o = v->out;
    if (o->line_len)
        return;
    o->line_len = v->depth;
    for (int i = 0; i < v->depth; i++) {
        o->line_x[i] = (int16_t)rj_pos_x(v->path[i]);
        o->line_y[i] = (int16_t)rj_pos_y(v->path[i]);
    }
}

static int verify_and(struct verify *v);

/* The attacker to move: a five, a VCF, or the VCT prover's proven move and every reply to it. */
static int verify_or(struct verify *v)
{
    rj_board *b = v->b;
    const int c = b->to_move;
    v->out->or_nodes++;
    if (verify_spent(v) || v->depth >= RJ_MAX_LINE_PLIES - 90)
        return -1;
    if (first_point(b, c, RJ_SET_FIVE) >= 0)
        return 1;
    struct search *s = rj_start_search(v->p, b, VERIFY_VCF_NODES, 0, 0);
    int found = rj_has_vcf(s, c, VERIFY_VCF_DEPTH, 0);
    v->nodes += s->nodes;
    if (found) {
        v->out->vcf_leaves++;
        return 1;
    }
    s = rj_start_search(v->p, b, v->max_nodes > 0 ? v->max_nodes - v->nodes : 0, 0, 0);
    s->deadline_ns = v->deadline_ns;
    s->stone_limit = v->stone_limit;
    s->vcf_cap = RJ_VCT_VCF_CAP;
    s->mc = v->p->mc;
    s->gen = v->gen;
    s->salt = vct_salt(c, v->stone_limit, 0);
    uint32_t pn, dn;
    mid(s, c, 0, RJ_PN_INF, RJ_PN_INF, &pn, &dn);
    v->nodes += s->nodes;
    if (s->aborted)
        return -1;
    if (pn != 0) {
        note_failure(v);
        return 0;
    }
    int m = proven_child(s, c, 0);
    if (m < 0)
        return -1;
    v->path[v->depth++] = (int16_t)m;
    probe(b, m);
    int r = verify_and(v);
    unprobe(b, m);
    v->depth--;
    return r;
}

/* The defender to move: every legal move of the board must lose. */
static int verify_and(struct verify *v)
{
    rj_board *b = v->b;
    const int c = b->to_move;
    v->out->and_nodes++;
    if (first_point(b, c, RJ_SET_FIVE) >= 0) {
        note_failure(v);
        return 0;
    }
    int replies = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int q = rj_pos(x, y);
            if (!rj_legal_for(b, c, q))
                continue;
            replies++;
            v->out->replies++;
            v->path[v->depth++] = (int16_t)q;
            probe(b, q);
            int r = verify_or(v);
            unprobe(b, q);
            v->depth--;
            if (r != 1)
                return r;
        }
    if (!replies) { /* a full board (or only fouls left): not a win */
        note_failure(v);
        return 0;
    }
    return 1;
}

int rj_vct_verify(rj_prover *p, rj_board *b, int max_depth, int64_t max_nodes, double max_ms, rj_verification *out)
{
    memset(out, 0, sizeof *out);
    if (b->result != RJ_ONGOING)
        return RJ_E_GAMEOVER;
    const double t0 = rj_now_ns();
    struct verify v = {.p = p, .b = b, .max_nodes = max_nodes > 0 ? max_nodes : 0,
                       .deadline_ns = max_ms > 0 ? t0 + max_ms * 1e6 : 0, .out = out};
    if (max_depth < 1)
        max_depth = 1;
    if (max_depth > RJ_MAX_VCT_PLIES)
        max_depth = RJ_MAX_VCT_PLIES;
    v.stone_limit = b->nstones + max_depth;
    v.gen = ++p->gen;
    if (v.gen == 0) {
        memset(p->mc, 0, ((size_t)1 << MC_BITS) * sizeof *p->mc);
        v.gen = p->gen = 1;
    }
    out->result = verify_or(&v);
    out->nodes = v.nodes;
    out->ms = (rj_now_ns() - t0) / 1e6;
    return RJ_OK;
}
