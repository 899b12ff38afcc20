/* lpd.c -- LP services in any dimension (lpd.h): the exact classification
 * through the engine's self-verifying entry, and a certified interior
 * point and a box hint of one polyhedron from the floating-point simplex
 * (simplex_d.c), whose cost grows polynomially with the dimension where
 * Seidel's LP grows like n!. */
#include "solver/lpd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "polytope/mem.h"
#include "polytope/select.h"
#include "polytope/predicates.h"
#include "solver/engines.h"
#include "solver/simplex_d.h"

hs_code lpd_classify_pair(const hs_poly *A, const hs_poly *B, hs_result *r, hs_error *err)
{
    return exact_intersect(A, B, NULL, r, err);
}

/* Exact sign of a_i . x - b_i for row i of p at the double point x. */
static int row_sign_exact(const hs_poly *p, int i, const double *x)
{
    if (p->exact[i])
        return pred_row_sign(hpoly_row(p, i), x, p->b[i], p->n, NULL);
    mpq_t acc, t, v;
    mpq_inits(acc, t, v, NULL);
    for (int j = 0; j < p->n; j++) {
        hpoly_get_q(p, i, j, t);
        mpq_set_d(v, x[j]);
        mpq_mul(t, t, v);
        mpq_add(acc, acc, t);
    }
    hpoly_get_q(p, i, p->n, t);
    mpq_sub(acc, acc, t);
    int s = mpq_sgn(acc);
    mpq_clears(acc, t, v, NULL);
    return s;
}

/* The largest distance of a row's plane from the origin (at least 1), and
 * the rows' norms. */
static double row_reach(const hs_poly *p, double *norm)
{
    double far = 1;
    for (int i = 0; i < p->m; i++) {
        const double *a = hpoly_row(p, i);
        double big = 0, s = 0;
        for (int j = 0; j < p->n; j++)
            big = fmax(big, fabs(a[j]));
        if (big > 0)
            for (int j = 0; j < p->n; j++)
                s += (a[j] / big) * (a[j] / big);
        norm[i] = big * sqrt(s);
        if (norm[i] > 0 && fabs(p->b[i]) / norm[i] > far)
            far = fabs(p->b[i]) / norm[i];
    }
    return far;
}

static int has_equalities(const hs_poly *p)
{
    for (int i = 0; i < p->m; i++)
        if (p->eq[i])
            return 1;
    return 0;
}

/* Chebyshev centre: max tau s.t. a_i . x + |a_i| tau <= b_i, tau <= cap,
 * as its dual (columns (a_i; |a_i|) of cost b_i, w = e_n of cost cap, and
 * fixed artificial unit columns for the n rows sum y a = 0). */
int lpd_interior_point(const hs_poly *p, double *x, double *radius)
{
    int n = p->n, m = p->m, k = n + 1;
    if (m < 1 || has_equalities(p))
        return -1;
    double *norm = mem_alloc((size_t)m, sizeof(double));
    dlp_col *col = mem_calloc((size_t)m + (size_t)k, sizeof(dlp_col));
    double *rhs = mem_calloc((size_t)k, sizeof(double)), *pi = mem_alloc((size_t)k, sizeof(double));
    int *basis = mem_alloc((size_t)k, sizeof(int));
    int rc = -1;
    if (!norm || !col || !rhs || !pi || !basis)
        goto done;
    double cap = 4 * row_reach(p, norm) + 1;
    for (int i = 0; i < m; i++)
        col[i] = (dlp_col){hpoly_row(p, i), norm[i], 1, 0, p->b[i], 0};
    col[m] = (dlp_col){NULL, 0, 1, n, cap, 0};
    for (int j = 0; j < n; j++)
        col[m + 1 + j] = (dlp_col){NULL, 0, 1, j, 0, 1};
    for (int j = 0; j < n; j++)
        basis[j] = m + 1 + j;
    basis[n] = m;
    rhs[n] = 1;
    dlp lp = {n, k, m + k, col, rhs};
    if (dlp_solve(&lp, basis, pi, NULL, NULL) != DLP_OPTIMAL || !(pi[n] > 0))
        goto done;
    for (int j = 0; j < n; j++)
        if (!isfinite(pi[j]))
            goto done;
    for (int i = 0; i < m; i++)
        if (row_sign_exact(p, i, pi) >= 0)
            goto done;
    memcpy(x, pi, sizeof(double) * (size_t)n);
    if (radius)
        *radius = pi[n];
    rc = 0;
done:
    free(norm);
    free(col);
    free(rhs);
    free(pi);
    free(basis);
    return rc;
}

/* ------------------------------------------------------------ box hint */

/* The box LPs, max sign x_j over p within |x_q| <= big, are solved as
 * duals (columns a_i of cost b_i, bound columns +-e_q of cost big) by
 * sifting: over the bound columns and a few rows, those best aligned with
 * the objective; then every row is checked at the point found, the most
 * violated ones are appended and the LP goes on from its last basis (still
 * feasible: only columns were added).  It ends when no row is violated, so
 * the value is the LP's over all rows, at a cost of a few passes over the
 * rows instead of one per pivot. */
typedef struct box_lp {
    const hs_poly *p;
    int n, m;
    const double *norm;
    dlp_col *col;          /* 2n bound columns, then the rows taken */
    int ncol;
    unsigned char *taken;  /* m */
    double *score;         /* m */
    keyed *cand;           /* m */
    double *rhs, *pi;      /* n */
    int *basis;            /* n */
    double big;
} box_lp;

/* Append up to `count` rows of positive score, the largest first. */
static int take_rows(box_lp *b, int count)
{
    int cand = 0;
    for (int i = 0; i < b->m; i++)
        if (!b->taken[i] && b->score[i] > 0)
            b->cand[cand++] = (keyed){-b->score[i], i};
    keyed_smallest_first(b->cand, cand, count);
    int added = 0;
    for (int t = 0; t < cand && t < count; t++) {
        int i = b->cand[t].id;
        b->taken[i] = 1;
        b->col[b->ncol++] = (dlp_col){hpoly_row(b->p, i), 0, 1, 0, b->p->b[i], 0};
        added++;
    }
    return added;
}

/* Rows violated at x, scored by their violation over their norm. */
static int score_violations(box_lp *b, const double *x)
{
    int count = 0;
    for (int i = 0; i < b->m; i++) {
        b->score[i] = 0;
        if (b->taken[i] || !(b->norm[i] > 0))
            continue;
        const double *a = hpoly_row(b->p, i);
        double v = -b->p->b[i], mag = fabs(b->p->b[i]);
        for (int j = 0; j < b->n; j++) {
            v += a[j] * x[j];
            mag += fabs(a[j] * x[j]);
        }
        if (v > 1e-9 * mag) {
            b->score[i] = v / b->norm[i];
            count++;
        }
    }
    return count;
}

static int box_extreme(box_lp *b, int j, int sign, double *value)
{
    int n = b->n;
    for (int i = 0; i < b->m; i++)
        b->taken[i] = 0;
    b->ncol = 2 * n;
    for (int i = 0; i < b->m; i++) /* alignment with the objective */
        b->score[i] = b->norm[i] > 0 ? sign * hpoly_row(b->p, i)[j] / b->norm[i] : 0;
    take_rows(b, 2 * n);
    for (int q = 0; q < n; q++) {
        b->rhs[q] = q == j ? sign : 0;
        b->basis[q] = 2 * q + (q == j && sign < 0);
    }
    for (int round = 0;; round++) {
        dlp lp = {n, n, b->ncol, b->col, b->rhs};
        if (dlp_solve(&lp, b->basis, b->pi, NULL, NULL) != DLP_OPTIMAL || !isfinite(b->pi[j]))
            return -1;
        int violated = score_violations(b, b->pi);
        if (violated == 0)
            break;
        take_rows(b, round < 20 ? 2 * n : b->m);
    }
    *value = b->pi[j];
    return 0;
}

int lpd_box_hint(const hs_poly *p, double *lo, double *hi)
{
    int n = p->n, m = p->m;
    if (m < 1)
        return -1;
    box_lp b = {p, n, m, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0};
    double *norm = mem_alloc((size_t)m, sizeof(double));
    b.norm = norm;
    b.col = mem_calloc((size_t)m + 2 * (size_t)n, sizeof(dlp_col));
    b.taken = mem_alloc((size_t)m, 1);
    b.score = mem_alloc((size_t)m, sizeof(double));
    b.cand = mem_alloc((size_t)m, sizeof *b.cand);
    b.rhs = mem_calloc((size_t)n, sizeof(double));
    b.pi = mem_alloc((size_t)n, sizeof(double));
    b.basis = mem_alloc((size_t)n, sizeof(int));
    int rc = -1;
    if (!norm || !b.col || !b.taken || !b.score || !b.cand || !b.rhs || !b.pi || !b.basis)
        goto done;
    double far = row_reach(p, norm), clamp = 4 * far;
    b.big = 1e6 * far;
    for (int q = 0; q < n; q++) {
        b.col[2 * q] = (dlp_col){NULL, 0, 1, q, b.big, 0};
        b.col[2 * q + 1] = (dlp_col){NULL, 0, -1, q, b.big, 0};
    }
    for (int j = 0; j < n; j++)
        if (box_extreme(&b, j, +1, &hi[j]) != 0 || box_extreme(&b, j, -1, &lo[j]) != 0)
            goto done;
    for (int j = 0; j < n; j++) {
        double top = hi[j], bottom = lo[j];
        hi[j] = top >= 0.5 * b.big ? fmax(clamp, bottom + clamp) : top;
        lo[j] = bottom <= -0.5 * b.big ? fmin(-clamp, hi[j] - clamp) : bottom;
        if (!(lo[j] <= hi[j]))
            goto done;
    }
    rc = 0;
done:
    free(norm);
    free(b.col);
    free(b.taken);
    free(b.score);
    free(b.cand);
    free(b.rhs);
    free(b.pi);
    free(b.basis);
    return rc;
}
