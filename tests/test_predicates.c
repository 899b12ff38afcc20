/* test_predicates.c -- the filtered exact signs (polytope/predicates.h,
 * and the orientation predicates of polytope/hull3.h) against exact GMP
 * references: a . x - b summed in rationals, and determinants by cofactor
 * expansion (tests/oracle.c), which shares no step with the library's
 * eliminations.  Inputs: random, small integers, exactly singular
 * (dependent rows, scaled copies, coplanar points), within an ulp or
 * 2^-50 of singular, and rows scaled to 2^+-500 and beyond. */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hull3.h"
#include "polytope/predicates.h"
#include "tests/helpers.h"
#include "tests/oracle.h"

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
    uint64_t rs = 0x1234567887654321ULL;
    for (int trial = 0; trial < 20000; trial++) {
        int n = 1 + trial % 5;
        double a[5], x[5], b = 0;
        for (int j = 0; j < n; j++) {
            a[j] = t_rng_sym(&rs) * ldexp(1, (int)(t_rng_sym(&rs) * 20));
            x[j] = t_rng_sym(&rs) * ldexp(1, (int)(t_rng_sym(&rs) * 20));
            b += a[j] * x[j];
        }
        int k = (int)(t_rng_sym(&rs) * 3);
        for (int i = 0; i < abs(k); i++)
            b = nextafter(b, k > 0 ? INFINITY : -INFINITY);
        if (trial % 7 == 0)
            b = t_rng_sym(&rs); /* far from zero too */
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

/* ------------------------------------------------------- determinants */

/* Integer in [-r, r]. */
static long rand_int(uint64_t *s, long r)
{
    return (long)(t_rng_next(s) % (uint64_t)(2 * r + 1)) - r;
}

/* A double of 21 significant bits at most: an integer in [-2^20, 2^20]
 * times 2^-10.  Small integer combinations of such numbers are exact. */
static double short_double(uint64_t *s) { return ldexp((double)rand_int(s, 1L << 20), -10); }

/* The sign pred_det_sign gives must be the oracle's; the answer is
 * returned so that callers can check relations between matrices. */
static int check_det(const double *M, int k, pred_stats *st, const char *what, int trial)
{
    int want = oracle_det_sign_d(M, k), got = pred_det_sign(M, k, st);
    EXPECT(got == want, "%s, trial %d (k = %d): pred_det_sign %d, cofactor expansion %d", what,
           trial, k, got, want);
    return want;
}

/* Swapping two rows flips the sign; check that on the swapped matrix too. */
static void check_det_swapped(const double *M, int k, int want, pred_stats *st, const char *what,
                              int trial)
{
    if (k < 2)
        return;
    double S[36];
    memcpy(S, M, sizeof(double) * (size_t)(k * k));
    for (int j = 0; j < k; j++) {
        S[j] = M[(k - 1) * k + j];
        S[(k - 1) * k + j] = M[j];
    }
    int got = pred_det_sign(S, k, st);
    EXPECT(got == -want, "%s, trial %d (k = %d): rows swapped gives %d, want %d", what, trial, k,
           got, -want);
}

START_TEST(det_sign_random_matrices)
{
    pred_stats st = {0, 0};
    uint64_t rs = 11;
    for (int trial = 0; trial < 900; trial++) {
        int k = 1 + trial % 6;
        double M[36];
        for (int i = 0; i < k * k; i++)
            M[i] = t_rng_sym(&rs) * 8;
        int s = check_det(M, k, &st, "random", trial);
        check_det_swapped(M, k, s, &st, "random", trial);
    }
    ck_assert(st.filtered > 0);
}
END_TEST

/* Entries in {-2, ..., 2}: many determinants are exactly 0. */
START_TEST(det_sign_small_integer_matrices)
{
    pred_stats st = {0, 0};
    uint64_t rs = 12;
    int count[3] = {0, 0, 0};
    for (int trial = 0; trial < 1500; trial++) {
        int k = 1 + trial % 5;
        double M[25];
        for (int i = 0; i < k * k; i++)
            M[i] = (double)rand_int(&rs, 2);
        int s = check_det(M, k, &st, "integer", trial);
        check_det_swapped(M, k, s, &st, "integer", trial);
        count[s + 1]++;
    }
    ck_assert(count[0] > 100 && count[1] > 100 && count[2] > 100);
}
END_TEST

/* Row r of M (k*k, short doubles) becomes dependent on the others: an
 * integer combination of two rows, a copy scaled by 3 or by a power of
 * two (up to 2^+-100), or 0 (kind).  Every operation is exact. */
static void make_singular(uint64_t *rs, double *M, int k, int r, int kind)
{
    int p = (r + 1) % k, q = (r + 2) % k;
    double c1 = (double)rand_int(rs, 4), c2 = k > 2 ? (double)rand_int(rs, 4) : 0;
    int e = (int)rand_int(rs, 100);
    for (int j = 0; j < k; j++) {
        double v = 0;
        switch (kind) {
        case 0: v = c1 * M[p * k + j] + c2 * M[q * k + j]; break;
        case 1: v = 3 * M[p * k + j]; break;
        case 2: v = ldexp(M[p * k + j], e); break;
        default: v = 0; break;
        }
        M[r * k + j] = v;
    }
}

START_TEST(det_sign_exactly_singular)
{
    pred_stats st = {0, 0};
    uint64_t rs = 13;
    for (int trial = 0; trial < 1500; trial++) {
        int k = 1 + trial % 5;
        double M[25];
        for (int i = 0; i < k * k; i++)
            M[i] = short_double(&rs);
        if (k == 1) {
            M[0] = 0;
        } else {
            make_singular(&rs, M, k, (int)(t_rng_next(&rs) % (uint64_t)k), trial % 4);
            if (trial % 3 == 0) { /* dependent columns instead of rows */
                for (int i = 0; i < k; i++)
                    for (int j = i + 1; j < k; j++) {
                        double t = M[i * k + j];
                        M[i * k + j] = M[j * k + i];
                        M[j * k + i] = t;
                    }
            }
        }
        ck_assert_int_eq(oracle_det_sign_d(M, k), 0); /* the construction is exact */
        check_det(M, k, &st, "singular", trial);
    }
    ck_assert(st.exact > 0);
}
END_TEST

/* Singular matrices moved off by one ulp, by 2^-50 relative or by 2^-50
 * absolute in one entry, or a full-precision row copied and nudged: the
 * determinant is tiny, and its sign is in the last bits. */
START_TEST(det_sign_near_singular)
{
    pred_stats st = {0, 0};
    uint64_t rs = 14;
    int nonzero = 0;
    for (int trial = 0; trial < 1200; trial++) {
        int k = 2 + trial % 4;
        double M[25];
        int r = (int)(t_rng_next(&rs) % (uint64_t)k), j = (int)(t_rng_next(&rs) % (uint64_t)k);
        if (trial % 5 == 4) { /* 53-bit entries, row r a copy of row r+1 */
            for (int i = 0; i < k * k; i++)
                M[i] = t_rng_sym(&rs);
            for (int c = 0; c < k; c++)
                M[r * k + c] = M[((r + 1) % k) * k + c];
        } else {
            for (int i = 0; i < k * k; i++)
                M[i] = short_double(&rs);
            make_singular(&rs, M, k, r, trial % 3);
        }
        double *v = &M[r * k + j];
        switch (trial % 4) {
        case 0: *v = nextafter(*v, INFINITY); break;
        case 1: *v = nextafter(*v, -INFINITY); break;
        case 2: *v += *v * 0x1p-50; break;
        default: *v += 0x1p-50; break;
        }
        int s = check_det(M, k, &st, "near singular", trial);
        check_det_swapped(M, k, s, &st, "near singular", trial);
        nonzero += s != 0;
    }
    ck_assert(nonzero > 900); /* the perturbations mostly leave singularity */
    ck_assert(st.exact > 0);
}
END_TEST

/* Rows scaled by powers of two keep the sign; products of entries near
 * 2^+-500 overflow or underflow in doubles, so the filter must step
 * aside.  Also subnormal entries, where scaling is not exact and only the
 * oracle on the scaled matrix is the reference. */
START_TEST(det_sign_huge_and_tiny_rows)
{
    pred_stats st = {0, 0};
    uint64_t rs = 15;
    static const int expo[] = {500, -500, 800, -800, 0, 300, -300};
    for (int trial = 0; trial < 800; trial++) {
        int k = 1 + trial % 5;
        double M[25], S[25];
        for (int i = 0; i < k * k; i++)
            M[i] = trial % 2 ? short_double(&rs) : t_rng_sym(&rs);
        if (k > 1 && trial % 3 == 0)
            make_singular(&rs, M, k, 0, (trial / 3) % 3);
        int want = oracle_det_sign_d(M, k);
        for (int i = 0; i < k; i++) {
            int e = trial % 7 == 0 ? 500 : expo[t_rng_next(&rs) % 7]; /* all rows 2^500 */
            for (int j = 0; j < k; j++) {
                S[i * k + j] = ldexp(M[i * k + j], e);
                ck_assert(S[i * k + j] == 0 || fabs(S[i * k + j]) >= 0x1p-1000);
                ck_assert(fabs(S[i * k + j]) <= 0x1p+1000); /* the scaling is exact */
            }
        }
        int got = check_det(S, k, &st, "scaled rows", trial);
        EXPECT(got == want, "scaled rows, trial %d: sign %d, unscaled %d", trial, got, want);
        for (int i = 0; i < k * k; i++) /* down into subnormals: rounded */
            S[i] = ldexp(M[i], -1040);
        check_det(S, k, &st, "subnormal", trial);
    }
    ck_assert(st.exact > 0);
}
END_TEST

/* ------------------------------------------------ orientation predicates */

/* pred_orient3d of (a, b, c, d), and pred_det4_rows of the homogeneous
 * rows (p, 1), whose determinant is minus the orientation's. */
static void check_orient(const double *a, const double *b, const double *c, const double *d,
                         const char *what, int trial)
{
    int want = oracle_orient3d(a, b, c, d), got = pred_orient3d(a, b, c, d);
    EXPECT(got == want, "%s, trial %d: pred_orient3d %d, exact %d", what, trial, got, want);
    EXPECT(pred_orient3d(b, a, c, d) == -want, "%s, trial %d: a, b swapped", what, trial);
    double r[4][4];
    const double *p[4] = {a, b, c, d};
    for (int i = 0; i < 4; i++) {
        memcpy(r[i], p[i], sizeof(double) * 3);
        r[i][3] = 1;
    }
    EXPECT(oracle_det_sign_d(&r[0][0], 4) == -want, "%s, trial %d: homogeneous determinant", what,
           trial);
    got = pred_det4_rows(r[0], r[1], r[2], r[3]);
    EXPECT(got == -want, "%s, trial %d: pred_det4_rows %d, want %d", what, trial, got, -want);
}

START_TEST(orient3d_random_and_coplanar)
{
    uint64_t rs = 16;
    int zero = 0, nonzero = 0;
    for (int trial = 0; trial < 1000; trial++) {
        double a[3], b[3], c[3], d[3];
        for (int j = 0; j < 3; j++) {
            a[j] = short_double(&rs);
            b[j] = short_double(&rs);
            c[j] = short_double(&rs);
        }
        double s = (double)rand_int(&rs, 3), t = (double)rand_int(&rs, 3);
        for (int j = 0; j < 3; j++) /* exactly in the plane of a, b, c */
            d[j] = a[j] + s * (b[j] - a[j]) + t * (c[j] - a[j]);
        switch (trial % 4) {
        case 0: break;
        case 1: d[trial % 3] = nextafter(d[trial % 3], INFINITY); break;
        case 2: d[trial % 3] += 0x1p-50; break;
        default:
            for (int j = 0; j < 3; j++)
                d[j] = t_rng_sym(&rs) * 1000;
        }
        int want = oracle_orient3d(a, b, c, d);
        if (trial % 4 == 0)
            ck_assert_int_eq(want, 0);
        zero += want == 0;
        nonzero += want != 0;
        check_orient(a, b, c, d, "orient3d", trial);
        double A[3], B[3], C[3], D[3]; /* the same points at 2^+-500: same sign */
        int e = trial % 2 ? 500 : -500;
        for (int j = 0; j < 3; j++) {
            A[j] = ldexp(a[j], e);
            B[j] = ldexp(b[j], e);
            C[j] = ldexp(c[j], e);
            D[j] = ldexp(d[j], e);
        }
        EXPECT(pred_orient3d(A, B, C, D) == want, "orient3d scaled by 2^%d, trial %d", e, trial);
        check_orient(A, B, C, D, "orient3d scaled", trial);
    }
    ck_assert(zero >= 250 && nonzero >= 500);
}
END_TEST

START_TEST(det4_sign_matches_cofactors)
{
    uint64_t rs = 17;
    for (int trial = 0; trial < 1500; trial++) {
        double M[16];
        for (int i = 0; i < 16; i++)
            M[i] = trial % 2 ? short_double(&rs) : t_rng_sym(&rs);
        if (trial % 3 == 0)
            make_singular(&rs, M, 4, trial % 4, trial % 4);
        if (trial % 3 == 1)
            M[trial % 16] = nextafter(M[trial % 16], INFINITY);
        if (trial % 5 == 0)
            for (int j = 0; j < 4; j++)
                M[4 + j] = ldexp(M[4 + j], trial % 2 ? 600 : -600);
        int want = oracle_det_sign_d(M, 4);
        int got = pred_det4_rows(M, M + 4, M + 8, M + 12);
        EXPECT(got == want, "trial %d: pred_det4_rows %d, cofactors %d", trial, got, want);
        ck_assert_int_eq(pred_det_sign(M, 4, NULL), want);
    }
}
END_TEST

/* The oracle itself, on determinants known in closed form. */
START_TEST(oracle_known_determinants)
{
    double I[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    ck_assert_int_eq(oracle_det_sign_d(I, 4), 1);
    double P[9] = {0, 1, 0, 1, 0, 0, 0, 0, 1}; /* one transposition */
    ck_assert_int_eq(oracle_det_sign_d(P, 3), -1);
    mpq_t V[25], det; /* Vandermonde on 1..5: prod (j - i) = 288 */
    mpq_init(det);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            mpq_init(V[i * 5 + j]);
            mpq_set_ui(V[i * 5 + j], (unsigned long)pow(i + 1, j), 1);
        }
    oracle_det_q(det, V, 5);
    ck_assert(mpq_cmp_si(det, 288, 1) == 0);
    /* Entry (0,0) from 1 to 1/3: the determinant changes by (1/3 - 1)
     * times its cofactor, det [x x^2 x^3 x^4] over x = 2..5, which is
     * 2*3*4*5 times the Vandermonde 12 of 2..5: 288 - 960 = -672. */
    mpq_set_ui(V[0], 1, 3);
    oracle_det_q(det, V, 5);
    ck_assert(mpq_cmp_si(det, -672, 1) == 0);
    for (int i = 0; i < 25; i++)
        mpq_clear(V[i]);
    mpq_clear(det);
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
    tcase_add_test(tc, det_sign_random_matrices);
    tcase_add_test(tc, det_sign_small_integer_matrices);
    tcase_add_test(tc, det_sign_exactly_singular);
    tcase_add_test(tc, det_sign_near_singular);
    tcase_add_test(tc, det_sign_huge_and_tiny_rows);
    tcase_add_test(tc, orient3d_random_and_coplanar);
    tcase_add_test(tc, det4_sign_matches_cofactors);
    tcase_add_test(tc, oracle_known_determinants);
    tcase_add_test(tc, non_finite_inputs_have_no_sign);
    suite_add_tcase(s, tc);
    return s;
}
