/* test_obb.c -- oriented boxes (seed 004): fit, transform, merge and
 * containment checked in exact rational arithmetic; the separating-axis
 * test against the exact engine (boxes written as exact half-space
 * systems); the distance lower bound against the world's distance; the
 * box of a body's piece; argument errors.
 *
 * A box is the set {c + sum_k s_k a_k : |s_k| <= h_k} of its stored
 * doubles.  Its exact H-representation uses the rows of (A^T)^-1, computed
 * here with GMP, so the reference answers do not depend on the code under
 * test. */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/obb.h"
#include "tests/helpers.h"


static void random_rotation(uint64_t *s, double R[9])
{
    double q[4] = {t_rng_sym(s), t_rng_sym(s), t_rng_sym(s), t_rng_sym(s)}, m[16];
    if (fabs(q[0]) + fabs(q[1]) + fabs(q[2]) + fabs(q[3]) < 0.1)
        q[0] = 1;
    hs_error err;
    ck_assert(hs_pose_from_quat(m, q, NULL, &err) == HS_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[3 * i + j] = m[4 * i + j];
}

static void set_box(hs_obb *b, const double c[3], const double R[9], const double h[3])
{
    for (int i = 0; i < 3; i++) {
        b->center[i] = c[i];
        b->half[i] = h[i];
        for (int j = 0; j < 3; j++)
            b->axis[i][j] = R ? R[3 * i + j] : i == j;
    }
}

/* ------------------------------------------------ exact reference */

/* Exact data of a box: W = (A^T)^-1 (rows w_i: s_i = w_i . (x - c)). */
typedef struct xbox {
    mpq_t w[9], c[3], h[3];
} xbox;

static void det3q(mpq_t out, mpq_t *m)
{
    mpq_t t, u;
    mpq_inits(t, u, NULL);
    mpq_set_ui(out, 0, 1);
    for (int j = 0; j < 3; j++) {
        int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        mpq_mul(t, m[3 + j1], m[6 + j2]);
        mpq_mul(u, m[3 + j2], m[6 + j1]);
        mpq_sub(t, t, u);
        mpq_mul(t, t, m[j]);
        mpq_add(out, out, t);
    }
    mpq_clears(t, u, NULL);
}

static void xbox_init(xbox *x, const hs_obb *b)
{
    mpq_t M[9], det, t, u;
    mpq_inits(det, t, u, NULL);
    for (int i = 0; i < 9; i++) {
        mpq_init(M[i]);
        mpq_init(x->w[i]);
        mpq_set_d(M[i], b->axis[i % 3][i / 3]); /* M = A^T: M[j][k] = a_k[j] */
    }
    for (int i = 0; i < 3; i++) {
        mpq_init(x->c[i]);
        mpq_init(x->h[i]);
        mpq_set_d(x->c[i], b->center[i]);
        mpq_set_d(x->h[i], b->half[i]);
    }
    det3q(det, M);
    ck_assert(mpq_sgn(det) != 0);
    /* inverse = adj / det: inv[i][j] = cofactor[j][i] / det */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int r1 = (j + 1) % 3, r2 = (j + 2) % 3, c1 = (i + 1) % 3, c2 = (i + 2) % 3;
            mpq_mul(t, M[3 * r1 + c1], M[3 * r2 + c2]);
            mpq_mul(u, M[3 * r1 + c2], M[3 * r2 + c1]);
            mpq_sub(t, t, u);
            mpq_div(x->w[3 * i + j], t, det);
        }
    for (int i = 0; i < 9; i++)
        mpq_clear(M[i]);
    mpq_clears(det, t, u, NULL);
}

static void xbox_clear(xbox *x)
{
    for (int i = 0; i < 9; i++)
        mpq_clear(x->w[i]);
    for (int i = 0; i < 3; i++) {
        mpq_clear(x->c[i]);
        mpq_clear(x->h[i]);
    }
}

/* Is the exact point p in the box? */
static int xbox_contains(const xbox *x, mpq_t *p)
{
    mpq_t s, t;
    mpq_inits(s, t, NULL);
    int in = 1;
    for (int i = 0; i < 3 && in; i++) {
        mpq_set_ui(s, 0, 1);
        for (int j = 0; j < 3; j++) {
            mpq_sub(t, p[j], x->c[j]);
            mpq_mul(t, t, x->w[3 * i + j]);
            mpq_add(s, s, t);
        }
        mpq_abs(s, s);
        in = mpq_cmp(s, x->h[i]) <= 0;
    }
    mpq_clears(s, t, NULL);
    return in;
}

/* Exact corner (sx, sy, sz in {-1, 1}) of box b, mapped by the pose m
 * (NULL: identity), into p. */
static void exact_corner(const hs_obb *b, int corner, const double *m, mpq_t *p)
{
    mpq_t t, v[3];
    mpq_init(t);
    for (int j = 0; j < 3; j++) {
        mpq_init(v[j]);
        mpq_set_d(v[j], b->center[j]);
        for (int k = 0; k < 3; k++) {
            mpq_set_d(t, b->half[k]);
            if (corner >> k & 1)
                mpq_neg(t, t);
            mpq_t a;
            mpq_init(a);
            mpq_set_d(a, b->axis[k][j]);
            mpq_mul(t, t, a);
            mpq_add(v[j], v[j], t);
            mpq_clear(a);
        }
    }
    for (int j = 0; j < 3; j++) {
        if (!m) {
            mpq_set(p[j], v[j]);
            continue;
        }
        mpq_set_d(p[j], m[4 * j + 3]);
        for (int k = 0; k < 3; k++) {
            mpq_set_d(t, m[4 * j + k]);
            mpq_mul(t, t, v[k]);
            mpq_add(p[j], p[j], t);
        }
    }
    for (int j = 0; j < 3; j++)
        mpq_clear(v[j]);
    mpq_clear(t);
}

/* Does box `out` contain every corner of `in` mapped by m? */
static int contains_box_exactly(const hs_obb *out, const hs_obb *in, const double *m)
{
    xbox x;
    xbox_init(&x, out);
    mpq_t p[3];
    for (int j = 0; j < 3; j++)
        mpq_init(p[j]);
    int ok = 1;
    for (int c = 0; c < 8 && ok; c++) {
        exact_corner(in, c, m, p);
        ok = xbox_contains(&x, p);
    }
    for (int j = 0; j < 3; j++)
        mpq_clear(p[j]);
    xbox_clear(&x);
    return ok;
}

static int contains_point_exactly(const hs_obb *b, const double *pt)
{
    xbox x;
    xbox_init(&x, b);
    mpq_t p[3];
    for (int j = 0; j < 3; j++) {
        mpq_init(p[j]);
        mpq_set_d(p[j], pt[j]);
    }
    int ok = xbox_contains(&x, p);
    for (int j = 0; j < 3; j++)
        mpq_clear(p[j]);
    xbox_clear(&x);
    return ok;
}

/* The box as an exact half-space system: +-w_i . x <= h_i +- w_i . c. */
static hs_poly *box_poly(const hs_obb *b)
{
    xbox x;
    xbox_init(&x, b);
    char *A[18], *B[6];
    mpq_t t, rhs;
    mpq_inits(t, rhs, NULL);
    for (int i = 0; i < 3; i++) {
        mpq_set_ui(rhs, 0, 1);
        for (int j = 0; j < 3; j++) {
            mpq_mul(t, x.w[3 * i + j], x.c[j]);
            mpq_add(rhs, rhs, t);
        }
        for (int sgn = 0; sgn < 2; sgn++) {
            int row = 2 * i + sgn;
            for (int j = 0; j < 3; j++) {
                mpq_set(t, x.w[3 * i + j]);
                if (sgn)
                    mpq_neg(t, t);
                A[3 * row + j] = mpq_get_str(NULL, 10, t);
            }
            mpq_set(t, rhs);
            if (sgn)
                mpq_neg(t, t);
            mpq_add(t, t, x.h[i]);
            B[row] = mpq_get_str(NULL, 10, t);
        }
    }
    hs_error err;
    hs_poly *p = hs_poly_from_strings(3, 6, (const char *const *)A, (const char *const *)B, NULL,
                                      &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    void (*gmp_free)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gmp_free);
    for (int k = 0; k < 18; k++)
        gmp_free(A[k], strlen(A[k]) + 1);
    for (int k = 0; k < 6; k++)
        gmp_free(B[k], strlen(B[k]) + 1);
    mpq_clears(t, rhs, NULL);
    xbox_clear(&x);
    return p;
}

static hs_status exact_status(const hs_obb *a, const hs_obb *b)
{
    hs_poly *pa = box_poly(a), *pb = box_poly(b);
    hs_result *r = hs_result_new();
    hs_options opt;
    hs_options_init(&opt);
    hs_error err;
    ck_assert_msg(hs_intersect(pa, pb, &opt, r, &err) == HS_OK, "%s", err.msg);
    hs_status st = hs_result_status(r);
    hs_result_free(r);
    hs_poly_free(pa);
    hs_poly_free(pb);
    return st;
}

/* The promise: 0 only for exactly disjoint boxes (both orders). */
static int checked_overlap(const hs_obb *a, const hs_obb *b)
{
    int o = hs_obb_overlap(a, b), o2 = hs_obb_overlap(b, a);
    if (o == 0 || o2 == 0)
        EXPECT(exact_status(a, b) == HS_DISJOINT, "boxes meet but the test said separated");
    return o && o2;
}

/* ------------------------------------------------------------- tests */

START_TEST(fit_errors)
{
    hs_obb box;
    hs_error err;
    double pts[6] = {0, 0, 0, 1, NAN, 2};
    ck_assert_int_eq(hs_obb_fit(&box, pts, 0, &err), HS_ERR_ARG);
    ck_assert(strstr(err.msg, "at least one point") != NULL);
    ck_assert_int_eq(hs_obb_fit(&box, pts, -3, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_obb_fit(&box, pts, 2, &err), HS_ERR_ARG);
    ck_assert_msg(strstr(err.msg, "coordinate 2 of point 1 is not finite") != NULL, "%s",
                  err.msg);
    pts[4] = INFINITY;
    ck_assert_int_eq(hs_obb_fit(&box, pts, 2, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_obb_fit(NULL, pts, 1, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_obb_fit(&box, NULL, 1, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_obb_fit(&box, pts, 1, NULL), HS_OK); /* first point is fine */
}
END_TEST

/* Point clouds (random, flat, on a line, single, duplicated) at scales
 * 1e-300 .. 1e12: every point inside, exactly. */
START_TEST(fit_contains_every_point)
{
    static const double scales[] = {1, 1e-300, 1e12, 3e-7, 1e150};
    uint64_t s = 11;
    double pts[3 * 60];
    for (int trial = 0; trial < 60; trial++) {
        double sc = scales[trial % 5], R[9];
        int n = 1 + (int)(t_rng_next(&s) % 60), kind = trial / 5 % 4;
        random_rotation(&s, R);
        double u0[3] = {0, 0, 0};
        for (int i = 0; i < n; i++) {
            double u[3] = {t_rng_sym(&s), t_rng_sym(&s) * 0.3, t_rng_sym(&s) * 0.05};
            if (kind == 1)
                u[2] = 0; /* coplanar */
            if (kind == 2)
                u[1] = u[2] = 0; /* collinear */
            if (kind == 3 && i % 3 == 0)
                memcpy(u, u0, sizeof u); /* duplicates */
            memcpy(u0, u, sizeof u);
            for (int j = 0; j < 3; j++)
                pts[3 * i + j] =
                    sc * (R[j] * u[0] + R[3 + j] * u[1] + R[6 + j] * u[2] + 0.25 * j);
        }
        hs_obb box;
        hs_error err;
        ck_assert_msg(hs_obb_fit(&box, pts, n, &err) == HS_OK, "%s", err.msg);
        for (int i = 0; i < n; i++) {
            EXPECT(contains_point_exactly(&box, pts + 3 * i), "trial %d point %d outside", trial,
                   i);
            EXPECT(hs_obb_contains(&box, pts + 3 * i), "contains() said no, trial %d", trial);
        }
        for (int k = 0; k < 3; k++)
            EXPECT(box.half[k] >= 0 && box.half[k] < 4 * sc, "trial %d n %d: half %g at scale %g",
                   trial, n, box.half[k], sc);
    }
}
END_TEST

/* The corners of a rotated 4 x 2 x 1 box: the fit finds (nearly) the box. */
START_TEST(fit_is_tight)
{
    uint64_t s = 5;
    for (int trial = 0; trial < 20; trial++) {
        double R[9], c[3] = {t_rng_sym(&s), t_rng_sym(&s), t_rng_sym(&s)}, h[3] = {2, 1, 0.5};
        random_rotation(&s, R);
        hs_obb ref, fit;
        set_box(&ref, c, R, h);
        double pts[24];
        for (int k = 0; k < 8; k++)
            for (int j = 0; j < 3; j++) {
                pts[3 * k + j] = c[j];
                for (int a = 0; a < 3; a++)
                    pts[3 * k + j] += (k >> a & 1 ? h[a] : -h[a]) * R[3 * a + j];
            }
        ck_assert(hs_obb_fit(&fit, pts, 8, NULL) == HS_OK);
        double vol = fit.half[0] * fit.half[1] * fit.half[2];
        EXPECT(vol <= 1.0000001, "trial %d: volume %.17g for a box of volume 1", trial, vol);
        /* a sphere-like cloud: no worse than the world-axis box */
    }
}
END_TEST

START_TEST(transform_contains_image)
{
    uint64_t s = 21;
    static const double scales[] = {1, 1e-300, 1e12};
    for (int trial = 0; trial < 150; trial++) {
        double sc = scales[trial % 3], R[9], Rm[9], m[16];
        double c[3] = {sc * t_rng_sym(&s), sc * t_rng_sym(&s), sc * t_rng_sym(&s)};
        double h[3] = {sc * t_rng_unit(&s), sc * t_rng_unit(&s), sc * t_rng_unit(&s) * 1e-9};
        double t[3] = {sc * t_rng_sym(&s) * 10, sc * t_rng_sym(&s), 0};
        random_rotation(&s, R);
        random_rotation(&s, Rm);
        hs_pose_from_rt(m, Rm, t);
        hs_obb in, out;
        set_box(&in, c, R, h);
        hs_obb_transform(&out, &in, m);
        EXPECT(contains_box_exactly(&out, &in, m), "trial %d: image not contained", trial);
        for (int k = 0; k < 3; k++)
            EXPECT(out.half[k] <= (in.half[0] + in.half[1] + in.half[2]) * 1.001 + 1e-300 * sc,
                   "trial %d: half %g too large", trial, out.half[k]);
        hs_obb_transform(&in, &in, m); /* aliasing */
        ck_assert(memcmp(&in, &out, sizeof in) == 0);
    }
    /* a pose with a scale: still contained */
    double m[16] = {2, 0, 0, 1, 0, 0.5, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1}, R[9], c[3] = {0.1, 0, 0},
           h[3] = {1, 2, 3};
    random_rotation(&s, R);
    hs_obb in, out;
    set_box(&in, c, R, h);
    hs_obb_transform(&out, &in, m);
    ck_assert(contains_box_exactly(&out, &in, m));
}
END_TEST

START_TEST(merge_contains_both)
{
    uint64_t s = 31;
    for (int trial = 0; trial < 100; trial++) {
        double sc = trial % 2 ? 1e12 : 1e-300, R1[9], R2[9];
        double c1[3] = {sc * t_rng_sym(&s), sc * t_rng_sym(&s), sc * t_rng_sym(&s)};
        double c2[3] = {sc * t_rng_sym(&s), sc * t_rng_sym(&s), sc * t_rng_sym(&s)};
        double h1[3] = {sc * t_rng_unit(&s), sc * t_rng_unit(&s), sc * t_rng_unit(&s)};
        double h2[3] = {sc * t_rng_unit(&s), sc * t_rng_unit(&s), 0};
        random_rotation(&s, R1);
        random_rotation(&s, R2);
        hs_obb a, b, m;
        set_box(&a, c1, R1, h1);
        set_box(&b, c2, trial % 5 ? R2 : R1, h2);
        hs_obb_merge(&m, &a, &b);
        EXPECT(contains_box_exactly(&m, &a, NULL), "trial %d: a not contained", trial);
        EXPECT(contains_box_exactly(&m, &b, NULL), "trial %d: b not contained", trial);
        hs_obb_merge(&a, &a, &b); /* aliasing */
        ck_assert(memcmp(&a, &m, sizeof a) == 0);
    }
    /* a box merged with itself stays (nearly) itself */
    double c[3] = {1, 2, 3}, h[3] = {1, 2, 3}, R[9];
    random_rotation(&s, R);
    hs_obb a, m;
    set_box(&a, c, R, h);
    hs_obb_merge(&m, &a, &a);
    for (int k = 0; k < 3; k++)
        ck_assert(m.half[k] >= h[k] && m.half[k] <= h[k] * (1 + 1e-12));
}
END_TEST

START_TEST(contains_points)
{
    double c[3] = {0, 0, 0}, h[3] = {1, 2, 3};
    hs_obb b;
    set_box(&b, c, NULL, h);
    double in[3] = {1, -2, 3}, out[3] = {1.0000001, 0, 0}, far[3] = {0, 0, 3.5},
           nan[3] = {NAN, 0, 0};
    ck_assert_int_eq(hs_obb_contains(&b, in), 1); /* on a corner */
    ck_assert_int_eq(hs_obb_contains(&b, out), 0);
    ck_assert_int_eq(hs_obb_contains(&b, far), 0);
    ck_assert_int_eq(hs_obb_contains(&b, nan), 1); /* never "certainly outside" */
    uint64_t s = 41;
    double R[9];
    random_rotation(&s, R);
    set_box(&b, c, R, h);
    for (int i = 0; i < 2000; i++) {
        double p[3] = {4 * t_rng_sym(&s), 4 * t_rng_sym(&s), 4 * t_rng_sym(&s)};
        if (!hs_obb_contains(&b, p))
            EXPECT(!contains_point_exactly(&b, p), "inside point reported outside");
    }
}
END_TEST

/* Exact contacts with axis-aligned boxes at three scales: face to face,
 * edge to edge, corner to corner, identical boxes, nested boxes; and the
 * smallest representable gap on each side. */
START_TEST(overlap_touching_cases)
{
    static const double scales[] = {1, 0x1p-997, 1e12};
    static const double off[][3] = {{2, 0, 0}, {2, 2, 0}, {2, 2, 2}, {0, 0, 0}, {0.5, 0, 0},
                                    {2, 0.5, -0.25}};
    for (int si = 0; si < 3; si++) {
        double sc = scales[si], h[3] = {sc, sc, sc}, c0[3] = {0, 0, 0};
        hs_obb a, b;
        set_box(&a, c0, NULL, h);
        for (unsigned k = 0; k < sizeof off / sizeof off[0]; k++) {
            double c[3] = {off[k][0] * sc, off[k][1] * sc, off[k][2] * sc};
            set_box(&b, c, NULL, h);
            EXPECT(checked_overlap(&a, &b) == 1, "case %u scale %g: touching said separated", k,
                   sc);
            ck_assert(hs_obb_distance_lower_bound(&a, &b) == 0);
            c[0] = nextafter(c[0], INFINITY);
            if (k < 3) {
                c[0] = off[k][0] * sc * 1.0000001;
                set_box(&b, c, NULL, h);
                EXPECT(checked_overlap(&a, &b) == 0, "case %u scale %g: gap 1e-7 not seen", k,
                       sc);
                double lb = hs_obb_distance_lower_bound(&a, &b), gap = c[0] - 2 * sc;
                EXPECT(lb <= gap && lb >= gap * 0.999, "lb %g gap %g", lb, gap);
            }
        }
    }
}
END_TEST

/* Parallel and nearly parallel edges: B is A rotated by a tiny angle about
 * A's first axis and moved along it so their faces (nearly) touch; the
 * cross products of parallel edges are (nearly) zero. */
START_TEST(overlap_parallel_edges)
{
    uint64_t s = 51;
    static const double angles[] = {0, 1e-300, 1e-17, 1e-12, 1e-6, 0.3};
    static const double shifts[] = {1, 1 - 1e-15, 1 + 1e-15, 1 + 1e-9, 0.999999};
    int seen_sep = 0;
    for (int trial = 0; trial < 12; trial++) {
        double R[9], c[3] = {t_rng_sym(&s), t_rng_sym(&s), t_rng_sym(&s)}, h[3] = {1, 0.5, 0.25};
        random_rotation(&s, R);
        hs_obb a;
        set_box(&a, c, R, h);
        for (unsigned ai = 0; ai < 6; ai++)
            for (unsigned si = 0; si < 5; si++) {
                double m[16], ax[3] = {R[0], R[1], R[2]}, cb[3];
                ck_assert(hs_pose_from_axis_angle(m, ax, angles[ai], NULL, NULL) == HS_OK);
                hs_obb b = a;
                for (int k = 0; k < 3; k++)
                    for (int j = 0; j < 3; j++)
                        b.axis[k][j] = m[4 * j] * a.axis[k][0] + m[4 * j + 1] * a.axis[k][1] +
                                       m[4 * j + 2] * a.axis[k][2];
                /* move along a.axis[1] by (h1 + h1) * shift: face to face */
                for (int j = 0; j < 3; j++)
                    cb[j] = c[j] + 2 * h[1] * shifts[si] * R[3 + j];
                memcpy(b.center, cb, sizeof cb);
                int o = checked_overlap(&a, &b);
                if (!o)
                    seen_sep++;
                if (shifts[si] < 1)
                    ck_assert_int_eq(o, 1);
            }
    }
    ck_assert(seen_sep > 0); /* a gap of 1e-9 is certified at least sometimes */
}
END_TEST

/* Random rotated pairs, many close to contact, against the exact engine;
 * boxes clearly apart must be found separated. */
START_TEST(overlap_random_vs_exact)
{
    uint64_t s = 61;
    int sep = 0, meet = 0;
    for (int trial = 0; trial < 600; trial++) {
        double R1[9], R2[9], sc = trial % 3 == 0 ? 1e12 : trial % 3 == 1 ? 1e-300 : 1;
        random_rotation(&s, R1);
        random_rotation(&s, R2);
        double h1[3] = {sc * (0.1 + t_rng_unit(&s)), sc * (0.1 + t_rng_unit(&s)), sc * 0.2};
        double h2[3] = {sc * (0.1 + t_rng_unit(&s)), sc * 0.3, sc * (0.1 + t_rng_unit(&s))};
        double c1[3] = {0, 0, 0}, c2[3], dir[3] = {t_rng_sym(&s), t_rng_sym(&s), t_rng_sym(&s)};
        double len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
        double dist = sc * (0.3 + 2.5 * t_rng_unit(&s));
        for (int j = 0; j < 3; j++)
            c2[j] = dir[j] / len * dist;
        hs_obb a, b;
        set_box(&a, c1, R1, h1);
        set_box(&b, c2, R2, h2);
        int o = checked_overlap(&a, &b);
        hs_status st = exact_status(&a, &b);
        if (o)
            meet++;
        else
            sep++;
        if (st == HS_DISJOINT && !o) {
            double lb = hs_obb_distance_lower_bound(&a, &b);
            EXPECT(lb > 0, "separated but no positive distance bound");
        }
        /* disjoint with a clear gap along some axis: must be found.  We
         * check the converse cheaply: when the test says 1, shrinking B
         * by 1e-6 of its size must not make the exact answer disjoint by
         * a margin larger than the rounding bounds (i.e. we only demand
         * that the exact answer is not disjoint for a slightly larger B) */
        if (o && st == HS_DISJOINT) {
            hs_obb big = b;
            for (int k = 0; k < 3; k++)
                big.half[k] += sc * 1e-9;
            EXPECT(exact_status(&a, &big) != HS_DISJOINT,
                   "trial %d: clearly disjoint but not separated", trial);
        }
    }
    ck_assert(sep > 50 && meet > 50);
}
END_TEST

/* The lower bound never exceeds the world's distance between the boxes as
 * bodies (built from the exact corners' hull). */
START_TEST(distance_lower_bound_vs_world)
{
    uint64_t s = 71;
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *ba = hs_world_add_body(w, "a", 0, &err), *bb = hs_world_add_body(w, "b", 0, &err);
    double size[3] = {2, 1, 0.5};
    ck_assert(hs_body_add_box(ba, size, NULL, &err) == HS_OK);
    ck_assert(hs_body_add_box(bb, size, NULL, &err) == HS_OK);
    int positive = 0;
    for (int trial = 0; trial < 200; trial++) {
        double R1[9], R2[9], t1[3] = {0, 0, 0}, t2[3], m1[16], m2[16];
        random_rotation(&s, R1);
        random_rotation(&s, R2);
        for (int j = 0; j < 3; j++)
            t2[j] = 3 * t_rng_sym(&s);
        hs_pose_from_rt(m1, R1, t1);
        hs_pose_from_rt(m2, R2, t2);
        ck_assert(hs_body_set_pose(ba, m1, &err) == HS_OK);
        ck_assert(hs_body_set_pose(bb, m2, &err) == HS_OK);
        hs_obb a, b, oa, ob;
        ck_assert(hs_body_piece_obb(ba, 0, &oa, &err) == HS_OK);
        ck_assert(hs_body_piece_obb(bb, 0, &ob, &err) == HS_OK);
        hs_obb_transform(&a, &oa, m1);
        hs_obb_transform(&b, &ob, m2);
        double d, pa[3], pb[3];
        ck_assert_msg(hs_world_distance(w, ba, bb, &d, pa, pb, &err) == HS_OK, "%s", err.msg);
        double lb = hs_obb_distance_lower_bound(&a, &b);
        /* the boxes contain the pieces, so their distance is at most d;
         * the world's d is computed in doubles: allow its rounding */
        EXPECT(lb <= d * (1 + 1e-9) + 1e-12, "trial %d: lower bound %.17g > distance %.17g",
               trial, lb, d);
        if (lb > 0)
            positive++;
        if (lb > 0)
            ck_assert_int_eq(hs_obb_overlap(&a, &b), 0);
    }
    ck_assert(positive > 20);
    hs_world_free(w);
}
END_TEST

START_TEST(piece_obb_of_bodies)
{
    hs_world *w = hs_world_new();
    hs_error err;
    hs_body *b = hs_world_add_body(w, "b", 0, &err);
    hs_obb box;
    ck_assert_int_eq(hs_body_piece_obb(b, 0, &box, &err), HS_ERR_ARG);
    ck_assert_msg(strstr(err.msg, "piece 0 out of range") != NULL, "%s", err.msg);
    double size[3] = {2, 4, 6}, place[16], R[9];
    uint64_t s = 81;
    random_rotation(&s, R);
    double t[3] = {1, 2, 3};
    hs_pose_from_rt(place, R, t);
    ck_assert(hs_body_add_box(b, size, place, &err) == HS_OK);
    double tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int idx[3] = {0, 1, 2};
    ck_assert(hs_body_add_mesh(b, tri, 3, idx, 1, NULL, &err) == HS_OK);
    ck_assert_int_eq(hs_body_piece_obb(b, -1, &box, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_body_piece_obb(b, 2, &box, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_body_piece_obb(NULL, 0, &box, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_body_piece_obb(b, 0, NULL, &err), HS_ERR_ARG);
    ck_assert(hs_body_piece_obb(b, 0, &box, &err) == HS_OK);
    double vol = 8 * box.half[0] * box.half[1] * box.half[2];
    ck_assert_msg(vol >= 48 && vol < 48 * 1.000001, "volume %g", vol);
    int is_convex, nv, nf, *fs, *fv;
    double *v;
    ck_assert(hs_body_piece_boundary(b, 0, &is_convex, &v, &nv, &fs, &fv, &nf, &err) == HS_OK);
    for (int i = 0; i < nv; i++)
        ck_assert(contains_point_exactly(&box, v + 3 * i));
    hs_free(v);
    hs_free(fs);
    hs_free(fv);
    ck_assert(hs_body_piece_obb(b, 1, &box, &err) == HS_OK);
    for (int i = 0; i < 3; i++)
        ck_assert(contains_point_exactly(&box, tri + 3 * i));
    /* flat, up to the 2^-30 margin kept for rows mapped into other frames */
    ck_assert(box.half[0] * box.half[1] * box.half[2] < 1e-8);
    hs_world_free(w);
}
END_TEST

/* Frames far from orthonormal and non-finite numbers: never "separated". */
START_TEST(bad_boxes_are_maybe)
{
    double c[3] = {0, 0, 0}, far[3] = {100, 0, 0}, h[3] = {1, 1, 1};
    hs_obb a, b;
    set_box(&a, c, NULL, h);
    set_box(&b, far, NULL, h);
    ck_assert_int_eq(hs_obb_overlap(&a, &b), 0);
    a.axis[0][0] = 1.01; /* not orthonormal */
    ck_assert_int_eq(hs_obb_overlap(&a, &b), 1);
    ck_assert(hs_obb_distance_lower_bound(&a, &b) == 0);
    set_box(&a, c, NULL, h);
    b.center[1] = NAN;
    ck_assert_int_eq(hs_obb_overlap(&a, &b), 1);
    ck_assert_int_eq(hs_obb_overlap(&b, &a), 1);
    b.center[1] = INFINITY;
    ck_assert_int_eq(hs_obb_overlap(&a, &b), 1);
    b.center[1] = 0;
    b.half[2] = NAN;
    ck_assert_int_eq(hs_obb_overlap(&a, &b), 1);
    /* huge but finite: 1e308 apart overflows the difference */
    set_box(&a, c, NULL, h);
    double big[3] = {1.7e308, 0, 0}, nbig[3] = {-1.7e308, 0, 0};
    set_box(&a, big, NULL, h);
    set_box(&b, nbig, NULL, h);
    ck_assert_int_eq(hs_obb_overlap(&a, &b), 1);
    /* the fast core with a parallelotope that is not a rotation */
    double ha[3] = {1, 1, 1}, R[9] = {2, 0, 0, 0, 1, 1, 0, 0, 1}, t[3] = {3.5, 0, 0},
           hb[3] = {0.25, 1, 1};
    ck_assert_int_eq(obb_overlap_frame(ha, R, t, hb), 0); /* 3.5 - 0.5 > 1 */
    t[0] = 1.5;                                            /* 1.5 - 0.5 = 1: touching */
    ck_assert_int_eq(obb_overlap_frame(ha, R, t, hb), 1);
}
END_TEST

/* The fast core on general (non-orthogonal) matrices: B is the
 * parallelotope {t + R s}, exact reference by the exact engine. */
START_TEST(core_general_matrices_vs_exact)
{
    uint64_t s = 101;
    int sep = 0;
    for (int trial = 0; trial < 300; trial++) {
        double R[9], t[3], ha[3], hb[3], c0[3] = {0, 0, 0};
        for (int k = 0; k < 9; k++)
            R[k] = t_rng_sym(&s) * (trial % 7 == 0 ? 1e-3 : 1);
        if (trial % 5 == 0) { /* a rotation, slightly perturbed */
            random_rotation(&s, R);
            R[4] *= 1 + 1e-13;
        }
        for (int k = 0; k < 3; k++) {
            t[k] = 3 * t_rng_sym(&s);
            ha[k] = 0.1 + t_rng_unit(&s);
            hb[k] = trial % 11 == 0 && k == 2 ? 0 : 0.1 + t_rng_unit(&s);
        }
        double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                     R[2] * (R[3] * R[7] - R[4] * R[6]);
        if (fabs(det) < 1e-6)
            continue; /* the reference needs an invertible basis */
        hs_obb a, b;
        set_box(&a, c0, NULL, ha);
        set_box(&b, t, NULL, hb);
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++)
                b.axis[k][j] = R[3 * j + k]; /* edge k = column k of R */
        int o = obb_overlap_frame(ha, R, t, hb);
        if (!o) {
            sep++;
            EXPECT(exact_status(&a, &b) == HS_DISJOINT, "trial %d: core said separated", trial);
            EXPECT(obb_gap_frame(ha, R, t, hb) > 0, "trial %d: separated without a gap", trial);
        } else {
            ck_assert(obb_gap_frame(ha, R, t, hb) == 0);
        }
    }
    ck_assert(sep > 30);
}
END_TEST

/* The posed variant agrees with transforming first. */
START_TEST(posed_matches_transform)
{
    uint64_t s = 91;
    int misses = 0;
    for (int trial = 0; trial < 300; trial++) {
        double R1[9], R2[9], Rm[9], m[16], t[3] = {t_rng_sym(&s), t_rng_sym(&s), t_rng_sym(&s)};
        double c[3] = {0, 0, 0}, h[3] = {0.5, 0.4, 0.3};
        random_rotation(&s, R1);
        random_rotation(&s, R2);
        random_rotation(&s, Rm);
        hs_pose_from_rt(m, Rm, t);
        hs_obb a, b, bm;
        set_box(&a, c, R1, h);
        set_box(&b, c, R2, h);
        hs_obb_transform(&bm, &b, m);
        int p = obb_overlap_posed(&a, &b, m), q = hs_obb_overlap(&a, &bm);
        if (p == 0)
            EXPECT(exact_status(&a, &bm) == HS_DISJOINT || q == 0, "posed said separated");
        misses += q == 0 && p == 1; /* possible only within rounding of contact */
    }
    ck_assert_int_le(misses, 3);
}
END_TEST

Suite *suite_obb(void)
{
    Suite *s = suite_create("obb");
    TCase *tc = tcase_create("obb");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fit_errors);
    tcase_add_test(tc, fit_contains_every_point);
    tcase_add_test(tc, fit_is_tight);
    tcase_add_test(tc, transform_contains_image);
    tcase_add_test(tc, merge_contains_both);
    tcase_add_test(tc, contains_points);
    tcase_add_test(tc, overlap_touching_cases);
    tcase_add_test(tc, overlap_parallel_edges);
    tcase_add_test(tc, overlap_random_vs_exact);
    tcase_add_test(tc, distance_lower_bound_vs_world);
    tcase_add_test(tc, piece_obb_of_bodies);
    tcase_add_test(tc, bad_boxes_are_maybe);
    tcase_add_test(tc, posed_matches_transform);
    tcase_add_test(tc, core_general_matrices_vs_exact);
    suite_add_tcase(s, tc);
    return s;
}
