/* hull3_support.c -- certified upper bounds on the support function of a
 * hull's rows (hull3_support_bounds, see hull3.h), without enumerating
 * the rows' vertices.
 *
 * P = {x : a_f . x <= b_f} holds the hull and is close to it (hull3_rows).
 * For a direction u, weak duality gives the bound: if u = sum y_r a_r
 * over three rows with every y_r >= 0, then for x in P
 *   u . x = sum y_r (a_r . x) <= sum y_r b_r,
 * whatever the rest of P looks like.  The rows are taken from the facets
 * around the hull vertex v most extreme along u: u lies in the cone of
 * their exact normals, and (when it is not too near that cone's boundary)
 * in the cone of the rounded ones, so the bound is about u . v.  Signs of
 * y come from exact determinant signs (Cramer's rule), and the bound
 * sum y_r b_r = sum b_r det(A with row r := u) / det A is evaluated in
 * GMP rationals and rounded up, so it is rigorous for the numbers as
 * written.  A direction whose extreme vertices offer no such triple (u on
 * the boundary of a rounded cone, a vertex of many facets whose rounded
 * planes part) reports failure, and the caller enumerates P's vertices
 * instead. */
#include "polytope/hull3.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/mem.h"
#include "polytope/predicates.h"
#include "polytope/rational.h"

#define SUPPORT_TRIES 4      /* extreme vertices tried per direction */
#define SUPPORT_MAX_DEGREE 64 /* facets around a vertex searched for triples */

/* For each input point, how many facets it is a corner of and the first
 * of them (the walk around it, facets_around, starts there). */
typedef struct incidence {
    int *first, *degree;
} incidence;

static int incidence_build(const hull3 *h, incidence *inc)
{
    inc->first = mem_alloc((size_t)h->npoints, sizeof(int));
    inc->degree = mem_calloc((size_t)h->npoints, sizeof(int));
    if (!inc->first || !inc->degree)
        return -1;
    for (int f = 0; f < h->nfacets; f++)
        for (int k = h->facet_start[f]; k < h->facet_start[f + 1]; k++) {
            int v = h->facet_vert[k];
            if (inc->degree[v]++ == 0)
                inc->first[v] = f;
        }
    return 0;
}

/* 1 when u = sum y_r a_{row r} with every y_r >= 0 (exact signs), the
 * three rows independent. */
static int in_cone(const double *a, const int rows[3], const double u[3])
{
    double M[9];
    for (int r = 0; r < 3; r++)
        memcpy(M + 3 * r, a + 3 * (size_t)rows[r], 3 * sizeof(double));
    int s = pred_det_sign(M, 3, NULL);
    if (s != 1 && s != -1)
        return 0;
    for (int r = 0; r < 3; r++) {
        double R[9];
        memcpy(R, M, sizeof R);
        memcpy(R + 3 * r, u, 3 * sizeof(double));
        int sr = pred_det_sign(R, 3, NULL);
        if (sr == -2 || sr * s < 0)
            return 0;
    }
    return 1;
}

/* sum y_r b_r for the rows of a certified cone, rounded up. */
static double cone_bound(const double *a, const double *b, const int rows[3], const double u[3])
{
    mpq_t e[9], det, dr, acc, t1, t2;
    for (int i = 0; i < 9; i++)
        mpq_init(e[i]);
    mpq_inits(det, dr, acc, t1, t2, NULL);
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 3; j++)
            mpq_set_d(e[3 * r + j], a[3 * (size_t)rows[r] + j]);
    pred_det3_q(det, e, t1, t2);
    mpq_set_ui(acc, 0, 1);
    for (int r = 0; r < 3; r++) {
        for (int j = 0; j < 3; j++)
            mpq_set_d(e[3 * r + j], u[j]);
        pred_det3_q(dr, e, t1, t2);
        mpq_set_d(t1, b[rows[r]]);
        mpq_mul(dr, dr, t1);
        mpq_add(acc, acc, dr);
        for (int j = 0; j < 3; j++)
            mpq_set_d(e[3 * r + j], a[3 * (size_t)rows[r] + j]);
    }
    mpq_div(acc, acc, det);
    double v = q_round_up(acc);
    for (int i = 0; i < 9; i++)
        mpq_clear(e[i]);
    mpq_clears(det, dr, acc, t1, t2, NULL);
    return v;
}

/* The facets around input point v in their cyclic order (each shares
 * with the next the edge that leaves v), into order[]; their count, or -1
 * when there are more than SUPPORT_MAX_DEGREE. */
static int facets_around(const hull3 *h, const incidence *inc, int v, int *order)
{
    int d = inc->degree[v];
    if (d < 3 || d > SUPPORT_MAX_DEGREE)
        return -1;
    int f = inc->first[v];
    for (int k = 0; k < d; k++) {
        order[k] = f;
        int next = -1;
        for (int c = h->facet_start[f]; c < h->facet_start[f + 1]; c++)
            if (h->facet_vert[c] == v)
                next = h->facet_nb[c]; /* across the edge from v to the next corner */
        if (next < 0)
            return -1;
        f = next;
    }
    return f == order[0] ? d : -1;
}

/* A bound from the facets around input point v: 0 and *out, or -1 when
 * no triple of them certifies u.  The triples are the fans of the cone of
 * their normals from each apex in turn: one fan covers a convex cone, and
 * the others cover the small non-convexities that rounding makes. */
static int bound_at(const hull3 *h, const incidence *inc, int v, const double *a,
                    const double *b, const double u[3], double *out)
{
    int order[SUPPORT_MAX_DEGREE];
    int d = facets_around(h, inc, v, order);
    for (int apex = 0; apex < d; apex++)
        for (int i = 1; i + 1 < d; i++) {
            int rows[3] = {order[apex], order[(apex + i) % d], order[(apex + i + 1) % d]};
            if (in_cone(a, rows, u)) {
                *out = cone_bound(a, b, rows, u);
                return 0;
            }
        }
    return -1;
}

/* The hull vertex (input index) with the largest u . p not yet tried, or
 * -1 (a floating-point ranking: only which certificate is found depends
 * on it, not whether it is valid). */
static int next_extreme(const hull3 *h, const double *pts, const double u[3], const int *tried,
                        int ntried)
{
    int best = -1;
    double bv = 0;
    for (int k = 0; k < h->nverts; k++) {
        int i = h->verts[k], seen = 0;
        for (int t = 0; t < ntried; t++)
            seen |= tried[t] == i;
        if (seen)
            continue;
        const double *p = pts + 3 * (size_t)i;
        double v = u[0] * p[0] + u[1] * p[1] + u[2] * p[2];
        if (best < 0 || v > bv) {
            best = i;
            bv = v;
        }
    }
    return best;
}

int hull3_support_bounds(const hull3 *h, const double *pts, const double *a, const double *b,
                         const double *dirs, int k, double *out)
{
    incidence inc = {NULL, NULL};
    int rc = incidence_build(h, &inc);
    for (int d = 0; d < k && rc == 0; d++) {
        const double *u = dirs + 3 * (size_t)d;
        int tried[SUPPORT_TRIES], ntried = 0;
        rc = -1;
        while (rc != 0 && ntried < SUPPORT_TRIES) {
            int v = next_extreme(h, pts, u, tried, ntried);
            if (v < 0)
                break;
            tried[ntried++] = v;
            rc = bound_at(h, &inc, v, a, b, u, &out[d]);
        }
    }
    free(inc.first);
    free(inc.degree);
    return rc;
}
