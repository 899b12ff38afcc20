/*
 * halfspace/obb.h -- oriented bounding boxes (seed 004): fitting a box to
 * points, moving, merging and testing boxes, and the box of a body's
 * piece.  Part of the public API of libhalfspace; programs include
 * "halfspace.h", which includes this file.
 */
#include "../halfspace.h"

#ifndef HALFSPACE_OBB_H
#define HALFSPACE_OBB_H

#ifdef __cplusplus
extern "C" {
#endif

/* An oriented box: the points center + sum_k s_k axis[k] with |s_k| <=
 * half[k].  axis[0..2] are orthonormal (rows of a rotation matrix, so
 * axis[k][j] is component j of axis k); half[k] >= 0.  A plain struct:
 * copy it freely.  Every routine of this section except
 * hs_body_piece_obb is a pure function of its arguments and
 * thread-safe; box and point arguments must not be NULL unless a routine
 * says otherwise.
 *
 * Boxes are bounding volumes, so their routines are conservative: a box
 * that must contain a set contains it for every rounding (sizes are
 * rounded outward), and the overlap test answers "separated" only when the
 * two boxes are certainly disjoint. */
typedef struct hs_obb {
    double center[3];
    double axis[3][3];
    double half[3];
} hs_obb;

/* Box containing the n points (x, y, z triples: 3n doubles, n >= 1,
 * finite) into *box: axes from the principal directions of the points'
 * convex hull (the covariance of its surface, robust to how the points
 * are spread), then the smallest of that and a few candidate frames (the
 * world axes, hull edges) by volume.  Returns HS_OK, HS_ERR_ARG for box or
 * points NULL, n < 1 or a non-finite coordinate, HS_ERR_NOMEM. */
HS_API hs_code hs_obb_fit(hs_obb *box, const double *points, int n, hs_error *err);
/* Box of the image of `in` under the rigid pose m (double[16]) into *out
 * (contains it for every rounding; out may alias in). */
HS_API void hs_obb_transform(hs_obb *out, const hs_obb *in, const double m[16]);
/* Separating-axis test on the 15 axes (3 + 3 face normals, 9 edge
 * cross products): 0 when the boxes are certainly disjoint, 1 when they
 * may meet (touching counts as meeting).  Nearly parallel edges, whose
 * cross products are tiny, are handled by a rigorous round-off bound on
 * every projection, never by a fixed epsilon.  A box whose axes are not
 * orthonormal to within 2^-20, or with a non-finite number, may meet
 * anything (1); so does a NULL box.  About 100 ns. */
HS_API int hs_obb_overlap(const hs_obb *a, const hs_obb *b);
/* A lower bound on the distance between the two boxes: the largest gap
 * over the 15 axes, rounded down (0 when they may meet, for a NULL box,
 * and for the boxes for which hs_obb_overlap answers 1 by rule). */
HS_API double hs_obb_distance_lower_bound(const hs_obb *a, const hs_obb *b);
/* A box containing both a and b into *out (out may alias either). */
HS_API void hs_obb_merge(hs_obb *out, const hs_obb *a, const hs_obb *b);
/* Does the box contain the point p[3] (conservatively: 1 when it may,
 * also for a box whose axes are not orthonormal; 0 when it certainly
 * does not)? */
HS_API int hs_obb_contains(const hs_obb *box, const double p[3]);
/* Box of piece k of body b in the body frame into *box, fitted once when
 * the piece was made (to the exact vertices of a convex piece, the points
 * of a mesh) and widened by 2^-30 of its size, the margin the world's
 * piece boxes keep for rows mapped into another body's frame; world
 * queries skip pairs of pieces whose boxes are apart.  HS_ERR_ARG for b or
 * box NULL or k outside 0..pieces-1.  Const-safe. */
HS_API hs_code hs_body_piece_obb(const hs_body *b, int k, hs_obb *box, hs_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HALFSPACE_OBB_H */
