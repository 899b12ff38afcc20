/* path_curve.c -- the curves a body moves along (path_curve.h): one type,
 * path_curve, with two kinds, and the pose and speed bound of either.
 *
 * The straight line: translation linear, rotation by slerp along the
 * shortest arc, so the angular speed is the constant `angle` per unit
 * fraction and a point at distance r from the body's origin moves at most
 * |tb - ta| + angle * r per unit fraction.
 *
 * The circular arc through three points (seed 004, section 5).  The seed
 * finds the centre from a 3x3 linear system (eqs.
 * 16-18: two perpendicular bisector planes and the plane of the points),
 * the arc angle theta from the chord and the sign of H (eqs. 19-25: theta
 * <= pi when H >= 0), and then walks the circle by a recurrence (eqs.
 * 26-29).  We use the closed forms instead: the circumcentre relative to
 * p0, theta from atan2 (any angle in (0, 2 pi) without a case split), and
 * the position at angle phi directly, so no error accumulates along the
 * arc and the end lands on the given end point. */
#include <math.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/fp.h"
#include "src/motion/path_curve.h"

/* ================================================================ line */

/* Rotation part of a pose as a unit quaternion (w, x, y, z). */
static void quat_of(const double m[16], double q[4])
{
    double tr = m[0] + m[5] + m[10];
    if (tr > 0) {
        double s = 2 * sqrt(tr + 1);
        q[0] = s / 4;
        q[1] = (m[9] - m[6]) / s;
        q[2] = (m[2] - m[8]) / s;
        q[3] = (m[4] - m[1]) / s;
    } else if (m[0] > m[5] && m[0] > m[10]) {
        double s = 2 * sqrt(1 + m[0] - m[5] - m[10]);
        q[0] = (m[9] - m[6]) / s;
        q[1] = s / 4;
        q[2] = (m[1] + m[4]) / s;
        q[3] = (m[2] + m[8]) / s;
    } else if (m[5] > m[10]) {
        double s = 2 * sqrt(1 + m[5] - m[0] - m[10]);
        q[0] = (m[2] - m[8]) / s;
        q[1] = (m[1] + m[4]) / s;
        q[2] = s / 4;
        q[3] = (m[6] + m[9]) / s;
    } else {
        double s = 2 * sqrt(1 + m[10] - m[0] - m[5]);
        q[0] = (m[4] - m[1]) / s;
        q[1] = (m[2] + m[8]) / s;
        q[2] = (m[6] + m[9]) / s;
        q[3] = s / 4;
    }
}

static int same_rotation(const double a[16], const double b[16])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (a[4 * i + j] != b[4 * i + j])
                return 0;
    return 1;
}

static void line_curve_init(line_curve *c, const double a[16], const double b[16])
{
    quat_of(a, c->qa);
    quat_of(b, c->qb);
    double dot = 0;
    for (int i = 0; i < 4; i++)
        dot += c->qa[i] * c->qb[i];
    if (dot < 0) {
        dot = -dot;
        for (int i = 0; i < 4; i++)
            c->qb[i] = -c->qb[i];
    }
    for (int i = 0; i < 3; i++) {
        c->ta[i] = a[4 * i + 3];
        c->tb[i] = b[4 * i + 3];
        for (int j = 0; j < 3; j++)
            c->ra[3 * i + j] = a[4 * i + j];
    }
    c->same_rotation = same_rotation(a, b);
    c->angle = 2 * acos(fmin(1, dot));
}

static double line_curve_speed(const line_curve *c, double radius)
{
    double dt = 0;
    for (int i = 0; i < 3; i++)
        dt += (c->tb[i] - c->ta[i]) * (c->tb[i] - c->ta[i]);
    return sqrt(dt) + c->angle * radius;
}

static void line_curve_pose(const line_curve *c, double f, double out[16])
{
    double q[4], t[3], wa = 1 - f, wb = f, half = c->angle / 2;
    for (int i = 0; i < 3; i++)
        t[i] = (1 - f) * c->ta[i] + f * c->tb[i];
    if (f == 1)
        memcpy(t, c->tb, sizeof t);
    if (c->same_rotation) {
        hs_pose_from_rt(out, c->ra, t);
        return;
    }
    if (half > 1e-9) {
        wa = sin((1 - f) * half) / sin(half);
        wb = sin(f * half) / sin(half);
    }
    for (int i = 0; i < 4; i++)
        q[i] = wa * c->qa[i] + wb * c->qb[i];
    hs_pose_from_quat(out, q, t, NULL);
}

/* ================================================================= arc */

static void sub(const double a[3], const double b[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a[i] - b[i];
}

static int finite3(const double a[3])
{
    return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}

/* Is the computed cross product n = a x b certainly nonzero?  Each
 * component a_j b_k - a_k b_j, with a and b differences of doubles, is off
 * by at most 8 u (|a_j b_k| + |a_k b_j|) (u = 2^-53, a generous first-order
 * bound); one component beyond its bound proves the points not collinear. */
static int certainly_not_collinear(const double a[3], const double b[3], const double n[3])
{
    const double u = FP_U;
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        if (fabs(n[i]) > 8 * u * (fabs(a[j] * b[k]) + fabs(a[k] * b[j])))
            return 1;
    }
    return 0;
}

/* Angle of point q (relative to the centre) from u, counterclockwise
 * about the normal, in [0, 2 pi). */
static double angle_of(const arc_curve *c, const double q[3])
{
    double x[3];
    cross3(c->u, q, x);
    double phi = atan2(dot3(c->normal, x), dot3(c->u, q));
    return phi < 0 ? phi + 2 * M_PI : phi;
}

/* Circumcentre relative to p0 of the triangle p0, p0 + a, p0 + b:
 * ((|a|^2 b - |b|^2 a) x n) / (2 |n|^2) with n = a x b. */
static void centre_offset(const double a[3], const double b[3], const double n[3], double off[3])
{
    double w[3], aa = dot3(a, a), bb = dot3(b, b), nn = dot3(n, n);
    for (int i = 0; i < 3; i++)
        w[i] = aa * b[i] - bb * a[i];
    cross3(w, n, off);
    for (int i = 0; i < 3; i++)
        off[i] /= 2 * nn;
}

static hs_code arc_frame(arc_curve *c, const double a[3], const double b[3], const double n[3],
                         hs_error *err)
{
    double off[3], q1[3], q2[3], len = sqrt(dot3(n, n));
    centre_offset(a, b, n, off);
    for (int i = 0; i < 3; i++) {
        c->centre[i] = c->p0[i] + off[i];
        c->u[i] = -off[i];
        c->normal[i] = n[i] / len;
    }
    cross3(c->normal, c->u, c->v);
    c->radius = sqrt(dot3(off, off));
    sub(a, off, q1);
    sub(b, off, q2);
    c->theta = angle_of(c, q2);
    double phi1 = angle_of(c, q1);
    if (!finite3(c->centre) || !(c->radius > 0) || !isfinite(c->radius) || !(c->theta > 0))
        return err_set(err, HS_ERR_ARG, "arc: the three points are too far apart or too close "
                                        "together for a circle in double precision");
    if (!(phi1 > 0 && phi1 < c->theta))
        return err_set(err, HS_ERR_ARG, "arc: the points are too nearly collinear (the via "
                                        "point does not come out between start and end)");
    return HS_OK;
}

static hs_code arc_curve_init(arc_curve *c, const double start[16], const double via[3],
                       const double end[3], int turn, hs_error *err)
{
    double a[3], b[3], d[3], n[3];
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 3; i++) {
        c->p0[i] = start[4 * i + 3];
        c->p2[i] = end[i];
        for (int j = 0; j < 3; j++)
            c->ra[3 * i + j] = start[4 * i + j];
    }
    c->turn = turn != 0;
    if (!finite3(via) || !finite3(end))
        return err_set(err, HS_ERR_ARG, "arc: the via and end points must be finite");
    sub(via, c->p0, a);
    sub(end, c->p0, b);
    sub(end, via, d);
    if (dot3(a, a) == 0 || dot3(b, b) == 0 || dot3(d, d) == 0)
        return err_set(err, HS_ERR_ARG, "arc: the start, via and end points must be distinct "
                                        "(start %g %g %g, via %g %g %g, end %g %g %g)",
                       c->p0[0], c->p0[1], c->p0[2], via[0], via[1], via[2], end[0], end[1],
                       end[2]);
    cross3(a, b, n);
    if (!certainly_not_collinear(a, b, n))
        return err_set(err, HS_ERR_ARG, "arc: the start, via and end points are collinear "
                                        "(no circle through them)");
    return arc_frame(c, a, b, n, err);
}

static double arc_curve_speed(const arc_curve *c, double body_radius)
{
    return c->radius * c->theta + (c->turn ? c->theta * body_radius : 0);
}

/* Rotation by phi about the unit normal, then the start rotation. */
static void turned(const arc_curve *c, double phi, double R[9])
{
    double m[16];
    hs_pose_from_axis_angle(m, c->normal, phi, NULL, NULL);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[3 * i + j] = m[4 * i] * c->ra[j] + m[4 * i + 1] * c->ra[3 + j] +
                           m[4 * i + 2] * c->ra[6 + j];
}

static void arc_curve_pose(const arc_curve *c, double f, double out[16])
{
    double phi = f * c->theta, t[3], R[9];
    /* p0 + (cos phi - 1) u + sin phi v, with cos phi - 1 = -2 sin^2(phi/2)
     * for accuracy near the start */
    double s = sin(phi / 2), cm1 = -2 * s * s, sn = sin(phi);
    for (int i = 0; i < 3; i++)
        t[i] = c->p0[i] + (cm1 * c->u[i] + sn * c->v[i]);
    if (f == 0)
        memcpy(t, c->p0, sizeof t);
    if (f == 1)
        memcpy(t, c->p2, sizeof t);
    if (c->turn)
        turned(c, phi, R);
    else
        memcpy(R, c->ra, sizeof R);
    hs_pose_from_rt(out, R, t);
}

/* ============================================================== either */

void curve_line_init(path_curve *c, const double a[16], const double b[16])
{
    c->kind = CURVE_LINE;
    line_curve_init(&c->line, a, b);
}

hs_code curve_arc_init(path_curve *c, const double start[16], const double via[3],
                       const double end[3], int turn, hs_error *err)
{
    c->kind = CURVE_ARC;
    return arc_curve_init(&c->arc, start, via, end, turn, err);
}

void curve_pose(const path_curve *c, double f, double out[16])
{
    if (c->kind == CURVE_ARC)
        arc_curve_pose(&c->arc, f, out);
    else
        line_curve_pose(&c->line, f, out);
}

double curve_speed(const path_curve *c, double radius)
{
    return c->kind == CURVE_ARC ? arc_curve_speed(&c->arc, radius)
                                : line_curve_speed(&c->line, radius);
}

double curve_length(const path_curve *c)
{
    return c->kind == CURVE_ARC ? c->arc.radius * c->arc.theta
                                : line_curve_speed(&c->line, 0); /* the origin's path */
}
