/* test_fast_map.c -- the fast engine's preparation (solver/fast_map.c,
 * solver/fast_prep.c): every cell of a direction map lists the map_len
 * rows with the largest scores a . d / center_slack along the cell's
 * center direction, the larger first and of equal scores the lower row,
 * as a plain pass over every row finds them (the lists are made from the
 * cell before's and skip blocks of rows by a bound: neither may change
 * them), on round and elongated polyhedra and on ones with every row twice
 * (equal scores in every list),
 * below and above the sizes where those shortcuts start, and on a mesh-like
 * hull; the skeleton (most of whose trial chords are bounded through the
 * map's lists instead of a pass over every row) is, to the bit, the one
 * of full passes, inside its polyhedron and along a long one; the box hint of a hull of points
 * (its LPs in Clarkson's rounds) is the points' box; and the dual simplex
 * in rounds from a first set of rows reaches the optimum of the LP on
 * every row. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/fast_lp.h"
#include "solver/fast_prep.h"
#include "tests/helpers.h"

/* Row i's score along d, as the map defines it (NaN as -infinity). */
static double score_of(const hs_poly *P, const fast_prep *fp, const double *d, int i)
{
    const double *a = hpoly_row(P, i);
    double v = (a[0] * d[0] + a[1] * d[1] + a[2] * d[2]) / fp->center_slack[i];
    return v == v ? v : -INFINITY;
}

/* Every cell's list against a pass over every row: the map_len best by
 * (score descending, row ascending).  Returns how many cells had two
 * equal scores within their lists' reach (ties the order must break). */
static int check_lists(const hs_poly *P, const char *what)
{
    const fast_prep *fp = t_ready_prep(P);
    ck_assert_int_gt(fp->map_cells, 0);
    int m = P->m, len = fp->map_len, ties = 0;
    int *best = malloc(sizeof(int) * (size_t)len);
    double *key = malloc(sizeof(double) * (size_t)len);
    for (int c = 0; c < fp->map_cells; c++) {
        double d[3];
        fast_prep_cell_center(3, fp->map_g, c, d);
        int count = 0, tied = 0;
        for (int i = 0; i < m; i++) { /* (insertion: strictly better moves up) */
            double v = score_of(P, fp, d, i);
            if (count == len && !(v > key[len - 1]))
                continue;
            int at = count < len ? count++ : len - 1;
            for (; at > 0 && v > key[at - 1]; at--) {
                key[at] = key[at - 1];
                best[at] = best[at - 1];
            }
            key[at] = v;
            best[at] = i;
        }
        for (int k = 1; k < len; k++)
            tied |= key[k] == key[k - 1];
        ties += tied;
        int n = 0;
        const int *list = fast_prep_list(fp, c, &n);
        ck_assert_int_eq(n, len);
        for (int k = 0; k < len; k++)
            ck_assert_msg(list[k] == best[k], "%s (m = %d): cell %d, place %d: row %d, not %d",
                          what, m, c, k, list[k], best[k]);
    }
    free(best);
    free(key);
    return ties;
}

static hs_poly *cloud_hull(int npts, uint64_t *rng, double *lo, double *hi)
{
    double *pts = malloc(sizeof(double) * 3 * (size_t)npts);
    for (int j = 0; j < 3; j++) {
        lo[j] = INFINITY;
        hi[j] = -INFINITY;
    }
    for (int i = 0; i < npts; i++) {
        double u[3], len;
        do {
            for (int j = 0; j < 3; j++)
                u[j] = t_rng_sym(rng);
            len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        } while (len < 0.1 || len > 1);
        double ax[3] = {3, 0.9, 0.5}; /* (an elongated egg, off the origin) */
        for (int j = 0; j < 3; j++) {
            pts[3 * i + j] = 0.25 + ax[j] * u[j] / len;
            lo[j] = fmin(lo[j], pts[3 * i + j]);
            hi[j] = fmax(hi[j], pts[3 * i + j]);
        }
    }
    hs_poly *P = t_hull_poly(pts, npts);
    free(pts);
    return P;
}

START_TEST(lists_are_the_top_rows_by_score)
{
    uint64_t rng = 9001;
    double c[3] = {0.5, -0.25, 0.125};
    static const int sizes[] = {12, 20, 60, 63, 64, 150, 400};
    int ties = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int e = 0; e < 2; e++) {
            /* (integer normals of at most 64: equal rows, and equal
             * scores, are common) */
            hs_poly *P = t_ellipsoid_rows(sizes[s], e ? 0.1 : 1, c, 1, &rng);
            ties += check_lists(P, e ? "1:10 ellipsoid" : "sphere");
            hs_poly_free(P);
        }
    /* every row twice, the second times 2 (the same score, exactly): each
     * list breaks ties, on both sides of the sizes where the shortcuts
     * start */
    for (int half = 24; half <= 200; half += 88) {
        hs_poly *P = t_ellipsoid_rows(half, 0.5, c, 1, &rng);
        double *a = malloc(sizeof(double) * 6 * (size_t)half), *b = malloc(sizeof(double) * 2 * (size_t)half);
        for (int i = 0; i < half; i++) {
            for (int j = 0; j < 3; j++) {
                a[3 * i + j] = P->a[3 * i + j];
                a[3 * (half + i) + j] = 2 * P->a[3 * i + j];
            }
            b[i] = P->b[i];
            b[half + i] = 2 * P->b[i];
        }
        hs_error err;
        hs_poly *T = hs_poly_from_doubles(3, 2 * half, a, b, NULL, &err);
        ck_assert_msg(T != NULL, "%s", err.msg);
        ck_assert_int_gt(check_lists(T, "rows twice"), 0);
        ties++;
        hs_poly_free(T);
        hs_poly_free(P);
        free(a);
        free(b);
    }
    ck_assert(ties > 0);
    double lo[3], hi[3];
    hs_poly *H = cloud_hull(250, &rng, lo, hi);
    ck_assert_int_ge(H->m, 200);
    check_lists(H, "hull of points");
    hs_poly_free(H);
}
END_TEST

/* How far the rays center +- l u run inside P (into *fwd, *bwd), by a
 * pass over every row, in the skeleton's own arithmetic (1 / slack
 * first, then a product a row). */
static void reaches_of(const hs_poly *P, const double *inv, const double *u, double *fwd,
                       double *bwd)
{
    double f = 0, b = 0;
    for (int i = 0; i < P->m; i++) {
        const double *a = hpoly_row(P, i);
        double at = (a[0] * u[0] + a[1] * u[1] + a[2] * u[2]) * inv[i];
        f = fmax(f, at);
        b = fmax(b, -at);
    }
    *fwd = 1 / f;
    *bwd = 1 / b;
}

static double chord_of(const hs_poly *P, const double *inv, const double *u)
{
    double fwd, bwd;
    reaches_of(P, inv, u, &fwd, &bwd);
    return fwd + bwd;
}

static void unit3(double *v)
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int j = 0; j < 3; j++)
        v[j] = n > 0 ? v[j] / n : 0;
}

/* The skeleton as fast_map.c defines it, every chord by a full pass: the
 * longest of the chords along the direction of the map cell whose ray
 * reaches farthest and along the 13 axes and diagonals, then (when that
 * chord is 1.5 inscribed diameters or more) 8 rounds of 4 trial
 * directions across it at steps halving from 1/2; its ends pulled in to
 * 7/8 and its length over the inscribed diameter (7 doubles). */
static void reference_skeleton(const hs_poly *P, const fast_prep *fp, double *out)
{
    static const double dirs[13][3] = {{1, 0, 0},  {0, 1, 0},  {0, 0, 1},   {1, 1, 0},  {1, -1, 0},
                                       {1, 0, 1},  {1, 0, -1}, {0, 1, 1},   {0, 1, -1}, {1, 1, 1},
                                       {1, 1, -1}, {1, -1, 1}, {-1, 1, 1}};
    double *inv = malloc(sizeof(double) * (size_t)P->m), far = -1, u[3] = {1, 0, 0};
    for (int i = 0; i < P->m; i++)
        inv[i] = 1 / fp->center_slack[i];
    for (int c = 0; c < fp->map_cells; c++) {
        double d[3];
        int n = 0;
        fast_prep_cell_center(3, fp->map_g, c, d);
        const int *list = fast_prep_list(fp, c, &n);
        const double *a = hpoly_row(P, list[0]);
        double along = a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double reach = along > 0 ? fp->center_slack[list[0]] / along * len : INFINITY;
        if (reach > far && isfinite(reach)) {
            far = reach;
            for (int j = 0; j < 3; j++)
                u[j] = d[j] / len;
        }
    }
    double best = chord_of(P, inv, u), step = 0.5;
    for (int k = 0; k < 13; k++) {
        double v[3] = {dirs[k][0], dirs[k][1], dirs[k][2]};
        unit3(v);
        double c = chord_of(P, inv, v);
        if (c > best) {
            best = c;
            memcpy(u, v, sizeof u);
        }
    }
    int steps = best >= 1.5 * 2 * fp->inradius ? 8 : 0;
    for (int it = 0; it < steps; it++, step *= 0.5) {
        int k = fabs(u[0]) < fabs(u[1]) ? (fabs(u[0]) < fabs(u[2]) ? 0 : 2)
                                        : (fabs(u[1]) < fabs(u[2]) ? 1 : 2);
        double e[3] = {0, 0, 0}, t1[3], t2[3];
        e[k] = 1;
        t1[0] = u[1] * e[2] - u[2] * e[1];
        t1[1] = u[2] * e[0] - u[0] * e[2];
        t1[2] = u[0] * e[1] - u[1] * e[0];
        unit3(t1);
        t2[0] = u[1] * t1[2] - u[2] * t1[1];
        t2[1] = u[2] * t1[0] - u[0] * t1[2];
        t2[2] = u[0] * t1[1] - u[1] * t1[0];
        for (int tries = 0; tries < 4; tries++) {
            const double *t = tries < 2 ? t1 : t2;
            double sg = tries % 2 ? -step : step, v[3];
            for (int j = 0; j < 3; j++)
                v[j] = u[j] + sg * t[j];
            unit3(v);
            double c = chord_of(P, inv, v);
            if (c > best) {
                best = c;
                memcpy(u, v, sizeof u);
            }
        }
    }
    double fwd, bwd;
    reaches_of(P, inv, u, &fwd, &bwd);
    for (int j = 0; j < 3; j++) {
        out[j] = fp->center[j] + 0.875 * fwd * u[j];
        out[3 + j] = fp->center[j] - 0.875 * bwd * u[j];
    }
    out[6] = fp->inradius > 0 && isfinite(fwd + bwd) ? (fwd + bwd) / (2 * fp->inradius) : 0;
    free(inv);
}

/* The skeleton skips most of its trial chords' passes (the map's lists
 * bound them): it must be the one the full passes give, to the bit; it
 * lies inside; on a long body it runs along the body. */
START_TEST(skeleton_is_the_full_passes_one)
{
    uint64_t rng = 77;
    double c[3] = {-1, 2, 0.5}, lo[3], hi[3];
    for (int k = 0; k < 10; k++) {
        hs_poly *P = k < 8 ? t_ellipsoid_rows(k % 2 ? 400 : 30 + 10 * k, k < 4 ? 0.1 : 0.6, c, 1,
                                              &rng)
                           : cloud_hull(100 + 200 * (k - 8), &rng, lo, hi);
        const fast_prep *fp = t_ready_prep(P);
        const double *sk = fast_prep_skeleton(fp);
        ck_assert_ptr_nonnull(sk);
        double want[7];
        reference_skeleton(P, fp, want);
        for (int j = 0; j < 7; j++)
            ck_assert_msg(sk[j] == want[j], "polyhedron %d (m = %d): skeleton[%d] %.17g, not %.17g",
                          k, P->m, j, sk[j], want[j]);
        for (int e = 0; e < 2; e++) /* both ends inside every row */
            for (int i = 0; i < P->m; i++) {
                const double *a = hpoly_row(P, i);
                double v = a[0] * sk[3 * e] + a[1] * sk[3 * e + 1] + a[2] * sk[3 * e + 2];
                ck_assert_msg(v < P->b[i], "polyhedron %d: end %d out of row %d", k, e, i);
            }
        double u[3] = {sk[0] - sk[3], sk[1] - sk[4], sk[2] - sk[5]};
        unit3(u);
        if (k < 4 || k >= 8) /* (long along x) */
            ck_assert_msg(fabs(u[0]) > 0.95, "polyhedron %d: skeleton along (%g, %g, %g)", k,
                          u[0], u[1], u[2]);
        hs_poly_free(P);
    }
}
END_TEST

START_TEST(box_hint_of_a_hull_is_its_points_box)
{
    uint64_t rng = 31337;
    for (int k = 0; k < 4; k++) {
        double lo[3], hi[3];
        hs_poly *P = cloud_hull(60 + 120 * k, &rng, lo, hi);
        const fast_prep *fp = t_ready_prep(P);
        for (int j = 0; j < 3; j++) {
            double tol = 1e-9 * (hi[j] - lo[j]);
            ck_assert_msg(fabs(fp->lo[j] - lo[j]) <= tol && fabs(fp->hi[j] - hi[j]) <= tol,
                          "m = %d, axis %d: box [%.17g, %.17g], points [%.17g, %.17g]", P->m, j,
                          fp->lo[j], fp->hi[j], lo[j], hi[j]);
        }
        for (int i = 0; i < P->m; i++)
            ck_assert(fp->center_slack[i] > 0);
        ck_assert(fp->inradius > 0);
        hs_poly_free(P);
    }
}
END_TEST

/* The margin LP (max tau, a . x + |a| tau <= b) of P: on every row at
 * once, and in rounds from no row, from 12 arbitrary rows and from the
 * first's optimal basis: the same optimum. */
START_TEST(rounds_from_a_first_set_reach_the_same_optimum)
{
    uint64_t rng = 555;
    double c[3] = {0.25, 0.5, -0.75};
    for (int k = 0; k < 6; k++) {
        hs_poly *P = t_ellipsoid_rows(120 + 80 * k, k % 2 ? 0.2 : 1, c, 1, &rng);
        const fast_prep *fp = t_ready_prep(P);
        seidel_bank bank[2] = {{P->a, fp->norm, P->b, P->m}, {NULL, NULL, NULL, 0}};
        double lo[4] = {-8, -8, -8, -1}, hi[4] = {8, 8, 8, 8};
        int m = P->m, *order = malloc(sizeof(int) * (size_t)m);
        unsigned char *in = malloc((size_t)m);
        for (int i = 0; i < m; i++)
            order[i] = i;
        flp_state all;
        flp_init(&all, 3, bank, lo, hi, NULL, NULL, NULL);
        ck_assert_int_eq(flp_solve(&all, order, m), FLP_OPTIMAL);
        for (int start = 0; start < 3; start++) {
            int count = 0;
            if (start == 1)
                for (; count < 12; count++)
                    order[count] = (count * 37 + k) % m;
            if (start == 2)
                for (int t = 0; t < 4; t++)
                    if (all.basis[t] >= 0)
                        order[count++] = all.basis[t];
            flp_state s;
            flp_init(&s, 3, bank, lo, hi, NULL, NULL, NULL);
            ck_assert_int_eq(flp_solve_rounds(&s, order, in, count), FLP_OPTIMAL);
            for (int j = 0; j < 4; j++)
                ck_assert_msg(fabs(s.z[j] - all.z[j]) <= 1e-9 * (1 + fabs(all.z[j])),
                              "m = %d, start %d, z[%d]: %.17g against %.17g", m, start, j,
                              s.z[j], all.z[j]);
            for (int i = 0; i < m; i++) /* (the set holds each row once) */
                ck_assert(in[i] == 0 || in[i] == 1);
        }
        free(order);
        free(in);
        hs_poly_free(P);
    }
}
END_TEST

Suite *suite_fast_map(void)
{
    Suite *s = suite_create("fast_map");
    TCase *tc = tcase_create("fast_map");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lists_are_the_top_rows_by_score);
    tcase_add_test(tc, skeleton_is_the_full_passes_one);
    tcase_add_test(tc, box_hint_of_a_hull_is_its_points_box);
    tcase_add_test(tc, rounds_from_a_first_set_reach_the_same_optimum);
    suite_add_tcase(s, tc);
    return s;
}
