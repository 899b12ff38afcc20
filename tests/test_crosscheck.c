/* test_crosscheck.c -- the instance generator and runner behind
 * `halfspace crosscheck`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/crosscheck.h"
#include "tests/helpers.h"

static void generate(uint64_t seed, long index, int dim, crosscheck_instance *inst)
{
    hs_error err;
    hs_error_clear(&err);
    hs_code rc = crosscheck_generate(seed, index, dim, 8, inst, &err);
    ck_assert_msg(rc == HS_OK, "instance %ld: %s", index, err.msg);
}

static int same_poly(const hs_poly *P, const hs_poly *Q)
{
    if (hs_poly_dim(P) != hs_poly_dim(Q) || hs_poly_rows(P) != hs_poly_rows(Q))
        return 0;
    double a[CC_MAX_DIM], b, c[CC_MAX_DIM], d;
    for (int i = 0; i < hs_poly_rows(P); i++) {
        hs_poly_row(P, i, a, &b);
        hs_poly_row(Q, i, c, &d);
        if (b != d || hs_poly_row_is_eq(P, i) != hs_poly_row_is_eq(Q, i) ||
            memcmp(a, c, sizeof(double) * (size_t)hs_poly_dim(P)) != 0)
            return 0;
    }
    return 1;
}

START_TEST(generator_is_deterministic)
{
    int differ = 0;
    for (long i = 0; i < 60; i++) {
        crosscheck_instance x, y, z;
        generate(42, i, 0, &x);
        generate(42, i, 0, &y);
        generate(43, i, 0, &z);
        ck_assert_int_eq(x.family, (int)(i % CC_FAMILY_COUNT));
        ck_assert_int_eq(x.n, 1 + (int)((i / CC_FAMILY_COUNT) % 5));
        ck_assert(same_poly(x.A, y.A) && same_poly(x.B, y.B));
        ck_assert_int_eq(x.expected, y.expected);
        ck_assert_str_eq(x.variant, y.variant);
        differ += !same_poly(x.A, z.A) || !same_poly(x.B, z.B);
        crosscheck_instance_free(&x);
        crosscheck_instance_free(&y);
        crosscheck_instance_free(&z);
    }
    ck_assert_int_ge(differ, 55);
}
END_TEST

/* Every number is a double that is an integer multiple of 2^-50 and
 * below 2^20 in magnitude: GLPK sees exactly the same data. */
static void assert_dyadic(const hs_poly *P)
{
    double a[CC_MAX_DIM], b;
    for (int i = 0; i < hs_poly_rows(P); i++) {
        ck_assert(hs_poly_row(P, i, a, &b));
        for (int j = 0; j <= hs_poly_dim(P); j++) {
            double v = j == hs_poly_dim(P) ? b : a[j];
            double scaled = ldexp(v, 50);
            ck_assert(scaled == floor(scaled));
            ck_assert(fabs(v) < 1048576.0);
        }
    }
}

static hs_status glpk_exact_status(const crosscheck_instance *inst, hs_result *r)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_GLPK_EXACT;
    hs_error err;
    hs_code rc = hs_intersect(inst->A, inst->B, &opt, r, &err);
    ck_assert_msg(rc == HS_OK, "glpk-exact: %s", err.msg);
    return hs_result_status(r);
}

/* Family _i: a sample in every dimension 1..5 gives the class the
 * construction promises, under glp_exact. */
START_TEST(family_yields_its_class)
{
    cc_family f = (cc_family)_i;
    hs_result *r = hs_result_new();
    int known = 0;
    int seen[HS_INTERSECT + 1] = {0};
    for (int n = 1; n <= 5; n++) {
        for (long i = 0; i < 12; i++) {
            crosscheck_instance inst;
            hs_error err;
            ck_assert_int_eq(crosscheck_generate_family(5, i, f, n, 6, &inst, &err), HS_OK);
            ck_assert_int_eq(inst.family, f);
            assert_dyadic(inst.A);
            assert_dyadic(inst.B);
            hs_status got = glpk_exact_status(&inst, r);
            seen[got]++;
            if (inst.expected != CC_UNKNOWN) {
                known++;
                ck_assert_msg(got == (hs_status)inst.expected,
                              "%s (%s), n=%d, instance %ld: glpk-exact says %s, expected %s",
                              crosscheck_family_name(f), inst.variant, n, i,
                              hs_status_name(got), hs_status_name((hs_status)inst.expected));
            }
            crosscheck_instance_free(&inst);
        }
    }
    if (f == CC_GENERAL) {
        ck_assert_int_ge(seen[HS_OVERLAP], 15); /* about half overlap */
        ck_assert_int_ge(seen[HS_DISJOINT], 15);
    } else {
        ck_assert_int_ge(known, 40); /* unbounded: 1 variant in 8 is open */
    }
    hs_result_free(r);
}
END_TEST

START_TEST(tiny_gap_needs_exact_arithmetic)
{
    /* A shift of 2^-40 is far below the float engine's tolerance, but
     * glp_exact always sees it. */
    hs_result *r = hs_result_new();
    for (long i = 0; i < 20; i++) {
        crosscheck_instance inst;
        hs_error err;
        ck_assert_int_eq(crosscheck_generate_family(9, i, CC_TINY_GAP, 3, 8, &inst, &err),
                         HS_OK);
        ck_assert(strstr(inst.variant, "2^-40") != NULL);
        ck_assert_int_ne(glpk_exact_status(&inst, r), HS_TOUCHING);
        crosscheck_instance_free(&inst);
    }
    hs_result_free(r);
}
END_TEST

START_TEST(generator_rejects_bad_arguments)
{
    crosscheck_instance inst;
    hs_error err;
    ck_assert_int_eq(crosscheck_generate(1, 0, CC_MAX_DIM + 1, 8, &inst, &err), HS_ERR_ARG);
    ck_assert_int_eq(crosscheck_generate(1, 0, 2, 0, &inst, &err), HS_ERR_ARG);
    ck_assert_int_eq(crosscheck_generate(1, -1, 2, 8, &inst, &err), HS_ERR_ARG);
    ck_assert_int_eq(crosscheck_generate_family(1, 0, CC_FAMILY_COUNT, 2, 8, &inst, &err),
                     HS_ERR_ARG);
    ck_assert_str_eq(crosscheck_family_name(CC_VERTEX_FACE), "vertex-face");
}
END_TEST

/* Engines that answer at all (a placeholder engine says UNSUPPORTED). */
static unsigned available_engines(void)
{
    crosscheck_instance inst;
    generate(1, 1, 2, &inst);
    hs_result *r = hs_result_new();
    unsigned mask = 0;
    for (int e = HS_ENGINE_EXACT; e <= HS_ENGINE_GLPK_EXACT; e++) {
        hs_options opt;
        hs_options_init(&opt);
        opt.engine = (hs_engine)e;
        hs_error err;
        if (hs_intersect(inst.A, inst.B, &opt, r, &err) != HS_ERR_UNSUPPORTED)
            mask |= CC_ENGINE_BIT(e);
    }
    hs_result_free(r);
    crosscheck_instance_free(&inst);
    return mask;
}

/* Last line of the text in f. */
static void last_line(FILE *f, char *buf, size_t cap)
{
    char line[512];
    buf[0] = '\0';
    rewind(f);
    while (fgets(line, sizeof line, f))
        snprintf(buf, cap, "%s", line);
}

START_TEST(run_without_disagreements)
{
    crosscheck_opts o;
    crosscheck_opts_init(&o);
    o.count = 200;
    o.seed = 2024;
    o.engines = available_engines();
    ck_assert(o.engines & CC_ENGINE_BIT(HS_ENGINE_GLPK_EXACT));
    FILE *out = tmpfile();
    ck_assert(out != NULL);
    crosscheck_summary s;
    hs_error err;
    ck_assert_int_eq(crosscheck_run(&o, out, &s, &err), HS_OK);
    char last[512];
    last_line(out, last, sizeof last);
    fclose(out);
    ck_assert_str_eq(last, "crosscheck: 200 instances, 0 disagreements\n");
    ck_assert_int_eq(s.instances, 200);
    ck_assert_int_eq(s.disagreements, 0);
    ck_assert_int_eq(s.engine_errors, 0);
    ck_assert_int_gt(s.pair[CC_EXACT_VS_EXPECTED].compared, 150);
    if (o.engines & CC_ENGINE_BIT(HS_ENGINE_EXACT))
        ck_assert_int_eq(s.pair[CC_EXACT_VS_GLPK_EXACT].compared, 200);
    for (int f = 0; f < CC_FAMILY_COUNT; f++)
        ck_assert_int_eq(s.family_count[f], 20);
}
END_TEST

START_TEST(verbose_run_prints_every_instance)
{
    crosscheck_opts o;
    crosscheck_opts_init(&o);
    o.count = 12;
    o.dim = 3;
    o.verbose = 1;
    o.engines = CC_ENGINE_BIT(HS_ENGINE_GLPK_EXACT) | CC_ENGINE_BIT(HS_ENGINE_GLPK);
    FILE *out = tmpfile();
    crosscheck_summary s;
    hs_error err;
    ck_assert_int_eq(crosscheck_run(&o, out, &s, &err), HS_OK);
    rewind(out);
    char line[512];
    int instances = 0;
    while (fgets(line, sizeof line, out))
        if (strncmp(line, "instance ", 9) == 0) {
            instances++;
            ck_assert(strstr(line, " n=3 ") != NULL);
            ck_assert(strstr(line, " glpk-exact=") != NULL);
        }
    fclose(out);
    ck_assert_int_eq(instances, 12);
    ck_assert_int_eq(s.disagreements, 0);
}
END_TEST

/* The options of the command (parsed in the CLI, src/cli/cli_crosscheck.c):
 * the defaults are crosscheck_opts_init's, and a run with every option
 * set prints what the library prints for the same options. */
START_TEST(options_are_parsed)
{
    crosscheck_opts o;
    crosscheck_opts_init(&o);
    ck_assert_int_eq(o.count, 1000);
    ck_assert_int_eq(o.dim, 0);
    ck_assert_int_eq(o.rows, 8);
    ck_assert(o.seed == 1);
    if (!getenv("HS_CLI"))
        return;
    o.count = 7;
    o.dim = 4;
    o.rows = 3;
    o.seed = 99;
    o.verbose = 1;
    FILE *lib = tmpfile();
    ck_assert(lib != NULL);
    crosscheck_summary s;
    hs_error err;
    ck_assert_int_eq(crosscheck_run(&o, lib, &s, &err), HS_OK);
    static char want[65536];
    rewind(lib);
    size_t len = fread(want, 1, sizeof want - 1, lib);
    want[len] = '\0';
    fclose(lib);
    const char *out, *errtext;
    ck_assert_int_eq(t_cli("crosscheck --count 7 --dim 4 --rows=3 --seed 99 --verbose", &out,
                           &errtext),
                     0);
    ck_assert_str_eq(out, want);
    ck_assert_int_eq(t_cli("crosscheck --help", &out, &errtext), 0);
    const char *bad[] = {"crosscheck --dim 0",     "crosscheck --dim 13",
                         "crosscheck --count x",   "crosscheck --count",
                         "crosscheck --seed -1",   "crosscheck --rows 0",
                         "crosscheck --frobnicate", "crosscheck extra"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(t_cli(bad[i], &out, &errtext) == 1, "accepted: %s", bad[i]);
}
END_TEST

/* The command itself, when the test run names the CLI ($HS_CLI); without
 * it the test is recorded as skipped. */
START_TEST(cli_exit_codes)
{
    if (!getenv("HS_CLI")) {
        t_skip("cli_exit_codes", "HS_CLI is not set (the halfspace program to run)");
        return;
    }
    const char *out, *errtext;
    ck_assert_int_eq(t_cli("crosscheck --count 20 --seed 3", &out, &errtext), 0);
    ck_assert(strstr(out, "crosscheck: 20 instances, 0 disagreements\n") != NULL);
    ck_assert_int_eq(t_cli("crosscheck --help", &out, &errtext), 0);
    ck_assert(strstr(out, "usage: halfspace crosscheck") != NULL);
    ck_assert_int_eq(t_cli("crosscheck --count", &out, &errtext), 1);
    ck_assert(strstr(errtext, "usage: halfspace crosscheck") != NULL);
}
END_TEST

Suite *suite_crosscheck(void)
{
    Suite *s = suite_create("crosscheck");
    TCase *tc = tcase_create("crosscheck");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, generator_is_deterministic);
    tcase_add_loop_test(tc, family_yields_its_class, 0, CC_FAMILY_COUNT);
    tcase_add_test(tc, tiny_gap_needs_exact_arithmetic);
    tcase_add_test(tc, generator_rejects_bad_arguments);
    tcase_add_test(tc, run_without_disagreements);
    tcase_add_test(tc, verbose_run_prints_every_instance);
    tcase_add_test(tc, options_are_parsed);
    tcase_add_test(tc, cli_exit_codes);
    suite_add_tcase(s, tc);
    return s;
}
