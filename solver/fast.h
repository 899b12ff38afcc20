/* fast.h -- the fast engine: seed 002's structure (a violated inequality
 * becomes an equality, a variable is eliminated, recurse; candidate faces
 * taken from the s->t direction) made linear in expected time as Seidel's
 * randomized incremental LP, computed in doubles and certified with
 * exact-sign predicates.  When a predicate cannot certify the answer the
 * query falls back to the exact engine (counted in hs_result). */
#ifndef HS_FAST_H
#define HS_FAST_H

#include "halfspace.h"

hs_code fast_feasible(const hs_poly *P, const hs_options *opt, hs_result *r, hs_error *err);
hs_code fast_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt, hs_result *r,
                       hs_error *err);

struct fast_prep;

/* A polyhedron as the fast engine sees it in the frame of a query: its
 * rows there, and its once-per-polyhedron preparation made in its own
 * frame.  A world expresses one piece in the other's frame by an affine
 * map; the rows are then the transformed (rounded) rows, the answer is
 * exact for them, and only the steering data comes from the preparation:
 * norms and slacks (unchanged by rigid motions, mere weights otherwise),
 * the direction map (a query direction d is looked up as lookup . d) and
 * the box hint. */
typedef struct fast_view {
    int m;
    const double *a, *b;          /* m rows of n coefficients, m right sides */
    const struct fast_prep *prep; /* the preparation (own frame) */
    const double *center;         /* interior point in this frame */
    int center_certified;         /* center certified strictly inside these rows */
    const double *lookup;         /* n*n row-major, or NULL for the identity */
    const double *lo, *hi;        /* box hint in this frame */
    const hs_poly *poly;          /* the same rows as an hs_poly, or NULL (one is
                                     built for an exact fallback) */
    int use_star;                 /* the rows are the preparation's own, in its own
                                     frame: its inner star (fast_star.h) may
                                     certify points inside them */
} fast_view;

/* The view of a polyhedron in its own frame (its preparation built if
 * needed: v->prep is NULL when p is not eligible).  0, or -1 when out of
 * memory. */
int fast_view_of_poly(fast_view *v, const hs_poly *p);

/* The fast engine on two views of dimension n. */
hs_code fast_intersect_views(const fast_view *A, const fast_view *B, int n,
                             const hs_options *opt, hs_result *r, hs_error *err);

/* A hint from an earlier answer on (nearly) the same pair, for queries
 * repeated as bodies move a little (temporal coherence): the rows of a
 * Farkas certificate (disjoint) or a common interior point (overlap).  It
 * is only ever tried through the same certified predicates as a fresh
 * answer, so a stale or wrong hint costs a little time, never an answer.
 * A touching hint is the basis of a contact certificate (fast_touch.c); a
 * face hint, the two opposite faces of a face-on-face contact and the
 * point x whose coordinates fixed its contact point (fq_try_face_contact). */
typedef enum fast_hint_kind {
    FAST_HINT_NONE = 0,
    FAST_HINT_DISJOINT,
    FAST_HINT_OVERLAP,
    FAST_HINT_TOUCHING,
    FAST_HINT_FACE
} fast_hint_kind;
#define FAST_HINT_MAX_DIM 8
#define FAST_HINT_BOX 2
typedef struct fast_hint {
    fast_hint_kind kind;
    int which[FAST_HINT_MAX_DIM + 1]; /* disjoint, touching: n + 1 rows, polyhedron 0/1 ... */
    int row[FAST_HINT_MAX_DIM + 1];   /* ... and row index in it (face: the first two);
                                         disjoint: which FAST_HINT_BOX, a box bound of
                                         zero weight completing the basis, row 2 var +
                                         upper */
    double x[FAST_HINT_MAX_DIM];      /* overlap: the point; face: the contact point */
} fast_hint;
/* Only the hint: 1 when it certifies (r holds the answer), 0 when not, -1
 * when out of memory (err filled).  A disjoint hint reads only its own
 * rows of A and B, so a caller may fill just those rows of a view first. */
int fast_try_hint(const fast_view *A, const fast_view *B, int n, const hs_options *opt,
                  const fast_hint *hint, hs_result *r, hs_error *err);
/* The same, trying `hint` (may be NULL) first; *next (may be NULL)
 * receives the hint for the next query on this pair. */
hs_code fast_intersect_views_hinted(const fast_view *A, const fast_view *B, int n,
                                    const hs_options *opt, const fast_hint *hint, hs_result *r,
                                    fast_hint *next, hs_error *err);

#endif
