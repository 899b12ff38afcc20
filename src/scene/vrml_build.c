/* vrml_build.c -- scene_add_vrml: a VRML 2.0 file read (vrml_lex.c,
 * vrml_parse.c) and its graph walked into bodies and pieces.
 *
 * Bodies.  Every top-level node given a DEF name is one body with that
 * name, provided some Shape lies under it; the other top-level nodes with
 * geometry together make one body named after the file.  When the body's
 * top node is a Transform (directly or as the first node of a PROTO), the
 * rigid part of that Transform is the body's pose and its scale goes into
 * the pieces.  Every Shape below is one piece (vrml_geometry.c), placed by
 * the product of the Transforms above it.  Grouping nodes (Group, Anchor,
 * Collision), Switch, LOD, PROTO instances and Inline are walked through;
 * Inline files are read once per load, and an Inline cycle is an error.
 * vrml.h has the whole picture. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "polytope/error.h"
#include "polytope/text_lines.h"
#include "src/scene/vrml_walk.h"

static hs_code walk_node(walker *wk, const vnode *n, const env *e, const double M[16]);

/* Every node of field `name` (MFNode or SFNode) of n. */
static hs_code walk_field_nodes(walker *wk, const vnode *n, const env *e, const char *name,
                                const double M[16])
{
    fref r;
    hs_code rc = vrml_field_of(wk, n, e, name, &r);
    for (int k = 0; rc == HS_OK && r.f && k < r.f->nitems; k++)
        if (r.f->item[k].kind == IT_NODE)
            rc = walk_node(wk, r.f->item[k].node, r.e, M);
    return rc;
}

/* ------------------------------------------------------- transforms */

static void mat_translate(double m[16], const double t[3])
{
    hs_pose_identity(m);
    m[3] = t[0];
    m[7] = t[1];
    m[11] = t[2];
}

static void mat_scale(double m[16], const double s[3])
{
    hs_pose_identity(m);
    m[0] = s[0];
    m[5] = s[1];
    m[10] = s[2];
}

/* Rotation r = (axis, angle) times sign; a zero angle is the identity
 * whatever the axis. */
static hs_code mat_rotate(walker *wk, double m[16], const double r[4], double sign,
                          const vnode *n, int line)
{
    static const double zero[3] = {0, 0, 0};
    if (r[3] == 0) {
        hs_pose_identity(m);
        return HS_OK;
    }
    if (hs_pose_from_axis_angle(m, r, sign * r[3], zero, NULL) != HS_OK)
        return err_at(wk->err, n->file, line, "rotation axis %g %g %g of %s is zero", r[0],
                      r[1], r[2], n->type);
    return HS_OK;
}

/* The Transform n as rigid = T C R -C and stretch = C SR S -SR -C, so that
 * its matrix is rigid * stretch. */
static hs_code transform_parts(walker *wk, const vnode *n, const env *e, double rigid[16],
                               double stretch[16])
{
    double t[3] = {0, 0, 0}, c[3] = {0, 0, 0}, s[3] = {1, 1, 1};
    double r[4] = {0, 0, 1, 0}, so[4] = {0, 0, 1, 0};
    int lr, ls, lso;
    hs_code rc = vrml_get_numbers(wk, n, e, "translation", t, 3, NULL);
    if (rc == HS_OK)
        rc = vrml_get_numbers(wk, n, e, "center", c, 3, NULL);
    if (rc == HS_OK)
        rc = vrml_get_numbers(wk, n, e, "scale", s, 3, &ls);
    if (rc == HS_OK)
        rc = vrml_get_numbers(wk, n, e, "rotation", r, 4, &lr);
    if (rc == HS_OK)
        rc = vrml_get_numbers(wk, n, e, "scaleOrientation", so, 4, &lso);
    if (rc == HS_OK && !(s[0] > 0 && s[1] > 0 && s[2] > 0))
        rc = err_at(wk->err, n->file, ls, "scale %g %g %g of %s must be positive", s[0],
                    s[1], s[2], n->type);
    double T[16], C[16], Cinv[16], R[16], SR[16], SRinv[16], S[16], mc[3] = {-c[0], -c[1], -c[2]};
    if (rc == HS_OK && (rc = mat_rotate(wk, R, r, 1, n, lr)) == HS_OK &&
        (rc = mat_rotate(wk, SR, so, 1, n, lso)) == HS_OK)
        rc = mat_rotate(wk, SRinv, so, -1, n, lso);
    if (rc != HS_OK)
        return rc;
    mat_translate(T, t);
    mat_translate(C, c);
    mat_translate(Cinv, mc);
    mat_scale(S, s);
    hs_pose_multiply(rigid, T, C);
    hs_pose_multiply(rigid, rigid, R);
    hs_pose_multiply(rigid, rigid, Cinv);
    hs_pose_multiply(stretch, C, SR);
    hs_pose_multiply(stretch, stretch, S);
    hs_pose_multiply(stretch, stretch, SRinv);
    hs_pose_multiply(stretch, stretch, Cinv);
    return HS_OK;
}

static hs_code walk_transform(walker *wk, const vnode *n, const env *e, const double M[16])
{
    double rigid[16], stretch[16], local[16];
    hs_code rc = transform_parts(wk, n, e, rigid, stretch);
    if (rc != HS_OK)
        return rc;
    hs_pose_multiply(local, rigid, stretch);
    hs_pose_multiply(local, M, local);
    return walk_field_nodes(wk, n, e, "children", local);
}

/* Switch: the child whichChoice names (none when out of range). */
static hs_code walk_switch(walker *wk, const vnode *n, const env *e, const double M[16])
{
    double which = -1;
    fref r;
    hs_code rc = vrml_get_numbers(wk, n, e, "whichChoice", &which, 1, NULL);
    if (rc == HS_OK)
        rc = vrml_field_of(wk, n, e, "choice", &r);
    if (rc != HS_OK || !r.f || which < 0 || which >= r.f->nitems)
        return rc;
    const vitem *it = &r.f->item[(int)which];
    return it->kind == IT_NODE ? walk_node(wk, it->node, r.e, M) : HS_OK;
}

/* LOD: the first level, the most detailed one. */
static hs_code walk_lod(walker *wk, const vnode *n, const env *e, const double M[16])
{
    fref r;
    hs_code rc = vrml_field_of(wk, n, e, "level", &r);
    if (rc != HS_OK || !r.f || r.f->nitems == 0 || r.f->item[0].kind != IT_NODE)
        return rc;
    return walk_node(wk, r.f->item[0].node, r.e, M);
}

static hs_code walk_shape(walker *wk, const vnode *n, const env *e, const double M[16])
{
    fref r;
    hs_code rc = vrml_field_of(wk, n, e, "geometry", &r);
    if (rc != HS_OK || !r.f || r.f->nitems != 1 || r.f->item[0].kind != IT_NODE)
        return rc; /* no geometry: nothing to add */
    return vrml_walk_geometry(wk, r.f->item[0].node, r.e, M);
}

/* ----------------------------------------------------------- Inline */

static hs_code walk_items(walker *wk, const vitem *it, int n, const double M[16])
{
    hs_code rc = HS_OK;
    for (int k = 0; rc == HS_OK && k < n; k++)
        if (it[k].kind == IT_NODE)
            rc = walk_node(wk, it[k].node, NULL, M);
    return rc;
}

/* An Inline file without the "#VRML V2.0 utf8" line may be anything (a
 * password file ...): an error in its text is reported without quoting
 * it, at the line the parser gave. */
static hs_code unquoted_error(walker *wk, const char *path)
{
    long line = 0;
    size_t n = strlen(path);
    if (wk->err && strncmp(wk->err->msg, path, n) == 0 && wk->err->msg[n] == ':')
        line = strtol(wk->err->msg + n + 1, NULL, 10);
    return err_at(wk->err, path, line > 0 && line < 1000000000L ? (int)line : 0,
                  "not a VRML file (no '#VRML V2.0 utf8' line, and its text does not parse; "
                  "the text is not shown)");
}

/* Read and parse a file once per load (cached by canonical path). */
static hs_code load_file(walker *wk, const char *path, const char *real, int need_header,
                         vfile **out)
{
    for (vfile *f = wk->files; f; f = f->next)
        if (strcmp(f->real, real) == 0) {
            *out = f;
            return HS_OK;
        }
    vfile *f = mem_arena_alloc(wk->ar, sizeof *f);
    char *text = f ? text_read_file_max(path, wk->opt->max_bytes, 0, NULL, wk->err) : NULL;
    if (!f)
        return err_set(wk->err, HS_ERR_NOMEM, "out of memory");
    if (!text)
        return wk->err ? wk->err->code : HS_ERR_IO;
    f->path = mem_arena_strdup(wk->ar, path, strlen(path));
    f->real = mem_arena_strdup(wk->ar, real, strlen(real));
    const char *start = strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text; /* BOM */
    int headed = strncmp(start, "#VRML", 5) == 0;
    hs_code rc = !f->path || !f->real ? err_set(wk->err, HS_ERR_NOMEM, "out of memory")
                                      : vrml_check_header(text, path, need_header, wk->err);
    if (rc == HS_OK)
        rc = vrml_parse_text(text, f, wk->ar, wk->opt->max_depth, wk->err);
    if (rc == HS_ERR_INPUT && !headed && !need_header)
        rc = unquoted_error(wk, path);
    free(text);
    if (rc == HS_OK) {
        f->next = wk->files;
        wk->files = f;
        *out = f;
    }
    return rc;
}

/* A url naming another scheme than file: ("http://...", "urn:...").  A
 * single letter before ':' is a drive, not a scheme. */
static int remote_url(const char *u)
{
    size_t n = strspn(u, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.");
    return n > 1 && u[n] == ':' && !(n == 4 && strncmp(u, "file", 4) == 0);
}

/* Path of url relative to the folder of the file `from` (malloc'd). */
static char *inline_path(const char *from, const char *url)
{
    if (strncmp(url, "file://", 7) == 0)
        url += 7;
    else if (strncmp(url, "file:", 5) == 0)
        url += 5;
    const char *slash = strrchr(from, '/');
    size_t dir = url[0] == '/' || !slash ? 0 : (size_t)(slash - from) + 1;
    char *p = malloc(dir + strlen(url) + 1);
    if (p) {
        memcpy(p, from, dir);
        strcpy(p + dir, url);
    }
    return p;
}

/* real lies in the folder dir or below it ("/" holds everything). */
static int path_inside(const char *dir, const char *real)
{
    size_t n = strlen(dir);
    while (n > 0 && dir[n - 1] == '/')
        n--;
    return strncmp(real, dir, n) == 0 && (real[n] == '/' || real[n] == '\0');
}

static int inline_allowed(const walker *wk, const char *real)
{
    if (path_inside(wk->root, real))
        return 1;
    for (int k = 0; k < wk->nallowed; k++)
        if (path_inside(wk->allowed[k], real))
            return 1;
    return 0;
}

/* The first url of the Inline that names an existing local file, which
 * must lie below the scene's folder or an allowed one. */
static hs_code inline_target(walker *wk, const vnode *n, const fref *url, char **path,
                             char **real)
{
    const vitem *first = NULL, *used = NULL;
    for (int k = 0; k < url->f->nitems && !*real; k++) {
        const vitem *it = &url->f->item[k];
        if (it->kind != IT_STR || remote_url(it->str))
            continue;
        first = first ? first : it;
        free(*path);
        if (!(*path = inline_path(n->file, it->str)))
            return err_set(wk->err, HS_ERR_NOMEM, "out of memory");
        *real = realpath(*path, NULL);
        used = it;
    }
    if (*real && !inline_allowed(wk, *real))
        return err_at(wk->err, n->file, used->line, "Inline file '%s' is outside the scene's "
                      "folder %s (allow its folder: allow_paths, --allow-path)", used->str,
                      wk->root);
    struct stat st;
    if (*real && (stat(*real, &st) != 0 || !S_ISREG(st.st_mode)))
        return err_at(wk->err, n->file, used->line, "Inline file '%s' is not a regular file",
                      used->str);
    if (*real)
        return HS_OK;
    if (!first)
        return err_at(wk->err, n->file, url->f->line,
                      "Inline url names no local file (only file paths are supported)");
    return err_at(wk->err, n->file, first->line, "cannot open Inline file '%s' (%s)",
                  first->str, strerror(errno));
}

static hs_code walk_inline_file(walker *wk, const vnode *n, const char *path, const char *real,
                                const double M[16])
{
    for (int k = 0; k < wk->nstack; k++)
        if (strcmp(wk->stack[k], real) == 0)
            return err_at(wk->err, n->file, n->line, "Inline cycle: '%s' includes itself",
                          path);
    if (wk->nstack >= VRML_MAX_INLINE_DEPTH)
        return err_at(wk->err, n->file, n->line, "Inline files nested more than %d deep",
                      VRML_MAX_INLINE_DEPTH);
    vfile *f = NULL;
    hs_code rc = load_file(wk, path, real, 0, &f);
    if (rc == HS_ERR_IO)
        return scene_locate(wk->err, rc, n->file, n->line);
    if (rc != HS_OK)
        return rc;
    wk->stack[wk->nstack++] = f->real;
    rc = walk_items(wk, f->top, f->ntop, M);
    wk->nstack--;
    return rc;
}

static hs_code walk_inline(walker *wk, const vnode *n, const env *e, const double M[16])
{
    if (++wk->inlines > VRML_MAX_INLINES) {
        wk->limit_hit = 1;
        return err_at(wk->err, n->file, n->line, "scene too large: more than %ld Inline nodes "
                      "once USE, PROTO and Inline are expanded", VRML_MAX_INLINES);
    }
    fref url;
    hs_code rc = vrml_field_of(wk, n, e, "url", &url);
    if (rc == HS_OK && (!url.f || url.f->nitems == 0))
        rc = err_at(wk->err, n->file, n->line, "Inline without url");
    char *path = NULL, *real = NULL;
    if (rc == HS_OK)
        rc = inline_target(wk, n, &url, &path, &real);
    if (rc == HS_OK && scene_mesh_kind(path) != 0)
        rc = vrml_inline_mesh(wk, n, path, M);
    else if (rc == HS_OK)
        rc = walk_inline_file(wk, n, path, real, M);
    free(path);
    free(real);
    return rc;
}

/* ------------------------------------------------------- child nodes */

static hs_code walk_kind(walker *wk, const vnode *n, const env *e, const double M[16])
{
    if (n->proto) {
        env inst = {n, e};
        const vnode *root = vrml_proto_root(n->proto);
        return root ? walk_node(wk, root, &inst, M) : HS_OK;
    }
    switch (n->spec->kind) {
    case K_TRANSFORM:
        return walk_transform(wk, n, e, M);
    case K_GROUP:
        return walk_field_nodes(wk, n, e, "children", M);
    case K_SWITCH:
        return walk_switch(wk, n, e, M);
    case K_LOD:
        return walk_lod(wk, n, e, M);
    case K_SHAPE:
        return walk_shape(wk, n, e, M);
    case K_INLINE:
        return walk_inline(wk, n, e, M);
    case K_IGNORED:
    case K_SCRIPT:
        return HS_OK;
    default:
        return err_at(wk->err, n->file, n->line, "%s cannot be a child node (%s)", n->type,
                      n->spec->kind == K_COORD ? "it belongs in an IndexedFaceSet's coord"
                                                   : "geometry belongs in a Shape");
    }
}

static hs_code walk_node(walker *wk, const vnode *n, const env *e, const double M[16])
{
    hs_code rc = vrml_enter(wk, n);
    if (rc == HS_OK) {
        rc = walk_kind(wk, n, e, M);
        wk->depth--;
    }
    return rc;
}

/* ------------------------------------------------------------ bodies */

/* A DEF'd top-level node: when it is (or its PROTO stands for) a
 * Transform, the rigid part is the body's pose. */
static hs_code walk_body_root(walker *wk, const vnode *n, const env *e)
{
    double I[16];
    hs_pose_identity(I);
    if (n->proto) {
        env inst = {n, e};
        const vnode *root = vrml_proto_root(n->proto);
        hs_code rc = root ? vrml_enter(wk, n) : HS_OK;
        if (rc == HS_OK && root) {
            rc = walk_body_root(wk, root, &inst);
            wk->depth--;
        }
        return rc;
    }
    if (n->spec->kind != K_TRANSFORM)
        return walk_node(wk, n, e, I);
    double rigid[16], stretch[16];
    hs_code rc = transform_parts(wk, n, e, rigid, stretch);
    if (rc == HS_OK)
        rc = walk_field_nodes(wk, n, e, "children", stretch);
    if (rc == HS_OK && wk->body && (rc = hs_body_set_pose(wk->body, rigid, wk->err)) != HS_OK)
        rc = scene_locate(wk->err, rc, n->file, n->line);
    return rc;
}

static hs_code add_def_body(walker *wk, const vnode *n)
{
    wk->body = NULL;
    wk->name = n->def;
    wk->name_file = n->file;
    wk->name_line = n->line;
    return walk_body_root(wk, n, NULL);
}

/* Top-level nodes without DEF go to one body named after the file. */
static hs_code add_to_file_body(walker *wk, const vnode *n, const char *name, hs_body **b,
                                int line)
{
    double I[16];
    hs_pose_identity(I);
    wk->body = *b;
    wk->name = name;
    wk->name_file = n->file;
    wk->name_line = line;
    hs_code rc = walk_node(wk, n, NULL, I);
    *b = wk->body;
    return rc;
}

static hs_code add_bodies(walker *wk, const vfile *f, const char *path)
{
    char *name = scene_file_body_name(path);
    if (!name)
        return err_set(wk->err, HS_ERR_NOMEM, "out of memory");
    hs_body *file_body = NULL;
    hs_code rc = HS_OK;
    for (int k = 0; rc == HS_OK && k < f->ntop; k++) {
        const vitem *it = &f->top[k];
        if (it->kind != IT_NODE)
            continue;
        if (it->node->def && !it->via_use)
            rc = add_def_body(wk, it->node);
        else
            rc = add_to_file_body(wk, it->node, name, &file_body, it->line);
    }
    free(name);
    return rc;
}

/* The real paths of the scene's folder and of the allowed folders. */
static hs_code allowed_folders(walker *wk, const char *real_scene)
{
    const char *slash = strrchr(real_scene, '/');
    size_t n = slash && slash != real_scene ? (size_t)(slash - real_scene) : 1;
    char *root = malloc(n + 1);
    if (!root)
        return err_set(wk->err, HS_ERR_NOMEM, "out of memory");
    memcpy(root, real_scene, n);
    root[n] = '\0';
    wk->root = root;
    int count = 0;
    for (const char *const *a = wk->opt->allow; a && *a; a++)
        count++;
    wk->allowed = calloc((size_t)count + 1, sizeof *wk->allowed);
    if (!wk->allowed)
        return err_set(wk->err, HS_ERR_NOMEM, "out of memory");
    for (int k = 0; k < count; k++) {
        if (!(wk->allowed[k] = realpath(wk->opt->allow[k], NULL)))
            return err_set(wk->err, HS_ERR_ARG, "allowed folder '%s': %s", wk->opt->allow[k],
                           strerror(errno));
        wk->nallowed++;
    }
    return HS_OK;
}

/* One walk over the file's graph: counting (nothing built) or building. */
static hs_code walk_scene(walker *wk, const char *path, const char *real, int counting)
{
    wk->counting = counting;
    wk->visits = wk->pieces = wk->points = wk->is_steps = wk->inlines = 0;
    wk->depth = wk->nstack = 0;
    wk->body = NULL;
    vfile *f = NULL;
    hs_code rc = load_file(wk, path, real, 1, &f);
    if (rc == HS_OK) {
        wk->stack[wk->nstack++] = f->real;
        rc = add_bodies(wk, f, path);
    }
    return rc;
}

/* Two walks: the first counts the pieces and points the file would make
 * (USE, PROTO and Inline expanded) without building anything, so that a
 * small file expanding into a huge scene fails at once; the second builds.
 * An error of the first walk other than a limit is left for the second,
 * which meets the errors in their order. */
hs_code scene_add_vrml(hs_world *w, const char *path, const scene_opts *o, hs_error *err)
{
    char *real = realpath(path, NULL);
    if (!real)
        return err_set(err, HS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    mem_arena ar = {0};
    walker wk;
    memset(&wk, 0, sizeof wk);
    wk.w = w;
    wk.opt = o;
    wk.err = err;
    wk.ar = &ar;
    hs_code rc = allowed_folders(&wk, real);
    if (rc == HS_OK) {
        rc = walk_scene(&wk, path, real, 1);
        if (rc == HS_OK || !wk.limit_hit)
            rc = walk_scene(&wk, path, real, 0);
    }
    for (int k = 0; k < wk.nallowed; k++)
        free(wk.allowed[k]);
    free(wk.allowed);
    free(wk.root);
    free(real);
    mem_arena_free(&ar);
    return rc;
}
