/* fast_facet.h -- per face of a 3-variable polyhedron, the few rows that
 * bound it within its plane, with a proof that they are enough: a point
 * of the face's plane that satisfies them satisfies every row.
 *
 * Why.  A contact of two faces on one plane (a box on a floor, a mesh hull
 * set face down) is proved by a point of that plane inside both bodies.
 * Without more, "inside" means every row of both bodies, checked at the
 * point: a pass over all of them on every query (m = 383 on average for
 * the mesh hulls of bench/pairs), and most of a resting pair's time.  The
 * face's own edges decide it instead, once their sufficiency is proved.
 *
 * The proof, for face k (row a_k . x <= b_k) and edge rows N.  Every other
 * row i is implied on the plane by two rows j, j' of N: with
 *     a_i = mu_k a_k + mu_j a_j + mu_j' a_j',   mu_j >= 0, mu_j' >= 0
 *     b_i >= mu_k b_k + mu_j b_j + mu_j' b_j',
 * a point x with a_k . x = b_k, a_j . x <= b_j and a_j' . x <= b_j' has
 * a_i . x <= b_i (mu_k may have either sign: a_k . x is b_k exactly).  By
 * Cramer's rule, with D = det(a_k; a_j; a_j'), the conditions are the
 * exact signs
 *     sign D != 0,  sign det(a_k; a_i; a_j') D >= 0,  sign det(a_k; a_j; a_i) D >= 0,
 *     sign det[(a_k, b_k); (a_j, b_j); (a_j', b_j'); (a_i, b_i)] D >= 0
 * (pred_det_sign: floating point with a filter, then exact).  The pair
 * (j, j') for row i is that of the face polygon's vertex extreme along a_i
 * (in floating point: it only chooses; its neighbours are tried when the
 * signs turn it down).  The polygon comes from clipping a square of the
 * plane, larger than the box hint, by every row in floating point; its
 * edges' rows are N.  A face whose polygon is empty, keeps a side of the
 * square, has more than FAST_FACET_MAX_EDGES edges, or has a row that no
 * pair proves, gets no list (the callers read every row, as before).
 *
 * Memory: one block of m pointers, made on the first request on a
 * polyhedron, and per face a list of its rows (or a mark that it has
 * none), made by the first request for that face and installed with an
 * atomic compare-and-swap: thread-safe, racing threads compute the same
 * list.  Freed with the preparation (fast_facets_free). */
#ifndef HS_FAST_FACET_H
#define HS_FAST_FACET_H

#include "solver/fast_prep.h"

/* Row (a, b) of 3 variables restricted to the plane g . x = gb, with
 * coordinate kk (g_kk != 0) solved from it: out[0] u + out[1] v <= out[2]
 * in the other two coordinates u, v in increasing order, each entry
 * rounded once after a rounded quotient s = a_kk / g_kk (fast_facet.c
 * bounds the error; fast_faces.c's plane LP only steers). */
static inline void fast_plane_row(const double *a, double b, const double *g, double gb, int kk,
                                  double *out)
{
    double s = a[kk] / g[kk];
    int c1 = kk == 0 ? 1 : 0, c2 = kk == 2 ? 1 : 2;
    out[0] = a[c1] - s * g[c1];
    out[1] = a[c2] - s * g[c2];
    out[2] = b - s * gb;
}

/* Most edges a face's list holds (a mesh hull's faces have 3-12). */
#define FAST_FACET_MAX_EDGES 64

/* The rows bounding face k (0 <= k < fp->m) of fp's polyhedron in its
 * plane, proved sufficient as above: *count of them (never k itself), or
 * NULL (and *count 0) when fp has no such list for k (see above; also: not
 * 3 variables, no box hint, out of memory).  The first request for a face
 * makes its list: a pass over every row and four exact signs for each,
 * about 0.1-0.3 ms on a 400-row mesh hull.  The list is fp's: valid while
 * fp is.  Thread-safe. */
const int *fast_facet_rows(const fast_prep *fp, int k, int *count);

/* The proof of fast_facet.h for face k of fp's polyhedron and the rows
 * rows[0 .. count) (3 <= count <= cap <= FAST_FACET_MAX_EDGES; k not among
 * them): the polygon they bound in k's plane chooses each other row's
 * pair; a row that no pair proves is appended to rows.  Returns the new
 * count, every row of the polyhedron then implied on the plane by rows[]
 * (the list fast_facet_rows keeps), or -1 when the rows do not bound a
 * polygon inside twice the box hint, more than cap would be needed, or an
 * argument is out of range.  Pure but for rows; thread-safe. */
int fast_facet_prove(const fast_prep *fp, int k, int *rows, int count, int cap);

/* Frees the lists of fp (fast_prep_free calls it).  Not thread-safe: fp
 * is being freed. */
void fast_facets_free(fast_prep *fp);

#endif
