/* broadphase.h -- which pairs of boxes overlap: every pair (raw), through
 * seed 000's uniform grid, or through a dynamic AABB tree.  Items are
 * integer ids (>= 0) with axis-aligned boxes; boxes are closed, so boxes
 * that only touch do overlap (touching bodies must reach the narrow
 * phase).  A structure is changed by insert / remove / update and read,
 * from any number of threads at once, by bp_pairs / bp_query. */
#ifndef HS_BROADPHASE_H
#define HS_BROADPHASE_H

#include "halfspace.h"

typedef struct broadphase broadphase;

/* New empty structure for the method (HS_BROAD_TREE, HS_BROAD_GRID,
 * HS_BROAD_RAW); NULL when out of memory. */
broadphase *bp_new(hs_broadphase method);
void bp_free(broadphase *bp);

/* Add item id with box [lo, hi]; 0 or -1 (out of memory, or id present). */
int bp_insert(broadphase *bp, int id, const double lo[3], const double hi[3]);
/* Remove item id (no effect when absent). */
void bp_remove(broadphase *bp, int id);
/* New box of item id (cheap when the box moved a little); 0 or -1. */
int bp_update(broadphase *bp, int id, const double lo[3], const double hi[3]);
/* Number of items. */
int bp_count(const broadphase *bp);

/* Calls fn(user, a, b) once for every unordered pair of items whose boxes
 * overlap, with a < b.  Returns the number of box-box tests made.  Reads
 * only: thread-safe against other readers. */
typedef void (*bp_pair_fn)(void *user, int a, int b);
long bp_pairs(const broadphase *bp, bp_pair_fn fn, void *user);

/* Calls fn(user, id) for every item whose box overlaps [lo, hi]. */
typedef void (*bp_item_fn)(void *user, int id);
long bp_query(const broadphase *bp, const double lo[3], const double hi[3], bp_item_fn fn,
              void *user);

#endif
