/*
 * forbid.h — Renju forbidden moves for black, exact, as the Gomocup referee judges them:
 * an exact five is never forbidden; two or more fours (same-line double fours count twice) is a
 * double four; two or more real threes is a double three, where a three is real only if one of
 * its straight-four points is itself a legal, non-five black move (checked recursively with the
 * stone in place); otherwise six or more in a row is an overline.
 */
#ifndef RJ_FORBID_H
#define RJ_FORBID_H

#include "board.h"

/* Foul kind (enum rj_foul) of black at the empty pos; the board is restored before returning. */
int rj_foul_pos(rj_board *b, int pos);

#endif
