/* test_dimension.c -- the fast engine in many variables: polytopes of
 * n = 6..16 build and answer quickly (the preparation and the LPs use the
 * floating-point simplex with exact certification, not Seidel's LP, whose
 * cost grows like n!), and agree with the exact engine. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "halfspace.h"
#include "tests/helpers.h"

/* m rows a . x <= |a|_1 + 1 (integer entries in [-9, 9]) around c. */
static hs_poly *random_polytope(uint64_t *rng, int n, int m, const double *c)
{
    double *a = malloc(sizeof(double) * (size_t)(n * m)), *b = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < m; i++) {
        double s = 1;
        for (int j = 0; j < n; j++) {
            a[i * n + j] = (double)(int)(t_rng_next(rng) % 19) - 9;
            s += fabs(a[i * n + j]) + a[i * n + j] * c[j];
        }
        b[i] = s;
    }
    return t_poly_from_owned(n, m, a, b, NULL);
}

/* The hostile sizes (n = 12, m = 200 and n = 16, m = 50 took over a
 * minute to load): now well under a second each, prepared and queried. */
START_TEST(many_variables_load_and_answer)
{
    static const int sizes[][2] = {{12, 200}, {16, 50}, {8, 1000}};
    uint64_t rng = 99;
    hs_result *r = hs_result_new();
    for (int k = 0; k < 3; k++) {
        int n = sizes[k][0], m = sizes[k][1];
        double c0[16] = {0}, c1[16] = {0};
        c1[0] = 1;
        double t0 = t_seconds();
        hs_poly *A = random_polytope(&rng, n, m, c0), *B = random_polytope(&rng, n, m, c1);
        ck_assert(hs_poly_fast_ready(A, NULL));
        hs_error err;
        ck_assert_msg(hs_intersect(A, B, NULL, r, &err) == HS_OK, "%s", err.msg);
        ck_assert_int_eq(hs_result_status(r), HS_OVERLAP);
        ck_assert_int_eq(hs_result_verify(r, A, B, &err), HS_OK);
        double dt = t_seconds() - t0;
        ck_assert_msg(dt < 5.0, "n = %d, m = %d took %.2f s", n, m, dt); /* (generous: sanitizers) */
        hs_poly_free(A);
        hs_poly_free(B);
    }
    hs_result_free(r);
}
END_TEST

/* Random pairs in n = 5..9, near each other: fast and exact agree, every
 * fast certificate verifies. */
START_TEST(fast_agrees_with_exact_in_many_variables)
{
    uint64_t rng = 4242;
    hs_result *rf = hs_result_new(), *rx = hs_result_new();
    hs_options fast, exact;
    hs_options_init(&fast);
    hs_options_init(&exact);
    exact.engine = HS_ENGINE_EXACT;
    for (int k = 0; k < 40; k++) {
        int n = 5 + k % 5, m = 20 + (int)(t_rng_next(&rng) % 40);
        double c0[16] = {0}, c1[16] = {0};
        for (int j = 0; j < n; j++)
            c1[j] = (double)(int)(t_rng_next(&rng) % 7) - 3;
        hs_poly *A = random_polytope(&rng, n, m, c0), *B = random_polytope(&rng, n, m, c1);
        hs_error err;
        ck_assert(hs_intersect(A, B, &fast, rf, &err) == HS_OK);
        ck_assert(hs_intersect(A, B, &exact, rx, &err) == HS_OK);
        ck_assert_msg(hs_result_status(rf) == hs_result_status(rx), "pair %d (n = %d): %s vs %s",
                      k, n, hs_status_name(hs_result_status(rf)),
                      hs_status_name(hs_result_status(rx)));
        ck_assert_msg(hs_result_verify(rf, A, B, &err) == HS_OK, "pair %d: %s", k, err.msg);
        hs_poly_free(A);
        hs_poly_free(B);
    }
    hs_result_free(rf);
    hs_result_free(rx);
}
END_TEST

/* A and B answer `want` with a certificate that verifies, from the fast
 * engine itself when fast_only (no fallback to the exact engine). */
static void expect_answer(const hs_poly *A, const hs_poly *B, hs_result *r, hs_status want,
                          int fast_only, int n, int kind)
{
    hs_error err;
    ck_assert_msg(hs_intersect(A, B, NULL, r, &err) == HS_OK, "%s", err.msg);
    ck_assert_msg(hs_result_status(r) == want, "n = %d, kind %d: %s", n, kind,
                  hs_status_name(hs_result_status(r)));
    if (fast_only)
        ck_assert_msg(!hs_result_fallback(r), "n = %d, kind %d: exact engine", n, kind);
    ck_assert_msg(hs_result_verify(r, A, B, &err) == HS_OK, "n = %d: %s", n, err.msg);
}

/* In n = 5..12: a box standing face on face on another is certified
 * touching by the fast engine itself (the face-on-face proof, any n), a
 * box a little apart disjoint (a Farkas basis of two rows and n - 1 box
 * bounds, whose determinants shrink to 2 x 2), without the exact engine;
 * faces that meet only off both centers' feet are still touching (the
 * exact engine may answer).  Every certificate verifies. */
START_TEST(faces_and_gaps_in_many_variables)
{
    hs_result *r = hs_result_new();
    for (int n = 5; n <= 12; n++) {
        double lo[16], hi[16], lo2[16], hi2[16];
        for (int j = 0; j < n; j++) {
            lo[j] = 0;
            hi[j] = 2;
            lo2[j] = 0.5;
            hi2[j] = 1.25 + 0.125 * j;
        }
        hs_poly *A = t_box_poly(n, lo, hi);
        for (int kind = 0; kind < 3; kind++) {
            lo2[0] = kind == 1 ? 2.25 : 2;
            hi2[0] = lo2[0] + 3;
            for (int j = 1; j < n; j++)
                if (kind == 2) { /* the contact patch is [1.75, 2]^(n-1): off both feet */
                    lo2[j] = 1.75;
                    hi2[j] = 7;
                }
            hs_poly *B = t_box_poly(n, lo2, hi2);
            expect_answer(A, B, r, kind == 1 ? HS_DISJOINT : HS_TOUCHING, kind < 2, n, kind);
            hs_poly_free(B);
        }
        hs_poly_free(A);
    }
    hs_result_free(r);
}
END_TEST

/* The simplex {x >= 0, sum x <= 1} in n variables (n + 1 rows). */
static hs_poly *simplex_n(int n)
{
    double a[17 * 16] = {0}, b[17] = {0};
    for (int j = 0; j < n; j++)
        a[j * n + j] = -1;
    for (int j = 0; j < n; j++)
        a[n * n + j] = 1;
    b[n] = 1;
    hs_error err;
    hs_poly *p = hs_poly_from_doubles(n, n + 1, a, b, NULL, &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    return p;
}

/* A vertex on a face and an edge on a face in n = 4..10: the simplex's
 * vertex e_0 (and its edge from e_0 to e_1) on the face x_0 + x_1 >= 1 of
 * a box-like polytope: touching, proved by the fast engine's general
 * contact proof (exact signs of the basis, the vertex solved exactly, the
 * rows filtered at it) without the exact engine; certificates verify. */
START_TEST(vertex_and_edge_contacts_in_many_variables)
{
    hs_result *r = hs_result_new();
    for (int n = 4; n <= 10; n++) {
        hs_poly *A = simplex_n(n);
        for (int kind = 0; kind < 2; kind++) {
            /* B: x_0 >= 1 (vertex e_0) or x_0 + x_1 >= 1 (the edge e_0 e_1),
             * and a box around [1, 3] x [-1, 1]^(n-1) */
            double a[34 * 16] = {0}, b[34];
            int m = 0;
            a[m * n + 0] = -1;
            if (kind == 1)
                a[m * n + 1] = -1;
            b[m++] = -1;
            for (int j = 0; j < n; j++) {
                a[m * n + j] = 1;
                b[m++] = j == 0 ? 3 : 1;
                if (j > 0) {
                    a[m * n + j] = -1;
                    b[m++] = kind == 1 && j == 1 ? 0.5 : 1;
                }
            }
            hs_error err;
            hs_poly *B = hs_poly_from_doubles(n, m, a, b, NULL, &err);
            ck_assert_msg(B != NULL, "%s", err.msg);
            expect_answer(A, B, r, HS_TOUCHING, 1, n, kind);
            hs_poly_free(B);
        }
        hs_poly_free(A);
    }
    hs_result_free(r);
}
END_TEST

Suite *suite_dimension(void)
{
    Suite *s = suite_create("dimension");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, many_variables_load_and_answer);
    tcase_add_test(tc, fast_agrees_with_exact_in_many_variables);
    tcase_add_test(tc, faces_and_gaps_in_many_variables);
    tcase_add_test(tc, vertex_and_edge_contacts_in_many_variables);
    suite_add_tcase(s, tc);
    return s;
}
