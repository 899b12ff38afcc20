/* scene.h -- the internal interface shared by every scene-file reader and
 * the writer: the options, the readers' entry points, the mesh files read
 * as points, and the naming and error rules (scene_names.c).
 *
 * Files, from the top down (each calls only files below it):
 *   scene_load.c      hs_world_load, hs_world_add_file: the reader by extension
 *   vrml_build.c      VRML 2.0 (with vrml_*.c, vrml.h, vrml_walk.h)
 *   mesh_file.c       OFF, OBJ, STL (with mesh_off.c, mesh_obj.c, mesh_stl.c,
 *                     mesh_text.c, mesh.h)
 *   soup.c            polygon soups made into pieces (soup.h)
 *   scene_names.c     names, file kinds, located errors
 *   scene_export.c    hs_world_export_vrml, the writer
 *
 * Conventions shared by every reader:
 *   - bodies are built only through the public world API;
 *   - a body is static exactly when its name starts with "static_" (the
 *     DEF name in VRML, the file's base name for OFF / OBJ / STL);
 *   - every input error is "FILE:LINE: what is wrong" (binary STL, which
 *     has no lines: "FILE: triangle K: what is wrong");
 *   - a failed hs_world_add_file removes the bodies it had added. */
#ifndef HS_SCENE_H
#define HS_SCENE_H

#include "halfspace.h"
#include "src/scene/soup.h"

/* ------------------------------------------------------------ options */

/* How geometry is turned into pieces, and the limits of one load (the
 * public hs_scene_options, include/halfspace/scene.h, describes each).
 * Defaults (scene_opts_init): 24 sides for Cylinder and Cone, icosphere
 * level 2 (320 triangles) for Sphere, meshes kept as meshes, the limits
 * below. */
#define SCENE_MAX_DEPTH 200      /* nodes nested within one VRML file */
#define SCENE_MAX_PIECES 10000L  /* pieces made by one load */
#define SCENE_MAX_POINTS 100000L /* points of those pieces */
#define SCENE_MAX_SIDES 1000     /* largest accepted `sides` */
#define SCENE_SIDES_CEILING 100000 /* largest max_sides */

typedef struct scene_opts {
    int sides;        /* side facets of Cylinder / Cone prisms */
    int sphere_level; /* subdivisions of the Sphere's icosahedron */
    int mesh_as_hull; /* nonzero: every mesh piece (OFF, OBJ, STL,
                         non-convex IndexedFaceSet) becomes the convex
                         hull of its points instead */
    size_t max_bytes; /* bytes of any one file */
    int max_depth;    /* nesting within one VRML file (5 times that once
                         expanded) */
    long max_pieces, max_points;
    const char *const *allow; /* NULL-terminated folders Inline may read
                                 besides the scene's own, or NULL */
} scene_opts;

void scene_opts_init(scene_opts *o);

/* hs_world_add_file with options: dispatch on the extension (.wrl / .vrml,
 * .off, .obj, .stl, any case).  On failure, the bodies added by this call
 * are removed again. */
hs_code scene_add_file(hs_world *w, const char *path, const scene_opts *o, hs_error *err);

/* ------------------------------------------------------------ readers */

/* The readers (no rollback of their own). */
hs_code scene_add_vrml(hs_world *w, const char *path, const scene_opts *o, hs_error *err);
/* An OFF, OBJ or STL file (by scene_mesh_kind) as one body. */
hs_code scene_add_mesh_file(hs_world *w, const char *path, const scene_opts *o, hs_error *err);

/* Read a mesh file (by scene_mesh_kind) of at most max_bytes bytes into s
 * (initialized here; the caller frees it, also on failure); *line is the
 * line to name in errors about the mesh as a whole. */
hs_code scene_read_mesh(const char *path, size_t max_bytes, scene_soup *s, int *line,
                        hs_error *err);

/* The points of a mesh file (by scene_mesh_kind) whose convex hull is the
 * piece that the file makes with mesh_as_hull: the corners of its faces of
 * nonzero area, equal points merged, in order of first use (see
 * soup_points).  *pts (3 doubles a point, free with free()) and *n are set
 * on success only; *line is the line to name in errors about the mesh as
 * a whole (0 for binary STL).  Errors are those of reading the file as a
 * scene ("FILE:LINE: what is wrong"). */
hs_code scene_mesh_points(const char *path, double **pts, int *n, int *line, hs_error *err);

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

/* Nonzero when path ends in .wrl or .vrml (any case). */
int scene_is_vrml_file(const char *path);

/* 1, 2, 3 when path ends in .off, .obj, .stl (any case), else 0. */
int scene_mesh_kind(const char *path);

/* New body named `name` (static by the rule above); errors are located at
 * FILE:LINE. */
hs_body *scene_new_body(hs_world *w, const char *name, const char *file, int line,
                        hs_error *err);

/* Rewrite the message in err (set by a world routine) as
 * "FILE:LINE: message", HS_ERR_INPUT unless it was out of memory; returns
 * the resulting code. */
hs_code scene_locate(hs_error *err, hs_code rc, const char *file, int line);

#endif
