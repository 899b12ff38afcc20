/* simplex_d.c -- dense revised simplex in floating point (simplex_d.h). */
#include "solver/simplex_d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/mem.h"
#include "polytope/select.h"

#define DLP_TOL_COST 1e-9   /* reduced costs above -tol count as optimal */
#define DLP_TOL_PIVOT 1e-9  /* |u_i| below this times max |u| is no pivot */
#define DLP_TOL_LEVEL 1e-9  /* Harris: levels may dip this far below 0 */
#define DLP_TOL_SINGULAR 1e-13

typedef struct dlp_work {
    const dlp *lp;
    int n, k;
    int *basis;
    unsigned char *in_basis; /* ncol */
    double *binv;            /* k*k row-major: B^-1 */
    double *xb;              /* k: levels of the basic columns */
    double *pi;              /* k */
    double *u;               /* k: B^-1 A_enter */
    double *col;             /* k: a column, dense */
    double *scale;           /* ncol: 1 / largest |entry| of the column */
    double *bmat;            /* k*k: scratch for refactorisation */
    int *nzstart, *nzcount;  /* sparse columns: the nonzeros of column c's a
                                are at nzidx[nzstart[c] ..] (nzcount[c] of
                                them); nzstart[c] < 0: used dense */
    int *nzidx;
    int *rowidx, *colidx;    /* k each: nonzero positions (scratch) */
    int *list, nlist, list_cap; /* partial pricing: candidate columns */
    keyed *found;         /* ncol: scratch of a full pricing pass */
} dlp_work;

static void dense_column(const dlp_work *w, int c, double *out)
{
    const dlp_col *cl = &w->lp->col[c];
    int k = w->k, n = w->n;
    if (!cl->a) {
        for (int i = 0; i < k; i++)
            out[i] = 0;
        out[cl->unit] = cl->sign;
        return;
    }
    for (int j = 0; j < n; j++)
        out[j] = cl->sign * cl->a[j];
    if (k > n)
        out[n] = cl->sign * cl->t;
}

/* v . A_c for a k-vector v (A_c not scaled). */
static double col_dot(const dlp_work *w, const double *pi, int c)
{
    const dlp_col *cl = &w->lp->col[c];
    if (!cl->a)
        return cl->sign * pi[cl->unit];
    const double *a = cl->a;
    double s = 0;
    if (w->nzstart[c] >= 0) {
        const int *idx = w->nzidx + w->nzstart[c], *end = idx + w->nzcount[c];
        for (; idx < end; idx++)
            s += pi[*idx] * a[*idx];
    } else
        for (int j = 0; j < w->n; j++)
            s += pi[j] * a[j];
    if (w->k > w->n)
        s += pi[w->n] * cl->t;
    return cl->sign * s;
}

static double pi_dot(const dlp_work *w, int c) { return col_dot(w, w->pi, c); }

static void compute_pi(dlp_work *w)
{
    int k = w->k;
    for (int j = 0; j < k; j++)
        w->pi[j] = 0;
    for (int i = 0; i < k; i++) {
        double c = w->lp->col[w->basis[i]].cost;
        if (c == 0)
            continue;
        const double *row = w->binv + (size_t)i * (size_t)k;
        for (int j = 0; j < k; j++)
            w->pi[j] += c * row[j];
    }
}

/* B^-1 from scratch (Gauss-Jordan with partial pivoting) and x_B.
 * Returns 0, or -1 when B is numerically singular. */
static int refactor(dlp_work *w)
{
    int k = w->k;
    double *a = w->bmat, *inv = w->binv;
    for (int i = 0; i < k; i++) {
        dense_column(w, w->basis[i], w->col);
        for (int r = 0; r < k; r++)
            a[(size_t)r * (size_t)k + (size_t)i] = w->col[r];
    }
    for (int i = 0; i < k * k; i++)
        inv[i] = 0;
    for (int i = 0; i < k; i++)
        inv[(size_t)i * (size_t)k + (size_t)i] = 1;
    for (int c = 0; c < k; c++) {
        int p = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(a[(size_t)r * k + c]) > fabs(a[(size_t)p * k + c]))
                p = r;
        double piv = a[(size_t)p * k + c];
        if (!(fabs(piv) > DLP_TOL_SINGULAR))
            return -1;
        if (p != c)
            for (int j = 0; j < k; j++) {
                double t = a[(size_t)p * k + j];
                a[(size_t)p * k + j] = a[(size_t)c * k + j];
                a[(size_t)c * k + j] = t;
                t = inv[(size_t)p * k + j];
                inv[(size_t)p * k + j] = inv[(size_t)c * k + j];
                inv[(size_t)c * k + j] = t;
            }
        double s = 1 / piv;
        int na = 0, ni = 0, *ia = w->rowidx, *ii = w->colidx;
        for (int j = 0; j < k; j++) {
            if (a[(size_t)c * k + j] != 0) {
                a[(size_t)c * k + j] *= s;
                ia[na++] = j;
            }
            if (inv[(size_t)c * k + j] != 0) {
                inv[(size_t)c * k + j] *= s;
                ii[ni++] = j;
            }
        }
        for (int r = 0; r < k; r++) {
            double f = a[(size_t)r * k + c];
            if (r == c || f == 0)
                continue;
            for (int t = 0; t < na; t++)
                a[(size_t)r * k + ia[t]] -= f * a[(size_t)c * k + ia[t]];
            for (int t = 0; t < ni; t++)
                inv[(size_t)r * k + ii[t]] -= f * inv[(size_t)c * k + ii[t]];
        }
    }
    for (int i = 0; i < k; i++) {
        double s = 0;
        for (int j = 0; j < k; j++)
            s += inv[(size_t)i * k + j] * w->lp->rhs[j];
        w->xb[i] = s;
        if (!isfinite(s))
            return -1;
    }
    return 0;
}

/* Scaled reduced cost of column c and its tolerance. */
static double reduced_d(const dlp_work *w, int c, double pimax, double *tol)
{
    const dlp_col *cl = &w->lp->col[c];
    *tol = DLP_TOL_COST * (fabs(cl->cost) * w->scale[c] + pimax);
    return (cl->cost - pi_dot(w, c)) * w->scale[c];
}

/* Entering column: the most negative scaled reduced cost (Dantzig), or the
 * first negative one (Bland); -1 when none is below the tolerance.
 * Partial pricing: Dantzig's rule first looks only at a short list of
 * columns, the most negative ones of the last full pass; only when none of
 * them is negative any more does it price every column again (and refill
 * the list).  When m >> k this makes most pivots cost O(k^2), not O(m k). */
static int price(dlp_work *w, int bland)
{
    double pimax = 0, tol;
    for (int j = 0; j < w->k; j++)
        pimax = fmax(pimax, fabs(w->pi[j]));
    int best = -1;
    double best_d = 0;
    if (!bland) {
        for (int t = 0; t < w->nlist; t++) {
            int c = w->list[t];
            if (w->in_basis[c])
                continue;
            double d = reduced_d(w, c, pimax, &tol);
            if (d < -tol && (best < 0 || d < best_d)) {
                best = c;
                best_d = d;
            }
        }
        if (best >= 0)
            return best;
    }
    int count = 0;
    for (int c = 0; c < w->lp->ncol; c++) {
        const dlp_col *cl = &w->lp->col[c];
        if (w->in_basis[c] || cl->fixed)
            continue;
        double d = reduced_d(w, c, pimax, &tol);
        if (!(d < -tol))
            continue;
        if (bland)
            return c;
        w->found[count++] = (keyed){d, c};
    }
    if (count == 0)
        return -1;
    int keep = count;
    if (count > w->list_cap) {
        keep = w->list_cap;
        keyed_smallest_first(w->found, count, keep);
    }
    w->nlist = 0;
    for (int t = 0; t < keep; t++) {
        w->list[w->nlist++] = w->found[t].id;
        if (best < 0 || w->found[t].key < best_d) {
            best = w->found[t].id;
            best_d = w->found[t].key;
        }
    }
    return best;
}

/* Leaving position for u = B^-1 A_enter; -1 when unbounded. */
static int ratio_test(dlp_work *w, int bland)
{
    int k = w->k;
    double umax = 0;
    for (int i = 0; i < k; i++)
        umax = fmax(umax, fabs(w->u[i]));
    double ptol = DLP_TOL_PIVOT * umax;
    int leave = -1;
    for (int i = 0; i < k; i++) /* a fixed column at level 0 leaves first */
        if (w->lp->col[w->basis[i]].fixed && fabs(w->u[i]) > ptol &&
            (leave < 0 || fabs(w->u[i]) > fabs(w->u[leave])))
            leave = i;
    if (leave >= 0)
        return leave;
    double theta = INFINITY;
    for (int i = 0; i < k; i++)
        if (w->u[i] > ptol)
            theta = fmin(theta, (w->xb[i] + DLP_TOL_LEVEL) / w->u[i]);
    if (theta == INFINITY)
        return -1;
    for (int i = 0; i < k; i++) {
        if (!(w->u[i] > ptol) || w->xb[i] / w->u[i] > theta)
            continue;
        if (leave < 0 || (bland ? w->basis[i] < w->basis[leave] : w->u[i] > w->u[leave]))
            leave = i;
    }
    return leave;
}

/* Pivot column `enter` into position r; pi follows as
 * pi + (c_e - pi . A_e) (row r of the new B^-1). */
static void pivot(dlp_work *w, int enter, int r, int clamp)
{
    int k = w->k;
    double de = w->lp->col[enter].cost - pi_dot(w, enter);
    double ur = w->u[r];
    double theta = w->xb[r] / ur;
    if (!(theta > 0))
        theta = 0;
    for (int i = 0; i < k; i++) {
        if (i == r)
            continue;
        double v = w->xb[i] - theta * w->u[i];
        w->xb[i] = v > 0 || !clamp ? v : 0;
    }
    w->xb[r] = theta;
    double *rowr = w->binv + (size_t)r * (size_t)k;
    int nr = 0, *idx = w->rowidx;
    for (int j = 0; j < k; j++)
        if (rowr[j] != 0) {
            rowr[j] /= ur;
            idx[nr++] = j;
        }
    for (int i = 0; i < k; i++) {
        double f = w->u[i];
        if (i == r || f == 0)
            continue;
        double *row = w->binv + (size_t)i * (size_t)k;
        for (int t = 0; t < nr; t++)
            row[idx[t]] -= f * rowr[idx[t]];
    }
    for (int t = 0; t < nr; t++)
        w->pi[idx[t]] += de * rowr[idx[t]];
    w->in_basis[w->basis[r]] = 0;
    w->basis[r] = enter;
    w->in_basis[enter] = 1;
}

/* Index lists of the columns with at most n/4 nonzero coefficients. */
static int sparse_columns(dlp_work *w)
{
    const dlp *lp = w->lp;
    long total = 0;
    for (int c = 0; c < lp->ncol; c++) {
        const double *a = lp->col[c].a;
        int cnt = 0;
        if (a)
            for (int j = 0; j < lp->n; j++)
                cnt += a[j] != 0;
        w->nzcount[c] = cnt;
        w->nzstart[c] = a && 4 * cnt <= lp->n ? 0 : -1;
        total += w->nzstart[c] == 0 ? cnt : 0;
    }
    w->nzidx = mem_alloc((size_t)total + 1, sizeof(int));
    if (!w->nzidx)
        return -1;
    int at = 0;
    for (int c = 0; c < lp->ncol; c++) {
        if (w->nzstart[c] < 0)
            continue;
        w->nzstart[c] = at;
        const double *a = lp->col[c].a;
        for (int j = 0; j < lp->n; j++)
            if (a[j] != 0)
                w->nzidx[at++] = j;
    }
    return 0;
}

static void work_free(dlp_work *w)
{
    free(w->in_basis);
    free(w->binv);
    free(w->xb);
    free(w->pi);
    free(w->u);
    free(w->col);
    free(w->scale);
    free(w->bmat);
    free(w->nzstart);
    free(w->nzcount);
    free(w->list);
    free(w->found);
    free(w->nzidx);
    free(w->rowidx);
    free(w->colidx);
}

static int work_init(dlp_work *w, const dlp *lp, int *basis)
{
    memset(w, 0, sizeof *w);
    w->lp = lp;
    w->n = lp->n;
    w->k = lp->k;
    w->basis = basis;
    size_t k = (size_t)lp->k;
    w->in_basis = mem_calloc((size_t)lp->ncol, 1);
    w->binv = mem_alloc(k * k, sizeof(double));
    w->bmat = mem_alloc(k * k, sizeof(double));
    w->xb = mem_alloc(k, sizeof(double));
    w->pi = mem_alloc(k, sizeof(double));
    w->u = mem_alloc(k, sizeof(double));
    w->col = mem_alloc(k, sizeof(double));
    w->scale = mem_alloc((size_t)lp->ncol, sizeof(double));
    w->rowidx = mem_alloc(k, sizeof(int));
    w->colidx = mem_alloc(k, sizeof(int));
    w->nzstart = mem_alloc((size_t)lp->ncol + 1, sizeof(int));
    w->nzcount = mem_alloc((size_t)lp->ncol + 1, sizeof(int));
    w->list_cap = 4 * lp->k + 16;
    w->list = mem_alloc((size_t)w->list_cap, sizeof(int));
    w->found = mem_alloc((size_t)lp->ncol + 1, sizeof *w->found);
    if (!w->in_basis || !w->binv || !w->bmat || !w->xb || !w->pi || !w->u || !w->col ||
        !w->scale || !w->rowidx || !w->colidx || !w->nzstart || !w->nzcount || !w->list || !w->found ||
        sparse_columns(w) != 0)
        return -1;
    for (int c = 0; c < lp->ncol; c++) {
        const dlp_col *cl = &lp->col[c];
        double big = cl->a ? fabs(cl->t) * (lp->k > lp->n) : 1;
        if (cl->a)
            for (int j = 0; j < lp->n; j++)
                big = fmax(big, fabs(cl->a[j]));
        w->scale[c] = big > 0 && isfinite(big) ? 1 / big : 0;
    }
    for (int i = 0; i < lp->k; i++)
        w->in_basis[basis[i]] = 1;
    return 0;
}

/* u = B^-1 A_enter. */
static void ftran_d(dlp_work *w, int enter)
{
    int k = w->k, nc = 0;
    dense_column(w, enter, w->col);
    for (int j = 0; j < k; j++)
        if (w->col[j] != 0)
            w->colidx[nc++] = j;
    for (int i = 0; i < k; i++) {
        const double *row = w->binv + (size_t)i * (size_t)k;
        double s = 0;
        for (int t = 0; t < nc; t++)
            s += row[w->colidx[t]] * w->col[w->colidx[t]];
        w->u[i] = s;
    }
}

/* The most negative level below the tolerance, or -1. */
static int most_infeasible(const dlp_work *w)
{
    double big = 1;
    for (int i = 0; i < w->k; i++)
        big = fmax(big, fabs(w->xb[i]));
    int r = -1;
    for (int i = 0; i < w->k; i++)
        if (w->xb[i] < -DLP_TOL_LEVEL * big && (r < 0 || w->xb[i] < w->xb[r]))
            r = i;
    return r;
}

/* Dual simplex ratio test for leaving position r: among the columns whose
 * entry alpha_c = (row r of B^-1) . A_c is negative, the smallest
 * d_c / -alpha_c (Harris's two passes); -1 when there is none. */
static int dual_ratio(dlp_work *w, int r)
{
    int k = w->k;
    const double *rho = w->binv + (size_t)r * (size_t)k;
    double rmax = 0, pimax = 0, theta = INFINITY, best_alpha = 0;
    for (int j = 0; j < k; j++) {
        rmax = fmax(rmax, fabs(rho[j]));
        pimax = fmax(pimax, fabs(w->pi[j]));
    }
    int best = -1;
    for (int pass = 0; pass < 2; pass++) { /* 0: the bound theta; 1: the choice */
        for (int c = 0; c < w->lp->ncol; c++) {
            const dlp_col *cl = &w->lp->col[c];
            if (w->in_basis[c] || cl->fixed)
                continue;
            double alpha = col_dot(w, rho, c) * w->scale[c];
            if (!(alpha < -DLP_TOL_PIVOT * rmax))
                continue;
            double d = fmax((cl->cost - pi_dot(w, c)) * w->scale[c], 0);
            if (pass == 0) {
                double tol = DLP_TOL_COST * (fabs(cl->cost) * w->scale[c] + pimax);
                theta = fmin(theta, (d + tol) / -alpha);
            } else if (d / -alpha <= theta && (best < 0 || -alpha > best_alpha)) {
                best = c;
                best_alpha = -alpha;
            }
        }
        if (theta == INFINITY)
            return -1;
    }
    return best;
}

/* After a pivot: refactorise every so often; 0, or -1 on numerical
 * failure. */
static int after_pivot(dlp_work *w, int *since, int every, int *good)
{
    if (++*since >= every) {
        *since = 0;
        if (refactor(w) != 0)
            return -1;
        compute_pi(w);
        memcpy(good, w->basis, sizeof(int) * (size_t)w->k);
    }
    for (int i = 0; i < w->k; i++)
        if (!isfinite(w->xb[i]))
            return -1;
    return 0;
}

dlp_status dlp_solve(const dlp *lp, int *basis, double *pi, long *pivots, int *ray_col)
{
    dlp_work w;
    long count = 0;
    dlp_status st = DLP_FAILED;
    int k = lp->k, *good = mem_alloc((size_t)k, sizeof(int));
    if (!good || work_init(&w, lp, basis) != 0) {
        free(good);
        work_free(&w);
        return DLP_NOMEM;
    }
    memcpy(good, basis, sizeof(int) * (size_t)k);
    int every = 2 * k > 100 ? 2 * k : 100, since = 0, bland = 0, degenerate = 0;
    long limit = 50L * k + 1000;
    if (refactor(&w) != 0)
        goto done;
    compute_pi(&w);
    /* dual phase: restore x_B >= 0 keeping the reduced costs >= 0 */
    for (int r; (r = most_infeasible(&w)) >= 0;) {
        int enter = dual_ratio(&w, r);
        if (enter < 0 || count >= limit)
            goto done;
        ftran_d(&w, enter);
        if (!(w.u[r] < 0))
            goto done;
        pivot(&w, enter, r, 0);
        count++;
        if (after_pivot(&w, &since, every, good) != 0)
            goto done;
    }
    for (int i = 0; i < k; i++)
        w.xb[i] = fmax(w.xb[i], 0);
    /* primal phase */
    for (;;) {
        int enter = price(&w, bland);
        if (enter < 0) {
            st = DLP_OPTIMAL;
            break;
        }
        ftran_d(&w, enter);
        int r = ratio_test(&w, bland);
        if (r < 0) {
            st = DLP_UNBOUNDED;
            if (ray_col)
                *ray_col = enter;
            break;
        }
        if (count >= limit)
            break;
        degenerate = w.xb[r] / w.u[r] <= 1e-12 ? degenerate + 1 : 0;
        if (degenerate > 4 * k + 20)
            bland = 1;
        pivot(&w, enter, r, 1);
        count++;
        if (after_pivot(&w, &since, every, good) != 0)
            break;
    }
done:
    if (st == DLP_FAILED)
        memcpy(basis, good, sizeof(int) * (size_t)k);
    else if (pi)
        memcpy(pi, w.pi, sizeof(double) * (size_t)k);
    if (pivots)
        *pivots = count;
    free(good);
    work_free(&w);
    return st;
}
