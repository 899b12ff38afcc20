/* test_predicates.c -- the filtered exact signs (polytope/predicates.h,
 * and the orientation predicates of polytope/hull3.h) against exact GMP
 * references: a . x - b summed in rationals, and determinants by cofactor
 * expansion (tests/oracle.c), which shares no step with the library's
 * eliminations.  Inputs: random, small integers, exactly singular
 * (dependent rows, scaled copies, coplanar points, repeated points),
 * within an ulp or 2^-50 of singular, clusters of points within a few
 * ulps of each other, rounded combinations of full-precision rows, rows
 * and columns scaled to 2^+-500 and beyond, subnormals, and spreads of
 * magnitude wide enough to need GMP.  Also the expansion arithmetic
 * (polytope/expansion.h) under them: sums, products and roundings against
 * GMP rationals. */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/det_int.h"
#include "polytope/expansion.h"
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


/* ------------------------------------------------- clusters, extremes */

/* The 24 orders of four points: each orientation is the oracle's times
 * the parity of the order (every base point of the filters and of the
 * expansion stage is exercised this way). */
static void check_orient_orders(const double *const p[4], const char *what, int trial)
{
    int want = oracle_orient3d(p[0], p[1], p[2], p[3]);
    static const int perm[24][4] = {
        {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1},
        {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0},
        {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0},
        {3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0}};
    for (int k = 0; k < 24; k++) {
        const int *q = perm[k];
        int inv = 0; /* parity by counting inversions */
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++)
                inv += q[i] > q[j];
        int got = pred_orient3d(p[q[0]], p[q[1]], p[q[2]], p[q[3]]);
        EXPECT(got == (inv % 2 ? -want : want), "%s, trial %d, order %d%d%d%d: %d, want %d",
               what, trial, q[0], q[1], q[2], q[3], got, inv % 2 ? -want : want);
    }
}

/* Three points within a few ulps of each other and a fourth far away (the
 * rounded vertices of a polytope whose facets nearly meet in a point),
 * repeated points, points exactly on axis-aligned or dyadic planes, and
 * 2^-50 perturbations, each in all 24 orders. */
START_TEST(orient3d_clusters_and_repeats)
{
    uint64_t rs = 21;
    int zero = 0, nonzero = 0;
    for (int trial = 0; trial < 1200; trial++) {
        double P[4][3];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++)
                P[i][j] = t_rng_sym(&rs);
        switch (trial % 6) {
        case 0: /* cluster of three, within 4 ulps of P[0] */
        case 1:
            for (int i = 1; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    P[i][j] = P[0][j];
                    for (int u = (int)rand_int(&rs, 4); u != 0; u -= u > 0 ? 1 : -1)
                        P[i][j] = nextafter(P[i][j], u > 0 ? INFINITY : -INFINITY);
                }
            if (trial % 6 == 1) /* the far point far indeed */
                for (int j = 0; j < 3; j++)
                    P[3][j] *= 1000;
            break;
        case 2: /* a repeated point */
            memcpy(P[(trial / 6) % 4], P[(trial / 6 + 1) % 4], sizeof P[0]);
            break;
        case 3: /* four points on the plane z = c */
            for (int i = 0; i < 4; i++)
                P[i][2] = P[0][2];
            break;
        case 4: /* on the plane x + y + z = 1, dyadic coordinates */
            for (int i = 0; i < 4; i++) {
                P[i][0] = ldexp(floor(ldexp(P[i][0], 20)), -20);
                P[i][1] = ldexp(floor(ldexp(P[i][1], 20)), -20);
                P[i][2] = 1 - P[i][0] - P[i][1]; /* exact */
            }
            if ((trial / 6) % 2) /* nudged off the plane by 2^-50 */
                P[3][2] += 0x1p-50;
            break;
        default: /* a cluster of all four: a tiny, nearly flat tetrahedron */
            for (int i = 1; i < 4; i++)
                for (int j = 0; j < 3; j++)
                    P[i][j] = P[0][j] + ldexp((double)rand_int(&rs, 8), -52);
            break;
        }
        const double *const p[4] = {P[0], P[1], P[2], P[3]};
        int want = oracle_orient3d(p[0], p[1], p[2], p[3]);
        if (trial % 6 == 2 || trial % 6 == 3)
            ck_assert_int_eq(want, 0);
        zero += want == 0;
        nonzero += want != 0;
        check_orient_orders(p, "clusters", trial);
    }
    ck_assert(zero > 300 && nonzero > 500);
}
END_TEST

/* Coordinates of mixed magnitudes: each coordinate scaled by its own power
 * of two in [-600, 600] (the expansion stage with column scaling), tiny
 * and huge in one column (beyond what the expansions can hold: GMP), and
 * subnormals. */
START_TEST(orient3d_extreme_magnitudes)
{
    uint64_t rs = 22;
    for (int trial = 0; trial < 1500; trial++) {
        double P[4][3];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++)
                P[i][j] = short_double(&rs);
        if (trial % 2) /* exactly coplanar before the scaling */
            for (int j = 0; j < 3; j++)
                P[3][j] = P[0][j] + 2 * (P[1][j] - P[0][j]) - (P[2][j] - P[0][j]);
        switch (trial % 5) {
        case 0: /* one exponent per coordinate axis: coplanarity survives */
        case 1: {
            int e[3] = {(int)rand_int(&rs, 600), (int)rand_int(&rs, 600), (int)rand_int(&rs, 600)};
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 3; j++)
                    P[i][j] = ldexp(P[i][j], e[j]);
            break;
        }
        case 2: /* one exponent per entry */
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 3; j++)
                    P[i][j] = ldexp(P[i][j], (int)rand_int(&rs, 600));
            break;
        case 3: /* tiny and huge in the same columns */
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 3; j++)
                    P[i][j] = ldexp(P[i][j], (i + j) % 2 ? 900 : -900);
            break;
        default: /* subnormal */
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 3; j++)
                    P[i][j] = ldexp(P[i][j], -1050);
            break;
        }
        const double *const p[4] = {P[0], P[1], P[2], P[3]};
        check_orient_orders(p, "extreme magnitudes", trial);
    }
}
END_TEST

/* 4x4 determinants whose last row is a rounded combination of the others
 * (53-bit entries: the determinant is about u times the permanent, where
 * the row-reduction stage decides), an exact one (small integers: the
 * reduced row vanishes), columns scaled by their own powers of two up to
 * 2^+-700, zero rows and columns, subnormals, and columns too spread for
 * the expansions. */
START_TEST(det4_reduced_and_scaled)
{
    uint64_t rs = 23;
    int zero = 0;
    for (int trial = 0; trial < 3000; trial++) {
        double M[16];
        int kind = trial % 8;
        for (int i = 0; i < 16; i++)
            M[i] = kind == 1 ? (double)rand_int(&rs, 9) : t_rng_sym(&rs);
        double a = t_rng_sym(&rs), b = t_rng_sym(&rs), c = t_rng_sym(&rs);
        if (kind == 1) {
            a = (double)rand_int(&rs, 3);
            b = (double)rand_int(&rs, 3);
            c = (double)rand_int(&rs, 3);
        }
        if (kind <= 5)
            for (int j = 0; j < 4; j++)
                M[12 + j] = a * M[j] + b * M[4 + j] + c * M[8 + j];
        switch (kind) {
        case 2: /* columns scaled */
        case 3:
            for (int j = 0; j < 4; j++) {
                int e = (int)rand_int(&rs, 700);
                for (int i = 0; i < 4; i++)
                    M[4 * i + j] = ldexp(M[4 * i + j], e);
            }
            break;
        case 4: /* a zero column */
            for (int i = 0; i < 4; i++)
                M[4 * i + trial % 4] = 0;
            break;
        case 5: /* a zero entry per row */
            for (int i = 0; i < 4; i++)
                M[4 * i + (i + trial) % 4] = 0;
            break;
        case 6: /* subnormal entries */
            for (int i = 0; i < 16; i++)
                M[i] = ldexp(M[i], -1040);
            break;
        case 7: /* columns spanning 2^+-950: beyond the expansions */
            for (int i = 0; i < 16; i++)
                M[i] = ldexp(M[i], (i / 4 + i) % 2 ? 950 : -950);
            break;
        default:
            break;
        }
        int want = oracle_det_sign_d(M, 4);
        zero += want == 0;
        int got = pred_det4_rows(M, M + 4, M + 8, M + 12);
        EXPECT(got == want, "kind %d, trial %d: pred_det4_rows %d, cofactors %d", kind, trial,
               got, want);
        got = pred_det4_rows(M + 12, M + 4, M + 8, M); /* rows 0 and 3 swapped */
        EXPECT(got == -want, "kind %d, trial %d: swapped %d, want %d", kind, trial, got, -want);
        ck_assert_int_eq(pred_det_sign(M, 4, NULL), want);
    }
    ck_assert(zero > 300);
}
END_TEST

/* The 2x2 and 3x3 determinants of pred_det_sign past the filter: near and
 * exactly singular, with columns of mixed magnitudes. */
START_TEST(det_sign_small_mixed_columns)
{
    uint64_t rs = 24;
    for (int trial = 0; trial < 2000; trial++) {
        int k = 2 + trial % 2;
        double M[9];
        for (int i = 0; i < k * k; i++)
            M[i] = t_rng_sym(&rs);
        double a = t_rng_sym(&rs), b = t_rng_sym(&rs);
        for (int j = 0; j < k; j++) /* last row: a rounded combination */
            M[(k - 1) * k + j] = a * M[j] + (k == 3 ? b * M[3 + j] : 0);
        if (trial % 3 == 0)
            for (int j = 0; j < k; j++) /* exactly a copy */
                M[(k - 1) * k + j] = M[j];
        if (trial % 4 >= 2)
            for (int j = 0; j < k; j++) {
                int e = (int)rand_int(&rs, trial % 4 == 2 ? 400 : 1000);
                for (int i = 0; i < k; i++)
                    M[i * k + j] = ldexp(M[i * k + j], e);
            }
        check_det(M, k, NULL, "mixed columns", trial);
    }
}
END_TEST

/* ------------------------------------------- short entries in integers */

/* One column of widths: entries are integers below 2^width times 2^ex, some
 * zero, some negative; the first entry uses the full width so that the
 * column's width is exactly `width` (when the lowest bit is set). */
static void short_column(uint64_t *rs, double *M, int k, int j, int width, int ex)
{
    for (int i = 0; i < k; i++) {
        uint64_t v = t_rng_next(rs) >> (64 - width);
        if (i == 0)
            v |= (1ull << (width - 1)) | 1;
        else if (t_rng_next(rs) % 5 == 0)
            v = 0;
        double x = ldexp((double)v, ex);
        M[i * k + j] = t_rng_next(rs) & 1 ? -x : x;
    }
}

/* det_int_sign against the cofactor oracle: it must answer whenever the
 * column widths sum to at most 120 (each at most 53 here, as doubles hold
 * them), and give 2 beyond; exact zeros (dependent rows), subnormals, the
 * largest magnitudes it accepts and non-finite entries included. */
START_TEST(det_int_short_entries)
{
    uint64_t rs = 31;
    int answered = 0, zeros = 0;
    for (int trial = 0; trial < 4000; trial++) {
        int k = 1 + trial % 4, width[4], sum = 0;
        double M[16];
        for (int j = 0; j < k; j++) {
            width[j] = 1 + (int)(t_rng_next(&rs) % (trial % 3 == 0 ? 53 : 34));
            int ex = (int)(t_rng_next(&rs) % 400) - 200;
            if (trial % 17 == 0)
                ex = -1074; /* subnormal entries */
            short_column(&rs, M, k, j, width[j], ex);
            sum += width[j];
        }
        if (trial % 5 == 1 && k > 1) /* an exactly dependent last row */
            for (int j = 0; j < k; j++)
                M[(k - 1) * k + j] = M[j];
        int want = oracle_det_sign_d(M, k), got = det_int_sign(M, k, k);
        if (sum <= 120) {
            EXPECT(got == want, "trial %d (k = %d, widths %d): det_int_sign %d, oracle %d", trial,
                   k, sum, got, want);
            answered++;
            zeros += want == 0;
        } else
            EXPECT(got == 2, "trial %d (k = %d, widths %d): det_int_sign %d, want 2", trial, k,
                   sum, got);
    }
    ck_assert(answered > 2000 && zeros > 300);
    /* the bound itself: four columns of width 30 with the largest entries
     * and alternating signs answer; width 121 does not */
    double H[16];
    for (int i = 0; i < 16; i++)
        H[i] = (i / 4 + i % 4) % 2 ? -(0x1p30 - 1) : 0x1p30 - 1;
    H[5] = 0x1p30 - 3;
    ck_assert_int_eq(det_int_sign(H, 4, 4), oracle_det_sign_d(H, 4));
    H[0] = 0x1p30 + 1; /* column 0 now 31 bits wide */
    ck_assert_int_eq(det_int_sign(H, 4, 4), 2);
    double bad[4] = {1, INFINITY, 2, 3};
    ck_assert_int_eq(det_int_sign(bad, 2, 2), 2);
    bad[1] = NAN;
    ck_assert_int_eq(det_int_sign(bad, 2, 2), 2);
    double zero_col[4] = {0, 1, 0, 3};
    ck_assert_int_eq(det_int_sign(zero_col, 2, 2), 0);
    ck_assert_int_eq(det_int_sign(zero_col, 5, 5), 2);
}
END_TEST

/* ------------------------------------------------------- expansions */

/* out = the exact sum of e[0..len). */
static void xp_value(mpq_t out, int len, const double *e)
{
    mpq_t t;
    mpq_init(t);
    mpq_set_ui(out, 0, 1);
    for (int i = 0; i < len; i++) {
        mpq_set_d(t, e[i]);
        mpq_add(out, out, t);
    }
    mpq_clear(t);
}

/* Lowest set bit of a nonzero double, as a power of two. */
static double low_bit(double x)
{
    int e;
    double m = ldexp(frexp(fabs(x), &e), 53); /* an integer */
    int z = 0;
    while (fmod(m, 2) == 0) {
        m /= 2;
        z++;
    }
    return ldexp(1, e - 53 + z);
}

/* e has no zero component and is nonoverlapping, increasing: each
 * component lies below the lowest set bit of the next. */
static void check_form(int len, const double *e, const char *what, int trial)
{
    for (int i = 0; i < len; i++) {
        EXPECT(e[i] != 0, "%s, trial %d: zero component %d", what, trial, i);
        if (i + 1 < len)
            EXPECT(fabs(e[i]) < low_bit(e[i + 1]), "%s, trial %d: components %d, %d overlap",
                   what, trial, i, i + 1);
    }
}

/* A random expansion of up to 12 components, made by exact sums of
 * products of doubles of random magnitudes within 2^+-80. */
static int random_expansion(uint64_t *rs, double *e)
{
    double buf[2][64];
    int len = 0, cur = 0, terms = 1 + (int)(t_rng_next(rs) % 3);
    for (int t = 0; t < terms; t++) {
        double x = ldexp(t_rng_sym(rs), (int)rand_int(rs, 40));
        double y = ldexp(t_rng_sym(rs), (int)rand_int(rs, 40));
        double p[4];
        int pl = xp_prod_diff(x, y, t_rng_sym(rs), t_rng_sym(rs), p);
        len = xp_sum(len, buf[cur], pl, p, buf[1 - cur]);
        cur = 1 - cur;
    }
    memcpy(e, buf[cur], (size_t)len * sizeof(double));
    return len;
}

/* The largest double <= q (dir -1), the smallest >= q (dir +1), or q
 * truncated toward zero (dir 0), by exact comparisons around mpq_get_d. */
static double round_oracle(const mpq_t q, int dir)
{
    double d = mpq_get_d(q); /* within an ulp */
    mpq_t t;
    mpq_init(t);
    double cand[3] = {nextafter(d, -INFINITY), d, nextafter(d, INFINITY)}, best = NAN;
    for (int i = 0; i < 3; i++) {
        mpq_set_d(t, cand[i]);
        int c = mpq_cmp(t, q);
        int ok = dir < 0 ? c <= 0 : dir > 0 ? c >= 0 : (mpq_sgn(q) >= 0 ? c <= 0 : c >= 0);
        if (!ok)
            continue;
        if (isnan(best) || (dir < 0 || (dir == 0 && mpq_sgn(q) >= 0) ? cand[i] > best
                                                                      : cand[i] < best))
            best = cand[i];
    }
    mpq_clear(t);
    return best == 0 ? 0.0 : best;
}

START_TEST(expansion_sums_products_roundings)
{
    uint64_t rs = 25;
    mpq_t want, got, t;
    mpq_inits(want, got, t, NULL);
    for (int trial = 0; trial < 4000; trial++) {
        double e[12], f[12], h[288], scratch[312]; /* xp_mul: 2 * 12 * 12 */
        int el = random_expansion(&rs, e), fl = random_expansion(&rs, f);
        if (trial % 5 == 0) { /* f = -e + a little: deep cancellation */
            for (int i = 0; i < el; i++)
                f[i] = -e[i];
            fl = el;
            if (el > 0)
                f[0] = nextafter(f[0], INFINITY);
        }
        check_form(el, e, "random", trial);
        /* sum */
        int hl = xp_sum(el, e, fl, f, h);
        check_form(hl, h, "xp_sum", trial);
        xp_value(want, el, e);
        xp_value(t, fl, f);
        mpq_add(want, want, t);
        xp_value(got, hl, h);
        EXPECT(mpq_equal(want, got), "trial %d: xp_sum is not exact", trial);
        /* compress, in place */
        int cl = xp_compress(hl, h, h);
        check_form(cl, h, "xp_compress", trial);
        xp_value(got, cl, h);
        EXPECT(mpq_equal(want, got), "trial %d: xp_compress changed the value", trial);
        EXPECT(cl <= hl, "trial %d: xp_compress made it longer", trial);
        /* sign and roundings */
        EXPECT(xp_sign(cl, h) == mpq_sgn(want), "trial %d: xp_sign", trial);
        double buf[289];
        for (int dir = -1; dir <= 1; dir++) {
            double r = xp_round(cl, h, dir, buf), o = round_oracle(want, dir);
            EXPECT(r == o && signbit(r) == signbit(o), "trial %d: xp_round(%d) %a, want %a",
                   trial, dir, r, o);
        }
        /* scale and product */
        double b = ldexp(t_rng_sym(&rs), (int)rand_int(&rs, 60));
        int sl = xp_scale(el, e, b, h);
        check_form(sl, h, "xp_scale", trial);
        xp_value(want, el, e);
        mpq_set_d(t, b);
        mpq_mul(want, want, t);
        xp_value(got, sl, h);
        EXPECT(mpq_equal(want, got), "trial %d: xp_scale is not exact", trial);
        int ml = xp_mul(el, e, fl, f, h, scratch);
        check_form(ml, h, "xp_mul", trial);
        xp_value(want, el, e);
        xp_value(t, fl, f);
        mpq_mul(want, want, t);
        xp_value(got, ml, h);
        EXPECT(mpq_equal(want, got), "trial %d: xp_mul is not exact", trial);
    }
    mpq_clears(want, got, t, NULL);
}
END_TEST

/* pred_det4_cramer gives det M and the three determinants of Cramer's
 * rule bit for bit as pred_det4_expand computes each (values and
 * permanents), on random and on integer matrices. */
START_TEST(det4_cramer_equals_expand)
{
    uint64_t rng = 4242;
    for (int round = 0; round < 2000; round++) {
        double M[16], h[4], det[4], perm[4];
        for (int i = 0; i < 16; i++)
            M[i] = round % 2 ? (double)(int)(t_rng_next(&rng) % 7) - 3 : t_rng_sym(&rng) * 1e3;
        for (int i = 0; i < 4; i++)
            h[i] = t_rng_sym(&rng);
        pred_det4_cramer(M, h, det, perm);
        for (int c = -1; c < 3; c++) {
            double R[16], p;
            memcpy(R, M, sizeof R);
            for (int i = 0; c >= 0 && i < 4; i++)
                R[4 * i + c] = h[i];
            const double *const rows[4] = {R, R + 4, R + 8, R + 12};
            double d = pred_det4_expand(rows, &p);
            ck_assert_msg(d == det[c + 1] && p == perm[c + 1], "round %d column %d: %a %a, %a %a",
                          round, c, d, det[c + 1], p, perm[c + 1]);
        }
    }
}
END_TEST

/* The 4 x 4 filters (pred_last_column_filtered), every sign they decide
 * agreeing with the exact predicates: det M, the cofactors of the last
 * column, and det M with its last column replaced by h; on random,
 * integer and nearly singular matrices (a row a combination of the others
 * plus a tiny perturbation), where they must also leave some undecided. */
START_TEST(det4_last_column_signs_agree)
{
    uint64_t rng = 777;
    int decided = 0, declined = 0;
    for (int round = 0; round < 3000; round++) {
        double M[16], h[4];
        for (int i = 0; i < 16; i++)
            M[i] = round % 3 == 1 ? (double)(int)(t_rng_next(&rng) % 5) - 2 : t_rng_sym(&rng);
        for (int i = 0; i < 4; i++)
            h[i] = t_rng_sym(&rng);
        if (round % 3 == 2) /* row 3 nearly rows 0 + 2 row 1 */
            for (int j = 0; j < 4; j++)
                M[12 + j] = M[j] + 2 * M[4 + j] + (j == round % 4 ? 1e-15 * t_rng_sym(&rng) : 0);
        int sdet, cof[4], sh;
        int mask = pred_last_column_filtered(M, h, 4, &sdet, cof, &sh);
        int all = PRED_LC_SDET | PRED_LC_COFS4 | PRED_LC_SH4;
        if (mask == all)
            decided++;
        else
            declined++;
        if (mask & PRED_LC_SDET)
            ck_assert_int_eq(sdet, pred_det_sign(M, 4, NULL));
        for (int i = 0; i < 4; i++)
            if (mask & 2 << i)
                ck_assert_int_eq(cof[i], pred_cofactor_sign(M, 4, i, 3, NULL));
        if (!(mask & PRED_LC_SH4))
            continue;
        double R[16];
        memcpy(R, M, sizeof R);
        for (int i = 0; i < 4; i++)
            R[4 * i + 3] = h[i];
        ck_assert_int_eq(sh, pred_det_sign(R, 4, NULL));
    }
    ck_assert_int_gt(decided, 1500);
    ck_assert_int_gt(declined, 100);
}
END_TEST

/* pred_last_column_signs equals the exact predicates for every k from 1
 * to 6, on random matrices and on ones with zero cofactors (a repeated
 * row) and a zero margin (h a combination of the other columns). */
START_TEST(last_column_signs_are_exact)
{
    uint64_t rng = 4711;
    for (int round = 0; round < 1200; round++) {
        int k = 1 + round % 6;
        double M[36], h[6], R[36];
        for (int i = 0; i < k * k; i++)
            M[i] = (double)(int)(t_rng_next(&rng) % 7) - 3;
        for (int i = 0; i < k; i++)
            h[i] = round % 4 == 1 ? M[i * k] - M[i * k + (k > 1)] : t_rng_sym(&rng);
        if (round % 5 == 2 && k > 2) /* row 1 = row 0: cofactors of other rows vanish */
            for (int j = 0; j < k; j++)
                M[k + j] = M[j];
        int sdet, cof[6], sh;
        ck_assert_int_eq(pred_last_column_signs(M, h, k, &sdet, cof, &sh, NULL), 0);
        ck_assert_int_eq(sdet, pred_det_sign(M, k, NULL));
        for (int i = 0; i < k; i++) {
            memcpy(R, M, sizeof(double) * (size_t)(k * k));
            for (int j = 0; j < k; j++)
                R[i * k + j] = j == k - 1;
            ck_assert_int_eq(cof[i], pred_det_sign(R, k, NULL));
        }
        memcpy(R, M, sizeof(double) * (size_t)(k * k));
        for (int i = 0; i < k; i++)
            R[i * k + k - 1] = h[i];
        ck_assert_int_eq(sh, pred_det_sign(R, k, NULL));
    }
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
    tcase_add_test(tc, det4_cramer_equals_expand);
    tcase_add_test(tc, det4_last_column_signs_agree);
    tcase_add_test(tc, last_column_signs_are_exact);
    tcase_add_test(tc, det_sign_small_integer_matrices);
    tcase_add_test(tc, det_sign_exactly_singular);
    tcase_add_test(tc, det_sign_near_singular);
    tcase_add_test(tc, det_sign_huge_and_tiny_rows);
    tcase_add_test(tc, orient3d_random_and_coplanar);
    tcase_add_test(tc, det4_sign_matches_cofactors);
    tcase_add_test(tc, oracle_known_determinants);
    tcase_add_test(tc, non_finite_inputs_have_no_sign);
    tcase_add_test(tc, orient3d_clusters_and_repeats);
    tcase_add_test(tc, orient3d_extreme_magnitudes);
    tcase_add_test(tc, det4_reduced_and_scaled);
    tcase_add_test(tc, det_sign_small_mixed_columns);
    tcase_add_test(tc, det_int_short_entries);
    tcase_add_test(tc, expansion_sums_products_roundings);
    suite_add_tcase(s, tc);
    return s;
}
