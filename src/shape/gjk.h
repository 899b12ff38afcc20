/* gjk.h -- distance between the convex hulls of two point sets (the
 * Gilbert-Johnson-Keerthi algorithm), in floating point.  Used for
 * contacts and distances, which are measured, not decided: the decision
 * whether two pieces meet is always the exact one of the narrow phase. */
#ifndef HS_GJK_H
#define HS_GJK_H

/* Distance between conv(A) (na points, xyz) and conv(B) (nb points); pa
 * and pb receive the closest points (|pa - pb| is the value returned, as
 * computed).  The hulls are taken as given: 0 when they meet (then pa,
 * pb are a common point up to rounding). */
double gjk_distance(const double *A, int na, const double *B, int nb, double pa[3],
                    double pb[3]);

/* A simplex of the Minkowski difference A - B: k <= 4 vertices w = a - b,
 * with the points a of A and b of B they come from. */
typedef struct gjk_simplex {
    int k;
    double w[4][3], a[4][3], b[4][3];
} gjk_simplex;

/* Johnson's sub-algorithm: reduce s to its face nearest the origin (the
 * affine projection among its faces whose barycentric weights are all
 * positive, the nearest of them); lam[0..s->k-1] receive those weights
 * and v the nearest point, sum lam_i w_i.  For callers that run their own
 * GJK loop (with their own support functions and stopping rules). */
void gjk_simplex_nearest(gjk_simplex *s, double v[3], double lam[4]);

#endif
