/* robot_meshes.c -- the contents of a URDF mesh file: STL, OBJ and OFF
 * through the scene readers (src/scene, coordinates read as doubles),
 * any other format through Assimp (robot_assimp.c); as the points of
 * its hull, or as triangles (polygons split into fans, faces of zero
 * area dropped). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "polytope/predicates.h"
#include "src/robot/robot_mesh.h"
#include "src/scene/scene.h"

void robot_mesh_free(robot_mesh *m)
{
    free(m->pts);
    free(m->tris);
    free(m->note);
    memset(m, 0, sizeof *m);
}

/* Corners p, q, r collinear (or two equal), exactly: every point is then
 * coplanar with them, and a proper triangle has one of p + e_d off its
 * plane. */
static int mesh_collinear(const double *p, const double *q, const double *r)
{
    for (int d = 0; d < 3; d++) {
        double off[3] = {p[0], p[1], p[2]};
        off[d] += 1;
        if (pred_orient3d(p, q, r, off) != 0)
            return 0;
    }
    return 1;
}

/* The soup's polygons as fans of triangles of nonzero area. */
static hs_code soup_triangles(const scene_soup *s, robot_mesh *out, hs_error *err)
{
    long cap = 1;
    for (int f = 0; f < s->nfaces; f++)
        cap += s->fstart[f + 1] - s->fstart[f];
    out->tris = mem_alloc((size_t)cap, 3 * sizeof(int));
    out->pts = mem_alloc((size_t)s->npts + 1, 3 * sizeof(double));
    if (!out->tris || !out->pts)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    memcpy(out->pts, s->pts, (size_t)s->npts * 3 * sizeof(double));
    out->npts = s->npts;
    for (int f = 0; f < s->nfaces; f++) {
        const int *c = s->fidx + s->fstart[f];
        int len = s->fstart[f + 1] - s->fstart[f];
        for (int i = 1; i + 1 < len; i++) {
            int t[3] = {c[0], c[i], c[i + 1]};
            if (!mesh_collinear(s->pts + 3 * t[0], s->pts + 3 * t[1], s->pts + 3 * t[2]))
                memcpy(out->tris + 3 * out->ntris++, t, sizeof t);
        }
    }
    return HS_OK;
}

hs_code robot_mesh_read(const char *path, int tris, long max_bytes, robot_mesh *out,
                        hs_error *err)
{
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(path, &st) != 0)
        return err_set(err, HS_ERR_IO, "%s: cannot read the mesh file", path);
    if ((long long)st.st_size > (long long)max_bytes)
        return err_at(err, path, 0, "the mesh file has %lld bytes, more than the limit of %ld",
                      (long long)st.st_size, max_bytes);
    if (scene_mesh_kind(path) == 0)
        return robot_assimp_read(path, tris, out, err);
    hs_code rc;
    if (!tris) {
        rc = scene_mesh_points(path, &out->pts, &out->npts, &out->line, err);
    } else {
        scene_soup s;
        rc = scene_read_mesh(path, (size_t)max_bytes, &s, &out->line, err);
        if (rc == HS_OK)
            rc = soup_triangles(&s, out, err);
        soup_free(&s);
        if (rc == HS_OK && out->ntris == 0)
            rc = err_at(err, path, out->line, "no face of nonzero area");
    }
    if (rc == HS_ERR_INPUT) { /* refused: Assimp may read it */
        robot_mesh_free(out);
        hs_error second;
        char *why = mem_strdup(err ? err->msg : "refused by the scene reader");
        if (!why)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        if (robot_assimp_read(path, tris, out, &second) == HS_OK) {
            out->note = why;
            return HS_OK;
        }
        free(why);
    }
    if (rc != HS_OK)
        robot_mesh_free(out);
    return rc;
}
