/* test_tangent.c -- the benchmark generator of tangent-sphere polytopes
 * (bench/tangent.c, linked into the unit tests as an object of its own):
 * reproducibility, exact dyadic rows tangent to the sphere, and two pairs
 * whose answer is known from the geometry. */
#include "bench/tangent.h"

#include <math.h>
#include <stdint.h>

#include "tests/helpers.h"

/* Rows of two polyhedra are identical, number for number. */
static int same_rows(const hs_poly *P, const hs_poly *Q)
{
    if (hs_poly_rows(P) != hs_poly_rows(Q))
        return 0;
    for (int i = 0; i < hs_poly_rows(P); i++) {
        double a[3], b, c[3], d;
        hs_poly_row(P, i, a, &b);
        hs_poly_row(Q, i, c, &d);
        if (a[0] != c[0] || a[1] != c[1] || a[2] != c[2] || b != d)
            return 0;
    }
    return 1;
}

START_TEST(same_seed_same_rows)
{
    hs_poly *A1, *B1, *A2, *B2, *A3, *B3;
    double c1[3], c2[3];
    ck_assert_int_eq(tangent_pair(42, 7, 60, 80, &A1, &B1, c1, NULL), HS_OK);
    ck_assert_int_eq(tangent_pair(42, 7, 60, 80, &A2, &B2, c2, NULL), HS_OK);
    ck_assert_int_eq(tangent_pair(42, 8, 60, 80, &A3, &B3, NULL, NULL), HS_OK);
    ck_assert_int_eq(hs_poly_rows(A1), 60);
    ck_assert_int_eq(hs_poly_rows(B1), 80);
    ck_assert(same_rows(A1, A2) && same_rows(B1, B2));
    ck_assert(c1[0] == c2[0] && c1[1] == c2[1] && c1[2] == c2[2]);
    ck_assert(!same_rows(A1, A3)); /* another index, another pair */
    hs_poly *P[] = {A1, B1, A2, B2, A3, B3};
    for (int k = 0; k < 6; k++)
        hs_poly_free(P[k]);
}
END_TEST

/* Row i of P is an exact dyadic row tangent to the unit sphere around c
 * from outside: integer normal u with |u| <= 1000, and 2^10 (b - u.c) is
 * the integer ceil(2^10 |u|).  Every operation below is exact in double. */
static void check_tangent_row(const hs_poly *P, int i, const double c[3])
{
    double a[3], b;
    ck_assert_msg(hs_poly_row(P, i, a, &b), "row %d is not exactly a double", i);
    double r2 = 0, dotc = 0;
    for (int j = 0; j < 3; j++) {
        ck_assert(a[j] == floor(a[j]) && fabs(a[j]) <= TANGENT_COORD_MAX);
        r2 += a[j] * a[j];
        dotc += a[j] * c[j];
    }
    ck_assert(r2 > 0 && r2 <= (double)TANGENT_COORD_MAX * TANGENT_COORD_MAX);
    double k = ldexp(b, TANGENT_FRAC_BITS);
    ck_assert_msg(k == floor(k), "row %d: b is not a multiple of 2^-10", i);
    ck_assert_msg(dotc < b, "row %d: the center is not strictly inside", i);
    double gap = ldexp(b - dotc, TANGENT_FRAC_BITS); /* integer */
    uint64_t g = (uint64_t)gap, target = (uint64_t)r2 << (2 * TANGENT_FRAC_BITS);
    ck_assert(gap == floor(gap));
    ck_assert_msg(g * g >= target && (g - 1) * (g - 1) < target, "row %d is not tangent", i);
}

START_TEST(rows_dyadic_and_tangent)
{
    static const double origin[3] = {0, 0, 0};
    hs_poly *A, *B;
    double cB[3];
    for (long index = 0; index < 5; index++) {
        ck_assert_int_eq(tangent_pair(1, index, 50, 70, &A, &B, cB, NULL), HS_OK);
        double d2 = cB[0] * cB[0] + cB[1] * cB[1] + cB[2] * cB[2];
        ck_assert(d2 >= 1.69 && d2 <= 5.3); /* distance in [1.7, 2.3], rounded */
        for (int i = 0; i < hs_poly_rows(A); i++)
            check_tangent_row(A, i, origin);
        for (int i = 0; i < hs_poly_rows(B); i++)
            check_tangent_row(B, i, cB);
        hs_poly_free(A);
        hs_poly_free(B);
    }
}
END_TEST

START_TEST(integer_helpers)
{
    ck_assert_uint_eq(tangent_isqrt_ceil(0), 0);
    ck_assert_uint_eq(tangent_isqrt_ceil(1), 1);
    ck_assert_uint_eq(tangent_isqrt_ceil(2), 2);
    ck_assert_uint_eq(tangent_isqrt_ceil(1000000), 1000);
    ck_assert_uint_eq(tangent_isqrt_ceil(1000001), 1001);
    ck_assert_uint_eq(tangent_isqrt_ceil((uint64_t)1 << 60), (uint64_t)1 << 30);
    tangent_rng g;
    tangent_rng_seed(&g, 0);
    for (int k = 0; k < 1000; k++) {
        long v = tangent_rng_int(&g, -3, 3);
        ck_assert(v >= -3 && v <= 3);
        double u = tangent_rng_unit(&g);
        ck_assert(u >= 0 && u < 1);
    }
}
END_TEST

/* The exact engine's answer for polytopes of m rows around the origin and
 * around (dx, 0, 0), with its certificate checked. */
static hs_status exact_answer(uint64_t seed, int m, double dx)
{
    static const double origin[3] = {0, 0, 0};
    const double c[3] = {dx, 0, 0};
    tangent_rng g;
    tangent_rng_seed(&g, seed);
    hs_error err;
    hs_error_clear(&err);
    hs_poly *A = tangent_polytope(&g, m, origin, &err);
    hs_poly *B = tangent_polytope(&g, m, c, &err);
    ck_assert_msg(A && B, "%s", err.msg);
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_EXACT;
    hs_result *r = hs_result_new();
    ck_assert_msg(hs_intersect(A, B, &opt, r, &err) == HS_OK, "%s", err.msg);
    ck_assert_msg(hs_result_verify(r, A, B, &err) == HS_OK, "%s", err.msg);
    hs_status s = hs_result_status(r);
    hs_result_free(r);
    hs_poly_free(A);
    hs_poly_free(B);
    return s;
}

/* Centers 4 apart: 30 random tangent planes leave these polytopes'
 * corners well short of distance 2 from their centers, so they cannot
 * meet (the exact engine's Farkas certificate proves it).  One common
 * center: both contain the same unit ball. */
START_TEST(known_pairs)
{
    ck_assert_int_eq(exact_answer(5, 30, 4.0), HS_DISJOINT);
    ck_assert_int_eq(exact_answer(6, 30, 0.0), HS_OVERLAP);
}
END_TEST

Suite *suite_tangent(void)
{
    Suite *s = suite_create("tangent");
    TCase *tc = tcase_create("generator");
    tcase_add_test(tc, same_seed_same_rows);
    tcase_add_test(tc, rows_dyadic_and_tangent);
    tcase_add_test(tc, integer_helpers);
    tcase_add_test(tc, known_pairs);
    suite_add_tcase(s, tc);
    return s;
}
