/* chain_sphere_tri.c -- a sphere against a triangle (a mesh piece of a
 * world body), exact: is the distance from the centre to the triangle at
 * most r (touching counts)?  A separating direction checked with a
 * rigorous error bound decides most cases; otherwise the exact squared
 * distance in GMP rationals: the smallest over the three edges (their
 * closest points, corners included) and the face (when the projection's
 * barycentric coordinates are >= 0). */
#include <gmp.h>
#include <math.h>

#include "src/chain/chain_piece_tests.h"
#include "polytope/fp.h"
#include "src/shape/gjk.h"

/* Apart for certain: along n = x - p (x the closest point, computed), the
 * three corners are all farther than r: g_k = n.(v_k - p) within
 * 4u sum |n_j| (|v_kj| + |p_j|) (one rounding per difference, product
 * and sum). */
static int triangle_apart(const double v[3][3], const double p[3], double r, const double x[3])
{
    double n[3] = {x[0] - p[0], x[1] - p[1], x[2] - p[2]}, gmin = INFINITY;
    for (int k = 0; k < 3; k++) {
        double g = 0, e = 0;
        for (int j = 0; j < 3; j++) {
            g += n[j] * (v[k][j] - p[j]);
            e += fabs(n[j]) * (fabs(v[k][j]) + fabs(p[j]));
        }
        g -= 4 * FP_U * e + 0x1p-1000;
        gmin = g < gmin ? g : gmin;
    }
    return gmin > 0 && gmin * gmin * (1 - 16 * FP_U) > r * r * dot3(n, n) * (1 + 16 * FP_U);
}

/* Rational vectors of a triangle problem: the edges A = v1 - v0,
 * B = v2 - v0 and W = p - v0. */
typedef struct tri_q {
    qvec A, B, W;
} tri_q;

static void q_dot(mpq_t out, const qvec *x, const qvec *y, mpq_t t)
{
    mpq_mul(out, x->v[0], y->v[0]);
    mpq_mul(t, x->v[1], y->v[1]);
    mpq_add(out, out, t);
    mpq_mul(t, x->v[2], y->v[2]);
    mpq_add(out, out, t);
}

/* |W - s A - u B|^2 into out. */
static void tri_point_dist2(mpq_t out, const tri_q *q, const mpq_t s, const mpq_t u)
{
    mpq_t c, t;
    mpq_inits(c, t, NULL);
    mpq_set_ui(out, 0, 1);
    for (int j = 0; j < 3; j++) {
        mpq_mul(t, s, q->A.v[j]);
        mpq_sub(c, q->W.v[j], t);
        mpq_mul(t, u, q->B.v[j]);
        mpq_sub(c, c, t);
        mpq_mul(c, c, c);
        mpq_add(out, out, c);
    }
    mpq_clears(c, t, NULL);
}

/* Closest point of the segment from v0 + o to v0 + o + e (o, e among
 * 0, A, B, B - A in (s, u) coordinates): lambda = clamp((W - o).e / e.e)
 * then the distance. */
static void tri_edge(mpq_t best, const tri_q *q, int which)
{
    /* (s, u) of the segment's start and direction */
    static const int start[3][2] = {{0, 0}, {1, 0}, {0, 1}}, dir[3][2] = {{1, 0}, {-1, 1}, {0, -1}};
    mpq_t s, u, lam, num, den, t, d;
    mpq_inits(s, u, lam, num, den, t, d, NULL);
    qvec e, w;
    qvec_init(&e);
    qvec_init(&w);
    for (int j = 0; j < 3; j++) {
        mpq_set_ui(e.v[j], 0, 1);
        mpq_set(w.v[j], q->W.v[j]);
        if (dir[which][0] > 0)
            mpq_add(e.v[j], e.v[j], q->A.v[j]);
        if (dir[which][0] < 0)
            mpq_sub(e.v[j], e.v[j], q->A.v[j]);
        if (dir[which][1] > 0)
            mpq_add(e.v[j], e.v[j], q->B.v[j]);
        if (dir[which][1] < 0)
            mpq_sub(e.v[j], e.v[j], q->B.v[j]);
        if (start[which][0])
            mpq_sub(w.v[j], w.v[j], q->A.v[j]);
        if (start[which][1])
            mpq_sub(w.v[j], w.v[j], q->B.v[j]);
    }
    q_dot(num, &w, &e, t);
    q_dot(den, &e, &e, t);
    if (mpq_sgn(num) <= 0 || mpq_sgn(den) == 0)
        mpq_set_ui(lam, 0, 1);
    else if (mpq_cmp(num, den) >= 0)
        mpq_set_ui(lam, 1, 1);
    else
        mpq_div(lam, num, den);
    mpq_set_si(s, start[which][0], 1);
    mpq_set_si(t, dir[which][0], 1);
    mpq_mul(t, t, lam);
    mpq_add(s, s, t);
    mpq_set_si(u, start[which][1], 1);
    mpq_set_si(t, dir[which][1], 1);
    mpq_mul(t, t, lam);
    mpq_add(u, u, t);
    tri_point_dist2(d, q, s, u);
    if (which == 0 || mpq_cmp(d, best) < 0)
        mpq_set(best, d);
    qvec_clear(&e);
    qvec_clear(&w);
    mpq_clears(s, u, lam, num, den, t, d, NULL);
}

/* The plane's projection, when its barycentric coordinates are >= 0. */
static void tri_face(mpq_t best, const tri_q *q)
{
    mpq_t aa, ab, bb, wa, wb, det, s, u, t, d;
    mpq_inits(aa, ab, bb, wa, wb, det, s, u, t, d, NULL);
    q_dot(aa, &q->A, &q->A, t);
    q_dot(ab, &q->A, &q->B, t);
    q_dot(bb, &q->B, &q->B, t);
    q_dot(wa, &q->W, &q->A, t);
    q_dot(wb, &q->W, &q->B, t);
    mpq_mul(det, aa, bb);
    mpq_mul(t, ab, ab);
    mpq_sub(det, det, t);
    if (mpq_sgn(det) != 0) {
        mpq_mul(s, wa, bb), mpq_mul(t, ab, wb), mpq_sub(s, s, t), mpq_div(s, s, det);
        mpq_mul(u, aa, wb), mpq_mul(t, ab, wa), mpq_sub(u, u, t), mpq_div(u, u, det);
        mpq_add(t, s, u);
        if (mpq_sgn(s) >= 0 && mpq_sgn(u) >= 0 && mpq_cmp_ui(t, 1, 1) <= 0) {
            tri_point_dist2(d, q, s, u);
            if (mpq_cmp(d, best) < 0)
                mpq_set(best, d);
        }
    }
    mpq_clears(aa, ab, bb, wa, wb, det, s, u, t, d, NULL);
}

/* Exact squared distance from p to the triangle: the three edges (their
 * closest points, which include the corners) and the face. */
static void tri_dist2_exact(const double v[3][3], const double p[3], mpq_t best)
{
    tri_q q;
    mpq_t t;
    mpq_init(t);
    qvec_init(&q.A);
    qvec_init(&q.B);
    qvec_init(&q.W);
    for (int j = 0; j < 3; j++) {
        mpq_set_d(t, v[0][j]);
        mpq_set_d(q.A.v[j], v[1][j]);
        mpq_sub(q.A.v[j], q.A.v[j], t);
        mpq_set_d(q.B.v[j], v[2][j]);
        mpq_sub(q.B.v[j], q.B.v[j], t);
        mpq_set_d(q.W.v[j], p[j]);
        mpq_sub(q.W.v[j], q.W.v[j], t);
    }
    for (int k = 0; k < 3; k++)
        tri_edge(best, &q, k);
    tri_face(best, &q);
    qvec_clear(&q.A);
    qvec_clear(&q.B);
    qvec_clear(&q.W);
    mpq_clear(t);
}

int chain_sphere_triangle(const double p[3], double r, const double v[3][3])
{
    if (!chain_all_finite(p, 3) || !isfinite(r) || !chain_all_finite(&v[0][0], 9))
        return CHAIN_TEST_NOT_FINITE;
    double x[3], pp[3];
    gjk_distance(&v[0][0], 3, p, 1, x, pp);
    if (triangle_apart(v, p, r, x))
        return 0;
    mpq_t best, rr;
    mpq_inits(best, rr, NULL);
    tri_dist2_exact(v, p, best);
    mpq_set_d(rr, r);
    mpq_mul(rr, rr, rr);
    int meet = mpq_cmp(best, rr) <= 0;
    mpq_clears(best, rr, NULL);
    return meet;
}
