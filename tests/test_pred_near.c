/* test_pred_near.c -- pred_row_sign_near (polytope/pred_row.c): the sign
 * of a row at a rational point known only by its rounding, which the fast
 * engine's exact subsystems (solver/fast_exact_set.c) and the exact
 * engine's rounds (solver/simplex_q_rounds.c) use to skip rationals;
 * and pred_row_sign_on_plane, the exact sign of a row at a point of a
 * plane given by rounded coordinates (the face-on-face proof of
 * solver/fast_touch.c). */
#include <check.h>
#include <gmp.h>
#include <math.h>
#include <stdint.h>

#include "polytope/predicates.h"
#include "tests/helpers.h"

/* pred_row_sign_near: at random rational points x (numerators over 3,
 * 7 or 2^k + 1: rarely doubles) rounded by mpq_get_d, the sign it gives
 * for a . x + t - b is the exact sign whenever it gives one (+1 or -1);
 * a row through the point, or magnitudes outside [2^-400, 2^400], give 2
 * (undecided), never a wrong sign. */
START_TEST(row_sign_near_rounded_points)
{
    uint64_t rng = 4711;
    mpq_t x[4], acc, t;
    for (int j = 0; j < 4; j++)
        mpq_init(x[j]);
    mpq_inits(acc, t, NULL);
    int decided = 0, undecided = 0;
    for (int k = 0; k < 4000; k++) {
        double a[3], xd[3], b, td;
        unsigned long den = k % 3 == 0 ? 3 : k % 3 == 1 ? 7 : (1ul << (k % 40)) + 1;
        for (int j = 0; j < 4; j++) {
            mpq_set_si(x[j], (long)(t_rng_next(&rng) % 2001) - 1000, den);
            mpq_canonicalize(x[j]);
            if (j < 3) {
                a[j] = (double)((long)(t_rng_next(&rng) % 201) - 100) / 16;
                xd[j] = mpq_get_d(x[j]);
            }
        }
        td = mpq_get_d(x[3]);
        /* b: sometimes exactly a . x + t in doubles when that is a double (through the point) */
        mpq_set(acc, x[3]);
        for (int j = 0; j < 3; j++) {
            mpq_set_d(t, a[j]);
            mpq_mul(t, t, x[j]);
            mpq_add(acc, acc, t);
        }
        b = k % 5 == 0 ? mpq_get_d(acc) : (double)((long)(t_rng_next(&rng) % 4001) - 2000) / 8;
        mpq_set_d(t, b);
        mpq_sub(acc, acc, t);
        int exact = mpq_sgn(acc), near = pred_row_sign_near(a, b, xd, td, 3);
        ck_assert_msg(near == 2 || near == exact, "case %d: %d against exact %d", k, near, exact);
        decided += near != 2;
        undecided += near == 2;
    }
    ck_assert_msg(decided > 3000 && undecided > 0, "%d decided, %d undecided", decided,
                  undecided);
    double a[3] = {1, 1, 1}, xd[3] = {1, 0x1p500, 1};
    ck_assert_int_eq(pred_row_sign_near(a, 0, xd, 0, 3), 2); /* out of range: undecided */
    ck_assert_int_eq(pred_row_sign_near(a, 0x1p500, (double[3]){1, 1, 1}, 0, 3), 2);
    double xs[3] = {1, 0x1p-500, 1}, a1[3] = {1, 1, 1};
    ck_assert_int_eq(pred_row_sign_near(a1, 0, xs, 0, 3), 2);
    for (int j = 0; j < 4; j++)
        mpq_clear(x[j]);
    mpq_clears(acc, t, NULL);
}
END_TEST

/* The exact value of a . x - b at the point of the plane g . x = gb with
 * x_c = p_c for c != k, by rationals (the reference). */
static int on_plane_sign_q(const double *a, double b, const double *g, double gb, int k,
                           const double *p, int n)
{
    mpq_t xk, acc, t;
    mpq_inits(xk, acc, t, NULL);
    mpq_set_d(xk, gb);
    for (int c = 0; c < n; c++)
        if (c != k) {
            mpq_set_d(t, g[c]);
            mpq_set_d(acc, p[c]);
            mpq_mul(t, t, acc);
            mpq_sub(xk, xk, t);
        }
    mpq_set_d(t, g[k]);
    mpq_div(xk, xk, t);
    mpq_set_d(acc, b);
    mpq_neg(acc, acc);
    for (int c = 0; c < n; c++) {
        mpq_set_d(t, a[c]);
        if (c == k)
            mpq_mul(t, t, xk);
        else {
            mpq_t pc;
            mpq_init(pc);
            mpq_set_d(pc, p[c]);
            mpq_mul(t, t, pc);
            mpq_clear(pc);
        }
        mpq_add(acc, acc, t);
    }
    int sign = mpq_sgn(acc);
    mpq_clears(xk, acc, t, NULL);
    return sign;
}

/* pred_row_sign_on_plane: at points of a plane given by rounded
 * coordinates (p) and the plane's own row, the sign of other rows agrees
 * with rationals, for rows well away from the point, rows through it
 * exactly (another face through a corner: 0) and rows off it by one unit
 * in the last place of b (+1 or -1, where a floating-point sum cannot
 * tell); out of range entries or g_k = 0 give 2. */
START_TEST(row_sign_on_plane_agrees_with_rationals)
{
    uint64_t rng = 90210;
    int zeros = 0, signs[3] = {0, 0, 0};
    for (int it = 0; it < 6000; it++) {
        int n = 2 + it % 3, k = (int)(t_rng_next(&rng) % (unsigned)n);
        double g[4], a[4], p[4], gb, b;
        for (int c = 0; c < n; c++) {
            g[c] = (double)((long)(t_rng_next(&rng) % 2001) - 1000) / 64;
            a[c] = (double)((long)(t_rng_next(&rng) % 2001) - 1000) / 32;
            p[c] = (double)((long)(t_rng_next(&rng) % 200001) - 100000) / 1024;
        }
        if (g[k] == 0)
            g[k] = 0.75;
        if (it % 4 == 0) /* an awkward plane: x_k is not a short number */
            g[k] = 3.0 / 1024 * (double)(1 + t_rng_next(&rng) % 999);
        gb = (double)((long)(t_rng_next(&rng) % 20001) - 10000) / 16;
        if (it % 3 == 0) {
            /* a row through the point: a = d + lam g with d_k = 0, whose
             * value there is d . p + lam gb (short numbers: exact) */
            double lam = (double)((long)(t_rng_next(&rng) % 9) - 4);
            b = lam * gb;
            for (int c = 0; c < n; c++) {
                double d = c == k ? 0 : a[c];
                a[c] = d + lam * g[c];
                b += d * p[c];
            }
            if (it % 2 == 0) /* one ulp off the point */
                b = nextafter(b, it % 4 ? INFINITY : -INFINITY);
        } else
            b = (double)((long)(t_rng_next(&rng) % 40001) - 20000) / 8;
        int want = on_plane_sign_q(a, b, g, gb, k, p, n);
        int got = pred_row_sign_on_plane(a, b, g, gb, k, p, n);
        ck_assert_msg(got == want, "case %d (n %d, k %d): %d against exact %d", it, n, k, got,
                      want);
        zeros += want == 0;
        signs[want + 1]++;
    }
    ck_assert_msg(zeros > 300 && signs[0] > 1000 && signs[2] > 1000, "zeros %d, - %d, + %d",
                  zeros, signs[0], signs[2]);
    double a[3] = {1, 1, 1}, g[3] = {0, 0, 2}, p[3] = {1, 1, 0};
    ck_assert_int_eq(pred_row_sign_on_plane(a, 1, g, 2, 2, p, 3), 1); /* x = (1, 1, 1): 3 - 1 */
    ck_assert_int_eq(pred_row_sign_on_plane(a, 3, g, 2, 2, p, 3), 0);
    ck_assert_int_eq(pred_row_sign_on_plane(a, 1, g, 2, 0, p, 3), 2); /* g_k = 0 */
    p[0] = 0x1p300;
    ck_assert_int_eq(pred_row_sign_on_plane(a, 1, g, 2, 2, p, 3), 2); /* out of range */
    p[0] = NAN;
    ck_assert_int_eq(pred_row_sign_on_plane(a, 1, g, 2, 2, p, 3), 2);
}
END_TEST

Suite *suite_pred_near(void)
{
    Suite *s = suite_create("pred_near");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, row_sign_near_rounded_points);
    tcase_add_test(tc, row_sign_on_plane_agrees_with_rationals);
    suite_add_tcase(s, tc);
    return s;
}
