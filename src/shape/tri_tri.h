/* tri_tri.h -- exact triangle-triangle classification (tri_tri.c: seed
 * 000's test made robust). */
#ifndef HS_TRI_TRI_H
#define HS_TRI_TRI_H

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

#endif
