/* test_contact_cert.c -- touching certified by the fast engine without the
 * exact engine (solver/fast_touch.c), against the exact engine and the
 * verifier; the exact box geometry; contact hints between world queries;
 * hulls resting face on face. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/families.h"
#include "halfspace.h"
#include "solver/fast.h"
#include "solver/result.h"
#include "tests/helpers.h"

static hs_status query(hs_engine e, const hs_poly *A, const hs_poly *B, hs_result *r)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = e;
    hs_error err;
    ck_assert_msg(hs_intersect(A, B, &opt, r, &err) == HS_OK, "%s", err.msg);
    return hs_result_status(r);
}

/* A polytope of m rows u . x <= |u|_1 around the origin, u small integer
 * vectors (so every number is an integer). */
static hs_poly *integer_polytope(uint64_t *rng, int m, const double c[3])
{
    double *a = malloc(sizeof(double) * 3 * (size_t)m), *b = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < m; i++) {
        double s = 0;
        do {
            s = 0;
            for (int j = 0; j < 3; j++) {
                a[3 * i + j] = (double)(int)(t_rng_next(rng) % 11) - 5;
                s += fabs(a[3 * i + j]);
            }
        } while (s == 0);
        b[i] = s + a[3 * i] * c[0] + a[3 * i + 1] * c[1] + a[3 * i + 2] * c[2];
    }
    return t_poly_from_owned(3, m, a, b, NULL);
}

/* B = (A shifted by s along the normal of row i) cut by the half-space
 * beyond row i: B meets A exactly in a piece of row i's face.  That last
 * row (the face facing row i) is scaled by lambda and its right side
 * moved by `ulps` units in the last place (1 and 0: as it is). */
static hs_poly *touching_of(const hs_poly *A, int i, double s, double lambda, int ulps)
{
    int m = hs_poly_rows(A);
    double *a = malloc(sizeof(double) * 3 * (size_t)(m + 1)), *b = malloc(sizeof(double) * (size_t)(m + 1));
    double ai[3], bi;
    hs_poly_row(A, i, ai, &bi);
    for (int j = 0; j < m; j++) {
        hs_poly_row(A, j, a + 3 * j, b + j);
        b[j] += s * (a[3 * j] * ai[0] + a[3 * j + 1] * ai[1] + a[3 * j + 2] * ai[2]);
    }
    for (int k = 0; k < 3; k++)
        a[3 * m + k] = -ai[k] * lambda;
    b[m] = -bi * lambda;
    for (int u = 0; u < abs(ulps); u++)
        b[m] = nextafter(b[m], ulps > 0 ? INFINITY : -INFINITY);
    return t_poly_from_owned(3, m + 1, a, b, NULL);
}

/* Face-on-face contacts: every answer agrees with the exact engine and
 * verifies; contacts are certified by the fast engine itself, not by the
 * exact fallback (at most a few percent may fall back). */
START_TEST(face_contacts_need_no_fallback)
{
    uint64_t rng = 12345;
    hs_result *rf = hs_result_new(), *rx = hs_result_new();
    int touching = 0, fallbacks = 0, total = 0;
    for (int k = 0; k < 300; k++) {
        double c[3] = {0, 0, 0};
        hs_poly *A = integer_polytope(&rng, 8 + (int)(t_rng_next(&rng) % 40), c);
        if (!hs_poly_fast_ready(A, NULL)) {
            hs_poly_free(A);
            continue;
        }
        hs_poly *B = touching_of(A, (int)(t_rng_next(&rng) % (uint64_t)hs_poly_rows(A)), 0.125, 1, 0);
        hs_status f = query(HS_ENGINE_FAST, A, B, rf), x = query(HS_ENGINE_EXACT, A, B, rx);
        ck_assert_msg(f == x, "pair %d: fast %s, exact %s", k, hs_status_name(f),
                      hs_status_name(x));
        hs_error err;
        ck_assert_msg(hs_result_verify(rf, A, B, &err) == HS_OK, "pair %d: %s", k, err.msg);
        touching += f == HS_TOUCHING;
        fallbacks += hs_result_fallback(rf) != 0;
        total++;
        hs_poly_free(A);
        hs_poly_free(B);
    }
    ck_assert_msg(total > 200 && touching > total / 2, "%d pairs, %d touching", total, touching);
    ck_assert_msg(fallbacks * 20 <= total, "%d of %d pairs fell back", fallbacks, total);
    hs_result_free(rf);
    hs_result_free(rx);
}
END_TEST

/* Faces facing each other with tilted, non-integer normals, the facing
 * row scaled (by powers of two, exactly, and by 3 and 0.1, rounded) and
 * its right side moved by an ulp either way: the fast engine agrees with
 * the exact engine every time and its certificate verifies; the exactly
 * scaled faces are all certified touching without the exact fallback
 * (the two-row proof of fast_touch.c), and an ulp away never touches. */
START_TEST(facing_faces_scaled_and_nudged)
{
    uint64_t rng = 777;
    hs_result *rf = hs_result_new(), *rx = hs_result_new();
    const double lambdas[4] = {1, 0x1p-7, 3, 0.1};
    int exact_touch = 0, exact_pairs = 0, fell_back = 0;
    for (int k = 0; k < 60; k++) {
        double c[3] = {0.1 * k, -0.3, 0.7};
        hs_poly *A = t_ellipsoid_rows(24 + k % 30, 0.5, c, 1.5, &rng);
        int i = (int)(t_rng_next(&rng) % (uint64_t)hs_poly_rows(A));
        double ai[3], bi;
        hs_poly_row(A, i, ai, &bi);
        double shift = 0.25 / (ai[0] * ai[0] + ai[1] * ai[1] + ai[2] * ai[2]);
        for (int l = 0; l < 4; l++)
            for (int u = -1; u <= 1; u++) {
                hs_poly *B = touching_of(A, i, shift, lambdas[l], u);
                hs_status f = query(HS_ENGINE_FAST, A, B, rf), x = query(HS_ENGINE_EXACT, A, B, rx);
                ck_assert_msg(f == x, "pair %d, lambda %g, %d ulps: fast %s, exact %s", k, lambdas[l],
                              u, hs_status_name(f), hs_status_name(x));
                hs_error err;
                ck_assert_msg(hs_result_verify(rf, A, B, &err) == HS_OK, "pair %d: %s", k, err.msg);
                if (u != 0)
                    ck_assert_msg(f != HS_TOUCHING, "pair %d moved by %d ulps touches", k, u);
                if (u == 0 && l < 2) {
                    exact_pairs++;
                    exact_touch += f == HS_TOUCHING;
                    fell_back += hs_result_fallback(rf) != 0;
                }
                hs_poly_free(B);
            }
        hs_poly_free(A);
    }
    ck_assert_int_eq(exact_touch, exact_pairs);
    ck_assert_msg(fell_back * 20 <= exact_pairs, "%d of %d fell back", fell_back, exact_pairs);
    hs_result_free(rf);
    hs_result_free(rx);
}
END_TEST

/* Edge on edge and vertex on face (bench/pairs' touch-ee and touch-vf
 * families): every pair is certified touching by the fast engine itself
 * (multipliers on every basis row, by filters; the margin exactly zero;
 * the point in both), its certificate verifies, and the exact engine
 * agrees on the first pairs of each size. */
START_TEST(edge_and_vertex_contacts)
{
    static const fam_id fams[2] = {FAM_TOUCH_EE, FAM_TOUCH_VF};
    static const int sizes[2] = {20, 60};
    hs_result *rf = hs_result_new(), *rx = hs_result_new();
    for (int f = 0; f < 2; f++)
        for (int z = 0; z < 2; z++)
            for (long k = 0; k < 40; k++) {
                fam_pair p;
                hs_error err;
                ck_assert_int_eq(fam_make(fams[f], 1, k, sizes[z], NULL, &p, &err), HS_OK);
                hs_poly *A, *B;
                t_pair_polys(&p, &A, &B);
                ck_assert_int_eq(query(HS_ENGINE_FAST, A, B, rf), HS_TOUCHING);
                ck_assert_int_eq(hs_result_fallback(rf), 0);
                ck_assert_msg(hs_result_verify(rf, A, B, &err) == HS_OK, "%s %d pair %ld: %s",
                              fam_name(fams[f]), sizes[z], k, err.msg);
                if (k < 5)
                    ck_assert_int_eq(query(HS_ENGINE_EXACT, A, B, rx), HS_TOUCHING);
                hs_poly_free(A);
                hs_poly_free(B);
                fam_pair_free(&p);
            }
    hs_result_free(rf);
    hs_result_free(rx);
}
END_TEST

/* The point of a certified contact is in both, exactly, and the exact
 * point read through the API is the nearest double of it. */
START_TEST(contact_point_is_exact)
{
    hs_poly *A = t_poly(t_box_text(3, "0", "1"));
    hs_poly *B = t_poly(t_box_text(3, "1", "2"));
    hs_result *r = hs_result_new();
    ck_assert_int_eq(query(HS_ENGINE_FAST, A, B, r), HS_TOUCHING);
    ck_assert_int_eq(hs_result_fallback(r), 0);
    double x[3];
    ck_assert_int_eq(hs_result_point(r, x), HS_OK);
    for (int j = 0; j < 3; j++)
        ck_assert(x[j] == 1); /* the only common point */
    for (int j = 0; j < 3; j++) {
        char *s = hs_result_point_str(r, j);
        ck_assert_str_eq(s, "1");
        hs_free(s);
    }
    hs_error err;
    ck_assert_int_eq(hs_result_verify(r, A, B, &err), HS_OK);
    hs_result_free(r);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

/* A box written down exactly (no placement) and the hull of its corners
 * are the same piece: the same corners, and the same answers against a
 * probe body placed to touch, overlap and miss it. */
START_TEST(exact_box_equals_hull_box)
{
    hs_world *w = hs_world_new();
    hs_error err;
    double size[3] = {2, 1, 0.5}, corners[24];
    for (int c = 0; c < 8; c++)
        for (int j = 0; j < 3; j++)
            corners[3 * c + j] = (c >> j) & 1 ? size[j] / 2 : -size[j] / 2;
    hs_body *bx = hs_world_add_body(w, "box", 0, &err);
    hs_body *hl = hs_world_add_body(w, "hull", 0, &err);
    ck_assert_int_eq(hs_body_add_box(bx, size, NULL, &err), HS_OK);
    ck_assert_int_eq(hs_body_add_hull(hl, corners, 8, NULL, &err), HS_OK);
    int convex;
    double *v1, *v2;
    int n1, n2, *fs1, *fv1, *fs2, *fv2, nf1, nf2;
    ck_assert_int_eq(hs_body_piece_boundary(bx, 0, &convex, &v1, &n1, &fs1, &fv1, &nf1, &err),
                     HS_OK);
    ck_assert_int_eq(hs_body_piece_boundary(hl, 0, &convex, &v2, &n2, &fs2, &fv2, &nf2, &err),
                     HS_OK);
    ck_assert_int_eq(n1, 8);
    ck_assert_int_eq(n2, 8);
    ck_assert_int_eq(nf1, 6);
    ck_assert_int_eq(nf2, 6);
    for (int i = 0; i < 8; i++) { /* every corner of one is a corner of the other */
        int found = 0;
        for (int k = 0; k < 8 && !found; k++)
            found = v1[3 * i] == v2[3 * k] && v1[3 * i + 1] == v2[3 * k + 1] &&
                    v1[3 * i + 2] == v2[3 * k + 2];
        ck_assert(found);
    }
    hs_free(v1), hs_free(v2), hs_free(fs1), hs_free(fs2), hs_free(fv1), hs_free(fv2);
    /* the hull moved away; a probe against each in turn */
    double far[16], probe_size[3] = {1, 1, 1};
    hs_pose_from_rt(far, (double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, (double[3]){100, 0, 0});
    hs_body *pr = hs_world_add_body(w, "probe", 0, &err);
    ck_assert_int_eq(hs_body_add_box(pr, probe_size, NULL, &err), HS_OK);
    const double shifts[3] = {1.5, 1.25, 2}; /* touching, overlap, disjoint along x */
    const hs_status want[3] = {HS_TOUCHING, HS_OVERLAP, HS_DISJOINT};
    hs_query_options q;
    hs_query_options_init(&q);
    q.threshold = 0;
    hs_report *rep = hs_report_new();
    for (int s = 0; s < 3; s++)
        for (int which = 0; which < 2; which++) {
            double p[16], t[3] = {shifts[s], 0, 0};
            hs_pose_from_rt(p, (double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, t);
            ck_assert_int_eq(hs_body_set_pose(pr, p, &err), HS_OK);
            hs_body_set_pose(which ? bx : hl, far, &err);
            hs_body_set_pose(which ? hl : bx, (double[16]){1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, &err);
            ck_assert_int_eq(hs_world_query(w, &q, rep, &err), HS_OK);
            hs_status got = HS_DISJOINT;
            for (int k = 0; k < hs_report_pair_count(rep); k++) {
                const char *a, *b;
                hs_status st;
                hs_report_pair(rep, k, &a, &b, &st);
                if (strcmp(a, "probe") == 0 || strcmp(b, "probe") == 0)
                    got = st;
            }
            ck_assert_msg(got == want[s], "shift %g, %s: %s", shifts[s], which ? "hull" : "box",
                          hs_status_name(got));
        }
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

/* Boxes resting on a floor: every pair touching, the same answers on a
 * repeated query (the contact hints), no exact fallback either time. */
START_TEST(resting_boxes_repeat)
{
    hs_world *w = hs_world_new();
    hs_error err;
    double fs[3] = {40, 40, 1}, I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, p[16];
    hs_body *floor = hs_world_add_body(w, "static_floor", 1, &err);
    ck_assert_int_eq(hs_body_add_box(floor, fs, NULL, &err), HS_OK);
    hs_pose_from_rt(p, I, (double[3]){0, 0, -0.5});
    hs_body_set_pose(floor, p, &err);
    for (int i = 0; i < 49; i++) {
        char name[16];
        snprintf(name, sizeof name, "b%02d", i);
        hs_body *b = hs_world_add_body(w, name, 0, &err);
        double s[3] = {1, 1, 1};
        ck_assert_int_eq(hs_body_add_box(b, s, NULL, &err), HS_OK);
        hs_pose_from_rt(p, I, (double[3]){3.0 * (i % 7) - 9, 3.0 * (i / 7) - 9, 0.5});
        hs_body_set_pose(b, p, &err);
    }
    hs_query_options q;
    hs_query_options_init(&q);
    q.threshold = 0;
    hs_report *rep = hs_report_new();
    for (int round = 0; round < 2; round++) {
        ck_assert_int_eq(hs_world_query(w, &q, rep, &err), HS_OK);
        ck_assert_int_eq(hs_report_pair_count(rep), 49);
        for (int k = 0; k < 49; k++) {
            const char *a, *b;
            hs_status st;
            hs_report_pair(rep, k, &a, &b, &st);
            ck_assert_int_eq(st, HS_TOUCHING);
        }
        hs_report_stats rs;
        hs_report_get_stats(rep, &rs);
        ck_assert_int_eq(rs.fallbacks, 0);
    }
    hs_report_free(rep);
    hs_world_free(w);
}
END_TEST

/* Hulls resting face on face (bench/families.h's hull-rest): the fast
 * engine agrees with the exact engine, its certificate verifies, and the
 * contacts are proved without the exact fallback.  The LP of such a pair
 * ends at a corner of the two faces' common region, where more rows than
 * its basis are tight; fast_rounds.c then finds the two faces among the
 * tight rows and proves the contact at a point stepped into the region
 * (before this, 15 of the first 100 real pairs fell back and the rest
 * took 2 ms each in rationals). */
static void check_resting(const char *what, fam_pair *p, int *touching, int *fallbacks,
                          long *max_nodes)
{
    hs_error err;
    hs_poly *A = hs_poly_from_doubles(3, p->m[0], p->a[0], p->b[0], NULL, &err);
    ck_assert_msg(A != NULL, "%s: %s", what, err.msg);
    hs_poly *B = hs_poly_from_doubles(3, p->m[1], p->a[1], p->b[1], NULL, &err);
    ck_assert_msg(B != NULL, "%s: %s", what, err.msg);
    hs_result *rf = hs_result_new(), *rx = hs_result_new();
    hs_status f = query(HS_ENGINE_FAST, A, B, rf), x = query(HS_ENGINE_EXACT, A, B, rx);
    ck_assert_msg(f == x, "%s: fast %s, exact %s", what, hs_status_name(f), hs_status_name(x));
    ck_assert_msg(hs_result_verify(rf, A, B, &err) == HS_OK, "%s: %s", what, err.msg);
    *touching += f == HS_TOUCHING;
    *fallbacks += hs_result_fallback(rf) != 0;
    if (max_nodes && f == HS_TOUCHING && hs_result_nodes(rf) > *max_nodes)
        *max_nodes = hs_result_nodes(rf);
    hs_result_free(rf);
    hs_result_free(rx);
    hs_poly_free(A);
    hs_poly_free(B);
}

/* Pair k of the resting tests: hulls of 60 to 259 points on spheres of
 * radius 1 at the origin and 0.5 to 1.5 at c1, B set down on A (with
 * exact, touching by the numbers written; without, to rounding). */
static void resting_pair(uint64_t *rng, const double c1[3], int exact, fam_pair *p)
{
    int n0 = 60 + (int)(t_rng_next(rng) % 200), n1 = 60 + (int)(t_rng_next(rng) % 200);
    double c0[3] = {0, 0, 0}, *pts = malloc(sizeof(double) * 3 * 260);
    hs_error err;
    memset(p, 0, sizeof *p);
    t_sphere_points(n0, 1, c0, rng, pts);
    ck_assert_msg(fam_pair_hull(pts, n0, p, 0, &err) == HS_OK, "%s", err.msg);
    t_sphere_points(n1, 0.5 + (double)(t_rng_next(rng) % 100) / 100, c1, rng, pts);
    ck_assert_msg(fam_pair_hull(pts, n1, p, 1, &err) == HS_OK, "%s", err.msg);
    free(pts);
    fam_pair_rest(p, (double)(t_rng_next(rng) % 628) / 100, exact);
}

/* 40 resting pairs (resting_pair) checked; touching and fallback
 * counts out, and the most nodes (pivots and Seidel's recursions) a
 * touching answer of the fast engine took. */
static void check_resting_pairs(uint64_t seed, const double c1[3], int exact, int *touching,
                                int *fallbacks, long *max_nodes)
{
    uint64_t rng = seed;
    *touching = *fallbacks = 0;
    *max_nodes = 0;
    for (int k = 0; k < 40; k++) {
        fam_pair p;
        resting_pair(&rng, c1, exact, &p);
        char what[64];
        snprintf(what, sizeof what, "pair %d (%d and %d rows)", k, p.m[0], p.m[1]);
        check_resting(what, &p, touching, fallbacks, max_nodes);
        fam_pair_free(&p);
    }
}

START_TEST(resting_tessellated_hulls)
{
    static const double c1[3] = {3, 1, -2};
    int touching, fallbacks;
    long nodes;
    check_resting_pairs(2026, c1, 1, &touching, &fallbacks, &nodes);
    ck_assert_msg(touching >= 38, "%d of 40 pairs touching", touching);
    ck_assert_msg(fallbacks <= 1, "%d of 40 pairs fell back", fallbacks);
    ck_assert_msg(nodes <= 64, "a touching pair took %ld nodes", nodes);
}
END_TEST

/* The same hulls set down by rotated rows alone (the faces coincide only
 * to rounding): they overlap or miss by about 1e-16 of their size, which
 * no double point or floating-point margin certifies; the fast engine
 * classifies its LP's rows exactly (fast_exact_set.c) instead of falling
 * back to the exact engine, and agrees with it. */
START_TEST(hulls_a_rounding_apart)
{
    static const double c1[3] = {-1, 2, 0.5};
    int touching, fallbacks;
    long nodes;
    check_resting_pairs(99, c1, 0, &touching, &fallbacks, &nodes);
    ck_assert_msg(fallbacks <= 2, "%d of 40 pairs fell back", fallbacks);
}
END_TEST

/* The same hulls a rounding apart, answered without the LP in rationals
 * where it can be: a disjoint pair by the LP's last basis certified as a
 * Farkas certificate (exact determinant signs), or by the two faces and
 * the two rows where their planes come nearest (fq_sliver_basis); an
 * overlapping one by a point of the sliver between the two faces (the
 * faces' common region between their planes: a double when one lies
 * there, else midway in rationals: fq_sliver_point).  Where two faces
 * opposite to rounding are among the candidates these steps run before the
 * LP, on the region the faces' lists bound (fq_rounding_faces); a pair
 * they do not decide goes on to the LP.  Every answer the exact engine's,
 * and verified. */
START_TEST(rounding_apart_without_the_rational_lp)
{
    static const double c1[3] = {-1, 2, 0.5};
    uint64_t rng = 99;
    hs_options opt;
    char *trace = t_traced_options(&opt);
    int sliver = 0, sliver_d = 0, farkas = 0, subsystem = 0, overlap = 0, disjoint = 0;
    int before[2] = {0, 0}; /* disjoint, overlapping: decided by those steps before the LP */
    for (int k = 0; k < 60; k++) {
        fam_pair p;
        resting_pair(&rng, c1, 0, &p);
        hs_error err;
        hs_poly *A, *B;
        t_pair_polys(&p, &A, &B);
        trace[0] = 0;
        hs_result *rf = hs_result_new(), *rx = hs_result_new();
        ck_assert_int_eq(hs_intersect(A, B, &opt, rf, &err), HS_OK);
        hs_status f = hs_result_status(rf), x = query(HS_ENGINE_EXACT, A, B, rx);
        ck_assert_msg(f == x, "pair %d: fast %s, exact %s", k, hs_status_name(f),
                      hs_status_name(x));
        ck_assert_msg(hs_result_verify(rf, A, B, &err) == HS_OK, "pair %d: %s", k, err.msg);
        sliver += strstr(trace, "a sliver apart") != NULL;
        sliver_d += strstr(trace, "between their planes, in doubles") != NULL;
        farkas += strstr(trace, "margin of rounding noise, and the tight rows") != NULL ||
                  strstr(trace, "a rounding apart that do not meet") != NULL;
        subsystem += strstr(trace, "classified exactly") != NULL;
        before[f == HS_OVERLAP] += (strstr(trace, "a sliver apart") ||
                                    strstr(trace, "do not meet")) &&
                                   !strstr(trace, "dual simplex");
        overlap += f == HS_OVERLAP;
        disjoint += f == HS_DISJOINT;
        hs_result_free(rf);
        hs_result_free(rx);
        hs_poly_free(A);
        hs_poly_free(B);
        fam_pair_free(&p);
    }
    /* (seed 99, 60 pairs: 25 overlapping and 35 disjoint; 11 slivers, 8
     * of them at a double point, 3 midway in rationals; the 35 disjoint
     * pairs by a Farkas basis (the LP's last, or the faces' and the two
     * rows where their planes come nearest), no pair classified on the
     * LP's rows in rationals; the other overlaps by the LP's point.  The
     * first 40 pairs, which once had a sliver in rationals, have none
     * since the LP starts from the extreme vertices' rows too.  Since
     * 2026-11-28 35 of the disjoint pairs and 13 of the overlapping ones
     * are decided before the LP) */
    ck_assert_msg(overlap > 0 && disjoint > 0, "%d overlapping, %d disjoint", overlap, disjoint);
    ck_assert_msg(before[0] >= 25 && before[1] >= 8, "before the LP: %d disjoint, %d overlapping",
                  before[0], before[1]);
    ck_assert_msg(sliver >= 2 && sliver_d >= 1 && sliver > sliver_d && farkas >= 18 &&
                      subsystem <= 5,
                  "%d slivers (%d at a double), %d Farkas bases, %d subsystems", sliver,
                  sliver_d, farkas, subsystem);
    free(trace);
}
END_TEST

/* A hull of 200 points on the unit sphere standing on a box floor (6
 * rows) by each of 24 of its faces, the floor's center far to the side
 * (so the hull's candidates along t - s do not hold the face): the floor's
 * top row either exactly minus the face's row (touching) or that row
 * divided by its norm, rounded (a rounding apart).  The pair of faces is
 * found along minus the floor's top normal (opposite_to_small, fast_faces.c:
 * the support rows of the hull's lowest vertex), so the contact is proved,
 * or the sliver decided, before the LP in most; every answer the exact
 * engine's, and verified. */
START_TEST(hull_standing_on_a_box_floor)
{
    uint64_t rng = 7;
    double pts[3 * 200], c0[3] = {0, 0, 0};
    t_sphere_points(200, 1, c0, &rng, pts);
    hs_poly *A = t_hull_poly(pts, 200);
    ck_assert(A != NULL);
    hs_options opt;
    char *trace = t_traced_options(&opt);
    int before[2] = {0, 0}, faces = 0;
    int m = hs_poly_rows(A);
    for (int k = 0; k < m && faces < 24; k += m / 24 > 0 ? m / 24 : 1, faces++) {
        double a[3], bk;
        ck_assert(hs_poly_row(A, k, a, &bk) != 0); /* (exact doubles) */
        double w = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        /* u, v across the normal (doubles, not exactly perpendicular) */
        double e[3] = {fabs(a[0]) < 0.5 * w ? 1 : 0, fabs(a[0]) < 0.5 * w ? 0 : 1, 0}, u[3], v[3];
        u[0] = a[1] * e[2] - a[2] * e[1];
        u[1] = a[2] * e[0] - a[0] * e[2];
        u[2] = a[0] * e[1] - a[1] * e[0];
        v[0] = a[1] * u[2] - a[2] * u[1];
        v[1] = a[2] * u[0] - a[0] * u[2];
        v[2] = a[0] * u[1] - a[1] * u[0];
        for (int rounded = 0; rounded < 2; rounded++) {
            double rows[18], rhs[6], f = rounded ? 1 / w : 1;
            for (int c = 0; c < 3; c++) {
                rows[c] = -a[c] * f;      /* top: the face's plane from the other side */
                rows[3 + c] = a[c];       /* bottom, 4 below */
                rows[6 + c] = u[c];       /* sides: the floor reaches 3 across the */
                rows[9 + c] = -u[c];      /* hull on one side, 40 on the other */
                rows[12 + c] = v[c];
                rows[15 + c] = -v[c];
            }
            double nu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            double nv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            rhs[0] = -bk * f;
            rhs[1] = bk + 4 * w;
            rhs[2] = 40 * nu;
            rhs[3] = 3 * nu;
            rhs[4] = 40 * nv;
            rhs[5] = 3 * nv;
            hs_error err;
            hs_poly *B = hs_poly_from_doubles(3, 6, rows, rhs, NULL, &err);
            ck_assert_msg(B != NULL, "%s", err.msg);
            for (int order = 0; order < 2; order++) {
                const hs_poly *P = order ? B : A, *Q = order ? A : B;
                hs_result *rf = hs_result_new(), *rx = hs_result_new();
                trace[0] = 0;
                ck_assert_int_eq(hs_intersect(P, Q, &opt, rf, &err), HS_OK);
                hs_status st = hs_result_status(rf), x = query(HS_ENGINE_EXACT, P, Q, rx);
                ck_assert_msg(st == x, "face %d%s: fast %s, exact %s", k,
                              rounded ? " (rounded)" : "", hs_status_name(st), hs_status_name(x));
                ck_assert_msg(hs_result_verify(rf, P, Q, &err) == HS_OK, "face %d: %s", k,
                              err.msg);
                if (!rounded)
                    ck_assert_msg(st == HS_TOUCHING, "face %d: %s", k, hs_status_name(st));
                before[rounded] += strstr(trace, "dual simplex") == NULL;
                hs_result_free(rf);
                hs_result_free(rx);
            }
            hs_poly_free(B);
        }
    }
    /* (seed 7: all 48 touching pairs and all 48 a rounding apart decided
     * before the LP, both orders counted; 30 and 30 when only the map's
     * first 3 rows were looked at, none without opposite_to_small) */
    ck_assert_msg(before[0] >= 44 && before[1] >= 44,
                  "before the LP: %d touching of 48, %d a rounding apart of 48", before[0],
                  before[1]);
    free(trace);
    hs_poly_free(A);
}
END_TEST

/* A disjoint answer that only the exact classification of the LP's rows
 * settled (two hulls a rounding apart whose faces' sliver and nearest rows
 * certify nothing: fq_exact_on_set) becomes the next query's hint: its
 * rows, completed by box bounds of zero weight when fewer than four, are
 * certified again by determinants, instead of classifying the rows in
 * rationals at every step of a scene at rest (bench/world's hulls: 2 of
 * 112 pairs, each 1 M instructions a step before). */
START_TEST(exact_disjoint_answer_kept_as_hint)
{
    static const double c1[3] = {-1, 2, 0.5};
    /* resting pairs of these seeds (a search of seeds 1000..2500 with the
     * code of 2026-11-27) are the ones whose disjoint answer needed the
     * exact classification; every pair's hint is checked whatever path
     * answered it */
    static const uint64_t seeds[] = {1519, 1605, 2445, 1000, 1001};
    hs_options opt;
    char *trace = t_traced_options(&opt);
    int found = 0;
    for (size_t t = 0; t < sizeof seeds / sizeof seeds[0]; t++) {
        fam_pair p;
        uint64_t rng = seeds[t];
        resting_pair(&rng, c1, 0, &p);
        hs_error err;
        hs_poly *A, *B;
        t_pair_polys(&p, &A, &B);
        fast_view va, vb;
        ck_assert(fast_view_of_poly(&va, A) == 0 && fast_view_of_poly(&vb, B) == 0);
        ck_assert(va.prep && vb.prep);
        /* B's rows read from a copy, as a world reads a moved piece's: its
         * faces have no lists (fast_facet.h), so the two faces a rounding
         * apart are not tried before the LP on the region the lists bound,
         * which since 2026-11-28 answers every pair of these seeds (and of
         * 1000-6999) without the exact classification */
        double *copy = malloc(sizeof(double) * 4 * (size_t)vb.m);
        ck_assert(copy != NULL);
        memcpy(copy, vb.a, sizeof(double) * 3 * (size_t)vb.m);
        memcpy(copy + 3 * vb.m, vb.b, sizeof(double) * (size_t)vb.m);
        vb.a = copy;
        vb.b = copy + 3 * vb.m;
        vb.poly = NULL;
        vb.use_star = 0;
        trace[0] = 0;
        hs_result *r = hs_result_new();
        fast_hint next;
        ck_assert_int_eq(fast_intersect_views_hinted(&va, &vb, 3, &opt, NULL, r, &next, &err),
                         HS_OK);
        hs_status first = hs_result_status(r);
        int exact = first == HS_DISJOINT && strstr(trace, "classified exactly") != NULL;
        found += exact;
        if (exact)
            ck_assert_msg(next.kind == FAST_HINT_DISJOINT, "seed %d: no hint kept", (int)seeds[t]);
        fast_hint again = next;
        trace[0] = 0;
        ck_assert_int_eq(fast_intersect_views_hinted(&va, &vb, 3, &opt,
                                                     next.kind ? &again : NULL, r, &next, &err),
                         HS_OK);
        ck_assert_msg(hs_result_status(r) == first, "seed %d: %s, then %s", (int)seeds[t],
                      hs_status_name(first), hs_status_name(hs_result_status(r)));
        ck_assert_msg(hs_result_verify(r, A, B, &err) == HS_OK, "seed %d: %s", (int)seeds[t],
                      err.msg);
        if (exact)
            ck_assert_msg(strstr(trace, "of the last query still certify") &&
                              !strstr(trace, "classified exactly"),
                          "seed %d: the hint did not certify:\n%s", (int)seeds[t], trace);
        hs_result_free(r);
        free(copy);
        hs_poly_free(A);
        hs_poly_free(B);
        fam_pair_free(&p);
    }
    ck_assert_msg(found >= 1, "no pair of the seeds needed the exact classification any more: "
                              "search others (the hint of such an answer is this test's point)");
    free(trace);
}
END_TEST

/* A disjoint hint of fewer than four rows completed by box bounds of zero
 * weight (as make_hint completes an exact certificate of two or three
 * rows): two unit boxes apart along x, certified by A's +x face and B's -x
 * face with the bounds of y and z; a completion on the x axis is singular
 * and does not certify, and neither does the pair once the boxes meet. */
START_TEST(disjoint_hint_with_box_bounds)
{
    /* rows: -x <= 0, x <= 1, -y <= 0, y <= 1, -z <= 0, z <= 1, B moved by gap */
    static const double a[18] = {-1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1};
    for (int apart = 0; apart < 2; apart++) {
        double bA[6] = {0, 1, 0, 1, 0, 1}, bB[6] = {-1.25, 2.25, 0.5, 0.5, 0, 1};
        if (!apart) {
            bB[0] = -0.75;
            bB[1] = 1.75;
        }
        hs_error err;
        hs_poly *A = hs_poly_from_doubles(3, 6, a, bA, NULL, &err);
        hs_poly *B = hs_poly_from_doubles(3, 6, a, bB, NULL, &err);
        ck_assert(A && B);
        fast_view va, vb;
        ck_assert(fast_view_of_poly(&va, A) == 0 && fast_view_of_poly(&vb, B) == 0);
        hs_options opt;
        hs_options_init(&opt);
        hs_result *r = hs_result_new();
        for (int singular = 0; singular < 2; singular++) {
            fast_hint h;
            memset(&h, 0, sizeof h);
            h.kind = FAST_HINT_DISJOINT;
            h.which[0] = 0, h.row[0] = 1; /* x <= 1 of A */
            h.which[1] = 1, h.row[1] = 0; /* -x <= -1.25 of B */
            h.which[2] = FAST_HINT_BOX, h.row[2] = singular ? 1 : 3; /* x, or y upper */
            h.which[3] = FAST_HINT_BOX, h.row[3] = 4;                /* z lower */
            int got = fast_try_hint(&va, &vb, 3, &opt, &h, r, &err);
            ck_assert_msg(got == (apart && !singular), "apart %d, singular %d: %d", apart,
                          singular, got);
            if (got == 1) {
                ck_assert_int_eq(hs_result_status(r), HS_DISJOINT);
                ck_assert_msg(hs_result_verify(r, A, B, &err) == HS_OK, "%s", err.msg);
            }
        }
        hs_result_free(r);
        hs_poly_free(A);
        hs_poly_free(B);
    }
}
END_TEST

/* The meshes of the data folder for test `name`, or NULL after its named
 * skip when the folder is missing. */
static fam_meshes *test_meshes(const char *name)
{
    if (!t_data(name, "meshes/fcl/env.obj"))
        return NULL;
    char note[256];
    fam_meshes *ms = fam_meshes_load(t_data_dir(), note, sizeof note);
    ck_assert_msg(ms != NULL, "%s", note);
    return ms;
}

/* Body k of a face-down world: the hull of pts (np points) with a random
 * facet turned face down by a floating-point rotation, a random spin
 * about z, lifted so that its lowest vertex is at z = 0 in doubles, at
 * grid place k (spacing 5). */
static void add_face_down(hs_world *w, int k, const double *pts, int np, uint64_t *rng)
{
    hs_error err;
    fam_pair p;
    memset(&p, 0, sizeof p);
    ck_assert_msg(fam_pair_hull(pts, np, &p, 0, &err) == HS_OK, "%s", err.msg);
    const double *a = p.a[0] + 3 * (t_rng_next(rng) % (uint64_t)p.m[0]);
    double len = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    double u[3] = {a[0] / len, a[1] / len, a[2] / len}, axis[3] = {-u[1], u[0], 0};
    double angle = acos(fmax(-1, fmin(1, -u[2]))), R[16], S[16], zaxis[3] = {0, 0, 1};
    if (hypot(axis[0], axis[1]) < 1e-12) {
        axis[0] = 1;
        axis[1] = 0;
        angle = u[2] < 0 ? 0 : M_PI;
    }
    ck_assert_int_eq(hs_pose_from_axis_angle(R, axis, angle, NULL, &err), HS_OK);
    ck_assert_int_eq(
        hs_pose_from_axis_angle(S, zaxis, (double)(t_rng_next(rng) % 628) / 100, NULL, &err),
        HS_OK);
    hs_pose_multiply(R, S, R);
    double low = INFINITY;
    for (int i = 0; i < np; i++)
        low = fmin(low, R[8] * pts[3 * i] + R[9] * pts[3 * i + 1] + R[10] * pts[3 * i + 2]);
    R[3] = (k % 8) * 5.0;
    R[7] = (k / 8) * 5.0;
    R[11] = -low;
    char name[16];
    snprintf(name, sizeof name, "h%03d", k);
    hs_body *b = hs_world_add_body(w, name, 0, &err);
    ck_assert_int_eq(hs_body_add_hull(b, pts, np, NULL, &err), HS_OK);
    ck_assert_int_eq(hs_body_set_pose(b, R, &err), HS_OK);
    fam_pair_free(&p);
}

/* A world with a static floor whose top face is z = 0. */
static hs_world *floor_world(void)
{
    hs_error err;
    hs_world *w = hs_world_new();
    hs_body *floor = hs_world_add_body(w, "floor", 1, &err);
    double size[3] = {1000, 1000, 1}, place[16];
    hs_pose_identity(place);
    place[11] = -0.5;
    ck_assert_int_eq(hs_body_add_box(floor, size, place, &err), HS_OK);
    return w;
}

/* The face-down world's query (threshold 0): the fast engine's pairs and
 * answers are the exact engine's, every body pair was tested, and no
 * fast-engine query fell back.  Returns the number of pairs that met. */
static int check_face_down_world(hs_world *w, int bodies)
{
    hs_error err;
    hs_query_options opt;
    hs_query_options_init(&opt);
    opt.threshold = 0;
    opt.contacts = 0;
    hs_report *fast = hs_report_new(), *exact = hs_report_new();
    /* twice with one report: the second query answers from the first's
     * records and hints (a scene at rest), with the same answers */
    ck_assert_msg(hs_world_query(w, &opt, fast, &err) == HS_OK, "%s", err.msg);
    ck_assert_msg(hs_world_query(w, &opt, fast, &err) == HS_OK, "%s", err.msg);
    opt.engine = HS_ENGINE_EXACT;
    ck_assert_msg(hs_world_query(w, &opt, exact, &err) == HS_OK, "%s", err.msg);
    int pairs = hs_report_pair_count(fast);
    ck_assert_int_eq(pairs, hs_report_pair_count(exact));
    for (int k = 0; k < pairs; k++) {
        const char *a1, *b1, *a2, *b2;
        hs_status s1, s2;
        hs_report_pair(fast, k, &a1, &b1, &s1);
        hs_report_pair(exact, k, &a2, &b2, &s2);
        ck_assert_msg(!strcmp(a1, a2) && !strcmp(b1, b2) && s1 == s2, "pair %d: %s-%s %s, %s-%s %s",
                      k, a1, b1, hs_status_name(s1), a2, b2, hs_status_name(s2));
    }
    hs_report_stats st;
    hs_report_get_stats(fast, &st);
    ck_assert_int_eq(st.piece_pairs, bodies);
    ck_assert_msg(st.fallbacks == 0, "%ld fallbacks", st.fallbacks);
    hs_report_free(fast);
    hs_report_free(exact);
    return pairs;
}

/* What a simulator does: hulls (of 60 to 259 points on spheres) set face
 * down on a floor by floating-point poses (add_face_down).  The faces
 * meet the floor only to rounding: each pair overlaps or misses by about
 * 1e-16.  The world's query finds the same pairs with the same answers as
 * with the exact engine, and the fast engine answers every pair itself.
 * (A regression test: the code before the slivers passes it too.) */
START_TEST(hulls_face_down_in_a_world)
{
    uint64_t rng = 4242;
    hs_world *w = floor_world();
    double *pts = malloc(sizeof(double) * 3 * 260), c0[3] = {0, 0, 0};
    for (int k = 0; k < 30; k++) {
        int np = 60 + (int)(t_rng_next(&rng) % 200);
        t_sphere_points(np, 0.5 + (double)(t_rng_next(&rng) % 100) / 100, c0, &rng, pts);
        add_face_down(w, k, pts, np, &rng);
    }
    free(pts);
    int pairs = check_face_down_world(w, 30);
    ck_assert_msg(pairs >= 5 && pairs <= 25, "%d of 30 hulls overlap the floor", pairs);
    hs_world_free(w);
}
END_TEST

/* The same with the hulls of the real meshes of the data folder, twice
 * each (named skip without it): their facets are small and uneven, and
 * some pairs stall the dual simplex at the faces' corner.  (A regression
 * test as well: the code before this session's slivers passes it; a scene
 * like it with another seed sent one pair to the exact engine there.) */
START_TEST(mesh_hulls_face_down_in_a_world)
{
    fam_meshes *ms = test_meshes("mesh_hulls_face_down_in_a_world");
    if (!ms)
        return;
    uint64_t rng = 12345;
    hs_world *w = floor_world();
    int bodies = 0;
    for (int m = 0; m < fam_meshes_count(ms); m++) {
        int np = fam_mesh_points(ms, m);
        double *pts = malloc(sizeof(double) * 3 * (size_t)np);
        fam_mesh_copy_points(ms, m, pts);
        for (int c = 0; c < 2; c++)
            add_face_down(w, bodies++, pts, np, &rng);
        free(pts);
    }
    int pairs = check_face_down_world(w, bodies);
    ck_assert_msg(pairs >= bodies / 4, "%d of %d hulls meet the floor", pairs, bodies);
    hs_world_free(w);
    fam_meshes_free(ms);
}
END_TEST

START_TEST(resting_mesh_hulls)
{
    fam_meshes *ms = test_meshes("resting_mesh_hulls");
    if (!ms)
        return;
    int touching = 0, fallbacks = 0, total = 0;
    long nodes = 0;
    for (int k = 0; k < 40; k++) {
        fam_pair p;
        hs_error err;
        ck_assert_msg(fam_make(FAM_HULL_REST, 1, k, 0, ms, &p, &err) == HS_OK, "%s", err.msg);
        check_resting(p.label, &p, &touching, &fallbacks, &nodes);
        fam_pair_free(&p);
        total++;
    }
    ck_assert_msg(touching >= total - 2, "%d of %d pairs touching", touching, total);
    ck_assert_msg(fallbacks <= 2, "%d of %d pairs fell back", fallbacks, total);
    /* two faces lying on each other stall the dual simplex at a degenerate
     * corner; their common region's own LP settles it (fast_faces.c)
     * instead of Seidel's LP in three boxes (pair 39: 1098 nodes) */
    ck_assert_msg(nodes <= 64, "a touching pair took %ld nodes", nodes);
    fam_meshes_free(ms);
}
END_TEST

Suite *suite_contact_cert(void)
{
    Suite *s = suite_create("contact_cert");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, face_contacts_need_no_fallback);
    tcase_add_test(tc, facing_faces_scaled_and_nudged);
    tcase_add_test(tc, edge_and_vertex_contacts);
    tcase_add_test(tc, contact_point_is_exact);
    tcase_add_test(tc, exact_box_equals_hull_box);
    tcase_add_test(tc, resting_boxes_repeat);
    tcase_add_test(tc, resting_tessellated_hulls);
    tcase_add_test(tc, hulls_a_rounding_apart);
    tcase_add_test(tc, rounding_apart_without_the_rational_lp);
    tcase_add_test(tc, hull_standing_on_a_box_floor);
    tcase_add_test(tc, exact_disjoint_answer_kept_as_hint);
    tcase_add_test(tc, disjoint_hint_with_box_bounds);
    tcase_add_test(tc, hulls_face_down_in_a_world);
    tcase_add_test(tc, mesh_hulls_face_down_in_a_world);
    tcase_add_test(tc, resting_mesh_hulls);
    suite_add_tcase(s, tc);
    return s;
}
