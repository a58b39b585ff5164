/*
 * clock.h — a monotonic clock in nanoseconds, for budgets and benchmarks.
 */
#ifndef RJ_CLOCK_H
#define RJ_CLOCK_H

#ifdef _WIN32
#include <windows.h>
static inline double rj_now_ns(void)
{
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart * 1e9 / (double)f.QuadPart;
}
#else
#include <time.h>
static inline double rj_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}
#endif

#endif
