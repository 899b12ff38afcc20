/* scene_names.c -- the naming rules shared by the scene-file readers and
 * the writer: body names made from file names, the static rule, VRML
 * identifiers, the kind of a scene file by its extension, and errors
 * located at FILE:LINE (with the body constructor that locates its own). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "src/scene/scene.h"

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

/* Does path end with the extension ext (".wrl"), ignoring case? */
static int has_extension(const char *path, const char *ext)
{
    size_t n = strlen(path), k = strlen(ext);
    if (n <= k)
        return 0;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)path[n - k + i]) != ext[i])
            return 0;
    return 1;
}

int scene_is_vrml_file(const char *path)
{
    return has_extension(path, ".wrl") || has_extension(path, ".vrml");
}

int scene_mesh_kind(const char *path)
{
    return has_extension(path, ".off")   ? 1
           : has_extension(path, ".obj") ? 2
           : has_extension(path, ".stl") ? 3
                                         : 0;
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
