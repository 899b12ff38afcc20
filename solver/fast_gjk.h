/* fast_gjk.h -- a first answer for two 3-D polytopes from their vertex
 * graphs (fast_graph.h), in doubles: the GJK method on the Minkowski
 * difference A - B (Gilbert, Johnson and Keerthi 1988, in the boolean
 * form that stops at the first separating direction or at a tetrahedron
 * around the origin), with supports found by walking the graphs.
 *
 * Nothing here is certified.  A separating direction names the vertices
 * of A and B extreme along it, whose tight rows hold a Farkas
 * certificate (the caller's LP finds and certifies it); a common point
 * must be certified strictly inside both rows by row. */
#ifndef HS_FAST_GJK_H
#define HS_FAST_GJK_H

#include "solver/fast_graph.h"

typedef enum fast_gjk_status {
    FAST_GJK_DISJOINT, /* dir, va, vb set */
    FAST_GJK_OVERLAP,  /* point set */
    FAST_GJK_UNSURE    /* no progress, a flat simplex, or the step limit */
} fast_gjk_status;

typedef struct fast_gjk_out {
    double dir[3];   /* max over A of dir . x < min over B (in doubles) */
    int va, vb;      /* the vertices of A along dir and of B along -dir */
    double point[3]; /* a point of both (a combination of their vertices) */
    int steps;       /* supports computed */
    const char *why; /* FAST_GJK_UNSURE: why (static text) */
} fast_gjk_out;

/* The method from direction d0 (3 values, not all zero; from A towards B
 * is the natural start, e.g. t - s), on graphs with nverts > 0.  Pure
 * function of its arguments; thread-safe. */
fast_gjk_status fast_gjk(const fast_graph *A, const fast_graph *B, const double *d0,
                         fast_gjk_out *out);

#endif
