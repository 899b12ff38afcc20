/* fast_star.c -- the certified inner star of a polyhedron (fast_star.h).
 *
 * The bound.  Let c be the certified interior point, S_i = b_i - a_i . c
 * > 0 its exact slack in row i and D_i = S_i / |a_i| the distance of the
 * row's plane.  A cell K of directions lies in the cap of unit vectors
 * within angle theta of e (e: the cell's center direction, normalised;
 * theta: the largest angle from e to a corner: the cap is convex and the
 * cell is the convex hull of its corners on the sphere).  For a unit u in
 * the cap and phi_i the angle between a_i and e,
 *     a_i . u <= |a_i| cos(max(0, phi_i - theta)),
 * so every point c + l u with
 *     l < rho_K = min_i D_i / cos(max(0, phi_i - theta))
 * is strictly inside every row (a row facing away from the whole cap never
 * binds).  The cap is kept in Euclidean length so that a cell's length
 * loses only what the polyhedron's own shape varies across it: the length
 * of a tangent-sphere polyhedron is its inradius in every cell holding a
 * facet normal.
 *
 * Rounding.  Every quantity is computed in doubles and then pushed the safe
 * way by a margin far above its rounding error:
 *  - S_i from below: the stored slack minus 2 (n + 2) u times its magnitude
 *    (the error bound of the slack's sum), |a_i| from above by 2^-40
 *    relative; magnitudes outside [2^-900, 2^900], where underflow would
 *    break relative bounds, give an empty star (every length 0);
 *  - cos theta lowered by 2^-30, and at most 1 - 2^-30: this widens the cap
 *    by more than any rounding of e, of the corners or of a query's own
 *    direction (a few u in angle);
 *  - the cosine bound raised by 2^-30: cos phi_i is off by a few u, and when
 *    phi_i > theta the sine sqrt(1 - cos^2) is off by a few u over
 *    2 sin phi_i >= 2^-15 (then cos phi_i < 1 - 2^-30): below 2^-30 too;
 *  - each length lowered by 2^-40 relative for its division, and stored
 *    as a float rounded down.
 * A query point x is tested by its computed w = x - c: the exact w is
 * within a few u of it in angle and in length, which the widened caps and
 * the test's factor (1 + 2^-40) cover.
 *
 * Making it.  A cell starts from the rows the direction map lists for its
 * center (those its ray crosses first, usually the binding ones).  With that length
 * L, a row can only lower it if its cosine bound exceeds D_min / L, where
 * D_min is the smallest D_i: only rows with cos phi_i above
 * kappa = cos(theta + acos(D_min / L - pad)) (lowered by 2^-20 for its
 * rounding) are computed; the others are provably no
 * nearer.  Most cells so cost one dot product per row. */
#include "solver/fast_star.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "polytope/fp.h"
#include "polytope/hpoly.h"
#include "polytope/mem.h"
#include "solver/seidel.h"

#define STAR_COS_PAD 0x1p-30
#define STAR_REL_PAD 0x1p-40
#define STAR_FIRST_ROWS 4 /* map rows that give a cell its first length */

static int star_safe(double v) { return v > 0x1p-900 && v < 0x1p+900; }

/* The cap of in-face cell f (every face's cells are the same up to a
 * permutation and signs of the axes: face 0's is computed): the cosine
 * and sine of its widened half-angle. */
static void star_cell_cap(int n, int g, int f, double *ct, double *st)
{
    double center[SEIDEL_MAX_DIM], len = 0, lowest = 1;
    fast_prep_cell_center(n, g, f, center); /* face 0: axis 0, positive */
    for (int j = 0; j < n; j++)
        len += center[j] * center[j];
    len = sqrt(len);
    for (int mask = 0; mask < (1 << (n - 1)); mask++) { /* corners: +-1/g off the center */
        double corner[SEIDEL_MAX_DIM], clen = 0, dot = 0;
        corner[0] = 1;
        for (int j = 1; j < n; j++)
            corner[j] = center[j] + ((mask >> (j - 1)) & 1 ? 1.0 / g : -1.0 / g);
        for (int j = 0; j < n; j++)
            clen += corner[j] * corner[j];
        clen = sqrt(clen);
        for (int j = 0; j < n; j++)
            dot += center[j] / len * (corner[j] / clen);
        lowest = fp_min(lowest, dot);
    }
    *ct = fp_min(lowest - STAR_COS_PAD, 1 - STAR_COS_PAD);
    *st = sqrt(1 - *ct * *ct);
}

/* The star: one small block, installed in the preparation: the least
 * plane distance and one length per cell, as a float rounded down (half
 * the memory; a shorter length is still a valid one).  Each cell's length
 * is made by the first lookup of that cell (most polyhedra are queried in
 * a few directions only) and stored atomically: threads that race compute
 * the same value. */
struct fast_star {
    double nearest; /* the least plane distance, from below */
    /* then star_cells lengths, _Atomic(float), negative: not made yet (at
     * star_cells(), so that a lookup reads the length's cache line only) */
};

static _Atomic(float) *star_cells(const struct fast_star *R)
{
    return (_Atomic(float) *)(R + 1);
}

/* Row i's plane distance from the center, from below (0 when magnitudes
 * leave the safe range: an empty star). */
static double star_row_reach(const fast_prep *fp, int i)
{
    double norm = fp->norm[i] * (1 + STAR_REL_PAD);
    double slack = fp->center_slack[i] - 2.0 * (fp->n + 2) * FP_U * fp->center_mag[i];
    if (!(fp->norm[i] > 0)) /* 0 . x <= b holds everywhere (b > 0 at the center) */
        return INFINITY;
    if (!star_safe(slack) || !star_safe(fp->center_mag[i]) || !star_safe(norm))
        return 0;
    return slack / norm * (1 - STAR_REL_PAD);
}

/* Row i's length bound for the cap (e, ct, st), cp = cos phi_i: its plane
 * distance over the cosine bound. */
static double star_row_length(const fast_prep *fp, int i, double cp, double ct, double st)
{
    double bound = cp >= ct ? 1 : cp <= -st ? 0 : cp * ct + sqrt(fp_max(0, 1 - cp * cp)) * st;
    return star_row_reach(fp, i) / (fp_max(bound, 0) + STAR_COS_PAD) * (1 - STAR_REL_PAD);
}

/* cos phi_i for the unit direction e. */
static double star_row_cos(const fast_prep *fp, int i, const double *e)
{
    const double *a = hpoly_row(fp->poly, i);
    double dot = 0;
    for (int j = 0; j < fp->n; j++)
        dot += a[j] * e[j];
    return fp->norm[i] > 0 ? dot / fp->norm[i] : 0;
}

/* The cosine above which a row can still lower length L (see the top):
 * cos(theta + beta) with cos beta = tau, by the angle-sum identity (theta
 * and beta in [0, pi/2] here); the sine sqrt(1 - tau^2) can be off by
 * sqrt(2u) < 2^-20 near tau = 1, hence the larger pad. */
static double star_row_cut(double nearest, double L, double ct, double st)
{
    double tau = nearest / L - STAR_COS_PAD;
    if (!(tau > 0))
        return -2; /* (every row) */
    if (tau >= 1)
        return 2; /* (none) */
    return ct * tau - st * sqrt(1 - tau * tau) - 0x1p-20;
}

static void *star_new(const fast_prep *fp)
{
    size_t bytes = sizeof(struct fast_star) + sizeof(_Atomic(float)) * (size_t)fp->star_cells;
    struct fast_star *R = mem_alloc(1, bytes);
    if (!R)
        return NULL;
    for (int c = 0; c < fp->star_cells; c++)
        atomic_init(&star_cells(R)[c], -1.0f);
    R->nearest = INFINITY;
    for (int i = 0; i < fp->m; i++)
        R->nearest = fp_min(R->nearest, star_row_reach(fp, i));
    return R;
}

/* The length of cell `cell` (see the top). */
static double star_cell_length(const fast_prep *fp, const struct fast_star *R, int cell)
{
    int n = fp->n, g = fp->star_g, per_face = fp->star_cells / (2 * n);
    if (!(R->nearest > 0))
        return 0;
    double e[SEIDEL_MAX_DIM], len = 0, best = INFINITY, ct, st;
    star_cell_cap(n, g, cell % per_face, &ct, &st);
    fast_prep_cell_center(n, g, cell, e);
    for (int j = 0; j < n; j++)
        len += e[j] * e[j];
    len = sqrt(len);
    for (int j = 0; j < n; j++)
        e[j] /= len;
    /* a first length from the rows the center's ray crosses first */
    int count = 0;
    const int *first = fast_prep_lookup(fp, e, &count);
    for (int c = 0; c < count && c < STAR_FIRST_ROWS; c++)
        best = fp_min(best, star_row_length(fp, first[c], star_row_cos(fp, first[c], e), ct, st));
    double cut = star_row_cut(R->nearest, best, ct, st);
    for (int i = 0; i < fp->m && cut < 2; i++) {
        double cp = star_row_cos(fp, i, e);
        if (cp <= cut)
            continue;
        double l = star_row_length(fp, i, cp, ct, st);
        if (l < best) {
            best = l;
            cut = star_row_cut(R->nearest, best, ct, st);
        }
    }
    return fp_min(best, 0x1p+100);
}

/* A length as a float no longer than it. */
static float star_float_below(double v)
{
    float f = (float)v;
    return (double)f > v ? nextafterf(f, 0) : f;
}

static const struct fast_star *star_of(const fast_prep *fp)
{
    fast_prep *mp = (fast_prep *)fp; /* only the atomic slot is written */
    return fp->star_cells ? fast_prep_lazy(fp, &mp->star, star_new) : NULL;
}

/* The length of the cell of direction d (0 without a star). */
static double star_length_of(const fast_prep *fp, const double *d, int cell)
{
    const struct fast_star *R = star_of(fp);
    if (!R)
        return 0;
    if (cell < 0)
        cell = fast_prep_cell(fp->n, fp->star_g, d);
    float rho = atomic_load_explicit(&star_cells(R)[cell], memory_order_relaxed);
    if (rho < 0) {
        rho = star_float_below(star_cell_length(fp, R, cell));
        atomic_store_explicit(&star_cells(R)[cell], rho, memory_order_relaxed);
    }
    return rho;
}

int fast_star_prefetch(const fast_prep *fp, const double *d)
{
    const struct fast_star *R = atomic_load_explicit(&((fast_prep *)fp)->star, memory_order_acquire);
    if (!R)
        return -1;
    int cell = fast_prep_cell(fp->n, fp->star_g, d);
    mem_prefetch(&star_cells(R)[cell]);
    return cell;
}

int fast_star_ready(const fast_prep *fp)
{
    return fp->star_cells == 0 || star_of(fp) ? 0 : -1;
}

double fast_star_reach(const fast_prep *fp, const double *d, int cell)
{
    double len = 0;
    for (int j = 0; j < fp->n; j++)
        len += d[j] * d[j];
    len = sqrt(len);
    return len > 0 && isfinite(len) ? star_length_of(fp, d, cell) / len : 0;
}

int fast_star_inside(const fast_prep *fp, const double *x)
{
    int n = fp->n;
    double w[SEIDEL_MAX_DIM], big = 0, len = 0;
    for (int j = 0; j < n; j++) {
        w[j] = x[j] - fp->center[j];
        big = fp_max(big, fabs(w[j]));
        len += w[j] * w[j];
    }
    if (big == 0) /* x is the certified center itself */
        return 1;
    if (!(big > 0x1p-400 && big < 0x1p+400)) /* (squares under- or overflow; NaN) */
        return 0;
    return sqrt(len) * (1 + STAR_REL_PAD) < star_length_of(fp, w, -1);
}
