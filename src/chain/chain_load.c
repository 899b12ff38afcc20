/* chain_load.c -- chain files (the format is described in the README,
 * section "Kinematic chains"): links with pieces, the joints between
 * them, skip pairs.  Two passes over the lines: the first checks the
 * structure and counts the links, the second builds the chain.  Every
 * error is "FILE:LINE: what is wrong". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/text_lines.h"
#include "src/chain/chain.h"
#include "src/chain/chain_shapes.h"
#include "src/scene/scene.h"
#include "polytope/error.h"
#include "polytope/grow.h"
#include "polytope/mem.h"

/* Points of all the mesh files of one chain file together (each mesh
 * line makes a hull of its file's points, about 0.2 ms a point). */
#define CHAIN_MAX_MESH_POINTS 200000L

/* A joint being read: its line and attributes, until the next link. */
typedef struct joint_spec {
    int line;
    char *name;
    hs_joint_type type;
    double origin[16], axis[3], lo, hi, rest;
    int has_origin, has_axis, has_limits, has_rest;
} joint_spec;

typedef struct loader {
    const char *file;
    char *dir;          /* folder of the file, for mesh paths */
    int build;          /* second pass: make the chain */
    hs_chain *c;
    int nlinks;         /* links seen so far */
    int joint_pending;  /* a joint line waits for its link */
    joint_spec js;
    char **names;       /* link names (second pass), for skip lines */
    int *name_line;
    int nnames;         /* entries of names (the links of the first pass) */
    long mesh_points;   /* points of the mesh files read so far */
    int *skips;         /* skip pairs (a < b), added to the chain at the end */
    int nskips, capskips;
    int *name_slot;     /* open addressing over names: link index + 1, 0 free */
    size_t slot_mask;   /* slots - 1 (a power of two, at least 2 n slots) */
} loader;

static hs_code fail(const loader *ld, const text_line *ln, hs_error *err, const char *what,
                    const char *arg)
{
    return err_at(err, ld->file, ln->number, what, arg ? arg : "");
}

/* Numbers: strtod's nearest double of the text, finite. */
static int number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*v);
}

static hs_code numbers(const loader *ld, const text_line *ln, int from, int count, double *v,
                       hs_error *err)
{
    for (int k = 0; k < count; k++)
        if (!number(ln->tok[from + k], &v[k]))
            return err_at(err, ld->file, ln->number, "'%s' is not a finite number",
                              ln->tok[from + k]);
    return HS_OK;
}

/* "KEYWORD needs N numbers" unless the line has exactly 1 + count
 * tokens (plus 7 more with a trailing "at X Y Z ROLL PITCH YAW" when
 * allowed).  *has_at receives whether the placement is there. */
static hs_code arity(const loader *ld, const text_line *ln, int count, int allow_at,
                     int *has_at, hs_error *err)
{
    int n = ln->ntok - 1;
    *has_at = allow_at && n == count + 7 && strcmp(ln->tok[1 + count], "at") == 0;
    if (n == count || *has_at)
        return HS_OK;
    return err_at(err, ld->file, ln->number, "'%s' needs %d values%s (found %d)", ln->tok[0],
                      count, allow_at ? " (then optionally: at X Y Z ROLL PITCH YAW)" : "", n);
}

/* xyz + rpy (URDF: R = Rz(yaw) Ry(pitch) Rx(roll)) into a pose. */
static void rpy_pose(const double v[6], double m[16])
{
    double cr = cos(v[3]), sr = sin(v[3]), cp = cos(v[4]), sp = sin(v[4]);
    double cy = cos(v[5]), sy = sin(v[5]);
    double R[9] = {cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
                   sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
                   -sp,     cp * sr,                cp * cr};
    hs_pose_from_rt(m, R, v);
}

static hs_code placement(const loader *ld, const text_line *ln, int from, int has_at,
                         double m[16], hs_error *err)
{
    hs_pose_identity(m);
    if (!has_at)
        return HS_OK;
    double v[6];
    hs_code rc = numbers(ld, ln, from + 1, 6, v, err);
    if (rc == HS_OK)
        rpy_pose(v, m);
    return rc;
}

/* ------------------------------------------------------------ pieces */

/* Re-locate a message of a piece constructor at this line. */
static hs_code located(const loader *ld, const text_line *ln, hs_code rc, hs_error *err)
{
    if (rc == HS_OK || rc == HS_ERR_NOMEM || !err)
        return rc;
    char msg[HS_ERROR_MSG_SIZE];
    memcpy(msg, err->msg, sizeof msg);
    return err_at(err, ld->file, ln->number, "%s: %s", ln->tok[0], msg);
}

static hs_code sphere_line(loader *ld, const text_line *ln, hs_error *err)
{
    double v[4];
    int at;
    hs_code rc = arity(ld, ln, 4, 0, &at, err);
    if (rc == HS_OK)
        rc = numbers(ld, ln, 1, 4, v, err);
    if (rc == HS_OK && !(v[3] > 0))
        return fail(ld, ln, err, "sphere: the radius must be positive", NULL);
    if (rc == HS_OK && ld->build)
        rc = located(ld, ln, hs_chain_add_sphere(ld->c, ld->nlinks - 1, v, v[3], err), err);
    return rc;
}

static hs_code capsule_line(loader *ld, const text_line *ln, hs_error *err)
{
    double v[7];
    int at;
    hs_code rc = arity(ld, ln, 7, 0, &at, err);
    if (rc == HS_OK)
        rc = numbers(ld, ln, 1, 7, v, err);
    if (rc == HS_OK && !(v[6] > 0))
        return fail(ld, ln, err, "capsule: the radius must be positive", NULL);
    if (rc == HS_OK && ld->build)
        rc = located(ld, ln, chain_add_capsule(ld->c, ld->nlinks - 1, v, v + 3, v[6], err), err);
    return rc;
}

static hs_code box_line(loader *ld, const text_line *ln, hs_error *err)
{
    double v[3], m[16];
    int at;
    hs_code rc = arity(ld, ln, 3, 1, &at, err);
    if (rc == HS_OK)
        rc = numbers(ld, ln, 1, 3, v, err);
    if (rc == HS_OK && !(v[0] > 0 && v[1] > 0 && v[2] > 0))
        return fail(ld, ln, err, "box: the sizes must be positive", NULL);
    if (rc == HS_OK)
        rc = placement(ld, ln, 4, at, m, err);
    if (rc == HS_OK && ld->build)
        rc = located(ld, ln, chain_add_box(ld->c, ld->nlinks - 1, v, m, err), err);
    return rc;
}

static hs_code hull_line(loader *ld, const text_line *ln, hs_error *err)
{
    int n = ln->ntok - 1, at = n >= 7 && strcmp(ln->tok[ln->ntok - 7], "at") == 0;
    int count = at ? n - 7 : n;
    for (int k = 1; k <= count; k++)
        if (strcmp(ln->tok[k], "at") == 0)
            return fail(ld, ln, err, "hull: 'at' needs six values after it: X Y Z ROLL PITCH "
                                     "YAW", NULL);
    if (count < 12 || count % 3 != 0)
        return fail(ld, ln, err, "hull: needs at least 4 points, 3 numbers each (then "
                                 "optionally: at X Y Z ROLL PITCH YAW)", NULL);
    double *p = mem_alloc((size_t)count, sizeof(double)), m[16];
    if (!p)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_code rc = numbers(ld, ln, 1, count, p, err);
    if (rc == HS_OK)
        rc = placement(ld, ln, 1 + count, at, m, err);
    if (rc == HS_OK && ld->build)
        rc = located(ld, ln, chain_add_points(ld->c, ld->nlinks - 1, p, count / 3, m, err), err);
    free(p);
    return rc;
}

static hs_code mesh_line(loader *ld, const text_line *ln, hs_error *err)
{
    int n = ln->ntok - 1, at = n == 8 && strcmp(ln->tok[2], "at") == 0;
    if (n != 1 && !at)
        return fail(ld, ln, err, "mesh: needs a file name (then optionally: at X Y Z ROLL "
                                 "PITCH YAW)", NULL);
    double m[16];
    hs_code rc = placement(ld, ln, 2, at, m, err);
    if (rc != HS_OK || !ld->build)
        return rc;
    const char *name = ln->tok[1];
    char *path = name[0] == '/' || !ld->dir ? mem_strdup(name)
                                            : mem_alloc(strlen(ld->dir) + strlen(name) + 2, 1);
    if (!path)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (name[0] != '/' && ld->dir)
        strcat(strcat(strcpy(path, ld->dir), "/"), name);
    /* The same file may be named on many lines, each a hull to build: the
     * points of all the meshes together are bounded (CHAIN_MAX_MESH_POINTS). */
    double *pts = NULL;
    int npts = 0, line = 0;
    rc = scene_mesh_kind(path) ? scene_mesh_points(path, &pts, &npts, &line, err) : HS_OK;
    free(pts);
    if (rc != HS_OK) {
        free(path);
        return located(ld, ln, rc, err);
    }
    if ((ld->mesh_points += npts) > CHAIN_MAX_MESH_POINTS) {
        free(path);
        return err_at(err, ld->file, ln->number, "mesh: the meshes of this chain have more "
                      "than %ld points in all", CHAIN_MAX_MESH_POINTS);
    }
    rc = chain_add_mesh_hull(ld->c, ld->nlinks - 1, path, m, err);
    free(path);
    return located(ld, ln, rc, err);
}

/* ------------------------------------------------------------ joints */

static hs_code joint_line(loader *ld, const text_line *ln, hs_error *err)
{
    if (ld->nlinks == 0)
        return fail(ld, ln, err, "a joint must follow a link (the first line of a chain is "
                                 "a link)", NULL);
    if (ld->joint_pending)
        return err_at(err, ld->file, ln->number, "two joints in a row (the joint of line "
                                                    "%d has no link after it)", ld->js.line);
    if (ln->ntok != 3)
        return fail(ld, ln, err, "joint: needs a name and a type (fixed, revolute or "
                                 "prismatic)", NULL);
    joint_spec *js = &ld->js;
    free(js->name);
    memset(js, 0, sizeof *js);
    js->line = ln->number;
    hs_pose_identity(js->origin);
    js->lo = -HUGE_VAL;
    js->hi = HUGE_VAL;
    const char *t = ln->tok[2];
    if (strcmp(t, "fixed") == 0)
        js->type = HS_JOINT_FIXED;
    else if (strcmp(t, "revolute") == 0)
        js->type = HS_JOINT_REVOLUTE;
    else if (strcmp(t, "prismatic") == 0)
        js->type = HS_JOINT_PRISMATIC;
    else
        return fail(ld, ln, err, "joint: unknown type '%s' (fixed, revolute or prismatic)", t);
    js->name = mem_strdup(ln->tok[1]);
    if (!js->name)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    ld->joint_pending = 1;
    return HS_OK;
}

static hs_code joint_attribute(loader *ld, const text_line *ln, hs_error *err)
{
    const char *k = ln->tok[0];
    joint_spec *js = &ld->js;
    if (!ld->joint_pending)
        return fail(ld, ln, err, "'%s' belongs to a joint: put it after a joint line", k);
    int is_origin = !strcmp(k, "origin"), is_axis = !strcmp(k, "axis");
    int is_limits = !strcmp(k, "limits"), count = is_origin ? 6 : is_axis ? 3 : is_limits ? 2 : 1;
    int *seen = is_origin ? &js->has_origin
                          : is_axis ? &js->has_axis : is_limits ? &js->has_limits : &js->has_rest;
    if (*seen)
        return fail(ld, ln, err, "'%s' given twice for this joint", k);
    double v[6];
    int at;
    hs_code rc = arity(ld, ln, count, 0, &at, err);
    if (rc == HS_OK)
        rc = numbers(ld, ln, 1, count, v, err);
    if (rc != HS_OK)
        return rc;
    *seen = 1;
    if (is_origin)
        rpy_pose(v, js->origin);
    else if (is_axis) {
        if (!(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > 0))
            return fail(ld, ln, err, "axis: must not be zero", NULL);
        memcpy(js->axis, v, sizeof js->axis);
    } else if (is_limits) {
        if (!(v[0] <= v[1]))
            return fail(ld, ln, err, "limits: the lower limit exceeds the upper", NULL);
        js->lo = v[0];
        js->hi = v[1];
    } else {
        js->rest = v[0];
    }
    return HS_OK;
}

/* The joint read since the last link, checked, defined in the chain as
 * joint number nlinks (it joins the previous link to the new one). */
static hs_code finish_joint(loader *ld, const text_line *ln, hs_error *err)
{
    joint_spec *js = &ld->js;
    if (!ld->joint_pending)
        return err_at(err, ld->file, ln->number, "link '%s' has no joint before it (every "
                                                    "link after the first follows a joint)",
                          ln->tok[1]);
    ld->joint_pending = 0;
    int movable = js->type != HS_JOINT_FIXED;
    if (movable && !js->has_axis)
        return err_at(err, ld->file, js->line, "joint '%s' needs an axis", js->name);
    if (movable && (js->rest < js->lo || js->rest > js->hi))
        return err_at(err, ld->file, js->line, "joint '%s': rest value %g is outside the "
                                                  "limits [%g, %g] (give 'rest')",
                          js->name, js->rest, js->lo, js->hi);
    if (!movable && (js->has_axis || js->has_limits || js->has_rest))
        return err_at(err, ld->file, js->line, "joint '%s' is fixed: it takes only an "
                                                  "origin", js->name);
    if (!ld->build)
        return HS_OK;
    int i = ld->nlinks;
    hs_code rc = hs_chain_define_joint(ld->c, i, js->type, js->origin, js->axis, js->lo, js->hi,
                                       js->rest, err);
    if (rc == HS_OK)
        rc = hs_chain_set_joint_name(ld->c, i, js->name, err);
    if (rc == HS_OK || rc == HS_ERR_NOMEM)
        return rc;
    char msg[HS_ERROR_MSG_SIZE];
    memcpy(msg, err->msg, sizeof msg);
    return err_at(err, ld->file, js->line, "joint '%s': %s", js->name, msg);
}

/* ------------------------------------------------------------ links */

/* FNV-1a hash of a link name, for the table of names. */
static size_t link_name_hash(const char *s)
{
    unsigned long long h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return (size_t)h;
}

/* The slot of `name` in the table: the one holding it, or the free one
 * where it would go. */
static size_t name_slot(const loader *ld, const char *name)
{
    size_t k = link_name_hash(name) & ld->slot_mask;
    while (ld->name_slot[k] && strcmp(ld->names[ld->name_slot[k] - 1], name) != 0)
        k = (k + 1) & ld->slot_mask;
    return k;
}

static int find_link(const loader *ld, const char *name)
{
    return name[0] ? ld->name_slot[name_slot(ld, name)] - 1 : -1;
}

static hs_code link_line(loader *ld, const text_line *ln, hs_error *err)
{
    if (ln->ntok != 2)
        return fail(ld, ln, err, "link: needs a name", NULL);
    if (ld->nlinks > 0) {
        hs_code rc = finish_joint(ld, ln, err);
        if (rc != HS_OK)
            return rc;
    }
    if (ld->build) {
        int prev = find_link(ld, ln->tok[1]);
        if (prev >= 0)
            return err_at(err, ld->file, ln->number, "link name '%s' is already used at "
                                                        "line %d", ln->tok[1],
                              ld->name_line[prev]);
        if (ln->tok[1][0]) {
            if (!(ld->names[ld->nlinks] = mem_strdup(ln->tok[1])))
                return err_set(err, HS_ERR_NOMEM, "out of memory");
            ld->name_slot[name_slot(ld, ln->tok[1])] = ld->nlinks + 1;
        }
        ld->name_line[ld->nlinks] = ln->number;
        hs_code rc = hs_chain_set_link_name(ld->c, ld->nlinks, ln->tok[1], err);
        if (rc != HS_OK)
            return rc;
    }
    ld->nlinks++;
    return HS_OK;
}

static hs_code skip_line(loader *ld, const text_line *ln, hs_error *err)
{
    if (ln->ntok != 3)
        return fail(ld, ln, err, "skip: needs two link names", NULL);
    if (!ld->build)
        return HS_OK;
    int a = find_link(ld, ln->tok[1]), b = find_link(ld, ln->tok[2]);
    if (a < 0 || b < 0)
        return err_at(err, ld->file, ln->number, "skip: no link named '%s' before this "
                                                    "line", ln->tok[a < 0 ? 1 : 2]);
    if (a == b)
        return fail(ld, ln, err, "skip: the two links are the same", NULL);
    int *s = grow_array(ld->skips, &ld->capskips, 2L * ld->nskips + 2, sizeof *s);
    if (!s)
        return err_set(err, HS_ERR_NOMEM, "%s:%d: out of memory (the input is too large)",
                       ld->file, ln->number);
    ld->skips = s;
    s[2 * ld->nskips] = a < b ? a : b;
    s[2 * ld->nskips + 1] = a < b ? b : a;
    ld->nskips++;
    return HS_OK;
}

static int skip_order(const void *x, const void *y)
{
    const int *p = x, *q = y;
    return p[0] != q[0] ? (p[0] < q[0] ? -1 : 1) : (p[1] > q[1]) - (p[1] < q[1]);
}

/* The skip pairs of the file, in increasing order: each joins the end of
 * the chain's sorted skip list, so that k pairs cost O(k log k), not the
 * O(k^2) of inserting them in file order. */
static hs_code add_skips(loader *ld, hs_error *err)
{
    if (ld->nskips > 1)
        qsort(ld->skips, (size_t)ld->nskips, 2 * sizeof *ld->skips, skip_order);
    hs_code rc = HS_OK;
    for (int k = 0; k < ld->nskips && rc == HS_OK; k++)
        rc = hs_chain_skip_pair(ld->c, ld->skips[2 * k], ld->skips[2 * k + 1], 1, err);
    return rc;
}

typedef hs_code (*line_fn)(loader *ld, const text_line *ln, hs_error *err);

static const struct {
    const char *key;
    line_fn fn;
    int piece; /* needs a link before it */
} keywords[] = {
    {"link", link_line, 0},       {"joint", joint_line, 0},      {"origin", joint_attribute, 0},
    {"axis", joint_attribute, 0}, {"limits", joint_attribute, 0}, {"rest", joint_attribute, 0},
    {"skip", skip_line, 0},       {"sphere", sphere_line, 1},    {"capsule", capsule_line, 1},
    {"box", box_line, 1},         {"hull", hull_line, 1},        {"mesh", mesh_line, 1},
};

static hs_code dispatch_line(void *user, text_line *ln, hs_error *err)
{
    loader *ld = user;
    for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++) {
        if (strcmp(ln->tok[0], keywords[k].key) != 0)
            continue;
        if (keywords[k].piece && ld->nlinks == 0)
            return fail(ld, ln, err, "'%s' is a piece: it must follow a link line", ln->tok[0]);
        if (keywords[k].piece && ld->joint_pending)
            return err_at(err, ld->file, ln->number, "'%s' after the joint of line %d: "
                                                        "pieces belong to links, put it before "
                                                        "the joint", ln->tok[0], ld->js.line);
        return keywords[k].fn(ld, ln, err);
    }
    return fail(ld, ln, err, "unknown keyword '%s' (link, joint, origin, axis, limits, rest, "
                             "sphere, capsule, box, hull, mesh, skip)", ln->tok[0]);
}

static hs_code pass(loader *ld, const char *text, hs_error *err)
{
    int last = 0;
    ld->nlinks = 0;
    ld->joint_pending = 0;
    hs_code rc = text_for_each_line(text, ld->file, dispatch_line, ld, &last, err);
    if (rc == HS_OK && ld->joint_pending)
        rc = err_at(err, ld->file, ld->js.line, "joint '%s' has no link after it",
                        ld->js.name);
    if (rc == HS_OK && ld->nlinks == 0)
        rc = err_at(err, ld->file, last, "no link in the file");
    return rc;
}

static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return mem_strdup(".");
    size_t n = (size_t)(slash - path);
    char *d = mem_alloc(n + 2, 1);
    if (d) {
        memcpy(d, path, n ? n : 1);
        d[n ? n : 1] = '\0';
    }
    return d;
}

static void loader_free(loader *ld)
{
    for (int i = 0; ld->names && i < ld->nnames; i++)
        free(ld->names[i]);
    free(ld->names);
    free(ld->name_line);
    free(ld->name_slot);
    free(ld->skips);
    free(ld->js.name);
    free(ld->dir);
}

hs_chain *hs_chain_load(const char *path, hs_error *err)
{
    hs_error local;
    if (!err)
        err = &local;
    if (!path) {
        err_set(err, HS_ERR_ARG, "hs_chain_load: NULL path");
        return NULL;
    }
    char *text = text_read_file(path, err);
    if (!text)
        return NULL;
    loader ld;
    memset(&ld, 0, sizeof ld);
    ld.file = path;
    ld.dir = folder_of(path);
    hs_code rc = ld.dir ? pass(&ld, text, err) : err_set(err, HS_ERR_NOMEM, "out of memory");
    if (rc == HS_OK) {
        int n = ld.nlinks;
        ld.c = hs_chain_new(n, err);
        ld.names = mem_calloc((size_t)n, sizeof(char *));
        ld.nnames = ld.names ? n : 0;
        ld.name_line = mem_calloc((size_t)n, sizeof(int));
        size_t slots = 4;
        while (slots < 2 * (size_t)n)
            slots *= 2;
        ld.slot_mask = slots - 1;
        ld.name_slot = mem_calloc(slots, sizeof(int));
        ld.build = 1;
        rc = ld.c && ld.names && ld.name_line && ld.name_slot ? pass(&ld, text, err)
                                               : err_set(err, HS_ERR_NOMEM, "out of memory");
        if (rc == HS_OK)
            rc = add_skips(&ld, err);
    }
    free(text);
    loader_free(&ld);
    if (rc != HS_OK) {
        hs_chain_free(ld.c);
        return NULL;
    }
    return ld.c;
}
