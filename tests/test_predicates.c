/* test_predicates.c -- the filtered exact signs against GMP, on random
 * inputs and on inputs built to cancel to zero or to within an ulp. */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "polytope/predicates.h"
#include "tests/helpers.h"

static uint64_t rng_state = 0x1234567887654321ULL;
static double rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * 0x1p-53 * 2 - 1;
}

static int exact_row_sign(const double *a, const double *x, double b, int n)
{
    mpq_t acc, t, u;
    mpq_inits(acc, t, u, NULL);
    mpq_set_d(acc, -b);
    for (int j = 0; j < n; j++) {
        mpq_set_d(t, a[j]);
        mpq_set_d(u, x[j]);
        mpq_mul(t, t, u);
        mpq_add(acc, acc, t);
    }
    int s = mpq_sgn(acc);
    mpq_clears(acc, t, u, NULL);
    return s;
}

/* b = a.x rounded, then nudged by k ulps: the sign is decided in the last bits. */
START_TEST(row_sign_matches_gmp_near_zero)
{
    pred_stats st = {0, 0};
    for (int trial = 0; trial < 20000; trial++) {
        int n = 1 + trial % 5;
        double a[5], x[5], b = 0;
        for (int j = 0; j < n; j++) {
            a[j] = rnd() * ldexp(1, (int)(rnd() * 20));
            x[j] = rnd() * ldexp(1, (int)(rnd() * 20));
            b += a[j] * x[j];
        }
        int k = (int)(rnd() * 3);
        for (int i = 0; i < abs(k); i++)
            b = nextafter(b, k > 0 ? INFINITY : -INFINITY);
        if (trial % 7 == 0)
            b = rnd(); /* far from zero too */
        ck_assert_int_eq(pred_row_sign(a, x, b, n, &st), exact_row_sign(a, x, b, n));
    }
    ck_assert(st.filtered > 0 && st.exact > 0); /* both paths were exercised */
}
END_TEST

START_TEST(row_sign_exact_zero_and_extremes)
{
    double a[3] = {0.1, 0.2, 0.3}, x[3] = {3, 3, 3};
    double b = 0.1 * 3 + 0.2 * 3 + 0.3 * 3; /* not the exact sum */
    ck_assert_int_eq(pred_row_sign(a, x, b, 3, NULL), exact_row_sign(a, x, b, 3));
    double z[3] = {0, 0, 0};
    ck_assert_int_eq(pred_row_sign(a, z, 0, 3, NULL), 0);
    double tiny[2] = {0x1p-1000, 0x1p-60}, big[2] = {0x1p-40, 0x1p+990};
    ck_assert_int_eq(pred_row_sign(tiny, big, 0x1p-1040, 2, NULL),
                     exact_row_sign(tiny, big, 0x1p-1040, 2));
    double one[1] = {1}, xs[1] = {0x1p-1074};
    ck_assert_int_eq(pred_row_sign(one, xs, 0, 1, NULL), 1);
}
END_TEST

static int exact_det_sign(const double *M, int k)
{
    mpq_t q[25], f, t;
    mpq_inits(f, t, NULL);
    for (int i = 0; i < k * k; i++) {
        mpq_init(q[i]);
        mpq_set_d(q[i], M[i]);
    }
    int sign = 1;
    for (int c = 0; c < k && sign; c++) {
        int p = c;
        while (p < k && mpq_sgn(q[p * k + c]) == 0)
            p++;
        if (p == k) {
            sign = 0;
            break;
        }
        if (p != c) {
            for (int j = 0; j < k; j++)
                mpq_swap(q[p * k + j], q[c * k + j]);
            sign = -sign;
        }
        sign *= mpq_sgn(q[c * k + c]);
        for (int i = c + 1; i < k; i++) {
            mpq_div(f, q[i * k + c], q[c * k + c]);
            for (int j = c; j < k; j++) {
                mpq_mul(t, f, q[c * k + j]);
                mpq_sub(q[i * k + j], q[i * k + j], t);
            }
        }
    }
    for (int i = 0; i < k * k; i++)
        mpq_clear(q[i]);
    mpq_clears(f, t, NULL);
    return sign;
}

/* Random matrices, and matrices whose last row is (almost) a combination
 * of the others, so that the determinant is 0 or within rounding of it. */
START_TEST(det_sign_matches_gmp)
{
    pred_stats st = {0, 0};
    for (int trial = 0; trial < 20000; trial++) {
        int k = 1 + trial % 5;
        double M[25];
        for (int i = 0; i < k * k; i++)
            M[i] = rnd() * 8;
        if (trial % 3 && k > 1) {
            double c1 = floor(rnd() * 5), c2 = floor(rnd() * 5);
            for (int j = 0; j < k; j++)
                M[(k - 1) * k + j] = c1 * M[j] + (k > 2 ? c2 * M[k + j] : 0);
            if (trial % 3 == 2)
                M[(k - 1) * k] = nextafter(M[(k - 1) * k], INFINITY);
        }
        ck_assert_int_eq(pred_det_sign(M, k, &st), exact_det_sign(M, k));
    }
    ck_assert(st.filtered > 0 && st.exact > 0);
}
END_TEST

/* No sign exists for NaN or infinity: the predicates say so instead of
 * trapping in GMP. */
START_TEST(non_finite_inputs_have_no_sign)
{
    double a[2] = {1, 2}, x[2] = {NAN, 1}, y[2] = {1, INFINITY};
    ck_assert_int_eq(pred_row_sign(a, x, 0, 2, NULL), 2);
    ck_assert_int_eq(pred_row_sign(a, y, 0, 2, NULL), 2);
    double M[4] = {1, 2, 3, NAN}, N[4] = {INFINITY, 0, 0, 1};
    ck_assert_int_eq(pred_det_sign(M, 2, NULL), -2);
    ck_assert_int_eq(pred_det_sign(N, 2, NULL), -2);
}
END_TEST

Suite *suite_predicates(void)
{
    Suite *s = suite_create("predicates");
    TCase *tc = tcase_create("predicates");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, row_sign_matches_gmp_near_zero);
    tcase_add_test(tc, row_sign_exact_zero_and_extremes);
    tcase_add_test(tc, det_sign_matches_gmp);
    tcase_add_test(tc, non_finite_inputs_have_no_sign);
    suite_add_tcase(s, tc);
    return s;
}
