/* tri_bvh.h -- a bounding-volume hierarchy of the triangles of a mesh:
 * built once per mesh (tri_bvh_build.c; every node has an axis box in the
 * mesh's frame and an oriented box), traversed against another mesh's
 * hierarchy or against a box under a relative pose with certified culling
 * (tri_bvh.c). */
#ifndef HS_TRI_BVH_H
#define HS_TRI_BVH_H

#include "halfspace.h"

typedef struct tri_bvh tri_bvh;

/* Build from nverts points (xyz, finite) and ntris index triples (in
 * range); NULL when out of memory.  The hierarchy keeps copies of the
 * triangles' corners, not the arrays. */
tri_bvh *tri_bvh_new(const double *verts, int nverts, const int *tris, int ntris);
void tri_bvh_free(tri_bvh *h);

/* One triangle pair that meets: triangle ia of the first mesh, ib of the
 * second, its status and witness (first mesh's frame); nonzero stops. */
typedef int (*tri_bvh_pair_fn)(void *user, int ia, int ib, hs_status status, const double w[3]);

/* 1 when every point of h mapped by T (pose_apply) is certainly finite
 * (a bound from the largest coordinates); 0 when the caller must check. */
int tri_bvh_image_finite(const tri_bvh *h, const double T[16]);

/* Every pair of triangles of a (in its frame) and b (its points mapped
 * into a's frame by T, row-major 4x4, with pose_apply: each coordinate
 * rounded once) that meet, reported through fn, as HS_TRI_RAW would
 * report them (same pairs, statuses and witnesses) but in the order of
 * the traversal; the search stops when fn returns nonzero.  The mapped
 * points must be finite (the caller checks, see tri_bvh_image_finite).
 * Returns the number of triangle-triangle tests made.  No scratch memory;
 * thread-safe on const hierarchies. */
long tri_bvh_pairs(const tri_bvh *a, const tri_bvh *b, const double T[16], tri_bvh_pair_fn fn,
                   void *user);

/* A triangle t of the mesh whose corners, mapped by T with pose_apply,
 * are tri; nonzero stops. */
typedef int (*tri_bvh_visit_fn)(void *user, int t, const double tri[3][3]);

/* Every triangle of h whose points, mapped by T (pose_apply), may come
 * near the box [lo, hi] (in the target frame), visited in the hierarchy's
 * order.  A triangle is left out only when a certified test shows that,
 * on some axis d, all its mapped corners (as rounded) lie below
 * lo[d] - 2 grow[d] or all above hi[d] + 2 grow[d] (grow[d] >= 0): so any
 * triangle whose corners' box, widened by grow, meets [lo, hi] is visited.
 * (The test is the box of the node's image against the widened box, not
 * the full separating-axis test, so that the visited set is exactly a
 * superset of that box rule.)  Returns 1 when fn stopped the visit, 0
 * otherwise. */
int tri_bvh_near_box(const tri_bvh *h, const double T[16], const double lo[3],
                     const double hi[3], const double grow[3], tri_bvh_visit_fn fn, void *user);

/* How many triangles tri_bvh_near_box would visit, counted up to limit
 * (the count returned stops at or just past it): an estimate of its cost,
 * without mapping any point. */
int tri_bvh_near_count(const tri_bvh *h, const double T[16], const double lo[3],
                       const double hi[3], const double grow[3], int limit);

#endif
