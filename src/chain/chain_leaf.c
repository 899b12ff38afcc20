/* chain_leaf.c -- the exact tests at the leaves of the self-collision
 * recursion: the pieces of two links, the second placed in the first's
 * frame by a rounded rigid map (the posed numbers are then taken exactly,
 * as in worlds). */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>

#include "src/chain/chain.h"
#include "src/chain/chain_piece.h"
#include "polytope/error.h"

#define U 0x1p-53

/* Exact sign of (r + s)^2 - |p - q|^2 over rationals. */
int chain_spheres_meet_exact(const double p[3], double r, const double q[3], double s)
{
    mpq_t a, b, sum;
    mpq_inits(a, b, sum, NULL);
    for (int j = 0; j < 3; j++) {
        mpq_set_d(a, p[j]);
        mpq_set_d(b, q[j]);
        mpq_sub(a, a, b);
        mpq_mul(a, a, a);
        mpq_add(sum, sum, a);
    }
    mpq_set_d(a, r);
    mpq_set_d(b, s);
    mpq_add(a, a, b);
    mpq_mul(a, a, a);
    int meet = mpq_cmp(sum, a) <= 0;
    mpq_clears(a, b, sum, NULL);
    return meet;
}

/* Filter: every difference, square and sum below is one rounding (factor
 * 1 + u); |p - q|^2 has at most 5 on any path (difference, square, two
 * additions: (1 + u)^4 - 1 < 4.01u) and (r + s)^2 at most 2, so
 * |fl(D) - D| <= 4.01u D and |fl(R) - R| <= 2.01u R, and the computed
 * difference adds u |R - D| more.  16u (D + R) covers all of it; values
 * outside [2^-500, 2^500] go to the exact path (no underflow or
 * overflow to reason about). */
int chain_spheres_meet(const double p[3], double r, const double q[3], double s)
{
    double d0 = p[0] - q[0], d1 = p[1] - q[1], d2 = p[2] - q[2];
    double D = d0 * d0 + d1 * d1 + d2 * d2, rs = r + s, R = rs * rs;
    double bound = 16 * U * (D + R);
    if (R > 0x1p-500 && R < 0x1p500 && D < 0x1p500 && (D > 0x1p-500 || D == 0)) {
        if (D - R > bound)
            return 0;
        if (R - D > bound)
            return 1;
    }
    return chain_spheres_meet_exact(p, r, q, s);
}

static int spheres_of_links(const chain_link *A, const chain_link *B, const chain_xf *t,
                            long *tests)
{
    for (int kb = 0; kb < B->nsph; kb++) {
        double q[3];
        chain_xf_apply(t, B->sph[kb].c, q);
        for (int ka = 0; ka < A->nsph; ka++) {
            ++*tests;
            if (chain_spheres_meet(A->sph[ka].c, A->sph[ka].r, q, B->sph[kb].r))
                return 1;
        }
    }
    return 0;
}

int chain_links_meet(const hs_chain *c, int a, int b, const chain_xf *t, chain_leaf_ws **ws,
                     long *piece_tests, hs_error *err)
{
    const chain_link *A = &c->link[a], *B = &c->link[b];
    if (spheres_of_links(A, B, t, piece_tests))
        return 1;
    if (A->ncvx + B->ncvx == 0)
        return 0;
    return chain_convex_pairs(A, B, t, ws, piece_tests, err);
}
