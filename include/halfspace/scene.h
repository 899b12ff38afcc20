/*
 * halfspace/scene.h -- scene files: loading VRML 2.0 scenes and OFF, OBJ,
 * STL meshes into worlds, and writing a world back as VRML.  Part of the
 * public API of libhalfspace; programs include "halfspace.h", which
 * includes this file.  The accepted subset of each format is described in
 * the README.
 */
#include "../halfspace.h"

#ifndef HALFSPACE_SCENE_H
#define HALFSPACE_SCENE_H

#ifdef __cplusplus
extern "C" {
#endif

/* How scene geometry becomes pieces.  Defaults (hs_scene_options_init):
 * 24 side facets for Cylinder and Cone, icosphere level 2 (320 triangles)
 * for Sphere, meshes kept as meshes.  A plain struct owned by the
 * caller. */
typedef struct hs_scene_options {
    int cylinder_sides; /* side facets of Cylinder / Cone prisms (3..100000) */
    int sphere_level;   /* subdivisions of the Sphere's icosahedron (0..6) */
    int mesh_as_hull;   /* nonzero: every mesh piece (OFF, OBJ, STL, a
                           non-convex IndexedFaceSet) becomes the convex hull
                           of its points, a convex piece */
} hs_scene_options;
/* Fill *o (not NULL) with the defaults above.  Thread-safe. */
HS_API void hs_scene_options_init(hs_scene_options *o);

/* Load a scene into a new world, by extension (case ignored): .wrl or
 * .vrml (VRML 2.0 subset, see the README), .off, .obj, .stl (one body made
 * of one mesh piece, named after the file).  Bodies whose names start
 * with "static_" are static.  Errors: HS_ERR_ARG for path NULL, HS_ERR_IO
 * when the file cannot be read, HS_ERR_UNSUPPORTED for another extension,
 * HS_ERR_INPUT "FILE:LINE: what is wrong", including "node X is not
 * supported"; HS_ERR_NOMEM.  Returns the new world (free with
 * hs_world_free), or NULL on error.  Thread-safe (the world is new). */
HS_API hs_world *hs_world_load(const char *path, hs_error *err);

/* Add the bodies of a scene file to an existing world (names must not
 * clash with its bodies); on failure the bodies added by this call are
 * removed again.  Errors as hs_world_load, and HS_ERR_ARG for w NULL.
 * Changes w. */
HS_API hs_code hs_world_add_file(hs_world *w, const char *path, hs_error *err);
/* The same with options (o NULL: the defaults); HS_ERR_ARG for options
 * outside the ranges above.  Changes w. */
HS_API hs_code hs_world_add_file_opts(hs_world *w, const char *path,
                                      const hs_scene_options *o, hs_error *err);

/* Write the world to out as VRML 2.0, pieces in collision per rep
 * (overlapping, touching or intersecting piece pairs of a query of this
 * world, matched by body names; rep may be NULL) coloured red, the others
 * grey.  Returns HS_OK, HS_ERR_ARG for w or out NULL or a body name that
 * is not a VRML identifier, HS_ERR_IO on a write error, HS_ERR_NOMEM.
 * Const-safe in w and rep; out must not be written by another thread
 * meanwhile. */
HS_API hs_code hs_world_export_vrml(const hs_world *w, const hs_report *rep, FILE *out,
                                    hs_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HALFSPACE_SCENE_H */
