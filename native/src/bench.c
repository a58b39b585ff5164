/*
 * bench.c — timings taken inside C, so the figures in docs/benchmarks.md do not include the
 * Python/cffi call overhead.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdlib.h>

#include "board.h"
#include "clock.h"

#define now_ns rj_now_ns

double rj_bench_play_undo(rj_board *b, const int16_t *xs, const int16_t *ys, int n, int rounds)
{
    int done = 0;
    double t0 = now_ns();
    for (int r = 0; r < rounds; r++) {
        int played = 0;
        for (int i = 0; i < n; i++)
            played += rj_play(b, xs[i], ys[i]) == RJ_OK;
        for (int i = 0; i < played; i++)
            rj_undo(b);
        done += played;
    }
    double t1 = now_ns();
    return done ? (t1 - t0) / done : 0.0;
}

double rj_bench_probe(rj_board *b, const int16_t *xs, const int16_t *ys, int n, int rounds)
{
    int pos[RJ_MAX_MOVES], m = 0;
    for (int i = 0; i < n && m < RJ_MAX_MOVES; i++) /* the listed empty points, each once */
        if (rj_get(b, xs[i], ys[i]) == RJ_EMPTY) {
            int p = rj_pos(xs[i], ys[i]), dup = 0;
            for (int j = 0; j < m; j++)
                dup |= pos[j] == p;
            if (!dup)
                pos[m++] = p;
        }
    double t0 = now_ns();
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < m; i++)
            rj_probe_stone(b, pos[i], i % 2 ? RJ_WHITE : RJ_BLACK);
        for (int i = m - 1; i >= 0; i--)
            rj_probe_stone(b, pos[i], RJ_EMPTY);
    }
    double dt = now_ns() - t0;
    return rounds > 0 && m > 0 ? dt / ((double)rounds * m) : 0.0;
}

double rj_bench_forbidden(rj_board *b, int rounds)
{
    uint8_t out[RJ_MAX_SIZE * RJ_MAX_SIZE];
    volatile int sink = 0;
    double t0 = now_ns();
    for (int r = 0; r < rounds; r++)
        sink += rj_forbidden_points(b, out);
    (void)sink;
    return (now_ns() - t0) / (rounds > 0 ? rounds : 1);
}

double rj_bench_recompute(rj_board *b, int rounds)
{
    double t0 = now_ns();
    for (int r = 0; r < rounds; r++)
        rj_board_recompute(b);
    return (now_ns() - t0) / (rounds > 0 ? rounds : 1);
}

double rj_bench_table_build(int rule, int rounds)
{
    uint8_t *t = malloc(RJ_KEY_COUNT);
    if (!t)
        return -1.0;
    double t0 = now_ns();
    for (int r = 0; r < rounds; r++)
        rj_table_generate(rule, t);
    double dt = (now_ns() - t0) / (rounds > 0 ? rounds : 1);
    free(t);
    return dt;
}
