/* broadphase.c -- the broad phase: dispatch to the method chosen at
 * creation (bp_raw.c, bp_grid.c, bp_tree.c). */
#include <stdlib.h>
#include <string.h>

#include "src/broadphase/bp_impl.h"

struct broadphase {
    hs_broadphase method;
    bp_raw *raw;
    bp_tree *tree;
    bp_grid *grid;
};

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
