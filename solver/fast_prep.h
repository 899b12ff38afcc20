/* fast_prep.h -- what the fast engine computes once per polyhedron, on the
 * first query that needs it (fast_prep_get; thread-safe, so queries on a
 * const polyhedron may run from many threads):
 * row norms, a strictly interior point with its slacks, a bounding-box
 * hint, and (on the first lookup) the direction map.  Only the interior
 * point is certified (every row holds strictly, checked with exact-sign
 * predicates); the box hint, the slacks and the map steer the search and
 * never decide an answer. */
#ifndef HS_FAST_PREP_H
#define HS_FAST_PREP_H

#include "halfspace.h"

/* From this many variables on, the preparation uses the floating-point
 * simplex (solver/lpd.c) instead of Seidel's LP, and builds no direction
 * map (map_cells 0: queries scan the rows for candidates). */
#define FAST_PREP_SIMPLEX_DIM 5

typedef struct fast_prep {
    const char *why;      /* NULL when eligible; otherwise why not (static
                             text) and nothing below is set */
    int n, m;
    double *norm;         /* m: Euclidean norm of a_i (rounded) */
    double *center;       /* n: certified strictly interior point */
    double *center_slack; /* m: b_i - a_i . center (rounded, > 0) */
    double inradius;      /* margin of the center (approximate) */
    double *center_mag;   /* m: sum_j |a_ij center_j| + |b_i| */
    double *lo, *hi;      /* n: box hint around the polyhedron */
    /* Direction map: the faces that a ray from the center along a
     * direction crosses first, for seed 002's candidate faces (and the
     * rows most likely violated at a point in that direction) without a
     * pass over the rows.  Directions are binned on the 2n faces of the
     * cube [-1,1]^n, each face cut into map_g^(n-1) cells; cell c lists up
     * to map_len rows, those with the largest a_i . d / center_slack_i for
     * the direction d at the cell's center: the ray center + l d meets row
     * i at l = center_slack_i / (a_i . d), so the first listed is crossed
     * first (-1 pads short lists).  On a near-spherical polyhedron these
     * are the rows whose normals are best aligned with d; on an elongated
     * one, or one cut by a few planes near its center, they are not, and
     * the crossing order is what finds the violated rows. */
    int map_g, map_len, map_cells; /* 0 cells: no map (FAST_PREP_SIMPLEX_DIM
                                       or more variables) */
    /* map_cells * map_len, made by the first lookup (it costs about as much
     * as the rest of the preparation, and many polyhedra, such as bodies
     * added to a world that never meet another, are never looked up):
     * installed with an atomic compare-and-swap like the preparation */
    _Atomic(void *) map_rows; /* (int: map_cells * map_len) */
    /* The inner star (fast_star.h): star_g cells along each cube-face axis,
     * star_cells lengths (0 cells: no star), made on first use in one block
     * (freed with free) and installed like the map */
    int star_g, star_cells;
    _Atomic(void *) star; /* (struct fast_star) */
    const hs_poly *poly;  /* the system prepared (it owns this preparation) */
} fast_prep;

/* The candidate rows of fp for direction d (n values, not all zero):
 * *count rows, crossed first first (see the map above).  NULL with *count = 0 when fp has no
 * map, or when memory for it ran out (queries then scan the rows).  The
 * first lookup builds the map; thread-safe (racing threads build the same
 * map and one copy is kept). */
const int *fast_prep_lookup(const fast_prep *fp, const double *d, int *count);

/* The cube cells of directions shared by the map and the star: with g
 * cells along each axis of each of the 2n faces of [-1,1]^n, the cell of
 * direction d (n values, not all zero; its largest |d_k| picks the face)
 * and the direction at the center of a cell (on the cube's surface). */
int fast_prep_cell(int n, int g, const double *d);
void fast_prep_cell_center(int n, int g, int cell, double *d);

/* Ask for the cache line of direction d's list (no effect before the map
 * is made): a query that will look it up soon calls this first. */
void fast_prep_prefetch(const fast_prep *fp, const double *d);

/* A part of fp made on first use: the block in *slot, or make(fp)
 * installed there by an atomic compare-and-swap (a thread that loses the
 * race frees its copy and returns the one installed first); NULL when make
 * runs out of memory.  The direction map and the inner star use it. */
void *fast_prep_lazy(const fast_prep *fp, _Atomic(void *) *slot,
                     void *(*make)(const fast_prep *fp));

/* The map built now if fp has one (as by a first lookup): 0, or -1 when
 * out of memory. */
int fast_prep_map_ready(const fast_prep *fp);

/* The preparation of p: *out, or *out = NULL with *why (static text; why
 * may be NULL) when p is not eligible for the fast path (then every query
 * with p goes to the exact engine): equality rows, rows that are not
 * exactly doubles, no strictly interior point found (empty or
 * lower-dimensional), more than SEIDEL_MAX_DIM - 1 variables, or a plain
 * system built without preparation.  Built on the first call and kept in
 * p (installed with an atomic compare-and-swap: two threads racing build
 * the same data and one copy is kept), so later calls cost a load.
 * Returns 0, or -1 when out of memory (nothing is kept; a later call
 * tries again). */
int fast_prep_get(const hs_poly *p, const fast_prep **out, const char **why);
/* The same, when the caller knows points of p (npts points of n
 * coordinates, e.g. its vertices): their box and centroid replace the
 * box and centre LPs if the centroid is certified strictly inside (the
 * LPs run otherwise).  Only the first call that builds the preparation
 * uses them. */
int fast_prep_get_seeded(const hs_poly *p, const double *pts, int npts, const fast_prep **out,
                         const char **why);
void fast_prep_free(fast_prep *fp);

#endif
