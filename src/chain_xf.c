/* chain_xf.c -- rigid maps x -> r x + t of the chain (3x4, no last row). */
#include <math.h>
#include <string.h>

#include "src/chain.h"

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

/* ||R^T R - I||_2 <= 3 max |entry| (a 3x3 matrix); the entries are
 * computed with error below 4u each (|R| ~ 1), which 8u covers. */
double chain_rotation_defect(const double r[9])
{
    double worst = 0;
    for (int i = 0; i < 3; i++)
        for (int k = i; k < 3; k++) {
            double g = r[i] * r[k] + r[3 + i] * r[3 + k] + r[6 + i] * r[6 + k];
            double dev = fabs(g - (i == k));
            if (!(dev <= worst))
                worst = dev;
        }
    return 3 * (worst + 0x1p-50);
}
