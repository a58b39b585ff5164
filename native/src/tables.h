/*
 * tables.h — pattern tables generated from the rules.
 *
 * A line window is the 10 cells at offsets -5..-1, +1..+5 from a point along one direction,
 * 2 bits each (rj_color), packed into a 20-bit key: offset k < 0 sits at slot k + 5, offset
 * k > 0 at slot k + 4. ±5 cells is exactly enough: every five through the point lies within
 * ±4 and its end cells within ±5.
 *
 * The table of a rule maps a key to one byte: low nibble the pattern type for black at the
 * centre, high nibble the type for white.
 */
#ifndef RJ_TABLES_H
#define RJ_TABLES_H

#include <stdint.h>

#include "renju.h"

#define RJ_KEY_BITS 20
#define RJ_KEY_COUNT (1u << RJ_KEY_BITS)

/* Slot of line offset k (k in -5..-1, 1..5) inside a key. */
static inline int rj_key_slot(int k) { return k < 0 ? k + 5 : k + 4; }

/* The rule's table, or NULL if it has not been built (rj_tables_init builds it). */
const uint8_t *rj_table(int rule);

/* Threat point sets: what a stone of a colour on an empty point makes on some line. */
enum rj_set {
    RJ_SET_FIVE = 0,  /* a winning line now */
    RJ_SET_FOUR = 1,  /* a four (one or two completion points) */
    RJ_SET_LIVE4 = 2, /* a straight four (two completion points) */
    RJ_SET_THREE = 3, /* a live three */
    RJ_NUM_SETS = 4
};
/* The rule's summary table: for a packed pattern byte (see rj_table), low nibble the set bits
 * (1 << RJ_SET_*) for black, high nibble for white. OR it over a point's four directions.
 * Renju black's same-line double four and overline are fouls, so they are in no set. */
const uint8_t *rj_summary_table(int rule);

/* Generates a rule's table into out (RJ_KEY_COUNT bytes). */
void rj_table_generate(int rule, uint8_t *out);

/* Does an unbroken run of `len` stones of colour c win, given the cells just beyond its ends
 * (rj_color values; RJ_WALL is the board edge)? The one statement of the winning rules. */
static inline int rj_run_wins(int rule, int c, int len, int left_end, int right_end)
{
    if (len < 5)
        return 0;
    const int opp = 3 - c;
    const int blocked = (left_end == opp || left_end == RJ_WALL) && (right_end == opp || right_end == RJ_WALL);
    switch (rule) {
    case RJ_FREESTYLE: return 1;
    case RJ_STANDARD: return len == 5;
    case RJ_RENJU: return c == RJ_WHITE || len == 5;
    case RJ_CARO: return len > 5 || !blocked;
    case RJ_CARO_EXACT: return len == 5 && !blocked;
    default: return 0;
    }
}

static inline int rj_pat_of(uint8_t packed, int color) { return color == 1 ? (packed & 15) : (packed >> 4); }

#endif
