/* test_robot_states.c -- hs_robot_check_states: many configurations on
 * worker threads against hs_robot_check one by one (and the self and world
 * queries, for which of the two collides), the same output on 1, 2 and 4
 * threads and from two callers sharing one robot at once, the robot left
 * as it was, and its errors.  On the Panda of the data set among the
 * table and shelf of examples/ompl_panda, and on a small robot written
 * here (no data needed). */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"
#include "tests/robot_helpers.h"

/* n random configurations within the limits (continuous joints: [-4, 4]). */
static double *states_random(const hs_robot *r, size_t n, uint64_t seed)
{
    int dof = hs_robot_dof(r);
    double *Q = malloc(sizeof(double) * (size_t)dof * n);
    ck_assert(Q != NULL);
    uint64_t s = seed;
    for (size_t k = 0; k < n; k++)
        for (int j = 0; j < dof; j++) {
            double lo, hi;
            ck_assert(hs_robot_coordinate_limits(r, j, &lo, &hi, NULL) == HS_OK);
            if (!isfinite(lo) || !isfinite(hi)) {
                lo = -4;
                hi = 4;
            }
            Q[k * (size_t)dof + (size_t)j] = lo + (hi - lo) * t_rng_unit(&s);
        }
    return Q;
}

/* The answers of hs_robot_check_states against the single queries, row
 * by row; counts[c] the rows answered c.  The robot ends where it began. */
static void states_against_singles(hs_robot *r, const hs_world *w, const double *Q, size_t n,
                                   int counts[4])
{
    int dof = hs_robot_dof(r);
    double before[64], after[64];
    ck_assert(dof <= 64);
    hs_error err;
    ck_assert(hs_robot_get_q(r, before, dof, &err) == HS_OK);
    unsigned char *out[3];
    const int threads[3] = {1, 2, 4};
    for (int t = 0; t < 3; t++) {
        out[t] = malloc(n);
        memset(out[t], 0xee, n);
        ck_assert_msg(hs_robot_check_states(r, w, Q, n, threads[t], out[t], &err) == HS_OK,
                      "%s", err.msg);
        ck_assert(hs_robot_get_q(r, after, dof, &err) == HS_OK);
        ck_assert(memcmp(before, after, sizeof(double) * (size_t)dof) == 0);
    }
    ck_assert(memcmp(out[0], out[1], n) == 0);
    ck_assert(memcmp(out[0], out[2], n) == 0);
    memset(counts, 0, 4 * sizeof(int));
    for (size_t k = 0; k < n; k++) {
        const double *q = Q + k * (size_t)dof;
        int c = out[0][k];
        ck_assert_msg(c >= 0 && c <= (w ? 3 : 1), "row %zu: answer %d", k, c);
        counts[c]++;
        int check = hs_robot_check(r, w, q, dof, &err);
        ck_assert_msg(check >= 0, "%s", err.msg);
        EXPECT((c != 0) == check, "row %zu: check_states %d, hs_robot_check %d", k, c, check);
        hs_robot_pair *pairs;
        int np;
        ck_assert(hs_robot_self_collision_all(r, &pairs, &np, &err) == HS_OK);
        hs_free(pairs);
        EXPECT((c & 1) == (np > 0), "row %zu: check_states %d, %d self pairs", k, c, np);
        if (w) {
            int hit = hs_robot_world_collision(r, w, NULL, NULL, &err);
            ck_assert(hit >= 0);
            EXPECT((c >> 1) == hit, "row %zu: check_states %d, world %d", k, c, hit);
        }
    }
    for (int t = 0; t < 3; t++)
        free(out[t]);
    ck_assert(hs_robot_set_q(r, before, dof, &err) == HS_OK);
}

START_TEST(panda_states_match_single_checks)
{
    const char *p = t_data("panda_states_match_single_checks", "urdf/franka_panda/panda.urdf");
    if (!p)
        return;
    hs_error err;
    hs_robot *r = hs_robot_load(p, NULL, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    hs_world *w = hs_world_load(t_example_path("ompl_panda/table_shelf.wrl"), &err);
    ck_assert_msg(w != NULL, "%s", err.msg);
    size_t n = 1500;
    double *Q = states_random(r, n, 5);
    int counts[4];
    states_against_singles(r, w, Q, n, counts);
    /* random configurations among a table and a shelf give every answer */
    for (int c = 0; c < 4; c++)
        EXPECT(counts[c] > 0, "no row answered %d (%d %d %d %d)", c, counts[0], counts[1],
               counts[2], counts[3]);
    states_against_singles(r, NULL, Q, 400, counts);
    EXPECT(counts[0] > 0 && counts[1] > 0, "self only: %d %d", counts[0], counts[1]);
    /* a moved base applies */
    double base[16];
    hs_pose_identity(base);
    base[3] = 0.3;
    ck_assert(hs_robot_set_base(r, base, &err) == HS_OK);
    states_against_singles(r, w, Q, 300, counts);
    free(Q);
    hs_world_free(w);
    hs_robot_free(r);
}
END_TEST

/* Two arms on a base, a mimic joint, a continuous joint; a wall. */
static const char STATES_TREE[] =
    "<?xml version=\"1.0\"?>\n"
    "<robot name=\"two_arms\">\n"
    "  <link name=\"base\"><collision><geometry><box size=\"1 1 0.2\"/></geometry></collision></link>\n"
    "  <link name=\"a1\"><collision><origin xyz=\"0 0 0.5\"/><geometry><box size=\"0.1 0.1 1\"/></geometry></collision></link>\n"
    "  <link name=\"a2\"><collision><origin xyz=\"0 0 0.4\"/><geometry><cylinder radius=\"0.05\" length=\"0.8\"/></geometry></collision></link>\n"
    "  <link name=\"b1\"><collision><origin xyz=\"0 0 0.5\"/><geometry><box size=\"0.1 0.1 1\"/></geometry></collision></link>\n"
    "  <link name=\"b2\"><collision><origin xyz=\"0 0 0.4\"/><geometry><sphere radius=\"0.1\"/></geometry></collision></link>\n"
    "  <joint name=\"ja1\" type=\"revolute\"><parent link=\"base\"/><child link=\"a1\"/>\n"
    "    <origin xyz=\"0.3 0 0.1\"/><axis xyz=\"0 1 0\"/><limit lower=\"-2\" upper=\"2\"/></joint>\n"
    "  <joint name=\"ja2\" type=\"continuous\"><parent link=\"a1\"/><child link=\"a2\"/>\n"
    "    <origin xyz=\"0 0 1.05\"/><axis xyz=\"0 1 0\"/></joint>\n"
    "  <joint name=\"jb1\" type=\"revolute\"><parent link=\"base\"/><child link=\"b1\"/>\n"
    "    <origin xyz=\"-0.3 0 0.1\"/><axis xyz=\"0 1 0\"/><limit lower=\"-2\" upper=\"2\"/></joint>\n"
    "  <joint name=\"jb2\" type=\"revolute\"><parent link=\"b1\"/><child link=\"b2\"/>\n"
    "    <origin xyz=\"0 0 1.05\"/><axis xyz=\"0 1 0\"/><limit lower=\"-3\" upper=\"3\"/>\n"
    "    <mimic joint=\"ja2\" multiplier=\"-0.5\"/></joint>\n"
    "</robot>\n";

START_TEST(small_tree_states_and_errors)
{
    const char *msg;
    hs_robot_options o;
    hs_robot_options_init(&o);
    o.auto_skip = 0;
    hs_robot *r = rt_load(STATES_TREE, ".", &o, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    ck_assert_int_eq(hs_robot_dof(r), 3); /* ja1, ja2, jb1 (jb2 mimics ja2) */
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *wall = hs_world_add_body(w, "wall", 1, &err);
    double size[3] = {0.2, 2, 4}, m[16];
    hs_pose_identity(m);
    m[3] = 1.2;
    ck_assert(hs_body_add_box(wall, size, NULL, &err) == HS_OK);
    ck_assert(hs_body_set_pose(wall, m, &err) == HS_OK);
    size_t n = 3000;
    double *Q = states_random(r, n, 17);
    int counts[4];
    states_against_singles(r, w, Q, n, counts);
    for (int c = 0; c < 4; c++)
        EXPECT(counts[c] > 0, "no row answered %d (%d %d %d %d)", c, counts[0], counts[1],
               counts[2], counts[3]);
    /* the world disabled: self only */
    unsigned char out[8];
    hs_world_set_enabled(w, 0);
    ck_assert(hs_robot_check_states(r, w, Q, 8, 2, out, &err) == HS_OK);
    for (int k = 0; k < 8; k++)
        ck_assert(out[k] <= 1);
    hs_world_set_enabled(w, 1);

    /* errors: the first bad row is named, nothing answered */
    Q[3 * 5 + 0] = 2.5; /* ja1 above its limit in row 6 */
    Q[3 * 9 + 2] = NAN;
    memset(out, 0xee, sizeof out);
    ck_assert_int_eq(hs_robot_check_states(r, w, Q, 8, 2, out, &err), HS_ERR_ARG);
    ck_assert_msg(strstr(err.msg, "configuration 6") && strstr(err.msg, "ja1"), "%s", err.msg);
    ck_assert(out[0] == 0xee);
    ck_assert_int_eq(hs_robot_check_states(r, w, Q, 12, 1, out, &err), HS_ERR_ARG);
    ck_assert_msg(strstr(err.msg, "configuration 6"), "%s", err.msg);
    ck_assert_int_eq(hs_robot_check_states(r, w, Q + 3 * 6, 4, 1, out, &err), HS_ERR_ARG);
    ck_assert_msg(strstr(err.msg, "configuration 4") && strstr(err.msg, "not finite"), "%s",
                  err.msg);
    ck_assert_int_eq(hs_robot_check_states(NULL, w, Q, 1, 1, out, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_robot_check_states(r, w, NULL, 1, 1, out, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_robot_check_states(r, w, Q, 1, 1, NULL, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_robot_check_states(r, w, Q, 1, -1, out, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_robot_check_states(r, w, Q, 1, -1, out, NULL), HS_ERR_ARG);
    /* no rows: nothing to do, any threads */
    ck_assert_int_eq(hs_robot_check_states(r, w, NULL, 0, 0, NULL, &err), HS_OK);
    /* more threads than rows, and one per CPU */
    ck_assert_int_eq(hs_robot_check_states(r, w, Q, 2, 64, out, &err), HS_OK);
    ck_assert_int_eq(hs_robot_check_states(r, w, Q, 5, 0, out, &err), HS_OK);
    free(Q);
    hs_world_free(w);
    hs_robot_free(r);
}
END_TEST

/* Two callers sharing one robot and one world at once. */
typedef struct states_caller {
    const hs_robot *r;
    const hs_world *w;
    const double *Q;
    size_t n;
    unsigned char *out;
    hs_code rc;
} states_caller;

static void *states_call(void *arg)
{
    states_caller *c = arg;
    hs_error err;
    c->rc = hs_robot_check_states(c->r, c->w, c->Q, c->n, 2, c->out, &err);
    return NULL;
}

START_TEST(concurrent_callers_share_a_robot)
{
    const char *msg;
    hs_robot *r = rt_load(STATES_TREE, ".", NULL, &msg);
    ck_assert_msg(r != NULL, "%s", msg);
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *ball = hs_world_add_body(w, "ball", 1, &err);
    double at[16];
    hs_pose_identity(at);
    at[3] = 0.8;
    at[11] = 1.2;
    ck_assert(hs_body_add_sphere(ball, 0.3, 2, at, &err) == HS_OK);
    size_t n = 4000;
    double *Q = states_random(r, n, 23);
    unsigned char *want = malloc(n), *got[2] = {malloc(n), malloc(n)};
    ck_assert(hs_robot_check_states(r, w, Q, n, 1, want, &err) == HS_OK);
    states_caller call[2];
    pthread_t tid[2];
    for (int t = 0; t < 2; t++) {
        call[t] = (states_caller){r, w, Q, n, got[t], HS_ERR_INTERNAL};
        ck_assert(pthread_create(&tid[t], NULL, states_call, &call[t]) == 0);
    }
    for (int t = 0; t < 2; t++) {
        pthread_join(tid[t], NULL);
        ck_assert_int_eq(call[t].rc, HS_OK);
        ck_assert(memcmp(got[t], want, n) == 0);
    }
    free(want);
    free(got[0]);
    free(got[1]);
    free(Q);
    hs_world_free(w);
    hs_robot_free(r);
}
END_TEST

Suite *suite_robot_states(void)
{
    Suite *s = suite_create("robot_states");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, panda_states_match_single_checks);
    tcase_add_test(tc, small_tree_states_and_errors);
    tcase_add_test(tc, concurrent_callers_share_a_robot);
    suite_add_tcase(s, tc);
    return s;
}
