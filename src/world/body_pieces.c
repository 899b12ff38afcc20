/* body_pieces.c -- the pieces of a body (hs_body_add_*): each argument
 * checked, the solid's points or rows placed, the geometry built
 * (src/shape/geom.c) and added to the body. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/shape/geom.h"
#include "src/shape/solids.h"
#include "src/world/world.h"

static hs_code add_or_fail(hs_body *b, geom *g, hs_error *err)
{
    return g ? body_add_geom(b, g, err) : (err ? err->code : HS_ERR_INPUT);
}

static hs_code add_points_piece(hs_body *b, double *pts, int n, const double place[16],
                                hs_error *err)
{
    return add_or_fail(b, geom_from_points_placed(pts, n, place, err), err);
}

static int positive(double v) { return isfinite(v) && v > 0; }

hs_code hs_body_add_box(hs_body *b, const double size[3], const double place[16], hs_error *err)
{
    if (!positive(size[0]) || !positive(size[1]) || !positive(size[2]))
        return err_set(err, HS_ERR_ARG, "box sizes must be finite and positive");
    if (!place) { /* the common case, written down exactly */
        double half[3] = {0.5 * size[0], 0.5 * size[1], 0.5 * size[2]};
        if (half[0] >= 0x1p-1000 && half[1] >= 0x1p-1000 && half[2] >= 0x1p-1000)
            return add_or_fail(b, geom_box(half, err), err);
    }
    double pts[24];
    solid_box_points(size, pts);
    return add_points_piece(b, pts, 8, place, err);
}

hs_code hs_body_add_cylinder(hs_body *b, double radius, double height, int sides,
                             const double place[16], hs_error *err)
{
    if (!positive(radius) || !positive(height) || sides < 3 || sides > 100000)
        return err_set(err, HS_ERR_ARG, "a cylinder needs positive sizes and 3 to 100000 sides");
    double *pts = solid_cylinder_points(radius, height, sides);
    if (!pts)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_code rc = add_points_piece(b, pts, 2 * sides, place, err);
    free(pts);
    return rc;
}

hs_code hs_body_add_cone(hs_body *b, double radius, double height, int sides,
                         const double place[16], hs_error *err)
{
    if (!positive(radius) || !positive(height) || sides < 3 || sides > 100000)
        return err_set(err, HS_ERR_ARG, "a cone needs positive sizes and 3 to 100000 sides");
    double *pts = solid_cone_points(radius, height, sides);
    if (!pts)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_code rc = add_points_piece(b, pts, sides + 1, place, err);
    free(pts);
    return rc;
}

hs_code hs_body_add_sphere(hs_body *b, double radius, int level, const double place[16],
                           hs_error *err)
{
    if (!positive(radius) || level < 0 || level > 6)
        return err_set(err, HS_ERR_ARG, "a sphere needs a positive radius and level 0 to 6");
    double *pts;
    int n;
    if (solid_icosphere_points(level, &pts, &n) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
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
        return err_set(err, HS_ERR_ARG, "a hull needs at least 4 points");
    double *pts = mem_alloc((size_t)n * 3, sizeof(double));
    if (!pts)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    memcpy(pts, points, sizeof(double) * 3 * (size_t)n);
    hs_code rc = add_points_piece(b, pts, n, place, err);
    free(pts);
    return rc;
}

hs_code hs_body_add_polytope(hs_body *b, const hs_poly *p, const double place[16], hs_error *err)
{
    return add_or_fail(b, geom_convex_placed(p, place, err), err);
}

hs_code hs_body_add_mesh(hs_body *b, const double *verts, int nverts, const int *tris, int ntris,
                         const double place[16], hs_error *err)
{
    return add_or_fail(b, geom_mesh_checked(verts, nverts, tris, ntris, place, err), err);
}

hs_code hs_body_piece_boundary(const hs_body *b, int k, int *is_convex, double **verts,
                               int *nverts, int **face_start, int **face_vert, int *nfaces,
                               hs_error *err)
{
    if (!b || k < 0 || k >= b->npieces)
        return err_set(err, HS_ERR_ARG, "no piece %d", k);
    return geom_boundary(b->piece[k], is_convex, verts, nverts, face_start, face_vert, nfaces,
                         err);
}

hs_code hs_body_piece_obb(const hs_body *b, int k, hs_obb *box, hs_error *err)
{
    if (!b || !box)
        return err_set(err, HS_ERR_ARG, "hs_body_piece_obb: %s is NULL", b ? "box" : "body");
    if (k < 0 || k >= b->npieces)
        return err_set(err, HS_ERR_ARG,
                       "hs_body_piece_obb: piece %d out of range (body '%s' has %d pieces)", k,
                       b->name, b->npieces);
    *box = b->piece[k]->obb;
    return HS_OK;
}
