/* geom.c -- the geometry of a piece (geom.h): a convex polytope (a
 * half-space system, with exact vertices, faces and box derived from it)
 * or a triangle mesh; shared by reference counting. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "polytope/hull3.h"
#include "polytope/predicates.h"
#include "solver/vertices.h"
#include "solver/fast_prep.h"
#include "polytope/error.h"
#include "polytope/mem.h"
#include "polytope/obb_fit.h"
#include "src/shape/pose.h"
#include "src/shape/geom.h"

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
    corner *buf = mem_alloc((size_t)vs->nverts, sizeof *buf);
    g->face_start = mem_alloc((size_t)vs->nfacets + 1, sizeof(int));
    g->face_row = mem_alloc((size_t)vs->nfacets, sizeof(int));
    g->face_vert = mem_alloc((size_t)vs->nedges * 2, sizeof(int)); /* sum of face sizes = 2E */
    if (!buf || !g->face_start || !g->face_row || !g->face_vert) {
        free(buf);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
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

/* A convex piece's system must be a full-dimensional 3-D polytope: the
 * fast engine's preparation proves it (seeded by npts points of it when
 * the caller has them). */
static hs_code convex_prep(geom *g, const double *pts, int npts, hs_error *err)
{
    hs_poly *p = g->poly;
    if (hs_poly_dim(p) != 3)
        return err_set(err, HS_ERR_INPUT, "a convex piece must be 3-dimensional (has %d "
                                          "variables)", hs_poly_dim(p));
    const char *why = NULL;
    const fast_prep *fp = NULL;
    if (fast_prep_get_seeded(p, pts, npts, &fp, &why) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (!fp)
        return err_set(err, HS_ERR_INPUT, "a convex piece must be a full-dimensional polytope "
                                          "of double rows (%s)", why ? why : "not ready");
    return HS_OK;
}

/* The exact vertices of a prepared convex piece, and its axis box. */
static hs_code convex_vertices(geom *g, vertex_set **vs, hs_error *err)
{
    const fast_prep *fp = NULL;
    if (fast_prep_get(g->poly, &fp, NULL) != 0 || !fp)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (vertex_enum_doubles(g->poly, fp->center, vs, err) != HS_OK)
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
        err_set(err, HS_ERR_NOMEM, "out of memory");
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
    if (!g || convex_prep(g, NULL, 0, err) != HS_OK || convex_vertices(g, &vs, err) != HS_OK)
        return g ? discard(g, vs) : NULL;
    g->nverts = vs->nverts;
    g->verts = mem_alloc((size_t)vs->nverts * 3, sizeof(double));
    if (!g->verts) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
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
    int *index = mem_alloc((size_t)h->npoints, sizeof(int));
    int corners = h->facet_start[h->nfacets];
    g->verts = mem_alloc((size_t)h->nverts * 3, sizeof(double));
    g->face_start = mem_alloc((size_t)h->nfacets + 1, sizeof(int));
    g->face_vert = mem_alloc((size_t)corners, sizeof(int));
    g->face_row = mem_alloc((size_t)h->nfacets, sizeof(int));
    if (!index || !g->verts || !g->face_start || !g->face_vert || !g->face_row) {
        free(index);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
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

/* The boxes of a hull piece without its vertices: the frame chosen from
 * the hull, then certified support bounds of the rows a, b along +-e_j
 * (the axis box) and +-fax_i (the oriented box).  0, or -1 when a
 * direction has no certificate (the caller enumerates vertices). */
static int hull_boxes_by_support(geom *g, const hull3 *h, const double *pts, int n,
                                 const double *a, const double *b)
{
    double fax[9], dirs[36], up[12];
    obb_fit_hull_frame(pts, n, h, fax);
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++) {
            dirs[3 * (2 * j) + k] = j == k;
            dirs[3 * (2 * j + 1) + k] = -(j == k);
            dirs[18 + 3 * (2 * j) + k] = fax[3 * j + k];
            dirs[18 + 3 * (2 * j + 1) + k] = -fax[3 * j + k];
        }
    if (hull3_support_bounds(h, pts, a, b, dirs, 12, up) != 0)
        return -1;
    for (int d = 0; d < 12; d++)
        if (!isfinite(up[d]))
            return -1;
    double oup[3], odown[3];
    for (int j = 0; j < 3; j++) {
        g->hi[j] = up[2 * j];
        g->lo[j] = -up[2 * j + 1];
        oup[j] = up[6 + 2 * j];
        odown[j] = up[6 + 2 * j + 1];
    }
    hs_obb box;
    obb_from_slabs(&box, fax, oup, odown);
    for (int j = 0; j < 3; j++)
        if (!(box.half[j] < INFINITY))
            return -1;
    geom_set_obb(g, &box);
    return 0;
}

/* Convex piece from points (body frame): the exact hull, one row per facet
 * (hull3_rows: every point satisfies every row exactly), the hull's
 * corners and facets as the boundary, and boxes that hold the rows'
 * polytope: from certified support bounds, or (when those find no
 * certificate) from the rows' exact vertices. */
geom *geom_from_points(const double *pts, int n, hs_error *err)
{
    hull3 *h = NULL;
    if (hull3_points(pts, n, &h, err) != HS_OK)
        return NULL;
    double *a = mem_alloc((size_t)h->nfacets * 3, sizeof(double));
    double *b = mem_alloc((size_t)h->nfacets, sizeof(double));
    hs_poly *p = NULL;
    geom *g = NULL;
    vertex_set *vs = NULL;
    if (!a || !b)
        err_set(err, HS_ERR_NOMEM, "out of memory");
    else if (hull3_rows(h, pts, a, b, err) == HS_OK)
        p = hs_poly_from_doubles(3, h->nfacets, a, b, NULL, err);
    if (p && (g = new_convex(p, err)) != NULL) {
        if (convex_prep(g, pts, n, err) != HS_OK || hull_boundary(g, h, pts, err) != HS_OK)
            g = discard(g, NULL);
        else if (hull_boxes_by_support(g, h, pts, n, a, b) == 0)
            g->refs = 0;
        else if (convex_vertices(g, &vs, err) != HS_OK ||
                 geom_fit_obb_hull(g, pts, n, h, vs->x, vs->nverts, err) != HS_OK)
            g = discard(g, vs);
        else {
            vertex_set_free(vs);
            g->refs = 0;
        }
    }
    free(a);
    free(b);
    hull3_free(h);
    return g;
}

/* The system p placed by `place` (NULL: as it is): its rows mapped by the
 * inverse pose, then geom_convex. */
geom *geom_convex_placed(const hs_poly *p, const double place[16], hs_error *err)
{
    if (!p || hs_poly_dim(p) != 3) {
        err_set(err, HS_ERR_INPUT, "a polytope piece must have 3 variables");
        return NULL;
    }
    if (place && !pose_is_valid(place)) {
        err_set(err, HS_ERR_ARG, "the placement is not a valid pose");
        return NULL;
    }
    int m = p->m;
    double *a = mem_alloc((size_t)m * 3, sizeof(double)), *rhs = mem_alloc((size_t)m, sizeof(double));
    if (!a || !rhs) {
        free(a);
        free(rhs);
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    double inv[16];
    if (place)
        pose_inverse(inv, place);
    for (int i = 0; i < m; i++) {
        if (p->eq[i]) {
            free(a);
            free(rhs);
            err_set(err, HS_ERR_INPUT, "a polytope piece cannot have equality rows");
            return NULL;
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
    return q ? geom_convex(q, err) : NULL;
}

/* Convex piece from n points placed by `place` (NULL: none); pts is
 * overwritten with the placed points. */
geom *geom_from_points_placed(double *pts, int n, const double place[16], hs_error *err)
{
    if (place) {
        if (!pose_is_valid(place)) {
            err_set(err, HS_ERR_ARG, "the placement is not a valid pose");
            return NULL;
        }
        for (int i = 0; i < n; i++)
            pose_apply(place, pts + 3 * i, pts + 3 * i);
    }
    return geom_from_points(pts, n, err);
}

/* ---------------------------------------------------------------- box */

geom *geom_box(const double half[3], hs_error *err)
{
    /* rows: +-e_j . x <= half_j, row 2j for +, 2j + 1 for -; corner c has
     * coordinate j at +half_j when bit j of c is set */
    static const int face_corners[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3},
                                           {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
    double a[18] = {0}, b[6];
    for (int j = 0; j < 3; j++) {
        a[3 * (2 * j) + j] = 1;
        a[3 * (2 * j + 1) + j] = -1;
        b[2 * j] = b[2 * j + 1] = half[j];
    }
    hs_poly *p = hs_poly_from_doubles(3, 6, a, b, NULL, err);
    geom *g = p ? new_convex(p, err) : NULL;
    if (!g)
        return NULL;
    g->verts = mem_alloc(24, sizeof(double));
    g->face_start = mem_alloc(7, sizeof(int));
    g->face_vert = mem_alloc(24, sizeof(int));
    g->face_row = mem_alloc(6, sizeof(int));
    if (!g->verts || !g->face_start || !g->face_vert || !g->face_row) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return discard(g, NULL);
    }
    for (int c = 0; c < 8; c++)
        for (int j = 0; j < 3; j++)
            g->verts[3 * c + j] = (c >> j) & 1 ? half[j] : -half[j];
    g->nverts = 8;
    for (int f = 0; f < 6; f++) {
        g->face_start[f] = 4 * f;
        g->face_row[f] = f;
        for (int k = 0; k < 4; k++)
            g->face_vert[4 * f + k] = face_corners[f][k];
    }
    g->face_start[6] = 24;
    g->nfaces = 6;
    const fast_prep *fp = NULL; /* corners seed the preparation: no LP */
    if (fast_prep_get_seeded(p, g->verts, 8, &fp, NULL) != 0) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return discard(g, NULL);
    }
    hs_obb box = {{0, 0, 0}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {half[0], half[1], half[2]}};
    for (int j = 0; j < 3; j++) {
        g->lo[j] = -half[j];
        g->hi[j] = half[j];
    }
    geom_set_obb(g, &box);
    g->refs = 0;
    return g;
}

/* --------------------------------------------------------------- mesh */

geom *geom_mesh(const double *verts, int nverts, const int *tris, int ntris, hs_error *err)
{
    geom *g = calloc(1, sizeof *g);
    if (!g) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    g->kind = PIECE_MESH;
    g->nmv = nverts;
    g->ntris = ntris;
    g->mv = mem_alloc((size_t)nverts * 3, sizeof(double));
    g->tris = mem_alloc((size_t)ntris * 3, sizeof(int));
    if (!g->mv || !g->tris) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
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
        err_set(err, HS_ERR_NOMEM, "out of memory");
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

/* Two corners equal or all three collinear: exactly, at every magnitude
 * (pred_collinear3). */
static int degenerate_triangle(const double *v, const int *t)
{
    return pred_collinear3(v + 3 * t[0], v + 3 * t[1], v + 3 * t[2]);
}

/* A mesh piece from the caller's arrays, checked (finite points, indices
 * in range, no degenerate triangle) and placed by `place` (NULL: none). */
geom *geom_mesh_checked(const double *verts, int nverts, const int *tris, int ntris,
                        const double place[16], hs_error *err)
{
    if (!verts || !tris || nverts < 3 || ntris < 1) {
        err_set(err, HS_ERR_ARG, "a mesh needs at least 3 points and 1 triangle");
        return NULL;
    }
    if (place && !pose_is_valid(place)) {
        err_set(err, HS_ERR_ARG, "the placement is not a valid pose");
        return NULL;
    }
    for (int i = 0; i < 3 * nverts; i++)
        if (!isfinite(verts[i])) {
            err_set(err, HS_ERR_INPUT, "mesh point %d is not finite", i / 3 + 1);
            return NULL;
        }
    for (int t = 0; t < 3 * ntris; t++)
        if (tris[t] < 0 || tris[t] >= nverts) {
            err_set(err, HS_ERR_INPUT, "triangle %d refers to point %d of %d", t / 3 + 1,
                    tris[t], nverts);
            return NULL;
        }
    double *pts = mem_alloc((size_t)nverts * 3, sizeof(double));
    if (!pts) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    memcpy(pts, verts, sizeof(double) * 3 * (size_t)nverts);
    if (place)
        for (int i = 0; i < nverts; i++)
            pose_apply(place, pts + 3 * i, pts + 3 * i);
    for (int t = 0; t < ntris; t++)
        if (degenerate_triangle(pts, tris + 3 * t)) {
            free(pts);
            err_set(err, HS_ERR_INPUT, "triangle %d is degenerate (collinear corners)", t + 1);
            return NULL;
        }
    geom *g = geom_mesh(pts, nverts, tris, ntris, err);
    free(pts);
    return g;
}

/* ----------------------------------------------------------- boundary */

static void *copy_array(const void *src, size_t count, size_t size)
{
    void *d = mem_alloc(count, size);
    if (d && count)
        memcpy(d, src, count * size);
    return d;
}

hs_code geom_boundary(const geom *g, int *is_convex, double **verts, int *nverts,
                      int **face_start, int **face_vert, int *nfaces, hs_error *err)
{
    int convex = g->kind == PIECE_CONVEX;
    int nv = convex ? g->nverts : g->nmv, nf = convex ? g->nfaces : g->ntris;
    int *start = mem_alloc((size_t)nf + 1, sizeof(int));
    double *v = copy_array(convex ? g->verts : g->mv, 3 * (size_t)nv, sizeof(double));
    int *fv = convex ? copy_array(g->face_vert, (size_t)g->face_start[nf], sizeof(int))
                     : copy_array(g->tris, 3 * (size_t)nf, sizeof(int));
    if (!start || !v || !fv) {
        free(start), free(v), free(fv);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
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
