/* chain_convex.c -- convex pieces of chain links: built as a body's convex
 * piece is (src/shape/geom.c), tested exactly against spheres (chain_sphere.c)
 * and against each other (the narrow phase of worlds, src/narrow.c). */
#include <stdlib.h>
#include <string.h>

#include "src/chain/chain_piece.h"
#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/narrow/narrow.h"

struct chain_leaf_ws {
    narrow_ws nw;
};

void chain_leaf_ws_free(chain_leaf_ws *ws)
{
    if (!ws)
        return;
    narrow_ws_free(&ws->nw);
    free(ws);
}

chain_leaf_ws *chain_leaf_ws_new(void)
{
    chain_leaf_ws *ws = calloc(1, sizeof *ws);
    if (ws && narrow_ws_init(&ws->nw, HS_TRI_GRID, HS_ENGINE_FAST) != 0) {
        chain_leaf_ws_free(ws);
        return NULL;
    }
    return ws;
}

narrow_ws *chain_leaf_narrow(chain_leaf_ws **ws)
{
    if (!*ws)
        *ws = chain_leaf_ws_new();
    return *ws ? &(*ws)->nw : NULL;
}

/* ------------------------------------------------------------------ */
/* Adding pieces                                                        */

static hs_code add_geom(hs_chain *c, int link, geom *g, hs_error *err)
{
    chain_link *L = &c->link[link];
    if (L->ncvx == L->capcvx) {
        int cap = L->capcvx ? 2 * L->capcvx : 2;
        geom **p = mem_realloc(L->cvx, (size_t)cap, sizeof *p);
        if (!p)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        L->cvx = p;
        L->capcvx = cap;
    }
    geom_retain(g);
    L->cvx[L->ncvx++] = g;
    chain_piece_added(c, link);
    return HS_OK;
}

/* The piece is built as a body's convex piece would be (src/shape/geom.c);
 * the chain keeps a reference to its geometry. */
static hs_code add_built(hs_chain *c, int link, const double *points, int n, const hs_poly *p,
                         const char *fn, hs_error *err)
{
    if (!c)
        return err_set(err, HS_ERR_ARG, "%s: NULL chain", fn);
    if (link < 0 || link >= c->n)
        return err_set(err, HS_ERR_ARG, "%s: link %d is not in 0..%d", fn, link, c->n - 1);
    geom *g = NULL;
    if (points) {
        double *pts = mem_alloc((size_t)n * 3, sizeof(double));
        if (!pts)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        memcpy(pts, points, sizeof(double) * 3 * (size_t)n);
        g = geom_from_points(pts, n, err);
        free(pts);
    } else
        g = geom_convex_placed(p, NULL, err);
    if (!g)
        return err ? err->code : HS_ERR_INPUT;
    g->refs = 1; /* held here until add_geom takes its own reference */
    hs_code rc = add_geom(c, link, g, err);
    geom_release(g);
    return rc;
}

hs_code hs_chain_add_hull(hs_chain *c, int link, const double *points, int n, hs_error *err)
{
    if (!points || n < 4)
        return err_set(err, HS_ERR_ARG, "hs_chain_add_hull: need at least 4 points");
    return add_built(c, link, points, n, NULL, "hs_chain_add_hull", err);
}

hs_code hs_chain_add_polytope(hs_chain *c, int link, const hs_poly *p, hs_error *err)
{
    if (!p)
        return err_set(err, HS_ERR_ARG, "hs_chain_add_polytope: NULL polytope");
    return add_built(c, link, NULL, 0, p, "hs_chain_add_polytope", err);
}

/* ------------------------------------------------------------------ */
/* Tests                                                                */

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
                err_set(err, HS_ERR_NOMEM, "out of memory");
            if (r != 0)
                return r;
        }
    }
    return 0;
}

static int convex_vs_convex(const chain_link *A, const chain_link *B, const chain_xf *t,
                            chain_leaf_ws **ws, long *tests, hs_error *err)
{
    narrow_ws *nw = chain_leaf_narrow(ws);
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
                       chain_leaf_ws **ws, long *tests, hs_error *err)
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
