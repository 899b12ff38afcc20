/* bp_impl.h -- what the three broad-phase methods share: closed boxes, the
 * table from item ids to where an item lives, and the entry points of each
 * method, called by the dispatch in broadphase.c.
 *
 * Ids index a table directly, so memory grows with the largest id in use
 * (the world numbers its bodies densely). */
#ifndef HS_BP_IMPL_H
#define HS_BP_IMPL_H

#include "src/broadphase/broadphase.h"

typedef struct bp_box {
    double lo[3], hi[3];
} bp_box;

/* Closed intervals: boxes that only touch overlap.  The six comparisons
 * are all made (no early exit): the outcome is hard to predict, and a
 * mispredicted branch costs more than the comparisons saved. */
static inline int bp_box_overlap(const bp_box *a, const bp_box *b)
{
    return (a->lo[0] <= b->hi[0]) & (b->lo[0] <= a->hi[0]) & (a->lo[1] <= b->hi[1]) &
           (b->lo[1] <= a->hi[1]) & (a->lo[2] <= b->hi[2]) & (b->lo[2] <= a->hi[2]);
}

static inline int bp_box_contains(const bp_box *outer, const bp_box *inner)
{
    return outer->lo[0] <= inner->lo[0] && outer->lo[1] <= inner->lo[1] &&
           outer->lo[2] <= inner->lo[2] && inner->hi[0] <= outer->hi[0] &&
           inner->hi[1] <= outer->hi[1] && inner->hi[2] <= outer->hi[2];
}

/* Copies [lo, hi] into a box; 0, or -1 when a bound is NaN or lo > hi. */
int bp_box_set(bp_box *box, const double lo[3], const double hi[3]);

/* Boxes beyond this magnitude (or infinite: unbounded bodies) are kept
 * apart by the tree and the grid and tested against every item, so that
 * areas, margins and cell numbers never overflow. */
#define BP_FAR 1e30
int bp_box_is_far(const bp_box *box);

/* Reports the pair (a, b) with the smaller id first. */
static inline void bp_report(bp_pair_fn fn, void *user, int a, int b)
{
    if (a < b)
        fn(user, a, b);
    else
        fn(user, b, a);
}

/* Table id -> int (a slot or node), -1 for absent ids. */
typedef struct bp_idmap {
    int *at;
    int cap;
} bp_idmap;

void bp_idmap_free(bp_idmap *m);
/* Value of id, -1 when absent or out of range. */
static inline int bp_idmap_get(const bp_idmap *m, int id)
{
    return id >= 0 && id < m->cap ? m->at[id] : -1;
}
/* Makes room for id (new entries -1); 0 or -1 when out of memory or id < 0. */
int bp_idmap_reserve(bp_idmap *m, int id);
/* Grows an array of *cap elements of size elem to hold at least need; new
 * bytes are zero.  0 or -1 when out of memory. */
int bp_grow(void **array, int *cap, int need, size_t elem);

/* ---------------------------------------------------------------- raw */
typedef struct bp_raw bp_raw;
bp_raw *bp_raw_new(void);
void bp_raw_free(bp_raw *r);
int bp_raw_insert(bp_raw *r, int id, const bp_box *box);
void bp_raw_remove(bp_raw *r, int id);
int bp_raw_update(bp_raw *r, int id, const bp_box *box);
int bp_raw_count(const bp_raw *r);
long bp_raw_pairs(const bp_raw *r, bp_pair_fn fn, void *user);
long bp_raw_query(const bp_raw *r, const bp_box *q, bp_item_fn fn, void *user);

/* ---------------------------------------------------------------- tree */
typedef struct bp_tree bp_tree;
bp_tree *bp_tree_new(void);
void bp_tree_free(bp_tree *t);
int bp_tree_insert(bp_tree *t, int id, const bp_box *box);
void bp_tree_remove(bp_tree *t, int id);
int bp_tree_update(bp_tree *t, int id, const bp_box *box);
int bp_tree_count(const bp_tree *t);
long bp_tree_pairs(const bp_tree *t, bp_pair_fn fn, void *user);
long bp_tree_query(const bp_tree *t, const bp_box *q, bp_item_fn fn, void *user);
/* Height of the tree (0 when empty, 1 for one leaf); for the tests. */
int bp_tree_height(const bp_tree *t);

/* ---------------------------------------------------------------- grid */
typedef struct bp_grid bp_grid;
bp_grid *bp_grid_new(void);
void bp_grid_free(bp_grid *g);
int bp_grid_insert(bp_grid *g, int id, const bp_box *box);
void bp_grid_remove(bp_grid *g, int id);
int bp_grid_update(bp_grid *g, int id, const bp_box *box);
int bp_grid_count(const bp_grid *g);
long bp_grid_pairs(const bp_grid *g, bp_pair_fn fn, void *user);
long bp_grid_query(const bp_grid *g, const bp_box *q, bp_item_fn fn, void *user);
/* Items kept apart from the cells (huge or unbounded); for the tests. */
int bp_grid_big_count(const bp_grid *g);

#endif
