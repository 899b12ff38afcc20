/* obb_fit.h -- fitting an oriented box to points with a convex hull the
 * caller already has (obb_fit.c; hs_obb_fit, in include/halfspace/obb.h,
 * computes the hull itself). */
#ifndef HS_OBB_FIT_H
#define HS_OBB_FIT_H

#include "halfspace.h"
#include "polytope/hull3.h"

/* A rigorous box around points[0 .. n) (n >= 1 finite points, 3 doubles
 * each) whose frame is chosen as hs_obb_fit would choose it for the
 * points frame_pts[0 .. frame_n) with the hull h (h from hull3_points on
 * exactly those points).  With frame_pts = points and h their hull, the
 * box is hs_obb_fit's; with frame_pts the points a polytope was made from
 * and points its (rounded) vertices, the box holds the vertices and the
 * frame costs the hull the caller already has instead of a second one.
 * Returns HS_OK, or HS_ERR_ARG (NULL, a hull of other points, non-finite
 * points). */
hs_code obb_fit_hull(hs_obb *box, const double *frame_pts, int frame_n, const hull3 *h,
                     const double *points, int n, hs_error *err);

/* The frame obb_fit_hull would choose for frame_pts with hull h (rows of
 * fax: three axes, orthonormal to a small defect). */
void obb_fit_hull_frame(const double *frame_pts, int frame_n, const hull3 *h, double fax[9]);

/* A rigorous box of frame fax (from obb_fit_hull_frame) around every x with
 * -down[i] <= fax_i . x <= up[i] for i = 0, 1, 2 (fax_i the rows of fax):
 * for a set whose support values along +-fax_i are bounded by up and
 * down.  Non-finite bounds give a box with infinite or NaN halves. */
void obb_from_slabs(hs_obb *box, const double fax[9], const double up[3], const double down[3]);

#endif
