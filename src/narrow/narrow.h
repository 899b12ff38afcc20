/* narrow.h -- the exact test of two pieces of two posed bodies, and the
 * per-thread scratch it uses. */
#ifndef HS_NARROW_H
#define HS_NARROW_H

#include "halfspace.h"
#include "solver/fast.h"
#include "solver/tri_convex.h"
#include "src/world/world.h"

typedef struct narrow_ws {
    hs_result *res;          /* fast engine answers (and its workspace) */
    hs_options opt;          /* fast engine, no trace */
    tri_convex_work *tc;
    double *rows;            /* transformed rows: a (m*3) then b (m) */
    int rows_cap;
    double *pts;             /* transformed points */
    int pts_cap;
    long fallbacks;          /* exact fallbacks so far */
    long tri_tests;          /* triangle tests so far */
    long piece_tests;        /* narrow tests of piece pairs so far */
    hs_tri_method triangles;
} narrow_ws;

int narrow_ws_init(narrow_ws *ws, hs_tri_method triangles, hs_engine engine);
void narrow_ws_free(narrow_ws *ws);

/* Outcome of a piece pair. */
typedef struct piece_hit {
    hs_status status;        /* HS_OVERLAP, HS_TOUCHING or HS_DISJOINT */
    double witness[3];       /* world frame, when they meet */
    double normal[3];        /* touching: a unit normal of a plane separating
                                the pieces, from the first towards the second
                                (world frame); zero when unknown */
} piece_hit;

/* Exact classification of piece ia of body a against piece ib of body b. */
hs_code narrow_test(narrow_ws *ws, const hs_body *a, int ia, const hs_body *b, int ib,
                    piece_hit *hit, hs_error *err);
/* The same, trying a hint from the last query on this pair first (two
 * convex pieces only; see fast_hint); *next (may be NULL) receives the
 * hint for the next query. */
hs_code narrow_test_hinted(narrow_ws *ws, const hs_body *a, int ia, const hs_body *b, int ib,
                           const fast_hint *hint, fast_hint *next, piece_hit *hit,
                           hs_error *err);

/* The same test for two loose geometries: ga placed in the world by the
 * pose pa, gb by pb; name_a and name_b appear
 * in messages.  (For pieces that belong to no body, e.g. the links of a
 * kinematic chain.) */
hs_code narrow_test_geoms(narrow_ws *ws, const geom *ga, const double pa[16],
                          const char *name_a, const geom *gb, const double pb[16],
                          const char *name_b, piece_hit *hit, hs_error *err);

/* Room for the points of piece ia of a and ib of b together in ws->pts
 * (so that filling one cannot move the other); 0 or -1. */
int narrow_reserve_points(narrow_ws *ws, const hs_body *a, int ia, const hs_body *b, int ib);

/* Vertices of piece i of body b, in world coordinates, into ws->pts (count
 * returned; meshes give their points). */
int narrow_world_points(narrow_ws *ws, const hs_body *b, int i, int offset);

#endif
