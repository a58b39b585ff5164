/*
 * threats.c — threat levels, D(c), A(c), M(c) and the move filter (see threats.h).
 */
#include <string.h>

#include "forbid.h"
#include "threats.h"

int rj_legal_for(rj_board *b, int color, int pos)
{
    if (b->cell[pos] != RJ_EMPTY)
        return 0;
    return !(color == RJ_BLACK && b->rule == RJ_RENJU && rj_foul_pos(b, pos) != RJ_FOUL_NONE);
}

/* Straight-four points colour c can actually play. */
static int playable_live4(rj_board *b, int color)
{
    int n = 0;
    RJ_FOR_SET(b, color, RJ_SET_LIVE4, pos, n += rj_legal_for(b, color, pos));
    return n;
}

int rj_threat_of(rj_board *b, int color)
{
    int fives = rj_set_count(b, color, RJ_SET_FIVE, 2);
    if (fives >= 2)
        return 3;
    if (fives == 1)
        return 2;
    return playable_live4(b, color) ? 1 : 0;
}

static void push(rj_list *l, rj_points *seen, int pos)
{
    if (!rj_points_has(seen, pos) && l->n < RJ_MAX_LIST) {
        rj_points_add(seen, pos);
        l->pos[l->n++] = (int16_t)pos;
    }
}

void rj_defence(rj_board *b, rj_list *out)
{
    const int c = b->to_move, o = 3 - c;
    rj_points seen = {{0}};
    out->n = 0;
    int level = rj_threat_of(b, o);
    if (level >= 2) { /* o has a four: only its five points can be blocked */
        RJ_FOR_SET(b, o, RJ_SET_FIVE, pos, if (rj_legal_for(b, c, pos)) push(out, &seen, pos));
        return;
    }
    if (level == 0)
        return;
    /* o has live threes. A point q defends a line d holding o's playable straight-four points
     * when, with c's stone on q, none of them is a straight-four point any more: read from the
     * line keys, without playing q. Defences lie within 4 of those points on that line. */
    rj_points live = {{0}}, tried[4] = {{{0}}};
    RJ_FOR_SET(b, o, RJ_SET_LIVE4, p, if (rj_legal_for(b, o, p)) rj_points_add(&live, p));
    RJ_FOR_SET(b, o, RJ_SET_LIVE4, p, {
        if (!rj_points_has(&live, p))
            continue;
        for (int d = 0; d < 4; d++) {
            int t = rj_pat(b, p, d, o);
            if (t != RJ_PT_LIVE4 && t != RJ_PT_FORBID)
                continue;
            const int D = RJ_DIR[d];
            for (int k = -4; k <= 4; k++) {
                int q = p + k * D;
                if (b->cell[q] != RJ_EMPTY || rj_points_has(&tried[d], q))
                    continue;
                rj_points_add(&tried[d], q);
                /* every straight-four point of o on this line within 5 of q must go */
                int defends = 1;
                for (int j = -5; j <= 5 && defends; j++) {
                    int r = q + j * D;
                    if (b->cell[r] == RJ_WALL)
                        continue;
                    if (j == 0 || b->cell[r] != RJ_EMPTY || !rj_points_has(&live, r))
                        continue;
                    int tr = rj_pat(b, r, d, o);
                    if (tr != RJ_PT_LIVE4 && tr != RJ_PT_FORBID)
                        continue;
                    uint32_t key = b->key[r][d] | (uint32_t)c << (2 * rj_key_slot(-j));
                    int after = rj_pat_of(b->table[key], o);
                    defends = after != RJ_PT_LIVE4 && after != RJ_PT_FORBID;
                }
                if (defends && rj_legal_for(b, c, q))
                    push(out, &seen, q);
            }
        }
    });
}

void rj_attack(rj_board *b, const rj_list *defence, rj_list *out, int *attack_pure)
{
    const int c = b->to_move, o = 3 - c;
    rj_points seen = {{0}};
    out->n = 0;
    int level = rj_threat_of(b, o);
    if (level <= 1) { /* pure attacks: straight fours, fours, then (unthreatened) threes */
        RJ_FOR_SET(b, c, RJ_SET_LIVE4, pos, if (rj_legal_for(b, c, pos)) push(out, &seen, pos));
        RJ_FOR_SET(b, c, RJ_SET_FOUR, pos, if (rj_legal_for(b, c, pos)) push(out, &seen, pos));
        if (level == 0)
            RJ_FOR_SET(b, c, RJ_SET_THREE, pos, if (rj_legal_for(b, c, pos)) push(out, &seen, pos));
    }
    if (attack_pure)
        *attack_pure = out->n;
    for (int i = 0; i < defence->n; i++) { /* defences that also threaten */
        int q = defence->pos[i];
        if (b->sum[q] >> (c == RJ_BLACK ? 0 : 4) & 0xF)
            push(out, &seen, q);
    }
}

void rj_unified(rj_board *b, rj_list *out)
{
    rj_list d, a;
    rj_defence(b, &d);
    rj_attack(b, &d, &a, NULL);
    rj_points seen = {{0}};
    out->n = 0;
    for (int i = 0; i < a.n; i++)
        push(out, &seen, a.pos[i]);
    for (int i = 0; i < d.n; i++)
        push(out, &seen, d.pos[i]);
}

void rj_filter(rj_board *b, int radius, rj_list *out)
{
    const int c = b->to_move, o = 3 - c, n = b->size;
    rj_points seen = {{0}};
    out->n = 0;
    RJ_FOR_SET(b, c, RJ_SET_FIVE, pos, push(out, &seen, pos)); /* a five is never a foul */
    if (out->n)
        return;
    if (rj_threat_of(b, o) >= 1) {
        rj_unified(b, out);
        return;
    }
    if (b->nstones == 0) {
        out->pos[out->n++] = (int16_t)rj_pos(n / 2, n / 2);
        return;
    }
    uint8_t near[RJ_CELLS];
    memset(near, 0, sizeof near);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int v = b->cell[rj_pos(x, y)];
            if (v != RJ_BLACK && v != RJ_WHITE)
                continue;
            for (int dy = -radius; dy <= radius; dy++)
                for (int dx = -radius; dx <= radius; dx++)
                    if (x + dx >= 0 && x + dx < n && y + dy >= 0 && y + dy < n)
                        near[rj_pos(x + dx, y + dy)] = 1;
        }
    for (int q = 0; q < RJ_CELLS; q++)
        if (near[q] && rj_legal_for(b, c, q))
            push(out, &seen, q);
}

int rj_list_xy(const rj_list *l, int16_t *xs, int16_t *ys)
{
    for (int i = 0; i < l->n; i++) {
        xs[i] = (int16_t)rj_pos_x(l->pos[i]);
        ys[i] = (int16_t)rj_pos_y(l->pos[i]);
    }
    return l->n;
}

int rj_defence_set(rj_board *b, int16_t *xs, int16_t *ys)
{
    rj_list d;
    rj_defence(b, &d);
    return rj_list_xy(&d, xs, ys);
}

int rj_attack_set(rj_board *b, int16_t *xs, int16_t *ys, int *pure)
{
    rj_list d, a;
    rj_defence(b, &d);
    rj_attack(b, &d, &a, pure);
    return rj_list_xy(&a, xs, ys);
}

int rj_unified_set(rj_board *b, int16_t *xs, int16_t *ys)
{
    rj_list m;
    rj_unified(b, &m);
    return rj_list_xy(&m, xs, ys);
}

int rj_threat(rj_board *b, int color)
{
    return (color == RJ_BLACK || color == RJ_WHITE) ? rj_threat_of(b, color) : 0;
}

int rj_filter_moves(rj_board *b, int radius, int16_t *xs, int16_t *ys)
{
    rj_list l;
    rj_filter(b, radius, &l);
    return rj_list_xy(&l, xs, ys);
}
