/* test_world.c -- worlds: bodies, poses, clones, filters, queries with
 * exact statuses (also under rotations), contacts and distances, move
 * until contact, threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

static const double unit[3] = {1, 1, 1};

static hs_body *box_body(hs_world *w, const char *name, int is_static, const double size[3],
                         double x, double y, double z)
{
    hs_error err;
    hs_body *b = hs_world_add_body(w, name, is_static, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    ck_assert_msg(hs_body_add_box(b, size, NULL, &err) == HS_OK, "%s", err.msg);
    double m[16], t[3] = {x, y, z};
    hs_pose_identity(m);
    m[3] = t[0];
    m[7] = t[1];
    m[11] = t[2];
    ck_assert_msg(hs_body_set_pose(b, m, &err) == HS_OK, "%s", err.msg);
    return b;
}

/* Status of the pair (a, b) in a fresh query, HS_DISJOINT if absent. */
static hs_status pair_status(const hs_world *w, const hs_query_options *opt, const char *a,
                             const char *b, hs_report *rep)
{
    hs_error err;
    ck_assert_msg(hs_world_query(w, opt, rep, &err) == HS_OK, "%s", err.msg);
    for (int k = 0; k < hs_report_pair_count(rep); k++) {
        const char *x, *y;
        hs_status st;
        hs_report_pair(rep, k, &x, &y, &st);
        if ((!strcmp(x, a) && !strcmp(y, b)) || (!strcmp(x, b) && !strcmp(y, a)))
            return st;
    }
    return HS_DISJOINT;
}

START_TEST(pose_builders)
{
    double m[16], r[16], p[3] = {1, 0, 0}, q[3];
    hs_pose_from_zyz(m, M_PI / 2, 0, 0, NULL); /* Rz(90 degrees) */
    q[0] = m[0] * p[0] + m[1] * p[1] + m[2] * p[2];
    q[1] = m[4] * p[0] + m[5] * p[1] + m[6] * p[2];
    ck_assert(fabs(q[0]) < 1e-15 && fabs(q[1] - 1) < 1e-15);
    double axis[3] = {0, 0, 2}, t[3] = {1, 2, 3}, quat[4] = {cos(M_PI / 4), 0, 0, sin(M_PI / 4)};
    hs_error err;
    ck_assert_int_eq(hs_pose_from_axis_angle(r, axis, M_PI / 2, t, &err), HS_OK);
    double qm[16];
    ck_assert_int_eq(hs_pose_from_quat(qm, quat, t, &err), HS_OK);
    for (int i = 0; i < 16; i++)
        ck_assert(fabs(r[i] - qm[i]) < 1e-15);
    hs_pose_from_zyz(m, 0.3, 0.7, -1.1, t); /* zyz = Rz Ry Rz: check against products */
    double a[16], b[16], c[16], ab[16], abc[16];
    double z[3] = {0, 0, 1}, y[3] = {0, 1, 0};
    hs_pose_from_axis_angle(a, z, 0.3, NULL, &err);
    hs_pose_from_axis_angle(b, y, 0.7, NULL, &err);
    hs_pose_from_axis_angle(c, z, -1.1, NULL, &err);
    hs_pose_multiply(ab, a, b);
    hs_pose_multiply(abc, ab, c);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            ck_assert(fabs(abc[4 * i + j] - m[4 * i + j]) < 1e-15);
    double zero[3] = {0, 0, 0}, q0[4] = {0, 0, 0, 0};
    ck_assert_int_eq(hs_pose_from_axis_angle(r, zero, 1, NULL, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_pose_from_quat(r, q0, NULL, &err), HS_ERR_ARG);
}
END_TEST

START_TEST(bodies_names_and_errors)
{
    hs_world *w = hs_world_new();
    hs_error err;
    ck_assert(hs_world_add_body(w, "", 0, &err) == NULL);
    hs_body *a = hs_world_add_body(w, "a", 0, &err);
    ck_assert(a != NULL);
    ck_assert(hs_world_add_body(w, "a", 0, &err) == NULL);
    ck_assert(strstr(err.msg, "exists already") != NULL);
    double bad[3] = {1, -1, 1}, m[16];
    ck_assert_int_eq(hs_body_add_box(a, bad, NULL, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_body_add_cylinder(a, 1, 1, 2, NULL, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_body_add_sphere(a, 0, 1, NULL, &err), HS_ERR_ARG);
    double flat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    ck_assert_int_eq(hs_body_add_hull(a, flat, 4, NULL, &err), HS_ERR_INPUT);
    ck_assert(strstr(err.msg, "coplanar") != NULL);
    double v[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
    int tri[3] = {0, 1, 2};
    ck_assert_int_eq(hs_body_add_mesh(a, v, 3, tri, 1, NULL, &err), HS_ERR_INPUT);
    ck_assert(strstr(err.msg, "degenerate") != NULL);
    int out[3] = {0, 1, 5};
    ck_assert_int_eq(hs_body_add_mesh(a, v, 3, out, 1, NULL, &err), HS_ERR_INPUT);
    hs_pose_identity(m);
    m[15] = 2;
    ck_assert_int_eq(hs_body_set_pose(a, m, &err), HS_ERR_ARG);
    hs_pose_identity(m);
    m[0] = NAN;
    ck_assert_int_eq(hs_body_set_pose(a, m, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_body_piece_count(a), 0);
    hs_poly *empty = t_example("basic/empty.ine");
    ck_assert_int_eq(hs_body_add_polytope(a, empty, NULL, &err), HS_ERR_INPUT);
    hs_poly_free(empty);
    hs_world_free(w);
}
END_TEST

/* Seed 001 reports a crash when a clone outlives its original. */
START_TEST(clones_outlive_their_original)
{
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *a = box_body(w, "a", 0, unit, 0, 0, 0);
    hs_body *c = hs_world_clone_body(w, a, "copy", &err);
    ck_assert(c != NULL);
    ck_assert_int_eq(hs_world_remove_body(w, a, &err), HS_OK);
    hs_body *d = box_body(w, "d", 0, unit, 0.5, 0, 0);
    hs_report *rep = hs_report_new();
    hs_query_options opt;
    hs_query_options_init(&opt);
    ck_assert_int_eq(pair_status(w, &opt, "copy", "d", rep), HS_OVERLAP);
    ck_assert(hs_world_find_body(w, "a") == NULL);
    ck_assert_int_eq(hs_world_body_count(w), 2);
    (void)d;
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

/* A clone keeps its original's pose with everything derived from it (the
 * inverse kept with the pose): its pairs answer like the original's, and
 * a pose set again replaces both. */
START_TEST(clones_keep_their_turned_pose)
{
    hs_world *w = hs_world_new();
    hs_report *rep = hs_report_new();
    hs_query_options opt;
    hs_query_options_init(&opt);
    hs_error err;
    box_body(w, "a", 0, unit, 10, 0, 0); /* away from the origin */
    hs_body *b = box_body(w, "b", 0, unit, 5, 0, 0);
    double z[3] = {0, 0, 1}, t[3] = {10.5 + sqrt(0.5) - 0.01, 0, 0}, m[16];
    hs_pose_from_axis_angle(m, z, M_PI / 4, t, NULL); /* b's edge sinks into a */
    ck_assert_int_eq(hs_body_set_pose(b, m, &err), HS_OK);
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_OVERLAP);
    hs_body *c = hs_world_clone_body(w, b, "c", &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    ck_assert_int_eq(hs_world_remove_body(w, b, &err), HS_OK);
    ck_assert_int_eq(pair_status(w, &opt, "a", "c", rep), HS_OVERLAP);
    t[0] = 10.5 + sqrt(0.5) + 0.3; /* the same turn, beyond the threshold */
    hs_pose_from_axis_angle(m, z, M_PI / 4, t, NULL);
    ck_assert_int_eq(hs_body_set_pose(c, m, &err), HS_OK);
    ck_assert_int_eq(pair_status(w, &opt, "a", "c", rep), HS_DISJOINT);
    t[0] = 11; /* turned back square, face on face */
    hs_pose_from_axis_angle(m, z, 0, t, NULL);
    ck_assert_int_eq(hs_body_set_pose(c, m, &err), HS_OK);
    ck_assert_int_eq(pair_status(w, &opt, "a", "c", rep), HS_TOUCHING);
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

START_TEST(statuses_in_the_world_frame)
{
    hs_world *w = hs_world_new();
    hs_report *rep = hs_report_new();
    hs_query_options opt;
    hs_query_options_init(&opt);
    box_body(w, "a", 0, unit, 0, 0, 0);
    hs_body *b = box_body(w, "b", 0, unit, 1, 0, 0); /* face to face */
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_TOUCHING);
    double m[16];
    hs_pose_identity(m);
    m[3] = 0.75;
    hs_body_set_pose(b, m, NULL);
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_OVERLAP);
    m[3] = 1.05; /* 0.05 apart, threshold 0.1 */
    hs_body_set_pose(b, m, NULL);
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_CONTACT);
    ck_assert_int_eq(hs_report_contact_count(rep, 0), 4); /* the square of the face */
    double on_a[3], on_b[3], nrm[3], d;
    hs_report_contact(rep, 0, 0, on_a, on_b, nrm);
    ck_assert(fabs(nrm[0] - 1) < 1e-12 && fabs(on_b[0] - on_a[0] - 0.05) < 1e-12);
    hs_report_piece(rep, 0, 0, NULL, NULL, NULL, NULL, &d);
    ck_assert(fabs(d - 0.05) < 1e-12);
    m[3] = 1.2;
    hs_body_set_pose(b, m, NULL);
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_DISJOINT);
    /* rotated by 45 degrees about z, b's edge meets a's face: touching */
    double z[3] = {0, 0, 1}, t[3] = {0.5 + sqrt(0.5), 0, 0};
    hs_pose_from_axis_angle(m, z, M_PI / 4, t, NULL);
    hs_body_set_pose(b, m, NULL);
    hs_status st = pair_status(w, &opt, "a", "b", rep);
    ck_assert_msg(st == HS_TOUCHING || st == HS_OVERLAP || st == HS_CONTACT, "%s",
                  hs_status_name(st)); /* the rotation is rounded: exact for the rounded rows */
    t[0] = 0.5 + sqrt(0.5) - 0.01;
    hs_pose_from_axis_angle(m, z, M_PI / 4, t, NULL);
    hs_body_set_pose(b, m, NULL);
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_OVERLAP);
    /* prisms and pyramids standing on the box, turned about the vertical
     * axis: their flat bottoms are exact rows, so they touch */
    hs_error err;
    hs_body *c = hs_world_add_body(w, "c", 0, &err);
    ck_assert_int_eq(hs_body_add_cylinder(c, 0.3, 0.5, 24, NULL, &err), HS_OK);
    hs_body *k = hs_world_add_body(w, "k", 0, &err);
    ck_assert_int_eq(hs_body_add_cone(k, 0.2, 0.5, 7, NULL, &err), HS_OK);
    double y[3] = {0, 1, 0}, up[3] = {0.1, 0.75, 0}, cpose[16]; /* bottom y = 0.5 */
    t[0] = 5; /* b out of the way */
    hs_pose_from_axis_angle(m, z, 0, t, NULL);
    hs_body_set_pose(b, m, NULL);
    hs_pose_from_axis_angle(cpose, y, 0.7, up, NULL);
    hs_body_set_pose(c, cpose, NULL);
    ck_assert_int_eq(pair_status(w, &opt, "a", "c", rep), HS_TOUCHING);
    up[0] = -0.2;
    up[2] = 0.1; /* the cone's bottom is y = -0.25 too */
    hs_pose_from_axis_angle(cpose, y, 2.1, up, NULL);
    hs_body_set_pose(k, cpose, NULL);
    ck_assert_int_eq(pair_status(w, &opt, "a", "k", rep), HS_TOUCHING);
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

START_TEST(distance_matches_its_points)
{
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *a = box_body(w, "a", 0, unit, 0, 0, 0);
    hs_body *b = hs_world_add_body(w, "b", 0, &err);
    ck_assert_int_eq(hs_body_add_sphere(b, 0.5, 2, NULL, &err), HS_OK);
    double m[16], t[3] = {2, 1.5, 0.25};
    hs_pose_from_zyz(m, 0.2, 0.4, 0.6, t);
    hs_body_set_pose(b, m, NULL);
    double d, pa[3], pb[3];
    ck_assert_int_eq(hs_world_distance(w, a, b, &d, pa, pb, &err), HS_OK);
    double diff = sqrt((pa[0] - pb[0]) * (pa[0] - pb[0]) + (pa[1] - pb[1]) * (pa[1] - pb[1]) +
                       (pa[2] - pb[2]) * (pa[2] - pb[2]));
    ck_assert(d > 0 && fabs(diff - d) <= 1e-12 * d);
    ck_assert(d > 1.2 && d < 1.5); /* between the inner and outer radius of the icosphere */
    hs_pose_identity(m);
    hs_body_set_pose(b, m, NULL);
    ck_assert_int_eq(hs_world_distance(w, a, b, &d, pa, pb, &err), HS_OK);
    ck_assert(d == 0);
    hs_world_free(w);
}
END_TEST

/* Seed 001's toggles, groups and masks, and its thread rule. */
START_TEST(filters)
{
    hs_world *w = hs_world_new();
    hs_report *rep = hs_report_new();
    hs_query_options opt;
    hs_query_options_init(&opt);
    hs_error err;
    hs_body *a = box_body(w, "a", 0, unit, 0, 0, 0), *b = box_body(w, "b", 0, unit, 0.5, 0, 0);
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_OVERLAP);
    hs_world_set_pair_enabled(w, a, b, 0, &err);
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_DISJOINT);
    hs_world_set_pair_enabled(w, a, b, 1, &err);
    hs_body_set_enabled(b, 0);
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_DISJOINT);
    hs_body_set_enabled(b, 1);
    hs_world_set_enabled(w, 0);
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_DISJOINT);
    hs_world_set_enabled(w, 1);
    hs_body_set_static(a, 1);
    hs_body_set_static(b, 1);
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_DISJOINT);
    hs_body_set_static(b, 0);
    ck_assert_int_eq(pair_status(w, &opt, "a", "b", rep), HS_OVERLAP);
    /* threads: main (group 1), thread 1 and thread 2 bodies all overlapping */
    hs_body *t1 = box_body(w, "t1", 0, unit, 0.25, 0, 0), *t2 = box_body(w, "t2", 0, unit, 0.3, 0, 0);
    hs_body_set_groups(t1, 1u << 1, 1u | 1u << 1);
    hs_body_set_groups(t2, 1u << 2, 1u | 1u << 2);
    ck_assert_int_eq(pair_status(w, &opt, "t1", "t2", rep), HS_DISJOINT);
    ck_assert_int_eq(pair_status(w, &opt, "a", "t1", rep), HS_OVERLAP);
    ck_assert_int_eq(pair_status(w, &opt, "b", "t2", rep), HS_OVERLAP);
    ck_assert_int_eq(hs_world_set_pair_enabled(w, a, a, 0, &err), HS_ERR_ARG);
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

/* Pieces whose world boxes overlap only in a sheet skip the oriented-box
 * filter (world_query.c): their answer is the narrow phase's, the exact
 * engine's too.  A unit cube turned 45 degrees about z stands with its
 * left edge on the plane x = 0.5 of an upright unit cube's right face (to
 * rounding): above that face's end it misses (disjoint), lower it meets
 * the face to rounding, and pushed in by 1/1024 it overlaps. */
START_TEST(pieces_resting_in_a_sheet)
{
    const double ys[3] = {0.8, 0.3, 0.3}, in[3] = {0, 0, 0x1p-10};
    const hs_status want[3] = {HS_DISJOINT, (hs_status)-1, HS_OVERLAP};
    for (int c = 0; c < 3; c++) {
        hs_world *w = hs_world_new();
        hs_report *rep = hs_report_new();
        hs_error err;
        box_body(w, "a", 0, unit, 0, 0, 0);
        hs_body *b = box_body(w, "b", 0, unit, 0, 0, 0);
        double m[16], axis[3] = {0, 0, 1};
        ck_assert_int_eq(hs_pose_from_axis_angle(m, axis, atan(1), NULL, &err), HS_OK);
        m[3] = 0.5 + sqrt(0.5) - in[c];
        m[7] = ys[c];
        ck_assert_msg(hs_body_set_pose(b, m, &err) == HS_OK, "%s", err.msg);
        hs_query_options fast, exact;
        hs_query_options_init(&fast);
        hs_query_options_init(&exact);
        exact.engine = HS_ENGINE_EXACT;
        hs_status f = pair_status(w, &fast, "a", "b", rep);
        hs_status x = pair_status(w, &exact, "a", "b", rep);
        ck_assert_msg(f == x, "case %d: fast %s, exact %s", c, hs_status_name(f),
                      hs_status_name(x));
        if ((int)want[c] >= 0)
            ck_assert_msg(f == want[c], "case %d: %s", c, hs_status_name(f));
        hs_report_free(rep);
        hs_world_free(w);
    }
}
END_TEST

/* Two pieces of one body never collide with each other; broad phases and
 * threads give the same report. */
START_TEST(methods_and_threads_agree)
{
    hs_world *w = hs_world_new();
    hs_error err;
    char name[32];
    for (int k = 0; k < 60; k++) {
        snprintf(name, sizeof name, "b%02d", k);
        hs_body *b = hs_world_add_body(w, name, k < 3, &err);
        double size[3] = {0.6 + 0.01 * k, 0.5, 0.4}, place[16];
        hs_pose_identity(place);
        place[3] = 0.3;
        hs_body_add_box(b, size, NULL, &err);
        hs_body_add_cylinder(b, 0.2, 0.5, 8, place, &err); /* overlaps its own box */
        double m[16], t[3] = {fmod(k * 0.37, 4), fmod(k * 0.53, 3), fmod(k * 0.29, 2)};
        hs_pose_from_zyz(m, 0.1 * k, 0.05 * k, 0, t);
        hs_body_set_pose(b, m, &err);
    }
    hs_query_options opt;
    hs_query_options_init(&opt);
    char *out[7];
    int count[7];
    hs_broadphase methods[3] = {HS_BROAD_RAW, HS_BROAD_GRID, HS_BROAD_TREE};
    for (int v = 0; v < 7; v++) { /* the 7th: the exact engine, all pairs */
        hs_report *rep = hs_report_new();
        ck_assert_int_eq(hs_world_set_broadphase(w, methods[v % 3], &err), HS_OK);
        opt.threads = v < 3 ? 1 : 3;
        opt.engine = v < 6 ? HS_ENGINE_FAST : HS_ENGINE_EXACT;
        ck_assert_int_eq(hs_world_query(w, &opt, rep, &err), HS_OK);
        size_t len = 0;
        FILE *f = open_memstream(&out[v], &len);
        count[v] = hs_report_pair_count(rep);
        for (int k = 0; k < count[v]; k++) {
            const char *a, *b;
            hs_status st;
            hs_report_pair(rep, k, &a, &b, &st);
            ck_assert(strcmp(a, b) < 0);
            ck_assert(!(a[1] == '0' && a[2] < '3' && b[1] == '0' && b[2] < '3')); /* static */
            fprintf(f, "%s %s %s\n", a, b, hs_status_name(st));
        }
        fclose(f);
        hs_report_free(rep);
    }
    ck_assert(count[0] > 20);
    for (int v = 1; v < 7; v++)
        ck_assert_str_eq(out[v], out[0]);
    for (int v = 0; v < 7; v++)
        free(out[v]);
    opt.engine = HS_ENGINE_GLPK;
    hs_report *rep = hs_report_new();
    ck_assert_int_eq(hs_world_query(w, &opt, rep, &err), HS_ERR_ARG);
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

/* Names stay unique and findable through many additions and removals
 * (the name table grows and is rebuilt). */
START_TEST(names_through_additions_and_removals)
{
    hs_world *w = hs_world_new();
    hs_error err;
    char name[32];
    for (int k = 0; k < 300; k++) {
        snprintf(name, sizeof name, "body-%d", k);
        ck_assert_ptr_nonnull(hs_world_add_body(w, name, 0, &err));
    }
    for (int k = 0; k < 300; k += 3) {
        snprintf(name, sizeof name, "body-%d", k);
        ck_assert_int_eq(hs_world_remove_body(w, hs_world_find_body(w, name), &err), HS_OK);
    }
    ck_assert_int_eq(hs_world_body_count(w), 200);
    for (int k = 0; k < 300; k++) {
        snprintf(name, sizeof name, "body-%d", k);
        hs_body *b = hs_world_find_body(w, name);
        if (k % 3 == 0) {
            ck_assert_ptr_null(b);
            ck_assert_ptr_nonnull(hs_world_add_body(w, name, 0, &err)); /* free again */
        } else {
            ck_assert_ptr_nonnull(b);
            ck_assert_str_eq(hs_body_name(b), name);
            ck_assert_ptr_null(hs_world_add_body(w, name, 0, &err)); /* taken */
            ck_assert_int_eq(err.code, HS_ERR_ARG);
        }
    }
    ck_assert_int_eq(hs_world_body_count(w), 300);
    hs_world_free(w);
}
END_TEST

/* Pairs come ordered by strcmp of the names (the first name of a pair
 * before the second, pairs by first then second name), also for names
 * sharing their first 8 bytes, of different lengths, or with bytes above
 * 127 (UTF-8).  All boxes overlap at the origin; bodies removed and added
 * in between reuse the slots of the removed ones. */
/* Every pair of the report overlaps, is written in name order, and the
 * pairs come in name order. */
static void check_name_order(const hs_report *rep, int count)
{
    ck_assert_int_eq(hs_report_pair_count(rep), count);
    const char *pa = NULL, *pb = NULL;
    for (int k = 0; k < hs_report_pair_count(rep); k++) {
        const char *a, *b;
        hs_status st;
        hs_report_pair(rep, k, &a, &b, &st);
        ck_assert_int_eq(st, HS_OVERLAP);
        ck_assert_msg(strcmp(a, b) < 0, "pair %s %s", a, b);
        if (pa)
            ck_assert_msg(strcmp(pa, a) < 0 || (strcmp(pa, a) == 0 && strcmp(pb, b) < 0),
                          "%s %s before %s %s", pa, pb, a, b);
        pa = a;
        pb = b;
    }
}

/* Name order, also on a reused report whose last order no longer holds
 * (a body replaced by one of another name: as many pairs, other names). */
START_TEST(pairs_ordered_by_name)
{
    static const char *const names[] = {"zeta", "abcdefgh", "abcdefghij", "abcdefghi",
                                        "abcdefgg", "abcdefgZ", "\xc3\xa9t\xc3\xa9", "a",
                                        "ab", "abcdefgh-long-tail-2", "abcdefgh-long-tail-1"};
    const int n = (int)(sizeof names / sizeof *names);
    hs_world *w = hs_world_new();
    for (int k = 0; k < n; k++)
        box_body(w, names[k], 0, unit, 0, 0, 0);
    hs_error err;
    ck_assert_int_eq(hs_world_remove_body(w, hs_world_find_body(w, "a"), &err), HS_OK);
    ck_assert_int_eq(hs_world_remove_body(w, hs_world_find_body(w, "zeta"), &err), HS_OK);
    box_body(w, "zeta", 0, unit, 0, 0, 0);
    box_body(w, "a", 0, unit, 0, 0, 0);
    hs_query_options opt;
    hs_query_options_init(&opt);
    hs_report *rep = hs_report_new();
    ck_assert_int_eq(hs_world_query(w, &opt, rep, &err), HS_OK);
    check_name_order(rep, n * (n - 1) / 2);
    ck_assert_int_eq(hs_world_query(w, &opt, rep, &err), HS_OK); /* the same order again */
    check_name_order(rep, n * (n - 1) / 2);
    static const char *const renamed[] = {"zeta", "a", "abcdefgh", "ab"};
    static const char *const names2[] = {"0first", "zz", "abcdefgh0", "abc"};
    for (int r = 0; r < 4; r++) {
        ck_assert_int_eq(hs_world_remove_body(w, hs_world_find_body(w, renamed[r]), &err), HS_OK);
        box_body(w, names2[r], 0, unit, 0, 0, 0);
        ck_assert_int_eq(hs_world_query(w, &opt, rep, &err), HS_OK);
        check_name_order(rep, n * (n - 1) / 2);
    }
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

/* The answers of a query as text, one line per pair and piece pair. */
/* The report of a query as text: pairs and pieces with their statuses;
 * with bits, also witnesses (%a), distances and contacts. */
static char *report_dump(const hs_world *w, const hs_query_options *opt, hs_report *rep,
                         int bits)
{
    hs_error err;
    ck_assert_msg(hs_world_query(w, opt, rep, &err) == HS_OK, "%s", err.msg);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    for (int k = 0; k < hs_report_pair_count(rep); k++) {
        const char *a, *b;
        hs_status st;
        hs_report_pair(rep, k, &a, &b, &st);
        fprintf(f, "%s %s %s:", a, b, hs_status_name(st));
        for (int j = 0; j < hs_report_piece_count(rep, k); j++) {
            int ia, ib;
            double x[3], d;
            hs_report_piece(rep, k, j, &ia, &ib, &st, x, &d);
            fprintf(f, " %d-%d %s", ia, ib, hs_status_name(st));
            if (bits)
                fprintf(f, " %a %a %a %a", x[0], x[1], x[2], d);
        }
        for (int c = 0; bits && c < hs_report_contact_count(rep, k); c++) {
            double pa[3], pb[3], nrm[3];
            hs_report_contact(rep, k, c, pa, pb, nrm);
            fprintf(f, " [%a %a %a | %a %a %a]", pa[0], pa[1], pa[2], nrm[0], nrm[1], nrm[2]);
        }
        fprintf(f, "\n");
    }
    fclose(f);
    return text;
}

static char *report_text(const hs_world *w, const hs_query_options *opt, hs_report *rep)
{
    return report_dump(w, opt, rep, 0);
}

static char *report_bits(const hs_world *w, const hs_query_options *opt, hs_report *rep)
{
    return report_dump(w, opt, rep, 1);
}

static long repeated_of(const hs_report *rep)
{
    hs_report_stats st;
    hs_report_get_stats(rep, &st);
    return st.repeated;
}

/* A reused report answers a pair of convex pieces that touched or
 * overlapped from the last query's record when their rows and poses are
 * equal bit for bit, and only then: a body moved by 2^-30 and a body
 * replaced by another of the same name and pose but another shape (it now
 * overlaps) are tested again, and the replaced one's overlap is answered
 * from its own record the query after.  (A polytope piece read from
 * decimals is in doubles, like every piece, and is recorded like the
 * boxes.)  Every answer, witnesses and contacts included, equals a fresh
 * report's, on 1 and 2 threads. */
START_TEST(resting_pairs_answered_from_the_record)
{
    hs_world *w = hs_world_new();
    hs_error err;
    const double floor_size[3] = {40, 40, 1};
    box_body(w, "static_floor", 1, floor_size, 0, 0, -0.5);
    hs_body *box[6];
    char name[32];
    for (int k = 0; k < 6; k++) { /* unit boxes standing on the floor */
        snprintf(name, sizeof name, "box%d", k);
        box[k] = box_body(w, name, 0, unit, 3.0 * k - 9, 0, 0.5);
    }
    box_body(w, "sunk", 0, unit, 0, 6, 0.25); /* overlapping the floor */
    hs_poly *p = hs_poly_parse("H-representation\nbegin\n6 4 real\n"
                               "0.3 -1 0 0\n0 1 0 0\n0.3 0 -1 0\n0 0 1 0\n0.3 0 0 -1\n0 0 0 1\n"
                               "end\n", "decimal.ine", &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    hs_body *dec = hs_world_add_body(w, "decimal", 0, &err);
    ck_assert_msg(hs_body_add_polytope(dec, p, NULL, &err) == HS_OK, "%s", err.msg);
    hs_poly_free(p); /* (the piece keeps its own copy) */
    double m[16];
    hs_pose_identity(m);
    m[3] = 5.0;
    m[7] = 6.0; /* its bottom face z = 0 on the floor's top */
    ck_assert_int_eq(hs_body_set_pose(dec, m, &err), HS_OK);
    for (int threads = 1; threads <= 2; threads++) {
        hs_query_options opt;
        hs_query_options_init(&opt);
        opt.threads = threads;
        hs_report *kept = hs_report_new();
        for (int step = 0; step < 5; step++) {
            if (step == 2) { /* box0 moves by 2^-30 along x: still on the floor */
                hs_body_get_pose(box[0], m);
                m[3] += 0x1p-30;
                ck_assert_int_eq(hs_body_set_pose(box[0], m, &err), HS_OK);
            }
            if (step == 3) { /* box1 replaced by a taller box at the same pose */
                ck_assert_int_eq(hs_world_remove_body(w, box[1], &err), HS_OK);
                const double tall[3] = {1, 1, 2};
                box[1] = box_body(w, "box1", 0, tall, -6, 0, 0.5);
            }
            hs_report *fresh = hs_report_new();
            char *a = report_bits(w, &opt, kept), *b = report_bits(w, &opt, fresh);
            ck_assert_str_eq(a, b);
            ck_assert_int_eq(repeated_of(fresh), 0);
            /* 8 pairs: 6 boxes and the decimal piece on the floor, and the
             * sunk box; step 2 moves box0, step 3 replaces box1 */
            long want = step == 0 ? 0 : step == 1 || step == 4 ? 8 : 7;
            ck_assert_msg(repeated_of(kept) == want, "step %d, %d threads: %ld repeated, want %ld",
                          step, threads, repeated_of(kept), want);
            if (step >= 3)
                ck_assert_ptr_nonnull(strstr(a, "box1 static_floor overlap"));
            else
                ck_assert_msg(strstr(a, "box1 static_floor touching") != NULL, "step %d: %s", step, a);
            ck_assert_ptr_nonnull(strstr(a, "decimal static_floor touching"));
            ck_assert_ptr_nonnull(strstr(a, "static_floor sunk overlap"));
            free(a);
            free(b);
            hs_report_free(fresh);
        }
        hs_report_free(kept);
        hs_body_get_pose(box[0], m); /* back for the second round */
        m[3] -= 0x1p-30;
        hs_body_set_pose(box[0], m, &err);
        ck_assert_int_eq(hs_world_remove_body(w, box[1], &err), HS_OK);
        box[1] = box_body(w, "box1", 0, unit, -6, 0, 0.5);
    }
    hs_world_free(w);
}
END_TEST

/* Without contacts a touching pair's separating normal is not computed, and
 * its record says so: a later query with contacts on the same numbers
 * tests the pair again (and then answers from the new record), giving the
 * contacts a fresh report gives. */
START_TEST(records_without_normals_serve_no_contacts)
{
    hs_world *w = hs_world_new();
    const double floor_size[3] = {20, 20, 1};
    box_body(w, "static_floor", 1, floor_size, 0, 0, -0.5);
    char name[32];
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "box%d", k);
        box_body(w, name, 0, unit, 3.0 * k - 3, 0, 0.5);
    }
    hs_query_options off, on;
    hs_query_options_init(&off);
    off.contacts = 0;
    on = off;
    on.contacts = 1;
    hs_report *kept = hs_report_new(), *fresh = hs_report_new();
    free(report_bits(w, &off, kept));
    ck_assert_int_eq(repeated_of(kept), 0);
    free(report_bits(w, &off, kept));
    ck_assert_int_eq(repeated_of(kept), 3); /* records serve the same question */
    char *a = report_bits(w, &on, kept), *b = report_bits(w, &on, fresh);
    ck_assert_int_eq(repeated_of(kept), 0); /* they hold no normal: tested again */
    ck_assert_str_eq(a, b);
    ck_assert_ptr_nonnull(strstr(a, "["));
    free(a);
    a = report_bits(w, &on, kept);
    ck_assert_int_eq(repeated_of(kept), 3);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    hs_report_free(kept);
    hs_report_free(fresh);
    hs_world_free(w);
}
END_TEST

/* A report reused across queries keeps hints from the last one (temporal
 * coherence); they must never change an answer.  Bodies drift in small
 * steps through overlap, touching (dyadic boxes side by side at every
 * 4th step) and separation; every answer is compared with a fresh report's. */
START_TEST(reused_reports_answer_like_fresh_ones)
{
    hs_world *w = hs_world_new();
    hs_error err;
    char name[32];
    hs_body *body[24];
    for (int k = 0; k < 24; k++) {
        snprintf(name, sizeof name, "h%02d", k);
        body[k] = hs_world_add_body(w, name, 0, &err);
        if (k % 2 == 0) {
            ck_assert_int_eq(hs_body_add_box(body[k], unit, NULL, &err), HS_OK);
            continue;
        }
        double pts[3 * 14];
        for (int i = 0; i < 14; i++) {
            pts[3 * i] = 0.6 * cos(1.3 * i + k) * sin(0.7 * i + 1);
            pts[3 * i + 1] = 0.6 * sin(1.3 * i + k) * sin(0.7 * i + 1);
            pts[3 * i + 2] = 0.6 * cos(0.7 * i + 1);
        }
        ck_assert_msg(hs_body_add_hull(body[k], pts, 14, NULL, &err) == HS_OK, "%s", err.msg);
    }
    hs_query_options opt;
    hs_query_options_init(&opt);
    opt.threshold = 0;
    hs_report *kept = hs_report_new(), *fresh;
    int touching = 0, overlap = 0;
    for (int step = 0; step < 40; step++) {
        for (int k = 0; k < 24; k++) {
            double m[16], t[3] = {(k % 6) * 1.0 + 0.02 * step * ((k & 1) ? 1 : -1),
                                  (k / 6) * 1.0, 0};
            if (step % 4 == 0 && k % 2 == 0) /* boxes at integer spots: faces touch */
                t[0] = (double)(k % 6), t[1] = (double)(k / 6);
            hs_pose_from_zyz(m, (k % 2) ? 0.05 * step : 0, 0, 0, t);
            ck_assert_int_eq(hs_body_set_pose(body[k], m, &err), HS_OK);
        }
        fresh = hs_report_new();
        char *a = report_text(w, &opt, kept), *b = report_text(w, &opt, fresh);
        ck_assert_str_eq(a, b);
        touching += strstr(a, "touching") != NULL;
        overlap += strstr(a, "overlap") != NULL;
        free(a);
        free(b);
        hs_report_free(fresh);
    }
    ck_assert_int_gt(touching, 5);
    ck_assert_int_gt(overlap, 5);
    hs_report_free(kept);
    hs_world_free(w);
}
END_TEST

/* A report keeps the narrow phase's workspaces for its next query.  Two
 * reports see the same queries (so they hold the same hints), one with 1
 * and 3 threads in turn, the other with 2 (so their workspaces have
 * classified different pairs before); with boxes, hulls and a mesh (whose
 * triangles use the triangle-convex workspace) and the fast and exact
 * engines in turn, they answer bit for bit alike (witnesses, distances,
 * contacts), and each like a fresh report on the statuses. */
START_TEST(kept_workspaces_answer_bit_for_bit)
{
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *body[9];
    double tet[12] = {0, 0, 0, 1.5, 0, 0, 0, 1.5, 0, 0, 0, 1.5};
    int tris[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    for (int k = 0; k < 9; k++) {
        char name[16];
        snprintf(name, sizeof name, "b%d", k);
        body[k] = hs_world_add_body(w, name, 0, &err);
        hs_code rc = k % 3 == 0   ? hs_body_add_box(body[k], unit, NULL, &err)
                     : k % 3 == 1 ? hs_body_add_hull(body[k], tet, 4, NULL, &err)
                                  : hs_body_add_mesh(body[k], tet, 4, tris, 4, NULL, &err);
        ck_assert_msg(rc == HS_OK, "%s", err.msg);
    }
    hs_query_options opt;
    hs_query_options_init(&opt);
    opt.threshold = 0.05;
    hs_report *one = hs_report_new(), *two = hs_report_new();
    int met = 0;
    for (int step = 0; step < 24; step++) {
        for (int k = 0; k < 9; k++) {
            double m[16], t[3] = {(k % 3) * 0.9 + 0.03 * step * ((k & 1) ? 1 : -1), (k / 3) * 0.9,
                                  0.01 * k};
            hs_pose_from_zyz(m, 0.07 * step * (k % 4), 0.1 * k, 0, t);
            ck_assert_int_eq(hs_body_set_pose(body[k], m, &err), HS_OK);
        }
        opt.engine = step % 5 == 4 ? HS_ENGINE_EXACT : HS_ENGINE_FAST;
        opt.threads = step % 2 ? 3 : 1;
        char *a = report_bits(w, &opt, one);
        opt.threads = 2;
        char *b = report_bits(w, &opt, two);
        ck_assert_str_eq(a, b);
        /* statuses as a fresh report's; with the exact engine, which takes no
         * hints, every bit as well (so the kept workspaces changed engine) */
        hs_report *fresh = hs_report_new();
        int exact = opt.engine == HS_ENGINE_EXACT;
        char *c = report_dump(w, &opt, fresh, exact), *d = report_dump(w, &opt, one, exact);
        ck_assert_str_eq(c, d);
        met += strstr(a, "overlap") != NULL || strstr(a, "touching") != NULL;
        free(a);
        free(b);
        free(c);
        free(d);
        hs_report_free(fresh);
    }
    ck_assert_int_gt(met, 10);
    hs_report_free(one);
    hs_report_free(two);
    hs_world_free(w);
}
END_TEST

/* Seed 001: move until contact stops within the threshold, free. */
START_TEST(move_until_contact)
{
    hs_world *w = hs_world_new();
    hs_error err;
    double floor_size[3] = {10, 10, 1};
    box_body(w, "floor", 1, floor_size, 0, 0, -0.5); /* top face z = 0 */
    hs_body *b = box_body(w, "box", 0, unit, 0, 0, 3);
    hs_report *rep = hs_report_new();
    hs_query_options opt;
    hs_query_options_init(&opt);
    double goal[16], f;
    hs_pose_identity(goal);
    goal[11] = -2; /* through the floor */
    ck_assert_int_eq(hs_world_move_until_contact(w, b, goal, &opt, rep, &f, &err), HS_OK);
    double m[16];
    hs_body_get_pose(b, m);
    double gap = m[11] - 0.5; /* bottom face height */
    ck_assert_msg(gap >= 0 && gap < opt.threshold, "gap %g", gap);
    ck_assert(f > 0 && f < 1);
    ck_assert_int_eq(hs_report_pair_count(rep), 1);
    hs_status st;
    hs_report_pair(rep, 0, NULL, NULL, &st);
    ck_assert(st == HS_CONTACT || st == HS_TOUCHING);
    ck_assert_int_eq(hs_report_contact_count(rep, 0), 4);
    goal[11] = 5; /* away: free all the way */
    ck_assert_int_eq(hs_world_move_until_contact(w, b, goal, &opt, rep, &f, &err), HS_OK);
    ck_assert(f == 1);
    hs_pose_identity(goal);
    hs_body_set_pose(b, goal, &err); /* now inside the floor */
    ck_assert_int_eq(hs_world_move_until_contact(w, b, goal, &opt, rep, &f, &err), HS_ERR_INPUT);
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

/* A fast motion through a thin plate, and a rotating bar sweeping into a
 * post: conservative advancement stops both before the obstacle, where
 * checking only the end pose (or fixed steps) would pass through. */
START_TEST(move_does_not_tunnel)
{
    hs_world *w = hs_world_new();
    hs_error err;
    double plate[3] = {4, 4, 0.01}, bar[3] = {4, 0.2, 0.2}, post[3] = {0.2, 0.2, 2};
    box_body(w, "plate", 1, plate, 0, 0, 0);
    hs_body *b = box_body(w, "box", 0, unit, 0, 0, 50);
    hs_report *rep = hs_report_new();
    hs_query_options opt;
    hs_query_options_init(&opt);
    opt.threshold = 0.01;
    double goal[16], m[16], f;
    hs_pose_identity(goal);
    goal[11] = -50;
    ck_assert_int_eq(hs_world_move_until_contact(w, b, goal, &opt, rep, &f, &err), HS_OK);
    hs_body_get_pose(b, m);
    double gap = m[11] - 0.5 - 0.005;
    ck_assert_msg(gap > 0 && gap < opt.threshold, "gap %g", gap);
    ck_assert(f > 0.49 && f < 0.5);
    hs_body *arm = box_body(w, "bar", 0, bar, 10, 0, 0);
    box_body(w, "post", 1, post, 10, 1.5, 0); /* beside the bar's far half */
    double axis[3] = {0, 0, 1}, t[3] = {10, 0, 0};
    ck_assert_int_eq(hs_pose_from_axis_angle(goal, axis, 3.0, t, &err), HS_OK);
    ck_assert_int_eq(hs_world_move_until_contact(w, arm, goal, &opt, rep, &f, &err), HS_OK);
    ck_assert_msg(f > 0 && f < 0.5, "f %g", f);
    double d;
    hs_body *post_b = hs_world_find_body(w, "post");
    double pa[3], pb[3];
    ck_assert_int_eq(hs_world_distance(w, arm, post_b, &d, pa, pb, &err), HS_OK);
    ck_assert_msg(d > 0 && d < opt.threshold, "d %g", d);
    opt.threshold = 0;
    ck_assert_int_eq(hs_world_move_until_contact(w, arm, goal, &opt, rep, &f, &err), HS_ERR_ARG);
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

START_TEST(meshes_and_convex_pieces)
{
    hs_world *w = hs_world_new();
    hs_error err;
    box_body(w, "box", 0, unit, 0, 0, 0);
    hs_body *m = hs_world_add_body(w, "sheet", 0, &err);
    double v[12] = {-2, -2, 0.25, 2, -2, 0.25, 2, 2, 0.25, -2, 2, 0.25};
    int tris[6] = {0, 1, 2, 0, 2, 3};
    ck_assert_int_eq(hs_body_add_mesh(m, v, 4, tris, 2, NULL, &err), HS_OK);
    hs_report *rep = hs_report_new();
    hs_query_options opt;
    hs_query_options_init(&opt);
    ck_assert_int_eq(pair_status(w, &opt, "box", "sheet", rep), HS_OVERLAP);
    double p[16];
    hs_pose_identity(p);
    p[11] = 0.25; /* the sheet on the top face z = 0.5 */
    hs_body_set_pose(m, p, &err);
    ck_assert_int_eq(pair_status(w, &opt, "box", "sheet", rep), HS_TOUCHING);
    hs_body *m2 = hs_world_clone_body(w, m, "sheet2", &err);
    p[11] = 0.25;
    hs_body_set_pose(m2, p, &err);
    ck_assert_int_eq(pair_status(w, &opt, "sheet", "sheet2", rep), HS_OVERLAP); /* coplanar */
    p[11] = 0.3;
    hs_body_set_pose(m2, p, &err);
    ck_assert_int_eq(pair_status(w, &opt, "sheet", "sheet2", rep), HS_CONTACT);
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

Suite *suite_world(void)
{
    Suite *s = suite_create("world");
    TCase *tc = tcase_create("world");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, pose_builders);
    tcase_add_test(tc, bodies_names_and_errors);
    tcase_add_test(tc, names_through_additions_and_removals);
    tcase_add_test(tc, pairs_ordered_by_name);
    tcase_add_test(tc, clones_outlive_their_original);
    tcase_add_test(tc, clones_keep_their_turned_pose);
    tcase_add_test(tc, statuses_in_the_world_frame);
    tcase_add_test(tc, distance_matches_its_points);
    tcase_add_test(tc, filters);
    tcase_add_test(tc, pieces_resting_in_a_sheet);
    tcase_add_test(tc, methods_and_threads_agree);
    tcase_add_test(tc, reused_reports_answer_like_fresh_ones);
    tcase_add_test(tc, records_without_normals_serve_no_contacts);
    tcase_add_test(tc, kept_workspaces_answer_bit_for_bit);
    tcase_add_test(tc, resting_pairs_answered_from_the_record);
    tcase_add_test(tc, move_until_contact);
    tcase_add_test(tc, move_does_not_tunnel);
    tcase_add_test(tc, meshes_and_convex_pieces);
    suite_add_tcase(s, tc);
    return s;
}
