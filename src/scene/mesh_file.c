/* mesh_file.c -- a mesh file (OFF, OBJ or STL, by its extension) as one
 * body named after the file with one piece, as a polygon soup (for a VRML
 * Inline), or as the points of its hull (for a chain's mesh piece). */
#include <stdlib.h>

#include "polytope/error.h"
#include "polytope/text_lines.h"
#include "src/scene/mesh.h"
#include "src/scene/scene.h"

hs_code scene_read_mesh(const char *path, size_t max_bytes, scene_soup *s, int *line,
                        hs_error *err)
{
    switch (scene_mesh_kind(path)) {
    case 1: return mesh_read_off(path, max_bytes, s, line, err);
    case 2: return mesh_read_obj(path, max_bytes, s, line, err);
    case 3: return mesh_read_stl(path, max_bytes, s, line, err);
    default:
        soup_init(s);
        return err_set(err, HS_ERR_ARG, "%s: not a mesh file", path);
    }
}

/* The one body of a mesh file, with its piece. */
static hs_code add_mesh_body(hs_world *w, const char *path, const scene_soup *s,
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

hs_code scene_add_mesh_file(hs_world *w, const char *path, const scene_opts *o, hs_error *err)
{
    scene_soup s;
    int line = 0;
    hs_code rc = scene_read_mesh(path, o->max_bytes, &s, &line, err);
    if (rc == HS_OK)
        rc = add_mesh_body(w, path, &s, o, line, err);
    soup_free(&s);
    return rc;
}

hs_code scene_mesh_points(const char *path, double **pts, int *n, int *line, hs_error *err)
{
    scene_soup s;
    *line = 0;
    hs_code rc = scene_read_mesh(path, TEXT_MAX_FILE_BYTES, &s, line, err);
    if (rc == HS_OK)
        rc = soup_points(&s, path, *line, pts, n, err);
    soup_free(&s);
    return rc;
}
