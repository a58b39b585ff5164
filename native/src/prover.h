/*
 * prover.h — threat-space proofs for the side to move: VCF (victory by continuous fours) and
 * UTSS (the method's unified threat-space search: WIN / DRAW / LOSE / UNCERTAIN over M(c),
 * negamax with iterative deepening and a transposition table). Node and time budgets are
 * checked every RJ_BUDGET_CHECK nodes, a few microseconds of work apart.
 */
#ifndef RJ_PROVER_H
#define RJ_PROVER_H

#include "board.h"

#define RJ_BUDGET_CHECK 64

#endif
