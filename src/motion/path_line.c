/* path_line.c -- the straight-line curve: translation linear, rotation
 * by slerp along the shortest arc, so the angular speed is the constant
 * `angle` per unit fraction and a point at distance r from the body's
 * origin moves at most |tb - ta| + angle * r per unit fraction. */
#include <math.h>
#include <string.h>

#include "src/motion/path_curve.h"

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

void line_curve_init(line_curve *c, const double a[16], const double b[16])
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

double line_curve_speed(const line_curve *c, double radius)
{
    double dt = 0;
    for (int i = 0; i < 3; i++)
        dt += (c->tb[i] - c->ta[i]) * (c->tb[i] - c->ta[i]);
    return sqrt(dt) + c->angle * radius;
}

void line_curve_pose(const void *curve, double f, double out[16])
{
    const line_curve *c = curve;
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
