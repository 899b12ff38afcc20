/* soup.c -- polygon soups made into pieces, shared by every reader (VRML
 * IndexedFaceSet and Inline meshes, OFF, OBJ, STL).
 *
 * From polygons to a piece.  Points are mapped into the body frame first,
 * exactly equal points are merged, each polygon P0..Pn becomes the fan
 * (P0, Pi, Pi+1), and fan triangles whose corners are collinear (zero
 * area) are dropped: they add no surface, and the world rejects them.  A
 * piece whose faces bound a closed convex solid (SOUP_CONVEX_TEST) becomes
 * the exact convex hull of its points.  Both tests allow rounding noise of
 * tol = 1e-9 of the piece's box diagonal (an exported convex piece has
 * corners rounded to doubles, and slivers between nearly equal corners):
 * "closed": once points within tol of each other are merged, every
 * directed edge of a polygon appears once and its reverse once; "convex":
 * no point lies more than tol outside the plane of a polygon (Newell
 * normal), on the same side for all polygons.  The hull is then taken of
 * the points so merged; when the world cannot build it (all points on a
 * plane, or a facet too thin for its normal to be a double), the faces
 * stay a mesh. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/fp.h"
#include "polytope/grow.h"
#include "polytope/hull3.h"
#include "polytope/mem.h"
#include "polytope/predicates.h"
#include "src/scene/scene.h"
#include "src/scene/soup.h"

/* ------------------------------------------------------------- soups */

void soup_init(scene_soup *s) { memset(s, 0, sizeof *s); }

void soup_free(scene_soup *s)
{
    free(s->pts);
    free(s->fidx);
    free(s->fstart);
    soup_init(s);
}

int soup_point(scene_soup *s, const double p[3])
{
    double *pts = grow_array(s->pts, &s->pcap, 3L * s->npts + 3, sizeof *pts);
    if (!pts)
        return -1;
    s->pts = pts;
    memcpy(s->pts + 3 * s->npts, p, 3 * sizeof(double));
    s->npts++;
    return 0;
}

int soup_corner(scene_soup *s, int idx)
{
    int *fidx = grow_array(s->fidx, &s->icap, (long)s->nidx + 1, sizeof *fidx);
    if (!fidx)
        return -1;
    s->fidx = fidx;
    s->fidx[s->nidx++] = idx;
    return 0;
}

int soup_end_face(scene_soup *s)
{
    int *fstart = grow_array(s->fstart, &s->fcap, (long)s->nfaces + 2, sizeof *fstart);
    if (!fstart)
        return -1;
    s->fstart = fstart;
    s->fstart[0] = 0;
    s->fstart[++s->nfaces] = s->nidx;
    return 0;
}

/* -------------------------------------------------- soup preparation */

/* The soup in the body frame: points merged, fan triangles kept. */
typedef struct prepared {
    double *pts;  /* mapped points, npts * 3 */
    int *canon;   /* point -> the representative of its equal points */
    int *tris;    /* kept fan triangles, representative indices */
    int ntris;
    double *cpts; /* the points the triangles use, compacted */
    int ncpts;
    int *ctris;   /* tris renumbered into cpts */
} prepared;

static void prepared_free(prepared *p)
{
    free(p->pts);
    free(p->canon);
    free(p->tris);
    free(p->cpts);
    free(p->ctris);
}

typedef struct keyed_point {
    double x[3];
    int idx;
} keyed_point;

static int by_coords(const void *a, const void *b)
{
    const keyed_point *p = a, *q = b;
    for (int d = 0; d < 3; d++)
        if (p->x[d] != q->x[d])
            return p->x[d] < q->x[d] ? -1 : 1;
    return (p->idx > q->idx) - (p->idx < q->idx);
}

static int same_point(const double *a, const double *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* canon[i]: the first (in sorted order) of the points equal to point i. */
static int merge_equal_points(prepared *p, int n)
{
    keyed_point *k = mem_alloc((size_t)n, sizeof *k);
    p->canon = mem_alloc((size_t)n, sizeof(int));
    if (!k || !p->canon) {
        free(k);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        memcpy(k[i].x, p->pts + 3 * i, sizeof k[i].x);
        k[i].idx = i;
    }
    qsort(k, (size_t)n, sizeof *k, by_coords);
    for (int i = 0, rep = 0; i < n; i++) {
        if (!same_point(k[i].x, k[rep].x))
            rep = i;
        p->canon[k[i].idx] = k[rep].idx;
    }
    free(k);
    return 0;
}

/* Corners p, q, r are collinear (or two of them coincide): exactly, at
 * every magnitude (pred_collinear3). */
static int collinear(const double *p, const double *q, const double *r)
{
    return pred_collinear3(p, q, r);
}

static int fan_triangles(prepared *p, const scene_soup *s)
{
    long cap = 1;
    for (int f = 0; f < s->nfaces; f++)
        cap += s->fstart[f + 1] - s->fstart[f];
    p->tris = mem_alloc((size_t)cap, 3 * sizeof(int));
    if (!p->tris)
        return -1;
    for (int f = 0; f < s->nfaces; f++) {
        const int *c = s->fidx + s->fstart[f];
        int len = s->fstart[f + 1] - s->fstart[f];
        for (int i = 1; i + 1 < len; i++) {
            int t[3] = {p->canon[c[0]], p->canon[c[i]], p->canon[c[i + 1]]};
            if (collinear(p->pts + 3 * t[0], p->pts + 3 * t[1], p->pts + 3 * t[2]))
                continue;
            memcpy(p->tris + 3 * p->ntris++, t, sizeof t);
        }
    }
    return 0;
}

/* Keep only the points the triangles use, renumbered in order of use. */
static int compact(prepared *p, int n)
{
    int *map = mem_alloc((size_t)n, sizeof(int));
    p->cpts = mem_alloc((size_t)n, 3 * sizeof(double));
    p->ctris = mem_alloc((size_t)p->ntris + 1, 3 * sizeof(int));
    if (!map || !p->cpts || !p->ctris) {
        free(map);
        return -1;
    }
    for (int i = 0; i < n; i++)
        map[i] = -1;
    for (int k = 0; k < 3 * p->ntris; k++) {
        int v = p->tris[k];
        if (map[v] < 0) {
            map[v] = p->ncpts;
            memcpy(p->cpts + 3 * p->ncpts++, p->pts + 3 * v, 3 * sizeof(double));
        }
        p->ctris[k] = map[v];
    }
    free(map);
    return 0;
}

static void map_point(const double m[16], const double *in, double *out)
{
    for (int i = 0; i < 3; i++)
        out[i] = m[4 * i] * in[0] + m[4 * i + 1] * in[1] + m[4 * i + 2] * in[2] + m[4 * i + 3];
}

static hs_code prepare(prepared *p, const scene_soup *s, const double place[16],
                       const char *file, int line, hs_error *err)
{
    memset(p, 0, sizeof *p);
    int n = s->npts;
    p->pts = mem_alloc((size_t)n, 3 * sizeof(double));
    if (!p->pts)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
        if (place)
            map_point(place, s->pts + 3 * i, p->pts + 3 * i);
        else
            memcpy(p->pts + 3 * i, s->pts + 3 * i, 3 * sizeof(double));
        for (int d = 0; d < 3; d++)
            if (!isfinite(p->pts[3 * i + d]))
                return err_at(err, file, line, "point %d is not finite once transformed",
                              i + 1);
    }
    if (merge_equal_points(p, n) != 0 || fan_triangles(p, s) != 0 || compact(p, n) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (p->ntris == 0)
        return err_at(err, file, line, "no face of nonzero area");
    return HS_OK;
}

/* ------------------------------------------------ closed convex test */

typedef struct edge {
    int a, b;
} edge;

static int by_edge(const void *x, const void *y)
{
    const edge *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

typedef struct projected {
    double key;
    int idx;
} projected;

static int by_key(const void *a, const void *b)
{
    double x = ((const projected *)a)->key, y = ((const projected *)b)->key;
    return (x > y) - (x < y);
}

static int root_of(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

static void join(int *parent, int a, int b)
{
    a = root_of(parent, a);
    b = root_of(parent, b);
    if (a < b)
        parent[b] = a;
    else
        parent[a] = b;
}

static int within(const double *a, const double *b, double tol)
{
    return fabs(a[0] - b[0]) <= tol && fabs(a[1] - b[1]) <= tol && fabs(a[2] - b[2]) <= tol;
}

/* near[i]: one representative of the points within tol of point i (in
 * every coordinate, transitively).  Candidates are found along a generic
 * direction; -1 when that takes too long (the piece stays a mesh). */
static int near_points(const prepared *p, int n, double tol, int *near)
{
    static const double dir[3] = {1, 0.7548776662466927, 0.5698402909980532};
    projected *k = mem_alloc((size_t)n, sizeof *k);
    if (!k)
        return -1;
    int m = 0;
    for (int i = 0; i < n; i++) {
        const double *x = p->pts + 3 * i;
        near[i] = i;
        if (p->canon[i] == i)
            k[m++] = (projected){dot3(dir, x), i};
    }
    qsort(k, (size_t)m, sizeof *k, by_key);
    long budget = 64L * n + 1024;
    for (int a = 0; a < m && budget >= 0; a++)
        for (int b = a + 1; b < m && k[b].key - k[a].key <= 3 * tol && budget-- >= 0; b++)
            if (within(p->pts + 3 * k[a].idx, p->pts + 3 * k[b].idx, tol))
                join(near, k[a].idx, k[b].idx);
    free(k);
    for (int i = 0; i < n; i++)
        near[i] = root_of(near, p->canon[i]);
    return budget >= 0 ? 0 : -1;
}

/* Every directed polygon edge once, and its reverse once (points merged
 * by id). */
static int is_closed(const int *id, const scene_soup *s)
{
    edge *e = mem_alloc((size_t)s->nidx + 1, sizeof *e);
    if (!e)
        return 0;
    size_t ne = 0;
    for (int f = 0; f < s->nfaces; f++) {
        int start = s->fstart[f], len = s->fstart[f + 1] - start;
        for (int k = 0; k < len && len >= 3; k++) {
            edge x = {id[s->fidx[start + k]], id[s->fidx[start + (k + 1) % len]]};
            if (x.a != x.b)
                e[ne++] = x;
        }
    }
    qsort(e, ne, sizeof *e, by_edge);
    int ok = ne > 0;
    for (size_t i = 0; ok && i < ne; i++) {
        edge rev = {e[i].b, e[i].a};
        ok = !(i > 0 && by_edge(&e[i - 1], &e[i]) == 0) &&
             bsearch(&rev, e, ne, sizeof *e, by_edge) != NULL;
    }
    free(e);
    return ok;
}

/* Newell normal and centroid of face f, corners taken at the points of
 * their representatives id[] (merged corners add nothing to the normal). */
static void face_plane(const prepared *p, const int *id, const scene_soup *s, int f, double n[3],
                       double c[3])
{
    int start = s->fstart[f], len = s->fstart[f + 1] - start;
    for (int d = 0; d < 3; d++)
        n[d] = c[d] = 0;
    for (int k = 0; k < len; k++) {
        const double *u = p->pts + 3 * id[s->fidx[start + k]];
        const double *v = p->pts + 3 * id[s->fidx[start + (k + 1) % len]];
        n[0] += (u[1] - v[1]) * (u[2] + v[2]);
        n[1] += (u[2] - v[2]) * (u[0] + v[0]);
        n[2] += (u[0] - v[0]) * (u[1] + v[1]);
        for (int d = 0; d < 3; d++)
            c[d] += u[d] / len;
    }
}

static double box_diagonal(const prepared *p)
{
    double lo[3], hi[3], sum = 0;
    for (int d = 0; d < 3; d++)
        lo[d] = hi[d] = p->cpts[d];
    for (int i = 0; i < p->ncpts; i++)
        for (int d = 0; d < 3; d++) {
            lo[d] = fmin(lo[d], p->cpts[3 * i + d]);
            hi[d] = fmax(hi[d], p->cpts[3 * i + d]);
        }
    for (int d = 0; d < 3; d++)
        sum += (hi[d] - lo[d]) * (hi[d] - lo[d]);
    return sqrt(sum);
}

/* All points on one side of every face plane, up to the tolerance. */
static int is_convex(const prepared *p, const int *id, const scene_soup *s, double tol)
{
    double lo = 0, hi = 0;
    for (int f = 0; f < s->nfaces; f++) {
        if (s->fstart[f + 1] - s->fstart[f] < 3)
            continue;
        double n[3], c[3];
        face_plane(p, id, s, f, n, c);
        double len = sqrt(dot3(n, n));
        if (!(len > 0))
            continue;
        for (int i = 0; i < p->ncpts; i++) {
            const double *x = p->cpts + 3 * i;
            double xc[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
            double h = dot3(n, xc) / len;
            lo = fmin(lo, h);
            hi = fmax(hi, h);
        }
        if (lo < -tol && hi > tol)
            return 0;
    }
    return 1;
}

/* The points of the triangles, one per group of points within tol. */
static double *representatives(const prepared *p, const int *near, int n, int *count)
{
    char *seen = mem_calloc((size_t)n, 1);
    double *r = mem_alloc((size_t)p->ncpts, 3 * sizeof(double));
    *count = 0;
    for (int k = 0; seen && r && k < 3 * p->ntris; k++) {
        int v = near[p->tris[k]];
        if (!seen[v]) {
            seen[v] = 1;
            memcpy(r + 3 * (*count)++, p->pts + 3 * v, 3 * sizeof(double));
        }
    }
    if (!seen) {
        free(r);
        r = NULL;
    }
    free(seen);
    return r;
}

/* When the faces bound a closed convex solid: its points (merged within
 * the tolerance, so that the hull has no slivers), else NULL. */
static double *closed_convex(const prepared *p, const scene_soup *s, int *count)
{
    double tol = 1e-9 * box_diagonal(p), *r = NULL;
    int *near = mem_alloc((size_t)s->npts, sizeof(int));
    if (near && near_points(p, s->npts, tol, near) == 0 && is_closed(near, s) &&
        is_convex(p, near, s, tol))
        r = representatives(p, near, s->npts, count);
    free(near);
    return r;
}

/* ------------------------------------------------------------ pieces */

static hs_code add_prepared(hs_body *b, const prepared *p, const scene_soup *s, soup_mode mode,
                            hs_error *err)
{
    if (mode == SOUP_CONVEX_TEST) {
        int n;
        double *r = closed_convex(p, s, &n);
        hs_code rc = r ? hs_body_add_hull(b, r, n, NULL, err) : HS_ERR_INPUT;
        free(r);
        if (rc == HS_OK || rc == HS_ERR_NOMEM)
            return rc;
        mode = SOUP_MESH; /* not convex, or flat after all: keep the faces */
    }
    if (mode == SOUP_HULL)
        return hs_body_add_hull(b, p->cpts, p->ncpts, NULL, err);
    return hs_body_add_mesh(b, p->cpts, p->ncpts, p->ctris, p->ntris, NULL, err);
}

hs_code soup_add_piece(hs_body *b, const scene_soup *s, const double place[16], soup_mode mode,
                       const char *file, int line, hs_error *err)
{
    prepared p;
    hs_code rc = prepare(&p, s, place, file, line, err);
    if (rc == HS_OK && (rc = add_prepared(b, &p, s, mode, err)) != HS_OK)
        rc = scene_locate(err, rc, file, line);
    prepared_free(&p);
    return rc;
}

hs_code soup_points(const scene_soup *s, const char *file, int line, double **pts, int *n,
                    hs_error *err)
{
    prepared p;
    hs_code rc = prepare(&p, s, NULL, file, line, err);
    if (rc == HS_OK) {
        *pts = p.cpts;
        *n = p.ncpts;
        p.cpts = NULL;
    }
    prepared_free(&p);
    return rc;
}
