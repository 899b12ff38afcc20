/* test_pred_near.c -- pred_row_sign_near (polytope/pred_row.c): the sign
 * of a row at a rational point known only by its rounding, which the fast
 * engine's exact subsystems (solver/fast_exact_set.c) and the exact
 * engine's rounds (solver/simplex_q_rounds.c) use to skip rationals. */
#include <check.h>
#include <gmp.h>
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

Suite *suite_pred_near(void)
{
    Suite *s = suite_create("pred_near");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, row_sign_near_rounded_points);
    suite_add_tcase(s, tc);
    return s;
}
