/* test_fast_facet.c -- the rows bounding a face in its plane
 * (solver/fast_facet.c): on polyhedra with small integer rows, at every
 * point of a dyadic grid on each face's plane (where double arithmetic is
 * exact), the face's list accepts exactly the points every row accepts,
 * on the boundary included; a row that cuts a face by a rounding's width
 * is in its list; a face whose plane misses the polyhedron has none; a
 * mesh-like hull has lists for nearly every face, without the face's own
 * row; and a contact of two such hulls, face on face, is proved through
 * the lists with the exact engine's answer. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/fast_facet.h"
#include "solver/fast_prep.h"
#include "tests/helpers.h"

/* a . y - b > 0 for row i at y (exact here: small integers and dyadics) */
static int outside(const hs_poly *P, int i, const double *y)
{
    const double *a = hpoly_row(P, i);
    return a[0] * y[0] + a[1] * y[1] + a[2] * y[2] - P->b[i] > 0;
}

/* The cube [-4, 4]^3 (rows 0-5: x_c <= 4, -x_c <= 4) cut by `cuts` planes
 * with integer normals in [-3, 3]^3 passing near its surface. */
static hs_poly *cut_cube(int cuts, unsigned seed)
{
    int m = 6 + cuts;
    double *a = calloc(3 * (size_t)m, sizeof(double)), *b = malloc(sizeof(double) * (size_t)m);
    for (int c = 0; c < 3; c++) {
        a[3 * (2 * c) + c] = 1;
        a[3 * (2 * c + 1) + c] = -1;
        b[2 * c] = b[2 * c + 1] = 4;
    }
    for (int i = 6; i < m; i++) {
        int l1 = 0;
        while (l1 == 0) {
            l1 = 0;
            for (int c = 0; c < 3; c++) {
                seed = seed * 1103515245u + 12345u;
                a[3 * i + c] = (double)((int)(seed >> 16) % 7 - 3);
                l1 += abs((int)a[3 * i + c]);
            }
        }
        seed = seed * 1103515245u + 12345u;
        b[i] = 4.0 * l1 - (double)(1 + (seed >> 16) % 6); /* (cuts a corner or an edge) */
    }
    return t_poly_from_owned(3, m, a, b, NULL);
}

/* Does rows[0 .. count) accept, on face k's plane (x_axis = +-4), exactly
 * the grid points every row accepts?  Counts the points inside and those
 * on another row's plane too. */
static void check_grid(const hs_poly *P, int k, const int *rows, int count, unsigned seed,
                       int *inside, int *boundary)
{
    int axis = k / 2;
    for (int u = -32; u <= 32; u++)
        for (int v = -32; v <= 32; v++) {
            double y[3];
            y[axis] = k % 2 ? -4 : 4;
            y[axis == 0 ? 1 : 0] = u / 8.0;
            y[axis == 2 ? 1 : 2] = v / 8.0;
            int all = 1, listed = 1, on_edge = 0;
            for (int i = 0; i < P->m; i++) {
                const double *a = hpoly_row(P, i);
                if (i != k && a[0] * y[0] + a[1] * y[1] + a[2] * y[2] == P->b[i])
                    on_edge = 1;
                all &= !outside(P, i, y);
            }
            for (int t = 0; t < count; t++)
                listed &= !outside(P, rows[t], y);
            ck_assert_msg(all == listed, "seed %u face %d: (%g, %g, %g) every row %d, the list %d",
                          seed, k, y[0], y[1], y[2], all, listed);
            *inside += all;
            *boundary += all && on_edge;
        }
}

START_TEST(lists_accept_what_every_row_accepts)
{
    int lists = 0, inside = 0, boundary = 0, reproved = 0;
    for (unsigned seed = 1; seed <= 12; seed++) {
        hs_poly *P = cut_cube(10 + (int)seed, seed);
        const fast_prep *fp = t_ready_prep(P);
        for (int k = 0; k < 6; k++) { /* the cube's faces: their planes are x_c = +-4 */
            int count = 0;
            const int *list = fast_facet_rows(fp, k, &count);
            if (!list)
                continue;
            lists++;
            for (int t = 0; t < count; t++) {
                ck_assert_int_ne(list[t], k);
                ck_assert(list[t] >= 0 && list[t] < P->m);
            }
            check_grid(P, k, list, count, seed, &inside, &boundary);
            /* the proof given the list without one of its rows (an edge
             * the face needs): it must take a row back that restores the
             * face, or give up */
            for (int drop = 0; drop < count; drop++) {
                int rows[FAST_FACET_MAX_EDGES], kept = 0, dummy_in = 0, dummy_b = 0;
                for (int t = 0; t < count; t++)
                    if (t != drop)
                        rows[kept++] = list[t];
                int got = fast_facet_prove(fp, k, rows, kept, FAST_FACET_MAX_EDGES);
                if (got < 0)
                    continue;
                reproved++;
                check_grid(P, k, rows, got, seed, &dummy_in, &dummy_b);
            }
        }
        hs_poly_free(P);
    }
    ck_assert_int_ge(lists, 50); /* (58 of 72 faces: a face cut away has none) */
    ck_assert_int_gt(inside, 10000);
    ck_assert_int_gt(boundary, 100); /* points on an edge, exactly */
    ck_assert_int_gt(reproved, 100);
}
END_TEST

START_TEST(a_cut_by_a_rounding_is_listed)
{
    /* the cube [-1, 1]^3 (rows 0-5) and x + y + z <= 3 (1 - 2^-50): it
     * cuts the corner (1, 1, 1) of face z <= 1 by about 3 2^-50, which
     * the face's list must hold; and x + y + z <= 3, through the corner
     * exactly, which it need not */
    for (int exact = 0; exact < 2; exact++) {
        double a[21] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 1, 1, 1};
        double b[7] = {1, 1, 1, 1, 1, 1, exact ? 3 : 3 * (1 - 0x1p-50)};
        hs_error err;
        hs_poly *P = hs_poly_from_doubles(3, 7, a, b, NULL, &err);
        ck_assert_ptr_nonnull(P);
        const fast_prep *fp = t_ready_prep(P);
        int count = 0, has = 0;
        const int *list = fast_facet_rows(fp, 4, &count);
        ck_assert_ptr_nonnull(list);
        for (int t = 0; t < count; t++)
            has |= list[t] == 6;
        if (!exact)
            ck_assert_msg(has, "the cut row is not in face z <= 1's list");
        ck_assert_int_ge(count, 4); /* (x <= 1, -x <= 1, y <= 1, -y <= 1) */
        /* twice: the same list (made once, then read) */
        int again = 0;
        ck_assert_ptr_eq(fast_facet_rows(fp, 4, &again), list);
        ck_assert_int_eq(again, count);
        hs_poly_free(P);
    }
}
END_TEST

START_TEST(faces_without_a_list)
{
    /* a row whose plane misses the cube (z <= 2), and rows out of range */
    double a[21] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 1};
    double b[7] = {1, 1, 1, 1, 1, 1, 2};
    hs_error err;
    hs_poly *P = hs_poly_from_doubles(3, 7, a, b, NULL, &err);
    ck_assert_ptr_nonnull(P);
    const fast_prep *fp = t_ready_prep(P);
    int count = 5;
    ck_assert_ptr_null(fast_facet_rows(fp, 6, &count));
    ck_assert_int_eq(count, 0);
    ck_assert_ptr_null(fast_facet_rows(fp, -1, &count));
    ck_assert_ptr_null(fast_facet_rows(fp, 7, &count));
    ck_assert_ptr_nonnull(fast_facet_rows(fp, 0, &count));
    ck_assert_int_eq(count, 4);
    hs_poly_free(P);
}
END_TEST

START_TEST(hull_faces_have_lists)
{
    double pts[3 * 150], c[3] = {0.3, -0.2, 0.1};
    uint64_t rng = 7;
    t_sphere_points(150, 2, c, &rng, pts);
    hs_poly *P = t_hull_poly(pts, 150);
    const fast_prep *fp = t_ready_prep(P);
    int with = 0;
    for (int k = 0; k < P->m; k++) {
        int count = 0;
        const int *list = fast_facet_rows(fp, k, &count);
        if (!list)
            continue;
        with++;
        ck_assert_int_ge(count, 3);
        ck_assert_int_le(count, FAST_FACET_MAX_EDGES);
        for (int t = 0; t < count; t++) {
            ck_assert_int_ne(list[t], k);
            for (int s = 0; s < t; s++)
                ck_assert_int_ne(list[s], list[t]);
        }
    }
    ck_assert_msg(with >= P->m * 9 / 10, "%d of %d faces have a list", with, P->m);
    hs_poly_free(P);
}
END_TEST

/* The exact engine's status for A and B, and the fast engine's, twice
 * (its faces' lists made, then read), asserted equal to it and free of
 * the exact fallback. */
static hs_status fast_agrees(const hs_poly *A, const hs_poly *B, const char *what)
{
    hs_options fast, exact;
    hs_options_init(&fast);
    hs_options_init(&exact);
    exact.engine = HS_ENGINE_EXACT;
    hs_result *r = hs_result_new();
    hs_error err;
    ck_assert_int_eq(hs_intersect(A, B, &exact, r, &err), HS_OK);
    hs_status want = hs_result_status(r);
    for (int rep = 0; rep < 2; rep++) {
        ck_assert_int_eq(hs_intersect(A, B, &fast, r, &err), HS_OK);
        ck_assert_msg(hs_result_status(r) == want, "%s: fast %d, exact %d", what,
                      hs_result_status(r), want);
        ck_assert_int_eq(hs_result_fallback(r), 0);
    }
    hs_result_free(r);
    return want;
}

/* The hull of pts with z >= 0 moved, in B, so that its face z = 0 lies
 * on A's top face z = 0 (A: the hull with z <= 0). */
START_TEST(face_on_face_contact_through_the_lists)
{
    enum { N = 120 };
    double pts[3 * N], lower[3 * (N + 8)], upper[3 * (N + 8)], c[3] = {0, 0, 0};
    uint64_t rng = 3;
    t_sphere_points(N, 1, c, &rng, pts);
    int nl = 0, nu = 0;
    for (int i = 0; i < N; i++) {
        double *p = pts + 3 * i;
        if (p[2] < -0.05)
            memcpy(lower + 3 * nl++, p, 3 * sizeof(double));
        if (p[2] > 0.05) {
            memcpy(upper + 3 * nu, p, 3 * sizeof(double));
            upper[3 * nu + 0] += 0.25; /* (offset: the faces overlap in part) */
            nu++;
        }
    }
    for (int t = 0; t < 8; t++) { /* an octagon at z = 0 closes each */
        double x = 0.8 * cos(t * 0.7853981633974483), y = 0.8 * sin(t * 0.7853981633974483);
        double *l = lower + 3 * nl++, *u = upper + 3 * nu++;
        l[0] = x;
        l[1] = y;
        l[2] = 0;
        u[0] = x + 0.25;
        u[1] = y;
        u[2] = 0;
    }
    hs_poly *A = t_hull_poly(lower, nl), *B = t_hull_poly(upper, nu);
    ck_assert_int_ge(A->m, 32);
    ck_assert_int_ge(B->m, 32);
    ck_assert_int_eq(fast_agrees(A, B, "face on face"), HS_TOUCHING);
    const fast_prep *fa = t_ready_prep(A), *fb = t_ready_prep(B);
    ck_assert_ptr_nonnull(atomic_load(&((fast_prep *)fa)->facets));
    ck_assert_ptr_nonnull(atomic_load(&((fast_prep *)fb)->facets));
    /* B slid along the plane, off A's face: the faces still on one plane,
     * opposite, but with no common point (the lists must not let a point
     * outside the other's face through) */
    for (int i = 0; i < nu; i++)
        upper[3 * i] += 1.9;
    hs_poly *B1 = t_hull_poly(upper, nu);
    ck_assert_int_eq(fast_agrees(A, B1, "slid off"), HS_DISJOINT);
    hs_poly_free(B1);
    for (int i = 0; i < nu; i++)
        upper[3 * i] -= 1.9;
    /* B lifted by a rounding: disjoint, and no list proves otherwise */
    for (int i = 0; i < nu; i++)
        upper[3 * i + 2] += 0x1p-40;
    hs_poly *B2 = t_hull_poly(upper, nu);
    ck_assert_int_eq(fast_agrees(A, B2, "lifted"), HS_DISJOINT);
    hs_poly_free(B2);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

/* Points: 4 corners [x0, x0 + w] x [-h, h] at z = 0 and n - 4 random
 * points of a dome over that footprint, z in [0.1, 1] times sign (below
 * the plane for sign -1). */
static void column_points(double *pts, int n, double x0, double w, double h, double sign,
                          unsigned seed)
{
    for (int i = 0; i < n - 4; i++) {
        double r[2];
        for (int c = 0; c < 2; c++) {
            seed = seed * 1103515245u + 12345u;
            r[c] = (double)(seed >> 16 & 0xffff) / 65536.0;
        }
        double du = 2 * r[0] - 1, dv = 2 * r[1] - 1; /* (on a dome: each on the hull) */
        pts[3 * i] = x0 + 0.5 * w + 0.45 * w * du;
        pts[3 * i + 1] = 0.9 * h * dv;
        pts[3 * i + 2] = sign * (0.1 + 0.9 * (1 - 0.5 * (du * du + dv * dv)));
    }
    for (int t = 0; t < 4; t++) {
        double *p = pts + 3 * (n - 4 + t);
        p[0] = t & 1 ? x0 + w : x0;
        p[1] = t & 2 ? h : -h;
        p[2] = 0;
    }
}

/* A: a wide hull below the square [-1, 1]^2 of z = 0; B: a narrow one
 * above [s, s + 0.2] x [-0.1, 0.1].  Their faces z = 0 lie on one plane,
 * opposite; B slides along x: the faces share a strip (s < 1), an edge
 * (s = 1) or nothing (s > 1), by a rounding either way.  The point below
 * B's center lies in B's face, in A's or not: the lists of both faces
 * decide.  The fast engine must agree with the exact engine on every s. */
START_TEST(faces_sliding_along_their_plane)
{
    enum { NA = 90, NB = 60 };
    double a[3 * NA], bpts[3 * NB];
    column_points(a, NA, -1, 2, 1, -1, 11);
    hs_poly *A = t_hull_poly(a, NA);
    ck_assert_int_ge(A->m, 32);
    const double shifts[] = {0.5, 0.9, 1 - 0x1p-30, 1 - 0x1p-52, 1, 1 + 0x1p-52, 1 + 0x1p-30,
                             1.1};
    for (size_t w = 0; w < sizeof shifts / sizeof shifts[0]; w++) {
        double sx = shifts[w];
        char what[64];
        snprintf(what, sizeof what, "s = %.17g", sx);
        column_points(bpts, NB, sx, 0.2, 0.1, 1, 17);
        hs_poly *B = t_hull_poly(bpts, NB);
        ck_assert_int_ge(B->m, 32);
        ck_assert_int_eq(fast_agrees(A, B, what), sx <= 1 ? HS_TOUCHING : HS_DISJOINT);
        hs_poly_free(B);
    }
    hs_poly_free(A);
}
END_TEST

/* Counts the trace lines of the margin LP (the dual simplex's summary). */
static void count_lp(void *user, const char *line)
{
    if (strncmp(line, "dual simplex", 12) == 0)
        ++*(int *)user;
}

/* Two hulls of 100 rows or more resting face on face, B's small face at
 * places across A's large one (so that the line between their centers
 * leaves A through a side face, and A's face is not among its first few
 * candidates): two faces exactly opposite among the first 12 candidates
 * of each side are found before the margin LP, and their contact proved
 * there (through the faces' lists), as the exact engine answers. */
START_TEST(resting_faces_found_before_the_lp)
{
    enum { NA = 240, NB = 200 };
    static double a[3 * NA], bpts[3 * NB];
    column_points(a, NA, -1, 2, 1, -1, 5);
    hs_poly *A = t_hull_poly(a, NA);
    ck_assert_int_ge(A->m, 100);
    hs_options fast;
    hs_options_init(&fast);
    int lps = 0, pairs = 0;
    fast.trace = count_lp;
    fast.trace_user = &lps;
    hs_result *r = hs_result_new();
    hs_error err;
    for (int t = 0; t < 8; t++) {
        double x0 = -1 + 0.25 * t; /* B's face [x0, x0 + 0.2] x [-0.1, 0.1] */
        column_points(bpts, NB, x0, 0.2, 0.1, 1, 23 + (unsigned)t);
        hs_poly *B = t_hull_poly(bpts, NB);
        ck_assert_int_ge(B->m, 100);
        ck_assert_int_eq(fast_agrees(A, B, "resting"), HS_TOUCHING);
        int before = lps;
        ck_assert_int_eq(hs_intersect(A, B, &fast, r, &err), HS_OK);
        ck_assert_int_eq(hs_result_status(r), HS_TOUCHING);
        pairs += lps == before;
        hs_poly_free(B);
    }
    ck_assert_int_eq(pairs, 8); /* (5 of 8 with the first 3 candidates only) */
    hs_result_free(r);
    hs_poly_free(A);
}
END_TEST

Suite *suite_fast_facet(void)
{
    Suite *s = suite_create("fast_facet");
    TCase *tc = tcase_create("fast_facet");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lists_accept_what_every_row_accepts);
    tcase_add_test(tc, a_cut_by_a_rounding_is_listed);
    tcase_add_test(tc, faces_without_a_list);
    tcase_add_test(tc, hull_faces_have_lists);
    tcase_add_test(tc, face_on_face_contact_through_the_lists);
    tcase_add_test(tc, faces_sliding_along_their_plane);
    tcase_add_test(tc, resting_faces_found_before_the_lp);
    suite_add_tcase(s, tc);
    return s;
}
