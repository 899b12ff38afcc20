/* test_extremes.c -- numbers at the edges of the double range (issue 14):
 * chains whose poses would overflow are refused cleanly (no signal from
 * an exact test given infinity), distances whose squares overflow are
 * measured, pieces that overflow once placed are an error, and the exact
 * tests of collinear corners hold at every magnitude (a triangle at
 * z = 2^54, a tetrahedron at 1e17). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "polytope/predicates.h"
#include "tests/helpers.h"

/* ------------------------------------------------ helpers */

static hs_chain *spheres_chain(int n)
{
    hs_error err;
    hs_chain *c = hs_chain_new(n, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    double p[3] = {0, 0, 0};
    for (int i = 0; i < n; i++)
        ck_assert_msg(hs_chain_add_sphere(c, i, p, 1, &err) == HS_OK, "%s", err.msg);
    return c;
}

static void translation(double m[16], double x)
{
    hs_pose_identity(m);
    m[3] = x;
}

/* ------------------------------------------------ chains */

/* hs_chain_set_joint with a translation of 1.7e308 (two of them overflow
 * to infinity): refused, nothing changed, and the queries still answer. */
START_TEST(chain_joint_beyond_range_is_refused)
{
    hs_chain *c = spheres_chain(4);
    hs_error err;
    double m[16], J[16], I[16];
    hs_pose_identity(I);
    translation(m, 1.7e308);
    ck_assert_int_eq(hs_chain_set_joint(c, 1, m, &err), HS_ERR_ARG);
    ck_assert(strstr(err.msg, "range") != NULL);
    hs_chain_get_joint(c, 1, J);
    ck_assert(memcmp(J, I, sizeof J) == 0);
    ck_assert_int_eq(hs_chain_change_joint(c, 2, m, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_chain_try_change(c, 3, m, NULL, NULL, NULL, &err), -1);
    hs_chain_get_joint(c, 3, J);
    ck_assert(memcmp(J, I, sizeof J) == 0);
    /* two joints of 1e300 each: within range */
    translation(m, 1e300);
    ck_assert_msg(hs_chain_set_joint(c, 1, m, &err) == HS_OK, "%s", err.msg);
    ck_assert_msg(hs_chain_set_joint(c, 2, m, &err) == HS_OK, "%s", err.msg);
    /* a third of 1e301 takes link 3 beyond 2^1000 (about 1.07e301) */
    translation(m, 1e301);
    ck_assert_int_eq(hs_chain_set_joint(c, 3, m, &err), HS_ERR_ARG);
    /* the lazy path of hs_chain_try_change (after a free answer) too */
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 0);
    ck_assert_int_eq(hs_chain_try_change(c, 3, m, NULL, NULL, NULL, &err), -1);
    hs_chain_get_joint(c, 3, J);
    ck_assert(memcmp(J, I, sizeof J) == 0);
    /* several at once: all set back */
    int idx[2] = {1, 2};
    double ms[32];
    translation(ms, 1e308);
    translation(ms + 16, 1e308);
    ck_assert_int_eq(hs_chain_set_joints(c, idx, ms, 2, &err), HS_ERR_ARG);
    hs_chain_get_joint(c, 1, J);
    ck_assert(J[3] == 1e300);
    /* the base: its translation too */
    translation(m, 1.7e308);
    ck_assert_int_eq(hs_chain_set_base(c, m, &err), HS_ERR_ARG);
    /* the queries answer (the spheres are 1e300 apart) */
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 0);
    int *pairs = NULL, np = -1;
    ck_assert_int_eq(hs_chain_self_collision_all(c, &pairs, &np, NULL, &err), HS_OK);
    ck_assert_int_eq(np, 0);
    hs_chain_free(c);
}
END_TEST

/* Typed joints: --angles 1e308 on unbounded prismatic joints, and rest
 * values of 1.7e308. */
START_TEST(chain_angles_beyond_range_are_refused)
{
    hs_chain *c = spheres_chain(4);
    hs_error err;
    double axis[3] = {1, 0, 0};
    for (int i = 1; i < 4; i++)
        ck_assert_msg(hs_chain_define_joint(c, i, HS_JOINT_PRISMATIC, NULL, axis, -HUGE_VAL,
                                            HUGE_VAL, 0, &err) == HS_OK,
                      "%s", err.msg);
    double q[3] = {1e308, 1e308, 0};
    ck_assert_int_eq(hs_chain_set_angles(c, q, 3, &err), HS_ERR_ARG);
    double now;
    ck_assert_int_eq(hs_chain_joint_limits(c, 0, NULL, NULL, &now, &err), HS_OK);
    ck_assert(now == 0);
    q[1] = 0;
    q[0] = 1e308; /* one alone: the link itself is beyond the range */
    ck_assert_int_eq(hs_chain_set_angles(c, q, 3, &err), HS_ERR_ARG);
    q[0] = q[1] = q[2] = 5;
    ck_assert_msg(hs_chain_set_angles(c, q, 3, &err) == HS_OK, "%s", err.msg);
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 0);
    /* a rest value beyond the range: the joint stays as it was */
    hs_chain *d = spheres_chain(3);
    ck_assert_int_eq(hs_chain_define_joint(d, 1, HS_JOINT_PRISMATIC, NULL, axis, -HUGE_VAL,
                                           HUGE_VAL, 1.7e308, &err),
                     HS_ERR_ARG);
    ck_assert_int_eq(hs_chain_dof(d), 0);
    ck_assert_int_eq(hs_chain_joint_type(d, 1), HS_JOINT_FIXED);
    /* a piece beyond the range is taken away again */
    double far[3] = {1.7e308, 0, 0};
    ck_assert_int_eq(hs_chain_add_sphere(d, 2, far, 1, &err), HS_ERR_ARG);
    int *pairs = NULL, np = -1; /* links 0 and 2 (both at the origin) as before */
    ck_assert_int_eq(hs_chain_self_collision_all(d, &pairs, &np, NULL, &err), HS_OK);
    ck_assert(np == 1 && pairs[0] == 0 && pairs[1] == 2);
    hs_free(pairs);
    hs_chain_free(c);
    hs_chain_free(d);
}
END_TEST

/* A chain file with two rests of 1.7e308: FILE:LINE, no signal. */
START_TEST(chain_file_rests_beyond_range)
{
    const char *text = "link a\nsphere 0 0 0 1\n"
                       "joint j1 prismatic\naxis 1 0 0\nrest 1.7e308\nlink b\nsphere 0 0 0 1\n"
                       "joint j2 prismatic\naxis 1 0 0\nrest 1.7e308\nlink c\nsphere 0 0 0 1\n";
    const char *path = t_temp_file_suffix("hs_extremes_", ".chain", text);
    hs_error err;
    hs_chain *c = hs_chain_load(path, &err);
    remove(path);
    ck_assert(c == NULL);
    ck_assert_msg(strstr(err.msg, ":3: joint 'j1'") != NULL && strstr(err.msg, "range"),
                  "%s", err.msg);
}
END_TEST

/* The chain against a world: distances whose squares overflow are
 * measured; a distance beyond the double range is an error, never a NULL
 * body with HS_OK. */
START_TEST(chain_world_distance_at_extremes)
{
    hs_error err;
    hs_chain *c = hs_chain_new(1, &err);
    double o[3] = {0, 0, 0};
    ck_assert(hs_chain_add_sphere(c, 0, o, 1, &err) == HS_OK);
    hs_world *w = hs_world_new();
    hs_body *b = hs_world_add_body(w, "far", 0, &err);
    double size[3] = {2, 2, 2}, m[16];
    ck_assert(hs_body_add_box(b, size, NULL, &err) == HS_OK);
    translation(m, 1e200);
    ck_assert(hs_body_set_pose(b, m, &err) == HS_OK);
    double d = -1, pa[3], pb[3];
    const hs_body *body = NULL;
    int link = -1;
    ck_assert_msg(hs_chain_world_distance(c, w, &d, &link, &body, pa, pb, &err) == HS_OK, "%s",
                  err.msg);
    ck_assert(body == b && link == 0);
    ck_assert_msg(fabs(d - 1e200) <= 1e-9 * 1e200, "distance %g", d);
    hs_world_free(w);

    /* a mesh at x = -DBL_MAX and the chain at 1e301: beyond the range */
    w = hs_world_new();
    b = hs_world_add_body(w, "edge", 0, &err);
    double v[9] = {-DBL_MAX, 0, 0, -DBL_MAX, 1, 0, -DBL_MAX, 0, 1};
    int tri[3] = {0, 1, 2};
    ck_assert_msg(hs_body_add_mesh(b, v, 3, tri, 1, NULL, &err) == HS_OK, "%s", err.msg);
    translation(m, 1e301);
    ck_assert(hs_chain_set_base(c, m, &err) == HS_OK);
    ck_assert_int_eq(hs_chain_world_collision(c, w, NULL, NULL, &err), 0);
    body = b;
    ck_assert_int_eq(hs_chain_world_distance(c, w, &d, &link, &body, pa, pb, &err), HS_ERR_INPUT);
    ck_assert(strstr(err.msg, "overflows") != NULL);
    hs_world_free(w);
    hs_chain_free(c);
}
END_TEST

/* The CLI: --angles 1e308 on an unbounded prismatic joint and a chain
 * file with two rests of 1.7e308 are bad input (exit 2), no signal. */
START_TEST(chain_cli_overflow)
{
    const char *text = "link a\nsphere 0 0 0 1\n"
                       "joint j1 prismatic\naxis 1 0 0\nlink b\nsphere 0 0 0 1\n"
                       "joint j2 prismatic\naxis 1 0 0\nlink c\nsphere 0 0 0 1\n"
                       "joint j3 prismatic\naxis 1 0 0\nlink d\nsphere 0 0 0 1\n";
    char path[256];
    snprintf(path, sizeof path, "%s", t_temp_file_suffix("hs_extremes_", ".chain", text));
    char args[512];
    const char *out, *errtext;
    snprintf(args, sizeof args, "chain %s '--angles=1e308 1e308 0'", path);
    ck_assert_int_eq(t_cli(args, &out, &errtext), 2);
    ck_assert_msg(strstr(errtext, "--angles") && strstr(errtext, "range"), "%s", errtext);
    snprintf(args, sizeof args, "chain %s '--angles=1e300 1e300 -1e300'", path);
    ck_assert_int_eq(t_cli(args, &out, &errtext), 0);
    remove(path);
}
END_TEST

/* ------------------------------------------------ worlds */

static hs_body *box_at(hs_world *w, const char *name, double size, double x)
{
    hs_error err;
    hs_body *b = hs_world_add_body(w, name, 0, &err);
    double s[3] = {size, size, size}, m[16];
    ck_assert_msg(hs_body_add_box(b, s, NULL, &err) == HS_OK, "%s", err.msg);
    translation(m, x);
    ck_assert_msg(hs_body_set_pose(b, m, &err) == HS_OK, "%s", err.msg);
    return b;
}

/* Boxes of size 1e193 half a size apart: the fast engine's LP met
 * infinities there and called a point of NaNs strictly inside both
 * (distance 0); and distances of 1e193 squared overflow. */
START_TEST(world_distance_at_extremes)
{
    double scales[4] = {1e150, 1e193, 1e250, 1e300};
    for (int k = 0; k < 4; k++) {
        double s = scales[k];
        hs_world *w = hs_world_new();
        hs_body *a = box_at(w, "a", s, 0), *b = box_at(w, "b", s, 1.5 * s);
        hs_error err;
        double d, pa[3], pb[3];
        ck_assert_msg(hs_world_distance(w, a, b, &d, pa, pb, &err) == HS_OK, "%s", err.msg);
        ck_assert_msg(fabs(d - 0.5 * s) <= 1e-9 * s, "scale %g: distance %g", s, d);
        hs_report *rep = hs_report_new();
        hs_query_options opt;
        hs_query_options_init(&opt);
        for (int e = 0; e < 2; e++) {
            opt.engine = e ? HS_ENGINE_EXACT : HS_ENGINE_FAST;
            opt.threshold = s;
            ck_assert_msg(hs_world_query(w, &opt, rep, &err) == HS_OK, "%s", err.msg);
            ck_assert_int_eq(hs_report_pair_count(rep), 1);
            hs_status st;
            double dist;
            hs_report_piece(rep, 0, 0, NULL, NULL, &st, NULL, &dist);
            ck_assert_int_eq(st, HS_CONTACT);
        }
        hs_report_free(rep);
        hs_world_free(w);
    }
}
END_TEST

/* Triangles at x = -DBL_MAX and x = +DBL_MAX (identity poses): disjoint,
 * exactly, but twice DBL_MAX apart: HS_ERR_INPUT, never an infinite or
 * missing answer with HS_OK. */
START_TEST(world_distance_beyond_range)
{
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *a = hs_world_add_body(w, "a", 0, &err), *b = hs_world_add_body(w, "b", 0, &err);
    /* a triangle in the plane x = -DBL_MAX (a) and one in x = +DBL_MAX (b) */
    for (int k = 0; k < 2; k++) {
        double x = k ? DBL_MAX : -DBL_MAX;
        double v[9] = {x, 0, 0, x, 1, 0, x, 0, 1};
        int t[3] = {0, 1, 2};
        ck_assert_msg(hs_body_add_mesh(k ? b : a, v, 3, t, 1, NULL, &err) == HS_OK, "%s",
                      err.msg);
    }
    double d = -1, pa[3], pb[3];
    ck_assert_int_eq(hs_world_distance(w, a, b, &d, pa, pb, &err), HS_ERR_INPUT);
    ck_assert_msg(strstr(err.msg, "overflows") != NULL, "%s", err.msg);
    ck_assert(d == -1);
    hs_world_free(w);
}
END_TEST

/* A slab 10^k long and 2 wide, k = 15..300, far from the origin: a valid
 * convex piece (the interior point search lost the short axes below the
 * LP's tolerances from 10^15 on: "no strictly interior point found"). */
START_TEST(long_thin_piece_far_out)
{
    double far[6] = {1e15, 1e17, 1e20, 1e100, 1e200, 1e300};
    for (int k = 0; k < 6; k++) {
        double A[18] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
        double b[6] = {far[k], -0.9 * far[k], 1, 1, 1, 1};
        hs_error err;
        hs_poly *P = hs_poly_from_doubles(3, 6, A, b, NULL, &err);
        const char *why = NULL;
        ck_assert_msg(hs_poly_fast_ready(P, &why), "%g: %s", far[k], why);
        hs_world *w = hs_world_new();
        hs_body *body = hs_world_add_body(w, "slab", 0, &err);
        ck_assert_msg(hs_body_add_polytope(body, P, NULL, &err) == HS_OK, "%g: %s", far[k],
                      err.msg);
        hs_world_free(w);
        hs_poly_free(P);
    }
}
END_TEST

/* Boxes of size 1.7e308 whose rows overflow once placed: an error from
 * either engine (the exact one converted infinity: SIGFPE). */
START_TEST(world_pieces_overflowing_once_placed)
{
    hs_world *w = hs_world_new();
    hs_body *a = box_at(w, "a", 1.7e308, 0), *b = box_at(w, "b", 1.7e308, 1.7e308);
    hs_report *rep = hs_report_new();
    hs_query_options opt;
    hs_query_options_init(&opt);
    hs_error err;
    for (int e = 0; e < 2; e++) {
        opt.engine = e ? HS_ENGINE_EXACT : HS_ENGINE_FAST;
        ck_assert_int_eq(hs_world_query(w, &opt, rep, &err), HS_ERR_ARG);
        ck_assert_msg(strstr(err.msg, "range of doubles") != NULL, "%s", err.msg);
    }
    double d, pa[3], pb[3];
    ck_assert_int_eq(hs_world_distance(w, a, b, &d, pa, pb, &err), HS_ERR_ARG);
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

/* ------------------------------------------------ collinear corners */

START_TEST(collinear_at_every_magnitude)
{
    double big = 0x1p54;
    double a[3] = {0, 0, big}, b[3] = {1, 0, big}, c[3] = {0, 1, big};
    ck_assert_int_eq(pred_collinear3(a, b, c), 0); /* a right triangle at z = 2^54 */
    double d[3] = {2, 0, big};
    ck_assert_int_eq(pred_collinear3(a, b, d), 1);
    ck_assert_int_eq(pred_collinear3(a, a, c), 1);
    double e[3] = {1e300, 1e300, 1e300}, f[3] = {2e300, 2e300, 2e300}, g[3] = {-3e300, -3e300, -3e300};
    ck_assert_int_eq(pred_collinear3(e, f, g), 1);
    double h[3] = {1e300, 1e300, nextafter(1e300, 2e300)};
    ck_assert_int_eq(pred_collinear3(e, f, h), 0);
    double t0[3] = {1e-300, 0, 0}, t1[3] = {0, 1e-300, 0}, t2[3] = {0, 0, 1e-300};
    ck_assert_int_eq(pred_collinear3(t0, t1, t2), 0);
    double u0[3] = {0x1p-1074, 0, 0}, u1[3] = {0x1p-1073, 0, 0}, u2[3] = {0, 0x1p-1074, 0};
    ck_assert_int_eq(pred_collinear3(u0, u1, u2), 0);
    u2[1] = 0;
    ck_assert_int_eq(pred_collinear3(u0, u1, u2), 1);
}
END_TEST


/* The status of the one pair a default query of w reports (it must
 * report exactly one). */
static hs_status only_pair_status(const hs_world *w)
{
    hs_error err;
    hs_report *rep = hs_report_new();
    ck_assert_msg(hs_world_query(w, NULL, rep, &err) == HS_OK, "%s", err.msg);
    ck_assert_int_eq(hs_report_pair_count(rep), 1);
    hs_status st;
    hs_report_pair(rep, 0, NULL, NULL, &st);
    hs_report_free(rep);
    return st;
}

/* hs_body_add_mesh: a valid triangle at z = 2^54 is accepted; a box that
 * crosses it overlaps it (the scene reader dropped it: "nothing"). */
START_TEST(mesh_triangle_at_2_54)
{
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *m = hs_world_add_body(w, "tri", 0, &err);
    double z = 0x1p54;
    double v[9] = {-64, -64, z, 64, -64, z, 0, 64, z};
    int t[3] = {0, 1, 2};
    ck_assert_msg(hs_body_add_mesh(m, v, 3, t, 1, NULL, &err) == HS_OK, "%s", err.msg);
    box_at(w, "box", 8, 0);
    hs_body *b = hs_world_find_body(w, "box");
    double p[16];
    hs_pose_identity(p);
    p[11] = z;
    ck_assert(hs_body_set_pose(b, p, &err) == HS_OK);
    ck_assert_int_eq(only_pair_status(w), HS_OVERLAP);
    /* truly collinear corners at that height are still refused */
    double line[9] = {0, 0, z, 8, 0, z, 16, 0, z};
    ck_assert_int_eq(hs_body_add_mesh(m, line, 3, t, 1, NULL, &err), HS_ERR_INPUT);
    hs_world_free(w);
}
END_TEST

/* Scene files: the same crossing read from VRML, and a tetrahedron at
 * 1e17 ("no face of nonzero area" before). */
START_TEST(scene_faces_at_large_coordinates)
{
    const char *wrl =
        "#VRML V2.0 utf8\n"
        "DEF tri Shape { geometry IndexedFaceSet { convex FALSE\n"
        "  coord Coordinate { point [ -64 -64 18014398509481984, 64 -64 18014398509481984,\n"
        "                             0 64 18014398509481984 ] }\n"
        "  coordIndex [ 0 1 2 -1 ] } }\n"
        "DEF box Transform { translation 0 0 18014398509481984\n"
        "  children Shape { geometry Box { size 8 8 8 } } }\n";
    const char *path = t_temp_file_suffix("hs_extremes_", ".wrl", wrl);
    hs_error err;
    hs_world *w = hs_world_load(path, &err);
    remove(path);
    ck_assert_msg(w != NULL, "%s", err.msg);
    ck_assert_int_eq(only_pair_status(w), HS_OVERLAP);
    hs_world_free(w);

    const char *off = "OFF\n4 4 6\n1e17 1e17 1e17\n1.001e17 1e17 1e17\n1e17 1.001e17 1e17\n"
                      "1e17 1e17 1.001e17\n3 0 2 1\n3 0 1 3\n3 1 2 3\n3 0 3 2\n";
    path = t_temp_file_suffix("hs_extremes_", ".off", off);
    w = hs_world_load(path, &err);
    remove(path);
    ck_assert_msg(w != NULL, "%s", err.msg);
    ck_assert_int_eq(hs_world_body_count(w), 1);
    ck_assert_int_eq(hs_body_piece_count(hs_world_body(w, 0)), 1);
    hs_world_free(w);
}
END_TEST

/* An unknown scene file type is bad input (exit 2, FILE: what), not an
 * internal error (exit 4). */
START_TEST(unknown_scene_type_is_bad_input)
{
    const char *path = t_temp_file_suffix("hs_extremes_", ".txt", "hello\n");
    char args[512];
    const char *out, *errtext;
    snprintf(args, sizeof args, "world %s", path);
    ck_assert_int_eq(t_cli(args, &out, &errtext), 2);
    ck_assert_msg(strstr(errtext, path) && strstr(errtext, "unknown scene format"), "%s",
                  errtext);
    remove(path);
}
END_TEST

Suite *suite_extremes(void)
{
    Suite *s = suite_create("extremes");
    TCase *tc = tcase_create("extremes");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, chain_joint_beyond_range_is_refused);
    tcase_add_test(tc, chain_angles_beyond_range_are_refused);
    tcase_add_test(tc, chain_file_rests_beyond_range);
    tcase_add_test(tc, chain_world_distance_at_extremes);
    tcase_add_test(tc, chain_cli_overflow);
    tcase_add_test(tc, world_distance_at_extremes);
    tcase_add_test(tc, world_pieces_overflowing_once_placed);
    tcase_add_test(tc, world_distance_beyond_range);
    tcase_add_test(tc, long_thin_piece_far_out);
    tcase_add_test(tc, collinear_at_every_magnitude);
    tcase_add_test(tc, mesh_triangle_at_2_54);
    tcase_add_test(tc, scene_faces_at_large_coordinates);
    tcase_add_test(tc, unknown_scene_type_is_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
