/* ccd_peer.h -- libccd's view of a polytope for bench/pairs: its vertices
 * (the library's exact vertex enumeration, rounded to the nearest
 * doubles), their average as the center that MPR needs, the vertex graph,
 * and two support functions:
 *
 *   scan   the vertex of largest dot product with the direction, by a
 *          linear scan over all vertices (what a plain convex-hull shape
 *          does);
 *   hill   hill climbing on the vertex graph (edges of the polytope):
 *          from the vertex the last call of this query returned, move to
 *          the neighbour of largest dot product while it improves.  A
 *          linear function has no local maximum on a polytope's graph
 *          other than the global one, so it ends at a support vertex (up
 *          to the rounding of the vertices and of the dot products).  The
 *          start is reset to vertex 0 before every query (ccd_shape_reset),
 *          so a query does not profit from an earlier query on the same
 *          pair: the cold cost.
 *
 * Vertices joined by an edge shorter than 1e-9 of the polytope's extent
 * are merged (the edge contracted): the rows of a mesh hull, written in
 * doubles and rounded outward, split each hull vertex of degree k into
 * k - 2 vertices a rounding apart, which would double the scan's work
 * and leave the hill climb on flat ground; libccd is given the hull's
 * vertices as a user of it would.  Tangent-sphere polytopes have no such
 * edges.
 *
 * The vertex enumeration is setup work, done outside any timing. */
#ifndef HS_BENCH_CCD_PEER_H
#define HS_BENCH_CCD_PEER_H

#include <ccd/ccd.h>

#include "halfspace.h"

typedef struct ccd_shape {
    double *v;       /* nv * 3 */
    int nv;
    int *adj_start;  /* nv + 1 offsets into adj */
    int *adj;        /* neighbours of each vertex */
    double center[3];
    int last;        /* hill climbing: where the next call starts */
    int merged;      /* vertices merged into a neighbour (see above) */
} ccd_shape;

/* The shape of P (n = 3, bounded, full-dimensional); interior is a point
 * strictly inside P or NULL (then the enumeration finds one; also used
 * when the given point is not strictly inside).  HS_OK or an error of the
 * vertex enumeration. */
hs_code ccd_shape_from_poly(const hs_poly *P, const double *interior, ccd_shape *s,
                            hs_error *err);
void ccd_shape_free(ccd_shape *s);
/* Start the next hill climb at vertex 0. */
void ccd_shape_reset(ccd_shape *s);

/* libccd callbacks; obj is a ccd_shape (hill updates its `last`). */
void ccd_peer_support_scan(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out);
void ccd_peer_support_hill(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out);
void ccd_peer_center(const void *obj, ccd_vec3_t *center);

#endif
