/* test_ine.c -- the .ine reader and writer: formats, numbers, errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

START_TEST(reads_paper_example)
{
    hs_poly *p = t_example("paper/example1_B.ine");
    ck_assert_int_eq(hs_poly_dim(p), 3);
    ck_assert_int_eq(hs_poly_rows(p), 6);
    double a[3], b;
    /* "-0.5 -1 0 0" is b = -0.5, -a = (-1,0,0): the row x <= -0.5 */
    ck_assert(hs_poly_row(p, 0, a, &b));
    ck_assert(a[0] == 1 && a[1] == 0 && a[2] == 0 && b == -0.5);
    hs_poly_free(p);
}
END_TEST

START_TEST(decimal_not_double_is_kept_exact)
{
    hs_poly *p = t_poly("begin\n1 2 real\n0.3 1\nend\n"); /* 0.3 + x >= 0 */
    double a, b;
    ck_assert(!hs_poly_row(p, 0, &a, &b)); /* 0.3 is not a double */
    ck_assert(a == -1.0 && b == 0.3);
    hs_poly_free(p);
}
END_TEST

START_TEST(number_forms)
{
    hs_poly *p = t_poly("* c\n# c\nname\nH-representation\nbegin\n"
                        "2 3 rational\n1/4 -2.5e1 +3\n-7 0.125 -1E-2\nend\n");
    double a[2], b;
    ck_assert(hs_poly_row(p, 0, a, &b));
    ck_assert(b == 0.25 && a[0] == 25.0 && a[1] == -3.0);
    ck_assert(!hs_poly_row(p, 1, a, &b)); /* 1E-2 is not a double */
    ck_assert(b == -7 && a[0] == -0.125 && a[1] == 0.01);
    hs_poly_free(p);
}
END_TEST

START_TEST(linearity_before_and_after)
{
    hs_poly *p = t_poly("H-representation\nlinearity 1 2\nbegin\n2 2 integer\n1 -1\n0 1\nend\n");
    ck_assert(!hs_poly_row_is_eq(p, 0));
    ck_assert(hs_poly_row_is_eq(p, 1));
    hs_poly_free(p);
    p = t_poly("begin\n2 2 integer\n1 -1\n0 1\nend\nlinearity 1 1\nincidence\n");
    ck_assert(hs_poly_row_is_eq(p, 0));
    ck_assert(!hs_poly_row_is_eq(p, 1));
    hs_poly_free(p);
}
END_TEST

START_TEST(write_then_read_is_identical)
{
    hs_poly *p = t_poly("linearity 1 2\nbegin\n3 3 real\n0.1 1 -2/3\n-4 0 1\n1e-3 2 2\nend\n");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hs_error err;
    ck_assert_int_eq(hs_poly_write(p, f, &err), HS_OK);
    fclose(f);
    ck_assert(strstr(buf, "1/10 1 -2/3") != NULL);
    ck_assert(strstr(buf, "linearity 1 2") != NULL);
    hs_poly *q = t_poly(buf);
    ck_assert_int_eq(hs_poly_rows(q), 3);
    char *buf2 = NULL;
    size_t len2 = 0;
    f = open_memstream(&buf2, &len2);
    ck_assert_int_eq(hs_poly_write(q, f, &err), HS_OK);
    fclose(f);
    ck_assert_str_eq(buf, buf2);
    free(buf);
    free(buf2);
    hs_poly_free(p);
    hs_poly_free(q);
}
END_TEST

/* Every error path of the reader names FILE:LINE and says what is wrong. */
static const struct {
    const char *text;
    const char *expect;
} bad_files[] = {
    {"begin\n2 3 real\n1 2 3\n", "test.ine:3: unexpected end of file after 1 of 2 rows"},
    {"begin\n2 3 real\n1 2 3\nend\n", "test.ine:4: expected 2 rows, found 1"},
    {"begin\n1 3 real\n1 2 3\n4 5 6\nend\n", "test.ine:4: more rows than the 1 declared"},
    {"begin\n1 3 real\n1 2\nend\n", "test.ine:3: row 1 has 2 entries, expected 3"},
    {"begin\n1 3 real\n1 2 x\nend\n", "test.ine:3: bad number 'x': not a number"},
    {"begin\n1 3 real\n1 nan 3\nend\n", "test.ine:3: bad number 'nan': NaN and infinity"},
    {"begin\n1 3 real\n1 -inf 3\nend\n", "test.ine:3: bad number '-inf': NaN and infinity"},
    {"begin\n1 3 real\n1 1e400 3\nend\n", "test.ine:3: bad number '1e400': number is beyond"},
    {"begin\n1 3 real\n1 1e-400 3\nend\n", "test.ine:3: bad number '1e-400': number is too small"},
    {"begin\n1 3 real\n1 1/0 3\nend\n", "test.ine:3: bad number '1/0': zero denominator"},
    {"begin\n1 3 real\n1 1/-2 3\nend\n", "test.ine:3: bad number '1/-2': a fraction must be"},
    {"begin\n1 3 integer\n1 0.5 3\nend\n", "test.ine:3: '0.5' is not an integer"},
    {"begin\n0 3 real\nend\n", "test.ine:2: the system has no rows (m = 0)"},
    {"begin\n1 1 real\n1\nend\n", "test.ine:2: n+1 = 1 columns"},
    {"begin\n1 3 float\n1 2 3\nend\n", "test.ine:2: number type 'float'"},
    {"begin\nx 3 real\n", "test.ine:2: row count 'x'"},
    {"H-representation\n", "test.ine:1: missing 'begin'"},
    {"", "test.ine: missing 'begin'"},
    {"begin\n", "test.ine:1: unexpected end of file: missing 'm n+1 type' line"},
    {"V-representation\nbegin\n1 3 real\n1 0 0\nend\n", "test.ine:1: this is a V-representation"},
    {"name\nother\nbegin\n", "test.ine:2: unexpected text 'other' before 'begin'"},
    {"linearity 1 3\nbegin\n1 2 real\n1 1\nend\n", "test.ine:1: linearity index 3 exceeds the 1 rows"},
    {"linearity 2 1\nbegin\n1 2 real\n1 1\nend\n", "test.ine:1: linearity declares 2 indices but lists 1"},
    {"linearity 1 x\nbegin\n1 2 real\n1 1\nend\n", "test.ine:1: linearity index 'x'"},
    {"begin\n1 2 real\n1 1\nend\nnonnegative\n", "test.ine:5: option nonnegative is not supported"},
    {"begin\n1 2 real\n1 1\nend\nfrobnicate\n", "test.ine:5: option frobnicate is not supported"},
    {"begin\n1 2 real\n1 1\nend\nbegin\n", "test.ine:5: a second 'begin' block"},
    {"begin\n1 2 real\n1 \x02\nend\n", "test.ine:3: unexpected control byte"},
};

START_TEST(error_paths)
{
    const char *msg = t_poly_error(bad_files[_i].text);
    ck_assert_msg(strncmp(msg, bad_files[_i].expect, strlen(bad_files[_i].expect)) == 0,
                  "case %d: got '%s', expected prefix '%s'", _i, msg, bad_files[_i].expect);
}
END_TEST

START_TEST(missing_file_is_io_error)
{
    hs_error err;
    hs_poly *p = hs_poly_read("/nonexistent/x.ine", &err);
    ck_assert(p == NULL);
    ck_assert_int_eq(err.code, HS_ERR_IO);
    ck_assert(strstr(err.msg, "/nonexistent/x.ine: cannot open") != NULL);
}
END_TEST

START_TEST(array_constructors_validate)
{
    hs_error err;
    double A[2] = {1, 0.0 / 0.0}, b[1] = {1};
    ck_assert(hs_poly_from_doubles(2, 1, A, b, NULL, &err) == NULL);
    ck_assert(strstr(err.msg, "NaN") != NULL);
    ck_assert(hs_poly_from_doubles(2, 0, A, b, NULL, &err) == NULL);
    ck_assert(strstr(err.msg, "m = 0") != NULL);
    ck_assert(hs_poly_from_doubles(0, 1, A, b, NULL, &err) == NULL);
    const char *As[2] = {"1/3", "2"}, *bs[1] = {"0.1"};
    hs_poly *p = hs_poly_from_strings(2, 1, As, bs, NULL, &err);
    ck_assert(p != NULL);
    double a[2], bb;
    ck_assert(!hs_poly_row(p, 0, a, &bb));
    hs_poly_free(p);
    const char *Bad[2] = {"1/3", "two"};
    ck_assert(hs_poly_from_strings(2, 1, Bad, bs, NULL, &err) == NULL);
    ck_assert(strstr(err.msg, "'two'") != NULL);
}
END_TEST

Suite *suite_ine(void)
{
    Suite *s = suite_create("ine");
    TCase *tc = tcase_create("ine");
    tcase_add_test(tc, reads_paper_example);
    tcase_add_test(tc, decimal_not_double_is_kept_exact);
    tcase_add_test(tc, number_forms);
    tcase_add_test(tc, linearity_before_and_after);
    tcase_add_test(tc, write_then_read_is_identical);
    tcase_add_loop_test(tc, error_paths, 0, (int)(sizeof bad_files / sizeof bad_files[0]));
    tcase_add_test(tc, missing_file_is_io_error);
    tcase_add_test(tc, array_constructors_validate);
    suite_add_tcase(s, tc);
    return s;
}
