/*
 * planes.h — the neural network's input planes, computed from the board in one call, so that
 * training and play share a single encoder. RJ_FEATURE_VERSION (renju.h) names this layout.
 */
#ifndef RJ_PLANES_H
#define RJ_PLANES_H

#include "board.h"

#endif
