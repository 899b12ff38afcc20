/* pred_row.c -- the exact sign of a . x - b for doubles (predicates.h):
 * a floating-point filter with a rigorous bound, then an exact expansion
 * of the products' fma pieces, or GMP rationals for extreme magnitudes. */
#include "polytope/predicates.h"

#include <gmp.h>
#include <math.h>

#include "polytope/expansion.h"
#include "polytope/fp.h"

/* Add one double to an expansion (components increasing in magnitude,
 * nonoverlapping), dropping zero components.  Returns the new length. */
static int grow_expansion(double *e, int len, double b)
{
    int out = 0;
    double q = b;
    for (int i = 0; i < len; i++) {
        double sum, err;
        xp_two_sum(q, e[i], &sum, &err);
        if (err != 0)
            e[out++] = err;
        q = sum;
    }
    if (q != 0)
        e[out++] = q;
    return out;
}

/* a.x - b exactly with GMP rationals (any magnitudes). */
static int row_sign_gmp(const double *a, const double *x, double b, int n)
{
    mpq_t acc, t, u;
    mpq_inits(acc, t, u, NULL);
    mpq_set_d(acc, b);
    mpq_neg(acc, acc);
    for (int j = 0; j < n; j++) {
        mpq_set_d(t, a[j]);
        mpq_set_d(u, x[j]);
        mpq_mul(t, t, u);
        mpq_add(acc, acc, t);
    }
    int s = mpq_sgn(acc);
    mpq_clears(acc, t, u, NULL);
    return s;
}

/* Exact sign by an expansion of the 2n+1 exact pieces: each product is
 * split by fma into its rounded value and its exact error. */
static int row_sign_expansion(const double *a, const double *x, double b, int n)
{
    double e[2 * 64 + 2];
    int len = 0;
    for (int j = 0; j < n; j++) {
        double p = a[j] * x[j];
        double err = fma(a[j], x[j], -p);
        len = grow_expansion(e, len, p);
        len = grow_expansion(e, len, err);
    }
    len = grow_expansion(e, len, -b);
    return len == 0 ? 0 : (e[len - 1] > 0) - (e[len - 1] < 0);
}

/* The fma error term is exact only when the product does not reach the
 * subnormal range: require |a_j x_j| >= 2^-900 for nonzero products. */
static int products_safe(const double *a, const double *x, double b, int n)
{
    double mb = fabs(b);
    if (mb != 0 && (mb < 0x1p-120 || mb > 0x1p+120))
        return 0;
    for (int j = 0; j < n; j++) {
        double p = fabs(a[j] * x[j]);
        if ((a[j] != 0 && x[j] != 0 && p < 0x1p-900) || p > 0x1p+900)
            return 0;
    }
    return 1;
}

int pred_row_sign(const double *a, const double *x, double b, int n, pred_stats *st)
{
    double v = -b, mag = fabs(b);
    for (int j = 0; j < n; j++) {
        double p = a[j] * x[j];
        v += p;
        mag += fabs(p);
    }
    /* n+1 terms, n+1 roundings in the products and sums: the error is at
     * most (n+1) u / (1 - 2(n+1) u) times the computed magnitude; (n+2) u
     * covers that and the rounding of this product for n <= 64. */
    double bound = (double)(n + 2) * FP_U * mag;
    if (isfinite(mag) && mag < 0x1p+900 && (mag == 0 || mag > 0x1p-900)) {
        if (v > bound || v < -bound) {
            if (st)
                st->filtered++;
            return (v > 0) - (v < 0);
        }
        if (mag == 0) { /* every term is exactly zero */
            if (st)
                st->filtered++;
            return 0;
        }
    }
    if (!isfinite(v) || !isfinite(mag)) {
        int finite = isfinite(b);
        for (int j = 0; j < n; j++)
            finite = finite && isfinite(a[j]) && isfinite(x[j]);
        if (!finite)
            return 2;
    }
    if (st)
        st->exact++;
    if (n <= 64 && products_safe(a, x, b, n))
        return row_sign_expansion(a, x, b, n);
    return row_sign_gmp(a, x, b, n);
}

int pred_row_sign_near(const double *a, double b, const double *xd, double td, int n)
{
    double v = td - b, mag = fabs(td) + fabs(b);
    if (!(mag < 0x1p400))
        return 2;
    for (int j = 0; j < n; j++) {
        double m = fabs(xd[j]);
        if (m != 0 && !(m > 0x1p-400 && m < 0x1p400))
            return 2;
        double p = a[j] * xd[j];
        v += p;
        mag += fabs(p);
    }
    /* products of entries in range are normal; each term is off by its
     * point's rounding (2 u relative), the sum by gamma(n + 2) of the
     * magnitudes; 8 u more for the bound's own rounding */
    double bound = (2 * FP_U + fp_gamma(n + 2)) * mag * (1 + 8 * FP_U) + 0x1p-1000;
    return v > bound ? 1 : v < -bound ? -1 : 2;
}

int pred_near_value(mpq_srcptr v, double *d)
{
    *d = mpq_get_d(v);
    return *d != 0 || mpq_sgn(v) == 0;
}

int pred_near_point(mpq_t *const x, int n, double *xd)
{
    int ok = 1;
    for (int j = 0; j < n; j++)
        ok &= pred_near_value(x[j], &xd[j]);
    return ok;
}

int pred_row_sign_at(const double *a, double b, mpq_t *const x, const double *xd, int near_ok,
                     int n, mpq_t acc, mpq_t t)
{
    int sign = near_ok ? pred_row_sign_near(a, b, xd, 0, n) : 2;
    return sign != 2 ? sign : pred_row_sign_q(a, b, x, n, acc, t);
}

int pred_row_sign_q(const double *a, double b, mpq_t *const x, int n, mpq_t acc, mpq_t t)
{
    mpq_set_d(acc, b);
    mpq_neg(acc, acc);
    for (int j = 0; j < n; j++) {
        mpq_set_d(t, a[j]);
        mpq_mul(t, t, x[j]);
        mpq_add(acc, acc, t);
    }
    return mpq_sgn(acc);
}

int pred_rows_opposite(const double *a1, double b1, const double *a2, double b2, int n)
{
    int J = fp_largest_axis(a2, n);
    if (a2[J] == 0 || a1[J] == 0 || (a1[J] > 0) == (a2[J] > 0))
        return 0;
    for (int k = 0; k <= n; k++) { /* k = n: the right sides */
        if (k == J)
            continue;
        double x1 = k < n ? a1[k] : b1, x2 = k < n ? a2[k] : b2, p1, e1, p2, e2;
        xp_two_prod(x1, a2[J], &p1, &e1);
        xp_two_prod(a1[J], x2, &p2, &e2);
        if (p1 != p2 || e1 != e2)
            return 0;
    }
    return 1;
}

int pred_entries_moderate(const double *v, int count)
{
    for (int i = 0; i < count; i++) {
        double m = fabs(v[i]);
        if (m != 0 && !(m >= 0x1p-200 && m <= 0x1p200))
            return 0;
    }
    return 1;
}

#define ON_PLANE_MAX_N 16
int pred_row_sign_on_plane(const double *a, double b, const double *g, double gb, int k,
                           const double *p, int n)
{
    if (n < 1 || n > ON_PLANE_MAX_N || k < 0 || k >= n || g[k] == 0 ||
        !pred_entries_moderate(a, n) || !pred_entries_moderate(&b, 1) ||
        !pred_entries_moderate(g, n) || !pred_entries_moderate(&gb, 1) ||
        !pred_entries_moderate(p, n))
        return 2;
    /* (a . x - b) g_k = g_k (sum_{c != k} a_c p_c - b) + a_k (gb - sum_{c != k} g_c p_c):
     * a sum of 2 n products of three doubles, signed exactly by
     * pred_prod3_sum_sign */
    double f[6 * ON_PLANE_MAX_N];
    int count = 0;
    for (int c = 0; c < n; c++)
        if (c != k) {
            double *t = f + 3 * count;
            t[0] = g[k], t[1] = a[c], t[2] = p[c];
            t[3] = -a[k], t[4] = g[c], t[5] = p[c];
            count += 2;
        }
    double *last = f + 3 * count; /* - g_k b + a_k gb */
    last[0] = -g[k], last[1] = b, last[2] = 1;
    last[3] = a[k], last[4] = gb, last[5] = 1;
    count += 2;
    mpz_t acc, t0, t1;
    mpz_inits(acc, t0, t1, NULL);
    int sign = pred_prod3_sum_sign(f, count, acc, t0, t1);
    mpz_clears(acc, t0, t1, NULL);
    return g[k] > 0 ? sign : -sign;
}
