/*
 * puct.c — PUCT child selection (see renju.h): Q + c * P * sqrt(N + 1) / (1 + n), unvisited
 * children at the parent's Q minus the first-play urgency, proven children at their exact value.
 */
#include <math.h>

#include "puct.h"

int rj_puct_select(const float *prior, const float *visits, const float *value_sum, const int8_t *proven, int k,
                   float c_puct, float fpu)
{
    double n_total = 0.0, w_total = 0.0;
    for (int i = 0; i < k; i++) {
        n_total += visits[i];
        w_total += value_sum[i];
    }
    const double unvisited_q = n_total > 0 ? w_total / n_total - fpu : 0.0;
    const double scale = c_puct * sqrt(n_total + 1.0);
    int best = 0;
    double best_score = -INFINITY;
    for (int i = 0; i < k; i++) {
        double score;
        if (proven[i] < 0) /* a child lost for its mover: take it */
            score = 1e9;
        else if (proven[i] > 0) /* a child won for its mover: only when nothing else is left */
            score = scale * prior[i] / (1.0 + visits[i]) - 1e9;
        else {
            double q = visits[i] > 0 ? value_sum[i] / visits[i] : unvisited_q;
            score = q + scale * prior[i] / (1.0 + visits[i]);
        }
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    return best;
}
