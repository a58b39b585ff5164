/*
 * tree.c — the MCTS tree and its playout loop (see tree.h and renju.h). The rules of the search
 * are those of engine/search/mcts.py, which drives this loop: PUCT selection under virtual loss,
 * leaves settled in a fixed order (game over -> the threat sets -> UTSS near the root -> the
 * evaluator), proofs carried up while they settle nodes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "threats.h"
#include "tree.h"

#define EDGE_COLUMNS 7

static int grow(void **p, int32_t *cap, int32_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    int32_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, (size_t)n * size);
    if (!q)
        return 0;
    *p = q;
    *cap = n;
    return 1;
}

static int reserve_nodes(rj_tree *t, int32_t extra)
{
    return grow((void **)&t->node, &t->cap_nodes, t->nnodes + extra, sizeof *t->node);
}

static int reserve_edges(rj_tree *t, int32_t extra)
{
    int32_t need = t->nedges + extra, cap = t->cap_edges, c;
    /* every column grows to the same capacity */
    c = cap; if (!grow((void **)&t->ex, &c, need, sizeof *t->ex)) return 0;
    c = cap; if (!grow((void **)&t->ey, &c, need, sizeof *t->ey)) return 0;
    c = cap; if (!grow((void **)&t->prior, &c, need, sizeof *t->prior)) return 0;
    c = cap; if (!grow((void **)&t->visits, &c, need, sizeof *t->visits)) return 0;
    c = cap; if (!grow((void **)&t->value, &c, need, sizeof *t->value)) return 0;
    c = cap; if (!grow((void **)&t->proven, &c, need, sizeof *t->proven)) return 0;
    c = cap; if (!grow((void **)&t->child, &c, need, sizeof *t->child)) return 0;
    t->cap_edges = c;
    return 1;
}

/* ---- transpositions ---------------------------------------------------------------------- */

static void tt_clear(rj_tree *t)
{
    if (t->tt_cap)
        memset(t->tt_key, 0, (size_t)t->tt_cap * sizeof *t->tt_key);
    t->tt_count = 0;
}

static int32_t tt_find(const rj_tree *t, uint64_t key)
{
    if (!t->tt_cap || !key)
        return -1;
    const uint32_t mask = (uint32_t)t->tt_cap - 1;
    for (uint32_t i = (uint32_t)key & mask; t->tt_key[i]; i = (i + 1) & mask)
        if (t->tt_key[i] == key)
            return t->tt_node[i];
    return -1;
}

/* Stores key -> node unless the key is there already (its first node stays); growing the table
 * (doubling, kept at most half full) may fail for want of memory, and then nothing is stored. */
static void tt_put(rj_tree *t, uint64_t key, int32_t node)
{
    if (!key)
        return;
    if (2 * (t->tt_count + 1) > t->tt_cap) {
        int32_t cap = t->tt_cap ? 2 * t->tt_cap : 4096;
        uint64_t *keys = calloc((size_t)cap, sizeof *keys);
        int32_t *nodes = malloc((size_t)cap * sizeof *nodes);
        if (!keys || !nodes) {
            free(keys);
            free(nodes);
            return;
        }
        for (int32_t j = 0; j < t->tt_cap; j++) {
            if (!t->tt_key[j])
                continue;
            uint32_t i = (uint32_t)t->tt_key[j] & ((uint32_t)cap - 1);
            while (keys[i])
                i = (i + 1) & ((uint32_t)cap - 1);
            keys[i] = t->tt_key[j];
            nodes[i] = t->tt_node[j];
        }
        free(t->tt_key);
        free(t->tt_node);
        t->tt_key = keys;
        t->tt_node = nodes;
        t->tt_cap = cap;
    }
    const uint32_t mask = (uint32_t)t->tt_cap - 1;
    uint32_t i = (uint32_t)key & mask;
    for (; t->tt_key[i]; i = (i + 1) & mask)
        if (t->tt_key[i] == key)
            return;
    t->tt_key[i] = key;
    t->tt_node[i] = node;
    t->tt_count++;
}

/* The table holds the moves of the move filter's current settings only. */
static void tt_check_config(rj_tree *t, const rj_tree_config *cfg)
{
    if (cfg->radius != t->tt_radius || cfg->move_filter != t->tt_filter || cfg->utss != t->tt_utss ||
        cfg->threat_vcf_depth != t->tt_vcf_depth || cfg->threat_nodes != t->tt_vcf_nodes) {
        tt_clear(t);
        t->tt_radius = cfg->radius;
        t->tt_filter = cfg->move_filter;
        t->tt_utss = cfg->utss;
        t->tt_vcf_depth = cfg->threat_vcf_depth;
        t->tt_vcf_nodes = cfg->threat_nodes;
    }
}

static int tt_enabled(const rj_tree_config *cfg)
{
    return cfg->transpositions;
}

static int32_t new_node(rj_tree *t)
{
    if (!reserve_nodes(t, 1))
        return -1;
    rj_tree_node *n = &t->node[t->nnodes];
    memset(n, 0, sizeof *n);
    n->first = -1;
    n->win_x = n->win_y = -1;
    return t->nnodes++;
}

rj_tree *rj_tree_new(void)
{
    rj_tree *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->pending = malloc(RJ_TREE_MAX_BATCH * sizeof *t->pending);
    if (!t->pending) {
        free(t);
        return NULL;
    }
    rj_tree_reset(t);
    if (t->nnodes != 1) {
        rj_tree_free(t);
        return NULL;
    }
    return t;
}

void rj_tree_free(rj_tree *t)
{
    if (!t)
        return;
    free(t->node);
    free(t->ex);
    free(t->ey);
    free(t->prior);
    free(t->visits);
    free(t->value);
    free(t->proven);
    free(t->child);
    free(t->pending);
    free(t->tt_key);
    free(t->tt_node);
    free(t);
}

void rj_tree_reset(rj_tree *t)
{
    t->nnodes = t->nedges = 0;
    t->npending = 0;
    memset(t->utss_calls, 0, sizeof t->utss_calls);
    tt_clear(t);
    t->tt_radius = -1; /* the next gather records the filter's settings */
    t->transpositions = 0;
    t->root = new_node(t);
}

int32_t rj_tree_root(const rj_tree *t) { return t->root; }
int32_t rj_tree_nodes(const rj_tree *t) { return t->nnodes; }

size_t rj_tree_memory(const rj_tree *t)
{
    const size_t edge = 2 * sizeof(int16_t) + 3 * sizeof(float) + sizeof(int8_t) + sizeof(int32_t);
    return sizeof *t + (size_t)t->cap_nodes * sizeof *t->node + (size_t)t->cap_edges * edge +
           RJ_TREE_MAX_BATCH * sizeof *t->pending + (size_t)t->tt_cap * (sizeof *t->tt_key + sizeof *t->tt_node);
}

rj_tree_node *rj_tree_node_at(rj_tree *t, int32_t id) { return id >= 0 && id < t->nnodes ? &t->node[id] : NULL; }

void rj_tree_edges_of(rj_tree *t, rj_tree_edges *out)
{
    out->x = t->ex;
    out->y = t->ey;
    out->prior = t->prior;
    out->visits = t->visits;
    out->value = t->value;
    out->proven = t->proven;
    out->child = t->child;
}

int32_t rj_tree_child(rj_tree *t, int32_t node, int i)
{
    if (node < 0 || node >= t->nnodes || i < 0 || i >= t->node[node].n)
        return -1;
    int32_t e = t->node[node].first + i;
    if (t->child[e] < 0)
        t->child[e] = new_node(t);
    return t->child[e];
}

/* Copies the root's subtree to the front of fresh arrays, breadth first (new ids in order). */
void rj_tree_compact(rj_tree *t)
{
    rj_tree fresh;
    memset(&fresh, 0, sizeof fresh);
    int32_t *old_of = NULL, cap_map = 0;
    if (new_node(&fresh) < 0 || !grow((void **)&old_of, &cap_map, 1, sizeof *old_of))
        goto fail;
    old_of[0] = t->root;
    for (int32_t id = 0; id < fresh.nnodes; id++) {
        const rj_tree_node *src = &t->node[old_of[id]];
        rj_tree_node *dst = &fresh.node[id];
        *dst = *src;
        dst->flags &= (uint8_t)~RJ_NODE_PENDING;
        if (src->first < 0)
            continue;
        if (!reserve_edges(&fresh, src->n))
            goto fail;
        dst = &fresh.node[id];
        dst->first = fresh.nedges;
        for (int i = 0; i < src->n; i++) {
            int32_t e = src->first + i, f = fresh.nedges++;
            fresh.ex[f] = t->ex[e];
            fresh.ey[f] = t->ey[e];
            fresh.prior[f] = t->prior[e];
            fresh.visits[f] = t->visits[e];
            fresh.value[f] = t->value[e];
            fresh.proven[f] = t->proven[e];
            fresh.child[f] = -1;
            if (t->child[e] >= 0) {
                int32_t c = new_node(&fresh);
                if (c < 0 || !grow((void **)&old_of, &cap_map, c + 1, sizeof *old_of))
                    goto fail;
                old_of[c] = t->child[e];
                fresh.child[f] = c;
            }
        }
    }
    free(old_of);
    free(t->node); free(t->ex); free(t->ey); free(t->prior); free(t->visits); free(t->value);
    free(t->proven); free(t->child);
    t->node = fresh.node; t->nnodes = fresh.nnodes; t->cap_nodes = fresh.cap_nodes;
    t->ex = fresh.ex; t->ey = fresh.ey; t->prior = fresh.prior; t->visits = fresh.visits;
    t->value = fresh.value; t->proven = fresh.proven; t->child = fresh.child;
    t->nedges = fresh.nedges; t->cap_edges = fresh.cap_edges;
    t->root = 0;
    t->npending = 0;
    /* the node ids changed: the table is rebuilt from the nodes kept */
    tt_clear(t);
    for (int32_t id = 0; t->tt_cap && id < t->nnodes; id++)
        if (t->node[id].flags & RJ_NODE_EXPANDED)
            tt_put(t, t->node[id].hash, id);
    return;
fail: /* out of memory: start over with an empty tree rather than a broken one */
    free(old_of);
    free(fresh.node); free(fresh.ex); free(fresh.ey); free(fresh.prior); free(fresh.visits); free(fresh.value);
    free(fresh.proven); free(fresh.child);
    rj_tree_reset(t);
}

int rj_tree_advance(rj_tree *t, int x, int y)
{
    const rj_tree_node *r = &t->node[t->root];
    for (int i = 0; r->first >= 0 && i < r->n; i++) {
        int32_t e = r->first + i;
        if (t->ex[e] == x && t->ey[e] == y && t->child[e] >= 0 && (t->node[t->child[e]].flags & RJ_NODE_EXPANDED)) {
            t->root = t->child[e];
            return 1;
        }
    }
    rj_tree_reset(t);
    return 0;
}

/* ---- one playout ------------------------------------------------------------------------ */

static void backup(rj_tree *t, const struct rj_pending *l, float value, float vl)
{
    for (int k = l->len - 1; k >= 0; k--) {
        int32_t e = l->path_edge[k];
        value = -value;
        t->visits[e] += 1.0f - vl;
        t->value[e] += value + vl;
        t->node[l->path_node[k]].visits++;
    }
}

static void undo_virtual_loss(rj_tree *t, const struct rj_pending *l, float vl)
{
    for (int k = 0; k < l->len; k++) {
        t->visits[l->path_edge[k]] -= vl;
        t->value[l->path_edge[k]] += vl;
    }
}

/* The leaf's proof goes into its parent's edge; a parent with a child lost for the child's mover
 * is won, one whose children are all won for their movers is lost; and so on up. */
static void propagate_path(rj_tree *t, const int32_t *path_node, const int32_t *path_edge, int len, int32_t leaf)
{
    int8_t proven = t->node[leaf].proven;
    for (int k = len - 1; k >= 0; k--) {
        rj_tree_node *n = &t->node[path_node[k]];
        t->proven[path_edge[k]] = proven;
        if (n->proven)
            break;
        int lost = 0, all_won = n->n > 0;
        for (int i = 0; i < n->n; i++) {
            lost |= t->proven[n->first + i] < 0;
            all_won &= t->proven[n->first + i] > 0;
        }
        if (lost)
            n->proven = 1;
        else if (all_won)
            n->proven = -1;
        else
            break;
        proven = n->proven;
    }
}

static void propagate(rj_tree *t, const struct rj_pending *l)
{
    propagate_path(t, l->path_node, l->path_edge, l->len, l->node);
}

static void set_win(rj_tree_node *n, const rj_proof *pr)
{
    if (pr->line_len > 0) {
        n->win_x = pr->line_x[0];
        n->win_y = pr->line_y[0];
    }
}

/* Plies until the draw cap (more than any game has without one). */
static int plies_left(const rj_board *b, const rj_tree_config *cfg)
{
    return cfg->draw_stones > 0 ? cfg->draw_stones - rj_stone_count(b) : 4 * RJ_MAX_MOVES;
}

/* The exact value of a leaf for its side to move (1 with *value set), or 0 if it needs the
 * evaluator. */
static int settle(rj_tree *t, int32_t id, rj_board *b, rj_prover *p, const rj_tree_config *cfg, int ply, float *value)
{
    rj_tree_node *n = &t->node[id];
    if (b->result != RJ_ONGOING) {
        n->proven = b->result == RJ_DRAW ? 0 : -1; /* the last mover made five */
        *value = n->proven;
        return 1;
    }
    const int left = plies_left(b, cfg);
    if (left <= 0) { /* the cap: a draw (like a full board, settled again at each visit) */
        *value = 0.0f;
        return 1;
    }
    const int me = b->to_move;
    if (rj_threat_of(b, me) >= 2) { /* a five point of our own */
        n->proven = 1;
        *value = 1.0f;
        return 1;
    }
    if (left == 1) { /* whatever we play fills the board to the cap */
        *value = 0.0f;
        return 1;
    }
    const int theirs = rj_threat_of(b, 3 - me);
    int lost = theirs == 3;
    if (theirs == 2) { /* its four, and nothing of ours answers it */
        rj_list l;
        rj_filter(b, cfg->radius, &l);
        lost = l.n == 0;
    }
    if (lost) {
        n->proven = -1;
        *value = -1.0f;
        return 1;
    }
    const int stones = rj_stone_count(b);
    const int limit = ply % 2 ? cfg->utss_plies : cfg->utss_plies_own;
    rj_proof pr;
    const int deep = ply == 1;
    int depth = deep ? cfg->utss_depth_ply1 : cfg->utss_depth;
    if (depth > left - RJ_CAP_MARGIN)
        depth = left - RJ_CAP_MARGIN;
    if (cfg->utss && ply <= limit && stones >= 4 && depth > 0) {
        t->utss_calls[ply < RJ_TREE_PLY_STATS ? ply : RJ_TREE_PLY_STATS - 1]++;
        rj_prove(p, b, RJ_PROVE_UTSS, depth, -1, deep ? cfg->utss_nodes_ply1 : cfg->utss_nodes, 0.0, &pr);
        if (pr.value == RJ_PROOF_WIN || pr.value == RJ_PROOF_LOSS) {
            n = &t->node[id];
            n->proven = pr.value == RJ_PROOF_WIN ? 1 : -1;
            if (n->proven > 0)
                set_win(n, &pr);
            *value = n->proven;
            return 1;
        }
    }
    return 0;
}

/* The moves a leaf expands: the move filter (narrowed against a hidden VCF), or every legal
 * move for the ablation. */
static int leaf_moves(rj_board *b, rj_prover *p, const rj_tree_config *cfg, int16_t *xs, int16_t *ys)
{
    if (b->result != RJ_ONGOING)
        return 0;
    if (!cfg->move_filter) {
        int k = 0;
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                int pos = rj_pos(x, y);
                if (b->cell[pos] == RJ_EMPTY && rj_legal_for(b, b->to_move, pos)) {
                    xs[k] = (int16_t)x;
                    ys[k++] = (int16_t)y;
                }
            }
        return k;
    }
    /* the opponent's hidden VCF takes a move of ours and 2k + 1 plies: none that ends past the cap */
    const int fours = (plies_left(b, cfg) - 1 - RJ_CAP_MARGIN) / 2;
    const int vcf_depth = cfg->threat_vcf_depth < fours ? cfg->threat_vcf_depth : fours;
    if (vcf_depth > 0 && cfg->utss) {
        int threatened;
        return rj_filter_threats(p, b, cfg->radius, vcf_depth, cfg->threat_nodes, xs, ys, &threatened);
    }
    return rj_filter_moves(b, cfg->radius, xs, ys);
}

/* Expands leaf `id` as a copy of an expanded node of the same position (its moves and priors;
 * fresh statistics) and sets *value to what the leaf backs up: the node's net value, or with
 * cfg->transposition_q its mean over the visits it has had (its own evaluation and its children's
 * value sums). A proof of that node's is the leaf's: a position is won or lost whatever the order
 * of the moves that made it. Returns 1, or 0 when the table has no such node. */
static int transpose(rj_tree *t, int32_t id, uint64_t key, const rj_tree_config *cfg, float *value)
{
    const int32_t s = tt_find(t, key); /* the table holds expanded nodes only, under their own keys */
    if (s < 0)
        return 0;
    const int32_t k = t->node[s].n;
    int32_t first = -1;
    if (k > 0) {
        if (!reserve_edges(t, k))
            return 0;
        first = t->nedges;
        const int32_t from = t->node[s].first;
        memcpy(t->ex + first, t->ex + from, (size_t)k * sizeof *t->ex);
        memcpy(t->ey + first, t->ey + from, (size_t)k * sizeof *t->ey);
        memcpy(t->prior + first, t->prior + from, (size_t)k * sizeof *t->prior);
        for (int32_t e = first; e < first + k; e++) {
            t->visits[e] = t->value[e] = 0.0f;
            t->proven[e] = 0;
            t->child[e] = -1;
        }
        t->nedges += k;
    }
    const rj_tree_node *src = &t->node[s];
    rj_tree_node *n = &t->node[id];
    n->first = first;
    n->n = k;
    n->net_value = src->net_value;
    n->flags |= RJ_NODE_EXPANDED;
    *value = src->net_value;
    if (src->proven) {
        n->proven = src->proven;
        n->win_x = src->win_x;
        n->win_y = src->win_y;
        *value = src->proven;
    } else if (cfg->transposition_q && k > 0) {
        double w = src->net_value, v = 1.0;
        for (int32_t e = src->first; e < src->first + k; e++) {
            w += t->value[e];
            v += t->visits[e];
        }
        *value = (float)(w / v);
    }
    t->transpositions++;
    return 1;
}

int rj_tree_gather(rj_tree *t, rj_board *b, rj_prover *p, const rj_tree_config *cfg, int batch, float *planes,
                   int *playouts, int *root_pick)
{
    const int use_tt = tt_enabled(cfg);
    if (use_tt)
        tt_check_config(t, cfg);
    const float vl = cfg->virtual_loss;
    const size_t plane_size = (size_t)(cfg->feature_version == 1 ? RJ_PLANES_V1 : RJ_PLANES) * b->size * b->size;
    if (batch > RJ_TREE_MAX_BATCH)
        batch = RJ_TREE_MAX_BATCH;
    t->npending = 0;
    t->vl = vl;
    *playouts = 0;
    *root_pick = -1;
    for (int attempt = 0; attempt < batch; attempt++) {
        struct rj_pending *l = &t->pending[t->npending];
        int32_t id = t->root;
        l->len = 0;
        for (;;) {
            const rj_tree_node *n = &t->node[id];
            if (!(n->flags & RJ_NODE_EXPANDED) || n->proven || n->n == 0)
                break;
            int i = rj_puct_select(t->prior + n->first, t->visits + n->first, t->value + n->first,
                                   t->proven + n->first, n->n, cfg->c_puct, cfg->fpu);
            int32_t e = n->first + i;
            if (id == t->root)
                *root_pick = i;
            l->path_node[l->len] = id;
            l->path_edge[l->len++] = e;
            t->visits[e] += vl;
            t->value[e] -= vl;
            rj_play(b, t->ex[e], t->ey[e]); /* legal by construction: the filter drops fouls */
            if (t->child[e] < 0) {
                int32_t c = new_node(t);
                if (c < 0) { /* out of memory: stop this batch here */
                    rj_undo(b);
                    l->len--;
                    t->visits[e] -= vl;
                    t->value[e] += vl;
                    for (int k = 0; k < l->len; k++)
                        rj_undo(b);
                    undo_virtual_loss(t, l, vl);
                    return t->npending;
                }
                t->child[e] = c;
            }
            id = t->child[e];
        }
        l->node = id;
        rj_tree_node *n = &t->node[id];
        float value;
        if (n->proven || ((n->flags & RJ_NODE_EXPANDED) && n->n == 0)) {
            backup(t, l, (float)n->proven, vl);
            propagate(t, l);
            ++*playouts;
        } else if (n->flags & RJ_NODE_PENDING) { /* another leaf of this batch */
            undo_virtual_loss(t, l, vl);
        } else {
            t->node[id].hash = b->hash;
            const int settled = settle(t, id, b, p, cfg, l->len, &value);
            if (settled) {
                backup(t, l, value, vl);
                propagate(t, l);
                ++*playouts;
            }
            if (!settled && l->len > 0 && use_tt && transpose(t, id, b->hash, cfg, &value)) {
                backup(t, l, value, vl);
                if (t->node[id].proven)
                    propagate(t, l);
                ++*playouts;
            } else if (!settled || l->len == 0) {
                /* a settled root is still expanded: the search reports and plays from its children */
                t->node[id].flags |= RJ_NODE_PENDING;
                l->nmoves = leaf_moves(b, p, cfg, l->mx, l->my);
                const int left = plies_left(b, cfg); /* > 0: settle() takes leaves at the cap */
                l->fade = cfg->draw_fade > 0 && left < cfg->draw_fade ? (float)left / (float)cfg->draw_fade : 1.0f;
                if (planes)
                    rj_planes_version(b, cfg->feature_version, planes + plane_size * (size_t)t->npending);
                t->npending++;
            }
        }
        for (int k = 0; k < l->len; k++)
            rj_undo(b);
    }
    return t->npending;
}

int rj_tree_leaf_path(const rj_tree *t, int j, int16_t *xs, int16_t *ys)
{
    if (j < 0 || j >= t->npending)
        return 0;
    const struct rj_pending *l = &t->pending[j];
    for (int k = 0; k < l->len; k++) {
        xs[k] = t->ex[l->path_edge[k]];
        ys[k] = t->ey[l->path_edge[k]];
    }
    return l->len;
}

/* Softmax over the leaf's moves, in double (as numpy's float64 softmax did). */
static void softmax_at(const float *logits, int size, const struct rj_pending *l, double *out)
{
    double top = -INFINITY, sum = 0.0;
    for (int i = 0; i < l->nmoves; i++) {
        int at = l->my[i] * size + l->mx[i];
        double z = logits[at];
        out[i] = z;
        if (z > top)
            top = z;
    }
    for (int i = 0; i < l->nmoves; i++)
        sum += (out[i] = exp(out[i] - top));
    for (int i = 0; i < l->nmoves; i++)
        out[i] /= sum;
}

void rj_tree_apply(rj_tree *t, const rj_tree_config *cfg, const float *logits, const float *values, int size)
{
    double net[RJ_MAX_MOVES];
    for (int j = 0; j < t->npending; j++) {
        struct rj_pending *l = &t->pending[j];
        const float *lg = logits + (size_t)j * size * size;
        const int made = l->nmoves > 0 && reserve_edges(t, l->nmoves);
        if (made) {
            softmax_at(lg, size, l, net);
            rj_tree_node *n = &t->node[l->node];
            n->first = t->nedges;
            n->n = l->nmoves;
            for (int i = 0; i < l->nmoves; i++) {
                int32_t e = t->nedges++;
                t->ex[e] = l->mx[i];
                t->ey[e] = l->my[i];
                t->prior[e] = (float)net[i];
                t->visits[e] = t->value[e] = 0.0f;
                t->proven[e] = 0;
                t->child[e] = -1;
            }
        } /* else a full board (a draw), or no memory: a leaf without children */
        t->node[l->node].flags = (uint8_t)((t->node[l->node].flags | RJ_NODE_EXPANDED) & ~RJ_NODE_PENDING);
        const float value = values[j] * l->fade;
        t->node[l->node].net_value = value;
        if (tt_enabled(cfg) && (made || l->nmoves == 0))
            tt_put(t, t->node[l->node].hash, l->node);
        backup(t, l, value, cfg->virtual_loss);
    }
    t->npending = 0;
}

void rj_tree_cancel(rj_tree *t)
{
    for (int j = 0; j < t->npending; j++) {
        t->node[t->pending[j].node].flags &= (uint8_t)~RJ_NODE_PENDING;
        undo_virtual_loss(t, &t->pending[j], t->vl);
    }
    t->npending = 0;
}

void rj_tree_prove_child(rj_tree *t, int32_t node, int i, int value, int win_x, int win_y)
{
    int32_t c = rj_tree_child(t, node, i);
    if (c < 0)
        return;
    rj_tree_node *cn = &t->node[c];
    cn->proven = (int8_t)value;
    if (value > 0 && win_x >= 0) {
        cn->win_x = (int16_t)win_x;
        cn->win_y = (int16_t)win_y;
    }
    int32_t edge = t->node[node].first + i;
    propagate_path(t, &node, &edge, 1, c);
}

int64_t rj_tree_transpositions(const rj_tree *t) { return t->transpositions; }
int32_t rj_tree_find(const rj_tree *t, uint64_t key) { return tt_find(t, key); }

int64_t rj_tree_utss_calls(const rj_tree *t, int ply)
{
    return ply >= 0 && ply < RJ_TREE_PLY_STATS ? t->utss_calls[ply] : 0;
}
