/* tri_box.c -- a triangle certainly outside an axis-aligned box (see
 * tri_box.h): the separating-axis test of Akenine-Moller's triangle-box
 * overlap, with every comparison made rigorous.
 *
 * An axis is any double vector u.  The triangle projects onto
 * [min_k u . v_k, max_k u . v_k] and the box onto
 * [sum_j min(u_j lo_j, u_j hi_j), sum_j max(u_j lo_j, u_j hi_j)].  Each
 * projection is a sum of three rounded products: its error is at most
 * gamma_3 times the sum of the products' magnitudes, plus 3 eta (eta =
 * 2^-1074) for products that underflow.  With M the largest such sum over
 * the eleven values (three corners, two box ends), every computed value is
 * within E = 4 u M + 2^-1000 of its real value (4u covers gamma_3, the
 * rounding of M itself and of the comparison below).  The sets are
 * separated along u when one computed interval lies beyond the other by
 * more than 2E.  A separating axis proves disjointness whichever vector it
 * is, so the axes themselves (the normal e0 x e1 and the edges' cross
 * products with the unit axes, whose components are the edges' own) may
 * be rounded freely. */
#include "polytope/tri_box.h"

#include <math.h>

#include "polytope/fp.h"

static int separated_along(const double u[3], const double t[3][3], const double lo[3],
                           const double hi[3])
{
    double tmin = INFINITY, tmax = -INFINITY, M = 0;
    for (int k = 0; k < 3; k++) {
        double p0 = u[0] * t[k][0], p1 = u[1] * t[k][1], p2 = u[2] * t[k][2];
        double v = p0 + p1 + p2, mg = fabs(p0) + fabs(p1) + fabs(p2);
        tmin = v < tmin ? v : tmin;
        tmax = v > tmax ? v : tmax;
        M = mg > M ? mg : M;
    }
    double bmin = 0, bmax = 0, bm = 0;
    for (int j = 0; j < 3; j++) {
        double a = u[j] * lo[j], b = u[j] * hi[j];
        bmin += a < b ? a : b;
        bmax += a < b ? b : a;
        bm += fp_max(fabs(a), fabs(b));
    }
    M = bm > M ? bm : M;
    double gap = 2 * (4 * FP_U * M + 0x1p-1000);
    return tmin > bmax + gap || tmax < bmin - gap;
}

int tri_box_separated(const double t[3][3], const double lo[3], const double hi[3])
{
    double e[3][3];
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            e[k][j] = t[(k + 1) % 3][j] - t[k][j];
    double n[3];
    cross3(e[0], e[1], n);
    if (separated_along(n, t, lo, hi))
        return 1;
    for (int k = 0; k < 3; k++) {
        const double *d = e[k];
        double ux[3] = {0, d[2], -d[1]}, uy[3] = {-d[2], 0, d[0]}, uz[3] = {d[1], -d[0], 0};
        if (separated_along(ux, t, lo, hi) || separated_along(uy, t, lo, hi) ||
            separated_along(uz, t, lo, hi))
            return 1;
    }
    return 0;
}
