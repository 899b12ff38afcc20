/* contact.c -- contact points of two pieces closer than a threshold.
 *
 * Seed 001 defines a contact as a place where two bodies are closer than
 * the threshold without interpenetrating, and prunes the many point
 * contacts of a small area to those on the boundary of their convex hull.
 * For convex pieces: the normal n joins the closest points (or, for
 * touching pieces, is the normal of the exact separating plane); the
 * vertices of each piece within the threshold of its supporting plane
 * across n are projected onto the plane normal to n; the two projected
 * convex hulls are clipped against each other; the corners of the result,
 * lifted back to each piece's supporting plane, are the contacts.  For
 * meshes: the closest points of each pair of triangles within the
 * threshold, pruned to the corners of their convex hull in the contact
 * plane. */
#include "src/narrow/contact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "src/shape/gjk.h"
#include "src/shape/pose.h"

/* ---------------------------------------------------------- distance */

/* Points of a mesh triangle in the world frame. */
static void world_triangle(const narrow_piece *p, int t, double out[9])
{
    for (int k = 0; k < 3; k++)
        pose_apply(p->pose, p->g->mv + 3 * p->g->tris[3 * t + k], out + 3 * k);
}

/* The points of piece p as convex sets: the whole vertex set for a convex
 * piece, one triangle after another for a mesh; fn receives each. */
typedef void (*convex_fn)(void *user, const double *pts, int n);

static void each_convex_part(narrow_ws *ws, const narrow_piece *p, int offset, convex_fn fn,
                             void *user)
{
    const geom *g = p->g;
    if (g->kind == PIECE_CONVEX) {
        int n = narrow_world_points(ws, p, offset);
        if (n > 0)
            fn(user, ws->pts + 3 * offset, n);
        return;
    }
    for (int t = 0; t < g->ntris; t++) {
        double tri[9];
        world_triangle(p, t, tri);
        fn(user, tri, 3);
    }
}

typedef struct dist_search {
    narrow_ws *ws;
    const narrow_piece *b;
    const double *a_pts;
    int a_n;
    double best, pa[3], pb[3];
} dist_search;

static void against_b(void *user, const double *pts, int n)
{
    dist_search *ds = user;
    double pa[3], pb[3];
    double d = gjk_distance(ds->a_pts, ds->a_n, pts, n, pa, pb);
    if (d < ds->best) {
        ds->best = d;
        memcpy(ds->pa, pa, sizeof pa);
        memcpy(ds->pb, pb, sizeof pb);
    }
}

static void against_a(void *user, const double *pts, int n)
{
    dist_search *ds = user;
    double copy[9];
    const double *keep = pts;
    if (n == 3) { /* a triangle: b's points may overwrite ws->pts */
        memcpy(copy, pts, sizeof copy);
        keep = copy;
    }
    ds->a_pts = keep;
    ds->a_n = n;
    each_convex_part(ds->ws, ds->b, n == 3 ? 0 : n, against_b, ds);
}

double contact_distance(narrow_ws *ws, const narrow_piece *a, const narrow_piece *b,
                        double pa[3], double pb[3])
{
    dist_search ds = {ws, b, NULL, 0, INFINITY, {0, 0, 0}, {0, 0, 0}};
    if (narrow_reserve_points(ws, a->g, b->g) != 0)
        return INFINITY;
    each_convex_part(ws, a, 0, against_a, &ds);
    memcpy(pa, ds.pa, sizeof ds.pa);
    memcpy(pb, ds.pb, sizeof ds.pb);
    return ds.best;
}

/* -------------------------------------------------- plane geometry 2-D */

typedef struct p2 {
    double x, y;
} p2;

static double cross2(p2 o, p2 a, p2 b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

static int by_xy(const void *u, const void *v)
{
    const p2 *a = u, *b = v;
    return a->x < b->x ? -1 : a->x > b->x ? 1 : (a->y > b->y) - (a->y < b->y);
}

/* Andrew's monotone chain: hull corners counterclockwise into h; count. */
static int hull2(p2 *pts, int n, p2 *h)
{
    if (n <= 1) {
        if (n == 1)
            h[0] = pts[0];
        return n;
    }
    qsort(pts, (size_t)n, sizeof *pts, by_xy);
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && cross2(h[k - 2], h[k - 1], pts[i]) <= 0)
            k--;
        h[k++] = pts[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; i--) {
        while (k >= lower && cross2(h[k - 2], h[k - 1], pts[i]) <= 0)
            k--;
        h[k++] = pts[i];
    }
    return k - 1;
}

/* Sutherland-Hodgman: clip polygon p (np) by the convex polygon c (nc,
 * counterclockwise); result in out (room for np + nc). */
static int clip_convex2(const p2 *p, int np, const p2 *c, int nc, p2 *out, p2 *tmp)
{
    int n = np;
    memcpy(out, p, sizeof *p * (size_t)np);
    for (int e = 0; e < nc && n > 0; e++) {
        p2 a = c[e], b = c[(e + 1) % nc];
        int m = 0;
        for (int i = 0; i < n; i++) {
            p2 s = out[i], t = out[(i + 1) % n];
            double ds = cross2(a, b, s), dt = cross2(a, b, t);
            if (ds >= 0)
                tmp[m++] = s;
            if ((ds >= 0) != (dt >= 0)) {
                double f = ds / (ds - dt);
                tmp[m++] = (p2){s.x + f * (t.x - s.x), s.y + f * (t.y - s.y)};
            }
        }
        memcpy(out, tmp, sizeof *tmp * (size_t)m);
        n = m;
    }
    return n;
}

/* An orthonormal basis (u, w) of the plane normal to n. */
static void plane_basis(const double n[3], double u[3], double w[3])
{
    double t[3] = {0, 0, 0};
    t[fabs(n[0]) < 0.6 ? 0 : fabs(n[1]) < 0.6 ? 1 : 2] = 1;
    double k = dot3(t, n);
    for (int d = 0; d < 3; d++)
        u[d] = t[d] - k * n[d];
    double len = sqrt(dot3(u, u));
    for (int d = 0; d < 3; d++)
        u[d] /= len;
    w[0] = n[1] * u[2] - n[2] * u[1];
    w[1] = n[2] * u[0] - n[0] * u[2];
    w[2] = n[0] * u[1] - n[1] * u[0];
}

/* ------------------------------------------------------ convex pieces */

/* Projections of the vertices within `depth` of the supporting plane of
 * the points across direction dir (sign +1: max of n.v, -1: min). */
static int support_feature(const double *pts, int n, const double nrm[3], int sign, double depth,
                           const double u[3], const double w[3], p2 *out, double *height)
{
    double h = -INFINITY;
    for (int i = 0; i < n; i++)
        h = fmax(h, sign * dot3(pts + 3 * i, nrm));
    int k = 0;
    for (int i = 0; i < n; i++)
        if (sign * dot3(pts + 3 * i, nrm) >= h - depth)
            out[k++] = (p2){dot3(pts + 3 * i, u), dot3(pts + 3 * i, w)};
    *height = sign * h;
    return k;
}

static void lift_to_plane(const p2 *q, const double u[3], const double w[3], const double n[3], double h,
                 double out[3])
{
    for (int d = 0; d < 3; d++)
        out[d] = q->x * u[d] + q->y * w[d] + h * n[d];
}

/* The i-th of at most CONTACT_MAX corners kept of a hull of k corners:
 * all of them when they fit, else corners spread evenly around it. */
static int spread(int i, int k)
{
    return k <= CONTACT_MAX ? i : (int)((long)i * k / CONTACT_MAX);
}

/* The clipped region between two supporting features, as contacts. */
static int feature_contacts(const p2 *fa, int na, const p2 *fb, int nb, double ha, double hb,
                            const double u[3], const double w[3], contact_set *out)
{
    p2 *buf = malloc(sizeof(p2) * (size_t)(4 * (na + nb) + 8));
    if (!buf)
        return 0;
    p2 *hA = buf, *hB = hA + na + 1, *res = hB + nb + 1, *tmp = res + na + nb + 2;
    p2 *ca = tmp + na + nb + 2;
    memcpy(ca, fa, sizeof *fa * (size_t)na);
    int ka = hull2(ca, na, hA);
    memcpy(ca, fb, sizeof *fb * (size_t)nb);
    int kb = hull2(ca, nb, hB);
    int k = 0;
    if (ka >= 3 && kb >= 3)
        k = clip_convex2(hA, ka, hB, kb, res, tmp);
    else if (ka >= 1 && kb >= 3)
        k = clip_convex2(hA, ka, hB, kb, res, tmp); /* a point or a segment inside b's face */
    else if (kb >= 1 && ka >= 3)
        k = clip_convex2(hB, kb, hA, ka, res, tmp);
    int count = k < CONTACT_MAX ? k : CONTACT_MAX;
    for (int i = 0; i < count; i++) {
        const p2 *q = &res[spread(i, k)];
        lift_to_plane(q, u, w, out->normal, ha, out->pt[i].on_a);
        lift_to_plane(q, u, w, out->normal, hb, out->pt[i].on_b);
    }
    free(buf);
    return count;
}

static int convex_contacts(narrow_ws *ws, const narrow_piece *a, const narrow_piece *b,
                           double threshold, contact_set *out)
{
    if (narrow_reserve_points(ws, a->g, b->g) != 0)
        return 0;
    int na = narrow_world_points(ws, a, 0);
    int nb = narrow_world_points(ws, b, na);
    if (na <= 0 || nb <= 0)
        return 0;
    double u[3], w[3], ha, hb, depth = fmax(threshold - out->distance, 0);
    plane_basis(out->normal, u, w);
    p2 *fa = malloc(sizeof(p2) * (size_t)(na + nb));
    if (!fa)
        return 0;
    p2 *fb = fa + na;
    int ka = support_feature(ws->pts, na, out->normal, +1, depth, u, w, fa, &ha);
    int kb = support_feature(ws->pts + 3 * na, nb, out->normal, -1, depth, u, w, fb, &hb);
    int count = feature_contacts(fa, ka, fb, kb, ha, hb, u, w, out);
    free(fa);
    return count;
}

/* --------------------------------------------------------- mesh pieces */

typedef struct mesh_contacts {
    narrow_ws *ws;
    const narrow_piece *b;
    const double *a_pts;
    int a_n;
    double threshold;
    contact_set *out;
    double pa[64][3], pb[64][3];
    int n;
} mesh_contacts;

static void close_b(void *user, const double *pts, int n)
{
    mesh_contacts *mc = user;
    double pa[3], pb[3];
    if (mc->n < 64 && gjk_distance(mc->a_pts, mc->a_n, pts, n, pa, pb) < mc->threshold) {
        memcpy(mc->pa[mc->n], pa, sizeof pa);
        memcpy(mc->pb[mc->n], pb, sizeof pb);
        mc->n++;
    }
}

static void close_a(void *user, const double *pts, int n)
{
    mesh_contacts *mc = user;
    double copy[9];
    const double *keep = pts;
    if (n == 3) {
        memcpy(copy, pts, sizeof copy);
        keep = copy;
    }
    mc->a_pts = keep;
    mc->a_n = n;
    each_convex_part(mc->ws, mc->b, n == 3 ? 0 : n, close_b, mc);
}

/* Closest points of the close triangle pairs, pruned to the corners of
 * their convex hull in the contact plane. */
static int mesh_contact_points(narrow_ws *ws, const narrow_piece *a, const narrow_piece *b,
                               double threshold, contact_set *out)
{
    mesh_contacts *mc = calloc(1, sizeof *mc);
    if (!mc)
        return 0;
    *mc = (mesh_contacts){ws, b, NULL, 0, threshold, out, {{0}}, {{0}}, 0};
    if (narrow_reserve_points(ws, a->g, b->g) == 0)
        each_convex_part(ws, a, 0, close_a, mc);
    double u[3], w[3];
    plane_basis(out->normal, u, w);
    p2 proj[64], hull[65];
    for (int i = 0; i < mc->n; i++)
        proj[i] = (p2){dot3(mc->pa[i], u), dot3(mc->pa[i], w)};
    int k = hull2(proj, mc->n, hull), count = 0;
    for (int j = 0; j < k && j < CONTACT_MAX; j++)
        for (int i = 0, h = spread(j, k); i < mc->n; i++)
            if (dot3(mc->pa[i], u) == hull[h].x && dot3(mc->pa[i], w) == hull[h].y) {
                memcpy(out->pt[count].on_a, mc->pa[i], sizeof mc->pa[i]);
                memcpy(out->pt[count].on_b, mc->pb[i], sizeof mc->pb[i]);
                count++;
                break;
            }
    free(mc);
    return count;
}

/* --------------------------------------------------------------- entry */

int contact_points(narrow_ws *ws, const narrow_piece *a, const narrow_piece *b,
                   const piece_hit *hit, double threshold, contact_set *out)
{
    double pa[3], pb[3];
    memset(out, 0, sizeof *out);
    out->distance = hit->status == HS_TOUCHING ? 0 : contact_distance(ws, a, b, pa, pb);
    if (hit->status == HS_OVERLAP || !(out->distance < threshold))
        return 0;
    if (hit->status == HS_TOUCHING) {
        memcpy(out->normal, hit->normal, sizeof out->normal);
        pa[0] = pb[0] = hit->witness[0];
        pa[1] = pb[1] = hit->witness[1];
        pa[2] = pb[2] = hit->witness[2];
    } else {
        for (int d = 0; d < 3; d++)
            out->normal[d] = (pb[d] - pa[d]) / out->distance;
    }
    if (dot3(out->normal, out->normal) == 0) { /* no direction known: the point alone */
        memcpy(out->pt[0].on_a, pa, sizeof pa);
        memcpy(out->pt[0].on_b, pb, sizeof pb);
        return out->count = 1;
    }
    int both_convex = a->g->kind == PIECE_CONVEX && b->g->kind == PIECE_CONVEX;
    out->count = both_convex ? convex_contacts(ws, a, b, threshold, out)
                             : mesh_contact_points(ws, a, b, threshold, out);
    if (out->count == 0) { /* clipping found no region: the closest pair */
        memcpy(out->pt[0].on_a, pa, sizeof pa);
        memcpy(out->pt[0].on_b, pb, sizeof pb);
        out->count = 1;
    }
    return out->count;
}
