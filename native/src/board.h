/*
 * board.h — the board: stones on a padded 32x32 grid, and per point and direction the 20-bit
 * line key plus the pattern codes of both colours, all updated incrementally. A stone changes
 * the keys of the (at most) 40 points within 5 along the four lines through it and nothing else.
 *
 * Internal to the native core (other C components include it); Python sees rj_board as opaque.
 */
#ifndef RJ_BOARD_H
#define RJ_BOARD_H

#include <stdint.h>

#include "renju.h"
#include "tables.h"

#define RJ_PAD 5
#define RJ_STRIDE 32 /* RJ_MAX_SIZE + 2 * RJ_PAD */
#define RJ_CELLS (RJ_STRIDE * RJ_STRIDE)

/* Point index of (x, y) in the padded grid. */
static inline int rj_pos(int x, int y) { return (y + RJ_PAD) * RJ_STRIDE + x + RJ_PAD; }
static inline int rj_pos_x(int pos) { return pos % RJ_STRIDE - RJ_PAD; }
static inline int rj_pos_y(int pos) { return pos / RJ_STRIDE - RJ_PAD; }

/* Directions: horizontal, vertical, diagonal (x+1, y+1), anti-diagonal (x-1, y+1). */
static const int RJ_DIR[4] = {1, RJ_STRIDE, RJ_STRIDE + 1, RJ_STRIDE - 1};

struct rj_undo_entry {
    int16_t pos;
    uint8_t color;
    uint8_t prev_to_move;
    uint8_t prev_result;
};

struct rj_board {
    int size;
    int rule;
    int to_move;
    int result;
    int nstones;
    int nhist;
    uint64_t hash;
    const uint8_t *table;                 /* the rule's pattern table */
    uint8_t cell[RJ_CELLS];               /* rj_color; RJ_WALL outside the board */
    uint8_t pat[RJ_CELLS][4];             /* packed codes, black low nibble; kept for empty points only */
    uint32_t key[RJ_CELLS][4];            /* line keys, see tables.h */
    int32_t count[2][16];                 /* (empty point, direction) pairs per colour and type */
    const uint8_t *summary;               /* the rule's summary table (tables.h) */
    uint8_t sum[RJ_CELLS];                /* set bits of each empty point (0 when occupied) */
    uint64_t set[2][RJ_NUM_SETS][RJ_CELLS / 64]; /* bitsets of empty points per colour and set */
    struct rj_undo_entry hist[RJ_MAX_MOVES];
    /* What each stone on the board changed at empty points, so that its removal restores it
     * instead of recomputing it: stones leave in the reverse order they came (undo, the provers'
     * probes). mark[k] is where the changes of the (k+1)-th stone begin; a stone changes at most
     * 40 (point, direction) codes. Last in the struct: copies take only the used part. */
    int32_t nchange;
    int32_t mark[RJ_MAX_MOVES + 1];
    struct rj_change {
        uint16_t qd;  /* point * 4 + direction */
        uint8_t pat;  /* its code before the stone */
        uint8_t sum;  /* the point's set bits before this change */
    } change[RJ_MAX_MOVES * 40];
};

/* Is pos in colour c's threat set? */
static inline int rj_in_set(const rj_board *b, int color, int set, int pos)
{
    return (int)(b->set[color - 1][set][pos >> 6] >> (pos & 63)) & 1;
}

/* Calls body(pos) for every point of a set, in index order. */
#define RJ_FOR_SET(b, color, setno, pos, body)                                                   \
    do {                                                                                          \
        for (int rj_w_ = 0; rj_w_ < RJ_CELLS / 64; rj_w_++) {                                     \
            uint64_t rj_bits_ = (b)->set[(color) - 1][(setno)][rj_w_];                             \
            while (rj_bits_) {                                                                    \
                int pos = rj_w_ * 64 + __builtin_ctzll(rj_bits_);                                 \
                rj_bits_ &= rj_bits_ - 1;                                                         \
                body;                                                                             \
            }                                                                                     \
        }                                                                                         \
    } while (0)

/* Number of points in a set, counted up to `cap` (no popcount instruction needed). */
static inline int rj_set_count(const rj_board *b, int color, int set, int cap)
{
    int n = 0;
    for (int w = 0; w < RJ_CELLS / 64 && n < cap; w++)
        for (uint64_t bits = b->set[color - 1][set][w]; bits && n < cap; bits &= bits - 1)
            n++;
    return n;
}

/* Number of points in a set. */
static inline int rj_set_size(const rj_board *b, int color, int set)
{
    return rj_set_count(b, color, set, RJ_CELLS);
}

/* Pattern type of colour c at pos in direction d. */
static inline int rj_pat(const rj_board *b, int pos, int d, int color)
{
    return rj_pat_of(b->pat[pos][d], color);
}

/* Places (color) or removes (RJ_EMPTY) a stone at pos, updating keys, codes, counts and hash.
 * No legality checks, no history: the primitive under play/put/undo and probe moves. Stones must
 * be removed in the reverse order they were placed: a removal restores what the stone changed. */
void rj_set_stone(rj_board *b, int pos, int color);
/* The same without the pattern counts (a quarter of the work): for the provers' and the foul
 * checks' probe moves, which never read them. The counts are stale while such a stone stands and
 * exact again once it is removed, which must be by rj_probe_stone too. */
void rj_probe_stone(rj_board *b, int pos, int color);

/* Exact: would colour c at the empty pos make a winning line (scans the real board)? */
int rj_line_wins(const rj_board *b, int pos, int color);

/* Zobrist key of a stone: a fixed hash of (pos, colour), so no global table is needed. */
static inline uint64_t rj_zobrist(int pos, int color)
{
    uint64_t z = (uint64_t)(pos * 4 + color) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
#define RJ_ZOBRIST_WHITE_TO_MOVE 0xD1B54A32D192ED03ull

#endif
