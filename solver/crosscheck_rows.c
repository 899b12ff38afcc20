/* crosscheck_rows.c -- the building blocks of the crosscheck instance
 * generator: random integers, small integer vectors, exact rank, sums and
 * products checked for exactness, and the growing row lists that become
 * the instance's polyhedra (see crosscheck_rows.h).
 *
 * Every number the generator makes is an integer or an integer times a
 * power of two; each sum or product that could round is computed with an
 * error-free check, and a row list that would hold a rounded number is
 * flagged (inexact) so the instance is drawn again. */
#include "solver/crosscheck_rows.h"
#include "polytope/mem.h"

#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/grow.h"
#include "polytope/rng.h"
#include "solver/crosscheck.h"

/* ================================================================ random */

int cc_rand_int(uint64_t *g, int lo, int hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo + 1);
    return lo + (int)(rng_splitmix(g) % span);
}

int cc_rand_coin(uint64_t *g) { return (int)(rng_splitmix(g) >> 63); }

/* =============================================================== vectors */

double cc_dot(int n, const double *a, const double *b)
{
    double s = 0.0;
    for (int j = 0; j < n; j++)
        s += a[j] * b[j];
    return s;
}

/* Nonzero integer vector with entries in [lo, hi]. */
void cc_rand_vec(uint64_t *g, int n, int lo, int hi, double *v)
{
    do {
        for (int j = 0; j < n; j++)
            v[j] = cc_rand_int(g, lo, hi);
    } while (cc_dot(n, v, v) == 0.0);
}

void cc_rand_point(uint64_t *g, int n, int range, double *p)
{
    for (int j = 0; j < n; j++)
        p[j] = cc_rand_int(g, -range, range);
}

void cc_scale_vec(int n, double k, const double *v, double *out)
{
    for (int j = 0; j < n; j++)
        out[j] = k * v[j];
}

/* Row `rank` of the k x n matrix m holds a pivot in column col: clear
 * that column in the rows below it. */
static void cc_eliminate_below(mpq_t *m, int k, int n, int rank, int col)
{
    mpq_t f, t;
    mpq_init(f);
    mpq_init(t);
    for (int i = rank + 1; i < k; i++) {
        mpq_div(f, m[i * n + col], m[rank * n + col]);
        for (int j = 0; j < n; j++) {
            mpq_mul(t, f, m[rank * n + j]);
            mpq_sub(m[i * n + j], m[i * n + j], t);
        }
    }
    mpq_clear(f);
    mpq_clear(t);
}

int cc_rank(int k, int n, const double *vecs)
{
    mpq_t *m = mem_alloc_gmp((size_t)k * (size_t)n, sizeof(mpq_t));
    if (!m)
        return -1;
    for (int i = 0; i < k * n; i++) {
        mpq_init(m[i]);
        mpq_set_d(m[i], vecs[i]);
    }
    int rank = 0;
    for (int col = 0; col < n && rank < k; col++) {
        int piv = rank;
        while (piv < k && mpq_sgn(m[piv * n + col]) == 0)
            piv++;
        if (piv == k)
            continue;
        for (int j = 0; j < n; j++)
            mpq_swap(m[piv * n + j], m[rank * n + j]);
        cc_eliminate_below(m, k, n, rank, col);
        rank++;
    }
    for (int i = 0; i < k * n; i++)
        mpq_clear(m[i]);
    free(m);
    return rank;
}

int cc_independent(int k, int n, const double *vecs)
{
    return cc_rank(k, n, vecs) == k;
}

/* x + y, and whether the double sum is exact (error-free transformation). */
int cc_exact_sum(double x, double y, double *out)
{
    double s = x + y;
    double yy = s - x;
    double e = (x - (s - yy)) + (y - yy);
    *out = s;
    return e == 0.0;
}

int cc_exact_product(double x, double y, double *out)
{
    *out = x * y;
    return fma(x, y, -*out) == 0.0;
}

/* ================================================================= rows */

void cc_rows_init(cc_rows *R, int n)
{
    memset(R, 0, sizeof *R);
    R->n = n;
}

void cc_rows_free(cc_rows *R)
{
    free(R->a);
    free(R->b);
    free(R->eq);
    cc_rows_init(R, R->n);
}

/* Room for one more row in each of the three arrays (they share one
 * capacity); sets R->oom and returns -1 when out of memory. */
static int cc_rows_reserve(cc_rows *R)
{
    if (R->m < R->cap)
        return 0;
    long need = R->m + 1L;
    int cap_a = R->cap, cap_b = R->cap, cap_eq = R->cap;
    double *a = grow_array(R->a, &cap_a, need, sizeof(double) * (size_t)R->n);
    if (a)
        R->a = a;
    double *b = grow_array(R->b, &cap_b, need, sizeof *b);
    if (b)
        R->b = b;
    unsigned char *eq = grow_array(R->eq, &cap_eq, need, 1);
    if (eq)
        R->eq = eq;
    if (!a || !b || !eq) {
        R->oom = 1;
        return -1;
    }
    R->cap = cap_a; /* = cap_b = cap_eq: the same growth from the same start */
    return 0;
}

void cc_rows_add(cc_rows *R, const double *a, double b, int eq)
{
    if (cc_rows_reserve(R) != 0)
        return;
    memcpy(R->a + (size_t)R->m * (size_t)R->n, a, sizeof(double) * (size_t)R->n);
    R->b[R->m] = b;
    R->eq[R->m] = (unsigned char)eq;
    R->m++;
}

/* a.x <= a.p + extra (or = when eq), with the sum checked for exactness. */
void cc_rows_add_at(cc_rows *R, const double *a, const double *p, double extra, int eq)
{
    double b;
    if (!cc_exact_sum(cc_dot(R->n, a, p), extra, &b))
        R->inexact = 1;
    cc_rows_add(R, a, b, eq);
}

/* `count` random rows a.x <= a.p + s, s in 1..6: p stays well inside. */
void cc_add_strict_rows(cc_rows *R, uint64_t *g, int count, const double *p)
{
    double a[CC_MAX_DIM];
    for (int k = 0; k < count; k++) {
        cc_rand_vec(g, R->n, -5, 5, a);
        cc_rows_add_at(R, a, p, cc_rand_int(g, 1, 6), 0);
    }
}

/* Bounding box around p: |x_j - p_j| <= r_j, r_j in 1..8. */
void cc_add_box(cc_rows *R, uint64_t *g, const double *p)
{
    double e[CC_MAX_DIM] = {0};
    for (int j = 0; j < R->n; j++) {
        double r = cc_rand_int(g, 1, 8);
        e[j] = 1.0;
        cc_rows_add_at(R, e, p, r, 0);
        e[j] = -1.0;
        cc_rows_add_at(R, e, p, r, 0);
        e[j] = 0.0;
    }
}

/* k a.x <= k beta (or = k beta when eq), k > 0. */
void cc_rows_add_scaled(cc_rows *R, double k, const double *a, double beta, int eq)
{
    double ka[CC_MAX_DIM], kb;
    for (int j = 0; j < R->n; j++)
        if (!cc_exact_product(k, a[j], &ka[j]))
            R->inexact = 1;
    if (!cc_exact_product(k, beta, &kb))
        R->inexact = 1;
    cc_rows_add(R, ka, kb, eq);
}

/* A positive factor that leaves a row's meaning unchanged. */
double cc_pick_scale(uint64_t *g)
{
    static const double factors[4] = {1.0, 2.0, 3.0, 0.5};
    return factors[cc_rand_int(g, 0, 3)];
}

/* c.p + extra, flagging R when the sum would round. */
double cc_plane_value(cc_rows *R, const double *c, const double *p, double extra)
{
    double beta;
    if (!cc_exact_sum(cc_dot(R->n, c, p), extra, &beta))
        R->inexact = 1;
    return beta;
}

/* The hyperplane c.x = beta: one equality row, or two opposite rows. */
void cc_add_plane(cc_rows *R, uint64_t *g, const double *c, double beta, int as_eq)
{
    if (as_eq) {
        cc_rows_add_scaled(R, cc_pick_scale(g), c, beta, 1);
        return;
    }
    double neg[CC_MAX_DIM];
    cc_scale_vec(R->n, -1.0, c, neg);
    cc_rows_add_scaled(R, cc_pick_scale(g), c, beta, 0);
    cc_rows_add_scaled(R, cc_pick_scale(g), neg, -beta, 0);
}

/* Move the polyhedron by s*c: a.x <= b becomes a.x <= b + s (a.c). */
void cc_rows_translate(cc_rows *R, double s, const double *c)
{
    for (int i = 0; i < R->m; i++) {
        const double *a = R->a + (size_t)i * (size_t)R->n;
        double shift;
        if (!cc_exact_product(s, cc_dot(R->n, a, c), &shift) ||
            !cc_exact_sum(R->b[i], shift, &R->b[i]))
            R->inexact = 1;
    }
}

static void cc_swap_rows(cc_rows *R, int i, int k)
{
    for (int j = 0; j < R->n; j++) {
        double t = R->a[(size_t)i * (size_t)R->n + (size_t)j];
        R->a[(size_t)i * (size_t)R->n + (size_t)j] = R->a[(size_t)k * (size_t)R->n + (size_t)j];
        R->a[(size_t)k * (size_t)R->n + (size_t)j] = t;
    }
    double tb = R->b[i];
    R->b[i] = R->b[k];
    R->b[k] = tb;
    unsigned char te = R->eq[i];
    R->eq[i] = R->eq[k];
    R->eq[k] = te;
}

/* Shuffle the rows (so the family's own rows are not always first) and
 * build the polyhedron. */
hs_poly *cc_rows_to_poly(cc_rows *R, uint64_t *g, hs_error *err)
{
    for (int i = R->m - 1; i > 0; i--)
        cc_swap_rows(R, i, cc_rand_int(g, 0, i));
    return hs_poly_from_doubles(R->n, R->m, R->a, R->b, R->eq, err);
}

/* Copy row i of R, with b increased by `extra` and everything times k. */
void cc_add_row_copy(cc_rows *R, int i, double extra, double k)
{
    double a[CC_MAX_DIM], b;
    memcpy(a, R->a + (size_t)i * (size_t)R->n, sizeof(double) * (size_t)R->n);
    if (!cc_exact_sum(R->b[i], extra, &b))
        R->inexact = 1;
    cc_rows_add_scaled(R, k, a, b, R->eq[i]);
}

/* Replace row i by k times itself. */
void cc_scale_row(cc_rows *R, int i, double k)
{
    for (int j = 0; j <= R->n; j++) {
        double *v = j == R->n ? &R->b[i] : &R->a[(size_t)i * (size_t)R->n + (size_t)j];
        if (!cc_exact_product(k, *v, v))
            R->inexact = 1;
    }
}

