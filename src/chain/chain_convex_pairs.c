/* chain_convex_pairs.c -- the pairs of pieces of two chain links where at
 * least one is convex, tested exactly: a sphere against a convex piece
 * (chain_sphere_convex.c), two convex pieces by the narrow phase of worlds
 * (src/narrow/narrow.c), whose scratch (chain_convex_ws) lives here. */
#include <stdlib.h>

#include "src/chain/chain_piece_tests.h"
#include "polytope/error.h"
#include "src/narrow/narrow.h"

/* The scratch of the convex-convex tests, created on first use. */
struct chain_convex_ws {
    narrow_ws nw;
};

void chain_convex_ws_free(chain_convex_ws *ws)
{
    if (!ws)
        return;
    narrow_ws_free(&ws->nw);
    free(ws);
}

chain_convex_ws *chain_convex_ws_new(void)
{
    chain_convex_ws *ws = calloc(1, sizeof *ws);
    if (ws && narrow_ws_init(&ws->nw, HS_TRI_BVH, HS_ENGINE_FAST) != 0) {
        chain_convex_ws_free(ws);
        return NULL;
    }
    if (ws)
        ws->nw.want_normal = 0; /* statuses and witnesses only */
    return ws;
}

narrow_ws *chain_convex_narrow(chain_convex_ws **ws)
{
    if (!*ws)
        *ws = chain_convex_ws_new();
    return *ws ? &(*ws)->nw : NULL;
}

/* ------------------------------------------------------------------ */
/* The pairs                                                            */

static int spheres_vs_convex(const chain_link *S, const chain_link *C, const chain_xf *place,
                             long *tests, hs_error *err)
{
    for (int ks = 0; ks < S->nsph; ks++) {
        double p[3];
        chain_xf_apply(place, S->sph[ks].c, p);
        for (int kc = 0; kc < C->ncvx; kc++) {
            ++*tests;
            int r = chain_sphere_convex(p, S->sph[ks].r, C->cvx[kc]);
            if (r < 0)
                return chain_test_failed(r, err);
            if (r != 0)
                return r;
        }
    }
    return 0;
}

static int convex_vs_convex(const chain_link *A, const chain_link *B, const chain_xf *t,
                            chain_convex_ws **ws, long *tests, hs_error *err)
{
    narrow_ws *nw = chain_convex_narrow(ws);
    if (!nw) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return -1;
    }
    double I[16], T[16];
    hs_pose_identity(I);
    chain_xf_to_pose(t, T);
    for (int ka = 0; ka < A->ncvx; ka++)
        for (int kb = 0; kb < B->ncvx; kb++) {
            piece_hit hit;
            ++*tests;
            if (narrow_test_geoms(nw, A->cvx[ka], I, "link", B->cvx[kb], T, "link",
                                  &hit, err) != HS_OK)
                return -1;
            if (hit.status != HS_DISJOINT)
                return 1;
        }
    return 0;
}

/* A sphere of one link meets a convex piece of the other with its centre
 * placed in the piece's frame (B's spheres by t, A's by t's inverse);
 * two convex pieces with B's placed in A's frame by t. */
int chain_convex_pairs(const chain_link *A, const chain_link *B, const chain_xf *t,
                       chain_convex_ws **ws, long *tests, hs_error *err)
{
    chain_xf tinv;
    chain_xf_inverse(&tinv, t);
    int r = spheres_vs_convex(B, A, t, tests, err);
    if (r == 0)
        r = spheres_vs_convex(A, B, &tinv, tests, err);
    if (r != 0)
        return r;
    if (A->ncvx == 0 || B->ncvx == 0)
        return 0;
    return convex_vs_convex(A, B, t, ws, tests, err);
}
