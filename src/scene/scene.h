/* scene_vrml.h -- internal interface of the scene-file readers and writer
 * (scene_load.c, scene_vrml.c, scene_mesh.c, scene_export.c).
 *
 * Conventions shared by every reader:
 *   - bodies are built only through the public world API;
 *   - a body is static exactly when its name starts with "static_" (the
 *     DEF name in VRML, the file's base name for OFF / OBJ / STL);
 *   - every input error is "FILE:LINE: what is wrong" (binary STL, which
 *     has no lines: "FILE: triangle K: what is wrong");
 *   - a failed hs_world_add_file removes the bodies it had added. */
#ifndef HS_SCENE_VRML_H
#define HS_SCENE_VRML_H

#include "halfspace.h"

/* ------------------------------------------------------------ options */

/* How geometry is turned into pieces.  Defaults (scene_opts_init):
 * 24 sides for Cylinder and Cone, icosphere level 2 (320 triangles) for
 * Sphere, meshes kept as meshes. */
typedef struct scene_opts {
    int sides;        /* side facets of Cylinder / Cone prisms */
    int sphere_level; /* subdivisions of the Sphere's icosahedron */
    int mesh_as_hull; /* nonzero: every mesh piece (OFF, OBJ, STL,
                         non-convex IndexedFaceSet) becomes the convex
                         hull of its points instead */
} scene_opts;

void scene_opts_init(scene_opts *o);

/* hs_world_add_file with options: dispatch on the extension (.wrl / .vrml,
 * .off, .obj, .stl, any case).  On failure, the bodies added by this call
 * are removed again. */
hs_code scene_add_file(hs_world *w, const char *path, const scene_opts *o, hs_error *err);

/* The readers (no rollback of their own). */
hs_code scene_add_vrml(hs_world *w, const char *path, const scene_opts *o, hs_error *err);
/* An OFF, OBJ or STL file (by scene_mesh_kind) as one body. */
hs_code scene_add_mesh_file(hs_world *w, const char *path, const scene_opts *o, hs_error *err);

/* ------------------------------------------------------ names, errors */

/* Body name for a file: its base name without the last extension, with
 * every character a VRML identifier cannot hold replaced by '_' (and a '_'
 * in front of a leading digit, '+' or '-'), so that an exported world can be
 * read back.  NULL when out of memory.  Free with free(). */
char *scene_file_body_name(const char *path);

/* The static rule: the name starts with "static_". */
int scene_name_is_static(const char *name);

/* Nonzero when s is a valid VRML identifier (and not a keyword). */
int scene_is_vrml_id(const char *s);

/* New body named `name` (static by the rule above); errors are located at
 * FILE:LINE. */
hs_body *scene_new_body(hs_world *w, const char *name, const char *file, int line,
                        hs_error *err);

/* Rewrite the message in err (set by a world routine) as
 * "FILE:LINE: message", HS_ERR_INPUT unless it was out of memory; returns
 * the resulting code. */
hs_code scene_locate(hs_error *err, hs_code rc, const char *file, int line);

/* ------------------------------------------------------ polygon soups */

/* Points and polygons collected by a reader before they become a piece.
 * Face f has the corners fidx[fstart[f] .. fstart[f+1]-1] (fstart[0] = 0,
 * fstart[nfaces] = nidx), given as indices into pts. */
typedef struct scene_soup {
    double *pts;
    int npts, pcap;
    int *fidx;
    int nidx, icap;
    int *fstart;
    int nfaces, fcap;
} scene_soup;

typedef enum soup_mode {
    SOUP_MESH,        /* a triangle mesh */
    SOUP_CONVEX_TEST, /* the hull of the points when the faces bound a
                         closed convex solid, a mesh otherwise */
    SOUP_HULL         /* the hull of the points */
} soup_mode;

void soup_init(scene_soup *s);
void soup_free(scene_soup *s);
/* Append a point / a corner of the open face / close the open face.
 * Each returns 0, or -1 when out of memory. */
int soup_point(scene_soup *s, const double p[3]);
int soup_corner(scene_soup *s, int idx);
int soup_end_face(scene_soup *s);

/* Make the soup a piece of b: points mapped by place (NULL: identity),
 * polygons split into fans (P0, Pi, Pi+1), fan triangles of zero area
 * (collinear corners) dropped, unused points left out.  Every corner must
 * be a valid index (the readers check them).  Errors are located at
 * FILE:LINE, e.g. "no face of nonzero area". */
hs_code soup_add_piece(hs_body *b, const scene_soup *s, const double place[16], soup_mode mode,
                       const char *file, int line, hs_error *err);

/* 1, 2, 3 when path ends in .off, .obj, .stl (any case), else 0. */
int scene_mesh_kind(const char *path);

/* Read a mesh file (by scene_mesh_kind) into s (initialized here; the
 * caller frees it, also on failure); *line is the line to name in errors
 * about the mesh as a whole. */
hs_code scene_read_mesh(const char *path, scene_soup *s, int *line, hs_error *err);

#endif
