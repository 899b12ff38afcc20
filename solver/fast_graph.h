/* fast_graph.h -- the vertex graph of a 3-D polytope, for the fast
 * engine's support walk (fast_gjk.h): its vertices as doubles, each
 * vertex's neighbours along the edges and the rows tight at it, and a
 * table of start vertices by direction.
 *
 * Built on first use from the exact vertex enumeration (vertices.h:
 * exact combinatorics, vertices rounded to the nearest doubles) and kept
 * in the preparation like the direction map (fast_prep_lazy: thread-safe).
 * The graph only steers the search: a walk that stops at a wrong vertex
 * gives rows that fail to certify, and the query goes on by the LP. */
#ifndef HS_FAST_GRAPH_H
#define HS_FAST_GRAPH_H

#include "solver/fast_prep.h"

/* Polytopes with at least this many rows (3 variables) get a graph: the
 * fast engine tries GJK first when both have one (engine_fast.c), and
 * hs_poly_fast_ready builds it. */
#define FAST_GRAPH_MIN_ROWS 16

/* One vertex in one cache line, what a step of the walk reads: its point
 * and, at a simple vertex (3 tight rows with independent normals, 3
 * neighbours), the inverse of the matrix of its rows' unit normals, so
 * that the multipliers l = cone d of a direction d (l_k for tight row k)
 * say at once whether the vertex is extreme along d (no l_k < 0) and
 * which edge gains most (the one leaving row k of the least l_k). */
typedef struct fast_vertex {
    double x[3];
    float cone[9]; /* row k: the multiplier of tight row k */
    int simple;    /* 1: cone is set, links give nb and tight in row order */
} fast_vertex;

/* Beside it, read once the walk moves or stops: at a simple vertex the
 * neighbour across each tight row (the edge where that row is released)
 * and the rows. */
typedef struct fast_links {
    int nb[3];
    int tight[3];
} fast_links;

/* A neighbour in a vertex's list: its point in floats (what the walk
 * compares first) and its number. */
typedef struct fast_nb {
    float x[3];
    int v;
} fast_nb;

typedef struct fast_graph {
    int nverts;               /* 0: no graph (not 3 variables, too few rows,
                                 unbounded, or the enumeration failed);
                                 nothing below is set */
    int g;                    /* start table: g cells along each axis of each
                                 of the 6 cube faces (fast_prep_cell) */
    const fast_vertex *vert;  /* nverts (64-byte aligned) */
    const fast_links *links;  /* nverts */
    const int *adj_at;        /* nverts + 1 offsets into nbs */
    const fast_nb *nbs;       /* every vertex's neighbours */
    const int *tight_at, *tight; /* every vertex's tight rows (CSR) */
    const int *start;         /* 6 g^2: a vertex extreme along each cell's center */
} fast_graph;

/* The graph of fp's polytope, built now if it is not yet; NULL when
 * memory ran out (a later call tries again).  A polytope that has no
 * graph gets one with nverts 0.  Thread-safe. */
const fast_graph *fast_prep_graph(const fast_prep *fp);

/* A vertex of g extreme along d (3 values, not all zero): the walk from
 * the start vertex of d's cell along edges that gain along d (d . x
 * computed in doubles), until none does (on a polytope's graph a vertex
 * no neighbour improves is extreme; here to rounding).  *along gets
 * d . x of the vertex.  g->nverts > 0. */
int fast_graph_support(const fast_graph *g, const double *d, double *along);

/* The rows tight at vertex v of g: *count of them. */
const int *fast_graph_tight(const fast_graph *g, int v, int *count);

#endif
