/*
 * planes.c — input planes, from the side to move's point of view (see renju.h for the layout).
 */
#include <string.h>

#include "planes.h"
#include "threats.h"

int rj_planes(rj_board *b, float *out)
{
    const int n = b->size, c = b->to_move, o = 3 - c, area = n * n;
    memset(out, 0, sizeof(float) * RJ_PLANES * (size_t)area);
    float *own = out, *opp = out + area, *side = out + 2 * area, *near = out + 3 * area;
    float *attack = out + 4 * area, *defence = out + 5 * area, *potential = out + 6 * area;
    uint8_t close[RJ_CELLS];
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
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int pos = rj_pos(x, y);
            if (b->cell[pos] != RJ_EMPTY)
                continue;
            if (close[pos])
                near[y * n + x] = 1.0f;
            int best = RJ_PT_NONE;
            for (int dir = 0; dir < 4; dir++) {
                int t = rj_pat(b, pos, dir, c);
                if (t != RJ_PT_FORBID && t != RJ_PT_OVERLINE && t > best)
                    best = t;
            }
            if (best >= RJ_PT_LIVE2 && rj_legal_for(b, c, pos))
                potential[y * n + x] = 1.0f;
        }
    return RJ_PLANES;
}
