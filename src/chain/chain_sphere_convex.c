/* chain_sphere_convex.c -- a sphere against a convex piece, exact:
 * do they meet (distance from the centre to the piece at most r;
 * touching counts)?
 *
 * The squared distance from a point p to a polytope P = {x : a_i . x <=
 * b_i} is rational: the closest point is the projection of p onto the
 * affine hull of some face (facet, edge or vertex), and every such
 * projection that lies in P is a point of P; so the distance is the
 * smallest |p - x|^2 over the projections x that lie in P, each computed
 * in GMP rationals.  That enumeration is the exact fallback; certificates
 * checked exactly decide almost every case first:
 *   apart:  one row a.p - b > r |a| (filtered), or a combination n =
 *           -sum y_i a_i, H = -sum y_i b_i (y >= 0, a few rows active at
 *           the closest point) with H - n.p > r |n| (P lies in
 *           {x : n.x >= H});
 *   meet:   p inside every row, or a point y (a closest point pulled
 *           towards the piece's certified interior point) inside every
 *           row and within r of p, both by exact predicates. */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/hpoly.h"
#include "polytope/hull3.h"
#include "solver/fast_prep.h"
#include "polytope/predicates.h"
#include "src/chain/chain_piece_tests.h"
#include "src/shape/gjk.h"

/* ------------------------------------------------ exact helpers */

void qvec_init(qvec *x)
{
    for (int j = 0; j < 3; j++)
        mpq_init(x->v[j]);
}

void qvec_clear(qvec *x)
{
    for (int j = 0; j < 3; j++)
        mpq_clear(x->v[j]);
}

static void q_dot_d(mpq_t out, const double a[3], const qvec *x, mpq_t tmp)
{
    mpq_set_ui(out, 0, 1);
    for (int j = 0; j < 3; j++) {
        mpq_set_d(tmp, a[j]);
        mpq_mul(tmp, tmp, x->v[j]);
        mpq_add(out, out, tmp);
    }
}

/* x in P exactly: a_i . x <= b_i for every row. */
static int q_inside(const hs_poly *P, const qvec *x)
{
    mpq_t s, t;
    mpq_inits(s, t, NULL);
    int in = 1;
    for (int i = 0; i < P->m && in; i++) {
        q_dot_d(s, hpoly_row(P, i), x, t);
        mpq_set_d(t, P->b[i]);
        in = mpq_cmp(s, t) <= 0;
    }
    mpq_clears(s, t, NULL);
    return in;
}

/* |p - x|^2 into out. */
static void q_dist2(mpq_t out, const double p[3], const qvec *x)
{
    mpq_t t;
    mpq_init(t);
    mpq_set_ui(out, 0, 1);
    for (int j = 0; j < 3; j++) {
        mpq_set_d(t, p[j]);
        mpq_sub(t, t, x->v[j]);
        mpq_mul(t, t, t);
        mpq_add(out, out, t);
    }
    mpq_clear(t);
}

/* Projection of p onto {x : a_k . x = b_k, k < k_rows} (k_rows = 1, 2 or
 * 3 independent rows): x = p - A^T w with (A A^T) w = A p - b, solved by
 * Cramer's rule.  Returns -1 when the rows are dependent. */
static int q_project(const double *const *a, const double *b, int k_rows, const double p[3],
                     qvec *x)
{
    mpq_t G[3][3], r[3], w[3], det, t, u;
    mpq_inits(det, t, u, NULL);
    for (int i = 0; i < 3; i++) {
        mpq_inits(r[i], w[i], NULL);
        for (int j = 0; j < 3; j++)
            mpq_init(G[i][j]);
    }
    qvec pq;
    qvec_init(&pq);
    for (int j = 0; j < 3; j++)
        mpq_set_d(pq.v[j], p[j]);
    for (int i = 0; i < k_rows; i++) {
        for (int j = 0; j < k_rows; j++) {
            mpq_set_ui(G[i][j], 0, 1);
            for (int d = 0; d < 3; d++) {
                mpq_set_d(t, a[i][d]);
                mpq_set_d(u, a[j][d]);
                mpq_mul(t, t, u);
                mpq_add(G[i][j], G[i][j], t);
            }
        }
        q_dot_d(r[i], a[i], &pq, t);
        mpq_set_d(t, b[i]);
        mpq_sub(r[i], r[i], t);
    }
    int ok = 1;
    if (k_rows == 1) {
        ok = mpq_sgn(G[0][0]) != 0;
        if (ok)
            mpq_div(w[0], r[0], G[0][0]);
    } else if (k_rows == 2) {
        mpq_mul(det, G[0][0], G[1][1]);
        mpq_mul(t, G[0][1], G[1][0]);
        mpq_sub(det, det, t);
        ok = mpq_sgn(det) != 0;
        if (ok) {
            mpq_mul(w[0], r[0], G[1][1]);
            mpq_mul(t, G[0][1], r[1]);
            mpq_sub(w[0], w[0], t);
            mpq_div(w[0], w[0], det);
            mpq_mul(w[1], G[0][0], r[1]);
            mpq_mul(t, r[0], G[1][0]);
            mpq_sub(w[1], w[1], t);
            mpq_div(w[1], w[1], det);
        }
    } else {
        /* three independent planes: the point itself, a x = b */
        ok = 0;
    }
    if (ok) {
        for (int d = 0; d < 3; d++) {
            mpq_set(x->v[d], pq.v[d]);
            for (int i = 0; i < k_rows; i++) {
                mpq_set_d(t, a[i][d]);
                mpq_mul(t, t, w[i]);
                mpq_sub(x->v[d], x->v[d], t);
            }
        }
    }
    qvec_clear(&pq);
    for (int i = 0; i < 3; i++) {
        mpq_clears(r[i], w[i], NULL);
        for (int j = 0; j < 3; j++)
            mpq_clear(G[i][j]);
    }
    mpq_clears(det, t, u, NULL);
    return ok ? 0 : -1;
}

/* The vertex where three planes a_k . x = b_k meet (Cramer's rule);
 * -1 when they do not meet in one point. */
static int q_vertex(const double *const *a, const double *b, qvec *x)
{
    mpq_t M[3][3], det, dc, t1, t2;
    mpq_inits(det, dc, t1, t2, NULL);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            mpq_init(M[i][j]);
            mpq_set_d(M[i][j], a[i][j]);
        }
    pred_det3_q(det, &M[0][0], t1, t2);
    int ok = mpq_sgn(det) != 0;
    for (int col = 0; col < 3 && ok; col++) {
        for (int i = 0; i < 3; i++)
            mpq_set_d(M[i][col], b[i]);
        pred_det3_q(dc, &M[0][0], t1, t2);
        mpq_div(x->v[col], dc, det);
        for (int i = 0; i < 3; i++)
            mpq_set_d(M[i][col], a[i][col]);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            mpq_clear(M[i][j]);
    mpq_clears(det, dc, t1, t2, NULL);
    return ok ? 0 : -1;
}

/* One candidate face (rows rows[0..k-1]): if the projection of p onto
 * its affine hull lies in P, lower *best (and set *found). */
static void try_face(const hs_poly *P, const int *rows, int k, const double p[3], mpq_t best,
                     int *found)
{
    const double *a[3];
    double b[3];
    for (int i = 0; i < k; i++) {
        a[i] = hpoly_row(P, rows[i]);
        b[i] = P->b[rows[i]];
    }
    qvec x;
    qvec_init(&x);
    int ok = k == 3 ? q_vertex(a, b, &x) : q_project(a, b, k, p, &x);
    if (ok == 0) {
        mpq_t d;
        mpq_init(d);
        q_dist2(d, p, &x);
        if ((!*found || mpq_cmp(d, best) < 0) && q_inside(P, &x)) {
            mpq_set(best, d);
            *found = 1;
        }
        mpq_clear(d);
    }
    qvec_clear(&x);
}

/* Rows of the faces meeting at vertex v of the piece (out has room for
 * every face). */
static int faces_at_vertex(const geom *g, int v, int *out)
{
    int n = 0;
    for (int f = 0; f < g->nfaces; f++)
        for (int k = g->face_start[f]; k < g->face_start[f + 1]; k++)
            if (g->face_vert[k] == v) {
                out[n++] = g->face_row[f];
                break;
            }
    return n;
}

/* The exact squared distance from p to the piece, over every facet,
 * edge (two faces sharing a vertex pair) and vertex (three of its
 * faces whose planes meet in a point), compared with r^2. */
static int sphere_convex_exact(const double p[3], double r, const geom *g)
{
    const hs_poly *P = g->poly;
    int *fv = malloc(sizeof(int) * (size_t)(g->nfaces + 1));
    if (!fv)
        return -1;
    mpq_t best, rr;
    mpq_inits(best, rr, NULL);
    int found = 0;
    for (int i = 0; i < P->m; i++)
        try_face(P, &i, 1, p, best, &found);
    for (int v = 0; v < g->nverts; v++) {
        int n = faces_at_vertex(g, v, fv);
        for (int s = 0; s < n; s++)
            for (int t = s + 1; t < n; t++) {
                int two[2] = {fv[s], fv[t]};
                try_face(P, two, 2, p, best, &found);
                for (int q = t + 1; q < n; q++) {
                    int three[3] = {fv[s], fv[t], fv[q]};
                    try_face(P, three, 3, p, best, &found);
                }
            }
    }
    mpq_set_d(rr, r);
    mpq_mul(rr, rr, rr);
    int meet = found && mpq_cmp(best, rr) <= 0;
    mpq_clears(best, rr, NULL);
    free(fv);
    return meet;
}

/* ------------------------------------------------ certificates */

/* Rows alone: -1 undecided, 0 apart (one row's half-space is farther than
 * r), 1 meet (p strictly inside every row).  a.p - b is computed with
 * error at most 5u (sum |a_j p_j| + |b|); squares and |a|^2 add a few u,
 * covered by the factors (1 -+ 16u). */
static int rows_decide(const hs_poly *P, const double p[3], double r)
{
    int inside = 1;
    for (int i = 0; i < P->m; i++) {
        const double *a = hpoly_row(P, i);
        double num = dot3(a, p) - P->b[i];
        double mag = fabs(a[0] * p[0]) + fabs(a[1] * p[1]) + fabs(a[2] * p[2]) + fabs(P->b[i]);
        double e = 5 * FP_U * mag + 0x1p-1000, lo = num - e;
        if (num + e >= 0)
            inside = 0;
        if (lo > 0 && lo * lo * (1 - 16 * FP_U) > r * r * dot3(a, a) * (1 + 16 * FP_U))
            return 0;
    }
    return inside ? 1 : -1;
}

/* Exact check of the separation certificate y on rows[0..k-1]. */
static int separation_holds(const hs_poly *P, const int *rows, const double *y, int k,
                            const double p[3], double r)
{
    mpq_t n[3], H, t, s, nn;
    mpq_inits(H, t, s, nn, NULL);
    for (int j = 0; j < 3; j++)
        mpq_init(n[j]);
    for (int i = 0; i < k; i++) {
        const double *a = hpoly_row(P, rows[i]);
        mpq_set_d(s, y[i]);
        for (int j = 0; j < 3; j++) {
            mpq_set_d(t, a[j]);
            mpq_mul(t, t, s);
            mpq_sub(n[j], n[j], t);
        }
        mpq_set_d(t, P->b[rows[i]]);
        mpq_mul(t, t, s);
        mpq_sub(H, H, t);
    }
    /* gap = H - n.p must exceed r |n|: gap > 0 and gap^2 > r^2 |n|^2 */
    for (int j = 0; j < 3; j++) {
        mpq_set_d(t, p[j]);
        mpq_mul(t, t, n[j]);
        mpq_sub(H, H, t);
        mpq_mul(t, n[j], n[j]);
        mpq_add(nn, nn, t);
    }
    int ok = mpq_sgn(H) > 0;
    if (ok) {
        mpq_mul(H, H, H);
        mpq_set_d(t, r);
        mpq_mul(t, t, t);
        mpq_mul(nn, nn, t);
        ok = mpq_cmp(H, nn) > 0;
    }
    for (int j = 0; j < 3; j++)
        mpq_clear(n[j]);
    mpq_clears(H, t, s, nn, NULL);
    return ok;
}

/* Least squares for d ~ sum_k y_k a_k over k rows (normal equations,
 * doubles); -1 if singular. */
static int fit_multipliers(const double *const *a, int k, const double d[3], double *y)
{
    double G[3][3], rhs[3];
    for (int i = 0; i < k; i++) {
        rhs[i] = dot3(a[i], d);
        for (int j = 0; j < k; j++)
            G[i][j] = dot3(a[i], a[j]);
    }
    if (k == 1) {
        if (!(G[0][0] > 0))
            return -1;
        y[0] = rhs[0] / G[0][0];
        return 0;
    }
    if (k == 2) {
        double det = G[0][0] * G[1][1] - G[0][1] * G[1][0];
        if (!(fabs(det) > 1e-12 * G[0][0] * G[1][1]))
            return -1;
        y[0] = (rhs[0] * G[1][1] - G[0][1] * rhs[1]) / det;
        y[1] = (G[0][0] * rhs[1] - rhs[0] * G[1][0]) / det;
        return 0;
    }
    double det = G[0][0] * (G[1][1] * G[2][2] - G[1][2] * G[2][1]) -
                 G[0][1] * (G[1][0] * G[2][2] - G[1][2] * G[2][0]) +
                 G[0][2] * (G[1][0] * G[2][1] - G[1][1] * G[2][0]);
    if (!(fabs(det) > 1e-12 * G[0][0] * G[1][1] * G[2][2]))
        return -1;
    for (int c = 0; c < 3; c++) {
        double M[3][3];
        memcpy(M, G, sizeof M);
        for (int i = 0; i < 3; i++)
            M[i][c] = rhs[i];
        y[c] = (M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
                M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0])) /
               det;
    }
    return 0;
}

#define ACTIVE 6

/* The rows most active at x (smallest distance of x to their planes). */
static int active_rows(const hs_poly *P, const double x[3], int *rows)
{
    double key[ACTIVE];
    int n = 0;
    for (int i = 0; i < P->m; i++) {
        const double *a = hpoly_row(P, i);
        double k = fabs(dot3(a, x) - P->b[i]) / sqrt(dot3(a, a));
        int pos = n < ACTIVE ? n++ : ACTIVE;
        if (pos == ACTIVE && !(k < key[ACTIVE - 1]))
            continue;
        if (pos == ACTIVE)
            pos = ACTIVE - 1;
        while (pos > 0 && key[pos - 1] > k) {
            key[pos] = key[pos - 1];
            rows[pos] = rows[pos - 1];
            pos--;
        }
        key[pos] = k;
        rows[pos] = i;
    }
    return n;
}

/* One certificate on the rows rows[0..k-1]: multipliers fitted to
 * p - x = sum y a (the normal cone at the closest point), kept if >= 0. */
static int separated_by(const hs_poly *P, const int *rows, int k, const double d[3],
                        const double p[3], double r)
{
    const double *a[3];
    double y[3];
    for (int i = 0; i < k; i++)
        a[i] = hpoly_row(P, rows[i]);
    if (fit_multipliers(a, k, d, y) != 0)
        return 0;
    for (int i = 0; i < k; i++)
        if (!(y[i] >= 0) || !isfinite(y[i])) /* (the exact check takes finite values) */
            return 0;
    return separation_holds(P, rows, y, k, p, r);
}

/* Separation certificates on 1 to 3 of the rows most active at the
 * closest point x. */
static int separated_near(const hs_poly *P, const double x[3], const double p[3], double r)
{
    int act[ACTIVE], na = active_rows(P, x, act);
    double d[3] = {p[0] - x[0], p[1] - x[1], p[2] - x[2]};
    for (int s = 0; s < na; s++) {
        if (separated_by(P, (int[]){act[s]}, 1, d, p, r))
            return 1;
        for (int t = s + 1; t < na; t++) {
            if (separated_by(P, (int[]){act[s], act[t]}, 2, d, p, r))
                return 1;
            for (int q = t + 1; q < na; q++)
                if (separated_by(P, (int[]){act[s], act[t], act[q]}, 3, d, p, r))
                    return 1;
        }
    }
    return 0;
}

/* y = x pulled towards the interior point c by 2^-20 of the way: inside
 * every row and within r of p, by exact predicates. */
static int meets_near(const hs_poly *P, const double x[3], const double p[3], double r)
{
    const fast_prep *fp = NULL;
    const double *c = fast_prep_get(P, &fp, NULL) == 0 && fp ? fp->center : NULL;
    double y[3];
    for (int j = 0; j < 3; j++)
        y[j] = c ? x[j] + 0x1p-20 * (c[j] - x[j]) : x[j];
    if (chain_spheres_meet(y, 0, p, r) != 1) /* (y not finite: undecided here) */
        return 0;
    for (int i = 0; i < P->m; i++)
        if (pred_row_sign(hpoly_row(P, i), y, P->b[i], 3, NULL) > 0)
            return 0;
    return 1;
}

int chain_sphere_convex(const double p[3], double r, const geom *g)
{
    if (!chain_all_finite(p, 3) || !isfinite(r))
        return CHAIN_TEST_NOT_FINITE;
    const hs_poly *P = g->poly;
    int d = rows_decide(P, p, r);
    if (d >= 0)
        return d;
    double x[3], pp[3];
    gjk_distance(g->verts, g->nverts, p, 1, x, pp);
    if (meets_near(P, x, p, r))
        return 1;
    if (separated_near(P, x, p, r))
        return 0;
    return sphere_convex_exact(p, r, g);
}
