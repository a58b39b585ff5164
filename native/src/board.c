/*
 * board.c — board state, play/put/undo, exact win detection, and the from-scratch oracle that
 * every incremental structure is checked against.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

static inline void count_point(rj_board *b, int pos, int sign)
{
    for (int d = 0; d < 4; d++) {
        uint8_t p = b->pat[pos][d];
        b->count[0][p & 15] += sign;
        b->count[1][p >> 4] += sign;
    }
}

/* Moves one (point, direction) pair from pattern code `from` to `to` in both colours' counts. */
static inline void recount(rj_board *b, uint8_t from, uint8_t to)
{
    b->count[0][from & 15]--;
    b->count[0][to & 15]++;
    b->count[1][from >> 4]--;
    b->count[1][to >> 4]++;
}

/* Gives point q the set bits s, flipping what changed in the bitsets. */
static inline void set_sum(rj_board *b, int q, uint8_t s)
{
    const uint8_t diff = s ^ b->sum[q];
    if (!diff)
        return;
    b->sum[q] = s;
    const uint64_t bit = 1ull << (q & 63);
    for (unsigned m = diff; m; m &= m - 1) {
        const int i = __builtin_ctz(m);
        b->set[i >> 2][i & 3][q >> 6] ^= bit;
    }
}

/* Recomputes the set bits of the empty point q from its codes. */
static inline void refresh_sets(rj_board *b, int q)
{
    const uint8_t *p = b->pat[q];
    const uint8_t *lut = b->summary;
    set_sum(b, q, lut[p[0]] | lut[p[1]] | lut[p[2]] | lut[p[3]]);
}

/* XORs stone value v into slot `slot` of the key of (q, d) and, where q is empty, refreshes its
 * pattern code, logging what it changed. An occupied point's codes are left as they are: nothing
 * reads them until the point empties, when they are rebuilt from its keys. */
static inline void place_toggle(rj_board *b, int q, int d, int slot, uint32_t v, const int counting)
{
    uint32_t key = b->key[q][d] ^ (v << (2 * slot));
    b->key[q][d] = key;
    if (b->cell[q] != RJ_EMPTY)
        return;
    uint8_t np = b->table[key];
    uint8_t op = b->pat[q][d];
    if (op != np) {
        struct rj_change *c = &b->change[b->nchange++];
        c->qd = (uint16_t)(q * 4 + d);
        c->pat = op;
        c->sum = b->sum[q];
        b->pat[q][d] = np;
        if (counting)
            recount(b, op, np);
        refresh_sets(b, q);
    }
}

/* `counting`: keep the pattern counts too (a constant at each call, so each use compiles to its
 * own loop). A stone must be removed the way it was placed. */
static inline __attribute__((always_inline)) void place_stone(rj_board *b, int pos, int color, const int counting)
{
    const uint32_t v = (uint32_t)color & 3; /* a blocked point reads as a wall */
    if (counting)
        count_point(b, pos, -1); /* the point stops being empty */
    set_sum(b, pos, 0); /* out of every set */
    b->mark[b->nstones] = b->nchange;
    b->cell[pos] = (uint8_t)color;
    b->hash ^= rj_zobrist(pos, color);
    b->nstones++;
    for (int d = 0; d < 4; d++) {
        const int D = RJ_DIR[d];
        /* A point k steps after pos sees pos at offset -k; one k steps before sees it at +k. */
        for (int k = 1, q = pos + D; k <= 5 && b->cell[q] != RJ_WALL; k++, q += D)
            place_toggle(b, q, d, 5 - k, v, counting);
        for (int k = 1, q = pos - D; k <= 5 && b->cell[q] != RJ_WALL; k++, q -= D)
            place_toggle(b, q, d, 4 + k, v, counting);
    }
}

/* Takes back the last stone placed (it must be the one at pos): keys by XOR, the codes, counts
 * and sets of the empty points from the log, newest change first, without a table lookup. */
static inline __attribute__((always_inline)) void remove_stone(rj_board *b, int pos, const int counting)
{
    const int stone = b->cell[pos];
    const uint32_t v = (uint32_t)stone & 3;
    b->cell[pos] = RJ_EMPTY;
    b->hash ^= rj_zobrist(pos, stone);
    b->nstones--;
    for (int d = 0; d < 4; d++) {
        const int D = RJ_DIR[d];
        for (int k = 1, q = pos + D; k <= 5 && b->cell[q] != RJ_WALL; k++, q += D)
            b->key[q][d] ^= v << (2 * (5 - k));
        for (int k = 1, q = pos - D; k <= 5 && b->cell[q] != RJ_WALL; k++, q -= D)
            b->key[q][d] ^= v << (2 * (4 + k));
    }
    const int first = b->mark[b->nstones];
    for (int i = b->nchange - 1; i >= first; i--) {
        const struct rj_change *c = &b->change[i];
        const int q = c->qd >> 2, d = c->qd & 3;
        const uint8_t np = b->pat[q][d], op = c->pat;
        b->pat[q][d] = op;
        if (counting)
            recount(b, np, op);
        set_sum(b, q, c->sum);
    }
    b->nchange = first;
    for (int d = 0; d < 4; d++) /* its codes were not kept while it was occupied */
        b->pat[pos][d] = b->table[b->key[pos][d]];
    if (counting)
        count_point(b, pos, +1);
    refresh_sets(b, pos);
}

void rj_set_stone(rj_board *b, int pos, int color)
{
    if (color)
        place_stone(b, pos, color, 1);
    else
        remove_stone(b, pos, 1);
}

void rj_probe_stone(rj_board *b, int pos, int color)
{
    if (color)
        place_stone(b, pos, color, 0);
    else
        remove_stone(b, pos, 0);
}

int rj_line_wins(const rj_board *b, int pos, int c)
{
    for (int d = 0; d < 4; d++) {
        const int D = RJ_DIR[d];
        int l = 0, r = 0;
        while (b->cell[pos - (l + 1) * D] == c)
            l++;
        while (b->cell[pos + (r + 1) * D] == c)
            r++;
        if (rj_run_wins(b->rule, c, l + r + 1, b->cell[pos - (l + 1) * D] & 3, b->cell[pos + (r + 1) * D] & 3))
            return 1;
    }
    return 0;
}

/* The table is exact within ±5; only a FIVE or OVERLINE code can hide a win, so the scan runs
 * only then. */
static int move_wins(const rj_board *b, int pos, int c)
{
    for (int d = 0; d < 4; d++) {
        int t = rj_pat(b, pos, d, c);
        if (t == RJ_PT_FIVE || t == RJ_PT_OVERLINE)
            return rj_line_wins(b, pos, c);
    }
    return 0;
}

static void set_to_move(rj_board *b, int color)
{
    if ((b->to_move == RJ_WHITE) != (color == RJ_WHITE))
        b->hash ^= RJ_ZOBRIST_WHITE_TO_MOVE;
    b->to_move = color;
}

void rj_board_recompute(rj_board *b)
{
    const int n = b->size;
    memset(b->key, 0, sizeof b->key);
    memset(b->pat, 0, sizeof b->pat);
    memset(b->count, 0, sizeof b->count);
    memset(b->sum, 0, sizeof b->sum);
    memset(b->set, 0, sizeof b->set);
    b->hash = b->to_move == RJ_WHITE ? RJ_ZOBRIST_WHITE_TO_MOVE : 0;
    b->nstones = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int pos = rj_pos(x, y);
            for (int d = 0; d < 4; d++) {
                uint32_t key = 0;
                for (int k = -5; k <= 5; k++)
                    if (k)
                        key |= (uint32_t)(b->cell[pos + k * RJ_DIR[d]] & 3) << (2 * rj_key_slot(k));
                b->key[pos][d] = key;
                b->pat[pos][d] = b->table[key];
            }
            if (b->cell[pos] == RJ_EMPTY) {
                count_point(b, pos, +1);
                refresh_sets(b, pos);
            } else {
                b->hash ^= rj_zobrist(pos, b->cell[pos]);
                b->nstones++;
            }
        }
}

void rj_board_clear(rj_board *b)
{
    memset(b->cell, RJ_WALL, sizeof b->cell);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            b->cell[rj_pos(x, y)] = RJ_EMPTY;
    b->to_move = RJ_BLACK;
    b->result = RJ_ONGOING;
    b->nhist = 0;
    b->nchange = 0;
    rj_board_recompute(b);
}

rj_board *rj_board_new(int size, int rule)
{
    if (size < RJ_MIN_SIZE || size > RJ_MAX_SIZE || rule < 0 || rule >= RJ_NUM_RULES)
        return NULL;
    if (rj_tables_init(rule) != RJ_OK)
        return NULL;
    rj_board *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->size = size;
    b->rule = rule;
    b->table = rj_table(rule);
    b->summary = rj_summary_table(rule);
    rj_board_clear(b);
    return b;
}

void rj_board_free(rj_board *b) { free(b); }

void rj_board_copy(rj_board *dst, const rj_board *src)
{
    if (dst != src) /* the change log only as far as it is used */
        memcpy(dst, src, offsetof(rj_board, change) + (size_t)src->nchange * sizeof src->change[0]);
}

int rj_size(const rj_board *b) { return b->size; }
int rj_rule(const rj_board *b) { return b->rule; }
int rj_to_move(const rj_board *b) { return b->to_move; }
int rj_stone_count(const rj_board *b) { return b->nstones; }
int rj_result(const rj_board *b) { return b->result; }
uint64_t rj_hash(const rj_board *b) { return b->hash; }

static int on_board(const rj_board *b, int x, int y)
{
    return x >= 0 && y >= 0 && x < b->size && y < b->size;
}

int rj_get(const rj_board *b, int x, int y)
{
    return on_board(b, x, y) ? b->cell[rj_pos(x, y)] : RJ_WALL;
}

void rj_stones(const rj_board *b, uint8_t *out)
{
    const int n = b->size;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            out[y * n + x] = b->cell[rj_pos(x, y)];
}

int rj_history(const rj_board *b, int16_t *xs, int16_t *ys, uint8_t *colors)
{
    for (int i = 0; i < b->nhist; i++) {
        xs[i] = (int16_t)rj_pos_x(b->hist[i].pos);
        ys[i] = (int16_t)rj_pos_y(b->hist[i].pos);
        if (colors)
            colors[i] = b->hist[i].color;
    }
    return b->nhist;
}

static int place(rj_board *b, int x, int y, int color)
{
    if (!on_board(b, x, y))
        return RJ_E_OFFBOARD;
    int pos = rj_pos(x, y);
    if (b->cell[pos] != RJ_EMPTY)
        return RJ_E_OCCUPIED;
    if (b->result != RJ_ONGOING)
        return RJ_E_GAMEOVER;
    int win = color != RJ_BLOCKED && move_wins(b, pos, color);
    struct rj_undo_entry *h = &b->hist[b->nhist++];
    h->pos = (int16_t)pos;
    h->color = (uint8_t)color;
    h->prev_to_move = (uint8_t)b->to_move;
    h->prev_result = (uint8_t)b->result;
    rj_set_stone(b, pos, color);
    if (win)
        b->result = color == RJ_BLACK ? RJ_BLACK_WINS : RJ_WHITE_WINS;
    else if (b->nstones == b->size * b->size)
        b->result = RJ_DRAW;
    return RJ_OK;
}

int rj_play(rj_board *b, int x, int y)
{
    int c = b->to_move;
    int st = place(b, x, y, c);
    if (st == RJ_OK)
        set_to_move(b, 3 - c);
    return st;
}

int rj_put(rj_board *b, int x, int y, int color)
{
    if (color != RJ_BLACK && color != RJ_WHITE && color != RJ_BLOCKED)
        return RJ_E_BADCOLOR;
    return place(b, x, y, color);
}

int rj_undo(rj_board *b)
{
    if (b->nhist == 0)
        return RJ_E_NOHISTORY;
    const struct rj_undo_entry *h = &b->hist[--b->nhist];
    rj_set_stone(b, h->pos, RJ_EMPTY);
    set_to_move(b, h->prev_to_move);
    b->result = h->prev_result;
    return RJ_OK;
}

int rj_set_to_move(rj_board *b, int color)
{
    if (color != RJ_BLACK && color != RJ_WHITE)
        return RJ_E_BADCOLOR;
    set_to_move(b, color);
    return RJ_OK;
}

int rj_wins_at(const rj_board *b, int x, int y, int color)
{
    if (!on_board(b, x, y) || b->cell[rj_pos(x, y)] != RJ_EMPTY || (color != RJ_BLACK && color != RJ_WHITE))
        return 0;
    return rj_line_wins(b, rj_pos(x, y), color);
}

void rj_patterns(const rj_board *b, int color, uint8_t *out)
{
    const int n = b->size;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            for (int d = 0; d < 4; d++)
                out[(y * n + x) * 4 + d] = (uint8_t)rj_pat_of(b->table[b->key[rj_pos(x, y)][d]], color);
}

void rj_pattern_counts(const rj_board *b, int color, int32_t out[RJ_PT_COUNT])
{
    for (int t = 0; t < RJ_PT_COUNT; t++)
        out[t] = b->count[color == RJ_WHITE][t];
}

/* Result implied by the stones alone. */
static int scratch_result(const rj_board *b)
{
    int full = 1;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int pos = rj_pos(x, y), c = b->cell[pos];
            if (c == RJ_EMPTY)
                full = 0;
            else if (c != RJ_BLOCKED && rj_line_wins(b, pos, c))
                return c == RJ_BLACK ? RJ_BLACK_WINS : RJ_WHITE_WINS;
        }
    return full ? RJ_DRAW : RJ_ONGOING;
}

int rj_board_load(rj_board *b, const uint8_t *grid, int to_move)
{
    const int n = b->size;
    if (to_move != RJ_BLACK && to_move != RJ_WHITE)
        return RJ_E_BADCOLOR;
    for (int i = 0; i < n * n; i++)
        if (grid[i] > RJ_WHITE && grid[i] != RJ_BLOCKED)
            return RJ_E_BADCOLOR;
    rj_board_clear(b);
    for (int i = 0; i < n * n; i++) {
        if (grid[i] == RJ_EMPTY)
            continue;
        int pos = rj_pos(i % n, i / n);
        struct rj_undo_entry *h = &b->hist[b->nhist++];
        h->pos = (int16_t)pos;
        h->color = grid[i];
        h->prev_to_move = RJ_BLACK;
        h->prev_result = RJ_ONGOING;
        rj_set_stone(b, pos, grid[i]);
    }
    set_to_move(b, to_move);
    b->result = scratch_result(b);
    return RJ_OK;
}

int rj_board_check(const rj_board *b)
{
    rj_board *s = malloc(sizeof *s);
    if (!s)
        return RJ_E_NOMEM;
    memcpy(s, b, sizeof *s);
    rj_board_recompute(s);
    int code = 0;
    for (int y = 0; y < b->size && !code; y++)
        for (int x = 0; x < b->size && !code; x++) {
            int pos = rj_pos(x, y);
            for (int d = 0; d < 4 && !code; d++) {
                if (s->key[pos][d] != b->key[pos][d])
                    code = 1;
                else if (b->cell[pos] == RJ_EMPTY && s->pat[pos][d] != b->pat[pos][d])
                    code = 2;
            }
        }
    if (!code && memcmp(s->count, b->count, sizeof s->count))
        code = 3;
    if (!code && (memcmp(s->sum, b->sum, sizeof s->sum) || memcmp(s->set, b->set, sizeof s->set)))
        code = 7;
    if (!code && s->hash != b->hash)
        code = 4;
    if (!code && (s->nstones != b->nstones || b->nstones != b->nhist))
        code = 5;
    if (!code && scratch_result(b) != b->result)
        code = 6;
    free(s);
    return code;
}
