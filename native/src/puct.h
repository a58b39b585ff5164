/*
 * puct.h — the MCTS selection rule over one node's child arrays, in C because it runs at every
 * level of every playout and numpy's per-call overhead dominates on ~50-element arrays.
 */
#ifndef RJ_PUCT_H
#define RJ_PUCT_H

#include "renju.h"

#endif
