/* test_robot_meshes.c -- URDF collision meshes: STL, OBJ and OFF by the
 * scene readers, PLY, Collada (its unit applied, its up axis ignored) and
 * glTF through Assimp; scale; package:// through the package_path option
 * and ROS_PACKAGE_PATH, file:// and relative paths; meshes kept as meshes
 * against their hulls. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/helpers.h"
#include "tests/robot_helpers.h"

/* A tetrahedron (0,0,0) (1,0,0) (0,1,0) (0,0,2) in five formats. */
static const char TET_OFF[] = "OFF\n4 4 0\n0 0 0\n1 0 0\n0 1 0\n0 0 2\n"
                              "3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";
static const char TET_OBJ[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 2\n"
                              "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
static const char TET_STL[] =
    "solid t\n"
    "facet normal 0 0 -1\nouter loop\nvertex 0 0 0\nvertex 0 1 0\nvertex 1 0 0\nendloop\nendfacet\n"
    "facet normal 0 -1 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 0 2\nendloop\nendfacet\n"
    "facet normal -1 0 0\nouter loop\nvertex 0 0 0\nvertex 0 0 2\nvertex 0 1 0\nendloop\nendfacet\n"
    "facet normal 1 1 1\nouter loop\nvertex 1 0 0\nvertex 0 1 0\nvertex 0 0 2\nendloop\nendfacet\n"
    "endsolid t\n";
static const char TET_PLY[] = "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\n"
                              "property float y\nproperty float z\nelement face 4\n"
                              "property list uchar int vertex_indices\nend_header\n"
                              "0 0 0\n1 0 0\n0 1 0\n0 0 2\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";
/* in millimetres, Z up: Assimp scales by the unit; the up axis is ignored */
static const char TET_DAE[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
    "<asset><unit name=\"millimeter\" meter=\"0.001\"/><up_axis>Z_UP</up_axis></asset>\n"
    "<library_geometries><geometry id=\"g\"><mesh>\n"
    "<source id=\"p\"><float_array id=\"pa\" count=\"12\">0 0 0 1000 0 0 0 1000 0 0 0 2000"
    "</float_array>\n<technique_common><accessor source=\"#pa\" count=\"4\" stride=\"3\">"
    "<param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/>"
    "<param name=\"Z\" type=\"float\"/></accessor></technique_common></source>\n"
    "<vertices id=\"v\"><input semantic=\"POSITION\" source=\"#p\"/></vertices>\n"
    "<triangles count=\"4\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/>"
    "<p>0 2 1 0 1 3 0 3 2 1 2 3</p></triangles>\n"
    "</mesh></geometry></library_geometries>\n"
    "<library_visual_scenes><visual_scene id=\"s\"><node id=\"n\">"
    "<instance_geometry url=\"#g\"/></node></visual_scene></library_visual_scenes>\n"
    "<scene><instance_visual_scene url=\"#s\"/></scene>\n</COLLADA>\n";
static const char TET_GLTF[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},"
    "\"indices\":1}]}],\"buffers\":[{\"byteLength\":72,\"uri\":\"data:application/"
    "octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAABAAAACA"
    "AEAAAABAAMAAAADAAIAAQACAAMA\"}],\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,"
    "\"byteLength\":48},{\"buffer\":0,\"byteOffset\":48,\"byteLength\":24}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\","
    "\"min\":[0,0,0],\"max\":[1,1,2]},{\"bufferView\":1,\"componentType\":5123,\"count\":12,"
    "\"type\":\"SCALAR\"}]}\n";

static char urdf[4096];

/* A one-link robot whose collision is the mesh `file` (with a scale
 * attribute when scale is not NULL), placed at xyz 10 0 0. */
static const char *one_mesh(const char *file, const char *scale)
{
    snprintf(urdf, sizeof urdf,
             "<robot name=\"m\"><link name=\"a\"><collision><origin xyz=\"10 0 0\"/><geometry>"
             "<mesh filename=\"%s\"%s%s%s/></geometry></collision></link></robot>\n",
             file, scale ? " scale=\"" : "", scale ? scale : "", scale ? "\"" : "");
    return urdf;
}

/* The piece's vertices must be the tetrahedron scaled by s, moved by 10
 * along x: the box of its vertices. */
static void expect_tet(const hs_robot *r, double sx, double sy, double sz)
{
    int cv, nv, nf, *fs, *fv;
    double *v;
    ck_assert(hs_robot_link_piece_boundary(r, 0, 0, &cv, &v, &nv, &fs, &fv, &nf, NULL) == HS_OK);
    ck_assert_int_eq(nv, 4);
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int k = 0; k < nv; k++)
        for (int d = 0; d < 3; d++) {
            lo[d] = fmin(lo[d], v[3 * k + d]);
            hi[d] = fmax(hi[d], v[3 * k + d]);
        }
    ck_assert_msg(fabs(lo[0] - 10) < 1e-12 && fabs(hi[0] - (10 + sx)) < 1e-6 && lo[1] == 0 &&
                      fabs(hi[1] - sy) < 1e-6 && lo[2] == 0 && fabs(hi[2] - 2 * sz) < 1e-6,
                  "box %g..%g %g..%g %g..%g", lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
    hs_free(v);
    hs_free(fs);
    hs_free(fv);
}

START_TEST(mesh_formats)
{
    const char *dir = rt_dir();
    const char *names[6] = {"t.off", "t.obj", "t.stl", "t.ply", "t.dae", "t.gltf"};
    const char *texts[6] = {TET_OFF, TET_OBJ, TET_STL, TET_PLY, TET_DAE, TET_GLTF};
    for (int k = 0; k < 6; k++) {
        rt_write(dir, names[k], texts[k]);
        const char *msg;
        hs_robot *r = rt_load(one_mesh(names[k], NULL), dir, NULL, &msg);
        ck_assert_msg(r != NULL, "%s: %s", names[k], msg);
        expect_tet(r, 1, 1, 1);
        ck_assert_int_eq(hs_robot_warning_count(r), 0);
        hs_robot_free(r);
        /* scale: one number, or three */
        r = rt_load(one_mesh(names[k], "2 3 0.5"), dir, NULL, &msg);
        ck_assert_msg(r != NULL, "%s: %s", names[k], msg);
        expect_tet(r, 2, 3, 0.5);
        hs_robot_free(r);
        r = rt_load(one_mesh(names[k], "0.25"), dir, NULL, &msg);
        expect_tet(r, 0.25, 0.25, 0.25);
        hs_robot_free(r);
    }
    /* an OBJ the scene reader refuses (a bevel statement, which
     * Assimp passes over) goes to Assimp, with a warning naming why */
    rt_write(dir, "l.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 2\nbevel off\nf 1 3 2\nf 1 2 4\n"
                           "f 1 4 3\nf 2 3 4\n");
    const char *msg;
    hs_robot *r = rt_load(one_mesh("l.obj", NULL), dir, NULL, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    expect_tet(r, 1, 1, 1);
    ck_assert_int_eq(hs_robot_warning_count(r), 1);
    ck_assert_msg(strstr(hs_robot_warning(r, 0), "t.urdf:1: mesh 'l.obj':") != NULL &&
                      strstr(hs_robot_warning(r, 0), "OBJ statement 'bevel' is not supported; read "
                                                     "by Assimp instead (float coordinates)"),
                  "%s", hs_robot_warning(r, 0));
    hs_robot_free(r);
    /* an unknown format */
    rt_write(dir, "t.xyz", "garbage\n");
    rt_fails(one_mesh("t.xyz", NULL), dir, NULL, HS_ERR_INPUT, "Assimp cannot read it");
    rt_rmdir(dir);
}
END_TEST

START_TEST(mesh_paths)
{
    const char *dir = rt_dir();
    char path[512], d2[512];
    snprintf(path, sizeof path, "%s/ws/src/mypkg/meshes", dir);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s/other/mypkg' '%s/ws/src/mypkg/urdf'", path, dir,
             dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(d2, sizeof d2, "%s/ws/src/mypkg/meshes/t.off", dir);
    FILE *f = fopen(d2, "w");
    fputs(TET_OFF, f);
    fclose(f);
    /* package:// through the option (FOLDER/NAME/REST) */
    hs_robot_options o;
    hs_robot_options_init(&o);
    o.ros_package_path = 0;
    snprintf(path, sizeof path, "%s/other:%s/ws/src", dir, dir);
    o.package_path = path;
    const char *msg;
    hs_robot *r = rt_load(one_mesh("package://mypkg/meshes/t.off", NULL), "/", &o, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    expect_tet(r, 1, 1, 1);
    hs_robot_free(r);
    /* through ROS_PACKAGE_PATH, a workspace's packages one level down */
    o.package_path = NULL;
    o.ros_package_path = 1;
    snprintf(path, sizeof path, "/nonexistent:%s/ws", dir);
    setenv("ROS_PACKAGE_PATH", path, 1);
    r = rt_load(one_mesh("package://mypkg/meshes/t.off", NULL), "/", &o, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    hs_robot_free(r);
    o.ros_package_path = 0; /* not searched when turned off */
    rt_fails(one_mesh("package://mypkg/meshes/t.off", NULL), "/", &o, HS_ERR_INPUT,
             "not found");
    unsetenv("ROS_PACKAGE_PATH");
    /* the URDF's folder and its parents: NAME/urdf/robot.urdf */
    snprintf(path, sizeof path, "%s/ws/src/mypkg/urdf", dir);
    r = rt_load(one_mesh("package://mypkg/meshes/t.off", NULL), path, &o, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    hs_robot_free(r);
    /* file:// (absolute), an absolute path, a relative one */
    char spec[600];
    snprintf(spec, sizeof spec, "file://%s", d2);
    r = rt_load(one_mesh(spec, NULL), "/", &o, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    hs_robot_free(r);
    r = rt_load(one_mesh(d2, NULL), "/", &o, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    hs_robot_free(r);
    snprintf(path, sizeof path, "%s/ws/src", dir);
    r = rt_load(one_mesh("mypkg/meshes/t.off", NULL), path, &o, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    hs_robot_free(r);
    /* a missing one, as a warning when allowed */
    o.missing_mesh_warns = 1;
    r = rt_load(one_mesh("package://nopkg/t.off", NULL), path, &o, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    ck_assert_int_eq(hs_robot_link_piece_count(r, 0), 0);
    ck_assert_int_eq(hs_robot_warning_count(r), 1);
    ck_assert(strstr(hs_robot_warning(r, 0), "mesh 'package://nopkg/t.off' not found") != NULL);
    hs_robot_free(r);
    rt_rmdir(dir);
}
END_TEST

/* A U-shaped mesh (a box with a slot cut from its top) and a small box
 * in the slot: apart when the mesh is kept, overlapping its hull. */
START_TEST(mesh_kept_or_hull)
{
    const char *dir = rt_dir();
    /* the U: x 0..3, y 0..1, z 0..2, the slot x 1..2, z 1..2 */
    rt_write(dir, "u.obj",
             "v 0 0 0\nv 3 0 0\nv 3 1 0\nv 0 1 0\n"         /* 1-4 bottom */
             "v 0 0 2\nv 1 0 2\nv 1 0 1\nv 2 0 1\nv 2 0 2\nv 3 0 2\n" /* 5-10 front, y 0 */
             "v 0 1 2\nv 1 1 2\nv 1 1 1\nv 2 1 1\nv 2 1 2\nv 3 1 2\n" /* 11-16 back, y 1 */
             "f 1 4 3 2\n"                                    /* bottom */
             "f 1 2 10 9 8 7 6 5\n"                           /* front */
             "f 4 11 12 13 14 15 16 3\n"                      /* back */
             "f 1 5 11 4\nf 2 3 16 10\n"                      /* ends */
             "f 5 6 12 11\nf 9 10 16 15\n"                    /* tops */
             "f 6 7 13 12\nf 7 8 14 13\nf 8 9 15 14\n");      /* the slot */
    const char *xml =
        "<robot name=\"u\">\n"
        "<link name=\"base\"><collision><geometry><mesh filename=\"u.obj\"/></geometry>"
        "</collision></link>\n"
        "<link name=\"slider\"><collision><geometry><box size=\"0.5 0.5 0.5\"/></geometry>"
        "</collision></link>\n"
        "<joint name=\"s\" type=\"prismatic\"><parent link=\"base\"/><child link=\"slider\"/>\n"
        "<origin xyz=\"1.5 0.5 1.5\"/><axis xyz=\"0 0 1\"/><limit lower=\"-0.3\" upper=\"2\"/>"
        "</joint>\n"
        "<link name=\"lid\"><collision><origin xyz=\"1.5 0.5 3\"/><geometry><box size=\"1 1 1\"/>"
        "</geometry></collision></link>\n"
        "<joint name=\"f\" type=\"fixed\"><parent link=\"base\"/><child link=\"lid\"/></joint>\n"
        "</robot>\n";
    hs_robot_options o;
    hs_robot_options_init(&o);
    o.auto_skip = 0;
    const char *msg;
    hs_robot *hull = rt_load(xml, dir, &o, &msg);
    ck_assert_msg(hull != NULL, "%s", msg);
    o.mesh_as_hull = 0;
    hs_robot *mesh = rt_load(xml, dir, &o, &msg);
    ck_assert_msg(mesh != NULL, "%s", msg);
    ck_assert_int_eq(hs_robot_link_piece_count(mesh, 0), 1);
    /* base and slider are adjacent: test the slider against the lid's
     * frame instead: make it a world body */
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *b = hs_world_add_body(w, "cube", 1, &err);
    double size[3] = {0.5, 0.5, 0.5}, m[16], t[3] = {1.5, 0.5, 1.6};
    hs_body_add_box(b, size, NULL, &err);
    hs_pose_from_rt(m, (double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, t);
    hs_body_set_pose(b, m, &err);
    ck_assert_int_eq(hs_robot_world_collision(hull, w, NULL, NULL, &err), 1);
    ck_assert_int_eq(hs_robot_world_collision(mesh, w, NULL, NULL, &err), 1); /* the slider */
    double q = 1; /* slider up out of the way: z 2.25..2.75 */
    ck_assert(hs_robot_set_q(hull, &q, 1, &err) == HS_OK);
    ck_assert(hs_robot_set_q(mesh, &q, 1, &err) == HS_OK);
    int link = -1;
    ck_assert_int_eq(hs_robot_world_collision(hull, w, &link, NULL, &err), 1);
    ck_assert_int_eq(link, 0); /* the hull of the U covers the slot */
    ck_assert_int_eq(hs_robot_world_collision(mesh, w, NULL, NULL, &err), 0);
    /* distance: 0.1 from the cube (x 1.25..1.75) to the slot's wall at x 1 */
    double d;
    ck_assert(hs_robot_world_distance(mesh, w, &d, &link, NULL, NULL, NULL, &err) == HS_OK);
    ck_assert_msg(fabs(d - 0.25) < 1e-9 && link == 0, "d %g link %d", d, link);
    /* self: the lid (above the slot, z 2.5..3.5) and the slider at z up
     * to 2.75 */
    ck_assert_int_eq(hs_robot_self_collision(mesh, NULL, NULL, &err), 1);
    q = 0.5;
    ck_assert(hs_robot_set_q(mesh, &q, 1, &err) == HS_OK);
    ck_assert_int_eq(hs_robot_self_collision(mesh, NULL, NULL, &err), 0);
    hs_world_free(w);
    hs_robot_free(hull);
    hs_robot_free(mesh);
    rt_rmdir(dir);
}
END_TEST

Suite *suite_robot_meshes(void)
{
    Suite *s = suite_create("robot_meshes");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, mesh_formats);
    tcase_add_test(tc, mesh_paths);
    tcase_add_test(tc, mesh_kept_or_hull);
    suite_add_tcase(s, tc);
    return s;
}
