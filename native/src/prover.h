/*
 * prover.h — threat-space proofs for the side to move: VCF (victory by continuous fours) and
 * UTSS (the method's unified threat-space search: WIN / DRAW / LOSE / UNCERTAIN over M(c),
 * negamax with iterative deepening and a transposition table). The node budget holds exactly;
 * the clock is read every RJ_BUDGET_CHECK nodes, a few microseconds of work apart.
 *
 * What keeps UTSS small (all sound: a pruned move counts as unknown, never as lost or won):
 * a node whose parent only asks "is it lost?" stops at its first move that holds within the
 * depth, and that move is tried first in the next iteration; with one ply left a move making a
 * single three or four is not probed (the reply has a block); leaves answer from the threat sets;
 * fukumi moves are generated only when the node's threat moves have not settled it.
 * RJ_PROVE_UTSS_EXACT turns off the first two to tell draws from unknowns.
 */
#ifndef RJ_PROVER_H
#define RJ_PROVER_H

#include "board.h"

#define RJ_BUDGET_CHECK 64

#endif
