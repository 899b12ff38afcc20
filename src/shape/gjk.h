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

#endif
