/* pose.c -- 4x4 rigid (or affine) poses: builders and products. */
#include <math.h>
#include <string.h>

#include "polytope/error.h"
#include "src/shape/pose.h"

void hs_pose_identity(double m[16])
{
    memset(m, 0, sizeof(double) * 16);
    m[0] = m[5] = m[10] = m[15] = 1;
}

void hs_pose_from_rt(double m[16], const double R[9], const double t[3])
{
    hs_pose_identity(m);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            m[4 * i + j] = R[3 * i + j];
        m[4 * i + 3] = t ? t[i] : 0;
    }
}

/* Seed 004, eq. (1): the Z-Y-Z Euler rotation Rz(a) Ry(b) Rz(c). */
void hs_pose_from_zyz(double m[16], double a, double b, double c, const double t[3])
{
    double ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b), cc = cos(c), sc = sin(c);
    double R[9] = {ca * cb * cc - sa * sc, -ca * cb * sc - sa * cc, ca * sb,
                   sa * cb * cc + ca * sc, -sa * cb * sc + ca * cc, sa * sb,
                   -sb * cc,               sb * sc,                 cb};
    hs_pose_from_rt(m, R, t);
}

/* Rodrigues: R = I + sin(th) K + (1 - cos(th)) K^2 for the unit axis k. */
hs_code hs_pose_from_axis_angle(double m[16], const double axis[3], double angle,
                                const double t[3], hs_error *err)
{
    double len = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    if (!(len > 0) || !isfinite(len) || !isfinite(angle))
        return err_set(err, HS_ERR_ARG, "rotation axis must be finite and nonzero");
    double x = axis[0] / len, y = axis[1] / len, z = axis[2] / len;
    double c = cos(angle), s = sin(angle), v = 1 - c;
    double R[9] = {c + x * x * v,     x * y * v - z * s, x * z * v + y * s,
                   y * x * v + z * s, c + y * y * v,     y * z * v - x * s,
                   z * x * v - y * s, z * y * v + x * s, c + z * z * v};
    hs_pose_from_rt(m, R, t);
    return HS_OK;
}

hs_code hs_pose_from_quat(double m[16], const double q[4], const double t[3], hs_error *err)
{
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(len > 0) || !isfinite(len))
        return err_set(err, HS_ERR_ARG, "quaternion must be finite and nonzero");
    double w = q[0] / len, x = q[1] / len, y = q[2] / len, z = q[3] / len;
    double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                   2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                   2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
    hs_pose_from_rt(m, R, t);
    return HS_OK;
}

/* Entry (i, j) of a b: the sum from 0 in the order k = 0, 1, 2, 3 (written
 * out: the loop it replaces cost three times as much in a world query's
 * relative frames). */
static inline double pose_entry(const double *ai, const double *b, int j)
{
    double s = 0;
    s += ai[0] * b[j];
    s += ai[1] * b[4 + j];
    s += ai[2] * b[8 + j];
    s += ai[3] * b[12 + j];
    return s;
}

void hs_pose_multiply(double out[16], const double a[16], const double b[16])
{
    double r[16];
    for (int i = 0; i < 4; i++) {
        const double *ai = a + 4 * i;
        r[4 * i] = pose_entry(ai, b, 0);
        r[4 * i + 1] = pose_entry(ai, b, 1);
        r[4 * i + 2] = pose_entry(ai, b, 2);
        r[4 * i + 3] = pose_entry(ai, b, 3);
    }
    memcpy(out, r, sizeof r);
}

int pose_is_valid(const double m[16])
{
    for (int i = 0; i < 16; i++)
        if (!isfinite(m[i]))
            return 0;
    if (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1)
        return 0;
    return pose_det3(m) != 0;
}

double pose_det3(const double m[16])
{
    return m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) +
           m[2] * (m[4] * m[9] - m[5] * m[8]);
}

/* Inverse of an affine pose by the adjugate of its 3x3 part, scaled by
 * one reciprocal of the determinant (a rounding more than nine divisions,
 * harmless: poses are applied in doubles, and answers are exact for the
 * rows as mapped, whatever the inverse's last bits). */
void pose_inverse(double out[16], const double m[16])
{
    double s = 1 / pose_det3(m), R[9];
    R[0] = (m[5] * m[10] - m[6] * m[9]) * s;
    R[1] = (m[2] * m[9] - m[1] * m[10]) * s;
    R[2] = (m[1] * m[6] - m[2] * m[5]) * s;
    R[3] = (m[6] * m[8] - m[4] * m[10]) * s;
    R[4] = (m[0] * m[10] - m[2] * m[8]) * s;
    R[5] = (m[2] * m[4] - m[0] * m[6]) * s;
    R[6] = (m[4] * m[9] - m[5] * m[8]) * s;
    R[7] = (m[1] * m[8] - m[0] * m[9]) * s;
    R[8] = (m[0] * m[5] - m[1] * m[4]) * s;
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = -(R[3 * i] * m[3] + R[3 * i + 1] * m[7] + R[3 * i + 2] * m[11]);
    hs_pose_from_rt(out, R, t);
}

void pose_relative(double out[16], const double host[16], const double other[16])
{
    double inv[16];
    pose_inverse(inv, host);
    hs_pose_multiply(out, inv, other);
}

void pose_relative_inv(double out[16], const double host_inv[16], const double other[16])
{
    hs_pose_multiply(out, host_inv, other);
}

void pose_apply(const double m[16], const double p[3], double out[3])
{
    double r[3];
    for (int i = 0; i < 3; i++)
        r[i] = pose_apply_row(m, i, p);
    memcpy(out, r, sizeof r);
}

void pose_apply_linear(const double m[16], const double v[3], double out[3])
{
    double r[3];
    for (int i = 0; i < 3; i++)
        r[i] = m[4 * i] * v[0] + m[4 * i + 1] * v[1] + m[4 * i + 2] * v[2];
    memcpy(out, r, sizeof r);
}

/* Half-space a.x <= b in frame F, seen in frame G where x_G = m x_F:
 * x_F = m^-1 x_G, so a' = (m^-1)^T a and b' = b - a . (m^-1 translation
 * mapped) -- computed with the inverse inv = m^-1. */
void pose_map_row(const double inv[16], const double a[3], double b, double a_out[3],
                  double *b_out)
{
    double r[3];
    for (int j = 0; j < 3; j++)
        r[j] = a[0] * inv[j] + a[1] * inv[4 + j] + a[2] * inv[8 + j];
    *b_out = b - (a[0] * inv[3] + a[1] * inv[7] + a[2] * inv[11]);
    memcpy(a_out, r, sizeof r);
}

/* Box of the image of [lo, hi] under m, widened by POSE_BOX_SLACK times
 * the magnitude of the terms: a few roundings of the mapping (relative
 * 2^-52) and the once-rounded rows of a piece expressed in another's
 * frame move geometry by far less, so no pair the narrow phase would
 * find is dropped by the boxes (for pieces that are not extremely
 * ill-conditioned: edges meeting at angles below about 1e-6 rad). */
void pose_map_box(const double m[16], const double lo[3], const double hi[3], double out_lo[3],
                  double out_hi[3])
{
    for (int i = 0; i < 3; i++) {
        double c = m[4 * i + 3], a = c, b = c, mag = fabs(c);
        for (int j = 0; j < 3; j++) {
            double u = m[4 * i + j] * lo[j], v = m[4 * i + j] * hi[j];
            a += u < v ? u : v;
            b += u < v ? v : u;
            double au = fabs(u), av = fabs(v); /* (never NaN: m and the box are finite) */
            mag += au > av ? au : av;
        }
        double slack = POSE_BOX_SLACK * mag + 0x1p-1000;
        out_lo[i] = a - slack;
        out_hi[i] = b + slack;
    }
}
