/* fast_prep.c -- once-per-polyhedron data of the fast engine. */
#include "solver/fast_prep.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/hpoly.h"
#include "polytope/predicates.h"
#include "solver/fast_lp.h"
#include "solver/lpd.h"
#include "solver/seidel.h"
#include "polytope/error.h"
#include "polytope/mem.h"
#include "polytope/select.h"

typedef struct prep_ctx {
    const hs_poly *p;
    seidel_work *sw;
    int *order;          /* every row, in order (Seidel's LP) */
    int *set;            /* the rows of the dual simplex's rounds (flp_solve_rounds) */
    unsigned char *in;   /* and which rows are in that set */
    const double *norm;  /* |a_i| */
    /* the rows tight at the box's extremes (the axes' LPs, by rounds):
     * the center's rounds begin with them */
    int tight[2 * SEIDEL_MAX_DIM * SEIDEL_MAX_DIM], ntight;
    double far;          /* largest distance of a row's plane from 0 (>= 1) */
    double big;          /* half-width of the search box */
} prep_ctx;

void fast_prep_free(fast_prep *fp)
{
    if (!fp)
        return;
    free(atomic_load(&fp->map_rows));
    free(atomic_load(&fp->star));
    free(atomic_load(&fp->support));
    free(atomic_load(&fp->unit));
    free(fp); /* (its arrays live in the same block: alloc_prep) */
}

static const char *eligibility(const hs_poly *p)
{
    if (p->n + 1 > SEIDEL_MAX_DIM)
        return "too many variables for the fast path";
    for (int i = 0; i < p->m; i++) {
        if (p->eq[i])
            return "equality rows";
        if (!p->exact[i])
            return "rows that are not exactly doubles";
    }
    return NULL;
}

/* The largest distance of a row's plane from the origin (at least 1). */
static double plane_reach(const hs_poly *p, const double *norm)
{
    double far = 1;
    for (int i = 0; i < p->m; i++)
        if (norm[i] > 0 && fabs(p->b[i]) / norm[i] > far)
            far = fabs(p->b[i]) / norm[i];
    return far;
}

/* The workspace of Seidel's LP, made on first use; NULL without memory. */
static seidel_work *seidel_of(prep_ctx *c)
{
    if (!c->sw)
        c->sw = seidel_work_new();
    return c->sw;
}

/* The dual simplex over every row of c's polyhedron: in Clarkson's rounds
 * from PREP_ROUNDS_ROWS rows (a pivot prices the rounds' set, not every
 * row; the optimum is the same up to rounding), else on every row at
 * once (fewer rows than that: the rounds' scans cost more than they save). */
#define PREP_ROUNDS_ROWS 100
static flp_status prep_solve(prep_ctx *c, flp_state *fs, int count)
{
    return c->p->m >= PREP_ROUNDS_ROWS ? flp_solve_rounds(fs, c->set, c->in, count)
                                       : flp_solve(fs, c->order, c->p->m);
}

/* The first set of the rounds for max (sign) x_j: the PREP_SEED rows whose
 * normals lean most towards that axis (sign a_ij / |a_i|), the faces
 * around the extreme vertex of a round body, into c->set; how many.  (The
 * LP on them is usually the optimum over every row, or one round from it:
 * without them the rounds begin at the box's corner.) */
#define PREP_SEED 12
static int axis_seed(prep_ctx *c, int j, int sign)
{
    if (c->p->m < PREP_ROUNDS_ROWS)
        return 0;
    double key[PREP_SEED];
    int count = 0;
    for (int i = 0; i < c->p->m; i++)
        if (c->norm[i] > 0)
            keep_largest(key, c->set, &count, PREP_SEED, sign * hpoly_row(c->p, i)[j] / c->norm[i],
                         i);
    return count;
}

/* The first set of the rounds for the center: the rows tight at the
 * box's extremes, each once, into c->set; how many. */
static int center_seed(prep_ctx *c)
{
    int count = 0;
    if (c->p->m < PREP_ROUNDS_ROWS)
        return 0;
    memset(c->in, 0, (size_t)c->p->m);
    for (int t = 0; t < c->ntight; t++)
        if (!c->in[c->tight[t]]) {
            c->in[c->tight[t]] = 1;
            c->set[count++] = c->tight[t];
        }
    return count;
}

/* max (sign) x_j over p (tau pinned to 0): the box hint along axis j.
 * The dual simplex of fast_lp.c first; Seidel's LP when it meets
 * numerical trouble. */
static int axis_extreme(prep_ctx *c, int j, int sign, double *value)
{
    int n = c->p->n, D = n + 1;
    double lo[SEIDEL_MAX_DIM], hi[SEIDEL_MAX_DIM], obj[SEIDEL_MAX_DIM * SEIDEL_MAX_DIM] = {0};
    double z[SEIDEL_MAX_DIM];
    int basis[SEIDEL_MAX_DIM + 1], code[SEIDEL_MAX_DIM];
    for (int q = 0; q < n; q++) {
        lo[q] = -c->big;
        hi[q] = c->big;
    }
    lo[n] = hi[n] = 0;
    code[0] = n + 1; /* tau (pinned) */
    code[1] = sign * (j + 1);
    for (int q = 0, t = 2; q < n; q++)
        if (q != j)
            code[t++] = q + 1;
    seidel_bank banks[2] = {{c->p->a, NULL, c->p->b, c->p->m}, {NULL, NULL, NULL, 0}};
    flp_state fs;
    flp_init(&fs, n, banks, lo, hi, code, NULL, NULL);
    if (prep_solve(c, &fs, axis_seed(c, j, sign)) == FLP_OPTIMAL) {
        for (int t = 0; c->p->m >= PREP_ROUNDS_ROWS && t < D; t++)
            if (fs.basis[t] >= 0 && c->ntight < (int)(sizeof c->tight / sizeof c->tight[0]))
                c->tight[c->ntight++] = fs.basis[t];
        *value = fs.z[j];
        return 0;
    }
    obj[j] = sign; /* then the other axes, to make the optimum unique */
    for (int q = 0, t = 1; q < D; q++)
        if (q != j)
            obj[(t++) * D + q] = 1;
    seidel_problem sp = {n, {banks[0], banks[1]}, c->p->m, c->order, lo, hi, obj, -1, NULL, NULL};
    if (!seidel_of(c))
        return -1;
    seidel_status st = seidel_solve(c->sw, &sp, z, basis, NULL);
    if (st != SEIDEL_OPTIMAL)
        return -1;
    *value = z[j];
    return 0;
}

/* Extent along every axis; a side that runs to the search box (an
 * unbounded polyhedron) is clamped to a few plane distances, which keeps
 * the center and the query boxes near the data. */
static int box_hint(prep_ctx *c, fast_prep *fp)
{
    double clamp = fmin(4 * c->far, DBL_MAX);
    for (int j = 0; j < fp->n; j++) {
        double top, bottom;
        if (axis_extreme(c, j, +1, &top) != 0 || axis_extreme(c, j, -1, &bottom) != 0)
            return -1;
        fp->hi[j] = top >= 0.5 * c->big ? fmax(clamp, bottom + clamp) : top;
        fp->lo[j] = bottom <= -0.5 * c->big ? fmin(-clamp, fp->hi[j] - clamp) : bottom;
    }
    return 0;
}

/* The rows of p with column j scaled by s[j] (powers of two: exact unless
 * a value leaves the range, then -1) and their norms, into a and norm. */
static int scaled_rows(const hs_poly *p, const double *s, double *a, double *norm)
{
    int n = p->n;
    for (int i = 0; i < p->m; i++) {
        double big = 0, sum = 0;
        for (int j = 0; j < n; j++) {
            double v = hpoly_row(p, i)[j] * s[j];
            if (!isfinite(v))
                return -1;
            a[(size_t)i * (size_t)n + (size_t)j] = v;
            big = fmax(big, fabs(v));
        }
        for (int j = 0; big > 0 && j < n; j++) { /* (squares of the largest would overflow) */
            double u = a[(size_t)i * (size_t)n + (size_t)j] / big;
            sum += u * u;
        }
        norm[i] = big * sqrt(sum);
        if (!isfinite(norm[i]))
            return -1;
    }
    return 0;
}

/* Chebyshev-like center: max tau with a_i.x + |a_i| tau <= b_i, solved
 * in coordinates centred on the box hint (x = r + y, b_i - a_i.r rounded),
 * so that a small polytope far from the origin keeps its precision; the
 * point found is only a candidate: center_is_strict certifies it exactly
 * on the original rows.  With `scaled`, every coordinate is also divided
 * by a power of two near the box's half-extent along it (x = r + S y), so
 * that a polytope far longer along one axis than another (a slab 10^14
 * long and 2 wide) does not leave the short axes below the LP's
 * tolerances, which are relative to the largest numbers: tried when the
 * plain solve gives no strictly interior point. */
static int find_center(prep_ctx *c, fast_prep *fp, int scaled)
{
    int n = fp->n;
    double lo[SEIDEL_MAX_DIM], hi[SEIDEL_MAX_DIM], z[SEIDEL_MAX_DIM], r[SEIDEL_MAX_DIM];
    double s[SEIDEL_MAX_DIM];
    int basis[SEIDEL_MAX_DIM + 1];
    double span = 1;
    double *b = mem_alloc((size_t)fp->m, sizeof(double));
    double *as = scaled ? mem_alloc((size_t)fp->m * (size_t)(n + 1), sizeof(double)) : NULL;
    double *ns = as ? as + (size_t)fp->m * (size_t)n : NULL;
    if (!b || (scaled && !as)) {
        free(b);
        free(as);
        return -1;
    }
    for (int j = 0; j < n; j++) {
        r[j] = 0.5 * fp->lo[j] + 0.5 * fp->hi[j];
        double half = 0.5 * fp->hi[j] - 0.5 * fp->lo[j];
        s[j] = scaled && half > 0 && isfinite(half) ? ldexp(1, ilogb(half) + 1) : 1;
        lo[j] = (fp->lo[j] - r[j]) / s[j] - (scaled ? 0.5 : 1);
        hi[j] = (fp->hi[j] - r[j]) / s[j] + (scaled ? 0.5 : 1);
        if (hi[j] - lo[j] > span)
            span = hi[j] - lo[j];
    }
    if (scaled && scaled_rows(c->p, s, as, ns) != 0) {
        free(b);
        free(as);
        return -1;
    }
    for (int i = 0; i < fp->m; i++) {
        const double *a = hpoly_row(c->p, i);
        b[i] = c->p->b[i];
        for (int j = 0; j < n; j++)
            b[i] -= a[j] * r[j];
        if (scaled && ns[i] > 0) { /* and every row divided by a power of two near its norm */
            int k = ilogb(ns[i]);
            for (int j = 0; j < n; j++)
                as[(size_t)i * (size_t)n + (size_t)j] = ldexp(as[(size_t)i * (size_t)n + (size_t)j], -k);
            ns[i] = ldexp(ns[i], -k);
            b[i] = ldexp(b[i], -k);
        }
    }
    lo[n] = -1;
    hi[n] = span;
    seidel_bank banks[2] = {{scaled ? as : c->p->a, scaled ? ns : fp->norm, b, fp->m},
                            {NULL, NULL, NULL, 0}};
    flp_state fs;
    flp_init(&fs, n, banks, lo, hi, NULL, NULL, NULL);
    int rc;
    if (prep_solve(c, &fs, center_seed(c)) == FLP_OPTIMAL) {
        memcpy(z, fs.z, sizeof(double) * (size_t)(n + 1));
        rc = z[n] > 0 ? 0 : -1;
    } else {
        seidel_problem sp = {n, {banks[0], banks[1]}, fp->m, c->order, lo, hi, NULL, -1, NULL, NULL};
        rc = seidel_of(c) && seidel_solve(c->sw, &sp, z, basis, NULL) == SEIDEL_OPTIMAL && z[n] > 0
                 ? 0
                 : -1;
    }
    free(b);
    free(as);
    if (rc != 0)
        return -1;
    for (int j = 0; j < n; j++)
        fp->center[j] = r[j] + s[j] * z[j];
    fp->inradius = z[n];
    if (scaled) { /* the margin in the original units: the least slack over the norm */
        fp->inradius = INFINITY;
        for (int i = 0; i < fp->m; i++) {
            const double *a = hpoly_row(c->p, i);
            double slack = c->p->b[i];
            for (int j = 0; j < n; j++)
                slack -= a[j] * fp->center[j];
            if (fp->norm[i] > 0)
                fp->inradius = fmin(fp->inradius, slack / fp->norm[i]);
        }
        if (!(fp->inradius > 0 && fp->inradius < INFINITY))
            return -1;
    }
    return 0;
}

static int center_is_strict(const hs_poly *p, fast_prep *fp)
{
    for (int i = 0; i < p->m; i++) {
        const double *a = hpoly_row(p, i);
        if (pred_row_sign(a, fp->center, p->b[i], p->n, NULL) >= 0)
            return 0;
        double dot = 0, mag = fabs(p->b[i]);
        for (int j = 0; j < p->n; j++) {
            dot += a[j] * fp->center[j];
            mag += fabs(a[j] * fp->center[j]);
        }
        fp->center_slack[i] = p->b[i] - dot;
        fp->center_mag[i] = mag;
    }
    return 1;
}

/* ------------------------------------------------------ direction map */

#define MAP_LEN 12           /* rows listed per cell */
#define MAP_MAX_CELLS 4096

/* Cells along each cube-face axis: about sqrt(m)/4 in 3-D, so that a cell
 * is no wider than a couple of normals' spacing; fewer in more dimensions. */
static int map_resolution(int n, int m)
{
    if (n == 1)
        return 1;
    int g = (int)ceil(sqrt((double)m) / 4.0);
    if (g < 1)
        g = 1;
    for (;;) {
        double cells = 2.0 * n * pow(g, n - 1);
        if (cells <= MAP_MAX_CELLS || g == 1)
            return g;
        g--;
    }
}

/* The index along one axis of a cube face's g cells of u in [-1, 1]:
 * floor(v) clamped to [0, g - 1] (v >= 0 here, so the conversion, a
 * truncation, is the floor; NaN takes cell 0). */
static inline int cell_index(double u, int g)
{
    double v = (u + 1) * 0.5 * g;
    return v >= g ? g - 1 : v > 0 ? (int)v : 0;
}

/* Cell of direction d: the face is the axis of largest |d_k| with its
 * sign; the other coordinates, divided by |d_k|, lie in [-1, 1]. */
int fast_prep_cell(int n, int g, const double *d)
{
    if (n == 3) { /* (the usual case, written out: the same cells) */
        int k = fp_largest_axis(d, 3);
        int j0 = k == 0 ? 1 : 0, j1 = k == 2 ? 1 : 2;
        double top = fabs(d[k]);
        int cell = (2 * k + (d[k] < 0)) * g + cell_index(d[j0] / top, g);
        return cell * g + cell_index(d[j1] / top, g);
    }
    int k = fp_largest_axis(d, n);
    int cell = 2 * k + (d[k] < 0);
    for (int j = 0; j < n; j++)
        if (j != k)
            cell = cell * g + cell_index(d[j] / fabs(d[k]), g);
    return cell;
}

/* Direction at the center of a cell (the inverse of fast_prep_cell). */
void fast_prep_cell_center(int n, int g, int cell, double *d)
{
    int idx[SEIDEL_MAX_DIM], rest = cell;
    for (int j = n - 2; j >= 0; j--) {
        idx[j] = rest % g;
        rest /= g;
    }
    int k = rest / 2, neg = rest % 2;
    for (int j = 0, q = 0; j < n; j++) {
        if (j == k)
            d[j] = neg ? -1 : 1;
        else
            d[j] = -1 + (2.0 * idx[q++] + 1) / g;
    }
}

/* Row i's score along d: a_i . d / center_slack_i, the larger the sooner
 * the ray center + l d crosses the row (the slack is positive, so rows
 * facing away from d score below 0); NaN (from overflowing entries)
 * scores as -infinity, never first. */
static inline double row_score(const hs_poly *p, const fast_prep *fp, const double *d, int i)
{
    const double *a = hpoly_row(p, i);
    double sc = 0;
    if (p->n == 3) /* the common case unrolled: the same sum in the same order */
        sc = a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
    else
        for (int j = 0; j < p->n; j++)
            sc += a[j] * d[j];
    double v = sc / fp->center_slack[i];
    return v == v ? v : -INFINITY;
}

/* Does (key k, row i) come before (l, j) in a cell's list: the larger
 * score first, of equal scores the lower row. */
static inline int ranks_before(double k, int i, double l, int j)
{
    return k > l || (k == l && i < j);
}

/* (key k, row i) into the list keys/out of *count (at most len) in its
 * place; the last one leaves a full list. */
static inline void list_insert(double *keys, int *out, int *count, int len, double k, int i)
{
    int at = *count < len ? (*count)++ : len - 1;
    for (; at > 0 && ranks_before(k, i, keys[at - 1], out[at - 1]); at--) {
        keys[at] = keys[at - 1];
        out[at] = out[at - 1];
    }
    keys[at] = k;
    out[at] = i;
}

/* What best_rows reads besides a cell's direction: the polyhedron, its
 * preparation, the rows the seed put in a list (mark: m ints, equal to
 * the cell's stamp) and the range of the center slacks. */
typedef struct map_maker {
    const hs_poly *p;
    const fast_prep *fp;
    int *mark;
    double slack_lo, slack_hi;
    /* the rows in the order they are scanned, in blocks of MAP_BLOCK; for
     * block k (3 variables, MAP_BLOCK_ROWS rows or more; else NULL) cone
     * + 4 k: a center c and a reach R such that every score in the block
     * is below c . d + R |d| (map_cones) */
    int *order;
    double *cone;
} map_maker;

#define MAP_BLOCK 8
#define MAP_BLOCK_ROWS 64

/* The rows of a 3-D polyhedron of MAP_BLOCK_ROWS rows or more (fewer:
 * mm->order and mm->cone NULL, the rows scanned in their order, no bound)
 * grouped by the directions of u_i = a_i /
 * center_slack_i (whose dot with d is row i's score): sorted by the cube
 * cell of u_i (about MAP_BLOCK rows a cell), cut into blocks of MAP_BLOCK,
 * and for each block the mean c of its u_i and R = the largest |u_i - c|,
 * raised to cover the roundings of u_i, of the scores (fl(a . d) / slack:
 * within 4 2^-53 |u_i| |d| of u_i . d) and of c . d + R |d| itself, by a
 * margin of 2^-44 (|c| + R): a block whose bound c . d + R |d| is below a
 * list's last score holds no row that would join the list.  Into
 * mm->order and mm->cone (made here; NULL cone when not worth it). */
static int map_cones(map_maker *mm)
{
    const hs_poly *p = mm->p;
    int m = p->m, blocks = (m + MAP_BLOCK - 1) / MAP_BLOCK;
    mm->order = NULL;
    mm->cone = NULL;
    if (p->n != 3 || m < MAP_BLOCK_ROWS)
        return 0;
    mm->order = mem_alloc((size_t)m, sizeof(int));
    if (!mm->order)
        return -1;
    int g = (int)lround(sqrt(m / (6.0 * MAP_BLOCK))), cells = 6 * (g < 1 ? 1 : g) * (g < 1 ? 1 : g);
    g = g < 1 ? 1 : g;
    double *u = mem_alloc((size_t)m * 3 + (size_t)blocks * 4, sizeof(double));
    int *cell = mem_alloc((size_t)m + (size_t)cells + 1, sizeof(int));
    if (!u || !cell) {
        free(u);
        free(cell);
        return -1;
    }
    int *start = cell + m; /* (a counting sort by cell) */
    for (int k = 0; k <= cells; k++)
        start[k] = 0;
    for (int i = 0; i < m; i++) {
        const double *a = hpoly_row(p, i);
        for (int j = 0; j < 3; j++)
            u[3 * i + j] = a[j] / mm->fp->center_slack[i];
        cell[i] = fast_prep_cell(3, g, u + 3 * i);
        start[cell[i] + 1]++;
    }
    for (int k = 0; k < cells; k++)
        start[k + 1] += start[k];
    for (int i = 0; i < m; i++)
        mm->order[start[cell[i]]++] = i;
    free(cell);
    double *cone = u + (size_t)m * 3;
    for (int b = 0; b < blocks; b++) {
        int lo = b * MAP_BLOCK, hi = lo + MAP_BLOCK < m ? lo + MAP_BLOCK : m;
        double c[3] = {0, 0, 0}, r = 0;
        for (int t = lo; t < hi; t++)
            for (int j = 0; j < 3; j++)
                c[j] += u[3 * mm->order[t] + j] / (hi - lo);
        for (int t = lo; t < hi; t++) {
            const double *v = u + 3 * mm->order[t];
            double e[3] = {v[0] - c[0], v[1] - c[1], v[2] - c[2]};
            r = fp_max(r, sqrt(dot3(e, e)));
        }
        cone[4 * b] = c[0];
        cone[4 * b + 1] = c[1];
        cone[4 * b + 2] = c[2];
        cone[4 * b + 3] = r * (1 + 0x1p-40) + 0x1p-44 * (sqrt(dot3(c, c)) + r);
    }
    /* (u's room is kept as the cones': one block to free) */
    memmove(u, cone, sizeof(double) * 4 * (size_t)blocks);
    mm->cone = u;
    return 0;
}

/* The product test's factor for a list whose last score is bar (see
 * best_rows), or 0 where the test does not apply: 3 variables only, a
 * positive bar, and no product bar * slack near underflow (whose rounding
 * the test's bound would not cover) or overflow. */
static double cut_of(const map_maker *mm, double bar)
{
    double cut = bar * (1 - 0x1p-50);
    return mm->p->n == 3 && bar > 0 && cut * mm->slack_lo >= 0x1p-1000 &&
                   bar * mm->slack_hi <= 0x1p+1000
               ? cut
               : 0;
}

/* The map_len rows with the largest scores along d (row_score), in
 * ranks_before's order, into out.  seed (map_len rows, or NULL): a
 * neighbouring cell's list, most of which is usually this cell's too:
 * scored first, it sets a bar that most rows fall below, and a row is
 * then dropped on a product, without its division: a . d < cut slack with
 * cut = bar (1 - 2^-50) (cut_of) puts its score certainly below the bar
 * (the product's two roundings and the quotient's, each within 2^-53 of
 * the value, cannot close a gap of 2^-50).  The list is the same whatever
 * the seed (the order is total).  Seeds only where mm->mark is made (on
 * polyhedra with blocks: on small ones the seed's own cost is not won
 * back). */
static void best_rows(const map_maker *mm, const double *d, const int *seed, int stamp, int *out)
{
    const hs_poly *p = mm->p;
    const double *slack = mm->fp->center_slack;
    int len = mm->fp->map_len, count = 0;
    double keys[MAP_LEN], cut = 0;
    for (int s = 0; seed && s < len; s++) {
        list_insert(keys, out, &count, len, row_score(p, mm->fp, d, seed[s]), seed[s]);
        mm->mark[seed[s]] = stamp;
    }
    if (count == len)
        cut = cut_of(mm, keys[len - 1]);
    const double d0 = d[0], d1 = mm->p->n == 3 ? d[1] : 0, d2 = mm->p->n == 3 ? d[2] : 0;
    const double dlen = mm->cone ? sqrt(d0 * d0 + d1 * d1 + d2 * d2) : 0;
    for (int lo = 0; lo < p->m; lo += MAP_BLOCK) {
        if (cut > 0 && mm->cone) { /* (cut > 0: the list's last score is positive) */
            const double *cb = mm->cone + 4 * (lo / MAP_BLOCK);
            if (cb[0] * d0 + cb[1] * d1 + cb[2] * d2 + cb[3] * dlen < keys[len - 1])
                continue;
        }
        int hi = lo + MAP_BLOCK < p->m ? lo + MAP_BLOCK : p->m;
        for (int t = lo; t < hi; t++) {
            int i = mm->order ? mm->order[t] : t;
            if (cut > 0) { /* (3 variables: d0, d1, d2 are d) */
                const double *a = p->a + (size_t)3 * (size_t)i;
                if (a[0] * d0 + a[1] * d1 + a[2] * d2 < cut * slack[i])
                    continue;
            }
            if (seed && mm->mark[i] == stamp)
                continue;
            double v = row_score(p, mm->fp, d, i);
            if (count < len || ranks_before(v, i, keys[len - 1], out[len - 1])) {
                list_insert(keys, out, &count, len, v, i);
                if (count == len)
                    cut = cut_of(mm, keys[len - 1]);
            }
        }
    }
}

/* The map's shape, fixed when the preparation is made. */
static void plan_map(const hs_poly *p, fast_prep *fp)
{
    fp->map_g = map_resolution(p->n, p->m);
    fp->map_len = p->m < MAP_LEN ? p->m : MAP_LEN;
    fp->map_cells = 2 * p->n * (int)lround(pow(fp->map_g, p->n - 1));
    /* the star's cells: finer than the map's, whatever m (its lengths are
     * cheap to make, and a coarse cell's length is its worst direction's) */
    static const int star_g[] = {0, 1, 16, 8, 4};
    fp->star_g = p->n < (int)(sizeof star_g / sizeof star_g[0]) ? star_g[p->n] : 0;
    fp->star_cells = fp->star_g ? 2 * p->n * (int)lround(pow(fp->star_g, p->n - 1)) : 0;
}

/* Where the map's skeleton starts in its block (fast_prep_skeleton): after
 * the rows, at a multiple of a double. */
static size_t skeleton_offset(const fast_prep *fp)
{
    size_t ints = (size_t)fp->map_cells * (size_t)fp->map_len;
    return (ints * sizeof(int) + sizeof(double) - 1) / sizeof(double);
}

/* How far the rays center + l u and center - l u (u a unit vector) run
 * inside the rows, into *fwd and *bwd: the least center_slack_i / (a_i .
 * +-u) over the rows facing each way (rounded; INFINITY when none does),
 * from inv: 1 / center_slack_i (one pass, no division per row). */
static void reaches(const fast_prep *fp, const double *inv, const double *u, double *fwd,
                    double *bwd)
{
    const hs_poly *p = fp->poly;
    double f = 0, b = 0; /* the largest (a_i . +-u) / center_slack_i */
    for (int i = 0; i < p->m; i++) {
        double at = dot3(hpoly_row(p, i), u) * inv[i];
        f = fp_max(f, at);
        b = fp_max(b, -at);
    }
    *fwd = 1 / f;
    *bwd = 1 / b;
}

/* The length of the chord through the center along u. */
static double chord(const fast_prep *fp, const double *inv, const double *u)
{
    double fwd, bwd;
    reaches(fp, inv, u, &fwd, &bwd);
    return fwd + bwd;
}

/* The chord along u when it is longer than best; else a length at most
 * best.  The rays along u and -u first meet only the rows that the map
 * (rows: map_cells lists) lists for the cells of u and -u: the chord
 * through those rows alone is at least the true one (fewer rows cut it
 * shorter or not at all; 1/x and + round monotonically), so when it is
 * not above best neither is the chord, and the pass over every row is
 * saved.  The skeleton's choices, and so the skeleton, are those of
 * chord().  (Worth it only where the two lists hold fewer rows than the
 * polyhedron: make_skeleton's `lists`.) */
static double chord_above(const fast_prep *fp, const int *rows, const double *inv,
                          const double *u, double best)
{
    double f = 0, b = 0, minus[3] = {-u[0], -u[1], -u[2]};
    for (int w = 0; w < 2; w++) {
        const int *list = rows + (size_t)fast_prep_cell(3, fp->map_g, w ? minus : u) *
                                     (size_t)fp->map_len;
        for (int k = 0; k < fp->map_len; k++) {
            double at = dot3(hpoly_row(fp->poly, list[k]), u) * inv[list[k]];
            f = fp_max(f, at);
            b = fp_max(b, -at);
        }
    }
    double bound = 1 / f + 1 / b;
    return bound <= best ? bound : chord(fp, inv, u);
}

/* The skeleton of a 3-D polyhedron: its longest chord through the center
 * (nearly: the best of 13 directions, the axes and the diagonals of the
 * cube, and u0, the map cell's whose ray reaches farthest; then, on a body
 * whose best chord is SKELETON_ROUND times its inscribed diameter, a local
 * search of SKELETON_STEPS rounds of 4 chords, a pass over the rows each),
 * its ends pulled in to SKELETON_PULL of the way.  Every point of it lies
 * inside the polyhedron up to rounding (the chord joins two points of
 * it), and on an elongated polyhedron it runs along the long axis: where
 * two such bodies cross, the line where their skeletons come nearest
 * likely passes through both (the query's axis test, which certifies any
 * point it answers with).  A round body (the query's test wants an
 * elongation of 3) costs the map 14 passes over its rows.  out: the two
 * ends (6 doubles) and the chord's length over twice the inradius (its
 * elongation; 0 when not finite). */
#define SKELETON_PULL 0.875
#define SKELETON_STEPS 8
#define SKELETON_ROUND 1.5
static void make_skeleton(const fast_prep *fp, const int *rows, const double *u0,
                          const double *inv, double *out)
{
    static const double dirs[13][3] = {{1, 0, 0},  {0, 1, 0},  {0, 0, 1},   {1, 1, 0},  {1, -1, 0},
                                       {1, 0, 1},  {1, 0, -1}, {0, 1, 1},   {0, 1, -1}, {1, 1, 1},
                                       {1, 1, -1}, {1, -1, 1}, {-1, 1, 1}};
    double u[3] = {u0[0], u0[1], u0[2]}, best = chord(fp, inv, u), step = 0.5;
    int lists = fp->m > 2 * fp->map_len;
    for (int k = 0; k < 13; k++) {
        double v[3] = {dirs[k][0], dirs[k][1], dirs[k][2]};
        fp_normalize3(v);
        double c = lists ? chord_above(fp, rows, inv, v, best) : chord(fp, inv, v);
        if (c > best) {
            best = c;
            memcpy(u, v, sizeof u);
        }
    }
    int steps = best >= SKELETON_ROUND * 2 * fp->inradius ? SKELETON_STEPS : 0;
    for (int it = 0; it < steps; it++, step *= 0.5) {
        /* two directions across u */
        int k = fabs(u[0]) < fabs(u[1]) ? (fabs(u[0]) < fabs(u[2]) ? 0 : 2)
                                        : (fabs(u[1]) < fabs(u[2]) ? 1 : 2);
        double e[3] = {0, 0, 0}, t1[3], t2[3];
        e[k] = 1;
        cross3(u, e, t1);
        fp_normalize3(t1);
        cross3(u, t1, t2);
        for (int tries = 0; tries < 4; tries++) {
            const double *t = tries < 2 ? t1 : t2;
            double sg = tries % 2 ? -step : step, v[3];
            for (int j = 0; j < 3; j++)
                v[j] = u[j] + sg * t[j];
            fp_normalize3(v);
            double c = lists ? chord_above(fp, rows, inv, v, best) : chord(fp, inv, v);
            if (c > best) {
                best = c;
                memcpy(u, v, sizeof u);
            }
        }
    }
    double fwd, bwd;
    reaches(fp, inv, u, &fwd, &bwd);
    const double *c = fp->center;
    for (int j = 0; j < 3; j++) {
        out[j] = c[j] + SKELETON_PULL * fwd * u[j];
        out[3 + j] = c[j] - SKELETON_PULL * bwd * u[j];
    }
    out[6] = fp->inradius > 0 && isfinite(fwd + bwd) ? (fwd + bwd) / (2 * fp->inradius) : 0;
}

static void *build_map(const fast_prep *fp)
{
    size_t ints = (size_t)fp->map_cells * (size_t)fp->map_len;
    int three = fp->n == 3;
    size_t bytes = three ? (skeleton_offset(fp) + 7) * sizeof(double) : ints * sizeof(int);
    int *rows = mem_alloc(bytes, 1);
    if (!rows)
        return NULL;
    /* (the seeds, and the marks they need, on polyhedra with blocks) */
    map_maker mm = {fp->poly, fp, NULL, INFINITY, 0, NULL, NULL};
    if (map_cones(&mm) != 0 ||
        (mm.order && !(mm.mark = mem_alloc((size_t)fp->m, sizeof(int))))) {
        free(mm.mark);
        free(mm.order);
        free(rows);
        return NULL;
    }
    for (int i = 0; i < fp->m; i++) {
        if (mm.mark)
            mm.mark[i] = -1;
        mm.slack_lo = fp_min(mm.slack_lo, fp->center_slack[i]);
        mm.slack_hi = fp_max(mm.slack_hi, fp->center_slack[i]);
    }
    double d[SEIDEL_MAX_DIM], far = -1, u[3] = {1, 0, 0};
    for (int c = 0; c < fp->map_cells; c++) {
        int *list = rows + (size_t)c * (size_t)fp->map_len;
        fast_prep_cell_center(fp->n, fp->map_g, c, d);
        /* (the cell before: its neighbour but where a row of cells ends) */
        best_rows(&mm, d, c && mm.mark ? list - fp->map_len : NULL, c, list);
        if (three && list[0] >= 0) { /* the ray along d leaves by the first row */
            double along = dot3(hpoly_row(fp->poly, list[0]), d);
            double len = sqrt(dot3(d, d));
            double reach = along > 0 ? fp->center_slack[list[0]] / along * len : INFINITY;
            if (reach > far && isfinite(reach)) {
                far = reach;
                for (int j = 0; j < 3; j++)
                    u[j] = d[j] / len;
            }
        }
    }
    free(mm.mark);
    free(mm.order);
    free(mm.cone);
    double *inv = three ? mem_alloc((size_t)fp->m, sizeof(double)) : NULL;
    if (three && !inv) {
        free(rows);
        return NULL;
    }
    for (int i = 0; three && i < fp->m; i++)
        inv[i] = 1 / fp->center_slack[i];
    if (three) {
        double *sk = (double *)(void *)rows + skeleton_offset(fp);
        make_skeleton(fp, rows, u, inv, sk);
        /* (threads that race here store the same value) */
        atomic_store_explicit(&((fast_prep *)fp)->elongation16,
                              1 + (int)fmin(16 * sk[6], 1e9), memory_order_relaxed);
    }
    free(inv);
    return rows;
}


void *fast_prep_lazy(const fast_prep *fp, _Atomic(void *) *slot,
                     void *(*make)(const fast_prep *fp))
{
    void *have = atomic_load_explicit(slot, memory_order_acquire);
    if (have)
        return have;
    void *mine = make(fp), *expected = NULL;
    if (!mine)
        return NULL;
    if (atomic_compare_exchange_strong_explicit(slot, &expected, mine, memory_order_acq_rel,
                                                memory_order_acquire))
        return mine;
    free(mine); /* another thread installed the same block first */
    return expected;
}

static const int *map_of(const fast_prep *fp)
{
    fast_prep *mp = (fast_prep *)fp; /* only the atomic slot is written */
    return fp->map_cells ? fast_prep_lazy(fp, &mp->map_rows, build_map) : NULL;
}

const double *fast_prep_skeleton(const fast_prep *fp)
{
    if (fp->n != 3 || !fp->map_cells)
        return NULL;
    const int *map = map_of(fp);
    return map ? (const double *)(const void *)map + skeleton_offset(fp) : NULL;
}

int fast_prep_lazy_ready(const fast_prep *fp)
{
    if (fp->n == 3 && fp->m > 0 && !fast_prep_unit(fp))
        return -1;
    return fp->map_cells == 0 || map_of(fp) ? 0 : -1;
}

int fast_prep_prefetch(const fast_prep *fp, const double *d)
{
    const int *map = atomic_load_explicit(&((fast_prep *)fp)->map_rows, memory_order_acquire);
    if (!map)
        return -1;
    int cell = fast_prep_cell(fp->n, fp->map_g, d);
    mem_prefetch(map + (size_t)cell * (size_t)fp->map_len);
    return cell;
}

/* The list of cell in map, and its length (lists are filled from the
 * front, -1 after their last row: a full one, the usual case, is not
 * walked). */
static const int *list_of_cell(const fast_prep *fp, const int *map, int cell, int *count)
{
    const int *list = map + (size_t)cell * (size_t)fp->map_len;
    int k = list[fp->map_len - 1] >= 0 ? fp->map_len : 0;
    while (k < fp->map_len && list[k] >= 0)
        k++;
    *count = k;
    return list;
}

const int *fast_prep_list(const fast_prep *fp, int cell, int *count)
{
    const int *map = map_of(fp); /* (made: the prefetch saw it) */
    *count = 0;
    return map ? list_of_cell(fp, map, cell, count) : NULL;
}

const int *fast_prep_lookup(const fast_prep *fp, const double *d, int *count)
{
    const int *map = map_of(fp);
    if (!map) {
        *count = 0;
        return NULL;
    }
    return list_of_cell(fp, map, fast_prep_cell(fp->n, fp->map_g, d), count);
}

/* Entry v / w as a float that holds it to FAST_UNIT_REL, into *out; 0
 * when float cannot (a nonzero magnitude outside [2^-100, 2^100]). */
static int unit_entry(double v, double w, float *out)
{
    double q = v / w;
    *out = (float)q;
    return q == 0 || (fabs(q) >= 0x1p-100 && fabs(q) <= 0x1p+100);
}

/* The unit rows of fp->poly (fast_prep.h), in a new block. */
static void *make_unit_rows(const fast_prep *fp)
{
    const hs_poly *p = fp->poly;
    float *unit = mem_alloc(4 * (size_t)p->m, sizeof(float));
    if (!unit)
        return NULL;
    for (int i = 0; i < p->m; i++) {
        const double *a = hpoly_row(p, i);
        float *u = unit + 4 * (size_t)i;
        double w = fp->norm[i];
        int ok = w > 0 && isfinite(w);
        for (int j = 0; j < 3 && ok; j++)
            ok = unit_entry(a[j], w, &u[j]);
        if (!ok || !unit_entry(p->b[i], w, &u[3]))
            for (int j = 0; j < 4; j++)
                u[j] = NAN;
    }
    return unit;
}

const float *fast_prep_unit(const fast_prep *fp)
{
    fast_prep *mp = (fast_prep *)fp; /* only the atomic slot is written */
    return fp->n == 3 && fp->m > 0 ? fast_prep_lazy(fp, &mp->unit, make_unit_rows) : NULL;
}

/* The preparation and its arrays in one block: the structure, then center,
 * lo, hi (n each: a query reads the center with the structure, on the same
 * cache lines), then norm, center_slack, center_mag (m each). */
static fast_prep *alloc_prep(int n, int m)
{
    size_t head = (sizeof(fast_prep) + sizeof(double) - 1) / sizeof(double);
    double *block = mem_calloc(head + 3 * (size_t)n + 3 * (size_t)m, sizeof(double));
    if (!block)
        return NULL;
    fast_prep *fp = (fast_prep *)(void *)block;
    double *at = block + head;
    fp->n = n;
    fp->m = m;
    atomic_init(&fp->map_rows, NULL);
    atomic_init(&fp->elongation16, 0);
    atomic_init(&fp->star, NULL);
    atomic_init(&fp->support, NULL);
    atomic_init(&fp->unit, NULL);
    fp->center = at;
    fp->lo = at += n;
    fp->hi = at += n;
    fp->norm = at += n;
    fp->center_slack = at += m;
    fp->center_mag = at + m;
    return fp;
}

static void prep_ctx_free(prep_ctx *c)
{
    seidel_work_free(c->sw);
    free(c->order);
    free(c->set);
    free(c->in);
}

static int prep_ctx_init(prep_ctx *c, const hs_poly *p)
{
    c->p = p;
    c->sw = NULL; /* made when Seidel's LP is needed (seidel_of) */
    c->order = mem_alloc((size_t)p->m, sizeof(int));
    if (!c->order)
        return -1;
    if (p->m >= PREP_ROUNDS_ROWS) { /* (the caller frees what was made) */
        c->set = mem_alloc((size_t)p->m, sizeof(int));
        c->in = mem_alloc((size_t)p->m, 1);
        if (!c->set || !c->in)
            return -1;
    }
    for (int i = 0; i < p->m; i++)
        c->order[i] = i;
    return 0;
}


/* A new preparation of p: the full data, or a small record of why p is
 * not eligible.  NULL when out of memory. */
/* The box of the given points as the box hint, their centroid as the
 * interior point (kept only when certified strictly inside every row, with
 * the smallest slack over the norm as the margin); 0, or -1 when the
 * centroid is not strictly inside (the LPs decide then). */
static int seed_from_points(const hs_poly *p, fast_prep *fp, const double *pts, int npts)
{
    int n = p->n;
    for (int j = 0; j < n; j++) {
        fp->lo[j] = INFINITY;
        fp->hi[j] = -INFINITY;
        fp->center[j] = 0;
    }
    for (int k = 0; k < npts; k++)
        for (int j = 0; j < n; j++) {
            double x = pts[(size_t)k * (size_t)n + (size_t)j];
            fp->lo[j] = fmin(fp->lo[j], x);
            fp->hi[j] = fmax(fp->hi[j], x);
            fp->center[j] += x / npts;
        }
    if (!center_is_strict(p, fp))
        return -1;
    double r = INFINITY;
    for (int i = 0; i < p->m; i++)
        if (fp->norm[i] > 0)
            r = fmin(r, fp->center_slack[i] / fp->norm[i]);
    fp->inradius = r;
    return r > 0 && r < INFINITY ? 0 : -1;
}

static fast_prep *prep_build(const hs_poly *p, const double *pts, int npts)
{
    const char *reason = p->no_prep ? "built without preparation" : eligibility(p);
    fast_prep *fp = NULL;
    prep_ctx c = {0};
    if (reason)
        goto ineligible;
    if (!(fp = alloc_prep(p->n, p->m)) || prep_ctx_init(&c, p) != 0)
        goto nomem;
    fp->poly = p;
    for (int i = 0; i < p->m; i++) {
        const double *a = hpoly_row(p, i);
        double s = 0;
        for (int j = 0; j < p->n; j++)
            s += a[j] * a[j];
        fp->norm[i] = sqrt(s);
    }
    c.norm = fp->norm;
    c.far = plane_reach(p, fp->norm);
    c.big = fmin(1e6 * c.far, DBL_MAX); /* (finite: planes near DBL_MAX) */
    if (pts && npts > 0 && seed_from_points(p, fp, pts, npts) == 0)
        plan_map(p, fp);
    else if (p->n >= FAST_PREP_SIMPLEX_DIM) {
        /* In more dimensions Seidel's LPs cost like n!: the floating-point
         * simplex of lpd.c gives the box hint and a certified interior
         * point; queries pick candidate rows by scanning (no map). */
        if (lpd_box_hint(p, fp->lo, fp->hi) != 0 ||
            lpd_interior_point(p, fp->center, &fp->inradius) != 0 ||
            !center_is_strict(p, fp))
            reason = "no strictly interior point found";
    } else if (box_hint(&c, fp) != 0)
        reason = "no point found (empty?)";
    else if ((find_center(&c, fp, 0) != 0 || !center_is_strict(p, fp)) &&
             (find_center(&c, fp, 1) != 0 || !center_is_strict(p, fp)))
        reason = "no strictly interior point found";
    else
        plan_map(p, fp);
    prep_ctx_free(&c);
    if (!reason)
        return fp;
    fast_prep_free(fp);
ineligible:
    fp = calloc(1, sizeof *fp);
    if (fp) {
        fp->why = reason;
        fp->n = p->n;
        fp->m = p->m;
    }
    return fp;
nomem:
    prep_ctx_free(&c);
    fast_prep_free(fp);
    return NULL;
}

int fast_prep_get(const hs_poly *p, const fast_prep **out, const char **why)
{
    return fast_prep_get_seeded(p, NULL, 0, out, why);
}

int fast_prep_get_seeded(const hs_poly *p, const double *pts, int npts, const fast_prep **out,
                         const char **why)
{
    hs_poly *mp = (hs_poly *)p; /* only the atomic slot is written */
    fast_prep *fp = atomic_load_explicit(&mp->prep, memory_order_acquire);
    if (!fp) {
        fast_prep *mine = prep_build(p, pts, npts);
        if (!mine) {
            *out = NULL;
            return -1;
        }
        fast_prep *expected = NULL;
        if (atomic_compare_exchange_strong_explicit(&mp->prep, &expected, mine,
                                                    memory_order_acq_rel,
                                                    memory_order_acquire))
            fp = mine;
        else {
            fast_prep_free(mine); /* another thread installed the same data first */
            fp = expected;
        }
    }
    if (why)
        *why = fp->why;
    *out = fp->why ? NULL : fp;
    return 0;
}
