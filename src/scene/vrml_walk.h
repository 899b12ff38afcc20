/* vrml_walk.h -- the walk of a parsed VRML scene into bodies and pieces,
 * shared by vrml_build.c (nodes, Transforms, Inline, bodies),
 * vrml_geometry.c (geometry nodes into pieces) and vrml_fields.c (field
 * values seen through PROTO instances, and the walk's limits). */
#ifndef HS_VRML_WALK_H
#define HS_VRML_WALK_H

#include "src/scene/scene.h"
#include "src/scene/vrml.h"

/* The instances of PROTOs being expanded, innermost first. */
typedef struct env {
    const vnode *inst;
    const struct env *up;
} env;

typedef struct walker {
    hs_world *w;
    const scene_opts *opt;
    hs_error *err;
    mem_arena *ar;
    vfile *files;                               /* every file parsed so far */
    const char *stack[VRML_MAX_INLINE_DEPTH + 1]; /* files being walked */
    int nstack;
    long visits, pieces, points;
    long is_steps;         /* PROTO instances gone through by vrml_field_of */
    long inlines;          /* Inline nodes visited */
    int depth;
    int counting;          /* the first walk: count pieces and points, build
                              nothing (see scene_add_vrml) */
    int limit_hit;         /* the walk stopped at a limit (vrml_enter,
                              vrml_new_piece) */
    char *root;            /* real path of the scene file's folder */
    char **allowed;        /* real paths of the other folders Inline may read */
    int nallowed;
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

/* ------------------------------------------------ vrml_fields.c */

/* Field `name` of n, following IS into the PROTO instances (and to the
 * PROTO's default); r->f is NULL when absent (use the built-in default). */
hs_code vrml_field_of(walker *wk, const vnode *n, const env *e, const char *name, fref *r);

/* k numbers of field `name` into out (left as they are when absent);
 * *line (may be NULL): where the value was written. */
hs_code vrml_get_numbers(walker *wk, const vnode *n, const env *e, const char *name,
                         double *out, int k, int *line);

/* TRUE or FALSE of field `name` into *out (left as it is when absent). */
hs_code vrml_get_bool(walker *wk, const vnode *n, const env *e, const char *name, int *out);

/* Guard against PROTO / USE chains nested too deep or expanding without
 * bound; counts one visit and, on success, one level of depth (the caller
 * leaves it with wk->depth--). */
hs_code vrml_enter(walker *wk, const vnode *n);

/* Before each piece: count it and its `points` against the limits
 * (max_pieces, max_points) and, when building, make the body at its first
 * piece.  While counting, returns HS_OK and the caller builds nothing
 * (wk->counting). */
hs_code vrml_new_piece(walker *wk, const vnode *n, long points);

/* ---------------------------------------------- vrml_geometry.c */

/* The geometry node n of a Shape (through PROTO instances) as a piece of
 * the walker's body, placed by M. */
hs_code vrml_walk_geometry(walker *wk, const vnode *n, const env *e, const double M[16]);

/* An Inline n naming the OFF, OBJ or STL file path: one mesh piece (or its
 * hull) placed by M. */
hs_code vrml_inline_mesh(walker *wk, const vnode *n, const char *path, const double M[16]);

#endif
