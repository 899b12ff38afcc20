/* test_classify.c -- the exact three-way classification and its
 * certificates, checked by the independent verifier, plus tampered
 * certificates that the verifier must reject. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/classify.h"
#include "solver/result.h"
#include "tests/helpers.h"

/* Classify A, B given as .ine text; verify the certificate; return status. */
static hs_status classify_text(const char *a, const char *b, hs_result *r)
{
    hs_poly *A = t_poly(a), *B = t_poly(b);
    hs_error err;
    hs_error_clear(&err);
    ck_assert_msg(classify_pair(A, B, r, &err) == HS_OK, "classify: %s", err.msg);
    ck_assert_msg(hs_result_verify(r, A, B, &err) == HS_OK, "verify: %s", err.msg);
    if (r->status == HS_DISJOINT) {
        ck_assert_int_le(r->nmult, hs_poly_dim(A) + 1); /* at most n+1 rows */
        ck_assert_int_eq(r->kind, CERT_FARKAS);
    }
    hs_poly_free(A);
    hs_poly_free(B);
    return r->status;
}

static char box_a[8192], box_b[8192];

static void two_boxes(int n, const char *lo1, const char *hi1, const char *lo2, const char *hi2)
{
    snprintf(box_a, sizeof box_a, "%s", t_box_text(n, lo1, hi1));
    snprintf(box_b, sizeof box_b, "%s", t_box_text(n, lo2, hi2));
}

START_TEST(boxes_in_every_dimension)
{
    hs_result *r = hs_result_new();
    int n = _i + 1;
    two_boxes(n, "0", "2", "1", "3");
    ck_assert_int_eq(classify_text(box_a, box_b, r), HS_OVERLAP);
    two_boxes(n, "0", "1", "1", "2"); /* share a facet (n = 1: a point) */
    ck_assert_int_eq(classify_text(box_a, box_b, r), HS_TOUCHING);
    ck_assert_int_eq(r->kind, CERT_SEPARATION);
    two_boxes(n, "0", "1", "3/2", "2");
    ck_assert_int_eq(classify_text(box_a, box_b, r), HS_DISJOINT);
    /* both polyhedra contribute to a Farkas certificate of a disjoint pair */
    int seen[2] = {0, 0};
    for (int k = 0; k < r->nmult; k++)
        seen[r->mult[k].which] = 1;
    ck_assert(seen[0] && seen[1]);
    hs_result_free(r);
}
END_TEST

START_TEST(tiny_gaps_are_exact)
{
    hs_result *r = hs_result_new();
    /* 2^-40 = 1/1099511627776 */
    two_boxes(3, "0", "1", "1099511627777/1099511627776", "2");
    ck_assert_int_eq(classify_text(box_a, box_b, r), HS_DISJOINT);
    two_boxes(3, "0", "1", "1099511627775/1099511627776", "2");
    ck_assert_int_eq(classify_text(box_a, box_b, r), HS_OVERLAP);
    hs_result_free(r);
}
END_TEST

/* 0.1 * 3 != 0.3 in doubles; as written, x <= 0.3 and 10 x >= 3 touch. */
START_TEST(decimals_mean_what_they_say)
{
    hs_result *r = hs_result_new();
    const char *a = "begin\n1 2 real\n0.3 -1\nend\n";      /* x <= 0.3 */
    const char *b = "begin\n1 2 real\n-3 10\nend\n";       /* 10 x >= 3 */
    ck_assert_int_eq(classify_text(a, b, r), HS_TOUCHING);
    char *s = hs_result_point_str(r, 0);
    ck_assert_str_eq(s, "3/10");
    hs_free(s);
    const char *c = "begin\n1 2 real\n-0.30000000000000004 1\nend\n"; /* x >= 0.30000000000000004 */
    ck_assert_int_eq(classify_text(a, c, r), HS_DISJOINT);
    hs_result_free(r);
}
END_TEST

START_TEST(corner_contact_is_touching)
{
    hs_result *r = hs_result_new();
    two_boxes(3, "0", "1", "1", "2"); /* boxes sharing only the vertex (1,1,1) */
    ck_assert_int_eq(classify_text(box_a, box_b, r), HS_TOUCHING);
    for (int j = 0; j < 3; j++) {
        char *s = hs_result_point_str(r, j);
        ck_assert_str_eq(s, "1");
        hs_free(s);
    }
    /* a square pyramid whose apex (0,0,0) touches the plane z >= 0 from below */
    const char *pyr = "begin\n5 4 integer\n0 -1 0 -1\n0 1 0 -1\n0 0 -1 -1\n0 0 1 -1\n"
                      "5 0 0 1\nend\n"; /* |x|,|y| <= -z, z >= -5 */
    const char *half = "begin\n1 4 integer\n0 0 0 1\nend\n"; /* z >= 0 */
    ck_assert_int_eq(classify_text(pyr, half, r), HS_TOUCHING);
    hs_result_free(r);
}
END_TEST

/* A flat square given by an equality row, and by two opposite rows. */
START_TEST(lower_dimensional_pieces)
{
    hs_result *r = hs_result_new();
    const char *box = t_box_text(3, "0", "1");
    char boxc[4096];
    snprintf(boxc, sizeof boxc, "%s", box);
    const char *sq_eq = "linearity 1 1\nbegin\n5 4 rational\n1 0 0 -1\n"
                        "4/5 -1 0 0\n-1/5 1 0 0\n4/5 0 -1 0\n-1/5 0 1 0\nend\n"; /* z = 1 */
    ck_assert_int_eq(classify_text(boxc, sq_eq, r), HS_TOUCHING);
    const char *sq_mid = "linearity 1 1\nbegin\n5 4 rational\n1/2 0 0 -1\n"
                         "4/5 -1 0 0\n-1/5 1 0 0\n4/5 0 -1 0\n-1/5 0 1 0\nend\n"; /* z = 1/2 */
    ck_assert_int_eq(classify_text(boxc, sq_mid, r), HS_OVERLAP);
    const char *sq_pair = "begin\n6 4 rational\n1/2 0 0 -1\n-1/2 0 0 1\n"
                          "4/5 -1 0 0\n-1/5 1 0 0\n4/5 0 -1 0\n-1/5 0 1 0\nend\n";
    ck_assert_int_eq(classify_text(boxc, sq_pair, r), HS_OVERLAP);
    ck_assert_int_eq(r->kind, CERT_IMPLICIT); /* proves rows 1, 2 of B are implicit */
    const char *sq_pair_top = "begin\n6 4 rational\n1 0 0 -1\n-1 0 0 1\n"
                              "4/5 -1 0 0\n-1/5 1 0 0\n4/5 0 -1 0\n-1/5 0 1 0\nend\n";
    ck_assert_int_eq(classify_text(boxc, sq_pair_top, r), HS_TOUCHING);
    /* a single point given by inequalities, inside and on the boundary */
    const char *pt_in = "begin\n6 4 rational\n1/2 -1 0 0\n-1/2 1 0 0\n1/2 0 -1 0\n"
                        "-1/2 0 1 0\n1/2 0 0 -1\n-1/2 0 0 1\nend\n";
    ck_assert_int_eq(classify_text(boxc, pt_in, r), HS_OVERLAP);
    const char *pt_on = "begin\n6 4 rational\n1 -1 0 0\n-1 1 0 0\n1/2 0 -1 0\n"
                        "-1/2 0 1 0\n1/2 0 0 -1\n-1/2 0 0 1\nend\n";
    ck_assert_int_eq(classify_text(boxc, pt_on, r), HS_TOUCHING);
    /* two flat squares in the same plane that overlap: relative interiors meet */
    ck_assert_int_eq(classify_text(sq_pair, sq_mid, r), HS_OVERLAP);
    hs_result_free(r);
}
END_TEST

START_TEST(empty_and_unbounded_inputs)
{
    hs_result *r = hs_result_new();
    const char *empty = "begin\n2 2 integer\n0 -1\n-1 1\nend\n"; /* x <= 0, x >= 1 */
    const char *line = "begin\n1 2 integer\n5 -1\nend\n";         /* x <= 5 */
    ck_assert_int_eq(classify_text(empty, line, r), HS_DISJOINT);
    for (int k = 0; k < r->nmult; k++)
        ck_assert_int_eq(r->mult[k].which, 0); /* only A's rows are needed */
    const char *le0 = "begin\n1 3 integer\n0 -1 0\nend\n";  /* x <= 0 in R^2 */
    const char *ge0 = "begin\n1 3 integer\n0 1 0\nend\n";   /* x >= 0 */
    const char *ge1 = "begin\n1 3 integer\n-1 1 0\nend\n";  /* x >= 1 */
    const char *le1 = "begin\n1 3 integer\n1 -1 0\nend\n";  /* x <= 1 */
    ck_assert_int_eq(classify_text(le0, ge0, r), HS_TOUCHING);
    ck_assert_int_eq(classify_text(le0, ge1, r), HS_DISJOINT);
    ck_assert_int_eq(classify_text(le1, ge0, r), HS_OVERLAP);
    const char *x0 = "linearity 1 1\nbegin\n1 2 integer\n0 1\nend\n"; /* x = 0 */
    const char *x1 = "linearity 1 1\nbegin\n1 2 integer\n1 -1\nend\n"; /* x = 1 */
    ck_assert_int_eq(classify_text(x0, x1, r), HS_DISJOINT); /* inconsistent equalities */
    ck_assert_int_eq(classify_text(x0, x0, r), HS_OVERLAP);  /* the same point */
    hs_result_free(r);
}
END_TEST

START_TEST(redundant_duplicate_scaled_rows)
{
    hs_result *r = hs_result_new();
    const char *a = "begin\n5 3 integer\n1 -1 0\n1 -1 0\n4 -4 0\n9 -1 0\n0 1 1\nend\n";
    const char *b = "begin\n2 3 integer\n-1 1 0\n-3 3 0\nend\n"; /* x >= 1 twice */
    ck_assert_int_eq(classify_text(a, b, r), HS_TOUCHING);
    hs_result_free(r);
}
END_TEST

START_TEST(feasibility_of_one_system)
{
    hs_result *r = hs_result_new();
    hs_error err;
    int feasible;
    hs_poly *p = t_poly("begin\n3 3 integer\n0 1 0\n0 0 1\n-3 -1 -1\nend\n"); /* x,y>=0, x+y<=-3 */
    ck_assert_int_eq(classify_infeasible(p, r, &feasible, &err), HS_OK);
    ck_assert(!feasible);
    ck_assert_int_eq(r->status, HS_INFEASIBLE);
    ck_assert_int_le(r->nmult, 3);
    ck_assert_int_eq(hs_result_verify(r, p, NULL, &err), HS_OK);
    hs_poly_free(p);
    p = t_poly("begin\n3 3 integer\n0 1 0\n0 0 1\n3 -1 -1\nend\n");
    ck_assert_int_eq(classify_infeasible(p, r, &feasible, &err), HS_OK);
    ck_assert(feasible);
    ck_assert_int_eq(hs_result_verify(r, p, NULL, &err), HS_OK);
    hs_poly_free(p);
    hs_result_free(r);
}
END_TEST

/* ----------------------------------------------------------- tampering */

static void expect_rejected(const hs_result *r, const hs_poly *A, const hs_poly *B,
                            const char *why)
{
    hs_error err;
    hs_error_clear(&err);
    ck_assert_int_eq(hs_result_verify(r, A, B, &err), HS_ERR_INPUT);
    ck_assert_msg(strstr(err.msg, why) != NULL, "expected '%s' in '%s'", why, err.msg);
}

START_TEST(verifier_rejects_tampered_certificates)
{
    hs_result *r = hs_result_new();
    hs_error err;
    two_boxes(2, "0", "1", "2", "3");
    hs_poly *A = t_poly(box_a), *B = t_poly(box_b);
    ck_assert_int_eq(classify_pair(A, B, r, &err), HS_OK);
    ck_assert_int_eq(r->status, HS_DISJOINT);
    mpq_add(r->mult[0].y, r->mult[0].y, r->mult[0].y); /* double one multiplier */
    expect_rejected(r, A, B, "combined coefficient");
    ck_assert_int_eq(classify_pair(A, B, r, &err), HS_OK);
    mpq_neg(r->mult[0].y, r->mult[0].y);
    expect_rejected(r, A, B, "negative");
    ck_assert_int_eq(classify_pair(A, B, r, &err), HS_OK);
    r->mult[0].row = 99;
    expect_rejected(r, A, B, "does not exist");
    ck_assert_int_eq(classify_pair(A, B, r, &err), HS_OK);
    r->status = HS_OVERLAP; /* a false claim: the Farkas rows are no implicit-equality proof */
    expect_rejected(r, A, B, "implicit-equality proof");
    r->nmult = 0;
    r->kind = CERT_NONE;
    expect_rejected(r, A, B, "no point");
    hs_poly_free(B);

    two_boxes(2, "0", "1", "1", "3"); /* touching along x = 1 */
    B = t_poly(box_b);
    ck_assert_int_eq(classify_pair(A, B, r, &err), HS_OK);
    ck_assert_int_eq(r->status, HS_TOUCHING);
    ck_assert_int_eq(hs_result_verify(r, A, B, &err), HS_OK);
    mpq_set_ui(r->strict[0], 1, 1); /* move the strict point onto x = 1 */
    expect_rejected(r, A, B, "on the separating hyperplane");
    ck_assert_int_eq(classify_pair(A, B, r, &err), HS_OK);
    r->status = HS_OVERLAP; /* the touching point is not interior */
    r->nmult = 0;
    r->kind = CERT_NONE;
    expect_rejected(r, A, B, "not in the relative interior");
    ck_assert_int_eq(classify_pair(A, B, r, &err), HS_OK);
    mpq_set_ui(r->point[0], 5, 1);
    expect_rejected(r, A, B, "violates");
    hs_poly_free(A);
    hs_poly_free(B);
    hs_result_free(r);
}
END_TEST

Suite *suite_classify(void)
{
    Suite *s = suite_create("classify");
    TCase *tc = tcase_create("classify");
    tcase_add_loop_test(tc, boxes_in_every_dimension, 0, 5);
    tcase_add_test(tc, tiny_gaps_are_exact);
    tcase_add_test(tc, decimals_mean_what_they_say);
    tcase_add_test(tc, corner_contact_is_touching);
    tcase_add_test(tc, lower_dimensional_pieces);
    tcase_add_test(tc, empty_and_unbounded_inputs);
    tcase_add_test(tc, redundant_duplicate_scaled_rows);
    tcase_add_test(tc, feasibility_of_one_system);
    tcase_add_test(tc, verifier_rejects_tampered_certificates);
    suite_add_tcase(s, tc);
    return s;
}
