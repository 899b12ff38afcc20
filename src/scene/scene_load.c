/* scene_load.c -- hs_world_load and hs_world_add_file: choose the reader
 * by the file's extension, undo a failed load; the naming rules shared by
 * the readers (body names from file names, the static rule). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "src/scene/scene.h"

void scene_opts_init(scene_opts *o)
{
    o->sides = 24;
    o->sphere_level = 2;
    o->mesh_as_hull = 0;
}

int scene_name_is_static(const char *name) { return strncmp(name, "static_", 7) == 0; }

/* Bytes VRML forbids anywhere in an identifier. */
static int vrml_id_forbidden(unsigned char c)
{
    return c <= 0x20 || c == 0x7f || strchr("\"#',.[\\]{}", c) != NULL;
}

int scene_is_vrml_id(const char *s)
{
    static const char *const keywords[] = {
        "DEF", "EXTERNPROTO", "FALSE", "IS", "NULL", "PROTO", "ROUTE", "TO", "TRUE", "USE",
        "eventIn", "eventOut", "exposedField", "field"};
    if (!s || !*s || isdigit((unsigned char)s[0]) || s[0] == '+' || s[0] == '-')
        return 0;
    for (const char *p = s; *p; p++)
        if (vrml_id_forbidden((unsigned char)*p))
            return 0;
    for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
        if (strcmp(s, keywords[k]) == 0)
            return 0;
    return 1;
}

char *scene_file_body_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *name = malloc(len + 2);
    if (!name)
        return NULL;
    size_t k = 0;
    if (len == 0 || isdigit((unsigned char)base[0]) || base[0] == '+' || base[0] == '-')
        name[k++] = '_';
    for (size_t i = 0; i < len; i++)
        name[k++] = vrml_id_forbidden((unsigned char)base[i]) ? '_' : base[i];
    name[k] = '\0';
    if (!scene_is_vrml_id(name)) { /* a keyword such as "TRUE.obj" */
        memmove(name + 1, name, k + 1);
        name[0] = '_';
    }
    return name;
}

hs_code scene_locate(hs_error *err, hs_code rc, const char *file, int line)
{
    if (!err)
        return rc == HS_ERR_NOMEM ? rc : HS_ERR_INPUT;
    char msg[HS_ERROR_MSG_SIZE];
    memcpy(msg, err->msg, sizeof msg);
    msg[sizeof msg - 1] = '\0';
    if (rc == HS_ERR_NOMEM)
        return err_set(err, rc, "%s:%d: %s", file, line, msg);
    return err_at(err, file, line, "%s", msg);
}

hs_body *scene_new_body(hs_world *w, const char *name, const char *file, int line,
                        hs_error *err)
{
    hs_body *b = hs_world_add_body(w, name, scene_name_is_static(name), err);
    if (!b)
        scene_locate(err, err ? err->code : HS_ERR_INPUT, file, line);
    return b;
}

/* Does path end with the extension ext (".wrl"), ignoring case? */
static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), k = strlen(ext);
    if (n <= k)
        return 0;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)path[n - k + i]) != ext[i])
            return 0;
    return 1;
}

int scene_mesh_kind(const char *path)
{
    return has_ext(path, ".off") ? 1 : has_ext(path, ".obj") ? 2 : has_ext(path, ".stl") ? 3 : 0;
}

static hs_code dispatch(hs_world *w, const char *path, const scene_opts *o, hs_error *err)
{
    if (has_ext(path, ".wrl") || has_ext(path, ".vrml"))
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
    hs_code rc = dispatch(w, path, o, err);
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
