/* lpd.h -- LP services in any dimension for the fast engine's callers:
 * an exact classification of a pair whose LPs are solved by a
 * floating-point simplex and certified exactly, and a certified strictly
 * interior point of one polyhedron. */
#ifndef HS_LPD_H
#define HS_LPD_H

#include "halfspace.h"

/* DISJOINT / TOUCHING / OVERLAP of A and B, exactly as the exact engine
 * answers (same status; an optimal point and certificate of the same LPs),
 * with the certificate verified (hs_result_verify) before it is returned. */
hs_code lpd_classify_pair(const hs_poly *A, const hs_poly *B, hs_result *r, hs_error *err);

/* A strictly interior point of p: x (n doubles) satisfies every row of p
 * strictly, certified in exact arithmetic on the rows as written, and
 * *radius (may be NULL) is an estimate of its Chebyshev margin.  Returns 0,
 * or -1 when no strictly interior point was found or certified (p is
 * empty, lower-dimensional, has equality rows, or the float LP failed) or
 * memory ran out; x is then unspecified. */
int lpd_interior_point(const hs_poly *p, double *x, double *radius);

/* A box hint: lo[j] and hi[j] approximate min and max of x_j over p,
 * computed in floating point (not certified); a side where p is unbounded
 * is clamped.  Returns 0, or -1 when p looked empty or memory ran out. */
int lpd_box_hint(const hs_poly *p, double *lo, double *hi);

#endif
