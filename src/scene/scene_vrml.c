/* scene_vrml.c -- VRML 2.0 scenes: a lexer, a parser building the scene
 * graph (with the name scopes of DEF and PROTO), and a walk turning the
 * graph into bodies and pieces of a world.
 *
 * The file.  The first line must start with "#VRML V2.0 utf8" (a file
 * pulled in by Inline may omit it, as OpenHRP's parts do; if it has a
 * "#VRML" line, it must be that one).  Comments run from '#' to the end of
 * the line and may hold any bytes, as strings may; elsewhere a control
 * byte is an error.  Commas are white space.
 *
 * Bodies.  Every top-level node given a DEF name is one body with that
 * name, provided some Shape lies under it; a DEF'd node without geometry
 * (a Viewpoint, an ExtraJoint ...) makes no body.  All the other top-level
 * nodes with geometry (no DEF, or a top-level USE) together make one body
 * named after the file (scene_file_body_name: "table" for table.wrl).  A
 * body is static exactly when its name starts with "static_".  When the
 * body's top node is a Transform (directly or as the first node of a PROTO,
 * e.g. OpenHRP's Humanoid or Joint), the rigid part of that Transform
 * (translation, center, rotation) is the body's pose and its scale goes
 * into the pieces; otherwise the pose is the identity.  Every Shape below
 * is one piece, placed by the product of the Transforms above it.  A
 * Humanoid is thus one rigid body in its rest pose (joints are not bodies).
 *
 * Nodes.  Built: Transform (VRML order T C R SR S -SR -C, scale > 0),
 * Group, Anchor and Collision (as groups; Collision's proxy and collide
 * are ignored), Switch (the chosen child), LOD (its first, finest level),
 * Shape, Box, Cylinder, Cone (prisms and pyramids of scene_opts.sides
 * sides inscribed in the round shape; the bottom/top/side flags are
 * ignored: they stay solids), Sphere (icosphere of scene_opts.sphere_level),
 * IndexedFaceSet with a Coordinate (faces split into fans; "convex TRUE",
 * the default, gives the hull of the points when the faces bound a closed
 * convex solid, a mesh otherwise; see scene_mesh.c), Inline (a VRML file,
 * or an OFF, OBJ or STL file giving one mesh piece; url relative
 * to the including file's folder or absolute, "file:" allowed; cycles are
 * errors), PROTO with IS (an instance stands for the first node of its
 * body, its fields substituted; PROTOs nest), DEF / USE, ROUTE (checked,
 * then ignored).
 * Ignored, with their fields checked for syntax only: Appearance, Material,
 * the textures and TextureTransform, TextureCoordinate, Normal, Color,
 * FontStyle, Viewpoint, NavigationInfo, Background, WorldInfo, the lights,
 * Fog, Sound, AudioClip, the sensors, the interpolators, and Script (with
 * its field / event declarations).
 * Ignored fields, deliberately: bboxCenter, bboxSize, Anchor's url,
 * description and parameter, LOD's center and range, Shape's appearance,
 * and of IndexedFaceSet ccw, solid, creaseAngle, normal, normalIndex,
 * normalPerVertex, color, colorIndex, colorPerVertex, texCoord,
 * texCoordIndex.
 * Anything else (Extrusion, ElevationGrid, Text, IndexedLineSet, PointSet,
 * Billboard, EXTERNPROTO ...) is "node X is not supported"; an unknown
 * field of a built node is "field F of X is not supported". */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/text_lines.h"
#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/scene/scene.h"

#define MAX_NEST 200          /* nodes and values nested in one file */
#define MAX_WALK_DEPTH 1000   /* nesting once PROTOs and Inlines are expanded */
#define MAX_INLINE_DEPTH 32   /* files inlined within one another */
#define MAX_VISITS 2000000L   /* nodes visited once USE / PROTO / Inline are expanded */
#define MAX_PIECES 100000L    /* pieces made by one file */

/* -------------------------------------------------------------- arena */

/* Every part of the parsed scene lives in one arena, freed at once. */
typedef struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    max_align_t data[];
} arena_block;

typedef struct arena {
    arena_block *head;
} arena;

static void *arena_alloc(arena *a, size_t n)
{
    size_t unit = sizeof(max_align_t);
    if (n > SIZE_MAX / 4)
        return NULL;
    n = n ? (n + unit - 1) / unit * unit : unit;
    arena_block *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

static char *arena_strdup(arena *a, const char *s, size_t n)
{
    char *d = arena_alloc(a, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static void arena_free(arena *a)
{
    while (a->head) {
        arena_block *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

/* -------------------------------------------------------------- types */

typedef enum ftype {
    F_ANY, /* fields of ignored nodes: any syntactically valid value */
    F_EVENT,
    F_SFBOOL, F_SFCOLOR, F_SFFLOAT, F_SFIMAGE, F_SFINT32, F_SFNODE, F_SFROTATION,
    F_SFSTRING, F_SFTIME, F_SFVEC2F, F_SFVEC3F,
    F_MFCOLOR, F_MFFLOAT, F_MFINT32, F_MFNODE, F_MFROTATION, F_MFSTRING, F_MFTIME,
    F_MFVEC2F, F_MFVEC3F
} ftype;

static const struct {
    const char *name;
    ftype type;
    int arity; /* numbers per value, 0 when not numeric */
} type_info[] = {
    {"(any)", F_ANY, 0},         {"(event)", F_EVENT, 0},     {"SFBool", F_SFBOOL, 0},
    {"SFColor", F_SFCOLOR, 3},   {"SFFloat", F_SFFLOAT, 1},   {"SFImage", F_SFIMAGE, 0},
    {"SFInt32", F_SFINT32, 1},   {"SFNode", F_SFNODE, 0},     {"SFRotation", F_SFROTATION, 4},
    {"SFString", F_SFSTRING, 0}, {"SFTime", F_SFTIME, 1},     {"SFVec2f", F_SFVEC2F, 2},
    {"SFVec3f", F_SFVEC3F, 3},   {"MFColor", F_MFCOLOR, 3},   {"MFFloat", F_MFFLOAT, 1},
    {"MFInt32", F_MFINT32, 1},   {"MFNode", F_MFNODE, 0},     {"MFRotation", F_MFROTATION, 4},
    {"MFString", F_MFSTRING, 0}, {"MFTime", F_MFTIME, 1},     {"MFVec2f", F_MFVEC2F, 2},
    {"MFVec3f", F_MFVEC3F, 3}};

static const char *type_name(ftype t) { return type_info[t].name; }
static int type_arity(ftype t) { return type_info[t].arity; }
static int type_is_mf(ftype t) { return t >= F_MFCOLOR; }
static int type_is_int(ftype t) { return t == F_SFINT32 || t == F_MFINT32; }

static int type_from_name(const char *s, ftype *t)
{
    for (size_t k = F_SFBOOL; k < sizeof type_info / sizeof type_info[0]; k++)
        if (strcmp(type_info[k].name, s) == 0) {
            *t = type_info[k].type;
            return 1;
        }
    return 0;
}

/* --------------------------------------------------------- node specs */

typedef enum node_kind {
    K_IGNORED, K_SCRIPT, K_TRANSFORM, K_GROUP, K_SWITCH, K_LOD, K_SHAPE,
    K_BOX, K_CYLINDER, K_CONE, K_SPHERE, K_IFS, K_COORD, K_INLINE
} node_kind;

typedef struct field_spec {
    const char *name;
    ftype type;
} field_spec;

typedef struct node_spec {
    const char *name;
    node_kind kind;
    const field_spec *fields; /* NULL: ignored node, any field */
} node_spec;

#define BBOX_FIELDS {"bboxCenter", F_SFVEC3F}, {"bboxSize", F_SFVEC3F}
#define CHILD_EVENTS {"addChildren", F_EVENT}, {"removeChildren", F_EVENT}
#define END_FIELDS {NULL, F_ANY}

static const field_spec transform_fields[] = {
    {"children", F_MFNODE},   {"translation", F_SFVEC3F},
    {"rotation", F_SFROTATION}, {"scale", F_SFVEC3F},
    {"scaleOrientation", F_SFROTATION}, {"center", F_SFVEC3F},
    BBOX_FIELDS, CHILD_EVENTS, END_FIELDS};
static const field_spec group_fields[] = {{"children", F_MFNODE}, BBOX_FIELDS, CHILD_EVENTS,
                                          END_FIELDS};
static const field_spec anchor_fields[] = {
    {"children", F_MFNODE}, {"url", F_MFSTRING}, {"description", F_SFSTRING},
    {"parameter", F_MFSTRING}, BBOX_FIELDS, CHILD_EVENTS, END_FIELDS};
static const field_spec collision_fields[] = {
    {"children", F_MFNODE}, {"collide", F_SFBOOL}, {"proxy", F_SFNODE},
    BBOX_FIELDS, CHILD_EVENTS, END_FIELDS};
static const field_spec switch_fields[] = {{"choice", F_MFNODE}, {"whichChoice", F_SFINT32},
                                           END_FIELDS};
static const field_spec lod_fields[] = {{"level", F_MFNODE}, {"center", F_SFVEC3F},
                                        {"range", F_MFFLOAT}, END_FIELDS};
static const field_spec shape_fields[] = {{"geometry", F_SFNODE}, {"appearance", F_SFNODE},
                                          END_FIELDS};
static const field_spec box_fields[] = {{"size", F_SFVEC3F}, END_FIELDS};
static const field_spec cylinder_fields[] = {
    {"radius", F_SFFLOAT}, {"height", F_SFFLOAT}, {"bottom", F_SFBOOL},
    {"top", F_SFBOOL}, {"side", F_SFBOOL}, END_FIELDS};
static const field_spec cone_fields[] = {{"bottomRadius", F_SFFLOAT}, {"height", F_SFFLOAT},
                                         {"bottom", F_SFBOOL}, {"side", F_SFBOOL}, END_FIELDS};
static const field_spec sphere_fields[] = {{"radius", F_SFFLOAT}, END_FIELDS};
static const field_spec ifs_fields[] = {
    {"coord", F_SFNODE},          {"coordIndex", F_MFINT32},   {"convex", F_SFBOOL},
    {"ccw", F_SFBOOL},            {"solid", F_SFBOOL},         {"creaseAngle", F_SFFLOAT},
    {"normal", F_SFNODE},         {"normalIndex", F_MFINT32},  {"normalPerVertex", F_SFBOOL},
    {"color", F_SFNODE},          {"colorIndex", F_MFINT32},   {"colorPerVertex", F_SFBOOL},
    {"texCoord", F_SFNODE},       {"texCoordIndex", F_MFINT32},
    {"set_coordIndex", F_EVENT},  {"set_normalIndex", F_EVENT}, {"set_colorIndex", F_EVENT},
    {"set_texCoordIndex", F_EVENT}, END_FIELDS};
static const field_spec coord_fields[] = {{"point", F_MFVEC3F}, END_FIELDS};
static const field_spec inline_fields[] = {{"url", F_MFSTRING}, BBOX_FIELDS, END_FIELDS};

static const node_spec node_specs[] = {
    {"Transform", K_TRANSFORM, transform_fields},
    {"Group", K_GROUP, group_fields},
    {"Anchor", K_GROUP, anchor_fields},
    {"Collision", K_GROUP, collision_fields},
    {"Switch", K_SWITCH, switch_fields},
    {"LOD", K_LOD, lod_fields},
    {"Shape", K_SHAPE, shape_fields},
    {"Box", K_BOX, box_fields},
    {"Cylinder", K_CYLINDER, cylinder_fields},
    {"Cone", K_CONE, cone_fields},
    {"Sphere", K_SPHERE, sphere_fields},
    {"IndexedFaceSet", K_IFS, ifs_fields},
    {"Coordinate", K_COORD, coord_fields},
    {"Inline", K_INLINE, inline_fields},
    {"Script", K_SCRIPT, NULL},
    {"Appearance", K_IGNORED, NULL},          {"Material", K_IGNORED, NULL},
    {"ImageTexture", K_IGNORED, NULL},        {"PixelTexture", K_IGNORED, NULL},
    {"MovieTexture", K_IGNORED, NULL},        {"TextureTransform", K_IGNORED, NULL},
    {"TextureCoordinate", K_IGNORED, NULL},   {"Normal", K_IGNORED, NULL},
    {"Color", K_IGNORED, NULL},               {"FontStyle", K_IGNORED, NULL},
    {"Viewpoint", K_IGNORED, NULL},           {"NavigationInfo", K_IGNORED, NULL},
    {"Background", K_IGNORED, NULL},          {"WorldInfo", K_IGNORED, NULL},
    {"DirectionalLight", K_IGNORED, NULL},    {"PointLight", K_IGNORED, NULL},
    {"SpotLight", K_IGNORED, NULL},           {"Fog", K_IGNORED, NULL},
    {"Sound", K_IGNORED, NULL},               {"AudioClip", K_IGNORED, NULL},
    {"TimeSensor", K_IGNORED, NULL},          {"TouchSensor", K_IGNORED, NULL},
    {"ProximitySensor", K_IGNORED, NULL},     {"VisibilitySensor", K_IGNORED, NULL},
    {"CylinderSensor", K_IGNORED, NULL},      {"PlaneSensor", K_IGNORED, NULL},
    {"SphereSensor", K_IGNORED, NULL},        {"ColorInterpolator", K_IGNORED, NULL},
    {"CoordinateInterpolator", K_IGNORED, NULL}, {"NormalInterpolator", K_IGNORED, NULL},
    {"OrientationInterpolator", K_IGNORED, NULL}, {"PositionInterpolator", K_IGNORED, NULL},
    {"ScalarInterpolator", K_IGNORED, NULL}};

static const node_spec *find_spec(const char *name)
{
    for (size_t k = 0; k < sizeof node_specs / sizeof node_specs[0]; k++)
        if (strcmp(node_specs[k].name, name) == 0)
            return &node_specs[k];
    return NULL;
}

static const field_spec *find_field_spec(const node_spec *s, const char *name)
{
    for (const field_spec *f = s->fields; f && f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

/* ------------------------------------------------------- scene graph */

typedef struct vnode vnode;

typedef enum item_kind { IT_NUM, IT_STR, IT_BOOL, IT_NODE, IT_NULL } item_kind;

/* One element of a field value (or a statement of a file or PROTO body). */
typedef struct vitem {
    item_kind kind;
    int line;
    int is_int;  /* IT_NUM written as an integer */
    int via_use; /* IT_NODE reached through USE */
    double num;  /* IT_NUM; IT_BOOL: 0 or 1 */
    const char *str;
    vnode *node;
} vitem;

typedef struct vfield {
    const char *name;
    int line;
    const char *is; /* "name IS is": the value comes from the PROTO instance */
    vitem *item;
    int nitems;
    struct vfield *next;
} vfield;

typedef enum decl_kind { D_FIELD, D_EXPOSED, D_EVENT_IN, D_EVENT_OUT } decl_kind;

typedef struct vdecl {
    const char *name;
    decl_kind kind;
    ftype type;
    vfield *value; /* default; NULL for events */
} vdecl;

typedef struct vproto {
    const char *name;
    vdecl *decl;
    int ndecl;
    vitem *body; /* statements; the first node stands for the instance */
    int nbody;
} vproto;

struct vnode {
    const char *type;
    const node_spec *spec;  /* built-in node, or NULL */
    const vproto *proto;    /* PROTO instance, or NULL */
    const char *def;
    const char *file;
    int line;
    vfield *fields;
};

static const vfield *find_field(const vfield *f, const char *name)
{
    for (; f; f = f->next)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

static const vdecl *find_decl(const vproto *p, const char *name)
{
    for (int k = 0; p && k < p->ndecl; k++)
        if (strcmp(p->decl[k].name, name) == 0)
            return &p->decl[k];
    return NULL;
}

/* The first node of a PROTO body, or NULL. */
static const vnode *proto_root(const vproto *p)
{
    for (int k = 0; k < p->nbody; k++)
        if (p->body[k].kind == IT_NODE)
            return p->body[k].node;
    return NULL;
}

/* -------------------------------------------------------------- lexer */

typedef enum tok_kind { T_END, T_ID, T_NUM, T_STR, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_DOT }
    tok_kind;

typedef struct token {
    tok_kind kind;
    int line;
    int is_int;
    double num;
    const char *text; /* T_ID, T_STR */
} token;

typedef struct lexer {
    const char *p;
    int line;
    const char *file;
    arena *ar;
    token *tok;
    int ntok, cap;
    hs_error *err;
} lexer;

static token *lx_push(lexer *lx, tok_kind kind, int line)
{
    if (lx->ntok == lx->cap) {
        int cap = lx->cap ? 2 * lx->cap : 1024;
        token *t = lx->cap < INT_MAX / 2 ? mem_realloc(lx->tok, (size_t)cap, sizeof *t) : NULL;
        if (!t)
            return NULL;
        lx->tok = t;
        lx->cap = cap;
    }
    token *t = &lx->tok[lx->ntok++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->line = line;
    return t;
}

static hs_code lx_nomem(lexer *lx) { return err_set(lx->err, HS_ERR_NOMEM, "out of memory"); }

static int lx_space(char c) { return c == ' ' || c == '\t' || c == ','; }

/* Step over a line break ("\n", "\r\n" or a lone "\r"). */
static void lx_newline(lexer *lx)
{
    if (lx->p[0] == '\r' && lx->p[1] == '\n')
        lx->p++;
    lx->p++;
    lx->line++;
}

/* Skip white space, commas and comments (any bytes up to the line end). */
static void lx_skip(lexer *lx)
{
    for (;;) {
        char c = *lx->p;
        if (c == '\n' || c == '\r')
            lx_newline(lx);
        else if (lx_space(c))
            lx->p++;
        else if (c == '#')
            lx->p += strcspn(lx->p, "\r\n");
        else
            return;
    }
}

/* Characters that end a number or an identifier. */
static int lx_delim(char c)
{
    return c == '\0' || c == '\n' || c == '\r' || lx_space(c) || strchr("[]{}#\"", c) != NULL;
}

static int id_first(unsigned char c)
{
    return c >= 0x80 || (c > 0x20 && c != 0x7f && !strchr("\"#',.[\\]{}+-0123456789", c));
}

static int id_rest(unsigned char c)
{
    return c >= 0x80 || (c > 0x20 && c != 0x7f && !strchr("\"#',.[\\]{}", c));
}

/* A string: backslash keeps the next byte as it is; any other byte,
 * line breaks included, is taken literally. */
static hs_code lx_string(lexer *lx)
{
    int line = lx->line;
    const char *s = ++lx->p, *q = s;
    while (*q && *q != '"')
        q += q[0] == '\\' && q[1] ? 2 : 1;
    if (!*q)
        return err_at(lx->err, lx->file, line, "unterminated string");
    token *t = lx_push(lx, T_STR, line);
    char *out = arena_alloc(lx->ar, (size_t)(q - s) + 1);
    if (!t || !out)
        return lx_nomem(lx);
    size_t n = 0;
    for (const char *c = s; c < q; c++) {
        if (*c == '\\')
            c++;
        if (*c == '\n' || (*c == '\r' && c[1] != '\n'))
            lx->line++;
        out[n++] = *c;
    }
    t->text = out;
    lx->p = q + 1;
    return HS_OK;
}

/* Length of the number starting at s (0 when malformed); sets *is_int. */
static size_t number_length(const char *s, int *is_int)
{
    const char *q = s;
    int digits = 0;
    *is_int = 1;
    if (*q == '+' || *q == '-')
        q++;
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
        for (q += 2; isxdigit((unsigned char)*q); q++)
            digits++;
        return digits ? (size_t)(q - s) : 0;
    }
    for (; isdigit((unsigned char)*q); q++)
        digits++;
    if (*q == '.')
        for (*is_int = 0, q++; isdigit((unsigned char)*q); q++)
            digits++;
    if (digits && (*q == 'e' || *q == 'E')) {
        int exp_digits = 0;
        *is_int = 0;
        q += q[1] == '+' || q[1] == '-' ? 2 : 1;
        for (; isdigit((unsigned char)*q); q++)
            exp_digits++;
        digits = exp_digits ? digits : 0;
    }
    return digits ? (size_t)(q - s) : 0;
}

/* Value of a number of length n: decimal (nearest double) or hexadecimal
 * (an integer up to 0xFFFFFFFF, as SFImage pixels use). */
static int number_value(const char *s, size_t n, double *v)
{
    char buf[512];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    const char *h = buf + (buf[0] == '+' || buf[0] == '-');
    if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) {
        unsigned long long u = strtoull(h + 2, NULL, 16);
        if (strlen(h + 2) > 8 || u > 0xFFFFFFFFull)
            return 0;
        *v = buf[0] == '-' ? -(double)u : (double)u;
        return 1;
    }
    *v = strtod(buf, NULL);
    return isfinite(*v);
}

static hs_code lx_number(lexer *lx)
{
    int is_int;
    size_t n = number_length(lx->p, &is_int);
    if (n == 0 || !lx_delim(lx->p[n])) {
        size_t bad = 0;
        while (!lx_delim(lx->p[bad]))
            bad++;
        return err_at(lx->err, lx->file, lx->line, "bad number '%.*s'",
                          (int)(bad > 60 ? 60 : bad), lx->p);
    }
    token *t = lx_push(lx, T_NUM, lx->line);
    if (!t)
        return lx_nomem(lx);
    if (!number_value(lx->p, n, &t->num))
        return err_at(lx->err, lx->file, lx->line, "number '%.*s' is out of range",
                          (int)(n > 60 ? 60 : n), lx->p);
    t->is_int = is_int;
    lx->p += n;
    return HS_OK;
}

static hs_code lx_ident(lexer *lx)
{
    size_t n = 1;
    while (id_rest((unsigned char)lx->p[n]))
        n++;
    token *t = lx_push(lx, T_ID, lx->line);
    if (!t || !(t->text = arena_strdup(lx->ar, lx->p, n)))
        return lx_nomem(lx);
    lx->p += n;
    return HS_OK;
}

static int starts_number(const char *p)
{
    if (p[0] == '+' || p[0] == '-')
        p++;
    return isdigit((unsigned char)p[0]) || (p[0] == '.' && isdigit((unsigned char)p[1]));
}

static hs_code lx_punct(lexer *lx, char c)
{
    static const char chars[] = "{}[].";
    static const tok_kind kinds[] = {T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_DOT};
    if (!lx_push(lx, kinds[strchr(chars, c) - chars], lx->line))
        return lx_nomem(lx);
    lx->p++;
    return HS_OK;
}

static hs_code lx_token(lexer *lx)
{
    unsigned char c = (unsigned char)*lx->p;
    if (c == '"')
        return lx_string(lx);
    if (starts_number(lx->p))
        return lx_number(lx);
    if (strchr("{}[].", c))
        return lx_punct(lx, (char)c);
    if (id_first(c))
        return lx_ident(lx);
    if (isprint(c))
        return err_at(lx->err, lx->file, lx->line, "unexpected character '%c'", c);
    return err_at(lx->err, lx->file, lx->line, "unexpected byte 0x%02x", c);
}

/* All tokens of text, ending with T_END.  The caller frees *out. */
static hs_code lex_text(const char *text, const char *file, arena *ar, token **out,
                        hs_error *err)
{
    lexer lx = {text, 1, file, ar, NULL, 0, 0, err};
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        lx.p += 3; /* UTF-8 byte order mark */
    hs_code rc = HS_OK;
    for (lx_skip(&lx); rc == HS_OK && *lx.p; lx_skip(&lx))
        rc = lx_token(&lx);
    if (rc == HS_OK && !lx_push(&lx, T_END, lx.line))
        rc = lx_nomem(&lx);
    if (rc != HS_OK) {
        free(lx.tok);
        return rc;
    }
    *out = lx.tok;
    return HS_OK;
}

/* The "#VRML V2.0 utf8" line: required, or (Inline) optional. */
static hs_code check_header(const char *text, const char *file, int required, hs_error *err)
{
    static const char want[] = "#VRML V2.0 utf8";
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        text += 3;
    size_t n = sizeof want - 1;
    if (strncmp(text, want, n) == 0 && (text[n] == '\0' || isspace((unsigned char)text[n])))
        return HS_OK;
    if (strncmp(text, "#VRML", 5) == 0)
        return err_at(err, file, 1, "unsupported header '%.*s' (need '%s')",
                          (int)strcspn(text, "\r\n") > 40 ? 40 : (int)strcspn(text, "\r\n"),
                          text, want);
    if (required)
        return err_at(err, file, 1, "missing header '%s' on the first line", want);
    return HS_OK;
}

/* ------------------------------------------------------------- parser */

/* DEF names and PROTOs visible at a point of the file. */
typedef struct named {
    const char *name;
    void *what;
    struct named *next;
} named;

typedef struct scope {
    named *defs;             /* DEF names of this scope only */
    named *protos;           /* PROTOs declared in this scope */
    const struct scope *up;  /* enclosing scope (its PROTOs stay visible) */
    const vproto *proto;     /* the PROTO whose body this is, or NULL */
} scope;

typedef struct parser {
    const token *tok;
    int pos;
    const char *file;
    arena *ar;
    hs_error *err;
    int depth;
    int no_is;         /* parsing a PROTO field's default: IS is not allowed */
    const char *field; /* the field whose value is being read (messages) */
} parser;

/* A growable list of items, moved to the arena when complete. */
typedef struct itemvec {
    vitem *v;
    int n, cap;
} itemvec;

static const token *peek(const parser *ps, int ahead)
{
    const token *t = &ps->tok[ps->pos];
    for (int k = 0; k < ahead && t->kind != T_END; k++)
        t++;
    return t;
}

static const token *take(parser *ps)
{
    const token *t = &ps->tok[ps->pos];
    if (t->kind != T_END)
        ps->pos++;
    return t;
}

static int is_word(const token *t, const char *w)
{
    return t->kind == T_ID && strcmp(t->text, w) == 0;
}

/* How a token is named in messages. */
static const char *tok_what(const token *t, char *buf, size_t n)
{
    static const char *const names[] = {"the end of the file", "", "a number", "a string",
                                        "'{'", "'}'", "'['", "']'", "'.'"};
    if (t->kind != T_ID)
        return names[t->kind];
    snprintf(buf, n, "'%.60s'", t->text);
    return buf;
}

static hs_code nomem(parser *ps) { return err_set(ps->err, HS_ERR_NOMEM, "out of memory"); }

static hs_code expected(parser *ps, const token *t, const char *what)
{
    char buf[80];
    return err_at(ps->err, ps->file, t->line, "%s%s%sexpected %s, found %s",
                      ps->field ? "field " : "", ps->field ? ps->field : "",
                      ps->field ? ": " : "", what, tok_what(t, buf, sizeof buf));
}

static int iv_push(itemvec *iv, const vitem *it)
{
    if (iv->n == iv->cap) {
        int cap = iv->cap ? 2 * iv->cap : 8;
        vitem *v = iv->cap < INT_MAX / 2 ? mem_realloc(iv->v, (size_t)cap, sizeof *v) : NULL;
        if (!v)
            return -1;
        iv->v = v;
        iv->cap = cap;
    }
    iv->v[iv->n++] = *it;
    return 0;
}

/* Move the items to the arena (the vector is freed either way). */
static hs_code iv_finish(parser *ps, itemvec *iv, vitem **out, int *n)
{
    *out = arena_alloc(ps->ar, sizeof(vitem) * (size_t)iv->n);
    if (*out && iv->n > 0)
        memcpy(*out, iv->v, sizeof(vitem) * (size_t)iv->n);
    *n = iv->n;
    free(iv->v);
    iv->v = NULL;
    return *out ? HS_OK : nomem(ps);
}

static int add_name(parser *ps, named **list, const char *name, void *what)
{
    named *e = arena_alloc(ps->ar, sizeof *e);
    if (!e)
        return -1;
    e->name = name;
    e->what = what;
    e->next = *list;
    *list = e;
    return 0;
}

static void *lookup(const named *list, const char *name)
{
    for (; list; list = list->next)
        if (strcmp(list->name, name) == 0)
            return list->what;
    return NULL;
}

static const vproto *find_proto(const scope *sc, const char *name)
{
    for (; sc; sc = sc->up) {
        const vproto *p = lookup(sc->protos, name);
        if (p)
            return p;
    }
    return NULL;
}

/* A name token for DEF, USE, PROTO, ROUTE ... */
static hs_code take_name(parser *ps, const char *after, const char **name)
{
    const token *t = take(ps);
    if (t->kind != T_ID || !scene_is_vrml_id(t->text)) {
        char what[80];
        snprintf(what, sizeof what, "a name after %s", after);
        return expected(ps, t, what);
    }
    *name = t->text;
    return HS_OK;
}

static hs_code parse_node_statement(parser *ps, scope *sc, vitem *it);
static hs_code parse_proto(parser *ps, scope *sc);
static hs_code parse_decl(parser *ps, scope *sc, vdecl *d, int in_script);

/* One end "node.event" of a ROUTE; the node must be DEF'd in this scope. */
static hs_code route_end(parser *ps, const scope *sc, const char *after)
{
    const char *node, *event;
    int line = peek(ps, 0)->line;
    hs_code rc = take_name(ps, after, &node);
    if (rc != HS_OK)
        return rc;
    if (peek(ps, 0)->kind != T_DOT)
        return expected(ps, peek(ps, 0), "'.' between node and event names");
    take(ps);
    if ((rc = take_name(ps, "'.'", &event)) != HS_OK)
        return rc;
    if (!lookup(sc->defs, node))
        return err_at(ps->err, ps->file, line, "ROUTE: no node named %s", node);
    return HS_OK;
}

/* ROUTE a.b TO c.d: checked, then forgotten. */
static hs_code parse_route(parser *ps, const scope *sc)
{
    take(ps);
    hs_code rc = route_end(ps, sc, "ROUTE");
    if (rc == HS_OK && !is_word(peek(ps, 0), "TO"))
        rc = expected(ps, peek(ps, 0), "'TO'");
    if (rc == HS_OK) {
        take(ps);
        rc = route_end(ps, sc, "TO");
    }
    return rc;
}

/* Statements up to (not including) a token of kind `end`. */
static hs_code parse_statements(parser *ps, scope *sc, tok_kind end, vitem **out, int *n)
{
    itemvec iv = {NULL, 0, 0};
    hs_code rc = HS_OK;
    while (rc == HS_OK && peek(ps, 0)->kind != end && peek(ps, 0)->kind != T_END) {
        const token *t = peek(ps, 0);
        vitem it;
        if (is_word(t, "PROTO"))
            rc = parse_proto(ps, sc);
        else if (is_word(t, "EXTERNPROTO"))
            rc = err_at(ps->err, ps->file, t->line, "EXTERNPROTO is not supported");
        else if (is_word(t, "ROUTE"))
            rc = parse_route(ps, sc);
        else if ((rc = parse_node_statement(ps, sc, &it)) == HS_OK && iv_push(&iv, &it) != 0)
            rc = nomem(ps);
    }
    if (rc != HS_OK) {
        free(iv.v);
        return rc;
    }
    return iv_finish(ps, &iv, out, n);
}

/* ------------------------------------------------------- field values */

/* One number / string / boolean of a value (kind of the base type). */
static hs_code parse_scalar(parser *ps, ftype type, itemvec *iv)
{
    const token *t = peek(ps, 0);
    vitem it;
    memset(&it, 0, sizeof it);
    it.line = t->line;
    if (type_arity(type) > 0) {
        if (t->kind != T_NUM || (type_is_int(type) && !t->is_int) ||
            (type_is_int(type) && fabs(t->num) > 4294967295.0))
            return expected(ps, t, type_is_int(type) ? "an integer" : "a number");
        it.kind = IT_NUM;
        it.num = t->num;
        it.is_int = t->is_int;
    } else if (type == F_SFSTRING || type == F_MFSTRING) {
        if (t->kind != T_STR)
            return expected(ps, t, "a string");
        it.kind = IT_STR;
        it.str = t->text;
    } else {
        if (!is_word(t, "TRUE") && !is_word(t, "FALSE"))
            return expected(ps, t, "TRUE or FALSE");
        it.kind = IT_BOOL;
        it.num = is_word(t, "TRUE");
    }
    take(ps);
    return iv_push(iv, &it) == 0 ? HS_OK : nomem(ps);
}

/* Single values of a multiple-valued type: `count` scalars or one node. */
static hs_code parse_single(parser *ps, scope *sc, ftype type, itemvec *iv)
{
    if (type == F_MFNODE || type == F_SFNODE) {
        vitem it;
        hs_code rc = parse_node_statement(ps, sc, &it);
        return rc != HS_OK ? rc : iv_push(iv, &it) == 0 ? HS_OK : nomem(ps);
    }
    int count = type_arity(type) ? type_arity(type) : 1;
    for (int k = 0; k < count; k++) {
        hs_code rc = parse_scalar(ps, type, iv);
        if (rc != HS_OK)
            return rc;
    }
    return HS_OK;
}

/* '[' values ']' of a multiple-valued field. */
static hs_code parse_list(parser *ps, scope *sc, const vfield *f, ftype type, itemvec *iv)
{
    const token *open = take(ps);
    while (peek(ps, 0)->kind != T_RBRACK) {
        if (peek(ps, 0)->kind == T_END)
            return err_at(ps->err, ps->file, open->line,
                              "'[' of field %s is never closed", f->name);
        hs_code rc = type == F_MFNODE ? parse_single(ps, sc, type, iv)
                                      : parse_scalar(ps, type, iv);
        if (rc != HS_OK)
            return rc;
    }
    take(ps);
    int arity = type_arity(type);
    if (arity > 1 && iv->n % arity != 0)
        return err_at(ps->err, ps->file, open->line,
                          "field %s: %d numbers is not a multiple of %d", f->name, iv->n, arity);
    return HS_OK;
}

/* SFImage: width, height, components, then width * height pixels. */
static hs_code parse_image(parser *ps, itemvec *iv)
{
    for (int k = 0; k < 3; k++) {
        hs_code rc = parse_scalar(ps, F_SFINT32, iv);
        if (rc != HS_OK)
            return rc;
    }
    double w = iv->v[0].num, h = iv->v[1].num;
    if (w < 0 || h < 0 || w * h > 1e8)
        return err_at(ps->err, ps->file, iv->v[0].line, "bad image size %g x %g", w, h);
    for (long k = 0; k < (long)(w * h); k++) {
        hs_code rc = parse_scalar(ps, F_SFINT32, iv);
        if (rc != HS_OK)
            return rc;
    }
    return HS_OK;
}

/* A value of an ignored node's field: a list, one node, or a run of
 * numbers, strings and booleans. */
static int any_scalar(const token *t)
{
    return t->kind == T_NUM || t->kind == T_STR || is_word(t, "TRUE") || is_word(t, "FALSE");
}

static int any_node(const parser *ps)
{
    const token *t = peek(ps, 0);
    return is_word(t, "DEF") || is_word(t, "USE") ||
           (t->kind == T_ID && peek(ps, 1)->kind == T_LBRACE);
}

static hs_code parse_any_item(parser *ps, scope *sc, itemvec *iv)
{
    const token *t = peek(ps, 0);
    vitem it;
    memset(&it, 0, sizeof it);
    it.line = t->line;
    if (any_node(ps)) {
        hs_code rc = parse_node_statement(ps, sc, &it);
        if (rc != HS_OK)
            return rc;
    } else if (is_word(t, "NULL")) {
        it.kind = IT_NULL;
        take(ps);
    } else if (any_scalar(t)) {
        it.kind = t->kind == T_NUM ? IT_NUM : t->kind == T_STR ? IT_STR : IT_BOOL;
        it.num = t->kind == T_NUM ? t->num : is_word(t, "TRUE");
        it.is_int = t->is_int;
        it.str = t->text;
        take(ps);
    } else
        return expected(ps, t, "a value");
    return iv_push(iv, &it) == 0 ? HS_OK : nomem(ps);
}

static hs_code parse_any(parser *ps, scope *sc, const vfield *f, itemvec *iv)
{
    const token *t = peek(ps, 0);
    hs_code rc = HS_OK;
    if (t->kind == T_LBRACK) {
        take(ps);
        while (rc == HS_OK && peek(ps, 0)->kind != T_RBRACK)
            rc = peek(ps, 0)->kind == T_END
                     ? err_at(ps->err, ps->file, t->line, "'[' of field %s is never closed",
                                  f->name)
                     : parse_any_item(ps, sc, iv);
        if (rc == HS_OK)
            take(ps);
        return rc;
    }
    if (any_node(ps) || is_word(t, "NULL"))
        return parse_any_item(ps, sc, iv);
    if (!any_scalar(t))
        return expected(ps, t, "a value");
    while (rc == HS_OK && any_scalar(peek(ps, 0)))
        rc = parse_any_item(ps, sc, iv);
    return rc;
}

static hs_code parse_typed(parser *ps, scope *sc, const vfield *f, ftype type, itemvec *iv)
{
    if (type == F_ANY)
        return parse_any(ps, sc, f, iv);
    if (type == F_SFIMAGE)
        return parse_image(ps, iv);
    if (type == F_SFNODE && is_word(peek(ps, 0), "NULL")) {
        vitem it = {IT_NULL, take(ps)->line, 0, 0, 0, NULL, NULL};
        return iv_push(iv, &it) == 0 ? HS_OK : nomem(ps);
    }
    if (type_is_mf(type) && peek(ps, 0)->kind == T_LBRACK)
        return parse_list(ps, sc, f, type, iv);
    return parse_single(ps, sc, type, iv);
}

/* The value of field f, of the given type, into f->item. */
static hs_code parse_value(parser *ps, scope *sc, vfield *f, ftype type)
{
    if (++ps->depth > MAX_NEST)
        return err_at(ps->err, ps->file, f->line, "nodes nested more than %d deep",
                          MAX_NEST);
    itemvec iv = {NULL, 0, 0};
    const char *outer = ps->field;
    ps->field = f->name;
    hs_code rc = parse_typed(ps, sc, f, type, &iv);
    ps->field = outer;
    ps->depth--;
    if (rc != HS_OK) {
        free(iv.v);
        return rc;
    }
    return iv_finish(ps, &iv, &f->item, &f->nitems);
}

/* --------------------------------------------------------------- IS */

/* "name IS target": target is a field of the PROTO being defined, of a
 * kind and type that fit the node's field (type F_ANY: not checked). */
static hs_code parse_is(parser *ps, const scope *sc, vfield *f, ftype type, const char *node)
{
    const token *is = take(ps);
    const char *target;
    hs_code rc = take_name(ps, "IS", &target);
    if (rc != HS_OK)
        return rc;
    if (!sc->proto || ps->no_is)
        return err_at(ps->err, ps->file, is->line, "IS is only allowed in a PROTO body");
    const vdecl *d = find_decl(sc->proto, target);
    if (!d)
        return err_at(ps->err, ps->file, is->line, "IS %s: PROTO %s declares no field %s",
                          target, sc->proto->name, target);
    int event = d->kind == D_EVENT_IN || d->kind == D_EVENT_OUT;
    if (type == F_EVENT && d->kind == D_FIELD)
        return err_at(ps->err, ps->file, is->line, "%s of %s is an event, but %s of PROTO "
                          "%s is a field", f->name, node, target, sc->proto->name);
    if (type != F_EVENT && type != F_ANY && (event || d->type != type))
        return err_at(ps->err, ps->file, is->line,
                          "%s of %s is %s, but %s of PROTO %s is %s%s", f->name, node,
                          type_name(type), target, sc->proto->name,
                          event ? "an event of type " : "", type_name(d->type));
    f->is = target;
    return HS_OK;
}

/* ------------------------------------------------------------ nodes */

/* Type of field `name` of node n; reports unknown fields. */
static hs_code field_type(parser *ps, const vnode *n, const token *name, ftype *type)
{
    if (n->proto) {
        const vdecl *d = find_decl(n->proto, name->text);
        if (!d)
            return err_at(ps->err, ps->file, name->line,
                              "field %s is not declared by PROTO %s", name->text, n->type);
        *type = d->kind == D_EVENT_IN || d->kind == D_EVENT_OUT ? F_EVENT : d->type;
        return HS_OK;
    }
    if (!n->spec->fields) {
        *type = F_ANY;
        return HS_OK;
    }
    const field_spec *fs = find_field_spec(n->spec, name->text);
    if (!fs)
        return err_at(ps->err, ps->file, name->line, "field %s of %s is not supported",
                          name->text, n->type);
    *type = fs->type;
    return HS_OK;
}

static hs_code parse_field(parser *ps, scope *sc, vnode *n)
{
    const token *name = take(ps);
    ftype type = F_ANY;
    hs_code rc = field_type(ps, n, name, &type);
    if (rc != HS_OK)
        return rc;
    if (find_field(n->fields, name->text))
        return err_at(ps->err, ps->file, name->line, "field %s of %s is given twice",
                          name->text, n->type);
    vfield *f = arena_alloc(ps->ar, sizeof *f);
    if (!f)
        return nomem(ps);
    f->name = name->text;
    f->line = name->line;
    if (is_word(peek(ps, 0), "IS"))
        rc = parse_is(ps, sc, f, type, n->type);
    else if (type == F_EVENT)
        rc = err_at(ps->err, ps->file, name->line,
                        "%s of %s is an event: only '%s IS name' is allowed here", name->text,
                        n->type, name->text);
    else
        rc = parse_value(ps, sc, f, type);
    if (rc == HS_OK) {
        f->next = n->fields;
        n->fields = f;
    }
    return rc;
}

static int is_decl_word(const token *t)
{
    return is_word(t, "field") || is_word(t, "exposedField") || is_word(t, "eventIn") ||
           is_word(t, "eventOut");
}

/* Fields, ROUTEs, PROTOs (and a Script's declarations) up to '}'. */
static hs_code parse_node_body(parser *ps, scope *sc, vnode *n, const token *open)
{
    for (;;) {
        const token *t = peek(ps, 0);
        hs_code rc;
        vdecl ignored;
        if (t->kind == T_RBRACE) {
            take(ps);
            return HS_OK;
        }
        if (t->kind == T_END)
            return err_at(ps->err, ps->file, open->line, "'{' of %s is never closed",
                              n->type);
        if (t->kind != T_ID)
            rc = expected(ps, t, "a field name or '}'");
        else if (is_word(t, "ROUTE"))
            rc = parse_route(ps, sc);
        else if (is_word(t, "PROTO"))
            rc = parse_proto(ps, sc);
        else if (n->spec && n->spec->kind == K_SCRIPT && is_decl_word(t))
            rc = parse_decl(ps, sc, &ignored, 1);
        else
            rc = parse_field(ps, sc, n);
        if (rc != HS_OK)
            return rc;
    }
}

/* A node of type `type` (already taken), DEF'd as def (or NULL). */
static hs_code parse_node(parser *ps, scope *sc, const token *type, const char *def,
                          vnode **out)
{
    const node_spec *spec = find_spec(type->text);
    const vproto *proto = spec ? NULL : find_proto(sc, type->text);
    if (!spec && !proto)
        return err_at(ps->err, ps->file, type->line, "node %s is not supported",
                          type->text);
    const token *open = take(ps);
    if (open->kind != T_LBRACE)
        return expected(ps, open, "'{' after the node type");
    if (++ps->depth > MAX_NEST)
        return err_at(ps->err, ps->file, open->line, "nodes nested more than %d deep",
                          MAX_NEST);
    vnode *n = arena_alloc(ps->ar, sizeof *n);
    if (!n)
        return nomem(ps);
    n->type = type->text;
    n->spec = spec;
    n->proto = proto;
    n->def = def;
    n->file = ps->file;
    n->line = type->line;
    const char *outer = ps->field; /* inside the node, no field is being read */
    ps->field = NULL;
    hs_code rc = parse_node_body(ps, sc, n, open);
    ps->field = outer;
    ps->depth--;
    *out = n;
    return rc;
}

/* DEF name node | USE name | node. */
static hs_code parse_node_statement(parser *ps, scope *sc, vitem *it)
{
    const token *t = take(ps);
    const char *def = NULL;
    hs_code rc = HS_OK;
    memset(it, 0, sizeof *it);
    it->kind = IT_NODE;
    it->line = t->line;
    if (is_word(t, "USE")) {
        const char *name;
        if ((rc = take_name(ps, "USE", &name)) != HS_OK)
            return rc;
        it->node = lookup(sc->defs, name);
        it->via_use = 1;
        return it->node ? HS_OK
                        : err_at(ps->err, ps->file, t->line,
                                     "USE %s: no node named %s (DEF it before)", name, name);
    }
    if (is_word(t, "DEF")) {
        if ((rc = take_name(ps, "DEF", &def)) != HS_OK)
            return rc;
        t = take(ps);
    }
    if (t->kind != T_ID || !scene_is_vrml_id(t->text))
        return expected(ps, t, "a node");
    rc = parse_node(ps, sc, t, def, &it->node);
    if (rc == HS_OK && def && add_name(ps, &sc->defs, def, it->node) != 0)
        rc = nomem(ps);
    return rc;
}

/* ------------------------------------------------------------ PROTO */

/* field|exposedField TYPE name value, eventIn|eventOut TYPE name; in a
 * Script, a declaration may also be "... IS name". */
static hs_code parse_decl(parser *ps, scope *sc, vdecl *d, int in_script)
{
    static const char *const kinds[] = {"field", "exposedField", "eventIn", "eventOut"};
    const token *k = take(ps), *type = take(ps);
    memset(d, 0, sizeof *d);
    int found = 0;
    for (int i = 0; i < 4; i++)
        if (is_word(k, kinds[i]))
            d->kind = (decl_kind)i, found = 1;
    if (!found)
        return expected(ps, k, "field, exposedField, eventIn or eventOut");
    if (type->kind != T_ID || !type_from_name(type->text, &d->type))
        return expected(ps, type, "a field type (SFFloat, MFNode ...)");
    hs_code rc = take_name(ps, type->text, &d->name);
    if (rc != HS_OK)
        return rc;
    vfield *f = arena_alloc(ps->ar, sizeof *f);
    if (!f)
        return nomem(ps);
    f->name = d->name;
    f->line = type->line;
    if (in_script && is_word(peek(ps, 0), "IS"))
        return parse_is(ps, sc, f, F_ANY, "Script");
    if (d->kind == D_EVENT_IN || d->kind == D_EVENT_OUT)
        return HS_OK;
    int outer = ps->no_is; /* a PROTO field's default may not use IS */
    ps->no_is = in_script ? outer : 1;
    rc = parse_value(ps, sc, f, d->type);
    ps->no_is = outer;
    d->value = f;
    return rc;
}

/* Append d to p's declarations (a malloc'd array while they are read). */
static hs_code push_decl(parser *ps, vproto *p, const vdecl *d, int *cap, int line)
{
    if (find_decl(p, d->name))
        return err_at(ps->err, ps->file, line, "PROTO %s declares %s twice", p->name,
                          d->name);
    if (p->ndecl == *cap) {
        int ncap = *cap ? 2 * *cap : 16;
        vdecl *nd = mem_realloc(p->decl, (size_t)ncap, sizeof *nd);
        if (!nd)
            return nomem(ps);
        p->decl = nd;
        *cap = ncap;
    }
    p->decl[p->ndecl++] = *d;
    return HS_OK;
}

static hs_code parse_interface(parser *ps, scope *sc, vproto *p)
{
    const token *open = take(ps);
    if (open->kind != T_LBRACK)
        return expected(ps, open, "'[' after the PROTO name");
    int cap = 0;
    hs_code rc = HS_OK;
    while (rc == HS_OK && peek(ps, 0)->kind != T_RBRACK) {
        vdecl d;
        int line = peek(ps, 0)->line;
        if (peek(ps, 0)->kind == T_END)
            rc = err_at(ps->err, ps->file, open->line, "'[' of PROTO %s is never closed",
                            p->name);
        else if ((rc = parse_decl(ps, sc, &d, 0)) == HS_OK)
            rc = push_decl(ps, p, &d, &cap, line);
    }
    if (rc == HS_OK)
        take(ps);
    vdecl *list = p->decl; /* now into the arena */
    p->decl = arena_alloc(ps->ar, sizeof *list * (size_t)(p->ndecl + 1));
    if (p->decl && p->ndecl > 0)
        memcpy(p->decl, list, sizeof *list * (size_t)p->ndecl);
    free(list);
    return rc != HS_OK ? rc : p->decl ? HS_OK : nomem(ps);
}

/* PROTO name [ interface ] { body }: the body has its own DEF names; the
 * PROTO becomes usable after its declaration. */
static hs_code parse_proto(parser *ps, scope *sc)
{
    const token *kw = take(ps);
    vproto *p = arena_alloc(ps->ar, sizeof *p);
    if (!p)
        return nomem(ps);
    hs_code rc = take_name(ps, "PROTO", &p->name);
    if (rc == HS_OK && find_spec(p->name))
        rc = err_at(ps->err, ps->file, kw->line, "PROTO %s redefines a built-in node",
                        p->name);
    if (rc == HS_OK)
        rc = parse_interface(ps, sc, p);
    const token *open = peek(ps, 0);
    if (rc == HS_OK && take(ps)->kind != T_LBRACE)
        rc = expected(ps, open, "'{' to open the PROTO body");
    scope body = {NULL, NULL, sc, p};
    if (rc == HS_OK)
        rc = parse_statements(ps, &body, T_RBRACE, &p->body, &p->nbody);
    if (rc == HS_OK && take(ps)->kind != T_RBRACE)
        rc = err_at(ps->err, ps->file, open->line, "'{' of PROTO %s is never closed",
                        p->name);
    if (rc == HS_OK && add_name(ps, &sc->protos, p->name, p) != 0)
        rc = nomem(ps);
    return rc;
}

/* ------------------------------------------------------------- files */

/* A parsed file: its top-level statements. */
typedef struct vfile {
    const char *path; /* as opened (used in messages) */
    const char *real; /* canonical path (cycle checks, cache) */
    vitem *top;
    int ntop;
    struct vfile *next;
} vfile;

static hs_code parse_text(const char *text, vfile *f, arena *ar, hs_error *err)
{
    token *tok = NULL;
    hs_code rc = lex_text(text, f->path, ar, &tok, err);
    if (rc != HS_OK)
        return rc;
    parser ps = {tok, 0, f->path, ar, err, 0, 0, NULL};
    scope top = {NULL, NULL, NULL, NULL};
    rc = parse_statements(&ps, &top, T_END, &f->top, &f->ntop);
    if (rc == HS_OK && peek(&ps, 0)->kind != T_END)
        rc = expected(&ps, peek(&ps, 0), "a node");
    free(tok);
    return rc;
}

/* -------------------------------------------------------------- walk */

/* The instances of PROTOs being expanded, innermost first. */
typedef struct env {
    const vnode *inst;
    const struct env *up;
} env;

typedef struct walker {
    hs_world *w;
    const scene_opts *opt;
    hs_error *err;
    arena *ar;
    vfile *files;                          /* every file parsed so far */
    const char *stack[MAX_INLINE_DEPTH + 1]; /* files being walked */
    int nstack;
    long visits, pieces;
    int depth;
    hs_body *body;         /* receiving pieces; made at the first piece */
    const char *name;      /* its name, and where it comes from */
    const char *name_file;
    int name_line;
} walker;

/* A field's value and the environment its nodes belong to. */
typedef struct fref {
    const vfield *f;
    const env *e;
} fref;

/* Field `name` of n, following IS into the PROTO instances (and to the
 * PROTO's default); r->f is NULL when absent (use the built-in default). */
static hs_code field_of(walker *wk, const vnode *n, const env *e, const char *name, fref *r)
{
    const vfield *f = find_field(n->fields, name);
    while (f && f->is) {
        if (!e)
            return err_at(wk->err, n->file, f->line, "IS %s outside a PROTO instance",
                              f->is);
        const vfield *g = find_field(e->inst->fields, f->is);
        if (!g) {
            const vdecl *d = find_decl(e->inst->proto, f->is);
            g = d ? d->value : NULL;
        }
        f = g;
        e = e->up;
    }
    r->f = f;
    r->e = e;
    return HS_OK;
}

/* k numbers of field `name` into out (left as they are when absent);
 * *line: where the value was written. */
static hs_code get_numbers(walker *wk, const vnode *n, const env *e, const char *name,
                           double *out, int k, int *line)
{
    fref r;
    hs_code rc = field_of(wk, n, e, name, &r);
    if (line)
        *line = r.f ? r.f->line : n->line;
    if (rc != HS_OK || !r.f)
        return rc;
    int ok = r.f->nitems == k;
    for (int i = 0; ok && i < k; i++)
        ok = r.f->item[i].kind == IT_NUM;
    if (!ok)
        return err_at(wk->err, n->file, r.f->line, "field %s of %s needs %d number%s", name,
                          n->type, k, k > 1 ? "s" : "");
    for (int i = 0; i < k; i++)
        out[i] = r.f->item[i].num;
    return HS_OK;
}

static hs_code get_bool(walker *wk, const vnode *n, const env *e, const char *name, int *out)
{
    fref r;
    hs_code rc = field_of(wk, n, e, name, &r);
    if (rc != HS_OK || !r.f)
        return rc;
    if (r.f->nitems != 1 || r.f->item[0].kind != IT_BOOL)
        return err_at(wk->err, n->file, r.f->line, "field %s of %s needs TRUE or FALSE",
                          name, n->type);
    *out = r.f->item[0].num != 0;
    return HS_OK;
}

static hs_code walk_node(walker *wk, const vnode *n, const env *e, const double M[16]);

/* Every node of field `name` (MFNode or SFNode) of n. */
static hs_code walk_field_nodes(walker *wk, const vnode *n, const env *e, const char *name,
                                const double M[16])
{
    fref r;
    hs_code rc = field_of(wk, n, e, name, &r);
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
    hs_code rc = get_numbers(wk, n, e, "translation", t, 3, NULL);
    if (rc == HS_OK)
        rc = get_numbers(wk, n, e, "center", c, 3, NULL);
    if (rc == HS_OK)
        rc = get_numbers(wk, n, e, "scale", s, 3, &ls);
    if (rc == HS_OK)
        rc = get_numbers(wk, n, e, "rotation", r, 4, &lr);
    if (rc == HS_OK)
        rc = get_numbers(wk, n, e, "scaleOrientation", so, 4, &lso);
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
    hs_code rc = get_numbers(wk, n, e, "whichChoice", &which, 1, NULL);
    if (rc == HS_OK)
        rc = field_of(wk, n, e, "choice", &r);
    if (rc != HS_OK || !r.f || which < 0 || which >= r.f->nitems)
        return rc;
    const vitem *it = &r.f->item[(int)which];
    return it->kind == IT_NODE ? walk_node(wk, it->node, r.e, M) : HS_OK;
}

/* LOD: the first level, the most detailed one. */
static hs_code walk_lod(walker *wk, const vnode *n, const env *e, const double M[16])
{
    fref r;
    hs_code rc = field_of(wk, n, e, "level", &r);
    if (rc != HS_OK || !r.f || r.f->nitems == 0 || r.f->item[0].kind != IT_NODE)
        return rc;
    return walk_node(wk, r.f->item[0].node, r.e, M);
}

/* ----------------------------------------------------------- pieces */

/* Before each piece: count it, and make the body at the first one. */
static hs_code new_piece(walker *wk, const vnode *n)
{
    if (++wk->pieces > MAX_PIECES)
        return err_at(wk->err, n->file, n->line, "scene too large: more than %ld pieces",
                          MAX_PIECES);
    if (!wk->body)
        wk->body = scene_new_body(wk->w, wk->name, wk->name_file, wk->name_line, wk->err);
    return wk->body ? HS_OK : wk->err ? wk->err->code : HS_ERR_INPUT;
}

/* Guard against PROTO / USE chains nested too deep or expanding without
 * bound; counts one visit. */
static hs_code enter(walker *wk, const vnode *n)
{
    if (++wk->visits > MAX_VISITS)
        return err_at(wk->err, n->file, n->line, "scene too large: more than %ld nodes once "
                          "USE, PROTO and Inline are expanded", MAX_VISITS);
    if (wk->depth >= MAX_WALK_DEPTH)
        return err_at(wk->err, n->file, n->line, "nodes nested more than %d deep once "
                          "PROTO and Inline are expanded", MAX_WALK_DEPTH);
    wk->depth++;
    return HS_OK;
}

static hs_code positive(walker *wk, const vnode *n, double v, const char *what, int line)
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
        rc = get_numbers(wk, n, e, "size", size, 3, &l1);
    else
        rc = get_numbers(wk, n, e, k == K_CONE ? "bottomRadius" : "radius", &radius, 1, &l1);
    if (rc == HS_OK && (k == K_CYLINDER || k == K_CONE))
        rc = get_numbers(wk, n, e, "height", &height, 1, &l2);
    for (int d = 0; rc == HS_OK && k == K_BOX && d < 3; d++)
        rc = positive(wk, n, size[d], "size", l1);
    if (rc == HS_OK && k != K_BOX)
        rc = positive(wk, n, radius, k == K_CONE ? "bottomRadius" : "radius", l1);
    if (rc == HS_OK)
        rc = positive(wk, n, height, "height", l2);
    if (rc == HS_OK)
        rc = new_piece(wk, n);
    if (rc != HS_OK)
        return rc;
    hs_body *b = wk->body;
    int sides = wk->opt->sides;
    rc = k == K_BOX        ? hs_body_add_box(b, size, M, wk->err)
         : k == K_CYLINDER ? hs_body_add_cylinder(b, radius, height, sides, M, wk->err)
         : k == K_CONE     ? hs_body_add_cone(b, radius, height, sides, M, wk->err)
                           : hs_body_add_sphere(b, radius, wk->opt->sphere_level, M, wk->err);
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
    hs_code rc = field_of(wk, n, job->e, "coordIndex", &idx);
    if (rc == HS_OK && (!idx.f || idx.f->nitems == 0))
        rc = err_at(wk->err, n->file, n->line, "IndexedFaceSet without coordIndex");
    if (rc == HS_OK)
        rc = get_bool(wk, n, job->e, "convex", &convex);
    for (int k = 0; rc == HS_OK && k + 2 < pts->f->nitems; k += 3) {
        double p[3] = {pts->f->item[k].num, pts->f->item[k + 1].num, pts->f->item[k + 2].num};
        if (soup_point(&s, p) != 0)
            rc = err_set(wk->err, HS_ERR_NOMEM, "out of memory");
    }
    if (rc == HS_OK)
        rc = ifs_faces(wk, n, &idx, s.npts, &s);
    if (rc == HS_OK)
        rc = new_piece(wk, n);
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
        const vnode *root = proto_root(c->proto);
        if (!root)
            return err_at(wk->err, c->file, c->line, "PROTO %s has no node", c->type);
        if ((rc = enter(wk, c)) == HS_OK) {
            rc = face_set_coord(wk, job, root, &inst);
            wk->depth--;
        }
        return rc;
    }
    if (c->spec->kind != K_COORD)
        return err_at(wk->err, c->file, c->line, "coord must be a Coordinate, not %s",
                          c->type);
    fref pts;
    rc = field_of(wk, c, ce, "point", &pts);
    if (rc == HS_OK && (!pts.f || pts.f->nitems < 9))
        return err_at(wk->err, c->file, c->line, "Coordinate needs at least 3 points");
    return rc == HS_OK ? face_set_points(wk, job, &pts) : rc;
}

static hs_code add_face_set(walker *wk, const vnode *n, const env *e, const double M[16])
{
    fref r;
    hs_code rc = field_of(wk, n, e, "coord", &r);
    if (rc != HS_OK)
        return rc;
    if (!r.f || r.f->nitems != 1 || r.f->item[0].kind != IT_NODE)
        return err_at(wk->err, n->file, n->line, "IndexedFaceSet without coord");
    face_job job = {n, e, M};
    return face_set_coord(wk, &job, r.f->item[0].node, r.e);
}

/* The geometry node of a Shape (through PROTO instances). */
static hs_code walk_geometry(walker *wk, const vnode *n, const env *e, const double M[16])
{
    hs_code rc = enter(wk, n);
    if (rc != HS_OK)
        return rc;
    if (n->proto) {
        env inst = {n, e};
        const vnode *root = proto_root(n->proto);
        rc = root ? walk_geometry(wk, root, &inst, M)
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

static hs_code walk_shape(walker *wk, const vnode *n, const env *e, const double M[16])
{
    fref r;
    hs_code rc = field_of(wk, n, e, "geometry", &r);
    if (rc != HS_OK || !r.f || r.f->nitems != 1 || r.f->item[0].kind != IT_NODE)
        return rc; /* no geometry: nothing to add */
    return walk_geometry(wk, r.f->item[0].node, r.e, M);
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

/* Read and parse a file once per load (cached by canonical path). */
static hs_code load_file(walker *wk, const char *path, const char *real, int need_header,
                         vfile **out)
{
    for (vfile *f = wk->files; f; f = f->next)
        if (strcmp(f->real, real) == 0) {
            *out = f;
            return HS_OK;
        }
    vfile *f = arena_alloc(wk->ar, sizeof *f);
    char *text = f ? text_read_file(path, wk->err) : NULL;
    if (!f)
        return err_set(wk->err, HS_ERR_NOMEM, "out of memory");
    if (!text)
        return wk->err ? wk->err->code : HS_ERR_IO;
    f->path = arena_strdup(wk->ar, path, strlen(path));
    f->real = arena_strdup(wk->ar, real, strlen(real));
    hs_code rc = !f->path || !f->real ? err_set(wk->err, HS_ERR_NOMEM, "out of memory")
                                      : check_header(text, path, need_header, wk->err);
    if (rc == HS_OK)
        rc = parse_text(text, f, wk->ar, wk->err);
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

/* The first url of the Inline that names an existing local file. */
static hs_code inline_target(walker *wk, const vnode *n, const fref *url, char **path,
                             char **real)
{
    const vitem *first = NULL;
    for (int k = 0; k < url->f->nitems && !*real; k++) {
        const vitem *it = &url->f->item[k];
        if (it->kind != IT_STR || remote_url(it->str))
            continue;
        first = first ? first : it;
        free(*path);
        if (!(*path = inline_path(n->file, it->str)))
            return err_set(wk->err, HS_ERR_NOMEM, "out of memory");
        *real = realpath(*path, NULL);
    }
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
    if (wk->nstack >= MAX_INLINE_DEPTH)
        return err_at(wk->err, n->file, n->line, "Inline files nested more than %d deep",
                          MAX_INLINE_DEPTH);
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

/* An Inline naming an OFF, OBJ or STL file: one mesh piece (or its hull)
 * placed by the Transforms above. */
static hs_code walk_inline_mesh(walker *wk, const vnode *n, const char *path, const double M[16])
{
    scene_soup s;
    int line = 0;
    hs_code rc = scene_read_mesh(path, &s, &line, wk->err);
    if (rc == HS_ERR_IO)
        rc = scene_locate(wk->err, rc, n->file, n->line);
    if (rc == HS_OK)
        rc = new_piece(wk, n);
    if (rc == HS_OK)
        rc = soup_add_piece(wk->body, &s, M, wk->opt->mesh_as_hull ? SOUP_HULL : SOUP_MESH, path,
                            line, wk->err);
    soup_free(&s);
    return rc;
}

static hs_code walk_inline(walker *wk, const vnode *n, const env *e, const double M[16])
{
    fref url;
    hs_code rc = field_of(wk, n, e, "url", &url);
    if (rc == HS_OK && (!url.f || url.f->nitems == 0))
        rc = err_at(wk->err, n->file, n->line, "Inline without url");
    char *path = NULL, *real = NULL;
    if (rc == HS_OK)
        rc = inline_target(wk, n, &url, &path, &real);
    if (rc == HS_OK && scene_mesh_kind(path) != 0)
        rc = walk_inline_mesh(wk, n, path, M);
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
        const vnode *root = proto_root(n->proto);
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
    hs_code rc = enter(wk, n);
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
        const vnode *root = proto_root(n->proto);
        hs_code rc = root ? enter(wk, n) : HS_OK;
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

hs_code scene_add_vrml(hs_world *w, const char *path, const scene_opts *o, hs_error *err)
{
    char *real = realpath(path, NULL);
    if (!real)
        return err_set(err, HS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    arena ar = {NULL};
    walker wk;
    memset(&wk, 0, sizeof wk);
    wk.w = w;
    wk.opt = o;
    wk.err = err;
    wk.ar = &ar;
    vfile *f = NULL;
    hs_code rc = load_file(&wk, path, real, 1, &f);
    if (rc == HS_OK) {
        wk.stack[wk.nstack++] = f->real;
        rc = add_bodies(&wk, f, path);
    }
    free(real);
    arena_free(&ar);
    return rc;
}
