/* test_triangles.c -- exact triangle-triangle classification
 * (src/triangles.c) and the pairing of mesh triangles (src/tri_mesh.c).
 *
 * Hand cases cover every situation of the case analysis; each is checked
 * with the two triangles in both orders and with every order of the
 * corners of each (72 calls), and the witness is checked to lie (up to
 * rounding) in both triangles.  The random cross-check compares with an
 * independent answer: the exact LP engine (hs_intersect, HS_ENGINE_EXACT)
 * on the two triangles written as flat polyhedra, their rows computed
 * here in integer arithmetic.  The mesh tests compare the grid with the
 * raw method (same set of pairs, statuses and witnesses). */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/shape/tri_mesh.h"
#include "src/shape/tri_tri.h"
#include "tests/helpers.h"

/* ck_assert records every success; the loops below report failures only. */
typedef double tri[3][3];
/* A triangle seen as const (C11 does not add the qualifier by itself). */
#define CT(x) ((const double(*)[3])(x))

static const int perms[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

static void permute(const tri in, int k, tri out)
{
    for (int i = 0; i < 3; i++)
        memcpy(out[i], in[perms[k][i]], sizeof out[i]);
}

/* ------------------------------------------------ approximate distances */

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void sub3(const double *a, const double *b, double *out)
{
    for (int i = 0; i < 3; i++)
        out[i] = a[i] - b[i];
}

static void cross3(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dist_segment(const double *x, const double *a, const double *b)
{
    double ab[3], ax[3], d[3];
    sub3(b, a, ab);
    sub3(x, a, ax);
    double len = dot3(ab, ab), s = len > 0 ? dot3(ax, ab) / len : 0;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    for (int i = 0; i < 3; i++)
        d[i] = ax[i] - s * ab[i];
    return sqrt(dot3(d, d));
}

/* Distance from x to triangle t (any shape), in doubles. */
static double dist_triangle(const double *x, const tri t)
{
    double best = INFINITY;
    for (int i = 0; i < 3; i++)
        best = fmin(best, dist_segment(x, t[i], t[(i + 1) % 3]));
    double e1[3], e2[3], n[3], r[3];
    sub3(t[1], t[0], e1);
    sub3(t[2], t[0], e2);
    cross3(e1, e2, n);
    double nn = dot3(n, n);
    if (nn == 0)
        return best;
    int inside = 1;
    for (int i = 0; i < 3; i++) {
        double e[3], c[3];
        sub3(t[(i + 1) % 3], t[i], e);
        sub3(x, t[i], r);
        cross3(e, r, c);
        inside &= dot3(c, n) >= 0;
    }
    sub3(x, t[0], r);
    return inside ? fmin(best, fabs(dot3(r, n)) / sqrt(nn)) : best;
}

static double scale_of(const tri p, const tri q)
{
    double s = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            s = fmax(s, fmax(fabs(p[i][j]), fabs(q[i][j])));
    return s;
}

/* ------------------------------------------------ invariance checks */

/* Classify p, q in both orders and every corner order; every answer must
 * be `want`, every witness near both.  With `few` (random cases: the
 * exact predicates and witnesses of degenerate small-integer cases are
 * slow) only two corner orders per direction, and the witness of the
 * first.  Returns the number of calls. */
static int check_orders(const tri p, const tri q, hs_status want, const char *name, int few)
{
    double tol = 1e-9 * scale_of(p, q) + 0x1p-1000;
    int calls = 0;
    for (int swap = 0; swap < 2; swap++)
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++) {
                tri a, b;
                permute(swap ? q : p, i, a);
                permute(swap ? p : q, j, b);
                double w[3] = {NAN, NAN, NAN};
                if (few && !(i == 0 && j == 0) && !(i == 3 && j == 4))
                    continue;
                int with_witness = !few || (i == 0 && j == 0);
                hs_status st = tri_tri_classify(CT(a), CT(b), with_witness ? w : NULL);
                calls++;
                EXPECT(st == want, "%s: swap %d perms %d %d: got %s, want %s", name, swap, i, j,
                       hs_status_name(st), hs_status_name(want));
                if (st == HS_DISJOINT || !with_witness)
                    continue;
                EXPECT(dist_triangle(w, CT(a)) <= tol && dist_triangle(w, CT(b)) <= tol,
                       "%s: witness (%g %g %g) not in both", name, w[0], w[1], w[2]);
            }
    return calls;
}

static int check_all_orders(const tri p, const tri q, hs_status want, const char *name)
{
    return check_orders(p, q, want, name, 0);
}

typedef struct hand_case {
    const char *name;
    tri p, q;
    hs_status want;
} hand_case;

#define BASE {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}}
#define TINY 0x1p-60

static const hand_case crossing_cases[] = {
    {"pierce both edges", BASE, {{1, 1, -1}, {1, 1, 1}, {2, 1, 1}}, HS_OVERLAP},
    {"q edge through p, q mostly outside", BASE, {{1, 1, -1}, {1, 1, 1}, {-5, 1, 0}}, HS_OVERLAP},
    {"cross along x=y to the hypotenuse", BASE, {{1, 1, -1}, {1, 1, 1}, {2, 2, 0}}, HS_OVERLAP},
    {"shared corner, q dives through", BASE, {{0, 0, 0}, {1, 1, -1}, {1, 1, 1}}, HS_OVERLAP},
    {"just below: pierces", BASE, {{1, 1, -TINY}, {1, 1, 3}, {2, 1, 3}}, HS_OVERLAP},
    {"edge of q lying on p's face", BASE, {{1, 1, 0}, {2, 1, 0}, {1, 1, 3}}, HS_TOUCHING},
    {"corner of q on p's face", BASE, {{1, 1, 0}, {1, 1, 3}, {2, 1, 3}}, HS_TOUCHING},
    {"corner on corner", BASE, {{0, 0, 0}, {-1, 0, 3}, {0, -1, 3}}, HS_TOUCHING},
    {"corner of q on p's edge", BASE, {{2, 0, 0}, {2, -1, 3}, {3, -1, 3}}, HS_TOUCHING},
    {"edge crosses edge", BASE, {{2, -1, 1}, {2, 1, -1}, {2, -1, -1}}, HS_TOUCHING},
    {"hinge: shared edge", BASE, {{0, 0, 0}, {4, 0, 0}, {0, 0, 4}}, HS_TOUCHING},
    {"hinge through the plane", BASE, {{0, 0, 0}, {4, 0, 0}, {1, -1, 1}}, HS_TOUCHING},
    {"segments on L meet at one end", BASE, {{2, 2, 0}, {3, 3, -1}, {3, 3, 1}}, HS_TOUCHING},
    {"just above: misses", BASE, {{1, 1, TINY}, {1, 1, 3}, {2, 1, 3}}, HS_DISJOINT},
    {"edge passes beside", BASE, {{2, -1.5, 1}, {2, 0.5, -1}, {2, -1.5, -1}}, HS_DISJOINT},
    {"parallel planes", BASE, {{0, 0, 1}, {4, 0, 1}, {0, 4, 1}}, HS_DISJOINT},
    {"far apart", BASE, {{100, 100, 100}, {104, 100, 100}, {100, 104, 100}}, HS_DISJOINT},
    {"crossing planes, L outside p", BASE, {{5, 5, -1}, {5, 5, 1}, {6, 5, 0}}, HS_DISJOINT},
};

static const hand_case coplanar_cases[] = {
    {"identical", BASE, BASE, HS_OVERLAP},
    {"overlapping", BASE, {{1, 1, 0}, {5, 1, 0}, {1, 5, 0}}, HS_OVERLAP},
    {"q inside p", BASE, {{1, 1, 0}, {2, 1, 0}, {1, 2, 0}}, HS_OVERLAP},
    {"p inside q, shared corner", BASE, {{0, 0, 0}, {8, 0, 0}, {0, 8, 0}}, HS_OVERLAP},
    {"star of David", {{0, 0, 0}, {6, 0, 0}, {3, 6, 0}}, {{0, 4, 0}, {6, 4, 0}, {3, -2, 0}},
     HS_OVERLAP},
    {"shared edge", BASE, {{4, 0, 0}, {0, 4, 0}, {4, 4, 0}}, HS_TOUCHING},
    {"shared corner, collinear edges", BASE, {{4, 0, 0}, {5, 0, 0}, {5, 1, 0}}, HS_TOUCHING},
    {"corner on edge", BASE, {{2, 2, 0}, {5, 5, 0}, {2, 6, 0}}, HS_TOUCHING},
    {"edges overlap partly", BASE, {{1, 0, 0}, {3, 0, 0}, {2, -2, 0}}, HS_TOUCHING},
    {"disjoint", BASE, {{3, 3, 0}, {5, 3, 0}, {3, 5, 0}}, HS_DISJOINT},
    {"disjoint by a hair", BASE, {{2, 2 + 0x1p-50, 0}, {5, 5, 0}, {2, 6, 0}}, HS_DISJOINT},
    {"overlap by a hair", BASE, {{2, 2 - 0x1p-50, 0}, {5, 5, 0}, {2, 6, 0}}, HS_OVERLAP},
    {"tilted plane, overlapping",
     {{0, 0, 0}, {4, 0, 4}, {0, 4, 4}}, {{1, 1, 2}, {5, 1, 6}, {1, 5, 6}}, HS_OVERLAP},
    {"tilted plane, shared edge",
     {{0, 0, 0}, {4, 0, 4}, {0, 4, 4}}, {{4, 0, 4}, {0, 4, 4}, {4, 4, 8}}, HS_TOUCHING},
};

static const hand_case degenerate_cases[] = {
    {"segment pierces face", BASE, {{1, 1, -1}, {1, 1, 1}, {1, 1, 0.5}}, HS_OVERLAP},
    {"segment ends on face", BASE, {{1, 1, 0}, {1, 1, 2}, {1, 1, 1}}, HS_TOUCHING},
    {"segment through p's edge", BASE, {{2, 0, -1}, {2, 0, 1}, {2, 0, 1}}, HS_TOUCHING},
    {"segment misses", BASE, {{5, 5, -1}, {5, 5, 1}, {5, 5, 1}}, HS_DISJOINT},
    {"segment above", BASE, {{1, 1, 1}, {1, 1, 2}, {1, 1, 3}}, HS_DISJOINT},
    {"segment in face", BASE, {{1, 1, 0}, {2, 1, 0}, {3, 1, 0}}, HS_OVERLAP},
    {"segment across boundary", BASE, {{1, 1, 0}, {5, 1, 0}, {5, 1, 0}}, HS_OVERLAP},
    {"segment on p's edge", BASE, {{1, 0, 0}, {2, 0, 0}, {3, 0, 0}}, HS_TOUCHING},
    {"segment along edge line, beyond", BASE, {{4, 0, 0}, {5, 0, 0}, {6, 0, 0}}, HS_TOUCHING},
    {"segment in plane, outside", BASE, {{5, 0, 0}, {6, 0, 0}, {7, 0, 0}}, HS_DISJOINT},
    {"segment touching corner from outside", BASE, {{4, 0, 0}, {5, -1, 0}, {5, -1, 0}},
     HS_TOUCHING},
    {"segment crossing a corner", BASE, {{-1, 1, 0}, {1, -1, 0}, {0, 0, 0}}, HS_TOUCHING},
    {"point in face", BASE, {{1, 1, 0}, {1, 1, 0}, {1, 1, 0}}, HS_OVERLAP},
    {"point on edge", BASE, {{2, 0, 0}, {2, 0, 0}, {2, 0, 0}}, HS_TOUCHING},
    {"point on corner", BASE, {{0, 4, 0}, {0, 4, 0}, {0, 4, 0}}, HS_TOUCHING},
    {"point above", BASE, {{1, 1, TINY}, {1, 1, TINY}, {1, 1, TINY}}, HS_DISJOINT},
    {"point in plane, outside", BASE, {{3, 3, 0}, {3, 3, 0}, {3, 3, 0}}, HS_DISJOINT},
    {"segments cross", {{0, 0, 0}, {2, 2, 0}, {1, 1, 0}}, {{0, 2, 0}, {2, 0, 0}, {2, 0, 0}},
     HS_OVERLAP},
    {"segments T", {{0, 0, 0}, {2, 2, 0}, {1, 1, 0}}, {{1, 1, 0}, {2, 0, 0}, {2, 0, 0}},
     HS_TOUCHING},
    {"segments share an end", {{0, 0, 0}, {2, 2, 0}, {1, 1, 0}}, {{2, 2, 0}, {3, 0, 0}, {3, 0, 0}},
     HS_TOUCHING},
    {"segments skew", {{0, 0, 0}, {2, 2, 0}, {1, 1, 0}}, {{0, 2, 1}, {2, 0, 1}, {2, 0, 1}},
     HS_DISJOINT},
    {"segments parallel", {{0, 0, 0}, {2, 2, 0}, {1, 1, 0}}, {{1, 0, 0}, {3, 2, 0}, {3, 2, 0}},
     HS_DISJOINT},
    {"segments coplanar, apart", {{0, 0, 0}, {2, 2, 0}, {1, 1, 0}},
     {{3, 0, 0}, {4, 1, 0}, {4, 1, 0}}, HS_DISJOINT},
    {"segments on one line, overlapping", {{0, 0, 0}, {2, 2, 2}, {1, 1, 1}},
     {{1, 1, 1}, {3, 3, 3}, {3, 3, 3}}, HS_OVERLAP},
    {"segments on one line, end to end", {{0, 0, 0}, {2, 2, 2}, {1, 1, 1}},
     {{2, 2, 2}, {3, 3, 3}, {3, 3, 3}}, HS_TOUCHING},
    {"segments on one line, apart", {{0, 0, 0}, {2, 2, 2}, {1, 1, 1}},
     {{3, 3, 3}, {4, 4, 4}, {4, 4, 4}}, HS_DISJOINT},
    {"point inside segment", {{0, 0, 0}, {2, 2, 2}, {2, 2, 2}}, {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
     HS_OVERLAP},
    {"point at segment end", {{0, 0, 0}, {2, 2, 2}, {2, 2, 2}}, {{2, 2, 2}, {2, 2, 2}, {2, 2, 2}},
     HS_TOUCHING},
    {"point off segment", {{0, 0, 0}, {2, 2, 2}, {2, 2, 2}},
     {{1, 1, 1 + 0x1p-52}, {1, 1, 1 + 0x1p-52}, {1, 1, 1 + 0x1p-52}}, HS_DISJOINT},
    {"point beyond segment", {{0, 0, 0}, {2, 2, 2}, {2, 2, 2}}, {{3, 3, 3}, {3, 3, 3}, {3, 3, 3}},
     HS_DISJOINT},
    {"same point", {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}},
     HS_OVERLAP},
    {"two points", {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, {{1, 2, 4}, {1, 2, 4}, {1, 2, 4}},
     HS_DISJOINT},
};

static void run_cases(const hand_case *c, int n)
{
    for (int i = 0; i < n; i++)
        check_all_orders(c[i].p, c[i].q, c[i].want, c[i].name);
}

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

START_TEST(test_crossing_cases)
{
    run_cases(crossing_cases, COUNT(crossing_cases));
}
END_TEST

START_TEST(test_coplanar_cases)
{
    run_cases(coplanar_cases, COUNT(coplanar_cases));
}
END_TEST

START_TEST(test_degenerate_cases)
{
    run_cases(degenerate_cases, COUNT(degenerate_cases));
}
END_TEST

/* Large and tiny magnitudes: the same configurations scaled and shifted by
 * powers of two must give the same answers (exact predicates, no epsilons). */
START_TEST(test_scaled_cases)
{
    const double scales[] = {0x1p-40, 0x1p40, 0x1p-200};
    const double shift = 0x1p30;
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < COUNT(crossing_cases); i++) {
            if (crossing_cases[i].p[0][0] != 0 || fabs(crossing_cases[i].q[0][2]) == TINY)
                continue; /* the hair-width cases do not survive the shift */
            tri p, q;
            for (int k = 0; k < 3; k++)
                for (int d = 0; d < 3; d++) {
                    p[k][d] = crossing_cases[i].p[k][d] * scales[s] + shift * scales[s];
                    q[k][d] = crossing_cases[i].q[k][d] * scales[s] + shift * scales[s];
                }
            check_all_orders(CT(p), CT(q), crossing_cases[i].want, crossing_cases[i].name);
        }
}
END_TEST

START_TEST(test_witness_null)
{
    const tri p = BASE, q = {{1, 1, -1}, {1, 1, 1}, {2, 1, 1}};
    ck_assert_int_eq(tri_tri_classify(p, q, NULL), HS_OVERLAP);
}
END_TEST

/* The witness is the rounded midpoint of the common segment: here the
 * segment from (1, 1, 0) to (4/3, 1, 0), midpoint x = 7/6, also scaled and
 * shifted (integer rounding paths, the subnormal fallback). */
START_TEST(test_witness_values)
{
    const tri p0 = BASE, q0 = {{1, 1, -1}, {1, 1, 2}, {2, 1, 2}};
    const int scale[] = {0, 500, -500, -1060};
    for (int k = 0; k < 4; k++)
        for (int shifted = 0; shifted < 2; shifted++) {
            double off = shifted && scale[k] > -1000 ? 0x1p40 : 0;
            tri p, q;
            for (int i = 0; i < 3; i++)
                for (int d = 0; d < 3; d++) {
                    p[i][d] = ldexp(p0[i][d] + (d == 0 ? off : 0), scale[k]);
                    q[i][d] = ldexp(q0[i][d] + (d == 0 ? off : 0), scale[k]);
                }
            double w[3];
            ck_assert_int_eq(tri_tri_classify(CT(p), CT(q), w), HS_OVERLAP);
            double want = ldexp(off + 7.0 / 6.0, scale[k]);
            ck_assert(w[0] == want); /* 7/6 2^-1060 is subnormal: 19115 2^-1074 */
            ck_assert(w[1] == ldexp(1, scale[k]) && w[2] == 0);
        }
}
END_TEST

/* ------------------------------------------------ random cross-check */

/* Rows of the flat polyhedron of a triangle, in exact rationals, from its
 * own case split (proper / segment / point): a proper triangle is its
 * plane (an equality) and three outward edge rows; a segment two planes
 * through its line and two end rows; a point three coordinate planes. */
typedef struct qhrep {
    int m;
    mpq_t A[8][3], b[8];
    unsigned char eq[8];
} qhrep;

static void qv_sub(mpq_t out[3], mpq_t a[3], mpq_t b[3])
{
    for (int i = 0; i < 3; i++)
        mpq_sub(out[i], a[i], b[i]);
}

static void qv_cross(mpq_t out[3], mpq_t a[3], mpq_t b[3])
{
    mpq_t t;
    mpq_init(t);
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        mpq_mul(out[i], a[j], b[k]);
        mpq_mul(t, a[k], b[j]);
        mpq_sub(out[i], out[i], t);
    }
    mpq_clear(t);
}

static void qv_dot(mpq_t out, mpq_t a[3], mpq_t b[3])
{
    mpq_t t;
    mpq_init(t);
    mpq_mul(out, a[0], b[0]);
    for (int i = 1; i < 3; i++) {
        mpq_mul(t, a[i], b[i]);
        mpq_add(out, out, t);
    }
    mpq_clear(t);
}

static int qv_zero(mpq_t a[3])
{
    return mpq_sgn(a[0]) == 0 && mpq_sgn(a[1]) == 0 && mpq_sgn(a[2]) == 0;
}

/* Row g . x <= g . at (or =), negated when sign < 0. */
static void qrow(qhrep *h, mpq_t g[3], mpq_t at[3], int sign, int eq)
{
    for (int j = 0; j < 3; j++) {
        mpq_set(h->A[h->m][j], g[j]);
        if (sign < 0)
            mpq_neg(h->A[h->m][j], h->A[h->m][j]);
    }
    qv_dot(h->b[h->m], h->A[h->m], at);
    h->eq[h->m++] = (unsigned char)eq;
}

static void qhrep_segment(qhrep *h, mpq_t u[3], mpq_t v[3])
{
    mpq_t d[3], e[3], g[3];
    for (int i = 0; i < 3; i++)
        mpq_inits(d[i], e[i], g[i], NULL);
    qv_sub(d, v, u);
    for (int k = 0; k < 3; k++) { /* d x e_k: two of the three are independent */
        for (int i = 0; i < 3; i++)
            mpq_set_si(e[i], i == k, 1);
        qv_cross(g, d, e);
        if (!qv_zero(g))
            qrow(h, g, u, 1, 1);
    }
    qrow(h, d, v, 1, 0);
    qrow(h, d, u, -1, 0);
    for (int i = 0; i < 3; i++)
        mpq_clears(d[i], e[i], g[i], NULL);
}

/* Returns 0 for a proper triangle (rows made), else the index pair of the
 * two corners farthest apart in *ia, *ib. */
static int qhrep_proper(qhrep *h, mpq_t t[3][3], int *ia, int *ib)
{
    mpq_t e1[3], e2[3], n[3], m[3], best, len;
    mpq_inits(best, len, NULL);
    for (int i = 0; i < 3; i++)
        mpq_inits(e1[i], e2[i], n[i], m[i], NULL);
    qv_sub(e1, t[1], t[0]);
    qv_sub(e2, t[2], t[0]);
    qv_cross(n, e1, e2);
    int proper = !qv_zero(n);
    if (proper) {
        qrow(h, n, t[0], 1, 1);
        for (int i = 0; i < 3; i++) {
            qv_sub(e1, t[(i + 1) % 3], t[i]);
            qv_cross(m, e1, n); /* outward */
            qrow(h, m, t[i], 1, 0);
        }
    }
    mpq_set_si(best, -1, 1);
    for (int i = 0; i < 3 && !proper; i++)
        for (int j = i + 1; j < 3; j++) {
            qv_sub(e1, t[j], t[i]);
            qv_dot(len, e1, e1);
            if (mpq_cmp(len, best) > 0) {
                mpq_set(best, len);
                *ia = i;
                *ib = j;
            }
        }
    int point = !proper && mpq_sgn(best) == 0;
    mpq_clears(best, len, NULL);
    for (int i = 0; i < 3; i++)
        mpq_clears(e1[i], e2[i], n[i], m[i], NULL);
    return proper ? 0 : point ? 2 : 1;
}

static void qhrep_of(const tri t, qhrep *h)
{
    mpq_t q[3][3], e[3];
    for (int i = 0; i < 3; i++) {
        mpq_inits(q[i][0], q[i][1], q[i][2], e[i], NULL);
        for (int j = 0; j < 3; j++)
            mpq_set_d(q[i][j], t[i][j]);
    }
    h->m = 0;
    int ia = 0, ib = 0, kind = qhrep_proper(h, q, &ia, &ib);
    if (kind == 1)
        qhrep_segment(h, q[ia], q[ib]);
    for (int k = 0; k < 3 && kind == 2; k++) {
        for (int i = 0; i < 3; i++)
            mpq_set_si(e[i], i == k, 1);
        qrow(h, e, q[0], 1, 1);
    }
    for (int i = 0; i < 3; i++)
        mpq_clears(q[i][0], q[i][1], q[i][2], e[i], NULL);
}

/* The polyhedron of triangle t, built from exact strings. */
static hs_poly *tri_poly(const tri t)
{
    qhrep h;
    for (int r = 0; r < 8; r++)
        mpq_inits(h.A[r][0], h.A[r][1], h.A[r][2], h.b[r], NULL);
    qhrep_of(t, &h);
    char *A[24], *b[8];
    for (int r = 0; r < h.m; r++) {
        for (int j = 0; j < 3; j++)
            A[3 * r + j] = mpq_get_str(NULL, 10, h.A[r][j]);
        b[r] = mpq_get_str(NULL, 10, h.b[r]);
    }
    hs_error err;
    hs_poly *p = hs_poly_from_strings(3, h.m, (const char *const *)A, (const char *const *)b,
                                      h.eq, &err);
    ck_assert_msg(p != NULL, "rows: %s", err.msg);
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    for (int r = 0; r < h.m; r++) {
        for (int j = 0; j < 3; j++)
            gmp_free(A[3 * r + j], strlen(A[3 * r + j]) + 1);
        gmp_free(b[r], strlen(b[r]) + 1);
    }
    for (int r = 0; r < 8; r++)
        mpq_clears(h.A[r][0], h.A[r][1], h.A[r][2], h.b[r], NULL);
    return p;
}

static hs_status lp_reference(const tri p, const tri q, hs_result *r)
{
    hs_poly *A = tri_poly(p), *B = tri_poly(q);
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_EXACT;
    hs_error err;
    ck_assert_int_eq(hs_intersect(A, B, &opt, r, &err), HS_OK);
    hs_status st = hs_result_status(r);
    hs_poly_free(A);
    hs_poly_free(B);
    return st;
}

/* Corners in [-range, range] (integers), often flat or with a repeated
 * corner; with `nudge`, some coordinates moved by a few units in the last
 * place, so that near-coincidences replace the exact ones. */
static void random_triangle(uint64_t *seed, int range, int nudge, tri t)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = (double)((long)(t_rng_next(seed) % (uint64_t)(2 * range + 1)) - range);
    if (t_rng_next(seed) % 3 == 0) /* often in the plane z = 0 */
        t[0][2] = t[1][2] = t[2][2] = 0;
    if (t_rng_next(seed) % 8 == 0) /* sometimes a repeated corner */
        memcpy(t[2], t[t_rng_next(seed) % 2], sizeof t[2]);
    for (int i = 0; i < 3 && nudge; i++)
        for (int j = 0; j < 3; j++)
            if (t_rng_next(seed) % 6 == 0) {
                int steps = (int)(t_rng_next(seed) % 3) + 1;
                double dir = t_rng_next(seed) % 2 ? INFINITY : -INFINITY;
                if (t[i][j] == 0) /* not into the subnormals */
                    t[i][j] = (dir > 0 ? steps : -steps) * 0x1p-52;
                while (steps-- > 0 && t[i][j] != 0)
                    t[i][j] = nextafter(t[i][j], dir);
            }
}

/* n random pairs; counts the reference answers. */
static void random_family(uint64_t seed, int n, int range, int nudge, int counts[5])
{
    hs_result *r = hs_result_new();
    ck_assert_ptr_nonnull(r);
    for (int k = 0; k < n; k++) {
        tri p, q;
        random_triangle(&seed, range, nudge, p);
        random_triangle(&seed, range, nudge, q);
        hs_status want = lp_reference(CT(p), CT(q), r);
        ck_assert(want == HS_DISJOINT || want == HS_TOUCHING || want == HS_OVERLAP);
        counts[want]++;
        check_orders(CT(p), CT(q), want, "random", k % 8 != 0);
    }
    hs_result_free(r);
}

START_TEST(test_random_small_integers)
{
    int counts[5] = {0};
    random_family(1, 1500, 1, 0, counts);
    random_family(2, 1500, 2, 0, counts);
    random_family(3, 1000, 6, 0, counts);
    /* all three answers must be well represented */
    ck_assert_int_gt(counts[HS_DISJOINT], 300);
    ck_assert_int_gt(counts[HS_TOUCHING], 300);
    ck_assert_int_gt(counts[HS_OVERLAP], 300);
}
END_TEST

/* The same with some coordinates a few units in the last place off: the
 * contacts become near misses or tiny overlaps, which only exact signs
 * tell apart. */
START_TEST(test_random_nudged)
{
    int counts[5] = {0};
    random_family(4, 1500, 2, 1, counts);
    ck_assert_int_gt(counts[HS_DISJOINT], 100);
    ck_assert_int_gt(counts[HS_TOUCHING], 50);
    ck_assert_int_gt(counts[HS_OVERLAP], 100);
}
END_TEST

/* ------------------------------------------------ meshes */

typedef struct found {
    int ia, ib;
    hs_status st;
    double w[3];
} found;

typedef struct found_list {
    found *f;
    int n, cap, stop_after;
} found_list;

static int on_pair(void *user, int ia, int ib, hs_status st, const double w[3])
{
    found_list *l = user;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->f = realloc(l->f, sizeof *l->f * (size_t)l->cap);
        ck_assert_ptr_nonnull(l->f);
    }
    l->f[l->n++] = (found){ia, ib, st, {w[0], w[1], w[2]}};
    return l->stop_after > 0 && l->n >= l->stop_after;
}

static int found_cmp(const void *x, const void *y)
{
    const found *a = x, *b = y;
    if (a->ia != b->ia)
        return a->ia < b->ia ? -1 : 1;
    return a->ib < b->ib ? -1 : a->ib > b->ib;
}

/* Pairs by one method, sorted; *tests gets the count. */
static found_list run_pairs(const tri_mesh *a, const tri_mesh *b, const double T[16],
                            hs_tri_method method, long *tests)
{
    found_list l = {NULL, 0, 0, 0};
    ck_assert_int_eq(tri_mesh_pairs(a, b, T, method, on_pair, &l, tests), HS_OK);
    if (l.n > 0)
        qsort(l.f, (size_t)l.n, sizeof *l.f, found_cmp);
    return l;
}

/* Grid and raw agree exactly; returns the number of pairs. */
static int compare_methods(const tri_mesh *a, int na, const tri_mesh *b, int nb,
                           const double T[16], long *grid_tests)
{
    long traw = -1, tgrid = -1;
    found_list raw = run_pairs(a, b, T, HS_TRI_RAW, &traw);
    found_list grid = run_pairs(a, b, T, HS_TRI_GRID, &tgrid);
    ck_assert_int_eq(traw, (long)na * nb);
    ck_assert_int_le(tgrid, traw);
    ck_assert_int_eq(raw.n, grid.n);
    for (int i = 0; i < raw.n; i++) {
        const found *x = &raw.f[i], *y = &grid.f[i];
        EXPECT(x->ia == y->ia && x->ib == y->ib && x->st == y->st &&
                   memcmp(x->w, y->w, sizeof x->w) == 0,
               "pair %d: raw (%d %d %d) grid (%d %d %d)", i, x->ia, x->ib, x->st, y->ia, y->ib,
               y->st);
        EXPECT(i == 0 || found_cmp(x, x - 1) != 0, "pair %d %d reported twice", x->ia, x->ib);
    }
    int n = raw.n;
    free(raw.f);
    free(grid.f);
    if (grid_tests)
        *grid_tests = tgrid;
    return n;
}

/* A soup of n small random triangles in [0, span]^3 (flat: z = 0). */
static void random_soup(uint64_t *seed, int n, double span, double size, int flat, double *v,
                        int *t)
{
    for (int i = 0; i < n; i++) {
        double c[3];
        for (int d = 0; d < 3; d++)
            c[d] = (double)(t_rng_next(seed) >> 11) * 0x1p-53 * span;
        for (int k = 0; k < 3; k++) {
            for (int d = 0; d < 3; d++) {
                double off = ((double)(t_rng_next(seed) >> 11) * 0x1p-53 - 0.5) * size;
                v[9 * i + 3 * k + d] = flat && d == 2 ? 0 : c[d] + off;
            }
            t[3 * i + k] = 3 * i + k;
        }
    }
}

START_TEST(test_mesh_random)
{
    enum { NA = 300, NB = 250 };
    static double va[9 * NA], vb[9 * NB];
    static int ta[3 * NA], tb[3 * NB];
    uint64_t seed = 42;
    long total_pairs = 0, grid_tests = 0, raw_tests = 0;
    for (int round = 0; round < 6; round++) {
        int flat = round >= 4;
        random_soup(&seed, NA, 10, 1.5, flat, va, ta);
        random_soup(&seed, NB, 10, 1.5, flat, vb, tb);
        if (round == 3) /* a huge triangle among small ones */
            for (int d = 0; d < 3; d++)
                va[d] = -50 + 100 * d, va[3 + d] = 60 - 20 * d, va[6 + d] = 5;
        tri_mesh *a = tri_mesh_new(va, 3 * NA, ta, NA);
        tri_mesh *b = tri_mesh_new(vb, 3 * NB, tb, NB);
        ck_assert(a && b);
        double T[16];
        hs_error err;
        const double axis[3] = {1, 2, 3}, tr[3] = {0.5, -0.25, 0.125};
        if (flat)
            hs_pose_identity(T);
        else
            ck_assert_int_eq(hs_pose_from_axis_angle(T, axis, 0.3 * round, tr, &err), HS_OK);
        long gt = 0;
        total_pairs += compare_methods(a, NA, b, NB, T, &gt);
        grid_tests += gt;
        raw_tests += (long)NA * NB;
        tri_mesh_free(a);
        tri_mesh_free(b);
    }
    ck_assert_int_gt(total_pairs, 100);
    ck_assert_int_lt(grid_tests * 5, raw_tests);
}
END_TEST

/* Unit cube as 12 triangles. */
static const double cube_v[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                    {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
static const int cube_t[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7},
                                  {0, 1, 5}, {0, 5, 4}, {1, 2, 6}, {1, 6, 5},
                                  {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};

static int count_status(const tri_mesh *a, const tri_mesh *b, const double T[16],
                        hs_tri_method method, hs_status st, int *all)
{
    long tests;
    found_list l = run_pairs(a, b, T, method, &tests);
    int n = 0;
    for (int i = 0; i < l.n; i++)
        n += l.f[i].st == st;
    *all = l.n;
    free(l.f);
    return n;
}

START_TEST(test_mesh_cubes)
{
    tri_mesh *a = tri_mesh_new(&cube_v[0][0], 8, &cube_t[0][0], 12);
    ck_assert_ptr_nonnull(a);
    double T[16];
    const double corner[3] = {1, 1, 1}, inside[3] = {0.5, 0.25, 0.125}, far[3] = {3, 0, 0};
    const double none[3] = {0, 0, 0};
    for (int m = 0; m < 2; m++) {
        int all;
        hs_pose_from_rt(T, (const double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, corner);
        ck_assert_int_eq(count_status(a, a, T, (hs_tri_method)m, HS_OVERLAP, &all), 0);
        ck_assert_int_gt(all, 0); /* corner on corner: touching only */
        hs_pose_from_rt(T, (const double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, inside);
        ck_assert_int_gt(count_status(a, a, T, (hs_tri_method)m, HS_OVERLAP, &all), 0);
        hs_pose_from_rt(T, (const double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, far);
        count_status(a, a, T, (hs_tri_method)m, HS_OVERLAP, &all);
        ck_assert_int_eq(all, 0);
        hs_pose_from_rt(T, (const double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, none);
        ck_assert_int_gt(count_status(a, a, T, (hs_tri_method)m, HS_OVERLAP, &all), 0);
    }
    long tests = -1;
    hs_pose_from_rt(T, (const double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, far);
    free(run_pairs(a, a, T, HS_TRI_GRID, &tests).f);
    ck_assert_int_eq(tests, 0); /* boxes apart: no test at all */
    tri_mesh_free(a);
}
END_TEST

START_TEST(test_mesh_stop)
{
    tri_mesh *a = tri_mesh_new(&cube_v[0][0], 8, &cube_t[0][0], 12);
    ck_assert_ptr_nonnull(a);
    double T[16];
    hs_pose_identity(T);
    for (int m = 0; m < 2; m++) {
        found_list l = {NULL, 0, 0, 1};
        long tests = 0;
        ck_assert_int_eq(tri_mesh_pairs(a, a, T, (hs_tri_method)m, on_pair, &l, &tests), HS_OK);
        ck_assert_int_eq(l.n, 1);
        ck_assert_int_lt(tests, 144);
        free(l.f);
    }
    tri_mesh_free(a);
    const int bad[3] = {0, 1, 8};
    ck_assert_ptr_null(tri_mesh_new(&cube_v[0][0], 8, bad, 1));
}
END_TEST

/* Extreme magnitudes: one triangle spanning +-1e300 among unit ones; the
 * grid falls back to single cells and still finds what raw finds.  A pose
 * that maps a point beyond the double range is refused. */
START_TEST(test_mesh_extreme)
{
    const double va[] = {-1e300, -1e300, 0.5, 1e300, -1e300, 0.5, 0, 1e300, 0.5,
                         0, 0, 0, 1, 0, 0, 0, 1, 0};
    const int ta[] = {0, 1, 2, 3, 4, 5};
    const double vb[] = {0.2, 0.2, -1, 0.2, 0.2, 1, 0.6, 0.2, 1, 5, 5, 0, 6, 5, 1, 5, 6, 1};
    const int tb[] = {0, 1, 2, 3, 4, 5};
    tri_mesh *a = tri_mesh_new(va, 6, ta, 2), *b = tri_mesh_new(vb, 6, tb, 2);
    ck_assert(a && b);
    double T[16];
    hs_pose_identity(T);
    ck_assert_int_eq(compare_methods(a, 2, b, 2, T, NULL), 3);
    T[0] = T[5] = T[10] = 1e10; /* not a rigid pose, but the mapping overflows */
    found_list l = {NULL, 0, 0, 0};
    long tests = -1;
    ck_assert_int_eq(tri_mesh_pairs(b, a, T, HS_TRI_GRID, on_pair, &l, &tests), HS_ERR_ARG);
    ck_assert_int_eq(tests, 0);
    free(l.f);
    tri_mesh_free(a);
    tri_mesh_free(b);
}
END_TEST

Suite *suite_triangles(void)
{
    Suite *s = suite_create("triangles");
    TCase *tc = tcase_create("triangles");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_crossing_cases);
    tcase_add_test(tc, test_coplanar_cases);
    tcase_add_test(tc, test_degenerate_cases);
    tcase_add_test(tc, test_scaled_cases);
    tcase_add_test(tc, test_witness_null);
    tcase_add_test(tc, test_witness_values);
    tcase_add_test(tc, test_random_small_integers);
    tcase_add_test(tc, test_random_nudged);
    tcase_add_test(tc, test_mesh_random);
    tcase_add_test(tc, test_mesh_cubes);
    tcase_add_test(tc, test_mesh_stop);
    tcase_add_test(tc, test_mesh_extreme);
    suite_add_tcase(s, tc);
    return s;
}
