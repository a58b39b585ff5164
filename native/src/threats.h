/*
 * threats.h — threat levels and the method's threat move sets for the side to move c against
 * its opponent o (the method's, docs/engine.md "How it plays"):
 *   D(c)  defence: points where c's stone lowers o's threat (o's five points when o has a four;
 *         the points that take away o's straight-four points when o has a live three);
 *   A(c)  attack: c's moves that raise c's threat above o's level (fours, and threes when o has
 *         no threat), then moves of D(c) that also make a threat of c's own;
 *   M(c)  = A(c) ∪ D(c), pure attacks first.
 * Black's forbidden points never enter black's sets; white's threats against which black's only
 * answers are forbidden stay threats.
 */
#ifndef RJ_THREATS_H
#define RJ_THREATS_H

#include "board.h"

#define RJ_MAX_LIST 512

typedef struct {
    int n;
    int16_t pos[RJ_MAX_LIST];
} rj_list;

/* A set of points as a bitmap: the per-node "seen" marks cost 128 bytes to clear, not 1 KB. */
typedef struct {
    uint64_t w[RJ_CELLS / 64];
} rj_points;

static inline int rj_points_has(const rj_points *s, int pos) { return (int)(s->w[pos >> 6] >> (pos & 63)) & 1; }
static inline void rj_points_add(rj_points *s, int pos) { s->w[pos >> 6] |= 1ull << (pos & 63); }

/* May colour c play the empty pos (not a foul for Renju black)? */
int rj_legal_for(rj_board *b, int color, int pos);
/* The threat colour c poses to its opponent now: 3 two or more five points, 2 one five point,
 * 1 a playable straight-four point (a live three), 0 none. */
int rj_threat_of(rj_board *b, int color);
/* The sets for the side to move. attack_pure (may be NULL) receives how many of the attack
 * set's moves are pure attacks. */
void rj_defence(rj_board *b, rj_list *out);
void rj_attack(rj_board *b, const rj_list *defence, rj_list *out, int *attack_pure);
void rj_unified(rj_board *b, rj_list *out);
/* Candidate moves for search: immediate wins only if any; else M(c) when the opponent
 * threatens; else every playable point within `radius` (Chebyshev) of a stone (the centre on an
 * empty board). */
void rj_filter(rj_board *b, int radius, rj_list *out);
/* Writes a list's points as x, y coordinates; returns how many. */
int rj_list_xy(const rj_list *l, int16_t *xs, int16_t *ys);

#endif
