/* test_result_json.c -- `verify` reads the JSON certificate that --json
 * prints (solver/result_json.c, issue 14): every answer of the fast and
 * exact engines written as JSON reads back and verifies, like the text
 * form; malformed JSON is an error naming FILE:LINE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/crosscheck.h"
#include "tests/helpers.h"

static char json[1 << 16];

static void to_json(const hs_result *r)
{
    FILE *f = fmemopen(json, sizeof json, "w");
    ck_assert(f != NULL);
    hs_error err;
    ck_assert(hs_result_write_json(r, f, &err) == HS_OK);
    ck_assert(fclose(f) == 0);
}

START_TEST(json_certificates_read_back)
{
    hs_options opt[2];
    hs_options_init(&opt[0]);
    hs_options_init(&opt[1]);
    opt[1].engine = HS_ENGINE_EXACT;
    hs_result *r = hs_result_new();
    hs_error err;
    for (long i = 0; i < 300; i++) {
        crosscheck_instance inst;
        ck_assert(crosscheck_generate(11, i, 0, 6, &inst, &err) == HS_OK);
        for (int e = 0; e < 2; e++) {
            ck_assert(hs_intersect(inst.A, inst.B, &opt[e], r, &err) == HS_OK);
            to_json(r);
            hs_result *back = hs_result_parse(json, "cert.json", inst.n, &err);
            ck_assert_msg(back != NULL, "instance %ld: %s\n%s", i, err.msg, json);
            ck_assert_int_eq(hs_result_status(back), hs_result_status(r));
            ck_assert_int_eq(hs_result_multiplier_count(back), hs_result_multiplier_count(r));
            ck_assert_msg(hs_result_verify(back, inst.A, inst.B, &err) == HS_OK, "%s", err.msg);
            hs_result_free(back);
        }
        ck_assert(hs_feasible(inst.A, &opt[0], r, &err) == HS_OK);
        to_json(r);
        hs_result *back = hs_result_parse(json, NULL, inst.n, &err);
        ck_assert_msg(back && hs_result_verify(back, inst.A, NULL, &err) == HS_OK, "%s", err.msg);
        hs_result_free(back);
        crosscheck_instance_free(&inst);
    }
    hs_result_free(r);
}
END_TEST

static const struct {
    const char *text, *msg;
} bad_json[] = {
    {"{", "c.json:1: expected a key"},
    {"{\"status\":\"disjoint\"", "c.json:1: expected ',' or '}'"},
    {"{\"status\":\"disjoint\"} x", "c.json:1: text after the JSON object"},
    {"{\"status\":\"bogus\"}", "c.json:1: \"status\" must be"},
    {"{\n\"status\":\"disjoint\",\n\"foo\":1}", "c.json:3: unknown key 'foo'"},
    {"{\"status\":\"disjoint\",\"status\":\"overlap\"}", "given twice"},
    {"{\"status\":\"disjoint\",\"dimension\":2}", "\"dimension\" must be 3"},
    {"{\"status\":\"overlap\",\n\"point\":[\"1\",\"2\"]}", "c.json:2: 'point' has 2 coordinates"},
    {"{\"status\":\"disjoint\",\"certificate\":{\"kind\":\"farkas\",\"multipliers\":"
     "[{\"polytope\":\"C\",\"row\":1,\"value\":\"1\"}]}}",
     "\"polytope\" must be \"A\" or \"B\""},
    {"{\"status\":\"disjoint\",\"certificate\":{\"kind\":\"farkas\",\"multipliers\":"
     "[{\"polytope\":\"A\",\"row\":0,\"value\":\"1\"}]}}",
     "\"row\" must be a positive integer"},
    {"{\"status\":\"disjoint\",\"certificate\":{\"kind\":\"farkas\",\"multipliers\":"
     "[{\"polytope\":\"A\",\"row\":1,\"value\":\"1/0\"}]}}",
     "bad number '1/0'"},
    {"{\"status\":\"disjoint\",\"certificate\":{\"kind\":\"guess\",\"multipliers\":[]}}",
     "\"kind\" must be"},
    {"{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":"
     "{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":1}}}}}}}}}}}}}}}}}}",
     "nested too deeply"},
    {"{\"status\":\"dis\\u00ffjoint\"}", "outside ASCII"},
    {"{\"status\":\"disjoint\nx\"}", "unterminated string"},
};

START_TEST(malformed_json_is_bad_input)
{
    int k = _i;
    hs_error err;
    hs_result *r = hs_result_parse(bad_json[k].text, "c.json", 3, &err);
    ck_assert(r == NULL);
    ck_assert_int_eq(err.code, HS_ERR_INPUT);
    ck_assert_msg(strstr(err.msg, bad_json[k].msg) != NULL, "'%s': %s", bad_json[k].text,
                  err.msg);
}
END_TEST

/* Pretty-printed JSON, numbers as JSON numbers, keys in another order. */
START_TEST(json_in_other_layouts)
{
    hs_poly *A = t_example("basic/unit_cube.ine"), *B = t_example("basic/cube_overlap.ine");
    const char *text = "  {\n  \"point\" : [ 0.75, \"3/4\", 7.5e-1 ],\n  \"certificate\" : null,\n"
                       "  \"status\" : \"overlap\"\n}\n";
    hs_error err;
    hs_result *r = hs_result_parse(text, "c.json", 3, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert(hs_result_verify(r, A, B, &err) == HS_OK);
    hs_result_free(r);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

Suite *suite_result_json(void)
{
    Suite *s = suite_create("result_json");
    TCase *tc = tcase_create("result_json");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, json_certificates_read_back);
    tcase_add_loop_test(tc, malformed_json_is_bad_input, 0,
                        (int)(sizeof bad_json / sizeof bad_json[0]));
    tcase_add_test(tc, json_in_other_layouts);
    suite_add_tcase(s, tc);
    return s;
}
