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

#endif
