/* triangles.h -- exact triangle-triangle classification (seed 000's test
 * made robust) and the pairing of the triangles of two meshes (seed 000's
 * raw method and uniform grid). */
#ifndef HS_TRIANGLES_H
#define HS_TRIANGLES_H

#include "halfspace.h"

/* Two triangles p[0..2], q[0..2] (points in R^3, doubles, taken exactly):
 * HS_DISJOINT (no common point), HS_TOUCHING (common points, but the
 * relative interiors do not meet: vertex, edge or boundary contact, or
 * coplanar triangles meeting only along their boundaries) or HS_OVERLAP
 * (the relative interiors meet: the triangles cross, or are coplanar with
 * overlapping interiors).  Every decision uses exact orientation
 * predicates.  *witness (if not NULL) receives a common point (nearest
 * doubles) when they meet.  A degenerate triangle (collinear corners) is
 * handled as the segment or point it is. */
hs_status tri_tri_classify(const double p[3][3], const double q[3][3], double witness[3]);

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
