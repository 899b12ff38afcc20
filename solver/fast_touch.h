/* fast_touch.h -- contact certified from a floating-point basis of the
 * fast engine's margin LP (fast_touch.c), so that touching polyhedra need
 * not go to the exact engine. */
#ifndef HS_FAST_TOUCH_H
#define HS_FAST_TOUCH_H

#include "halfspace.h"
#include "polytope/predicates.h"
#include "solver/fast.h"

/* One basis of the margin LP of A and B (dimension n, D = n + 1). */
typedef struct fast_touch_job {
    int n;
    const double *G;            /* D*D: row c is the basis column g_c = (a_c, w_c) */
    const double *h;            /* D right sides */
    const int *which, *row;     /* D: polyhedron (0 = A, 1 = B) and row of g_c,
                                   or which = -1 for a box bound */
    const fast_view *V[2];      /* every row of A and of B */
    const double *strict_point; /* A's certified interior point (n) */
    int defer_exact;            /* nonzero: stop with 2 where the proof would solve
                                   the point exactly (rows near 0 at it beyond the
                                   basis: a degenerate corner), so that the caller
                                   can try a cheaper proof first */
    /* fast_touch_face only (may be NULL / 0): rows read first (stacked ids:
     * A's rows, then B's from V[0]->m), and where the id of the row that
     * put the point outside goes (-1 when none did) */
    const int *first;
    int nfirst;
    int *violated;
    /* fast_touch_face only (NULL: every row): the rows of view w to read,
     * only[w][0 .. nonly[w]), when the point lies on the plane of a face
     * of view w whose list (fast_facet.h) proves the others */
    const int *only[2];
    int nonly[2];
} fast_touch_job;

/* Is the basis a certificate that A and B touch (see fast_touch.c)?  1:
 * yes, r holds HS_TOUCHING lazily (the point, the separation multipliers
 * and A's interior point as the strict point, made exact on demand); 0:
 * not proved (r unchanged).  Up to 3 variables by floating-point
 * determinants with rigorous bounds; in more, by two exact eliminations
 * of the basis (pred_basis_exact: tens to hundreds of microseconds).  2
 * (up to 3 variables, with j->defer_exact): the rest of the proof needs
 * the point in exact rationals, not done. */
int fast_touch_certify(const fast_touch_job *j, hs_result *r, pred_stats *ps);

/* The same for a face on a face, without determinants: G's rows 0 and 1
 * are a row of A and a row of B, the others unit rows e_c (c != k) with
 * right side p_c (box bounds), so the basis vertex is the point x of A's
 * plane with x_c = p_c and x_k solved.  Proved: the two rows are exactly
 * opposite ((a, b) = -lambda (a', b'), lambda > 0: A and B lie on the two
 * sides of one plane, so their interiors are disjoint), and every other
 * row of A and B holds at x, each by the sign of the numerator of
 * a . x - b over a_k (n + 1 products with a rigorous bound; read from the
 * unit rows of fast_prep.h where a view reads its own rows; a row the
 * bound leaves open, such as another face through x, by its exact sign
 * there: pred_row_sign_on_plane).  1: yes, r holds
 * HS_TOUCHING as fast_touch_certify leaves it; 0: a row is violated at x
 * (r unchanged); -1: not this shape, not exactly opposite, or entries
 * outside the exact predicate's range (fast_touch_certify then decides).
 * Any n the engine takes (n + 1 <= SEIDEL_MAX_DIM). */
int fast_touch_face(const fast_touch_job *j, int k, hs_result *r);

/* The coordinates that such a basis's unit rows fix: p_i = h_c for every
 * row c >= 2 of G (D = n + 1 columns) that is the unit row e_i; the other
 * entries of p are left as they are.  (The face hint reads its point back
 * this way.) */
void fast_touch_unit_coords(int n, const double *G, const double *h, double *p);

#endif
