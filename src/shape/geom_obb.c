/* geom_obb.c -- the oriented box of one piece (seed 004), in the piece's
 * frame. */
#include <math.h>

#include "polytope/obb.h"
#include "polytope/error.h"
#include "src/shape/pose.h"
#include "src/shape/geom.h"

#include "polytope/fp.h"

#define U FP_U

/* A convex piece's vertices are the nearest doubles of its exact
 * vertices: each coordinate is within u |x| (or 2^-1075 below the normal
 * range) of the exact one, so the box fitted to them is widened by
 * 1.02 u max |v|_1 (+ 3 eta), which bounds the move of any vertex along
 * any axis of a frame of small defect (and its kappa share). */
static void widen_for_rounded_vertices(hs_obb *box, const double *v, int n)
{
    double mx = 0;
    for (int i = 0; i < n; i++) {
        double s = fabs(v[3 * i]) + fabs(v[3 * i + 1]) + fabs(v[3 * i + 2]);
        mx = s > mx ? s : mx;
    }
    double w = 1.02 * U * mx; /* its eta terms: covered by obb_up */
    for (int k = 0; k < 3; k++)
        box->half[k] = obb_up(box->half[k] + w);
}

/* Room for the rounding of rows mapped into another frame: the same
 * relative margin as the piece boxes (POSE_BOX_SLACK). */
static void widen_for_mapped_rows(hs_obb *box)
{
    double size = fabs(box->center[0]) + fabs(box->center[1]) + fabs(box->center[2]) +
                  box->half[0] + box->half[1] + box->half[2];
    for (int k = 0; k < 3; k++)
        box->half[k] = obb_up(box->half[k] + POSE_BOX_SLACK * size + 0x1p-1000);
}

void geom_set_obb(geom *g, const hs_obb *box)
{
    g->obb = *box;
    widen_for_mapped_rows(&g->obb);
}

hs_code geom_fit_obb(geom *g, const double *pts, int n, int rounded, hs_error *err)
{
    hs_code rc = hs_obb_fit(&g->obb, pts, n, err);
    if (rc != HS_OK)
        return rc;
    if (rounded)
        widen_for_rounded_vertices(&g->obb, pts, n);
    widen_for_mapped_rows(&g->obb);
    return HS_OK;
}
