/* chain_link_pair.c -- the exact tests at the leaves of the
 * self-collision recursion: the pieces of two links, the second placed in
 * the first's frame by a rounded rigid map (the posed numbers are then
 * taken exactly, as in worlds).  Sphere pairs first (chain_sphere_sphere.c),
 * then every pair with a convex piece (chain_convex_pairs.c). */
#include "src/chain/chain_piece_tests.h"

static int spheres_of_links(const chain_link *A, const chain_link *B, const chain_xf *t,
                            long *tests, hs_error *err)
{
    for (int kb = 0; kb < B->nsph; kb++) {
        double q[3];
        chain_xf_apply(t, B->sph[kb].c, q);
        for (int ka = 0; ka < A->nsph; ka++) {
            ++*tests;
            int r = chain_spheres_meet(A->sph[ka].c, A->sph[ka].r, q, B->sph[kb].r);
            if (r < 0)
                return chain_test_failed(r, err);
            if (r)
                return 1;
        }
    }
    return 0;
}

int chain_links_meet(const hs_chain *c, int a, int b, const chain_xf *t, chain_convex_ws **ws,
                     long *piece_tests, hs_error *err)
{
    const chain_link *A = &c->link[a], *B = &c->link[b];
    int r = spheres_of_links(A, B, t, piece_tests, err);
    if (r != 0)
        return r;
    if (A->ncvx + B->ncvx == 0)
        return 0;
    return chain_convex_pairs(A, B, t, ws, piece_tests, err);
}
