/* gjk.c -- GJK distance with Johnson's sub-algorithm done by brute force:
 * the point of the current simplex (at most 4 vertices of the Minkowski
 * difference A - B) nearest the origin is the best affine projection among
 * its 15 faces whose barycentric weights are all positive. */
#include "src/shape/gjk.h"

#include <math.h>
#include <string.h>

#define GJK_MAX_ITER 64

typedef gjk_simplex simplex;

static double dot(const double *x, const double *y)
{
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
}

/* The point of P (scaled by s, a power of two: 1 leaves the points as
 * they are) farthest along d. */
static int support(const double *P, int n, const double *d, double s)
{
    int best = 0;
    if (s != 1) {
        double bd = -INFINITY;
        for (int i = 0; i < n; i++) {
            const double x[3] = {P[3 * i] * s, P[3 * i + 1] * s, P[3 * i + 2] * s};
            double v = dot(x, d);
            if (v > bd) {
                bd = v;
                best = i;
            }
        }
        return best;
    }
    double bd = dot(P, d);
    for (int i = 1; i < n; i++) {
        double v = dot(P + 3 * i, d);
        if (v > bd) {
            bd = v;
            best = i;
        }
    }
    return best;
}

/* Weights lambda (sum 1) of the point of aff(points idx[0..c-1]) nearest
 * the origin; 0 when the points are affinely dependent. */
static int project(const simplex *s, const int *idx, int c, double *lambda)
{
    if (c == 1) {
        lambda[0] = 1;
        return 1;
    }
    double e[3][3], G[3][3], r[3];
    const double *p0 = s->w[idx[0]];
    int k = c - 1;
    for (int i = 0; i < k; i++)
        for (int d = 0; d < 3; d++)
            e[i][d] = s->w[idx[i + 1]][d] - p0[d];
    for (int i = 0; i < k; i++) {
        r[i] = -dot(e[i], p0);
        for (int j = 0; j < k; j++)
            G[i][j] = dot(e[i], e[j]);
    }
    for (int col = 0; col < k; col++) { /* Gaussian elimination, partial pivoting */
        int p = col;
        for (int i = col + 1; i < k; i++)
            if (fabs(G[i][col]) > fabs(G[p][col]))
                p = i;
        if (!(fabs(G[p][col]) > 1e-300))
            return 0;
        for (int j = 0; j < k; j++) {
            double t = G[col][j];
            G[col][j] = G[p][j];
            G[p][j] = t;
        }
        double t = r[col];
        r[col] = r[p];
        r[p] = t;
        for (int i = col + 1; i < k; i++) {
            double f = G[i][col] / G[col][col];
            for (int j = col; j < k; j++)
                G[i][j] -= f * G[col][j];
            r[i] -= f * r[col];
        }
    }
    double mu[3], sum = 0;
    for (int i = k - 1; i >= 0; i--) {
        double acc = r[i];
        for (int j = i + 1; j < k; j++)
            acc -= G[i][j] * mu[j];
        mu[i] = acc / G[i][i];
    }
    for (int i = 0; i < k; i++) {
        lambda[i + 1] = mu[i];
        sum += mu[i];
    }
    lambda[0] = 1 - sum;
    return 1;
}

void gjk_simplex_nearest(gjk_simplex *s, double v[3], double lam_out[4])
{
    double best = INFINITY, best_lam[4] = {1, 0, 0, 0};
    int best_idx[4] = {0}, best_c = 1;
    for (int mask = 1; mask < (1 << s->k); mask++) {
        int idx[4], c = 0;
        for (int i = 0; i < s->k; i++)
            if (mask >> i & 1)
                idx[c++] = i;
        double lam[4];
        if (!project(s, idx, c, lam))
            continue;
        int inside = 1;
        for (int i = 0; i < c; i++)
            inside &= lam[i] > 0;
        if (!inside)
            continue;
        double p[3] = {0, 0, 0};
        for (int i = 0; i < c; i++)
            for (int d = 0; d < 3; d++)
                p[d] += lam[i] * s->w[idx[i]][d];
        double d2 = dot(p, p);
        if (d2 < best) {
            best = d2;
            best_c = c;
            memcpy(best_idx, idx, sizeof idx);
            memcpy(best_lam, lam, sizeof lam);
        }
    }
    simplex r = {0};
    r.k = best_c;
    for (int i = 0; i < best_c; i++) {
        memcpy(r.w[i], s->w[best_idx[i]], sizeof r.w[i]);
        memcpy(r.a[i], s->a[best_idx[i]], sizeof r.a[i]);
        memcpy(r.b[i], s->b[best_idx[i]], sizeof r.b[i]);
        lam_out[i] = best_lam[i];
    }
    *s = r;
    memset(v, 0, sizeof(double) * 3);
    for (int i = 0; i < s->k; i++)
        for (int d = 0; d < 3; d++)
            v[d] += lam_out[i] * s->w[i][d];
}

static void add_vertex(simplex *s, const double *A, int ia, const double *B, int ib, double sc)
{
    for (int d = 0; d < 3; d++) {
        s->a[s->k][d] = A[3 * ia + d] * sc;
        s->b[s->k][d] = B[3 * ib + d] * sc;
        s->w[s->k][d] = s->a[s->k][d] - s->b[s->k][d];
    }
    s->k++;
}

/* GJK on the points scaled by sc (a power of two; 1: as they are):
 * the closest points and the distance in the scaled coordinates. */
static double gjk_scaled(const double *A, int na, const double *B, int nb, double sc,
                         double pa[3], double pb[3])
{
    simplex s = {0};
    double v[3], lam[4] = {1, 0, 0, 0};
    add_vertex(&s, A, 0, B, 0, sc);
    memcpy(v, s.w[0], sizeof v);
    for (int it = 0; it < GJK_MAX_ITER; it++) {
        double vv = dot(v, v);
        if (vv == 0)
            break;
        double minus[3] = {-v[0], -v[1], -v[2]};
        int ia = support(A, na, minus, sc), ib = support(B, nb, v, sc);
        double w[3] = {(A[3 * ia] - B[3 * ib]) * sc, (A[3 * ia + 1] - B[3 * ib + 1]) * sc,
                       (A[3 * ia + 2] - B[3 * ib + 2]) * sc};
        if (sc != 1) /* (scaled first: the difference itself may overflow) */
            for (int d = 0; d < 3; d++)
                w[d] = A[3 * ia + d] * sc - B[3 * ib + d] * sc;
        if (vv - dot(v, w) <= 1e-12 * vv || s.k == 4) /* no progress: converged */
            break;
        add_vertex(&s, A, ia, B, ib, sc);
        gjk_simplex_nearest(&s, v, lam);
    }
    memset(pa, 0, sizeof(double) * 3);
    memset(pb, 0, sizeof(double) * 3);
    for (int i = 0; i < s.k; i++)
        for (int d = 0; d < 3; d++) {
            pa[d] += lam[i] * s.a[i][d];
            pb[d] += lam[i] * s.b[i][d];
        }
    double diff[3] = {pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]};
    return sqrt(dot(diff, diff));
}

static double max_abs(const double *P, int n, double m)
{
    for (int i = 0; i < 3 * n; i++)
        m = fmax(m, fabs(P[i]));
    return m;
}

/* Squares of coordinates beyond 2^500 would overflow, and below 2^-500
 * underflow: then the points are scaled by a power of two (exact, but
 * for the underflow of far smaller coordinates) to magnitude about 1,
 * and the answer scaled back (a distance beyond the range of doubles
 * comes out infinite). */
double gjk_distance(const double *A, int na, const double *B, int nb, double pa[3],
                    double pb[3])
{
    double m = max_abs(B, nb, max_abs(A, na, 0));
    if ((m <= 0x1p500 && m >= 0x1p-500) || m == 0 || !isfinite(m))
        return gjk_scaled(A, na, B, nb, 1, pa, pb);
    int e;
    frexp(m, &e);
    double d = gjk_scaled(A, na, B, nb, ldexp(1, -e), pa, pb);
    for (int j = 0; j < 3; j++) {
        pa[j] = ldexp(pa[j], e);
        pb[j] = ldexp(pb[j], e);
    }
    return ldexp(d, e);
}
