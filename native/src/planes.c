/*
 * planes.c — input planes, from the side to move's point of view (see renju.h for the layout).
 */
#include <string.h>

#include "forbid.h"
#include "planes.h"
#include "threats.h"

/* Planes 7-11 or 12-16 at one empty point for colour `color`: the strongest line its stone makes
 * there and how many lines reach a live three; `legal` says whether the colour may play it. */
static void threat_planes(const rj_board *b, int pos, int color, int legal, float *base, int i, int area)
{
    int best = 0, lines = 0;
    for (int d = 0; d < 4; d++) {
        int level = rj_threat_level(b->rule, color, rj_pat(b, pos, d, color));
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

int rj_planes(rj_board *b, float *out)
{
    const int n = b->size, c = b->to_move, o = 3 - c, area = n * n;
    memset(out, 0, sizeof(float) * RJ_PLANES * (size_t)area);
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
    rj_forbidden_points(b, foul); /* all zero unless the rule is Renju */
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int pos = rj_pos(x, y), i = y * n + x;
            if (b->cell[pos] != RJ_EMPTY)
                continue;
            int black_may = foul[i] == RJ_FOUL_NONE;
            int c_may = c != RJ_BLACK || black_may, o_may = o != RJ_BLACK || black_may;
            if (!black_may)
                forbidden[i] = 1.0f;
            if (close[pos])
                near[i] = 1.0f;
            int best = RJ_PT_NONE;
            for (int dir = 0; dir < 4; dir++) {
                int t = rj_pat(b, pos, dir, c);
                if (t != RJ_PT_FORBID && t != RJ_PT_OVERLINE && t > best)
                    best = t;
            }
            if (best >= RJ_PT_LIVE2 && c_may)
                potential[i] = 1.0f;
            threat_planes(b, pos, c, c_may, mine, i, area);
            threat_planes(b, pos, o, o_may, theirs, i, area);
        }
    return RJ_PLANES;
}
