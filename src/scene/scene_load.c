/* scene_load.c -- hs_world_load and hs_world_add_file: choose the reader
 * by the file's extension (VRML in vrml_build.c, OFF / OBJ / STL in
 * mesh_file.c), and undo a failed load; the scene options. */
#include <stdlib.h>

#include "polytope/error.h"
#include "polytope/text_lines.h"
#include "src/scene/scene.h"

void scene_opts_init(scene_opts *o)
{
    o->sides = 24;
    o->sphere_level = 2;
    o->mesh_as_hull = 0;
    o->max_bytes = TEXT_MAX_FILE_BYTES;
    o->max_depth = SCENE_MAX_DEPTH;
    o->max_pieces = SCENE_MAX_PIECES;
    o->max_points = SCENE_MAX_POINTS;
    o->allow = NULL;
}

static hs_code add_by_extension(hs_world *w, const char *path, const scene_opts *o,
                                hs_error *err)
{
    if (scene_is_vrml_file(path))
        return scene_add_vrml(w, path, o, err);
    if (scene_mesh_kind(path) != 0)
        return scene_add_mesh_file(w, path, o, err);
    return err_set(err, HS_ERR_UNSUPPORTED,
                   "%s: unknown scene format (the extension must be .wrl, .vrml, .off, .obj "
                   "or .stl)", path);
}

hs_code scene_add_file(hs_world *w, const char *path, const scene_opts *o, hs_error *err)
{
    if (!w || !path)
        return err_set(err, HS_ERR_ARG, "a scene file needs a world and a path");
    scene_opts defaults;
    if (!o) {
        scene_opts_init(&defaults);
        o = &defaults;
    }
    int before = hs_world_body_count(w);
    hs_code rc = add_by_extension(w, path, o, err);
    if (rc != HS_OK) /* undo: the newest bodies are the ones this call added */
        while (hs_world_body_count(w) > before)
            hs_world_remove_body(w, hs_world_body(w, hs_world_body_count(w) - 1), NULL);
    return rc;
}

hs_code hs_world_add_file(hs_world *w, const char *path, hs_error *err)
{
    return scene_add_file(w, path, NULL, err);
}

void hs_scene_options_init(hs_scene_options *o)
{
    scene_opts d;
    scene_opts_init(&d);
    o->cylinder_sides = d.sides;
    o->sphere_level = d.sphere_level;
    o->mesh_as_hull = d.mesh_as_hull;
    o->max_file_bytes = d.max_bytes;
    o->max_depth = d.max_depth;
    o->max_pieces = d.max_pieces;
    o->max_points = d.max_points;
    o->max_sides = SCENE_MAX_SIDES;
    o->allow_paths = NULL;
}

/* The options checked and copied; HS_ERR_ARG names what is wrong. */
static hs_code options_from_public(const hs_scene_options *o, scene_opts *so, hs_error *err)
{
    if (o->max_sides < 3 || o->max_sides > SCENE_SIDES_CEILING)
        return err_set(err, HS_ERR_ARG, "scene options: max_sides %d is not in 3..%d",
                       o->max_sides, SCENE_SIDES_CEILING);
    if (o->cylinder_sides < 3 || o->cylinder_sides > o->max_sides)
        return err_set(err, HS_ERR_ARG, "scene options: cylinder_sides %d is not in 3..%d "
                       "(max_sides)", o->cylinder_sides, o->max_sides);
    if (o->sphere_level < 0 || o->sphere_level > 6)
        return err_set(err, HS_ERR_ARG, "scene options: sphere_level %d is not in 0..6",
                       o->sphere_level);
    if (o->max_file_bytes < 1 || o->max_depth < 1 || o->max_depth > 10000 ||
        o->max_pieces < 1 || o->max_points < 1)
        return err_set(err, HS_ERR_ARG, "scene options: max_file_bytes, max_pieces and "
                       "max_points must be positive, max_depth in 1..10000");
    for (const char *const *a = o->allow_paths; a && *a; a++) {
        char *real = realpath(*a, NULL);
        if (!real)
            return err_set(err, HS_ERR_ARG, "scene options: allowed folder '%s' does not "
                           "exist", *a);
        free(real);
    }
    scene_opts_init(so);
    so->sides = o->cylinder_sides;
    so->sphere_level = o->sphere_level;
    so->mesh_as_hull = o->mesh_as_hull != 0;
    so->max_bytes = o->max_file_bytes;
    so->max_depth = o->max_depth;
    so->max_pieces = o->max_pieces;
    so->max_points = o->max_points;
    so->allow = o->allow_paths;
    return HS_OK;
}

hs_code hs_world_add_file_opts(hs_world *w, const char *path, const hs_scene_options *o,
                               hs_error *err)
{
    if (!o)
        return scene_add_file(w, path, NULL, err);
    scene_opts so;
    hs_code rc = options_from_public(o, &so, err);
    return rc != HS_OK ? rc : scene_add_file(w, path, &so, err);
}

hs_world *hs_world_load(const char *path, hs_error *err)
{
    hs_world *w = hs_world_new();
    if (!w) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (scene_add_file(w, path, NULL, err) != HS_OK) {
        hs_world_free(w);
        return NULL;
    }
    return w;
}
