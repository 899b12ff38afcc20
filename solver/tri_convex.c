/* tri_convex.c -- a triangle against a convex polytope (see tri_convex.h).
 *
 * Barycentric form.  With weights c = (c0, c1, c2), c >= 0, c0 + c1 + c2
 * = 1, the triangle's point is x(c) = sum_k c_k v_k, and row i of P,
 * a_i . x <= b_i, reads sum_k c_k M_ik <= 0 with M_ik = a_i . v_k - b_i.
 * The relative interior of the convex hull of three points (a triangle, a
 * segment or a point) is the set of x(c) with every c_k > 0, so
 *   overlap   iff  M c < 0 for some c with all c_k > 0 (int P is open);
 *   disjoint  iff  some y >= 0 on P's rows has sum_i y_i M_ik > 0 for
 *                  k = 0, 1, 2 (Farkas: the row sum_i y_i (a_i . x - b_i)
 *                  <= 0 holds on P and every corner violates it);
 *   touching  otherwise.
 * None of this needs the corners to be in general position.
 *
 * Fast path, in doubles, every answer certified on the numbers as given:
 *   1. M is computed with a bound on its error.  A row whose three
 *      entries are certainly positive separates: disjoint.  A corner with
 *      its whole column certainly negative lies in int P: a point of the
 *      relative interior next to it is certified (overlap).
 *   2. A row of P with all three entries >= 0 (exactly) and a point of P
 *      on the triangle: touching (see touching_on_face).
 *   3. The margin LP in (c1, c2, tau), c0 = 1 - c1 - c2:
 *          maximise tau   s.t.  sum_k c_k M_ik + w_i tau <= 0   (P's rows)
 *                               c_k >= tau                       (k = 0, 1, 2)
 *      with w_i = |a_i|_1 L (L the largest coordinate of the edges from
 *      v0, 1 for a point), every row divided by w_i, solved by Seidel's LP
 *      (solver/seidel.h) over a few rows of P first, adding the rows its
 *      optimum violates (constraint generation).  The LP only steers:
 *      tau > 0: the weights c' found (all c'_k > 0, kept as doubles) give
 *        the point sum c'_k v_k / sum c'_k; every row is checked strictly:
 *        sum_k c'_k (a_i . v_k - b_i) < 0;
 *      tau < 0: the multipliers of the final basis on P's rows (from the
 *        3x3 basis system in doubles, clamped to >= 0) are checked as a
 *        Farkas certificate: sum_i y_i M_ik > 0 for every k.
 * The checks are signs of sums of products of at most three doubles (the
 * filtered predicate below): floating point with a rigorous error bound
 * (filter_bound), and an exact sum over GMP integers (pred_prod3_sum_sign, polytope/predicates.c)
 * when the bound cannot decide.
 *
 * Exact fallback (tau about 0, a check that fails, numerical trouble, or a
 * P the fast path does not take): the triangle becomes an exact flat
 * polytope -- its plane as an equality with the normal (v1 - v0) x (v2 -
 * v0) in rationals and three edge rows; a segment as two equalities and
 * two inequalities; a point as three equalities -- and classify_pair
 * (solver/classify.h) answers. */
#include "solver/tri_convex.h"

#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/classify.h"
#include "polytope/fp.h"
#include "solver/fast_prep.h"
#include "polytope/predicates.h"
#include "polytope/rng.h"
#include "solver/result.h"
#include "solver/seidel.h"
#include "polytope/error.h"
#include "polytope/mem.h"

/* Error bounds below hold for sums of at most this many rounded terms. */
#define FILTER_MAX_ROWS (1 << 24)
/* The filters answer only when the computed magnitude is at least this
 * (see filter_bound). */
#define FILTER_MIN_MAG 0x1p-960
/* ... and the weights multiplying the rows are at most this. */
#define FILTER_MAX_WEIGHT 0x1p+30

struct tri_convex_work {
    seidel_work *sw;
    int cap;               /* rows the buffers hold */
    double *mv, *mg;       /* 3 cap: computed M_ik and its magnitude, at 3 i + k */
    double *lp_a;          /* 2 cap: P's rows in (c1, c2) */
    double *lp_w, *lp_b;   /* cap: tau weights, right-hand sides */
    double *lp_scale;      /* cap: the factor each LP row was scaled by */
    double *y;             /* cap: Farkas multipliers */
    double *terms;         /* 12 cap: factors of an exact sum */
    int *set;              /* cap: rows of P in the LP (constraint generation) */
    unsigned char *in_set; /* cap: flags of those rows, all 0 between calls */
    int *order;            /* cap + 3: the LP's row order */
    uint64_t rng;
    mpz_t acc, t0, t1;     /* exact sums */
    hs_result *res;        /* the exact fallback's answer (created on first use) */
};

/* One call: the triangle, P and what has been computed about them. */
typedef struct tc_query {
    tri_convex_work *w;
    const double (*v)[3];
    const hs_poly *P;
    int m;
    double e1[3], e2[3]; /* v1 - v0, v2 - v0 in doubles (the LP only) */
    double c[3];         /* the certified weights (overlap, touching) */
    int flat_row;        /* a row of P whose plane holds the triangle, or -1 */
} tc_query;

/* The triangle's rows in the LP: -c1 + tau <= 0, -c2 + tau <= 0,
 * c1 + c2 + tau <= 1 (that is, c0 >= tau). */
static const double tri_rows_a[6] = {-1, 0, 0, -1, 1, 1};
static const double tri_rows_w[3] = {1, 1, 1};
static const double tri_rows_b[3] = {0, 0, 1};

/* ------------------------------------------------------------ workspace */

tri_convex_work *tri_convex_work_new(void)
{
    tri_convex_work *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    if (!(w->sw = seidel_work_new())) {
        free(w);
        return NULL;
    }
    w->rng = 0x2545f4914f6cdd1dULL;
    mpz_inits(w->acc, w->t0, w->t1, NULL);
    return w;
}

static void free_buffers(tri_convex_work *w)
{
    free(w->mv);
    free(w->mg);
    free(w->lp_a);
    free(w->lp_w);
    free(w->lp_b);
    free(w->lp_scale);
    free(w->y);
    free(w->terms);
    free(w->set);
    free(w->in_set);
    free(w->order);
    w->mv = w->mg = w->lp_a = w->lp_w = w->lp_b = w->lp_scale = w->y = w->terms = NULL;
    w->set = w->order = NULL;
    w->in_set = NULL;
    w->cap = 0;
}

void tri_convex_work_free(tri_convex_work *w)
{
    if (!w)
        return;
    free_buffers(w);
    seidel_work_free(w->sw);
    mpz_clears(w->acc, w->t0, w->t1, NULL);
    hs_result_free(w->res);
    free(w);
}

static int tc_reserve(tri_convex_work *w, int m)
{
    if (m <= w->cap)
        return seidel_reserve(w->sw, 2, m + 3);
    free_buffers(w);
    size_t n = (size_t)m;
    w->mv = mem_alloc(3 * n, sizeof(double));
    w->mg = mem_alloc(3 * n, sizeof(double));
    w->lp_a = mem_alloc(2 * n, sizeof(double));
    w->lp_w = mem_alloc(n, sizeof(double));
    w->lp_b = mem_alloc(n, sizeof(double));
    w->lp_scale = mem_alloc(n, sizeof(double));
    w->y = mem_alloc(n, sizeof(double));
    w->terms = mem_alloc(12 * n, sizeof(double));
    w->set = mem_alloc(n, sizeof(int));
    w->in_set = mem_calloc(n, 1);
    w->order = mem_alloc(n + 3, sizeof(int));
    if (!w->mv || !w->mg || !w->lp_a || !w->lp_w || !w->lp_b || !w->lp_scale || !w->y ||
        !w->terms || !w->set || !w->in_set || !w->order) {
        free_buffers(w);
        return -1;
    }
    w->cap = m;
    return seidel_reserve(w->sw, 2, m + 3);
}

/* ------------------------------------------------------ computed M */

/* Entry (i, k): M = a . v - b and its magnitude |a| . |v| + |b|, each
 * term of M rounded at most 4 times (a product, three additions). */
static void tc_entry(const double *a, double b, const double *v, double *val, double *mag)
{
    double p0 = a[0] * v[0], p1 = a[1] * v[1], p2 = a[2] * v[2];
    *val = ((p0 + p1) + p2) - b;
    *mag = ((fabs(p0) + fabs(p1)) + fabs(p2)) + fabs(b);
}

/* The error bound of the filters.  A sum of products of doubles,
 * evaluated in any order with at most K roundings on the way of each
 * product to the total, is off by at most gamma_K = K u / (1 - K u) times
 * S, the sum of the magnitudes of the exact products; the same evaluation
 * on magnitudes gives mag >= (1 - u)^K S; so (K + 2) u mag bounds the
 * error, with room for the rounding of the bound itself (K <= 2^25).
 * Products that underflow add an absolute error of at most 2^-1075 each
 * (times the weights applied after them); with mag >= 2^-960, at most
 * 2^26 such products and weights <= 2^30, one more u mag >= 2^-1013
 * covers that.  The bound is then (K + 3) u mag, and no arithmetic here
 * touches the subnormal range (which is slow on common processors).
 * Returns -1 when the filter must not be used. */
static double filter_bound(double val, double mag, int K)
{
    if (!isfinite(val) || !isfinite(mag) || !(mag >= FILTER_MIN_MAG))
        return -1;
    return (double)(K + 3) * FP_U * mag;
}

/* Filtered sign of M_ik (K = 4: a product and three additions), 0 when
 * the filter cannot tell. */
static int entry_filter(double val, double mag)
{
    double bound = filter_bound(val, mag, 4);
    if (bound < 0)
        return 0;
    return val > bound ? 1 : val < -bound ? -1 : 0;
}

static int entry_sign(tc_query *q, int i, int k)
{
    int s = entry_filter(q->w->mv[3 * i + k], q->w->mg[3 * i + k]);
    if (s != 0)
        return s;
    return pred_row_sign(hpoly_row(q->P, i), q->v[k], q->P->b[i], 3, NULL);
}

/* M row by row; a row with all three corners strictly outside ends the
 * scan: returns 1 (disjoint). */
static int fill_entries(tc_query *q)
{
    tri_convex_work *w = q->w;
    for (int i = 0; i < q->m; i++) {
        double *mv = w->mv + 3 * i;
        for (int k = 0; k < 3; k++)
            tc_entry(hpoly_row(q->P, i), q->P->b[i], q->v[k], &mv[k], &w->mg[3 * i + k]);
        if (mv[0] > 0 && mv[1] > 0 && mv[2] > 0 && entry_sign(q, i, 0) > 0 &&
            entry_sign(q, i, 1) > 0 && entry_sign(q, i, 2) > 0)
            return 1;
    }
    return 0;
}

/* ------------------------------------------------ certified overlap */

/* The 12 terms of sum_k c_k (a . v_k - b) as factor triples. */
static void row_terms(const tc_query *q, int i, const double *c, double *f)
{
    const double *a = hpoly_row(q->P, i);
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 3; j++, f += 3) {
            f[0] = c[k];
            f[1] = a[j];
            f[2] = q->v[k][j];
        }
        f[0] = c[k];
        f[1] = -q->P->b[i];
        f[2] = 1;
        f += 3;
    }
}

/* Sign of sum_k c_k M_ik, exactly (c >= 0).  Filter: each product of the
 * computed value (c0 M0 + c1 M1) + c2 M2 is rounded at most 4 + 1 + 2 = 7
 * times; the weights c are at most cmax. */
static int row_sign(tc_query *q, int i, const double *c, double cmax)
{
    const double *mv = q->w->mv + 3 * i, *mg = q->w->mg + 3 * i;
    double val = (c[0] * mv[0] + c[1] * mv[1]) + c[2] * mv[2];
    double mag = (c[0] * mg[0] + c[1] * mg[1]) + c[2] * mg[2];
    double bound = cmax <= FILTER_MAX_WEIGHT ? filter_bound(val, mag, 7) : -1;
    if (bound >= 0 && (val < -bound || val > bound))
        return val < 0 ? -1 : 1;
    double f[36];
    row_terms(q, i, c, f);
    return pred_prod3_sum_sign(f, 12, q->w->acc, q->w->t0, q->w->t1);
}

/* Is the point with weights c (>= 0 doubles, not all 0; the point is
 * sum c_k v_k / sum c_k) in P, strictly inside every row when strict?
 * On success c is kept for the witness. */
static int certify_weights(tc_query *q, const double *c, int strict)
{
    if (!(c[0] >= 0 && c[1] >= 0 && c[2] >= 0) || !(c[0] + c[1] + c[2] > 0) ||
        !isfinite(c[0] + c[1] + c[2]))
        return 0;
    double cmax = fmax(c[0], fmax(c[1], c[2]));
    for (int i = 0; i < q->m; i++)
        if (row_sign(q, i, c, cmax) >= !strict)
            return 0;
    memcpy(q->c, c, sizeof q->c);
    return 1;
}

/* Overlap: all weights positive (a point of the relative interior of the
 * triangle), every row strict (a point of int P). */
static int certify_point(tc_query *q, const double *c)
{
    return c[0] > 0 && c[1] > 0 && c[2] > 0 && certify_weights(q, c, 1);
}

/* ------------------------------------------------ certified disjoint */

/* The 4m terms of sum_i y_i (a_i . v_k - b_i) as factor triples. */
static int farkas_terms(const tc_query *q, int k, double *f)
{
    int count = 0;
    for (int i = 0; i < q->m; i++) {
        double y = q->w->y[i];
        if (y == 0)
            continue;
        const double *a = hpoly_row(q->P, i);
        for (int j = 0; j < 3; j++, count++) {
            f[3 * count] = y;
            f[3 * count + 1] = a[j];
            f[3 * count + 2] = q->v[k][j];
        }
        f[3 * count] = y;
        f[3 * count + 1] = -q->P->b[i];
        f[3 * count + 2] = 1;
        count++;
    }
    return count;
}

/* Is sum_i y_i M_ik > 0, exactly?  Filter: each product of the computed
 * sum is rounded at most 4 + 1 + (m - 1) times; the weights y are at most
 * 1 (basis_multipliers scales them so). */
static int farkas_vertex(tc_query *q, int k)
{
    const tri_convex_work *w = q->w;
    double val = 0, mag = 0;
    for (int i = 0; i < q->m; i++) {
        val += w->y[i] * w->mv[3 * i + k];
        mag += w->y[i] * w->mg[3 * i + k];
    }
    double bound = filter_bound(val, mag, q->m + 4);
    if (bound >= 0 && val > bound)
        return 1;
    if (bound >= 0 && val < -bound)
        return 0;
    int count = farkas_terms(q, k, q->w->terms);
    return pred_prod3_sum_sign(q->w->terms, count, q->w->acc, q->w->t0, q->w->t1) > 0;
}

static int tc_certify_farkas(tc_query *q)
{
    for (int k = 0; k < 3; k++)
        if (!farkas_vertex(q, k))
            return 0;
    return 1;
}

/* -------------------------------------------------------- quick exits */

/* Weights (1 - 2e, e, e) around corner k, with e small enough (in
 * doubles) that every row stays negative; certified afterwards. */
static int near_corner(tc_query *q, int k)
{
    int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    double e = 0.25;
    for (int i = 0; i < q->m; i++) {
        const double *mv = q->w->mv + 3 * i;
        double grow = mv[k1] + mv[k2] - 2 * mv[k];
        if (grow > 0 && 0.5 * (-mv[k] / grow) < e)
            e = 0.5 * (-mv[k] / grow);
    }
    double c[3];
    c[k] = 1 - 2 * e;
    c[k1] = c[k2] = e;
    return e > 0 && certify_point(q, c);
}

/* A corner strictly inside P: overlap near it. */
static int inside_corner(tc_query *q)
{
    for (int k = 0; k < 3; k++) {
        int i = 0;
        while (i < q->m && q->w->mv[3 * i + k] < 0)
            i++;
        if (i < q->m)
            continue;
        i = 0;
        while (i < q->m && entry_sign(q, i, k) < 0)
            i++;
        if (i == q->m && near_corner(q, k))
            return 1;
    }
    return 0;
}

/* -------------------------------------------------- certified touching */

static double norm1(const double *a) { return fabs(a[0]) + fabs(a[1]) + fabs(a[2]); }

/* Touching through a face of P.  With P full-dimensional, a row i with
 * a_i != 0 and M_ik >= 0 at every corner keeps the triangle in the closed
 * half-space a_i . x >= b_i, while every point of int P has a_i . x < b_i:
 * the relative interiors cannot meet.  A point of P on the triangle then
 * makes the answer touching; it can only be a combination of the corners
 * with M_ik = 0, and the centroid of those, then each of them, is tried.
 * This settles resting contact (a triangle on a face, a corner or an edge
 * on a face) without the exact engine; contacts between edges do not
 * have such a row and go there.  A row whose plane holds the whole
 * triangle is noted in flat_row for run_lp. */
static int touching_on_face(tc_query *q, int i)
{
    const double *mv = q->w->mv + 3 * i, *mg = q->w->mg + 3 * i;
    int on[3];
    for (int k = 0; k < 3; k++)
        if (entry_filter(mv[k], mg[k]) < 0)
            return 0;
    if (!(norm1(hpoly_row(q->P, i)) > 0))
        return 0;
    for (int k = 0; k < 3; k++)
        if ((on[k] = entry_sign(q, i, k)) < 0)
            return 0;
    double c[3] = {on[0] == 0, on[1] == 0, on[2] == 0};
    if (c[0] + c[1] + c[2] == 3 && q->flat_row < 0)
        q->flat_row = i;
    if (certify_weights(q, c, 0))
        return 1;
    for (int k = 0; k < 3; k++) {
        double e[3] = {k == 0, k == 1, k == 2};
        if (on[k] == 0 && c[0] + c[1] + c[2] > 1 && certify_weights(q, e, 0))
            return 1;
    }
    return 0;
}

static int touching(tc_query *q)
{
    const fast_prep *fp = NULL;
    if (fast_prep_get(q->P, &fp, NULL) != 0 || !fp) /* full dimension not known */
        return 0;
    for (int i = 0; i < q->m; i++)
        if (touching_on_face(q, i))
            return 1;
    return 0;
}

/* ------------------------------------------------------------- the LP */

/* P's rows in (c1, c2, tau), each divided by w_i = |a_i|_1 L (so its tau
 * weight is 1 and its numbers are of order 1 whatever the scale of the
 * input); returns the lowest tau the box must allow: below the optimum,
 * which is at least the value at the centroid. */
static double build_lp_rows(tc_query *q)
{
    tri_convex_work *w = q->w;
    double L = 0;
    for (int j = 0; j < 3; j++)
        L = fmax(L, fmax(fabs(q->e1[j]), fabs(q->e2[j])));
    if (!(L > 0) || !isfinite(L))
        L = 1;
    double worst = 0;
    for (int i = 0; i < q->m; i++) {
        const double *a = hpoly_row(q->P, i), *mv = w->mv + 3 * i;
        double s = 1 / norm1(a) / L; /* 0 or inf: a row left as it is */
        int scaled = s > 0 && isfinite(s);
        s = scaled ? s : 1;
        w->lp_a[2 * i] = dot3(a, q->e1) * s;
        w->lp_a[2 * i + 1] = dot3(a, q->e2) * s;
        w->lp_b[i] = -mv[0] * s;
        w->lp_w[i] = scaled;
        w->lp_scale[i] = s;
        if (scaled)
            worst = fmax(worst, fmax(fabs(mv[0]), fmax(fabs(mv[1]), fabs(mv[2]))) * s);
    }
    return -1 - 2 * worst;
}

static void tc_add_row(tri_convex_work *w, int i, int *count)
{
    if (w->in_set[i])
        return;
    w->in_set[i] = 1;
    w->set[(*count)++] = i;
}

/* Rows the LP starts from: for each corner, and for the centroid, the
 * row it violates most (measured in units of tau). */
static int initial_rows(tc_query *q)
{
    tri_convex_work *w = q->w;
    int best[4] = {-1, -1, -1, -1}, count = 0;
    double top[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < q->m; i++) {
        if (!(w->lp_w[i] > 0))
            continue;
        const double *mv = w->mv + 3 * i;
        double f = w->lp_scale[i], s[4] = {mv[0], mv[1], mv[2], mv[0] + mv[1] + mv[2]};
        for (int k = 0; k < 4; k++)
            if (s[k] * f > top[k]) {
                top[k] = s[k] * f;
                best[k] = i;
            }
    }
    for (int k = 0; k < 4; k++)
        if (best[k] >= 0)
            tc_add_row(w, best[k], &count);
    return count;
}

/* Rows of P not yet in the LP that its optimum z violates, even by
 * rounding noise (near tau = 0 those decide): the ADD_PER_ROUND worst (in
 * units of tau) join.  Returns how many joined. */
#define ADD_PER_ROUND 3
static int add_violated(tc_query *q, const double *z, int *count)
{
    tri_convex_work *w = q->w;
    int pick[ADD_PER_ROUND], found = 0;
    double how[ADD_PER_ROUND];
    for (int i = 0; i < q->m; i++) {
        const double *a = w->lp_a + 2 * i;
        double v = a[0] * z[0] + a[1] * z[1] + w->lp_w[i] * z[2] - w->lp_b[i];
        if (w->in_set[i] || !(v > 0))
            continue;
        double r = w->lp_w[i] > 0 ? v : INFINITY;
        int at = found < ADD_PER_ROUND ? found++ : ADD_PER_ROUND;
        while (at > 0 && how[at - 1] < r) { /* keep the worst, sorted */
            if (at < ADD_PER_ROUND) {
                how[at] = how[at - 1];
                pick[at] = pick[at - 1];
            }
            at--;
        }
        if (at < ADD_PER_ROUND) {
            how[at] = r;
            pick[at] = i;
        }
    }
    for (int k = 0; k < found; k++)
        tc_add_row(w, pick[k], count);
    return found;
}

/* Seidel's LP over the rows in the set and the triangle's three rows, in
 * random order. */
static seidel_status tc_solve_set(tc_query *q, int count, const double *lo, const double *hi,
                               double *z, int *basis)
{
    tri_convex_work *w = q->w;
    memcpy(w->order, w->set, sizeof(int) * (size_t)count);
    for (int t = 0; t < 3; t++)
        w->order[count + t] = q->m + t;
    rng_shuffle(&w->rng, w->order, count + 3);
    seidel_problem p = {.n = 2,
                        .bank = {{w->lp_a, w->lp_w, w->lp_b, q->m},
                                 {tri_rows_a, tri_rows_w, tri_rows_b, 3}},
                        .m = count + 3,
                        .order = w->order,
                        .lo = lo,
                        .hi = hi,
                        .forced = -1};
    return seidel_solve(w->sw, &p, z, basis, NULL);
}

/* Column (c1, c2, tau coefficients) of basis element id. */
static void tc_basis_column(const tc_query *q, int id, double *g)
{
    int m = q->m;
    if (id >= 0 && id < m) {
        g[0] = q->w->lp_a[2 * id];
        g[1] = q->w->lp_a[2 * id + 1];
        g[2] = q->w->lp_w[id];
    } else if (id >= m) {
        g[0] = tri_rows_a[2 * (id - m)];
        g[1] = tri_rows_a[2 * (id - m) + 1];
        g[2] = tri_rows_w[id - m];
    } else {
        g[0] = g[1] = g[2] = 0;
        g[SEIDEL_BOX_VAR(id)] = SEIDEL_BOX_UPPER(id) ? 1 : -1;
    }
}

/* Multipliers of the optimal basis: lambda with sum_r lambda_r g_r =
 * e_tau (Cramer's rule: lambda_r is the determinant with row r replaced
 * by e_tau over det G); those on P's rows, times the factor of the row
 * (for the row as P has it), clamped at 0 and scaled to a largest entry
 * of 1, go to y. */
static int basis_multipliers(tc_query *q, const int *basis)
{
    double G[3][3], num[3];
    for (int r = 0; r < 3; r++)
        tc_basis_column(q, basis[r], G[r]);
    for (int r = 0; r < 3; r++) {
        const double *p = G[(r + 1) % 3], *s = G[(r + 2) % 3];
        num[r] = p[0] * s[1] - p[1] * s[0];
    }
    double det = G[0][2] * num[0] + G[1][2] * num[1] + G[2][2] * num[2], y[3], ymax = 0;
    for (int r = 0; r < 3; r++) {
        int id = basis[r];
        y[r] = id >= 0 && id < q->m ? fmax(0, num[r] / det * q->w->lp_scale[id]) : 0;
        ymax = fmax(ymax, y[r]);
    }
    if (!(ymax > 0) || !isfinite(ymax))
        return 0;
    memset(q->w->y, 0, sizeof(double) * (size_t)q->m);
    for (int r = 0; r < 3; r++)
        if (y[r] > 0)
            q->w->y[basis[r]] = y[r] / ymax; /* any y >= 0 will do: scale to 1 */
    return 1;
}

/* Constraint generation: the LP over a few rows of P; while its optimum
 * has tau >= 0 and violates other rows, the worst of them join (after
 * MAX_ROUNDS rounds, all of them).  tau < 0 over some rows already
 * proves it over all.  The LP is feasible by construction, yet rounding
 * can make Seidel's recursion report it infeasible when many rows are
 * tight at a thin optimum: it is then solved again over all rows in a
 * new random order (at most RETRIES times).  Returns the final status,
 * z and basis. */
#define MAX_ROUNDS 6
#define RETRIES 2
static seidel_status solve_lp(tc_query *q, int skip, const double *lo, const double *hi,
                              double *z, int *basis)
{
    if (skip >= 0) /* marked as taken: never added */
        q->w->in_set[skip] = 1;
    int count = initial_rows(q), retries = 0;
    seidel_status st = SEIDEL_NUMERIC;
    for (int round = 0; round <= MAX_ROUNDS; round++) {
        if (round == MAX_ROUNDS)
            for (int i = 0; i < q->m; i++)
                tc_add_row(q->w, i, &count);
        st = tc_solve_set(q, count, lo, hi, z, basis);
        if (st == SEIDEL_INFEASIBLE || st == SEIDEL_NUMERIC) {
            if (retries++ == RETRIES)
                break;
            round = MAX_ROUNDS - 1;
            continue;
        }
        if (st != SEIDEL_OPTIMAL || z[2] < 0 || add_violated(q, z, &count) == 0)
            break;
    }
    for (int k = 0; k < count; k++)
        q->w->in_set[q->w->set[k]] = 0;
    if (skip >= 0)
        q->w->in_set[skip] = 0;
    return st;
}

/* Solve the margin LP (rows from build_lp_rows, lo_tau its bound) and
 * certify its answer: 1 with *status set, or 0 when it cannot.  With
 * skip >= 0 (a row of P whose plane holds the triangle, which therefore
 * does not overlap P), the LP leaves that row out and only a touching
 * point is sought: weights c >= 0 with every row of P satisfied, the
 * skipped one with equality (its entries are 0). */
static int tc_run_lp(tc_query *q, int skip, double lo_tau, hs_status *status)
{
    double lo[3] = {2 * lo_tau, 2 * lo_tau, lo_tau}, hi[3] = {2 - 4 * lo_tau, 2 - 4 * lo_tau, 1};
    double z[3];
    int basis[4];
    if (!isfinite(lo[0]) || !isfinite(hi[0]) ||
        solve_lp(q, skip, lo, hi, z, basis) != SEIDEL_OPTIMAL)
        return 0;
    double c[3] = {1 - z[0] - z[1], z[0], z[1]};
    if (skip >= 0 && z[2] > 0 && certify_weights(q, c, 0))
        *status = HS_TOUCHING;
    else if (skip < 0 && z[2] > 0 && certify_point(q, c))
        *status = HS_OVERLAP;
    else if (skip < 0 && z[2] < 0 && basis_multipliers(q, basis) && tc_certify_farkas(q))
        *status = HS_DISJOINT;
    else
        return 0;
    return 1;
}

/* -------------------------------------------------------- fast path */

static void point_of(const tc_query *q, double *x)
{
    const double *c = q->c;
    double s = (c[0] + c[1]) + c[2];
    for (int j = 0; j < 3; j++)
        x[j] = ((c[0] * q->v[0][j] + c[1] * q->v[1][j]) + c[2] * q->v[2][j]) / s;
}

/* 1 with *status set when certified, 0 when undecided. */
static int fast_path(tc_query *q, hs_status *status)
{
    *status = HS_DISJOINT;
    if (fill_entries(q))
        return 1;
    *status = HS_OVERLAP;
    if (inside_corner(q))
        return 1;
    *status = HS_TOUCHING;
    q->flat_row = -1;
    if (touching(q))
        return 1;
    for (int j = 0; j < 3; j++) {
        q->e1[j] = q->v[1][j] - q->v[0][j];
        q->e2[j] = q->v[2][j] - q->v[0][j];
    }
    double lo_tau = build_lp_rows(q);
    return (q->flat_row >= 0 && tc_run_lp(q, q->flat_row, lo_tau, status)) ||
           tc_run_lp(q, -1, lo_tau, status);
}

/* The fast path reads P's doubles: every row an exact inequality. */
static int fast_eligible(const hs_poly *P)
{
    if (P->m >= FILTER_MAX_ROWS)
        return 0;
    for (int i = 0; i < P->m; i++)
        if (P->eq[i] || !P->exact[i])
            return 0;
    return 1;
}

/* ------------------------------------------- the exact triangle polytope */

typedef struct qvec {
    mpq_t x[3];
} qvec;

static void qv_init(qvec *v, int count)
{
    for (int k = 0; k < count; k++)
        for (int j = 0; j < 3; j++)
            mpq_init(v[k].x[j]);
}

static void qv_clear(qvec *v, int count)
{
    for (int k = 0; k < count; k++)
        for (int j = 0; j < 3; j++)
            mpq_clear(v[k].x[j]);
}

static void qv_sub(qvec *out, const qvec *a, const qvec *b)
{
    for (int j = 0; j < 3; j++)
        mpq_sub(out->x[j], a->x[j], b->x[j]);
}

/* out = a x b; out must not alias a or b.  tmp is scratch. */
static void qv_cross(qvec *out, const qvec *a, const qvec *b, mpq_t tmp)
{
    for (int j = 0; j < 3; j++) {
        int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        mpq_mul(out->x[j], a->x[j1], b->x[j2]);
        mpq_mul(tmp, a->x[j2], b->x[j1]);
        mpq_sub(out->x[j], out->x[j], tmp);
    }
}

static void qv_dot(mpq_t out, const qvec *a, const qvec *b, mpq_t tmp)
{
    mpq_mul(out, a->x[0], b->x[0]);
    for (int j = 1; j < 3; j++) {
        mpq_mul(tmp, a->x[j], b->x[j]);
        mpq_add(out, out, tmp);
    }
}

static int qv_is_zero(const qvec *a)
{
    return mpq_sgn(a->x[0]) == 0 && mpq_sgn(a->x[1]) == 0 && mpq_sgn(a->x[2]) == 0;
}

/* About log2 |q| (within 1) for q != 0. */
static long q_log2(const mpq_t q)
{
    return (long)mpz_sizeinbase(mpq_numref(q), 2) - (long)mpz_sizeinbase(mpq_denref(q), 2);
}

/* Row i of T: coef . x <= rhs (or = rhs), scaled by a power of two so that
 * its largest entry is near 1 (a row and its positive multiple are the
 * same constraint).  coef and rhs are changed.  0, or -1 with *why. */
static int set_row(hs_poly *T, int i, qvec *coef, mpq_t rhs, int eq, const char **why)
{
    mpq_ptr e[4] = {coef->x[0], coef->x[1], coef->x[2], rhs};
    long top = 0;
    int any = 0;
    for (int j = 0; j < 4; j++)
        if (mpq_sgn(e[j]) != 0) {
            long l = q_log2(e[j]);
            top = (!any || l > top) ? l : top;
            any = 1;
        }
    for (int j = 0; j < 4; j++) {
        if (top > 0)
            mpq_div_2exp(e[j], e[j], (mp_bitcnt_t)top);
        else
            mpq_mul_2exp(e[j], e[j], (mp_bitcnt_t)-top);
        if (hpoly_set_q(T, i, j, e[j], why) != 0)
            return -1;
    }
    T->eq[i] = (unsigned char)(eq != 0);
    return 0;
}

/* Scratch of the builders: the corners and a few vectors. */
typedef struct tri_exact {
    qvec p[3];
    qvec d[3];
    qvec row;
    mpq_t rhs, tmp;
} tri_exact;

/* Plane n . x = n . v0 with n = (v1 - v0) x (v2 - v0) != 0, and for each
 * edge the row (e_k x n) . x <= (e_k x n) . v_k (outward: at the opposite
 * corner it reads -|n|^2 < 0 relative to v_k). */
static int build_triangle(hs_poly *T, tri_exact *s, const char **why)
{
    const qvec *n = &s->d[2];
    for (int j = 0; j < 3; j++)
        mpq_set(s->row.x[j], n->x[j]);
    qv_dot(s->rhs, n, &s->p[0], s->tmp);
    if (set_row(T, 0, &s->row, s->rhs, 1, why) != 0)
        return -1;
    for (int k = 0; k < 3; k++) {
        qvec edge;
        qv_init(&edge, 1);
        qv_sub(&edge, &s->p[(k + 1) % 3], &s->p[k]);
        qv_cross(&s->row, &edge, n, s->tmp);
        qv_clear(&edge, 1);
        qv_dot(s->rhs, &s->row, &s->p[k], s->tmp);
        if (set_row(T, 1 + k, &s->row, s->rhs, 0, why) != 0)
            return -1;
    }
    return 0;
}

/* The open segment from p to q (distinct, differing along axis j0):
 * d_j0 x_j - d_j x_j0 = d_j0 p_j - d_j p_j0 for the two other axes,
 * d . x <= d . q and -d . x <= -d . p. */
static int build_segment(hs_poly *T, tri_exact *s, int ip, int iq, int j0, const char **why)
{
    qvec *d = &s->d[0];
    qv_sub(d, &s->p[iq], &s->p[ip]);
    int row = 0;
    for (int j = 0; j < 3; j++) {
        if (j == j0)
            continue;
        for (int l = 0; l < 3; l++)
            mpq_set_ui(s->row.x[l], 0, 1);
        mpq_set(s->row.x[j], d->x[j0]);
        mpq_neg(s->row.x[j0], d->x[j]);
        qv_dot(s->rhs, &s->row, &s->p[ip], s->tmp);
        if (set_row(T, row++, &s->row, s->rhs, 1, why) != 0)
            return -1;
    }
    for (int side = 0; side < 2; side++) {
        for (int l = 0; l < 3; l++) {
            mpq_set(s->row.x[l], d->x[l]);
            if (side)
                mpq_neg(s->row.x[l], s->row.x[l]);
        }
        qv_dot(s->rhs, &s->row, &s->p[side ? ip : iq], s->tmp);
        if (set_row(T, row++, &s->row, s->rhs, 0, why) != 0)
            return -1;
    }
    return 0;
}

static int build_point(hs_poly *T, tri_exact *s, const char **why)
{
    for (int j = 0; j < 3; j++) {
        for (int l = 0; l < 3; l++)
            mpq_set_ui(s->row.x[l], l == j, 1);
        mpq_set(s->rhs, s->p[0].x[j]);
        if (set_row(T, j, &s->row, s->rhs, 1, why) != 0)
            return -1;
    }
    return 0;
}

/* Collinear corners, not all equal: the segment between the extremes
 * along an axis on which they differ. */
static int build_degenerate(hs_poly **T, tri_exact *s, const double t[3][3], const char **why)
{
    int j0 = 0;
    while (j0 < 3 && t[0][j0] == t[1][j0] && t[0][j0] == t[2][j0])
        j0++;
    if (j0 == 3) {
        *T = hpoly_alloc(3, 3, "triangle (a point)");
        return *T ? build_point(*T, s, why) : -2;
    }
    int ip = 0, iq = 0;
    for (int k = 1; k < 3; k++) {
        ip = t[k][j0] < t[ip][j0] ? k : ip;
        iq = t[k][j0] > t[iq][j0] ? k : iq;
    }
    *T = hpoly_alloc(3, 4, "triangle (a segment)");
    return *T ? build_segment(*T, s, ip, iq, j0, why) : -2;
}

/* The triangle as an exact polytope in *out. */
static hs_code exact_triangle(const double t[3][3], hs_poly **out, hs_error *err)
{
    tri_exact s;
    qv_init(s.p, 3);
    qv_init(s.d, 3);
    qv_init(&s.row, 1);
    mpq_inits(s.rhs, s.tmp, NULL);
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            mpq_set_d(s.p[k].x[j], t[k][j]);
    qv_sub(&s.d[0], &s.p[1], &s.p[0]);
    qv_sub(&s.d[1], &s.p[2], &s.p[0]);
    qv_cross(&s.d[2], &s.d[0], &s.d[1], s.tmp);
    hs_poly *T = NULL;
    const char *why = "out of memory";
    int rc;
    if (qv_is_zero(&s.d[2])) {
        rc = build_degenerate(&T, &s, t, &why);
    } else {
        T = hpoly_alloc(3, 4, "triangle");
        rc = T ? build_triangle(T, &s, &why) : -2;
    }
    qv_clear(s.p, 3);
    qv_clear(s.d, 3);
    qv_clear(&s.row, 1);
    mpq_clears(s.rhs, s.tmp, NULL);
    *out = T;
    if (rc == 0)
        return HS_OK;
    hs_poly_free(T);
    *out = NULL;
    if (rc == -2 || strcmp(why, "out of memory") == 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    return err_set(err, HS_ERR_UNSUPPORTED,
                   "triangle against polytope: a row of the exact triangle is out of the "
                   "double range (%s)", why);
}

static hs_code exact_answer(tri_convex_work *w, const double t[3][3], const hs_poly *P,
                            hs_status *status, double witness[3], hs_error *err)
{
    if (!w->res && !(w->res = hs_result_new()))
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_poly *T;
    hs_code rc = exact_triangle(t, &T, err);
    if (rc != HS_OK)
        return rc;
    rc = classify_pair(P, T, w->res, err);
    hs_poly_free(T);
    if (rc != HS_OK)
        return rc;
    *status = w->res->status;
    if (witness && *status != HS_DISJOINT && w->res->has_point)
        result_point_near(w->res, witness);
    return HS_OK;
}

/* ------------------------------------------------------------- public */

static int finite_triangle(const double t[3][3])
{
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            if (!isfinite(t[k][j]))
                return 0;
    return 1;
}

hs_code tri_convex_classify(tri_convex_work *w, const double t[3][3], const hs_poly *P,
                            hs_status *status, double witness[3], int *fell_back,
                            hs_error *err)
{
    if (fell_back)
        *fell_back = 0;
    if (!w || !t || !P || !status || P->n != 3 || !finite_triangle(t))
        return err_set(err, HS_ERR_ARG, "triangle against polytope: bad arguments "
                                        "(dimension 3 and finite corners needed)");
    if (fast_eligible(P)) {
        if (tc_reserve(w, P->m) != 0)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        tc_query q = {.w = w, .v = t, .P = P, .m = P->m};
        /* the row orders seeded from the query (its triangle and the
         * polytope's size and first row): the same answer and witness
         * whatever this scratch classified before */
        w->rng = rng_seed_of(0x2545f4914f6cdd1dULL ^ (uint64_t)P->m, &t[0][0], 9);
        w->rng = rng_seed_of(w->rng, hpoly_row(P, 0), 3);
        if (fast_path(&q, status)) {
            if (*status != HS_DISJOINT && witness)
                point_of(&q, witness);
            return HS_OK;
        }
    }
    if (fell_back)
        *fell_back = 1;
    return exact_answer(w, t, P, status, witness, err);
}
