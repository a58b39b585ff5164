/*
 * prover.c — VCF and UTSS (see prover.h). Probe moves go through rj_probe_stone and are always
 * taken back, so the board is unchanged when a proof returns, even when a budget runs out.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "forbid.h"
#include "prover.h"
#include "search.h"
#include "threats.h"
#include "vct.h"


rj_prover *rj_prover_new(int tt_bits)
{
    if (tt_bits < 8)
        tt_bits = 8;
    if (tt_bits > 26)
        tt_bits = 26;
    rj_prover *p = malloc(sizeof *p);
    if (!p)
        return NULL;
    p->bits = tt_bits;
    p->tt = calloc((size_t)1 << tt_bits, sizeof *p->tt);
    p->scratch = malloc(sizeof *p->scratch);
    p->mc = calloc((size_t)1 << MC_BITS, sizeof *p->mc);
    p->gen = 0;
    if (!p->tt || !p->scratch || !p->mc) {
        free(p->tt);
        free(p->scratch);
        free(p->mc);
        free(p);
        return NULL;
    }
    return p;
}

void rj_prover_free(rj_prover *p)
{
    if (p) {
        free(p->tt);
        free(p->scratch);
        free(p->mc);
        free(p);
    }
}

void rj_prover_clear(rj_prover *p)
{
    memset(p->tt, 0, ((size_t)1 << p->bits) * sizeof *p->tt);
}

size_t rj_prover_memory(const rj_prover *p)
{
    return sizeof *p + sizeof *p->scratch + ((size_t)1 << p->bits) * sizeof *p->tt +
           ((size_t)1 << MC_BITS) * sizeof *p->mc;
}


/* A move colour c may play: a point of `preferred` if any is legal, else the first legal point
 * of the board. Used to finish a line once the defender is lost anyway. */
static int some_move(rj_board *b, int color, int preferred_set, int owner)
{
    RJ_FOR_SET(b, owner, preferred_set, pos, if (rj_legal_for(b, color, pos)) return pos);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            if (rj_legal_for(b, color, rj_pos(x, y)))
                return rj_pos(x, y);
    return -1;
}

/* The defender (to move) cannot stop the attacker's five points: finish the line with a reply
 * (a block where one is possible) and the attacker's five. */
static void finish_line(struct search *s, int ply)
{
    rj_board *b = s->b;
    const int c = b->to_move, o = 3 - c;
    s->pv_len[ply] = 0;
    int reply = some_move(b, c, RJ_SET_FIVE, o);
    if (reply < 0)
        return;
    probe(b, reply);
    int win = first_point(b, o, RJ_SET_FIVE);
    unprobe(b, reply);
    s->pv[ply][0] = (int16_t)reply;
    s->pv_len[ply] = 1;
    if (win >= 0) {
        s->pv[ply][1] = (int16_t)win;
        s->pv_len[ply] = 2;
    }
}

/* ---- VCF ------------------------------------------------------------------------------- */

/* A VCF search that failed without reaching its depth limit anywhere has no VCF at any depth: its
 * table entry says so, and checks of the positions below (asked again with their own, larger,
 * limits as the VCT and df-pn descend) are answered from it. */
#define VCF_ANY_DEPTH 255

/* Side to move attacks with fours only; `depth` counts its remaining moves. */
static int vcf(struct search *s, int depth, int ply)
{
    rj_board *b = s->b;
    const int c = b->to_move, o = 3 - c;
    s->pv_len[ply] = 0;
    if (ply >= RJ_MAX_LINE_PLIES - 2) {
        s->vcf_cut = 1;
        return 0;
    }
    if (out_of_budget(s))
        return 0;
    int win = first_point(b, c, RJ_SET_FIVE);
    if (win >= 0) {
        pv_set(s, ply, win, 0);
        return 1;
    }
    if (depth <= 0) {
        s->vcf_cut = 1;
        return 0;
    }
    uint64_t key = b->hash ^ KEY_VCF;
    struct tt_entry *e = tt_slot(s, key);
    if (e->key == key && e->value != RJ_PROOF_WIN && e->depth >= depth) {
        s->vcf_cut |= e->depth != VCF_ANY_DEPTH;
        return 0;
    }
    const int outer_cut = s->vcf_cut;
    s->vcf_cut = 0;
    rj_list moves;
    moves.n = 0;
    int forced = -1;
    if (rj_set_size(b, o, RJ_SET_FIVE)) { /* o threatens five: block it, with a four, or fail */
        forced = only_point(b, o, RJ_SET_FIVE);
        if (forced < 0 || !rj_in_set(b, c, RJ_SET_FOUR, forced) || !rj_legal_for(b, c, forced)) {
            s->vcf_cut = outer_cut;
            return 0;
        }
        moves.pos[moves.n++] = (int16_t)forced;
    } else {
        RJ_FOR_SET(b, c, RJ_SET_LIVE4, pos, if (moves.n < RJ_MAX_LIST) moves.pos[moves.n++] = (int16_t)pos);
        RJ_FOR_SET(b, c, RJ_SET_FOUR, pos, {
            if (!rj_in_set(b, c, RJ_SET_LIVE4, pos) && moves.n < RJ_MAX_LIST)
                moves.pos[moves.n++] = (int16_t)pos;
        });
    }
    for (int i = 0; i < moves.n; i++) {
        int m = moves.pos[i];
        if (forced < 0 && !rj_legal_for(b, c, m))
            continue;
        probe(b, m);
        int result = 0;
        if (rj_set_size(b, o, RJ_SET_FIVE) == 0) { /* otherwise o just wins */
            int block = only_point(b, c, RJ_SET_FIVE);
            if (block < 0 || !rj_legal_for(b, o, block)) {
                /* two five points, or the only block is black's foul: the four wins */
                result = 1;
                finish_line(s, ply + 1);
                pv_set(s, ply, m, s->pv_len[ply + 1]);
            } else {
                probe(b, block);
                /* the defender's position counts as a node too */
                result = out_of_budget(s) ? 0 : vcf(s, depth - 1, ply + 2);
                unprobe(b, block);
                if (result) {
                    s->pv[ply + 1][0] = (int16_t)block;
                    for (int k = 0; k < s->pv_len[ply + 2]; k++)
                        s->pv[ply + 1][k + 1] = s->pv[ply + 2][k];
                    s->pv_len[ply + 1] = s->pv_len[ply + 2] + 1;
                    pv_set(s, ply, m, s->pv_len[ply + 1]);
                }
            }
        }
        unprobe(b, m);
        if (s->aborted)
            return 0;
        if (result) {
            e->key = key;
            e->value = RJ_PROOF_WIN;
            e->depth = (uint8_t)(depth >= VCF_ANY_DEPTH ? VCF_ANY_DEPTH - 1 : depth);
            e->move = (int16_t)m;
            s->vcf_cut = outer_cut;
            return 1;
        }
    }
    e->key = key;
    e->value = RJ_PROOF_DRAW; /* no VCF within depth, or at all */
    e->depth = (uint8_t)(s->vcf_cut ? (depth >= VCF_ANY_DEPTH ? VCF_ANY_DEPTH - 1 : depth) : VCF_ANY_DEPTH);
    e->move = -1;
    s->vcf_cut |= outer_cut;
    return 0;
}

/* Would `color` have a VCF of at most `depth` fours if it were to move now? The line is left in
 * s->pv[ply]. The side to move is restored. */
int rj_has_vcf(struct search *s, int color, int depth, int ply)
{
    rj_board *b = s->b;
    int flip = b->to_move != color;
    if (flip) {
        b->to_move = color;
        b->hash ^= RJ_ZOBRIST_WHITE_TO_MOVE;
    }
    s->vcf_cut = 0;
    int found = depth > 0 && vcf(s, depth, ply);
    if (flip) {
        b->to_move = 3 - color;
        b->hash ^= RJ_ZOBRIST_WHITE_TO_MOVE;
    }
    return found;
}

/* ---- UTSS ------------------------------------------------------------------------------ */

/* Default longest VCF threatened by a quiet (fukumi) attack: attacking moves. */
#define RJ_DEFAULT_THREAT_DEPTH 3
/* Quiet attacks are looked for only with this many plies left: near the leaves they cost most
 * (a VCF probe per candidate) and rarely matter. */
#define FUKUMI_MIN_DEPTH 5

/* Quiet candidates for a VCF threat: points where c's stone builds on two or more lines. */
static int builds_two_lines(const rj_board *b, int color, int pos)
{
    int lines = 0;
    for (int d = 0; d < 4; d++)
        lines += rj_pat(b, pos, d, color) >= RJ_PT_DEAD2 && rj_pat(b, pos, d, color) <= RJ_PT_LIVE4;
    return lines >= 2;
}



/* Does colour c have a legal point in the set? */
static int any_legal(rj_board *b, int color, int set)
{
    RJ_FOR_SET(b, color, set, pos, if (rj_legal_for(b, color, pos)) return 1);
    return 0;
}

/* A node with no plies left, for the side to move c facing threat `level` (0-2, its own five
 * and a lost block already ruled out): lost when threatened with no answer, a draw with no
 * attack, else unknown. Equal to generating M(c) and asking whether it is empty, but stops at
 * the first answer it finds: most nodes of a search are such leaves. */
static int leaf_value(rj_board *b, int level)
{
    const int c = b->to_move;
    if (level == 2) /* the single five point to block is legal */
        return RJ_PROOF_UNKNOWN;
    if (any_legal(b, c, RJ_SET_LIVE4) || any_legal(b, c, RJ_SET_FOUR) ||
        (level == 0 && any_legal(b, c, RJ_SET_THREE)))
        return RJ_PROOF_UNKNOWN;
    if (level == 0)
        return RJ_PROOF_DRAW;
    rj_list d;
    rj_defence(b, &d);
    return d.n ? RJ_PROOF_UNKNOWN : RJ_PROOF_LOSS;
}

/* Appends to `moves` the fukumi moves of the side to move c: quiet points (building on two
 * lines, not already listed) after which c, moving again, has a VCF of at most `(depth - 1) / 2`
 * fours (and the threat depth). */
static void add_fukumi(struct search *s, int depth, int ply, rj_list *moves)
{
    rj_board *b = s->b;
    const int c = b->to_move;
    rj_points seen = {{0}};
    for (int i = 0; i < moves->n; i++)
        rj_points_add(&seen, moves->pos[i]);
    int vd = (depth - 1) / 2 < s->threat_depth ? (depth - 1) / 2 : s->threat_depth;
    for (int q = 0; q < RJ_CELLS && moves->n < RJ_MAX_LIST && !s->aborted; q++) {
        if (rj_points_has(&seen, q) || b->cell[q] != RJ_EMPTY || !builds_two_lines(b, c, q) || !rj_legal_for(b, c, q))
            continue;
        rj_probe_stone(b, q, c); /* c moves twice: is there a VCF now? */
        int threat = rj_set_size(b, c, RJ_SET_FOUR) >= 2 && rj_has_vcf(s, c, vd, ply + 1);
        rj_probe_stone(b, q, RJ_EMPTY);
        if (threat)
            moves->pos[moves->n++] = (int16_t)q;
    }
}

/* Walks `line`, a VCF of the side to move as vcf() leaves it (four, block, four, ..., five), with
 * vcf()'s own tests, every probe taken back, and says whether it still wins here: far cheaper than
 * a new VCF search. With `reach`, also collects the points where a defender stone placed first
 * could change the walk: the line's moves, the attacker's five points and the defender's four
 * points at every step (a stone off the line breaks it only by taking the one or making the
 * other), and sets *fragile where fouls make that untrue: a white stone can make a black
 * four-three a double three (a three whose straight-four point was forbidden becomes real), and
 * a black stone can make a forbidden block playable. */
static int walk_line(struct search *s, const int16_t *line, int len, rj_points *reach, int *fragile)
{
    rj_board *b = s->b;
    const int c = b->to_move, o = 3 - c, renju = b->rule == RJ_RENJU;
    int played = 0, wins = 0;
    if (reach) {
        memset(reach, 0, sizeof *reach);
        for (int i = 0; i < len; i++)
            rj_points_add(reach, line[i]);
    }
    while (played + 1 < len && !out_of_budget(s)) {
        const int m = line[played];
        if (reach) {
            for (int w = 0; w < RJ_CELLS / 64; w++)
                reach->w[w] |= b->set[c - 1][RJ_SET_FIVE][w] | b->set[o - 1][RJ_SET_FIVE][w] |
                               b->set[o - 1][RJ_SET_FOUR][w] | b->set[o - 1][RJ_SET_LIVE4][w];
            if (renju && o == RJ_BLACK) /* black's double fours on one line are in no set, yet give five points */
                for (int y = 0; y < b->size; y++)
                    for (int x = 0; x < b->size; x++) {
                        const int q = rj_pos(x, y);
                        for (int d = 0; d < 4 && b->cell[q] == RJ_EMPTY; d++)
                            if (rj_pat(b, q, d, o) == RJ_PT_FORBID)
                                rj_points_add(reach, q);
                    }
        }
        if (first_point(b, c, RJ_SET_FIVE) >= 0) {
            wins = 1;
            break;
        }
        if (rj_set_size(b, o, RJ_SET_FIVE) && only_point(b, o, RJ_SET_FIVE) != m)
            break;
        if (b->cell[m] != RJ_EMPTY || !(rj_in_set(b, c, RJ_SET_FOUR, m) || rj_in_set(b, c, RJ_SET_LIVE4, m)) ||
            !rj_legal_for(b, c, m))
            break;
        if (reach && renju && c == RJ_BLACK) {
            int threes = 0;
            for (int d = 0; d < 4; d++)
                threes += rj_pat(b, m, d, c) == RJ_PT_LIVE3;
            *fragile |= threes >= 2;
        }
        probe(b, m);
        played++;
        if (reach)
            for (int w = 0; w < RJ_CELLS / 64; w++)
                reach->w[w] |= b->set[c - 1][RJ_SET_FIVE][w];
        if (rj_set_size(b, o, RJ_SET_FIVE)) /* the defender, to move, makes five first */
            break;
        const int block = only_point(b, c, RJ_SET_FIVE);
        if (block < 0 || !rj_legal_for(b, o, block)) {
            if (reach && block >= 0) /* won by a foul */
                *fragile = 1;
            wins = 1;
            break;
        }
        if (line[played] != block || out_of_budget(s))
            break;
        probe(b, block);
        played++;
    }
    while (played > 0)
        unprobe(b, line[--played]);
    return wins;
}

/* Does `line` still win here within `max_fours` fours? (walk_line) */
static int line_still_wins(struct search *s, const int16_t *line, int len, int max_fours)
{
    return (len + 1) / 2 - 1 <= max_fours && walk_line(s, line, len, NULL, NULL);
}

/* Where a defender stone could break `line`, the VCF the opponent of the side to move would play
 * after it (walk_line's reach, for the opponent moving first); 0 where fouls leave every point to
 * be tried, or the line does not win as it stands. */
static int line_reach(struct search *s, const int16_t *line, int len, rj_points *reach)
{
    rj_board *b = s->b;
    int fragile = 0;
    b->to_move = 3 - b->to_move;
    b->hash ^= RJ_ZOBRIST_WHITE_TO_MOVE;
    const int wins = walk_line(s, line, len, reach, &fragile);
    b->to_move = 3 - b->to_move;
    b->hash ^= RJ_ZOBRIST_WHITE_TO_MOVE;
    return wins && !fragile;
}

/* A VCF of `color` within `fours` fours, its search capped at `cap` nodes (0: none); a search
 * that reaches its cap (not the proof's own budget) answers no. The line is left in s->pv[ply]. */
int rj_capped_vcf(struct search *s, int color, int fours, int64_t cap, int ply)
{
    const int64_t saved = s->max_nodes, until = s->nodes + cap;
    if (cap > 0 && (saved <= 0 || until < saved))
        s->max_nodes = until;
    int found = fours > 0 && rj_has_vcf(s, color, fours, ply);
    s->max_nodes = saved;
    if (s->aborted && !rj_budget_spent(s, saved)) {
        s->aborted = 0;
        found = 0;
    }
    return found;
}

int rj_vcf_answers(struct search *s, int max_fours, int64_t cap, int ply, rj_list *moves)
{
    rj_board *b = s->b;
    const int c = b->to_move, o = 3 - c;
    int16_t line[RJ_MAX_LINE_PLIES]; /* the searches below overwrite s->pv[ply + 1] */
    const int len = s->pv_len[ply + 1];
    memcpy(line, s->pv[ply + 1], (size_t)len * sizeof line[0]);
    uint8_t near[RJ_CELLS];
    memset(near, b->rule == RJ_RENJU && c == RJ_BLACK, sizeof near);
    for (int i = 0; i < len; i++)
        for (int d = 0; d < 4; d++)
            for (int k = -5; k <= 5; k++) {
                int q = line[i] + k * RJ_DIR[d];
                if (q >= 0 && q < RJ_CELLS)
                    near[q] = 1;
            }
    rj_points seen = {{0}}, reach;
    const int screened = line_reach(s, line, len, &reach);
    moves->n = 0;
    RJ_FOR_SET(b, c, RJ_SET_LIVE4, pos, if (rj_legal_for(b, c, pos)) rj_push_unique(moves, &seen, pos));
    RJ_FOR_SET(b, c, RJ_SET_FOUR, pos, if (rj_legal_for(b, c, pos)) rj_push_unique(moves, &seen, pos));
    /* the line's own points first: they are the likeliest answers, and a search that stops at its
     * first holding move stops sooner */
    for (int pass = 0; pass < 2 && !s->aborted; pass++)
        for (int i = 0; i < (pass ? RJ_CELLS : len) && !s->aborted; i++) {
            const int q = pass ? i : line[i];
            if (!near[q] || rj_points_has(&seen, q) || (screened && !rj_points_has(&reach, q)) ||
                !rj_legal_for(b, c, q))
                continue; /* out of the line's reach: the line still wins after it */
            probe(b, q);
            int still = line_still_wins(s, line, len, max_fours);
            if (!still) /* the line is broken, but another VCF may hold */
                still = rj_capped_vcf(s, o, max_fours, cap, ply + 1); /* one that gives up keeps q */
            unprobe(b, q);
            if (!still)
                rj_push_unique(moves, &seen, q);
            else
                rj_points_add(&seen, q); /* tried: not again in the second pass */
        }
    return s->aborted ? -1 : moves->n ? 0 : 1;
}

static int negate(int v) { return v == RJ_PROOF_UNKNOWN ? RJ_PROOF_UNKNOWN : -v; }

/* Order of the attacker's moves in df-pn, which breaks ties between equal proof numbers by list
 * order: the moves likely to decide first. Moves making two threats at once
 * (a four-three, a double four or double three), then fours, then by the lines the stone builds
 * for the mover and breaks for the opponent. */
static int order_score(const rj_board *b, int color, int pos)
{
    static const int BUILD[RJ_PT_COUNT] = {[RJ_PT_DEAD2] = 1, [RJ_PT_LIVE2] = 2, [RJ_PT_DEAD3] = 2,
                                           [RJ_PT_LIVE3] = 4, [RJ_PT_DEAD4] = 4, [RJ_PT_LIVE4] = 8};
    int score = two_threats(b, color, pos) ? 1000 : 0;
    for (int d = 0; d < 4; d++)
        score += 2 * BUILD[rj_pat(b, pos, d, color)] + BUILD[rj_pat(b, pos, d, 3 - color)];
    if (rj_in_set(b, color, RJ_SET_FOUR, pos) || rj_in_set(b, color, RJ_SET_LIVE4, pos))
        score += 100;
    return score;
}

/* Stable insertion sort of moves[start..n) by order_score, highest first (lists are short). */
void rj_order_moves(const rj_board *b, int color, rj_list *moves, int start)
{
    int score[RJ_MAX_LIST];
    for (int i = start; i < moves->n; i++) {
        int m = moves->pos[i], v = order_score(b, color, m), j = i;
        for (; j > start && score[j - 1] < v; j--) {
            score[j] = score[j - 1];
            moves->pos[j] = moves->pos[j - 1];
        }
        score[j] = v;
        moves->pos[j] = (int16_t)m;
    }
}

/* `threatened`: the opponent's last move threatens a VCF (it was a quiet fukumi move).
 * Fail-soft: once the value reaches `beta` the node stops and returns that lower bound (the
 * parent cannot gain from more). */
static int utss(struct search *s, int depth, int ply, int threatened, int beta)
{
    rj_board *b = s->b;
    const int c = b->to_move, o = 3 - c;
    s->pv_len[ply] = 0;
    if (ply >= RJ_MAX_LINE_PLIES - 1 || out_of_budget(s))
        return RJ_PROOF_UNKNOWN;
    int win = first_point(b, c, RJ_SET_FIVE);
    if (win >= 0) {
        pv_set(s, ply, win, 0);
        return RJ_PROOF_WIN;
    }
    int level = rj_threat_of(b, o);
    if (level == 3) { /* two five points: one block cannot stop both */
        finish_line(s, ply);
        return RJ_PROOF_LOSS;
    }
    if (level == 2) {
        int q = first_point(b, o, RJ_SET_FIVE);
        if (!rj_legal_for(b, c, q)) { /* the only block is black's foul */
            finish_line(s, ply);
            return RJ_PROOF_LOSS;
        }
    }
    uint64_t key = b->hash ^ KEY_UTSS ^ (uint64_t)(s->threat_depth + 2) * 0x9E3779B97F4A7C15ull;
    struct tt_entry *e = tt_slot(s, key);
    int hint = -1; /* the move that decided this node in a shallower search: tried first */
    if (e->key == key) {
        if (e->value == RJ_PROOF_WIN || e->value == RJ_PROOF_LOSS ||
            (e->value != RJ_PROOF_UNKNOWN && e->depth >= depth)) {
            if (e->value == RJ_PROOF_WIN && e->move >= 0)
                pv_set(s, ply, e->move, 0);
            return e->value;
        }
        hint = e->move;
    }
    if (depth <= 0)
        return leaf_value(b, level);
    rj_list moves;
    int vdepth = depth / 2 < s->threat_depth ? depth / 2 : s->threat_depth, want_fukumi = 0;
    if (level == 0 && threatened && rj_has_vcf(s, o, vdepth, ply + 1)) {
        rj_vcf_answers(s, vdepth, 0, ply, &moves);
        if (s->aborted)
            return RJ_PROOF_UNKNOWN;
        level = 1; /* threatened: a quiet move loses */
    } else {
        rj_unified(b, &moves);
        /* fukumi, for the proving side only, once its threats have not won (see add_fukumi) */
        want_fukumi = level == 0 && depth >= FUKUMI_MIN_DEPTH && ply % 2 == 0 && s->threat_depth > 0;
    }
    if (moves.n == 0 && !want_fukumi)
        return level >= 1 ? RJ_PROOF_LOSS : RJ_PROOF_DRAW; /* threatened with no answer, or quiet */
    int best = level >= 1 ? RJ_PROOF_LOSS : RJ_PROOF_DRAW; /* unthreatened: a quiet move is always there */
    if (best >= beta)
        return best;
    int uncertain = 0, best_move = -1, cut = 0, skipped = 0, held = -1, first_open = -1;
    /* One ply left: a move wins only if the reply position is lost at once, and a move that
     * makes a single three or four (with no open three of ours on the board already) leaves a
     * reply — a block the opponent can play, unless it is Renju black, whose blocks can be
     * fouls. Such moves count as unknown without being probed; most leaves are theirs. */
    const int last_ply = depth == 1 && !s->exact && level <= 1 && (b->rule != RJ_RENJU || c == RJ_BLACK) &&
                         !rj_set_count(b, c, RJ_SET_LIVE4, 1);
    /* Phase 0 searches the threat moves; phase 1 the fukumi moves, generated only when the
     * threats neither won nor settled what the parent asks: on a proof's winning lines the
     * generation (a VCF probe per candidate) is never paid. */
    for (int phase = 0, start = 0; phase < 2; phase++) {
        if (phase == 1) {
            if (!want_fukumi)
                break;
            start = moves.n;
            add_fukumi(s, depth, ply, &moves);
            if (s->aborted)
                return RJ_PROOF_UNKNOWN;
        }
        for (int i = start + 1; hint >= 0 && i < moves.n; i++)
            if (moves.pos[i] == hint) { /* move it to the front */
                moves.pos[i] = moves.pos[start];
                moves.pos[start] = (int16_t)hint;
                break;
            }
        for (int i = start; i < moves.n; i++) {
            int m = moves.pos[i];
            if (ply % 2 == 0 && s->threat_depth == 0 && !rj_in_set(b, c, RJ_SET_FOUR, m)) {
                skipped = 1; /* threat depth 0: fours only */
                continue;
            }
            int v = RJ_PROOF_UNKNOWN;
            if (!last_ply || two_threats(b, c, m)) {
                probe(b, m);
                v = negate(utss(s, depth - 1, ply + 1, phase == 1, negate(best))); /* phase 1: fukumi */
                unprobe(b, m);
                if (s->aborted)
                    return RJ_PROOF_UNKNOWN;
            }
            if (v == RJ_PROOF_UNKNOWN) {
                if (!uncertain)
                    first_open = m;
                uncertain = 1;
                if (beta <= RJ_PROOF_DRAW && !s->exact) {
                    /* The parent only asks whether this node is lost, and this move holds as far as
                     * this depth sees: no loss is proven here. */
                    held = m;
                    break;
                }
            } else if (v > best || (v == best && best_move < 0)) { /* a lost node shows its first defence */
                best = v;
                best_move = m;
                pv_set(s, ply, m, s->pv_len[ply + 1]);
            }
            if (best >= beta) {
                cut = best != RJ_PROOF_WIN; /* a bound, not the exact value */
                break;
            }
        }
        if (best >= beta || held >= 0)
            break;
    }
    if (cut)
        return best;
    if (held >= 0) { /* remember the holding move for the next, deeper iteration */
        e->key = key;
        e->value = RJ_PROOF_UNKNOWN;
        e->depth = (uint8_t)(depth > 255 ? 255 : depth);
        e->move = (int16_t)held;
        return RJ_PROOF_UNKNOWN;
    }
    if (skipped && best == RJ_PROOF_LOSS)
        best = RJ_PROOF_DRAW; /* a defence the fours-only search did not play may hold: no loss is proven */
    int value = best == RJ_PROOF_WIN ? RJ_PROOF_WIN : uncertain ? RJ_PROOF_UNKNOWN : best;
    if (value == RJ_PROOF_UNKNOWN) {
        e->key = key;
        e->value = RJ_PROOF_UNKNOWN;
        e->depth = (uint8_t)(depth > 255 ? 255 : depth);
        e->move = (int16_t)first_open;
    } else {
        e->key = key;
        e->value = (int8_t)value;
        e->depth = (uint8_t)(depth > 255 ? 255 : depth);
        e->move = (int16_t)best_move;
    }
    return value;
}

/* ---- df-pn ----------------------------------------------------------------------------- */

/* Depth-first proof-number search for the attacker's win over the same threat space as UTSS:
 * the attacker (the side to move at the root) plays M(c) and, near the root, fukumi moves; the
 * defender plays its defences and counter-fours, or, facing a quiet move, its fours and the points
 * that break the threatened VCF. No depth iterations: the proof and disproof numbers steer the
 * search down the narrowest lines first, which is what long threat sequences need. */

#define KEY_DFPN 0x94d049bb133111ebull
#define DFPN_FUKUMI_PLIES 6 /* fukumi moves at the attacker's nodes up to this ply */

/* Table keys of one proof's namespace: the attacker, and the root's stone count, so that a node's
 * ply (which bounds its line and decides its fukumi moves) follows from its position. */
static uint64_t dfpn_salt(const rj_board *b, int attacker)
{
    return KEY_DFPN ^ (uint64_t)attacker * 0x9E3779B97F4A7C15ull ^ (uint64_t)(b->nstones + 1) * 0xBF58476D1CE4E5B9ull;
}

int rj_pn_find(struct search *s, uint64_t key, uint32_t *pn, uint32_t *dn)
{
    struct tt_entry *e = tt_slot(s, key);
    if (e->key != key)
        return 0;
    *pn = e->pn;
    *dn = e->dn;
    return 1;
}

/* A node's numbers from the table, 1 and 1 when it has none. */
static void dfpn_lookup(struct search *s, uint64_t key, uint32_t *pn, uint32_t *dn)
{
    if (!rj_pn_find(s, key, pn, dn))
        *pn = *dn = 1;
}

/* The numbers of a child not searched yet. A four leaves one block and a double threat is
 * nearly won, while a slower move leaves its two or three defences plus every four the defender
 * can make (each a reply to answer): a child is cheaper to prove the fewer answers it leaves. */
static void dfpn_guess(const rj_board *b, int or_node, int pos, uint32_t slow_pn, uint32_t *pn, uint32_t *dn)
{
    *pn = 1;
    *dn = 1;
    if (!or_node)
        return;
    const int c = b->to_move;
    if (!rj_in_set(b, c, RJ_SET_FOUR, pos) && !rj_in_set(b, c, RJ_SET_LIVE4, pos) && !two_threats(b, c, pos))
        *pn = slow_pn;
}

/* dfpn_guess's number for a slow move at an OR node: 2 plus the defender's four points (at most 8),
 * the same for every child, so counted once a step. */
static uint32_t slow_move_pn(const rj_board *b)
{
    const int o = 3 - b->to_move;
    const int fours = rj_set_count(b, o, RJ_SET_FOUR, 8) + rj_set_count(b, o, RJ_SET_LIVE4, 8);
    return 2 + (uint32_t)(fours < 8 ? fours : 8);
}

void rj_pn_store(struct search *s, uint64_t key, uint32_t pn, uint32_t dn)
{
    struct tt_entry *e = tt_slot(s, key);
    e->key = key;
    e->pn = pn;
    e->dn = dn;
}

/* The moves of a node, or its value when the position settles it: 1 the attacker wins, -1 it
 * does not (within this threat space), 0 open with `moves` to search. */
static int dfpn_moves(struct search *s, int attacker, int ply, rj_list *moves)
{
    rj_board *b = s->b;
    const int c = b->to_move, o = 3 - c, or_node = c == attacker;
    moves->n = 0;
    if (first_point(b, c, RJ_SET_FIVE) >= 0)
        return or_node ? 1 : -1;
    int level = rj_threat_of(b, o);
    if (level == 3 || (level == 2 && !rj_legal_for(b, c, first_point(b, o, RJ_SET_FIVE))))
        return or_node ? -1 : 1;
    if (ply >= s->max_ply)
        return -1;
    if (or_node) {
        rj_unified(b, moves);
        if (level == 0 && ply <= DFPN_FUKUMI_PLIES && s->threat_depth > 0)
            add_fukumi(s, 2 * s->threat_depth + 1, ply, moves);
        rj_order_moves(b, c, moves, 0);
        return moves->n ? 0 : -1;
    }
    if (level > 0) {
        rj_unified(b, moves);
        return moves->n ? 0 : 1;
    }
    /* a quiet attacker move: it must threaten a VCF (it may be a block, or a fukumi move) */
    if (!rj_has_vcf(s, o, s->threat_depth, ply + 1))
        return -1;
    return rj_vcf_answers(s, s->threat_depth, 0, ply, moves); /* its -1, 1 and 0 are this function's */
}

/* The key of the position after `pos` is played, without playing it. */
uint64_t rj_pn_child_key(const rj_board *b, int pos, uint64_t salt)
{
    return b->hash ^ rj_zobrist(pos, b->to_move) ^ RJ_ZOBRIST_WHITE_TO_MOVE ^ salt;
}

/* One step of proof-number search at an OR or AND node with `moves` (shared by df-pn and the
 * VCT prover): the node's numbers from its children's (table entries, else dfpn_guess) into
 * out->pn and out->dn; while neither has reached its threshold, returns 1 with the child to
 * search next and its thresholds, below the second-best sibling (plus its 1 / s->pn_slack, so that
 * two close siblings do not take turns at every step) and within the node's own. */
int rj_pn_select(struct search *s, const rj_list *moves, int or_node, uint32_t thpn, uint32_t thdn,
                 struct rj_pn_pick *out)
{
    const rj_board *b = s->b;
    /* OR node: pn = min over children, dn = sum; AND node the other way round */
    uint32_t best_v = RJ_PN_INF + 1, second = RJ_PN_INF, best_pn = 0, best_dn = 0;
    uint64_t sum = 0;
    int best = -1, settled_child = 0; /* a child settled the way that settles the sum */
    const uint32_t slow_pn = or_node ? slow_move_pn(b) : 0;
    for (int i = 0; i < moves->n; i++) {
        uint32_t cpn, cdn;
        if (!rj_pn_find(s, rj_pn_child_key(b, moves->pos[i], s->salt), &cpn, &cdn))
            dfpn_guess(b, or_node, moves->pos[i], slow_pn, &cpn, &cdn);
        uint32_t v = or_node ? cpn : cdn;
        const uint32_t w = or_node ? cdn : cpn;
        sum += w;
        settled_child |= w >= RJ_PN_INF;
        if (v < best_v) {
            second = best_v;
            best_v = v;
            best = i;
            best_pn = cpn;
            best_dn = cdn;
        } else if (v < second) {
            second = v;
        }
    }
    /* a sum of open children stays below RJ_PN_INF however large: only a settled child settles it */
    const uint32_t total = settled_child ? RJ_PN_INF : sum >= RJ_PN_INF ? RJ_PN_INF - 1 : (uint32_t)sum;
    const uint32_t pn = or_node ? best_v : total, dn = or_node ? total : best_v;
    out->pn = pn;
    out->dn = dn;
    out->best = best;
    if (pn >= thpn || dn >= thdn || pn == 0 || dn == 0)
        return 0;
    const uint32_t limit = second >= RJ_PN_INF ? RJ_PN_INF : second + second / (uint32_t)s->pn_slack + 1;
    if (or_node) {
        out->cthpn = thpn < limit ? thpn : limit;
        out->cthdn = thdn - dn + best_dn;
    } else {
        out->cthdn = thdn < limit ? thdn : limit;
        out->cthpn = thpn - pn + best_pn;
    }
    return 1;
}

/* Multiple iterative deepening at one node: searches until its proof or disproof number reaches
 * its threshold (or a budget runs out), then stores and returns both numbers. */
static void dfpn_mid(struct search *s, int attacker, int ply, uint32_t thpn, uint32_t thdn, uint32_t *out_pn,
                     uint32_t *out_dn)
{
    rj_board *b = s->b;
    const uint64_t salt = s->salt, key = b->hash ^ salt;
    if (out_of_budget(s)) {
        dfpn_lookup(s, key, out_pn, out_dn);
        return;
    }
    rj_list moves;
    struct mc_entry *cached = &s->mc[key & (((uint64_t)1 << MC_BITS) - 1)];
    int settled = 0;
    /* the list is the position's, but the depth limit is the path's: at the limit the node is
     * settled as dfpn_moves settles it, never expanded past it from a list made nearer the root */
    const uint8_t fukumi = ply <= DFPN_FUKUMI_PLIES;
    if (ply < s->max_ply && cached->key == key && cached->gen == s->gen && cached->fukumi == fukumi) {
        moves.n = cached->n;
        memcpy(moves.pos, cached->pos, (size_t)cached->n * sizeof moves.pos[0]);
    } else {
        settled = dfpn_moves(s, attacker, ply, &moves);
        if (!settled && !s->aborted && moves.n <= MC_MOVES) {
            cached->key = key;
            cached->gen = s->gen;
            cached->n = (uint8_t)moves.n;
            cached->fukumi = fukumi;
            memcpy(cached->pos, moves.pos, (size_t)moves.n * sizeof moves.pos[0]);
        }
    }
    if (s->aborted) {
        dfpn_lookup(s, key, out_pn, out_dn);
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
        dfpn_mid(s, attacker, ply + 1, cthpn, cthdn, &cpn, &cdn);
        unprobe(b, moves.pos[best]);
        if (s->aborted)
            break;
    }
    rj_pn_store(s, key, pn, dn);
    *out_pn = pn;
    *out_dn = dn;
}

/* After a proof: the attacker's line, read back from the table (each attacker move a proven
 * child, each defence the first), into s->pv[0]. It stops where the table no longer holds the
 * proof; complete_line finishes it. */
static void dfpn_line(struct search *s, int attacker)
{
    rj_board *b = s->b;
    const uint64_t salt = s->salt;
    int16_t line[RJ_MAX_LINE_PLIES];
    int n = 0;
    rj_list moves;
    while (n < s->max_ply && n < RJ_MAX_LINE_PLIES - 8) {
        if (dfpn_moves(s, attacker, n, &moves) != 0 || s->aborted)
            break;
        int pick = -1;
        for (int i = 0; i < moves.n && pick < 0; i++) {
            uint32_t cpn, cdn;
            dfpn_lookup(s, rj_pn_child_key(b, moves.pos[i], salt), &cpn, &cdn);
            if (cpn == 0)
                pick = i;
        }
        if (pick < 0)
            break;
        line[n++] = moves.pos[pick];
        probe(b, moves.pos[pick]);
    }
    for (int i = n - 1; i >= 0; i--)
        unprobe(b, line[i]);
    memcpy(s->pv[0], line, (size_t)n * sizeof line[0]);
    s->pv_len[0] = n;
}

/* Extends a proof's line to the five: a line can stop short where a transposition hit, a
 * double threat or a VCF threat settled a node. From its end: the side to move completes a
 * five if it can; the defender blocks a single five point (or makes any move when it cannot);
 * the attacker's VCF (searched afresh, within what is left of the budgets) finishes the rest.
 * The board is restored. */
void rj_complete_line(struct search *s, int attacker)
{
    rj_board *b = s->b;
    int n = s->pv_len[0], played = 0;
    int16_t line[RJ_MAX_LINE_PLIES];
    memcpy(line, s->pv[0], (size_t)n * sizeof line[0]);
    for (; played < n; played++) {
        if (!rj_legal_for(b, b->to_move, line[played]) || rj_in_set(b, b->to_move, RJ_SET_FIVE, line[played]))
            break;
        probe(b, line[played]);
    }
    if (played == n) {
        s->aborted = 0; /* the completion spends what is left of the proof's budgets */
        while (n < RJ_MAX_LINE_PLIES - 4) {
            const int c = b->to_move, o = 3 - c;
            int next = first_point(b, c, RJ_SET_FIVE);
            if (next >= 0) {
                line[n++] = (int16_t)next;
                break;
            }
            if (c != attacker) {
                int block = only_point(b, o, RJ_SET_FIVE);
                next = block >= 0 && rj_legal_for(b, c, block) ? block : some_move(b, c, RJ_SET_FIVE, o);
            } else {
                if (!rj_has_vcf(s, c, 40, RJ_MAX_LINE_PLIES / 2) || s->aborted)
                    break;
                int m = s->pv_len[RJ_MAX_LINE_PLIES / 2];
                for (int i = 0; i < m && n < RJ_MAX_LINE_PLIES - 1; i++)
                    line[n++] = s->pv[RJ_MAX_LINE_PLIES / 2][i];
                break;
            }
            if (next < 0)
                break;
            line[n++] = (int16_t)next;
            probe(b, next);
            played++;
        }
    }
    while (played > 0)
        unprobe(b, line[--played]);
    memcpy(s->pv[0], line, (size_t)n * sizeof line[0]);
    s->pv_len[0] = n;
}

/* The prover's reusable search state, reset for a new proof of b. */
struct search *rj_start_search(rj_prover *p, rj_board *b, int64_t max_nodes, double max_ms, double t0)
{
    struct search *s = p->scratch;
    s->b = b;
    s->tt = p->tt;
    s->mask = ((uint64_t)1 << p->bits) - 1;
    s->nodes = 0;
    s->max_nodes = max_nodes > 0 ? max_nodes : 0;
    s->deadline_ns = max_ms > 0 ? t0 + max_ms * 1e6 : 0;
    s->aborted = 0;
    s->threat_depth = RJ_DEFAULT_THREAT_DEPTH;
    s->exact = 0;
    s->stone_limit = RJ_MAX_MOVES;
    s->vcf_cap = RJ_VCT_VCF_CAP;
    s->direct = 0;
    s->quiet_plies = 0;
    s->threat_cap = 0;
    s->pn_slack = 4;
    return s;
}

/* A new proof's generation of the move cache (s->mc, s->gen). */
static void next_gen(rj_prover *p, struct search *s)
{
    s->mc = p->mc;
    s->gen = ++p->gen;
    if (s->gen == 0) { /* wrapped: no list may pass for this proof's */
        memset(p->mc, 0, ((size_t)1 << MC_BITS) * sizeof *p->mc);
        s->gen = p->gen = 1;
    }
}

/* ---- the threat-aware move filter ------------------------------------------------------ */

int rj_filter_threats(rj_prover *p, rj_board *b, int radius, int vcf_depth, int64_t max_nodes, int16_t *xs,
                      int16_t *ys, int *threatened)
{
    rj_list l, keep;
    rj_filter(b, radius, &l);
    *threatened = 0;
    const int c = b->to_move, o = 3 - c;
    /* Nothing to narrow: a game over, our own five, o's four (the list is its blocks already), or
     * no four point for o (a VCF starts with a four). */
    int quick = b->result != RJ_ONGOING || l.n <= 1 || rj_set_count(b, c, RJ_SET_FIVE, 1) ||
                rj_set_count(b, o, RJ_SET_FIVE, 1) ||
                (!rj_set_count(b, o, RJ_SET_FOUR, 1) && !rj_set_count(b, o, RJ_SET_LIVE4, 1));
    struct search *s = quick ? NULL : rj_start_search(p, b, max_nodes, 0, 0);
    if (quick || !rj_has_vcf(s, o, vcf_depth, 0))
        return rj_list_xy(&l, xs, ys);
    /* o would win by fours if it had the move. A move can break that line only near it: within
     * 5 of one of its points on a line through that point. Not so for Renju black: a stone far
     * away can make one of its blocks a foul (the line then ends on some other point). */
    uint8_t near[RJ_CELLS];
    memset(near, b->rule == RJ_RENJU && c == RJ_BLACK, sizeof near);
    for (int i = 0; i < s->pv_len[0]; i++)
        for (int d = 0; d < 4; d++)
            for (int k = -5; k <= 5; k++)
                near[s->pv[0][i] + k * RJ_DIR[d]] = 1;
    rj_points reach;
    const int screened = line_reach(s, s->pv[0], s->pv_len[0], &reach); /* the line still wins after the others */
    keep.n = 0;
    for (int i = 0; i < l.n; i++) {
        int m = l.pos[i], ok = rj_in_set(b, c, RJ_SET_FOUR, m) || rj_in_set(b, c, RJ_SET_LIVE4, m);
        if (!ok && near[m] && (!screened || rj_points_has(&reach, m))) {
            /* does o still have a VCF after m? (an exhausted budget keeps m) */
            probe(b, m);
            ok = !rj_has_vcf(s, o, vcf_depth, 0);
            unprobe(b, m);
        }
        if (ok)
            keep.pos[keep.n++] = (int16_t)m;
    }
    if (keep.n == 0) /* every move loses to a VCF: leave the proof to the search */
        return rj_list_xy(&l, xs, ys);
    *threatened = 1;
    return rj_list_xy(&keep, xs, ys);
}

int rj_prove(rj_prover *p, rj_board *b, int kind, int max_depth, int threat_depth, int64_t max_nodes, double max_ms,
             rj_proof *out)
{
    memset(out, 0, sizeof *out);
    out->value = RJ_PROOF_UNKNOWN;
    if (b->result != RJ_ONGOING)
        return RJ_E_GAMEOVER;
    if (kind != RJ_PROVE_VCF && kind != RJ_PROVE_UTSS && kind != RJ_PROVE_UTSS_EXACT && kind != RJ_PROVE_DFPN &&
        kind != RJ_PROVE_VCT && kind != RJ_PROVE_VCT_DIRECT && kind != RJ_PROVE_VCT3)
        return RJ_E_BADKIND;
    const double t0 = rj_now_ns();
    struct search *s = rj_start_search(p, b, max_nodes, max_ms, t0);
    s->threat_depth = threat_depth < 0 ? RJ_DEFAULT_THREAT_DEPTH : threat_depth;
    if (kind == RJ_PROVE_VCT || kind == RJ_PROVE_VCT_DIRECT || kind == RJ_PROVE_VCT3) {
        next_gen(p, s);
        s->direct = kind == RJ_PROVE_VCT_DIRECT;
        const int plies = max_depth < 1 ? 1 : max_depth > RJ_MAX_VCT_PLIES ? RJ_MAX_VCT_PLIES : max_depth;
        s->stone_limit = b->nstones + plies;
        int won;
        if (kind == RJ_PROVE_VCT3) {
            /* the plain VCT first, with a share of the budgets: λ-search's lower order before the higher */
            const int64_t saved_nodes = s->max_nodes;
            const double saved_deadline = s->deadline_ns;
            if (saved_nodes > 0)
                s->max_nodes = (int64_t)(saved_nodes * RJ_VCT3_PLAIN_SHARE);
            if (saved_deadline > 0)
                s->deadline_ns = t0 + (saved_deadline - t0) * RJ_VCT3_PLAIN_SHARE;
            won = rj_vct_prove(s);
            s->max_nodes = saved_nodes;
            s->deadline_ns = saved_deadline;
            if (!won && !rj_budget_spent(s, saved_nodes)) {
                s->aborted = 0;
                s->quiet_plies = rj_vct3_quiet_plies(threat_depth < 0 ? RJ_VCT3_QUIET : threat_depth);
                s->threat_cap = RJ_VCT3_THREAT_CAP;
                won = rj_vct_prove(s);
            }
        } else {
            won = rj_vct_prove(s);
        }
        out->value = won ? RJ_PROOF_WIN : RJ_PROOF_UNKNOWN;
        out->line_len = won ? s->pv_len[0] : 0;
        for (int i = 0; i < out->line_len; i++) {
            out->line_x[i] = (int16_t)rj_pos_x(s->pv[0][i]);
            out->line_y[i] = (int16_t)rj_pos_y(s->pv[0][i]);
        }
        out->depth = plies;
        out->nodes = s->nodes;
        out->aborted = s->aborted;
        out->ms = (rj_now_ns() - t0) / 1e6;
        return RJ_OK;
    }
    if (kind == RJ_PROVE_DFPN) {
        const int attacker = b->to_move;
        uint32_t pn, dn;
        s->salt = dfpn_salt(b, attacker);
        next_gen(p, s);
        s->max_ply = max_depth < 1 ? 1 : max_depth > RJ_MAX_LINE_PLIES - 16 ? RJ_MAX_LINE_PLIES - 16 : max_depth;
        dfpn_mid(s, attacker, 0, RJ_PN_INF, RJ_PN_INF, &pn, &dn);
        int aborted = s->aborted;
        out->value = pn == 0 ? RJ_PROOF_WIN : RJ_PROOF_UNKNOWN;
        if (pn == 0) {
            s->aborted = 0;
            dfpn_line(s, attacker);
            rj_complete_line(s, attacker);
            out->line_len = s->pv_len[0];
            for (int i = 0; i < out->line_len; i++) {
                out->line_x[i] = (int16_t)rj_pos_x(s->pv[0][i]);
                out->line_y[i] = (int16_t)rj_pos_y(s->pv[0][i]);
            }
        }
        out->depth = s->max_ply;
        out->nodes = s->nodes;
        out->aborted = aborted;
        out->ms = (rj_now_ns() - t0) / 1e6;
        return RJ_OK;
    }
    s->exact = kind == RJ_PROVE_UTSS_EXACT;
    if (kind == RJ_PROVE_UTSS_EXACT)
        kind = RJ_PROVE_UTSS;
    if (max_depth < 1)
        max_depth = 1;
    int value = RJ_PROOF_UNKNOWN, reached = 0;
    /* UTSS iterates odd depths only: a depth-d search already covers every shorter line, and
     * only odd depths end on the prover's own move. */
    for (int depth = 1; depth <= max_depth; depth += kind == RJ_PROVE_UTSS && depth < max_depth - 1 ? 2 : 1) {
        int v;
        if (kind == RJ_PROVE_VCF) {
            v = vcf(s, depth, 0) ? RJ_PROOF_WIN : RJ_PROOF_UNKNOWN;
        } else {
            v = utss(s, depth, 0, 0, RJ_PROOF_WIN);
        }
        if (s->aborted)
            break;
        reached = depth;
        value = v;
        if (v != RJ_PROOF_UNKNOWN)
            break;
    }
    int aborted = s->aborted;
    if (kind == RJ_PROVE_UTSS && (value == RJ_PROOF_WIN || value == RJ_PROOF_LOSS))
        rj_complete_line(s, value == RJ_PROOF_WIN ? b->to_move : 3 - b->to_move);
    s->aborted = aborted; /* the value stands even if the line could not be finished */
    out->value = value;
    out->depth = reached;
    out->nodes = s->nodes;
    out->aborted = s->aborted;
    if (value == RJ_PROOF_WIN || value == RJ_PROOF_LOSS || (kind == RJ_PROVE_UTSS && value == RJ_PROOF_DRAW)) {
        out->line_len = s->pv_len[0];
        for (int i = 0; i < out->line_len; i++) {
            out->line_x[i] = (int16_t)rj_pos_x(s->pv[0][i]);
            out->line_y[i] = (int16_t)rj_pos_y(s->pv[0][i]);
        }
    }
    out->ms = (rj_now_ns() - t0) / 1e6;
    return RJ_OK;
}
