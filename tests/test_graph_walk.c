/* test_graph_walk.c -- the vertex graph (solver/fast_graph.c), GJK on it
 * (solver/fast_gjk.c) and the fast engine's first step by them
 * (engine_fast.c): supports against a pass over every vertex, on simple
 * polytopes, on clusters of vertices one rounding apart and on the hulls
 * of real meshes; GJK's directions and points against the vertices; the
 * engine's answers against the exact engine's. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/families.h"
#include "halfspace.h"
#include "polytope/hpoly.h"
#include "solver/fast_gjk.h"
#include "tests/helpers.h"

static const fast_graph *graph_of(const hs_poly *P)
{
    const fast_prep *fp = NULL;
    ck_assert_int_eq(fast_prep_get(P, &fp, NULL), 0);
    ck_assert_ptr_nonnull(fp);
    const fast_graph *g = fast_prep_graph(fp);
    ck_assert_ptr_nonnull(g);
    return g;
}

static double along(const fast_graph *g, int v, const double *d)
{
    const double *x = g->vert[v].x;
    return d[0] * x[0] + d[1] * x[1] + d[2] * x[2];
}

/* The walk's vertex is extreme along each of `count` random directions
 * (to the rounding of the dot products), and every row it names is tight
 * there to rounding. */
static void expect_supports(const hs_poly *P, const fast_graph *g, int count, uint64_t *rng,
                            const char *what)
{
    ck_assert_int_gt(g->nverts, 3);
    for (int k = 0; k < count; k++) {
        double d[3] = {t_rng_sym(rng), t_rng_sym(rng), t_rng_sym(rng)}, top, best = -INFINITY;
        int v = fast_graph_support(g, d, &top);
        for (int u = 0; u < g->nverts; u++)
            best = fmax(best, along(g, u, d));
        ck_assert(top == along(g, v, d));
        EXPECT(best <= top + 1e-12 * (fabs(best) + 1), "%s: direction %d: the walk stopped at "
               "%.17g, the best vertex gives %.17g", what, k, top, best);
        int nrows;
        const int *rows = fast_graph_tight(g, v, &nrows);
        ck_assert_int_ge(nrows, 3);
        for (int t = 0; t < nrows; t++) {
            const double *a = hpoly_row(P, rows[t]), *x = g->vert[v].x;
            double ex = a[0] * x[0] + a[1] * x[1] + a[2] * x[2] - P->b[rows[t]];
            double mag = fabs(a[0] * x[0]) + fabs(a[1] * x[1]) + fabs(a[2] * x[2]) + fabs(P->b[rows[t]]);
            EXPECT(fabs(ex) <= 1e-6 * mag, "%s: row %d of vertex %d is off by %g", what, rows[t],
                   v, ex);
        }
    }
}

/* Tangent-sphere and elongated polytopes: simple vertices, the cone steps. */
START_TEST(supports_on_simple_polytopes)
{
    uint64_t rng = 7;
    static const double e[3] = {1, 0.25, 0.1};
    int simple = 0, total = 0;
    for (int k = 0; k < 3; k++) {
        double c[3] = {0.5, -1, 2};
        hs_poly *P = t_ellipsoid_rows(60 + 100 * k, e[k], c, 1, &rng);
        const fast_graph *g = graph_of(P);
        for (int v = 0; v < g->nverts; v++)
            simple += g->vert[v].simple;
        total += g->nverts;
        expect_supports(P, g, 300, &rng, "ellipsoid");
        hs_poly_free(P);
    }
    ck_assert_int_gt(simple, total / 2); /* (the cone steps were exercised) */
}
END_TEST

/* An octahedron's four planes at each corner, each moved by a few units
 * in the last place: every corner splits into vertices a rounding apart,
 * joined by edges of no length, which the graph contracts (a walk would
 * stall on them); plus enough rows around to have a graph. */
START_TEST(supports_on_split_corners)
{
    uint64_t rng = 11;
    double a[3 * 40], b[40];
    int m = 0;
    for (int s = 0; s < 8; s++) { /* the octahedron |x| + |y| + |z| <= 1, nudged */
        a[3 * m] = s & 1 ? -1 : 1;
        a[3 * m + 1] = s & 2 ? -1 : 1;
        a[3 * m + 2] = s & 4 ? -1 : 1;
        b[m++] = 1 + (double)(s + 1) * 0x1p-50;
    }
    while (m < 40) { /* planes cutting nothing: x . u <= |u|_1 + 1 (redundant) */
        double u[3] = {t_rng_sym(&rng), t_rng_sym(&rng), t_rng_sym(&rng)};
        memcpy(a + 3 * m, u, sizeof u);
        b[m++] = fabs(u[0]) + fabs(u[1]) + fabs(u[2]) + 1;
    }
    hs_error err;
    hs_poly *P = hs_poly_from_doubles(3, m, a, b, NULL, &err);
    ck_assert_ptr_nonnull(P);
    const fast_graph *g = graph_of(P);
    ck_assert_int_eq(g->nverts, 6); /* the corners, one point each */
    expect_supports(P, g, 500, &rng, "split octahedron");
    hs_poly_free(P);
}
END_TEST

/* The hulls of real meshes (bench/pairs' hull family): many planes meet
 * at each corner, to rounding. */
START_TEST(supports_on_mesh_hulls)
{
    const char *dir = t_data("supports_on_mesh_hulls", "robots");
    if (!dir)
        return;
    char note[256];
    fam_meshes *ms = fam_meshes_load(t_data_dir(), note, sizeof note);
    ck_assert_msg(ms != NULL, "%s", note);
    uint64_t rng = 3;
    for (long k = 0; k < 6; k++) {
        fam_pair p;
        hs_error err;
        ck_assert_int_eq(fam_make(FAM_HULL, 1, k, 0, ms, &p, &err), HS_OK);
        hs_poly *P = hs_poly_from_doubles(3, p.m[0], p.a[0], p.b[0], NULL, &err);
        ck_assert_ptr_nonnull(P);
        expect_supports(P, graph_of(P), 200, &rng, "mesh hull");
        hs_poly_free(P);
        fam_pair_free(&p);
    }
    fam_meshes_free(ms);
}
END_TEST

/* GJK's answers: a separating direction separates the two vertex sets
 * (checked over every vertex) and names their extreme vertices; a common
 * point lies in both (every row, to rounding); and neither contradicts
 * the exact engine. */
START_TEST(gjk_against_the_vertices)
{
    static const fam_id fams[3] = {FAM_SPHERE, FAM_ELONG10, FAM_NEAR};
    hs_result *r = hs_result_new();
    hs_options o;
    hs_options_init(&o);
    o.engine = HS_ENGINE_EXACT;
    int answers[3] = {0, 0, 0};
    for (int f = 0; f < 3; f++)
        for (long k = 0; k < 30; k++) {
            fam_pair p;
            hs_error err;
            ck_assert_int_eq(fam_make(fams[f], 1, k, 60, NULL, &p, &err), HS_OK);
            hs_poly *A = hs_poly_from_doubles(3, p.m[0], p.a[0], p.b[0], NULL, &err);
            hs_poly *B = hs_poly_from_doubles(3, p.m[1], p.a[1], p.b[1], NULL, &err);
            ck_assert(A && B);
            const fast_graph *ga = graph_of(A), *gb = graph_of(B);
            const fast_prep *fa, *fb;
            fast_prep_get(A, &fa, NULL);
            fast_prep_get(B, &fb, NULL);
            double d0[3];
            for (int j = 0; j < 3; j++)
                d0[j] = fb->center[j] - fa->center[j];
            fast_gjk_out out;
            fast_gjk_status st = fast_gjk(ga, gb, d0, &out);
            answers[st]++;
            ck_assert_int_eq(hs_intersect(A, B, &o, r, &err), HS_OK);
            hs_status truth = hs_result_status(r);
            if (st == FAST_GJK_DISJOINT) {
                double maxa = -INFINITY, minb = INFINITY;
                for (int v = 0; v < ga->nverts; v++)
                    maxa = fmax(maxa, along(ga, v, out.dir));
                for (int v = 0; v < gb->nverts; v++)
                    minb = fmin(minb, along(gb, v, out.dir));
                ck_assert(maxa < minb);
                double tol = 1e-12 * (fabs(maxa) + fabs(minb));
                EXPECT(along(ga, out.va, out.dir) >= maxa - tol &&
                           along(gb, out.vb, out.dir) <= minb + tol,
                       "%s pair %ld: %.17g %.17g / %.17g %.17g", fam_name(fams[f]), k,
                       along(ga, out.va, out.dir), maxa, along(gb, out.vb, out.dir), minb);
                ck_assert_int_ne(truth, HS_OVERLAP);
            } else if (st == FAST_GJK_OVERLAP) {
                for (int k2 = 0; k2 < 2; k2++) {
                    const hs_poly *P = k2 ? B : A;
                    for (int i = 0; i < P->m; i++) {
                        const double *a = hpoly_row(P, i);
                        double ex = a[0] * out.point[0] + a[1] * out.point[1] +
                                    a[2] * out.point[2] - P->b[i];
                        ck_assert(ex <= 1e-9 * (fabs(P->b[i]) + 1));
                    }
                }
                ck_assert_int_ne(truth, HS_DISJOINT);
            }
            hs_poly_free(A);
            hs_poly_free(B);
            fam_pair_free(&p);
        }
    ck_assert_int_gt(answers[FAST_GJK_DISJOINT], 10);
    ck_assert_int_gt(answers[FAST_GJK_OVERLAP], 10);
    hs_result_free(r);
}
END_TEST

static void count_gjk(void *user, const char *line)
{
    if (strstr(line, "GJK on the vertex graphs"))
        ++*(int *)user;
}

/* The fast engine through GJK: its answers (disjoint and overlap of
 * elongated pairs, which take GJK, and the contacts of bench/pairs'
 * touching families, round polytopes that go straight to the LP)
 * equal the exact engine's, certified without a fallback, and the GJK
 * step did run. */
START_TEST(engine_through_gjk)
{
    static const fam_id fams[6] = {FAM_ELONG2, FAM_ELONG4, FAM_ELONG10,
                                   FAM_TOUCH_FF, FAM_TOUCH_EE, FAM_TOUCH_VF};
    hs_result *rf = hs_result_new(), *rx = hs_result_new();
    hs_options of, ox;
    hs_options_init(&of);
    hs_options_init(&ox);
    int used = 0;
    of.trace = count_gjk;
    of.trace_user = &used;
    ox.engine = HS_ENGINE_EXACT;
    for (int f = 0; f < 6; f++)
        for (long k = 0; k < 12; k++) {
            fam_pair p;
            hs_error err;
            ck_assert_int_eq(fam_make(fams[f], 2, k, 40, NULL, &p, &err), HS_OK);
            hs_poly *A = hs_poly_from_doubles(3, p.m[0], p.a[0], p.b[0], NULL, &err);
            hs_poly *B = hs_poly_from_doubles(3, p.m[1], p.a[1], p.b[1], NULL, &err);
            ck_assert(A && B);
            ck_assert_int_eq(hs_intersect(A, B, &of, rf, &err), HS_OK);
            ck_assert_int_eq(hs_result_fallback(rf), 0);
            ck_assert_msg(hs_result_verify(rf, A, B, &err) == HS_OK, "%s pair %ld: %s",
                          fam_name(fams[f]), k, err.msg);
            ck_assert_int_eq(hs_intersect(A, B, &ox, rx, &err), HS_OK);
            ck_assert_int_eq(hs_result_status(rf), hs_result_status(rx));
            hs_poly_free(A);
            hs_poly_free(B);
            fam_pair_free(&p);
        }
    ck_assert_int_gt(used, 16); /* (of the 36 elongated pairs: the others overlap deeply
                                   enough for the inner stars, before GJK) */
    hs_result_free(rf);
    hs_result_free(rx);
}
END_TEST

/* An unbounded polyhedron has no vertex graph (nverts 0): the engine
 * takes its usual steps, and answers as the exact engine does. */
START_TEST(no_graph_when_unbounded)
{
    double a[3 * 20], b[20];
    for (int i = 0; i < 20; i++) { /* z >= a tangent of the paraboloid at 20 points */
        double u = cos(0.7 * i) * (1 + 0.1 * i), v = sin(0.7 * i) * (1 + 0.1 * i);
        a[3 * i] = 2 * u;
        a[3 * i + 1] = 2 * v;
        a[3 * i + 2] = -1;
        b[i] = u * u + v * v;
    }
    hs_error err;
    hs_poly *P = hs_poly_from_doubles(3, 20, a, b, NULL, &err);
    ck_assert_ptr_nonnull(P);
    ck_assert_int_eq(graph_of(P)->nverts, 0);
    uint64_t rng = 5;
    hs_result *rf = hs_result_new(), *rx = hs_result_new();
    hs_options ox;
    hs_options_init(&ox);
    ox.engine = HS_ENGINE_EXACT;
    for (int k = 0; k < 4; k++) {
        double c[3] = {0, 0, 1.5 - k}; /* above the surface, across it, below */
        hs_poly *S = t_ellipsoid_rows(30, 1, c, 0.5, &rng);
        ck_assert_int_eq(hs_intersect(P, S, NULL, rf, &err), HS_OK);
        ck_assert_int_eq(hs_intersect(P, S, &ox, rx, &err), HS_OK);
        ck_assert_int_eq(hs_result_status(rf), hs_result_status(rx));
        hs_poly_free(S);
    }
    hs_result_free(rf);
    hs_result_free(rx);
    hs_poly_free(P);
}
END_TEST

Suite *suite_graph_walk(void)
{
    Suite *s = suite_create("graph_walk");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, supports_on_simple_polytopes);
    tcase_add_test(tc, supports_on_split_corners);
    tcase_add_test(tc, supports_on_mesh_hulls);
    tcase_add_test(tc, gjk_against_the_vertices);
    tcase_add_test(tc, engine_through_gjk);
    tcase_add_test(tc, no_graph_when_unbounded);
    suite_add_tcase(s, tc);
    return s;
}
