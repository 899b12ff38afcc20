/* test_robot_motion.c -- straight joint-space motions: the guaranteed mode
 * against a brute-force fine sampling where the answer is known (a thin
 * plate that the stepped mode jumps over and the guaranteed mode catches
 * (also with the moving link kept as a triangle mesh),
 * a prismatic joint and a mimic joint driven through a plate, random
 * motions of the Panda among a table and a shelf), the first colliding
 * configuration, and the arguments. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"
#include "tests/robot_helpers.h"

/* An arm: a base box at the origin, and a bar along x (x 0.2..1.2, 0.02
 * thick) turning about z (joint a); a slider on a prismatic joint along
 * y, 3 m out on x (joint s), and a paddle mimicking a (joint p: the same
 * angle). */
static const char ARM[] =
    "<robot name=\"arm\">\n"
    "<link name=\"base\"><collision><geometry><box size=\"0.2 0.2 0.2\"/></geometry>"
    "</collision></link>\n"
    "<link name=\"bar\"><collision><origin xyz=\"0.7 0 0\"/><geometry><box size=\"1 0.02 0.02\"/>"
    "</geometry></collision></link>\n"
    "<joint name=\"a\" type=\"revolute\"><parent link=\"base\"/><child link=\"bar\"/>"
    "<axis xyz=\"0 0 1\"/><limit lower=\"-3\" upper=\"3\"/></joint>\n"
    "<link name=\"slider\"><collision><geometry><box size=\"0.02 0.02 0.02\"/></geometry>"
    "</collision></link>\n"
    "<joint name=\"s\" type=\"prismatic\"><parent link=\"base\"/><child link=\"slider\"/>"
    "<origin xyz=\"3 0 0\"/><axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\"/></joint>\n"
    "<link name=\"paddle\"><collision><origin xyz=\"0 -0.5 0\"/><geometry>"
    "<box size=\"0.02 0.6 0.02\"/></geometry></collision></link>\n"
    "<joint name=\"p\" type=\"revolute\"><parent link=\"base\"/><child link=\"paddle\"/>"
    "<origin xyz=\"0 -3 0\"/><axis xyz=\"0 0 1\"/><limit lower=\"-3\" upper=\"3\"/>"
    "<mimic joint=\"a\"/></joint>\n"
    "</robot>\n";

/* A plate (a static body): centre c, sizes s, turned by angle about z. */
static hs_world *plate_world(const double c[3], const double s[3], double angle)
{
    hs_error err;
    hs_world *w = hs_world_new();
    hs_body *b = hs_world_add_body(w, "plate", 1, &err);
    ck_assert(hs_body_add_box(b, s, NULL, &err) == HS_OK);
    double m[16], z[3] = {0, 0, 1};
    hs_pose_from_axis_angle(m, z, angle, c, NULL);
    ck_assert(hs_body_set_pose(b, m, &err) == HS_OK);
    return w;
}

/* The first t = k / K of a fine sampling whose configuration collides
 * (2 when none). */
static double brute_first(hs_robot *r, const hs_world *w, const double *qa, const double *qb,
                          int n, int K)
{
    double q[16];
    hs_error err;
    for (int k = 0; k <= K; k++) {
        double t = (double)k / K;
        for (int j = 0; j < n; j++)
            q[j] = (1 - t) * qa[j] + t * qb[j];
        int hit = hs_robot_check(r, w, q, n, &err);
        ck_assert(hit >= 0);
        if (hit)
            return t;
    }
    return 2;
}

START_TEST(thin_plate_stepped_misses_guaranteed_catches)
{
    const char *msg;
    hs_robot *r = rt_load(ARM, ".", NULL, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    ck_assert_int_eq(hs_robot_dof(r), 2); /* a, s */
    /* a plate 1 mm thick along the radius at angle 0.55, r 0.3..1.1: at
     * a = 0.5 and 0.6 the bar (0.01 thick each side, so at most 0.033 rad
     * wide at r 0.3) misses it */
    double c[3] = {0.7 * cos(0.55), 0.7 * sin(0.55), 0}, s[3] = {0.8, 0.001, 0.5};
    hs_world *w = plate_world(c, s, 0.55);
    double qa[2] = {0, 0}, qb[2] = {1, 0};
    hs_robot_motion_options o;
    hs_robot_motion_options_init(&o);
    o.resolution = 0.1;
    hs_robot_motion_result res;
    double hit[2];
    hs_error err;
    ck_assert(hs_robot_check_motion(r, w, qa, qb, 2, &o, &res, hit, &err) == HS_OK);
    ck_assert_int_eq(res.steps, 10);
    ck_assert_int_eq(res.blocked, 0); /* the stepped mode jumps over it */
    ck_assert(res.fraction == 1 && hit[0] == 1);
    o.guaranteed = 1;
    ck_assert(hs_robot_check_motion(r, w, qa, qb, 2, &o, &res, hit, &err) == HS_OK);
    ck_assert_int_eq(res.blocked, 1);
    ck_assert(res.a == 1 && res.b == -1 && res.body == 0 && res.status != HS_DISJOINT);
    /* brute force at 10^-4: the first colliding sample; the guaranteed
     * mode's collision lies at most one sample after it and its free
     * stretch ends before it */
    double t = brute_first(r, w, qa, qb, 2, 10000);
    ck_assert(t > 0.5 && t < 0.55);
    ck_assert_msg(res.fraction <= t + 1e-4 && res.free_fraction <= t &&
                      res.free_fraction <= res.fraction && res.fraction - res.free_fraction < 1e-5,
                  "guaranteed %.9g (free %.9g), brute force %.9g", res.fraction,
                  res.free_fraction, t);
    ck_assert(hit[0] == res.fraction && hit[1] == 0);
    ck_assert_int_eq(hs_robot_check(r, w, hit, 2, &err), 1); /* q_hit collides */
    ck_assert(res.bounds > 0 && res.exact_tests > 0);
    /* back: from 1 to 0, the first contact is seen from the other side */
    ck_assert(hs_robot_check_motion(r, w, qb, qa, 2, &o, &res, hit, &err) == HS_OK);
    ck_assert_int_eq(res.blocked, 1);
    double tb = brute_first(r, w, qb, qa, 2, 10000);
    ck_assert(res.fraction <= tb + 1e-4 && res.free_fraction <= tb);
    /* a motion that stops short of the plate is free in both modes */
    qb[0] = 0.45;
    ck_assert(hs_robot_check_motion(r, w, qa, qb, 2, &o, &res, NULL, &err) == HS_OK);
    ck_assert_int_eq(res.blocked, 0);
    ck_assert(res.free_fraction == 1);
    hs_world_free(w);
    hs_robot_free(r);
}
END_TEST

START_TEST(prismatic_and_mimic_through_plates)
{
    const char *msg;
    hs_robot *r = rt_load(ARM, ".", NULL, &msg);
    ck_assert(r != NULL);
    hs_robot_motion_options o;
    hs_robot_motion_options_init(&o);
    o.guaranteed = 1;
    hs_robot_motion_result res;
    hs_error err;
    /* the slider (y -1..1 at x 3) through a plate 0.5 mm thick at y 0.3 */
    double c[3] = {3, 0.3, 0}, s[3] = {0.5, 0.0005, 0.5};
    hs_world *w = plate_world(c, s, 0);
    double qa[2] = {0, -1}, qb[2] = {0, 1};
    ck_assert(hs_robot_check_motion(r, w, qa, qb, 2, &o, &res, NULL, &err) == HS_OK);
    ck_assert_int_eq(res.blocked, 1);
    ck_assert_int_eq(res.a, 2); /* the slider */
    double t = brute_first(r, w, qa, qb, 2, 20000);
    ck_assert(t < 2);
    ck_assert_msg(res.fraction <= t + 1e-4 && res.free_fraction <= t, "g %.9g brute %.9g",
                  res.fraction, t);
    /* stepped at 0.5 m: the slider's 2 cm never lands on the plate */
    o.guaranteed = 0;
    o.resolution = 0.5;
    ck_assert(hs_robot_check_motion(r, w, qa, qb, 2, &o, &res, NULL, &err) == HS_OK);
    ck_assert_int_eq(res.blocked, 0);
    hs_world_free(w);
    /* the paddle (mimicking a, around (0, -3)) through a plate at angle
     * 0.3 from its rest direction (-y) */
    double pc[3] = {0.5 * sin(0.3), -3 - 0.5 * cos(0.3), 0}, ps[3] = {0.001, 0.4, 0.5};
    w = plate_world(pc, ps, 0.3);
    qa[1] = qb[1] = 0;
    qa[0] = 0;
    qb[0] = 0.6;
    o.guaranteed = 1;
    ck_assert(hs_robot_check_motion(r, w, qa, qb, 2, &o, &res, NULL, &err) == HS_OK);
    ck_assert_int_eq(res.blocked, 1);
    ck_assert_int_eq(res.a, 3); /* the paddle */
    t = brute_first(r, w, qa, qb, 2, 20000);
    ck_assert(t < 2 && res.fraction <= t + 1e-4 && res.free_fraction <= t);
    hs_world_free(w);
    hs_robot_free(r);
}
END_TEST

/* Random motions of the Panda in the shelf scene: the guaranteed mode
 * never says free where a fine sampling (0.002 rad) finds a collision, and
 * its first collision is never after the sampling's. */
START_TEST(panda_against_brute_force)
{
    const char *p = t_data("panda_against_brute_force", "urdf/franka_panda/panda.urdf");
    if (!p)
        return;
    hs_error err;
    hs_robot_options ro;
    hs_robot_options_init(&ro);
    ro.auto_skip = 0;
    hs_robot *r = hs_robot_load(p, &ro, &err);
    const double ready[8] = {0, -0.785398163397, 0, -2.35619449019, 0, 1.57079632679,
                             0.785398163397, 0.02};
    ck_assert(hs_robot_set_q(r, ready, 8, &err) == HS_OK);
    ck_assert(hs_robot_auto_skip(r, NULL, NULL, &err) == HS_OK);
    hs_world *w = hs_world_load(t_example_path("ompl_panda/table_shelf.wrl"), &err);
    ck_assert_msg(w != NULL, "%s", err.msg);
    double lo[8], hi[8], qa[8], qb[8], qh[8];
    for (int k = 0; k < 8; k++)
        hs_robot_coordinate_limits(r, k, &lo[k], &hi[k], NULL);
    hs_robot_motion_options o;
    hs_robot_motion_options_init(&o);
    o.guaranteed = 1;
    uint64_t s = 11;
    int blocked = 0, free_ = 0;
    for (int it = 0; it < 24; it++) {
        do {
            for (int k = 0; k < 8; k++)
                qa[k] = lo[k] + (hi[k] - lo[k]) * t_rng_unit(&s);
        } while (hs_robot_check(r, w, qa, 8, &err) != 0);
        /* short motions: 0.6 rad at most per joint, to keep the sampling
         * fine and the test quick */
        for (int k = 0; k < 8; k++)
            qb[k] = fmin(hi[k], fmax(lo[k], qa[k] + (k < 7 ? 0.6 : 0.02) * t_rng_sym(&s)));
        hs_robot_motion_result res;
        ck_assert(hs_robot_check_motion(r, w, qa, qb, 8, &o, &res, qh, &err) == HS_OK);
        double t = brute_first(r, w, qa, qb, 8, 300);
        if (t <= 1) {
            ck_assert_msg(res.blocked != 0, "motion %d: guaranteed free, sampling hits at %g", it,
                          t);
            ck_assert(res.free_fraction <= t);
        }
        if (res.blocked == 1) {
            ck_assert_int_eq(hs_robot_check(r, w, qh, 8, &err), 1);
            blocked++;
        } else if (!res.blocked)
            free_++;
    }
    ck_assert(blocked > 2 && free_ > 2);
    hs_world_free(w);
    hs_robot_free(r);
}
END_TEST

/* A bar kept as a triangle mesh (an OBJ box, not its hull) through the
 * thin plate: the bounds then go triangle by triangle. */
START_TEST(mesh_bar_through_plate)
{
    const char *dir = rt_dir();
    rt_write(dir, "bar.obj", "v 0.2 -0.01 -0.01\nv 1.2 -0.01 -0.01\nv 1.2 0.01 -0.01\nv 0.2 0.01 -0.01\n"
                             "v 0.2 -0.01 0.01\nv 1.2 -0.01 0.01\nv 1.2 0.01 0.01\nv 0.2 0.01 0.01\n"
                             "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n");
    const char *xml =
        "<robot name=\"m\"><link name=\"base\"><collision><geometry><box size=\"0.2 0.2 0.2\"/>"
        "</geometry></collision></link>\n"
        "<link name=\"bar\"><collision><geometry><mesh filename=\"bar.obj\"/></geometry>"
        "</collision></link>\n"
        "<joint name=\"a\" type=\"revolute\"><parent link=\"base\"/><child link=\"bar\"/>"
        "<axis xyz=\"0 0 1\"/><limit lower=\"-3\" upper=\"3\"/></joint></robot>\n";
    hs_robot_options ro;
    hs_robot_options_init(&ro);
    ro.mesh_as_hull = 0;
    const char *msg;
    hs_robot *r = rt_load(xml, dir, &ro, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    double c[3] = {0.7 * cos(0.55), 0.7 * sin(0.55), 0}, s[3] = {0.8, 0.001, 0.5};
    hs_world *w = plate_world(c, s, 0.55);
    double qa[1] = {0}, qb[1] = {1};
    hs_robot_motion_options o;
    hs_robot_motion_options_init(&o);
    o.guaranteed = 1;
    hs_robot_motion_result res;
    hs_error err;
    ck_assert(hs_robot_check_motion(r, w, qa, qb, 1, &o, &res, NULL, &err) == HS_OK);
    ck_assert_int_eq(res.blocked, 1);
    double t = brute_first(r, w, qa, qb, 1, 10000);
    ck_assert_msg(t < 2 && res.fraction <= t + 1e-4 && res.free_fraction <= t, "g %.9g brute %.9g",
                  res.fraction, t);
    qb[0] = 0.45;
    ck_assert(hs_robot_check_motion(r, w, qa, qb, 1, &o, &res, NULL, &err) == HS_OK);
    ck_assert_int_eq(res.blocked, 0);
    hs_world_free(w);
    hs_robot_free(r);
    rt_rmdir(dir);
}
END_TEST

START_TEST(motion_arguments)
{
    const char *msg;
    hs_robot *r = rt_load(ARM, ".", NULL, &msg);
    ck_assert(r != NULL);
    hs_robot_motion_options o;
    hs_robot_motion_options_init(&o);
    hs_robot_motion_result res;
    hs_error err;
    double qa[2] = {0, 0}, qb[2] = {1, 0};
    ck_assert(hs_robot_check_motion(NULL, NULL, qa, qb, 2, &o, &res, NULL, &err) == HS_ERR_ARG);
    ck_assert(hs_robot_check_motion(r, NULL, qa, qb, 1, &o, &res, NULL, &err) == HS_ERR_ARG);
    qb[0] = 4;
    ck_assert(hs_robot_check_motion(r, NULL, qa, qb, 2, &o, &res, NULL, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "(end)") != NULL);
    qb[0] = 1;
    o.resolution = 0;
    ck_assert(hs_robot_check_motion(r, NULL, qa, qb, 2, &o, &res, NULL, &err) == HS_ERR_ARG);
    o.resolution = 1e-9; /* 10^9 steps */
    ck_assert(hs_robot_check_motion(r, NULL, qa, qb, 2, &o, &res, NULL, &err) == HS_ERR_ARG);
    hs_robot_motion_options_init(&o);
    o.tolerance = NAN;
    ck_assert(hs_robot_check_motion(r, NULL, qa, qb, 2, &o, &res, NULL, &err) == HS_ERR_ARG);
    /* a start in collision: blocked at 0 */
    double c[3] = {0.7, 0, 0}, s[3] = {0.1, 0.1, 0.1};
    hs_world *w = plate_world(c, s, 0);
    hs_robot_motion_options_init(&o);
    o.guaranteed = 1;
    ck_assert(hs_robot_check_motion(r, w, qa, qb, 2, &o, &res, NULL, &err) == HS_OK);
    ck_assert(res.blocked == 1 && res.fraction == 0 && res.free_fraction == 0);
    /* too little room to work: HS_ERR_UNSUPPORTED */
    qa[0] = -1;
    qb[0] = -0.5;
    hs_world_free(w);
    double c2[3] = {0.7 * cos(-0.8), 0.7 * sin(-0.8), 0}, s2[3] = {0.8, 0.001, 0.5};
    w = plate_world(c2, s2, -0.8);
    o.max_checks = 3;
    ck_assert(hs_robot_check_motion(r, w, qa, qb, 2, &o, &res, NULL, &err) ==
              HS_ERR_UNSUPPORTED);
    /* self: off; the motion alone, no world */
    hs_robot_motion_options_init(&o);
    o.self = 0;
    ck_assert(hs_robot_check_motion(r, NULL, qa, qb, 2, &o, &res, NULL, &err) == HS_OK);
    ck_assert_int_eq(res.blocked, 0);
    ck_assert(res.a == -1 && res.b == -1 && res.body == -1);
    hs_world_free(w);
    hs_robot_free(r);
}
END_TEST

Suite *suite_robot_motion(void)
{
    Suite *s = suite_create("robot_motion");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, thin_plate_stepped_misses_guaranteed_catches);
    tcase_add_test(tc, prismatic_and_mimic_through_plates);
    tcase_add_test(tc, panda_against_brute_force);
    tcase_add_test(tc, mesh_bar_through_plate);
    tcase_add_test(tc, motion_arguments);
    suite_add_tcase(s, tc);
    return s;
}
