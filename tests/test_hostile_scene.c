/* test_hostile_scene.c -- hostile scene files (issue 14): VRML that
 * expands without bound from a small file (doubling DEF / USE, doubling
 * USE of spheres, doubling PROTO), Inline reading /dev/zero or files
 * outside the scene's folder and echoing their text, sides that exhaust
 * memory, and every limit of hs_scene_options with its error.  The files
 * are written by the tests into a temporary folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/helpers.h"

/* tmp/ (the folder) and tmp/scene/ (where the scenes are). */
static char scene_tmp[64];

static void scene_setup(void)
{
    t_temp_dir(scene_tmp, sizeof scene_tmp, "hs-hscene-");
    char sub[96];
    snprintf(sub, sizeof sub, "%s/scene", scene_tmp);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
}

static void scene_teardown(void)
{
    t_remove_dir(scene_tmp);
}

/* Path of <rel> below the temporary folder. */
static const char *tpath(const char *rel)
{
    static char path[4][256];
    static int turn;
    char *p = path[turn++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", scene_tmp, rel);
    return p;
}

static void put(const char *rel, const char *text)
{
    FILE *f = fopen(tpath(rel), "w");
    ck_assert(f != NULL);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* Load rel with options o (NULL: defaults): HS_OK, or the code with the
 * message in err; *seconds the time it took. */
static hs_code load_opts(const char *rel, const hs_scene_options *o, hs_error *err,
                         double *seconds)
{
    hs_world *w = hs_world_new();
    double t0 = t_seconds();
    hs_error_clear(err);
    hs_code rc = hs_world_add_file_opts(w, tpath(rel), o, err);
    if (seconds)
        *seconds = t_seconds() - t0;
    hs_world_free(w);
    return rc;
}

/* A failed load in well under a second whose message holds `want`. */
static void expect_fast_error(const char *rel, const hs_scene_options *o, const char *want)
{
    hs_error err;
    double t;
    ck_assert_int_eq(load_opts(rel, o, &err, &t), HS_ERR_INPUT);
    EXPECT(strstr(err.msg, want) != NULL, "%s: '%s' lacks '%s'", rel, err.msg, want);
    EXPECT(t < 5.0, "%s: %.2f s", rel, t); /* (the runaway files took minutes) */
}

/* ------------------------------------------------------------ expansion */

/* Doubling levels of "DEF Sk Group { children [ USE Sk-1 USE Sk-1 ] }"
 * over S0 = first, into a file of `levels` levels. */
static void write_doubling(const char *rel, const char *first, int levels)
{
    size_t cap = strlen(first) + 80 * (size_t)levels + 64;
    char *text = malloc(cap);
    ck_assert(text != NULL);
    int at = snprintf(text, cap, "#VRML V2.0 utf8\nDEF S0 %s\n", first);
    for (int i = 1; i < levels; i++)
        at += snprintf(text + at, cap - (size_t)at,
                       "DEF S%d Group { children [ USE S%d USE S%d ] }\n", i, i - 1, i - 1);
    put(rel, text);
    free(text);
}

/* A 436 KB file of doubling DEF / USE over a large face set reached 8 GB:
 * the pieces and points are now counted before anything is built. */
START_TEST(doubling_def_use_fails_at_once)
{
    size_t cap = 400000;
    char *ifs = malloc(cap);
    ck_assert(ifs != NULL);
    int at = snprintf(ifs, cap, "Shape { geometry IndexedFaceSet { convex FALSE coord "
                                "Coordinate { point [");
    for (int i = 0; i < 3000; i++)
        at += snprintf(ifs + at, cap - (size_t)at, " %d %d %d", i, i % 7, i % 13);
    at += snprintf(ifs + at, cap - (size_t)at, " ] } coordIndex [");
    for (int i = 0; i + 2 < 3000; i++)
        at += snprintf(ifs + at, cap - (size_t)at, " %d %d %d -1", i, i + 1, i + 2);
    snprintf(ifs + at, cap - (size_t)at, " ] } }");
    write_doubling("scene/def_use.wrl", ifs, 30);
    free(ifs);
    expect_fast_error("scene/def_use.wrl", NULL,
                      "def_use.wrl:2: scene too large: more than 100000 points in its pieces "
                      "once USE, PROTO and Inline are expanded (raise max_points)");
}
END_TEST

/* The same with few points and many face corners: the corners count. */
START_TEST(doubling_face_corners_fail_at_once)
{
    size_t cap = 200000;
    char *ifs = malloc(cap);
    ck_assert(ifs != NULL);
    int at = snprintf(ifs, cap, "Shape { geometry IndexedFaceSet { convex FALSE coord "
                                "Coordinate { point [ 0 0 0, 1 0 0, 0 1 0 ] } coordIndex [");
    for (int i = 0; i < 20000; i++)
        at += snprintf(ifs + at, cap - (size_t)at, " 0 1 2 -1");
    snprintf(ifs + at, cap - (size_t)at, " ] } }");
    write_doubling("scene/corners.wrl", ifs, 30);
    free(ifs);
    expect_fast_error("scene/corners.wrl", NULL, "corners.wrl:2: scene too large: more than "
                                                 "100000 points in its pieces");
}
END_TEST

/* A 1.9 KB file of doubling USE of spheres ran over 4 minutes. */
START_TEST(doubling_spheres_fail_at_once)
{
    write_doubling("scene/spheres.wrl", "Shape { geometry Sphere { radius 1 } }", 40);
    expect_fast_error("scene/spheres.wrl", NULL, "more than 100000 points in its pieces");
    /* within the limits, the same file of 4 levels loads: 15 spheres */
    write_doubling("scene/few.wrl", "Shape { geometry Sphere { radius 1 } }", 3);
    hs_scene_options o;
    hs_scene_options_init(&o);
    o.sphere_level = 0;
    hs_error err;
    hs_world *w = hs_world_new();
    ck_assert_int_eq(hs_world_add_file_opts(w, tpath("scene/few.wrl"), &o, &err), HS_OK);
    ck_assert_int_eq(hs_world_body_count(w), 3);
    int pieces = 0;
    for (int k = 0; k < 3; k++)
        pieces += hs_body_piece_count(hs_world_body(w, k));
    ck_assert_int_eq(pieces, 1 + 2 + 4);
    hs_world_free(w);
}
END_TEST

/* A 2.2 KB file of doubling PROTO ran 36 s. */
START_TEST(doubling_proto_fails_at_once)
{
    char text[8192];
    int at = snprintf(text, sizeof text, "#VRML V2.0 utf8\nPROTO P0 [ field SFVec3f s 1 1 1 ] "
                                         "{ Shape { geometry Box { size IS s } } }\n");
    for (int i = 1; i < 40; i++)
        at += snprintf(text + at, sizeof text - (size_t)at,
                       "PROTO P%d [ field SFVec3f s 1 1 1 ] { Group { children [ P%d { s IS s "
                       "} P%d { s IS s } ] } }\n", i, i - 1, i - 1);
    snprintf(text + at, sizeof text - (size_t)at, "DEF top P39 { }\n");
    put("scene/proto.wrl", text);
    expect_fast_error("scene/proto.wrl", NULL,
                      "proto.wrl:2: scene too large: more than 10000 pieces once USE, PROTO and "
                      "Inline are expanded (raise max_pieces)");
    /* the same without geometry: the node count stops it */
    at = snprintf(text, sizeof text, "#VRML V2.0 utf8\nPROTO Q0 [ ] { WorldInfo { } }\n");
    for (int i = 1; i < 40; i++)
        at += snprintf(text + at, sizeof text - (size_t)at,
                       "PROTO Q%d [ ] { Group { children [ Q%d { } Q%d { } ] } }\n", i, i - 1,
                       i - 1);
    snprintf(text + at, sizeof text - (size_t)at, "DEF top Q39 { }\n");
    put("scene/proto2.wrl", text);
    expect_fast_error("scene/proto2.wrl", NULL, "more than 2000000 nodes");
}
END_TEST

/* A field passed down a long chain of PROTO instances (IS in each) and
 * read at many leaves: following the chain is bounded too. */
START_TEST(long_is_chains_are_bounded)
{
    size_t cap = 80000;
    char *text = malloc(cap);
    ck_assert(text != NULL);
    int at = snprintf(text, cap, "#VRML V2.0 utf8\nPROTO D0 [ field SFVec3f t 0 0 0 ] { "
                                 "Transform { translation IS t center IS t } }\n");
    for (int j = 1; j <= 20; j++)
        at += snprintf(text + at, cap - (size_t)at, "PROTO D%d [ field SFVec3f t 0 0 0 ] { "
                       "Group { children [ D%d { t IS t } D%d { t IS t } ] } }\n", j, j - 1, j - 1);
    at += snprintf(text + at, cap - (size_t)at, "PROTO C0 [ field SFVec3f t 0 0 0 ] { D20 { t "
                                                "IS t } }\n");
    for (int k = 1; k < 900; k++)
        at += snprintf(text + at, cap - (size_t)at, "PROTO C%d [ field SFVec3f t 0 0 0 ] { "
                       "C%d { t IS t } }\n", k, k - 1);
    snprintf(text + at, cap - (size_t)at, "DEF top C899 { t 1 2 3 }\n");
    put("scene/chain.wrl", text);
    free(text);
    expect_fast_error("scene/chain.wrl", NULL, "scene too large: field values followed through "
                                               "PROTO instances more than 20000000 times");
}
END_TEST

/* Names were found by linear scans: a node with 100,000 fields, 100,000
 * DEF names each USE'd, a PROTO of 50,000 fields set on its instances,
 * took quadratic time (12 s for the first, 0.9 MB).  Now each loads in
 * well under a second. */
START_TEST(many_names_load_in_linear_time)
{
    size_t cap = 8 << 20;
    char *text = malloc(cap);
    ck_assert(text != NULL);
    int at = snprintf(text, cap, "#VRML V2.0 utf8\nWorldInfo {");
    for (int i = 0; i < 100000; i++)
        at += snprintf(text + at, cap - (size_t)at, " f%d %d", i, i);
    snprintf(text + at, cap - (size_t)at, " }\nDEF box Shape { geometry Box { } }\n");
    put("scene/fields.wrl", text);
    hs_error err;
    double t;
    ck_assert_int_eq(load_opts("scene/fields.wrl", NULL, &err, &t), HS_OK);
    EXPECT(t < 5.0, "100,000 fields: %.2f s", t);
    at = snprintf(text, cap, "#VRML V2.0 utf8\n");
    for (int i = 0; i < 100000; i++)
        at += snprintf(text + at, cap - (size_t)at, "DEF D%d WorldInfo { }\n", i);
    at += snprintf(text + at, cap - (size_t)at, "Group { children [");
    for (int i = 0; i < 100000; i++)
        at += snprintf(text + at, cap - (size_t)at, " USE D%d", i);
    snprintf(text + at, cap - (size_t)at, " ] }\nDEF box Shape { geometry Box { } }\n");
    put("scene/defs.wrl", text);
    ck_assert_int_eq(load_opts("scene/defs.wrl", NULL, &err, &t), HS_OK);
    EXPECT(t < 5.0, "100,000 DEF names: %.2f s", t);
    at = snprintf(text, cap, "#VRML V2.0 utf8\nPROTO P [");
    for (int i = 0; i < 50000; i++)
        at += snprintf(text + at, cap - (size_t)at, " field SFVec3f f%d 1 1 1", i);
    at += snprintf(text + at, cap - (size_t)at, " ] { Shape { geometry Box { size IS f49999 } } }"
                                                "\nDEF a Group { children [");
    for (int k = 0; k < 20; k++) {
        at += snprintf(text + at, cap - (size_t)at, " P {");
        for (int i = 0; i < 50000; i += 7)
            at += snprintf(text + at, cap - (size_t)at, " f%d 1 2 3", i);
        at += snprintf(text + at, cap - (size_t)at, " }");
    }
    snprintf(text + at, cap - (size_t)at, " ] }\n");
    put("scene/decls.wrl", text);
    ck_assert_int_eq(load_opts("scene/decls.wrl", NULL, &err, &t), HS_OK);
    EXPECT(t < 5.0, "a PROTO of 50,000 fields: %.2f s", t);
    free(text);
}
END_TEST

/* Doubling USE of an Inline resolved its path on each visit (a system
 * call): the Inline nodes visited are bounded. */
START_TEST(doubling_inline_fails_at_once)
{
    put("scene/empty.wrl", "#VRML V2.0 utf8\n");
    write_doubling("scene/inl.wrl", "Group { children Inline { url \"empty.wrl\" } }", 25);
    expect_fast_error("scene/inl.wrl", NULL, "inl.wrl:2: scene too large: more than 10000 "
                                             "Inline nodes");
}
END_TEST

/* --sides=100000, the allowed maximum, exhausted memory: cylinder_sides
 * may not exceed max_sides (default 1000, at most 100000). */
START_TEST(sides_are_limited)
{
    put("scene/cyl.wrl", "#VRML V2.0 utf8\nShape { geometry Cylinder { } }\n");
    hs_scene_options o;
    hs_scene_options_init(&o);
    ck_assert_int_eq(o.max_sides, 1000);
    hs_error err;
    o.cylinder_sides = 100000;
    ck_assert_int_eq(load_opts("scene/cyl.wrl", &o, &err, NULL), HS_ERR_ARG);
    ck_assert_str_eq(err.msg, "scene options: cylinder_sides 100000 is not in 3..1000 "
                              "(max_sides)");
    o.max_sides = 100001;
    ck_assert_int_eq(load_opts("scene/cyl.wrl", &o, &err, NULL), HS_ERR_ARG);
    o.max_sides = 1000;
    o.cylinder_sides = 1000;
    ck_assert_int_eq(load_opts("scene/cyl.wrl", &o, &err, NULL), HS_OK);
}
END_TEST

/* Every limit of hs_scene_options, with its error. */
START_TEST(each_limit_has_its_error)
{
    put("scene/three.wrl", "#VRML V2.0 utf8\n"
                           "DEF a Group { children [ Group { children [ Group { children [\n"
                           "  Shape { geometry Box { } } Shape { geometry Box { } }\n"
                           "  Shape { geometry Box { } } ] } ] } ] }\n");
    hs_scene_options o;
    hs_scene_options_init(&o);
    ck_assert(o.max_file_bytes == (size_t)1 << 28 && o.max_depth == 200 &&
              o.max_pieces == 10000 && o.max_points == 100000 && o.allow_paths == NULL);
    ck_assert_int_eq(load_opts("scene/three.wrl", &o, NULL, NULL), HS_OK);
    o.max_file_bytes = 100;
    expect_fast_error("scene/three.wrl", &o, "three.wrl: larger than the limit of 100 bytes");
    hs_scene_options_init(&o);
    o.max_depth = 4;
    expect_fast_error("scene/three.wrl", &o, "three.wrl:2: nodes nested more than 4 deep "
                                             "(raise max_depth)");
    hs_scene_options_init(&o);
    o.max_pieces = 2;
    expect_fast_error("scene/three.wrl", &o, "three.wrl:4: scene too large: more than 2 pieces");
    hs_scene_options_init(&o);
    o.max_points = 23;
    expect_fast_error("scene/three.wrl", &o, "three.wrl:4: scene too large: more than 23 "
                                             "points");
    o.max_points = 24;
    ck_assert_int_eq(load_opts("scene/three.wrl", &o, NULL, NULL), HS_OK);
    hs_scene_options_init(&o);
    const char *missing[] = {"/no/such/folder", NULL};
    o.allow_paths = missing;
    hs_error err;
    ck_assert_int_eq(load_opts("scene/three.wrl", &o, &err, NULL), HS_ERR_ARG);
    ck_assert_str_eq(err.msg, "scene options: allowed folder '/no/such/folder' does not exist");
    hs_scene_options_init(&o);
    o.max_pieces = 0;
    ck_assert_int_eq(load_opts("scene/three.wrl", &o, &err, NULL), HS_ERR_ARG);
}
END_TEST

/* ------------------------------------------------------------ Inline */

/* Inline { url "/dev/zero" } read until memory ran out (4.2 GB). */
START_TEST(inline_dev_zero)
{
    put("scene/zero.wrl", "#VRML V2.0 utf8\nDEF a Group { children Inline { url \"/dev/zero\" "
                          "} }\n");
    expect_fast_error("scene/zero.wrl", NULL,
                      "zero.wrl:2: Inline file '/dev/zero' is outside the scene's folder");
    hs_scene_options o;
    hs_scene_options_init(&o);
    const char *all[] = {"/", NULL};
    o.allow_paths = all;
    expect_fast_error("scene/zero.wrl", &o,
                      "zero.wrl:2: Inline file '/dev/zero' is not a regular file");
}
END_TEST

/* Inline opened any absolute or ../ path; now only below the scene's
 * folder, or below an allowed one. */
START_TEST(inline_stays_below_the_scene)
{
    put("part.wrl", "#VRML V2.0 utf8\nShape { geometry Box { } }\n");
    put("scene/up.wrl", "#VRML V2.0 utf8\nDEF a Group { children Inline { url \"../part.wrl\" "
                        "} }\n");
    expect_fast_error("scene/up.wrl", NULL,
                      "up.wrl:2: Inline file '../part.wrl' is outside the scene's folder");
    char abs_url[512];
    snprintf(abs_url, sizeof abs_url, "#VRML V2.0 utf8\nDEF a Group { children Inline { url "
                                      "\"%s\" } }\n", tpath("part.wrl"));
    put("scene/abs.wrl", abs_url);
    expect_fast_error("scene/abs.wrl", NULL, "is outside the scene's folder");
    /* a symbolic link inside pointing outside is outside */
    ck_assert_int_eq(symlink(tpath("part.wrl"), tpath("scene/link.wrl")), 0);
    put("scene/vialink.wrl", "#VRML V2.0 utf8\nDEF a Group { children Inline { url "
                             "\"link.wrl\" } }\n");
    expect_fast_error("scene/vialink.wrl", NULL, "is outside the scene's folder");
    /* allowed: the parent folder */
    hs_scene_options o;
    hs_scene_options_init(&o);
    const char *allow[] = {scene_tmp, NULL};
    o.allow_paths = allow;
    hs_error err;
    ck_assert_int_eq(load_opts("scene/up.wrl", &o, &err, NULL), HS_OK);
    ck_assert_int_eq(load_opts("scene/abs.wrl", &o, &err, NULL), HS_OK);
    /* below the scene's folder: allowed by default, a subfolder too */
    ck_assert_int_eq(mkdir(tpath("scene/sub"), 0700), 0);
    put("scene/sub/part.wrl", "#VRML V2.0 utf8\nShape { geometry Box { } }\n");
    put("scene/down.wrl", "#VRML V2.0 utf8\nDEF a Group { children Inline { url "
                          "\"sub/part.wrl\" } }\n");
    ck_assert_int_eq(load_opts("scene/down.wrl", NULL, &err, NULL), HS_OK);
}
END_TEST

/* The first token of an Inline file that is not VRML was echoed
 * ("/etc/passwd:1: node root:x:0:0:... is not supported"). */
START_TEST(inline_text_not_echoed)
{
    put("scene/passwd", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/nologin\n");
    put("scene/pw.wrl", "#VRML V2.0 utf8\nDEF a Group { children Inline { url \"passwd\" } }\n");
    hs_error err;
    ck_assert_int_eq(load_opts("scene/pw.wrl", NULL, &err, NULL), HS_ERR_INPUT);
    EXPECT(strstr(err.msg, "root") == NULL && strstr(err.msg, "daemon") == NULL, "%s",
           err.msg);
    EXPECT(strstr(err.msg, "passwd:1: not a VRML file") != NULL, "%s", err.msg);
    /* /etc/passwd itself, allowed: still not echoed */
    put("scene/etc.wrl", "#VRML V2.0 utf8\nDEF a Group { children Inline { url \"/etc/passwd\" "
                         "} }\n");
    hs_scene_options o;
    hs_scene_options_init(&o);
    const char *all[] = {"/", NULL};
    o.allow_paths = all;
    if (access("/etc/passwd", R_OK) == 0) {
        ck_assert_int_eq(load_opts("scene/etc.wrl", &o, &err, NULL), HS_ERR_INPUT);
        EXPECT(strstr(err.msg, "root") == NULL, "%s", err.msg);
    }
    /* a VRML file with its header is quoted as usual */
    put("scene/vrml_part.wrl", "#VRML V2.0 utf8\nBogus { }\n");
    put("scene/bogus.wrl", "#VRML V2.0 utf8\nDEF a Group { children Inline { url "
                           "\"vrml_part.wrl\" } }\n");
    ck_assert_int_eq(load_opts("scene/bogus.wrl", NULL, &err, NULL), HS_ERR_INPUT);
    EXPECT(strstr(err.msg, "vrml_part.wrl:2: node Bogus is not supported") != NULL, "%s",
           err.msg);
}
END_TEST

Suite *suite_hostile_scene(void)
{
    Suite *s = suite_create("hostile_scene");
    TCase *tc = tcase_create("hostile_scene");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, scene_setup, scene_teardown);
    tcase_add_test(tc, doubling_def_use_fails_at_once);
    tcase_add_test(tc, doubling_face_corners_fail_at_once);
    tcase_add_test(tc, doubling_spheres_fail_at_once);
    tcase_add_test(tc, doubling_proto_fails_at_once);
    tcase_add_test(tc, long_is_chains_are_bounded);
    tcase_add_test(tc, many_names_load_in_linear_time);
    tcase_add_test(tc, doubling_inline_fails_at_once);
    tcase_add_test(tc, sides_are_limited);
    tcase_add_test(tc, each_limit_has_its_error);
    tcase_add_test(tc, inline_dev_zero);
    tcase_add_test(tc, inline_stays_below_the_scene);
    tcase_add_test(tc, inline_text_not_echoed);
    suite_add_tcase(s, tc);
    return s;
}
