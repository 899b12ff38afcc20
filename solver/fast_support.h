/* fast_support.h -- per direction cell of the direction map, the rows
 * tight at the polyhedron's vertex extreme along the cell's center
 * direction (its support vertex there): where a disjoint pair's Farkas
 * certificate usually lies.
 *
 * The direction map lists the rows that a ray from the center crosses
 * first; on a round body those are also the rows at the extreme vertex,
 * but on the hull of a real mesh (an off-center interior point, facets of
 * very different sizes) they mostly are not: of 57 disjoint hull pairs
 * of bench/pairs, the LP on the two maps' lists along t - s found a
 * certificate for 15, with these rows added for 50.  The margin LP starts
 * from both (fast_rounds.c: seed_candidates).
 *
 * The rows steer and never decide: the LP's basis is certified afterwards
 * like any other.  A cell's rows come from Seidel's LP in doubles
 * (maximise e . x over the rows, e the cell's center direction), then one
 * pass over the rows for those tight at its optimum to a relative 1e-9
 * (a mesh hull's rounded facets split a vertex into a cluster a rounding
 * apart), the FAST_SUPPORT_MAX tightest kept of those that the cell's map
 * list does not hold near its front (FAST_SUPPORT_SEEN).
 *
 * Memory: one block of map_cells * (1 + FAST_SUPPORT_MAX) ints (32 bytes
 * a cell), installed on first use like the direction map; each cell is
 * made by the first lookup that lands in it (a body is met from a few
 * directions only) and published with a release store of its count:
 * thread-safe (racing threads compute the same rows). */
#ifndef HS_FAST_SUPPORT_H
#define HS_FAST_SUPPORT_H

#include "solver/fast_prep.h"
#include "solver/seidel.h"

#define FAST_SUPPORT_MAX 7
/* Left out of a cell's rows: those among the first FAST_SUPPORT_SEEN of
 * the cell's direction-map list, which every LP seed holds already (on a
 * round body the extreme vertex's rows are there: its cells list none). */
#define FAST_SUPPORT_SEEN 6
/* Queries look the rows up on polyhedra of this many rows or more (mesh
 * hulls: 140-436 rows in bench/pairs); on fewer the LP's rounds find the
 * certificate's rows soon enough, and contacts of tangent-sphere bodies
 * at m = 20 and 60 were 3-7% slower with them. */
#define FAST_SUPPORT_MIN_ROWS 100

/* The rows of fp tight at its vertex extreme along the center of map cell
 * `cell` (0 <= cell < fp->map_cells; 3 variables only), into out (room
 * for FAST_SUPPORT_MAX): how many, 0 when fp has no map or memory or the
 * LP found none.  When the cell is not made yet it is made now, with sw
 * (reserved by the caller for fp->m rows of 3 variables) and scratch (fp->m
 * ints).  Thread-safe. */
int fast_support_rows(const fast_prep *fp, int cell, seidel_work *sw, int *scratch, int *out);

#endif
