/* geom.h -- the geometry of one piece, in its own frame (geom.c): a convex
 * polytope or a triangle mesh, shared by reference counting between the
 * bodies and chain links that hold it. */
#ifndef HS_GEOM_H
#define HS_GEOM_H

#include "halfspace.h"
#include "src/shape/tri_mesh.h"

typedef enum piece_kind { PIECE_CONVEX, PIECE_MESH } piece_kind;

/* Geometry of one piece in its body's frame, shared by clones (refs). */
typedef struct geom {
    int refs;
    piece_kind kind;
    double lo[3], hi[3];  /* box in the body frame, rounded outward */
    hs_obb obb;           /* oriented box in the body frame (piece_obb.c) */
    /* convex: the half-space system is the piece; vertices and faces are
     * derived from it exactly (nearest doubles) */
    hs_poly *poly;
    int nverts;
    double *verts;        /* nverts * 3 */
    int nfaces;
    int *face_start;      /* nfaces + 1 offsets into face_vert */
    int *face_vert;       /* corners of face f, counterclockwise from outside */
    int *face_row;        /* nfaces: the row of poly that is this face */
    /* mesh: triangles, taken exactly */
    int nmv, ntris;
    double *mv;           /* nmv * 3 */
    int *tris;            /* ntris * 3 */
    tri_mesh *index;
} geom;

/* The oriented box of g from its points (convex: the rows' exact vertices
 * as nearest doubles, rounded = 1; mesh: its points, rounded = 0),
 * widened for that rounding and, like the piece boxes, by 2^-30 of its
 * size for the rounding of rows mapped into another body's frame. */
hs_code geom_fit_obb(geom *g, const double *pts, int n, int rounded, hs_error *err);

/* The oriented box of g set to `box` (exact: the piece's own box),
 * widened for mapped rows as geom_fit_obb does. */
void geom_set_obb(geom *g, const hs_obb *box);

/* Geometry refcounting. */
void geom_retain(geom *g);
void geom_release(geom *g);

/* New convex geometry from the system p (body frame; n = 3, bounded,
 * full-dimensional): vertices, faces and box are derived exactly.  Takes
 * ownership of p. */
geom *geom_convex(hs_poly *p, hs_error *err);
/* New mesh geometry (copies the arrays). */
geom *geom_mesh(const double *verts, int nverts, const int *tris, int ntris, hs_error *err);

/* Convex piece from n points (the exact hull, one row per facet).  The
 * _placed form first maps pts (overwritten) by the rigid pose place (NULL:
 * none).  The reference count of a new geometry is 0: its first holder
 * retains it. */
geom *geom_from_points(const double *pts, int n, hs_error *err);
geom *geom_from_points_placed(double *pts, int n, const double place[16], hs_error *err);
/* The box [-half, half] (half[] finite, positive, halves of doubles): its
 * 6 rows, 8 corners and 6 faces written down exactly, without a hull or
 * a vertex enumeration. */
geom *geom_box(const double half[3], hs_error *err);

/* Convex piece from a copy of p placed by `place` (NULL: as it is). */
geom *geom_convex_placed(const hs_poly *p, const double place[16], hs_error *err);
/* Mesh piece from the caller's arrays after checks (finite, indices in
 * range, no degenerate triangle), placed by `place` (NULL: none). */
geom *geom_mesh_checked(const double *verts, int nverts, const int *tris, int ntris,
                        const double place[16], hs_error *err);

/* The boundary of g in new arrays (see hs_body_piece_boundary). */
hs_code geom_boundary(const geom *g, int *is_convex, double **verts, int *nverts,
                      int **face_start, int **face_vert, int *nfaces, hs_error *err);

#endif
