/* scene_load.c -- hs_world_load and hs_world_add_file: choose the reader
 * by the file's extension (VRML in vrml_build.c, OFF / OBJ / STL in
 * mesh_file.c), and undo a failed load; the scene options. */
#include "polytope/error.h"
#include "src/scene/scene.h"

void scene_opts_init(scene_opts *o)
{
    o->sides = 24;
    o->sphere_level = 2;
    o->mesh_as_hull = 0;
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
}

hs_code hs_world_add_file_opts(hs_world *w, const char *path, const hs_scene_options *o,
                               hs_error *err)
{
    if (!o)
        return scene_add_file(w, path, NULL, err);
    if (o->cylinder_sides < 3 || o->cylinder_sides > 100000 || o->sphere_level < 0 ||
        o->sphere_level > 6)
        return err_set(err, HS_ERR_ARG, "scene options: cylinder_sides 3..100000 and "
                                        "sphere_level 0..6");
    scene_opts so = {o->cylinder_sides, o->sphere_level, o->mesh_as_hull != 0};
    return scene_add_file(w, path, &so, err);
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
