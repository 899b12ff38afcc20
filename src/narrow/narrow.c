/* narrow.c -- exact test of two posed pieces (a geometry and a pose each).
 *
 * Convex against convex: the piece with fewer rows is expressed in the
 * other's frame (its rows mapped by the relative pose and rounded once)
 * and the fast engine decides, certified, on the two systems.  Convex
 * against mesh: each triangle near the convex piece, mapped into its
 * frame, is classified exactly (tri_convex.c).  Mesh against mesh: the
 * triangle pairs of seed 000 (src/shape/tri_mesh.c). */
#include "src/narrow/narrow.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/fast.h"
#include "solver/fast_prep.h"
#include "solver/result.h"
#include "polytope/error.h"
#include "polytope/fp.h"
#include "polytope/grow.h"
#include "polytope/tri_box.h"
#include "src/shape/pose.h"

int narrow_ws_init(narrow_ws *ws, hs_tri_method triangles, hs_engine engine)
{
    memset(ws, 0, sizeof *ws);
    ws->res = hs_result_new();
    ws->tc = NULL; /* (made by the first convex-mesh test: costly, often unused) */
    hs_options_init(&ws->opt);
    ws->opt.engine = engine == HS_ENGINE_EXACT ? HS_ENGINE_EXACT : HS_ENGINE_FAST;
    ws->triangles = triangles;
    ws->want_normal = 1;
    return ws->res ? 0 : -1;
}

void narrow_ws_reuse(narrow_ws *ws, hs_tri_method triangles, hs_engine engine)
{
    ws->opt.engine = engine == HS_ENGINE_EXACT ? HS_ENGINE_EXACT : HS_ENGINE_FAST;
    ws->triangles = triangles;
    ws->fallbacks = ws->tri_tests = ws->piece_tests = ws->repeated = 0;
}

void narrow_ws_free(narrow_ws *ws)
{
    hs_result_free(ws->res);
    tri_convex_work_free(ws->tc);
    free(ws->rows);
    free(ws->pts);
    memset(ws, 0, sizeof *ws);
}

/* Room for `need` doubles in *buf (grow.h); the buffer, or NULL. */
static double *narrow_reserve(double **buf, int *cap, int need)
{
    double *nb = grow_array(*buf, cap, need, sizeof **buf);
    if (nb)
        *buf = nb;
    return nb;
}

static void clear_hit(piece_hit *hit)
{
    memset(hit, 0, sizeof *hit);
    hit->status = HS_DISJOINT;
}

/* --------------------------------------------------- convex vs convex */

/* The frame of b in a's: a's kept inverse when it has one (the same
 * numbers either way). */
static void narrow_relative(double out[16], const narrow_piece *a, const narrow_piece *b)
{
    if (a->inv)
        pose_relative_inv(out, a->inv, b->pose);
    else
        pose_relative(out, a->pose, b->pose);
}

/* Unit normal, in the world frame, of the plane that separates the host's
 * piece (the first polyhedron of the result) from the other: the host's
 * part of the separation certificate, sum y_i a_i, mapped as a normal. */
static void host_normal(const hs_result *r, const hs_poly *hp, const narrow_piece *host, double n[3])
{
    double c[3] = {0, 0, 0};
    result_normal_d(r, 0, hp, c);
    /* normals map by the inverse transpose: n_world = inv^T c */
    double own[16];
    const double *inv = host->inv;
    if (!inv) {
        pose_inverse(own, host->pose);
        inv = own;
    }
    for (int d = 0; d < 3; d++)
        n[d] = inv[d] * c[0] + inv[4 + d] * c[1] + inv[8 + d] * c[2];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int d = 0; d < 3; d++)
        n[d] = len > 0 ? n[d] / len : 0;
}

/* The mover's convex piece expressed in the host's frame, as a view whose
 * rows are mapped by map_rows (all of them, or only a hint's). */
static int mover_view(narrow_ws *ws, const narrow_piece *host, const narrow_piece *mover, const geom *gm,
                      double T[16], double Tinv[16], double L[9], fast_view *v)
{
    const hs_poly *p = gm->poly;
    const fast_prep *fp = NULL;
    if (fast_prep_get(p, &fp, NULL) != 0 || !fp) /* a convex piece is always eligible */
        return -1;
    narrow_relative(T, host, mover);
    narrow_relative(Tinv, mover, host);
    if (!narrow_reserve(&ws->rows, &ws->rows_cap, 4 * p->m + 12))
        return -1;
    double *a = ws->rows, *b = ws->rows + 3 * p->m, *c = b + p->m, *lo = c + 3, *hi = lo + 3;
    pose_apply(T, fp->center, c);
    pose_map_box(T, fp->lo, fp->hi, lo, hi);
    for (int i = 0; i < 3; i++) /* directions of the host's frame into the mover's */
        for (int j = 0; j < 3; j++)
            L[3 * i + j] = Tinv[4 * i + j];
    *v = (fast_view){p->m, a, b, fp, c, 0, L, lo, hi, NULL, 0}; /* (mapped rows: no star) */
    return 0;
}

/* Row i of the mover mapped into the host's frame, into the view's rows
 * (ws->rows, as mover_view lays them out). */
static void map_row(narrow_ws *ws, const hs_poly *p, const double Tinv[16], int i)
{
    pose_map_row(Tinv, hpoly_row(p, i), p->b[i], ws->rows + 3 * i, ws->rows + 3 * p->m + i);
}

static void map_rows(narrow_ws *ws, const hs_poly *p, const double Tinv[16])
{
    for (int i = 0; i < p->m; i++)
        map_row(ws, p, Tinv, i);
}

/* 1 when the n doubles are all finite: x - x is +0 for a finite x and NaN
 * for an infinite or NaN one (four sums, no branch per number). */
static int narrow_finite(const double *v, long n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    long k = 0;
    for (; n - k >= 4; k += 4) { /* (n - k: no overflow near LONG_MAX) */
        s0 += v[k] - v[k];
        s1 += v[k + 1] - v[k + 1];
        s2 += v[k + 2] - v[k + 2];
        s3 += v[k + 3] - v[k + 3];
    }
    for (; k < n; k++)
        s0 += v[k] - v[k];
    return s0 + s1 + s2 + s3 == 0;
}

/* The error of a piece placed in the other's frame whose numbers leave
 * the range of doubles: the exact tests need finite numbers. */
static hs_code overflowed(const char *a, const char *b, hs_error *err)
{
    return err_set(err, HS_ERR_ARG, "'%s' and '%s': a piece placed in the other's frame "
                                    "leaves the range of doubles (the poses overflow)", a, b);
}

/* A disjoint hint reads a few rows: map only the mover's among them and
 * try it; 1 when it certifies. */
static int disjoint_hint_holds(narrow_ws *ws, const fast_view *vh, const fast_view *vm,
                               const hs_poly *pm, const double Tinv[16], const fast_hint *hint,
                               hs_error *err)
{
    if (!hint || hint->kind != FAST_HINT_DISJOINT || ws->opt.engine != HS_ENGINE_FAST)
        return 0;
    for (int c = 0; c <= 3; c++)
        if (hint->which[c] == 1 && hint->row[c] >= 0 && hint->row[c] < pm->m) {
            int i = hint->row[c];
            map_row(ws, pm, Tinv, i);
            if (!narrow_finite(ws->rows + 3 * i, 3) || !isfinite(ws->rows[3 * pm->m + i]))
                return 0; /* (all rows mapped next: the error is reported there) */
        }
    return fast_try_hint(vh, vm, 3, &ws->opt, hint, ws->res, err);
}

/* The same two systems (the host's rows, the mover's mapped rows) decided
 * by the exact engine: the brute-force check of the fast path. */
static hs_code exact_on_views(const geom *gh, const fast_view *vm, narrow_ws *ws, hs_error *err)
{
    hs_poly *B = hpoly_from_rows(3, vm->m, vm->a, vm->b);
    if (!B)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_code rc = hs_intersect(gh->poly, B, &ws->opt, ws->res, err);
    hs_poly_free(B);
    return rc;
}

static hs_code convex_convex(narrow_ws *ws, const narrow_piece *host, const geom *gh,
                             const narrow_piece *mover, const geom *gm, const fast_hint *hint,
                             fast_hint *next, piece_hit *hit, hs_error *err)
{
    double T[16], Tinv[16], L[9], x[3];
    fast_view vh, vm;
    if (mover_view(ws, host, mover, gm, T, Tinv, L, &vm) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (fast_view_of_poly(&vh, gh->poly) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    vh.use_star = 0; /* (a star costs a few KB per piece; a world query settles
                        overlap by the mover's mapped rows anyway) */
    /* the mover's centre and box (ws->rows after its rows), and the maps */
    if (!narrow_finite(T, 16) || !narrow_finite(Tinv, 16) ||
        !narrow_finite(ws->rows + 4 * gm->poly->m, 9))
        return overflowed(host->name, mover->name, err);
    int held = disjoint_hint_holds(ws, &vh, &vm, gm->poly, Tinv, hint, err);
    if (held < 0)
        return err ? err->code : HS_ERR_NOMEM;
    hs_code rc = HS_OK;
    if (held) {
        if (next)
            *next = *hint;
    } else {
        map_rows(ws, gm->poly, Tinv);
        if (!narrow_finite(ws->rows, 4L * gm->poly->m))
            return overflowed(host->name, mover->name, err);
        /* (a disjoint hint that failed still seeds the LP's rows) */
        rc = ws->opt.engine == HS_ENGINE_EXACT
                 ? exact_on_views(gh, &vm, ws, err)
                 : fast_intersect_views_hinted(&vh, &vm, 3, &ws->opt, hint, ws->res, next, err);
    }
    if (rc != HS_OK)
        return rc;
    ws->fallbacks += hs_result_fallback(ws->res) != 0;
    hit->status = hs_result_status(ws->res);
    if (result_point_near(ws->res, x) == 0)
        pose_apply(host->pose, x, hit->witness);
    if (hit->status == HS_TOUCHING && ws->want_normal)
        host_normal(ws->res, gh->poly, host, hit->normal);
    else if (hit->status == HS_TOUCHING)
        hit->normal[0] = hit->normal[1] = hit->normal[2] = NAN;
    return HS_OK;
}

/* ----------------------------------------------------- convex vs mesh */

static int narrow_boxes_meet(const double *lo1, const double *hi1, const double *lo2, const double *hi2)
{
    for (int d = 0; d < 3; d++)
        if (lo1[d] > hi2[d] || lo2[d] > hi1[d])
            return 0;
    return 1;
}

/* Triangle t (corners tri, in the host's frame) classified against the
 * host's convex piece; the strongest answer wins (overlap ends the search
 * in the callers). */
static hs_code classify_near(narrow_ws *ws, const narrow_piece *host, const geom *gh,
                             const double tri[3][3], piece_hit *hit, hs_error *err)
{
    hs_status st;
    double w[3];
    int fb = 0;
    if (!narrow_finite(&tri[0][0], 9))
        return err_set(err, HS_ERR_ARG, "'%s': a mesh point leaves the range of doubles in its "
                                        "frame (the poses overflow)", host->name);
    ws->tri_tests++;
    if (tri_box_separated(tri, gh->lo, gh->hi))
        return HS_OK; /* outside the piece's box along an axis: disjoint */
    if (!ws->tc && !(ws->tc = tri_convex_work_new()))
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_code rc = tri_convex_classify(ws->tc, tri, gh->poly, &st, w, &fb, err);
    if (rc != HS_OK)
        return rc;
    ws->fallbacks += fb;
    if (st == HS_OVERLAP || (st == HS_TOUCHING && hit->status == HS_DISJOINT)) {
        hit->status = st;
        pose_apply(host->pose, w, hit->witness);
    }
    return HS_OK;
}

/* The box of tri, widened by slack, meets the host's box. */
static int near_host_box(const double tri[3][3], const double slack[3], const geom *gh)
{
    double lo[3], hi[3];
    for (int d = 0; d < 3; d++) {
        lo[d] = fp_min(tri[0][d], fp_min(tri[1][d], tri[2][d])) - slack[d];
        hi[d] = fp_max(tri[0][d], fp_max(tri[1][d], tri[2][d])) + slack[d];
    }
    return narrow_boxes_meet(lo, hi, gh->lo, gh->hi);
}

/* The triangles that pass near_host_box, gathered from the hierarchy: a
 * record per triangle in ws->pts (its index, then its 9 mapped
 * coordinates). */
typedef struct near_list {
    narrow_ws *ws;
    const geom *gh;
    const double *slack;
    int n, failed;
} near_list;

#define NEAR_REC 10

static int on_near_triangle(void *user, int t, const double tri[3][3])
{
    near_list *nl = user;
    if (!near_host_box(tri, nl->slack, nl->gh))
        return 0;
    narrow_ws *ws = nl->ws;
    if (!narrow_reserve(&ws->pts, &ws->pts_cap, NEAR_REC * (nl->n + 1))) {
        nl->failed = 1;
        return 1;
    }
    double *r = ws->pts + NEAR_REC * nl->n++;
    r[0] = t;
    memcpy(r + 1, tri, 9 * sizeof(double));
    return 0;
}

/* A record's place in the index order. */
typedef struct near_key {
    int t, at;
} near_key;

static int by_triangle(const void *x, const void *y)
{
    const near_key *a = x, *b = y;
    return (a->t > b->t) - (a->t < b->t);
}

/* The order of the n records by triangle index, into keys (after them in
 * ws->pts); NULL when out of memory. */
static near_key *sort_near(narrow_ws *ws, int n)
{
    size_t room = (size_t)NEAR_REC * n + ((size_t)n * sizeof(near_key) + 7) / 8;
    if (room > INT_MAX || !narrow_reserve(&ws->pts, &ws->pts_cap, (int)room))
        return NULL;
    near_key *key = (near_key *)(ws->pts + NEAR_REC * n);
    for (int i = 0; i < n; i++)
        key[i] = (near_key){(int)ws->pts[NEAR_REC * i], i};
    if (n > 16) {
        qsort(key, (size_t)n, sizeof *key, by_triangle);
        return key;
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && key[j].t < key[j - 1].t; j--) {
            near_key tmp = key[j];
            key[j] = key[j - 1];
            key[j - 1] = tmp;
        }
    return key;
}

/* Whether the hierarchy is worth walking: the mesh has more than
 * NEAR_LINEAR triangles and the walk would visit fewer than one in eight
 * of them (tri_bvh_near_count; else mapping each point once and testing
 * every triangle's box is cheaper: a visited triangle costs three mapped
 * corners, and the visited ones are put in index order).  Only the time
 * depends on this choice. */
#define NEAR_LINEAR 512

static int hierarchy_pays(const geom *gh, const geom *gm, const double T[16],
                          const double slack[3])
{
    if (gm->ntris <= NEAR_LINEAR)
        return 0;
    int limit = gm->ntris / 8;
    return tri_bvh_near_count(tri_mesh_bvh(gm->index), T, gh->lo, gh->hi, slack, limit) < limit;
}

/* Every triangle of the mover's mesh near the host's convex piece, mapped
 * into the host's frame, is classified exactly; the strongest answer wins
 * (overlap ends the search).  Triangles go in index order, so the first
 * overlapping (or else touching) one gives the witness.  "Near": the box
 * of its mapped corners, widened by slack, meets the host's box.
 *
 * HS_TRI_GRID and HS_TRI_RAW map every point and test every triangle's
 * box, and so does HS_TRI_BVH when the hierarchy would visit many of the
 * triangles anyway (hierarchy_pays).  Otherwise HS_TRI_BVH visits only the triangles
 * the mesh's hierarchy cannot exclude (tri_bvh_near_box with grow =
 * slack) and applies the same box test to them.  A triangle it leaves out has, on some axis d, all
 * corners x below lo[d] - 2 slack[d] (or above hi[d] + 2 slack[d]); then
 * x + slack < lo - slack, and since slack[d] >= 2^-30 |lo[d]| + 2^-1000
 * puts fl(lo - slack) below lo, the rounded fl(x + slack) <= fl(lo -
 * slack) < lo: the box test fails for it too.  So both classify the same
 * triangles in the same order and give the same answers, witnesses
 * included (tri_convex_classify seeds its random row orders from each
 * triangle, so its answers never depend on what it classified before). */
static hs_code convex_mesh(narrow_ws *ws, const narrow_piece *host, const geom *gh,
                           const narrow_piece *mover, const geom *gm, piece_hit *hit, hs_error *err)
{
    double T[16], slack[3];
    narrow_relative(T, host, mover);
    for (int d = 0; d < 3; d++)
        slack[d] = POSE_BOX_SLACK * (fabs(gh->lo[d]) + fabs(gh->hi[d])) + 0x1p-1000;
    if (ws->triangles == HS_TRI_BVH && hierarchy_pays(gh, gm, T, slack)) {
        near_list nl = {ws, gh, slack, 0, 0};
        tri_bvh_near_box(tri_mesh_bvh(gm->index), T, gh->lo, gh->hi, slack, on_near_triangle,
                         &nl);
        if (nl.failed)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        if (nl.n == 0)
            return HS_OK;
        const near_key *key = sort_near(ws, nl.n);
        if (!key)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        for (int k = 0; k < nl.n && hit->status != HS_OVERLAP; k++) {
            const double(*tri)[3] = (const double(*)[3])(ws->pts + NEAR_REC * key[k].at + 1);
            hs_code rc = classify_near(ws, host, gh, tri, hit, err);
            if (rc != HS_OK)
                return rc;
        }
        return HS_OK;
    }
    /* each mapped point's side code: bit 2d when x_d - slack_d > hi_d,
     * bit 2d + 1 when x_d + slack_d < lo_d, the same roundings as
     * near_host_box makes on the triangle's extremes; a triangle fails
     * that test exactly when one bit is set at all three corners */
    int np = gm->nmv, room = 3 * np + (np + 7) / 8;
    if (!narrow_reserve(&ws->pts, &ws->pts_cap, room))
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    unsigned char *code = (unsigned char *)(ws->pts + 3 * np);
    for (int i = 0; i < np; i++) { /* mapped as pose_apply maps: the same sums */
        const double *p = gm->mv + 3 * i;
        double *x = ws->pts + 3 * i;
        int c = 0;
        for (int d = 0; d < 3; d++) {
            x[d] = pose_apply_row(T, d, p);
            c |= (x[d] - slack[d] > gh->hi[d]) << (2 * d) | (x[d] + slack[d] < gh->lo[d])
                                                              << (2 * d + 1);
        }
        code[i] = (unsigned char)c;
    }
    for (int t = 0; t < gm->ntris && hit->status != HS_OVERLAP; t++) {
        const int *v = gm->tris + 3 * t;
        if (code[v[0]] & code[v[1]] & code[v[2]])
            continue; /* near_host_box would fail */
        double tri[3][3];
        for (int k = 0; k < 3; k++)
            memcpy(tri[k], ws->pts + 3 * v[k], sizeof tri[k]);
        hs_code rc = classify_near(ws, host, gh, (const double(*)[3])tri, hit, err);
        if (rc != HS_OK)
            return rc;
    }
    return HS_OK;
}

/* ------------------------------------------------------- mesh vs mesh */

typedef struct mesh_hits {
    piece_hit *hit;
    const narrow_piece *a;
} mesh_hits;

static int on_triangle_pair(void *user, int ia, int ib, hs_status st, const double w[3])
{
    mesh_hits *mh = user;
    (void)ia;
    (void)ib;
    if (st == HS_OVERLAP || (st == HS_TOUCHING && mh->hit->status == HS_DISJOINT)) {
        mh->hit->status = st;
        pose_apply(mh->a->pose, w, mh->hit->witness);
    }
    return mh->hit->status == HS_OVERLAP; /* nothing stronger to find */
}

static hs_code mesh_mesh(narrow_ws *ws, const narrow_piece *a, const geom *ga, const narrow_piece *b,
                         const geom *gb, piece_hit *hit, hs_error *err)
{
    double T[16];
    narrow_relative(T, a, b);
    mesh_hits mh = {hit, a};
    long tests = 0;
    hs_code rc = tri_mesh_pairs(ga->index, gb->index, T, ws->triangles, on_triangle_pair, &mh,
                                &tests);
    ws->tri_tests += tests;
    if (rc == HS_ERR_NOMEM)
        return err_set(err, rc, "out of memory");
    if (rc != HS_OK)
        return err_set(err, rc, "'%s' and '%s': a mesh point leaves the double range "
                                "in the other's frame", a->name, b->name);
    return HS_OK;
}

/* ------------------------------------------------------------- entry */

hs_code narrow_test(narrow_ws *ws, const narrow_piece *a, const narrow_piece *b,
                    const fast_hint *hint, fast_hint *next, piece_hit *hit, hs_error *err)
{
    const geom *ga = a->g, *gb = b->g;
    clear_hit(hit);
    if (next)
        next->kind = FAST_HINT_NONE;
    ws->piece_tests++;
    if (ga->kind == PIECE_MESH && gb->kind == PIECE_MESH)
        return mesh_mesh(ws, a, ga, b, gb, hit, err);
    if (ga->kind == PIECE_CONVEX && gb->kind == PIECE_MESH)
        return convex_mesh(ws, a, ga, b, gb, hit, err);
    if (ga->kind == PIECE_MESH)
        return convex_mesh(ws, b, gb, a, ga, hit, err);
    if (ga->poly->m >= gb->poly->m) /* map the smaller system */
        return convex_convex(ws, a, ga, b, gb, hint, next, hit, err);
    hs_code rc = convex_convex(ws, b, gb, a, ga, hint, next, hit, err);
    for (int d = 0; d < 3; d++) /* the normal went from b to a */
        hit->normal[d] = -hit->normal[d];
    return rc;
}

hs_code narrow_test_geoms(narrow_ws *ws, const geom *ga, const double pa[16],
                          const char *name_a, const geom *gb, const double pb[16],
                          const char *name_b, piece_hit *hit, hs_error *err)
{
    narrow_piece a = {ga, pa, name_a, NULL}, b = {gb, pb, name_b, NULL};
    return narrow_test(ws, &a, &b, NULL, NULL, hit, err);
}

static int point_count(const geom *g)
{
    return g->kind == PIECE_CONVEX ? g->nverts : g->nmv;
}

int narrow_reserve_points(narrow_ws *ws, const geom *a, const geom *b)
{
    int need = 3 * (point_count(a) + point_count(b));
    return narrow_reserve(&ws->pts, &ws->pts_cap, need) ? 0 : -1;
}

int narrow_world_points(narrow_ws *ws, const narrow_piece *p, int offset)
{
    const geom *g = p->g;
    int n = point_count(g);
    const double *src = g->kind == PIECE_CONVEX ? g->verts : g->mv;
    if (!narrow_reserve(&ws->pts, &ws->pts_cap, 3 * (offset + n)))
        return -1;
    for (int k = 0; k < n; k++)
        pose_apply(p->pose, src + 3 * k, ws->pts + 3 * (offset + k));
    return n;
}
