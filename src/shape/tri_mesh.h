/* tri_mesh.h -- the pairing of the triangles of two meshes (tri_mesh.c:
 * seed 000's raw method and uniform grid, and a bounding-volume hierarchy,
 * tri_bvh.c), each pair decided by tri_tri_classify. */
#ifndef HS_TRI_MESH_H
#define HS_TRI_MESH_H

#include "halfspace.h"
#include "src/shape/tri_bvh.h"

/* A mesh in its own frame, indexed for pairing. */
typedef struct tri_mesh tri_mesh;

/* Build from nverts points (xyz) and ntris index triples; NULL when out of
 * memory.  The caller keeps the arrays alive while the mesh is used. */
tri_mesh *tri_mesh_new(const double *verts, int nverts, const int *tris, int ntris);
void tri_mesh_free(tri_mesh *m);

/* The mesh's hierarchy (built by tri_mesh_new), for convex-mesh tests. */
const tri_bvh *tri_mesh_bvh(const tri_mesh *m);

/* One triangle pair found: triangle ia of the first mesh, ib of the
 * second, its status and witness (in the first mesh's frame).  Return
 * nonzero to stop the search. */
typedef tri_bvh_pair_fn tri_pair_fn;

/* Every pair of triangles of a (in its frame) and b (mapped into a's frame
 * by the pose T, row-major 4x4) that meet, reported through fn; method
 * HS_TRI_GRID (a uniform grid of cells, cell size from the average
 * triangle extent, as in seed 000), HS_TRI_RAW (all pairs) or HS_TRI_BVH
 * (the two hierarchies, tri_bvh_pairs).  All report the same pairs with
 * the same statuses and witnesses, each in its own order.  *tests counts
 * the triangle-triangle tests made.  Scratch memory comes from malloc per
 * call (none for HS_TRI_BVH).  Thread-safe on const meshes.  Returns HS_OK,
 * HS_ERR_NOMEM, or HS_ERR_ARG when a point of b mapped by T leaves the
 * double range. */
hs_code tri_mesh_pairs(const tri_mesh *a, const tri_mesh *b, const double T[16],
                       hs_tri_method method, tri_pair_fn fn, void *user, long *tests);

#endif
