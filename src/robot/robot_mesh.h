/* robot_mesh.h -- mesh files of URDF collision elements: where they are
 * (robot_paths.c: package://, file://, absolute and relative names), and
 * their contents as points and triangles (robot_meshes.c: STL, OBJ and
 * OFF by the scene readers, every other format through Assimp,
 * robot_assimp.c). */
#ifndef HS_ROBOT_MESH_H
#define HS_ROBOT_MESH_H

#include <stddef.h>

#include "halfspace.h"

/* Points (3 doubles each) and, when asked for, triangles (3 indices
 * each, 0-based) of a mesh file. */
typedef struct robot_mesh {
    double *pts;
    int npts;
    int *tris;
    int ntris;
    int line;      /* the line of the file to name in errors about the
                      mesh as a whole (0 when it has none) */
    char *note;    /* NULL, or why the file was read by Assimp after the
                      scene reader refused it (its message) */
} robot_mesh;

void robot_mesh_free(robot_mesh *m);

/* The path of the file a URDF filename means: a new string (free()), or
 * NULL when no candidate exists (then `looked` receives the candidates
 * tried, cut to `size` bytes) or out of memory (*nomem set).  dir is the
 * URDF's folder. */
char *robot_find_mesh(const char *filename, const char *dir, const hs_robot_options *o,
                      char *looked, size_t size, int *nomem);

/* Read the mesh file at path (size at most max_bytes): with tris, its
 * triangles (faces of nonzero area, polygons as fans) and their points;
 * without, only the points whose convex hull the piece is (the corners
 * of its faces of nonzero area, equal points merged: the points a chain
 * file's `mesh` piece uses).  Errors "FILE:LINE: what" located in the
 * mesh file.  An STL, OBJ or OFF file the scene reader refuses (an OBJ
 * with a statement it does not know, say) is read by Assimp instead, with the refusal
 * kept in out->note for a warning. */
hs_code robot_mesh_read(const char *path, int tris, long max_bytes, robot_mesh *out,
                        hs_error *err);

/* The same through Assimp (any format it reads; coordinates are floats;
 * every node's transform applied, Collada's up axis ignored). */
hs_code robot_assimp_read(const char *path, int tris, robot_mesh *out, hs_error *err);

#endif
