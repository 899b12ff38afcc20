/* test_simplify.c -- answers printed with the simplest numbers that still
 * prove them (solver/result_simplify.c, issue 14): the fast engine's
 * 16-digit fractions become what the exact engine prints (1/4, -1/2),
 * and every simplified answer still verifies. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/crosscheck.h"
#include "solver/result.h"
#include "solver/result_simplify.h"
#include "tests/helpers.h"

/* The largest size in bits (numerator plus denominator) of a number of r:
 * multipliers, point and strict point. */
static size_t largest_bits(const hs_result *r)
{
    hs_result *tmp;
    const hs_result *ex = result_exact(r, &tmp);
    ck_assert(ex != NULL);
    size_t big = 0;
    for (int k = 0; k < ex->nmult; k++) {
        size_t b = mpz_sizeinbase(mpq_numref(ex->mult[k].y), 2) +
                   mpz_sizeinbase(mpq_denref(ex->mult[k].y), 2);
        big = b > big ? b : big;
    }
    for (int w = 0; w < 2; w++) {
        int have = w ? ex->has_strict : ex->has_point;
        for (int j = 0; have && j < ex->n; j++) {
            mpq_srcptr x = w ? ex->strict[j] : ex->point[j];
            size_t b = mpz_sizeinbase(mpq_numref(x), 2) + mpz_sizeinbase(mpq_denref(x), 2);
            big = b > big ? b : big;
        }
    }
    hs_result_free(tmp);
    return big;
}

/* The paper's systems (3) and (5) touch at (0, 0, 2): the fast engine's
 * multipliers were 2251799813685248/10655631126832725 each. */
START_TEST(paper_touching_pair_prints_quarters)
{
    hs_poly *A = t_example("paper/example1_A.ine"), *B = t_example("paper/example2_A.ine");
    hs_options opt;
    hs_options_init(&opt);
    hs_result *r = hs_result_new();
    hs_error err;
    ck_assert(hs_intersect(A, B, &opt, r, &err) == HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_TOUCHING);
    hs_result *s = result_simplified(r, A, B);
    ck_assert(s != NULL);
    ck_assert(hs_result_verify(s, A, B, &err) == HS_OK);
    ck_assert_int_eq(hs_result_multiplier_count(s), 4);
    for (int k = 0; k < 4; k++) {
        char *v = NULL;
        hs_result_multiplier(s, k, NULL, NULL, NULL, &v);
        ck_assert_str_eq(v, "1/4");
        hs_free(v);
    }
    ck_assert(largest_bits(s) <= 8);
    hs_result_free(s);
    /* in place, through the API */
    ck_assert(hs_result_simplify(r, A, B, &err) == HS_OK);
    ck_assert(largest_bits(r) <= 8);
    ck_assert(hs_result_verify(r, A, B, &err) == HS_OK);
    ck_assert(hs_result_simplify(NULL, A, B, &err) == HS_ERR_ARG);
    hs_result_free(r);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

/* Over the cross-check's instances (every family, n = 1..5): a simplified
 * fast answer verifies, has the same status, is never larger than the
 * original, and its numbers are about as small as the exact engine's
 * (within 16 bits, or 64 bits at most). */
START_TEST(simplified_answers_verify)
{
    hs_options fast, exact;
    hs_options_init(&fast);
    hs_options_init(&exact);
    exact.engine = HS_ENGINE_EXACT;
    hs_result *rf = hs_result_new(), *re = hs_result_new();
    hs_error err;
    long simplified = 0, larger = 0;
    for (long i = 0; i < 600; i++) {
        crosscheck_instance inst;
        ck_assert(crosscheck_generate(3, i, 0, 6, &inst, &err) == HS_OK);
        ck_assert(hs_intersect(inst.A, inst.B, &fast, rf, &err) == HS_OK);
        ck_assert(hs_intersect(inst.A, inst.B, &exact, re, &err) == HS_OK);
        hs_result *s = result_simplified(rf, inst.A, inst.B);
        ck_assert_msg(s != NULL, "instance %ld: the fast answer did not verify", i);
        ck_assert(hs_result_verify(s, inst.A, inst.B, &err) == HS_OK);
        ck_assert_int_eq(hs_result_status(s), hs_result_status(rf));
        size_t before = largest_bits(rf), after = largest_bits(s), ex = largest_bits(re);
        ck_assert(after <= before);
        simplified += after < before;
        /* (instances moved by 2^-40 need large numbers: the exact
         * engine's own are up to 95 bits there) */
        larger += after > (ex > 64 ? ex : 64) + 16;
        hs_result_free(s);
        crosscheck_instance_free(&inst);
    }
    ck_assert(simplified > 0);
    ck_assert_msg(larger == 0, "%ld simplified answers above 64 bits and the exact engine's",
                  larger);
    hs_result_free(rf);
    hs_result_free(re);
}
END_TEST

/* The CLI prints the simplified answer (text and JSON), and verify reads
 * it back. */
START_TEST(cli_prints_simple_numbers)
{
    const char *out, *errtext;
    char args[1024];
    const char *ex = getenv("HS_EXAMPLES") ? getenv("HS_EXAMPLES") : "examples";
    snprintf(args, sizeof args, "intersect %s/paper/example1_A.ine %s/paper/example2_A.ine", ex,
             ex);
    ck_assert_int_eq(t_cli(args, &out, &errtext), 0);
    ck_assert_msg(strstr(out, "multiplier A 1 1/4\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "2251799813685248") == NULL, "%s", out);
    snprintf(args, sizeof args, "feasible %s/paper/example1_A.ine", ex);
    ck_assert_int_eq(t_cli(args, &out, &errtext), 0);
    ck_assert_msg(strlen(out) < 40, "%s", out);
}
END_TEST

Suite *suite_simplify(void)
{
    Suite *s = suite_create("simplify");
    TCase *tc = tcase_create("simplify");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, paper_touching_pair_prints_quarters);
    tcase_add_test(tc, simplified_answers_verify);
    tcase_add_test(tc, cli_prints_simple_numbers);
    suite_add_tcase(s, tc);
    return s;
}
