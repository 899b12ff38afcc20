/* tri_convex.h -- exact classification of a triangle against a convex
 * polytope given by a half-space system, in the same frame. */
#ifndef HS_TRI_CONVEX_H
#define HS_TRI_CONVEX_H

#include "halfspace.h"

typedef struct tri_convex_work tri_convex_work;

/* Scratch reused across calls (one per thread); NULL when out of memory. */
tri_convex_work *tri_convex_work_new(void);
void tri_convex_work_free(tri_convex_work *w);

/* Triangle t (three points, doubles taken exactly; may be degenerate)
 * against P (n = 3, inequality rows, fast-ready: full-dimensional,
 * exact doubles).  The answer in the library's semantics, with the
 * triangle as the flat set it is: HS_OVERLAP when the relative interior
 * of the triangle meets the interior of P, HS_TOUCHING when they meet
 * otherwise, HS_DISJOINT when they do not.  *witness (if not NULL) gets a
 * common point (nearest doubles) when they meet.  *fell_back (may be NULL)
 * is set to 1 when the floating-point filters could not decide and exact
 * arithmetic answered.  Returns HS_OK or an error (out of memory). */
hs_code tri_convex_classify(tri_convex_work *w, const double t[3][3], const hs_poly *P,
                            hs_status *status, double witness[3], int *fell_back,
                            hs_error *err);

#endif
