/* tri_mesh.h -- the pairing of the triangles of two meshes (tri_mesh.c:
 * seed 000's raw method and uniform grid), each pair decided by
 * tri_tri_classify. */
#ifndef HS_TRI_MESH_H
#define HS_TRI_MESH_H

#include "halfspace.h"

/* A mesh in its own frame, indexed for pairing. */
typedef struct tri_mesh tri_mesh;

/* Build from nverts points (xyz) and ntris index triples; NULL when out of
 * memory.  The caller keeps the arrays alive while the mesh is used. */
tri_mesh *tri_mesh_new(const double *verts, int nverts, const int *tris, int ntris);
void tri_mesh_free(tri_mesh *m);

/* One triangle pair found: triangle ia of the first mesh, ib of the
 * second, its status and witness (in the first mesh's frame).  Return
 * nonzero to stop the search. */
typedef int (*tri_pair_fn)(void *user, int ia, int ib, hs_status status, const double w[3]);

/* Every pair of triangles of a (in its frame) and b (mapped into a's frame
 * by the pose T, row-major 4x4) that meet, reported through fn; method
 * HS_TRI_GRID (a uniform grid of cells, cell size from the average
 * triangle extent, as in seed 000) or HS_TRI_RAW (all pairs).  *tests
 * counts the triangle-triangle tests made.  Scratch memory comes from
 * malloc per call.  Thread-safe on const meshes.  Returns HS_OK,
 * HS_ERR_NOMEM, or HS_ERR_ARG when a point of b mapped by T leaves the
 * double range. */
hs_code tri_mesh_pairs(const tri_mesh *a, const tri_mesh *b, const double T[16],
                       hs_tri_method method, tri_pair_fn fn, void *user, long *tests);

#endif
