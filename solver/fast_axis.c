/* fast_axis.c -- a common point of two elongated polyhedra where their
 * skeletons (fast_prep_skeleton: the longest chord through the center)
 * come nearest (fast_query.h: fq_axis_overlap). */
#include "solver/fast_query.h"

#include <string.h>

/* Two elongated polyhedra (one at least: fq_is_long) often cross where
 * the segment between their centers misses their common part, and their
 * skeletons come nearest there: the line joining the nearest points of
 * the two skeletons is tried as the segment s-t is (each point answered
 * is certified). */

/* The points x of segment p0-p1 and y of segment q0-q1 nearest each other
 * (one pair of them where the segments are parallel). */
static void segments_nearest(const double *p0, const double *p1, const double *q0,
                             const double *q1, double *x, double *y)
{
    double d1[3], d2[3], r[3], a = 0, e = 0, f = 0, c = 0, b = 0;
    for (int j = 0; j < 3; j++) {
        d1[j] = p1[j] - p0[j];
        d2[j] = q1[j] - q0[j];
        r[j] = p0[j] - q0[j];
        a += d1[j] * d1[j];
        e += d2[j] * d2[j];
        f += d2[j] * r[j];
        c += d1[j] * r[j];
        b += d1[j] * d2[j];
    }
    double den = a * e - b * b, s = 0, t;
    if (a > 0 && den > 1e-12 * a * e)
        s = fp_min(1, fp_max(0, (b * f - c * e) / den));
    t = e > 0 ? (b * s + f) / e : 0;
    if (t < 0 || t > 1) {
        t = fp_min(1, fp_max(0, t));
        s = a > 0 ? fp_min(1, fp_max(0, (b * t - c) / a)) : 0;
    }
    for (int j = 0; j < 3; j++) {
        x[j] = p0[j] + s * d1[j];
        y[j] = q0[j] + t * d2[j];
    }
}

/* How far from x (inside polyhedron k, or nearly) the ray x + l d runs
 * inside the rows that the direction map lists for d (those a ray from
 * the center along d crosses first): the least (b_i - a_i . x) / (a_i . d)
 * over them, in units of d (rounded, and a guess: it steers, the point
 * found is certified).  0 when x is outside one of them. */
static double reach_from(const fast_query *q, int k, const double *x, const double *d)
{
    const fast_view *V = q->V[k];
    int count = 0;
    const int *rows = fq_lookup(q, k, d, &count);
    double reach = count > 0 ? INFINITY : 0;
    for (int c = 0; c < count; c++) {
        const double *a = view_row(V, 3, rows[c]);
        double slack = V->b[rows[c]] - dot3(a, x), along = dot3(a, d);
        if (!(slack > 0))
            return 0;
        if (along > 0)
            reach = fp_min(reach, slack / along);
    }
    return reach;
}

/* The ends of view k's skeleton in the query frame (out: 6 doubles): a
 * view of mapped rows (lookup: directions of the query frame into the
 * polyhedron's, a rotation) carries them about its center. */
static void skeleton_in_view(const fast_query *q, int k, const double *s, double *out)
{
    const fast_view *V = q->V[k];
    if (!V->lookup) {
        memcpy(out, s, 6 * sizeof(double));
        return;
    }
    const double *L = V->lookup, *c = q->F[k]->center;
    for (int e = 0; e < 2; e++)
        for (int i = 0; i < 3; i++) { /* c_view + L^T (s_e - c) */
            double v = V->center[i];
            for (int j = 0; j < 3; j++)
                v += L[j * 3 + i] * (s[3 * e + j] - c[j]);
            out[3 * e + i] = v;
        }
}

int fq_axis_overlap(fast_query *q)
{
    if (q->n != 3 || !(fq_is_long(q, 0) || fq_is_long(q, 1)))
        return 0;
    for (int j = 0; j < 3; j++) /* (boxes apart: so are the bodies) */
        if (!(fp_max(q->V[0]->lo[j], q->V[1]->lo[j]) < fp_min(q->V[0]->hi[j], q->V[1]->hi[j])))
            return 0;
    const double *sa = fast_prep_skeleton(q->F[0]), *sb = fast_prep_skeleton(q->F[1]);
    if (!sa || !sb || !(sa[6] > 0 && sb[6] > 0)) /* (0: unbounded, or no inradius) */
        return 0;
    double ea[6], eb[6];
    skeleton_in_view(q, 0, sa, ea);
    skeleton_in_view(q, 1, sb, eb);
    /* on the line from x (A's skeleton) to y (B's), where the two bodies
     * come nearest: A holds it up to la, B from 1 - lb; the middle of
     * the stretch in both */
    double x[3], y[3], d[3], back[3], p[3];
    segments_nearest(ea, ea + 3, eb, eb + 3, x, y);
    int apart = 0;
    for (int j = 0; j < 3; j++) {
        d[j] = y[j] - x[j];
        back[j] = -d[j];
        apart |= d[j] != 0;
    }
    double la = 1, lb = 1; /* (skeletons that meet: their common point) */
    if (apart && !((la = reach_from(q, 0, x, d)) + (lb = reach_from(q, 1, y, back)) > 1))
        return 0;
    double l = 0.5 * (fp_min(la, 1) + fp_max(1 - lb, 0));
    for (int j = 0; j < 3; j++)
        p[j] = x[j] + l * d[j];
    if (!fq_common_point(q, p))
        return 0;
    fq_trace(q, "the line where A's and B's skeletons come nearest is inside A up to %.6g and "
                "inside B from %.6g: its point between is certified inside both: overlap",
             la, 1 - lb);
    fq_answer_point(q, HS_OVERLAP, p);
    return 1;
}

