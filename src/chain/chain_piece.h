/* chain_piece.h -- exact tests of convex pieces of chain links (against
 * spheres and against each other), shared by chain_leaf.c and
 * chain_world.c. */
#ifndef HS_CHAIN_PIECE_H
#define HS_CHAIN_PIECE_H

#include <gmp.h>

#include "src/chain/chain.h"
#include "src/narrow/narrow.h"

/* Every pair of pieces of links A and B where at least one is convex
 * (sphere pairs are tested by the caller), B placed in A's frame by t:
 * 1 if a pair meets (touching counts), 0 if none, -1 on error. */
int chain_convex_pairs(const chain_link *A, const chain_link *B, const chain_xf *t,
                       chain_leaf_ws **ws, long *tests, hs_error *err);

/* Scratch of the convex tests (created on first use; NULL when out of
 * memory). */
chain_leaf_ws *chain_leaf_ws_new(void);
narrow_ws *chain_leaf_narrow(chain_leaf_ws **ws);

/* chain_sphere.c, chain_sphere_tri.c: exact, touching counts.  The
 * sphere (centre p, radius r) against the convex piece g (in the same
 * frame), and against the triangle v.  1 when they meet, 0 when not, -1
 * when out of memory (the convex piece's exact fallback). */
int chain_sphere_convex(const double p[3], double r, const geom *g);
int chain_sphere_triangle(const double p[3], double r, const double v[3][3]);

/* Exact points, shared by those two (chain_sphere.c). */
typedef struct qvec {
    mpq_t v[3];
} qvec;
void qvec_init(qvec *x);
void qvec_clear(qvec *x);

#endif
