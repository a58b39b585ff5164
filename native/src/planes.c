/*
 * planes.c — input planes, from the side to move's point of view (see renju.h for the layout).
 */
#include <string.h>

#include "forbid.h"
#include "planes.h"
#include "threats.h"

/* Planes 7-11 or 12-16 at one empty point for colour `color`: the strongest line its stone makes
 * there and how many lines reach a live three; `legal` says whether the colour may play it;
 * levels[p] is rj_threat_level of pattern p for the rule and colour. */
static void threat_planes(const rj_board *b, int pos, int color, int legal, const int8_t *levels, float *base,
                          int i, int area)
{
    int best = 0, lines = 0;
    for (int d = 0; d < 4; d++) {
        int level = levels[rj_pat(b, pos, d, color)];
        best = level > best ? level : best;
        lines += level >= 1;
    }
    if (best == 4) {
        base[i] = 1.0f; /* an exact five is never forbidden */
        return;
    }
    if (!legal)
        return;
    if (best == 3)
        base[area + i] = 1.0f;
    else if (best == 2)
        base[2 * area + i] = 1.0f;
    else if (best == 1)
        base[3 * area + i] = 1.0f;
    if (lines >= 2)
        base[4 * area + i] = 1.0f;
}

int rj_planes_version(rj_board *b, int version, float *out)
{
    if (version == 0)
        version = RJ_FEATURE_VERSION;
    if (version != 1 && version != RJ_FEATURE_VERSION)
        return RJ_E_BADKIND;
    const int count = version == 1 ? RJ_PLANES_V1 : RJ_PLANES;
    const int n = b->size, c = b->to_move, o = 3 - c, area = n * n;
    memset(out, 0, sizeof(float) * (size_t)count * (size_t)area);
    float *own = out, *opp = out + area, *side = out + 2 * area, *near = out + 3 * area;
    float *attack = out + 4 * area, *defence = out + 5 * area, *potential = out + 6 * area;
    float *mine = out + 7 * area, *theirs = out + 12 * area, *forbidden = out + 17 * area;
    uint8_t close[RJ_CELLS], foul[RJ_MAX_SIZE * RJ_MAX_SIZE];
    memset(close, 0, sizeof close);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int v = b->cell[rj_pos(x, y)], i = y * n + x;
            if (c == RJ_BLACK)
                side[i] = 1.0f;
            if (v == c)
                own[i] = 1.0f;
            else if (v == o)
                opp[i] = 1.0f;
            if (v != RJ_BLACK && v != RJ_WHITE)
                continue;
            for (int dy = -3; dy <= 3; dy++)
                for (int dx = -3; dx <= 3; dx++)
                    if (x + dx >= 0 && x + dx < n && y + dy >= 0 && y + dy < n)
                        close[rj_pos(x + dx, y + dy)] = 1;
        }
    rj_list d, a;
    rj_defence(b, &d);
    rj_attack(b, &d, &a, NULL);
    for (int i = 0; i < d.n; i++)
        defence[rj_pos_y(d.pos[i]) * n + rj_pos_x(d.pos[i])] = 1.0f;
    for (int i = 0; i < a.n; i++)
        attack[rj_pos_y(a.pos[i]) * n + rj_pos_x(a.pos[i])] = 1.0f;
    const int all = version > 1;
    int8_t levels[2][RJ_PT_COUNT];
    if (all) {
        rj_forbidden_points(b, foul); /* all zero unless the rule is Renju */
        for (int p = 0; p < RJ_PT_COUNT; p++)
            for (int k = 0; k < 2; k++)
                levels[k][p] = (int8_t)rj_threat_level(b->rule, k ? o : c, p);
    }
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int pos = rj_pos(x, y), i = y * n + x;
            if (b->cell[pos] != RJ_EMPTY)
                continue;
            if (close[pos])
                near[i] = 1.0f;
            int best = RJ_PT_NONE;
            for (int dir = 0; dir < 4; dir++) {
                int t = rj_pat(b, pos, dir, c);
                if (t != RJ_PT_FORBID && t != RJ_PT_OVERLINE && t > best)
                    best = t;
            }
            if (!all) { /* version 1 asks about legality only here, and pays for no other foul check */
                if (best >= RJ_PT_LIVE2 && rj_legal_for(b, c, pos))
                    potential[i] = 1.0f;
                continue;
            }
            int black_may = foul[i] == RJ_FOUL_NONE;
            int c_may = c != RJ_BLACK || black_may, o_may = o != RJ_BLACK || black_may;
            if (!black_may)
                forbidden[i] = 1.0f;
            if (best >= RJ_PT_LIVE2 && c_may)
                potential[i] = 1.0f;
            threat_planes(b, pos, c, c_may, levels[0], mine, i, area);
            threat_planes(b, pos, o, o_may, levels[1], theirs, i, area);
        }
    return count;
}

int rj_planes(rj_board *b, float *out)
{
    return rj_planes_version(b, RJ_FEATURE_VERSION, out);
}
