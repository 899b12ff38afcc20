/* vrml_geometry.c -- the geometry nodes of a VRML scene as pieces of the
 * walker's body: Box, Cylinder and Cone (prisms and pyramids of
 * scene_opts.sides sides), Sphere (an icosphere of scene_opts.sphere_level),
 * IndexedFaceSet (its Coordinate and coordIndex as a polygon soup, see
 * soup.c), and the mesh file an Inline names. */
#include <stdlib.h>

#include "polytope/error.h"
#include "src/scene/vrml_walk.h"

static hs_code require_positive(walker *wk, const vnode *n, double v, const char *what,
                                int line)
{
    if (v > 0)
        return HS_OK;
    return err_at(wk->err, n->file, line, "%s of %s must be positive (found %g)", what,
                  n->type, v);
}

static hs_code add_primitive(walker *wk, const vnode *n, const env *e, const double M[16])
{
    double size[3] = {2, 2, 2}, radius = 1, height = 2;
    int l1 = n->line, l2 = n->line;
    node_kind k = n->spec->kind;
    hs_code rc;
    if (k == K_BOX)
        rc = vrml_get_numbers(wk, n, e, "size", size, 3, &l1);
    else
        rc = vrml_get_numbers(wk, n, e, k == K_CONE ? "bottomRadius" : "radius", &radius, 1, &l1);
    if (rc == HS_OK && (k == K_CYLINDER || k == K_CONE))
        rc = vrml_get_numbers(wk, n, e, "height", &height, 1, &l2);
    for (int d = 0; rc == HS_OK && k == K_BOX && d < 3; d++)
        rc = require_positive(wk, n, size[d], "size", l1);
    if (rc == HS_OK && k != K_BOX)
        rc = require_positive(wk, n, radius, k == K_CONE ? "bottomRadius" : "radius", l1);
    if (rc == HS_OK)
        rc = require_positive(wk, n, height, "height", l2);
    int sides = wk->opt->sides, level = wk->opt->sphere_level;
    long points = k == K_BOX ? 8 : k == K_CYLINDER ? 2L * sides : k == K_CONE ? sides + 1L
                                                  : 10L * (1L << (2 * level)) + 2;
    if (rc == HS_OK)
        rc = vrml_new_piece(wk, n, points);
    if (rc != HS_OK || wk->counting)
        return rc;
    hs_body *b = wk->body;
    rc = k == K_BOX        ? hs_body_add_box(b, size, M, wk->err)
         : k == K_CYLINDER ? hs_body_add_cylinder(b, radius, height, sides, M, wk->err)
         : k == K_CONE     ? hs_body_add_cone(b, radius, height, sides, M, wk->err)
                           : hs_body_add_sphere(b, radius, level, M, wk->err);
    return rc == HS_OK ? rc : scene_locate(wk->err, rc, n->file, n->line);
}

/* coordIndex into faces of the soup (-1 ends a face). */
static hs_code ifs_faces(walker *wk, const vnode *n, const fref *idx, int npts,
                         scene_soup *s)
{
    int open = 0;
    for (int k = 0; k <= idx->f->nitems; k++) {
        const vitem *it = k < idx->f->nitems ? &idx->f->item[k] : NULL;
        double v = it ? it->num : -1;
        if (it && (v < -1 || v >= npts))
            return err_at(wk->err, n->file, it->line,
                          "coordIndex %.0f is out of range (the Coordinate has %d points)",
                          v, npts);
        if (v >= 0) {
            if (soup_corner(s, (int)v) != 0)
                return err_set(wk->err, HS_ERR_NOMEM, "out of memory");
            open++;
            continue;
        }
        if (open > 0 && open < 3)
            return err_at(wk->err, n->file, it ? it->line : idx->f->line,
                          "face %d of IndexedFaceSet has %d corner%s (at least 3 needed)",
                          s->nfaces + 1, open, open > 1 ? "s" : "");
        if (open > 0 && soup_end_face(s) != 0)
            return err_set(wk->err, HS_ERR_NOMEM, "out of memory");
        open = 0;
    }
    return s->nfaces > 0 ? HS_OK
                         : err_at(wk->err, n->file, idx->f->line,
                                  "IndexedFaceSet without faces");
}

/* An IndexedFaceSet being built: its node, environment and placement. */
typedef struct face_job {
    const vnode *ifs;
    const env *e;
    const double *M;
} face_job;

static hs_code face_set_points(walker *wk, const face_job *job, const fref *pts)
{
    const vnode *n = job->ifs;
    fref idx;
    int convex = 1;
    scene_soup s;
    soup_init(&s);
    hs_code rc = vrml_field_of(wk, n, job->e, "coordIndex", &idx);
    if (rc == HS_OK && (!idx.f || idx.f->nitems == 0))
        rc = err_at(wk->err, n->file, n->line, "IndexedFaceSet without coordIndex");
    if (rc == HS_OK)
        rc = vrml_get_bool(wk, n, job->e, "convex", &convex);
    for (int k = 0; rc == HS_OK && k + 2 < pts->f->nitems; k += 3) {
        double p[3] = {pts->f->item[k].num, pts->f->item[k + 1].num, pts->f->item[k + 2].num};
        if (soup_point(&s, p) != 0)
            rc = err_set(wk->err, HS_ERR_NOMEM, "out of memory");
    }
    if (rc == HS_OK)
        rc = ifs_faces(wk, n, &idx, s.npts, &s);
    if (rc == HS_OK)
        rc = vrml_new_piece(wk, n, (long)s.npts + idx.f->nitems);
    soup_mode mode = wk->opt->mesh_as_hull ? SOUP_HULL : convex ? SOUP_CONVEX_TEST : SOUP_MESH;
    if (rc == HS_OK)
        rc = soup_add_piece(wk->body, &s, job->M, mode, n->file, n->line, wk->err);
    soup_free(&s);
    return rc;
}

/* The node c of field coord (through PROTO instances) must be a
 * Coordinate; its points make the face set. */
static hs_code face_set_coord(walker *wk, const face_job *job, const vnode *c, const env *ce)
{
    hs_code rc = HS_OK;
    if (c->proto) {
        env inst = {c, ce};
        const vnode *root = vrml_proto_root(c->proto);
        if (!root)
            return err_at(wk->err, c->file, c->line, "PROTO %s has no node", c->type);
        if ((rc = vrml_enter(wk, c)) == HS_OK) {
            rc = face_set_coord(wk, job, root, &inst);
            wk->depth--;
        }
        return rc;
    }
    if (c->spec->kind != K_COORD)
        return err_at(wk->err, c->file, c->line, "coord must be a Coordinate, not %s",
                      c->type);
    fref pts;
    rc = vrml_field_of(wk, c, ce, "point", &pts);
    if (rc == HS_OK && (!pts.f || pts.f->nitems < 9))
        return err_at(wk->err, c->file, c->line, "Coordinate needs at least 3 points");
    if (rc == HS_OK && wk->counting) { /* the faces are read when building */
        fref idx;
        rc = vrml_field_of(wk, job->ifs, job->e, "coordIndex", &idx);
        long corners = rc == HS_OK && idx.f ? idx.f->nitems : 0;
        return rc == HS_OK ? vrml_new_piece(wk, job->ifs, pts.f->nitems / 3 + corners) : rc;
    }
    return rc == HS_OK ? face_set_points(wk, job, &pts) : rc;
}

static hs_code add_face_set(walker *wk, const vnode *n, const env *e, const double M[16])
{
    fref r;
    hs_code rc = vrml_field_of(wk, n, e, "coord", &r);
    if (rc != HS_OK)
        return rc;
    if (!r.f || r.f->nitems != 1 || r.f->item[0].kind != IT_NODE)
        return err_at(wk->err, n->file, n->line, "IndexedFaceSet without coord");
    face_job job = {n, e, M};
    return face_set_coord(wk, &job, r.f->item[0].node, r.e);
}

hs_code vrml_walk_geometry(walker *wk, const vnode *n, const env *e, const double M[16])
{
    hs_code rc = vrml_enter(wk, n);
    if (rc != HS_OK)
        return rc;
    if (n->proto) {
        env inst = {n, e};
        const vnode *root = vrml_proto_root(n->proto);
        rc = root ? vrml_walk_geometry(wk, root, &inst, M)
                  : err_at(wk->err, n->file, n->line, "PROTO %s has no node to serve as "
                           "geometry", n->type);
    } else if (n->spec->kind == K_IFS)
        rc = add_face_set(wk, n, e, M);
    else if (n->spec->kind >= K_BOX && n->spec->kind <= K_SPHERE)
        rc = add_primitive(wk, n, e, M);
    else
        rc = err_at(wk->err, n->file, n->line, "%s cannot be the geometry of a Shape",
                    n->type);
    wk->depth--;
    return rc;
}

hs_code vrml_inline_mesh(walker *wk, const vnode *n, const char *path, const double M[16])
{
    if (wk->counting) /* its points are counted when it is read, building */
        return vrml_new_piece(wk, n, 0);
    scene_soup s;
    int line = 0;
    hs_code rc = scene_read_mesh(path, wk->opt->max_bytes, &s, &line, wk->err);
    if (rc == HS_ERR_IO)
        rc = scene_locate(wk->err, rc, n->file, n->line);
    if (rc == HS_OK)
        rc = vrml_new_piece(wk, n, (long)s.npts + s.nidx);
    if (rc == HS_OK)
        rc = soup_add_piece(wk->body, &s, M, wk->opt->mesh_as_hull ? SOUP_HULL : SOUP_MESH, path,
                            line, wk->err);
    soup_free(&s);
    return rc;
}
