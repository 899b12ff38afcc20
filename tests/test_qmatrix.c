/* test_qmatrix.c -- the exact rational solves of solver/qmatrix.c against
 * Cramer's rule on cofactor determinants (tests/oracle.c): random integer
 * and rational systems of sizes 1 to 6, both M z = r and M^T z = r,
 * matrices that need row exchanges, singular matrices of every rank
 * deficiency (reported, not solved), and a Hilbert system whose answer is
 * known. */
#include <gmp.h>
#include <stdint.h>

#include "solver/qmatrix.h"
#include "tests/helpers.h"
#include "tests/oracle.h"

#define K_MAX 6 /* (the oracle expands cofactors: dense systems stay small) */

typedef struct qsys {
    int k;
    mpq_t M[K_MAX * K_MAX], T[K_MAX * K_MAX]; /* M and its transpose */
    mpq_t r[K_MAX], z[K_MAX], want[K_MAX];
    mpq_t copy[K_MAX * K_MAX + K_MAX]; /* M and r before the solve */
} qsys;

static void qsys_init(qsys *s)
{
    for (int i = 0; i < K_MAX * K_MAX; i++) {
        mpq_init(s->M[i]);
        mpq_init(s->T[i]);
    }
    for (int i = 0; i < K_MAX; i++) {
        mpq_init(s->r[i]);
        mpq_init(s->z[i]);
        mpq_init(s->want[i]);
    }
    for (int i = 0; i < K_MAX * K_MAX + K_MAX; i++)
        mpq_init(s->copy[i]);
}

static void qsys_clear(qsys *s)
{
    for (int i = 0; i < K_MAX * K_MAX; i++) {
        mpq_clear(s->M[i]);
        mpq_clear(s->T[i]);
    }
    for (int i = 0; i < K_MAX; i++) {
        mpq_clear(s->r[i]);
        mpq_clear(s->z[i]);
        mpq_clear(s->want[i]);
    }
    for (int i = 0; i < K_MAX * K_MAX + K_MAX; i++)
        mpq_clear(s->copy[i]);
}

/* A random rational: an integer in [-9, 9] over 1 .. den_max; with big,
 * the numerator is multiplied by 2^200 + 1 or divided by 3^50 now and
 * then. */
static void rand_q(uint64_t *rs, mpq_t q, int den_max, int big)
{
    long num = (long)(t_rng_next(rs) % 19) - 9;
    unsigned long den = 1 + (unsigned long)(t_rng_next(rs) % (uint64_t)den_max);
    mpq_set_si(q, num, den);
    mpq_canonicalize(q);
    if (big && t_rng_next(rs) % 4 == 0) {
        mpz_t f;
        mpz_init(f);
        if (t_rng_next(rs) % 2) {
            mpz_ui_pow_ui(f, 2, 200);
            mpz_add_ui(f, f, 1);
            mpz_mul(mpq_numref(q), mpq_numref(q), f);
        } else {
            mpz_ui_pow_ui(f, 3, 50);
            mpz_mul(mpq_denref(q), mpq_denref(q), f);
        }
        mpq_canonicalize(q);
        mpz_clear(f);
    }
}

/* Solve s (M z = r, then M^T z = r) with qmatrix and compare with the
 * oracle: both singular, or the same exact solution.  M and r must be
 * left as they were.  Returns 1 when M is nonsingular. */
static int check_solve(qmatrix_work *w, qsys *s, const char *what, int trial)
{
    int k = s->k;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            mpq_set(s->T[j * k + i], s->M[i * k + j]);
    for (int i = 0; i < k * k; i++)
        mpq_set(s->copy[i], s->M[i]);
    for (int i = 0; i < k; i++)
        mpq_set(s->copy[k * k + i], s->r[i]);
    int nonsingular = 0;
    for (int transpose = 0; transpose < 2; transpose++) {
        int want = oracle_solve_q(s->want, transpose ? s->T : s->M, s->r, k);
        int got = qmatrix_solve(w, k, s->M, s->r, s->z, transpose);
        EXPECT(got == want, "%s, trial %d (k = %d, transpose %d): qmatrix %d, Cramer %d", what,
               trial, k, transpose, got, want);
        for (int i = 0; i < k && want == 0; i++)
            EXPECT(mpq_equal(s->z[i], s->want[i]), "%s, trial %d (k = %d, transpose %d): z[%d]",
                   what, trial, k, transpose, i);
        nonsingular = want == 0;
    }
    for (int i = 0; i < k * k; i++)
        EXPECT(mpq_equal(s->copy[i], s->M[i]), "%s, trial %d: M changed", what, trial);
    for (int i = 0; i < k; i++)
        EXPECT(mpq_equal(s->copy[k * k + i], s->r[i]), "%s, trial %d: r changed", what, trial);
    return nonsingular;
}

START_TEST(random_systems_match_cramer)
{
    qmatrix_work w;
    ck_assert_int_eq(qmatrix_work_init(&w, K_MAX), 0);
    qsys s;
    qsys_init(&s);
    uint64_t rs = 41;
    int solved = 0, singular = 0;
    for (int trial = 0; trial < 360; trial++) {
        s.k = 1 + trial % K_MAX;
        int den_max = trial % 3 == 0 ? 1 : 7, big = trial % 2;
        for (int i = 0; i < s.k * s.k; i++)
            rand_q(&rs, s.M[i], den_max, big);
        for (int i = 0; i < s.k; i++)
            rand_q(&rs, s.r[i], den_max, big);
        if (check_solve(&w, &s, "random", trial))
            solved++;
        else
            singular++;
    }
    ck_assert(solved > 300 && singular > 0); /* 1x1 zeros and small integer luck */
    qsys_clear(&s);
    qmatrix_work_free(&w);
    qmatrix_work_free(&w); /* a second free is harmless */
}
END_TEST

/* Leading zeros that need row exchanges: permutation matrices times a
 * random diagonal, and random matrices whose first column is zero except
 * in its last row. */
START_TEST(systems_that_need_row_exchanges)
{
    qmatrix_work w;
    ck_assert_int_eq(qmatrix_work_init(&w, K_MAX), 0);
    qsys s;
    qsys_init(&s);
    uint64_t rs = 42;
    for (int trial = 0; trial < 200; trial++) {
        int k = s.k = 2 + trial % (K_MAX - 1);
        int perm[K_MAX];
        for (int i = 0; i < k; i++)
            perm[i] = i;
        for (int i = k - 1; i > 0; i--) {
            int j = (int)(t_rng_next(&rs) % (uint64_t)(i + 1)), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++) {
                if (trial % 2 == 0) {
                    if (j == perm[i])
                        mpq_set_si(s.M[i * k + j], 1 + (long)(t_rng_next(&rs) % 5), 1);
                    else
                        mpq_set_ui(s.M[i * k + j], 0, 1);
                } else {
                    rand_q(&rs, s.M[i * k + j], 5, 0);
                    if (j == 0 && i < k - 1)
                        mpq_set_ui(s.M[i * k + j], 0, 1);
                    if (j == 0 && i == k - 1)
                        mpq_set_ui(s.M[i * k + j], 1, 1);
                }
            }
        for (int i = 0; i < k; i++)
            rand_q(&rs, s.r[i], 5, 0);
        int ok = check_solve(&w, &s, "row exchanges", trial);
        if (trial % 2 == 0)
            ck_assert(ok); /* a permutation times a nonzero diagonal */
    }
    qsys_clear(&s);
    qmatrix_work_free(&w);
}
END_TEST

/* Singular matrices: a zero row or column, a repeated row, a row that is
 * a rational combination of two others, and rank k - 2; the solve says
 * so in both orientations.  Then one entry of row a changed: usually
 * solvable, never for rank k - 2. */
START_TEST(singular_matrices_are_reported)
{
    qmatrix_work w;
    ck_assert_int_eq(qmatrix_work_init(&w, K_MAX), 0);
    qsys s;
    qsys_init(&s);
    uint64_t rs = 43;
    mpq_t c1, c2, t;
    mpq_inits(c1, c2, t, NULL);
    int repaired = 0;
    for (int trial = 0; trial < 250; trial++) {
        int k = s.k = 2 + trial % (K_MAX - 1);
        for (int i = 0; i < k * k; i++)
            rand_q(&rs, s.M[i], 7, trial % 2);
        for (int i = 0; i < k; i++)
            rand_q(&rs, s.r[i], 7, 0);
        int a = (int)(t_rng_next(&rs) % (uint64_t)k), b = (a + 1) % k;
        int c = k > 2 ? (a + 2) % k : b;
        rand_q(&rs, c1, 7, 0);
        rand_q(&rs, c2, 7, 0);
        for (int j = 0; j < k; j++) {
            switch (trial % 5) {
            case 0: mpq_set_ui(s.M[a * k + j], 0, 1); break;        /* zero row */
            case 1: mpq_set_ui(s.M[j * k + a], 0, 1); break;        /* zero column */
            case 2: mpq_set(s.M[a * k + j], s.M[b * k + j]); break; /* repeated row */
            case 3: /* row a in the span of rows b and c */
                mpq_mul(t, c1, s.M[b * k + j]);
                mpq_mul(s.M[a * k + j], c2, s.M[c * k + j]);
                mpq_add(s.M[a * k + j], s.M[a * k + j], t);
                break;
            default: /* rows a and c multiples of row b: rank k - 2 (k > 2) */
                mpq_mul(s.M[a * k + j], c1, s.M[b * k + j]);
                if (k > 2)
                    mpq_mul(s.M[c * k + j], c2, s.M[b * k + j]);
            }
        }
        ck_assert(!check_solve(&w, &s, "singular", trial));
        int e = (int)(t_rng_next(&rs) % (uint64_t)k);
        mpq_set_si(t, 1, 1 + (unsigned long)(t_rng_next(&rs) % 5));
        mpq_add(s.M[a * k + e], s.M[a * k + e], t); /* rank k - 2 stays singular */
        int ok = check_solve(&w, &s, "repaired", trial);
        if (trial % 5 == 4 && k > 2)
            ck_assert(!ok);
        repaired += ok;
    }
    ck_assert(repaired > 100);
    mpq_clears(c1, c2, t, NULL);
    qsys_clear(&s);
    qmatrix_work_free(&w);
}
END_TEST

/* The Hilbert matrix H_ij = 1 / (i + j + 1) (det ~ 2e-18 for k = 6): with
 * r = H times (1, -2, 3, ...) the answer is that vector exactly.  Also
 * smaller systems in a workspace made for more. */
START_TEST(hilbert_systems)
{
    qmatrix_work w;
    ck_assert_int_eq(qmatrix_work_init(&w, K_MAX), 0);
    qsys s;
    qsys_init(&s);
    mpq_t t;
    mpq_init(t);
    for (int k = 1; k <= K_MAX; k++) {
        s.k = k;
        for (int i = 0; i < k; i++) {
            mpq_set_ui(s.r[i], 0, 1);
            for (int j = 0; j < k; j++) {
                mpq_set_ui(s.M[i * k + j], 1, (unsigned long)(i + j + 1));
                mpq_set_si(t, (j % 2 ? -1 : 1) * (j + 1), 1);
                mpq_mul(t, t, s.M[i * k + j]);
                mpq_add(s.r[i], s.r[i], t);
            }
        }
        ck_assert(check_solve(&w, &s, "hilbert", k));
        ck_assert_int_eq(qmatrix_solve(&w, k, s.M, s.r, s.z, 0), 0);
        for (int j = 0; j < k; j++)
            ck_assert(mpq_cmp_si(s.z[j], (j % 2 ? -1 : 1) * (j + 1), 1) == 0);
    }
    mpq_clear(t);
    qsys_clear(&s);
    qmatrix_work_free(&w);
}
END_TEST

Suite *suite_qmatrix(void)
{
    Suite *s = suite_create("qmatrix");
    TCase *tc = tcase_create("qmatrix");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, random_systems_match_cramer);
    tcase_add_test(tc, systems_that_need_row_exchanges);
    tcase_add_test(tc, singular_matrices_are_reported);
    tcase_add_test(tc, hilbert_systems);
    suite_add_tcase(s, tc);
    return s;
}
