/* test_lpd.c -- the LP in higher dimension: the n = 200 simplex exactly and
 * in bounded time (with the floating-point proposal and by the exact
 * simplex alone), hostile sizes (n = 12, m = 200; n = 16, m = 50) that
 * answer quickly, and the contracts of solver/lpd.h: lpd_classify_pair,
 * lpd_interior_point (a certified strictly interior point, or failure,
 * never a wrong point) and lpd_box_hint. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "polytope/hpoly.h"
#include "solver/lpd.h"
#include "solver/result.h"
#include "solver/rows_z.h"
#include "solver/simplest.h"
#include "solver/simplex_d.h"
#include "solver/simplex_q.h"
#include "tests/helpers.h"

/* x >= shift (per axis), sum x <= 1 + n shift: the standard simplex moved. */
static hs_poly *simplex_poly(int n, double shift)
{
    double *a = calloc((size_t)(n + 1) * (size_t)n, sizeof(double));
    double *b = calloc((size_t)n + 1, sizeof(double));
    for (int i = 0; i < n; i++) {
        a[(size_t)i * (size_t)n + (size_t)i] = -1;
        b[i] = -shift;
    }
    for (int j = 0; j < n; j++)
        a[(size_t)n * (size_t)n + (size_t)j] = 1;
    b[n] = 1 + n * shift;
    hs_poly *p = hpoly_from_rows(n, n + 1, a, b);
    free(a);
    free(b);
    return p;
}

static hs_status exact_answer(const hs_poly *A, const hs_poly *B, hs_result *r)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_EXACT;
    hs_error err;
    hs_error_clear(&err);
    hs_code rc = B ? hs_intersect(A, B, &opt, r, &err) : hs_feasible(A, &opt, r, &err);
    ck_assert_msg(rc == HS_OK, "%s", err.msg);
    ck_assert_msg(hs_result_verify(r, A, B, &err) == HS_OK, "%s", err.msg);
    return hs_result_status(r);
}

/* The 200-dimensional simplex (m = 201): it took 53 s when the basis was
 * solved again on every pivot.  The bar is 1 s; the bound here leaves
 * room for a loaded machine and the sanitizer builds. */
START_TEST(simplex_in_200_dimensions)
{
    int n = 200;
    hs_poly *S = simplex_poly(n, 0), *T = simplex_poly(n, 1.0 / 512);
    hs_result *r = hs_result_new();
    double t0 = t_seconds();
    ck_assert_int_eq(exact_answer(S, NULL, r), HS_FEASIBLE);
    ck_assert_int_eq(exact_answer(S, T, r), HS_OVERLAP);
    double t1 = t_seconds();
    ck_assert_msg(t1 - t0 < 30, "the 200-simplex took %.1f s", t1 - t0);
    /* the exact simplex alone, from the artificial basis */
    zrows z;
    ck_assert_int_eq(zrows_build(&z, S, T), 0);
    unsigned char *kind = malloc((size_t)z.m);
    memset(kind, LP_SLACK, (size_t)z.m);
    lp_solution sol;
    ck_assert_int_eq(lp_solution_init(&sol, n, z.m), 0);
    ck_assert_int_eq(lp_solve_start(&z, kind, LP_START_COLD, NULL, &sol), 0);
    ck_assert_int_eq(sol.status, LP_OPTIMAL);
    ck_assert_int_gt(mpq_sgn(sol.tau), 0);
    double t2 = t_seconds();
    ck_assert_msg(t2 - t1 < 60, "the exact simplex alone took %.1f s", t2 - t1);
    /* a shifted copy that touches S only at the vertex e_1 */
    hs_poly *U = simplex_poly(n, 0);
    for (int i = 0; i <= n; i++) { /* U = e_1 + (-simplex): x_1 <= 1 ... */
        double *row = U->a + (size_t)i * (size_t)n;
        for (int j = 0; j < n; j++)
            row[j] = -row[j];
    }
    U->b[0] = 1; /* -(-x_1) <= 1: x_1 <= 1; the others -(-x_j) <= 0: x_j <= 0 */
    U->b[n] = -1; /* -(sum x) <= -1 + ... : sum x >= 1 */
    ck_assert_int_eq(exact_answer(S, U, r), HS_TOUCHING);
    lp_solution_free(&sol);
    free(kind);
    zrows_free(&z);
    hs_poly_free(S);
    hs_poly_free(T);
    hs_poly_free(U);
    hs_result_free(r);
}
END_TEST

/* Random integer normals |a_ij| <= 1000, right sides |a| rounded up to a
 * multiple of 2^-10 around the center c (as bench/dim.c): the unit ball
 * around c is inside. */
static hs_poly *tangent_poly(uint64_t *s, int n, int m, const double *c)
{
    double *a = malloc(sizeof(double) * (size_t)m * (size_t)n), *b = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < m; i++) {
        double s2 = 0, dot = 0;
        for (int j = 0; j < n; j++) {
            double v = floor(t_rng_sym(s) * 1000);
            a[(size_t)i * (size_t)n + (size_t)j] = v;
            s2 += v * v;
            dot += v * c[j];
        }
        b[i] = dot + ceil(sqrt(s2) * 1024) / 1024;
    }
    hs_poly *p = hpoly_from_rows(n, m, a, b);
    free(a);
    free(b);
    return p;
}

/* Issue 14's hostile sizes: n = 12, m = 200 and n = 16, m = 50 (over 60 s
 * to load before).  Built without the fast engine's preparation, these
 * check the answering part and the interior point the preparation needs. */
START_TEST(hostile_dimensions_answer_quickly)
{
    static const int sizes[][2] = {{12, 200}, {16, 50}};
    hs_result *r = hs_result_new();
    for (int k = 0; k < 2; k++) {
        int n = sizes[k][0], m = sizes[k][1];
        uint64_t s = 99 + (uint64_t)k;
        double c0[16] = {0}, c1[16] = {0}, c2[16] = {0};
        c1[0] = 1.5;  /* overlapping unit balls */
        c2[0] = 40;   /* far away */
        double t0 = t_seconds();
        hs_poly *A = tangent_poly(&s, n, m, c0), *B = tangent_poly(&s, n, m, c1);
        hs_poly *C = tangent_poly(&s, n, m, c2);
        ck_assert_int_eq(exact_answer(A, B, r), HS_OVERLAP);
        hs_status st = exact_answer(A, C, r);
        ck_assert(st == HS_DISJOINT || st == HS_OVERLAP || st == HS_TOUCHING);
        double x[16], lo[16], hi[16], radius;
        ck_assert_int_eq(lpd_interior_point(A, x, &radius), 0);
        ck_assert(radius > 0.5);
        ck_assert_int_eq(lpd_box_hint(A, lo, hi), 0);
        for (int j = 0; j < n; j++)
            ck_assert(lo[j] <= x[j] && x[j] <= hi[j]);
        double t1 = t_seconds();
        ck_assert_msg(t1 - t0 < 20, "n = %d, m = %d took %.1f s", n, m, t1 - t0);
        hs_poly_free(A);
        hs_poly_free(B);
        hs_poly_free(C);
    }
    hs_result_free(r);
}
END_TEST

/* --------------------------------------------------- lpd_interior_point */

/* Every row of p strictly satisfied at x, in exact arithmetic. */
static int strictly_inside(const hs_poly *p, const double *x)
{
    mpq_t acc, t, v;
    mpq_inits(acc, t, v, NULL);
    int ok = 1;
    for (int i = 0; i < p->m && ok; i++) {
        mpq_set_ui(acc, 0, 1);
        for (int j = 0; j < p->n; j++) {
            hpoly_get_q(p, i, j, t);
            mpq_set_d(v, x[j]);
            mpq_mul(t, t, v);
            mpq_add(acc, acc, t);
        }
        hpoly_get_q(p, i, p->n, t);
        ok = mpq_cmp(acc, t) < 0;
    }
    mpq_clears(acc, t, v, NULL);
    return ok;
}

START_TEST(interior_point_contract)
{
    double x[8], radius;
    hs_poly *p = t_poly(t_box_text(4, "0", "1"));
    ck_assert_int_eq(lpd_interior_point(p, x, &radius), 0);
    ck_assert(strictly_inside(p, x));
    ck_assert(fabs(radius - 0.5) < 1e-9);
    hs_poly_free(p);
    /* unbounded: a half-space of R^3 */
    p = t_poly("begin\n1 4 integer\n0 -1 0 0\nend\n");
    ck_assert_int_eq(lpd_interior_point(p, x, NULL), 0);
    ck_assert(strictly_inside(p, x));
    hs_poly_free(p);
    /* lower-dimensional (x = 0 by two rows), empty, with an equality row */
    static const char *const fail[] = {
        "begin\n2 3 integer\n0 1 0\n0 -1 0\nend\n",
        "begin\n2 3 integer\n0 1 0\n-1 -1 0\nend\n",
        "linearity 1 1\nbegin\n2 3 integer\n1 1 0\n5 0 -1\nend\n",
        /* 3/10 - 10^-17 <= x <= 3/10: no double lies strictly inside */
        "begin\n2 2 real\n0.3 -1\n-0.29999999999999999 1\nend\n",
    };
    for (int k = 0; k < 4; k++) {
        p = t_poly(fail[k]);
        ck_assert_msg(lpd_interior_point(p, x, NULL) == -1, "case %d", k);
        hs_poly_free(p);
    }
    /* decimals as written: 0.1 < x < 0.2 (rows not exactly doubles) */
    p = t_poly("begin\n2 2 real\n0.2 -1\n-0.1 1\nend\n");
    ck_assert_int_eq(lpd_interior_point(p, x, &radius), 0);
    ck_assert(strictly_inside(p, x));
    hs_poly_free(p);
    /* small and far from the origin */
    p = t_poly(t_box_text(3, "1000000", "1000000.001"));
    ck_assert_int_eq(lpd_interior_point(p, x, NULL), 0);
    ck_assert(strictly_inside(p, x));
    hs_poly_free(p);
}
END_TEST

START_TEST(interior_point_in_many_dimensions)
{
    for (int n = 1; n <= 40; n += (n < 12 ? 1 : 7)) {
        uint64_t s = 5 + (uint64_t)n;
        double c[40];
        for (int j = 0; j < n; j++)
            c[j] = ldexp(floor(t_rng_sym(&s) * 4096), -10);
        hs_poly *p = tangent_poly(&s, n, 3 * n + 5, c);
        double x[40], radius;
        ck_assert_msg(lpd_interior_point(p, x, &radius) == 0, "n = %d", n);
        ck_assert(strictly_inside(p, x));
        ck_assert(radius >= 0.99);
        hs_poly_free(p);
    }
}
END_TEST

START_TEST(box_hint_contract)
{
    double lo[4], hi[4];
    hs_poly *p = t_poly("begin\n4 3 integer\n2 -1 0\n1 1 0\n4 0 -1\n-3 0 1\nend\n");
    ck_assert_int_eq(lpd_box_hint(p, lo, hi), 0); /* [-1, 2] x [3, 4] */
    ck_assert(fabs(lo[0] + 1) < 1e-9 && fabs(hi[0] - 2) < 1e-9);
    ck_assert(fabs(lo[1] - 3) < 1e-9 && fabs(hi[1] - 4) < 1e-9);
    hs_poly_free(p);
    p = t_poly("begin\n1 3 integer\n0 -1 0\nend\n"); /* x <= 0: clamped sides */
    ck_assert_int_eq(lpd_box_hint(p, lo, hi), 0);
    ck_assert(fabs(hi[0]) < 1e-9 && lo[0] < 0 && lo[1] < hi[1]);
    hs_poly_free(p);
    p = t_poly("begin\n2 2 integer\n0 1\n-1 -1\nend\n"); /* empty */
    ck_assert_int_eq(lpd_box_hint(p, lo, hi), -1);
    hs_poly_free(p);
}
END_TEST

static void count_certified(void *user, const char *line)
{
    int *seen = user;
    if (strstr(line, "exact classification:") && strstr(line, "certified optimal in"))
        *seen = 1;
}

START_TEST(classify_pair_entry)
{
    uint64_t s = 8;
    double c0[8] = {0}, c1[8] = {0};
    c1[2] = 2; /* the unit balls touch at (0, 0, 1, 0, ...): overlap or touch */
    hs_poly *A = tangent_poly(&s, 8, 40, c0), *B = tangent_poly(&s, 8, 40, c1);
    hs_result *r = hs_result_new(), *e = hs_result_new();
    hs_error err;
    ck_assert_msg(lpd_classify_pair(A, B, r, &err) == HS_OK, "%s", err.msg);
    ck_assert_int_eq(hs_result_status(r), exact_answer(A, B, e));
    ck_assert_int_eq(hs_result_verify(r, A, B, &err), HS_OK);
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_EXACT;
    int seen = 0;
    opt.trace = count_certified;
    opt.trace_user = &seen;
    ck_assert_int_eq(hs_intersect(A, B, &opt, e, &err), HS_OK);
    ck_assert(seen);
    hs_poly_free(A);
    hs_poly_free(B);
    hs_result_free(r);
    hs_result_free(e);
}
END_TEST

/* The simplest rational in [lo, hi] against a brute-force search over
 * denominators 1, 2, ... (then the least |p| for that denominator). */
START_TEST(simplest_rationals)
{
    uint64_t s = 41;
    mpq_t lo, hi, got, want, t;
    mpq_inits(lo, hi, got, want, t, NULL);
    mpz_t p, q;
    mpz_inits(p, q, NULL);
    for (int k = 0; k < 3000; k++) {
        long a = (long)(t_rng_next(&s) % 2001) - 1000, b = 1 + (long)(t_rng_next(&s) % 300);
        long c = (long)(t_rng_next(&s) % 40), d = 1 + (long)(t_rng_next(&s) % 2000);
        mpq_set_si(lo, a, (unsigned long)b);
        mpq_canonicalize(lo);
        mpq_set_si(t, c, (unsigned long)d);
        mpq_canonicalize(t);
        mpq_add(hi, lo, t);
        q_simplest_between(got, lo, hi);
        for (mpz_set_ui(q, 1);; mpz_add_ui(q, q, 1)) {
            /* the p/q in [lo, hi] of least |p|: ceil(lo q) .. floor(hi q) */
            mpz_t l, h;
            mpz_inits(l, h, NULL);
            mpz_mul(l, mpq_numref(lo), q);
            mpz_cdiv_q(l, l, mpq_denref(lo));
            mpz_mul(h, mpq_numref(hi), q);
            mpz_fdiv_q(h, h, mpq_denref(hi));
            int found = mpz_cmp(l, h) <= 0;
            if (found) {
                if (mpz_sgn(l) <= 0 && mpz_sgn(h) >= 0)
                    mpz_set_ui(p, 0);
                else
                    mpz_set(p, mpz_sgn(l) > 0 ? l : h);
                mpq_set_num(want, p);
                mpq_set_den(want, q);
                mpq_canonicalize(want);
            }
            mpz_clears(l, h, NULL);
            if (found)
                break;
        }
        ck_assert_msg(mpq_equal(got, want), "case %d", k);
    }
    mpz_clears(p, q, NULL);
    mpq_clears(lo, hi, got, want, t, NULL);
}
END_TEST

/* Overlap points come out simple: the paper's example 2 at (-3/4, 3/4, 9/4). */
START_TEST(simple_overlap_points)
{
    hs_poly *A = t_example("paper/example2_A.ine"), *B = t_example("paper/example2_B.ine");
    hs_result *r = hs_result_new();
    ck_assert_int_eq(exact_answer(A, B, r), HS_OVERLAP);
    for (int j = 0; j < 3; j++)
        ck_assert(mpz_cmp_ui(mpq_denref(r->point[j]), 4) <= 0);
    hs_poly_free(A);
    hs_poly_free(B);
    hs_result_free(r);
}
END_TEST

/* The floating-point simplex re-solving max x_j over a polytope for a new
 * objective from the last optimal basis (levels infeasible, reduced costs
 * still >= 0: its dual phase) finds the same optimum as from scratch. */
START_TEST(float_simplex_dual_phase)
{
    uint64_t s = 21;
    int n = 6, m = 60;
    double c[6] = {0};
    hs_poly *p = tangent_poly(&s, n, m, c);
    dlp_col *col = calloc((size_t)(m + 2 * n), sizeof(dlp_col));
    for (int i = 0; i < m; i++)
        col[i] = (dlp_col){hpoly_row(p, i), 0, 1, 0, p->b[i], 0};
    for (int q = 0; q < n; q++) {
        col[m + 2 * q] = (dlp_col){NULL, 0, 1, q, 1e6, 0};
        col[m + 2 * q + 1] = (dlp_col){NULL, 0, -1, q, 1e6, 0};
    }
    double rhs[6], pi[6], fresh[6];
    int basis[6], start[6];
    for (int j = 0; j < n; j++) {
        int sign = j % 2 ? -1 : 1;
        for (int q = 0; q < n; q++) {
            rhs[q] = q == j ? sign : 0;
            start[q] = m + 2 * q + (q == j && sign < 0);
        }
        dlp lp = {n, n, m + 2 * n, col, rhs};
        ck_assert_int_eq(dlp_solve(&lp, start, fresh, NULL, NULL), DLP_OPTIMAL);
        if (j == 0) {
            memcpy(basis, start, sizeof basis);
            continue;
        }
        ck_assert_int_eq(dlp_solve(&lp, basis, pi, NULL, NULL), DLP_OPTIMAL); /* warm */
        ck_assert_msg(fabs(pi[j] - fresh[j]) <= 1e-9 * (1 + fabs(fresh[j])),
                      "axis %d: %.17g warm, %.17g from scratch", j, pi[j], fresh[j]);
    }
    free(col);
    hs_poly_free(p);
}
END_TEST

Suite *suite_lpd(void)
{
    Suite *s = suite_create("lpd");
    TCase *tc = tcase_create("lpd");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, simplex_in_200_dimensions);
    tcase_add_test(tc, hostile_dimensions_answer_quickly);
    tcase_add_test(tc, interior_point_contract);
    tcase_add_test(tc, interior_point_in_many_dimensions);
    tcase_add_test(tc, box_hint_contract);
    tcase_add_test(tc, classify_pair_entry);
    tcase_add_test(tc, simplest_rationals);
    tcase_add_test(tc, simple_overlap_points);
    tcase_add_test(tc, float_simplex_dual_phase);
    suite_add_tcase(s, tc);
    return s;
}
