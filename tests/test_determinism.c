/* test_determinism.c -- answers do not depend on threads or on history
 * (issue 14): a world query with 1, 2 or 4 threads gives the same report
 * bit for bit, witness points included (the fast engine and the
 * triangle-convex test seed their random row orders from each query,
 * not from what their per-thread scratch answered before), and a query
 * answered after others gives the same result as on its own. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/helpers.h"

/* A world of n random pieces (boxes, cylinders, icospheres, hulls and
 * open meshes) in a 6-unit cube, many overlapping. */
static hs_world *random_world(uint64_t seed, int n)
{
    hs_world *w = hs_world_new();
    hs_error err;
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "b%03d", i);
        hs_body *b = hs_world_add_body(w, name, 0, &err);
        ck_assert_msg(b != NULL, "%s", err.msg);
        int kind = (int)(t_rng_next(&seed) % 5);
        hs_code rc;
        if (kind == 0) {
            double s[3] = {0.3 + 1.7 * t_rng_unit(&seed), 0.3 + 1.7 * t_rng_unit(&seed),
                           0.3 + 1.7 * t_rng_unit(&seed)};
            rc = hs_body_add_box(b, s, NULL, &err);
        } else if (kind == 1) {
            rc = hs_body_add_cylinder(b, 0.2 + t_rng_unit(&seed), 0.3 + 2 * t_rng_unit(&seed),
                                      12, NULL, &err);
        } else if (kind == 2) {
            rc = hs_body_add_sphere(b, 0.3 + 0.7 * t_rng_unit(&seed), 1, NULL, &err);
        } else {
            double p[18];
            for (int k = 0; k < 18; k++)
                p[k] = t_rng_sym(&seed);
            int tris[12] = {0, 1, 2, 2, 3, 4, 3, 4, 5, 0, 2, 5};
            rc = kind == 3 ? hs_body_add_hull(b, p, 6, NULL, &err)
                           : hs_body_add_mesh(b, p, 6, tris, 4, NULL, &err);
        }
        ck_assert_msg(rc == HS_OK, "%s", err.msg);
        double axis[3] = {t_rng_sym(&seed), t_rng_sym(&seed), t_rng_sym(&seed) + 0.01};
        double t[3] = {6 * t_rng_unit(&seed), 6 * t_rng_unit(&seed), 6 * t_rng_unit(&seed)};
        double m[16];
        ck_assert(hs_pose_from_axis_angle(m, axis, 3 * t_rng_unit(&seed), t, &err) == HS_OK);
        ck_assert_msg(hs_body_set_pose(b, m, &err) == HS_OK, "%s", err.msg);
    }
    return w;
}

/* Everything a report holds, as text with every double in hex (exact). */
static void report_text(const hs_report *r, char *buf, size_t cap)
{
    size_t len = 0;
#define PUT(...) len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, __VA_ARGS__)
    for (int k = 0; k < hs_report_pair_count(r); k++) {
        const char *a, *b;
        hs_status st;
        hs_report_pair(r, k, &a, &b, &st);
        PUT("%s %s %d\n", a, b, (int)st);
        for (int j = 0; j < hs_report_piece_count(r, k); j++) {
            int pa, pb;
            double wit[3], d;
            hs_report_piece(r, k, j, &pa, &pb, &st, wit, &d);
            PUT(" piece %d %d %d %a %a %a %a\n", pa, pb, (int)st, wit[0], wit[1], wit[2], d);
        }
        for (int c = 0; c < hs_report_contact_count(r, k); c++) {
            double x[3], y[3], n[3];
            hs_report_contact(r, k, c, x, y, n);
            PUT(" contact %a %a %a %a %a %a %a %a %a\n", x[0], x[1], x[2], y[0], y[1], y[2],
                n[0], n[1], n[2]);
        }
    }
#undef PUT
    ck_assert(len < cap);
}

static char want[1 << 20], got[1 << 20];

START_TEST(world_query_same_with_any_threads)
{
    for (int s = 1; s <= 3; s++) {
        hs_world *w = random_world(1000 + (uint64_t)s, 90);
        hs_query_options opt;
        hs_query_options_init(&opt);
        opt.threshold = 0.3;
        hs_error err;
        for (int tri = 0; tri < 2; tri++) {
            opt.triangles = tri ? HS_TRI_GRID : HS_TRI_BVH;
            opt.threads = 1;
            hs_report *r = hs_report_new();
            ck_assert_msg(hs_world_query(w, &opt, r, &err) == HS_OK, "%s", err.msg);
            ck_assert(hs_report_pair_count(r) > 20);
            report_text(r, want, sizeof want);
            hs_report_free(r);
            int threads[5] = {2, 4, 4, 3, 4};
            for (int k = 0; k < 5; k++) {
                opt.threads = threads[k];
                r = hs_report_new(); /* a fresh report: no hints from the last query */
                ck_assert_msg(hs_world_query(w, &opt, r, &err) == HS_OK, "%s", err.msg);
                report_text(r, got, sizeof got);
                hs_report_free(r);
                ck_assert_msg(strcmp(want, got) == 0,
                              "world %d, %d threads: the report differs from one thread's", s,
                              threads[k]);
            }
        }
        hs_world_free(w);
    }
}
END_TEST

/* The fast engine's answer to a pair does not depend on the pairs the
 * same result answered before. */
START_TEST(fast_answer_independent_of_history)
{
    const char *a = "H-representation\nbegin\n4 3 real\n1 -1 0\n1 1 0\n1 0 -1\n1 0 1\nend\n";
    const char *b = "H-representation\nbegin\n5 3 real\n1.5 -1 -1\n0.5 1 0\n1 0 -1\n"
                    "1 0 1\n0.25 1 1\nend\n";
    hs_poly *A = t_poly(a), *B = t_poly(b);
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_FAST;
    hs_error err;
    hs_result *fresh = hs_result_new(), *used = hs_result_new();
    ck_assert(hs_intersect(A, B, &opt, fresh, &err) == HS_OK);
    char t1[4096], t2[4096];
    FILE *f = fmemopen(t1, sizeof t1, "w");
    ck_assert(hs_result_write_text(fresh, f, &err) == HS_OK);
    fclose(f);
    uint64_t seed = 5;
    for (int k = 0; k < 50; k++) { /* other queries first */
        char box[64];
        snprintf(box, sizeof box, "%g", 0.5 + t_rng_unit(&seed));
        hs_poly *C = t_poly(t_box_text(2, "-1", box));
        ck_assert(hs_intersect(A, C, &opt, used, &err) == HS_OK);
        hs_poly_free(C);
    }
    ck_assert(hs_intersect(A, B, &opt, used, &err) == HS_OK);
    f = fmemopen(t2, sizeof t2, "w");
    ck_assert(hs_result_write_text(used, f, &err) == HS_OK);
    fclose(f);
    ck_assert_str_eq(t1, t2);
    hs_result_free(fresh);
    hs_result_free(used);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

Suite *suite_determinism(void)
{
    Suite *s = suite_create("determinism");
    TCase *tc = tcase_create("determinism");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, world_query_same_with_any_threads);
    tcase_add_test(tc, fast_answer_independent_of_history);
    suite_add_tcase(s, tc);
    return s;
}
