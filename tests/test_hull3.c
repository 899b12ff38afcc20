/* test_hull3.c -- the exact 3-D convex hull (polytope/hull3.c) and the
 * vertex enumeration built on it (solver/vertices.c), and the box fit
 * with a given hull (polytope/obb_fit.h).
 *
 * Every property is checked in exact arithmetic by the test itself (GMP
 * rationals), independently of the predicates under test: orientation
 * signs, conservative rows, vertices satisfying rows, tight rows.  The
 * tangent-sphere polytopes come from bench/tangent.c, which the unit-test
 * binary already contains (test_tangent.c compiles it in). */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/tangent.h"
#include "polytope/hpoly.h"
#include "polytope/hull3.h"
#include "polytope/obb_fit.h"
#include "polytope/predicates.h"
#include "solver/vertices.h"
#include "tests/helpers.h"

/* ------------------------------------------------------------ helpers */

/* ck_assert records every success (a write per call); the loops below
 * make hundreds of thousands of checks, so they report failures only. */

/* Sign of det[a - d; b - d; c - d] computed exactly here, negated to the
 * pred_orient3d convention (+1: d above the plane of a, b, c). */
static int exact_orient(const double *a, const double *b, const double *c, const double *d)
{
    mpq_t e[9], t, u, det;
    const double *p[3] = {a, b, c};
    mpq_inits(t, u, det, NULL);
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 3; j++) {
            mpq_init(e[3 * r + j]);
            mpq_set_d(t, p[r][j]);
            mpq_set_d(u, d[j]);
            mpq_sub(e[3 * r + j], t, u);
        }
    mpq_mul(t, e[4], e[8]);
    mpq_mul(u, e[5], e[7]);
    mpq_sub(t, t, u);
    mpq_mul(det, e[0], t);
    mpq_mul(t, e[3], e[8]);
    mpq_mul(u, e[5], e[6]);
    mpq_sub(t, t, u);
    mpq_mul(t, e[1], t);
    mpq_sub(det, det, t);
    mpq_mul(t, e[3], e[7]);
    mpq_mul(u, e[4], e[6]);
    mpq_sub(t, t, u);
    mpq_mul(t, e[2], t);
    mpq_add(det, det, t);
    int s = -mpq_sgn(det);
    for (int i = 0; i < 9; i++)
        mpq_clear(e[i]);
    mpq_clears(t, u, det, NULL);
    return s;
}

/* Sign of a . p - b, exactly (doubles). */
static int exact_row_sign(const double *a, double b, const double *p)
{
    mpq_t acc, t, x;
    mpq_inits(acc, t, x, NULL);
    for (int j = 0; j < 3; j++) {
        mpq_set_d(t, a[j]);
        mpq_set_d(x, p[j]);
        mpq_mul(t, t, x);
        mpq_add(acc, acc, t);
    }
    mpq_set_d(t, b);
    int s = mpq_cmp(acc, t);
    mpq_clears(acc, t, x, NULL);
    return (s > 0) - (s < 0);
}

/* The same with a quick floating-point answer when it is clearly safe:
 * |fl(a.p - b) - (a.p - b)| <= 5u (sum |a_j p_j| + |b|) for 3-vectors. */
static int row_sign(const double *a, double b, const double *p)
{
    double d = a[0] * p[0] + a[1] * p[1] + a[2] * p[2] - b;
    double mag = fabs(a[0] * p[0]) + fabs(a[1] * p[1]) + fabs(a[2] * p[2]) + fabs(b);
    if (d < -8 * 0x1p-53 * mag - 0x1p-1000)
        return -1;
    return exact_row_sign(a, b, p);
}

static const char *hull_error(const double *pts, int n, hs_code want)
{
    static hs_error err;
    hull3 *h = NULL;
    hs_error_clear(&err);
    ck_assert_int_eq(hull3_points(pts, n, &h, &err), want);
    ck_assert_ptr_null(h);
    return err.msg;
}

static const double *pt(const double *pts, int i) { return pts + 3 * (size_t)i; }

/* Facet f is planar, convex (no three consecutive corners collinear) and
 * every point lies on or below it, all checked exactly. */
static void check_facet(const hull3 *h, const double *pts, int n, int f)
{
    int s = h->facet_start[f], e = h->facet_start[f + 1], k = e - s;
    const int *c = h->facet_vert + s;
    EXPECT(k >= 3, "facet %d has %d corners", f, k);
    int off = -1;
    for (int p = 0; p < n; p++) { /* pred_orient3d: see orient3d_near_degenerate */
        int o = pred_orient3d(pt(pts, c[0]), pt(pts, c[1]), pt(pts, c[2]), pt(pts, p));
        EXPECT(o <= 0, "point %d is above facet %d", p, f);
        if (o < 0)
            off = p;
    }
    EXPECT(off >= 0, "facet %d: every point on its plane", f);
    for (int i = 0; i < k; i++) {
        const double *u = pt(pts, c[i]), *v = pt(pts, c[(i + 1) % k]), *w = pt(pts, c[(i + 2) % k]);
        EXPECT(exact_orient(u, v, w, pt(pts, off)) < 0,
                      "facet %d: corners not strictly convex counterclockwise", f);
    }
}

/* The neighbour across corner i -> i+1 has the reverse edge. */
static void check_neighbours(const hull3 *h, int f)
{
    int s = h->facet_start[f], e = h->facet_start[f + 1];
    for (int i = s; i < e; i++) {
        int a = h->facet_vert[i], b = h->facet_vert[i + 1 < e ? i + 1 : s], g = h->facet_nb[i];
        EXPECT(g >= 0 && g < h->nfacets && g != f, "facet %d: bad neighbour %d", f, g);
        int gs = h->facet_start[g], ge = h->facet_start[g + 1], found = 0;
        for (int j = gs; j < ge; j++)
            if (h->facet_vert[j] == b && h->facet_vert[j + 1 < ge ? j + 1 : gs] == a)
                found = 1;
        EXPECT(found, "facet %d: neighbour %d lacks the reverse edge", f, g);
    }
}

/* Everything a hull of pts[0..n) must satisfy, plus its conservative rows. */
static void check_hull(const hull3 *h, const double *pts, int n)
{
    EXPECT(h->npoints == n, "npoints %d", h->npoints);
    EXPECT(h->nverts - h->nedges + h->nfacets == 2, "Euler's formula fails");
    EXPECT(2 * h->nedges == h->facet_start[h->nfacets], "edge count");
    for (int i = 0; i < h->nverts; i++) {
        EXPECT(h->verts[i] >= 0 && h->verts[i] < n, "vertex index %d out of range", i);
        if (i > 0)
            EXPECT(h->verts[i - 1] < h->verts[i], "vertices not ascending at %d", i);
    }
    for (int f = 0; f < h->nfacets; f++) {
        check_facet(h, pts, n, f);
        check_neighbours(h, f);
    }
    double *a = malloc(sizeof(double) * 3 * (size_t)h->nfacets);
    double *b = malloc(sizeof(double) * (size_t)h->nfacets);
    hs_error err;
    EXPECT(hull3_rows(h, pts, a, b, &err) == HS_OK, "%s", err.msg);
    for (int f = 0; f < h->nfacets; f++)
        for (int p = 0; p < n; p++)
            EXPECT(row_sign(a + 3 * f, b[f], pt(pts, p)) <= 0,
                          "point %d violates conservative row %d", p, f);
    free(a);
    free(b);
}

/* Is index p among the hull vertices? */
static int is_hull_vertex(const hull3 *h, int p)
{
    for (int i = 0; i < h->nverts; i++)
        if (h->verts[i] == p)
            return 1;
    return 0;
}

/* ------------------------------------------------------------ predicates */

/* Points on the plane x + y + z = 1 moved by a few units in the last
 * place: the floating-point determinant is useless there, the answer
 * must still be the exact one. */
START_TEST(orient3d_near_degenerate)
{
    uint64_t s = 7;
    const double a[3] = {1, 0, 0}, b[3] = {0, 1, 0}, c[3] = {0, 0, 1};
    int signs[3] = {0, 0, 0};
    for (int i = 0; i < 2000; i++) {
        double x = t_rng_unit(&s) * 8 - 4, y = t_rng_unit(&s) * 8 - 4;
        double d[3] = {x, y, 1 - x - y};
        int ulps = (int)(t_rng_next(&s) % 7) - 3;
        for (int k = 0; k < abs(ulps); k++)
            d[2] = nextafter(d[2], ulps > 0 ? INFINITY : -INFINITY);
        int want = exact_orient(a, b, c, d);
        ck_assert_int_eq(pred_orient3d(a, b, c, d), want);
        signs[want + 1]++;
        /* the same four points, scaled far apart in magnitude */
        double big[4][3];
        const double *src[4] = {a, b, c, d};
        for (int r = 0; r < 4; r++)
            for (int j = 0; j < 3; j++)
                big[r][j] = ldexp(src[r][j], 400);
        ck_assert_int_eq(pred_orient3d(big[0], big[1], big[2], big[3]), want);
    }
    ck_assert(signs[0] > 0 && signs[1] > 0 && signs[2] > 0);
}
END_TEST

/* det4 of rows (p, 1) equals -orient; rows with tiny and huge entries go
 * through the exact path. */
START_TEST(det4_matches_orientation)
{
    uint64_t s = 11;
    for (int i = 0; i < 1000; i++) {
        double p[4][4];
        for (int r = 0; r < 4; r++) {
            for (int j = 0; j < 3; j++)
                p[r][j] = floor(t_rng_unit(&s) * 16) - 8;
            p[r][3] = 1;
        }
        if (i % 3 == 0) /* make the fourth point coplanar with the others */
            for (int j = 0; j < 3; j++)
                p[3][j] = p[0][j] + 2 * (p[1][j] - p[0][j]) - (p[2][j] - p[0][j]);
        int o = exact_orient(p[0], p[1], p[2], p[3]);
        ck_assert_int_eq(-pred_det4_rows(p[0], p[1], p[2], p[3]), o);
        for (int r = 0; r < 4; r++)
            p[r][3] = 0x1p-600; /* scaled homogeneous rows: same sign */
        ck_assert_int_eq(-pred_det4_rows(p[0], p[1], p[2], p[3]), o);
    }
}
END_TEST

/* ------------------------------------------------------------ hulls */

START_TEST(hull_cube_with_extra_points)
{
    /* 8 corners, then the center, an edge midpoint, a face center, a
     * point inside a face, and duplicates of a corner and of the center */
    double pts[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1,
                    0.5, 0.5, 0.5, 0.5, 0, 0, 0.5, 0.5, 1, 0.25, 1, 0.75, 1, 1, 1, 0.5, 0.5, 0.5};
    int n = (int)(sizeof pts / sizeof pts[0]) / 3;
    hull3 *h = t_hull(pts, n);
    ck_assert_int_eq(h->nverts, 8);
    ck_assert_int_eq(h->nfacets, 6);
    ck_assert_int_eq(h->nedges, 12);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(h->verts[i], i);
    for (int f = 0; f < 6; f++)
        ck_assert_int_eq(h->facet_start[f + 1] - h->facet_start[f], 4);
    check_hull(h, pts, n);
    /* axis-aligned faces: the conservative rows are exact here */
    double a[18], b[6];
    ck_assert_int_eq(hull3_rows(h, pts, a, b, NULL), HS_OK);
    for (int f = 0; f < 6; f++) {
        int axis = fabs(a[3 * f]) == 1 ? 0 : fabs(a[3 * f + 1]) == 1 ? 1 : 2;
        ck_assert(fabs(a[3 * f + axis]) == 1);
        ck_assert(b[f] == (a[3 * f + axis] > 0 ? 1 : 0));
    }
    hull3_free(h);
}
END_TEST

START_TEST(hull_tetrahedron_and_octahedron)
{
    double tet[] = {0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 3, 1, 1, 1, 0, 1, 1};
    hull3 *h = t_hull(tet, 6);
    ck_assert_int_eq(h->nverts, 4);
    ck_assert_int_eq(h->nfacets, 4);
    ck_assert(!is_hull_vertex(h, 4) && !is_hull_vertex(h, 5)); /* interior, on a face */
    check_hull(h, tet, 6);
    hull3_free(h);
    double oct[] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0};
    h = t_hull(oct, 7);
    ck_assert_int_eq(h->nverts, 6);
    ck_assert_int_eq(h->nfacets, 8);
    ck_assert_int_eq(h->nedges, 12);
    check_hull(h, oct, 7);
    hull3_free(h);
}
END_TEST

/* Random clouds: in a cube, on a sphere (rounded, so nearly cospherical),
 * and on a small integer grid (massively degenerate: the hull is the
 * grid's bounding box). */
START_TEST(hull_random_clouds)
{
    uint64_t s = 1000 + (uint64_t)_i;
    int n = 50 + 150 * _i;
    double *pts = malloc(sizeof(double) * 3 * (size_t)n);
    for (int kind = 0; kind < 3; kind++) {
        for (int i = 0; i < n; i++) {
            double *p = pts + 3 * i;
            for (int j = 0; j < 3; j++)
                p[j] = kind == 2 ? floor(t_rng_unit(&s) * 4) : t_rng_unit(&s) * 2 - 1;
            double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
            if (kind == 1 && len > 0)
                for (int j = 0; j < 3; j++)
                    p[j] /= len;
        }
        if (kind == 2) /* make sure every corner of the grid box is present */
            for (int c = 0; c < 8; c++)
                for (int j = 0; j < 3; j++)
                    pts[3 * c + j] = (c >> j & 1) ? 3 : 0;
        memcpy(pts + 3 * (n - 1), pts + 3 * (n / 2), 3 * sizeof(double)); /* a duplicate */
        hull3 *h = t_hull(pts, n);
        check_hull(h, pts, n);
        if (kind == 2) {
            ck_assert_int_eq(h->nverts, 8);
            ck_assert_int_eq(h->nfacets, 6);
        }
        hull3_free(h);
    }
    free(pts);
}
END_TEST

START_TEST(hull_degenerate_inputs)
{
    double plane[] = {0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 2, 2, 3, 5, 0.5, 0.25, 0.75};
    ck_assert_ptr_nonnull(strstr(hull_error(plane, 6, HS_ERR_INPUT), "points are coplanar"));
    double line[] = {0, 0, 0, 1, 2, 3, 2, 4, 6, -1, -2, -3, 0.5, 1, 1.5};
    ck_assert_ptr_nonnull(strstr(hull_error(line, 5, HS_ERR_INPUT), "points are collinear"));
    double three[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0};
    ck_assert_ptr_nonnull(
        strstr(hull_error(three, 6, HS_ERR_INPUT), "fewer than 4 distinct points"));
    double same[] = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
    ck_assert_ptr_nonnull(
        strstr(hull_error(same, 4, HS_ERR_INPUT), "fewer than 4 distinct points"));
    ck_assert_ptr_nonnull(strstr(hull_error(same, 3, HS_ERR_ARG), "at least 4"));
    double bad[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NAN};
    ck_assert_ptr_nonnull(strstr(hull_error(bad, 4, HS_ERR_ARG), "non-finite"));
    /* a solid whose first points are degenerate: the exact scan finds it */
    double late[] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    hull3 *h = t_hull(late, 7);
    check_hull(h, late, 7);
    hull3_free(h);
}
END_TEST

/* ------------------------------------------------------------ vertices */

static const char *enum_error(const hs_poly *P, const double *interior, hs_code want)
{
    static hs_error err;
    vertex_set *vs = NULL;
    hs_error_clear(&err);
    ck_assert_int_eq(vertex_enum(P, interior, &vs, &err), want);
    ck_assert_ptr_null(vs);
    return err.msg;
}

/* Exact rows of P: m*4 rationals (a_i, b_i); free with free_rows. */
static mpq_t *rows_q(const hs_poly *P)
{
    int m = hs_poly_rows(P);
    mpq_t *q = malloc(sizeof(mpq_t) * 4 * (size_t)m);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < 4; j++) {
            mpq_init(q[4 * i + j]);
            hpoly_get_q(P, i, j, q[4 * i + j]);
        }
    return q;
}

static void free_rows(mpq_t *q, int m)
{
    for (int i = 0; i < 4 * m; i++)
        mpq_clear(q[i]);
    free(q);
}

/* Everything a vertex set of P must satisfy, checked exactly: every
 * vertex satisfies every row, the tight rows are listed (ascending, at
 * least 3), the box contains the vertices, the doubles are within an
 * ulp, Euler's formula holds, and the facet rows are tight somewhere. */
static void check_vertices(const vertex_set *vs, const hs_poly *P)
{
    int m = hs_poly_rows(P);
    mpq_t *q = rows_q(P), acc, t;
    mpq_inits(acc, t, NULL);
    EXPECT(vs->m == m, "m %d", vs->m);
    EXPECT(vs->nverts - vs->nedges + vs->nfacets == 2, "Euler's formula fails");
    for (int v = 0; v < vs->nverts; v++) {
        int k = vs->tight_start[v];
        for (int i = 0; i < m; i++) {
            mpq_set_ui(acc, 0, 1);
            for (int j = 0; j < 3; j++) {
                mpq_mul(t, q[4 * i + j], vs->q[3 * v + j]);
                mpq_add(acc, acc, t);
            }
            int s = mpq_cmp(acc, q[4 * i + 3]);
            EXPECT(s <= 0, "vertex %d violates row %d", v, i);
            if (s == 0) {
                EXPECT(k < vs->tight_start[v + 1] && vs->tight[k] == i,
                              "vertex %d: row %d is tight but not listed", v, i);
                k++;
            }
        }
        EXPECT(k == vs->tight_start[v + 1], "vertex %d: a listed row is not tight", v);
        EXPECT(vs->tight_start[v + 1] - vs->tight_start[v] >= 3, "vertex %d: < 3 tight rows", v);
        for (int j = 0; j < 3; j++) {
            mpq_set_d(t, vs->lo[j]);
            EXPECT(mpq_cmp(t, vs->q[3 * v + j]) <= 0, "vertex %d below the box", v);
            mpq_set_d(t, vs->hi[j]);
            EXPECT(mpq_cmp(t, vs->q[3 * v + j]) >= 0, "vertex %d above the box", v);
            double d = mpq_get_d(vs->q[3 * v + j]);
            EXPECT(fabs(vs->x[3 * v + j] - d) <= fabs(d) * 0x1p-52, "vertex %d: bad double", v);
        }
    }
    for (int e = 0; e < vs->nedges; e++)
        EXPECT(vs->edges[2 * e] < vs->edges[2 * e + 1] && vs->edges[2 * e + 1] < vs->nverts,
               "bad edge %d", e);
    int facets = 0;
    for (int i = 0; i < m; i++)
        facets += vs->is_facet[i];
    EXPECT(facets == vs->nfacets, "facet count %d", facets);
    mpq_clears(acc, t, NULL);
    free_rows(q, m);
}

static hs_poly *poly_rows(int m, const char *rows)
{
    static char text[4096];
    snprintf(text, sizeof text, "H-representation\nbegin\n%d 4 real\n%send\n", m, rows);
    return t_poly(text);
}

/* The cube [-1,1]^3 (rows written b -a), plus a redundant row x <= 2, a
 * duplicate of y <= 1 scaled by 3, a redundant row through the corner
 * (1,1,1) and the row 0 <= 0. */
static const char cube_rows[] = "1 -1 0 0\n1 1 0 0\n1 0 -1 0\n1 0 1 0\n1 0 0 -1\n1 0 0 1\n";
static const char extra_rows[] = "2 -1 0 0\n3 0 -3 0\n3 -1 -1 -1\n0 0 0 0\n";

START_TEST(vertices_cube_with_redundant_rows)
{
    char rows[512];
    snprintf(rows, sizeof rows, "%s%s", cube_rows, extra_rows);
    hs_poly *P = poly_rows(10, rows);
    vertex_set *vs = t_vertices(P, NULL);
    ck_assert_int_eq(vs->nverts, 8);
    ck_assert_int_eq(vs->nedges, 12);
    ck_assert_int_eq(vs->nfacets, 6);
    ck_assert(!vs->is_facet[6] && !vs->is_facet[8] && !vs->is_facet[9]);
    ck_assert(vs->is_facet[2] + vs->is_facet[7] == 1); /* one of the duplicates */
    for (int j = 0; j < 3; j++)
        ck_assert(vs->lo[j] == -1 && vs->hi[j] == 1);
    check_vertices(vs, P);
    int corner = -1; /* (1,1,1): tight on x, y (twice), z, the cut and 0 <= 0 */
    for (int v = 0; v < vs->nverts; v++)
        if (vs->x[3 * v] == 1 && vs->x[3 * v + 1] == 1 && vs->x[3 * v + 2] == 1)
            corner = v;
    ck_assert_int_ge(corner, 0);
    ck_assert_int_eq(vs->tight_start[corner + 1] - vs->tight_start[corner], 6);
    vertex_set_free(vs);
    const double center[3] = {0.5, -0.25, 0};
    vs = t_vertices(P, center); /* same answer from a given interior point */
    ck_assert_int_eq(vs->nverts, 8);
    check_vertices(vs, P);
    vertex_set_free(vs);
    hs_poly_free(P);
}
END_TEST

START_TEST(vertices_tetrahedron_and_octahedron)
{
    /* x, y, z >= -1/10 and x + y + z <= 3/10: the numbers are not doubles */
    hs_poly *T = poly_rows(4, "0.1 1 0 0\n0.1 0 1 0\n0.1 0 0 1\n0.3 -1 -1 -1\n");
    vertex_set *vs = t_vertices(T, NULL);
    ck_assert_int_eq(vs->nverts, 4);
    ck_assert_int_eq(vs->nedges, 6);
    check_vertices(vs, T);
    mpq_t tenth;
    mpq_init(tenth);
    mpq_set_si(tenth, -1, 10);
    int exact_corner = 0; /* (-1/10, -1/10, -1/10) exactly */
    for (int v = 0; v < 4; v++)
        exact_corner |= mpq_equal(vs->q[3 * v], tenth) && mpq_equal(vs->q[3 * v + 1], tenth) &&
                        mpq_equal(vs->q[3 * v + 2], tenth);
    ck_assert(exact_corner);
    mpq_clear(tenth);
    vertex_set_free(vs);
    hs_poly_free(T);
    hs_poly *O = poly_rows(8, "1 -1 -1 -1\n1 -1 -1 1\n1 -1 1 -1\n1 -1 1 1\n"
                              "1 1 -1 -1\n1 1 -1 1\n1 1 1 -1\n1 1 1 1\n");
    vs = t_vertices(O, NULL);
    ck_assert_int_eq(vs->nverts, 6);
    ck_assert_int_eq(vs->nedges, 12);
    ck_assert_int_eq(vs->nfacets, 8);
    for (int v = 0; v < 6; v++)
        ck_assert_int_eq(vs->tight_start[v + 1] - vs->tight_start[v], 4);
    check_vertices(vs, O);
    vertex_set_free(vs);
    hs_poly_free(O);
}
END_TEST

/* A pyramid over a 12-gon (integer corners on the circle of radius 5) with
 * apex (0,0,1): 12 side rows meet at the apex, whose dual facet merges
 * many coplanar triangles; z <= 1 twice and x + 10 z <= 10 are redundant rows
 * through the apex, tight there only. */
START_TEST(vertices_pyramid_apex)
{
    static const int corner[12][2] = {{5, 0},  {4, 3},   {3, 4},   {0, 5},  {-3, 4}, {-4, 3},
                                      {-5, 0}, {-4, -3}, {-3, -4}, {0, -5}, {3, -4}, {4, -3}};
    char rows[1024] = "", line[64];
    for (int k = 0; k < 12; k++) { /* the side through corner k and k+1: a.x + z <= 1 */
        int x0 = corner[k][0], y0 = corner[k][1];
        int x1 = corner[(k + 1) % 12][0], y1 = corner[(k + 1) % 12][1];
        int nx = y1 - y0, ny = x0 - x1, d = nx * x0 + ny * y0; /* outward, n . c = d */
        snprintf(line, sizeof line, "%d %d %d %d\n", d, -nx, -ny, -d);
        strcat(rows, line);
    }
    strcat(rows, "0 0 0 1\n1 0 0 -1\n2 0 0 -2\n10 -1 0 -10\n");
    hs_poly *P = poly_rows(16, rows);
    vertex_set *vs = t_vertices(P, NULL);
    ck_assert_int_eq(vs->nverts, 13);
    ck_assert_int_eq(vs->nfacets, 13);
    ck_assert_int_eq(vs->nedges, 24);
    check_vertices(vs, P);
    int apex = -1;
    for (int v = 0; v < vs->nverts; v++)
        if (mpq_cmp_ui(vs->q[3 * v + 2], 1, 1) == 0)
            apex = v;
    ck_assert_int_ge(apex, 0);
    ck_assert_int_eq(vs->tight_start[apex + 1] - vs->tight_start[apex], 15);
    ck_assert(!vs->is_facet[13] && !vs->is_facet[14] && !vs->is_facet[15]);
    vertex_set_free(vs);
    hs_poly_free(P);
}
END_TEST

/* Tangent-sphere polytopes of the benchmarks: 2m - 4 vertices when every
 * vertex is simple. */
START_TEST(vertices_tangent_polytopes)
{
    int m = _i == 0 ? 60 : _i == 1 ? 100 : 250;
    hs_poly *A, *B;
    double cB[3];
    ck_assert_int_eq(tangent_pair(5, _i, m, m, &A, &B, cB, NULL), HS_OK);
    vertex_set *va = t_vertices(A, NULL), *vb = t_vertices(B, cB);
    check_vertices(va, A);
    check_vertices(vb, B);
    ck_assert_int_le(va->nverts, 2 * m - 4);
    ck_assert_int_gt(va->nfacets, m / 2);
    vertex_set_free(va);
    vertex_set_free(vb);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(vertices_input_errors)
{
    /* an open box (no z <= 1) */
    hs_poly *P = poly_rows(5, "1 -1 0 0\n1 1 0 0\n1 0 -1 0\n1 0 1 0\n1 0 0 1\n");
    ck_assert_ptr_nonnull(strstr(enum_error(P, NULL, HS_ERR_INPUT), "unbounded"));
    hs_poly_free(P);
    /* a slab, a half-space: fewer than 4 normals */
    P = poly_rows(2, "1 -1 0 0\n1 1 0 0\n");
    ck_assert_ptr_nonnull(strstr(enum_error(P, NULL, HS_ERR_INPUT), "unbounded"));
    hs_poly_free(P);
    /* x <= 0 and x >= 1 */
    P = poly_rows(8, "0 -1 0 0\n-1 1 0 0\n1 0 -1 0\n1 0 1 0\n1 0 0 -1\n1 0 0 1\n"
                     "1 1 0 0\n1 -1 0 0\n");
    ck_assert_ptr_nonnull(strstr(enum_error(P, NULL, HS_ERR_INPUT), "empty"));
    hs_poly_free(P);
    P = poly_rows(7, "1 -1 0 0\n1 1 0 0\n1 0 -1 0\n1 0 1 0\n1 0 0 -1\n1 0 0 1\n-1 0 0 0\n");
    ck_assert_ptr_nonnull(strstr(enum_error(P, NULL, HS_ERR_INPUT), "empty"));
    hs_poly_free(P);
    /* the square z = 0 of the cube: flat */
    P = poly_rows(6, "1 -1 0 0\n1 1 0 0\n1 0 -1 0\n1 0 1 0\n0 0 0 -1\n0 0 0 1\n");
    ck_assert_ptr_nonnull(strstr(enum_error(P, NULL, HS_ERR_INPUT), "not full-dimensional"));
    hs_poly_free(P);
    P = t_poly("H-representation\nbegin\n4 3 rational\n1 -1 0\n1 1 0\n1 0 -1\n1 0 1\nend\n");
    ck_assert_ptr_nonnull(strstr(enum_error(P, NULL, HS_ERR_INPUT), "needs 3"));
    hs_poly_free(P);
    P = t_poly("H-representation\nlinearity 1 6\nbegin\n6 4 rational\n"
               "1 -1 0 0\n1 1 0 0\n1 0 -1 0\n1 0 1 0\n1 0 0 -1\n0 0 0 1\nend\n");
    ck_assert_ptr_nonnull(strstr(enum_error(P, NULL, HS_ERR_INPUT), "row 6 is an equality"));
    hs_poly_free(P);
    P = poly_rows(6, cube_rows);
    const double on_face[3] = {1, 0, 0}, bad[3] = {0, NAN, 0};
    ck_assert_ptr_nonnull(strstr(enum_error(P, on_face, HS_ERR_ARG), "not strictly inside"));
    ck_assert_ptr_nonnull(strstr(enum_error(P, bad, HS_ERR_ARG), "non-finite"));
    ck_assert_int_eq(vertex_enum(NULL, NULL, NULL, NULL), HS_ERR_ARG);
    hs_poly_free(P);
}
END_TEST


/* ------------------------------------------------ roundings, clusters */

/* The largest double <= q, the smallest >= q and the nearest (ties to
 * even), by exact comparisons around mpq_get_d (within an ulp of q). */
static void round_q(const mpq_t q, double *nearest, double *down, double *up)
{
    double d = mpq_get_d(q), c[3] = {nextafter(d, -INFINITY), d, nextafter(d, INFINITY)};
    mpq_t t, u;
    mpq_inits(t, u, NULL);
    *down = -INFINITY;
    *up = INFINITY;
    for (int i = 0; i < 3; i++) {
        mpq_set_d(t, c[i]);
        int cmp = mpq_cmp(t, q);
        if (cmp <= 0 && c[i] > *down)
            *down = c[i];
        if (cmp >= 0 && c[i] < *up)
            *up = c[i];
    }
    *nearest = *down;
    if (*down != *up) { /* compare q - down with up - q */
        mpq_set_d(t, *down);
        mpq_set_d(u, *up);
        mpq_add(t, t, u);
        mpq_set(u, q);
        mpq_add(u, u, q); /* 2q against down + up */
        int c2 = mpq_cmp(u, t);
        int e;
        double odd = fmod(ldexp(frexp(*down, &e), 53), 2);
        if (c2 > 0 || (c2 == 0 && odd != 0))
            *nearest = *up;
    }
    if (*nearest == 0)
        *nearest = 0.0;
    mpq_clears(t, u, NULL);
}

/* vs (vertex_enum) and vd (vertex_enum_doubles) agree field by field; the
 * doubles are the nearest roundings of the exact vertices, the box is
 * made of their directed roundings. */
static void check_roundings(const vertex_set *vs, const vertex_set *vd)
{
    ck_assert_ptr_null(vd->q);
    EXPECT(vd->nverts == vs->nverts && vd->nedges == vs->nedges && vd->nfacets == vs->nfacets,
           "vertex_enum_doubles: other counts");
    EXPECT(memcmp(vd->x, vs->x, sizeof(double) * 3 * (size_t)vs->nverts) == 0,
           "vertex_enum_doubles: other doubles");
    EXPECT(memcmp(vd->lo, vs->lo, sizeof vs->lo) == 0 && memcmp(vd->hi, vs->hi, sizeof vs->hi) == 0,
           "vertex_enum_doubles: other box");
    EXPECT(memcmp(vd->tight_start, vs->tight_start, sizeof(int) * ((size_t)vs->nverts + 1)) == 0 &&
               memcmp(vd->tight, vs->tight, sizeof(int) * (size_t)vs->tight_start[vs->nverts]) ==
                   0 &&
               memcmp(vd->edges, vs->edges, sizeof(int) * 2 * (size_t)vs->nedges) == 0 &&
               memcmp(vd->is_facet, vs->is_facet, (size_t)vs->m) == 0,
           "vertex_enum_doubles: other combinatorics");
    double lo[3], hi[3];
    for (int v = 0; v < vs->nverts; v++)
        for (int j = 0; j < 3; j++) {
            double n, d, u;
            round_q(vs->q[3 * v + j], &n, &d, &u);
            EXPECT(vs->x[3 * v + j] == n, "vertex %d, coordinate %d: %a is not the nearest %a", v,
                   j, vs->x[3 * v + j], n);
            lo[j] = v == 0 || d < lo[j] ? d : lo[j];
            hi[j] = v == 0 || u > hi[j] ? u : hi[j];
        }
    EXPECT(memcmp(lo, vs->lo, sizeof lo) == 0 && memcmp(hi, vs->hi, sizeof hi) == 0,
           "the box is not made of the directed roundings");
}

static int cmp_triple(const void *x, const void *y)
{
    const double *a = x, *b = y;
    for (int j = 0; j < 3; j++)
        if (a[j] != b[j])
            return a[j] < b[j] ? -1 : 1;
    return 0;
}

/* A polytope from the conservative rows of the hull of pts, and a point
 * inside it (the mean of the hull's vertices). */
static hs_poly *hull_poly(const double *pts, int n, double c[3])
{
    hull3 *h = t_hull(pts, n);
    double *a = malloc(sizeof(double) * 3 * (size_t)h->nfacets);
    double *b = malloc(sizeof(double) * (size_t)h->nfacets);
    hs_error err;
    EXPECT(hull3_rows(h, pts, a, b, &err) == HS_OK, "%s", err.msg);
    hs_poly *P = hs_poly_from_doubles(3, h->nfacets, a, b, NULL, &err);
    EXPECT(P != NULL, "%s", err.msg);
    c[0] = c[1] = c[2] = 0;
    for (int i = 0; i < h->nverts; i++)
        for (int j = 0; j < 3; j++)
            c[j] += pts[3 * h->verts[i] + j] / h->nverts;
    free(a);
    free(b);
    hull3_free(h);
    return P;
}

/* Rows of the hulls of points on a sphere (moved outward by a rounding,
 * so that planes nearly meet in one point: the nearly singular
 * determinants of the dual hull), of random clouds, of clouds scaled by
 * 2^+-300 per axis, and of small-integer grids (exactly concurrent
 * planes): the vertices are checked exactly, the doubles and the box are
 * the exact roundings, vertex_enum_doubles agrees.  Then the hull of the
 * rounded vertices (clusters of points within a few ulps, as hs_obb_fit
 * meets them) is checked exactly. */
START_TEST(vertices_rounded_and_clustered)
{
    uint64_t s = 77 + (uint64_t)_i;
    int n = 40 + 60 * _i;
    double *pts = malloc(sizeof(double) * 3 * (size_t)n);
    for (int kind = 0; kind < 4; kind++) {
        int e[3] = {0, 0, 0};
        if (kind == 2)
            for (int j = 0; j < 3; j++)
                e[j] = (int)(t_rng_unit(&s) * 600) - 300;
        for (int i = 0; i < n; i++) {
            double *p = pts + 3 * i;
            for (int j = 0; j < 3; j++)
                p[j] = kind == 3 ? floor(t_rng_unit(&s) * 5) : t_rng_unit(&s) * 2 - 1;
            double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
            for (int j = 0; j < 3; j++) {
                if (kind == 0 && len > 0)
                    p[j] /= len;
                p[j] = ldexp(p[j], e[j]);
            }
        }
        hull3 *h0 = t_hull(pts, n);
        check_hull(h0, pts, n);
        hull3_free(h0);
        double c[3];
        hs_poly *P = hull_poly(pts, n, c);
        vertex_set *vs = t_vertices(P, c), *vd = NULL, *vl = t_vertices(P, NULL);
        hs_error err;
        EXPECT(vertex_enum_doubles(P, c, &vd, &err) == HS_OK, "%s", err.msg);
        check_vertices(vs, P);
        check_roundings(vs, vd);
        check_vertices(vl, P); /* the interior point from the LP: same set */
        EXPECT(vl->nverts == vs->nverts, "kind %d: another interior point, other count", kind);
        double *xs = malloc(sizeof(double) * 3 * (size_t)vs->nverts);
        double *xl = malloc(sizeof(double) * 3 * (size_t)vs->nverts);
        memcpy(xs, vs->x, sizeof(double) * 3 * (size_t)vs->nverts);
        memcpy(xl, vl->x, sizeof(double) * 3 * (size_t)vs->nverts);
        qsort(xs, (size_t)vs->nverts, 3 * sizeof(double), cmp_triple);
        qsort(xl, (size_t)vs->nverts, 3 * sizeof(double), cmp_triple);
        EXPECT(memcmp(xs, xl, sizeof(double) * 3 * (size_t)vs->nverts) == 0,
               "kind %d: another interior point gives other vertices", kind);
        free(xs);
        free(xl);
        if (vs->nverts >= 4 && kind != 2) {
            hull3 *h = t_hull(vs->x, vs->nverts);
            check_hull(h, vs->x, vs->nverts);
            hull3_free(h);
        }
        vertex_set_free(vs);
        vertex_set_free(vd);
        vertex_set_free(vl);
        hs_poly_free(P);
    }
    free(pts);
}
END_TEST


/* A vertex exactly halfway between two doubles: x - y <= 2^53 and y <= 1
 * meet at x = 2^53 + 1, which rounds to the even 2^53; the box takes
 * 2^53 and 2^53 + 2.  Also x = 2^53 - 5 (a double) at y = -5. */
START_TEST(vertices_rounding_ties)
{
    double a[18] = {1, -1, 0, 0, 1, 0, 0, 0, 1, -1, 0, 0, 0, -1, 0, 0, 0, -1};
    double b[6] = {0x1p53, 1, 0, -(0x1p53 - 8), 5, 1};
    hs_error err;
    hs_poly *P = hs_poly_from_doubles(3, 6, a, b, NULL, &err);
    EXPECT(P != NULL, "%s", err.msg);
    double c[3] = {0x1p53 - 4, -2, -0.5};
    vertex_set *vs = t_vertices(P, c), *vd = NULL, *vl = t_vertices(P, NULL);
    EXPECT(vertex_enum_doubles(P, c, &vd, &err) == HS_OK, "%s", err.msg);
    check_vertices(vs, P);
    check_roundings(vs, vd);
    int tie = 0;
    mpq_t half_way;
    mpq_init(half_way);
    mpz_set_d(mpq_numref(half_way), 0x1p53);
    mpz_add_ui(mpq_numref(half_way), mpq_numref(half_way), 1); /* 2^53 + 1, over 1 */
    for (int v = 0; v < vs->nverts; v++)
        if (mpq_equal(vs->q[3 * v], half_way)) {
            tie++;
            ck_assert(vs->x[3 * v] == 0x1p53);
        }
    mpq_clear(half_way);
    ck_assert_int_eq(tie, 2);
    ck_assert(vs->hi[0] == 0x1p53 + 2 && vs->lo[0] == 0x1p53 - 8);
    check_vertices(vl, P);
    vertex_set_free(vs);
    vertex_set_free(vd);
    vertex_set_free(vl);
    hs_poly_free(P);
}
END_TEST


/* obb_fit_hull with the points' own hull is hs_obb_fit; with the hull of
 * the points a polytope was made from and the polytope's rounded vertices
 * to enclose, the box holds every vertex (checked exactly: every vertex
 * within the box's slabs, evaluated with directed bounds). */
START_TEST(obb_fit_with_a_given_hull)
{
    uint64_t s = 99;
    int n = 120;
    double *pts = malloc(sizeof(double) * 3 * (size_t)n);
    for (int i = 0; i < n; i++) {
        double *p = pts + 3 * i;
        for (int j = 0; j < 3; j++)
            p[j] = (t_rng_unit(&s) * 2 - 1) * (j + 1);
    }
    hull3 *h = t_hull(pts, n);
    hs_obb a, b;
    hs_error err;
    ck_assert_int_eq(hs_obb_fit(&a, pts, n, &err), HS_OK);
    ck_assert_int_eq(obb_fit_hull(&b, pts, n, h, pts, n, &err), HS_OK);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    double c[3];
    hs_poly *P = hull_poly(pts, n, c);
    vertex_set *vs = t_vertices(P, c);
    ck_assert_int_eq(obb_fit_hull(&b, pts, n, h, vs->x, vs->nverts, &err), HS_OK);
    for (int v = 0; v < vs->nverts; v++)
        for (int k = 0; k < 3; k++) { /* |axis_k . (x - center)| <= half_k, with margins */
            double d = 0, mag = 0;
            for (int j = 0; j < 3; j++) {
                double t = b.axis[k][j] * (vs->x[3 * v + j] - b.center[j]);
                d += t;
                mag += fabs(t) + fabs(b.axis[k][j] * vs->x[3 * v + j]);
            }
            EXPECT(fabs(d) <= b.half[k] + 8 * 0x1p-53 * mag, "vertex %d outside the box", v);
        }
    ck_assert_int_eq(obb_fit_hull(&b, pts, n - 1, h, pts, n, &err), HS_ERR_ARG);
    vertex_set_free(vs);
    hs_poly_free(P);
    hull3_free(h);
    free(pts);
}
END_TEST

Suite *suite_hull3(void)
{
    Suite *s = suite_create("hull3");
    TCase *tc = tcase_create("hull3");
    tcase_add_test(tc, orient3d_near_degenerate);
    tcase_add_test(tc, det4_matches_orientation);
    tcase_add_test(tc, hull_cube_with_extra_points);
    tcase_add_test(tc, hull_tetrahedron_and_octahedron);
    tcase_add_loop_test(tc, hull_random_clouds, 0, 4);
    tcase_add_test(tc, hull_degenerate_inputs);
    tcase_add_test(tc, vertices_cube_with_redundant_rows);
    tcase_add_test(tc, vertices_tetrahedron_and_octahedron);
    tcase_add_test(tc, vertices_pyramid_apex);
    tcase_add_loop_test(tc, vertices_tangent_polytopes, 0, 3);
    tcase_add_test(tc, vertices_input_errors);
    tcase_add_loop_test(tc, vertices_rounded_and_clustered, 0, 3);
    tcase_add_test(tc, vertices_rounding_ties);
    tcase_add_test(tc, obb_fit_with_a_given_hull);
    suite_add_tcase(s, tc);
    return s;
}
