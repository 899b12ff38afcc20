/* obb_fit.c -- fitting an oriented box to points (seed 004's OBB; the
 * covariance fit of Gottschalk, Lin and Manocha's OBBTree, which the seed
 * cites as [6]).
 *
 * Candidate frames: the world axes; the principal axes of the convex
 * hull's surface (area-weighted covariance of its triangles, so that how
 * densely the points sample the surface does not matter), or of the
 * points when they have no solid hull; and frames with one axis along a
 * hull facet's normal and one along an edge of that facet (a smallest box
 * has a face flush with a hull facet in many cases).  The frame whose
 * rough box is smallest (volume, then area, then size) is kept, and the
 * final box is a rigorous enclosure (obb.c).  Only the choice of frame is
 * heuristic; containment does not depend on it. */
#include "polytope/obb_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hull3.h"
#include "polytope/obb.h"
#include "polytope/error.h"
#include "polytope/fp.h"

#define MAX_FACET_FRAMES 512

/* Points normalised for the heuristics: (p - ref) / scale, so that
 * squares neither overflow nor underflow. */
typedef struct fit_pts {
    int n;
    const double *p;  /* n * 3 original points */
    const int *idx;   /* NULL or n indices into p */
    double ref[3], scale;
    double *norm;     /* NULL, or the normalised input points (3 per input
                         point, filled for the points of the set), computed
                         once: every frame scores all of them */
} fit_pts;

/* Input point number `raw`, normalised. */
static void get_raw(const fit_pts *s, int raw, double out[3])
{
    if (s->norm) {
        memcpy(out, s->norm + 3 * (size_t)raw, 3 * sizeof(double));
        return;
    }
    const double *q = s->p + 3 * (size_t)raw;
    for (int j = 0; j < 3; j++)
        out[j] = (q[j] - s->ref[j]) / s->scale;
}

/* Point i of the set (a hull vertex when idx is set), normalised. */
static void get_point(const fit_pts *s, int i, double out[3])
{
    get_raw(s, s->idx ? s->idx[i] : i, out);
}

static void set_normalisation(fit_pts *s)
{
    const double *q0 = s->p + 3 * (size_t)(s->idx ? s->idx[0] : 0);
    memcpy(s->ref, q0, sizeof s->ref);
    double mx = 0;
    for (int i = 0; i < s->n; i++) {
        const double *q = s->p + 3 * (size_t)(s->idx ? s->idx[i] : i);
        for (int j = 0; j < 3; j++) {
            double d = fabs(q[j] / 4 - s->ref[j] / 4); /* no overflow */
            mx = d > mx ? d : mx;
        }
    }
    s->scale = mx > 0 ? mx * 4 : 1;
}

/* ------------------------------------------------ symmetric eigenvectors */

void obb_jacobi3(double a[3][3], double v[9], int sweeps, double tol)
{
    for (int i = 0; i < 9; i++)
        v[i] = i % 4 == 0;
    for (int sweep = 0; sweep < sweeps; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        double diag = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
        if (!(off > tol * diag))
            return;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0)
                    continue;
                double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 3; k++) { /* a <- J^T a J */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) {
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) { /* rows of v are eigenvectors */
                    double vp = v[3 * p + k], vq = v[3 * q + k];
                    v[3 * p + k] = c * vp - s * vq;
                    v[3 * q + k] = s * vp + c * vq;
                }
            }
    }
}

/* Frame of the principal axes of the second moments m (sum of weights w,
 * first moments s).  Returns 0, or -1 when degenerate. */
static int principal_frame(double m[3][3], const double s[3], double w, double *ax)
{
    if (!(w > 0))
        return -1;
    double cov[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            cov[i][j] = m[i][j] / w - (s[i] / w) * (s[j] / w);
    obb_jacobi3(cov, ax, 50, 1e-18);
    return obb_orthonormalize(ax);
}

static void add_outer(double m[3][3], const double p[3], double w)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[i][j] += w * p[i] * p[j];
}

/* Covariance of the points themselves. */
static int points_frame(const fit_pts *s, double *ax)
{
    double m[3][3] = {{0}}, sum[3] = {0, 0, 0}, p[3];
    for (int i = 0; i < s->n; i++) {
        get_point(s, i, p);
        add_outer(m, p, 1);
        for (int j = 0; j < 3; j++)
            sum[j] += p[j];
    }
    return principal_frame(m, sum, s->n, ax);
}

/* Covariance of the hull's surface: triangle (p, q, r) of area A
 * contributes A / 12 (9 g g^T + p p^T + q q^T + r r^T), g its centroid,
 * to the second moment and A g to the first. */
static int surface_frame(const fit_pts *s, const hull3 *h, double *ax)
{
    double m[3][3] = {{0}}, sum[3] = {0, 0, 0}, area = 0;
    for (int f = 0; f < h->nfacets; f++) {
        int a = h->facet_start[f], end = h->facet_start[f + 1];
        double p[3], q[3], r[3], e1[3], e2[3], nrm[3], g[3];
        get_raw(s, h->facet_vert[a], p);
        for (int k = a + 1; k + 1 < end; k++) {
            get_raw(s, h->facet_vert[k], q);
            get_raw(s, h->facet_vert[k + 1], r);
            for (int j = 0; j < 3; j++) {
                e1[j] = q[j] - p[j];
                e2[j] = r[j] - p[j];
                g[j] = (p[j] + q[j] + r[j]) / 3;
            }
            nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
            nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
            nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
            double A = 0.5 * sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
            add_outer(m, g, 9 * A / 12);
            add_outer(m, p, A / 12);
            add_outer(m, q, A / 12);
            add_outer(m, r, A / 12);
            for (int j = 0; j < 3; j++)
                sum[j] += A * g[j];
            area += A;
        }
    }
    return principal_frame(m, sum, area, ax);
}

/* ------------------------------------------------------- frame scoring */

typedef struct score {
    double vol, area, size;
} score;

static int fit_better(const score *a, const score *b)
{
    if (a->vol != b->vol)
        return a->vol < b->vol;
    if (a->area != b->area)
        return a->area < b->area;
    return a->size < b->size;
}

static score widths_score(const double lo[3], const double hi[3])
{
    double w0 = hi[0] - lo[0], w1 = hi[1] - lo[1], w2 = hi[2] - lo[2];
    score sc = {w0 * w1 * w2, w0 * w1 + w1 * w2 + w2 * w0, w0 + w1 + w2};
    return sc;
}

/* Score of the box of the points in frame ax.  With bound (not NULL),
 * the points are visited in FRAME_PASSES interleaved passes (i = r,
 * r + FRAME_PASSES, ...), and the scan stops (*beaten = 1) as soon as the
 * box of the points seen so far scores worse than *bound: widths only
 * grow as points are added (hi - lo, the products and sums of widths are
 * monotone under rounding), so the whole box would score worse too.  The
 * minimum and maximum do not depend on the visiting order (up to the sign
 * of a zero, which no comparison of scores sees), so the scores of the
 * frames that are scanned to the end, and hence the frame chosen, are
 * those of a plain scan.  (Elongated point sets gain most: near a sphere
 * every frame scores about the same and most scans run to the end.) */
#define FRAME_PASSES 16

static score frame_score(const fit_pts *s, const double *ax, const score *bound, int *beaten)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double p[3];
    int passes = bound ? FRAME_PASSES : 1;
    *beaten = 0;
    for (int r = 0; r < passes; r++) {
        for (int i = r; i < s->n; i += passes) {
            get_point(s, i, p);
            for (int k = 0; k < 3; k++) {
                double x = ax[3 * k] * p[0] + ax[3 * k + 1] * p[1] + ax[3 * k + 2] * p[2];
                lo[k] = x < lo[k] ? x : lo[k];
                hi[k] = x > hi[k] ? x : hi[k];
            }
        }
        if (bound && r + 1 < passes && r < s->n) {
            score part = widths_score(lo, hi);
            if (fit_better(bound, &part)) {
                *beaten = 1;
                return part;
            }
        }
    }
    return widths_score(lo, hi);
}

/* Keep ax as the best frame if it scores better. */
static void fit_consider(const fit_pts *s, double ax[9], double best[9], score *bs)
{
    int beaten;
    score sc = frame_score(s, ax, bs, &beaten);
    if (!beaten && fit_better(&sc, bs)) {
        *bs = sc;
        memcpy(best, ax, 9 * sizeof(double));
    }
}

/* Frames (edge, normal x edge, normal) for the edges of hull facets; at
 * most MAX_FACET_FRAMES, facets taken with a stride when there are more. */
static void facet_frames(const fit_pts *s, const hull3 *h, double best[9], score *bs)
{
    int total = h->facet_start[h->nfacets];
    int stride = total / MAX_FACET_FRAMES + 1;
    for (int f = 0; f < h->nfacets; f += stride) {
        int a = h->facet_start[f], end = h->facet_start[f + 1];
        double nrm[3] = {0, 0, 0}, p[3], q[3];
        for (int k = a; k < end; k++) { /* Newell's normal */
            get_raw(s, h->facet_vert[k], p);
            get_raw(s, h->facet_vert[k + 1 < end ? k + 1 : a], q);
            nrm[0] += (p[1] - q[1]) * (p[2] + q[2]);
            nrm[1] += (p[2] - q[2]) * (p[0] + q[0]);
            nrm[2] += (p[0] - q[0]) * (p[1] + q[1]);
        }
        for (int k = a; k < end; k++) {
            double ax[9];
            get_raw(s, h->facet_vert[k], p);
            get_raw(s, h->facet_vert[k + 1 < end ? k + 1 : a], q);
            for (int j = 0; j < 3; j++) {
                ax[j] = nrm[j];
                ax[3 + j] = q[j] - p[j];
            }
            if (obb_orthonormalize(ax) == 0)
                fit_consider(s, ax, best, bs);
        }
    }
}

/* ----------------------------------------------------------- the fit */

/* Rigorous enclosure of the points in frame fax around c: the extent of
 * each point as a box with no size (obb_extent_in). */
static void enclose(hs_obb *box, const double *fax, const fit_pts *s)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < s->n; i++) {
        const double *q = s->p + 3 * (size_t)(s->idx ? s->idx[i] : i);
        for (int k = 0; k < 3; k++) {
            double x = fax[3 * k] * q[0] + fax[3 * k + 1] * q[1] + fax[3 * k + 2] * q[2];
            lo[k] = x < lo[k] ? x : lo[k];
            hi[k] = x > hi[k] ? x : hi[k];
        }
    }
    memcpy((double *)box->axis, fax, sizeof box->axis);
    for (int j = 0; j < 3; j++) {
        box->center[j] = 0;
        for (int k = 0; k < 3; k++)
            box->center[j] += (0.5 * lo[k] + 0.5 * hi[k]) * fax[3 * k + j];
    }
    double ext[3] = {0, 0, 0};
    hs_obb pt = {{0, 0, 0}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {0, 0, 0}};
    for (int i = 0; i < s->n; i++) {
        memcpy(pt.center, s->p + 3 * (size_t)(s->idx ? s->idx[i] : i), sizeof pt.center);
        obb_extent_in(fax, box->center, &pt, NULL, ext);
    }
    obb_halves_from_extents(fax, ext, box->half);
}

static hs_code check_points(const double *points, int n, hs_error *err)
{
    if (n < 1)
        return err_set(err, HS_ERR_ARG, "hs_obb_fit: need at least one point (n = %d)", n);
    if (!points)
        return err_set(err, HS_ERR_ARG, "hs_obb_fit: points is NULL");
    for (int i = 0; i < 3 * n; i++)
        if (!isfinite(points[i]))
            return err_set(err, HS_ERR_ARG, "hs_obb_fit: coordinate %d of point %d is not finite",
                           i % 3 + 1, i / 3);
    return HS_OK;
}

/* The frame of the box: the best of the candidates for the points pts[]
 * (n of them) whose hull is h (NULL: no solid hull), into best[9]. */
static void choose_frame(const double *pts, int n, const hull3 *h, double best[9])
{
    fit_pts s = {h ? h->nverts : n, pts, h ? h->verts : NULL, {0, 0, 0}, 1, NULL};
    set_normalisation(&s);
    /* the same values get_raw computes, once per point (when memory
     * allows; otherwise get_raw computes them each time) */
    double *norm = malloc(sizeof(double) * 3 * (size_t)n);
    if (norm) {
        for (int i = 0; i < s.n; i++) {
            int raw = s.idx ? s.idx[i] : i;
            get_raw(&s, raw, norm + 3 * (size_t)raw);
        }
        s.norm = norm;
    }
    double ax[9];
    for (int i = 0; i < 9; i++)
        best[i] = i % 4 == 0;
    int beaten;
    score bs = frame_score(&s, best, NULL, &beaten);
    if ((h ? surface_frame(&s, h, ax) : points_frame(&s, ax)) == 0)
        fit_consider(&s, ax, best, &bs);
    if (h)
        facet_frames(&s, h, best, &bs);
    free(norm);
}

hs_code hs_obb_fit(hs_obb *box, const double *points, int n, hs_error *err)
{
    if (!box)
        return err_set(err, HS_ERR_ARG, "hs_obb_fit: box is NULL");
    hs_code rc = check_points(points, n, err);
    if (rc != HS_OK)
        return rc;
    hull3 *h = NULL;
    if (n >= 4) {
        hs_error herr;
        rc = hull3_points(points, n, &h, &herr);
        if (rc != HS_OK && rc != HS_ERR_INPUT)
            return err_set(err, rc, "hs_obb_fit: %s", herr.msg);
    }
    double best[9];
    choose_frame(points, n, h, best);
    /* a point of a convex set's box is extreme at a hull vertex: the box
     * of the hull's vertices holds every point */
    fit_pts s = {h ? h->nverts : n, points, h ? h->verts : NULL, {0, 0, 0}, 1, NULL};
    enclose(box, best, &s);
    hull3_free(h);
    return HS_OK;
}

hs_code obb_fit_hull(hs_obb *box, const double *frame_pts, int frame_n, const hull3 *h,
                     const double *points, int n, hs_error *err)
{
    if (!box || !h || !frame_pts || h->npoints != frame_n)
        return err_set(err, HS_ERR_ARG, "obb_fit_hull: NULL argument or a hull of other points");
    hs_code rc = check_points(points, n, err);
    if (rc != HS_OK)
        return rc;
    double best[9];
    choose_frame(frame_pts, frame_n, h, best);
    fit_pts s = {n, points, NULL, {0, 0, 0}, 1, NULL};
    enclose(box, best, &s);
    return HS_OK;
}

void obb_fit_hull_frame(const double *frame_pts, int frame_n, const hull3 *h, double fax[9])
{
    choose_frame(frame_pts, frame_n, h, fax);
}

/* Centre c = sum_i mid_i fax_i, mid_i the middle of [-down_i, up_i].  For
 * x in the slabs, |fax_i . (x - c)| <= max(up_i - t_i, down_i + t_i) with
 * t_i = fax_i . c; t~_i = fl(fax_i . c) is within e_i = 3.1 u |c|_1 of it
 * (|fax_ij| <= 1.01).  That maximum is at least (up_i + down_i) / 2 >= 0,
 * so its computed value is at least (1 - u) times it, and the sum with e_i
 * at least (1 - u)^2 times the true sum: obb_up covers both. */
void obb_from_slabs(hs_obb *box, const double fax[9], const double up[3], const double down[3])
{
    double mid[3], ext[3];
    for (int i = 0; i < 3; i++)
        mid[i] = 0.5 * up[i] - 0.5 * down[i];
    memcpy((double *)box->axis, fax, sizeof box->axis);
    for (int j = 0; j < 3; j++) {
        box->center[j] = 0;
        for (int i = 0; i < 3; i++)
            box->center[j] += mid[i] * fax[3 * i + j];
    }
    const double *c = box->center;
    double e = 3.1 * FP_U * (fabs(c[0]) + fabs(c[1]) + fabs(c[2]));
    for (int i = 0; i < 3; i++) {
        double t = fax[3 * i] * c[0] + fax[3 * i + 1] * c[1] + fax[3 * i + 2] * c[2];
        double hi = up[i] - t, lo = down[i] + t;
        ext[i] = obb_up((hi > lo ? hi : lo) + e); /* NaN propagates through obb_up */
    }
    obb_halves_from_extents(fax, ext, box->half);
}
