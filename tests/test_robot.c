/* test_robot.c -- robots from URDF: the real robots of the data set load,
 * their rest configurations' self-collisions and skip lists checked by
 * hand against the geometry, coordinates and mimic joints, joints set by
 * name, floating and planar joints, the incremental self-collision query
 * against the full one, worlds and distances, the VRML export. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/helpers.h"
#include "tests/robot_helpers.h"

static const double READY[8] = {0, -0.785398163397, 0, -2.35619449019, 0, 1.57079632679,
                                0.785398163397, 0.02};

/* ------------------------------------------------------------ data set */

START_TEST(data_urdfs_load)
{
    hs_error err;
    const char *p = t_data("data_urdfs_load", "urdf/franka_panda/panda.urdf");
    if (!p)
        return;
    hs_robot *r = hs_robot_load(p, NULL, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_int_eq(hs_robot_link_count(r), 13);
    ck_assert_int_eq(hs_robot_joint_count(r), 12);
    ck_assert_int_eq(hs_robot_dof(r), 8); /* 7 arm joints and one finger: the other mimics it */
    const char *names[8] = {"panda_joint1", "panda_joint2", "panda_joint3", "panda_joint4",
                            "panda_joint5", "panda_joint6", "panda_joint7",
                            "panda_finger_joint1"};
    for (int k = 0; k < 8; k++)
        ck_assert_str_eq(hs_robot_joint_name(r, hs_robot_coordinate_joint(r, k)), names[k]);
    /* warnings: pybullet's <contact> elements */
    ck_assert_int_eq(hs_robot_warning_count(r), 2);
    ck_assert(strstr(hs_robot_warning(r, 0), "panda.urdf:256: element <contact>") != NULL);
    ck_assert(strstr(hs_robot_warning(r, 1), "panda.urdf:282: element <contact>") != NULL);
    int j = hs_robot_joint_find(r, "panda_finger_joint2");
    double mult = 0, off = 1;
    ck_assert_int_eq(hs_robot_joint_mimic(r, j, &mult, &off),
                     hs_robot_joint_find(r, "panda_finger_joint1"));
    ck_assert(mult == 1 && off == 0);
    ck_assert_int_eq(hs_robot_joint_coordinate(r, j), -1);
    ck_assert_int_eq(hs_robot_joint_type(r, j), HS_ROBOT_PRISMATIC);
    ck_assert_int_eq(hs_robot_link_piece_count(r, rt_link(r, "panda_link8")), 0);
    hs_robot_free(r);

    p = t_data("data_urdfs_load", "urdf/kuka_iiwa/model.urdf");
    if (!p)
        return;
    r = hs_robot_load(p, NULL, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_int_eq(hs_robot_link_count(r), 8);
    ck_assert_int_eq(hs_robot_dof(r), 7);
    ck_assert_int_eq(hs_robot_warning_count(r), 0);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(hs_robot_link_piece_count(r, i), 1);
    hs_robot_free(r);

    /* r2d2.urdf names l_finger.stl and l_finger_tip.stl, which the data
     * set does not hold (pybullet warns and goes on): an error by default,
     * four warnings and no piece for those links when allowed */
    p = t_data("data_urdfs_load", "urdf/r2d2.urdf");
    if (!p)
        return;
    ck_assert(hs_robot_load(p, NULL, &err) == NULL);
    ck_assert_int_eq(err.code, HS_ERR_INPUT);
    ck_assert_msg(strstr(err.msg, "r2d2.urdf:283: mesh 'l_finger.stl' not found") != NULL, "%s",
                  err.msg);
    hs_robot_options o;
    hs_robot_options_init(&o);
    o.missing_mesh_warns = 1;
    r = hs_robot_load(p, &o, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_int_eq(hs_robot_link_count(r), 16);
    ck_assert_int_eq(hs_robot_dof(r), 8);
    ck_assert_int_eq(hs_robot_warning_count(r), 8); /* 4 <joint_properties>, 4 meshes */
    ck_assert_int_eq(hs_robot_link_piece_count(r, rt_link(r, "left_gripper")), 0);
    double lo, hi;
    int k = hs_robot_joint_coordinate(r, hs_robot_joint_find(r, "head_swivel"));
    ck_assert(hs_robot_coordinate_limits(r, k, &lo, &hi, NULL) == HS_OK);
    ck_assert(lo == -HUGE_VAL && hi == HUGE_VAL); /* continuous: no limits */
    ck_assert_int_eq(hs_robot_joint_type(r, hs_robot_joint_find(r, "gripper_extension")),
                     HS_ROBOT_PRISMATIC);
    hs_robot_free(r);
}
END_TEST

/* Every tested pair not in collision has disjoint axis boxes of its world
 * vertices, by at least `gap` (so it is certainly apart). */
static void apart_by_boxes(const hs_robot *r, const hs_robot_pair *p, int n, double gap)
{
    int L = hs_robot_link_count(r);
    for (int a = 0; a < L; a++)
        for (int b = a + 1; b < L; b++) {
            if (hs_robot_pair_skipped(r, a, b) != HS_ROBOT_TESTED)
                continue;
            int listed = 0;
            for (int k = 0; k < n; k++)
                listed |= p[k].a == a && p[k].b == b;
            if (listed)
                continue;
            rt_poly A = rt_piece(r, a, NULL), B = rt_piece(r, b, NULL);
            ck_assert_msg(rt_box_gap(&A, &B) > gap, "%s %s: boxes %g apart",
                          hs_robot_link_name(r, a), hs_robot_link_name(r, b), rt_box_gap(&A, &B));
            rt_poly_free(&A);
            rt_poly_free(&B);
        }
}

/* The data folder's Panda with every link pair tested (no pairs skipped
 * automatically), or NULL when the data is missing (a named skip). */
static hs_robot *panda_unskipped(const char *test)
{
    const char *p = t_data(test, "urdf/franka_panda/panda.urdf");
    if (!p)
        return NULL;
    hs_error err;
    hs_robot_options o;
    hs_robot_options_init(&o);
    o.auto_skip = 0;
    hs_robot *r = hs_robot_load(p, &o, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    return r;
}

START_TEST(panda_rest_pose_by_hand)
{
    hs_robot *r = panda_unskipped("panda_rest_pose_by_hand");
    if (!r)
        return;
    hs_error err;
    double q[8];
    hs_robot_rest(r, q, 8, NULL);
    for (int k = 0; k < 8; k++) /* 0 lies within every limit (joint4's is [-3.1416, 0]) */
        ck_assert(q[k] == 0);
    /* Adjacent: the joined pairs, and link7 / hand, joined through the
     * flange frame link8, which has no geometry (as MoveIt's setup
     * assistant counts them); the grasp target has no geometry either. */
    const char *adj[][2] = {{"panda_link0", "panda_link1"},  {"panda_link1", "panda_link2"},
                            {"panda_link2", "panda_link3"},  {"panda_link3", "panda_link4"},
                            {"panda_link4", "panda_link5"},  {"panda_link5", "panda_link6"},
                            {"panda_link6", "panda_link7"},  {"panda_link7", "panda_hand"},
                            {"panda_hand", "panda_leftfinger"}, {"panda_hand", "panda_rightfinger"}};
    ck_assert_int_eq(hs_robot_skip_count(r), 10);
    for (int k = 0; k < 10; k++)
        ck_assert_int_eq(hs_robot_pair_skipped(r, rt_link(r, adj[k][0]), rt_link(r, adj[k][1])),
                         HS_ROBOT_ADJACENT);
    ck_assert_int_eq(hs_robot_pair_skipped(r, rt_link(r, "panda_link7"),
                                           rt_link(r, "panda_grasptarget")),
                     HS_ROBOT_NO_GEOMETRY);
    /* At q = 0 the arm stands straight up, the fingers closed. */
    hs_robot_pair *pairs;
    int n;
    ck_assert(hs_robot_self_collision_all(r, &pairs, &n, &err) == HS_OK);
    ck_assert_int_eq(n, 3);
    int l5 = rt_link(r, "panda_link5"), l7 = rt_link(r, "panda_link7"),
        hand = rt_link(r, "panda_hand"), lf = rt_link(r, "panda_leftfinger"),
        rf = rt_link(r, "panda_rightfinger");
    ck_assert(pairs[0].a == l5 && pairs[0].b == l7 && pairs[0].status == HS_OVERLAP);
    ck_assert(pairs[1].a == l5 && pairs[1].b == hand && pairs[1].status == HS_OVERLAP);
    ck_assert(pairs[2].a == lf && pairs[2].b == rf && pairs[2].status == HS_OVERLAP);
    /* By hand.  link5's hull (the forearm, its reach 0.27 m) wraps the
     * wrist: a corner of link7's hull lies 5.7 mm inside it, a corner of
     * the hand's 41 mm. */
    rt_poly P5 = rt_piece(r, l5, NULL), P7 = rt_piece(r, l7, NULL), PH = rt_piece(r, hand, NULL);
    ck_assert(rt_deepest(&P5, &P7) > 0.005);
    ck_assert(rt_deepest(&P5, &PH) > 0.04);
    rt_poly_free(&P5);
    rt_poly_free(&P7);
    rt_poly_free(&PH);
    /* The fingers: finger.obj reaches y = -0.000133 in its own frame, and
     * the right finger is the same mesh turned by pi about z; at opening 0
     * both frames sit at the same point of the hand, so in the hand's
     * frame the left finger spans y >= -0.000133 and the right one y <=
     * 0.000133: a slab 0.27 mm thick where they overlap (their x and z
     * ranges coincide). */
    double H[16], Hinv[16];
    hs_robot_link_pose(r, hand, H);
    for (int i = 0; i < 3; i++) { /* rigid: R^T, -R^T t */
        for (int j = 0; j < 3; j++)
            Hinv[4 * i + j] = H[4 * j + i];
        Hinv[4 * i + 3] = -(H[i] * H[3] + H[4 + i] * H[7] + H[8 + i] * H[11]);
    }
    Hinv[12] = Hinv[13] = Hinv[14] = 0;
    Hinv[15] = 1;
    rt_poly L = rt_piece(r, lf, Hinv), R = rt_piece(r, rf, Hinv);
    double ly = HUGE_VAL, ry = -HUGE_VAL;
    for (int k = 0; k < L.nv; k++)
        ly = fmin(ly, L.v[3 * k + 1]);
    for (int k = 0; k < R.nv; k++)
        ry = fmax(ry, R.v[3 * k + 1]);
    ck_assert(fabs(ly + 0.000132643) < 1e-8 && fabs(ry - 0.000132643) < 1e-8);
    rt_poly_free(&L);
    rt_poly_free(&R);
    /* Every other tested pair: the axis boxes of the world vertices are at
     * least 6 mm apart (the closest: link5 and the right finger). */
    apart_by_boxes(r, pairs, n, 0.006);
    hs_free(pairs);
    /* The automatic skip list takes those three; then the rest pose is
     * free. */
    int *sk, ns;
    ck_assert(hs_robot_auto_skip(r, &sk, &ns, &err) == HS_OK);
    ck_assert_int_eq(ns, 3);
    ck_assert(sk[0] == l5 && sk[1] == l7 && sk[4] == lf && sk[5] == rf);
    hs_free(sk);
    ck_assert_int_eq(hs_robot_pair_skipped(r, l5, hand), HS_ROBOT_REST);
    ck_assert_int_eq(hs_robot_self_collision(r, NULL, NULL, &err), 0);
    /* At the "ready" configuration, fingers 2 cm open, nothing meets: the
     * skip list made there is the adjacent pairs only. */
    hs_robot_free(r);
    r = panda_unskipped("panda_rest_pose_by_hand");
    ck_assert(hs_robot_set_q(r, READY, 8, &err) == HS_OK);
    ck_assert(hs_robot_auto_skip(r, &sk, &ns, &err) == HS_OK);
    ck_assert_int_eq(ns, 0);
    ck_assert_int_eq(hs_robot_skip_count(r), 10);
    hs_robot_free(r);
}
END_TEST

START_TEST(kuka_and_r2d2_rest_pose_by_hand)
{
    const char *p = t_data("kuka_and_r2d2_rest_pose_by_hand", "urdf/kuka_iiwa/model.urdf");
    if (!p)
        return;
    hs_error err;
    hs_robot *r = hs_robot_load(p, NULL, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    /* The iiwa stands straight up at q = 0, its links stacked along z: the
     * skip list is the 7 joined pairs, nothing meets, and the closest two
     * tested links (link5, link7) have z ranges 19 mm apart. */
    ck_assert_int_eq(hs_robot_skip_count(r), 7);
    for (int k = 0; k < 7; k++) {
        int a, b;
        hs_robot_skip_reason why;
        hs_robot_skip_get(r, k, &a, &b, &why, NULL);
        ck_assert(a == k && b == k + 1 && why == HS_ROBOT_ADJACENT);
    }
    ck_assert_int_eq(hs_robot_self_collision(r, NULL, NULL, &err), 0);
    apart_by_boxes(r, NULL, 0, 0.019);
    hs_robot_free(r);

    p = t_data("kuka_and_r2d2_rest_pose_by_hand", "urdf/r2d2.urdf");
    if (!p)
        return;
    hs_robot_options o;
    hs_robot_options_init(&o);
    o.missing_mesh_warns = 1;
    o.auto_skip = 0;
    r = hs_robot_load(p, &o, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    /* The body is a cylinder r 0.17, z -0.3..0.3 (a 24-sided prism around
     * it, reaching 0.1715 along x); a leg hangs from (+-0.22, 0, 0.25) and
     * its foot (right_base, a box 0.1 x 0.4 x 0.1) sits 0.6 below, so the
     * foot's top face is the plane z = 0.25 - 0.6 + 0.05 = -0.3, the body's
     * bottom, and the foot's x range 0.17..0.27 meets the prism's near
     * 0.17..0.1715: faces in contact, touching (the numbers, rounded, meet
     * exactly). */
    hs_robot_pair *pairs;
    int n;
    ck_assert(hs_robot_self_collision_all(r, &pairs, &n, &err) == HS_OK);
    ck_assert_int_eq(n, 2);
    int base = rt_link(r, "base_link");
    ck_assert(pairs[0].a == base && pairs[0].b == rt_link(r, "right_base") &&
              pairs[0].status == HS_TOUCHING);
    ck_assert(pairs[1].a == base && pairs[1].b == rt_link(r, "left_base") &&
              pairs[1].status == HS_TOUCHING);
    rt_poly B = rt_piece(r, base, NULL), F = rt_piece(r, rt_link(r, "right_base"), NULL);
    double bz = HUGE_VAL, fz = -HUGE_VAL, fx = HUGE_VAL, bx = -HUGE_VAL;
    for (int k = 0; k < B.nv; k++) {
        bz = fmin(bz, B.v[3 * k + 2]);
        bx = fmax(bx, B.v[3 * k]);
    }
    for (int k = 0; k < F.nv; k++) {
        fz = fmax(fz, F.v[3 * k + 2]);
        fx = fmin(fx, F.v[3 * k]);
    }
    ck_assert(fabs(bz + 0.3) < 1e-12 && fabs(fz + 0.3) < 1e-12);
    ck_assert(fabs(fx - 0.17) < 1e-12 && bx > 0.1714 && bx < 0.1716);
    rt_poly_free(&B);
    rt_poly_free(&F);
    /* Every other tested pair: boxes at least 7 mm apart (the head, a
     * sphere of 0.16 on top, and the legs). */
    apart_by_boxes(r, pairs, n, 0.007);
    hs_free(pairs);
    ck_assert(hs_robot_auto_skip(r, NULL, NULL, &err) == HS_OK);
    ck_assert_int_eq(hs_robot_self_collision(r, NULL, NULL, &err), 0);
    hs_robot_free(r);
}
END_TEST

/* ------------------------------------------------------------ synthetic */

/* A tree: base -> arm1 -> arm2 (serial, revolute), base -> slider
 * (prismatic) -> tip, base -> wheel (continuous), a mimic joint. */
static const char TREE[] =
    "<?xml version=\"1.0\"?>\n"
    "<robot name=\"tree\">\n"
    "  <link name=\"base\"><collision><geometry><box size=\"1 1 0.2\"/></geometry></collision></link>\n"
    "  <link name=\"arm1\"><collision><origin xyz=\"0 0 0.5\"/><geometry><box size=\"0.1 0.1 1\"/></geometry></collision></link>\n"
    "  <link name=\"arm2\"><collision><origin xyz=\"0 0 0.5\"/><geometry><box size=\"0.1 0.1 1\"/></geometry></collision></link>\n"
    "  <link name=\"slider\"><collision><geometry><box size=\"0.2 0.2 0.2\"/></geometry></collision></link>\n"
    "  <link name=\"tip\"><collision><geometry><sphere radius=\"0.05\"/></geometry></collision></link>\n"
    "  <link name=\"wheel\"><collision><geometry><cylinder radius=\"0.1\" length=\"0.05\"/></geometry></collision></link>\n"
    "  <joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm1\"/>\n"
    "    <origin xyz=\"0 0 0.1\"/><axis xyz=\"0 1 0\"/><limit lower=\"-3\" upper=\"3\"/></joint>\n"
    "  <joint name=\"j2\" type=\"revolute\"><parent link=\"arm1\"/><child link=\"arm2\"/>\n"
    "    <origin xyz=\"0 0 1.05\"/><axis xyz=\"0 1 0\"/><limit lower=\"-3\" upper=\"3\"/></joint>\n"
    "  <joint name=\"s\" type=\"prismatic\"><parent link=\"base\"/><child link=\"slider\"/>\n"
    "    <origin xyz=\"2 0 0\"/><axis xyz=\"1 0 0\"/><limit lower=\"0.5\" upper=\"1\"/></joint>\n"
    "  <joint name=\"t\" type=\"revolute\"><parent link=\"slider\"/><child link=\"tip\"/>\n"
    "    <origin xyz=\"0 0 0.3\"/><axis xyz=\"0 0 1\"/><limit lower=\"0\" upper=\"1\"/>\n"
    "    <mimic joint=\"j1\" multiplier=\"0.5\" offset=\"0.25\"/></joint>\n"
    "  <joint name=\"w\" type=\"continuous\"><parent link=\"base\"/><child link=\"wheel\"/>\n"
    "    <origin xyz=\"-2 0 0\"/><axis xyz=\"0 0 2\"/></joint>\n"
    "</robot>\n";

START_TEST(tree_coordinates_and_mimic)
{
    const char *msg;
    hs_robot *r = rt_load(TREE, ".", NULL, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    /* depth first, children in joint order: base, arm1, arm2, slider, tip,
     * wheel; coordinates j1, j2, s, w (t mimics j1) */
    const char *links[6] = {"base", "arm1", "arm2", "slider", "tip", "wheel"};
    for (int i = 0; i < 6; i++)
        ck_assert_str_eq(hs_robot_link_name(r, i), links[i]);
    ck_assert_int_eq(hs_robot_link_parent(r, 4), 3);
    ck_assert_int_eq(hs_robot_link_parent(r, 0), -1);
    ck_assert_int_eq(hs_robot_dof(r), 4);
    const char *coords[4] = {"j1", "j2", "s", "w"};
    for (int k = 0; k < 4; k++)
        ck_assert_str_eq(hs_robot_joint_name(r, hs_robot_coordinate_joint(r, k)), coords[k]);
    double rest[4];
    hs_robot_rest(r, rest, 4, NULL);
    ck_assert(rest[0] == 0 && rest[1] == 0 && rest[2] == 0.75 && rest[3] == 0); /* s: middle */
    hs_error err;
    double q[4] = {0.5, 0, 0.6, 7.0};
    ck_assert(hs_robot_set_q(r, q, 4, &err) == HS_OK); /* the wheel turns without limits */
    double m[16];
    hs_robot_link_pose(r, rt_link(r, "tip"), m);
    /* tip: slider at x 2 + 0.6, turned by 0.5 * 0.5 + 0.25 = 0.5 about z */
    ck_assert(fabs(m[3] - 2.6) < 1e-15 && fabs(m[11] - 0.3) < 1e-15);
    ck_assert(fabs(m[0] - cos(0.5)) < 1e-15 && fabs(m[4] - sin(0.5)) < 1e-15);
    hs_robot_link_pose(r, rt_link(r, "arm2"), m);
    ck_assert(fabs(m[3] - (0 + 1.05 * sin(0.5))) < 1e-14); /* arm1 turned about y */
    /* by name */
    ck_assert(hs_robot_set_value(r, "j2", -1, &err) == HS_OK);
    double back[4];
    hs_robot_get_q(r, back, 4, NULL);
    ck_assert(back[0] == 0.5 && back[1] == -1 && back[2] == 0.6 && back[3] == 7.0);
    ck_assert(hs_robot_set_value(r, "t", 0.1, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "mimic") != NULL);
    ck_assert(hs_robot_set_value(r, "nope", 0.1, &err) == HS_ERR_ARG);
    ck_assert(hs_robot_set_value(r, "s", 1.5, &err) == HS_ERR_ARG); /* limits */
    q[2] = NAN;
    ck_assert(hs_robot_set_q(r, q, 4, &err) == HS_ERR_ARG);
    ck_assert(hs_robot_set_q(r, q, 3, &err) == HS_ERR_ARG);
    hs_robot_get_q(r, back, 4, NULL); /* unchanged */
    ck_assert(back[2] == 0.6);
    /* geometry: a sphere is a circumscribed icosphere (level 2), a
     * cylinder a 24-sided circumscribed prism */
    ck_assert_int_eq(hs_robot_link_piece_count(r, rt_link(r, "tip")), 1);
    int cv, nv, nf, *fs, *fv;
    double *v;
    ck_assert(hs_robot_link_piece_boundary(r, rt_link(r, "wheel"), 0, &cv, &v, &nv, &fs, &fv, &nf,
                                           NULL) == HS_OK);
    ck_assert(cv && nv == 48 && nf == 26);
    for (int k = 0; k < nv; k++) {
        double rr = hypot(v[3 * k], v[3 * k + 1]);
        ck_assert(rr > 0.1 / cos(M_PI / 24) && rr < 0.1 / cos(M_PI / 24) * (1 + 1e-9));
    }
    hs_free(v);
    hs_free(fs);
    hs_free(fv);
    ck_assert(hs_robot_link_piece_boundary(r, 9, 0, &cv, &v, &nv, &fs, &fv, &nf, &err) ==
              HS_ERR_ARG);
    hs_robot_free(r);
}
END_TEST

START_TEST(floating_and_planar_joints)
{
    const char *xml =
        "<robot name=\"f\">\n"
        "<link name=\"world\"/>\n"
        "<link name=\"body\"><collision><geometry><box size=\"1 1 1\"/></geometry></collision></link>\n"
        "<link name=\"cart\"><collision><geometry><box size=\"1 1 1\"/></geometry></collision></link>\n"
        "<joint name=\"free\" type=\"floating\"><parent link=\"world\"/><child link=\"body\"/></joint>\n"
        "<joint name=\"p\" type=\"planar\"><parent link=\"world\"/><child link=\"cart\"/>\n"
        "  <axis xyz=\"0 0 1\"/></joint>\n"
        "</robot>\n";
    const char *msg;
    hs_robot *r = rt_load(xml, ".", NULL, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    ck_assert_int_eq(hs_robot_dof(r), 0);
    hs_error err;
    /* both at the origin: they overlap (not adjacent: "world" has no
     * geometry, so they are adjacent through it!) */
    ck_assert_int_eq(hs_robot_pair_skipped(r, 1, 2), HS_ROBOT_ADJACENT);
    double m[16], axis[3] = {0, 0, 1}, t[3] = {3, 4, 0};
    hs_pose_from_axis_angle(m, axis, 0.3, t, NULL);
    ck_assert(hs_robot_set_joint_pose(r, hs_robot_joint_find(r, "p"), m, &err) == HS_OK);
    double got[16];
    hs_robot_link_pose(r, 2, got);
    ck_assert(got[3] == 3 && got[7] == 4);
    t[2] = 1; /* off the plane */
    hs_pose_from_axis_angle(m, axis, 0.3, t, NULL);
    ck_assert(hs_robot_set_joint_pose(r, hs_robot_joint_find(r, "p"), m, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "planar") != NULL);
    double tilt[3] = {1, 0, 0};
    hs_pose_from_axis_angle(m, tilt, 0.3, NULL, NULL);
    ck_assert(hs_robot_set_joint_pose(r, hs_robot_joint_find(r, "p"), m, &err) == HS_ERR_ARG);
    ck_assert(hs_robot_set_joint_pose(r, hs_robot_joint_find(r, "free"), m, &err) == HS_OK);
    m[0] = 2; /* not rigid */
    ck_assert(hs_robot_set_joint_pose(r, hs_robot_joint_find(r, "free"), m, &err) == HS_ERR_ARG);
    ck_assert(hs_robot_set_joint_pose(r, 5, m, &err) == HS_ERR_ARG);
    hs_robot_free(r);
}
END_TEST

/* The incremental query against the full one, on random single-joint
 * moves, kept when free and undone when not (as a planner's steps). */
START_TEST(incremental_matches_full)
{
    hs_robot *r = panda_unskipped("incremental_matches_full");
    if (!r)
        return;
    hs_error err;
    ck_assert(hs_robot_set_q(r, READY, 8, &err) == HS_OK);
    ck_assert(hs_robot_auto_skip(r, NULL, NULL, &err) == HS_OK);
    uint64_t s = 7;
    double q[8], lo[8], hi[8];
    memcpy(q, READY, sizeof q);
    for (int k = 0; k < 8; k++)
        hs_robot_coordinate_limits(r, k, &lo[k], &hi[k], NULL);
    int hits = 0;
    for (int it = 0; it < 600; it++) {
        int k = (int)(t_rng_next(&s) % 8);
        double old = q[k];
        q[k] = lo[k] + (hi[k] - lo[k]) * t_rng_unit(&s);
        ck_assert(hs_robot_set_q(r, q, 8, &err) == HS_OK);
        int a = -1, b = -1;
        int hit = hs_robot_self_collision(r, &a, &b, &err);
        hs_robot_pair *pairs;
        int n;
        ck_assert(hs_robot_self_collision_all(r, &pairs, &n, &err) == HS_OK);
        ck_assert_int_eq(hit, n > 0);
        if (hit) {
            int found = 0;
            for (int j = 0; j < n; j++)
                found |= pairs[j].a == a && pairs[j].b == b;
            ck_assert(found);
            q[k] = old;
            hits++;
        }
        hs_free(pairs);
    }
    ck_assert(hits > 10);
    hs_robot_free(r);
}
END_TEST

START_TEST(world_collision_and_distance)
{
    const char *msg;
    hs_robot *r = rt_load(TREE, ".", NULL, &msg);
    ck_assert(r != NULL);
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *wall = hs_world_add_body(w, "wall", 1, &err);
    double size[3] = {0.2, 2, 4}, m[16], t[3] = {0.6, 0, 0};
    hs_pose_from_rt(m, (double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, t);
    hs_body_add_box(wall, size, NULL, &err);
    hs_body_set_pose(wall, m, &err); /* x 0.5..0.7 */
    double q[4] = {0, 0, 0.75, 0};
    /* the base (x -0.5..0.5) touches the wall (x 0.5..0.7); touching counts */
    ck_assert_int_eq(hs_robot_check(r, w, q, 4, &err), 1);
    int link, body;
    ck_assert_int_eq(hs_robot_world_collision(r, w, &link, &body, &err), 1);
    hs_robot_pair *pairs;
    int n;
    ck_assert(hs_robot_world_collision_all(r, w, &pairs, &n, &err) == HS_OK);
    ck_assert_int_eq(n, 1);
    ck_assert(pairs[0].a == 0 && pairs[0].b == -1 && pairs[0].body == 0 &&
              pairs[0].status == HS_TOUCHING);
    hs_free(pairs);
    t[0] = 0.7; /* x 0.6..0.8: 0.1 from the base */
    hs_pose_from_rt(m, (double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, t);
    hs_body_set_pose(wall, m, &err);
    double d, pa[3], pb[3];
    ck_assert(hs_robot_world_distance(r, w, &d, &link, &body, pa, pb, &err) == HS_OK);
    ck_assert(fabs(d - 0.1) < 1e-9 && link == 0 && body == 0);
    ck_assert(fabs(pa[0] - 0.5) < 1e-9 && fabs(pb[0] - 0.6) < 1e-9);
    /* arm1 turned 0.8 rad about y leans the arm (x up to 2.05 sin 0.8 >
     * 1.4) through the wall */
    q[0] = 0.8;
    ck_assert_int_eq(hs_robot_check(r, w, q, 4, &err), 1);
    ck_assert(hs_robot_world_collision_all(r, w, &pairs, &n, &err) == HS_OK);
    ck_assert_int_eq(n, 2);
    ck_assert(pairs[0].a == 1 && pairs[0].status == HS_OVERLAP);
    ck_assert(pairs[1].a == 2 && pairs[1].status == HS_OVERLAP);
    hs_free(pairs);
    ck_assert(hs_robot_world_distance(r, w, &d, &link, &body, pa, pb, &err) == HS_OK);
    ck_assert(d == 0);
    /* argument errors */
    ck_assert_int_eq(hs_robot_world_collision(NULL, w, NULL, NULL, &err), -1);
    ck_assert(hs_robot_world_distance(r, NULL, &d, NULL, NULL, NULL, NULL, &err) == HS_ERR_ARG);
    hs_world_free(w);
    hs_robot_free(r);
}
END_TEST

START_TEST(export_vrml)
{
    const char *msg;
    hs_robot *r = rt_load(TREE, ".", NULL, &msg);
    ck_assert(r != NULL);
    hs_error err;
    char path[64];
    snprintf(path, sizeof path, "/tmp/hs_robot_export_%d.wrl", (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert(hs_robot_export_vrml(r, NULL, f, &err) == HS_OK);
    fclose(f);
    hs_world *w = hs_world_load(path, &err);
    ck_assert_msg(w != NULL, "%s", err.msg);
    ck_assert_int_eq(hs_world_body_count(w), 6);
    ck_assert(hs_world_find_body(w, "arm2") != NULL);
    hs_world_free(w);
    remove(path);
    ck_assert(hs_robot_export_vrml(r, NULL, NULL, &err) == HS_ERR_ARG);
    hs_robot_free(r);
}
END_TEST

Suite *suite_robot(void)
{
    Suite *s = suite_create("robot");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, data_urdfs_load);
    tcase_add_test(tc, panda_rest_pose_by_hand);
    tcase_add_test(tc, kuka_and_r2d2_rest_pose_by_hand);
    tcase_add_test(tc, tree_coordinates_and_mimic);
    tcase_add_test(tc, floating_and_planar_joints);
    tcase_add_test(tc, incremental_matches_full);
    tcase_add_test(tc, world_collision_and_distance);
    tcase_add_test(tc, export_vrml);
    suite_add_tcase(s, tc);
    return s;
}
