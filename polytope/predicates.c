/* predicates.c -- filtered exact signs (see predicates.h). */
#include "polytope/predicates.h"

#include <float.h>
#include <gmp.h>
#include <math.h>
#include <stdlib.h>

#define UNIT_ROUNDOFF (DBL_EPSILON / 2) /* u = 2^-53 */

/* Products of up to four entries stay clear of underflow and overflow when
 * every nonzero entry lies in [2^-120, 2^120]. */
#define SAFE_MIN 0x1p-120
#define SAFE_MAX 0x1p+120

static int entries_safe(const double *v, int count)
{
    for (int i = 0; i < count; i++) {
        double m = fabs(v[i]);
        if (m != 0 && (m < SAFE_MIN || m > SAFE_MAX))
            return 0;
    }
    return 1;
}

/* ------------------------------------------------- exact sign of a.x - b */

/* Shewchuk's Two-Sum: a + b = s + e exactly. */
static void two_sum(double a, double b, double *s, double *e)
{
    double sum = a + b;
    double bv = sum - a;
    double av = sum - bv;
    *e = (a - av) + (b - bv);
    *s = sum;
}

/* Add one double to an expansion (components increasing in magnitude,
 * nonoverlapping), dropping zero components.  Returns the new length. */
static int grow_expansion(double *e, int len, double b)
{
    int out = 0;
    double q = b;
    for (int i = 0; i < len; i++) {
        double sum, err;
        two_sum(q, e[i], &sum, &err);
        if (err != 0)
            e[out++] = err;
        q = sum;
    }
    if (q != 0)
        e[out++] = q;
    return out;
}

static int sign_of(double v) { return (v > 0) - (v < 0); }

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
    return len == 0 ? 0 : sign_of(e[len - 1]);
}

/* The fma error term is exact only when the product does not reach the
 * subnormal range: require |a_j x_j| >= 2^-900 for nonzero products. */
static int products_safe(const double *a, const double *x, double b, int n)
{
    if (!entries_safe(&b, 1))
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
    double bound = (double)(n + 2) * UNIT_ROUNDOFF * mag;
    if (isfinite(mag) && mag < 0x1p+900 && (mag == 0 || mag > 0x1p-900)) {
        if (v > bound || v < -bound) {
            if (st)
                st->filtered++;
            return sign_of(v);
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

/* ------------------------------------------------- determinant signs */

/* 2x2 value and permanent-like magnitude of rows (r0, r1), columns (c0, c1). */
static double det2(const double *M, int k, int r0, int r1, int c0, int c1, double *mag)
{
    double p = M[r0 * k + c0] * M[r1 * k + c1];
    double q = M[r0 * k + c1] * M[r1 * k + c0];
    *mag = fabs(p) + fabs(q);
    return p - q;
}

/* 3x3 on rows r[0..2], columns c[0..2], expanded along the first row. */
static double det3(const double *M, int k, const int *r, const int *c, double *mag)
{
    double m0, m1, m2;
    double d0 = det2(M, k, r[1], r[2], c[1], c[2], &m0);
    double d1 = det2(M, k, r[1], r[2], c[0], c[2], &m1);
    double d2 = det2(M, k, r[1], r[2], c[0], c[1], &m2);
    double a0 = M[r[0] * k + c[0]], a1 = M[r[0] * k + c[1]], a2 = M[r[0] * k + c[2]];
    *mag = fabs(a0) * m0 + fabs(a1) * m1 + fabs(a2) * m2;
    return a0 * d0 - a1 * d1 + a2 * d2;
}

static double det4(const double *M, double *mag)
{
    static const int rows[3] = {1, 2, 3};
    static const int cols[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    double v = 0, m = 0;
    for (int j = 0; j < 4; j++) {
        double mj;
        double dj = det3(M, 4, rows, cols[j], &mj);
        double term = M[j] * dj;
        v += (j & 1) ? -term : term;
        m += fabs(M[j]) * mj;
    }
    *mag = m;
    return v;
}

/* Error bounds as multiples of u times the computed permanent:
 *  2x2: two rounded products and a subtraction: (2u + u^2) perm; 3u.
 *  3x3: minors carry (2u + u^2), times an entry (+u), three terms summed
 *       (+2u): at most (7u + O(u^2)) perm, and the permanent itself is
 *       computed with five roundings: 8u covers both.
 *  4x4: minors carry 8u, times an entry (+u), four terms summed (+3u):
 *       12u + O(u^2); with the rounding of the permanent, 13u. */
static const double det_bound_factor[5] = {0, 0, 3, 8, 13};

static int det_sign_gmp(const double *M, int k)
{
    for (int i = 0; i < k * k; i++)
        if (!isfinite(M[i]))
            return -2;
    mpq_t *q = malloc(sizeof(mpq_t) * (size_t)(k * k));
    if (!q)
        return -2;
    mpq_t f, t;
    mpq_inits(f, t, NULL);
    for (int i = 0; i < k * k; i++) {
        mpq_init(q[i]);
        mpq_set_d(q[i], M[i]);
    }
    int sign = 1;
    for (int c = 0; c < k && sign != 0; c++) {
        int p = c;
        while (p < k && mpq_sgn(q[p * k + c]) == 0)
            p++;
        if (p == k) {
            sign = 0;
            break;
        }
        if (p != c) {
            for (int j = 0; j < k; j++)
                mpq_swap(q[p * k + j], q[c * k + j]);
            sign = -sign;
        }
        if (mpq_sgn(q[c * k + c]) < 0)
            sign = -sign;
        for (int i = c + 1; i < k; i++) {
            if (mpq_sgn(q[i * k + c]) == 0)
                continue;
            mpq_div(f, q[i * k + c], q[c * k + c]);
            for (int j = c; j < k; j++) {
                mpq_mul(t, f, q[c * k + j]);
                mpq_sub(q[i * k + j], q[i * k + j], t);
            }
        }
    }
    for (int i = 0; i < k * k; i++)
        mpq_clear(q[i]);
    mpq_clears(f, t, NULL);
    free(q);
    return sign;
}

int pred_det_sign(const double *M, int k, pred_stats *st)
{
    if (k == 1) {
        if (st)
            st->filtered++;
        return sign_of(M[0]);
    }
    if (k <= 4 && entries_safe(M, k * k)) {
        static const int r3[3] = {0, 1, 2}, c3[3] = {0, 1, 2};
        double mag, v;
        if (k == 2)
            v = det2(M, 2, 0, 1, 0, 1, &mag);
        else if (k == 3)
            v = det3(M, 3, r3, c3, &mag);
        else
            v = det4(M, &mag);
        double bound = det_bound_factor[k] * UNIT_ROUNDOFF * mag;
        if (v > bound || v < -bound || mag == 0) {
            if (st)
                st->filtered++;
            return mag == 0 ? 0 : sign_of(v);
        }
    }
    if (st)
        st->exact++;
    return det_sign_gmp(M, k);
}
