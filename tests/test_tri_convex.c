/* test_tri_convex.c -- a triangle against a convex polytope: hand cases
 * with known answers (every order of the corners), degenerate triangles,
 * and random cases compared with two exact references built here:
 *   (1) the triangle as an exact flat polytope, classified against P by
 *       classify_pair (certificate verified);
 *   (2) the barycentric LP: maximise tau over c in R^3 with
 *       sum_k c_k (a_i . v_k - b_i) + tau <= 0, -c_k + tau <= 0,
 *       c0 + c1 + c2 = 1, solved exactly (tau > 0 overlap, = 0 touching,
 *       < 0 disjoint).
 * It also counts how often the fast path needs the exact engine. */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/classify.h"
#include "solver/simplex_q.h"
#include "solver/result.h"
#include "solver/rows_z.h"
#include "polytope/tri_box.h"
#include "solver/tri_convex.h"
#include "tests/helpers.h"

typedef const double (*ctri)[3];

static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

static uint64_t next_u64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static double uniform(uint64_t *s) { return (double)(next_u64(s) >> 11) * 0x1p-53; }

static int rand_int(uint64_t *s, int lo, int hi)
{
    return lo + (int)(next_u64(s) % (uint64_t)(hi - lo + 1));
}

/* ------------------------------------------------ reference (1): classify */

typedef struct qrow {
    mpq_t a[3], b;
} qrow;

static char *qstr(const mpq_t q) { return mpq_get_str(NULL, 10, q); }

/* A system from exact rows (eq flags), through the string constructor. */
static hs_poly *poly_from_qrows(qrow *rows, int m, const unsigned char *eq)
{
    char *A[3 * 8], *b[8];
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < 3; j++)
            A[3 * i + j] = qstr(rows[i].a[j]);
        b[i] = qstr(rows[i].b);
    }
    hs_error err;
    hs_poly *p = hs_poly_from_strings(3, m, (const char *const *)A, (const char *const *)b, eq,
                                      &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < 3; j++)
            free(A[3 * i + j]);
        free(b[i]);
    }
    return p;
}

static void qdot(mpq_t out, mpq_t *const a, mpq_t *const x)
{
    mpq_t t;
    mpq_init(t);
    mpq_set_ui(out, 0, 1);
    for (int j = 0; j < 3; j++) {
        mpq_mul(t, a[j], x[j]);
        mpq_add(out, out, t);
    }
    mpq_clear(t);
}

static void qcross(mpq_t *out, mpq_t *const u, mpq_t *const v)
{
    mpq_t t;
    mpq_init(t);
    for (int j = 0; j < 3; j++) {
        int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        mpq_mul(out[j], u[j1], v[j2]);
        mpq_mul(t, u[j2], v[j1]);
        mpq_sub(out[j], out[j], t);
    }
    mpq_clear(t);
}

/* Row "o . x <= o . p" (or "=" when eq) into r. */
static void row_through(qrow *r, mpq_t *const o, mpq_t *const p)
{
    for (int j = 0; j < 3; j++)
        mpq_set(r->a[j], o[j]);
    qdot(r->b, o, p);
}

typedef struct qtri {
    mpq_t v[3][3];
    mpq_t d[3];
    mpq_t n[3];
    mpq_t o[3];
} qtri;

/* Triangle: plane, and each edge row through its corners oriented by the
 * opposite corner (which must then be strictly inside). */
static int rows_triangle(qtri *s, qrow *rows, unsigned char *eq)
{
    row_through(&rows[0], s->n, s->v[0]);
    eq[0] = 1;
    mpq_t side;
    mpq_init(side);
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 3; j++)
            mpq_sub(s->d[j], s->v[(k + 1) % 3][j], s->v[k][j]);
        qcross(s->o, s->n, s->d); /* in the plane, orthogonal to the edge */
        row_through(&rows[1 + k], s->o, s->v[k]);
        qdot(side, s->o, s->v[(k + 2) % 3]);
        mpq_sub(side, side, rows[1 + k].b);
        if (mpq_sgn(side) > 0) {
            for (int j = 0; j < 3; j++)
                mpq_neg(rows[1 + k].a[j], rows[1 + k].a[j]);
            mpq_neg(rows[1 + k].b, rows[1 + k].b);
        }
        ck_assert(mpq_sgn(side) != 0);
        eq[1 + k] = 0;
    }
    mpq_clear(side);
    return 4;
}

/* The two corners farthest apart, in *bp, *bq. */
static void farthest_pair(qtri *s, int *bp, int *bq)
{
    mpq_t best, len, t;
    mpq_inits(best, len, t, NULL);
    *bp = 0;
    *bq = 1;
    for (int p = 0; p < 3; p++)
        for (int q = p + 1; q < 3; q++) {
            mpq_set_ui(len, 0, 1);
            for (int j = 0; j < 3; j++) {
                mpq_sub(t, s->v[q][j], s->v[p][j]);
                mpq_mul(t, t, t);
                mpq_add(len, len, t);
            }
            if (mpq_cmp(len, best) > 0) {
                mpq_set(best, len);
                *bp = p;
                *bq = q;
            }
        }
    mpq_clears(best, len, t, NULL);
}

/* Segment between the two corners farthest apart: two planes through it
 * (d x e_j for the axes other than the largest |d_j|) and two end rows. */
static int rows_segment(qtri *s, qrow *rows, unsigned char *eq)
{
    int bp, bq, big = 0, m = 0;
    farthest_pair(s, &bp, &bq);
    mpq_t e[3], t, u;
    mpq_inits(e[0], e[1], e[2], t, u, NULL);
    for (int j = 0; j < 3; j++) {
        mpq_sub(s->d[j], s->v[bq][j], s->v[bp][j]);
        mpq_abs(t, s->d[j]);
        mpq_abs(u, s->d[big]);
        if (mpq_cmp(t, u) > 0)
            big = j;
    }
    for (int j = 0; j < 3; j++) {
        if (j == big)
            continue;
        for (int l = 0; l < 3; l++)
            mpq_set_ui(e[l], l == j, 1);
        qcross(s->o, s->d, e);
        row_through(&rows[m], s->o, s->v[bp]);
        eq[m++] = 1;
    }
    row_through(&rows[m], s->d, s->v[bq]);
    eq[m++] = 0;
    for (int j = 0; j < 3; j++)
        mpq_neg(s->o[j], s->d[j]);
    row_through(&rows[m], s->o, s->v[bp]);
    eq[m++] = 0;
    mpq_clears(e[0], e[1], e[2], t, u, NULL);
    return m;
}

static int rows_point(qtri *s, qrow *rows, unsigned char *eq)
{
    for (int j = 0; j < 3; j++) {
        for (int l = 0; l < 3; l++)
            mpq_set_ui(s->o[l], l == j, 1);
        row_through(&rows[j], s->o, s->v[0]);
        eq[j] = 1;
    }
    return 3;
}

static hs_poly *exact_triangle_poly(ctri t)
{
    qtri s;
    qrow rows[4];
    unsigned char eq[4];
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            mpq_init(s.v[k][j]);
    for (int j = 0; j < 3; j++)
        mpq_inits(s.d[j], s.n[j], s.o[j], NULL);
    for (int i = 0; i < 4; i++)
        mpq_inits(rows[i].a[0], rows[i].a[1], rows[i].a[2], rows[i].b, NULL);
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            mpq_set_d(s.v[k][j], t[k][j]);
    mpq_t e1[3], e2[3];
    for (int j = 0; j < 3; j++) {
        mpq_inits(e1[j], e2[j], NULL);
        mpq_sub(e1[j], s.v[1][j], s.v[0][j]);
        mpq_sub(e2[j], s.v[2][j], s.v[0][j]);
    }
    qcross(s.n, e1, e2);
    int flat = mpq_sgn(s.n[0]) == 0 && mpq_sgn(s.n[1]) == 0 && mpq_sgn(s.n[2]) == 0;
    int same = mpq_equal(s.v[0][0], s.v[1][0]) && mpq_equal(s.v[0][1], s.v[1][1]) &&
               mpq_equal(s.v[0][2], s.v[1][2]) && mpq_equal(s.v[0][0], s.v[2][0]) &&
               mpq_equal(s.v[0][1], s.v[2][1]) && mpq_equal(s.v[0][2], s.v[2][2]);
    int m = !flat ? rows_triangle(&s, rows, eq)
                  : same ? rows_point(&s, rows, eq) : rows_segment(&s, rows, eq);
    hs_poly *T = poly_from_qrows(rows, m, eq);
    for (int j = 0; j < 3; j++)
        mpq_clears(e1[j], e2[j], s.d[j], s.n[j], s.o[j], NULL);
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            mpq_clear(s.v[k][j]);
    for (int i = 0; i < 4; i++)
        mpq_clears(rows[i].a[0], rows[i].a[1], rows[i].a[2], rows[i].b, NULL);
    return T;
}

static hs_status ref_classify(ctri t, const hs_poly *P)
{
    hs_poly *T = exact_triangle_poly(t);
    hs_result *r = hs_result_new();
    hs_error err;
    ck_assert_msg(classify_pair(P, T, r, &err) == HS_OK, "%s", err.msg);
    ck_assert_msg(hs_result_verify(r, P, T, &err) == HS_OK, "%s", err.msg);
    hs_status s = r->status;
    hs_result_free(r);
    hs_poly_free(T);
    return s;
}

/* ---------------------------------------------- reference (2): barycentric */

/* The system in c: M c <= 0, -c <= 0, c0 + c1 + c2 = 1 (last row). */
static hs_poly *barycentric_poly(ctri t, const hs_poly *P)
{
    int m = P->m + 4;
    hs_poly *C = hpoly_alloc(3, m, "barycentric");
    mpq_t v, x, acc;
    mpq_inits(v, x, acc, NULL);
    const char *why = NULL;
    for (int i = 0; i < P->m; i++)
        for (int k = 0; k < 3; k++) { /* M_ik = a_i . v_k - b_i */
            hpoly_get_q(P, i, 3, acc);
            mpq_neg(acc, acc);
            for (int j = 0; j < 3; j++) {
                hpoly_get_q(P, i, j, v);
                mpq_set_d(x, t[k][j]);
                mpq_mul(v, v, x);
                mpq_add(acc, acc, v);
            }
            ck_assert_int_eq(hpoly_set_q(C, i, k, acc, &why), 0);
        }
    mpq_set_si(v, -1, 1);
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(hpoly_set_q(C, P->m + k, k, v, &why), 0);
    mpq_set_ui(v, 1, 1);
    for (int j = 0; j <= 3; j++)
        ck_assert_int_eq(hpoly_set_q(C, m - 1, j, v, &why), 0);
    C->eq[m - 1] = 1;
    mpq_clears(v, x, acc, NULL);
    return C;
}

static hs_status ref_barycentric(ctri t, const hs_poly *P)
{
    hs_poly *C = barycentric_poly(t, P);
    int m = C->m;
    zrows z;
    ck_assert_int_eq(zrows_build(&z, C, NULL), 0);
    unsigned char *kind = malloc((size_t)m);
    for (int i = 0; i < m; i++)
        kind[i] = C->eq[i] ? LP_EQ : LP_SLACK;
    lp_solution sol;
    ck_assert_int_eq(lp_solution_init(&sol, 3, m), 0);
    ck_assert_int_eq(lp_solve(&z, kind, &sol), 0);
    ck_assert_int_eq(sol.status, LP_OPTIMAL);
    int s = mpq_sgn(sol.tau);
    lp_solution_free(&sol);
    free(kind);
    zrows_free(&z);
    hs_poly_free(C);
    return s > 0 ? HS_OVERLAP : s < 0 ? HS_DISJOINT : HS_TOUCHING;
}

/* --------------------------------------------------------- the checks */

/* Loose check of a witness: within tol of every row of P and of the
 * triangle's bounding box. */
static void check_witness(ctri t, const hs_poly *P, const double *x)
{
    for (int i = 0; i < P->m; i++) {
        const double *a = hpoly_row(P, i);
        double v = a[0] * x[0] + a[1] * x[1] + a[2] * x[2] - P->b[i];
        double s = fabs(a[0] * x[0]) + fabs(a[1] * x[1]) + fabs(a[2] * x[2]) + fabs(P->b[i]);
        ck_assert_msg(v <= 1e-12 * s + 1e-300, "witness outside row %d by %g", i + 1, v);
    }
    for (int j = 0; j < 3; j++) {
        double lo = fmin(t[0][j], fmin(t[1][j], t[2][j]));
        double hi = fmax(t[0][j], fmax(t[1][j], t[2][j]));
        double tol = 1e-12 * (fabs(lo) + fabs(hi)) + 1e-300;
        ck_assert(x[j] >= lo - tol && x[j] <= hi + tol);
    }
}

static hs_status classify(tri_convex_work *w, ctri t, const hs_poly *P, int *fell_back)
{
    hs_status s = HS_INTERSECT;
    double x[3] = {NAN, NAN, NAN};
    hs_error err;
    hs_error_clear(&err);
    ck_assert_msg(tri_convex_classify(w, t, P, &s, x, fell_back, &err) == HS_OK,
                  "%s [%a %a %a / %a %a %a / %a %a %a]", err.msg, t[0][0], t[0][1], t[0][2],
                  t[1][0], t[1][1], t[1][2], t[2][0], t[2][1], t[2][2]);
    ck_assert(s == HS_DISJOINT || s == HS_TOUCHING || s == HS_OVERLAP);
    if (s != HS_DISJOINT)
        check_witness(t, P, x);
    return s;
}

/* The answer in every order of the corners must be `want` (and that of
 * the references when refs); returns how many of the six calls fell
 * back. */
static int expect_orders(tri_convex_work *w, const double t[3][3], const hs_poly *P,
                         hs_status want, const char *what, int refs)
{
    int falls = 0;
    for (int p = 0; p < 6; p++) {
        double u[3][3];
        for (int k = 0; k < 3; k++)
            memcpy(u[k], t[perms[p][k]], sizeof u[k]);
        int fb = -1;
        hs_status s = classify(w, (ctri)u, P, &fb);
        ck_assert_msg(s == want, "%s (order %d): got %s, want %s", what, p, hs_status_name(s),
                      hs_status_name(want));
        ck_assert(fb == 0 || fb == 1);
        falls += fb;
    }
    if (refs) {
        ck_assert_int_eq(ref_classify(t, P), want);
        ck_assert_int_eq(ref_barycentric(t, P), want);
    }
    return falls;
}

static int expect_all_orders(tri_convex_work *w, const double t[3][3], const hs_poly *P,
                             hs_status want, const char *what)
{
    return expect_orders(w, t, P, want, what, 1);
}

typedef struct hand_case {
    const char *what;
    double t[3][3];
    hs_status want;
    int fast; /* 1: the fast path decides it in every order; 0: the exact
                 engine does, in every order (contact between edges);
                 -1: not checked */
} hand_case;

#define G 0x1p-40

static const hand_case cube_cases[] = {
    {"crossing the interior", {{-1, -1, 0.5}, {3, -1, 0.5}, {0.5, 3, 0.5}}, HS_OVERLAP, 1},
    {"lying inside a face", {{0.2, 0.2, 1}, {0.8, 0.2, 1}, {0.5, 0.8, 1}}, HS_TOUCHING, 1},
    {"on a face's plane, reaching out", {{-1, -1, 1}, {3, -1, 1}, {0.5, 3, 1}}, HS_TOUCHING, 1},
    {"one corner inside", {{0.5, 0.5, 0.5}, {3, 3, 3}, {3, -2, 5}}, HS_OVERLAP, 1},
    {"one edge piercing", {{-1, 0.5, 0.5}, {2, 0.5, 0.5}, {0.5, 0.5, 5}}, HS_OVERLAP, 1},
    {"edge through the cube, corners outside", {{-1, 0.3, 0.4}, {2, 0.6, 0.7}, {4, 4, 9}},
     HS_OVERLAP, 1},
    {"a corner on a face", {{0.5, 0.5, 1}, {0, 0, 2}, {1, 0, 2}}, HS_TOUCHING, 1},
    {"a corner on the cube's corner", {{1, 1, 1}, {2, 1, 2}, {1, 2, 2}}, HS_TOUCHING, 1},
    {"an edge touching an edge", {{0.5, 1.5, 0.5}, {1.5, 0.5, 0.5}, {2, 2, 0.5}}, HS_TOUCHING, 0},
    {"an edge along a face", {{0, 0.5, 1}, {1, 0.5, 1}, {0.5, 0.5, 3}}, HS_TOUCHING, 1},
    {"coplanar with a face, outside it", {{2, 2, 1}, {3, 2, 1}, {2, 3, 1}}, HS_DISJOINT, 1},
    {"coplanar, meeting the face's edge", {{1, 0.5, 1}, {2, 0, 1}, {2, 1, 1}}, HS_TOUCHING, 1},
    {"far away", {{10, 10, 10}, {11, 10, 10}, {10, 11, 10}}, HS_DISJOINT, 1},
    {"no facet separates", {{1.05, 1.05, -3}, {0.5, 1.6, 4}, {1.6, 0.5, 4}}, HS_DISJOINT, 1},
    {"gap 2^-40 above a face", {{-1, -1, 1 + G}, {3, -1, 1 + G}, {0.5, 3, 1 + G}}, HS_DISJOINT,
     1},
    {"2^-40 into a face", {{-1, -1, 1 - G}, {3, -1, 1 - G}, {0.5, 3, 1 - G}}, HS_OVERLAP, 1},
    {"a corner 2^-40 into a face", {{0.5, 0.5, 1 - G}, {0, 0, 2}, {1, 0, 2}}, HS_OVERLAP, 1},
    {"a corner 2^-40 above a face", {{0.5, 0.5, 1 + G}, {0, 0, 2}, {1, 0, 2}}, HS_DISJOINT, 1},
    {"2^-40 clear of an edge", {{-3, 5 + G, 0.5}, {5 + G, -3, 0.5}, {5, 5, 0.7}}, HS_DISJOINT, 1},
    {"2^-40 over an edge", {{-3, 5 - G, 0.5}, {5 - G, -3, 0.5}, {5, 5, 0.7}}, HS_OVERLAP, 1},
    {"tiny triangle inside", {{0.5, 0.5, 0.5}, {0.5 + G, 0.5, 0.5}, {0.5, 0.5 + G, 0.5}},
     HS_OVERLAP, 1},
    {"tiny triangle on a face", {{0.5, 0.5, 1}, {0.5 + G, 0.5, 1}, {0.5, 0.5 + G, 1}},
     HS_TOUCHING, 1},
    {"huge triangle through the cube", {{-1e9, -1e9, 0.25}, {1e9, -1e9, 0.75}, {0, 1e9, 0.5}},
     HS_OVERLAP, 1},
    /* degenerate triangles */
    {"segment crossing", {{-1, 0.5, 0.5}, {2, 0.5, 0.5}, {0.5, 0.5, 0.5}}, HS_OVERLAP, 1},
    {"segment with a repeated corner", {{-1, 0.5, 0.5}, {2, 0.5, 0.5}, {-1, 0.5, 0.5}},
     HS_OVERLAP, 1},
    {"segment spanning the cube", {{0, 0.5, 0.5}, {1, 0.5, 0.5}, {0.25, 0.5, 0.5}}, HS_OVERLAP,
     1},
    {"segment lying on a face", {{-1, 0.5, 1}, {2, 0.5, 1}, {0, 0.5, 1}}, HS_TOUCHING, 1},
    {"segment ending on a face", {{1, 0.5, 0.5}, {2, 0.5, 0.5}, {3, 0.5, 0.5}}, HS_TOUCHING, 1},
    {"segment through the cube's corner", {{0, 0, 2}, {2, 2, 0}, {1.5, 1.5, 0.5}}, HS_TOUCHING,
     0},
    {"segment on a face's plane, outside", {{2, 0.5, 1}, {3, 0.5, 1}, {2.5, 0.5, 1}},
     HS_DISJOINT, 1},
    {"point inside", {{0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}}, HS_OVERLAP, 1},
    {"point on a face", {{1, 0.5, 0.5}, {1, 0.5, 0.5}, {1, 0.5, 0.5}}, HS_TOUCHING, 1},
    {"point at a corner", {{1, 1, 0}, {1, 1, 0}, {1, 1, 0}}, HS_TOUCHING, 1},
    {"point outside", {{1 + G, 0.5, 0.5}, {1 + G, 0.5, 0.5}, {1 + G, 0.5, 0.5}}, HS_DISJOINT, 1},
};

START_TEST(cube_hand_cases)
{
    hs_poly *cube = t_poly(t_box_text(3, "0", "1"));
    ck_assert(hs_poly_fast_ready(cube, NULL));
    tri_convex_work *w = tri_convex_work_new();
    ck_assert(w != NULL);
    for (size_t c = 0; c < sizeof cube_cases / sizeof cube_cases[0]; c++) {
        const hand_case *h = &cube_cases[c];
        int falls = expect_all_orders(w, h->t, cube, h->want, h->what);
        ck_assert_msg(h->fast < 0 || falls == (h->fast ? 0 : 6), "%s: %d of 6 orders fell back",
                      h->what, falls);
    }
    tri_convex_work_free(w);
    hs_poly_free(cube);
}
END_TEST

/* The cube's cases scaled by powers of two (the answers do not change):
 * tiny and huge numbers, where products underflow or overflow. */
START_TEST(cube_cases_scaled)
{
    static const int exps[4] = {-1000, -500, 500, 1000};
    tri_convex_work *w = tri_convex_work_new();
    for (int e = 0; e < 4; e++) {
        double sc = ldexp(1, exps[e]), A[18] = {0}, b[6];
        for (int i = 0; i < 6; i++) {
            A[3 * i + i / 2] = i % 2 ? -1 : 1;
            b[i] = i % 2 ? 0 : sc;
        }
        hs_error err;
        hs_poly *cube = hs_poly_from_doubles(3, 6, A, b, NULL, &err);
        ck_assert(cube != NULL);
        for (size_t c = 0; c < sizeof cube_cases / sizeof cube_cases[0]; c++) {
            double t[3][3];
            int finite = 1;
            for (int k = 0; k < 3; k++)
                for (int j = 0; j < 3; j++) {
                    t[k][j] = cube_cases[c].t[k][j] * sc;
                    finite = finite && isfinite(t[k][j]);
                }
            if (finite)
                expect_orders(w, (ctri)t, cube, cube_cases[c].want, cube_cases[c].what, 0);
        }
        hs_poly_free(cube);
    }
    tri_convex_work_free(w);
}
END_TEST

/* |x| + |y| + |z| <= 1: faces not aligned with the axes. */
static const char octahedron[] = "H-representation\nbegin\n8 4 integer\n"
                                 "1 -1 -1 -1\n1 -1 -1 1\n1 -1 1 -1\n1 -1 1 1\n"
                                 "1 1 -1 -1\n1 1 -1 1\n1 1 1 -1\n1 1 1 1\nend\n";

static const hand_case octa_cases[] = {
    {"inside a face", {{0.5, 0.25, 0.25}, {0.25, 0.5, 0.25}, {0.25, 0.25, 0.5}}, HS_TOUCHING, 1},
    {"the face itself", {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, HS_TOUCHING, 1},
    {"the face pushed out by 2^-40", {{1 + G, 0, 0}, {0, 1 + G, 0}, {0, 0, 1 + G}}, HS_DISJOINT,
     1},
    {"the face pushed in by 2^-40", {{1 - G, 0, 0}, {0, 1 - G, 0}, {0, 0, 1 - G}}, HS_OVERLAP, 1},
    {"through the center", {{-2, -2, 0}, {2, -2, 0}, {0, 3, 0}}, HS_OVERLAP, 1},
    {"touching a vertex", {{1, 0, 0}, {2, 1, 0}, {2, -1, 0}}, HS_TOUCHING, 1},
    {"an edge across an edge", {{0.5, 0.5, -1}, {0.5, 0.5, 1}, {3, 3, 0}}, HS_TOUCHING, 0},
};

START_TEST(octahedron_hand_cases)
{
    hs_poly *P = t_poly(octahedron);
    tri_convex_work *w = tri_convex_work_new();
    for (size_t c = 0; c < sizeof octa_cases / sizeof octa_cases[0]; c++) {
        const hand_case *h = &octa_cases[c];
        int falls = expect_all_orders(w, h->t, P, h->want, h->what);
        ck_assert_msg(h->fast < 0 || falls == (h->fast ? 0 : 6), "%s: %d of 6 orders fell back",
                      h->what, falls);
    }
    tri_convex_work_free(w);
    hs_poly_free(P);
}
END_TEST

/* The box [2^40, 2^40 + 1]^3 with gaps of 2^-12, one unit in the last
 * place there: the floating-point filters cannot decide, the exact sums
 * behind them must. */
#define O 0x1p40
#define H 0x1p-12

static const hand_case far_cases[] = {
    {"2^-12 into a face",
     {{O - 1, O - 1, O + 1 - H}, {O + 3, O - 1, O + 1 - H}, {O + 0.5, O + 3, O + 1 - H}},
     HS_OVERLAP, 1},
    {"2^-12 above a face",
     {{O - 1, O - 1, O + 1 + H}, {O + 3, O - 1, O + 1 + H}, {O + 0.5, O + 3, O + 1 + H}},
     HS_DISJOINT, 1},
    {"on a face", {{O - 1, O - 1, O + 1}, {O + 3, O - 1, O + 1}, {O + 0.5, O + 3, O + 1}},
     HS_TOUCHING, -1},
    {"2^-12 clear of an edge",
     {{O - 3, O + 5 + H, O + 0.5}, {O + 5 + H, O - 3, O + 0.5}, {O + 5, O + 5, O + 0.75}},
     HS_DISJOINT, 1},
    {"2^-12 over an edge",
     {{O - 3, O + 5 - H, O + 0.5}, {O + 5 - H, O - 3, O + 0.5}, {O + 5, O + 5, O + 0.75}},
     HS_OVERLAP, 1},
    {"on an edge", {{O - 3, O + 5, O + 0.5}, {O + 5, O - 3, O + 0.5}, {O + 5, O + 5, O + 0.75}},
     HS_TOUCHING, 0},
};

START_TEST(far_from_the_origin)
{
    hs_poly *P = t_poly(t_box_text(3, "1099511627776", "1099511627777"));
    tri_convex_work *w = tri_convex_work_new();
    for (size_t c = 0; c < sizeof far_cases / sizeof far_cases[0]; c++) {
        const hand_case *h = &far_cases[c];
        int falls = expect_all_orders(w, h->t, P, h->want, h->what);
        ck_assert_msg(h->fast < 0 || falls == (h->fast ? 0 : 6), "%s: %d of 6 orders fell back",
                      h->what, falls);
    }
    tri_convex_work_free(w);
    hs_poly_free(P);
}
END_TEST

/* A polytope the fast path does not take (a row that is not a double, an
 * equality row) is answered by the exact engine. */
START_TEST(exact_only_polytopes)
{
    hs_poly *third = t_poly(t_box_text(3, "0", "1/3"));
    hs_poly *flat = t_poly("H-representation\nlinearity 1 1\nbegin\n5 4 rational\n"
                           "1/2 0 0 -1\n1 -1 0 0\n0 1 0 0\n1 0 -1 0\n0 0 1 0\nend\n");
    tri_convex_work *w = tri_convex_work_new();
    static const double on[3][3] = {{-1, -1, 1.0 / 3}, {3, -1, 1.0 / 3}, {0.5, 3, 1.0 / 3}};
    int fb = 0;
    /* the double nearest 1/3 is below 1/3: the triangle cuts the box */
    ck_assert_int_eq(classify(w, on, third, &fb), HS_OVERLAP);
    ck_assert_int_eq(fb, 1);
    static const double across[3][3] = {{-1, 0.5, 0.5}, {2, 0.5, 0.5}, {0.5, 0.5, 3}};
    ck_assert_int_eq(classify(w, across, flat, &fb), ref_classify(across, flat));
    ck_assert_int_eq(fb, 1);
    static const double in_plane[3][3] = {{0.2, 0.2, 0.5}, {0.8, 0.2, 0.5}, {0.5, 0.8, 0.5}};
    ck_assert_int_eq(classify(w, in_plane, flat, &fb), HS_OVERLAP); /* relative interiors */
    tri_convex_work_free(w);
    hs_poly_free(third);
    hs_poly_free(flat);
}
END_TEST

START_TEST(bad_arguments)
{
    hs_poly *sq = t_poly(t_box_text(2, "0", "1"));
    hs_poly *cube = t_poly(t_box_text(3, "0", "1"));
    tri_convex_work *w = tri_convex_work_new();
    static const double t[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    double bad[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    bad[1][2] = NAN;
    hs_status s;
    hs_error err;
    ck_assert_int_eq(tri_convex_classify(w, t, sq, &s, NULL, NULL, &err), HS_ERR_ARG);
    ck_assert_int_eq(tri_convex_classify(w, (ctri)bad, cube, &s, NULL, NULL, &err), HS_ERR_ARG);
    ck_assert_int_eq(tri_convex_classify(w, t, cube, &s, NULL, NULL, NULL), HS_OK);
    ck_assert_int_eq(s, HS_TOUCHING);
    tri_convex_work_free(w);
    tri_convex_work_free(NULL);
    hs_poly_free(sq);
    hs_poly_free(cube);
}
END_TEST

/* ------------------------------------------------------------- random */

/* m rows with integer normals in [-r, r]^3 and right sides in [1, bmax]
 * (the origin is interior), scaled by 2^-sh (dyadic when sh > 0). */
static hs_poly *random_poly(uint64_t *s, int m, int r, int bmax, int sh)
{
    double A[3 * 128], b[128];
    for (int i = 0; i < m; i++) {
        do {
            for (int j = 0; j < 3; j++)
                A[3 * i + j] = ldexp(rand_int(s, -r, r), -sh);
        } while (A[3 * i] == 0 && A[3 * i + 1] == 0 && A[3 * i + 2] == 0);
        b[i] = ldexp(rand_int(s, 1, bmax), -sh);
    }
    hs_error err;
    hs_poly *p = hs_poly_from_doubles(3, m, A, b, NULL, &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    return p;
}

/* m tangent planes of the unit sphere with generic (full-precision)
 * normals. */
static hs_poly *random_round_poly(uint64_t *s, int m)
{
    double A[3 * 128], b[128];
    for (int i = 0; i < m; i++) {
        double u[3], n2;
        do {
            for (int j = 0; j < 3; j++)
                u[j] = 2 * uniform(s) - 1;
            n2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
        } while (n2 < 0.01 || n2 > 1);
        for (int j = 0; j < 3; j++)
            A[3 * i + j] = u[j] / sqrt(n2);
        b[i] = 1;
    }
    hs_error err;
    hs_poly *p = hs_poly_from_doubles(3, m, A, b, NULL, &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    return p;
}

typedef struct tally {
    int count[7];
    int falls;
    int total;
} tally;

static void cross_check(tri_convex_work *w, ctri t, const hs_poly *P, tally *tl, int refs)
{
    int fb = 0;
    hs_status s = classify(w, t, P, &fb);
    if (refs & 1)
        ck_assert_msg(s == ref_classify(t, P), "fast %s", hs_status_name(s));
    if (refs & 2)
        ck_assert_msg(s == ref_barycentric(t, P), "fast %s", hs_status_name(s));
    tl->count[s]++;
    tl->falls += fb;
    tl->total++;
}

/* Small integers (many contacts and degenerate triangles) and dyadic
 * rationals: equal answers always. */
START_TEST(random_integer_and_dyadic)
{
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    tri_convex_work *w = tri_convex_work_new();
    tally tl = {{0}, 0, 0};
    for (int q = 0; q < 120; q++) {
        int sh = q % 2 ? 2 : 0, span = 2 << sh, r = q % 4 < 2 ? 1 : 2;
        hs_poly *P = random_poly(&s, 4 + q % 9, r, 2 << sh, sh);
        for (int k = 0; k < 10; k++) {
            double t[3][3];
            for (int c = 0; c < 3; c++)
                for (int j = 0; j < 3; j++)
                    t[c][j] = ldexp(rand_int(&s, -span, span), -sh);
            if (k == 9) /* a degenerate one: corner 2 on the line of 0 and 1 */
                for (int j = 0; j < 3; j++)
                    t[2][j] = 2 * t[1][j] - t[0][j];
            cross_check(w, (ctri)t, P, &tl, 3);
        }
        hs_poly_free(P);
    }
    fprintf(stderr, "tri_convex integer/dyadic: %d cases, %d disjoint, %d touching, %d overlap, "
                    "%d fell back\n",
            tl.total, tl.count[HS_DISJOINT], tl.count[HS_TOUCHING], tl.count[HS_OVERLAP],
            tl.falls);
    ck_assert(tl.count[HS_DISJOINT] > 50 && tl.count[HS_TOUCHING] > 50 &&
              tl.count[HS_OVERLAP] > 50);
    tri_convex_work_free(w);
}
END_TEST

/* Generic doubles: the fast path decides nearly every case. */
START_TEST(random_generic)
{
    uint64_t s = 0x243f6a8885a308d3ULL;
    tri_convex_work *w = tri_convex_work_new();
    tally tl = {{0}, 0, 0};
    for (int q = 0; q < 60; q++) {
        hs_poly *P = random_round_poly(&s, 6 + q % 30);
        for (int k = 0; k < 20; k++) {
            double t[3][3], c[3], r = 0.05 + 2 * uniform(&s);
            for (int j = 0; j < 3; j++)
                c[j] = 4 * uniform(&s) - 2;
            for (int v = 0; v < 3; v++)
                for (int j = 0; j < 3; j++)
                    t[v][j] = c[j] + r * (2 * uniform(&s) - 1);
            cross_check(w, (ctri)t, P, &tl, k % 4 == 0 ? 3 : 1);
        }
        hs_poly_free(P);
    }
    fprintf(stderr, "tri_convex generic: %d cases, %d disjoint, %d overlap, %d fell back\n",
            tl.total, tl.count[HS_DISJOINT], tl.count[HS_OVERLAP], tl.falls);
    ck_assert(tl.count[HS_DISJOINT] > 100 && tl.count[HS_OVERLAP] > 100);
    ck_assert_int_le(tl.falls * 100, tl.total); /* at most 1% */
    tri_convex_work_free(w);
}
END_TEST

/* A triangle from family f around a box [o, o+1]^3: a corner exactly on
 * the face x = o + 1 (0), nearly collinear corners (1), a generic
 * triangle (2), or one lying in the plane of that face (3). */
static void hard_triangle(uint64_t *s, int f, double o, double t[3][3])
{
    for (int v = 0; v < 3; v++)
        for (int j = 0; j < 3; j++)
            t[v][j] = o + 3 * uniform(s) - 1;
    if (f == 3)
        for (int v = 0; v < 3; v++)
            t[v][0] = o + 1;
    if (f == 0) {
        t[0][0] = o + 1;
        t[0][1] = o + uniform(s);
        t[0][2] = o + uniform(s);
    } else if (f == 1) {
        double l = 2 * uniform(s) - 0.5;
        for (int j = 0; j < 3; j++)
            t[2][j] = t[0][j] + l * (t[1][j] - t[0][j]);
    }
}

/* Contacts, near-degenerate triangles and large offsets: equal answers;
 * exact contacts fall back, the rest nearly never. */
START_TEST(random_hard)
{
    uint64_t s = 0x13198a2e03707344ULL;
    tri_convex_work *w = tri_convex_work_new();
    static const char *const lo[3] = {"0", "1048576", "-1/1024"};
    static const char *const hi[3] = {"1", "1048577", "1023/1024"};
    static const double off[3] = {0, 1048576, -1.0 / 1024};
    tally tl = {{0}, 0, 0};
    for (int b = 0; b < 3; b++) {
        hs_poly *P = t_poly(t_box_text(3, lo[b], hi[b]));
        for (int k = 0; k < 300; k++) {
            double t[3][3];
            hard_triangle(&s, k % 4, off[b], t);
            cross_check(w, (ctri)t, P, &tl, k % 5 == 0 ? 3 : 1);
        }
        hs_poly_free(P);
    }
    fprintf(stderr, "tri_convex hard: %d cases, %d disjoint, %d touching, %d overlap, "
                    "%d fell back\n",
            tl.total, tl.count[HS_DISJOINT], tl.count[HS_TOUCHING], tl.count[HS_OVERLAP],
            tl.falls);
    ck_assert_int_le(tl.falls, tl.count[HS_TOUCHING] + tl.total / 100);
    tri_convex_work_free(w);
}
END_TEST

/* The same workspace across sizes: 6 rows, 100 rows, 6 rows again. */
START_TEST(workspace_reuse)
{
    uint64_t s = 7;
    hs_poly *big = random_round_poly(&s, 100), *cube = t_poly(t_box_text(3, "-1", "1"));
    tri_convex_work *w = tri_convex_work_new();
    static const double t[3][3] = {{0.9, 0.9, 0.9}, {3, 0, 0}, {0, 3, 0}};
    int fb;
    ck_assert_int_eq(classify(w, t, cube, &fb), HS_OVERLAP);
    ck_assert_int_eq(classify(w, t, big, &fb), ref_classify(t, big));
    ck_assert_int_eq(classify(w, t, cube, &fb), HS_OVERLAP);
    tri_convex_work_free(w);
    hs_poly_free(big);
    hs_poly_free(cube);
}
END_TEST

/* tri_box_separated (polytope/tri_box.c) against the exact classification:
 * a triangle it calls separated is disjoint from the box exactly; it finds
 * most of the disjoint triangles whose boxes meet the box; it never
 * separates a triangle that touches (a corner on a face, an edge along an
 * edge, a face on a face) or meets it.  Boxes with small dyadic sides at
 * offsets up to 2^20, triangles at random and degenerate (points,
 * segments). */
START_TEST(triangle_box_separation)
{
    uint64_t rs = 4242;
    int separated = 0, disjoint_near = 0;
    for (int trial = 0; trial < 1500; trial++) {
        double lo[3], hi[3], off = ldexp(1, rand_int(&rs, 0, 20)) * (trial % 7 == 0);
        for (int j = 0; j < 3; j++) {
            lo[j] = off + rand_int(&rs, -8, 0) * 0.25;
            hi[j] = lo[j] + rand_int(&rs, 1, 8) * 0.25;
        }
        double t[3][3];
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++)
                t[k][j] = lo[j] - 1 + (hi[j] - lo[j] + 2) * uniform(&rs);
        int kind = trial % 10;
        if (kind == 1) /* a corner exactly on the face x = hi, outside the rest */
            t[0][0] = hi[0], t[1][0] = hi[0] + 0.5, t[2][0] = hi[0] + 1,
            t[0][1] = 0.5 * (lo[1] + hi[1]), t[0][2] = 0.5 * (lo[2] + hi[2]);
        if (kind == 2) /* an edge along the box edge y = hi, z = hi */
            for (int k = 0; k < 2; k++)
                t[k][1] = hi[1], t[k][2] = hi[2], t[k][0] = lo[0] + k * (hi[0] - lo[0]);
        if (kind == 2)
            t[2][1] = hi[1] + 1, t[2][2] = hi[2] + 0.5;
        if (kind == 3) { /* a face on the face z = lo, a corner inside it */
            for (int k = 0; k < 3; k++)
                t[k][2] = lo[2];
            t[0][0] = 0.5 * (lo[0] + hi[0]);
            t[0][1] = 0.5 * (lo[1] + hi[1]);
        }
        if (kind == 4) /* a segment */
            memcpy(t[2], t[1], sizeof t[1]);
        if (kind == 5) /* a point */
            memcpy(t[1], t[0], sizeof t[0]), memcpy(t[2], t[0], sizeof t[0]);
        double a[18] = {0}, b[6];
        for (int j = 0; j < 3; j++) {
            a[3 * (2 * j) + j] = 1;
            a[3 * (2 * j + 1) + j] = -1;
            b[2 * j] = hi[j];
            b[2 * j + 1] = -lo[j];
        }
        hs_error err;
        hs_poly *P = hs_poly_from_doubles(3, 6, a, b, NULL, &err);
        ck_assert_ptr_nonnull(P);
        hs_status ref = ref_classify((ctri)t, P);
        int sep = tri_box_separated((ctri)t, lo, hi);
        EXPECT(!sep || ref == HS_DISJOINT, "trial %d: separated, but the exact answer is %s",
               trial, hs_status_name(ref));
        if (kind >= 1 && kind <= 3)
            EXPECT(ref == HS_TOUCHING && !sep, "trial %d: a touching case gave %s, %d", trial,
                   hs_status_name(ref), sep);
        separated += sep;
        disjoint_near += ref == HS_DISJOINT;
        hs_poly_free(P);
    }
    ck_assert_int_gt(disjoint_near, 300);
    ck_assert_int_gt(separated, disjoint_near / 2);
}
END_TEST

Suite *suite_tri_convex(void)
{
    Suite *s = suite_create("tri_convex");
    TCase *tc = tcase_create("tri_convex");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, cube_hand_cases);
    tcase_add_test(tc, cube_cases_scaled);
    tcase_add_test(tc, octahedron_hand_cases);
    tcase_add_test(tc, far_from_the_origin);
    tcase_add_test(tc, exact_only_polytopes);
    tcase_add_test(tc, bad_arguments);
    tcase_add_test(tc, random_integer_and_dyadic);
    tcase_add_test(tc, random_generic);
    tcase_add_test(tc, random_hard);
    tcase_add_test(tc, workspace_reuse);
    tcase_add_test(tc, triangle_box_separation);
    suite_add_tcase(s, tc);
    return s;
}
