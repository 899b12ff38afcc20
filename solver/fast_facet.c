/* fast_facet.c -- the rows bounding a face of a 3-variable polyhedron
 * within its plane, proved sufficient (fast_facet.h). */
#include "solver/fast_facet.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/mem.h"
#include "polytope/predicates.h"
#include "polytope/select.h"

/* A vertex of the face polygon in the plane's two kept coordinates, and
 * the row of the edge that leaves it (-1: a side of the starting square). */
typedef struct facet_vertex {
    double u, v;
    int edge;
} facet_vertex;

/* Row j restricted to face k's plane (x_kk solved from it): alpha u +
 * beta v <= gamma in the kept coordinates c1, c2. */
typedef struct plane_frame {
    const double *g;
    double gb;
    int kk, c1, c2;
} plane_frame;

static void on_plane(const plane_frame *f, const double *a, double b, double *out)
{
    fast_plane_row(a, b, f->g, f->gb, f->kk, out);
}

/* Clips the polygon in[0 .. n) by alpha u + beta v <= gamma (row `row`)
 * into out (room for n + 1): the new count. */
static int clip(const facet_vertex *in, int n, const double *h, int row, facet_vertex *out)
{
    int r = 0;
    for (int i = 0; i < n; i++) {
        const facet_vertex *p = &in[i], *q = &in[i + 1 < n ? i + 1 : 0];
        double fp_ = h[0] * p->u + h[1] * p->v - h[2], fq = h[0] * q->u + h[1] * q->v - h[2];
        int pin = fp_ <= 0, qin = fq <= 0;
        if (pin)
            out[r++] = *p;
        if (pin != qin) {
            double t = fp_ / (fp_ - fq);
            facet_vertex x = {p->u + t * (q->u - p->u), p->v + t * (q->v - p->v),
                              pin ? row : p->edge};
            out[r++] = x;
        }
    }
    return r;
}

/* Is the row (ai, bi) implied on face k's plane by rows j and j2
 * (fast_facet.h)? */
static int implied(const hs_poly *p, int k, int j, int j2, const double *ai, double bi)
{
    const double *ak = hpoly_row(p, k), *aj = hpoly_row(p, j), *aj2 = hpoly_row(p, j2);
    double M[9], N[16];
    memcpy(M, ak, 3 * sizeof(double));
    memcpy(M + 3, aj, 3 * sizeof(double));
    memcpy(M + 6, aj2, 3 * sizeof(double));
    int sd = pred_det_sign(M, 3, NULL);
    if (sd != 1 && sd != -1)
        return 0;
    memcpy(M + 3, ai, 3 * sizeof(double)); /* (a_k; a_i; a_j') */
    int s = pred_det_sign(M, 3, NULL);
    if (s == -2 || s * sd < 0)
        return 0;
    memcpy(M + 3, aj, 3 * sizeof(double));
    memcpy(M + 6, ai, 3 * sizeof(double)); /* (a_k; a_j; a_i) */
    s = pred_det_sign(M, 3, NULL);
    if (s == -2 || s * sd < 0)
        return 0;
    const double *rows[4] = {ak, aj, aj2, ai};
    const double bs[4] = {p->b[k], p->b[j], p->b[j2], bi};
    for (int r = 0; r < 4; r++) {
        memcpy(N + 4 * r, rows[r], 3 * sizeof(double));
        N[4 * r + 3] = bs[r];
    }
    s = pred_det_sign(N, 4, NULL);
    return s != -2 && s * sd >= 0;
}

/* Is (ai, bi) implied on face k's plane by two consecutive edges of the
 * polygon poly[0 .. nv) (vertex t lies between edges t - 1 and t)?  The
 * vertex extreme along h (the row on the plane) first, then the others:
 * a mesh hull's rounded facets split a vertex into a cluster a rounding
 * apart, and the floating point picks one of the cluster. */
static int implied_at_polygon(const hs_poly *p, int k, const facet_vertex *poly, int nv,
                              const double *h, const double *ai, double bi)
{
    int best = 0;
    double top = -INFINITY;
    for (int t = 0; t < nv; t++) {
        double v = h[0] * poly[t].u + h[1] * poly[t].v;
        if (v > top) {
            top = v;
            best = t;
        }
    }
    for (int d = 0; d < nv; d++) {
        int t = (best + d) % nv;
        if (implied(p, k, poly[(t + nv - 1) % nv].edge, poly[t].edge, ai, bi))
            return 1;
    }
    return 0;
}

/* The smallest rectangle holding v[0 .. n): lo and hi (2 values each;
 * empty, infinities the wrong way round, for n = 0). */
static void polygon_extent(const facet_vertex *v, int n, double *lo, double *hi)
{
    lo[0] = lo[1] = INFINITY;
    hi[0] = hi[1] = -INFINITY;
    for (int t = 0; t < n; t++) {
        lo[0] = fp_min(lo[0], v[t].u);
        hi[0] = fp_max(hi[0], v[t].u);
        lo[1] = fp_min(lo[1], v[t].v);
        hi[1] = fp_max(hi[1], v[t].v);
    }
}

/* Clips *n vertices at *cur by row j (h on the plane) into *next and
 * swaps the two. */
static void clip_by(facet_vertex **cur, facet_vertex **next, int *n, const double *h, int j)
{
    *n = clip(*cur, *n, h, j, *next);
    facet_vertex *t = *cur;
    *cur = *next;
    *next = t;
}

/* The box hint's largest extent along an axis. */
static double hint_extent(const fast_prep *fp)
{
    double ext = 0;
    for (int c = 0; c < 3; c++)
        ext = fp_max(ext, fp->hi[c] - fp->lo[c]);
    return ext;
}

/* The square of face k's plane (kept coordinates) around the box hint's
 * middle, twice its largest extent across: 4 vertices into out, or 0
 * when the hint is not finite. */
static int square_of(const fast_prep *fp, const plane_frame *f, facet_vertex *out)
{
    double ext = hint_extent(fp);
    double mu = 0.5 * (fp->lo[f->c1] + fp->hi[f->c1]), mv = 0.5 * (fp->lo[f->c2] + fp->hi[f->c2]);
    if (!(ext > 0) || !isfinite(ext) || !isfinite(mu) || !isfinite(mv))
        return 0;
    double e = 2 * ext;
    facet_vertex square[4] = {
        {mu - e, mv - e, -1}, {mu + e, mv - e, -1}, {mu + e, mv + e, -1}, {mu - e, mv + e, -1}};
    memcpy(out, square, sizeof square);
    return 4;
}

/* The face polygon of row k by clipping a square larger than the box hint
 * (scratch: two arrays of m + 5 vertices, and H of 3 m doubles for the
 * rows on the plane): its vertex count (vertices in poly), or -1 when the
 * face gets no list.  For speed only (the lists are proved afterwards):
 * the FACET_NEAR rows whose lines pass nearest the point of the plane
 * below the center clip first, which leaves a polygon near the face's,
 * and the others only when they cut the polygon's bounding box. */
#define FACET_NEAR 12
static int facet_polygon(const fast_prep *fp, const plane_frame *f, int k, facet_vertex *poly,
                         facet_vertex *spare, double *H)
{
    const hs_poly *p = fp->poly;
    int m = p->m;
    /* the point of the plane below the center, in the kept coordinates */
    double off = -f->gb, g2 = 0;
    for (int c = 0; c < 3; c++) {
        off += f->g[c] * fp->center[c];
        g2 += f->g[c] * f->g[c];
    }
    double u0 = fp->center[f->c1] - off / g2 * f->g[f->c1];
    double v0 = fp->center[f->c2] - off / g2 * f->g[f->c2];
    int near[FACET_NEAR], nnear = 0;
    double near_key[FACET_NEAR];
    for (int j = 0; j < m; j++) {
        double *h = H + 3 * (size_t)j;
        on_plane(f, hpoly_row(p, j), p->b[j], h);
        if (!isfinite(h[0]) || !isfinite(h[1]) || !isfinite(h[2]))
            return -1;
        double len = sqrt(h[0] * h[0] + h[1] * h[1]);
        if (j == k || !(len > 0))
            continue;
        /* (the nearest lines: the largest minus distances) */
        keep_largest(near_key, near, &nnear, FACET_NEAR, -(h[2] - h[0] * u0 - h[1] * v0) / len, j);
    }
    facet_vertex *cur = poly, *next = spare;
    int n = square_of(fp, f, cur);
    if (n == 0)
        return -1;
    for (int t = 0; t < nnear && n > 0; t++)
        clip_by(&cur, &next, &n, H + 3 * (size_t)near[t], near[t]);
    double lo[2], hi[2];
    polygon_extent(cur, n, lo, hi);
    for (int j = 0; j < m && n > 0; j++) {
        const double *h = H + 3 * (size_t)j;
        if (j == k || h[0] * (h[0] > 0 ? hi[0] : lo[0]) + h[1] * (h[1] > 0 ? hi[1] : lo[1]) <= h[2])
            continue; /* (the box holds: no cut; a near row clips again harmlessly) */
        int cuts = 0;
        for (int t = 0; t < n && !cuts; t++) /* (a large face: most rows miss it) */
            cuts = h[0] * cur[t].u + h[1] * cur[t].v > h[2];
        if (!cuts)
            continue;
        clip_by(&cur, &next, &n, h, j);
        polygon_extent(cur, n, lo, hi);
    }
    if (cur != poly && n > 0) /* (the result where the caller looks) */
        memcpy(poly, cur, sizeof(facet_vertex) * (size_t)n);
    if (n < 3)
        return -1;
    for (int i = 0; i < n; i++)
        if (poly[i].edge < 0)
            return -1; /* unbounded on the plane, or beyond the box hint */
    return n;
}

/* A rectangle of the plane's kept coordinates holding the face: the
 * polygon's, widened by 2^-20 of the box hint's extent, each of its four
 * sides (u <= hi[0], -u <= -lo[0], v <= hi[1], -v <= -lo[1]) proved
 * implied on the plane.  1 when proved. */
static int face_rectangle(const hs_poly *p, const plane_frame *f, int k,
                          const facet_vertex *poly, int nv, const fast_prep *fp, double *lo,
                          double *hi)
{
    double pad = hint_extent(fp) * 0x1p-20;
    polygon_extent(poly, nv, lo, hi);
    for (int c = 0; c < 2; c++) {
        lo[c] -= pad;
        hi[c] += pad;
        if (!isfinite(lo[c]) || !isfinite(hi[c]))
            return 0;
    }
    for (int c = 0; c < 2; c++)
        for (int side = 0; side < 2; side++) {
            double e[3] = {0, 0, 0}, h[3];
            e[c ? f->c2 : f->c1] = side ? 1 : -1;
            double rhs = side ? hi[c] : -lo[c];
            on_plane(f, e, rhs, h);
            if (!implied_at_polygon(p, k, poly, nv, h, e, rhs))
                return 0;
        }
    return 1;
}

/* Does row (ai, bi), h on the plane (on_plane's doubles), hold on all of
 * the proved rectangle lo, hi (so on the face)?  On the plane, a_i . y -
 * b_i = alpha u + beta v - gamma exactly, with alpha = a_c1 - sigma g_c1,
 * beta = a_c2 - sigma g_c2, gamma = b_i - sigma g_b, sigma = a_kk / g_kk;
 * on_plane's h is each within 4 u (|first| + |s second|) (s = fl(sigma):
 * the quotient, the product and the difference each round once); over
 * the rectangle alpha u <= h0 U + |alpha - h0| max |u| for the corner U
 * that h0's sign picks; the sum of the three terms rounds by gamma(3). */
static int holds_on_rectangle(const plane_frame *f, const double *ai, double bi,
                              const double *h, const double *lo, const double *hi)
{
    const double u = FP_U, s = ai[f->kk] / f->g[f->kk];
    double U = h[0] > 0 ? hi[0] : lo[0], V = h[1] > 0 ? hi[1] : lo[1];
    double tu = h[0] * U, tv = h[1] * V, sum = tu + tv - h[2];
    double ea = 4 * u * (fabs(ai[f->c1]) + fabs(s * f->g[f->c1])) * fp_max(fabs(lo[0]), fabs(hi[0]));
    double eb = 4 * u * (fabs(ai[f->c2]) + fabs(s * f->g[f->c2])) * fp_max(fabs(lo[1]), fabs(hi[1]));
    double ec = 4 * u * (fabs(bi) + fabs(s * f->gb));
    double err = (fp_gamma(3) * (fabs(tu) + fabs(tv) + fabs(h[2])) + ea + eb + ec) * (1 + 16 * u);
    return sum + err + 0x1p-1000 < 0;
}

/* Face k's frame: 1, or 0 when a_k is 0. */
static int frame_of(const hs_poly *p, int k, plane_frame *f)
{
    f->g = hpoly_row(p, k);
    f->gb = p->b[k];
    f->kk = fp_largest_axis(f->g, 3);
    f->c1 = f->kk == 0 ? 1 : 0;
    f->c2 = f->kk == 2 ? 1 : 2;
    return f->g[f->kk] != 0;
}

static int listed(const int *rows, int count, int i)
{
    for (int t = 0; t < count; t++)
        if (rows[t] == i)
            return 1;
    return 0;
}

/* fast_facet_prove, with H (3 m doubles: every row on face k's plane, as
 * on_plane makes them) when the caller has them, else NULL. */
static int prove(const fast_prep *fp, int k, int *rows, int count, int cap, const double *H)
{
    const hs_poly *p = fp->poly;
    plane_frame f;
    if (fp->n != 3 || k < 0 || k >= p->m || count < 3 || count > cap ||
        cap > FAST_FACET_MAX_EDGES || !frame_of(p, k, &f))
        return -1;
    /* the polygon the listed rows bound, from a square beyond the box hint */
    facet_vertex poly[2 * (FAST_FACET_MAX_EDGES + 5)], *cur = poly,
        *next = poly + FAST_FACET_MAX_EDGES + 5;
    int nv = square_of(fp, &f, cur);
    for (int t = 0; t < count && nv > 0; t++) {
        double own[3];
        if (rows[t] < 0 || rows[t] >= p->m || rows[t] == k)
            return -1;
        const double *h = H ? H + 3 * (size_t)rows[t] : own;
        if (!H)
            on_plane(&f, hpoly_row(p, rows[t]), p->b[rows[t]], own);
        clip_by(&cur, &next, &nv, h, rows[t]);
    }
    if (nv < 3)
        return -1;
    for (int t = 0; t < nv; t++)
        if (cur[t].edge < 0)
            return -1; /* unbounded on the plane, or beyond the box hint */
    /* A rectangle of the plane around the face, proved (four rows implied
     * as below): a row that holds on all of it holds on the face, by sums
     * in doubles with their rounding bounded; the face's near rows by
     * their own pair. */
    double lo[2], hi[2];
    int boxed = face_rectangle(p, &f, k, cur, nv, fp, lo, hi), listed_count = count;
    for (int i = 0; i < p->m; i++) {
        if (i == k || listed(rows, listed_count, i))
            continue;
        const double *ai = hpoly_row(p, i);
        double own[3];
        const double *h = H ? H + 3 * (size_t)i : own;
        if (!H)
            on_plane(&f, ai, p->b[i], own);
        if (boxed && holds_on_rectangle(&f, ai, p->b[i], h, lo, hi))
            continue;
        if (implied_at_polygon(p, k, cur, nv, h, ai, p->b[i]))
            continue;
        /* (a row no pair proves: it joins the list, which is always sound) */
        if (count == cap)
            return -1;
        rows[count++] = i;
    }
    return count;
}

int fast_facet_prove(const fast_prep *fp, int k, int *rows, int count, int cap)
{
    return prove(fp, k, rows, count, cap, NULL);
}

/* Face k's list into out (room for FAST_FACET_MAX_EDGES): its count, or
 * -1 when the face gets none, -2 out of memory. */
static int facet_make(const fast_prep *fp, int k, int *out)
{
    const hs_poly *p = fp->poly;
    int m = p->m;
    plane_frame f;
    if (!frame_of(p, k, &f))
        return -1;
    facet_vertex *poly = mem_alloc(2 * ((size_t)m + 5), sizeof(facet_vertex));
    double *H = mem_alloc(3 * (size_t)m, sizeof(double));
    if (!poly || !H) {
        free(poly);
        free(H);
        return -2;
    }
    int nv = facet_polygon(fp, &f, k, poly, poly + m + 5, H), count = 0;
    /* the edges' rows, each once (a row meets a convex polygon in one edge) */
    for (int t = 0; t < nv && count >= 0; t++) {
        if (listed(out, count, poly[t].edge))
            continue;
        if (count == FAST_FACET_MAX_EDGES)
            count = -1;
        else
            out[count++] = poly[t].edge;
    }
    free(poly);
    /* (the proof reads the rows on the plane the polygon was cut by) */
    int got = nv < 0 || count < 0 ? -1 : prove(fp, k, out, count, FAST_FACET_MAX_EDGES, H);
    free(H);
    return got;
}

static void *make_slots(const fast_prep *fp)
{
    _Atomic(int *) *slots = mem_alloc((size_t)fp->m, sizeof *slots);
    if (slots)
        for (int i = 0; i < fp->m; i++)
            atomic_init(&slots[i], NULL);
    return slots;
}

const int *fast_facet_rows(const fast_prep *fp, int k, int *count)
{
    *count = 0;
    if (!fp || fp->why || fp->n != 3 || k < 0 || k >= fp->m)
        return NULL;
    _Atomic(int *) *slots = fast_prep_lazy(fp, &((fast_prep *)fp)->facets, make_slots);
    if (!slots)
        return NULL;
    int *have = atomic_load_explicit(&slots[k], memory_order_acquire);
    if (!have) {
        int rows[FAST_FACET_MAX_EDGES];
        int got = facet_make(fp, k, rows);
        if (got == -2)
            return NULL; /* (out of memory: asked again next time) */
        int *mine = mem_alloc(1 + (size_t)(got > 0 ? got : 0), sizeof(int)), *expected = NULL;
        if (!mine)
            return NULL;
        mine[0] = got > 0 ? got : -1;
        if (got > 0)
            memcpy(mine + 1, rows, sizeof(int) * (size_t)got);
        if (atomic_compare_exchange_strong_explicit(&slots[k], &expected, mine,
                                                    memory_order_acq_rel, memory_order_acquire))
            have = mine;
        else {
            free(mine); /* another thread installed the same list first */
            have = expected;
        }
    }
    if (have[0] <= 0)
        return NULL;
    *count = have[0];
    return have + 1;
}

void fast_facets_free(fast_prep *fp)
{
    _Atomic(int *) *slots = atomic_load(&fp->facets);
    if (!slots)
        return;
    for (int i = 0; i < fp->m; i++)
        free(atomic_load(&slots[i]));
    free(slots);
}
