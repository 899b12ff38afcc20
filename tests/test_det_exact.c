/* test_det_exact.c -- determinant signs and basis solves beyond 4 x 4
 * (polytope/det_exact.c, and pred_det_sign's and pred_last_column_signs'
 * paths for them) against the oracle's cofactor expansion and Cramer's
 * rule (tests/oracle.c), which share no step with the library's
 * eliminations. */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "polytope/predicates.h"
#include "tests/helpers.h"
#include "tests/oracle.h"

/* pred_det_sign's sign of M must be the oracle's, and (k <= 7, where the
 * oracle is cheap on dense rows) the negated one with two rows swapped;
 * returns it. */
static int check_det(const double *M, int k, int swapped, const char *what, int trial)
{
    int want = oracle_det_sign_d(M, k), got = pred_det_sign(M, k, NULL);
    EXPECT(got == want, "%s, trial %d (k = %d): pred_det_sign %d, cofactor expansion %d", what,
           trial, k, got, want);
    if (!swapped)
        return want;
    double S[100];
    memcpy(S, M, sizeof(double) * (size_t)(k * k));
    for (int j = 0; j < k; j++) {
        S[j] = M[(k - 1) * k + j];
        S[(k - 1) * k + j] = M[j];
    }
    got = pred_det_sign(S, k, NULL);
    EXPECT(got == -want, "%s, trial %d (k = %d): rows swapped gives %d, want %d", what, trial, k,
           got, -want);
    return want;
}

/* Larger determinants (k = 5..10): unit rows and columns (a basis's box
 * bounds) expanded away exactly, the rest by fraction-free elimination
 * over GMP integers, against the oracle's cofactor expansion.  Matrices:
 * dense small integers (many exactly singular), planted unit rows and
 * columns with both signs at random places, zero rows, and columns
 * scaled by 2^-300..2^300 (every row then spans 600 binary orders, which
 * the elimination's scaling of each row to integers must carry). */
START_TEST(det_sign_large_sparse_and_scaled)
{
    uint64_t rng = 2027;
    int zeros = 0, reduced = 0;
    for (int trial = 0; trial < 400; trial++) {
        int k = 5 + trial % 6, kind = trial / 6 % 4;
        double M[100];
        for (int i = 0; i < k * k; i++)
            M[i] = (double)(int)(t_rng_next(&rng) % 5) - 2;
        if (k > 7 || kind == 1) { /* unit rows and columns: at least k - 6 of them */
            int units = k > 7 ? k - 5 : 2;
            for (int u = 0; u < units; u++) {
                int i = (int)(t_rng_next(&rng) % (uint64_t)k), j = (int)(t_rng_next(&rng) % (uint64_t)k);
                double v = t_rng_next(&rng) % 2 ? 1 : -3;
                for (int c = 0; c < k; c++) {
                    if (u % 2 == 0)
                        M[i * k + c] = c == j ? v : 0;
                    else
                        M[c * k + j] = c == i ? v : 0;
                }
            }
            reduced++;
        }
        if (kind == 2 && k <= 7) /* a zero row */
            for (int c = 0; c < k; c++)
                M[(trial % k) * k + c] = 0;
        if (kind == 3) /* columns far apart in magnitude */
            for (int j = 0; j < k; j++)
                for (int i = 0; i < k; i++)
                    M[i * k + j] = ldexp(M[i * k + j], 300 - 600 * j / (k - 1));
        /* (the oracle's expansion is cheap only on sparse rows past 7) */
        zeros += check_det(M, k, k <= 7, "large", trial) == 0;
    }
    ck_assert_msg(zeros > 20 && reduced > 100, "zeros %d, reduced %d", zeros, reduced);
}
END_TEST

/* 3 x 3 determinants the filters and the 128-bit integers cannot settle
 * (full 53-bit mantissas, columns scaled by 2^-400..2^400, rows nearly or
 * exactly dependent: the cofactors of two faces a rounding apart) go to
 * the expansion of det3_expansion_sign: its sign must be the oracle's,
 * zeros included, with rows swapped too. */
START_TEST(det3_near_singular_by_expansions)
{
    uint64_t rng = 3301;
    int zeros = 0, tiny = 0;
    for (int trial = 0; trial < 3000; trial++) {
        double M[9];
        int kind = trial % 5;
        for (int i = 0; i < 9; i++)
            M[i] = t_rng_sym(&rng);
        if (kind == 1) /* row 2 = row 0 * 2 + row 1 * 2^-3: exactly, so singular */
            for (int j = 0; j < 3; j++) {
                M[6 + j] = ldexp(M[j], 1);
                M[3 + j] = ldexp(M[6 + j], -4);
            }
        else if (kind >= 2) /* row 2 a rounded combination of rows 0 and 1 (kind 4: before
                               the scaling, which rounds the subnormals) */
            for (int j = 0; j < 3; j++)
                M[6 + j] = 0.75 * M[j] - 1.3 * M[3 + j];
        if (kind == 3) /* columns far apart in magnitude */
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    M[3 * i + j] = ldexp(M[3 * i + j], 400 - 400 * j);
        if (kind == 4) /* a column of subnormals, one near the top */
            for (int i = 0; i < 3; i++) {
                M[3 * i] = ldexp(M[3 * i], -1060);
                M[3 * i + 2] = ldexp(M[3 * i + 2], 1000);
            }
        int s = check_det(M, 3, 1, "3x3", trial);
        zeros += s == 0;
        tiny += kind >= 2;
    }
    ck_assert_msg(zeros >= 550 && tiny >= 1500, "zeros %d, near %d", zeros, tiny);
}
END_TEST

/* A Farkas basis in many variables: two rows and a third, the rest box
 * bounds (unit rows); the multipliers' and the margin's signs agree with
 * the determinants taken whole. */
START_TEST(last_column_signs_with_box_rows)
{
    uint64_t rng = 99;
    for (int round = 0; round < 120; round++) {
        int k = 6 + round % 5, free_rows = 2 + round % 3;
        double M[100], h[10], R[100];
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++)
                M[i * k + j] = i < free_rows ? (double)(int)(t_rng_next(&rng) % 7) - 3 : 0;
            h[i] = (double)(int)(t_rng_next(&rng) % 9) - 4;
        }
        for (int i = free_rows; i < k; i++) /* box bounds on the axes free_rows - 1 .. */
            M[i * k + (i - 1)] = t_rng_next(&rng) % 2 ? 1 : -1;
        int sdet, cof[10], sh;
        ck_assert_int_eq(pred_last_column_signs(M, h, k, &sdet, cof, &sh, NULL), 0);
        ck_assert_int_eq(sdet, oracle_det_sign_d(M, k));
        for (int i = 0; i < k; i++) {
            memcpy(R, M, sizeof(double) * (size_t)(k * k));
            for (int j = 0; j < k; j++)
                R[i * k + j] = j == k - 1;
            ck_assert_int_eq(cof[i], oracle_det_sign_d(R, k));
        }
        memcpy(R, M, sizeof(double) * (size_t)(k * k));
        for (int i = 0; i < k; i++)
            R[i * k + k - 1] = h[i];
        ck_assert_int_eq(sh, oracle_det_sign_d(R, k));
    }
}
END_TEST

/* pred_basis_exact: the signs of pred_last_column_signs and the exact
 * solution of M z = h, against the oracle's Cramer's rule (k = 2..7,
 * short dyadic entries and right sides, so the rows scale to integers
 * by different powers of two). */
START_TEST(basis_exact_solves_and_signs)
{
    uint64_t rng = 8080;
    int solved = 0;
    for (int round = 0; round < 150; round++) {
        int k = 2 + round % 6;
        double M[49], h[7];
        mpq_t Q[49], hq[7], x[7], want[7];
        for (int i = 0; i < k * k; i++) {
            M[i] = ldexp((double)(int)(t_rng_next(&rng) % 9) - 4, -(int)(t_rng_next(&rng) % 5));
            mpq_init(Q[i]);
            mpq_set_d(Q[i], M[i]);
        }
        for (int i = 0; i < k; i++) {
            h[i] = ldexp((double)(int)(t_rng_next(&rng) % 17) - 8, -(int)(t_rng_next(&rng) % 12));
            mpq_inits(hq[i], x[i], want[i], NULL);
            mpq_set_d(hq[i], h[i]);
        }
        int sdet, cof[7], sh, sdet2, cof2[7], sh2;
        ck_assert_int_eq(pred_basis_exact(M, h, k, &sdet, cof, &sh, x), 0);
        ck_assert_int_eq(pred_last_column_signs(M, h, k, &sdet2, cof2, &sh2, NULL), 0);
        ck_assert_int_eq(sdet, oracle_det_sign_d(M, k));
        if (sdet != 0) {
            ck_assert_int_eq(oracle_solve_q(want, Q, hq, k), 0);
            for (int i = 0; i < k; i++) {
                ck_assert_msg(mpq_equal(x[i], want[i]), "round %d (k = %d): z_%d differs", round,
                              k, i);
                ck_assert_int_eq(cof[i], cof2[i]);
            }
            ck_assert_int_eq(sh, sh2);
            solved++;
        }
        for (int i = 0; i < k * k; i++)
            mpq_clear(Q[i]);
        for (int i = 0; i < k; i++)
            mpq_clears(hq[i], x[i], want[i], NULL);
    }
    ck_assert_int_gt(solved, 100);
}
END_TEST

Suite *suite_det_exact(void)
{
    Suite *s = suite_create("det_exact");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, det_sign_large_sparse_and_scaled);
    tcase_add_test(tc, det3_near_singular_by_expansions);
    tcase_add_test(tc, last_column_signs_with_box_rows);
    tcase_add_test(tc, basis_exact_solves_and_signs);
    suite_add_tcase(s, tc);
    return s;
}
