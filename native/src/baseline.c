/*
 * baseline.c — pattern evaluation, alpha-beta and rollouts (see baseline.h). Probe moves go
 * through rj_set_stone and are always taken back.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "clock.h"
#include "forbid.h"
#include "threats.h"

/* Value of a stone making each pattern type, for the mover; the opponent's patterns count as
 * what the stone takes away. Hand-set, the same scale as engine/players.py. */
static const int WEIGHT[RJ_PT_COUNT] = {
    [RJ_PT_NONE] = 0, [RJ_PT_FORBID] = 0, [RJ_PT_DEAD1] = 1, [RJ_PT_LIVE1] = 3, [RJ_PT_DEAD2] = 8,
    [RJ_PT_LIVE2] = 30, [RJ_PT_DEAD3] = 40, [RJ_PT_LIVE3] = 400, [RJ_PT_DEAD4] = 500, [RJ_PT_LIVE4] = 20000,
    [RJ_PT_FIVE] = 1000000, [RJ_PT_OVERLINE] = 0,
};

/* Score of a stone of colour c on pos (attack) plus 0.9 of the opponent's there (defence). */
static int point_score(const rj_board *b, int pos, int c)
{
    int own = 0, opp = 0, fours = 0, threes = 0;
    for (int d = 0; d < 4; d++) {
        int t = rj_pat(b, pos, d, c), u = rj_pat(b, pos, d, 3 - c);
        /* An overline is a five wherever the rule lets it win (freestyle, Caro, white in Renju). */
        if (t == RJ_PT_OVERLINE && rj_pattern_wins(b->rule, c, t))
            t = RJ_PT_FIVE;
        if (u == RJ_PT_OVERLINE && rj_pattern_wins(b->rule, 3 - c, u))
            u = RJ_PT_FIVE;
        own += WEIGHT[t];
        opp += WEIGHT[u];
        fours += t == RJ_PT_DEAD4 || t == RJ_PT_LIVE4;
        threes += t == RJ_PT_LIVE3;
    }
    if (fours >= 2 || (fours && threes))
        own += 15000;
    else if (threes >= 2)
        own += 2000;
    return own + opp * 9 / 10;
}

int rj_point_scores(rj_board *b, int32_t *out)
{
    const int n = b->size, c = b->to_move;
    int best = -1;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int pos = rj_pos(x, y);
            int v = rj_legal_for(b, c, pos) ? point_score(b, pos, c) : -1;
            out[y * n + x] = v;
            if (v > best)
                best = v;
        }
    return best;
}

/* Static evaluation for the side to move, from the pattern counts of both colours. */
static int evaluate(const rj_board *b)
{
    static const int W[RJ_PT_COUNT] = {
        [RJ_PT_DEAD1] = 1, [RJ_PT_LIVE1] = 2, [RJ_PT_DEAD2] = 4, [RJ_PT_LIVE2] = 12, [RJ_PT_DEAD3] = 15,
        [RJ_PT_LIVE3] = 80, [RJ_PT_DEAD4] = 90, [RJ_PT_LIVE4] = 600,
    };
    const int c = b->to_move - 1, o = 1 - c;
    int v = 0;
    for (int t = 0; t < RJ_PT_COUNT; t++)
        v += W[t] * (b->count[c][t] - b->count[o][t]);
    return v;
}

#define AB_WIN RJ_AB_WIN
#define AB_MAX_MOVES 12 /* only the best-scored candidates are searched */

struct ab {
    rj_board *b;
    double deadline;
    int64_t nodes;
    int stopped;
};

static void probe(rj_board *b, int pos)
{
    rj_set_stone(b, pos, b->to_move);
    b->to_move = 3 - b->to_move;
}

static void unprobe(rj_board *b, int pos)
{
    rj_set_stone(b, pos, RJ_EMPTY);
    b->to_move = 3 - b->to_move;
}

/* Candidates ordered by point score, at most `cap`. */
static int ordered_moves(rj_board *b, int16_t *out, int cap)
{
    rj_list l;
    rj_filter(b, 2, &l);
    int score[RJ_MAX_LIST];
    for (int i = 0; i < l.n; i++)
        score[i] = point_score(b, l.pos[i], b->to_move);
    int n = l.n < cap ? l.n : cap;
    for (int i = 0; i < n; i++) { /* partial selection sort: n is small */
        int best = i;
        for (int j = i + 1; j < l.n; j++)
            if (score[j] > score[best])
                best = j;
        int ts = score[i], tp = l.pos[i];
        score[i] = score[best];
        l.pos[i] = l.pos[best];
        score[best] = ts;
        l.pos[best] = (int16_t)tp;
        out[i] = l.pos[i];
    }
    return n;
}

static int alphabeta(struct ab *s, int depth, int alpha, int beta, int ply)
{
    rj_board *b = s->b;
    const int c = b->to_move, o = 3 - c;
    if ((++s->nodes & 255) == 0 && rj_now_ns() >= s->deadline)
        s->stopped = 1;
    if (s->stopped)
        return 0;
    if (rj_set_count(b, c, RJ_SET_FIVE, 1))
        return AB_WIN - ply;
    int fives = rj_set_count(b, o, RJ_SET_FIVE, 2);
    if (fives >= 2)
        return -(AB_WIN - ply - 1);
    if (b->nstones >= b->size * b->size)
        return 0;
    if (depth <= 0 && !fives)
        return evaluate(b);
    int16_t moves[AB_MAX_MOVES];
    int n = ordered_moves(b, moves, AB_MAX_MOVES);
    if (n == 0)
        return fives ? -(AB_WIN - ply - 1) : 0;
    int best = -AB_WIN;
    for (int i = 0; i < n; i++) {
        probe(b, moves[i]);
        int v = -alphabeta(s, depth - 1, -beta, -alpha, ply + 1);
        unprobe(b, moves[i]);
        if (s->stopped)
            return 0;
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

int rj_alphabeta(rj_board *b, int max_depth, double max_ms, int16_t *x, int16_t *y, int *depth_reached,
                 int64_t *nodes, int *value)
{
    struct ab s = {b, rj_now_ns() + max_ms * 1e6, 0, 0};
    int16_t moves[AB_MAX_MOVES];
    int n = ordered_moves(b, moves, AB_MAX_MOVES);
    *depth_reached = 0;
    *value = 0;
    if (n == 0)
        return RJ_E_GAMEOVER;
    int best = moves[0];
    for (int depth = 1; depth <= max_depth; depth++) {
        int alpha = -AB_WIN - 1, it_best = -1, it_value = -AB_WIN - 1;
        /* the previous best first */
        for (int i = 0; i < n; i++)
            if (moves[i] == best && i) {
                int16_t t = moves[0];
                moves[0] = moves[i];
                moves[i] = t;
            }
        for (int i = 0; i < n && !s.stopped; i++) {
            probe(b, moves[i]);
            int v = -alphabeta(&s, depth - 1, -AB_WIN - 1, -alpha, 1);
            unprobe(b, moves[i]);
            if (s.stopped)
                break;
            if (v > it_value) {
                it_value = v;
                it_best = moves[i];
            }
            if (v > alpha)
                alpha = v;
        }
        if (s.stopped || it_best < 0)
            break;
        best = it_best;
        *depth_reached = depth;
        *value = it_value;
        if (it_value >= AB_WIN - 100 || it_value <= -AB_WIN + 100)
            break; /* decided */
    }
    *x = (int16_t)rj_pos_x(best);
    *y = (int16_t)rj_pos_y(best);
    *nodes = s.nodes;
    return RJ_OK;
}

/* ---- rollouts ------------------------------------------------------------------------- */

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int rj_rollout(rj_board *b, uint64_t seed, int max_moves)
{
    uint64_t rng = seed;
    int16_t played[RJ_MAX_MOVES];
    int np = 0, winner = RJ_ONGOING;
    while (np < max_moves && b->nstones < b->size * b->size) {
        const int c = b->to_move, o = 3 - c;
        int move = -1;
        RJ_FOR_SET(b, c, RJ_SET_FIVE, pos, {
            move = pos;
            break;
        });
        if (move >= 0) { /* win if you can */
            winner = c;
            break;
        }
        RJ_FOR_SET(b, o, RJ_SET_FIVE, pos, {
            if (rj_legal_for(b, c, pos)) {
                move = pos;
                break;
            }
        });
        if (move < 0) { /* otherwise score-weighted among the candidates */
            rj_list l;
            rj_filter(b, 1, &l);
            if (l.n == 0)
                break;
            int64_t total = 0;
            int w[RJ_MAX_LIST];
            for (int i = 0; i < l.n; i++) {
                int sc = point_score(b, l.pos[i], c);
                w[i] = 1 + sc * sc / 256 + sc; /* favour strong points, keep the rest possible */
                total += w[i];
            }
            int64_t r = (int64_t)(next_random(&rng) % (uint64_t)total);
            for (int i = 0; i < l.n; i++) {
                r -= w[i];
                if (r < 0) {
                    move = l.pos[i];
                    break;
                }
            }
            if (move < 0)
                move = l.pos[l.n - 1];
        }
        probe(b, move);
        played[np++] = (int16_t)move;
    }
    while (np > 0)
        unprobe(b, played[--np]);
    return winner;
}
