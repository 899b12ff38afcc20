/* test_path.c -- trajectories (seed 004, sections 4-5): step poses of
 * lines and arcs (centre, radius, arc angle including theta > pi, the step
 * angle delta and the count N of eq. (31) against the seed's own
 * formulas), the first blocked step, the contact pose by bisection, the
 * guaranteed mode catching a thin wall and a turning bar that few steps
 * miss, touching at an end pose, and every error path. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

static hs_body *box_at(hs_world *w, const char *name, int is_static, double sx, double sy,
                       double sz, double x, double y, double z)
{
    hs_error err;
    hs_body *b = hs_world_add_body(w, name, is_static, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    double size[3] = {sx, sy, sz}, m[16];
    ck_assert_msg(hs_body_add_box(b, size, NULL, &err) == HS_OK, "%s", err.msg);
    hs_pose_identity(m);
    m[3] = x, m[7] = y, m[11] = z;
    ck_assert_msg(hs_body_set_pose(b, m, &err) == HS_OK, "%s", err.msg);
    return b;
}

static hs_path *line_of(const hs_body *b, double x, double y, double z, const double *zyz)
{
    double start[16], t[3] = {x, y, z};
    hs_error err;
    hs_body_get_pose(b, start);
    hs_path *p = hs_path_line(start, t, zyz, &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    return p;
}

static double dist3(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

static void translation(const double m[16], double t[3])
{
    t[0] = m[3], t[1] = m[7], t[2] = m[11];
}

/* ------------------------------------------------------------ lines */

/* Seed 004, section 4: "dividing (10) into ten steps", one per unit;
 * the same from a speed F and period T with F T = 1. */
START_TEST(line_steps_of_the_seed)
{
    double start[16], t[3] = {10, 0, 0}, *poses;
    int count, k;
    hs_error err;
    hs_pose_identity(start);
    hs_path *p = hs_path_line(start, t, NULL, &err);
    hs_path_options opt;
    hs_path_options_init(&opt);
    ck_assert_int_eq(opt.steps, 10);
    ck_assert_int_eq(hs_path_step_poses(p, &opt, &poses, &count, &err), HS_OK);
    ck_assert_int_eq(count, 11);
    for (int i = 0; i < count; i++) {
        double id[16];
        hs_pose_identity(id);
        id[3] = i; /* exactly i: the rotation is kept bit for bit */
        ck_assert(memcmp(poses + 16 * i, id, sizeof id) == 0);
    }
    hs_free(poses);
    opt.steps = 0, opt.speed = 2, opt.period = 0.5;
    ck_assert_int_eq(hs_path_step_count(p, &opt, &k, &err), HS_OK);
    ck_assert_int_eq(k, 10);
    opt.speed = 3, opt.period = 1; /* 10 / 3: rounded up, no step longer than F T */
    ck_assert_int_eq(hs_path_step_count(p, &opt, &k, &err), HS_OK);
    ck_assert_int_eq(k, 4);
    ck_assert(fabs(hs_path_length(p) - 10) == 0);
    ck_assert(!hs_path_is_arc(p));
    hs_path_free(p);
}
END_TEST

/* A line turning to Z-Y-Z angles: slerp, so the middle is half way. */
START_TEST(line_turns_to_zyz)
{
    double start[16], t[3] = {0, 0, 4}, zyz[3] = {M_PI / 2, 0, 0}, m[16], want[16];
    hs_error err;
    hs_pose_identity(start);
    hs_path *p = hs_path_line(start, t, zyz, &err);
    ck_assert_int_eq(hs_path_pose(p, 1, m, &err), HS_OK);
    hs_pose_from_zyz(want, M_PI / 2, 0, 0, t);
    for (int i = 0; i < 16; i++)
        ck_assert(fabs(m[i] - want[i]) < 1e-15);
    ck_assert(m[11] == 4); /* the target translation exactly */
    ck_assert_int_eq(hs_path_pose(p, 0.5, m, &err), HS_OK);
    double half[3] = {0, 0, 2};
    hs_pose_from_zyz(want, M_PI / 4, 0, 0, half);
    for (int i = 0; i < 16; i++)
        ck_assert_msg(fabs(m[i] - want[i]) < 1e-14, "entry %d: %g vs %g", i, m[i], want[i]);
    ck_assert_int_eq(hs_path_pose(p, 0, m, &err), HS_OK);
    ck_assert(memcmp(m, start, sizeof m) == 0);
    hs_path_free(p);
}
END_TEST

/* ------------------------------------------------------------- arcs */

/* A circle of radius 5 about (1, 2, 3) in a tilted plane. */
static const double C0[3] = {1, 2, 3}, E1[3] = {1. / 3, 2. / 3, 2. / 3},
                    E2[3] = {2. / 3, 1. / 3, -2. / 3};
static void on_circle(double phi, double p[3])
{
    for (int i = 0; i < 3; i++)
        p[i] = C0[i] + 5 * (cos(phi) * E1[i] + sin(phi) * E2[i]);
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Seed 004, eqs. (16)-(18) as they are meant (the printed third row and
 * the squared norms in B are typesetting slips): two bisector planes,
 * 2 (P1 - P0) . c = |P1|^2 - |P0|^2, 2 (P2 - P1) . c = |P2|^2 - |P1|^2,
 * and the plane of the points, n . c = n . P0, solved by Cramer's rule. */
static void seed_centre(const double p0[3], const double p1[3], const double p2[3], double c[3])
{
    double A[3][3], B[3], a[3], b[3], n[3];
    for (int i = 0; i < 3; i++) {
        a[i] = p1[i] - p0[i];
        b[i] = p2[i] - p1[i];
        A[0][i] = 2 * a[i];
        A[1][i] = 2 * b[i];
    }
    cross3(a, b, n);
    memcpy(A[2], n, sizeof n);
    B[0] = dot3(p1, p1) - dot3(p0, p0);
    B[1] = dot3(p2, p2) - dot3(p1, p1);
    B[2] = dot3(n, p0);
    double det = dot3(A[0], (cross3(A[1], A[2], n), n));
    for (int j = 0; j < 3; j++) {
        double M[3][3];
        memcpy(M, A, sizeof M);
        for (int i = 0; i < 3; i++)
            M[i][j] = B[i];
        double r[3];
        cross3(M[1], M[2], r);
        c[j] = dot3(M[0], r) / det;
    }
}

/* Seed 004, eqs. (19)-(25): theta from the chord, > pi when H < 0. */
static double seed_theta(const double p0[3], const double p1[3], const double p2[3],
                         const double c[3], double R)
{
    double a[3], b[3], n[3], r0[3], ch[3], m[3];
    for (int i = 0; i < 3; i++) {
        a[i] = p1[i] - p0[i];
        b[i] = p2[i] - p1[i];
        r0[i] = p0[i] - c[i];
        ch[i] = p2[i] - p0[i];
    }
    cross3(a, b, n);   /* (u, v, w), eq. (19) */
    cross3(r0, ch, m); /* (u1, v1, w1), eqs. (21)-(23) */
    double H = dot3(n, m), half = 2 * asin(sqrt(dot3(ch, ch)) / (2 * R));
    return H >= 0 ? half : 2 * M_PI - half;
}

static void check_arc(double phi1, double phi2)
{
    double p0[3], p1[3], p2[3], start[16], centre[3], normal[3], R, theta, seed_c[3];
    hs_error err;
    on_circle(0, p0);
    on_circle(phi1, p1);
    on_circle(phi2, p2);
    hs_pose_identity(start);
    start[3] = p0[0], start[7] = p0[1], start[11] = p0[2];
    hs_path *p = hs_path_arc(start, p1, p2, 0, &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    ck_assert(hs_path_is_arc(p));
    ck_assert_int_eq(hs_path_arc_geometry(p, centre, normal, &R, &theta, &err), HS_OK);
    ck_assert_msg(dist3(centre, C0) < 1e-12, "centre off by %g", dist3(centre, C0));
    ck_assert_msg(fabs(R - 5) < 1e-12, "R - 5 = %g", R - 5);
    ck_assert_msg(fabs(theta - phi2) < 1e-13, "theta %.17g, want %.17g", theta, phi2);
    double e12[3];
    cross3(E1, E2, e12); /* the arc turns from E1 towards E2 */
    ck_assert(dist3(normal, e12) < 1e-14);
    seed_centre(p0, p1, p2, seed_c);
    ck_assert(dist3(seed_c, centre) < 1e-12);
    ck_assert_msg(fabs(seed_theta(p0, p1, p2, seed_c, R) - theta) < 1e-7,
                  "seed theta %.17g vs %.17g", seed_theta(p0, p1, p2, seed_c, R), theta);
    ck_assert(fabs(hs_path_length(p) - 5 * phi2) < 1e-12);
    hs_path_free(p);
}

START_TEST(arc_centre_radius_theta)
{
    check_arc(0.5, 1.2);     /* theta < pi: H >= 0 in the seed */
    check_arc(2.5, 4.5);     /* theta > pi: H < 0, eq. (25) */
    check_arc(0.1, 6.2);     /* nearly a full circle */
    check_arc(3.0, 3.1);     /* the via point close to the end */
}
END_TEST

/* Eq. (31): delta = asin(F T / R), N = theta / delta + 1 points: the
 * step count is ceil(theta / delta), the poses are equally spaced on the
 * circle, start and end exactly the given points. */
START_TEST(arc_steps_of_eq31)
{
    double p0[3], p1[3], p2[3], start[16], *poses;
    int k, count;
    hs_error err;
    on_circle(0, p0);
    on_circle(2.5, p1);
    on_circle(4.5, p2);
    hs_pose_identity(start);
    start[3] = p0[0], start[7] = p0[1], start[11] = p0[2];
    hs_path *p = hs_path_arc(start, p1, p2, 0, &err);
    hs_path_options opt;
    hs_path_options_init(&opt);
    opt.steps = 0, opt.speed = 5, opt.period = 0.1; /* F T / R = 0.1 */
    ck_assert_int_eq(hs_path_step_count(p, &opt, &k, &err), HS_OK);
    double delta = asin(0.1), n_seed = 4.5 / delta + 1;
    ck_assert_int_eq(k, (int)ceil(4.5 / delta));
    ck_assert_int_eq(k, 45); /* theta / delta = 44.93, N = 45.93 points */
    ck_assert(k + 1 >= n_seed && k < n_seed);
    ck_assert_int_eq(hs_path_step_poses(p, &opt, &poses, &count, &err), HS_OK);
    ck_assert_int_eq(count, 46);
    double t[3], prev[3];
    translation(poses, t);
    ck_assert(memcmp(t, p0, sizeof t) == 0);
    translation(poses + 16 * 45, t);
    ck_assert(memcmp(t, p2, sizeof t) == 0);
    double chord = 2 * 5 * sin(4.5 / 45 / 2);
    for (int i = 1; i < count; i++) {
        translation(poses + 16 * (i - 1), prev);
        translation(poses + 16 * i, t);
        ck_assert(fabs(dist3(t, C0) - 5) < 1e-13);
        ck_assert_msg(fabs(dist3(t, prev) - chord) < 1e-13, "step %d", i);
        ck_assert(poses[16 * i] == 1 && poses[16 * i + 5] == 1); /* orientation fixed */
    }
    hs_free(poses);
    opt.speed = 100; /* F T > R: delta saturates at pi / 2 */
    ck_assert_int_eq(hs_path_step_count(p, &opt, &k, &err), HS_OK);
    ck_assert_int_eq(k, 3);
    hs_path_free(p);
}
END_TEST

/* With turn, the body turns with the arc: at angle phi it is rotated by
 * phi about the arc's normal. */
START_TEST(arc_turning_body)
{
    double start[16], via[3] = {0, 2, 0}, end[3] = {-2, 0, 0}, m[16], want[16];
    double t0[3] = {2, 0, 0}, axis[3] = {0, 0, 1};
    hs_error err;
    hs_pose_from_zyz(start, 0.3, 0.2, 0.1, t0);
    hs_path *p = hs_path_arc(start, via, end, 1, &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    ck_assert_int_eq(hs_path_pose(p, 0.5, m, &err), HS_OK);
    ck_assert(fabs(m[3]) < 1e-15 && fabs(m[7] - 2) < 1e-15 && m[11] == 0);
    hs_pose_from_axis_angle(want, axis, M_PI / 2, NULL, &err);
    hs_pose_multiply(want, want, start);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            ck_assert(fabs(m[4 * i + j] - want[4 * i + j]) < 1e-15);
    hs_path_free(p);
}
END_TEST

/* ------------------------------------------------- checking a path */

typedef struct scene {
    hs_world *w;
    hs_body *box, *wall;
    hs_report *rep;
    hs_path_options opt;
    hs_path_result r;
    hs_error err;
} scene;

/* A unit box at the origin and a static wall 1 thick, x in [4.5, 5.5]. */
static void scene_open(scene *s, double wall_thickness)
{
    memset(s, 0, sizeof *s);
    s->w = hs_world_new();
    s->box = box_at(s->w, "box", 0, 1, 1, 1, 0, 0, 0);
    s->wall = box_at(s->w, "wall", 1, wall_thickness, 4, 4, 4.5 + wall_thickness / 2, 0, 0);
    s->rep = hs_report_new();
    hs_path_options_init(&s->opt);
}

static void scene_close(scene *s)
{
    hs_report_free(s->rep);
    hs_world_free(s->w);
}

static hs_code check_line(scene *s, double x)
{
    hs_path *p = line_of(s->box, x, 0, 0, NULL);
    hs_code rc = hs_path_check(s->w, s->box, p, &s->opt, &s->r, s->rep, &s->err);
    hs_path_free(p);
    return rc;
}

static hs_status only_pair(const hs_report *rep)
{
    hs_status st;
    ck_assert_int_eq(hs_report_pair_count(rep), 1);
    hs_report_pair(rep, 0, NULL, NULL, &st);
    return st;
}

static void assert_at_origin(const hs_body *b)
{
    double m[16], id[16];
    hs_body_get_pose(b, m);
    hs_pose_identity(id);
    ck_assert(memcmp(m, id, sizeof id) == 0);
}

/* Step k = 4 is the first blocked one (it touches the wall: a collision),
 * step 3 the last free; the bisection's contact pose lies within the
 * threshold without a common point, at most one threshold of motion past
 * the first pose within it. */
START_TEST(first_blocked_step_and_contact_pose)
{
    scene s;
    scene_open(&s, 1);
    ck_assert_int_eq(check_line(&s, 10), HS_OK);
    ck_assert(s.r.blocked);
    ck_assert_int_eq(s.r.steps, 10);
    ck_assert_int_eq(s.r.step, 4);
    ck_assert(s.r.step_collision && s.r.step_distance == 0); /* x = 4: the faces meet */
    ck_assert(s.r.free_fraction == 0.3 && s.r.last_free[3] == 3);
    double x = s.r.contact[3], gap = 4.5 - (x + 0.5);
    ck_assert_msg(gap > 0 && gap < s.opt.threshold, "gap %g", gap);
    ck_assert(fabs(s.r.distance - gap) < 1e-12);
    ck_assert(fabs(s.r.fraction - x / 10) < 1e-15);
    ck_assert(s.r.fraction > 0.3 && s.r.fraction < 0.4);
    ck_assert(s.r.threshold == s.opt.threshold);
    ck_assert(s.r.queries >= 1 + 4 + 3); /* start, steps 1-4, some halvings */
    ck_assert_int_eq(only_pair(s.rep), HS_CONTACT);
    ck_assert_int_eq(hs_report_contact_count(s.rep, 0), 4);
    assert_at_origin(s.box);
    /* threshold 0: only collisions block; the contact pose is step 4 */
    s.opt.threshold = 0;
    ck_assert_int_eq(check_line(&s, 10), HS_OK);
    ck_assert(s.r.blocked && s.r.step == 4 && s.r.distance == 0);
    ck_assert(s.r.fraction > 0.4 - 1e-15 && s.r.fraction <= 0.4); /* 0.4 within rounding */
    ck_assert_int_eq(only_pair(s.rep), HS_TOUCHING);
    /* through the wall from further back: the contact pose is still before it */
    s.opt.threshold = 0.1;
    s.opt.steps = 3;
    ck_assert_int_eq(check_line(&s, 7.5), HS_OK);
    ck_assert(s.r.blocked && s.r.step == 2 && s.r.step_collision && s.r.step_distance == 0);
    gap = 4.5 - (s.r.contact[3] + 0.5);
    ck_assert_msg(gap > 0 && gap < 0.1, "gap %g", gap);
    scene_close(&s);
}
END_TEST

/* The end pose touches the wall exactly: with threshold 0 the last step
 * is a collision and the contact pose is the end; with a threshold the
 * contact pose comes before it, in both modes. */
START_TEST(touching_at_the_end_pose)
{
    scene s;
    scene_open(&s, 1);
    s.opt.threshold = 0;
    s.opt.steps = 4;
    ck_assert_int_eq(check_line(&s, 4), HS_OK);
    ck_assert(s.r.blocked && s.r.step == 4 && s.r.step_collision && s.r.step_distance == 0);
    /* (within rounding of the end: a pose 2^-53 short of it rounds onto the wall) */
    ck_assert(s.r.fraction > 1 - 1e-15 && fabs(s.r.contact[3] - 4) < 1e-14);
    ck_assert(s.r.distance == 0);
    ck_assert_int_eq(only_pair(s.rep), HS_TOUCHING);
    ck_assert_int_eq(check_line(&s, 3.999), HS_OK); /* just short of it: free */
    ck_assert(!s.r.blocked && s.r.step == 0 && s.r.fraction == 1);
    ck_assert(fabs(s.r.distance - 0.001) < 1e-12);
    ck_assert_int_eq(hs_report_pair_count(s.rep), 0);
    s.opt.threshold = 0.1;
    ck_assert_int_eq(check_line(&s, 4), HS_OK);
    ck_assert(s.r.blocked && s.r.step == 4 && s.r.fraction < 1);
    ck_assert(s.r.distance > 0 && s.r.distance < 0.1);
    s.opt.guaranteed = 1;
    ck_assert_int_eq(check_line(&s, 4), HS_OK);
    ck_assert(s.r.blocked && s.r.step == 4 && s.r.fraction < 1);
    ck_assert(s.r.distance > 0 && s.r.distance < 0.1);
    ck_assert_int_eq(only_pair(s.rep), HS_CONTACT);
    assert_at_origin(s.box);
    scene_close(&s);
}
END_TEST

/* A wall 0.01 thick: three steps jump over it, the guaranteed mode
 * cannot; many steps see it too. */
START_TEST(guaranteed_catches_a_thin_wall)
{
    scene s;
    scene_open(&s, 0.01);
    s.opt.steps = 3;
    ck_assert_int_eq(check_line(&s, 10), HS_OK);
    ck_assert(!s.r.blocked); /* the stepped mode misses it: documented */
    s.opt.guaranteed = 1;
    ck_assert_int_eq(check_line(&s, 10), HS_OK);
    ck_assert(s.r.blocked);
    double gap = 4.5 - (s.r.contact[3] + 0.5);
    ck_assert_msg(gap > 0 && gap < 0.1, "gap %g", gap);
    ck_assert(fabs(s.r.distance - gap) < 1e-12);
    ck_assert_int_eq(s.r.step, 2); /* x about 4.4 of 10, in step 2 of 3 */
    ck_assert(s.r.free_fraction < s.r.fraction);
    ck_assert(4.5 - (s.r.last_free[3] + 0.5) >= 0.1 - 1e-12);
    ck_assert_int_eq(only_pair(s.rep), HS_CONTACT);
    s.opt.guaranteed = 0;
    s.opt.steps = 1000; /* step k at x = k / 100: gaps of 0.06 (k = 394), 0.05 (k = 395) */
    s.opt.threshold = 0.055;
    ck_assert_int_eq(check_line(&s, 10), HS_OK);
    ck_assert_msg(s.r.blocked && s.r.step == 395, "step %d", s.r.step);
    scene_close(&s);
}
END_TEST

/* A bar 4 long turning in place by 90 degrees (a line of length 0 with a
 * Z-Y-Z target) sweeps over a thin post at 30 degrees: the poses at 0, 45
 * and 90 degrees miss it, the guaranteed mode (speed bound: angle times
 * the bar's half diagonal) stops before it. */
START_TEST(guaranteed_catches_a_turning_bar)
{
    hs_world *w = hs_world_new();
    hs_body *bar = box_at(w, "bar", 0, 4, 0.2, 0.2, 0, 0, 0);
    box_at(w, "post", 1, 0.05, 0.05, 2, 1.7 * cos(M_PI / 6), 1.7 * sin(M_PI / 6), 0);
    double zyz[3] = {M_PI / 2, 0, 0};
    hs_path *p = line_of(bar, 0, 0, 0, zyz);
    hs_path_options opt;
    hs_path_options_init(&opt);
    opt.steps = 2;
    hs_path_result r;
    hs_error err;
    ck_assert_int_eq(hs_path_check(w, bar, p, &opt, &r, NULL, &err), HS_OK);
    ck_assert(!r.blocked);
    opt.guaranteed = 1;
    ck_assert_int_eq(hs_path_check(w, bar, p, &opt, &r, NULL, &err), HS_OK);
    ck_assert(r.blocked && r.step == 1);
    ck_assert_msg(r.distance > 0 && r.distance < 0.1, "distance %g", r.distance);
    ck_assert_msg(r.fraction > 0.2 && r.fraction < 1. / 3, "fraction %g", r.fraction);
    opt.steps = 0, opt.speed = 0.01, opt.period = 1; /* F T with a pure rotation */
    ck_assert_int_eq(hs_path_check(w, bar, p, &opt, &r, NULL, &err), HS_ERR_ARG);
    ck_assert(strstr(err.msg, "rotation in place") != NULL);
    hs_path_free(p);
    hs_world_free(w);
}
END_TEST

/* A body starting within the threshold (not in collision) moves with
 * half its starting distance as the threshold, so it can leave. */
START_TEST(starting_within_the_threshold)
{
    scene s;
    scene_open(&s, 1);
    double m[16];
    hs_pose_identity(m);
    m[3] = 3.95; /* gap 0.05 */
    hs_body_set_pose(s.box, m, &s.err);
    ck_assert_int_eq(check_line(&s, -5), HS_OK);
    ck_assert(!s.r.blocked);
    ck_assert(fabs(s.r.threshold - 0.025) < 1e-12);
    ck_assert_int_eq(check_line(&s, 5), HS_OK);
    ck_assert(s.r.blocked && s.r.distance > 0 && s.r.distance < 0.025);
    hs_body_get_pose(s.box, m);
    ck_assert(m[3] == 3.95);
    scene_close(&s);
}
END_TEST

/* The palletizing example: both kinds, blocked and free, in both modes. */
START_TEST(palletizing_example)
{
    hs_error err;
    hs_world *w = hs_world_load(t_example_path("palletizing/pallet.wrl"), &err);
    ck_assert_msg(w != NULL, "%s", err.msg);
    hs_body *g = hs_world_find_body(w, "gripped");
    double start[16], via[3] = {-30, 145, 19.5}, slot[3] = {39, 61, 19.5};
    hs_body_get_pose(g, start);
    hs_path *arc = hs_path_arc(start, via, slot, 0, &err);
    hs_path_options opt;
    hs_path_options_init(&opt);
    hs_path_result r;
    hs_report *rep = hs_report_new();
    ck_assert_int_eq(hs_path_check(w, g, arc, &opt, &r, rep, &err), HS_OK);
    ck_assert(r.blocked && r.step == 9 && r.step_collision && r.step_distance == 0);
    const char *a, *b;
    hs_report_pair(rep, 0, &a, &b, NULL);
    ck_assert_str_eq(a, "gripped");
    ck_assert_str_eq(b, "static_carton_25");
    opt.guaranteed = 1;
    ck_assert_int_eq(hs_path_check(w, g, arc, &opt, &r, rep, &err), HS_OK);
    ck_assert(r.blocked && r.step == 9 && r.distance > 0 && r.distance < 0.1);
    hs_path *line = line_of(g, 39, 110, 19.5, NULL);
    ck_assert_int_eq(hs_path_check(w, g, line, &opt, &r, rep, &err), HS_OK);
    ck_assert(!r.blocked && r.distance > 19);
    hs_path_free(line);
    hs_path_free(arc);
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

/* ------------------------------------------------------------ errors */

static void expect_no_arc(const double start[16], const double *via, const double *end,
                          const char *why)
{
    hs_error err;
    hs_error_clear(&err);
    hs_path *p = hs_path_arc(start, via, end, 0, &err);
    ck_assert_msg(p == NULL, "expected an error: %s", why);
    ck_assert_int_eq(err.code, HS_ERR_ARG);
    ck_assert_msg(strstr(err.msg, why) != NULL, "'%s' not in '%s'", why, err.msg);
}

START_TEST(bad_paths)
{
    double start[16], a[3] = {1, 1, 0}, b[3] = {2, 0, 0}, col[3] = {2, 2, 0}, o[3] = {0, 0, 0};
    double nan3[3] = {NAN, 0, 0}, inf3[3] = {0, INFINITY, 0}, zyz_nan[3] = {0, NAN, 0};
    hs_error err;
    hs_pose_identity(start);
    expect_no_arc(start, a, col, "collinear");
    double near[3] = {2, 2 + 0x1p-60, 0}; /* collinear within rounding: refused */
    expect_no_arc(start, a, near, "collinear");
    expect_no_arc(start, o, b, "distinct");
    expect_no_arc(start, a, a, "distinct");
    expect_no_arc(start, a, o, "distinct");
    expect_no_arc(start, nan3, b, "finite");
    expect_no_arc(start, a, inf3, "finite");
    expect_no_arc(start, NULL, b, "NULL");
    ck_assert(hs_path_line(start, nan3, NULL, &err) == NULL && err.code == HS_ERR_ARG);
    ck_assert(hs_path_line(start, a, zyz_nan, &err) == NULL && err.code == HS_ERR_ARG);
    ck_assert(hs_path_line(start, NULL, NULL, &err) == NULL);
    ck_assert(hs_path_line(NULL, a, NULL, &err) == NULL && strstr(err.msg, "rigid"));
    double scaled[16];
    hs_pose_identity(scaled);
    scaled[0] = 2; /* not rigid */
    ck_assert(hs_path_line(scaled, a, NULL, &err) == NULL && strstr(err.msg, "rigid"));
    expect_no_arc(scaled, a, b, "rigid");
    scaled[0] = -1; /* a reflection */
    ck_assert(hs_path_line(scaled, a, NULL, &err) == NULL);
    start[3] = NAN;
    ck_assert(hs_path_line(start, a, NULL, &err) == NULL);
    hs_path_free(NULL);
    ck_assert(!hs_path_is_arc(NULL));
}
END_TEST

START_TEST(bad_steps_and_poses)
{
    double start[16], t[3] = {1, 0, 0}, m[16], *poses = NULL;
    int k, count;
    hs_error err;
    hs_pose_identity(start);
    hs_path *p = hs_path_line(start, t, NULL, &err);
    hs_path_options opt;
    hs_path_options_init(&opt);
    opt.steps = -1;
    ck_assert_int_eq(hs_path_step_count(p, &opt, &k, &err), HS_ERR_ARG);
    opt.steps = 3, opt.speed = 1;
    ck_assert_int_eq(hs_path_step_count(p, &opt, &k, &err), HS_ERR_ARG);
    ck_assert(strstr(err.msg, "not both") != NULL);
    double bad[] = {0, -1, NAN, INFINITY};
    for (int i = 0; i < 4; i++) {
        opt.steps = 0, opt.speed = bad[i], opt.period = 1;
        ck_assert_int_eq(hs_path_step_count(p, &opt, &k, &err), HS_ERR_ARG);
        opt.speed = 1, opt.period = bad[i];
        ck_assert_int_eq(hs_path_step_count(p, &opt, &k, &err), HS_ERR_ARG);
    }
    opt.speed = 1e-300, opt.period = 1e-300; /* F T underflows to 0 */
    ck_assert_int_eq(hs_path_step_count(p, &opt, &k, &err), HS_ERR_ARG);
    opt.speed = 1e-7, opt.period = 1; /* 1e7 steps */
    ck_assert_int_eq(hs_path_step_count(p, &opt, &k, &err), HS_ERR_ARG);
    ck_assert(strstr(err.msg, "limit") != NULL);
    ck_assert_int_eq(hs_path_step_poses(p, &opt, &poses, &count, &err), HS_ERR_ARG);
    ck_assert(poses == NULL);
    opt.steps = HS_PATH_MAX_STEPS + 1, opt.speed = opt.period = 0;
    ck_assert_int_eq(hs_path_step_count(p, &opt, &k, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_path_step_count(NULL, &opt, &k, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_path_step_poses(p, &opt, NULL, &count, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_path_pose(p, -0.5, m, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_path_pose(p, 1.5, m, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_path_pose(p, NAN, m, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_path_pose(NULL, 0.5, m, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_path_arc_geometry(p, NULL, NULL, NULL, NULL, &err), HS_ERR_ARG);
    hs_path_free(p);
}
END_TEST

START_TEST(bad_checks)
{
    scene s;
    scene_open(&s, 1);
    hs_path *p = line_of(s.box, 10, 0, 0, NULL);
    hs_path_options *o = &s.opt;
    hs_path_result *r = &s.r;
    hs_error *e = &s.err;
    ck_assert_int_eq(hs_path_check(NULL, s.box, p, o, r, s.rep, e), HS_ERR_ARG);
    ck_assert_int_eq(hs_path_check(s.w, NULL, p, o, r, s.rep, e), HS_ERR_ARG);
    ck_assert_int_eq(hs_path_check(s.w, s.box, NULL, o, r, s.rep, e), HS_ERR_ARG);
    ck_assert_int_eq(hs_path_check(s.w, s.box, p, NULL, r, s.rep, e), HS_ERR_ARG);
    ck_assert_int_eq(hs_path_check(s.w, s.box, p, o, NULL, s.rep, e), HS_ERR_ARG);
    hs_world *w2 = hs_world_new();
    hs_body *other = box_at(w2, "other", 0, 1, 1, 1, 0, 0, 0);
    ck_assert_int_eq(hs_path_check(s.w, other, p, o, r, s.rep, e), HS_ERR_ARG);
    ck_assert(strstr(e->msg, "not in this world") != NULL);
    hs_world_free(w2);
    hs_body *empty = hs_world_add_body(s.w, "empty", 0, e);
    ck_assert_int_eq(hs_path_check(s.w, empty, p, o, r, s.rep, e), HS_ERR_ARG);
    ck_assert(strstr(e->msg, "no pieces") != NULL);
    ck_assert_int_eq(hs_path_check(s.w, s.wall, p, o, r, s.rep, e), HS_ERR_ARG);
    ck_assert(strstr(e->msg, "static") != NULL);
    double bad[] = {-1, NAN, INFINITY};
    for (int i = 0; i < 3; i++) {
        o->threshold = bad[i];
        ck_assert_int_eq(hs_path_check(s.w, s.box, p, o, r, s.rep, e), HS_ERR_ARG);
    }
    o->threshold = 0, o->guaranteed = 1;
    ck_assert_int_eq(hs_path_check(s.w, s.box, p, o, r, s.rep, e), HS_ERR_ARG);
    ck_assert(strstr(e->msg, "guaranteed") != NULL);
    o->threshold = 1e-9; /* 1e10 thresholds long */
    ck_assert_int_eq(hs_path_check(s.w, s.box, p, o, r, s.rep, e), HS_ERR_ARG);
    ck_assert(strstr(e->msg, "5e6 thresholds") != NULL);
    assert_at_origin(s.box);
    hs_path_options_init(o);
    o->query.engine = HS_ENGINE_GLPK;
    ck_assert_int_eq(hs_path_check(s.w, s.box, p, o, r, s.rep, e), HS_ERR_ARG);
    hs_path_options_init(o);
    o->steps = -2;
    ck_assert_int_eq(hs_path_check(s.w, s.box, p, o, r, s.rep, e), HS_ERR_ARG);
    hs_path_options_init(o);
    double m[16];
    hs_pose_identity(m);
    m[3] = 4.2; /* overlapping the wall */
    hs_body_set_pose(s.box, m, e);
    hs_path *q = line_of(s.box, 10, 0, 0, NULL);
    for (int g = 0; g < 2; g++) {
        o->guaranteed = g;
        ck_assert_int_eq(hs_path_check(s.w, s.box, q, o, r, s.rep, e), HS_ERR_INPUT);
        ck_assert(strstr(e->msg, "in collision at its start pose") != NULL);
        hs_body_get_pose(s.box, m);
        ck_assert(m[3] == 4.2);
    }
    hs_path_free(q);
    hs_path_free(p);
    scene_close(&s);
}
END_TEST

Suite *suite_path(void)
{
    Suite *s = suite_create("path");
    TCase *tc = tcase_create("path");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, line_steps_of_the_seed);
    tcase_add_test(tc, line_turns_to_zyz);
    tcase_add_test(tc, arc_centre_radius_theta);
    tcase_add_test(tc, arc_steps_of_eq31);
    tcase_add_test(tc, arc_turning_body);
    tcase_add_test(tc, first_blocked_step_and_contact_pose);
    tcase_add_test(tc, touching_at_the_end_pose);
    tcase_add_test(tc, guaranteed_catches_a_thin_wall);
    tcase_add_test(tc, guaranteed_catches_a_turning_bar);
    tcase_add_test(tc, starting_within_the_threshold);
    tcase_add_test(tc, palletizing_example);
    tcase_add_test(tc, bad_paths);
    tcase_add_test(tc, bad_steps_and_poses);
    tcase_add_test(tc, bad_checks);
    suite_add_tcase(s, tc);
    return s;
}
