/* test_glpk.c -- the GLPK cross-checking engines on hand-made cases, through
 * the public API with both HS_ENGINE_GLPK and HS_ENGINE_GLPK_EXACT. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/engines.h"
#include "tests/helpers.h"

static const hs_engine glpk_engines[2] = {HS_ENGINE_GLPK, HS_ENGINE_GLPK_EXACT};

/* Polyhedron from rows laid out as a_1 .. a_n b (m rows); eq may be NULL. */
static hs_poly *rows_poly(int n, int m, const double *rows, const unsigned char *eq)
{
    double *a = malloc(sizeof(double) * (size_t)(n * m));
    double *b = malloc(sizeof(double) * (size_t)m);
    ck_assert(a && b);
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++)
            a[i * n + j] = rows[i * (n + 1) + j];
        b[i] = rows[i * (n + 1) + n];
    }
    return t_poly_from_owned(n, m, a, b, eq);
}

/* Box whose first coordinate is [lo0, hi0] and the others [0, 1]. */
static hs_poly *slab_box(int n, double lo0, double hi0)
{
    double lo[8], hi[8];
    ck_assert(n <= 8);
    for (int j = 0; j < n; j++) {
        lo[j] = 0.0;
        hi[j] = 1.0;
    }
    lo[0] = lo0;
    hi[0] = hi0;
    return t_box_poly(n, lo, hi);
}

static hs_status pair_status(const hs_poly *A, const hs_poly *B, hs_engine e, hs_result *r)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = e;
    hs_error err;
    hs_error_clear(&err);
    hs_code rc = hs_intersect(A, B, &opt, r, &err);
    ck_assert_msg(rc == HS_OK, "%s: %s", hs_engine_name(e), err.msg);
    return hs_result_status(r);
}

/* Largest violation of P's rows at x (positive = outside). */
static double violation(const hs_poly *P, const double *x)
{
    double worst = -INFINITY, a[16], b;
    for (int i = 0; i < hs_poly_rows(P); i++) {
        hs_poly_row(P, i, a, &b);
        double lhs = 0.0;
        for (int j = 0; j < hs_poly_dim(P); j++)
            lhs += a[j] * x[j];
        double v = hs_poly_row_is_eq(P, i) ? fabs(lhs - b) : lhs - b;
        worst = fmax(worst, v);
    }
    return worst;
}

/* Both engines give `want`; a meeting answer carries a common point. */
static void expect_pair(const hs_poly *A, const hs_poly *B, hs_status want, const char *what)
{
    hs_result *r = hs_result_new();
    for (int k = 0; k < 2; k++) {
        hs_status got = pair_status(A, B, glpk_engines[k], r);
        ck_assert_msg(got == want, "%s, %s: got %s, expected %s", what,
                      hs_engine_name(glpk_engines[k]), hs_status_name(got),
                      hs_status_name(want));
        ck_assert_int_eq(hs_result_has_point(r), want != HS_DISJOINT);
        if (want == HS_DISJOINT)
            continue;
        double x[16];
        ck_assert_int_eq(hs_result_point(r, x), HS_OK);
        ck_assert_msg(violation(A, x) <= 1e-9 && violation(B, x) <= 1e-9,
                      "%s: point is not common", what);
        ck_assert_int_eq(hs_result_multiplier_count(r), 0);
    }
    hs_result_free(r);
}

static void expect_feasible(const hs_poly *P, hs_status want, const char *what)
{
    hs_result *r = hs_result_new();
    for (int k = 0; k < 2; k++) {
        hs_options opt;
        hs_options_init(&opt);
        opt.engine = glpk_engines[k];
        hs_error err;
        ck_assert_int_eq(hs_feasible(P, &opt, r, &err), HS_OK);
        ck_assert_msg(hs_result_status(r) == want, "%s, %s: got %s", what,
                      hs_engine_name(glpk_engines[k]), hs_status_name(hs_result_status(r)));
        if (want == HS_FEASIBLE) {
            double x[16];
            ck_assert_int_eq(hs_result_point(r, x), HS_OK);
            ck_assert(violation(P, x) <= 1e-9);
        } else {
            ck_assert(!hs_result_has_point(r));
        }
    }
    hs_result_free(r);
}

START_TEST(boxes_in_each_dimension)
{
    int n = _i;
    hs_poly *A = slab_box(n, 0, 1);
    hs_poly *over = slab_box(n, 0.5, 2);
    hs_poly *touch = slab_box(n, 1, 2);
    hs_poly *apart = slab_box(n, 2, 3);
    expect_pair(A, over, HS_OVERLAP, "overlapping boxes");
    expect_pair(A, touch, HS_TOUCHING, "face-face boxes");
    expect_pair(A, apart, HS_DISJOINT, "disjoint boxes");
    expect_pair(A, A, HS_OVERLAP, "a box with itself");
    expect_feasible(A, HS_FEASIBLE, "box");
    hs_poly_free(A);
    hs_poly_free(over);
    hs_poly_free(touch);
    hs_poly_free(apart);
}
END_TEST

START_TEST(ine_text_boxes)
{
    hs_poly *A = t_poly(t_box_text(3, "0", "1"));
    hs_poly *B = t_poly(t_box_text(3, "1", "2"));
    hs_poly *C = t_poly(t_box_text(3, "1/2", "3/2"));
    expect_pair(A, B, HS_TOUCHING, "cubes sharing a vertex");
    expect_pair(A, C, HS_OVERLAP, "cubes overlapping");
    hs_poly_free(A);
    hs_poly_free(B);
    hs_poly_free(C);
}
END_TEST

START_TEST(edge_edge_3d)
{
    /* A: wedge below z = 0 with its edge on the y axis; B: wedge above with
     * its edge on the x axis; both capped.  They meet only at 0. */
    const double a[] = {1, 0, 1, 0,  -1, 0, 1, 0,  0, 0, -1, 5,  0, 1, 0, 5,  0, -1, 0, 5};
    const double b[] = {0, 1, -1, 0,  0, -1, -1, 0,  0, 0, 1, 5,  1, 0, 0, 5,  -1, 0, 0, 5};
    hs_poly *A = rows_poly(3, 5, a, NULL);
    hs_poly *B = rows_poly(3, 5, b, NULL);
    expect_pair(A, B, HS_TOUCHING, "edge-edge");
    hs_poly_free(B);
    /* The same wedge lowered by 1/2: the edges pass each other. */
    const double c[] = {0, 1, -1, 0.5,  0, -1, -1, 0.5,  0, 0, 1, 5,  1, 0, 0, 5,  -1, 0, 0, 5};
    B = rows_poly(3, 5, c, NULL);
    expect_pair(A, B, HS_OVERLAP, "edges crossing");
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(vertex_face_3d)
{
    double lo[3] = {-1, -1, -2}, hi[3] = {1, 1, 0};
    hs_poly *A = t_box_poly(3, lo, hi);
    /* B = {z >= |x| + |y|, z <= 1}: a pyramid standing on its apex 0. */
    const double b[] = {1, 0, -1, 0,  -1, 0, -1, 0,  0, 1, -1, 0,  0, -1, -1, 0,  0, 0, 1, 1};
    hs_poly *B = rows_poly(3, 5, b, NULL);
    expect_pair(A, B, HS_TOUCHING, "vertex on face");
    expect_pair(B, A, HS_TOUCHING, "vertex on face, swapped");
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(flat_polygon_on_and_through_a_box)
{
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    hs_poly *box = t_box_poly(3, lo, hi);
    /* Square 1/4 <= x, y <= 3/4 in the plane z = h (equality row first). */
    double rows[] = {0, 0, 1, 1,  1, 0, 0, 0.75,  -1, 0, 0, -0.25,  0, 1, 0, 0.75,
                     0, -1, 0, -0.25};
    const unsigned char eq[5] = {1, 0, 0, 0, 0};
    hs_poly *flat = rows_poly(3, 5, rows, eq);
    expect_pair(box, flat, HS_TOUCHING, "flat square on the top face");
    expect_pair(flat, box, HS_TOUCHING, "flat square on the top face, swapped");
    hs_poly_free(flat);
    rows[3] = 0.5;
    flat = rows_poly(3, 5, rows, eq);
    expect_pair(box, flat, HS_OVERLAP, "flat square through the box");
    hs_poly_free(flat);
    rows[3] = 2;
    flat = rows_poly(3, 5, rows, eq);
    expect_pair(box, flat, HS_DISJOINT, "flat square above the box");
    hs_poly_free(flat);
    hs_poly_free(box);
}
END_TEST

START_TEST(implicit_equalities_as_opposite_rows)
{
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    hs_poly *box = t_box_poly(3, lo, hi);
    /* z <= h and -z <= -h instead of an equality row. */
    double rows[] = {0, 0, 1, 1,  0, 0, -1, -1,  1, 0, 0, 0.75,  -1, 0, 0, -0.25,
                     0, 1, 0, 0.75,  0, -1, 0, -0.25};
    hs_poly *flat = rows_poly(3, 6, rows, NULL);
    expect_pair(box, flat, HS_TOUCHING, "implicit flat square on a face");
    hs_poly_free(flat);
    rows[3] = 0.5;
    rows[7] = -0.5;
    flat = rows_poly(3, 6, rows, NULL);
    expect_pair(box, flat, HS_OVERLAP, "implicit flat square through the box");
    expect_pair(flat, flat, HS_OVERLAP, "implicit flat square with itself");
    hs_poly_free(flat);
    hs_poly_free(box);
}
END_TEST

START_TEST(segments_in_the_plane)
{
    /* A: y = 0, 0 <= x <= 2 (as opposite rows); B: x = 1, lo <= y <= 1. */
    const double a[] = {0, 1, 0,  0, -1, 0,  1, 0, 2,  -1, 0, 0};
    double b[] = {1, 0, 1,  -1, 0, -1,  0, 1, 1,  0, -1, 0};
    hs_poly *A = rows_poly(2, 4, a, NULL);
    hs_poly *B = rows_poly(2, 4, b, NULL);
    expect_pair(A, B, HS_TOUCHING, "T junction");
    hs_poly_free(B);
    b[11] = 1; /* -y <= 1: y from -1 */
    B = rows_poly(2, 4, b, NULL);
    expect_pair(A, B, HS_OVERLAP, "segments crossing");
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(single_points)
{
    double lo[2] = {0, 0}, hi[2] = {2, 2};
    hs_poly *box = t_box_poly(2, lo, hi);
    const unsigned char eq[2] = {1, 1};
    double inner[] = {1, 0, 1,  0, 1, 1};
    double corner[] = {1, 0, 2,  0, 1, 2};
    hs_poly *p = rows_poly(2, 2, inner, eq);
    hs_poly *q = rows_poly(2, 2, corner, eq);
    expect_pair(box, p, HS_OVERLAP, "point inside a square");
    expect_pair(box, q, HS_TOUCHING, "point at a corner");
    expect_pair(p, p, HS_OVERLAP, "point with itself");
    expect_pair(p, q, HS_DISJOINT, "two points");
    hs_poly_free(box);
    hs_poly_free(p);
    hs_poly_free(q);
}
END_TEST

START_TEST(empty_inputs)
{
    hs_poly *box = slab_box(2, 0, 1);
    const double contra[] = {1, 0, 0,  -1, 0, -1};
    hs_poly *E = rows_poly(2, 2, contra, NULL);
    expect_feasible(E, HS_INFEASIBLE, "x <= 0, x >= 1");
    expect_pair(E, box, HS_DISJOINT, "empty A");
    expect_pair(box, E, HS_DISJOINT, "empty B");
    expect_pair(E, E, HS_DISJOINT, "both empty");
    hs_poly_free(E);
    /* Inconsistent equalities: GLPK finds no feasible solution at all. */
    const double eqrows[] = {1, 1, 0,  2, 2, 1};
    const unsigned char eq[2] = {1, 1};
    E = rows_poly(2, 2, eqrows, eq);
    expect_feasible(E, HS_INFEASIBLE, "x + y = 0, 2x + 2y = 1");
    expect_pair(E, box, HS_DISJOINT, "inconsistent equalities");
    hs_poly_free(E);
    /* Three rows, no two of them contradictory. */
    const double tri[] = {-1, 0, 0,  0, -1, 0,  1, 1, -1};
    E = rows_poly(2, 3, tri, NULL);
    expect_feasible(E, HS_INFEASIBLE, "x, y >= 0, x + y <= -1");
    hs_poly_free(E);
    hs_poly_free(box);
}
END_TEST

START_TEST(unbounded_inputs)
{
    for (int n = 1; n <= 5; n++) {
        double up[6] = {0}, down[6] = {0};
        up[0] = 1;     /* x_1 <= 0 */
        down[0] = -1;  /* -x_1 <= -t */
        hs_poly *H = rows_poly(n, 1, up, NULL);
        expect_feasible(H, HS_FEASIBLE, "half-space");
        double shifts[3] = {0, -1, 1};
        hs_status want[3] = {HS_TOUCHING, HS_OVERLAP, HS_DISJOINT};
        for (int k = 0; k < 3; k++) {
            down[n] = -shifts[k];
            hs_poly *G = rows_poly(n, 1, down, NULL);
            expect_pair(H, G, want[k], "opposite half-spaces");
            hs_poly_free(G);
        }
        expect_pair(H, H, HS_OVERLAP, "a half-space with itself");
        hs_poly_free(H);
    }
    /* Two crossing slabs and a zero row 0.x <= 0. */
    const double s1[] = {1, 0, 1,  -1, 0, 0,  0, 0, 0};
    const double s2[] = {1, 1, 1,  -1, -1, 1};
    hs_poly *A = rows_poly(2, 3, s1, NULL);
    hs_poly *B = rows_poly(2, 2, s2, NULL);
    expect_pair(A, B, HS_OVERLAP, "crossing slabs");
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

/* The exact engine must see a gap or overlap of 2^-40 next to 3; the float
 * engine is allowed to call both touching. */
START_TEST(tiny_gap_and_overlap)
{
    double eps = ldexp(1.0, -40);
    for (int n = 1; n <= 5; n++) {
        hs_poly *A = slab_box(n, 0, 3);
        hs_poly *gap = slab_box(n, 3 + eps, 4);
        hs_poly *over = slab_box(n, 3 - eps, 4);
        hs_poly *touch = slab_box(n, 3, 4);
        hs_result *r = hs_result_new();
        ck_assert_int_eq(pair_status(A, gap, HS_ENGINE_GLPK_EXACT, r), HS_DISJOINT);
        ck_assert_int_eq(pair_status(A, over, HS_ENGINE_GLPK_EXACT, r), HS_OVERLAP);
        ck_assert_int_eq(pair_status(A, touch, HS_ENGINE_GLPK_EXACT, r), HS_TOUCHING);
        ck_assert_int_eq(pair_status(A, touch, HS_ENGINE_GLPK, r), HS_TOUCHING);
        hs_status f = pair_status(A, gap, HS_ENGINE_GLPK, r);
        ck_assert(f == HS_TOUCHING || f == HS_DISJOINT);
        hs_result_free(r);
        hs_poly_free(A);
        hs_poly_free(gap);
        hs_poly_free(over);
        hs_poly_free(touch);
    }
}
END_TEST

START_TEST(margin_values)
{
    hs_poly *A = slab_box(2, 0, 1);
    hs_poly *B = slab_box(2, 2, 3);
    double tau = 0;
    hs_error err;
    ck_assert_int_eq(glpk_margin(A, B, 1, &tau, &err), HS_OK);
    ck_assert(tau == -0.5);
    ck_assert_int_eq(glpk_margin(A, NULL, 1, &tau, &err), HS_OK);
    ck_assert(tau == 0.5);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

/* Rows that are not doubles reach GLPK rounded: 3x <= 1 against
 * x >= 1/3 touches exactly, but GLPK sees x >= nearest double of 1/3, which
 * lies below 1/3, and reports an overlap.  This is documented behaviour. */
START_TEST(non_double_rows_are_rounded)
{
    hs_poly *A = t_poly("begin\n1 2 rational\n1 -3\nend\n");
    hs_poly *B = t_poly("begin\n1 2 rational\n-1/3 1\nend\n");
    hs_result *r = hs_result_new();
    ck_assert_int_eq(pair_status(A, B, HS_ENGINE_GLPK_EXACT, r), HS_OVERLAP);
    hs_result_free(r);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

static hs_code feasible_code(const hs_poly *P, hs_engine e, hs_result *r, hs_error *err)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = e;
    return hs_feasible(P, &opt, r, err);
}

/* Rows GLPK cannot be trusted with are refused, never answered or
 * allowed to stop the process. */
START_TEST(unusable_rows_are_refused)
{
    hs_result *r = hs_result_new();
    hs_error err;
    /* 1e300 next to 2^-1000: no integer scaling, too wide for floats */
    const double wide[] = {1e300, ldexp(1.0, -1000), 1};
    hs_poly *A = rows_poly(2, 1, wide, NULL);
    ck_assert_int_eq(feasible_code(A, HS_ENGINE_GLPK_EXACT, r, &err), HS_ERR_UNSUPPORTED);
    ck_assert(strstr(err.msg, "glpk-exact: row 1") != NULL);
    ck_assert_int_eq(feasible_code(A, HS_ENGINE_GLPK, r, &err), HS_ERR_UNSUPPORTED);
    ck_assert(strstr(err.msg, "glpk: row 1") != NULL);
    hs_poly_free(A);
    /* 53 significant bits at 2^-1000: the weight 2^1052 would overflow */
    const double fine[] = {ldexp(1.0 + ldexp(1.0, -52), -1000), 0};
    A = rows_poly(1, 1, fine, NULL);
    ck_assert_int_eq(feasible_code(A, HS_ENGINE_GLPK_EXACT, r, &err), HS_ERR_UNSUPPORTED);
    hs_poly_free(A);
    /* huge integers in many rows: results might not fit doubles */
    const double huge[] = {1e300, 1, 1e300,  1, 1e300, 1e300,  1e300, 1e300, 1};
    A = rows_poly(2, 3, huge, NULL);
    ck_assert_int_eq(feasible_code(A, HS_ENGINE_GLPK_EXACT, r, &err), HS_ERR_UNSUPPORTED);
    ck_assert(strstr(err.msg, "too wide") != NULL);
    hs_poly_free(A);
    hs_result_free(r);
}
END_TEST

/* Large but usable magnitudes (glp_exact without its float head start). */
START_TEST(large_magnitudes)
{
    const double a[] = {1e100, 1e100};
    const double b[] = {-1, -1};
    hs_poly *A = rows_poly(1, 1, a, NULL);
    hs_poly *B = rows_poly(1, 1, b, NULL);
    expect_pair(A, B, HS_TOUCHING, "x <= 1 written with 1e100 against x >= 1");
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

/* Zero rows and a fixed row that loses every entry once fixed: GLPK must
 * not be left with a singular basis (it would stop the process). */
START_TEST(degenerate_rows)
{
    const double a[] = {0, 0, 0};
    const double b[] = {0, -284, -616};
    const unsigned char eq[1] = {1};
    hs_poly *A = rows_poly(2, 1, a, NULL);
    hs_poly *B = rows_poly(2, 1, b, eq);
    expect_pair(A, B, HS_OVERLAP, "0.x <= 0 against a line");
    expect_feasible(A, HS_FEASIBLE, "0.x <= 0");
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(engine_names_and_results)
{
    hs_poly *A = slab_box(2, 0, 1);
    hs_result *r = hs_result_new();
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_GLPK_EXACT;
    hs_error err;
    ck_assert_int_eq(hs_intersect(A, A, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_dim(r), 2);
    /* reusing the result for a smaller query */
    hs_poly *L = slab_box(1, 0, 1);
    ck_assert_int_eq(hs_feasible(L, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_dim(r), 1);
    ck_assert_int_eq(hs_intersect(A, L, &opt, r, &err), HS_ERR_INPUT);
    hs_result_free(r);
    hs_poly_free(A);
    hs_poly_free(L);
}
END_TEST

Suite *suite_glpk(void)
{
    Suite *s = suite_create("glpk");
    TCase *tc = tcase_create("glpk");
    tcase_add_loop_test(tc, boxes_in_each_dimension, 1, 6);
    tcase_add_test(tc, ine_text_boxes);
    tcase_add_test(tc, edge_edge_3d);
    tcase_add_test(tc, vertex_face_3d);
    tcase_add_test(tc, flat_polygon_on_and_through_a_box);
    tcase_add_test(tc, implicit_equalities_as_opposite_rows);
    tcase_add_test(tc, segments_in_the_plane);
    tcase_add_test(tc, single_points);
    tcase_add_test(tc, empty_inputs);
    tcase_add_test(tc, unbounded_inputs);
    tcase_add_test(tc, tiny_gap_and_overlap);
    tcase_add_test(tc, margin_values);
    tcase_add_test(tc, non_double_rows_are_rounded);
    tcase_add_test(tc, unusable_rows_are_refused);
    tcase_add_test(tc, large_magnitudes);
    tcase_add_test(tc, degenerate_rows);
    tcase_add_test(tc, engine_names_and_results);
    suite_add_tcase(s, tc);
    return s;
}
