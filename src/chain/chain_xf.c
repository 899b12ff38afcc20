/* chain_xf.c -- rigid maps x -> r x + t of the chain (3x4, no last row). */
#include <math.h>
#include <string.h>

#include "src/chain/chain.h"

void chain_xf_identity(chain_xf *a)
{
    memset(a, 0, sizeof *a);
    a->r[0] = a->r[4] = a->r[8] = 1;
}

void chain_xf_from_pose(chain_xf *a, const double m[16])
{
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            a->r[3 * i + j] = m[4 * i + j];
        a->t[i] = m[4 * i + 3];
    }
}

void chain_xf_to_pose(const chain_xf *a, double m[16])
{
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            m[4 * i + j] = a->r[3 * i + j];
        m[4 * i + 3] = a->t[i];
    }
    m[12] = m[13] = m[14] = 0;
    m[15] = 1;
}

/* (r^T, -r^T t): the inverse of a rigid map. */
void chain_xf_rigid_inverse(chain_xf *out, const chain_xf *a)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out->r[3 * i + j] = a->r[3 * j + i];
    for (int i = 0; i < 3; i++)
        out->t[i] = -(out->r[3 * i] * a->t[0] + out->r[3 * i + 1] * a->t[1] +
                      out->r[3 * i + 2] * a->t[2]);
}

/* Adjugate over determinant, then t' = -r^-1 t. */
void chain_xf_inverse(chain_xf *out, const chain_xf *a)
{
    const double *m = a->r;
    double d = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
               m[2] * (m[3] * m[7] - m[4] * m[6]);
    double s = 1 / d;
    double r[9] = {(m[4] * m[8] - m[5] * m[7]) * s, (m[2] * m[7] - m[1] * m[8]) * s,
                   (m[1] * m[5] - m[2] * m[4]) * s, (m[5] * m[6] - m[3] * m[8]) * s,
                   (m[0] * m[8] - m[2] * m[6]) * s, (m[2] * m[3] - m[0] * m[5]) * s,
                   (m[3] * m[7] - m[4] * m[6]) * s, (m[1] * m[6] - m[0] * m[7]) * s,
                   (m[0] * m[4] - m[1] * m[3]) * s};
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = -(r[3 * i] * a->t[0] + r[3 * i + 1] * a->t[1] + r[3 * i + 2] * a->t[2]);
    memcpy(out->r, r, sizeof r);
    memcpy(out->t, t, sizeof t);
}

int chain_pose_is_rigid(const double m[16])
{
    for (int i = 0; i < 16; i++)
        if (!isfinite(m[i]))
            return 0;
    if (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1)
        return 0;
    for (int i = 0; i < 3; i++)
        for (int k = i; k < 3; k++) {
            double g = m[i] * m[k] + m[4 + i] * m[4 + k] + m[8 + i] * m[8 + k];
            if (!(fabs(g - (i == k)) <= CHAIN_RIGID_TOL))
                return 0;
        }
    double det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) +
                 m[2] * (m[4] * m[9] - m[5] * m[8]);
    return det > 0;
}

/* For the symmetric G = R^T R - I, ||G||_2 <= ||G||_inf, its largest
 * row sum of absolute values.  Each entry is computed with error below
 * 4u (|R| ~ 1), a row sum with error below 12u + 3u, which 2^-48 covers.
 * A NaN entry of R gives NaN (it reaches every row sum of its column). */
double chain_rotation_defect(const double r[9])
{
    const double g00 = fabs(r[0] * r[0] + r[3] * r[3] + r[6] * r[6] - 1),
                 g11 = fabs(r[1] * r[1] + r[4] * r[4] + r[7] * r[7] - 1),
                 g22 = fabs(r[2] * r[2] + r[5] * r[5] + r[8] * r[8] - 1),
                 g01 = fabs(r[0] * r[1] + r[3] * r[4] + r[6] * r[7]),
                 g02 = fabs(r[0] * r[2] + r[3] * r[5] + r[6] * r[8]),
                 g12 = fabs(r[1] * r[2] + r[4] * r[5] + r[7] * r[8]);
    double s0 = g00 + g01 + g02, s1 = g01 + g11 + g12, s2 = g02 + g12 + g22;
    if (isnan(s0 + s1 + s2))
        return NAN;
    double w = s0 > s1 ? s0 : s1;
    return (w > s2 ? w : s2) + 0x1p-48;
}
