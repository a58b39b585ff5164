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

/* VCT3's nodes, up to the answers to the last quiet threat a line may hold, have lists that
 * depend on their ply: their keys are salted by it. */
#define KEY_VCT3 0xD6E8FEB86659FD93ull
/* Quiet candidates a VCT3 node tries for a threat (the best by the lines they build), and the
 * nodes the walk of one threat's proof (its reach) may visit. */
#define VCT3_CANDIDATES 16
#define VCT3_REACH_NODES 4000
/* Nodes the read-back of a VCT3 line may spend past the proof's budgets: its nodes' checks find
 * their answers in the table, but a spent budget would stop them at once. */
#define VCT3_LINE_NODES 50000

static uint64_t node_salt(const struct search *s, int ply)
{
    return s->quiet_plies > 0 && ply <= s->quiet_plies ? s->vct_base ^ (uint64_t)(s->quiet_plies + 1 - ply) * KEY_VCT3
                                                       : s->vct_base;
}

static void mid(struct search *s, int attacker, int ply, uint32_t thpn, uint32_t thdn, uint32_t *out_pn,
                uint32_t *out_dn);
static int node_moves(struct search *s, int attacker, int ply, uint64_t key, rj_list *moves);

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

/* ---- VCT3: quiet threats (vct.h) ------------------------------------------------------- */

/* Does the attacker, to move, win by a plain VCT here within s->threat_cap nodes? Its table
 * entries stay for proof_reach. A check that reaches its cap answers no. */
static int capped_vct(struct search *s, int attacker, int ply)
{
    const int quiet = s->quiet_plies;
    const int64_t saved = s->max_nodes, until = s->nodes + s->threat_cap;
    if (s->threat_cap > 0 && (saved <= 0 || until < saved))
        s->max_nodes = until;
    s->quiet_plies = 0;
    uint32_t pn, dn;
    mid(s, attacker, ply, RJ_PN_INF, RJ_PN_INF, &pn, &dn);
    s->quiet_plies = quiet;
    s->max_nodes = saved;
    if (s->aborted && !rj_budget_spent(s, saved))
        s->aborted = 0;
    return pn == 0 && !s->aborted;
}

static void pass(rj_board *b)
{
    b->to_move = 3 - b->to_move;
    b->hash ^= RJ_ZOBRIST_WHITE_TO_MOVE;
}

/* The defender (to move) passes: would the attacker then win by a plain VCT? */
static int pass_vct(struct search *s, int attacker, int ply)
{
    pass(s->b);
    const int won = capped_vct(s, attacker, ply);
    pass(s->b);
    return won;
}

/* How much a quiet stone of c at pos builds: its lines' live twos and dead threes (and dead twos). */
static int quiet_score(const rj_board *b, int c, int pos)
{
    static const int weight[RJ_PT_COUNT] = {[RJ_PT_DEAD2] = 1, [RJ_PT_LIVE2] = 3, [RJ_PT_DEAD3] = 2};
    int score = 0;
    for (int d = 0; d < 4; d++)
        score += weight[rj_pat(b, pos, d, c)];
    return score;
}

/* The attacker's quiet threats at an OR node: of the VCT3_CANDIDATES points that build the most
 * (quiet_score >= 2), those after which, were the defender to pass, the attacker wins by VCT. */
static void add_quiet_threats(struct search *s, int attacker, int ply, rj_list *moves, rj_points *seen)
{
    rj_board *b = s->b;
    const int c = b->to_move;
    int16_t cand[VCT3_CANDIDATES];
    int score[VCT3_CANDIDATES], n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            const int q = rj_pos(x, y);
            if (b->cell[q] != RJ_EMPTY || rj_points_has(seen, q))
                continue;
            const int sc = quiet_score(b, c, q);
            if (sc < 2 || (n == VCT3_CANDIDATES && sc <= score[n - 1]) || !rj_legal_for(b, c, q))
                continue;
            int i = n < VCT3_CANDIDATES ? n++ : n - 1; /* insertion, best first */
            for (; i > 0 && score[i - 1] < sc; i--) {
                cand[i] = cand[i - 1];
                score[i] = score[i - 1];
            }
            cand[i] = (int16_t)q;
            score[i] = sc;
        }
    for (int i = 0; i < n && !s->aborted; i++) {
        probe(b, cand[i]);
        const int threat = pass_vct(s, attacker, ply + 2);
        unprobe(b, cand[i]);
        if (threat)
            rj_push_unique(moves, seen, cand[i]);
    }
}

/* The empty points of c's lines through pos that the stone there builds on (a live two or more):
 * a defender stone there changes what the move makes. */
static void add_window(const rj_board *b, int c, int pos, rj_points *reach)
{
    rj_points_add(reach, pos);
    for (int d = 0; d < 4; d++) {
        const int t = rj_pat(b, pos, d, c);
        if (t < RJ_PT_LIVE2 || t == RJ_PT_OVERLINE)
            continue;
        for (int side = -1; side <= 1; side += 2)
            for (int k = 1; k <= 4; k++) {
                const int q = pos + side * k * RJ_DIR[d], cell = b->cell[q];
                if (cell != RJ_EMPTY && cell != c)
                    break;
                if (cell == RJ_EMPTY)
                    rj_points_add(reach, q);
            }
    }
}

/* A line from the side to move (a VCF's: attacker fours, forced blocks), played out with the
 * windows of the attacker's moves added to reach. */
static void add_line(rj_board *b, int attacker, const int16_t *line, int len, rj_points *reach)
{
    int played = 0;
    while (played < len && b->cell[line[played]] == RJ_EMPTY) {
        if (b->to_move == attacker)
            add_window(b, attacker, line[played], reach);
        rj_points_add(reach, line[played]);
        probe(b, line[played]);
        played++;
    }
    while (played > 0)
        unprobe(b, line[--played]);
}

/* The reach of the plain VCT proof of the attacker (to move) left in the table: every move of its
 * tree, the windows of the attacker's moves and the lines of its VCF leaves. *budget counts the
 * nodes walked; it goes negative when the walk could not finish (the reach is then incomplete). */
static void proof_reach(struct search *s, int attacker, int ply, rj_points *reach, int *budget)
{
    rj_board *b = s->b;
    if (--*budget < 0 || s->aborted || ply >= RJ_MAX_LINE_PLIES - 70) {
        *budget = -1;
        return;
    }
    rj_list moves;
    const int settled = node_moves(s, attacker, ply, b->hash ^ node_salt(s, ply), &moves);
    if (s->aborted)
        return;
    if (b->to_move == attacker) {
        if (settled > 0) {
            const int five = first_point(b, attacker, RJ_SET_FIVE);
            if (five >= 0)
                rj_points_add(reach, five);
            else
                add_line(b, attacker, s->pv[ply], s->pv_len[ply], reach);
            return;
        }
        int m = -1;
        for (int i = 0; i < moves.n && m < 0 && settled == 0; i++) {
            uint32_t cpn, cdn;
            if (rj_pn_find(s, rj_pn_child_key(b, moves.pos[i], node_salt(s, ply + 1)), &cpn, &cdn) && cpn == 0)
                m = moves.pos[i];
        }
        if (m < 0) { /* the table lost the proof here */
            *budget = -1;
            return;
        }
        add_window(b, attacker, m, reach);
        probe(b, m);
        proof_reach(s, attacker, ply + 1, reach, budget);
        unprobe(b, m);
        return;
    }
    if (settled < 0)
        *budget = -1;
    if (settled)
        return;
    for (int i = 0; i < moves.n && *budget >= 0; i++) {
        rj_points_add(reach, moves.pos[i]);
        probe(b, moves.pos[i]);
        proof_reach(s, attacker, ply + 1, reach, budget);
        unprobe(b, moves.pos[i]);
    }
}

/* The defender (to move) faces the attacker's quiet move, a threat of a VCT: its answers are its
 * fours and threes and the points of that VCT's reach; where the walk of the proof could not
 * finish, every move within 2 of a stone. Returns as vct_moves does. */
static int vct_threat_answers(struct search *s, int attacker, int ply, rj_list *moves)
{
    rj_board *b = s->b;
    const int c = b->to_move;
    if (!pass_vct(s, attacker, ply + 1))
        return -1;
    rj_points reach = {{0}}, seen = {{0}};
    int budget = VCT3_REACH_NODES;
    const int quiet = s->quiet_plies;
    s->quiet_plies = 0;
    pass(b);
    proof_reach(s, attacker, ply + 1, &reach, &budget);
    pass(b);
    s->quiet_plies = quiet;
    if (s->aborted)
        return -1;
    moves->n = 0;
    RJ_FOR_SET(b, c, RJ_SET_LIVE4, pos, if (rj_legal_for(b, c, pos)) rj_push_unique(moves, &seen, pos));
    RJ_FOR_SET(b, c, RJ_SET_FOUR, pos, if (rj_legal_for(b, c, pos)) rj_push_unique(moves, &seen, pos));
    RJ_FOR_SET(b, c, RJ_SET_THREE, pos, if (rj_legal_for(b, c, pos)) rj_push_unique(moves, &seen, pos));
    if (budget < 0) {
        rj_list near;
        rj_filter(b, 2, &near);
        for (int i = 0; i < near.n; i++)
            rj_push_unique(moves, &seen, near.pos[i]);
    } else {
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                const int q = rj_pos(x, y);
                if (rj_points_has(&reach, q) && b->cell[q] == RJ_EMPTY && rj_legal_for(b, c, q))
                    rj_push_unique(moves, &seen, q);
            }
    }
    return moves->n ? 0 : 1;
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
            /* VCT3: quiet threats, where no plain VCT wins already (the lower order first) */
            if (ply < s->quiet_plies && !capped_vct(s, attacker, ply) && !s->aborted)
                add_quiet_threats(s, attacker, ply, moves, &seen);
            if (s->aborted)
                return -1;
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
    if (level == 0) { /* the attacker's last move, a block or a quiet threat, made no four or three */
        const int r = vcf_threat_answers(s, o, ply, moves);
        if (r != -1 || s->aborted || ply > s->quiet_plies)
            return r;
        return vct_threat_answers(s, attacker, ply, moves);
    }
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
    const uint64_t key = b->hash ^ node_salt(s, ply);
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
        s->salt = node_salt(s, ply + 1); /* the children's keys (a search below may have changed it) */
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
    const uint64_t salt = node_salt(s, ply + 1);
    for (int i = 0; i < moves.n; i++) {
        uint32_t cpn, cdn;
        if (rj_pn_find(s, rj_pn_child_key(s->b, moves.pos[i], salt), &cpn, &cdn) && cpn == 0)
            return moves.pos[i];
    }
    return -1;
}

/* A proven child of the node found in the table among every legal move: for VCT3's nodes near
 * the root, whose lists would cost many searches to make again. */
static int table_child(struct search *s, int ply)
{
    rj_board *b = s->b;
    const uint64_t salt = node_salt(s, ply + 1);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            const int q = rj_pos(x, y);
            uint32_t cpn, cdn;
            if (b->cell[q] == RJ_EMPTY && rj_pn_find(s, rj_pn_child_key(b, q, salt), &cpn, &cdn) && cpn == 0 &&
                rj_legal_for(b, b->to_move, q))
                return q;
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
        if (n <= s->quiet_plies && s->quiet_plies > 0) { /* VCT3's first plies */
            if (b->to_move == attacker && vcf_check(s, attacker, n))
                goto vcf_leaf;
            const int m = table_child(s, n);
            if (m < 0)
                break;
            line[n++] = (int16_t)m;
            probe(b, m);
            continue;
        }
        int settled = vct_moves(s, attacker, n, &moves);
        if (s->aborted)
            break;
        if (settled > 0 && b->to_move == attacker) { /* the VCF check settled it: its line */
        vcf_leaf:
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
        if (m < 0 && s->quiet_plies > 0 && !s->aborted) {
            /* the table lost an entry of the proof (VCT3's holds many searches): prove the node again */
            uint32_t pn, dn;
            mid(s, attacker, n, RJ_PN_INF, RJ_PN_INF, &pn, &dn);
            m = pn == 0 ? proven_child(s, attacker, n) : -1;
        }
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
    s->vct_base = vct_salt(attacker, s->stone_limit, s->direct);
    s->pn_slack = RJ_VCT_PN_SLACK;
    uint32_t pn, dn;
    mid(s, attacker, 0, RJ_PN_INF, RJ_PN_INF, &pn, &dn);
    s->pv_len[0] = 0;
    if (pn != 0)
        return 0;
    const int aborted = s->aborted;
    const int64_t max_nodes = s->max_nodes;
    const double deadline = s->deadline_ns;
    s->aborted = 0;
    if (s->quiet_plies > 0) {
        s->max_nodes = s->nodes + VCT3_LINE_NODES;
        s->deadline_ns = 0;
    }
    read_line(s, attacker);
    s->max_nodes = max_nodes;
    s->deadline_ns = deadline;
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
    int quiet_plies; /* 0: the VCT prover's moves; else VCT3's, with quiet threats below this ply */
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

/* The attacker to move: a five, a VCF, or the VCT (or VCT3) prover's proven move and every reply
 * to it. */
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
    s->vct_base = vct_salt(c, v->stone_limit, 0);
    s->pn_slack = RJ_VCT_PN_SLACK;
    s->quiet_plies = v->quiet_plies;
    s->threat_cap = RJ_VCT3_THREAT_CAP;
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

int rj_vct_verify(rj_prover *p, rj_board *b, int max_depth, int quiet, int64_t max_nodes, double max_ms,
                  rj_verification *out)
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
    v.quiet_plies = rj_vct3_quiet_plies(quiet);
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
