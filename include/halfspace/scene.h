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

/* How scene geometry becomes pieces, and the limits on what one load may
 * read and make.  Defaults (hs_scene_options_init): 24 side facets for
 * Cylinder and Cone, icosphere level 2 (320 triangles) for Sphere, meshes
 * kept as meshes; the limits below.  A plain struct owned by the caller.
 *
 * Limits.  A file that would exceed one is refused with HS_ERR_INPUT
 * "FILE:LINE: ... (limit L: raise max_...)" before the work is done:
 * pieces and points are counted by a walk of the scene that builds
 * nothing, so a small file that expands (USE, PROTO, Inline) into a huge
 * scene fails at once.  Each limit may be raised for trusted files.
 *
 * Inline.  A VRML Inline may read only files below the folder of the
 * scene file given to hs_world_add_file_opts (its real path, symbolic
 * links resolved), or below one of the folders of allow_paths; any other
 * target is "FILE:LINE: Inline file '...' is outside the scene's folder".
 * Errors about the text of an Inline file that has no "#VRML V2.0 utf8"
 * line never quote that text. */
typedef struct hs_scene_options {
    int cylinder_sides; /* side facets of Cylinder / Cone prisms (3..max_sides) */
    int sphere_level;   /* subdivisions of the Sphere's icosahedron (0..6) */
    int mesh_as_hull;   /* nonzero: every mesh piece (OFF, OBJ, STL, a
                           non-convex IndexedFaceSet) becomes the convex hull
                           of its points, a convex piece */
    size_t max_file_bytes; /* bytes of any one file read: the scene, an
                              Inline, a mesh (default 2^28 = 256 MiB; at
                              least 1) */
    int max_depth;      /* nodes and values nested within one VRML file
                           (default 200; 1..10000); once PROTO instances and
                           Inline files are expanded the walk may nest 5 *
                           max_depth deep */
    long max_pieces;    /* pieces one load may make (default 10000; >= 1) */
    long max_points;    /* points of those pieces together (default 100000;
                           >= 1): a Box counts 8, a Cylinder 2 * sides, a
                           Cone sides + 1, a Sphere 10 * 4^level + 2, an
                           IndexedFaceSet or an Inline mesh file its points
                           plus its face corners.  (A convex piece costs
                           about 0.2 ms a point to build.)  OFF, OBJ and
                           STL files loaded directly are bounded by
                           max_file_bytes alone. */
    int max_sides;      /* largest cylinder_sides accepted (default 1000;
                           at most 100000) */
    const char *const *allow_paths; /* NULL, or a NULL-terminated list of
                           folders from which Inline may also read (each
                           must exist; "/" allows every file).  Not copied:
                           valid during the call only. */
} hs_scene_options;
HS_API void hs_scene_options_init(hs_scene_options *o);

/* Load a scene into a new world, with the default options (limits and
 * Inline rule above), by extension (case ignored): .wrl or
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
 * outside the ranges above or a folder of allow_paths that does not
 * exist.  Changes w. */
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
