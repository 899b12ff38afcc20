/* tri_box.h -- a quick, certified proof that a triangle misses an
 * axis-aligned box (tri_box.c). */
#ifndef HS_TRI_BOX_H
#define HS_TRI_BOX_H

/* 1 when the triangle t (three points, finite doubles) and the box
 * [lo, hi] (lo <= hi componentwise) are certainly disjoint: a separating
 * axis among the triangle's normal and the nine cross products of its
 * edges with the box's axes, evaluated in floating point with a rigorous
 * error bound.  0 when no axis proves it (they may meet, touch, or just
 * miss by less than the bound); never 1 for sets that meet.  The box's
 * own axes are not tried: callers test the boxes first.  Pure function;
 * thread-safe. */
int tri_box_separated(const double t[3][3], const double lo[3], const double hi[3]);

#endif
