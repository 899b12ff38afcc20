/* piece.c -- the geometry of pieces: convex polytopes (a half-space
 * system, with exact vertices, faces and box derived from it) and
 * triangle meshes; the constructors of hs_body_add_*; sharing between
 * clones by reference counting. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "polytope/hull3.h"
#include "polytope/vertices.h"
#include "solver/fast_prep.h"
#include "src/error.h"
#include "src/pose.h"
#include "src/world.h"

/* ------------------------------------------------------------ sharing */

void geom_retain(geom *g) { g->refs++; }

void geom_release(geom *g)
{
    if (!g || --g->refs > 0)
        return;
    hs_poly_free(g->poly);
    free(g->verts);
    free(g->face_start);
    free(g->face_vert);
    free(g->face_row);
    tri_mesh_free(g->index);
    free(g->mv);
    free(g->tris);
    free(g);
}

/* -------------------------------------------------------------- faces */

typedef struct corner {
    int v;
    double angle;
} corner;

static int by_angle(const void *x, const void *y)
{
    double a = ((const corner *)x)->angle, b = ((const corner *)y)->angle;
    return (a > b) - (a < b);
}

/* Corners of the face on row `row`: the vertices tight on it, sorted
 * counterclockwise seen from outside (around the normal a_row). */
static int face_corners(const vertex_set *vs, const double *a, int row, corner *out)
{
    int k = 0;
    double c[3] = {0, 0, 0};
    for (int v = 0; v < vs->nverts; v++)
        for (int t = vs->tight_start[v]; t < vs->tight_start[v + 1]; t++)
            if (vs->tight[t] == row) {
                out[k++].v = v;
                for (int j = 0; j < 3; j++)
                    c[j] += vs->x[3 * v + j];
            }
    for (int j = 0; j < 3; j++)
        c[j] /= k > 0 ? k : 1;
    double u[3], w[3];
    for (int j = 0; j < 3; j++)
        u[j] = vs->x[3 * out[0].v + j] - c[j];
    w[0] = a[1] * u[2] - a[2] * u[1]; /* w = a x u: a quarter turn counterclockwise */
    w[1] = a[2] * u[0] - a[0] * u[2];
    w[2] = a[0] * u[1] - a[1] * u[0];
    for (int i = 0; i < k; i++) {
        double d[3], x = 0, y = 0;
        for (int j = 0; j < 3; j++) {
            d[j] = vs->x[3 * out[i].v + j] - c[j];
            x += d[j] * u[j];
            y += d[j] * w[j];
        }
        out[i].angle = atan2(y, x);
    }
    qsort(out, (size_t)k, sizeof *out, by_angle);
    return k;
}

static hs_code build_faces(geom *g, const vertex_set *vs, hs_error *err)
{
    int m = g->poly->m, total = 0;
    corner *buf = hs_malloc((size_t)vs->nverts, sizeof *buf);
    g->face_start = hs_malloc((size_t)vs->nfacets + 1, sizeof(int));
    g->face_row = hs_malloc((size_t)vs->nfacets, sizeof(int));
    g->face_vert = hs_malloc((size_t)vs->nedges * 2, sizeof(int)); /* sum of face sizes = 2E */
    if (!buf || !g->face_start || !g->face_row || !g->face_vert) {
        free(buf);
        return hs_fail(err, HS_ERR_NOMEM, "out of memory");
    }
    g->face_start[0] = 0;
    for (int i = 0; i < m; i++) {
        if (!vs->is_facet[i])
            continue;
        int k = face_corners(vs, hpoly_row(g->poly, i), i, buf);
        for (int c = 0; c < k && total < 2 * vs->nedges; c++)
            g->face_vert[total++] = buf[c].v;
        g->face_row[g->nfaces] = i;
        g->face_start[++g->nfaces] = total;
    }
    free(buf);
    return HS_OK;
}

/* ------------------------------------------------------------- convex */

/* The checks and the box shared by both convex constructors: p must be a
 * full-dimensional polytope of double rows in 3 variables; its exact
 * vertices (rounded outward into the box) go to *vs. */
static hs_code convex_checks(geom *g, vertex_set **vs, hs_error *err)
{
    hs_poly *p = g->poly;
    if (hs_poly_dim(p) != 3)
        return hs_fail(err, HS_ERR_INPUT, "a convex piece must be 3-dimensional (has %d "
                                          "variables)", hs_poly_dim(p));
    const char *why = NULL;
    if (!hs_poly_fast_ready(p, &why))
        return hs_fail(err, HS_ERR_INPUT, "a convex piece must be a full-dimensional polytope "
                                          "of double rows (%s)", why ? why : "not ready");
    if (vertex_enum(p, p->prep->center, vs, err) != HS_OK)
        return err ? err->code : HS_ERR_INPUT;
    memcpy(g->lo, (*vs)->lo, sizeof g->lo);
    memcpy(g->hi, (*vs)->hi, sizeof g->hi);
    return HS_OK;
}

static geom *new_convex(hs_poly *p, hs_error *err)
{
    geom *g = calloc(1, sizeof *g);
    if (!g) {
        hs_poly_free(p);
        hs_fail(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    g->refs = 1;
    g->kind = PIECE_CONVEX;
    g->poly = p;
    return g;
}

static geom *discard(geom *g, vertex_set *vs)
{
    vertex_set_free(vs);
    geom_release(g);
    return NULL;
}

geom *geom_convex(hs_poly *p, hs_error *err)
{
    vertex_set *vs = NULL;
    geom *g = new_convex(p, err);
    if (!g || convex_checks(g, &vs, err) != HS_OK)
        return g ? discard(g, vs) : NULL;
    g->nverts = vs->nverts;
    g->verts = hs_malloc((size_t)vs->nverts * 3, sizeof(double));
    if (!g->verts) {
        hs_fail(err, HS_ERR_NOMEM, "out of memory");
        return discard(g, vs);
    }
    memcpy(g->verts, vs->x, sizeof(double) * 3 * (size_t)vs->nverts);
    if (build_faces(g, vs, err) != HS_OK || geom_fit_obb(g, vs->x, vs->nverts, 1, err) != HS_OK)
        return discard(g, vs);
    vertex_set_free(vs);
    g->refs = 0;
    return g;
}

/* Vertices and faces of a piece made from points: the hull's own (input
 * points, exactly), facet f being row f.  The rows are the facets' planes,
 * moved outward by at most a rounding where not exact, so these corners
 * lie in the piece; exported and read back, they give the same hull. */
static hs_code hull_boundary(geom *g, const hull3 *h, const double *pts, hs_error *err)
{
    int *index = hs_malloc((size_t)h->npoints, sizeof(int));
    int corners = h->facet_start[h->nfacets];
    g->verts = hs_malloc((size_t)h->nverts * 3, sizeof(double));
    g->face_start = hs_malloc((size_t)h->nfacets + 1, sizeof(int));
    g->face_vert = hs_malloc((size_t)corners, sizeof(int));
    g->face_row = hs_malloc((size_t)h->nfacets, sizeof(int));
    if (!index || !g->verts || !g->face_start || !g->face_vert || !g->face_row) {
        free(index);
        return hs_fail(err, HS_ERR_NOMEM, "out of memory");
    }
    for (int v = 0; v < h->nverts; v++) {
        index[h->verts[v]] = v;
        memcpy(g->verts + 3 * v, pts + 3 * (size_t)h->verts[v], 3 * sizeof(double));
    }
    for (int k = 0; k < corners; k++)
        g->face_vert[k] = index[h->facet_vert[k]];
    for (int f = 0; f <= h->nfacets; f++)
        g->face_start[f] = h->facet_start[f];
    for (int f = 0; f < h->nfacets; f++)
        g->face_row[f] = f;
    g->nverts = h->nverts;
    g->nfaces = h->nfacets;
    free(index);
    return HS_OK;
}

/* Convex piece from points (body frame): the exact hull, one row per facet
 * (hull3_rows: every point satisfies every row exactly), the hull's
 * corners and facets as the boundary, the rows' exact vertices for the
 * box. */
static geom *geom_from_points(const double *pts, int n, hs_error *err)
{
    hull3 *h = NULL;
    if (hull3_points(pts, n, &h, err) != HS_OK)
        return NULL;
    double *a = hs_malloc((size_t)h->nfacets * 3, sizeof(double));
    double *b = hs_malloc((size_t)h->nfacets, sizeof(double));
    hs_poly *p = NULL;
    geom *g = NULL;
    vertex_set *vs = NULL;
    if (!a || !b)
        hs_fail(err, HS_ERR_NOMEM, "out of memory");
    else if (hull3_rows(h, pts, a, b, err) == HS_OK)
        p = hs_poly_from_doubles(3, h->nfacets, a, b, NULL, err);
    free(a);
    free(b);
    if (p && (g = new_convex(p, err)) != NULL) {
        if (convex_checks(g, &vs, err) != HS_OK || hull_boundary(g, h, pts, err) != HS_OK ||
            geom_fit_obb(g, vs->x, vs->nverts, 1, err) != HS_OK)
            g = discard(g, vs);
        else {
            vertex_set_free(vs);
            g->refs = 0;
        }
    }
    hull3_free(h);
    return g;
}

static hs_code add_points_piece(hs_body *b, double *pts, int n, const double place[16],
                                hs_error *err)
{
    if (place) {
        if (!pose_is_valid(place))
            return hs_fail(err, HS_ERR_ARG, "the placement is not a valid pose");
        for (int i = 0; i < n; i++)
            pose_apply(place, pts + 3 * i, pts + 3 * i);
    }
    geom *g = geom_from_points(pts, n, err);
    if (!g)
        return err ? err->code : HS_ERR_INPUT;
    return body_add_geom(b, g, err);
}

static int positive(double v) { return isfinite(v) && v > 0; }

hs_code hs_body_add_box(hs_body *b, const double size[3], const double place[16], hs_error *err)
{
    if (!positive(size[0]) || !positive(size[1]) || !positive(size[2]))
        return hs_fail(err, HS_ERR_ARG, "box sizes must be finite and positive");
    double pts[24];
    for (int c = 0; c < 8; c++)
        for (int j = 0; j < 3; j++)
            pts[3 * c + j] = ((c >> j) & 1 ? 0.5 : -0.5) * size[j];
    return add_points_piece(b, pts, 8, place, err);
}

/* Ring of `sides` points on the circle of radius r in the plane y = h. */
static void ring(double *pts, int sides, double r, double h)
{
    for (int k = 0; k < sides; k++) {
        double th = 2 * M_PI * k / sides;
        pts[3 * k] = r * cos(th);
        pts[3 * k + 1] = h;
        pts[3 * k + 2] = -r * sin(th);
    }
}

hs_code hs_body_add_cylinder(hs_body *b, double radius, double height, int sides,
                             const double place[16], hs_error *err)
{
    if (!positive(radius) || !positive(height) || sides < 3 || sides > 100000)
        return hs_fail(err, HS_ERR_ARG, "a cylinder needs positive sizes and 3 to 100000 sides");
    double *pts = hs_malloc((size_t)sides * 6, sizeof(double));
    if (!pts)
        return hs_fail(err, HS_ERR_NOMEM, "out of memory");
    ring(pts, sides, radius, -height / 2);
    ring(pts + 3 * sides, sides, radius, height / 2);
    hs_code rc = add_points_piece(b, pts, 2 * sides, place, err);
    free(pts);
    return rc;
}

hs_code hs_body_add_cone(hs_body *b, double radius, double height, int sides,
                         const double place[16], hs_error *err)
{
    if (!positive(radius) || !positive(height) || sides < 3 || sides > 100000)
        return hs_fail(err, HS_ERR_ARG, "a cone needs positive sizes and 3 to 100000 sides");
    double *pts = hs_malloc((size_t)sides * 3 + 3, sizeof(double));
    if (!pts)
        return hs_fail(err, HS_ERR_NOMEM, "out of memory");
    ring(pts, sides, radius, -height / 2);
    pts[3 * sides] = 0;
    pts[3 * sides + 1] = height / 2;
    pts[3 * sides + 2] = 0;
    hs_code rc = add_points_piece(b, pts, sides + 1, place, err);
    free(pts);
    return rc;
}

/* ------------------------------------------------------------- sphere */

/* Midpoint of the edge (i, j), pushed onto the unit sphere; points are
 * kept in a small open-addressing table so each edge splits once. */
typedef struct sphere_build {
    double *pts;
    int npts, cap;
    long long *key;
    int *val;
    int kcap;
} sphere_build;

static int edge_mid(sphere_build *sb, int i, int j)
{
    long long k = (long long)(i < j ? i : j) * 1000003LL + (i < j ? j : i) + 1;
    size_t h = (size_t)((unsigned long long)k * 0x9e3779b97f4a7c15ULL) % (size_t)sb->kcap;
    while (sb->key[h] && sb->key[h] != k)
        h = (h + 1) % (size_t)sb->kcap;
    if (sb->key[h])
        return sb->val[h];
    double *p = sb->pts + 3 * sb->npts, len = 0;
    for (int d = 0; d < 3; d++) {
        p[d] = (sb->pts[3 * i + d] + sb->pts[3 * j + d]) / 2;
        len += p[d] * p[d];
    }
    for (int d = 0; d < 3; d++)
        p[d] /= sqrt(len);
    sb->key[h] = k;
    sb->val[h] = sb->npts;
    return sb->npts++;
}

static const int icosa_faces[20][3] = {
    {0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
    {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
    {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};

static void icosa_vertices(double *pts)
{
    double t = (1 + sqrt(5.0)) / 2, s = sqrt(1 + t * t);
    const double raw[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                               {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                               {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    for (int i = 0; i < 12; i++)
        for (int d = 0; d < 3; d++)
            pts[3 * i + d] = raw[i][d] / s;
}

/* Points of the icosphere of `level` subdivisions on the unit sphere. */
static int icosphere(int level, double **out_pts, int *out_n)
{
    int nf = 20 << (2 * level), np = 10 * (1 << (2 * level)) + 2;
    sphere_build sb = {0};
    sb.cap = np;
    sb.kcap = 4 * np + 7;
    sb.pts = malloc(sizeof(double) * 3 * (size_t)np);
    sb.key = calloc((size_t)sb.kcap, sizeof(long long));
    sb.val = malloc(sizeof(int) * (size_t)sb.kcap);
    int *faces = malloc(sizeof(int) * 3 * (size_t)nf), *next = malloc(sizeof(int) * 3 * (size_t)nf);
    if (!sb.pts || !sb.key || !sb.val || !faces || !next) {
        free(sb.pts), free(sb.key), free(sb.val), free(faces), free(next);
        return -1;
    }
    icosa_vertices(sb.pts);
    sb.npts = 12;
    memcpy(faces, icosa_faces, sizeof icosa_faces);
    for (int lv = 0, count = 20; lv < level; lv++, count *= 4) {
        for (int f = 0; f < count; f++) {
            int a = faces[3 * f], b = faces[3 * f + 1], c = faces[3 * f + 2];
            int ab = edge_mid(&sb, a, b), bc = edge_mid(&sb, b, c), ca = edge_mid(&sb, c, a);
            int tri[12] = {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca};
            memcpy(next + 12 * f, tri, sizeof tri);
        }
        int *t = faces;
        faces = next;
        next = t;
    }
    free(sb.key), free(sb.val), free(faces), free(next);
    *out_pts = sb.pts;
    *out_n = sb.npts;
    return 0;
}

hs_code hs_body_add_sphere(hs_body *b, double radius, int level, const double place[16],
                           hs_error *err)
{
    if (!positive(radius) || level < 0 || level > 6)
        return hs_fail(err, HS_ERR_ARG, "a sphere needs a positive radius and level 0 to 6");
    double *pts;
    int n;
    if (icosphere(level, &pts, &n) != 0)
        return hs_fail(err, HS_ERR_NOMEM, "out of memory");
    for (int i = 0; i < 3 * n; i++)
        pts[i] *= radius;
    hs_code rc = add_points_piece(b, pts, n, place, err);
    free(pts);
    return rc;
}

hs_code hs_body_add_hull(hs_body *b, const double *points, int n, const double place[16],
                         hs_error *err)
{
    if (!points || n < 4)
        return hs_fail(err, HS_ERR_ARG, "a hull needs at least 4 points");
    double *pts = hs_malloc((size_t)n * 3, sizeof(double));
    if (!pts)
        return hs_fail(err, HS_ERR_NOMEM, "out of memory");
    memcpy(pts, points, sizeof(double) * 3 * (size_t)n);
    hs_code rc = add_points_piece(b, pts, n, place, err);
    free(pts);
    return rc;
}

hs_code hs_body_add_polytope(hs_body *b, const hs_poly *p, const double place[16], hs_error *err)
{
    if (!p || hs_poly_dim(p) != 3)
        return hs_fail(err, HS_ERR_INPUT, "a polytope piece must have 3 variables");
    if (place && !pose_is_valid(place))
        return hs_fail(err, HS_ERR_ARG, "the placement is not a valid pose");
    int m = p->m;
    double *a = hs_malloc((size_t)m * 3, sizeof(double)), *rhs = hs_malloc((size_t)m, sizeof(double));
    if (!a || !rhs) {
        free(a);
        free(rhs);
        return hs_fail(err, HS_ERR_NOMEM, "out of memory");
    }
    double inv[16];
    if (place)
        pose_inverse(inv, place);
    for (int i = 0; i < m; i++) {
        if (p->eq[i]) {
            free(a);
            free(rhs);
            return hs_fail(err, HS_ERR_INPUT, "a polytope piece cannot have equality rows");
        }
        if (place)
            pose_map_row(inv, hpoly_row(p, i), p->b[i], a + 3 * i, &rhs[i]);
        else {
            memcpy(a + 3 * i, hpoly_row(p, i), sizeof(double) * 3);
            rhs[i] = p->b[i];
        }
    }
    hs_poly *q = hs_poly_from_doubles(3, m, a, rhs, NULL, err);
    free(a);
    free(rhs);
    if (!q)
        return err ? err->code : HS_ERR_INPUT;
    geom *g = geom_convex(q, err);
    return g ? body_add_geom(b, g, err) : (err ? err->code : HS_ERR_INPUT);
}

/* --------------------------------------------------------------- mesh */

geom *geom_mesh(const double *verts, int nverts, const int *tris, int ntris, hs_error *err)
{
    geom *g = calloc(1, sizeof *g);
    if (!g) {
        hs_fail(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    g->kind = PIECE_MESH;
    g->nmv = nverts;
    g->ntris = ntris;
    g->mv = hs_malloc((size_t)nverts * 3, sizeof(double));
    g->tris = hs_malloc((size_t)ntris * 3, sizeof(int));
    if (!g->mv || !g->tris) {
        hs_fail(err, HS_ERR_NOMEM, "out of memory");
        goto fail;
    }
    memcpy(g->mv, verts, sizeof(double) * 3 * (size_t)nverts);
    memcpy(g->tris, tris, sizeof(int) * 3 * (size_t)ntris);
    for (int j = 0; j < 3; j++) {
        g->lo[j] = INFINITY;
        g->hi[j] = -INFINITY;
    }
    for (int i = 0; i < nverts; i++)
        for (int j = 0; j < 3; j++) {
            g->lo[j] = fmin(g->lo[j], verts[3 * i + j]);
            g->hi[j] = fmax(g->hi[j], verts[3 * i + j]);
        }
    if (!(g->index = tri_mesh_new(g->mv, nverts, g->tris, ntris))) {
        hs_fail(err, HS_ERR_NOMEM, "out of memory");
        goto fail;
    }
    if (geom_fit_obb(g, g->mv, nverts, 0, err) != HS_OK)
        goto fail;
    return g;
fail:
    g->refs = 1;
    geom_release(g);
    return NULL;
}

/* Two corners equal or all three collinear (exactly, by cross product in
 * exact arithmetic through the orientation of a lifted point). */
static int degenerate_triangle(const double *v, const int *t)
{
    const double *p = v + 3 * t[0], *q = v + 3 * t[1], *r = v + 3 * t[2];
    for (int d = 0; d < 3; d++) { /* collinear iff every axis projection is */
        double lift[3] = {p[0], p[1], p[2]};
        lift[d] += 1; /* a point off the line in direction d */
        if (hull3_orient3d(p, q, r, lift) != 0)
            return 0;
    }
    return 1;
}

hs_code hs_body_add_mesh(hs_body *b, const double *verts, int nverts, const int *tris, int ntris,
                         const double place[16], hs_error *err)
{
    if (!verts || !tris || nverts < 3 || ntris < 1)
        return hs_fail(err, HS_ERR_ARG, "a mesh needs at least 3 points and 1 triangle");
    if (place && !pose_is_valid(place))
        return hs_fail(err, HS_ERR_ARG, "the placement is not a valid pose");
    for (int i = 0; i < 3 * nverts; i++)
        if (!isfinite(verts[i]))
            return hs_fail(err, HS_ERR_INPUT, "mesh point %d is not finite", i / 3 + 1);
    for (int t = 0; t < 3 * ntris; t++)
        if (tris[t] < 0 || tris[t] >= nverts)
            return hs_fail(err, HS_ERR_INPUT, "triangle %d refers to point %d of %d", t / 3 + 1,
                           tris[t], nverts);
    double *pts = hs_malloc((size_t)nverts * 3, sizeof(double));
    if (!pts)
        return hs_fail(err, HS_ERR_NOMEM, "out of memory");
    memcpy(pts, verts, sizeof(double) * 3 * (size_t)nverts);
    if (place)
        for (int i = 0; i < nverts; i++)
            pose_apply(place, pts + 3 * i, pts + 3 * i);
    for (int t = 0; t < ntris; t++)
        if (degenerate_triangle(pts, tris + 3 * t)) {
            free(pts);
            return hs_fail(err, HS_ERR_INPUT, "triangle %d is degenerate (collinear corners)",
                           t + 1);
        }
    geom *g = geom_mesh(pts, nverts, tris, ntris, err);
    free(pts);
    return g ? body_add_geom(b, g, err) : (err ? err->code : HS_ERR_INPUT);
}

/* ----------------------------------------------------------- boundary */

static void *copy_array(const void *src, size_t count, size_t size)
{
    void *d = hs_malloc(count, size);
    if (d && count)
        memcpy(d, src, count * size);
    return d;
}

hs_code hs_body_piece_boundary(const hs_body *b, int k, int *is_convex, double **verts,
                               int *nverts, int **face_start, int **face_vert, int *nfaces,
                               hs_error *err)
{
    if (!b || k < 0 || k >= b->npieces)
        return hs_fail(err, HS_ERR_ARG, "no piece %d", k);
    const geom *g = b->piece[k];
    int convex = g->kind == PIECE_CONVEX;
    int nv = convex ? g->nverts : g->nmv, nf = convex ? g->nfaces : g->ntris;
    int *start = hs_malloc((size_t)nf + 1, sizeof(int));
    double *v = copy_array(convex ? g->verts : g->mv, 3 * (size_t)nv, sizeof(double));
    int *fv = convex ? copy_array(g->face_vert, (size_t)g->face_start[nf], sizeof(int))
                     : copy_array(g->tris, 3 * (size_t)nf, sizeof(int));
    if (!start || !v || !fv) {
        free(start), free(v), free(fv);
        return hs_fail(err, HS_ERR_NOMEM, "out of memory");
    }
    for (int f = 0; f <= nf; f++)
        start[f] = convex ? g->face_start[f] : 3 * f;
    *is_convex = convex;
    *verts = v;
    *nverts = nv;
    *face_start = start;
    *face_vert = fv;
    *nfaces = nf;
    return HS_OK;
}
