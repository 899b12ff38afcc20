/* fast_star.h -- a certified inner star of a polyhedron around its
 * interior point: for each cell of directions (the direction map's cube
 * cells, finer), a length rho such that every point c + w, with w pointing
 * into the cell and |w| < rho, is strictly inside every row.  One lookup
 * then certifies that a point is strictly inside, without reading the
 * rows; two settle a deep overlap at once (a common point of the two stars
 * on the segment between the centers).  A star can only say "inside": when
 * it cannot, the rows are read as before.
 *
 * The star is a statement about the polyhedron's own rows in its own
 * frame (fast_prep.poly); a view whose rows were mapped into another frame
 * and rounded is a different polyhedron and must not use it.
 *
 * A small block (the least plane distance and one float per cell, 384
 * cells in 3-D) is made on first use and installed with an atomic
 * compare-and-swap like the direction map; each cell's length is made by
 * the first lookup that lands in it (about one dot product per row) and
 * stored atomically: thread-safe.
 */
#ifndef HS_FAST_STAR_H
#define HS_FAST_STAR_H

#include "solver/fast_prep.h"

/* Is x (n = fp->n coordinates, own frame) certified strictly inside every
 * row of fp->poly by the star?  1 yes; 0 when the star cannot tell (or has
 * no memory).  Thread-safe. */
int fast_star_inside(const fast_prep *fp, const double *x);

/* A length rho >= 0 such that the points center + l d / |d| with
 * 0 <= l < rho are strictly inside, up to the rounding of whoever forms
 * them (d: n values, not all zero); 0 when unknown.  cell: d's cell as
 * fast_star_prefetch returned it, or -1 (computed here).  A caller
 * certifies the points it forms with fast_star_inside.  Thread-safe. */
double fast_star_reach(const fast_prep *fp, const double *d, int cell);

/* Ask for the cache line of the length for direction d (no effect before
 * the star is made): a query that will look it up soon calls this first.
 * Returns d's cell, for fast_star_reach, or -1 before the star is
 * made. */
int fast_star_prefetch(const fast_prep *fp, const double *d);

/* The star made now (as by a first use): 0, or -1 when out of memory. */
int fast_star_ready(const fast_prep *fp);

#endif
