/* test_chain_pieces.c -- the exact tests of the pieces of chain links:
 * spheres against convex pieces (face, edge and corner contacts, random
 * hulls against a brute-force distance), convex pieces touching and
 * overlapping, random chains against the world's narrow phase; and a
 * chain against the bodies of a world (collision and distance, against
 * analytic answers, links tested alone, and the world's own distances). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "src/chain/chain_piece_tests.h"
#include "tests/chain_helpers.h"
#include "tests/helpers.h"

/* ------------------------------------------------ convex pieces */

static const double unit_cube[8 * 3] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0,
                                        0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1};

/* Link 0: the unit cube; link 1: nothing (the joint between); link 2: a
 * sphere of radius r at p in link 0's frame (joints are translations). */
static int cube_vs_sphere(const double p[3], double r)
{
    hs_chain *c = new_chain(3);
    hs_error err;
    ck_assert_msg(hs_chain_add_hull(c, 0, unit_cube, 8, &err) == HS_OK, "%s", err.msg);
    add_sphere(c, 2, 0, 0, 0, r);
    double m[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, half[3] = {p[0] / 2, p[1] / 2, p[2] / 2};
    hs_pose_from_rt(m, I3, half);
    set_joint(c, 1, m);
    double rest[3] = {p[0] - half[0], p[1] - half[1], p[2] - half[2]};
    hs_pose_from_rt(m, I3, rest);
    set_joint(c, 2, m);
    int i, j, hit = hs_chain_self_collision(c, &i, &j, NULL, &err);
    ck_assert_int_ge(hit, 0);
    /* the sphere on link 0 and the cube on link 2: the other way round */
    hs_chain *d = new_chain(3);
    add_sphere(d, 0, p[0], p[1], p[2], r);
    ck_assert(hs_chain_add_hull(d, 2, unit_cube, 8, &err) == HS_OK);
    ck_assert_int_eq(hs_chain_self_collision(d, &i, &j, NULL, &err), hit);
    hs_chain_free(c);
    hs_chain_free(d);
    return hit;
}

/* Face, edge and vertex contacts with dyadic data: touching counts,
 * 2^-40 farther is free, 2^-40 nearer collides; inside collides. */
START_TEST(sphere_against_convex_piece)
{
    struct {
        double p[3], r;
    } cases[] = {
        {{2, 0.5, 0.5}, 1},         /* face x = 1 */
        {{1.75, 2, 0.5}, 1.25},     /* edge x = y = 1 at distance (3/4, 1) */
        {{2, 3, 3}, 3},             /* corner (1, 1, 1) at (1, 2, 2) */
        {{-0.5, -0.5, -0.5}, 0.75}, /* corner 0: distance sqrt(3)/2 > 0.75 */
        {{0.5, 0.5, 0.5}, 0.01},    /* inside */
        {{0.5, 0.5, -3}, 3},        /* face z = 0 */
    };
    int expect_touch[] = {1, 1, 1, 0, 1, 1};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double r = cases[k].r;
        ck_assert_msg(cube_vs_sphere(cases[k].p, r) == expect_touch[k], "case %zu", k);
        if (!expect_touch[k] || k == 4)
            continue;
        ck_assert_msg(cube_vs_sphere(cases[k].p, r - 0x1p-40) == 0, "case %zu farther", k);
        ck_assert_msg(cube_vs_sphere(cases[k].p, r + 0x1p-40) == 1, "case %zu nearer", k);
    }
    ck_assert_int_eq(cube_vs_sphere((double[]){-0.5, -0.5, -0.5}, 0.8661), 1);
}
END_TEST

/* Random spheres against a random hull, against a double-precision
 * distance to the hull's exact planes and corners, where it is clear
 * (more than 1e-9 from r). */
static double brute_distance(const double *pts, int n, const double p[3]);

START_TEST(sphere_against_random_hulls)
{
    uint64_t s = 41;
    int checked = 0;
    for (int it = 0; it < 60; it++) {
        double pts[8 * 3];
        for (int k = 0; k < 24; k++)
            pts[k] = (double)(rng_int(&s, 9) - 4) / 4; /* dyadic: exact planes */
        hs_chain *c = new_chain(3);
        hs_error err;
        if (hs_chain_add_hull(c, 0, pts, 8, &err) != HS_OK) { /* coplanar: skip */
            hs_chain_free(c);
            continue;
        }
        double p[3] = {2 * t_rng_sym(&s), 2 * t_rng_sym(&s), 2 * t_rng_sym(&s)}, r = 0.7 * t_rng_unit(&s);
        double m[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, zero[3] = {0, 0, 0};
        hs_pose_from_rt(m, I3, zero);
        set_joint(c, 1, m);
        hs_pose_from_rt(m, I3, p);
        set_joint(c, 2, m);
        add_sphere(c, 2, 0, 0, 0, r);
        double d = brute_distance(pts, 8, p);
        int hit = hs_chain_self_collision(c, NULL, NULL, NULL, &err);
        if (fabs(d - r) > 1e-9) {
            ck_assert_msg(hit == (d <= r), "it %d: d %.17g r %.17g hit %d", it, d, r, hit);
            checked++;
        }
        hs_chain_free(c);
    }
    ck_assert_int_gt(checked, 30);
}
END_TEST

/* Distance from p to the hull of the points: the smallest over the
 * projections onto the hull's facets (planes through three points with
 * every point on one side), edges and corners that land inside. */
static int hull_contains(const double *pts, int n, const double x[3], double tol)
{
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            for (int c = b + 1; c < n; c++) {
                const double *A = pts + 3 * a, *B = pts + 3 * b, *C = pts + 3 * c;
                double u[3], v[3], nrm[3];
                for (int j = 0; j < 3; j++)
                    u[j] = B[j] - A[j], v[j] = C[j] - A[j];
                nrm[0] = u[1] * v[2] - u[2] * v[1];
                nrm[1] = u[2] * v[0] - u[0] * v[2];
                nrm[2] = u[0] * v[1] - u[1] * v[0];
                double l = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
                if (l < 1e-12)
                    continue;
                int pos = 0, neg = 0;
                for (int k = 0; k < n; k++) {
                    double s = 0;
                    for (int j = 0; j < 3; j++)
                        s += nrm[j] * (pts[3 * k + j] - A[j]);
                    pos |= s > 1e-12, neg |= s < -1e-12;
                }
                if (pos && neg)
                    continue; /* not a facet */
                double s = 0;
                for (int j = 0; j < 3; j++)
                    s += nrm[j] * (x[j] - A[j]);
                if ((pos && s < -tol * l) || (neg && s > tol * l))
                    return 0;
            }
    return 1;
}

static double brute_distance(const double *pts, int n, const double p[3])
{
    if (hull_contains(pts, n, p, 0))
        return 0;
    double best = INFINITY;
    for (int a = 0; a < n; a++) {
        const double *A = pts + 3 * a;
        best = fmin(best, sqrt((p[0] - A[0]) * (p[0] - A[0]) + (p[1] - A[1]) * (p[1] - A[1]) +
                               (p[2] - A[2]) * (p[2] - A[2])));
        for (int b = 0; b < n; b++) {
            const double *B = pts + 3 * b;
            double e[3] = {B[0] - A[0], B[1] - A[1], B[2] - A[2]};
            double ee = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
            if (ee == 0)
                continue;
            double t = ((p[0] - A[0]) * e[0] + (p[1] - A[1]) * e[1] + (p[2] - A[2]) * e[2]) / ee;
            t = fmax(0, fmin(1, t));
            double x[3] = {A[0] + t * e[0], A[1] + t * e[1], A[2] + t * e[2]};
            best = fmin(best, sqrt((p[0] - x[0]) * (p[0] - x[0]) + (p[1] - x[1]) * (p[1] - x[1]) +
                                   (p[2] - x[2]) * (p[2] - x[2])));
            for (int c = b + 1; c < n; c++) {
                const double *C = pts + 3 * c;
                double u[3], v[3], nrm[3];
                for (int j = 0; j < 3; j++)
                    u[j] = B[j] - A[j], v[j] = C[j] - A[j];
                nrm[0] = u[1] * v[2] - u[2] * v[1];
                nrm[1] = u[2] * v[0] - u[0] * v[2];
                nrm[2] = u[0] * v[1] - u[1] * v[0];
                double l2 = nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2];
                if (l2 < 1e-20)
                    continue;
                double s = ((p[0] - A[0]) * nrm[0] + (p[1] - A[1]) * nrm[1] +
                            (p[2] - A[2]) * nrm[2]) / l2;
                double y[3] = {p[0] - s * nrm[0], p[1] - s * nrm[1], p[2] - s * nrm[2]};
                if (hull_contains(pts, n, y, 1e-12))
                    best = fmin(best, fabs(s) * sqrt(l2));
            }
        }
    }
    return best;
}

/* Two unit cubes on links 0 and 2 (link 1 between, no piece): face to
 * face (touching), apart by 2^-40, overlapping by 2^-40; also turned a
 * quarter (exact) so that edges cross. */
START_TEST(convex_pieces_touch_and_overlap)
{
    double shifts[] = {1, 1 + 0x1p-40, 1 - 0x1p-40};
    int expect[] = {1, 0, 1};
    hs_error err;
    for (int k = 0; k < 3; k++) {
        hs_chain *c = new_chain(3);
        ck_assert(hs_chain_add_hull(c, 0, unit_cube, 8, &err) == HS_OK);
        ck_assert(hs_chain_add_hull(c, 2, unit_cube, 8, &err) == HS_OK);
        double m[16], Rz[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1}, I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        double t[3] = {shifts[k], 0, 0}, t2[3] = {0, 0, 0};
        hs_pose_from_rt(m, I3, t2);
        set_joint(c, 1, m);
        hs_pose_from_rt(m, I3, t);
        set_joint(c, 2, m);
        int i, j;
        ck_assert_int_eq(hs_chain_self_collision(c, &i, &j, NULL, &err), expect[k]);
        /* a quarter turn about z around (shift, 0, 0): the cube now spans
         * x in [shift - 1, shift] -- it overlaps the first whenever shift > 0 */
        hs_pose_from_rt(m, Rz, t);
        set_joint(c, 2, m);
        ck_assert_int_eq(hs_chain_self_collision(c, &i, &j, NULL, &err), 1);
        hs_chain_stats st;
        int *pairs, np;
        ck_assert(hs_chain_self_collision_all(c, &pairs, &np, &st, &err) == HS_OK);
        ck_assert_int_eq(np, 1);
        ck_assert(pairs[0] == 0 && pairs[1] == 2 && st.piece_tests >= 1);
        hs_free(pairs);
        hs_chain_free(c);
    }
    /* a polytope piece from a system, and its errors */
    hs_poly *cube = hs_poly_parse(t_box_text(3, "0", "1"), "cube", &err);
    ck_assert(cube != NULL);
    hs_chain *c = new_chain(2);
    ck_assert(hs_chain_add_polytope(c, 1, cube, &err) == HS_OK);
    add_sphere(c, 0, -1, 0.5, 0.5, 1);
    hs_chain_skip_adjacent(c, 0);
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 1);
    ck_assert(hs_chain_add_polytope(c, 2, cube, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_polytope(c, 0, NULL, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_hull(c, 0, unit_cube, 3, &err) == HS_ERR_ARG);
    double flat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    ck_assert(hs_chain_add_hull(c, 0, flat, 4, &err) != HS_OK);
    hs_poly *sq = hs_poly_parse(t_box_text(2, "0", "1"), "square", &err);
    ck_assert(hs_chain_add_polytope(c, 0, sq, &err) != HS_OK);
    hs_poly_free(sq);
    hs_poly_free(cube);
    hs_chain_free(c);
}
END_TEST

/* Random chains of cubes and spheres: self_collision_all against the
 * world's narrow phase on every pair (two bodies posed by the chain's
 * relative pose) for the convex pairs, the sphere pairs exactly. */
START_TEST(convex_chains_match_pairwise_tests)
{
    uint64_t s = 3;
    hs_error err;
    for (int round = 0; round < 6; round++) {
        int n = 12;
        hs_chain *c = new_chain(n);
        int kind[12];
        for (int i = 0; i < n; i++) {
            kind[i] = rng_int(&s, 2);
            if (kind[i])
                ck_assert(hs_chain_add_hull(c, i, unit_cube, 8, &err) == HS_OK);
            else
                add_sphere(c, i, 0.5, 0.5, 0.5, 0.6);
        }
        for (int i = 1; i < n; i++) {
            double m[16];
            random_pose(&s, 1.2, m);
            set_joint(c, i, m);
        }
        int *pairs, np;
        ck_assert(hs_chain_self_collision_all(c, &pairs, &np, NULL, &err) == HS_OK);
        for (int i = 0; i < n; i++)
            for (int j = i + 2; j < n; j++) {
                double m[16];
                hs_chain_relative_pose(c, i, j, m);
                int expect;
                if (kind[i] && kind[j]) {
                    hs_world *w = hs_world_new();
                    hs_body *a = hs_world_add_body(w, "a", 0, &err);
                    hs_body *b = hs_world_add_body(w, "b", 0, &err);
                    ck_assert(hs_body_add_hull(a, unit_cube, 8, NULL, &err) == HS_OK);
                    ck_assert(hs_body_add_hull(b, unit_cube, 8, NULL, &err) == HS_OK);
                    ck_assert(hs_body_set_pose(b, m, &err) == HS_OK);
                    hs_query_options q;
                    hs_query_options_init(&q);
                    q.threshold = 0;
                    hs_report *rep = hs_report_new();
                    ck_assert(hs_world_query(w, &q, rep, &err) == HS_OK);
                    expect = hs_report_pair_count(rep) > 0;
                    hs_report_free(rep);
                    hs_world_free(w);
                } else if (!kind[i] && !kind[j]) {
                    double ctr[3] = {0.5, 0.5, 0.5}, q[3];
                    for (int a = 0; a < 3; a++)
                        q[a] = m[4 * a] * 0.5 + m[4 * a + 1] * 0.5 + m[4 * a + 2] * 0.5 +
                               m[4 * a + 3];
                    expect = chain_spheres_meet_exact(ctr, 0.6, q, 0.6);
                } else {
                    continue; /* sphere-cube: the sphere tests above */
                }
                int found = 0;
                for (int k = 0; k < np; k++)
                    found |= pairs[2 * k] == i && pairs[2 * k + 1] == j;
                ck_assert_msg(found == expect, "round %d pair (%d, %d): %d, expected %d", round, i,
                              j, found, expect);
            }
        hs_free(pairs);
        hs_chain_free(c);
    }
}
END_TEST

/* ------------------------------------------------ chain and world */

/* A chain of 6 spheres (radius 0.5) along x, 1 apart, and a world box
 * [lo, hi]: collision and distance against the analytic answer. */
static hs_world *box_world(const double lo[3], const double hi[3])
{
    hs_error err;
    hs_world *w = hs_world_new();
    hs_body *b = hs_world_add_body(w, "static_block", 1, &err);
    double size[3], place[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, mid[3];
    for (int j = 0; j < 3; j++) {
        size[j] = hi[j] - lo[j];
        mid[j] = (lo[j] + hi[j]) / 2;
    }
    hs_pose_from_rt(place, I3, mid);
    ck_assert(hs_body_add_box(b, size, place, &err) == HS_OK);
    return w;
}

static hs_chain *line_chain(void)
{
    hs_chain *c = new_chain(6);
    double m[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, t[3] = {1, 0, 0};
    hs_pose_from_rt(m, I3, t);
    for (int i = 0; i < 6; i++) {
        add_sphere(c, i, 0, 0, 0, 0.5);
        if (i)
            set_joint(c, i, m);
    }
    return c;
}

START_TEST(chain_against_world)
{
    hs_error err;
    hs_chain *c = line_chain();
    /* box above link 3 at height 0.5 + gap */
    double gaps[] = {1, 0, 0x1p-40, -0.25};
    for (int g = 0; g < 4; g++) {
        double lo[3] = {2.75, 0.5 + gaps[g], -1}, hi[3] = {3.25, 2, 1};
        hs_world *w = box_world(lo, hi);
        int link = -1;
        const hs_body *body = NULL;
        int hit = hs_chain_world_collision(c, w, &link, &body, &err);
        ck_assert_int_eq(hit, gaps[g] <= 0);
        if (hit)
            ck_assert(link == 3 && strcmp(hs_body_name(body), "static_block") == 0);
        double d, pa[3], pb[3];
        ck_assert(hs_chain_world_distance(c, w, &d, &link, &body, pa, pb, &err) == HS_OK);
        ck_assert_int_eq(link, 3);
        ck_assert_msg(fabs(d - fmax(gaps[g], 0)) <= 1e-9, "gap %g: distance %.17g", gaps[g], d);
        double e = sqrt((pa[0] - pb[0]) * (pa[0] - pb[0]) + (pa[1] - pb[1]) * (pa[1] - pb[1]) +
                        (pa[2] - pb[2]) * (pa[2] - pb[2]));
        ck_assert(fabs(e - d) <= 1e-9);
        if (gaps[g] > 0)
            ck_assert(fabs(pb[1] - lo[1]) <= 1e-9 && fabs(pa[1] - 0.5) <= 1e-9);
        /* a base pose moves the chain: down by 1, everything is free */
        double base[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, down[3] = {0, -1, 0};
        hs_pose_from_rt(base, I3, down);
        ck_assert(hs_chain_set_base(c, base, &err) == HS_OK);
        ck_assert_int_eq(hs_chain_world_collision(c, w, &link, &body, &err), 0);
        ck_assert(hs_chain_world_distance(c, w, &d, NULL, NULL, NULL, NULL, &err) == HS_OK);
        ck_assert(fabs(d - (fmax(gaps[g], 0) + 1)) <= 1e-9 || gaps[g] < 0);
        hs_pose_identity(base);
        ck_assert(hs_chain_set_base(c, base, &err) == HS_OK);
        /* disabled bodies do not count */
        hs_body_set_enabled(hs_world_body(w, 0), 0);
        ck_assert_int_eq(hs_chain_world_collision(c, w, &link, &body, &err), 0);
        ck_assert(hs_chain_world_distance(c, w, &d, NULL, NULL, NULL, NULL, &err) == HS_ERR_ARG);
        hs_world_free(w);
    }
    /* a mesh obstacle (a triangle): a sphere touching its face, then not */
    hs_world *w = hs_world_new();
    hs_body *tri = hs_world_add_body(w, "sheet", 1, &err);
    double v[9] = {2, 1, -1, 4, 1, -1, 3, 1, 2};
    int t[3] = {0, 1, 2};
    ck_assert(hs_body_add_mesh(tri, v, 3, t, 1, NULL, &err) == HS_OK);
    ck_assert_int_eq(hs_chain_world_collision(c, w, NULL, NULL, &err), 0); /* y = 1 vs 0.5 */
    double down[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, dy[3] = {0, -0.5, 0};
    hs_pose_from_rt(down, I3, dy);
    ck_assert(hs_body_set_pose(tri, down, &err) == HS_OK);
    int link;
    ck_assert_int_eq(hs_chain_world_collision(c, w, &link, NULL, &err), 1);
    ck_assert(link == 2 || link == 3 || link == 4);
    double d;
    ck_assert(hs_chain_world_distance(c, w, &d, NULL, NULL, NULL, NULL, &err) == HS_OK);
    ck_assert(d == 0);
    hs_world_free(w);
    /* errors */
    ck_assert_int_eq(hs_chain_world_collision(NULL, w, NULL, NULL, &err), -1);
    ck_assert(hs_chain_world_distance(c, NULL, &d, NULL, NULL, NULL, NULL, &err) == HS_ERR_ARG);
    hs_chain *empty = new_chain(2);
    hs_world *w2 = box_world((double[]){0, 0, 0}, (double[]){1, 1, 1});
    ck_assert(hs_chain_world_distance(empty, w2, &d, NULL, NULL, NULL, NULL, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "chain") != NULL);
    hs_world_free(w2);
    hs_chain_free(empty);
    hs_chain_free(c);
}
END_TEST

/* Random spheres and cubes against a random world: the chain's answer
 * against each link tested alone (a one-link chain at its world pose). */
START_TEST(world_collision_matches_links_alone)
{
    uint64_t s = 17;
    hs_error err;
    for (int round = 0; round < 5; round++) {
        hs_world *w = hs_world_new();
        for (int k = 0; k < 4; k++) {
            char name[16];
            snprintf(name, sizeof name, "b%d", k);
            hs_body *b = hs_world_add_body(w, name, 1, &err);
            double size[3] = {0.5 + t_rng_unit(&s), 0.5 + t_rng_unit(&s), 0.5 + t_rng_unit(&s)}, m[16];
            random_pose(&s, 4, m);
            ck_assert(hs_body_add_box(b, size, m, &err) == HS_OK);
        }
        hs_chain *c = new_chain(8);
        for (int i = 0; i < 8; i++) {
            if (i % 2)
                ck_assert(hs_chain_add_hull(c, i, unit_cube, 8, &err) == HS_OK);
            else
                add_sphere(c, i, 0, 0, 0, 0.4);
            if (i) {
                double m[16];
                random_pose(&s, 1, m);
                set_joint(c, i, m);
            }
        }
        int any = 0;
        for (int i = 0; i < 8; i++) {
            hs_chain *one = new_chain(1);
            if (i % 2)
                ck_assert(hs_chain_add_hull(one, 0, unit_cube, 8, &err) == HS_OK);
            else
                add_sphere(one, 0, 0, 0, 0, 0.4);
            double m[16];
            hs_chain_link_pose(c, i, m);
            ck_assert(hs_chain_set_base(one, m, &err) == HS_OK);
            any |= hs_chain_world_collision(one, w, NULL, NULL, &err);
            hs_chain_free(one);
        }
        ck_assert_int_eq(hs_chain_world_collision(c, w, NULL, NULL, &err), any);
        double d;
        ck_assert(hs_chain_world_distance(c, w, &d, NULL, NULL, NULL, NULL, &err) == HS_OK);
        ck_assert(any ? d == 0 : d > 0);
        hs_chain_free(c);
        hs_world_free(w);
    }
}
END_TEST

/* Distance of a chain of cubes to box obstacles against the world's own
 * distance between each link (as a body at its world pose) and each
 * obstacle. */
START_TEST(world_distance_matches_bodies)
{
    uint64_t s = 29;
    hs_error err;
    for (int round = 0; round < 5; round++) {
        hs_world *w = hs_world_new();
        hs_world *lw = hs_world_new(); /* the links as bodies */
        for (int k = 0; k < 3; k++) {
            char name[16];
            snprintf(name, sizeof name, "o%d", k);
            hs_body *b = hs_world_add_body(w, name, 1, &err);
            double size[3] = {1, 1, 1}, m[16];
            random_pose(&s, 6, m);
            ck_assert(hs_body_add_box(b, size, m, &err) == HS_OK);
        }
        hs_chain *c = new_chain(5);
        for (int i = 0; i < 5; i++) {
            ck_assert(hs_chain_add_hull(c, i, unit_cube, 8, &err) == HS_OK);
            if (i) {
                double m[16];
                random_pose(&s, 1.5, m);
                set_joint(c, i, m);
            }
        }
        double best = INFINITY;
        for (int i = 0; i < 5; i++) {
            char name[16];
            snprintf(name, sizeof name, "l%d", i);
            hs_body *lb = hs_world_add_body(lw, name, 0, &err);
            ck_assert(hs_body_add_hull(lb, unit_cube, 8, NULL, &err) == HS_OK);
            double m[16];
            hs_chain_link_pose(c, i, m);
            ck_assert(hs_body_set_pose(lb, m, &err) == HS_OK);
            for (int k = 0; k < 3; k++) {
                hs_body *ob = hs_world_body(w, k);
                /* the obstacle's clone in the links' world */
                char on[32];
                snprintf(on, sizeof on, "c%d_%d", i, k);
                hs_body *cl = hs_world_clone_body(lw, ob, on, &err);
                double d, pa[3], pb[3];
                ck_assert(hs_world_distance(lw, lb, cl, &d, pa, pb, &err) == HS_OK);
                best = fmin(best, d);
                hs_world_remove_body(lw, cl, &err);
            }
        }
        double d, pa[3], pb[3];
        int link;
        const hs_body *body;
        ck_assert(hs_chain_world_distance(c, w, &d, &link, &body, pa, pb, &err) == HS_OK);
        ck_assert_msg(fabs(d - best) <= 1e-9 * (1 + best), "round %d: %.17g vs %.17g", round, d,
                      best);
        hs_chain_free(c);
        hs_world_free(w);
        hs_world_free(lw);
    }
}
END_TEST

Suite *suite_chain_pieces(void)
{
    Suite *s = suite_create("chain_pieces");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sphere_against_convex_piece);
    tcase_add_test(tc, sphere_against_random_hulls);
    tcase_add_test(tc, convex_pieces_touch_and_overlap);
    tcase_add_test(tc, convex_chains_match_pairwise_tests);
    tcase_add_test(tc, chain_against_world);
    tcase_add_test(tc, world_collision_matches_links_alone);
    tcase_add_test(tc, world_distance_matches_bodies);
    suite_add_tcase(s, tc);
    return s;
}
