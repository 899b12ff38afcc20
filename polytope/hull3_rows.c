/* hull3_rows.c -- one conservative half-space per facet of an exact 3-D
 * convex hull (hull3_rows, see hull3.h): the facet's outward normal from
 * Newell's formula, computed exactly and rounded once, and the exact
 * maximum of the normal over the hull's vertices, rounded up (a climb
 * along the hull's edges with exact comparisons).  The exact sums and
 * products run on floating-point expansions (polytope/expansion.h) for
 * coordinates in [2^-250, 2^250], on GMP rationals otherwise; both give
 * the same rows. */
#include "polytope/hull3.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/expansion.h"
#include "polytope/fp.h"
#include "polytope/mem.h"
#include "polytope/rational.h"

/* The rows' exact arithmetic runs on floating-point expansions
 * (polytope/expansion.h) when every coordinate involved lies in
 * [2^-250, 2^250] (or is 0): sums and differences of two coordinates are
 * then multiples of 2^-302 below 2^251, products of two such multiples of
 * 2^-604 below 2^503, so every step is exact and every nonzero result is
 * a normal double's worth (GMP's truncating mpq_get_d and the expansion's
 * rounding then agree).  Otherwise GMP rationals, as before. */
#define ROWS_MIN 0x1p-250
#define ROWS_MAX 0x1p+250

static int rows_range_ok(const double *v, int count)
{
    for (int i = 0; i < count; i++) {
        double m = fabs(v[i]);
        if (m != 0 && (m < ROWS_MIN || m > ROWS_MAX))
            return 0;
    }
    return XP_RELIABLE;
}

/* Newell's area vector of facet f by expansions (see facet_normal_exact):
 * returns 0, or -1 when a coordinate is out of range. */
static int facet_normal_xp(const hull3 *h, const double *pts, int f, double nrm[3])
{
    int s = h->facet_start[f], e = h->facet_start[f + 1];
    for (int k = s; k < e; k++)
        if (!rows_range_ok(pts + 3 * (size_t)h->facet_vert[k], 3))
            return -1;
    for (int j = 0; j < 3; j++) {
        int y = (j + 1) % 3, z = (j + 2) % 3;
        double acc[2][40], term[8], scratch[16];
        int len = 0, cur = 0;
        for (int k = s; k < e; k++) {
            const double *p = pts + 3 * (size_t)h->facet_vert[k];
            const double *q = pts + 3 * (size_t)h->facet_vert[k + 1 < e ? k + 1 : s];
            double d[2], u[2]; /* (p_y - q_y) and (p_z + q_z), exactly */
            xp_two_diff(p[y], q[y], &d[1], &d[0]);
            xp_two_sum(p[z], q[z], &u[1], &u[0]);
            int dl = d[0] != 0 ? 2 : 1, ul = u[0] != 0 ? 2 : 1;
            double *dp = d + 2 - dl, *up = u + 2 - ul;
            if (d[1] == 0 || u[1] == 0)
                continue;
            int tl = xp_mul(dl, dp, ul, up, term, scratch);
            if (len + tl > 40)
                return -1; /* never seen: compressed sums stay a few components */
            len = xp_sum(len, acc[cur], tl, term, acc[1 - cur]);
            cur = 1 - cur;
            len = xp_compress(len, acc[cur], acc[cur]); /* stays short */
        }
        double buf[41];
        nrm[j] = xp_round(len, acc[cur], 0, buf); /* truncated, as mpq_get_d */
    }
    return 0;
}

/* Newell's area vector of facet f, exactly, rounded to doubles: the
 * fallback when the double evaluation cancels (sliver facets). */
static void facet_normal_exact(const hull3 *h, const double *pts, int f, double nrm[3])
{
    if (facet_normal_xp(h, pts, f, nrm) == 0)
        return;
    mpq_t sum[3], u, v, w;
    for (int j = 0; j < 3; j++)
        mpq_init(sum[j]);
    mpq_inits(u, v, w, NULL);
    int s = h->facet_start[f], e = h->facet_start[f + 1];
    for (int k = s; k < e; k++) {
        const double *p = pts + 3 * (size_t)h->facet_vert[k];
        const double *q = pts + 3 * (size_t)h->facet_vert[k + 1 < e ? k + 1 : s];
        for (int j = 0; j < 3; j++) { /* (p_y - q_y)(p_z + q_z) for j = 0, cyclically */
            int y = (j + 1) % 3, z = (j + 2) % 3;
            mpq_set_d(u, p[y]);
            mpq_set_d(v, q[y]);
            mpq_sub(u, u, v);
            mpq_set_d(v, p[z]);
            mpq_set_d(w, q[z]);
            mpq_add(v, v, w);
            mpq_mul(u, u, v);
            mpq_add(sum[j], sum[j], u);
        }
    }
    for (int j = 0; j < 3; j++) {
        nrm[j] = mpq_get_d(sum[j]);
        mpq_clear(sum[j]);
    }
    mpq_clears(u, v, w, NULL);
}

/* Outward normal of facet f: Newell's area vector, computed exactly and
 * rounded once, then scaled by a power of two (exactly) so that its
 * largest entry lies in [1, 2).  Whenever the exact vector is made of
 * doubles (axis-aligned faces, integer or dyadic data), the row is the
 * facet's own plane exactly, so touching inputs stay touching.  Any
 * direction would give a valid conservative row: its bound is the exact
 * maximum over the hull, rounded up. */
static int facet_normal(const hull3 *h, const double *pts, int f, double nrm[3])
{
    facet_normal_exact(h, pts, f, nrm);
    double big = fmax(fabs(nrm[0]), fmax(fabs(nrm[1]), fabs(nrm[2])));
    if (!(big > 0) || !isfinite(big))
        return 0;
    int e;
    frexp(big, &e); /* big = g 2^e, g in [0.5, 1) */
    for (int j = 0; j < 3; j++)
        nrm[j] = ldexp(nrm[j], 1 - e);
    return 1;
}

/* a . p in double and a bound on its error (|fl - exact| <= *bound). */
static double dot_with_bound(const double *a, const double *p, double *bound)
{
    double s = a[0] * p[0] + a[1] * p[1] + a[2] * p[2];
    double mag = fabs(a[0] * p[0]) + fabs(a[1] * p[1]) + fabs(a[2] * p[2]);
    *bound = 4 * FP_U * mag + 0x1p-1060;
    return s;
}

/* out = a . p exactly (t scratch). */
static void dot_q(mpq_t out, const double *a, const double *p, mpq_t t, mpq_t x)
{
    mpq_set_ui(out, 0, 1);
    for (int j = 0; j < 3; j++) {
        mpq_set_d(t, a[j]);
        mpq_set_d(x, p[j]);
        mpq_mul(t, t, x);
        mpq_add(out, out, t);
    }
}

/* a . p exactly as an expansion (at most 6 components) of
 * coordinates in range; returns its length. */
static int dot_xp(const double *a, const double *p, double *out)
{
    double e[6], t[2][6];
    int len = 0, cur = 0;
    for (int j = 0; j < 3; j++) {
        double hi, lo;
        xp_two_prod(a[j], p[j], &hi, &lo);
        int el = 0;
        if (lo != 0)
            e[el++] = lo;
        if (hi != 0)
            e[el++] = hi;
        len = xp_sum(len, t[cur], el, e, t[1 - cur]);
        cur = 1 - cur;
    }
    memcpy(out, t[cur], (size_t)len * sizeof(double));
    return len;
}

/* Sign of a . p - a . q, exactly. */
static int compare_dots(const double *a, const double *p, const double *q)
{
    double bp, bq, dp = dot_with_bound(a, p, &bp), dq = dot_with_bound(a, q, &bq);
    if (dp - bp > dq + bq)
        return 1;
    if (dp + bp < dq - bq)
        return -1;
    if (rows_range_ok(a, 3) && rows_range_ok(p, 3) && rows_range_ok(q, 3)) {
        double ep[6], eq[6], d[12];
        int lp = dot_xp(a, p, ep), lq = dot_xp(a, q, eq);
        for (int i = 0; i < lq; i++)
            eq[i] = -eq[i];
        return xp_sign(xp_sum(lp, ep, lq, eq, d), d);
    }
    mpq_t u, v, t, x;
    mpq_inits(u, v, t, x, NULL);
    dot_q(u, a, p, t, x);
    dot_q(v, a, q, t, x);
    int s = mpq_cmp(u, v);
    mpq_clears(u, v, t, x, NULL);
    return (s > 0) - (s < 0);
}

/* Vertex adjacency of the hull in CSR form, indexed by input point. */
typedef struct adjacency {
    int *start; /* npoints + 1 */
    int *to;    /* 2 * nedges */
} adjacency;

static int build_adjacency(const hull3 *h, adjacency *adj)
{
    int corners = h->facet_start[h->nfacets];
    adj->start = mem_calloc((size_t)h->npoints + 1, sizeof(int));
    adj->to = mem_alloc((size_t)corners, sizeof(int));
    int *fill = mem_alloc((size_t)h->npoints + 1, sizeof(int));
    if (!adj->start || !adj->to || !fill) {
        free(fill);
        return -1;
    }
    for (int k = 0; k < corners; k++)
        adj->start[h->facet_vert[k] + 1]++;
    for (int i = 0; i < h->npoints; i++)
        adj->start[i + 1] += adj->start[i];
    memcpy(fill, adj->start, ((size_t)h->npoints + 1) * sizeof(int));
    for (int f = 0; f < h->nfacets; f++) {
        int s = h->facet_start[f], e = h->facet_start[f + 1];
        for (int k = s; k < e; k++)
            adj->to[fill[h->facet_vert[k]]++] = h->facet_vert[k + 1 < e ? k + 1 : s];
    }
    free(fill);
    return 0;
}

/* Exact maximum of a . p over the hull, rounded up.  A linear function
 * on a polytope is maximal at a vertex none of whose neighbours does
 * better, so climbing from `from` along edges with exact comparisons
 * ends at the maximum. */
static double max_rounded_up(const adjacency *adj, const double *pts, const double *a, int from,
                             int *exact)
{
    *exact = 0;
    int cur = from, moved = 1;
    while (moved) {
        moved = 0;
        for (int k = adj->start[cur]; k < adj->start[cur + 1] && !moved; k++) {
            int w = adj->to[k];
            if (compare_dots(a, pts + 3 * (size_t)w, pts + 3 * (size_t)cur) > 0) {
                cur = w;
                moved = 1;
            }
        }
    }
    const double *top = pts + 3 * (size_t)cur;
    if (rows_range_ok(a, 3) && rows_range_ok(top, 3)) {
        double e[6], buf[8], d[7];
        int len = dot_xp(a, top, e);
        double up = xp_round(len, e, 1, buf);
        double neg = -up;
        *exact = xp_sign(xp_sum(len, e, up != 0, &neg, d), d) == 0;
        return up;
    }
    mpq_t best, t, x;
    mpq_inits(best, t, x, NULL);
    dot_q(best, a, top, t, x);
    double up = q_round_up(best);
    if (isfinite(up)) {
        mpq_set_d(t, up);
        *exact = mpq_equal(t, best) != 0;
    }
    mpq_clears(best, t, x, NULL);
    return up;
}

/* The facet's normal divided by its largest entry, when that division is
 * exact (e.g. axis-aligned faces: the normal becomes a unit vector). */
static int unit_largest(const double a[3], double u[3])
{
    double big = fabs(a[0]);
    for (int j = 1; j < 3; j++)
        big = fmax(big, fabs(a[j]));
    for (int j = 0; j < 3; j++) {
        u[j] = a[j] / big;
        if (fma(u[j], big, -a[j]) != 0)
            return 0;
    }
    return 1;
}

/* Row of facet f: b is the exact maximum of a . p over the hull, rounded
 * up, so the row holds every point.  Of the two directions tried (the
 * normal scaled to make its largest entry +-1, when exact, then the area
 * vector), the first whose bound is exact gives the facet's plane itself. */
static hs_code facet_row(const hull3 *h, const adjacency *adj, const double *pts, int f,
                         double *a, double *b, hs_error *err)
{
    double u[3], ub;
    int exact, from = h->facet_vert[h->facet_start[f]];
    if (!facet_normal(h, pts, f, a))
        return err_set(err, HS_ERR_UNSUPPORTED,
                       "convex hull rows: the normal of facet %d is not a finite nonzero "
                       "double (coordinates too large or too small)", f);
    if (unit_largest(a, u) && (ub = max_rounded_up(adj, pts, u, from, &exact), exact)) {
        memcpy(a, u, sizeof u);
        *b = ub;
        return HS_OK;
    }
    *b = max_rounded_up(adj, pts, a, from, &exact);
    if (!isfinite(*b))
        return err_set(err, HS_ERR_UNSUPPORTED,
                       "convex hull rows: the bound of facet %d is beyond the double range", f);
    return HS_OK;
}

hs_code hull3_rows(const hull3 *h, const double *pts, double *a, double *b, hs_error *err)
{
    if (!h || !pts || !a || !b)
        return err_set(err, HS_ERR_ARG, "convex hull rows: NULL argument");
    adjacency adj;
    hs_code rc = HS_OK;
    if (build_adjacency(h, &adj) != 0)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int f = 0; f < h->nfacets && rc == HS_OK; f++)
        rc = facet_row(h, &adj, pts, f, a + 3 * (size_t)f, b + f, err);
    free(adj.start);
    free(adj.to);
    return rc;
}
