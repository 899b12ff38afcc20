/* test_tri_bvh.c -- the bounding-volume hierarchy of mesh triangles
 * (src/shape/tri_bvh.c) and its uses: mesh-mesh pairing (HS_TRI_BVH of
 * tri_mesh_pairs) and convex-mesh tests (src/narrow/narrow.c).
 *
 * The reference is the raw method: every triangle against every triangle
 * (HS_TRI_RAW), on the same rounded points.  The hierarchy must report the
 * same set of triangle pairs with the same statuses and the same
 * witnesses (bit for bit), on random soups at random poses, on meshes that
 * touch by construction (shared vertices, edges and faces under exact
 * poses: integer translations, quarter turns), on flat and coplanar
 * meshes, far from the origin, under non-rigid poses and with extreme
 * magnitudes.  tri_bvh_near_box may leave out only triangles that miss the
 * box (checked exactly with tri_convex_classify).  World queries with
 * convex and mesh pieces give the same statuses and witnesses with every
 * triangle method. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solver/tri_convex.h"
#include "src/shape/geom.h"
#include "src/shape/pose.h"
#include "src/shape/tri_bvh.h"
#include "src/shape/tri_mesh.h"
#include "tests/helpers.h"

/* ------------------------------------------------------- pair lists */

typedef struct bvh_hit {
    int ia, ib;
    hs_status st;
    double w[3];
} bvh_hit;

typedef struct bvh_hits {
    bvh_hit *h;
    int n, cap, stop_after;
} bvh_hits;

static int bvht_on_pair(void *user, int ia, int ib, hs_status st, const double w[3])
{
    bvh_hits *l = user;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->h = realloc(l->h, sizeof *l->h * (size_t)l->cap);
        ck_assert_ptr_nonnull(l->h);
    }
    l->h[l->n++] = (bvh_hit){ia, ib, st, {w[0], w[1], w[2]}};
    return l->stop_after > 0 && l->n >= l->stop_after;
}

static int bvht_cmp(const void *x, const void *y)
{
    const bvh_hit *a = x, *b = y;
    if (a->ia != b->ia)
        return a->ia < b->ia ? -1 : 1;
    return a->ib < b->ib ? -1 : a->ib > b->ib;
}

static bvh_hits bvht_run(const tri_mesh *a, const tri_mesh *b, const double T[16],
                         hs_tri_method method, long *tests)
{
    bvh_hits l = {NULL, 0, 0, 0};
    ck_assert_int_eq(tri_mesh_pairs(a, b, T, method, bvht_on_pair, &l, tests), HS_OK);
    if (l.n > 1)
        qsort(l.h, (size_t)l.n, sizeof *l.h, bvht_cmp);
    return l;
}

/* The hierarchy and the raw method agree exactly (pairs, statuses,
 * witnesses); counts[0..2] += pairs, touching pairs, BVH tests. */
static void bvht_compare(const double *va, int nva, const int *ta, int na, const double *vb,
                         int nvb, const int *tb, int nb, const double T[16], long counts[3])
{
    tri_mesh *a = tri_mesh_new(va, nva, ta, na), *b = tri_mesh_new(vb, nvb, tb, nb);
    ck_assert(a && b);
    long traw = -1, tbvh = -1;
    bvh_hits raw = bvht_run(a, b, T, HS_TRI_RAW, &traw);
    bvh_hits bvh = bvht_run(a, b, T, HS_TRI_BVH, &tbvh);
    ck_assert_int_eq(traw, (long)na * nb);
    ck_assert_int_le(tbvh, traw);
    EXPECT(raw.n == bvh.n, "raw finds %d pairs, the hierarchy %d", raw.n, bvh.n);
    for (int i = 0; i < raw.n; i++) {
        const bvh_hit *x = &raw.h[i], *y = &bvh.h[i];
        EXPECT(x->ia == y->ia && x->ib == y->ib && x->st == y->st &&
                   memcmp(x->w, y->w, sizeof x->w) == 0,
               "pair %d: raw (%d %d %d) bvh (%d %d %d)", i, x->ia, x->ib, x->st, y->ia, y->ib,
               y->st);
        EXPECT(i == 0 || bvht_cmp(y, y - 1) != 0, "pair %d %d reported twice", y->ia, y->ib);
        counts[1] += x->st == HS_TOUCHING;
    }
    counts[0] += raw.n;
    counts[2] += tbvh;
    free(raw.h);
    free(bvh.h);
    tri_mesh_free(a);
    tri_mesh_free(b);
}

/* ------------------------------------------------------------ meshes */

/* n small random triangles in [0, span]^3 (flat: z = 0), each with its
 * own three points. */
static void bvht_soup(uint64_t *seed, int n, double span, double size, int flat, double *v,
                      int *t)
{
    for (int i = 0; i < n; i++) {
        double c[3];
        for (int d = 0; d < 3; d++)
            c[d] = t_rng_unit(seed) * span;
        for (int k = 0; k < 3; k++) {
            for (int d = 0; d < 3; d++)
                v[9 * i + 3 * k + d] = flat && d == 2 ? 0 : c[d] + t_rng_sym(seed) * size;
            t[3 * i + k] = 3 * i + k;
        }
    }
}

/* A closed height-field box: an n x n grid of unit squares at integer
 * heights z(i, j) in 0..3 (top), a flat bottom at z = -1 and four walls,
 * all with integer coordinates (so exact poses keep contacts exact).
 * Returns the triangle count; v and t need room for (n+1)^2 * 2 + 8 n + 8
 * points and 4 n^2 + 8 n + 2 triangles. */
static int bvht_terrain(uint64_t *seed, int n, double *v, int *t, int *nv)
{
    int k = 0, m = 0;
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++) {
            v[3 * k] = i;
            v[3 * k + 1] = j;
            v[3 * k + 2] = (double)(t_rng_next(seed) % 4);
            k++;
        }
    int top = 0, bot = k;
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++) {
            v[3 * k] = i;
            v[3 * k + 1] = j;
            v[3 * k + 2] = -1;
            k++;
        }
#define TOP(i, j) (top + (i) * (n + 1) + (j))
#define BOT(i, j) (bot + (i) * (n + 1) + (j))
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int q[4] = {TOP(i, j), TOP(i + 1, j), TOP(i + 1, j + 1), TOP(i, j + 1)};
            int r[4] = {BOT(i, j), BOT(i, j + 1), BOT(i + 1, j + 1), BOT(i + 1, j)};
            int tt[4][3] = {{q[0], q[1], q[2]}, {q[0], q[2], q[3]}, {r[0], r[1], r[2]},
                            {r[0], r[2], r[3]}};
            memcpy(t + 3 * m, tt, sizeof tt);
            m += 4;
        }
    for (int s = 0; s < n; s++) { /* walls: two triangles per boundary segment */
        int w[4][4] = {{TOP(s, 0), TOP(s + 1, 0), BOT(s + 1, 0), BOT(s, 0)},
                       {TOP(n, s), TOP(n, s + 1), BOT(n, s + 1), BOT(n, s)},
                       {TOP(s + 1, n), TOP(s, n), BOT(s, n), BOT(s + 1, n)},
                       {TOP(0, s + 1), TOP(0, s), BOT(0, s), BOT(0, s + 1)}};
        for (int f = 0; f < 4; f++) {
            int tt[2][3] = {{w[f][0], w[f][1], w[f][2]}, {w[f][0], w[f][2], w[f][3]}};
            memcpy(t + 3 * m, tt, sizeof tt);
            m += 2;
        }
    }
#undef TOP
#undef BOT
    *nv = k;
    return m;
}

/* A torus (radii R, r) of nu x nv quads split in triangles. */
static int bvht_torus(int nu, int nvv, double R, double r, double *v, int *t)
{
    for (int i = 0; i < nu; i++)
        for (int j = 0; j < nvv; j++) {
            double a = 2 * M_PI * i / nu, b = 2 * M_PI * j / nvv;
            double *p = v + 3 * (i * nvv + j);
            p[0] = (R + r * cos(b)) * cos(a);
            p[1] = (R + r * cos(b)) * sin(a);
            p[2] = r * sin(b);
        }
    int m = 0;
    for (int i = 0; i < nu; i++)
        for (int j = 0; j < nvv; j++) {
            int i1 = (i + 1) % nu, j1 = (j + 1) % nvv;
            int q0 = i * nvv + j, q1 = i1 * nvv + j, q2 = i1 * nvv + j1, q3 = i * nvv + j1;
            int tt[2][3] = {{q0, q1, q2}, {q0, q2, q3}};
            memcpy(t + 3 * m, tt, sizeof tt);
            m += 2;
        }
    return m;
}

/* A quarter-turn pose (a signed permutation: exact) with translation tr. */
static void bvht_quarter(double T[16], int perm, int signs, const double tr[3])
{
    static const int p[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
    double R[9] = {0};
    for (int i = 0; i < 3; i++)
        R[3 * i + p[perm][i]] = (signs >> i) & 1 ? -1 : 1;
    hs_pose_from_rt(T, R, tr);
}

/* ------------------------------------------------------------- tests */

START_TEST(test_bvh_random_soups)
{
    enum { NA = 300, NB = 250 };
    static double va[9 * NA], vb[9 * NB];
    static int ta[3 * NA], tb[3 * NB];
    uint64_t seed = 7;
    long counts[3] = {0, 0, 0};
    for (int round = 0; round < 12; round++) {
        int flat = round % 6 == 5;
        double size = round % 3 == 0 ? 0.5 : round % 3 == 1 ? 1.5 : 4;
        bvht_soup(&seed, NA, 10, size, flat, va, ta);
        bvht_soup(&seed, NB, 10, size, flat, vb, tb);
        if (round % 8 == 3) /* a huge triangle among small ones */
            for (int d = 0; d < 3; d++)
                va[d] = -50 + 100 * d, va[3 + d] = 60 - 20 * d, va[6 + d] = 5;
        double T[16];
        hs_error err;
        double axis[3] = {t_rng_sym(&seed), t_rng_sym(&seed), t_rng_sym(&seed) + 2};
        double tr[3] = {t_rng_sym(&seed), t_rng_sym(&seed), t_rng_sym(&seed)};
        if (flat)
            hs_pose_identity(T);
        else
            ck_assert_int_eq(hs_pose_from_axis_angle(T, axis, 3 * t_rng_sym(&seed), tr, &err),
                             HS_OK);
        if (round % 4 == 2) { /* far from the origin: both moved by 1e6 */
            for (int i = 0; i < 3; i++)
                T[4 * i + 3] += 1e6;
            for (int k = 0; k < 9 * NA; k++)
                va[k] += 1e6;
        }
        bvht_compare(va, 3 * NA, ta, NA, vb, 3 * NB, tb, NB, T, counts);
    }
    ck_assert_int_gt(counts[0], 500);
    ck_assert_int_gt(counts[2], 0);
}
END_TEST

START_TEST(test_bvh_touching_by_construction)
{
    enum { N = 4, NVMAX = 2 * (N + 1) * (N + 1), NTMAX = 4 * N * N + 8 * N + 2 };
    static double va[3 * NVMAX], vb[3 * NVMAX];
    static int ta[3 * NTMAX], tb[3 * NTMAX];
    uint64_t seed = 99;
    long counts[3] = {0, 0, 0};
    for (int round = 0; round < 3; round++) {
        int nva, nvb;
        int na = bvht_terrain(&seed, N, va, ta, &nva);
        int nb = bvht_terrain(&seed, N, vb, tb, &nvb);
        /* same mesh (every face shared), shifted by whole cells (shared
         * edges and vertices, faces on faces), quarter turns about the
         * grid's points, and stacked on the top (vertices on faces) */
        const double shifts[][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 1}, {N, 0, 0}, {N, N, 0},
                                    {2, 3, 4}, {-1, -1, -1}, {0.5, 0.5, 0}, {0, 0, 4}};
        for (size_t s = 0; s < sizeof shifts / sizeof shifts[0]; s++)
            for (int perm = round % 2; perm < 6; perm += 2)
                for (int signs = round % 3; signs < 8; signs += 5) {
                    double T[16];
                    bvht_quarter(T, perm, signs, shifts[s]);
                    bvht_compare(va, nva, ta, na, va, nva, ta, na, T, counts);
                    bvht_compare(va, nva, ta, na, vb, nvb, tb, nb, T, counts);
                }
    }
    ck_assert_int_gt(counts[1], 500); /* many touching pairs */
    ck_assert_int_gt(counts[0], counts[1]);
}
END_TEST

START_TEST(test_bvh_torus_poses)
{
    enum { NU = 24, NV = 12 };
    static double v[3 * NU * NV];
    static int t[6 * NU * NV];
    int n = bvht_torus(NU, NV, 2, 0.6, v, t);
    uint64_t seed = 5;
    long counts[3] = {0, 0, 0};
    for (int k = 0; k < 60; k++) {
        double T[16], axis[3] = {t_rng_sym(&seed), t_rng_sym(&seed), t_rng_sym(&seed)};
        double tr[3] = {2.5 * t_rng_sym(&seed), 2.5 * t_rng_sym(&seed), t_rng_sym(&seed)};
        hs_error err;
        if (fabs(axis[0]) + fabs(axis[1]) + fabs(axis[2]) < 1e-3)
            axis[2] = 1;
        ck_assert_int_eq(hs_pose_from_axis_angle(T, axis, 4 * t_rng_sym(&seed), tr, &err), HS_OK);
        bvht_compare(v, NU * NV, t, n, v, NU * NV, t, n, T, counts);
    }
    ck_assert_int_gt(counts[0], 100);
}
END_TEST

/* Non-rigid poses (a scale, a shear), extreme magnitudes and a mapping
 * that overflows. */
START_TEST(test_bvh_extreme)
{
    const double va[] = {-1e300, -1e300, 0.5, 1e300, -1e300, 0.5, 0, 1e300, 0.5,
                         0, 0, 0, 1, 0, 0, 0, 1, 0};
    const int ta[] = {0, 1, 2, 3, 4, 5};
    const double vb[] = {0.2, 0.2, -1, 0.2, 0.2, 1, 0.6, 0.2, 1, 5, 5, 0, 6, 5, 1, 5, 6, 1};
    const int tb[] = {0, 1, 2, 3, 4, 5};
    long counts[3] = {0, 0, 0};
    double T[16];
    hs_pose_identity(T);
    bvht_compare(va, 6, ta, 2, vb, 6, tb, 2, T, counts);
    ck_assert_int_eq(counts[0], 3);
    T[1] = 0.75; /* a shear */
    T[0] = 3;    /* and a scale */
    bvht_compare(va, 6, ta, 2, vb, 6, tb, 2, T, counts);
    bvht_compare(vb, 6, tb, 2, va, 6, ta, 2, T, counts);
    tri_mesh *a = tri_mesh_new(va, 6, ta, 2), *b = tri_mesh_new(vb, 6, tb, 2);
    ck_assert(a && b);
    hs_pose_identity(T);
    T[0] = T[5] = T[10] = 1e10; /* the mapping of a overflows */
    bvh_hits l = {NULL, 0, 0, 0};
    long tests = -1;
    ck_assert_int_eq(tri_mesh_pairs(b, a, T, HS_TRI_BVH, bvht_on_pair, &l, &tests), HS_ERR_ARG);
    ck_assert_int_eq(tests, 0);
    ck_assert_int_eq(l.n, 0);
    /* a bound that cannot exclude overflow, but no point overflows */
    T[0] = T[5] = T[10] = 1e7;
    ck_assert_int_eq(tri_mesh_pairs(a, b, T, HS_TRI_BVH, bvht_on_pair, &l, &tests), HS_OK);
    tri_mesh_free(a);
    tri_mesh_free(b);
    free(l.h);
}
END_TEST

START_TEST(test_bvh_stop_and_small)
{
    static const double cube_v[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                        {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    static const int cube_t[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7},
                                      {0, 1, 5}, {0, 5, 4}, {1, 2, 6}, {1, 6, 5},
                                      {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
    tri_mesh *a = tri_mesh_new(&cube_v[0][0], 8, &cube_t[0][0], 12);
    tri_mesh *one = tri_mesh_new(&cube_v[0][0], 8, &cube_t[0][0], 1);
    ck_assert(a && one);
    double T[16];
    hs_pose_identity(T);
    bvh_hits l = {NULL, 0, 0, 1};
    long tests = 0;
    ck_assert_int_eq(tri_mesh_pairs(a, a, T, HS_TRI_BVH, bvht_on_pair, &l, &tests), HS_OK);
    ck_assert_int_eq(l.n, 1);
    ck_assert_int_lt(tests, 144);
    l.n = 0;
    l.stop_after = 0;
    ck_assert_int_eq(tri_mesh_pairs(one, a, T, HS_TRI_BVH, bvht_on_pair, &l, &tests), HS_OK);
    ck_assert_int_gt(l.n, 0);
    const double far[3] = {3, 0, 0};
    hs_pose_from_rt(T, (const double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, far);
    l.n = 0;
    ck_assert_int_eq(tri_mesh_pairs(a, a, T, HS_TRI_BVH, bvht_on_pair, &l, &tests), HS_OK);
    ck_assert_int_eq(l.n, 0);
    ck_assert_int_eq(tests, 0);
    free(l.h);
    tri_mesh_free(a);
    tri_mesh_free(one);
}
END_TEST

/* -------------------------------------------------- near_box directly */

typedef struct bvht_seen {
    char *mark;
    int count;
} bvht_seen;

static int bvht_on_near(void *user, int t, const double tri[3][3])
{
    bvht_seen *s = user;
    (void)tri;
    s->mark[t]++;
    s->count++;
    return 0;
}

START_TEST(test_bvh_near_box_misses_only)
{
    enum { N = 500 };
    static double v[9 * N];
    static int t[3 * N];
    static char mark[N];
    uint64_t seed = 11;
    tri_convex_work *tc = tri_convex_work_new();
    ck_assert_ptr_nonnull(tc);
    long skipped = 0, visited = 0;
    for (int round = 0; round < 6; round++) {
        bvht_soup(&seed, N, 10, 1.5, 0, v, t);
        tri_bvh *h = tri_bvh_new(v, 3 * N, t, N);
        ck_assert_ptr_nonnull(h);
        double lo[3], hi[3], pts[24];
        for (int d = 0; d < 3; d++) {
            lo[d] = 2 + 3 * t_rng_unit(&seed);
            hi[d] = lo[d] + 0.5 + 3 * t_rng_unit(&seed);
        }
        for (int k = 0; k < 8; k++)
            for (int d = 0; d < 3; d++)
                pts[3 * k + d] = (k >> d) & 1 ? hi[d] : lo[d];
        hs_error err;
        geom *g = geom_from_points(pts, 8, &err);
        ck_assert_ptr_nonnull(g);
        geom_retain(g);
        double T[16], axis[3] = {1, t_rng_sym(&seed), 2}, tr[3] = {1, -1, 0.5};
        ck_assert_int_eq(hs_pose_from_axis_angle(T, axis, 3 * t_rng_sym(&seed), tr, &err), HS_OK);
        memset(mark, 0, sizeof mark);
        bvht_seen s = {mark, 0};
        const double no_grow[3] = {0, 0, 0};
        ck_assert_int_eq(tri_bvh_near_box(h, T, g->lo, g->hi, no_grow, bvht_on_near, &s), 0);
        for (int i = 0; i < N; i++) {
            EXPECT(mark[i] <= 1, "triangle %d visited %d times", i, mark[i]);
            if (mark[i]) {
                visited++;
                continue;
            }
            double tri[3][3];
            for (int k = 0; k < 3; k++)
                pose_apply(T, v + 9 * i + 3 * k, tri[k]);
            hs_status st;
            ck_assert_int_eq(tri_convex_classify(tc, (const double(*)[3])tri, g->poly, &st, NULL,
                                                 NULL, &err),
                             HS_OK);
            EXPECT(st == HS_DISJOINT, "triangle %d left out but meets the box", i);
            skipped++;
        }
        geom_release(g);
        tri_bvh_free(h);
    }
    tri_convex_work_free(tc);
    ck_assert_int_gt(skipped, 100);
    ck_assert_int_gt(visited, 10);
}
END_TEST

/* ------------------------------------------------------ world queries */

/* Status and witness of every piece pair of the pair (a, b) of rep. */
typedef struct bvht_piece {
    int ia, ib;
    hs_status st;
    double w[3];
} bvht_piece;

static int bvht_pieces(const hs_report *rep, bvht_piece *out, int cap)
{
    int n = 0;
    for (int k = 0; k < hs_report_pair_count(rep); k++)
        for (int j = 0; j < hs_report_piece_count(rep, k) && n < cap; j++) {
            bvht_piece *p = &out[n++];
            ck_assert_int_eq(hs_report_piece(rep, k, j, &p->ia, &p->ib, &p->st, p->w, NULL),
                             HS_OK);
        }
    return n;
}

/* Convex pieces against meshes: statuses and witnesses equal for every
 * triangle method (convex-mesh tests do not depend on it); mesh-mesh
 * statuses equal (their witnesses may differ: each method stops at its
 * first overlap). */
START_TEST(test_bvh_world_convex_mesh)
{
    enum { NU = 32, NV = 12 }; /* 768 triangles: convex-mesh tests walk the hierarchy */
    static double tv[3 * NU * NV];
    static int tt[6 * NU * NV];
    int nt = bvht_torus(NU, NV, 2, 0.6, tv, tt);
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *torus = hs_world_add_body(w, "torus", 0, &err);
    hs_body *torus2 = hs_world_add_body(w, "torus2", 0, &err);
    hs_body *box = hs_world_add_body(w, "box", 0, &err);
    hs_body *sheet = hs_world_add_body(w, "sheet", 0, &err);
    ck_assert(torus && torus2 && box && sheet);
    ck_assert_int_eq(hs_body_add_mesh(torus, tv, NU * NV, tt, nt, NULL, &err), HS_OK);
    ck_assert_int_eq(hs_body_add_mesh(torus2, tv, NU * NV, tt, nt, NULL, &err), HS_OK);
    const double size[3] = {1, 0.5, 0.25};
    ck_assert_int_eq(hs_body_add_box(box, size, NULL, &err), HS_OK);
    const double sq[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    const int sqt[6] = {0, 1, 2, 0, 2, 3};
    ck_assert_int_eq(hs_body_add_mesh(sheet, sq, 4, sqt, 2, NULL, &err), HS_OK);
    hs_report *rep = hs_report_new();
    hs_query_options opt[3];
    for (int m = 0; m < 3; m++) {
        hs_query_options_init(&opt[m]);
        opt[m].threshold = 0;
    }
    ck_assert_int_eq(opt[0].triangles, HS_TRI_BVH); /* the default */
    opt[1].triangles = HS_TRI_RAW;
    opt[2].triangles = HS_TRI_GRID;
    uint64_t seed = 3;
    int touching = 0, met = 0;
    for (int k = 0; k < 120; k++) {
        double P[16];
        if (k % 4 == 3) { /* exactly touching: the box on the sheet (z = 0.125) */
            double tr[3] = {t_rng_sym(&seed), t_rng_sym(&seed), 0.125};
            bvht_quarter(P, 0, 0, tr);
            hs_body_set_pose(box, P, &err);
            hs_pose_identity(P);
            P[11] = -5;
            hs_body_set_pose(torus, P, &err); /* (out of the way) */
        } else {
            double axis[3] = {t_rng_sym(&seed), t_rng_sym(&seed), 1};
            double tr[3] = {2.5 * t_rng_sym(&seed), 2.5 * t_rng_sym(&seed), t_rng_sym(&seed)};
            ck_assert_int_eq(hs_pose_from_axis_angle(P, axis, 3 * t_rng_sym(&seed), tr, &err),
                             HS_OK);
            hs_body_set_pose(box, P, &err);
            hs_pose_identity(P);
            hs_body_set_pose(torus, P, &err);
        }
        double axis[3] = {t_rng_sym(&seed), 1, t_rng_sym(&seed)};
        double tr[3] = {2 * t_rng_sym(&seed), 2 * t_rng_sym(&seed), t_rng_sym(&seed)};
        ck_assert_int_eq(hs_pose_from_axis_angle(P, axis, 3 * t_rng_sym(&seed), tr, &err), HS_OK);
        hs_body_set_pose(torus2, P, &err);
        bvht_piece got[3][16];
        int n[3];
        for (int m = 0; m < 3; m++) {
            EXPECT(hs_world_query(w, &opt[m], rep, &err) == HS_OK, "pose %d method %d: %s", k, m, err.msg);
            n[m] = bvht_pieces(rep, got[m], 16);
        }
        for (int m = 1; m < 3; m++) {
            ck_assert_int_eq(n[m], n[0]);
            for (int j = 0; j < n[0]; j++) {
                const bvht_piece *x = &got[0][j], *y = &got[m][j];
                ck_assert_int_eq(x->st, y->st);
                ck_assert_int_eq(x->ia, y->ia);
                ck_assert_int_eq(x->ib, y->ib);
            }
        }
        for (int r = 0; r < hs_report_pair_count(rep); r++) {
            const char *a, *b;
            hs_report_pair(rep, r, &a, &b, NULL);
            int mesh_mesh = strcmp(a, "box") != 0 && strcmp(b, "box") != 0;
            if (mesh_mesh)
                continue;
            /* convex-mesh: identical witnesses whatever the method */
            for (int m = 1; m < 3; m++)
                EXPECT(memcmp(got[0][r].w, got[m][r].w, sizeof got[0][r].w) == 0,
                       "pose %d: witness of %s %s differs (method %d)", k, a, b, m);
        }
        for (int j = 0; j < n[0]; j++) {
            met++;
            touching += got[0][j].st == HS_TOUCHING;
        }
    }
    ck_assert_int_gt(met, 60);
    ck_assert_int_gt(touching, 10);
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

/* The robot meshes (../shared/data, skipped when missing): Panda and UR5
 * link meshes pairwise at random poses near each other, the hierarchy
 * against the raw method. */
static int bvht_load(const char *path, double **v, int *nv, int **t)
{
    hs_world *w = hs_world_new();
    hs_error err;
    ck_assert_int_eq(hs_world_add_file(w, path, &err), HS_OK);
    int conv, nf, *fs, *fv;
    ck_assert_int_eq(hs_body_piece_boundary(hs_world_body(w, 0), 0, &conv, v, nv, &fs, &fv, &nf,
                                            &err),
                     HS_OK);
    ck_assert_int_eq(conv, 0);
    *t = fv; /* (triangles: three corners per face) */
    for (int f = 0; f < nf; f++)
        ck_assert_int_eq(fs[f + 1] - fs[f], 3);
    hs_free(fs);
    hs_world_free(w);
    return nf;
}

START_TEST(test_bvh_robot_meshes)
{
    static const char *const names[] = {"robots/franka_panda/collision/link2.stl",
                                        "robots/franka_panda/collision/link4.stl",
                                        "robots/franka_panda/collision/hand.stl",
                                        "robots/ur5/collision/forearm.stl"};
    double *v[4];
    int *t[4], nv[4], nt[4];
    for (int i = 0; i < 4; i++) {
        const char *path = t_data("test_bvh_robot_meshes", names[i]);
        if (!path) {
            for (int j = 0; j < i; j++) {
                hs_free(v[j]);
                hs_free(t[j]);
            }
            return;
        }
        nt[i] = bvht_load(path, &v[i], &nv[i], &t[i]);
    }
    uint64_t seed = 17;
    long counts[3] = {0, 0, 0};
    for (int i = 0; i < 4; i++)
        for (int j = i; j < 4; j++)
            for (int k = 0; k < 6; k++) {
                double T[16], axis[3] = {t_rng_sym(&seed), t_rng_sym(&seed), t_rng_sym(&seed)};
                double tr[3] = {0.08 * t_rng_sym(&seed), 0.08 * t_rng_sym(&seed),
                                0.08 * t_rng_sym(&seed)};
                hs_error err;
                if (fabs(axis[0]) + fabs(axis[1]) + fabs(axis[2]) < 1e-3)
                    axis[0] = 1;
                ck_assert_int_eq(
                    hs_pose_from_axis_angle(T, axis, 3 * t_rng_sym(&seed), tr, &err), HS_OK);
                bvht_compare(v[i], nv[i], t[i], nt[i], v[j], nv[j], t[j], nt[j], T, counts);
            }
    ck_assert_int_gt(counts[0], 50);
    for (int i = 0; i < 4; i++) {
        hs_free(v[i]);
        hs_free(t[i]);
    }
}
END_TEST

Suite *suite_tri_bvh(void)
{
    Suite *s = suite_create("tri_bvh");
    TCase *tc = tcase_create("tri_bvh");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_bvh_random_soups);
    tcase_add_test(tc, test_bvh_touching_by_construction);
    tcase_add_test(tc, test_bvh_torus_poses);
    tcase_add_test(tc, test_bvh_extreme);
    tcase_add_test(tc, test_bvh_stop_and_small);
    tcase_add_test(tc, test_bvh_near_box_misses_only);
    tcase_add_test(tc, test_bvh_world_convex_mesh);
    tcase_add_test(tc, test_bvh_robot_meshes);
    suite_add_tcase(s, tc);
    return s;
}
