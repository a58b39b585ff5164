/*
 * tables.c — generates the pattern tables from the rules.
 *
 * The classifier is a memoised recursion over line windows ("what does one more stone make"):
 * a window where the centre's run wins is FIVE (or OVERLINE when longer than five); one with
 * two completion points is a straight four (LIVE4) when they bracket an unbroken four, else a
 * same-line double four (FORBID for Renju black, LIVE4 otherwise); one completion point is DEAD4;
 * otherwise the type is one step below the best type a single extra stone can reach
 * (LIVE4 -> LIVE3, DEAD4 -> DEAD3, ..., DEAD2 -> DEAD1). Nothing is typed in by hand.
 */
#include <stdlib.h>
#include <string.h>

#include "renju.h"
#include "tables.h"

static uint8_t *g_tables[RJ_NUM_RULES];
static uint8_t g_summary[RJ_NUM_RULES][256];

const uint8_t *rj_table(int rule)
{
    return (rule >= 0 && rule < RJ_NUM_RULES) ? g_tables[rule] : NULL;
}

const uint8_t *rj_summary_table(int rule)
{
    return g_summary[rule];
}

static int set_bits(int rule, int color, int t)
{
    if (t == RJ_PT_FIVE || (t == RJ_PT_OVERLINE && rj_pattern_wins(rule, color, t)))
        return 1 << RJ_SET_FIVE;
    if (t == RJ_PT_DEAD4)
        return 1 << RJ_SET_FOUR;
    if (t == RJ_PT_LIVE4 || (t == RJ_PT_FORBID && !(rule == RJ_RENJU && color == RJ_BLACK)))
        return 1 << RJ_SET_FOUR | 1 << RJ_SET_LIVE4;
    if (t == RJ_PT_LIVE3)
        return 1 << RJ_SET_THREE;
    return 0;
}

/* Length of colour c's unbroken run through the centre of a[11] and whether it wins under the
 * rule. A run that reaches the window edge is at least six long, which decides every rule.
 * Caro follows the Gomocup referee: an end is blocked by an opponent stone or the board edge;
 * rule 8 lets any six or more win, rule 9 only an exact five, and an exact five wins unless
 * both of its ends are blocked. */
static int run_wins(int rule, int c, const uint8_t *a, int *left, int *right)
{
    int l = 0, r = 0;
    while (5 - l - 1 >= 0 && a[5 - l - 1] == c)
        l++;
    while (5 + r + 1 <= 10 && a[5 + r + 1] == c)
        r++;
    *left = l;
    *right = r;
    int len = l + r + 1;
    if (len < 5)
        return 0;
    int le = 5 - l - 1 >= 0 ? a[5 - l - 1] : RJ_EMPTY;
    int re = 5 + r + 1 <= 10 ? a[5 + r + 1] : RJ_EMPTY;
    return rj_run_wins(rule, c, len, le, re);
}

struct classifier {
    int rule, color;
    uint8_t *memo; /* RJ_KEY_COUNT entries, 0xFF = not yet known */
};

static int weaker(int t)
{
    switch (t) {
    case RJ_PT_LIVE4: return RJ_PT_LIVE3;
    case RJ_PT_DEAD4: return RJ_PT_DEAD3;
    case RJ_PT_LIVE3: return RJ_PT_LIVE2;
    case RJ_PT_DEAD3: return RJ_PT_DEAD2;
    case RJ_PT_LIVE2: return RJ_PT_LIVE1;
    case RJ_PT_DEAD2: return RJ_PT_DEAD1;
    default: return RJ_PT_NONE;
    }
}

/* a[5] holds the classified colour; key encodes a[] without the centre. */
static int classify(struct classifier *cx, uint8_t *a, uint32_t key)
{
    if (cx->memo[key] != 0xFF)
        return cx->memo[key];
    const int c = cx->color;
    int l, r, t;
    if (run_wins(cx->rule, c, a, &l, &r)) {
        t = l + r + 1 == 5 ? RJ_PT_FIVE : RJ_PT_OVERLINE;
    } else if (l + r + 1 >= 6) {
        t = RJ_PT_OVERLINE; /* too long to be a winning five, now or ever */
    } else if (l + r + 1 >= 5) {
        t = RJ_PT_NONE; /* blocked at both ends (caro): dead for good */
    } else {
        /* Only the cells just beyond the run's ends can extend it into a five. */
        int ends[2] = {5 - l - 1, 5 + r + 1}, completions = 0;
        for (int i = 0; i < 2; i++) {
            int q = ends[i], ql, qr;
            if (q < 0 || q > 10 || a[q] != RJ_EMPTY)
                continue;
            a[q] = (uint8_t)c;
            completions += run_wins(cx->rule, c, a, &ql, &qr);
            a[q] = RJ_EMPTY;
        }
        if (completions == 2)
            t = (l + r + 1 == 4 || !(cx->rule == RJ_RENJU && c == RJ_BLACK)) ? RJ_PT_LIVE4 : RJ_PT_FORBID;
        else if (completions == 1)
            t = RJ_PT_DEAD4;
        else {
            t = RJ_PT_NONE;
            for (int q = 0; q <= 10; q++) {
                if (q == 5 || a[q] != RJ_EMPTY)
                    continue;
                a[q] = (uint8_t)c;
                int child = classify(cx, a, key | (uint32_t)c << (2 * rj_key_slot(q - 5)));
                a[q] = RJ_EMPTY;
                int w = weaker(child);
                if (w > t)
                    t = w;
            }
        }
    }
    cx->memo[key] = (uint8_t)t;
    return t;
}

/* Nothing beyond a wall matters: the canonical key turns every cell past the first wall on each
 * side into wall. Keys of real board edges are already canonical; a blocked point inside the
 * board makes a non-canonical key that classifies like its canonical one. A half key is the 10
 * bits of one side (slots 0..4 = offsets -5..-1, slots 5..9 = offsets +1..+5). */
static uint32_t canonical_half(uint32_t half, int outward_from_slot0)
{
    int wall = 0;
    for (int i = 0; i < 5; i++) {
        int slot = outward_from_slot0 ? i : 4 - i; /* walk from the centre outwards */
        uint32_t shift = 2 * (uint32_t)slot;
        if (wall)
            half |= (uint32_t)RJ_WALL << shift;
        else
            wall = ((half >> shift) & 3) == RJ_WALL;
    }
    return half;
}

static void decode(uint32_t key, uint8_t *a, int color)
{
    for (int k = -5; k <= 5; k++)
        if (k != 0)
            a[5 + k] = (uint8_t)((key >> (2 * rj_key_slot(k))) & 3);
    a[5] = (uint8_t)color;
}

void rj_table_generate(int rule, uint8_t *out)
{
    uint8_t *memo = malloc(2 * (size_t)RJ_KEY_COUNT);
    if (!memo)
        return;
    memset(memo, 0xFF, 2 * (size_t)RJ_KEY_COUNT);
    memset(out, 0, RJ_KEY_COUNT);
    struct classifier cx[2] = {{rule, RJ_BLACK, memo}, {rule, RJ_WHITE, memo + RJ_KEY_COUNT}};
    uint16_t left[1024], right[1024]; /* canonical half keys */
    for (uint32_t h = 0; h < 1024; h++) {
        left[h] = (uint16_t)canonical_half(h, 0);
        right[h] = (uint16_t)canonical_half(h, 1);
    }
    uint8_t a[11];
    for (uint32_t key = 0; key < RJ_KEY_COUNT; key++) {
        if (left[key & 1023] != (key & 1023) || right[key >> 10] != (key >> 10))
            continue;
        decode(key, a, RJ_BLACK);
        int tb = classify(&cx[0], a, key);
        decode(key, a, RJ_WHITE);
        int tw = classify(&cx[1], a, key);
        out[key] = (uint8_t)(tb | tw << 4);
    }
    for (uint32_t key = 0; key < RJ_KEY_COUNT; key++)
        out[key] = out[left[key & 1023] | (uint32_t)right[key >> 10] << 10];
    free(memo);
}

int rj_tables_init(int rule)
{
    if (rule < 0 || rule >= RJ_NUM_RULES)
        return RJ_E_BADRULE;
    if (g_tables[rule])
        return RJ_OK;
    uint8_t *t = malloc(RJ_KEY_COUNT);
    if (!t)
        return RJ_E_NOMEM;
    rj_table_generate(rule, t);
    for (int packed = 0; packed < 256; packed++)
        g_summary[rule][packed] = (uint8_t)(set_bits(rule, RJ_BLACK, packed & 15) |
                                            set_bits(rule, RJ_WHITE, packed >> 4) << 4);
    g_tables[rule] = t;
    return RJ_OK;
}

size_t rj_tables_memory(void)
{
    size_t n = 0;
    for (int r = 0; r < RJ_NUM_RULES; r++)
        if (g_tables[r])
            n += RJ_KEY_COUNT;
    return n;
}

int rj_classify_line(int rule, int color, const uint8_t cells[11])
{
    if (rj_tables_init(rule) != RJ_OK || (color != RJ_BLACK && color != RJ_WHITE))
        return -1;
    uint32_t key = 0;
    for (int k = -5; k <= 5; k++)
        if (k != 0)
            key |= (uint32_t)(cells[5 + k] & 3) << (2 * rj_key_slot(k));
    return rj_pat_of(g_tables[rule][key], color);
}

int rj_pattern_wins(int rule, int color, int pattern)
{
    if (pattern == RJ_PT_FIVE)
        return 1;
    if (pattern != RJ_PT_OVERLINE)
        return 0;
    return rule == RJ_FREESTYLE || rule == RJ_CARO || (rule == RJ_RENJU && color == RJ_WHITE);
}

int rj_threat_level(int rule, int color, int pattern)
{
    switch (pattern) {
    case RJ_PT_FIVE: return 4;
    case RJ_PT_OVERLINE:
        if (rj_pattern_wins(rule, color, pattern))
            return 4;
        return rule == RJ_RENJU && color == RJ_BLACK ? -1 : 0;
    case RJ_PT_LIVE4: return 3;
    case RJ_PT_DEAD4: return 2;
    case RJ_PT_LIVE3: return 1;
    case RJ_PT_FORBID: return -1;
    default: return 0;
    }
}
