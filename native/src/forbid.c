/*
 * forbid.c — the exact forbidden-move check. The pattern codes propose (two fours, two threes,
 * an overline); only candidate double threes need probe moves, placed and removed with the
 * incremental primitive so the board is always restored.
 */
#include "forbid.h"

/* Returned at depth > 0 for a point that makes a five: such a point cannot turn a three into a
 * straight four (RIF: the added stone must not make a five at the same time). */
#define FOUL_FIVE 4

static int foul_rec(rj_board *b, int pos, int depth);

/* With black already on pos: is the LIVE3 in direction d real, i.e. does some empty point q make
 * a straight four through pos while being a usable (not forbidden, not five) black move? */
static int three_is_real(rj_board *b, int pos, int d, int depth)
{
    const int D = RJ_DIR[d];
    for (int k = -4; k <= 4; k++) {
        int q = pos + k * D;
        if (k == 0 || b->cell[q] != RJ_EMPTY)
            continue;
        /* pos's line key with q added: LIVE4 means q makes a straight four through pos. */
        uint32_t key = b->key[pos][d] | (uint32_t)RJ_BLACK << (2 * rj_key_slot(k));
        if (rj_pat_of(b->table[key], RJ_BLACK) != RJ_PT_LIVE4)
            continue;
        if (foul_rec(b, q, depth + 1) == RJ_FOUL_NONE)
            return 1;
    }
    return 0;
}

static int foul_rec(rj_board *b, int pos, int depth)
{
    int t[4], fours = 0, threes = 0, overline = 0;
    for (int d = 0; d < 4; d++) {
        t[d] = rj_pat(b, pos, d, RJ_BLACK);
        if (t[d] == RJ_PT_FIVE)
            return depth ? FOUL_FIVE : RJ_FOUL_NONE;
    }
    for (int d = 0; d < 4; d++) {
        fours += (t[d] == RJ_PT_LIVE4 || t[d] == RJ_PT_DEAD4) + 2 * (t[d] == RJ_PT_FORBID);
        threes += t[d] == RJ_PT_LIVE3;
        overline |= t[d] == RJ_PT_OVERLINE;
    }
    if (fours >= 2)
        return RJ_FOUL_DOUBLE_FOUR;
    if (threes >= 2) {
        int real = 0;
        rj_probe_stone(b, pos, RJ_BLACK); /* probe: the stone stays while its threes are tested */
        for (int d = 0; d < 4 && real < 2; d++)
            if (t[d] == RJ_PT_LIVE3)
                real += three_is_real(b, pos, d, depth);
        rj_probe_stone(b, pos, RJ_EMPTY);
        if (real >= 2)
            return RJ_FOUL_DOUBLE_THREE;
    }
    return overline ? RJ_FOUL_OVERLINE : RJ_FOUL_NONE;
}

int rj_foul_pos(rj_board *b, int pos)
{
    if (b->rule != RJ_RENJU || b->cell[pos] != RJ_EMPTY)
        return RJ_FOUL_NONE;
    return foul_rec(b, pos, 0);
}

int rj_foul(rj_board *b, int x, int y)
{
    if (x < 0 || y < 0 || x >= b->size || y >= b->size)
        return RJ_FOUL_NONE;
    return rj_foul_pos(b, rj_pos(x, y));
}

int rj_forbidden_points(rj_board *b, uint8_t *out)
{
    const int n = b->size;
    int count = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int f = rj_foul_pos(b, rj_pos(x, y));
            out[y * n + x] = (uint8_t)f;
            count += f != RJ_FOUL_NONE;
        }
    return count;
}
