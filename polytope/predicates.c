/* predicates.c -- filtered exact signs (see predicates.h). */
#include "polytope/predicates.h"

#include <gmp.h>
#include <math.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/det_exact.h"
#include "polytope/det_int.h"
#include "polytope/expansion.h"
#include "polytope/fp.h"
#include "polytope/pred_filters.h"

#define UNIT_ROUNDOFF FP_U

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

static int sign_of(double v) { return (v > 0) - (v < 0); }

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

/* Error bounds as multiples of u times the computed permanent:
 *  2x2: two rounded products and a subtraction: (2u + u^2) perm; 3u.
 *  3x3: minors carry (2u + u^2), times an entry (+u), three terms summed
 *       (+2u): at most (7u + O(u^2)) perm, and the permanent itself is
 *       computed with five roundings: 8u covers both.
 * (4x4 determinants go through pred_det4_rows, below.) */
static const double det_bound_factor[4] = {0, 0, 3, 8};

/* Rows and columns of M (k*k) with a single nonzero entry expanded away,
 * exactly: det M = (-1)^(i+j) m_ij det(M without row i and column j)
 * (positions in what is left), until none is left.  The rest goes to R
 * (*kr x *kr, row-major) and the sign the expansions contribute is
 * returned; 0 when a row or column is all zero (det M = 0).  Bases with
 * box bounds are made of such rows (unit vectors): in many variables the
 * determinants of a certificate shrink to a few rows of the polyhedra. */
static int det_sparse_reduce(const double *M, int k, double *R, int *kr)
{
    int row[PRED_MAX_K], col[PRED_MAX_K], size = k, sign = 1;
    for (int i = 0; i < k; i++)
        row[i] = col[i] = i;
    for (int changed = 1; changed && size > 0;) {
        changed = 0;
        for (int pass = 0; pass < 2 && !changed; pass++) /* rows, then columns */
            for (int a = 0; a < size && !changed; a++) {
                int count = 0, at = -1;
                for (int b = 0; b < size; b++) {
                    double v = pass == 0 ? M[row[a] * k + col[b]] : M[row[b] * k + col[a]];
                    if (v != 0) {
                        count++;
                        at = b;
                    }
                }
                if (count == 0)
                    return 0;
                if (count > 1)
                    continue;
                int i = pass == 0 ? a : at, j = pass == 0 ? at : a;
                if (M[row[i] * k + col[j]] < 0)
                    sign = -sign;
                if ((i + j) % 2)
                    sign = -sign;
                for (int c = i; c + 1 < size; c++)
                    row[c] = row[c + 1];
                for (int c = j; c + 1 < size; c++)
                    col[c] = col[c + 1];
                size--;
                changed = 1;
            }
    }
    for (int a = 0; a < size; a++)
        for (int b = 0; b < size; b++)
            R[a * size + b] = M[row[a] * k + col[b]];
    *kr = size;
    return sign;
}

/* ------------------------------------------ short entries, exactly
 *
 * When a determinant's entries are short (integers times powers of two,
 * a few dozen bits per column: boxes at integer or dyadic positions, the
 * normals of axis-aligned faces, rows scaled to integers), det_int.c
 * evaluates it exactly in 128-bit integers, and exact zeros (contacts)
 * cost a few dozen operations instead of an exact expansion.  The filters
 * below run first, as they settle nonzero determinants more cheaply. */

static int det4_rows_sign(const double *r0, const double *r1, const double *r2,
                          const double *r3, int *filtered);
static int det4_expansion_sign(const double *const r[4]);
static int det3_expansion_sign(const double *M);

int pred_det_sign(const double *M, int k, pred_stats *st)
{
    if (k == 1) {
        if (st)
            st->filtered++;
        return sign_of(M[0]);
    }
    if (k == 4) {
        for (int i = 0; i < 16; i++)
            if (!isfinite(M[i]))
                return -2;
        int filtered;
        int s = det4_rows_sign(M, M + 4, M + 8, M + 12, &filtered);
        if (st)
            filtered ? st->filtered++ : st->exact++;
        return s;
    }
    if (k <= 3 && entries_safe(M, k * k)) {
        static const int r3[3] = {0, 1, 2}, c3[3] = {0, 1, 2};
        double mag, v;
        if (k == 2)
            v = det2(M, 2, 0, 1, 0, 1, &mag);
        else
            v = det3(M, 3, r3, c3, &mag);
        double bound = det_bound_factor[k] * UNIT_ROUNDOFF * mag;
        if (v > bound || v < -bound || mag == 0) {
            if (st)
                st->filtered++;
            return mag == 0 ? 0 : sign_of(v);
        }
    }
    if (k > 4) { /* unit rows and columns (box bounds) first, exactly */
        for (int i = 0; i < k * k; i++)
            if (!isfinite(M[i]))
                return -2;
        double R[PRED_MAX_K * PRED_MAX_K];
        int kr = 0, sg = k <= PRED_MAX_K ? det_sparse_reduce(M, k, R, &kr) : 2;
        if (sg == 0) {
            if (st)
                st->filtered++;
            return 0;
        }
        if (sg != 2 && kr < k) {
            int s = kr == 0 ? 1 : pred_det_sign(R, kr, st);
            return s == -2 ? -2 : sg * s;
        }
    }
    if (k <= 3) { /* short numbers: exactly in integers */
        int s = det_int_sign(M, k, k);
        if (s != 2) {
            if (st)
                st->filtered++;
            return s;
        }
    }
    if (st)
        st->exact++;
    if (k == 3 && XP_RELIABLE) { /* exactly, by expansions */
        int s = det3_expansion_sign(M);
        if (s != 2)
            return s;
    }
    if (k <= 2) { /* exactly, as the 4x4 determinant of diag(M, I) */
        double R[16] = {0};
        int finite = 1;
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++) {
                R[4 * i + j] = M[k * i + j];
                finite = finite && isfinite(M[k * i + j]);
            }
        for (int i = k; i < 4; i++)
            R[4 * i + i] = 1;
        const double *const rows[4] = {R, R + 4, R + 8, R + 12};
        int s = finite && XP_RELIABLE ? det4_expansion_sign(rows) : 2;
        if (s != 2)
            return s;
    }
    return det_exact_sign(M, k);
}

/* ------------------------------------ orientation, 3x3 and 4x4 determinants
 *
 * Stages, each exact when it answers.
 *
 * A. Floating point with a static error bound.  pred_orient3d evaluates
 *    the classic 3x3 determinant of differences and accepts its sign when
 *    it exceeds Shewchuk's bound (7 + 56u) u * permanent, u = 2^-53; the
 *    magnitudes are first checked so that no product can overflow and
 *    underflow cannot matter.  When that fails, two equal points answer 0,
 *    and the same evaluation is tried with each other point as the base
 *    (orient3d_filter: clusters of nearby points).  pred_det4_rows expands
 *    a 4x4 determinant by the 2x2 minors of its first two and last two
 *    columns; a first-order error analysis gives |error| <= (10u +
 *    O(u^2)) * P, P = sum of |minor products| taken with absolute values
 *    everywhere, and 12u * fl(P) covers it together with the rounding of P
 *    itself.  When that fails, det4_reduced_filter subtracts from the last
 *    row its floating-point combination of the others, exactly, and
 *    evaluates again with a bound relative to the small remainder (nearly
 *    dependent rows: planes through nearly one point).
 *
 * B. Exact expansions (polytope/expansion.c), no allocation.  For
 *    orient3d, with a base point whose differences to two others are exact
 *    doubles (Two-Diff has no residual: always for nearby points,
 *    Sterbenz's lemma, and for integer or dyadic data), the determinant is
 *    a cross product of exact differences dotted with the third difference
 *    (at most 48 components; orient3d_diff_expansion).  Otherwise, and for
 *    every 4x4 determinant, the Laplace expansion by 2x2 minors is formed
 *    exactly after scaling each column by a power of two (a positive
 *    factor: the sign is kept) so that its largest entry lies just below
 *    2^250; see det4_expansion_sign for the ranges this covers (every
 *    entry within about 2^+-500 of the others in its column, and more).
 *    An exactly zero determinant (coplanar points) comes out as the empty
 *    expansion, as cheaply as any other.
 *
 * C. GMP, only for inputs whose spread of magnitudes could make an
 *    expansion underflow (entries spanning more than about 2^600 within a
 *    column, several such columns), checked up front. */

/* (ORIENT_ERR, ORIENT_PERM_MIN: pred_filters.h) */

/* out = det of the 3x3 row-major matrix e (t1, t2 scratch). */
void pred_det3_q(mpq_t out, mpq_t *e, mpq_t t1, mpq_t t2)
{
    mpq_mul(t1, e[4], e[8]);
    mpq_mul(t2, e[5], e[7]);
    mpq_sub(t1, t1, t2);
    mpq_mul(out, e[0], t1);
    mpq_mul(t1, e[3], e[8]);
    mpq_mul(t2, e[5], e[6]);
    mpq_sub(t1, t1, t2);
    mpq_mul(t1, e[1], t1);
    mpq_sub(out, out, t1);
    mpq_mul(t1, e[3], e[7]);
    mpq_mul(t2, e[4], e[6]);
    mpq_sub(t1, t1, t2);
    mpq_mul(t1, e[2], t1);
    mpq_add(out, out, t1);
}

/* Sign of det[a - d; b - d; c - d] with GMP rationals (stage C). */
static int orient3d_exact(const double *a, const double *b, const double *c, const double *d)
{
    mpq_t e[9], x, y, det;
    const double *p[3] = {a, b, c};
    mpq_inits(x, y, det, NULL);
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 3; j++) {
            mpq_init(e[3 * r + j]);
            mpq_set_d(x, p[r][j]);
            mpq_set_d(y, d[j]);
            mpq_sub(e[3 * r + j], x, y);
        }
    pred_det3_q(det, e, x, y);
    int s = mpq_sgn(det);
    for (int i = 0; i < 9; i++)
        mpq_clear(e[i]);
    mpq_clears(x, y, det, NULL);
    return s;
}

/* Stage B of orient3d.  With p one of the four points and q1, q2, q3 the
 * others in their order, subtracting p's row from the others in
 * det[a 1; b 1; c 1; d 1] = det[a - d; b - d; c - d] gives
 *   det[a - d; b - d; c - d] = s_p det[q1 - p; q2 - p; q3 - p],
 * s_p = +1 for p = d or b, -1 for p = a or c.  Inputs lie in [2^-250,
 * 2^250] (or are 0): differences and their Two-Diff residuals are
 * multiples of 2^-302 below 2^251, products of three are multiples of
 * 2^-906 below 2^760, so every step below is exact.
 *
 * The base p is chosen so that its differences to two of the others are
 * exact doubles (Two-Diff leaves no residual: always for nearby points,
 * by Sterbenz's lemma, and for integer or dyadic data).  With rows x, y
 * exact and z = z_hi + z_lo (a cyclic shift of the three rows, which
 * keeps the determinant), det = (x X y) . z_hi + (x X y) . z_lo: the
 * cross product is three exact 2x2 minors (at most 4 components each),
 * and the sum has at most 48 components (24 when z is exact).  Returns 2
 * when no base has two exact differences. */
static int orient3d_diff_expansion(const double *const pt[4])
{
    /* diff[i][j], i < j: pt[j] - pt[i] rounded, tail[i][j] its residual */
    double diff[4][4][3], tail[4][4][3];
    int exact[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) {
            exact[i][j] = 1;
            for (int k = 0; k < 3; k++) {
                xp_two_diff(pt[j][k], pt[i][k], &diff[i][j][k], &tail[i][j][k]);
                exact[i][j] = exact[i][j] && tail[i][j][k] == 0;
            }
            exact[j][i] = exact[i][j];
        }
    /* base p = d first (the classic form), then a, b, c */
    static const int order[4] = {3, 0, 1, 2};
    for (int pass = 0; pass < 2; pass++)
        for (int oi = 0; oi < 4; oi++) {
            int p = order[oi], q[3], n = 0, nexact = 0, inexact = -1;
            for (int i = 0; i < 4; i++)
                if (i != p) {
                    if (exact[p][i])
                        nexact++;
                    else
                        inexact = n;
                    q[n++] = i;
                }
            if (nexact < 3 - pass)
                continue;
            /* rows r[0..2] = pt[q] - pt[p], rotated so that the inexact
             * one (if any) comes last */
            double row[3][3], low[3] = {0, 0, 0};
            int shift = inexact < 0 ? 0 : inexact + 1;
            for (int r = 0; r < 3; r++) {
                int qi = q[(r + shift) % 3];
                double sg = qi > p ? 1 : -1; /* diff is stored for i < j */
                int i = p < qi ? p : qi, j = p < qi ? qi : p;
                for (int k = 0; k < 3; k++) {
                    row[r][k] = sg * diff[i][j][k];
                    if (r == 2)
                        low[k] = sg * tail[i][j][k];
                }
            }
            double m[3][4], t[6][8], u[2][48];
            int ml[3], tl[6];
            ml[0] = xp_prod_diff(row[0][1], row[1][2], row[0][2], row[1][1], m[0]);
            ml[1] = xp_prod_diff(row[0][2], row[1][0], row[0][0], row[1][2], m[1]);
            ml[2] = xp_prod_diff(row[0][0], row[1][1], row[0][1], row[1][0], m[2]);
            for (int k = 0; k < 3; k++) {
                tl[k] = xp_scale(ml[k], m[k], row[2][k], t[k]);
                tl[3 + k] = xp_scale(ml[k], m[k], low[k], t[3 + k]);
            }
            int len = 0, cur = 0;
            for (int k = 0; k < 6; k++) {
                len = xp_sum(len, u[cur], tl[k], t[k], u[1 - cur]);
                cur = 1 - cur;
            }
            int s = xp_sign(len, u[cur]);
            return p == 0 || p == 2 ? -s : s;
        }
    return 2;
}

/* det[a - d; b - d; c - d] in floating point: its sign when it exceeds
 * the error bound, 2 otherwise (inputs in the filter range). */
static int orient3d_float(const double *a, const double *b, const double *c, const double *d)
{
    double adx = a[0] - d[0], ady = a[1] - d[1], adz = a[2] - d[2];
    double bdx = b[0] - d[0], bdy = b[1] - d[1], bdz = b[2] - d[2];
    double cdx = c[0] - d[0], cdy = c[1] - d[1], cdz = c[2] - d[2];
    double bc = bdx * cdy, cb = cdx * bdy, ca = cdx * ady;
    double ac = adx * cdy, ab = adx * bdy, ba = bdx * ady;
    double det = adz * (bc - cb) + bdz * (ca - ac) + cdz * (ab - ba);
    double perm = (fabs(bc) + fabs(cb)) * fabs(adz) + (fabs(ca) + fabs(ac)) * fabs(bdz) +
                  (fabs(ab) + fabs(ba)) * fabs(cdz);
    if (perm >= ORIENT_PERM_MIN) {
        double bound = ORIENT_ERR * perm;
        if (det > bound)
            return 1;
        if (-det > bound)
            return -1;
    }
    return 2;
}

/* Stage A of orient3d_below: the sign of det[a - d; b - d; c - d] when
 * a floating-point evaluation decides it, 2 otherwise; *in_range tells
 * whether every input lies in [FILTER_MIN, FILTER_MAX] (or is 0).
 *
 * The bound is relative to the permanent of the differences to the base
 * point d, which is large when d lies far from the other three even if
 * their triangle is tiny (three points within 1e-16 of each other and a
 * far fourth: a cluster), while the determinant is then tiny.  Taking
 * another point as the base keeps the error relative to the small
 * differences, so when d's evaluation cannot decide, a, b and c are tried
 * as bases in turn: with p the base and q1, q2, q3 the others in order,
 * det[a - d; b - d; c - d] = s_p det[q1 - p; q2 - p; q3 - p], s_p = -1
 * for p = a or c and +1 for p = b (see orient3d_diff_expansion).  Before
 * that, two equal points answer 0 at once. */
static int orient3d_filter(const double *a, const double *b, const double *c, const double *d,
                           int *in_range)
{
    const double all[12] = {a[0], a[1], a[2], b[0], b[1], b[2],
                            c[0], c[1], c[2], d[0], d[1], d[2]};
    *in_range = filter_range_ok(all, 12);
    if (!*in_range)
        return 2;
    int s = orient3d_float(a, b, c, d);
    if (s != 2)
        return s;
    /* two equal points make the determinant exactly zero (common: the
     * repeated corners of a triangle soup) */
    const double *p[4] = {a, b, c, d};
    for (int i = 0; i < 4; i++)
        for (int k = i + 1; k < 4; k++)
            if (p[i][0] == p[k][0] && p[i][1] == p[k][1] && p[i][2] == p[k][2])
                return 0;
    s = orient3d_float(b, c, d, a);
    if (s != 2)
        return -s;
    s = orient3d_float(a, c, d, b);
    if (s != 2)
        return s;
    s = orient3d_float(a, b, d, c);
    return s == 2 ? 2 : -s;
}

/* Sign of det[a - d; b - d; c - d] (positive when d is below the plane of
 * a, b, c with the normal (b - a) x (c - a)). */
static int orient3d_below(const double *a, const double *b, const double *c, const double *d)
{
    int in_range, s = orient3d_filter(a, b, c, d, &in_range);
    if (s != 2)
        return s;
    if (XP_RELIABLE && in_range) {
        const double *const pt[4] = {a, b, c, d};
        s = orient3d_diff_expansion(pt);
        if (s != 2)
            return s;
    }
    if (XP_RELIABLE) {
        /* det[a - d; b - d; c - d] = det[a 1; b 1; c 1; d 1] */
        const double ra[4] = {a[0], a[1], a[2], 1}, rb[4] = {b[0], b[1], b[2], 1};
        const double rc[4] = {c[0], c[1], c[2], 1}, rd[4] = {d[0], d[1], d[2], 1};
        const double *const rows[4] = {ra, rb, rc, rd};
        s = det4_expansion_sign(rows);
        if (s != 2)
            return s;
    }
    return orient3d_exact(a, b, c, d);
}

int pred_orient3d(const double a[3], const double b[3], const double c[3], const double d[3])
{
    return -orient3d_below(a, b, c, d);
}

/* The 2-D orientation of the projections that drop axis k is the 3-D
 * orientation of those projections (in the plane z = 0) against the point
 * (0, 0, 1): the determinant equals the 2-D one exactly, and pred_orient3d
 * is exact for every finite double.  The three points are collinear
 * exactly when (b - a) x (c - a) = 0, whose components are these three
 * 2-D orientations. */
int pred_collinear3(const double a[3], const double b[3], const double c[3])
{
    static const double up[3] = {0, 0, 1};
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        const double pa[3] = {a[i], a[j], 0}, pb[3] = {b[i], b[j], 0}, pc[3] = {c[i], c[j], 0};
        if (pred_orient3d(pa, pb, pc, up) != 0)
            return 0;
    }
    return 1;
}

/* Exact 4x4 determinant of rows r[0..3] (each 4 rationals), by the 2x2
 * minors of columns (0,1) and (2,3).  The six pairs below are listed with
 * their complementary pairs and Laplace signs. */
/* (det4_pair, det4_pair_sign: pred_filters.h) */

static int det4_sign_q(mpq_t *r[4])
{
    mpq_t m, n, t, sum;
    mpq_inits(m, n, t, sum, NULL);
    for (int k = 0; k < 6; k++) {
        const int *p = det4_pair(k);
        mpq_mul(m, r[p[0]][0], r[p[1]][1]);
        mpq_mul(t, r[p[1]][0], r[p[0]][1]);
        mpq_sub(m, m, t);
        mpq_mul(n, r[p[2]][2], r[p[3]][3]);
        mpq_mul(t, r[p[3]][2], r[p[2]][3]);
        mpq_sub(n, n, t);
        mpq_mul(m, m, n);
        if (det4_pair_sign(k) > 0)
            mpq_add(sum, sum, m);
        else
            mpq_sub(sum, sum, m);
    }
    int s = mpq_sgn(sum);
    mpq_clears(m, n, t, sum, NULL);
    return s;
}

int pred_det4_sign_q(mpq_t *r0, mpq_t *r1, mpq_t *r2, mpq_t *r3)
{
    mpq_t *r[4] = {r0, r1, r2, r3};
    return det4_sign_q(r);
}

/* Exact sign for double entries, in integers: column j is scaled by
 * 2^-E_j (E_j the lowest exponent of its entries' last mantissa bits), a
 * positive factor that leaves the sign alone and makes every entry an
 * integer, so no fraction (and no gcd) is ever formed. */
static int det4_exact(const double *const r[4])
{
    mpz_t z[4][4], m, n, t, sum;
    int low[4];
    for (int j = 0; j < 4; j++) {
        low[j] = INT_MAX;
        for (int i = 0; i < 4; i++) {
            int e;
            if (r[i][j] != 0) {
                frexp(r[i][j], &e);
                low[j] = e - 53 < low[j] ? e - 53 : low[j];
            }
        }
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            int e;
            double f = frexp(r[i][j], &e); /* r = f 2^e, f 2^53 an integer */
            mpz_init_set_d(z[i][j], ldexp(f, 53));
            if (r[i][j] != 0)
                mpz_mul_2exp(z[i][j], z[i][j], (mp_bitcnt_t)(e - 53 - low[j]));
        }
    mpz_inits(m, n, t, sum, NULL);
    for (int k = 0; k < 6; k++) { /* Laplace along the first two columns */
        const int *p = det4_pair(k);
        mpz_mul(m, z[p[0]][0], z[p[1]][1]);
        mpz_submul(m, z[p[1]][0], z[p[0]][1]);
        mpz_mul(n, z[p[2]][2], z[p[3]][3]);
        mpz_submul(n, z[p[3]][2], z[p[2]][3]);
        mpz_mul(t, m, n);
        if (det4_pair_sign(k) > 0)
            mpz_add(sum, sum, t);
        else
            mpz_sub(sum, sum, t);
    }
    int sign = mpz_sgn(sum);
    mpz_clears(m, n, t, sum, NULL);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            mpz_clear(z[i][j]);
    return sign;
}

/* frexp's exponent of a finite nonzero x (0.5 <= |x| 2^-e < 1), from its
 * bits (libm's frexp is a call). */
static inline int exponent_of(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int E = (int)(bits >> 52 & 0x7ff);
    if (E != 0)
        return E - 1022;
    return -1010 - __builtin_clzll(bits & 0xfffffffffffffull); /* subnormal */
}

/* x 2^k, exact whenever that value is a double (as in the callers below,
 * whose scaled entries are multiples of 2^-1074 under 2^1023): one or two
 * multiplications by normal powers of two (k >= -1022 here). */
static inline double times_pow2(double x, int k)
{
    uint64_t bits;
    double p;
    if (k > 1023) {
        bits = (uint64_t)(1023 + 1023) << 52;
        memcpy(&p, &bits, sizeof p);
        x *= p;
        k -= 1023;
    }
    bits = (uint64_t)(k + 1023) << 52;
    memcpy(&p, &bits, sizeof p);
    return x * p;
}

/* Column scaling of the expansion stage: each column is multiplied by
 * 2^(DET4_TOP - e_j), e_j the exponent of its largest entry (|x| < 2^e_j),
 * so its entries lie below 2^DET4_TOP.  A column whose entries have
 * exponents e_j down to f_j is then made of multiples of 2^(DET4_TOP -
 * w_j), w_j = e_j - f_j + 53 its width in bits (every double x with
 * frexp exponent f is a multiple of 2^(f - 53)).  Products of one entry
 * per column stay below 2^(4 DET4_TOP), and the six minor products with
 * the running sums below 2^(4 DET4_TOP + 6) < 2^1023; they are multiples
 * of 2^-1074 (so every fma residual and every Two-Sum is exact, even
 * among subnormals) when
 *   every w_j <= DET4_TOP + 1074             (the scaled entries),
 *   w_0 + w_1 and w_2 + w_3 <= 2 DET4_TOP + 1074  (the 2x2 minors),
 *   w_0 + w_1 + w_2 + w_3 <= 4 DET4_TOP + 1074    (their products).
 * With DET4_TOP = 250 the sum of the widths may reach 2074 bits. */
#define DET4_TOP 250

/* The column scaling of the expansions below, for the k x k matrix of
 * rows r[0 .. k): each column j multiplied by 2^(top_exp - e_j), e_j the
 * exponent of its largest entry, into m (k * k, row-major); width[j] the
 * column's width in bits (e_j - f_j + 53, f_j its smallest exponent).
 * 1 done; 0 a zero column (the determinant is 0); 2 an entry that is not
 * finite or a column wider than top_exp + 1074 (m then unset). */
static int scale_columns(const double *const *r, int k, int top_exp, double *m, int *width)
{
    int top[4];
    for (int j = 0; j < k; j++) {
        int hi = INT_MIN, lo = INT_MAX;
        for (int i = 0; i < k; i++) {
            double x = r[i][j];
            if (x == 0)
                continue;
            if (!isfinite(x))
                return 2;
            int e = exponent_of(x);
            hi = e > hi ? e : hi;
            lo = e < lo ? e : lo;
        }
        if (hi == INT_MIN)
            return 0; /* a zero column */
        top[j] = hi;
        width[j] = hi - lo + 53;
        if (width[j] > top_exp + 1074)
            return 2;
    }
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            m[k * i + j] = times_pow2(r[i][j], top_exp - top[j]);
    return 1;
}

/* Exact sign of det[r0; r1; r2; r3] by expansions (stage B); 2 when an
 * entry is not finite or the widths above are exceeded. */
static int det4_expansion_sign(const double *const r[4])
{
    int width[4];
    double m[16];
    int sc = scale_columns(r, 4, DET4_TOP, m, width);
    if (sc != 1)
        return sc;
    if (width[0] + width[1] > 2 * DET4_TOP + 1074 || width[2] + width[3] > 2 * DET4_TOP + 1074 ||
        width[0] + width[1] + width[2] + width[3] > 4 * DET4_TOP + 1074)
        return 2;
    double acc[2][192], lo2[4], hi2[4], prod[32], scratch[40];
    int len = 0, cur = 0;
    for (int k = 0; k < 6; k++) { /* Laplace along the first two columns */
        const int *p = det4_pair(k);
        int ll = xp_prod_diff(m[4 * p[0]], m[4 * p[1] + 1], m[4 * p[1]], m[4 * p[0] + 1], lo2);
        int hl = xp_prod_diff(m[4 * p[2] + 2], m[4 * p[3] + 3], m[4 * p[3] + 2], m[4 * p[2] + 3],
                              hi2);
        ll = xp_compress(ll, lo2, lo2);
        hl = xp_compress(hl, hi2, hi2);
        int pl = xp_mul(ll, lo2, hl, hi2, prod, scratch);
        pl = xp_compress(pl, prod, prod);
        if (det4_pair_sign(k) < 0)
            for (int i = 0; i < pl; i++)
                prod[i] = -prod[i];
        len = xp_sum(len, acc[cur], pl, prod, acc[1 - cur]);
        cur = 1 - cur;
    }
    return xp_sign(len, acc[cur]);
}

/* The same for a 3 x 3 (row-major M), by cofactors along column 0: each
 * column scaled by 2^(DET3_TOP - e_j) as above, the three 2 x 2 minors of
 * columns 1 and 2 exactly (at most 4 components), each times its entry of
 * column 0 (at most 8), summed (at most 24).  Products of one entry per
 * column stay below 2^(3 DET3_TOP), the sum below 2^(3 DET3_TOP + 3) <
 * 2^1023; every value is a multiple of 2^-1074 when every w_j <= DET3_TOP
 * + 1074, w_1 + w_2 <= 2 DET3_TOP + 1074 and w_0 + w_1 + w_2 <= 3 DET3_TOP
 * + 1074.  About a fifth of the 4 x 4 route through diag(M, I). */
#define DET3_TOP 330
static int det3_expansion_sign(const double *M)
{
    const double *const rows[3] = {M, M + 3, M + 6};
    int width[3];
    double m[9];
    int sc = scale_columns(rows, 3, DET3_TOP, m, width);
    if (sc != 1)
        return sc;
    if (width[1] + width[2] > 2 * DET3_TOP + 1074 ||
        width[0] + width[1] + width[2] > 3 * DET3_TOP + 1074)
        return 2;
    /* rows (r0, r1) of the minor, the row of column 0, its sign */
    static const int minor_rows[3][3] = {{1, 2, 0}, {0, 2, 1}, {0, 1, 2}};
    double acc[2][24], mn[4], term[8];
    int len = 0, cur = 0;
    for (int k = 0; k < 3; k++) {
        int r0 = minor_rows[k][0], r1 = minor_rows[k][1], r = minor_rows[k][2];
        int ml = xp_prod_diff(m[3 * r0 + 1], m[3 * r1 + 2], m[3 * r1 + 1], m[3 * r0 + 2], mn);
        ml = xp_compress(ml, mn, mn);
        int tl = xp_scale(ml, mn, k == 1 ? -m[3 * r] : m[3 * r], term);
        len = xp_sum(len, acc[cur], tl, term, acc[1 - cur]);
        cur = 1 - cur;
    }
    return xp_sign(len, acc[cur]);
}

/* Floating-point evaluation; returns 2 when the bound cannot decide. */
double pred_det4_expand(const double *const r[4], double *perm)
{
    double det = 0, pm = 0;
    for (int k = 0; k < 6; k++) {
        const int *p = det4_pair(k);
        double m1 = r[p[0]][0] * r[p[1]][1], m2 = r[p[1]][0] * r[p[0]][1];
        double n1 = r[p[2]][2] * r[p[3]][3], n2 = r[p[3]][2] * r[p[2]][3];
        double term = (m1 - m2) * (n1 - n2);
        det += det4_pair_sign(k) > 0 ? term : -term;
        pm += (fabs(m1) + fabs(m2)) * (fabs(n1) + fabs(n2));
    }
    *perm = pm;
    return det;
}

static int det4_filter(const double *const r[4])
{
    double perm, det = pred_det4_expand(r, &perm);
    if (perm == 0)
        return 0; /* every minor product is exactly zero (no underflow here) */
    double bound = DET4_ERR * perm + 0x1p-1040;
    if (det > bound)
        return 1;
    if (-det > bound)
        return -1;
    return 2;
}

/* Stage B of det4: a filter after an exact row operation.  When the rows
 * are nearly dependent (the determinant tiny against the permanent, as
 * for planes through nearly one point), the last row is reduced first:
 * with doubles alpha_i chosen so that alpha_0 r0 + alpha_1 r1 + alpha_2 r2
 * nearly equals r3 (Cramer's rule in floating point on the three columns
 * other than c*, the column of the largest cofactor),
 *   rho = r3 - alpha_0 r0 - alpha_1 r1 - alpha_2 r2
 * is formed with error-free transformations (nearly exactly) and
 *   det[r0; r1; r2; r3] = det[r0; r1; r2; rho] = sum_c rho_c C_c,
 * C_c the cofactors of r0, r1, r2 along the last row.  rho is small, so
 * its rounding errors no longer compare with the permanent of the
 * original rows.  Evaluated in floating point:
 *   rho^_c = s + e, s the running sum of r3_c and the products' rounded
 *            values by Two-Sum, e the sum of all the residuals (of the
 *            Two-Products and the Two-Sums) in floating point: rho_c =
 *            s + (exact sum of the residuals), so |rho_c - rho^_c| <= d_c
 *            = u |rho^_c| + gamma_8 sum|residuals|, far below |rho_c|;
 *            when every residual is 0, rho^_c is exact;
 *   C^_c   = the 3x3 minor in floating point: |error| <= k_c = 8u perm_c
 *            (the bound of pred_det_sign's 3x3);
 *   D^     = sum rho^_c C^_c: |error| <= gamma_4 sum |rho^_c C^_c|;
 * so |det - D^| <= B = gamma_4 sum|rho^_c C^_c| + sum (d_c |C^_c| +
 * |rho^_c| k_c + d_c k_c), taken with a factor (1 + 32u) for its own
 * rounding and 2^-1060 for products that underflow.  Entries and alphas
 * lie in [2^-200, 2^200] (or are 0): products stay below 2^1010, and the
 * Two-Product residuals are multiples of 2^-506, exact.  Returns the sign when
 * |D^| > B, and 0 when rho is exactly zero (r3 is then exactly a
 * combination of the other rows: common for small integer data); 2
 * otherwise (the determinant is below about 50 u^2 times |rho| |C|, or
 * the rows r0, r1, r2 are themselves degenerate). */
#define REDUCE_MIN 0x1p-200
#define REDUCE_MAX 0x1p+200

static int in_reduce_range(double x)
{
    double m = fabs(x);
    return m == 0 || (m >= REDUCE_MIN && m <= REDUCE_MAX);
}

static int det4_reduced_filter(const double *const r[4])
{
    double M[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            M[4 * i + j] = r[i][j];
            if (!in_reduce_range(r[i][j]))
                return 2;
        }
    static const int rows3[3] = {0, 1, 2};
    static const int cols_without[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    double C[4], kap[4];
    int best = 0;
    for (int c = 0; c < 4; c++) {
        double perm, m = det3(M, 4, rows3, cols_without[c], &perm);
        C[c] = c % 2 == 0 ? -m : m; /* (-1)^(c+1) M_c */
        kap[c] = 8 * UNIT_ROUNDOFF * perm;
        if (fabs(C[c]) > fabs(C[best]))
            best = c;
    }
    if (!(fabs(C[best]) > 0))
        return 2;
    /* alpha^T A = r3 on the columns J without c*: alpha_i = det(A with
     * row i replaced by r3_J) / det(A) */
    const int *J = cols_without[best];
    double alpha[3], perm;
    int rowsub[3];
    double denom = det3(M, 4, rows3, J, &perm);
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++)
            rowsub[k] = k == i ? 3 : k;
        alpha[i] = det3(M, 4, rowsub, J, &perm) / denom;
        if (!isfinite(alpha[i]) || !in_reduce_range(alpha[i]))
            return 2;
    }
    double D = 0, B = 0, mag = 0;
    int all_zero = 1;
    for (int c = 0; c < 4; c++) {
        /* rho_c = r3_c - sum alpha_i r_ic = s + (the six residuals of the
         * Two-Products and Two-Sums below), exactly */
        double s = M[12 + c], err = 0, err_abs = 0;
        for (int i = 0; i < 3; i++) {
            double p, q, t, u;
            xp_two_prod(-alpha[i], M[4 * i + c], &p, &q);
            xp_two_sum(s, p, &t, &u);
            s = t;
            err += q + u;
            err_abs += fabs(q) + fabs(u);
        }
        double rho = s + err;
        all_zero = all_zero && rho == 0 && err_abs == 0;
        /* |rho_c - rho| <= u |rho| + gamma_6 sum|residuals| (two rounded
         * sums of the residuals and one final rounding) */
        double d = UNIT_ROUNDOFF * fabs(rho) + fp_gamma(8) * err_abs;
        double t = rho * C[c];
        D += t;
        mag += fabs(t);
        B += d * fabs(C[c]) + fabs(rho) * kap[c] + d * kap[c];
    }
    if (all_zero) /* r3 is exactly a combination of the others */
        return 0;
    B = (B + fp_gamma(4) * mag) * (1 + 32 * UNIT_ROUNDOFF) + 0x1p-1060;
    if (D > B)
        return 1;
    if (-D > B)
        return -1;
    return 2;
}

static int det4_rows_sign(const double *r0, const double *r1, const double *r2,
                          const double *r3, int *filtered)
{
    const double *const r[4] = {r0, r1, r2, r3};
    int ok = 1;
    *filtered = 1;
    for (int i = 0; i < 4 && ok; i++)
        ok = filter_range_ok(r[i], 4);
    if (ok) {
        int s = det4_filter(r);
        if (s != 2)
            return s;
    }
    double all[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            all[4 * i + j] = r[i][j];
    int s = det_int_sign(all, 4, 4); /* short numbers: exactly in integers */
    if (s != 2)
        return s;
    *filtered = 0;
    if (XP_RELIABLE) {
        s = det4_reduced_filter(r);
        if (s == 2)
            s = det4_expansion_sign(r);
        if (s != 2)
            return s;
    }
    return det4_exact(r);
}

int pred_det4_rows(const double *r0, const double *r1, const double *r2, const double *r3)
{
    int filtered;
    return det4_rows_sign(r0, r1, r2, r3, &filtered);
}

int pred_cofactor_sign(const double *M, int k, int row, int col, pred_stats *st)
{
    double sub[16];
    if (k == 1)
        return 1;
    if (k - 1 > 4)
        return -2;
    for (int i = 0, r = 0; i < k; i++) {
        if (i == row)
            continue;
        for (int j = 0, c = 0; j < k; j++)
            if (j != col)
                sub[r * (k - 1) + c++] = M[i * k + j];
        r++;
    }
    int s = pred_det_sign(sub, k - 1, st);
    return s == -2 ? -2 : ((row + col) & 1 ? -s : s);
}
