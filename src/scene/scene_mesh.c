/* scene_mesh.c -- polygon soups made into pieces (shared by every reader),
 * and the mesh formats OFF, OBJ and STL (one body named after the file,
 * one piece).
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
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hull3.h"
#include "polytope/predicates.h"
#include "polytope/text_lines.h"
#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/scene/scene.h"

/* ------------------------------------------------------------- soups */

void soup_init(scene_soup *s) { memset(s, 0, sizeof *s); }

void soup_free(scene_soup *s)
{
    free(s->pts);
    free(s->fidx);
    free(s->fstart);
    soup_init(s);
}

/* Make room for `need` elements of `size` bytes in *p (capacity *cap). */
static int grow(void *pp, int *cap, long need, size_t size)
{
    void **p = pp;
    if (need <= *cap)
        return 0;
    if (need > INT32_MAX / 2)
        return -1;
    int ncap = *cap ? *cap : 64;
    while (ncap < need)
        ncap *= 2;
    void *q = mem_realloc(*p, (size_t)ncap, size);
    if (!q)
        return -1;
    *p = q;
    *cap = ncap;
    return 0;
}

int soup_point(scene_soup *s, const double p[3])
{
    if (grow(&s->pts, &s->pcap, 3L * s->npts + 3, sizeof(double)) != 0)
        return -1;
    memcpy(s->pts + 3 * s->npts, p, 3 * sizeof(double));
    s->npts++;
    return 0;
}

int soup_corner(scene_soup *s, int idx)
{
    if (grow(&s->fidx, &s->icap, (long)s->nidx + 1, sizeof(int)) != 0)
        return -1;
    s->fidx[s->nidx++] = idx;
    return 0;
}

int soup_end_face(scene_soup *s)
{
    if (grow(&s->fstart, &s->fcap, (long)s->nfaces + 2, sizeof(int)) != 0)
        return -1;
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

/* Corners p, q, r are collinear (or two of them coincide) exactly when
 * every point is coplanar with them; a nondegenerate triangle has a point
 * off its plane among p shifted by one unit along each axis. */
static int collinear(const double *p, const double *q, const double *r)
{
    for (int d = 0; d < 3; d++) {
        double off[3] = {p[0], p[1], p[2]};
        off[d] += 1;
        if (pred_orient3d(p, q, r, off) != 0)
            return 0;
    }
    return 1;
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
            k[m++] = (projected){dir[0] * x[0] + dir[1] * x[1] + dir[2] * x[2], i};
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
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(len > 0))
            continue;
        for (int i = 0; i < p->ncpts; i++) {
            const double *x = p->cpts + 3 * i;
            double h = (n[0] * (x[0] - c[0]) + n[1] * (x[1] - c[1]) + n[2] * (x[2] - c[2])) / len;
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

/* ----------------------------------------------------- text helpers */

/* A decimal number (digits, sign, point, exponent only), finite. */
static int parse_real(const char *t, double *v)
{
    if (!*t || strspn(t, "0123456789+-.eE") != strlen(t))
        return 0;
    char *end;
    *v = strtod(t, &end);
    return *end == '\0' && isfinite(*v);
}

static int parse_long(const char *t, long *v)
{
    if (!*t || strspn(t, "0123456789+-") != strlen(t))
        return 0;
    char *end;
    long long x = strtoll(t, &end, 10);
    if (*end != '\0' || x > INT32_MAX || x < INT32_MIN)
        return 0;
    *v = (long)x;
    return 1;
}

/* Drop what follows a '#' on the line. */
static void strip_comment(text_line *ln)
{
    for (int k = 0; k < ln->ntok; k++) {
        char *h = strchr(ln->tok[k], '#');
        if (h) {
            *h = '\0';
            ln->ntok = ln->tok[k][0] ? k + 1 : k;
            return;
        }
    }
}

/* Next line that holds tokens, comments removed; 0 at the end. */
static int next_line(text_reader *rd, text_line *ln, const char *file, hs_error *err,
                     hs_code *rc)
{
    while (text_reader_next(rd, ln)) {
        if (ln->bad_byte) {
            *rc = err_at(err, file, ln->number, "unexpected control byte in text");
            return 0;
        }
        strip_comment(ln);
        if (ln->ntok > 0)
            return 1;
    }
    if (rd->failed)
        *rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    return 0;
}

/* The one body of a mesh file, with its piece. */
static hs_code add_file_body(hs_world *w, const char *path, const scene_soup *s,
                             const scene_opts *o, int line, hs_error *err)
{
    char *name = scene_file_body_name(path);
    if (!name)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_body *b = scene_new_body(w, name, path, 0, err);
    free(name);
    if (!b)
        return err ? err->code : HS_ERR_INPUT;
    return soup_add_piece(b, s, NULL, o->mesh_as_hull ? SOUP_HULL : SOUP_MESH, path, line, err);
}

/* ---------------------------------------------------------------- OFF */

typedef struct off_reader {
    const char *file;
    long nv, nf;
    int first_face; /* line of the first face (for errors about the whole mesh) */
    scene_soup soup;
} off_reader;

static hs_code off_counts(off_reader *r, text_line *ln, int first, hs_error *err)
{
    long ne;
    if (ln->ntok - first != 3 || !parse_long(ln->tok[first], &r->nv) ||
        !parse_long(ln->tok[first + 1], &r->nf) || !parse_long(ln->tok[first + 2], &ne))
        return err_at(err, r->file, ln->number,
                          "expected the counts 'points faces edges' (three integers)");
    if (r->nv < 3 || r->nf < 1 || ne < 0)
        return err_at(err, r->file, ln->number,
                          "an OFF mesh needs at least 3 points and 1 face (counts %ld %ld %ld)",
                          r->nv, r->nf, ne);
    return HS_OK;
}

static hs_code off_header(off_reader *r, text_line *ln, int *have_counts, hs_error *err)
{
    const char *t = ln->tok[0];
    if (strcmp(t, "OFF") != 0) {
        size_t n = strlen(t);
        if (n > 3 && strcmp(t + n - 3, "OFF") == 0)
            return err_at(err, r->file, ln->number,
                              "'%s' files are not supported (plain OFF only)", t);
        return err_at(err, r->file, ln->number, "missing 'OFF' header (found '%s')", t);
    }
    *have_counts = ln->ntok > 1;
    return *have_counts ? off_counts(r, ln, 1, err) : HS_OK;
}

static hs_code off_vertex(off_reader *r, text_line *ln, hs_error *err)
{
    double p[3];
    if (ln->ntok != 3)
        return err_at(err, r->file, ln->number, "point %d: expected 3 coordinates, found %d",
                          r->soup.npts + 1, ln->ntok);
    for (int d = 0; d < 3; d++)
        if (!parse_real(ln->tok[d], &p[d]))
            return err_at(err, r->file, ln->number, "bad number '%s'", ln->tok[d]);
    return soup_point(&r->soup, p) == 0 ? HS_OK : err_set(err, HS_ERR_NOMEM, "out of memory");
}

/* "n i1 .. in", optionally followed by a colour of 3 or 4 numbers. */
static hs_code off_face(off_reader *r, text_line *ln, hs_error *err)
{
    long n, idx;
    double colour;
    if (!parse_long(ln->tok[0], &n) || n < 3)
        return err_at(err, r->file, ln->number,
                          "a face starts with its number of corners (at least 3), found '%s'",
                          ln->tok[0]);
    long extra = ln->ntok - 1 - n;
    if (extra != 0 && extra != 3 && extra != 4)
        return err_at(err, r->file, ln->number,
                          "face of %ld corners: expected %ld indices (and maybe a colour), "
                          "found %d numbers", n, n, ln->ntok - 1);
    for (long k = 1; k <= n; k++) {
        if (!parse_long(ln->tok[k], &idx) || idx < 0 || idx >= r->nv)
            return err_at(err, r->file, ln->number,
                              "corner '%s' is not a point index (0 to %ld)", ln->tok[k],
                              r->nv - 1);
        if (soup_corner(&r->soup, (int)idx) != 0)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    for (long k = n + 1; k < ln->ntok; k++)
        if (!parse_real(ln->tok[k], &colour))
            return err_at(err, r->file, ln->number, "bad colour value '%s'", ln->tok[k]);
    return soup_end_face(&r->soup) == 0 ? HS_OK : err_set(err, HS_ERR_NOMEM, "out of memory");
}

static hs_code off_lines(off_reader *r, text_reader *rd, int *last, hs_error *err)
{
    text_line ln;
    hs_code rc = HS_OK;
    int have_counts = 0, header = 0;
    while (rc == HS_OK && next_line(rd, &ln, r->file, err, &rc)) {
        *last = ln.number;
        if (!header) {
            header = 1;
            rc = off_header(r, &ln, &have_counts, err);
        } else if (!have_counts) {
            have_counts = 1;
            rc = off_counts(r, &ln, 0, err);
        } else if (r->soup.npts < r->nv)
            rc = off_vertex(r, &ln, err);
        else if (r->soup.nfaces < r->nf) {
            r->first_face = r->first_face ? r->first_face : ln.number;
            rc = off_face(r, &ln, err);
        }
        else
            rc = err_at(err, r->file, ln.number, "unexpected text after the last face");
    }
    if (rc == HS_OK && !header)
        rc = err_at(err, r->file, *last, "empty file (missing 'OFF' header)");
    else if (rc == HS_OK && (!have_counts || r->soup.nfaces < r->nf))
        rc = err_at(err, r->file, *last, "file ends early: %d of %ld points, %d of %ld faces",
                        r->soup.npts, r->nv, r->soup.nfaces, r->nf);
    return rc;
}

static hs_code read_off(const char *path, scene_soup *s, int *line, hs_error *err)
{
    soup_init(s);
    char *text = text_read_file(path, err);
    if (!text)
        return err ? err->code : HS_ERR_IO;
    off_reader r = {path, 0, 0, 0, {0}};
    text_reader rd;
    text_reader_init(&rd, text);
    int last = 1;
    hs_code rc = off_lines(&r, &rd, &last, err);
    text_reader_free(&rd);
    free(text);
    *s = r.soup;
    *line = r.first_face;
    return rc;
}

/* ---------------------------------------------------------------- OBJ */

typedef struct obj_reader {
    const char *file;
    scene_soup soup;
    long nfaces_seen;
    long count_v, count_f; /* the leading count line, if any */
    int count_line;
    int first_face;        /* line of the first face */
} obj_reader;

/* "v x y z", "v x y z w" (divided by w) or "v x y z r g b" (colour). */
static hs_code obj_vertex(obj_reader *r, text_line *ln, hs_error *err)
{
    int n = ln->ntok - 1;
    double x[6];
    if (n != 3 && n != 4 && n != 6)
        return err_at(err, r->file, ln->number,
                          "'v' takes 3 coordinates (or x y z w, or x y z r g b), found %d", n);
    for (int k = 0; k < n; k++)
        if (!parse_real(ln->tok[k + 1], &x[k]))
            return err_at(err, r->file, ln->number, "bad number '%s'", ln->tok[k + 1]);
    if (n == 4) {
        if (x[3] == 0)
            return err_at(err, r->file, ln->number, "vertex weight w must not be 0");
        for (int d = 0; d < 3; d++)
            x[d] /= x[3];
    }
    return soup_point(&r->soup, x) == 0 ? HS_OK : err_set(err, HS_ERR_NOMEM, "out of memory");
}

/* Corner text "v", "v/vt", "v//vn" or "v/vt/vn" well formed? */
static int obj_corner_form(const char *t)
{
    char buf[64];
    long x;
    int part = 0;
    for (const char *c = t;; part++) {
        size_t n = strcspn(c, "/");
        if (n >= sizeof buf || part > 2)
            return 0;
        memcpy(buf, c, n);
        buf[n] = '\0';
        if (n == 0 ? part != 1 || c[n] != '/' : !parse_long(buf, &x))
            return 0;
        if (c[n] == '\0')
            return 1;
        c += n + 1;
    }
}

/* One face corner: its point index (0-based) is appended to the face. */
static hs_code obj_corner(obj_reader *r, const char *t, int line, hs_error *err)
{
    long v = 0;
    if (!obj_corner_form(t) || (v = strtol(t, NULL, 10)) == 0)
        return err_at(err, r->file, line, "bad face corner '%s' (expected v, v/vt, v//vn "
                          "or v/vt/vn; indices start at 1 or count back from -1)", t);
    long idx = v > 0 ? v - 1 : r->soup.npts + v;
    if (idx < 0 || idx >= r->soup.npts)
        return err_at(err, r->file, line, "face corner '%s' refers to a point not defined "
                          "yet (%d so far)", t, r->soup.npts);
    return soup_corner(&r->soup, (int)idx) == 0 ? HS_OK
                                                : err_set(err, HS_ERR_NOMEM, "out of memory");
}

static hs_code obj_face(obj_reader *r, text_line *ln, hs_error *err)
{
    if (ln->ntok < 4)
        return err_at(err, r->file, ln->number, "a face needs at least 3 corners, found %d",
                          ln->ntok - 1);
    for (int k = 1; k < ln->ntok; k++) {
        hs_code rc = obj_corner(r, ln->tok[k], ln->number, err);
        if (rc != HS_OK)
            return rc;
    }
    r->nfaces_seen++;
    return soup_end_face(&r->soup) == 0 ? HS_OK : err_set(err, HS_ERR_NOMEM, "out of memory");
}

/* FCL's env.obj opens with "6540 2180": the numbers of points and faces. */
static int obj_count_line(obj_reader *r, text_line *ln)
{
    if (r->count_line || r->soup.npts > 0 || r->nfaces_seen > 0 || ln->ntok != 2 ||
        !parse_long(ln->tok[0], &r->count_v) || !parse_long(ln->tok[1], &r->count_f) ||
        r->count_v < 0 || r->count_f < 0)
        return 0;
    r->count_line = ln->number;
    return 1;
}

static hs_code obj_statement(obj_reader *r, text_line *ln, hs_error *err)
{
    static const char *const ignored[] = {"vn", "vt", "vp", "o", "g", "s", "usemtl", "mtllib"};
    const char *k = ln->tok[0];
    if (strcmp(k, "v") == 0)
        return obj_vertex(r, ln, err);
    if (strcmp(k, "f") == 0) {
        r->first_face = r->first_face ? r->first_face : ln->number;
        return obj_face(r, ln, err);
    }
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
        if (strcmp(k, ignored[i]) == 0)
            return HS_OK;
    if (obj_count_line(r, ln))
        return HS_OK;
    return err_at(err, r->file, ln->number, "OBJ statement '%s' is not supported", k);
}

static hs_code obj_lines(obj_reader *r, text_reader *rd, int *last, hs_error *err)
{
    text_line ln;
    hs_code rc = HS_OK;
    while (rc == HS_OK && next_line(rd, &ln, r->file, err, &rc)) {
        *last = ln.number;
        rc = obj_statement(r, &ln, err);
    }
    if (rc != HS_OK)
        return rc;
    if (r->count_line && (r->count_v != r->soup.npts || r->count_f != r->nfaces_seen))
        return err_at(err, r->file, r->count_line,
                          "the count line says %ld points and %ld faces, the file has %d and %ld",
                          r->count_v, r->count_f, r->soup.npts, r->nfaces_seen);
    if (r->nfaces_seen == 0)
        return err_at(err, r->file, *last, "no faces ('f' lines) in the file");
    return HS_OK;
}

static hs_code read_obj(const char *path, scene_soup *s, int *line, hs_error *err)
{
    soup_init(s);
    char *text = text_read_file(path, err);
    if (!text)
        return err ? err->code : HS_ERR_IO;
    obj_reader r;
    memset(&r, 0, sizeof r);
    r.file = path;
    text_reader rd;
    text_reader_init(&rd, text);
    int last = 1;
    hs_code rc = obj_lines(&r, &rd, &last, err);
    text_reader_free(&rd);
    free(text);
    *s = r.soup;
    *line = r.first_face;
    return rc;
}

/* ---------------------------------------------------------------- STL */

/* The whole file as bytes (plus a NUL after them). */
static unsigned char *read_bytes(const char *path, size_t *len, hs_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        err_set(err, HS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n + 1 < cap)
            break;
        unsigned char *nb = cap < SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!nb) {
            free(buf);
            buf = NULL;
        }
        buf = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        err_set(err, buf ? HS_ERR_IO : HS_ERR_NOMEM, "%s: %s", path,
                buf ? "read error" : "out of memory");
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static double le_float(const unsigned char *p)
{
    uint32_t u = le32(p);
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static hs_code stl_binary(const unsigned char *buf, uint32_t count, scene_soup *s,
                          const char *file, hs_error *err)
{
    if (count == 0)
        return err_at(err, file, 0, "binary STL without triangles");
    for (uint32_t t = 0; t < count; t++) {
        const unsigned char *rec = buf + 84 + 50 * (size_t)t + 12; /* after the normal */
        for (int v = 0; v < 3; v++) {
            double p[3];
            for (int d = 0; d < 3; d++)
                if (!isfinite(p[d] = le_float(rec + 12 * v + 4 * d)))
                    return err_at(err, file, 0, "triangle %lu: coordinate is not finite",
                                      (unsigned long)t + 1);
            if (soup_point(s, p) != 0 || soup_corner(s, s->npts - 1) != 0)
                return err_set(err, HS_ERR_NOMEM, "out of memory");
        }
        if (soup_end_face(s) != 0)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    return HS_OK;
}

/* Tokens of an ASCII STL, line by line. */
typedef struct stl_text {
    const char *file;
    text_reader rd;
    text_line ln;
    int k, have, last;
    int first_facet; /* line of the first facet */
    hs_code rc;
    hs_error *err;
} stl_text;

static const char *stl_next(stl_text *t)
{
    while (!t->have || t->k >= t->ln.ntok) {
        if (!next_line(&t->rd, &t->ln, t->file, t->err, &t->rc))
            return NULL;
        t->have = 1;
        t->k = 0;
        t->last = t->ln.number;
    }
    return t->ln.tok[t->k++];
}

static void stl_skip_line(stl_text *t) { t->k = t->have ? t->ln.ntok : 0; }

static hs_code stl_expect(stl_text *t, const char *word)
{
    const char *tok = stl_next(t);
    if (t->rc != HS_OK)
        return t->rc;
    if (!tok)
        return err_at(t->err, t->file, t->last, "file ends early: expected '%s'", word);
    if (strcmp(tok, word) != 0)
        return err_at(t->err, t->file, t->last, "expected '%s', found '%s'", word, tok);
    return HS_OK;
}

static hs_code stl_numbers(stl_text *t, double x[3])
{
    for (int d = 0; d < 3; d++) {
        const char *tok = stl_next(t);
        if (t->rc != HS_OK)
            return t->rc;
        if (!tok)
            return err_at(t->err, t->file, t->last, "file ends early: expected a number");
        if (!parse_real(tok, &x[d]))
            return err_at(t->err, t->file, t->last, "bad number '%s'", tok);
    }
    return HS_OK;
}

/* "facet normal n n n outer loop (vertex x y z){3,} endloop endfacet";
 * loops of more than 3 corners are taken as polygons. */
static hs_code stl_facet(stl_text *t, scene_soup *s)
{
    double x[3];
    hs_code rc = stl_expect(t, "normal");
    if (rc == HS_OK)
        rc = stl_numbers(t, x);
    if (rc == HS_OK)
        rc = stl_expect(t, "outer");
    if (rc == HS_OK)
        rc = stl_expect(t, "loop");
    int corners = 0;
    const char *tok = NULL;
    while (rc == HS_OK && (tok = stl_next(t)) && strcmp(tok, "vertex") == 0) {
        corners++;
        if ((rc = stl_numbers(t, x)) == HS_OK &&
            (soup_point(s, x) != 0 || soup_corner(s, s->npts - 1) != 0))
            rc = err_set(t->err, HS_ERR_NOMEM, "out of memory");
    }
    if (rc == HS_OK && (rc = t->rc) == HS_OK && (!tok || strcmp(tok, "endloop") != 0))
        rc = err_at(t->err, t->file, t->last, "expected 'vertex' or 'endloop', found %s%s%s",
                        tok ? "'" : "", tok ? tok : "the end of the file", tok ? "'" : "");
    if (rc == HS_OK && corners < 3)
        rc = err_at(t->err, t->file, t->last, "a facet needs 3 vertices, found %d", corners);
    if (rc == HS_OK)
        rc = stl_expect(t, "endfacet");
    if (rc == HS_OK && soup_end_face(s) != 0)
        rc = err_set(t->err, HS_ERR_NOMEM, "out of memory");
    return rc;
}

/* solid NAME facet* endsolid [NAME], possibly several solids. */
static hs_code stl_solids(stl_text *t, scene_soup *s)
{
    hs_code rc = stl_expect(t, "solid");
    int open = 1;
    stl_skip_line(t); /* the name after "solid" */
    while (rc == HS_OK) {
        const char *tok = stl_next(t);
        if ((rc = t->rc) != HS_OK || !tok)
            break;
        if (open && strcmp(tok, "facet") == 0) {
            t->first_facet = t->first_facet ? t->first_facet : t->last;
            rc = stl_facet(t, s);
        }
        else if (open && strcmp(tok, "endsolid") == 0) {
            open = 0;
            stl_skip_line(t);
        } else if (!open && strcmp(tok, "solid") == 0) {
            open = 1;
            stl_skip_line(t);
        } else
            rc = err_at(t->err, t->file, t->last, "expected '%s', found '%s'",
                            open ? "facet' or 'endsolid" : "solid' or the end of the file", tok);
    }
    if (rc == HS_OK && open)
        rc = err_at(t->err, t->file, t->last, "file ends inside a solid (missing 'endsolid')");
    if (rc == HS_OK && s->nfaces == 0)
        rc = err_at(t->err, t->file, t->last, "ASCII STL without facets");
    return rc;
}

static hs_code stl_ascii(unsigned char *buf, size_t len, scene_soup *s, const char *file,
                         int *line, hs_error *err)
{
    for (size_t i = 0; i < len; i++)
        if (buf[i] == 0)
            buf[i] = 1; /* reported as a control byte */
    stl_text t;
    memset(&t, 0, sizeof t);
    t.file = file;
    t.err = err;
    t.last = 1;
    text_reader_init(&t.rd, (const char *)buf);
    hs_code rc = stl_solids(&t, s);
    *line = t.first_facet;
    text_reader_free(&t.rd);
    return rc;
}

/* ASCII when the file starts with "solid" and the first word of the next
 * line is "facet" or "endsolid" (binary headers may start with "solid"). */
static int looks_ascii(const unsigned char *buf, size_t len)
{
    size_t i = strspn((const char *)buf, " \t\r\n");
    if (len - i < 5 || memcmp(buf + i, "solid", 5) != 0)
        return 0;
    const char *nl = memchr(buf + i, '\n', len - i);
    if (!nl)
        return 0;
    nl += strspn(nl, " \t\r\n");
    return strncmp(nl, "facet", 5) == 0 || strncmp(nl, "endsolid", 8) == 0;
}

static hs_code stl_read(unsigned char *buf, size_t len, scene_soup *s, const char *file,
                        int *line, hs_error *err)
{
    if (looks_ascii(buf, len))
        return stl_ascii(buf, len, s, file, line, err);
    uint32_t count = len >= 84 ? le32(buf + 80) : 0;
    if (len >= 84 && len == 84 + 50 * (size_t)count)
        return stl_binary(buf, count, s, file, err);
    const char *why = len >= 5 && memcmp(buf, "solid", 5) == 0
                          ? "not an ASCII STL (no 'facet' after the 'solid' line) nor a "
                            "binary STL: "
                          : "";
    if (len < 84)
        return err_at(err, file, 0, "%sbinary STL truncated: %zu bytes, the header and "
                          "count alone take 84", why, len);
    return err_at(err, file, 0, "%sbinary STL of %lu triangles must have %zu bytes, the "
                      "file has %zu", why, (unsigned long)count, 84 + 50 * (size_t)count, len);
}

static hs_code read_stl(const char *path, scene_soup *s, int *line, hs_error *err)
{
    soup_init(s);
    *line = 0; /* binary STL: no lines */
    size_t len = 0;
    unsigned char *buf = read_bytes(path, &len, err);
    if (!buf)
        return err ? err->code : HS_ERR_IO;
    hs_code rc = stl_read(buf, len, s, path, line, err);
    free(buf);
    return rc;
}

hs_code scene_read_mesh(const char *path, scene_soup *s, int *line, hs_error *err)
{
    switch (scene_mesh_kind(path)) {
    case 1: return read_off(path, s, line, err);
    case 2: return read_obj(path, s, line, err);
    case 3: return read_stl(path, s, line, err);
    default:
        soup_init(s);
        return err_set(err, HS_ERR_ARG, "%s: not a mesh file", path);
    }
}

hs_code scene_add_mesh_file(hs_world *w, const char *path, const scene_opts *o, hs_error *err)
{
    scene_soup s;
    int line = 0;
    hs_code rc = scene_read_mesh(path, &s, &line, err);
    if (rc == HS_OK)
        rc = add_file_body(w, path, &s, o, line, err);
    soup_free(&s);
    return rc;
}
