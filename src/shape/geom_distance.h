/* geom_distance.h -- floating-point distances between placed pieces
 * (geom_distance.c), for the distance queries of chains and robots
 * against a world.  Not exact: GJK in doubles (gjk.c). */
#ifndef HS_GEOM_DISTANCE_H
#define HS_GEOM_DISTANCE_H

#include "src/shape/geom.h"

/* The points of g (a convex piece's vertices, a mesh's points) placed by
 * the pose m, in a new array of *n * 3 doubles (free it), or NULL when out
 * of memory. */
double *geom_placed_points(const geom *g, const double m[16], int *n);

/* A lower bound on the distance between the boxes [lo1, hi1] and
 * [lo2, hi2] (0 when they meet), rounded down. */
double geom_box_gap(const double lo1[3], const double hi1[3], const double lo2[3],
                    const double hi2[3]);

/* The distance between two placed pieces: A (na points placed; ga its
 * geometry, a mesh taken triangle by triangle, or NULL for a convex set of
 * points), shrunk by the radius ra >= 0 (a sphere of centre A[0]: na = 1),
 * and B (nb points of gb, likewise).  When it is below *best, it replaces
 * *best (0 when they meet) and the nearest points replace pa and pb (pa on
 * the sphere's surface; pb = pa when they meet), and 1 is returned; else
 * 0, nothing written.  Thread-safe. */
int geom_pair_closer(const geom *ga, const double *A, int na, double ra, const geom *gb,
                     const double *B, int nb, double *best, double pa[3], double pb[3]);

#endif
