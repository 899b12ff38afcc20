/* fast_gjk.c -- GJK on two vertex graphs (see fast_gjk.h).
 *
 * The simplex holds up to 4 points w = a - b of A - B, newest last, each
 * with the vertices a of A and b of B it came from.  Each step reduces it
 * to the face nearest the origin's side (the region tests of the boolean
 * GJK: a newer point's regions only, since the origin lies beyond the
 * older face) and searches along the normal towards the origin.  Faces
 * are oriented by the simplex's other point, not by winding order. */
#include "solver/fast_gjk.h"

#include <math.h>
#include <string.h>

/* Supports before GJK gives up: a query it decides takes 3 on average on
 * bench/pairs' hulls and elongated polytopes, rarely more than 12. */
#define GJK_MAX_STEPS 24
/* A support that passes the origin by at most this fraction of the size
 * of its terms: the origin is within rounding of the boundary of A - B
 * (a contact, or a gap or overlap of that order), where GJK in doubles
 * would go on for many steps without an answer it could trust. */
#define GJK_CONTACT_REL 1e-7

typedef struct gjk_pt {
    double w[3];
    int a, b;
} gjk_pt;

static double dot3(const double *u, const double *v)
{
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
}

static void cross3(const double *u, const double *v, double *out)
{
    double x = u[1] * v[2] - u[2] * v[1], y = u[2] * v[0] - u[0] * v[2],
           z = u[0] * v[1] - u[1] * v[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static void sub3(const double *u, const double *v, double *out)
{
    for (int j = 0; j < 3; j++)
        out[j] = u[j] - v[j];
}

/* The point of A - B extreme along d. */
static void support(const fast_graph *A, const fast_graph *B, const double *d, gjk_pt *p)
{
    double minus[3] = {-d[0], -d[1], -d[2]}, along;
    p->a = fast_graph_support(A, d, &along);
    p->b = fast_graph_support(B, minus, &along);
    sub3(A->vert[p->a].x, B->vert[p->b].x, p->w);
}

/* (u x v) x u: the normal of u towards v's side, in the plane of u, v. */
static void towards(const double *u, const double *v, double *out)
{
    double c[3];
    cross3(u, v, c);
    cross3(c, u, out);
}

/* Segment [s0, s1] (s1 newest): the new search direction. */
static void do_line(gjk_pt *s, int *count, double *d)
{
    double ab[3], ao[3];
    sub3(s[0].w, s[1].w, ab);
    for (int j = 0; j < 3; j++)
        ao[j] = -s[1].w[j];
    if (dot3(ab, ao) > 0) {
        towards(ab, ao, d);
    } else {
        s[0] = s[1];
        *count = 1;
        memcpy(d, ao, sizeof ao);
    }
}

/* Triangle [s0, s1, s2] (s2 newest). */
static void do_triangle(gjk_pt *s, int *count, double *d)
{
    const double *a = s[2].w, *b = s[1].w, *c = s[0].w;
    double ab[3], ac[3], ao[3] = {-a[0], -a[1], -a[2]}, abc[3], t[3];
    sub3(b, a, ab);
    sub3(c, a, ac);
    cross3(ab, ac, abc);
    cross3(abc, ac, t); /* in the plane, away from b across edge ac */
    if (dot3(t, ao) > 0) {
        if (dot3(ac, ao) > 0) { /* edge ac */
            s[1] = s[2];
            *count = 2;
            towards(ac, ao, d);
            return;
        }
    } else {
        cross3(ab, abc, t); /* away from c across edge ab */
        if (!(dot3(t, ao) > 0)) { /* inside the triangle's prism: above or below */
            double side = dot3(abc, ao);
            for (int j = 0; j < 3; j++)
                d[j] = side > 0 ? abc[j] : -abc[j];
            return;
        }
    }
    if (dot3(ab, ao) > 0) { /* edge ab */
        s[0] = s[1];
        s[1] = s[2];
        *count = 2;
        towards(ab, ao, d);
    } else { /* vertex a */
        s[0] = s[2];
        *count = 1;
        memcpy(d, ao, sizeof ao);
    }
}

/* Tetrahedron [s0..s3] (s3 newest): 1 when it holds the origin; else the
 * face with the new point that the origin lies beyond, as a triangle. */
static int do_tetra(gjk_pt *s, int *count, double *d)
{
    const double *a = s[3].w;
    static const int face[3][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}}; /* (two old, one opposite) */
    for (int f = 0; f < 3; f++) {
        const double *p = s[face[f][0]].w, *q = s[face[f][1]].w, *o = s[face[f][2]].w;
        double ap[3], aq[3], ao[3], aop[3], nrm[3];
        sub3(p, a, ap);
        sub3(q, a, aq);
        sub3(o, a, aop);
        cross3(ap, aq, nrm);
        if (dot3(nrm, aop) > 0) /* orient away from the opposite point */
            for (int j = 0; j < 3; j++)
                nrm[j] = -nrm[j];
        for (int j = 0; j < 3; j++)
            ao[j] = -a[j];
        if (dot3(nrm, ao) > 0) {
            gjk_pt tri[3] = {s[face[f][0]], s[face[f][1]], s[3]};
            memcpy(s, tri, sizeof tri);
            *count = 3;
            do_triangle(s, count, d);
            return 0;
        }
    }
    return 1;
}

/* The common point of a tetrahedron around the origin: its barycentric
 * weights at the origin applied to A's vertices.  0, or -1 when the
 * weights are not a convex combination (a flat tetrahedron). */
static int common_point(const fast_graph *A, const gjk_pt *s, double *point)
{
    double e1[3], e2[3], e3[3], c23[3], c31[3], c12[3];
    sub3(s[1].w, s[0].w, e1);
    sub3(s[2].w, s[0].w, e2);
    sub3(s[3].w, s[0].w, e3);
    cross3(e2, e3, c23);
    cross3(e3, e1, c31);
    cross3(e1, e2, c12);
    double det = dot3(e1, c23), minus[3] = {-s[0].w[0], -s[0].w[1], -s[0].w[2]};
    if (!(fabs(det) > 0) || !isfinite(det))
        return -1;
    double beta[4];
    beta[1] = dot3(minus, c23) / det;
    beta[2] = dot3(minus, c31) / det;
    beta[3] = dot3(minus, c12) / det;
    beta[0] = 1 - beta[1] - beta[2] - beta[3];
    for (int k = 0; k < 4; k++)
        if (!(beta[k] >= 0 && beta[k] <= 1))
            return -1;
    for (int j = 0; j < 3; j++) {
        point[j] = 0;
        for (int k = 0; k < 4; k++)
            point[j] += beta[k] * A->vert[s[k].a].x[j];
    }
    return 0;
}

fast_gjk_status fast_gjk(const fast_graph *A, const fast_graph *B, const double *d0,
                         fast_gjk_out *out)
{
    gjk_pt s[4];
    int count = 0;
    double d[3] = {d0[0], d0[1], d0[2]};
    out->steps = 0;
    out->why = NULL;
    while (out->steps < GJK_MAX_STEPS) {
        double dd = dot3(d, d);
        if (!(dd > 0) || !isfinite(dd)) {
            out->why = "the origin on the simplex: a contact, or rounding";
            return FAST_GJK_UNSURE;
        }
        gjk_pt p;
        support(A, B, d, &p);
        out->steps++;
        double gain = dot3(p.w, d);
        const double *xa = A->vert[p.a].x, *xb = B->vert[p.b].x;
        double size = fabs(d[0]) * (fabs(xa[0]) + fabs(xb[0])) +
                      fabs(d[1]) * (fabs(xa[1]) + fabs(xb[1])) +
                      fabs(d[2]) * (fabs(xa[2]) + fabs(xb[2]));
        if (fabs(gain) <= GJK_CONTACT_REL * size) {
            out->why = "a support within rounding of the origin: a contact, or nearly";
            return FAST_GJK_UNSURE;
        }
        if (gain < 0) { /* every point of A - B has d . w < 0: d separates */
            memcpy(out->dir, d, sizeof d);
            out->va = p.a;
            out->vb = p.b;
            return FAST_GJK_DISJOINT;
        }
        for (int k = 0; k < count; k++)
            if (s[k].a == p.a && s[k].b == p.b) {
                out->why = "no progress: a support came again";
                return FAST_GJK_UNSURE;
            }
        s[count++] = p;
        if (count == 1) {
            for (int j = 0; j < 3; j++)
                d[j] = -p.w[j];
        } else if (count == 2)
            do_line(s, &count, d);
        else if (count == 3)
            do_triangle(s, &count, d);
        else if (do_tetra(s, &count, d)) {
            if (common_point(A, s, out->point) == 0)
                return FAST_GJK_OVERLAP;
            out->why = "a flat tetrahedron around the origin";
            return FAST_GJK_UNSURE;
        }
    }
    out->why = "the step limit";
    return FAST_GJK_UNSURE;
}
