/* narrow.h -- the exact test of two posed pieces (narrow.c): each is a
 * geometry (src/shape/geom.h) placed in the world by a pose, whoever holds
 * it (a body of a world, a link of a chain); and the per-thread scratch
 * the test uses. */
#ifndef HS_NARROW_H
#define HS_NARROW_H

#include "halfspace.h"
#include "solver/fast.h"
#include "solver/tri_convex.h"
#include "src/shape/geom.h"

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
    long repeated;           /* of those, answered by the record of the last
                                query (narrow_memo.h; counted by the caller) */
    hs_tri_method triangles;
    int want_normal;         /* 1 (the default): a touching convex pair's
                                separating normal is computed (contacts use
                                it); 0: piece_hit.normal is left NaN */
} narrow_ws;

int narrow_ws_init(narrow_ws *ws, hs_tri_method triangles, hs_engine engine);
/* A workspace made by narrow_ws_init, ready for another query with these
 * settings: its counters cleared, its buffers kept (answers never depend
 * on what a workspace answered before). */
void narrow_ws_reuse(narrow_ws *ws, hs_tri_method triangles, hs_engine engine);
void narrow_ws_free(narrow_ws *ws);

/* Outcome of a piece pair. */
typedef struct piece_hit {
    hs_status status;        /* HS_OVERLAP, HS_TOUCHING or HS_DISJOINT */
    double witness[3];       /* world frame, when they meet */
    double normal[3];        /* touching: a unit normal of a plane separating
                                the pieces, from the first towards the second
                                (world frame); zero when unknown, NaN when
                                the workspace did not want it */
} piece_hit;

/* A piece placed in the world: its geometry, the pose of its holder (16
 * doubles, row-major, rigid) and a name for messages. */
typedef struct narrow_piece {
    const geom *g;
    const double *pose;
    const char *name;
    const double *inv; /* pose_inverse of pose, or NULL (computed when needed) */
} narrow_piece;

/* Exact classification of a against b.  hint (may be NULL) is the hint of
 * the last query on this pair, tried first (two convex pieces only; see
 * fast_hint); *next (may be NULL) receives the hint for the next query. */
hs_code narrow_test(narrow_ws *ws, const narrow_piece *a, const narrow_piece *b,
                    const fast_hint *hint, fast_hint *next, piece_hit *hit, hs_error *err);

/* The same for ga placed by pa and gb by pb, without a hint. */
hs_code narrow_test_geoms(narrow_ws *ws, const geom *ga, const double pa[16],
                          const char *name_a, const geom *gb, const double pb[16],
                          const char *name_b, piece_hit *hit, hs_error *err);

/* Room for the points of a and b together in ws->pts (so that filling one
 * cannot move the other); 0 or -1. */
int narrow_reserve_points(narrow_ws *ws, const geom *a, const geom *b);

/* Vertices of p in world coordinates into ws->pts from point `offset` on
 * (count returned, -1 without memory; meshes give their points). */
int narrow_world_points(narrow_ws *ws, const narrow_piece *p, int offset);

#endif
