/* vertices.h -- exact vertex enumeration of a bounded, full-dimensional
 * polytope P = {x in R^3 : a_i . x <= b_i} by polarity.
 *
 * With c strictly inside P every row has s_i = b_i - a_i . c > 0 and the
 * dual point y_i = a_i / s_i.  The convex hull of the dual points (hull3)
 * is the polar of P - c: its vertices are the rows that define facets of
 * P (the others are redundant), its facets are the vertices of P (the
 * corner rows of a dual facet are tight there) and its edges are the
 * edges of P.  The hull's predicate is the sign of det[a_i b_i] over four
 * rows, which equals the orientation of the dual points for every
 * interior c, so c influences only the insertion order, never the
 * answer.  Each vertex is then solved exactly from three independent
 * corner rows of its dual facet (GMP rationals, rows as written, exact or
 * not), so every returned vertex satisfies every row exactly.
 *
 * Thread-safe on distinct objects; no global state. */
#ifndef HS_VERTICES_H
#define HS_VERTICES_H

#include <gmp.h>

#include "halfspace.h"

typedef struct vertex_set {
    int m;              /* rows of the polytope */
    int nverts;         /* vertices of P */
    mpq_t *q;           /* nverts * 3: the exact vertices (NULL from
                           vertex_enum_doubles) */
    double *x;          /* nverts * 3: their nearest doubles */
    int *tight_start;   /* nverts + 1 offsets into tight */
    int *tight;         /* rows (0-based) with a_i . v = b_i for vertex v,
                           ascending; always at least 3 */
    int nedges;         /* edges of P */
    int *edges;         /* 2 * nedges vertex numbers, pairs (u, v), u < v */
    int nfacets;        /* facets of P */
    unsigned char *is_facet; /* m: 1 for one row per facet of P; 0 for
                                redundant rows (including any duplicate
                                of a facet row other than the one kept) */
    double lo[3], hi[3]; /* a box containing P: lo is the exact minimum
                            of each coordinate over the vertices rounded
                            down, hi the maximum rounded up */
} vertex_set;

/* Vertices of P (n = 3, inequality rows only, bounded, full-dimensional).
 * interior: a point strictly inside P (checked exactly), or NULL to find
 * one with the exact slack LP of the library (max tau s.t.
 * a_i . x + tau <= b_i), which also detects empty and flat polytopes.
 * Returns HS_OK with a new set in *out, or an error with a message:
 * HS_ERR_ARG (NULL, interior point not strictly inside or not finite),
 * HS_ERR_INPUT ("... has N variables; vertex enumeration needs 3",
 * "row K is an equality", "... is empty", "... is not full-dimensional",
 * "... is unbounded"), HS_ERR_NOMEM, HS_ERR_INTERNAL. */
hs_code vertex_enum(const hs_poly *P, const double *interior, vertex_set **out, hs_error *err);

/* The same without the exact rationals: (*out)->q is NULL, every other
 * field is what vertex_enum gives (the doubles, the box, the tight rows,
 * edges and facets are still exact roundings of the exact vertices).
 * Saves building 3 * nverts canonical rationals (a gcd each), about a
 * tenth of an enumeration, for callers that need only the doubles. */
hs_code vertex_enum_doubles(const hs_poly *P, const double *interior, vertex_set **out,
                            hs_error *err);

/* Free a set (NULL is allowed). */
void vertex_set_free(vertex_set *vs);

#endif
