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

#include <math.h>

#include "halfspace.h"
#include "polytope/hpoly.h"

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
    /* Unit rows (3 variables only): row i divided by its norm and rounded
     * to float, a_i1, a_i2, a_i3, b_i (16 bytes a row, half of the
     * doubles): passes over every row read these, and decide from them
     * every row whose value is clear of the rounding (fast_unit_noise); the
     * others are read again in doubles.  A row that float cannot hold to
     * FAST_UNIT_REL (a nonzero entry of magnitude outside [2^-100, 2^100]
     * after the division, or a zero row) is stored as NaNs, which no test
     * accepts.  Made by the first pass that wants them (many polyhedra are
     * never read whole) and installed like the direction map. */
    _Atomic(void *) unit; /* (float: 4 m) */
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
    /* 1 + the skeleton's elongation (fast_prep_skeleton) times 16,
     * rounded down, stored when the map is made (0 before, and where
     * there is no skeleton): read with the structure, it spares a round
     * body's query the skeleton's cache line */
    _Atomic int elongation16;
    /* The inner star (fast_star.h): star_g cells along each cube-face axis,
     * star_cells lengths (0 cells: no star), made on first use in one block
     * (freed with free) and installed like the map */
    int star_g, star_cells;
    _Atomic(void *) star; /* (struct fast_star) */
    /* The rows at the extreme vertex along each map cell (fast_support.h),
     * made on first use like the star */
    _Atomic(void *) support;
    /* Per face, the rows bounding it in its plane (fast_facet.h): m
     * pointers, made on the first contact proof that asks */
    _Atomic(void *) facets;
    const hs_poly *poly;  /* the system prepared (it owns this preparation) */
} fast_prep;

/* The relative error of a unit row's entries: the division rounds by at
 * most 2^-53 and the float by 2^-24, so |u - a/|a|| <= (2^-24 + 2^-52) |u|
 * for every entry u of a row that float holds (normal floats); 2^-23
 * covers it with room. */
#define FAST_UNIT_REL 0x1p-23

/* fp's unit rows (made now if they are not yet), or NULL when fp has none
 * (not 3 variables) or memory ran out.  Thread-safe. */
const float *fast_prep_unit(const fast_prep *fp);

/* Are a and b (the arrays a caller reads) fp's own polyhedron's rows, in
 * its own frame, and not a mapped or moved copy? */
static inline int fast_prep_own_rows(const fast_prep *fp, const double *a, const double *b)
{
    return fp && a == fp->poly->a && b == fp->poly->b;
}

/* The unit rows of fp, when the arrays a and b that a caller reads are fp's
 * own polyhedron's (fast_prep_own_rows); else NULL. */
static inline const float *fast_prep_unit_rows(const fast_prep *fp, const double *a,
                                               const double *b)
{
    return fp && fp->n == 3 && fast_prep_own_rows(fp, a, b) ? fast_prep_unit(fp) : NULL;
}

/* Unit row u at x (3 values): u1 x1 + u2 x2 + u3 x3 - u4 computed in
 * doubles is within fast_unit_noise(xmax) + FAST_UNIT_K |u4| of the exact
 * (a . x - b) / w of the row's own numbers (w > 0 the norm it was divided
 * by), when |x_j| <= xmax: the entries are off by FAST_UNIT_REL, the sum
 * by gamma(5), both relative to sum |u_j x_j| + |u4|; sum |u_j| <= 1.75 (a
 * rounded unit vector: sqrt(3) (1 + 2^-22)); 2^-1000 covers products that
 * underflow; the factors (1 + 16 u) and (1 + 2^-40), the bound's own
 * rounding.  A NaN row gives NaN, which compares false with everything. */
#define FAST_UNIT_K ((FAST_UNIT_REL + 6 * 0x1p-53) * (1 + 16 * 0x1p-53))
static inline double fast_unit_noise(double xmax)
{
    return FAST_UNIT_K * 1.75 * xmax * (1 + 0x1p-40) + 0x1p-1000;
}
/* The computed value of unit row u at x, and in *bound its bound above
 * (noise: fast_unit_noise for x). */
static inline double fast_unit_value(const float *u, const double *x, double noise,
                                     double *bound)
{
    *bound = noise + FAST_UNIT_K * fabs(u[3]);
    return u[0] * x[0] + u[1] * x[1] + u[2] * x[2] - u[3];
}

/* The candidate rows of fp for direction d (n values, not all zero):
 * *count rows, in the order in which the ray from the center along d
 * crosses them (the map above).  NULL with *count = 0 when fp has no
 * map, or when memory for it ran out (queries then scan the rows).  The
 * first lookup builds the map; thread-safe (racing threads build the same
 * map and one copy is kept). */
const int *fast_prep_lookup(const fast_prep *fp, const double *d, int *count);

/* The skeleton of fp (3 variables with a map; else NULL; made with the
 * map, thread-safe): 7 doubles, the two ends of a segment through the
 * center along the longest chord (each point of it inside the polyhedron
 * up to rounding: it steers, never decides), then that chord's length
 * over twice the inradius (1 on a ball, about e on an ellipsoid 1:e). */
const double *fast_prep_skeleton(const fast_prep *fp);

/* The cube cells of directions shared by the map and the star: with g
 * cells along each axis of each of the 2n faces of [-1,1]^n, the cell of
 * direction d (n values, not all zero; its largest |d_k| picks the face)
 * and the direction at the center of a cell (on the cube's surface). */
int fast_prep_cell(int n, int g, const double *d);
void fast_prep_cell_center(int n, int g, int cell, double *d);

/* Ask for the cache line of direction d's list (no effect before the map
 * is made): a query that will look it up soon calls this first.  Returns
 * the list's cell, for fast_prep_list, or -1 before the map is made. */
int fast_prep_prefetch(const fast_prep *fp, const double *d);

/* The list of a cell that fast_prep_prefetch returned: what
 * fast_prep_lookup gives for the same direction, its cell not computed
 * again. */
const int *fast_prep_list(const fast_prep *fp, int cell, int *count);

/* A part of fp made on first use: the block in *slot, or make(fp)
 * installed there by an atomic compare-and-swap (a thread that loses the
 * race frees its copy and returns the one installed first); NULL when make
 * runs out of memory.  The direction map and the inner star use it. */
void *fast_prep_lazy(const fast_prep *fp, _Atomic(void *) *slot,
                     void *(*make)(const fast_prep *fp));

/* The map's shape (map_g, map_len, map_cells, and the star's cells) for
 * p, fixed when the preparation is made (fast_map.c). */
void fast_map_plan(const hs_poly *p, fast_prep *fp);

/* The direction map's lists (map_cells lists of map_len rows, the
 * skeleton after them in 3-D), made on first use (fast_prep_lazy): NULL
 * without a map or when out of memory.  Thread-safe. */
const int *fast_map_rows(const fast_prep *fp);

/* The map and the unit rows built now if fp has them (as by a first
 * lookup and a first pass): 0, or -1 when out of memory. */
int fast_prep_lazy_ready(const fast_prep *fp);

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
