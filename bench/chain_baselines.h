/* chain_baselines.h -- the three baselines of seed 003's experiment
 * (section 5) for self-collision of a chain of equal spheres, one sphere
 * per link at the link's origin:
 *
 *   grid      explicit forward kinematics and a hash grid of sphere centres
 *             (cells of the collision distance 2r), rebuilt each step: the
 *             larger of the two rigid pieces is inserted, the spheres of
 *             the smaller one look up the 27 cells around them.  O(N).
 *   obbtree1  one OBB tree over all spheres, spatially adapted (top-down:
 *             principal axes of the centres, split at the mean along the
 *             longest box axis, as in OBBTree / PQP), rebuilt from scratch
 *             after each change and tested against itself.  O(N log N).
 *   obbtreek  seed 003's K-OBBTree: after each change one such tree per
 *             rigid piece (with one changed joint k: links 0..k-1 and
 *             k..N-1), rebuilt from scratch, the pairs of trees tested.
 *
 * Collision: two spheres of links i, j with |i - j| >= 2 whose centres
 * are at most 2r apart (touching counts).  Every method uses the fact the
 * seed's experiment guarantees, that the chain was free of collision
 * before the change, where its definition allows it (grid and obbtreek
 * test only pairs across the two rigid pieces; obbtree1, by definition,
 * tests everything).  Boxes are hs_obb tested with the library's
 * conservative 15-axis test (hs_obb_overlap).
 *
 * Poses are 4x4 row-major (halfspace.h): pose(0) = joint 0 (the base),
 * pose(i) = pose(i-1) J_i. */
#ifndef HS_BENCH_CHAIN_BASELINES_H
#define HS_BENCH_CHAIN_BASELINES_H

#include "halfspace.h"

typedef enum cb_method { CB_GRID = 0, CB_OBBTREE1, CB_OBBTREEK } cb_method;

typedef struct cb_state cb_state;

/* New state for n >= 2 links: joints n * 16 doubles (joint 0 is the base
 * pose), sphere radius r > 0.  NULL when out of memory. */
cb_state *cb_new(cb_method method, int n, const double *joints, double r);
void cb_free(cb_state *s);
const char *cb_method_name(cb_method method);

/* J_k <- J_k d (1 <= k < n), remembered for cb_undo. */
void cb_change(cb_state *s, int k, const double d[16]);
/* Restore the joint of the last cb_change. */
void cb_undo(cb_state *s);

/* Does the chain collide, given that it did not before the last change?
 * Returns 1 with a pair *i < *j, or 0.  *tests receives the work counter
 * of this query: box-box tests for the trees, cell visits for the grid. */
int cb_self_collision(cb_state *s, long *tests, int *i, int *j);

/* Full check of every pair (for the start configuration): 1 if some
 * non-adjacent pair collides (the pair in *i, *j). O(N log N) with the
 * grid. */
int cb_check_all(cb_state *s, int *i, int *j);

#endif
