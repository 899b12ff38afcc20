/* test_exact.c -- the exact engine through the public API: the paper's
 * examples, certificates written, read back and verified, JSON, and the
 * argument errors of hs_feasible / hs_intersect. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

static hs_status exact_pair(hs_poly *A, hs_poly *B, hs_result *r)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_EXACT;
    hs_error err;
    hs_error_clear(&err);
    ck_assert_msg(hs_intersect(A, B, &opt, r, &err) == HS_OK, "%s", err.msg);
    ck_assert_msg(hs_result_verify(r, A, B, &err) == HS_OK, "%s", err.msg);
    return hs_result_status(r);
}

/* Seed 002's Example 1 (systems (3),(4)) and Example 2 ((5),(6)) are both
 * overlapping pairs: (-3/5, 3/5, 3/5) and (-3/5, 3/5, 21/10) are common
 * interior points. */
START_TEST(paper_examples_overlap)
{
    hs_result *r = hs_result_new();
    for (int k = 1; k <= 2; k++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "paper/example%d_A.ine", k);
        snprintf(b, sizeof b, "paper/example%d_B.ine", k);
        hs_poly *A = t_example(a), *B = t_example(b);
        ck_assert_int_eq(exact_pair(A, B, r), HS_OVERLAP);
        ck_assert(hs_result_has_point(r));
        hs_poly_free(A);
        hs_poly_free(B);
    }
    hs_result_free(r);
}
END_TEST

static char *write_text(const hs_result *r, int json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hs_error err;
    ck_assert_int_eq(json ? hs_result_write_json(r, f, &err) : hs_result_write_text(r, f, &err),
                     HS_OK);
    fclose(f);
    return buf;
}

/* Every kind of answer survives write -> read -> verify unchanged. */
START_TEST(certificates_round_trip)
{
    static const char *const pairs[][2] = {
        {"basic/unit_cube.ine", "basic/cube_face.ine"},
        {"basic/unit_cube.ine", "basic/cube_corner.ine"},
        {"basic/unit_cube.ine", "basic/cube_far.ine"},
        {"basic/unit_cube.ine", "basic/cube_overlap.ine"},
        {"basic/unit_cube.ine", "basic/square_on_top.ine"},
        {"basic/unit_cube.ine", "basic/square_inside.ine"},
        {"basic/unit_cube.ine", "basic/empty.ine"},
        {"basic/x_le_0.3.ine", "basic/ten_x_ge_3.ine"},
    };
    static const hs_status expect[] = {HS_TOUCHING, HS_TOUCHING, HS_DISJOINT, HS_OVERLAP,
                                       HS_TOUCHING, HS_OVERLAP,  HS_DISJOINT, HS_TOUCHING};
    hs_result *r = hs_result_new();
    hs_poly *A = t_example(pairs[_i][0]), *B = t_example(pairs[_i][1]);
    ck_assert_int_eq(exact_pair(A, B, r), expect[_i]);
    char *text = write_text(r, 0);
    hs_error err;
    hs_result *back = hs_result_parse(text, "cert", hs_poly_dim(A), &err);
    ck_assert_msg(back != NULL, "%s", err.msg);
    ck_assert_int_eq(hs_result_status(back), expect[_i]);
    ck_assert_int_eq(hs_result_verify(back, A, B, &err), HS_OK);
    char *again = write_text(back, 0);
    ck_assert_str_eq(text, again);
    char *json = write_text(r, 1);
    ck_assert(strncmp(json, "{\"status\":\"", 11) == 0);
    ck_assert(strstr(json, hs_status_name(expect[_i])) != NULL);
    free(text);
    free(again);
    free(json);
    hs_result_free(back);
    hs_result_free(r);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(feasibility_answers)
{
    hs_result *r = hs_result_new();
    hs_options opt;
    hs_options_init(&opt);
    hs_error err;
    hs_poly *p = t_example("basic/empty.ine");
    ck_assert_int_eq(hs_feasible(p, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_INFEASIBLE);
    ck_assert_int_le(hs_result_multiplier_count(r), 4);
    int which, row;
    double v;
    char *exact = NULL;
    ck_assert_int_eq(hs_result_multiplier(r, 0, &which, &row, &v, &exact), HS_OK);
    ck_assert(which == 0 && row >= 0 && row < 3 && v > 0 && exact != NULL);
    hs_free(exact);
    ck_assert_int_eq(hs_result_multiplier(r, 99, &which, &row, &v, NULL), HS_ERR_ARG);
    double x[3];
    ck_assert_int_eq(hs_result_point(r, x), HS_ERR_ARG); /* no point */
    hs_poly_free(p);
    p = t_example("basic/below_floor.ine"); /* unbounded but feasible */
    ck_assert_int_eq(hs_feasible(p, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_FEASIBLE);
    ck_assert_int_eq(hs_result_point(r, x), HS_OK);
    ck_assert(x[2] <= -1);
    ck_assert_int_eq(hs_result_verify(r, p, NULL, &err), HS_OK);
    hs_poly_free(p);
    hs_result_free(r);
}
END_TEST

static void collect(void *user, const char *line)
{
    int *found = user;
    if (strstr(line, "exact classification: touching"))
        *found = 1;
}

START_TEST(trace_reports_the_classification)
{
    hs_result *r = hs_result_new();
    hs_options opt;
    hs_options_init(&opt);
    int found = 0;
    opt.engine = HS_ENGINE_EXACT;
    opt.trace = collect;
    opt.trace_user = &found;
    hs_error err;
    hs_poly *A = t_example("basic/unit_cube.ine"), *B = t_example("basic/cube_face.ine");
    ck_assert_int_eq(hs_intersect(A, B, &opt, r, &err), HS_OK);
    ck_assert(found);
    hs_poly_free(A);
    hs_poly_free(B);
    hs_result_free(r);
}
END_TEST

START_TEST(argument_errors)
{
    hs_result *r = hs_result_new();
    hs_error err;
    hs_poly *A = t_example("basic/unit_cube.ine");
    hs_poly *L = t_poly("begin\n1 2 integer\n0 1\nend\n");
    ck_assert_int_eq(hs_intersect(A, L, NULL, r, &err), HS_ERR_INPUT);
    ck_assert(strstr(err.msg, "test.ine:2: dimension mismatch") != NULL);
    ck_assert_int_eq(hs_intersect(A, NULL, NULL, r, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_intersect(A, A, NULL, NULL, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_feasible(NULL, NULL, r, &err), HS_ERR_ARG);
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = (hs_engine)42;
    ck_assert_int_eq(hs_feasible(A, &opt, r, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_intersect(A, A, NULL, r, NULL), HS_OK); /* err may be NULL */
    ck_assert_int_eq(hs_result_status(r), HS_OVERLAP);
    hs_result *bad = hs_result_parse("overlap\npoint 1 2\n", "c", 3, &err);
    ck_assert(bad == NULL);
    ck_assert(strstr(err.msg, "c:2: point has 2 coordinates, expected 3") != NULL);
    hs_poly_free(A);
    hs_poly_free(L);
    hs_result_free(r);
}
END_TEST

START_TEST(engine_names)
{
    hs_engine e;
    ck_assert(hs_engine_from_name("glpk-exact", &e) && e == HS_ENGINE_GLPK_EXACT);
    ck_assert(!hs_engine_from_name("simplex", &e));
    ck_assert_str_eq(hs_engine_name(HS_ENGINE_FAITHFUL), "faithful");
    ck_assert_str_eq(hs_status_name(HS_TOUCHING), "touching");
}
END_TEST

Suite *suite_exact(void)
{
    Suite *s = suite_create("exact");
    TCase *tc = tcase_create("exact");
    tcase_add_test(tc, paper_examples_overlap);
    tcase_add_loop_test(tc, certificates_round_trip, 0, 8);
    tcase_add_test(tc, feasibility_answers);
    tcase_add_test(tc, trace_reports_the_classification);
    tcase_add_test(tc, argument_errors);
    tcase_add_test(tc, engine_names);
    suite_add_tcase(s, tc);
    return s;
}
