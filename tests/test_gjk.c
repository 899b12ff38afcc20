/* test_gjk.c -- the GJK distance between convex hulls of point sets
 * (src/shape/gjk.c) against closed forms (points, segments, boxes, a
 * tetrahedron) and, on random disjoint clouds, against a brute-force
 * reference written here: the distance between two disjoint hulls is the
 * least distance between a point of one set and a triangle of the other
 * (any three points, their faces included), or between two segments. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "src/shape/gjk.h"
#include "tests/helpers.h"

/* ------------------------------------------------ reference distances */

static double dot(const double *x, const double *y)
{
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
}

static double dist(const double *x, const double *y)
{
    double d[3] = {x[0] - y[0], x[1] - y[1], x[2] - y[2]};
    return sqrt(dot(d, d));
}

/* Distance from p to the segment [a, b] (a point when a = b). */
static double point_segment(const double *p, const double *a, const double *b)
{
    double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    double L = dot(ab, ab), t = L > 0 ? dot(ap, ab) / L : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double q[3] = {a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]};
    return dist(p, q);
}

/* Distance from p to the triangle abc: the foot of the perpendicular when
 * it falls inside (barycentric coordinates all >= 0), else the nearest
 * edge; a degenerate triangle is its edges. */
static double point_triangle(const double *p, const double *a, const double *b, const double *c)
{
    double best =
        fmin(point_segment(p, a, b), fmin(point_segment(p, b, c), point_segment(p, c, a)));
    double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    double d11 = dot(e1, e1), d12 = dot(e1, e2), d22 = dot(e2, e2);
    double det = d11 * d22 - d12 * d12;
    if (!(det > 1e-12 * d11 * d22))
        return best;
    double r1 = dot(ap, e1), r2 = dot(ap, e2);
    double s = (d22 * r1 - d12 * r2) / det, t = (d11 * r2 - d12 * r1) / det;
    if (s >= 0 && t >= 0 && s + t <= 1) {
        double q[3] = {a[0] + s * e1[0] + t * e2[0], a[1] + s * e1[1] + t * e2[1],
                       a[2] + s * e1[2] + t * e2[2]};
        best = fmin(best, dist(p, q));
    }
    return best;
}

/* Distance between the segments [a, b] and [c, d]: the endpoints against
 * the other segment, and the pair of nearest points of the two lines when
 * both fall inside. */
static double segment_segment(const double *a, const double *b, const double *c, const double *d)
{
    double best = fmin(fmin(point_segment(a, c, d), point_segment(b, c, d)),
                       fmin(point_segment(c, a, b), point_segment(d, a, b)));
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double v[3] = {d[0] - c[0], d[1] - c[1], d[2] - c[2]};
    double w[3] = {a[0] - c[0], a[1] - c[1], a[2] - c[2]};
    double uu = dot(u, u), uv = dot(u, v), vv = dot(v, v), uw = dot(u, w), vw = dot(v, w);
    double det = uu * vv - uv * uv;
    if (det > 1e-12 * uu * vv) {
        double s = (uv * vw - vv * uw) / det, t = (uu * vw - uv * uw) / det;
        if (s > 0 && s < 1 && t > 0 && t < 1) {
            double p[3] = {a[0] + s * u[0], a[1] + s * u[1], a[2] + s * u[2]};
            double q[3] = {c[0] + t * v[0], c[1] + t * v[1], c[2] + t * v[2]};
            best = fmin(best, dist(p, q));
        }
    }
    return best;
}

/* Least distance from p to a triangle of three points of P (n >= 1;
 * repeated indices make segments and points).  For p outside conv(P)
 * this is the distance from p to conv(P). */
static double point_hull_boundary(const double *p, const double *P, int n)
{
    double best = INFINITY;
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++)
            for (int k = j; k < n; k++)
                best = fmin(best, point_triangle(p, P + 3 * i, P + 3 * j, P + 3 * k));
    return best;
}

/* Distance between conv(A) and conv(B), assumed disjoint. */
static double brute_distance(const double *A, int na, const double *B, int nb)
{
    double best = INFINITY;
    for (int i = 0; i < na; i++)
        best = fmin(best, point_hull_boundary(A + 3 * i, B, nb));
    for (int i = 0; i < nb; i++)
        best = fmin(best, point_hull_boundary(B + 3 * i, A, na));
    for (int i = 0; i < na; i++)
        for (int j = i + 1; j < na; j++)
            for (int k = 0; k < nb; k++)
                for (int l = k + 1; l < nb; l++)
                    best = fmin(best, segment_segment(A + 3 * i, A + 3 * j, B + 3 * k, B + 3 * l));
    return best;
}

/* ------------------------------------------------------------ checks */

/* gjk_distance(A, B) is want (to 1e-9 relative, 1e-12 absolute); pa and
 * pb are |pa - pb| = the value apart, pa on conv(A) and pb on conv(B)
 * (for disjoint hulls: on their boundaries), and the call with A and B
 * swapped agrees. */
static void check_distance(const double *A, int na, const double *B, int nb, double want,
                           const char *what)
{
    double pa[3], pb[3], qa[3], qb[3];
    double got = gjk_distance(A, na, B, nb, pa, pb);
    double tol = 1e-9 * want + 1e-12;
    EXPECT(fabs(got - want) <= tol, "%s: gjk %.17g, want %.17g", what, got, want);
    EXPECT(fabs(dist(pa, pb) - got) <= 1e-12 * (1 + got), "%s: |pa - pb| %.17g, value %.17g", what,
           dist(pa, pb), got);
    if (want > 0) {
        EXPECT(point_hull_boundary(pa, A, na) <= 1e-9 * (1 + want), "%s: pa off conv(A)", what);
        EXPECT(point_hull_boundary(pb, B, nb) <= 1e-9 * (1 + want), "%s: pb off conv(B)", what);
    }
    double back = gjk_distance(B, nb, A, na, qb, qa);
    EXPECT(fabs(back - want) <= tol, "%s swapped: gjk %.17g, want %.17g", what, back, want);
}

/* The 8 corners of the box [lo, hi]. */
static void box_points(const double lo[3], const double hi[3], double *out)
{
    for (int c = 0; c < 8; c++)
        for (int d = 0; d < 3; d++)
            out[3 * c + d] = c >> d & 1 ? hi[d] : lo[d];
}

START_TEST(points_and_segments)
{
    double p[3] = {1, 2, 3}, q[3] = {4, 6, 3};
    check_distance(p, 1, q, 1, 5, "point-point");
    check_distance(p, 1, p, 1, 0, "same point");
    double seg[6] = {0, 0, 0, 10, 0, 0};
    double above[3] = {3, 4, 0}, beyond[3] = {13, 4, 0};
    check_distance(above, 1, seg, 2, 4, "point over a segment's inside");
    check_distance(beyond, 1, seg, 2, 5, "point past a segment's end");
    double on[3] = {7, 0, 0};
    check_distance(on, 1, seg, 2, 0, "point on a segment");
    /* skew segments: along x at z = 0, along y at z = 2, crossing over */
    double sx[6] = {-1, 0, 0, 1, 0, 0}, sy[6] = {0, -1, 2, 0, 1, 2};
    check_distance(sx, 2, sy, 2, 2, "skew segments");
    /* the same, the second moved past the first's end: from (1,0,0) to
     * (3,0,2) */
    double sy2[6] = {3, -1, 2, 3, 1, 2};
    check_distance(sx, 2, sy2, 2, sqrt(8), "skew segments, end to inside");
    /* parallel segments, overlapping in x, 3 apart; then end to end */
    double px[6] = {0.5, 3, 0, 5, 3, 0}, far[6] = {4, 0, 4, 9, 0, 4};
    check_distance(sx, 2, px, 2, 3, "parallel segments");
    check_distance(sx, 2, far, 2, 5, "parallel segments, end to end");
    /* collinear segments with a gap of 2; crossing segments */
    double col[6] = {3, 0, 0, 6, 0, 0}, cross[6] = {0, -1, 0, 0, 1, 0};
    check_distance(sx, 2, col, 2, 2, "collinear segments");
    check_distance(sx, 2, cross, 2, 0, "crossing segments");
}
END_TEST

START_TEST(boxes_apart_touching_overlapping)
{
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, A[24], B[24];
    box_points(lo, hi, A);
    static const struct {
        double shift[3], want;
        const char *what;
    } cases[] = {
        {{3, 0, 0}, 2, "boxes apart along x"},
        {{0, -2.5, 0}, 1.5, "boxes apart along -y"},
        {{2, 2, 0}, 1.4142135623730951, "boxes apart, edge to edge"},
        {{2, 2, 2}, 1.7320508075688772, "boxes apart, corner to corner"},
        {{3, 0.5, -0.25}, 2, "boxes apart, faces partly facing"},
        {{1, 0, 0}, 0, "boxes touching on a face"},
        {{1, 1, 0}, 0, "boxes touching on an edge"},
        {{1, 1, 1}, 0, "boxes touching at a corner"},
        {{0.5, 0.25, 0}, 0, "boxes overlapping"},
        {{0, 0, 0}, 0, "the same box"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double l2[3], h2[3];
        for (int d = 0; d < 3; d++) {
            l2[d] = lo[d] + cases[i].shift[d];
            h2[d] = hi[d] + cases[i].shift[d];
        }
        box_points(l2, h2, B);
        check_distance(A, 8, B, 8, cases[i].want, cases[i].what);
    }
    /* a small box inside the big one: 0, and the points common */
    double il[3] = {0.25, 0.25, 0.25}, ih[3] = {0.5, 0.5, 0.5}, pa[3], pb[3];
    box_points(il, ih, B);
    ck_assert(gjk_distance(A, 8, B, 8, pa, pb) <= 1e-12);
    ck_assert(dist(pa, pb) <= 1e-12);
    for (int d = 0; d < 3; d++)
        ck_assert(pb[d] >= 0.25 - 1e-12 && pb[d] <= 0.5 + 1e-12);
}
END_TEST

/* The regular-ish tetrahedron with corners (0,0,0), e1, e2, e3: a point
 * t (1,1,1) with t > 1/3 is (3t - 1) / sqrt(3) from the slanted face; a
 * point (-2, 0.25, 0.25) is 2 from the face x = 0. */
START_TEST(tetrahedron_and_points)
{
    double T[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int k = 1; k <= 6; k++) {
        double t = k, p[3] = {t, t, t};
        check_distance(T, 4, p, 1, (3 * t - 1) / sqrt(3), "point over the slanted face");
    }
    double side[3] = {-2, 0.25, 0.25};
    check_distance(T, 4, side, 1, 2, "point beside a face");
    double corner[3] = {-1, -1, -1};
    check_distance(T, 4, corner, 1, sqrt(3), "point beyond a corner");
    double inside[3] = {0.1, 0.2, 0.3};
    check_distance(T, 4, inside, 1, 0, "point inside");
    /* the tetrahedron against its mirror image through the plane
     * x + y + z = 2: the faces are parallel, 2 (2 - 1) / sqrt(3) apart */
    double M[12];
    for (int i = 0; i < 4; i++) {
        double s = T[3 * i] + T[3 * i + 1] + T[3 * i + 2];
        for (int d = 0; d < 3; d++)
            M[3 * i + d] = T[3 * i + d] + 2 * (2 - s) / 3;
    }
    check_distance(T, 4, M, 4, 2 / sqrt(3), "tetrahedron and its mirror image");
}
END_TEST

/* Random clouds of 1 to 6 points, the second moved along a random
 * direction u until its projection on u starts a gap g past the first's:
 * disjoint hulls at distance >= g, compared with the brute force. */
START_TEST(random_disjoint_clouds)
{
    uint64_t rs = 31;
    double worst = 0;
    for (int trial = 0; trial < 2000; trial++) {
        int na = 1 + trial % 6, nb = 1 + (trial / 6) % 6;
        double A[18], B[18], u[3], n2 = 0;
        for (int d = 0; d < 3; d++) {
            u[d] = t_rng_sym(&rs);
            n2 += u[d] * u[d];
        }
        if (n2 < 1e-4)
            u[0] = n2 = 1;
        for (int d = 0; d < 3; d++)
            u[d] /= sqrt(n2);
        double scale = ldexp(1, (int)(t_rng_next(&rs) % 21) - 10); /* 2^-10 .. 2^10 */
        for (int i = 0; i < 3 * na; i++)
            A[i] = t_rng_sym(&rs) * scale;
        for (int i = 0; i < 3 * nb; i++)
            B[i] = t_rng_sym(&rs) * scale;
        if (trial % 5 == 0) /* flat clouds: all in the plane z = 0 */
            for (int i = 0; i < na; i++)
                A[3 * i + 2] = 0;
        double hiA = -INFINITY, loB = INFINITY;
        for (int i = 0; i < na; i++)
            hiA = fmax(hiA, dot(A + 3 * i, u));
        for (int i = 0; i < nb; i++)
            loB = fmin(loB, dot(B + 3 * i, u));
        double gap = scale * (trial % 3 == 0 ? 1e-3 : t_rng_unit(&rs) * 2 + 0.01);
        for (int i = 0; i < nb; i++)
            for (int d = 0; d < 3; d++)
                B[3 * i + d] += (hiA - loB + gap) * u[d];
        double want = brute_distance(A, na, B, nb);
        EXPECT(want >= gap * (1 - 1e-9), "trial %d: the reference %.17g is under the gap %.17g",
               trial, want, gap);
        char what[64];
        snprintf(what, sizeof what, "random clouds, trial %d (%d and %d points)", trial, na, nb);
        check_distance(A, na, B, nb, want, what);
        double pa[3], pb[3];
        worst = fmax(worst, fabs(gjk_distance(A, na, B, nb, pa, pb) - want) / want);
    }
    ck_assert(worst <= 1e-9);
}
END_TEST

/* Overlapping clouds: both contain the centroid of A, so the distance is
 * 0, which GJK reaches only up to rounding: it stops on a tetrahedron
 * around the origin, and the point of it nearest the origin, computed in
 * doubles, is rarely exactly 0 (|v| from 1e-17 to about 1e-12 here). */
START_TEST(random_overlapping_clouds)
{
    uint64_t rs = 32;
    int nonzero = 0;
    double worst = 0;
    for (int trial = 0; trial < 1000; trial++) {
        int n = 4 + trial % 5;
        double A[24], B[24], c[3] = {0, 0, 0}, pa[3], pb[3];
        for (int i = 0; i < 3 * n; i++)
            A[i] = t_rng_sym(&rs);
        for (int i = 0; i < n; i++)
            for (int d = 0; d < 3; d++)
                c[d] += A[3 * i + d] / n;
        /* B: A shrunk towards its centroid and turned inside out through
         * it (every point c - (a - c) / 2), so c is in both hulls */
        for (int i = 0; i < n; i++)
            for (int d = 0; d < 3; d++)
                B[3 * i + d] = c[d] - (A[3 * i + d] - c[d]) / 2;
        double got = gjk_distance(A, n, B, n, pa, pb);
        EXPECT(got <= 1e-9, "trial %d: overlapping clouds at distance %.17g", trial, got);
        EXPECT(dist(pa, pb) <= 1e-9, "trial %d: pa and pb apart", trial);
        nonzero += got != 0;
        worst = fmax(worst, got);
    }
    printf("gjk overlapping clouds: %d of 1000 not exactly 0, the largest %.3g\n", nonzero, worst);
    fflush(stdout);
}
END_TEST

/* Scaling both sets by 2^k scales the distance by 2^k; a translation of
 * both leaves it (up to the rounding of the moved coordinates). */
START_TEST(scaling_and_translation)
{
    double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 3}, l2[3] = {4, 6, 3}, h2[3] = {5, 7, 9};
    double A[24], B[24], S[24], R[24], pa[3], pb[3];
    box_points(lo, hi, A);
    box_points(l2, h2, B); /* nearest: (1, 2, z) and (4, 6, z): 5 apart */
    check_distance(A, 8, B, 8, 5, "boxes 5 apart");
    for (int k = -30; k <= 30; k += 10) {
        for (int i = 0; i < 24; i++) {
            S[i] = ldexp(A[i], k);
            R[i] = ldexp(B[i], k);
        }
        double got = gjk_distance(S, 8, R, 8, pa, pb);
        EXPECT(fabs(got - ldexp(5, k)) <= 1e-12 * ldexp(5, k), "scaled by 2^%d: %.17g", k, got);
    }
    for (int i = 0; i < 24; i++) {
        S[i] = A[i] + 1000.5;
        R[i] = B[i] + 1000.5;
    }
    ck_assert(fabs(gjk_distance(S, 8, R, 8, pa, pb) - 5) <= 1e-9);
}
END_TEST

Suite *suite_gjk(void)
{
    Suite *s = suite_create("gjk");
    TCase *tc = tcase_create("gjk");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, points_and_segments);
    tcase_add_test(tc, boxes_apart_touching_overlapping);
    tcase_add_test(tc, tetrahedron_and_points);
    tcase_add_test(tc, random_disjoint_clouds);
    tcase_add_test(tc, random_overlapping_clouds);
    tcase_add_test(tc, scaling_and_translation);
    suite_add_tcase(s, tc);
    return s;
}
