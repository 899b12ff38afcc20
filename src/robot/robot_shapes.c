/* robot_shapes.c -- a URDF collision shape made the points of a convex
 * piece or a triangle mesh, in the link's frame:
 *   box       its 8 corners;
 *   cylinder  (axis z, centred) the prism of `sides` side facets whose
 *             facets touch the cylinder from outside: corners at radius
 *             r / cos(pi / sides), widened by 2^-40 so that rounding never
 *             puts a facet inside;
 *   sphere    the icosphere of `level` subdivisions scaled so that its
 *             facets lie outside the sphere (by its inradius, computed
 *             from its hull, and 2^-40);
 *   capsule   (axis z, centred, length between the two centres) the hull
 *             of two such icospheres;
 *   mesh      the file's points (hull) or triangles (kept as a mesh),
 *             scaled, then placed.
 * Each is placed by the <origin> of its <collision>.  Primitive shapes are
 * thus contained in their pieces (a collision checker that errs on the
 * safe side); a mesh is taken as written. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "polytope/predicates.h"
#include "src/robot/robot_build.h"
#include "src/shape/geom.h"
#include "src/shape/pose.h"
#include "src/shape/solids.h"

#define SHAPE_WIDEN (1 + 0x1p-40)

/* The unit icosphere of `level` scaled to contain the unit ball: points
 * (new array) and count. */
static hs_code outer_icosphere(int level, double **pts, int *n, hs_error *err)
{
    if (solid_icosphere_points(level, pts, n) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    geom *g = geom_from_points(*pts, *n, err);
    if (!g) {
        free(*pts);
        *pts = NULL;
        return err ? err->code : HS_ERR_NOMEM;
    }
    double inr = HUGE_VAL;
    for (int i = 0; i < hs_poly_rows(g->poly); i++) {
        double a[3], b;
        hs_poly_row(g->poly, i, a, &b);
        double d = b / sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        if (d < inr)
            inr = d;
    }
    geom_release(g);
    double s = SHAPE_WIDEN / (inr * (1 - 0x1p-50));
    for (int k = 0; k < 3 * *n; k++)
        (*pts)[k] *= s;
    return HS_OK;
}

static hs_code shape_points(const urdf_shape *s, const hs_robot_options *o, robot_mesh *out,
                            hs_error *err)
{
    if (s->kind == URDF_BOX) {
        out->pts = mem_alloc(8, 3 * sizeof(double));
        if (!out->pts)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        solid_box_points(s->size, out->pts);
        out->npts = 8;
        return HS_OK;
    }
    if (s->kind == URDF_CYLINDER) {
        int n = o->cylinder_sides;
        out->pts = mem_alloc((size_t)n * 2, 3 * sizeof(double));
        if (!out->pts)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        const double pi = 3.14159265358979323846;
        double R = s->radius / cos(pi / n) * SHAPE_WIDEN;
        for (int k = 0; k < n; k++) {
            double a = 2 * pi * k / n;
            for (int e = 0; e < 2; e++) {
                double *p = out->pts + 3 * (2 * k + e);
                p[0] = R * cos(a);
                p[1] = R * sin(a);
                p[2] = (e ? 0.5 : -0.5) * s->length;
            }
        }
        out->npts = 2 * n;
        return HS_OK;
    }
    /* sphere, capsule */
    double *unit = NULL;
    int n = 0;
    hs_code rc = outer_icosphere(o->sphere_level, &unit, &n, err);
    if (rc != HS_OK)
        return rc;
    int copies = s->kind == URDF_CAPSULE && s->length > 0 ? 2 : 1;
    out->pts = mem_alloc((size_t)n * (size_t)copies, 3 * sizeof(double));
    if (!out->pts) {
        free(unit);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    for (int c = 0; c < copies; c++)
        for (int k = 0; k < n; k++)
            for (int j = 0; j < 3; j++)
                out->pts[3 * (c * n + k) + j] =
                    s->radius * unit[3 * k + j] +
                    (j == 2 && copies == 2 ? (c ? 0.5 : -0.5) * s->length : 0);
    out->npts = n * copies;
    free(unit);
    return HS_OK;
}

/* Drop the triangles that became degenerate (collinear corners, exactly). */
static void drop_degenerate(robot_mesh *m)
{
    int k = 0;
    for (int t = 0; t < m->ntris; t++) {
        const int *c = m->tris + 3 * t;
        const double *p = m->pts + 3 * c[0], *q = m->pts + 3 * c[1], *r = m->pts + 3 * c[2];
        int flat = 1;
        for (int d = 0; d < 3 && flat; d++) {
            double off[3] = {p[0], p[1], p[2]};
            off[d] += 1;
            flat = pred_orient3d(p, q, r, off) == 0;
        }
        if (!flat)
            memmove(m->tris + 3 * k++, c, 3 * sizeof(int));
    }
    m->ntris = k;
}

/* The mesh file of s: found, read, scaled. */
static hs_code shape_mesh(const urdf_shape *s, urdf_model *m, const hs_robot_options *o,
                          robot_mesh *out, int *skipped, hs_error *err)
{
    char looked[400];
    int nomem = 0;
    char *path = robot_find_mesh(s->filename, m->dir, o, looked, sizeof looked, &nomem);
    if (nomem)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (!path) {
        if (o->missing_mesh_warns) {
            *skipped = 1;
            return urdf_warn(m, s->line, "mesh '%s' not found (looked for %s); this collision "
                                         "element is ignored", s->filename, looked) == 0
                       ? HS_OK
                       : err_set(err, HS_ERR_NOMEM, "out of memory");
        }
        return err_at(err, m->file, s->line, "mesh '%s' not found (looked for %s)", s->filename,
                      looked);
    }
    hs_error inner;
    hs_code rc = robot_mesh_read(path, !o->mesh_as_hull, o->max_file_bytes, out, &inner);
    if (rc != HS_OK && rc != HS_ERR_NOMEM)
        rc = err_at(err, m->file, s->line, "mesh '%s': %s", s->filename, inner.msg);
    else if (rc == HS_ERR_NOMEM)
        rc = err_set(err, rc, "out of memory");
    free(path);
    if (rc == HS_OK && out->note &&
        urdf_warn(m, s->line, "mesh '%s': %s; read by Assimp instead (float coordinates)",
                  s->filename, out->note) != 0)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int k = 0; rc == HS_OK && k < out->npts; k++)
        for (int j = 0; j < 3; j++)
            out->pts[3 * k + j] *= s->scale[j];
    return rc;
}

hs_code robot_shape_make(const urdf_shape *s, urdf_model *m, const hs_robot_options *o,
                         robot_mesh *out, int *skipped, hs_error *err)
{
    memset(out, 0, sizeof *out);
    *skipped = 0;
    hs_code rc = s->kind == URDF_MESH ? shape_mesh(s, m, o, out, skipped, err)
                                      : shape_points(s, o, out, err);
    if (rc != HS_OK || *skipped) {
        robot_mesh_free(out);
        return rc;
    }
    for (int k = 0; k < out->npts; k++)
        pose_apply(s->origin, out->pts + 3 * k, out->pts + 3 * k);
    for (int k = 0; k < 3 * out->npts; k++)
        if (!isfinite(out->pts[k])) {
            robot_mesh_free(out);
            return err_at(err, m->file, s->line, "a point of the shape is not finite once "
                                                 "scaled and placed");
        }
    if (out->tris) {
        drop_degenerate(out);
        if (out->ntris == 0) {
            robot_mesh_free(out);
            return err_at(err, m->file, s->line, "mesh '%s': no triangle of nonzero area",
                          s->filename);
        }
    }
    return HS_OK;
}

/* The piece of a shape: the hull of its points, or its mesh. */
geom *robot_shape_geom(const robot_mesh *pm, const urdf_model *m, const urdf_shape *s,
                       hs_error *err)
{
    hs_error inner;
    geom *g = pm->tris ? geom_mesh_checked(pm->pts, pm->npts, pm->tris, pm->ntris, NULL, &inner)
                       : geom_from_points(pm->pts, pm->npts, &inner);
    if (!g) {
        if (inner.code == HS_ERR_NOMEM)
            err_set(err, HS_ERR_NOMEM, "out of memory");
        else
            err_at(err, m->file, s->line, "%s%s%s: %s", s->kind == URDF_MESH ? "mesh '" : "",
                   s->kind == URDF_MESH ? s->filename : "collision shape",
                   s->kind == URDF_MESH ? "'" : "", inner.msg);
    }
    return g;
}
