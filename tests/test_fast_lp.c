/* test_fast_lp.c -- the fast engine's dual simplex (solver/fast_lp.c):
 * from the box corner and from the crash start of two rows facing each
 * other (flp_crash) it reaches the same optimal margin on the margin LPs of
 * random pairs, disjoint and overlapping; the crash start is taken on most
 * of them and saves pivots; it is declined when the two rows do not face
 * each other. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/fast_lp.h"
#include "solver/fast_prep.h"
#include "tests/helpers.h"

/* The row of P (id offset base) best aligned with d. */
static int best_row(const hs_poly *P, const double *d, int base)
{
    int best = 0;
    double top = -INFINITY;
    for (int i = 0; i < P->m; i++) {
        const double *a = hpoly_row(P, i);
        double s = (a[0] * d[0] + a[1] * d[1] + a[2] * d[2]) /
                   sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        if (s > top) {
            top = s;
            best = i;
        }
    }
    return base + best;
}

START_TEST(crash_start_reaches_the_same_margin)
{
    uint64_t rng = 4242;
    int taken = 0, runs = 0;
    long pivots_box = 0, pivots_crash = 0;
    for (int k = 0; k < 200; k++) {
        double o[3] = {0, 0, 0}, c[3], d[3], minus[3];
        double dist = 1.6 + 0.8 * t_rng_unit(&rng);
        for (int j = 0; j < 3; j++)
            c[j] = t_rng_sym(&rng);
        double len = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        for (int j = 0; j < 3; j++) {
            c[j] = round(c[j] / len * dist * 1024) / 1024;
            d[j] = c[j];
            minus[j] = -c[j];
        }
        hs_poly *A = t_ellipsoid_rows(12 + k % 50, 1, o, 1, &rng);
        hs_poly *B = t_ellipsoid_rows(12 + (3 * k) % 50, 1, c, 1, &rng);
        const fast_prep *fa = NULL, *fb = NULL;
        ck_assert_int_eq(fast_prep_get(A, &fa, NULL), 0);
        ck_assert_int_eq(fast_prep_get(B, &fb, NULL), 0);
        ck_assert(fa && fb);
        seidel_bank bank[2] = {{A->a, fa->norm, A->b, A->m}, {B->a, fb->norm, B->b, B->m}};
        double lo[4] = {-4, -4, -4, -8}, hi[4] = {4, 4, 4, 2};
        int M = A->m + B->m, *set = malloc(sizeof(int) * (size_t)M);
        for (int i = 0; i < M; i++)
            set[i] = i;
        flp_state s1, s2;
        flp_init(&s1, 3, bank, lo, hi, NULL, NULL, NULL);
        flp_status r1 = flp_solve(&s1, set, M);
        flp_init(&s2, 3, bank, lo, hi, NULL, NULL, NULL);
        int took = flp_crash(&s2, best_row(A, d, 0), best_row(B, minus, A->m));
        taken += took;
        for (int i = 0; took && i < 4; i++) /* the closed-form inverse: G Ginv = I */
            for (int j = 0; j < 4; j++) {
                double v = 0;
                for (int t = 0; t < 4; t++)
                    v += s2.G[i * 4 + t] * s2.Ginv[t * 4 + j];
                EXPECT(fabs(v - (i == j)) <= 1e-12, "pair %d: (G Ginv)[%d][%d] = %.17g", k, i, j, v);
            }
        flp_status r2 = flp_solve(&s2, set, M);
        ck_assert_int_eq(r1, FLP_OPTIMAL);
        ck_assert_int_eq(r2, FLP_OPTIMAL);
        EXPECT(fabs(s1.z[3] - s2.z[3]) <= 1e-9 * (1 + fabs(s1.z[3])),
               "pair %d: margin %.17g from the corner, %.17g from the crash start", k, s1.z[3],
               s2.z[3]);
        pivots_box += s1.pivots;
        pivots_crash += s2.pivots;
        runs++;
        free(set);
        hs_poly_free(A);
        hs_poly_free(B);
    }
    EXPECT(taken > runs / 2, "the crash start was taken on %d of %d LPs", taken, runs);
    EXPECT(pivots_crash < pivots_box, "pivots: %ld from the corner, %ld from the crash start",
           pivots_box, pivots_crash);
}
END_TEST

/* Two rows that do not face each other (their normals agree in sign on
 * every axis) are no start: the state is left to start at the box corner,
 * and solves as a state never offered a crash does.  Two
 * exactly opposite ones (a face on a face) are: the box bounds of the
 * other axes carry no weight for tau, and each takes the side where its
 * weight for a later objective is positive; from there the LP reaches the
 * corner start's optimum, in fewer pivots. */
START_TEST(crash_declined_without_opposing_rows)
{
    double a[12] = {1, 1, 1, 2, 1, 3, 1, 0, 0, -2, 0, 0};
    double w[4] = {sqrt(3.0), sqrt(14.0), 1, 2}, b[4] = {1, 1, 1, 1};
    double lo[4] = {-1, -1, -1, -1}, hi[4] = {1, 1, 1, 1};
    int set[2] = {0, 1};
    for (int k = 0; k < 2; k++) {
        seidel_bank bank[2] = {{a + 6 * k, w + 2 * k, b + 2 * k, 1},
                               {a + 6 * k + 3, w + 2 * k + 1, b + 2 * k + 1, 1}};
        flp_state s, corner;
        flp_init(&s, 3, bank, lo, hi, NULL, NULL, NULL);
        corner = s;
        if (k == 0) {
            ck_assert_int_eq(flp_crash(&s, 0, 1), 0);
            ck_assert_int_eq(s.started, 0);
            ck_assert_int_eq(flp_solve(&s, set, 2), flp_solve(&corner, set, 2));
            ck_assert(memcmp(s.basis, corner.basis, sizeof(int) * 4) == 0);
            ck_assert(memcmp(s.z, corner.z, sizeof(double) * 4) == 0);
            ck_assert_int_eq(s.pivots, corner.pivots);
            continue;
        }
        ck_assert_int_eq(flp_crash(&s, 0, 1), 1);
        ck_assert_int_eq(flp_solve(&s, set, 2), FLP_OPTIMAL);
        ck_assert_int_eq(flp_solve(&corner, set, 2), FLP_OPTIMAL);
        for (int j = 0; j < 4; j++) /* the same lexicographic optimum */
            ck_assert_msg(fabs(s.z[j] - corner.z[j]) <= 1e-12, "z[%d]: %.17g from the crash, %.17g",
                          j, s.z[j], corner.z[j]);
        ck_assert_int_lt(s.pivots, corner.pivots);
    }
}
END_TEST

Suite *suite_fast_lp(void)
{
    Suite *s = suite_create("fast_lp");
    TCase *tc = tcase_create("fast_lp");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, crash_start_reaches_the_same_margin);
    tcase_add_test(tc, crash_declined_without_opposing_rows);
    suite_add_tcase(s, tc);
    return s;
}
