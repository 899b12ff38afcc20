/* chain_piece_tests.h -- the exact tests of the pieces of chain links
 * (touching counts), used by the self-collision search (chain_self.c) and
 * against the bodies of a world (chain_world.c): the pieces of two links
 * (chain_link_pair.c), the pairs with a convex piece
 * (chain_convex_pairs.c), a sphere against a sphere
 * (chain_sphere_sphere.c), a convex piece (chain_sphere_convex.c) or a
 * triangle (chain_sphere_tri.c). */
#ifndef HS_CHAIN_PIECE_TESTS_H
#define HS_CHAIN_PIECE_TESTS_H

#include <gmp.h>

#include "src/chain/chain.h"
#include "src/narrow/narrow.h"

/* Scratch of the tests of two convex pieces (the narrow phase's), created
 * when first needed through chain_convex_narrow (NULL when out of
 * memory); free it with chain_convex_ws_free. */
typedef struct chain_convex_ws chain_convex_ws;
chain_convex_ws *chain_convex_ws_new(void);
void chain_convex_ws_free(chain_convex_ws *ws);
narrow_ws *chain_convex_narrow(chain_convex_ws **ws);

/* The pieces of links a < b, b placed in a's frame by t: 1 (they meet),
 * 0, or -1 (error); *ws as above, *piece_tests counts the pairs tested. */
int chain_links_meet(const hs_chain *c, int a, int b, const chain_xf *t, chain_convex_ws **ws,
                     long *piece_tests, hs_error *err);

/* Every pair of pieces of links A and B where at least one is convex
 * (sphere pairs are tested by the caller), B placed in A's frame by t:
 * 1 if a pair meets (touching counts), 0 if none, -1 on error. */
int chain_convex_pairs(const chain_link *A, const chain_link *B, const chain_xf *t,
                       chain_convex_ws **ws, long *tests, hs_error *err);

/* The failures of the tests below: out of memory, or a number that is
 * not finite (a pose that overflowed: the exact tests need finite
 * doubles, and refuse others instead of converting them). */
#define CHAIN_TEST_NOMEM (-1)
#define CHAIN_TEST_NOT_FINITE (-2)
/* The error of a failed test (r < 0) into err; returns -1. */
int chain_test_failed(int r, hs_error *err);
/* 1 when the n doubles are all finite. */
int chain_all_finite(const double *v, int n);

/* Exact: |p - q|^2 <= (r + s)^2 for doubles (touching counts): 1, 0, or
 * CHAIN_TEST_NOT_FINITE. */
int chain_spheres_meet(const double p[3], double r, const double q[3], double s);
/* The same in exact rationals only (the filter's fallback; tests' oracle). */
int chain_spheres_meet_exact(const double p[3], double r, const double q[3], double s);

/* The sphere (centre p, radius r) against the convex piece g (in the
 * same frame), and against the triangle v.  1 when they meet, 0 when not,
 * CHAIN_TEST_NOMEM (the convex piece's exact fallback) or
 * CHAIN_TEST_NOT_FINITE. */
int chain_sphere_convex(const double p[3], double r, const geom *g);
int chain_sphere_triangle(const double p[3], double r, const double v[3][3]);

/* Exact points, shared by those two (chain_sphere_convex.c). */
typedef struct qvec {
    mpq_t v[3];
} qvec;
void qvec_init(qvec *x);
void qvec_clear(qvec *x);

#endif
