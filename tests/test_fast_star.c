/* test_fast_star.c -- the inner star of a polyhedron (solver/fast_star.c):
 * it never certifies a point that is not strictly inside (checked exactly,
 * at points up to and just past the boundary, on round, elongated,
 * unbounded, thin, tiny and huge polyhedra, in 1 to 4 variables), it is as
 * long as the inradius on a polyhedron tangent to a sphere, and a query
 * settles a deep overlap by the two stars with a witness strictly inside
 * both. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "polytope/predicates.h"
#include "solver/fast_prep.h"
#include "solver/fast_star.h"
#include "tests/helpers.h"

/* Exactly: every row of P strictly holds at x. */
static int strictly_inside(const hs_poly *P, const double *x)
{
    const double *A = P->a, *b = P->b;
    for (int i = 0; i < P->m; i++)
        if (pred_row_sign(A + 3 * i, x, b[i], 3, NULL) >= 0)
            return 0;
    return 1;
}

/* Where the ray from c along u leaves P (in doubles; INFINITY if never). */
static double ray_exit(const hs_poly *P, const double *c, const double *u)
{
    const double *A = P->a, *b = P->b;
    double best = INFINITY;
    for (int i = 0; i < P->m; i++) {
        const double *a = A + 3 * i;
        double along = a[0] * u[0] + a[1] * u[1] + a[2] * u[2];
        double slack = b[i] - (a[0] * c[0] + a[1] * c[1] + a[2] * c[2]);
        if (along > 0)
            best = fmin(best, slack / along);
    }
    return best;
}

/* Points along random rays, from the center to just past the boundary:
 * the star never says inside when an exact row test does not; returns
 * the share of points within half the exit distance it certified. */
static double star_is_sound(const hs_poly *P, uint64_t *rng, int samples)
{
    const fast_prep *fp = NULL;
    ck_assert_int_eq(fast_prep_get(P, &fp, NULL), 0);
    ck_assert_ptr_nonnull(fp);
    int near = 0, near_yes = 0;
    for (int k = 0; k < samples; k++) {
        double u[3], x[3], len;
        do {
            for (int j = 0; j < 3; j++)
                u[j] = t_rng_sym(rng);
            len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        } while (len < 0.1 || len > 1);
        for (int j = 0; j < 3; j++)
            u[j] /= len;
        double exit = ray_exit(P, fp->center, u);
        double f = k % 4 == 0 ? 1 + ldexp(t_rng_sym(rng), -(int)(t_rng_unit(rng) * 50))
                              : 1.2 * t_rng_unit(rng);
        double l = isfinite(exit) ? f * exit : ldexp(1, (int)(t_rng_unit(rng) * 60) - 20);
        for (int j = 0; j < 3; j++)
            x[j] = fp->center[j] + l * u[j];
        int yes = fast_star_inside(fp, x);
        EXPECT(!yes || strictly_inside(P, x),
               "the star certified a point that is not strictly inside (f = %.17g)", f);
        if (isfinite(exit) && f < 0.5) {
            near++;
            near_yes += yes;
        }
    }
    return near ? (double)near_yes / near : 1;
}

START_TEST(star_never_certifies_outside)
{
    uint64_t rng = 0x5eed0000ULL + (uint64_t)_i;
    static const double shape[] = {1, 0.5, 0.1};
    static const int rows[] = {12, 60, 250};
    static const double scale[] = {1, 0x1p-30, 0x1p+30};
    double c[3] = {0.75, -2.5, 1.25};
    for (int s = 0; s < 3; s++) {
        double cs[3] = {c[0] * scale[_i % 3], c[1] * scale[_i % 3], c[2] * scale[_i % 3]};
        hs_poly *P = t_ellipsoid_rows(rows[s], shape[_i], cs, scale[_i % 3], &rng);
        double share = star_is_sound(P, &rng, 3000);
        /* and it is worth having: most points within half way are certified */
        EXPECT(share > (shape[_i] == 1 ? 0.95 : 0.5), "%d rows, shape %g: only %.2f certified",
               rows[s], shape[_i], share);
        hs_poly_free(P);
    }
}
END_TEST

/* The same in 1, 2 and 4 variables: m random rows around a ball, points
 * along random rays to just past the boundary, checked exactly. */
START_TEST(star_is_sound_in_other_dimensions)
{
    static const int dims[] = {1, 2, 4};
    int n = dims[_i], m = 8 * n + 4;
    uint64_t rng = 1000 + (uint64_t)n;
    double *A = malloc(sizeof(double) * (size_t)(m * n)), *b = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < m; i++) {
        double r2 = 0;
        do {
            r2 = 0;
            for (int j = 0; j < n; j++) {
                A[i * n + j] = round(32 * t_rng_sym(&rng));
                r2 += A[i * n + j] * A[i * n + j];
            }
        } while (r2 == 0);
        b[i] = ldexp(ceil(ldexp(sqrt(r2) * (1 + t_rng_unit(&rng)), 10)), -10);
    }
    hs_error err;
    hs_poly *P = hs_poly_from_doubles(n, m, A, b, NULL, &err);
    ck_assert_msg(P != NULL, "%s", err.msg);
    const fast_prep *fp = NULL;
    ck_assert_int_eq(fast_prep_get(P, &fp, NULL), 0);
    ck_assert_ptr_nonnull(fp);
    int yes_count = 0;
    for (int k = 0; k < 4000; k++) {
        double u[8], x[8], len = 0, exit = INFINITY;
        for (int j = 0; j < n; j++) {
            u[j] = t_rng_sym(&rng);
            len += u[j] * u[j];
        }
        len = sqrt(len);
        if (len < 0.05)
            continue;
        for (int i = 0; i < m; i++) {
            double along = 0, slack = b[i];
            for (int j = 0; j < n; j++) {
                along += A[i * n + j] * u[j] / len;
                slack -= A[i * n + j] * fp->center[j];
            }
            if (along > 0)
                exit = fmin(exit, slack / along);
        }
        double f = k % 4 == 0 ? 1 + ldexp(t_rng_sym(&rng), -(int)(t_rng_unit(&rng) * 50))
                              : 1.2 * t_rng_unit(&rng);
        for (int j = 0; j < n; j++)
            x[j] = fp->center[j] + f * exit * u[j] / len;
        int yes = fast_star_inside(fp, x), inside = 1;
        for (int i = 0; i < m; i++)
            inside &= pred_row_sign(A + i * n, x, b[i], n, NULL) < 0;
        EXPECT(!yes || inside, "n = %d: the star certified a point that is not strictly inside", n);
        yes_count += yes;
    }
    EXPECT(yes_count > 500, "n = %d: the star certified only %d points", n, yes_count);
    hs_poly_free(P);
    free(A);
    free(b);
}
END_TEST

START_TEST(star_of_unbounded_and_thin_polyhedra)
{
    uint64_t rng = 99;
    /* an octant (unbounded: most cells meet no row), a slab 2^-20 thick
     * and a box */
    hs_poly *octant = t_poly("H-representation\nbegin\n3 4 real\n1 -1 0 0\n1 0 -1 0\n"
                             "1 0 0 -1\nend\n");
    hs_poly *slab = t_poly("H-representation\nbegin\n6 4 real\n1 -1 0 0\n1 1 0 0\n"
                           "1 0 -1 0\n1 0 1 0\n1/1048576 0 0 -1\n1/1048576 0 0 1\nend\n");
    hs_poly *box = t_poly(t_box_text(3, "-1", "3"));
    const hs_poly *all[] = {octant, slab, box};
    for (int k = 0; k < 3; k++)
        star_is_sound(all[k], &rng, 3000);
    hs_poly_free(octant);
    hs_poly_free(slab);
    hs_poly_free(box);
}
END_TEST

/* On a polyhedron tangent to the unit sphere every cell's length is at
 * least the inradius: points at 0.999 of it are all certified.  Along a
 * facet's normal, one part in 10^9 past its plane, none is. */
START_TEST(star_reaches_the_inradius_of_a_tangent_polyhedron)
{
    uint64_t rng = 7;
    double c[3] = {0.5, 0.25, -0.125};
    hs_poly *P = t_ellipsoid_rows(80, 1, c, 1, &rng);
    const fast_prep *fp = NULL;
    ck_assert_int_eq(fast_prep_get(P, &fp, NULL), 0);
    const double *A = P->a, *b = P->b;
    double inradius = INFINITY;
    for (int i = 0; i < P->m; i++) {
        const double *a = A + 3 * i;
        double norm = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        inradius = fmin(inradius, (b[i] - (a[0] * fp->center[0] + a[1] * fp->center[1] +
                                           a[2] * fp->center[2])) / norm);
    }
    for (int k = 0; k < 2000; k++) {
        double u[3], x[3], len;
        do {
            for (int j = 0; j < 3; j++)
                u[j] = t_rng_sym(&rng);
            len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        } while (len < 0.1 || len > 1);
        for (int j = 0; j < 3; j++)
            x[j] = fp->center[j] + 0.999 * inradius * u[j] / len;
        EXPECT(fast_star_inside(fp, x), "a point at 0.999 of the inradius is not certified");
    }
    for (int i = 0; i < P->m; i++) {
        const double *a = A + 3 * i;
        double norm = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]), x[3];
        double slack = b[i] - (a[0] * fp->center[0] + a[1] * fp->center[1] + a[2] * fp->center[2]);
        for (int j = 0; j < 3; j++)
            x[j] = fp->center[j] + (1 + 1e-9) * slack / norm * a[j] / norm;
        EXPECT(!fast_star_inside(fp, x), "row %d: a point past its plane is certified", i);
    }
    hs_poly_free(P);
}
END_TEST

static void keep_line(void *user, const char *line)
{
    if (strstr(line, "inner stars"))
        *(int *)user = 1;
}

/* Two deeply overlapping polyhedra: the query ends at the stars, and its
 * witness is exactly inside both; a pair near first contact gets the
 * exact engine's class. */
START_TEST(stars_settle_a_deep_overlap)
{
    uint64_t rng = 11;
    double o[3] = {0, 0, 0}, deep[3] = {1.25, 0.5, 0}, shallow[3] = {2.125, 0.0625, 0};
    hs_poly *A = t_ellipsoid_rows(60, 1, o, 1, &rng), *B = t_ellipsoid_rows(60, 1, deep, 1, &rng);
    hs_poly *C = t_ellipsoid_rows(60, 1, shallow, 1, &rng);
    hs_options opt;
    hs_options_init(&opt);
    int starred = 0;
    opt.trace = keep_line;
    opt.trace_user = &starred;
    hs_result *r = hs_result_new();
    hs_error err;
    ck_assert_int_eq(hs_intersect(A, B, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_OVERLAP);
    ck_assert(starred);
    double x[3];
    ck_assert_int_eq(hs_result_point(r, x), 0);
    ck_assert(strictly_inside(A, x) && strictly_inside(B, x));
    ck_assert_int_eq(hs_result_verify(r, A, B, &err), HS_OK);
    starred = 0;
    ck_assert_int_eq(hs_intersect(A, C, &opt, r, &err), HS_OK);
    hs_status fast = hs_result_status(r);
    opt.engine = HS_ENGINE_EXACT;
    ck_assert_int_eq(hs_intersect(A, C, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), fast);
    hs_result_free(r);
    hs_poly_free(A);
    hs_poly_free(B);
    hs_poly_free(C);
}
END_TEST

/* The cell of a direction (shared by the star and the direction map) is
 * floor((d_j / |d_k| + 1) g / 2) per coordinate, clamped to [0, g - 1]:
 * the same as that formula on random directions and on cell boundaries
 * (where the star's certified lengths depend on it), in 2 to 4 variables;
 * a NaN stays within the cells. */
static int cell_by_floor(int n, int g, const double *d)
{
    int k = 0;
    for (int j = 1; j < n; j++)
        if (fabs(d[j]) > fabs(d[k]))
            k = j;
    int cell = 2 * k + (d[k] < 0);
    for (int j = 0; j < n; j++)
        if (j != k) {
            int c = (int)floor((d[j] / fabs(d[k]) + 1) * 0.5 * g);
            cell = cell * g + (c < 0 ? 0 : c >= g ? g - 1 : c);
        }
    return cell;
}

START_TEST(cells_are_the_floor_formula)
{
    unsigned seed = 7;
    for (int n = 2; n <= 4; n++)
        for (int g = 1; g <= 16; g *= 2) {
            int cells = 2 * n;
            for (int j = 1; j < n; j++)
                cells *= g;
            for (int t = 0; t < 3000; t++) {
                double d[4];
                for (int j = 0; j < n; j++) {
                    seed = seed * 1103515245u + 12345u;
                    double u = (double)(seed >> 8) / (double)(1u << 24) * 2 - 1;
                    /* every third draw on a boundary between cells */
                    d[j] = t % 3 ? u : -1 + 2.0 * (double)((seed >> 4) % (unsigned)(g + 1)) / g;
                }
                d[t % n] = t % 2 ? 1 : -1; /* the largest coordinate */
                int cell = fast_prep_cell(n, g, d);
                ck_assert_int_eq(cell, cell_by_floor(n, g, d));
                ck_assert(cell >= 0 && cell < cells);
            }
            double nan_dir[4] = {1, NAN, NAN, NAN};
            int cell = fast_prep_cell(n, g, nan_dir);
            ck_assert(cell >= 0 && cell < cells);
        }
}
END_TEST

Suite *suite_fast_star(void)
{
    Suite *s = suite_create("fast_star");
    TCase *tc = tcase_create("fast_star");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, star_never_certifies_outside, 0, 3);
    tcase_add_loop_test(tc, star_is_sound_in_other_dimensions, 0, 3);
    tcase_add_test(tc, star_of_unbounded_and_thin_polyhedra);
    tcase_add_test(tc, star_reaches_the_inradius_of_a_tangent_polyhedron);
    tcase_add_test(tc, stars_settle_a_deep_overlap);
    tcase_add_test(tc, cells_are_the_floor_formula);
    suite_add_tcase(s, tc);
    return s;
}
