/* test_tri_witness.c -- the double-double witness of crossing triangles
 * (src/shape/tri_witness.c) against an exact reference: the two ends and
 * their midpoint in GMP rationals, rounded to the nearest double by exact
 * comparison with the neighbouring doubles.  Whenever tri_witness_crossing
 * answers, every coordinate must be that nearest double (and the exact
 * value must not be a tie); it must answer for most generic inputs, and
 * decline out of its range.  Then tri_tri_classify's witnesses (which use
 * it first) on random crossing pairs are checked against the same
 * reference through the ends the header of tri_tri.c describes. */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/shape/tri_tri.h"
#include "src/shape/tri_witness.h"
#include "tests/helpers.h"

/* ------------------------------------------------- the exact reference */

/* F_x = n . (x - c0), n = (c1 - c0) x (c2 - c0). */
static void twt_plane_value(mpq_t out, const double (*c)[3], const double *x)
{
    mpq_t u[3], v[3], w[3], t, s;
    for (int k = 0; k < 3; k++)
        mpq_inits(u[k], v[k], w[k], NULL);
    mpq_inits(t, s, NULL);
    for (int k = 0; k < 3; k++) {
        mpq_set_d(t, c[0][k]);
        mpq_set_d(u[k], c[1][k]);
        mpq_sub(u[k], u[k], t);
        mpq_set_d(v[k], c[2][k]);
        mpq_sub(v[k], v[k], t);
        mpq_set_d(w[k], x[k]);
        mpq_sub(w[k], w[k], t);
    }
    mpq_set_ui(out, 0, 1);
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        mpq_mul(t, u[i], v[j]);
        mpq_mul(s, u[j], v[i]);
        mpq_sub(t, t, s);
        mpq_mul(t, t, w[k]);
        mpq_add(out, out, t);
    }
    for (int k = 0; k < 3; k++)
        mpq_clears(u[k], v[k], w[k], NULL);
    mpq_clears(t, s, NULL);
}

/* E = (F_a b - F_b a) / (F_a - F_b); 0 when F_a = F_b. */
static int twt_end(mpq_t E[3], const tri_witness_end *e)
{
    mpq_t fa, fb, d, x, y;
    mpq_inits(fa, fb, d, x, y, NULL);
    twt_plane_value(fa, e->plane, e->a);
    twt_plane_value(fb, e->plane, e->b);
    mpq_sub(d, fa, fb);
    int ok = mpq_sgn(d) != 0;
    for (int k = 0; k < 3 && ok; k++) {
        mpq_set_d(x, e->b[k]);
        mpq_mul(x, x, fa);
        mpq_set_d(y, e->a[k]);
        mpq_mul(y, y, fb);
        mpq_sub(x, x, y);
        mpq_div(E[k], x, d);
    }
    mpq_clears(fa, fb, d, x, y, NULL);
    return ok;
}

/* The double nearest to v; *tie set when two are equally near. */
static double twt_nearest(const mpq_t v, int *tie)
{
    double d0 = mpq_get_d(v), cand[3] = {nextafter(d0, -INFINITY), d0, nextafter(d0, INFINITY)};
    mpq_t c, dist, best;
    mpq_inits(c, dist, best, NULL);
    int pick = -1;
    *tie = 0;
    for (int i = 0; i < 3; i++) {
        if (!isfinite(cand[i]))
            continue;
        mpq_set_d(c, cand[i]);
        mpq_sub(dist, v, c);
        mpq_abs(dist, dist);
        int cmp = pick < 0 ? -1 : mpq_cmp(dist, best);
        if (cmp < 0) {
            pick = i;
            mpq_set(best, dist);
            *tie = 0;
        } else if (cmp == 0) {
            *tie = 1;
        }
    }
    mpq_clears(c, dist, best, NULL);
    return cand[pick];
}

/* The reference midpoint; 0 when an end is undefined or a coordinate is a
 * tie. */
static int twt_reference(const tri_witness_end *lo, const tri_witness_end *hi, double out[3])
{
    mpq_t a[3], b[3];
    for (int k = 0; k < 3; k++)
        mpq_inits(a[k], b[k], NULL);
    int ok = twt_end(a, lo) && twt_end(b, hi);
    for (int k = 0; k < 3 && ok; k++) {
        int tie;
        mpq_add(a[k], a[k], b[k]);
        mpq_div_2exp(a[k], a[k], 1);
        out[k] = twt_nearest(a[k], &tie);
        ok = !tie;
    }
    for (int k = 0; k < 3; k++)
        mpq_clears(a[k], b[k], NULL);
    return ok;
}

/* --------------------------------------------------------- instances */

/* A coordinate at scale s: a random double, or (grid) a multiple of s/8. */
static double twt_coord(uint64_t *seed, double s, int grid)
{
    double x = t_rng_sym(seed) * s;
    return grid ? s / 8 * round(x * 8 / s) : x;
}

/* A plane triangle and a segment a b crossing it (a above, b below or,
 * with on_plane, b a point of the plane). */
static void twt_instance(uint64_t *seed, double s, int grid, int on_plane, double c[3][3],
                         double a[3], double b[3])
{
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            c[i][k] = twt_coord(seed, s, grid);
    for (int k = 0; k < 3; k++) {
        a[k] = twt_coord(seed, s, grid);
        b[k] = on_plane ? c[0][k] : twt_coord(seed, s, grid);
    }
}

START_TEST(test_witness_against_exact)
{
    uint64_t seed = 2024;
    static const double scales[] = {1, 1e-3, 3000, 0x1p-50, 0x1p55, 0.1};
    int answered = 0, total = 0;
    for (int round = 0; round < 3000; round++) {
        double s = scales[round % 6];
        int grid = round % 5 == 1, on_plane = round % 7 == 3;
        double c1[3][3], c2[3][3], a1[3], b1[3], a2[3], b2[3], got[3], want[3];
        twt_instance(&seed, s, grid, on_plane, c1, a1, b1);
        twt_instance(&seed, s, grid, 0, c2, a2, b2);
        tri_witness_end lo = {(const double(*)[3])c1, a1, b1};
        tri_witness_end hi = {(const double(*)[3])c2, a2, b2};
        int ref = twt_reference(&lo, &hi, want);
        int fast = tri_witness_crossing(&lo, &hi, got);
        total++;
        if (!fast)
            continue;
        answered++;
        EXPECT(ref, "round %d: answered where the exact value is a tie or undefined", round);
        for (int k = 0; k < 3; k++)
            EXPECT(got[k] == want[k], "round %d coordinate %d: %.17g, exact nearest %.17g", round,
                   k, got[k], want[k]);
    }
    ck_assert_int_gt(answered, total * 3 / 4);
}
END_TEST

START_TEST(test_witness_out_of_range)
{
    double c[3][3] = {{0, 0, 0.5}, {1, 0, 0.5}, {0, 1, 0.5}}, a[3] = {0.2, 0.2, 1.5},
           b[3] = {0.2, 0.3, -0.5};
    tri_witness_end e = {(const double(*)[3])c, a, b};
    double out[3], want[3];
    ck_assert_int_eq(tri_witness_crossing(&e, &e, out), 1); /* a generic one answers */
    ck_assert_int_eq(twt_reference(&e, &e, want), 1);
    ck_assert(memcmp(out, want, sizeof out) == 0);
    a[0] = 0x1p61; /* beyond the range */
    ck_assert_int_eq(tri_witness_crossing(&e, &e, out), 0);
    a[0] = 0x1p-70; /* a tiny nonzero coordinate */
    ck_assert_int_eq(tri_witness_crossing(&e, &e, out), 0);
    a[0] = 0.2;
    c[1][0] = 0.5; /* the plane z = 0.5 still; the witness (0.2, 0.25, 0.5) */
    ck_assert_int_eq(tri_witness_crossing(&e, &e, out), 1);
    ck_assert(out[0] == 0.2 && out[1] == 0.25 && out[2] == 0.5);
    c[0][2] = c[1][2] = c[2][2] = 0; /* a coordinate exactly 0 is left to the exact path */
    a[2] = 1;
    b[2] = -1;
    ck_assert_int_eq(tri_witness_crossing(&e, &e, out), 0);
    /* a midpoint exactly halfway between two doubles (x = 1 + 2^-53) */
    double pl[3][3] = {{0, 0, 0.5}, {1, 0, 0.5}, {0, 1, 0.5}};
    double a1[3] = {1, 0.3, 1.5}, b1[3] = {1, 0.3, -0.5};
    double a2[3] = {1 + 0x1p-52, 0.3, 1.5}, b2[3] = {1 + 0x1p-52, 0.3, -0.5};
    tri_witness_end lo = {(const double(*)[3])pl, a1, b1}, hi = {(const double(*)[3])pl, a2, b2};
    ck_assert_int_eq(tri_witness_crossing(&lo, &hi, out), 0);
    b2[0] = 1 + 0x1p-51; /* now just above the halfway point: certified */
    a2[0] = 1 + 0x1p-51;
    ck_assert_int_eq(tri_witness_crossing(&lo, &hi, out), 1);
    ck_assert(out[0] == 1 + 0x1p-52);
}
END_TEST

/* End to end: random crossing triangle pairs (p straddles q's plane and
 * q straddles p's), the witness of tri_tri_classify against the midpoint
 * of p n q computed exactly: the ends are where the edges of p crossing
 * q's plane and the edges of q crossing p's plane meet the other plane;
 * on the common line the two inner ones of these four points bound p n q. */
static int twt_edge_points(const double p[3][3], const double q[3][3], mpq_t pts[][3])
{
    int n = 0;
    for (int i = 0; i < 3; i++) {
        const double *a = p[i], *b = p[(i + 1) % 3];
        mpq_t fa, fb;
        mpq_inits(fa, fb, NULL);
        twt_plane_value(fa, q, a);
        twt_plane_value(fb, q, b);
        if (mpq_sgn(fa) * mpq_sgn(fb) < 0) {
            tri_witness_end e = {q, a, b};
            for (int k = 0; k < 3; k++)
                mpq_init(pts[n][k]);
            twt_end(pts[n], &e);
            n++;
        }
        mpq_clears(fa, fb, NULL);
    }
    return n;
}

START_TEST(test_witness_tri_tri)
{
    uint64_t seed = 77;
    int checked = 0;
    for (int round = 0; round < 3000 && checked < 400; round++) {
        double p[3][3], q[3][3], w[3];
        double s = round % 3 == 0 ? 1 : round % 3 == 1 ? 2000 : 1e-3;
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) {
                p[i][k] = t_rng_sym(&seed) * s;
                q[i][k] = t_rng_sym(&seed) * s;
            }
        if (tri_tri_classify((const double(*)[3])p, (const double(*)[3])q, w) != HS_OVERLAP)
            continue;
        mpq_t P[3][3], Q[3][3];
        int np = twt_edge_points((const double(*)[3])p, (const double(*)[3])q, P);
        int nq = twt_edge_points((const double(*)[3])q, (const double(*)[3])p, Q);
        if (np == 2 && nq == 2) { /* generic: each straddles with two edges */
            /* on the common line, order the four points by the coordinate
             * where the line varies most; the middle two bound p n q */
            mpq_t *all[4] = {P[0], P[1], Q[0], Q[1]}, d;
            mpq_init(d);
            int axis = 0;
            double best = -1;
            for (int k = 0; k < 3; k++) {
                mpq_sub(d, P[0][k], P[1][k]);
                double v = fabs(mpq_get_d(d));
                if (v > best)
                    best = v, axis = k;
            }
            for (int i = 0; i < 4; i++) /* sort by the axis coordinate */
                for (int j = i + 1; j < 4; j++)
                    if (mpq_cmp(all[j][axis], all[i][axis]) < 0) {
                        mpq_t *t = all[i];
                        all[i] = all[j];
                        all[j] = t;
                    }
            for (int k = 0; k < 3; k++) {
                int tie;
                mpq_add(d, all[1][k], all[2][k]);
                mpq_div_2exp(d, d, 1);
                double want = twt_nearest(d, &tie);
                EXPECT(tie || want == w[k], "round %d coordinate %d: %.17g, exact %.17g", round,
                       k, w[k], want);
            }
            mpq_clear(d);
            checked++;
        }
        for (int i = 0; i < np; i++)
            for (int k = 0; k < 3; k++)
                mpq_clear(P[i][k]);
        for (int i = 0; i < nq; i++)
            for (int k = 0; k < 3; k++)
                mpq_clear(Q[i][k]);
    }
    ck_assert_int_gt(checked, 100);
}
END_TEST

Suite *suite_tri_witness(void)
{
    Suite *s = suite_create("tri_witness");
    TCase *tc = tcase_create("tri_witness");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_witness_against_exact);
    tcase_add_test(tc, test_witness_out_of_range);
    tcase_add_test(tc, test_witness_tri_tri);
    suite_add_tcase(s, tc);
    return s;
}
