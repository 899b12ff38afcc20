/* test_hull_support.c -- the boxes of a hull piece without its vertices:
 * hull3_support_bounds (polytope/hull3_support.c) against the exact
 * vertices of the rows' polytope (solver/vertices.c), and the oriented box
 * obb_from_slabs makes from those bounds (polytope/obb_fit.c). */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "polytope/hull3.h"
#include "polytope/obb_fit.h"
#include "solver/fast_prep.h"
#include "solver/vertices.h"
#include "src/shape/geom.h"
#include "tests/helpers.h"

/* max over the exact vertices of u . q, and whether bound >= it exactly. */
static int bound_holds(const vertex_set *vs, const double u[3], double bound, double *max_d)
{
    mpq_t acc, t, ub;
    mpq_inits(acc, t, ub, NULL);
    mpq_set_d(ub, bound);
    int ok = 1;
    *max_d = -INFINITY;
    for (int v = 0; v < vs->nverts; v++) {
        mpq_set_ui(acc, 0, 1);
        for (int j = 0; j < 3; j++) {
            mpq_set_d(t, u[j]);
            mpq_mul(t, t, vs->q[3 * v + j]);
            mpq_add(acc, acc, t);
        }
        ok &= mpq_cmp(acc, ub) <= 0;
        double d = mpq_get_d(acc);
        *max_d = d > *max_d ? d : *max_d;
    }
    mpq_clears(acc, t, ub, NULL);
    return ok;
}

/* hull3_support_bounds against the exact vertices of the rows' polytope:
 * every bound holds every vertex (exactly) and lies within 1e-9 of the
 * largest; clouds on a sphere, in a box, on a cylinder (polygon caps:
 * directions along the axis are exact facet normals), a cube (every axis
 * direction a facet normal, every vertex on three facets) and a cone whose
 * apex has 80 facets (more than the search takes: its direction must
 * report failure or a valid bound, never a wrong one).  Directions: the
 * axes both ways, the rows' own normals, random ones.  Then the oriented
 * box from the slabs holds every vertex. */
START_TEST(support_bounds_hold_the_rows_polytope)
{
    uint64_t s = 2024 + (uint64_t)_i;
    int n = 0;
    double *pts = malloc(sizeof(double) * 3 * 400);
    for (int i = 0; i < 400; i++) {
        double *p = pts + 3 * i, th = 2 * M_PI * (i % 80) / 80.0;
        switch (_i) {
        case 0: /* sphere */
        case 1: { /* box cloud */
            for (int j = 0; j < 3; j++)
                p[j] = (t_rng_unit(&s) * 2 - 1) * (j + 1);
            double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
            for (int j = 0; _i == 0 && j < 3; j++)
                p[j] /= len;
            n = 300;
            break;
        }
        case 2: /* cylinder */
            p[0] = cos(th);
            p[1] = sin(th);
            p[2] = i < 80 ? 0 : 2;
            n = 160;
            break;
        case 3: /* cube with points on its faces */
            for (int j = 0; j < 3; j++)
                p[j] = i < 8 ? ((i >> j) & 1 ? 1 : -1) : t_rng_unit(&s) * 2 - 1;
            if (i >= 8)
                p[i % 3] = i % 2 ? 1 : -1;
            n = 100;
            break;
        default: /* cone: apex on 80 facets */
            p[0] = i < 80 ? cos(th) : 0;
            p[1] = i < 80 ? sin(th) : 0;
            p[2] = i < 80 ? 0 : 3;
            n = 81;
            break;
        }
    }
    hull3 *h = t_hull(pts, n);
    double *a, *b;
    hs_poly *P = t_hull_rows_poly(h, pts, &a, &b);
    double c[3] = {0, 0, 0};
    for (int i = 0; i < h->nverts; i++)
        for (int j = 0; j < 3; j++)
            c[j] += pts[3 * h->verts[i] + j] / h->nverts;
    vertex_set *vs = t_vertices(P, c);
    int ndirs = 6 + h->nfacets + 40, found = 0;
    for (int d = 0; d < ndirs; d++) {
        double u[3];
        for (int j = 0; j < 3; j++) {
            if (d < 6)
                u[j] = j == d / 2 ? (d % 2 ? -1 : 1) : 0;
            else if (d < 6 + h->nfacets)
                u[j] = a[3 * (d - 6) + j];
            else
                u[j] = t_rng_unit(&s) * 2 - 1;
        }
        double bound, max_d;
        if (hull3_support_bounds(h, pts, a, b, u, 1, &bound) != 0)
            continue;
        found++;
        EXPECT(bound_holds(vs, u, bound, &max_d), "cloud %d, direction %d: a vertex beyond %.17g",
               _i, d, bound);
        double scale = fabs(u[0]) + fabs(u[1]) + fabs(u[2]);
        EXPECT(bound - max_d <= 1e-9 * scale * 3, "cloud %d, direction %d: %.17g is %.3g above",
               _i, d, bound, bound - max_d);
    }
    if (_i < 4) /* every direction certified: only the cone's apex may fail */
        ck_assert_int_eq(found, ndirs);
    else
        ck_assert_int_ge(found, ndirs / 2);
    double fax[9], dirs[18], up[6];
    obb_fit_hull_frame(pts, n, h, fax);
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++) {
            dirs[6 * k + j] = fax[3 * k + j];
            dirs[6 * k + 3 + j] = -fax[3 * k + j];
        }
    if (hull3_support_bounds(h, pts, a, b, dirs, 6, up) == 0) {
        hs_obb box;
        double hi[3] = {up[0], up[2], up[4]}, lo[3] = {up[1], up[3], up[5]};
        obb_from_slabs(&box, fax, hi, lo);
        mpq_t acc, t, q;
        mpq_inits(acc, t, q, NULL);
        for (int v = 0; v < vs->nverts; v++)
            for (int k = 0; k < 3; k++) { /* |axis_k . (q - center)| <= half_k exactly */
                mpq_set_ui(acc, 0, 1);
                for (int j = 0; j < 3; j++) {
                    mpq_set_d(t, box.center[j]);
                    mpq_sub(q, vs->q[3 * v + j], t);
                    mpq_set_d(t, box.axis[k][j]);
                    mpq_mul(t, t, q);
                    mpq_add(acc, acc, t);
                }
                mpq_abs(acc, acc);
                mpq_set_d(t, box.half[k]);
                EXPECT(mpq_cmp(acc, t) <= 0, "cloud %d: vertex %d outside the box on axis %d", _i,
                       v, k);
            }
        mpq_clears(acc, t, q, NULL);
    } else
        ck_assert_int_eq(_i, 4);
    vertex_set_free(vs);
    hs_poly_free(P);
    hull3_free(h);
    free(a);
    free(b);
    free(pts);
}
END_TEST

/* A hull piece (geom_from_points) gets boxes that hold its rows' polytope
 * either way: from support bounds (a cloud on a sphere) or, when a
 * direction finds no certificate, from the vertex enumeration (a cone of
 * 100 sides, whose apex lies on more facets than the search takes): its
 * axis box then equals the enumeration's exactly.  Every exact vertex is
 * inside the axis box and the oriented box. */
START_TEST(hull_piece_boxes_either_way)
{
    uint64_t s = 77;
    double pts[3 * 101];
    int n = _i == 0 ? 60 : 101;
    for (int i = 0; i < n; i++) {
        double *p = pts + 3 * i;
        if (_i == 0) {
            for (int j = 0; j < 3; j++)
                p[j] = t_rng_unit(&s) * 2 - 1;
            double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
            for (int j = 0; j < 3; j++)
                p[j] /= len;
        } else {
            double th = 2 * M_PI * i / 100.0;
            p[0] = i < 100 ? cos(th) : 0;
            p[1] = i < 100 ? sin(th) : 0;
            p[2] = i < 100 ? 0 : 2;
        }
    }
    hs_error err;
    geom *g = geom_from_points(pts, n, &err);
    ck_assert_msg(g != NULL, "%s", err.msg);
    const fast_prep *fp = NULL;
    ck_assert_int_eq(fast_prep_get(g->poly, &fp, NULL), 0);
    ck_assert_ptr_nonnull(fp);
    vertex_set *vs = t_vertices(g->poly, fp->center);
    for (int j = 0; j < 3; j++) {
        double e[3] = {0, 0, 0}, m;
        e[j] = 1;
        ck_assert(bound_holds(vs, e, g->hi[j], &m));
        ck_assert(g->hi[j] - m <= 1e-12);
        e[j] = -1;
        ck_assert(bound_holds(vs, e, -g->lo[j], &m));
        if (_i == 1) /* the enumeration's own box */
            ck_assert(g->lo[j] == vs->lo[j] && g->hi[j] == vs->hi[j]);
    }
    mpq_t acc, t, q;
    mpq_inits(acc, t, q, NULL);
    for (int v = 0; v < vs->nverts; v++)
        for (int k = 0; k < 3; k++) {
            mpq_set_ui(acc, 0, 1);
            for (int j = 0; j < 3; j++) {
                mpq_set_d(t, g->obb.center[j]);
                mpq_sub(q, vs->q[3 * v + j], t);
                mpq_set_d(t, g->obb.axis[k][j]);
                mpq_mul(t, t, q);
                mpq_add(acc, acc, t);
            }
            mpq_abs(acc, acc);
            mpq_set_d(t, g->obb.half[k]);
            EXPECT(mpq_cmp(acc, t) <= 0, "cloud %d: vertex %d outside the oriented box", _i, v);
        }
    mpq_clears(acc, t, q, NULL);
    vertex_set_free(vs);
    geom_release(g);
}
END_TEST

Suite *suite_hull_support(void)
{
    Suite *s = suite_create("hull_support");
    TCase *tc = tcase_create("hull_support");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, support_bounds_hold_the_rows_polytope, 0, 5);
    tcase_add_loop_test(tc, hull_piece_boxes_either_way, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
