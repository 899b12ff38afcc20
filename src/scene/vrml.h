/* vrml.h -- internal interface of the VRML 2.0 reader: the scene graph
 * that the parser builds (nodes, fields, PROTOs, files, all in one arena),
 * the tables of field types and supported nodes, and the tokens.
 *
 * The reader's files, from the top down: vrml_build.c (the graph into
 * bodies; with vrml_geometry.c for the pieces and vrml_fields.c for field
 * values, sharing vrml_walk.h), vrml_parse.c (tokens into the graph, with
 * the DEF / USE and PROTO scopes), vrml_lex.c (text into tokens),
 * vrml_nodes.c (the node and field-type tables), vrml_graph.c (the arena
 * and lookups in the graph).
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
 * convex solid, a mesh otherwise; see soup.c), Inline (a VRML file,
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
#ifndef HS_VRML_H
#define HS_VRML_H

#include <stddef.h>

#include "halfspace.h"
#include "polytope/arena.h"

/* Limits of the reader besides those of scene_opts (max_depth: nodes and
 * values nested within one file; 5 * max_depth once PROTOs and Inlines
 * are expanded; max_pieces and max_points: what one load makes). */
#define VRML_WALK_DEPTH_FACTOR 5   /* expanded nesting / max_depth */
#define VRML_MAX_INLINE_DEPTH 32   /* files inlined within one another */
#define VRML_MAX_VISITS 2000000L   /* nodes visited once USE / PROTO / Inline are expanded */
#define VRML_MAX_IS_STEPS 20000000L /* PROTO instances gone through to find field values */
#define VRML_MAX_INLINES 10000L    /* Inline nodes visited (each resolves a path) */

/* Every part of the parsed scene lives in one arena (polytope/arena.h),
 * freed at once. */

/* An index of names (vrml_graph.c): open addressing over a table in the
 * arena, at most half full, so that looking a name up costs the same for
 * 10 names and for 100,000 (DEF names, PROTOs, a node's fields, a PROTO's
 * declarations). */
typedef struct vindex {
    const char **key;
    void **val;
    size_t mask, count;
} vindex;

/* name -> val in *ix (made at the first name; the value of a name already
 * there is replaced).  0, or -1 when out of memory.  name must stay valid
 * as long as the index (a string of the arena). */
int vrml_index_put(mem_arena *a, vindex **ix, const char *name, void *val);
/* The value of name, or NULL (also for ix NULL). */
void *vrml_index_get(const vindex *ix, const char *name);

/* -------------------------------------------------------------- types */

typedef enum ftype {
    F_ANY, /* fields of ignored nodes: any syntactically valid value */
    F_EVENT,
    F_SFBOOL, F_SFCOLOR, F_SFFLOAT, F_SFIMAGE, F_SFINT32, F_SFNODE, F_SFROTATION,
    F_SFSTRING, F_SFTIME, F_SFVEC2F, F_SFVEC3F,
    F_MFCOLOR, F_MFFLOAT, F_MFINT32, F_MFNODE, F_MFROTATION, F_MFSTRING, F_MFTIME,
    F_MFVEC2F, F_MFVEC3F
} ftype;

/* Names and sizes of the field types (vrml_nodes.c). */
const char *vrml_type_name(ftype t);
int vrml_type_arity(ftype t); /* numbers per value, 0 when not numeric */
int vrml_type_from_name(const char *s, ftype *t); /* SFBool ... MFVec3f: 1 */
static inline int vrml_type_is_mf(ftype t) { return t >= F_MFCOLOR; }
static inline int vrml_type_is_int(ftype t) { return t == F_SFINT32 || t == F_MFINT32; }

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

/* The built-in node named `name`, or NULL; its field `name`, or NULL
 * (vrml_nodes.c). */
const node_spec *vrml_find_spec(const char *name);
const field_spec *vrml_find_field_spec(const node_spec *s, const char *name);

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
    vindex *dindex; /* declaration name -> its index + 1 (cast to a pointer) */
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
    int nfields;
    vindex *findex; /* field name -> field, once the node has more than
                       VRML_LIST_MAX fields */
};

/* Lists up to this length are searched, longer ones indexed. */
#define VRML_LIST_MAX 8

/* A parsed file: its top-level statements. */
typedef struct vfile {
    const char *path; /* as opened (used in messages) */
    const char *real; /* canonical path (cycle checks, cache) */
    vitem *top;
    int ntop;
    struct vfile *next;
} vfile;

/* Lookups in the graph (vrml_graph.c): field `name` of node n, or NULL;
 * the declaration `name` of PROTO p (p may be NULL), or NULL; the first
 * node of a PROTO body, or NULL. */
const vfield *vrml_find_field(const vnode *n, const char *name);
const vdecl *vrml_find_decl(const vproto *p, const char *name);
const vnode *vrml_proto_root(const vproto *p);

/* ------------------------------------------------------------- tokens */

typedef enum tok_kind { T_END, T_ID, T_NUM, T_STR, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_DOT }
    tok_kind;

typedef struct token {
    tok_kind kind;
    int line;
    int is_int;
    double num;
    const char *text; /* T_ID, T_STR */
} token;

/* All tokens of text, ending with T_END; strings and names in the arena
 * (vrml_lex.c).  The caller frees *out. */
hs_code vrml_lex(const char *text, const char *file, mem_arena *ar, token **out, hs_error *err);

/* The "#VRML V2.0 utf8" line: required, or (Inline) optional. */
hs_code vrml_check_header(const char *text, const char *file, int required, hs_error *err);

/* ------------------------------------------------------------- parser */

/* Parse text (the contents of the file f->path) into f->top, f->ntop,
 * nodes and values nested at most max_depth deep (vrml_parse.c). */
hs_code vrml_parse_text(const char *text, vfile *f, mem_arena *ar, int max_depth, hs_error *err);

#endif
