/* hull3.h -- convex hull of points in R^3 with exact combinatorics.
 *
 * Every decision of the hull (is a point above, on or below the plane of a
 * facet?) is made by an exact orientation predicate: the sign is computed
 * in floating point when a rigorous error bound proves it, and with GMP
 * rationals otherwise.  Floating-point values only steer the order in
 * which points are inserted (quickhull's farthest point first), never the
 * answer, so the output is the exact hull of the input doubles:
 *
 *   - vertices: exactly the extreme points of the input (for duplicated
 *     points, one index, the first one inserted);
 *   - facets: the faces of the hull as convex polygons, coplanar triangles
 *     merged and points lying on an edge or inside a face dropped, the
 *     corners counterclockwise seen from outside (outward orientation).
 *
 * Inputs whose hull is not a solid (all points coplanar, collinear, or
 * fewer than four distinct points) are reported as errors.
 *
 * The core works on any points that have an exact orientation predicate
 * (hull3_source); vertices.c uses it for the dual points of a polytope's
 * rows.  No global state; every function is thread-safe on distinct
 * objects. */
#ifndef HS_HULL3_H
#define HS_HULL3_H

#include <gmp.h>

#include "halfspace.h"

/* The hull.  Indices in verts and facet_vert refer to the input points. */
typedef struct hull3 {
    int npoints;      /* number of input points */
    int nverts;       /* hull vertices */
    int *verts;       /* nverts input indices, ascending */
    int nfacets;      /* faces of the hull */
    int *facet_start; /* nfacets + 1 offsets into facet_vert / facet_nb */
    int *facet_vert;  /* corners of facet f: facet_vert[facet_start[f] ..
                         facet_start[f+1] - 1], counterclockwise seen from
                         outside; at least 3, no three collinear */
    int *facet_nb;    /* aligned with facet_vert: the facet on the other
                         side of the edge from corner k to corner k+1 */
    int nedges;       /* edges (each shared by two facets) */
} hull3;

/* Points as seen by the hull core.  Point i has homogeneous coordinates
 * h_i = (x_i, w_i) in Q^4 with w_i > 0 (the point itself is x_i / w_i); the
 * core may be given instead any images T h_i under one invertible linear
 * map T of positive determinant, since ranks and orientations are the same.
 *   orient(user, i, j, k, l): the sign pred_orient3d would give for the
 *       four points (+1: l above the plane of i, j, k); must be exact.
 *   exact(user, i, h): the four exact homogeneous coordinates T h_i
 *       (h already initialised by the caller).
 *   approx: n*3 doubles near the points, for heuristics only; they may be
 *       inaccurate (even infinite) without affecting the answer.
 *   exact_d (optional, may be NULL): exact_d(user, i, h) writes the same
 *       four coordinates as `exact` as doubles and returns 1 when they are
 *       doubles exactly, returns 0 otherwise; the rank tests of the
 *       initial simplex then run on doubles (exact minors) instead of
 *       rationals. */
typedef struct hull3_source {
    int n;
    const double *approx;
    int (*orient)(void *user, int i, int j, int k, int l);
    void (*exact)(void *user, int i, mpq_t h[4]);
    void *user;
    int (*exact_d)(void *user, int i, double h[4]);
} hull3_source;

/* Hull of the n points pts[3*i .. 3*i+2] (finite doubles, n >= 4).
 * Returns HS_OK and a new hull in *out, or an error: HS_ERR_ARG for bad
 * arguments (NULL, n < 4, a non-finite coordinate), HS_ERR_INPUT when the
 * hull is not a solid ("fewer than 4 distinct points", "points are
 * collinear", "points are coplanar"), HS_ERR_NOMEM. */
hs_code hull3_points(const double *pts, int n, hull3 **out, hs_error *err);

/* Same for points given through a source (n >= 1; same errors). */
hs_code hull3_from_source(const hull3_source *src, hull3 **out, hs_error *err);

/* Free a hull (NULL is allowed). */
void hull3_free(hull3 *h);

/* One half-space a . x <= b per facet of the hull h of pts (the points h
 * was built from): a[3*f .. 3*f+2], b[f] for f < h->nfacets.
 * CONSERVATIVE: the normal a is computed in double (Newell's formula over
 * the facet's corners, so it is only approximately perpendicular to the
 * facet), and b is the exact maximum of a . p over all hull vertices p
 * rounded up to a double.  Hence every input point satisfies every row
 * exactly (a . p <= b in real arithmetic, p in the hull), and the rows
 * describe a polytope that contains the hull and is close to it.  Returns
 * HS_OK, or HS_ERR_UNSUPPORTED when a normal or bound is not a finite
 * double (coordinates near the double range), or HS_ERR_NOMEM. */
hs_code hull3_rows(const hull3 *h, const double *pts, double *a, double *b, hs_error *err);

/* Certified upper bounds on the support function of the rows a, b that
 * hull3_rows made for the hull h of pts: for each of the k directions
 * dirs[3*d .. 3*d+2] (finite doubles), out[d] is a double with
 * out[d] >= u . x for every x satisfying every row exactly, and close to
 * the hull's own support value (a dual certificate from the facets around
 * the extreme vertices; see hull3_support.c).  Returns 0, or -1 when some
 * direction found no certificate or memory ran out (out is then
 * unspecified: the caller bounds the rows' polytope another way, by its
 * vertices).  Thread-safe on distinct outputs. */
int hull3_support_bounds(const hull3 *h, const double *pts, const double *a, const double *b,
                         const double *dirs, int k, double *out);

#endif
