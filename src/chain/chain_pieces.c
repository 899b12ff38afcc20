/* chain_pieces.c -- the pieces of a chain's links: spheres, and convex
 * pieces built as a body's convex piece is (src/shape/geom.c) from points
 * or a polytope; after each, the link's box and the boxes above it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/chain/chain.h"
#include "polytope/error.h"
#include "polytope/mem.h"

/* After link i got a piece: its box, the boxes above it, and every pair
 * must be searched again. */
void chain_piece_added(hs_chain *c, int i)
{
    c->jr_joint = 0;
    chain_leaf_box(c, i);
    chain_tree_update(c, &i, 1, 1);
    c->npieces++;
    c->all_dirty = 1;
}

/* After chain_piece_added: HS_OK, or, when the chain has left its range
 * (chain_in_range), the piece is taken away again and HS_ERR_ARG. */
static hs_code piece_in_range(hs_chain *c, int i, int sphere, const char *fn, hs_error *err)
{
    if (chain_in_range(c))
        return HS_OK;
    chain_link *L = &c->link[i];
    if (sphere)
        L->nsph--;
    else
        geom_release(L->cvx[--L->ncvx]);
    chain_leaf_box(c, i);
    chain_tree_update(c, &i, 1, 1);
    c->npieces--;
    return err_set(err, HS_ERR_ARG, "%s: link %d: the piece lies beyond the range of a chain "
                                    "(2^1000, about 1e301, from the links' frames)", fn, i);
}

hs_code hs_chain_add_sphere(hs_chain *c, int link, const double center[3], double radius,
                            hs_error *err)
{
    if (!c || !center)
        return err_set(err, HS_ERR_ARG, "hs_chain_add_sphere: NULL argument");
    if (link < 0 || link >= c->n)
        return err_set(err, HS_ERR_ARG, "hs_chain_add_sphere: link %d is not in 0..%d", link,
                       c->n - 1);
    if (!isfinite(center[0]) || !isfinite(center[1]) || !isfinite(center[2]))
        return err_set(err, HS_ERR_ARG, "hs_chain_add_sphere: centre is not finite");
    if (!(radius > 0) || !isfinite(radius))
        return err_set(err, HS_ERR_ARG, "hs_chain_add_sphere: radius must be positive and finite");
    chain_link *L = &c->link[link];
    if (L->nsph == L->capsph) {
        int cap = L->capsph ? 2 * L->capsph : 1;
        chain_sphere *s = mem_realloc(L->sph, (size_t)cap, sizeof *s);
        if (!s)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        L->sph = s;
        L->capsph = cap;
    }
    chain_sphere *s = &L->sph[L->nsph++];
    memcpy(s->c, center, sizeof s->c);
    s->r = radius;
    chain_piece_added(c, link);
    return piece_in_range(c, link, 1, "hs_chain_add_sphere", err);
}

/* ------------------------------------------------------------------ */
/* Convex pieces                                                        */

static hs_code add_geom(hs_chain *c, int link, geom *g, const char *fn, hs_error *err)
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
    return piece_in_range(c, link, 0, fn, err);
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
    hs_code rc = add_geom(c, link, g, fn, err);
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
