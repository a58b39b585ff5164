/*
 * baseline.h — the classic engines' hot loops: a pattern evaluation, move ordering by pattern
 * score, iterative-deepening alpha-beta, and heuristic rollouts for UCT.
 */
#ifndef RJ_BASELINE_H
#define RJ_BASELINE_H

#include "board.h"

#endif
