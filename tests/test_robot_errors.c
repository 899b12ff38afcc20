/* test_robot_errors.c -- URDF input that is refused, each with its
 * "FILE:LINE: what" (malformed XML, unknown joint types, missing meshes,
 * bad mimic joints, cycles, two roots, sizes over the limits, ...), what
 * is passed over with a warning (xacro, transmissions, unknown elements),
 * and the arguments of the API. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"
#include "tests/robot_helpers.h"

#define HEAD "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" /* lines 1, 2 */
#define BOX "<collision><geometry><box size=\"1 1 1\"/></geometry></collision>"
#define LINK(n) "<link name=\"" n "\">" BOX "</link>\n"
#define JOINT(n, t, p, c)                                                                   \
    "<joint name=\"" n "\" type=\"" t "\"><parent link=\"" p "\"/><child link=\"" c        \
    "\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\"/></joint>\n"

START_TEST(malformed_xml)
{
    rt_fails(HEAD "<link name=\"a\">\n</robot>\n", ".", NULL, HS_ERR_INPUT,
             "t.urdf:5: XML: Premature end of data in tag robot");
    rt_fails("not xml at all", ".", NULL, HS_ERR_INPUT, "t.urdf:1: XML:");
    rt_fails("", ".", NULL, HS_ERR_INPUT, "t.urdf:");
    rt_fails("<?xml version=\"1.0\"?>\n<model/>\n", ".", NULL, HS_ERR_INPUT,
             "t.urdf:2: the root element is <model>, not <robot>");
    rt_fails(HEAD "</robot>\n", ".", NULL, HS_ERR_INPUT, "the robot has no link");
    /* entities are not expanded, external ones never loaded */
    rt_fails("<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"/etc/passwd\">]>\n"
             "<robot name=\"&x;\"><link name=\"a\"/></robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:");
}
END_TEST

START_TEST(bad_joints)
{
    rt_fails(HEAD LINK("a") LINK("b") JOINT("j", "ball", "a", "b") "</robot>\n", ".", NULL,
             HS_ERR_INPUT, "t.urdf:5: joint 'j': unknown joint type 'ball'");
    rt_fails(HEAD LINK("a") LINK("b") "<joint name=\"j\"><parent link=\"a\"/></joint>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:5: <joint name=\"j\"> needs a type");
    rt_fails(HEAD LINK("a") LINK("b")
             "<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/></joint>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:5: joint 'j' needs a <parent link> and a <child link>");
    rt_fails(HEAD LINK("a") LINK("b") JOINT("j", "fixed", "a", "c") "</robot>\n", ".", NULL,
             HS_ERR_INPUT, "t.urdf:5: joint 'j': child link 'c' does not exist");
    rt_fails(HEAD LINK("a") LINK("b") JOINT("j", "fixed", "x", "b") "</robot>\n", ".", NULL,
             HS_ERR_INPUT, "t.urdf:5: joint 'j': parent link 'x' does not exist");
    rt_fails(HEAD LINK("a") LINK("b")
             "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
             "</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:5: joint 'j': a revolute joint needs <limit");
    rt_fails(HEAD LINK("a") LINK("b")
             "<joint name=\"j\" type=\"prismatic\"><parent link=\"a\"/><child link=\"b\"/>\n"
             "<limit lower=\"1\" upper=\"0\"/></joint>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:6: joint 'j': lower limit 1 is above");
    rt_fails(HEAD LINK("a") LINK("b")
             "<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/>\n"
             "<axis xyz=\"0 0 0\"/></joint>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:6: joint 'j': the axis must be nonzero");
    rt_fails(HEAD LINK("a") LINK("b")
             "<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/>\n"
             "<origin xyz=\"1 2\"/></joint>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:6: <origin xyz=\"1 2\">: expected 3 finite numbers");
    rt_fails(HEAD LINK("a") LINK("b")
             "<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/>\n"
             "<origin rpy=\"0 nan 0\"/></joint>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:6: <origin rpy=");
    rt_fails(HEAD LINK("a") LINK("a") "</robot>\n", ".", NULL, HS_ERR_INPUT,
             "t.urdf:4: a second link named 'a' (the first is at line 3)");
    rt_fails(HEAD LINK("a") LINK("b") LINK("c") JOINT("j", "fixed", "a", "b")
             JOINT("j", "fixed", "a", "c") "</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:7: a second joint named 'j'");
    rt_fails(HEAD "<link/>\n</robot>\n", ".", NULL, HS_ERR_INPUT,
             "t.urdf:3: <link> needs a nonempty name attribute");
}
END_TEST

START_TEST(bad_trees)
{
    /* two roots */
    rt_fails(HEAD LINK("a") LINK("b") "</robot>\n", ".", NULL, HS_ERR_INPUT,
             "t.urdf:4: two roots: links 'a' (line 3) and 'b' have no parent joint");
    /* two parents */
    rt_fails(HEAD LINK("a") LINK("b") LINK("c") JOINT("j", "fixed", "a", "c")
             JOINT("k", "fixed", "b", "c") "</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:7: link 'c' has two parent joints, 'j' (line 6)");
    /* a cycle beside a root: a -> b, c -> d -> c */
    rt_fails(HEAD LINK("a") LINK("b") LINK("c") LINK("d") JOINT("j", "fixed", "a", "b")
             JOINT("k", "fixed", "c", "d") JOINT("l", "fixed", "d", "c") "</robot>\n",
             ".", NULL, HS_ERR_INPUT, "is on a cycle of joints");
    /* a cycle and no root at all */
    rt_fails(HEAD LINK("a") LINK("b") JOINT("j", "fixed", "a", "b")
             JOINT("k", "fixed", "b", "a") "</robot>\n",
             ".", NULL, HS_ERR_INPUT, "no root link: the joints form a cycle");
    rt_fails(HEAD LINK("a") JOINT("j", "fixed", "a", "a") "</robot>\n", ".", NULL, HS_ERR_INPUT,
             "t.urdf:4: joint 'j' joins link 'a' to itself");
}
END_TEST

START_TEST(bad_mimics)
{
    const char *base = HEAD LINK("a") LINK("b") LINK("c") JOINT("j", "revolute", "a", "b");
    char xml[2048];
    snprintf(xml, sizeof xml,
             "%s<joint name=\"k\" type=\"revolute\"><parent link=\"a\"/><child link=\"c\"/>\n"
             "<limit lower=\"-1\" upper=\"1\"/><mimic joint=\"%s\"/></joint>\n</robot>\n",
             base, "nope");
    rt_fails(xml, ".", NULL, HS_ERR_INPUT, "t.urdf:8: joint 'k' mimics 'nope', which is not a joint");
    snprintf(xml, sizeof xml,
             "%s<joint name=\"k\" type=\"revolute\"><parent link=\"a\"/><child link=\"c\"/>\n"
             "<limit lower=\"-1\" upper=\"1\"/><mimic joint=\"k\"/></joint>\n</robot>\n",
             base);
    rt_fails(xml, ".", NULL, HS_ERR_INPUT, "joint 'k' mimics itself");
    snprintf(xml, sizeof xml,
             "%s<joint name=\"k\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/>\n"
             "<mimic joint=\"j\"/></joint>\n</robot>\n",
             base);
    rt_fails(xml, ".", NULL, HS_ERR_INPUT, "fixed joint cannot mimic");
    snprintf(xml, sizeof xml,
             "%s<link name=\"d\"/><joint name=\"f\" type=\"fixed\"><parent link=\"a\"/>"
             "<child link=\"d\"/></joint>\n"
             "<joint name=\"k\" type=\"revolute\"><parent link=\"a\"/><child link=\"c\"/>\n"
             "<limit lower=\"-1\" upper=\"1\"/><mimic joint=\"f\"/></joint>\n</robot>\n",
             base);
    rt_fails(xml, ".", NULL, HS_ERR_INPUT, "fixed joint cannot be mimicked");
    /* two <mimic> elements in one joint (found by the URDF fuzzer: the
     * second used to replace the first's name, which leaked) */
    snprintf(xml, sizeof xml,
             "%s<joint name=\"k\" type=\"revolute\"><parent link=\"a\"/><child link=\"c\"/>\n"
             "<limit lower=\"-1\" upper=\"1\"/><mimic joint=\"j\"/>\n<mimic joint=\"j\"/></joint>\n"
             "</robot>\n",
             base);
    rt_fails(xml, ".", NULL, HS_ERR_INPUT, "t.urdf:9: joint 'k' has two <mimic> elements");
    /* a cycle of mimics: j mimics k, k mimics j */
    rt_fails(HEAD LINK("a") LINK("b") LINK("c")
             "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>"
             "<limit lower=\"-1\" upper=\"1\"/><mimic joint=\"k\"/></joint>\n"
             "<joint name=\"k\" type=\"revolute\"><parent link=\"a\"/><child link=\"c\"/>"
             "<limit lower=\"-1\" upper=\"1\"/><mimic joint=\"j\"/></joint>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "the mimic joints form a cycle");
    snprintf(xml, sizeof xml,
             "%s<joint name=\"k\" type=\"revolute\"><parent link=\"a\"/><child link=\"c\"/>\n"
             "<limit lower=\"-1\" upper=\"1\"/><mimic joint=\"j\" multiplier=\"x\"/></joint>\n"
             "</robot>\n",
             base);
    rt_fails(xml, ".", NULL, HS_ERR_INPUT, "t.urdf:8: <mimic multiplier=\"x\">");
    /* a chain of mimics resolves to its end: m = 2 (3 q + 1) - 1 */
    hs_robot *r = rt_load(HEAD LINK("a") LINK("b") LINK("c") LINK("d")
                          JOINT("j", "revolute", "a", "b")
                          "<joint name=\"k\" type=\"revolute\"><parent link=\"a\"/><child "
                          "link=\"c\"/><limit lower=\"-9\" upper=\"9\"/>"
                          "<mimic joint=\"j\" multiplier=\"3\" offset=\"1\"/></joint>\n"
                          "<joint name=\"m\" type=\"continuous\"><parent link=\"a\"/><child "
                          "link=\"d\"/><mimic joint=\"k\" multiplier=\"2\" offset=\"-1\"/></joint>\n"
                          "</robot>\n",
                          ".", NULL, NULL);
    ck_assert(r != NULL);
    double mult, off;
    ck_assert_int_eq(hs_robot_joint_mimic(r, hs_robot_joint_find(r, "m"), &mult, &off),
                     hs_robot_joint_find(r, "j"));
    ck_assert(mult == 6 && off == 1);
    ck_assert_int_eq(hs_robot_dof(r), 1);
    hs_robot_free(r);
}
END_TEST

START_TEST(bad_geometry)
{
    rt_fails(HEAD "<link name=\"a\"><collision><geometry/></collision></link>\n</robot>\n", ".",
             NULL, HS_ERR_INPUT, "t.urdf:3: <geometry> holds no shape");
    rt_fails(HEAD "<link name=\"a\"><collision>\n<geometry><cone radius=\"1\"/></geometry>"
             "</collision></link>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:4: unknown geometry <cone>");
    rt_fails(HEAD "<link name=\"a\"><collision><origin/></collision></link>\n</robot>\n", ".",
             NULL, HS_ERR_INPUT, "t.urdf:3: <collision> without <geometry>");
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<box size=\"1 0 1\"/></geometry>"
             "</collision></link>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:4: <box>: the sizes must be positive");
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<box/></geometry>"
             "</collision></link>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:4: <box> needs the attribute size");
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<sphere radius=\"-1\"/></geometry>"
             "</collision></link>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:4: <sphere>: the radius must be positive");
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<cylinder radius=\"1\" length=\"0\"/>"
             "</geometry></collision></link>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:4: <cylinder>: the radius must be positive");
    rt_fails(HEAD "<link name=\"a\"><collision><geometry><box size=\"1 1 1\"/>\n<box "
             "size=\"1 1 1\"/></geometry></collision></link>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:4: <geometry> holds more than one shape");
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<box size=\"1e308 1e308 1e308\"/>"
             "</geometry></collision></link>\n</robot>\n",
             ".", NULL, HS_ERR_INPUT, "t.urdf:4:");
}
END_TEST

START_TEST(missing_and_bad_meshes)
{
    const char *dir = rt_dir();
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<mesh filename=\"nope.stl\"/>"
             "</geometry></collision></link>\n</robot>\n",
             dir, NULL, HS_ERR_INPUT, "t.urdf:4: mesh 'nope.stl' not found (looked for");
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<mesh filename=\"package://pkg/m.stl\"/>"
             "</geometry></collision></link>\n</robot>\n",
             dir, NULL, HS_ERR_INPUT, "t.urdf:4: mesh 'package://pkg/m.stl' not found");
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<mesh/></geometry></collision></link>\n"
             "</robot>\n",
             dir, NULL, HS_ERR_INPUT, "t.urdf:4: <mesh> needs a nonempty filename attribute");
    /* a mesh file that is not one: both readers refuse it */
    rt_write(dir, "bad.obj", "v 0 0 0\nv 1 0 0\nf 1 2 7\n");
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<mesh filename=\"bad.obj\"/>"
             "</geometry></collision></link>\n</robot>\n",
             dir, NULL, HS_ERR_INPUT, "t.urdf:4: mesh 'bad.obj':");
    /* a flat mesh has no solid hull */
    rt_write(dir, "flat.off", "OFF\n4 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n");
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<mesh filename=\"flat.off\"/>"
             "</geometry></collision></link>\n</robot>\n",
             dir, NULL, HS_ERR_INPUT, "t.urdf:4: mesh 'flat.off':");
    /* ... but kept as a mesh it is fine */
    hs_robot_options o;
    hs_robot_options_init(&o);
    o.mesh_as_hull = 0;
    const char *msg;
    hs_robot *r = rt_load(HEAD "<link name=\"a\"><collision><geometry>\n<mesh "
                          "filename=\"flat.off\"/></geometry></collision></link>\n</robot>\n",
                          dir, &o, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    hs_robot_free(r);
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<mesh filename=\"flat.off\" "
             "scale=\"1 0\"/></geometry></collision></link>\n</robot>\n",
             dir, NULL, HS_ERR_INPUT, "t.urdf:4: <mesh scale=\"1 0\">: expected 1 or 3");
    rt_fails(HEAD "<link name=\"a\"><collision><geometry>\n<mesh filename=\"flat.off\" "
             "scale=\"1 0 1\"/></geometry></collision></link>\n</robot>\n",
             dir, NULL, HS_ERR_INPUT, "a scale of 0 flattens the mesh");
    rt_rmdir(dir);
}
END_TEST

START_TEST(hostile_sizes)
{
    /* more links than allowed */
    char *xml = malloc(1 << 20);
    int n = snprintf(xml, 1 << 20, HEAD);
    for (int i = 0; i < 40; i++)
        n += snprintf(xml + n, (size_t)((1 << 20) - n), "<link name=\"l%d\"/>\n", i);
    snprintf(xml + n, (size_t)((1 << 20) - n), "</robot>\n");
    hs_robot_options o;
    hs_robot_options_init(&o);
    o.max_links = 30;
    rt_fails(xml, ".", &o, HS_ERR_INPUT, "t.urdf:33: more than 30 links (the limit)");
    /* a file over the size limit */
    o.max_links = 10000;
    o.max_file_bytes = 100;
    rt_fails(xml, ".", &o, HS_ERR_INPUT, "bytes, more than the limit of 100");
    const char *path = t_temp_file("hs_robot_big", xml);
    hs_error err;
    ck_assert(hs_robot_load(path, &o, &err) == NULL);
    ck_assert_msg(strstr(err.msg, "more than the limit of 100") != NULL, "%s", err.msg);
    remove(path);
    /* deep nesting: libxml2 refuses more than 256 levels */
    n = snprintf(xml, 1 << 20, HEAD "<link name=\"a\"/>");
    for (int i = 0; i < 2000; i++)
        n += snprintf(xml + n, (size_t)((1 << 20) - n), "<x>");
    for (int i = 0; i < 2000; i++)
        n += snprintf(xml + n, (size_t)((1 << 20) - n), "</x>");
    snprintf(xml + n, (size_t)((1 << 20) - n), "</robot>\n");
    rt_fails(xml, ".", NULL, HS_ERR_INPUT, "t.urdf:3: XML:");
    /* a chain of 3000 links loads and is walked without recursion */
    n = snprintf(xml, 1 << 20, HEAD "<link name=\"l0\"/>\n");
    for (int i = 1; i < 3000; i++)
        n += snprintf(xml + n, (size_t)((1 << 20) - n),
                      "<link name=\"l%d\"/><joint name=\"j%d\" type=\"fixed\"><parent "
                      "link=\"l%d\"/><child link=\"l%d\"/></joint>\n",
                      i, i, i - 1, i);
    snprintf(xml + n, (size_t)((1 << 20) - n), "</robot>\n");
    const char *msg;
    hs_robot *r = rt_load(xml, ".", NULL, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    ck_assert_int_eq(hs_robot_link_count(r), 3000);
    hs_robot_free(r);
    free(xml);
    /* bad options */
    hs_robot_options_init(&o);
    o.cylinder_sides = 2;
    rt_fails(HEAD LINK("a") "</robot>\n", ".", &o, HS_ERR_ARG, "cylinder_sides");
    hs_robot_options_init(&o);
    o.sphere_level = 9;
    rt_fails(HEAD LINK("a") "</robot>\n", ".", &o, HS_ERR_ARG, "sphere_level");
}
END_TEST

START_TEST(warnings_not_silent)
{
    const char *xml =
        "<?xml version=\"1.0\"?>\n"
        "<robot name=\"w\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
        "  <xacro:property name=\"x\" value=\"1\"/>\n"
        "  <link name=\"a\">" BOX "\n"
        "    <contact/>\n"
        "  </link>\n"
        "  <transmission name=\"t\"/>\n"
        "  <gazebo/>\n"
        "  <material name=\"m\"/>\n"
        "  <sensor/>\n"
        "</robot>\n";
    const char *msg;
    hs_robot *r = rt_load(xml, ".", NULL, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    ck_assert_int_eq(hs_robot_warning_count(r), 5);
    ck_assert_str_eq(hs_robot_warning(r, 0), "t.urdf:3: xacro element <xacro:property> ignored "
                                             "(expand the file with xacro first)");
    ck_assert_str_eq(hs_robot_warning(r, 1), "t.urdf:5: element <contact> in <link> ignored");
    ck_assert_str_eq(hs_robot_warning(r, 2), "t.urdf:7: <transmission> ignored (not needed for "
                                             "collision)");
    ck_assert_str_eq(hs_robot_warning(r, 3), "t.urdf:8: <gazebo> ignored (not needed for "
                                             "collision)");
    ck_assert_str_eq(hs_robot_warning(r, 4), "t.urdf:10: element <sensor> in <robot> ignored");
    ck_assert(hs_robot_warning(r, 5) == NULL);
    ck_assert_str_eq(hs_robot_name(r), "w");
    hs_robot_free(r);
}
END_TEST

START_TEST(api_arguments)
{
    hs_error err;
    ck_assert(hs_robot_load(NULL, NULL, &err) == NULL && err.code == HS_ERR_ARG);
    ck_assert(hs_robot_load("/nonexistent/r.urdf", NULL, &err) == NULL && err.code == HS_ERR_IO);
    ck_assert(hs_robot_load_string(NULL, NULL, NULL, NULL, &err) == NULL);
    hs_robot_free(NULL);
    ck_assert_int_eq(hs_robot_link_count(NULL), 0);
    ck_assert_int_eq(hs_robot_dof(NULL), 0);
    ck_assert(hs_robot_link_name(NULL, 0) == NULL);
    ck_assert_str_eq(hs_robot_name(NULL), "");
    ck_assert_int_eq(hs_robot_self_collision(NULL, NULL, NULL, &err), -1);
    ck_assert(hs_robot_set_q(NULL, NULL, 0, &err) == HS_ERR_ARG);
    ck_assert(hs_robot_skip_pair(NULL, 0, 1, 1, &err) == HS_ERR_ARG);
    ck_assert_int_eq(hs_robot_pair_skipped(NULL, 0, 1), HS_ROBOT_TESTED);
    ck_assert_str_eq(hs_robot_joint_type_name(HS_ROBOT_PLANAR), "planar");
    ck_assert_str_eq(hs_robot_joint_type_name((hs_robot_joint_kind)99), "unknown");
    ck_assert_str_eq(hs_robot_skip_reason_name(HS_ROBOT_REST), "rest");
    double m[16];
    hs_robot_link_pose(NULL, 0, m);
    ck_assert(m[0] == 1 && m[3] == 0);
    const char *msg;
    hs_robot *r = rt_load(HEAD LINK("a") LINK("b") LINK("c") JOINT("j", "revolute", "a", "b")
                          JOINT("k", "revolute", "b", "c") "</robot>\n",
                          ".", NULL, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    /* a and c overlap (unit boxes at one place): skipped at rest */
    ck_assert_int_eq(hs_robot_pair_skipped(r, 0, 2), HS_ROBOT_REST);
    ck_assert(hs_robot_skip_pair(r, 0, 2, 0, &err) == HS_OK); /* test it again */
    ck_assert_int_eq(hs_robot_self_collision(r, NULL, NULL, &err), 1);
    ck_assert(hs_robot_skip_pair(r, 2, 0, 1, &err) == HS_OK);
    ck_assert_int_eq(hs_robot_pair_skipped(r, 0, 2), HS_ROBOT_USER);
    ck_assert_int_eq(hs_robot_self_collision(r, NULL, NULL, &err), 0);
    ck_assert(hs_robot_skip_pair(r, 0, 1, 0, &err) == HS_OK); /* adjacent stays */
    ck_assert_int_eq(hs_robot_pair_skipped(r, 0, 1), HS_ROBOT_ADJACENT);
    ck_assert(hs_robot_skip_pair(r, 0, 0, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_robot_skip_pair(r, 0, 3, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_robot_skip_get(r, 9, NULL, NULL, NULL, &err) == HS_ERR_ARG);
    ck_assert(hs_robot_coordinate_limits(r, 2, NULL, NULL, &err) == HS_ERR_ARG);
    ck_assert_int_eq(hs_robot_coordinate_joint(r, 2), -1);
    ck_assert_int_eq(hs_robot_joint_coordinate(r, 7), -1);
    ck_assert_int_eq(hs_robot_joint_mimic(r, 0, NULL, NULL), -1);
    double q[2];
    ck_assert(hs_robot_rest(r, q, 3, &err) == HS_ERR_ARG);
    ck_assert(hs_robot_get_q(r, q, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_robot_set_base(r, NULL, &err) == HS_ERR_ARG);
    double b[16], t[3] = {5, 0, 0};
    hs_pose_from_rt(b, (double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, t);
    ck_assert(hs_robot_set_base(r, b, &err) == HS_OK);
    hs_robot_link_pose(r, 2, m);
    ck_assert(m[3] == 5);
    hs_robot_free(r);
}
END_TEST

Suite *suite_robot_errors(void)
{
    Suite *s = suite_create("robot_errors");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, malformed_xml);
    tcase_add_test(tc, bad_joints);
    tcase_add_test(tc, bad_trees);
    tcase_add_test(tc, bad_mimics);
    tcase_add_test(tc, bad_geometry);
    tcase_add_test(tc, missing_and_bad_meshes);
    tcase_add_test(tc, hostile_sizes);
    tcase_add_test(tc, warnings_not_silent);
    tcase_add_test(tc, api_arguments);
    suite_add_tcase(s, tc);
    return s;
}
