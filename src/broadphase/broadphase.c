/* broadphase.c -- the broad phase: dispatch to the method chosen at
 * creation, the helpers the methods share, and the raw method (every pair
 * of items tested, seed 000 section 4.1). */
#include <stdlib.h>
#include <string.h>

#include "src/broadphase/bp_impl.h"

struct broadphase {
    hs_broadphase method;
    bp_raw *raw;
    bp_tree *tree;
    bp_grid *grid;
};

/* ---------------------------------------------------------------- helpers */

int bp_box_set(bp_box *box, const double lo[3], const double hi[3])
{
    for (int k = 0; k < 3; k++) {
        if (!(lo[k] <= hi[k]))
            return -1; /* NaN, or an inverted interval */
        box->lo[k] = lo[k];
        box->hi[k] = hi[k];
    }
    return 0;
}

int bp_box_is_far(const bp_box *box)
{
    for (int k = 0; k < 3; k++)
        if (!(box->lo[k] >= -BP_FAR && box->hi[k] <= BP_FAR))
            return 1;
    return 0;
}

int bp_grow(void **array, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 0;
    long wanted = *cap < 8 ? 8 : 2L * *cap;
    if (wanted < need)
        wanted = need;
    if (wanted > 0x7fffffffL)
        wanted = 0x7fffffffL;
    void *grown = realloc(*array, (size_t)wanted * elem);
    if (!grown)
        return -1;
    memset((char *)grown + (size_t)*cap * elem, 0, (size_t)(wanted - *cap) * elem);
    *array = grown;
    *cap = (int)wanted;
    return 0;
}

void bp_idmap_free(bp_idmap *m)
{
    free(m->at);
    m->at = NULL;
    m->cap = 0;
}

int bp_idmap_reserve(bp_idmap *m, int id)
{
    if (id < 0 || id == 0x7fffffff)
        return -1;
    int old = m->cap;
    if (bp_grow((void **)&m->at, &m->cap, id + 1, sizeof(int)) != 0)
        return -1;
    for (int i = old; i < m->cap; i++)
        m->at[i] = -1;
    return 0;
}

/* ---------------------------------------------------------------- raw */

/* Items packed densely; removal moves the last item into the hole. */
struct bp_raw {
    bp_box *box;
    int *id;
    int n, cap_box, cap_id;
    bp_idmap slot;
};

bp_raw *bp_raw_new(void)
{
    return calloc(1, sizeof(bp_raw));
}

void bp_raw_free(bp_raw *r)
{
    if (!r)
        return;
    free(r->box);
    free(r->id);
    bp_idmap_free(&r->slot);
    free(r);
}

int bp_raw_insert(bp_raw *r, int id, const bp_box *box)
{
    if (bp_idmap_get(&r->slot, id) >= 0 || bp_idmap_reserve(&r->slot, id) != 0)
        return -1;
    if (bp_grow((void **)&r->box, &r->cap_box, r->n + 1, sizeof(bp_box)) != 0 ||
        bp_grow((void **)&r->id, &r->cap_id, r->n + 1, sizeof(int)) != 0)
        return -1;
    r->box[r->n] = *box;
    r->id[r->n] = id;
    r->slot.at[id] = r->n++;
    return 0;
}

void bp_raw_remove(bp_raw *r, int id)
{
    int s = bp_idmap_get(&r->slot, id);
    if (s < 0)
        return;
    int last = --r->n;
    r->box[s] = r->box[last];
    r->id[s] = r->id[last];
    r->slot.at[r->id[s]] = s;
    r->slot.at[id] = -1;
}

int bp_raw_update(bp_raw *r, int id, const bp_box *box)
{
    int s = bp_idmap_get(&r->slot, id);
    if (s < 0)
        return -1;
    r->box[s] = *box;
    return 0;
}

int bp_raw_count(const bp_raw *r)
{
    return r->n;
}

long bp_raw_pairs(const bp_raw *r, bp_pair_fn fn, void *user)
{
    long tests = 0;
    for (int i = 0; i < r->n; i++) {
        for (int j = i + 1; j < r->n; j++)
            if (bp_box_overlap(&r->box[i], &r->box[j]))
                bp_report(fn, user, r->id[i], r->id[j]);
        tests += r->n - 1 - i;
    }
    return tests;
}

long bp_raw_query(const bp_raw *r, const bp_box *q, bp_item_fn fn, void *user)
{
    for (int i = 0; i < r->n; i++)
        if (bp_box_overlap(&r->box[i], q))
            fn(user, r->id[i]);
    return r->n;
}

/* ---------------------------------------------------------------- dispatch */

broadphase *bp_new(hs_broadphase method)
{
    broadphase *bp = calloc(1, sizeof(broadphase));
    if (!bp)
        return NULL;
    bp->method = method;
    switch (method) {
    case HS_BROAD_TREE:
        bp->tree = bp_tree_new();
        break;
    case HS_BROAD_GRID:
        bp->grid = bp_grid_new();
        break;
    case HS_BROAD_RAW:
        bp->raw = bp_raw_new();
        break;
    }
    if (!bp->tree && !bp->grid && !bp->raw) {
        free(bp);
        return NULL; /* out of memory, or an unknown method */
    }
    return bp;
}

void bp_free(broadphase *bp)
{
    if (!bp)
        return;
    bp_tree_free(bp->tree);
    bp_grid_free(bp->grid);
    bp_raw_free(bp->raw);
    free(bp);
}

int bp_insert(broadphase *bp, int id, const double lo[3], const double hi[3])
{
    bp_box box;
    if (id < 0 || bp_box_set(&box, lo, hi) != 0)
        return -1;
    if (bp->tree)
        return bp_tree_insert(bp->tree, id, &box);
    if (bp->grid)
        return bp_grid_insert(bp->grid, id, &box);
    return bp_raw_insert(bp->raw, id, &box);
}

void bp_remove(broadphase *bp, int id)
{
    if (bp->tree)
        bp_tree_remove(bp->tree, id);
    else if (bp->grid)
        bp_grid_remove(bp->grid, id);
    else
        bp_raw_remove(bp->raw, id);
}

int bp_update(broadphase *bp, int id, const double lo[3], const double hi[3])
{
    bp_box box;
    if (id < 0 || bp_box_set(&box, lo, hi) != 0)
        return -1;
    if (bp->tree)
        return bp_tree_update(bp->tree, id, &box);
    if (bp->grid)
        return bp_grid_update(bp->grid, id, &box);
    return bp_raw_update(bp->raw, id, &box);
}

int bp_count(const broadphase *bp)
{
    if (bp->tree)
        return bp_tree_count(bp->tree);
    if (bp->grid)
        return bp_grid_count(bp->grid);
    return bp_raw_count(bp->raw);
}

long bp_pairs(const broadphase *bp, bp_pair_fn fn, void *user)
{
    if (bp->tree)
        return bp_tree_pairs(bp->tree, fn, user);
    if (bp->grid)
        return bp_grid_pairs(bp->grid, fn, user);
    return bp_raw_pairs(bp->raw, fn, user);
}

long bp_query(const broadphase *bp, const double lo[3], const double hi[3], bp_item_fn fn,
              void *user)
{
    bp_box q;
    if (bp_box_set(&q, lo, hi) != 0)
        return 0; /* an empty or NaN query box overlaps nothing */
    if (bp->tree)
        return bp_tree_query(bp->tree, &q, fn, user);
    if (bp->grid)
        return bp_grid_query(bp->grid, &q, fn, user);
    return bp_raw_query(bp->raw, &q, fn, user);
}
