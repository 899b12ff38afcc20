/* test_chain_api.c -- the interface of chains around the search: argument
 * checks of every call (a failed call changes nothing), typed joints with
 * limits, angles and names, and chain files (the Panda, the messages of
 * bad files, capsules that contain their end spheres). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/chain_helpers.h"
#include "tests/helpers.h"

/* ------------------------------------------------ argument checks */

START_TEST(argument_errors)
{
    hs_error err;
    ck_assert(hs_chain_new(0, &err) == NULL && err.code == HS_ERR_ARG);
    ck_assert(hs_chain_new(-3, NULL) == NULL);
    hs_chain *c = new_chain(4);
    double p[3] = {0, 0, 0}, nanp[3] = {NAN, 0, 0}, m[16];
    ck_assert(hs_chain_add_sphere(c, 4, p, 1, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "link 4") != NULL);
    ck_assert(hs_chain_add_sphere(c, -1, p, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(c, 0, nanp, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(c, 0, p, 0, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(c, 0, p, -1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(c, 0, p, INFINITY, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(c, 0, p, NAN, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(NULL, 0, p, 1, &err) == HS_ERR_ARG);
    hs_pose_identity(m);
    ck_assert(hs_chain_set_joint(c, 0, m, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_joint(c, 4, m, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_change_joint(c, 0, m, &err) == HS_ERR_ARG);
    m[3] = NAN;
    ck_assert(hs_chain_set_joint(c, 1, m, &err) == HS_ERR_ARG);
    hs_pose_identity(m);
    m[0] = 2; /* a scale is not rigid */
    ck_assert(hs_chain_set_joint(c, 1, m, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "rigid") != NULL);
    hs_pose_identity(m);
    m[0] = -1; /* a reflection neither */
    ck_assert(hs_chain_set_joint(c, 1, m, &err) == HS_ERR_ARG);
    hs_pose_identity(m);
    m[14] = 1;
    ck_assert(hs_chain_set_base(c, m, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_change_joint(c, 2, m, &err) == HS_ERR_ARG);
    hs_pose_identity(m);
    int idx[2] = {1, 9};
    double ms[32];
    hs_pose_identity(ms);
    hs_pose_identity(ms + 16);
    ck_assert(hs_chain_set_joints(c, idx, ms, 2, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_joints(c, idx, ms, -1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_joints(c, NULL, ms, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_skip_pair(c, 1, 1, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_skip_pair(c, 1, 4, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_skip_pair(c, -1, 2, 1, &err) == HS_ERR_ARG);
    /* out of range poses give the identity; a failed call changed nothing */
    double J[16], I[16];
    hs_pose_identity(I);
    hs_chain_get_joint(c, 0, J);
    ck_assert(memcmp(J, I, sizeof J) == 0);
    hs_chain_get_joint(c, 1, J);
    ck_assert(memcmp(J, I, sizeof J) == 0);
    hs_chain_link_pose(c, 7, J);
    ck_assert(memcmp(J, I, sizeof J) == 0);
    hs_chain_relative_pose(c, 0, 9, J);
    ck_assert(memcmp(J, I, sizeof J) == 0);
    ck_assert_int_eq(hs_chain_link_count(NULL), 0);
    ck_assert_int_eq(hs_chain_self_collision(NULL, NULL, NULL, NULL, &err), -1);
    int *pairs, np;
    ck_assert(hs_chain_self_collision_all(NULL, &pairs, &np, NULL, &err) == HS_ERR_ARG);
    /* no pieces: free */
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 0);
    ck_assert(hs_chain_new(1 << 27, &err) == NULL && err.code == HS_ERR_ARG);
    double cube[24] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1};
    ck_assert(hs_chain_add_hull(c, 4, cube, 8, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_hull(NULL, 0, cube, 8, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_hull(c, 0, NULL, 8, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_auto_skip(NULL, NULL, NULL, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_skip_pair(NULL, 0, 1, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_base(NULL, J, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_joint(NULL, 1, J, &err) == HS_ERR_ARG);
    hs_world *w = hs_world_new();
    ck_assert(hs_chain_world_collision_all(NULL, w, &pairs, &np, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_world_collision_all(c, w, NULL, &np, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_world_collision_all(c, w, &pairs, &np, &err) == HS_OK && np == 0);
    hs_free(pairs);
    hs_world_free(w);
    ck_assert(hs_chain_set_angles(NULL, NULL, 0, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_angles(c, NULL, 0, &err) == HS_OK); /* no movable joint */
    ck_assert_int_eq(hs_chain_dof(NULL), 0);
    hs_chain_free(c);
    hs_chain_free(NULL);
}
END_TEST

/* ------------------------------------------------ joints and files */

START_TEST(typed_joints_and_angles)
{
    hs_error err;
    hs_chain *c = new_chain(4);
    double axis[3] = {0, 0, 2}, origin[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, t[3] = {1, 0, 0};
    hs_pose_from_rt(origin, I3, t);
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_REVOLUTE, origin, axis, -1, 1, 0.5, &err) ==
              HS_OK);
    ck_assert(hs_chain_define_joint(c, 2, HS_JOINT_FIXED, origin, NULL, 0, 0, 0, &err) == HS_OK);
    ck_assert(hs_chain_define_joint(c, 3, HS_JOINT_PRISMATIC, NULL, (double[]){1, 0, 0},
                                    -HUGE_VAL, 2, 0, &err) == HS_OK);
    ck_assert_int_eq(hs_chain_dof(c), 2);
    ck_assert_int_eq(hs_chain_movable_joint(c, 0), 1);
    ck_assert_int_eq(hs_chain_movable_joint(c, 1), 3);
    ck_assert_int_eq(hs_chain_movable_joint(c, 2), -1);
    ck_assert(hs_chain_joint_type(c, 2) == HS_JOINT_FIXED);
    ck_assert(hs_chain_joint_type(c, 3) == HS_JOINT_PRISMATIC);
    double J[16], lo, hi, q;
    hs_chain_get_joint(c, 1, J); /* origin, then 0.5 rad about z */
    ck_assert(fabs(J[0] - cos(0.5)) < 1e-15 && fabs(J[4] - sin(0.5)) < 1e-15 && J[3] == 1);
    ck_assert(hs_chain_set_angles(c, (double[]){-1, 1.5}, 2, &err) == HS_OK);
    hs_chain_get_joint(c, 3, J);
    ck_assert(J[3] == 1.5 && J[7] == 0 && J[11] == 0 && J[0] == 1);
    ck_assert(hs_chain_joint_limits(c, 1, &lo, &hi, &q, &err) == HS_OK);
    ck_assert(lo == -HUGE_VAL && hi == 2 && q == 1.5);
    /* errors leave everything as it was */
    ck_assert(hs_chain_set_angles(c, (double[]){0}, 1, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "1 values for 2 movable joints") != NULL);
    ck_assert(hs_chain_set_angles(c, (double[]){0, 3}, 2, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "outside the limits") != NULL);
    ck_assert(hs_chain_set_angles(c, (double[]){NAN, 0}, 2, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_angles(c, (double[]){0, -INFINITY}, 2, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_joint_limits(c, 1, &lo, &hi, &q, &err) == HS_OK && q == 1.5);
    ck_assert(hs_chain_joint_limits(c, 2, &lo, &hi, &q, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 0, HS_JOINT_FIXED, NULL, NULL, 0, 0, 0, &err) ==
              HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 1, (hs_joint_type)7, NULL, axis, 0, 0, 0, &err) ==
              HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_REVOLUTE, NULL, (double[]){0, 0, 0}, -1, 1,
                                    0, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_REVOLUTE, NULL, axis, 1, -1, 0, &err) ==
              HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_REVOLUTE, NULL, axis, -1, 1, 2, &err) ==
              HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_REVOLUTE, NULL, axis, NAN, 1, 0, &err) ==
              HS_ERR_ARG);
    origin[0] = 3;
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_FIXED, origin, NULL, 0, 0, 0, &err) ==
              HS_ERR_ARG);
    ck_assert_int_eq(hs_chain_dof(c), 2);
    /* names */
    ck_assert(hs_chain_link_name(c, 0) == NULL && hs_chain_joint_name(c, 1) == NULL);
    ck_assert(hs_chain_set_link_name(c, 0, "base", &err) == HS_OK);
    ck_assert(hs_chain_set_joint_name(c, 1, "shoulder", &err) == HS_OK);
    ck_assert_str_eq(hs_chain_link_name(c, 0), "base");
    ck_assert_str_eq(hs_chain_joint_name(c, 1), "shoulder");
    ck_assert(hs_chain_set_link_name(c, 0, "", &err) == HS_OK && !hs_chain_link_name(c, 0));
    ck_assert(hs_chain_set_link_name(c, 4, "x", &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_joint_name(c, 0, "x", &err) == HS_ERR_ARG);
    ck_assert(hs_chain_joint_name(c, 9) == NULL && hs_chain_link_name(c, -1) == NULL);
    hs_chain_free(c);
}
END_TEST

/* The Panda (capsules, in the examples): 10 links, 7 joints, free at rest
 * once the links touching there are skipped; the links' world positions
 * at q = 0 are the Panda's known ones. */
START_TEST(panda_file)
{
    hs_error err;
    hs_chain *c = hs_chain_load(t_example_path("chains/panda.chain"), &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    ck_assert_int_eq(hs_chain_link_count(c), 10);
    ck_assert_int_eq(hs_chain_dof(c), 7);
    ck_assert_str_eq(hs_chain_link_name(c, 9), "hand");
    ck_assert_str_eq(hs_chain_joint_name(c, 4), "joint4");
    int *pairs, np;
    ck_assert(hs_chain_auto_skip(c, &pairs, &np, &err) == HS_OK);
    ck_assert_int_eq(np, 1);
    ck_assert(pairs[0] == 7 && pairs[1] == 9); /* link7 and hand (link8 has no piece) */
    hs_free(pairs);
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 0);
    ck_assert(hs_chain_self_collision_all(c, &pairs, &np, NULL, &err) == HS_OK && np == 0);
    hs_free(pairs);
    /* q = 0 except joint 4 at its upper limit: the flange near (0.088, 0, 0.926) */
    double q[7] = {0, 0, 0, -0.0698, 0, 0, 0}, m[16];
    ck_assert(hs_chain_set_angles(c, q, 7, &err) == HS_OK);
    hs_chain_link_pose(c, 5, m);
    ck_assert(fabs(m[11] - (0.333 + 0.316 + 0.384)) < 0.01);
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 1);
    hs_chain_free(c);
    /* the meshes version, when the shared data is there */
    const char *mp = t_example_path("chains/panda_meshes.chain");
    if (!t_data("panda_file (meshes version)", "robots/franka_panda/collision/hand.stl"))
        return; /* recorded as a skip by name */
    c = hs_chain_load(mp, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    ck_assert(hs_chain_auto_skip(c, NULL, NULL, &err) == HS_OK);
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 0);
    hs_chain_free(c);
}
END_TEST

/* Writes text to a temporary chain file and loads it; returns the chain
 * or NULL with the message in *msg. */
static hs_chain *load_text(const char *text, const char **msg)
{
    static hs_error err;
    const char *name = t_temp_file("hs_chain_", text);
    hs_chain *c = hs_chain_load(name, &err);
    remove(name);
    *msg = err.msg;
    return c;
}

START_TEST(chain_file_errors)
{
    struct {
        const char *text, *msg;
    } cases[] = {
        {"link a\nsphere 0 0 0 0\n", ":2: sphere: the radius must be positive"},
        {"link a\nsphere 0 0 1e999 1\n", ":2: '1e999' is not a finite number"},
        {"link a\njoint j revolute\naxis 0 0 1\nrest 5\nlimits -1 1\nlink b\n",
         ":2: joint 'j': rest value 5 is outside the limits [-1, 1]"},
        {"link a\njoint j prismatic\nlink b\n", ":2: joint 'j' needs an axis"},
        {"joint j fixed\n", ":1: a joint must follow a link"},
        {"link a\njoint j fixed\njoint k fixed\n", ":3: two joints in a row"},
        {"link\n", ":1: link: needs a name"},
        {"link a\nrest 1\n", ":2: 'rest' belongs to a joint"},
        {"link a\nskip a\n", ":2: skip: needs two link names"},
        {"link a\nskip a a\n", ":2: skip: the two links are the same"},
        {"link a\nhull 0 0 0 1 0 0 0 1 0 0 0 1 at 0 0 0 0 0\n", ":2: hull: 'at' needs six values"},
        {"link a\nhull 0 0 0 1 0 0 0 1 0 0 0\n", ":2: hull: needs at least 4 points"},
        {"link a\nmesh\n", ":2: mesh: needs a file name"},
        {"link a\n\x01\n", ":2: unexpected control byte"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *msg;
        hs_chain *c = load_text(cases[k].text, &msg);
        ck_assert_msg(c == NULL, "case %zu loaded", k);
        ck_assert_msg(strstr(msg, cases[k].msg) != NULL, "case %zu: '%s'", k, msg);
        ck_assert_msg(strncmp(msg, "/tmp/hs_chain_", 14) == 0, "case %zu: no file name", k);
    }
    const char *msg;
    hs_error err;
    ck_assert(hs_chain_load("/nonexistent/x.chain", &err) == NULL);
    ck_assert(err.code == HS_ERR_IO || err.code == HS_ERR_INPUT);
    ck_assert(hs_chain_load(NULL, &err) == NULL && err.code == HS_ERR_ARG);
    /* a good file with every kind of piece and a placement */
    hs_chain *c = load_text("link a\nbox 1 2 3 at 0 0 1 0 0 1.5707963267948966\n"
                            "hull 0 0 0 1 0 0 0 1 0 0 0 1 at 5 0 0 0 0 0\n"
                            "joint j revolute\naxis 0 1 0\nlimits -1 1\nrest 0.5\n"
                            "link b\ncapsule 0 0 0 0 0 1 0.25\nsphere 3 0 0 1\n",
                            &msg);
    ck_assert_msg(c != NULL, "%s", msg);
    ck_assert_int_eq(hs_chain_dof(c), 1);
    double lo, hi, q;
    ck_assert(hs_chain_joint_limits(c, 0, &lo, &hi, &q, &err) == HS_OK);
    ck_assert(lo == -1 && hi == 1 && q == 0.5);
    hs_chain_free(c);
}
END_TEST

/* The capsule contains its end spheres: a sphere of radius 1 whose centre
 * is 2 (1 - 2^-20) from the end of a capsule of radius 1, in any
 * direction, always meets it (the polytope lies outside the true
 * spheres). */
START_TEST(capsule_contains_its_spheres)
{
    hs_error err;
    uint64_t s = 8;
    for (int it = 0; it < 200; it++) {
        double d[3] = {t_rng_sym(&s), t_rng_sym(&s), t_rng_sym(&s)};
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), p[3];
        if (l < 0.1)
            continue;
        for (int j = 0; j < 3; j++)
            p[j] = 2 * d[j] / l * (1 - 0x1p-20);
        char buf[512];
        snprintf(buf, sizeof buf,
                 "link a\ncapsule 0 0 0 0 0 0 1\njoint j fixed\nlink m\njoint k fixed\n"
                 "origin %.17g %.17g %.17g 0 0 0\nlink b\nsphere 0 0 0 1\n",
                 p[0], p[1], p[2]);
        const char *msg;
        hs_chain *c = load_text(buf, &msg);
        ck_assert_msg(c != NULL, "%s", msg);
        ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 1);
        hs_chain_free(c);
    }
}
END_TEST

Suite *suite_chain_api(void)
{
    Suite *s = suite_create("chain_api");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, argument_errors);
    tcase_add_test(tc, typed_joints_and_angles);
    tcase_add_test(tc, panda_file);
    tcase_add_test(tc, chain_file_errors);
    tcase_add_test(tc, capsule_contains_its_spheres);
    suite_add_tcase(s, tc);
    return s;
}
