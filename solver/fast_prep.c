/* fast_prep.c -- once-per-polyhedron data of the fast engine: the box
 * hint, the certified interior point, the unit rows (the direction map and
 * the skeleton: fast_map.c). */
#include "solver/fast_prep.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/hpoly.h"
#include "polytope/predicates.h"
#include "solver/fast_facet.h"
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
    int *set;            /* the rows of the dual simplex's rounds (flp_solve_rounds);
                            NULL: no rounds (fewer than PREP_ROUNDS_ROWS rows) */
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
    fast_facets_free(fp);
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
    return c->set ? flp_solve_rounds(fs, c->set, c->in, count)
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
    if (!c->set)
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
    if (!c->set)
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
        for (int t = 0; c->set && t < D; t++)
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

int fast_prep_lazy_ready(const fast_prep *fp)
{
    if (fp->n == 3 && fp->m > 0 && !fast_prep_unit(fp))
        return -1;
    return fp->map_cells == 0 || fast_map_rows(fp) ? 0 : -1;
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
    atomic_init(&fp->facets, NULL);
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

/* A new preparation of p: the full data, or a small record of why p is
 * not eligible.  NULL when out of memory. */
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
        fast_map_plan(p, fp);
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
        fast_map_plan(p, fp);
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
