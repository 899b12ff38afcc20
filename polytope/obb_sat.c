/* obb_sat.c -- the separating-axis test of two oriented boxes (seed 004,
 * section 3, eqs. (5)-(11)) and a lower bound on their distance, with a
 * rigorous error bound on every projection.
 *
 * The seed tests 15 axes: the 3 + 3 face normals and the 9 cross products
 * of an edge of A with an edge of B; the boxes are disjoint when, on one
 * axis L, |d . L| exceeds the sum of the projected half sizes (eq. (5)).
 * We work in A's frame (y = A (x - a.center)), where A is the axis box
 * [-ha, ha] and B the parallelotope {t + R s : |s| <= hb} (column k of R
 * is B's edge k), and we never assume R orthogonal: the face normals of B
 * are the cross products n_j = c_{j+1} x c_{j+2} of R's columns, computed,
 * and the projections of B on e_i x c_j are 2x2 minors of R, which are
 * components of those same n_j.  So every identity used is exact for the
 * stored numbers and only rounding remains, bounded below.  When two edges
 * are parallel, e_i x c_j is (nearly) zero: its projections are then below
 * the error bound and the axis cannot certify, which is the seed's remark
 * after eq. (11) made rigorous. */
#include <math.h>

#include "polytope/fp.h"
#include "polytope/obb.h"

/* An upper bound on the Euclidean length of a vector whose computed
 * squared length is sq: the 2^-1000 covers underflow of the squares. */
static double norm_up(double sq) { return sqrt(sq + 0x1p-1000) * (1 + 8 * FP_U); }

/* A lower bound on margin / len for margin > 0, and 0 otherwise: margin
 * is a computed difference (within a factor 1 + u of the real one), the
 * division adds a factor 1 + u and an eta; g (1 - 8u) >= 2^-1020 leaves
 * 5u g >= eta to spare, and smaller results are replaced by 0. */
static double down_or_zero(double g)
{
    g *= 1 - 8 * FP_U;
    return g >= 0x1p-1020 ? g : 0;
}

/* One axis: the certified margin |num| - obb_up(bound) (> 0: separated).  In
 * overlap mode (gap == NULL) a positive margin ends the test; in gap mode
 * the largest margin / |L| (squared length len2) is kept. */
#define AXIS(num, bound, len2)                                                           \
    do {                                                                                 \
        double m_ = fabs(num) - obb_up(bound);                                               \
        if (m_ > 0) {                                                                    \
            if (!gap)                                                                    \
                return 0;                                                                \
            double g_ = down_or_zero(m_ / norm_up(len2));                                \
            *gap = g_ > *gap ? g_ : *gap;                                                \
        }                                                                                \
    } while (0)

/* The 15 axes of the core problem (see obb.h), shared by the overlap test
 * and the gap.  Bounds used (gamma_2, gamma_3 with generous constants):
 *   - axis e_i: numerator t_i exactly, bound ha_i + sum_k hb_k |R_ik|
 *     (exact identities; only the rounding of the sum, covered by up);
 *   - B's face normals n_j = c_{j+1} x c_{j+2} are computed: a component
 *     is within 2.01u (|p| + |q|) + 2 eta <= 4.1u Rmax^2 (floored: en) of
 *     the exact minor; the axis is the computed n_j itself, so A's radius
 *     sum_i ha_i |n_ji| is exact, |n_j . c_j| <= sum_i |n_ji| |R_ij|, and
 *     n_j . c_k (k != j) is (n_j - exact) . c_k, at most 3 Rmax en (e3);
 *     fl(n_j . t) is within 3.1u Nmax |t|_1 + 3 eta (sB);
 *   - axis e_i x c_j: numerator R_i1j t_i2 - R_i2j t_i1, within
 *     2.1u Rmax |t|_1 + 2 eta (sX); A's radius ha_i1 |R_i2j| + ha_i2 |R_i1j|;
 *     B's: |(e_i x c_j) . c_k| = |e_i . (c_j x c_k)|, that is |n_{j+2}[i]|
 *     for k = j+1 and |n_{j+1}[i]| for k = j+2, each within en; 0 for
 *     k = j.
 * Standalone eta terms are left to obb_up().  An infinite or NaN number
 * certifies nothing (an infinite numerator must not beat a finite bound).
 * Returns 0 (overlap mode: separated), 1 otherwise. */
static inline int sat15(const double ha[3], const double R[9], const double t[3],
                        const double hb[3], double *gap)
{
    const double r00 = R[0], r01 = R[1], r02 = R[2], r10 = R[3], r11 = R[4], r12 = R[5],
                 r20 = R[6], r21 = R[7], r22 = R[8];
    const double a00 = fabs(r00), a01 = fabs(r01), a02 = fabs(r02), a10 = fabs(r10),
                 a11 = fabs(r11), a12 = fabs(r12), a20 = fabs(r20), a21 = fabs(r21),
                 a22 = fabs(r22);
    const double t0 = t[0], t1 = t[1], t2 = t[2], ha0 = ha[0], ha1 = ha[1], ha2 = ha[2],
                 hb0 = hb[0], hb1 = hb[1], hb2 = hb[2];
    double rmax = a00 > a01 ? a00 : a01;
    rmax = rmax > a02 ? rmax : a02;
    rmax = rmax > a10 ? rmax : a10;
    rmax = rmax > a11 ? rmax : a11;
    rmax = rmax > a12 ? rmax : a12;
    rmax = rmax > a20 ? rmax : a20;
    rmax = rmax > a21 ? rmax : a21;
    rmax = rmax > a22 ? rmax : a22;
    const double tsum = fabs(t0) + fabs(t1) + fabs(t2);
    if (!(tsum < INFINITY && rmax < INFINITY))
        return 1;
    /* A's faces */
    AXIS(t0, ha0 + hb0 * a00 + hb1 * a01 + hb2 * a02, 1);
    AXIS(t1, ha1 + hb0 * a10 + hb1 * a11 + hb2 * a12, 1);
    AXIS(t2, ha2 + hb0 * a20 + hb1 * a21 + hb2 * a22, 1);
    /* B's face normals: n0 = c1 x c2, n1 = c2 x c0, n2 = c0 x c1 */
    const double n00 = r11 * r22 - r21 * r12, n01 = r21 * r02 - r01 * r22,
                 n02 = r01 * r12 - r11 * r02;
    const double n10 = r12 * r20 - r22 * r10, n11 = r22 * r00 - r02 * r20,
                 n12 = r02 * r10 - r12 * r00;
    const double n20 = r10 * r21 - r20 * r11, n21 = r20 * r01 - r00 * r21,
                 n22 = r00 * r11 - r10 * r01;
    const double b00 = fabs(n00), b01 = fabs(n01), b02 = fabs(n02), b10 = fabs(n10),
                 b11 = fabs(n11), b12 = fabs(n12), b20 = fabs(n20), b21 = fabs(n21),
                 b22 = fabs(n22);
    double nmax = b00 > b01 ? b00 : b01;
    nmax = nmax > b02 ? nmax : b02;
    nmax = nmax > b10 ? nmax : b10;
    nmax = nmax > b11 ? nmax : b11;
    nmax = nmax > b12 ? nmax : b12;
    nmax = nmax > b20 ? nmax : b20;
    nmax = nmax > b21 ? nmax : b21;
    nmax = nmax > b22 ? nmax : b22;
    if (!(nmax < INFINITY))
        return 1;
    const double en = obb_err_floor(4.1 * FP_U * rmax * rmax), e3 = 3.01 * rmax * en;
    const double sB = 3.1 * FP_U * nmax * tsum, sX = 2.1 * FP_U * rmax * tsum;
    /* B's faces */
    AXIS(n00 * t0 + n01 * t1 + n02 * t2,
         ha0 * b00 + ha1 * b01 + ha2 * b02 + hb0 * (b00 * a00 + b01 * a10 + b02 * a20) +
             (hb1 + hb2) * e3 + sB,
         n00 * n00 + n01 * n01 + n02 * n02);
    AXIS(n10 * t0 + n11 * t1 + n12 * t2,
         ha0 * b10 + ha1 * b11 + ha2 * b12 + hb1 * (b10 * a01 + b11 * a11 + b12 * a21) +
             (hb2 + hb0) * e3 + sB,
         n10 * n10 + n11 * n11 + n12 * n12);
    AXIS(n20 * t0 + n21 * t1 + n22 * t2,
         ha0 * b20 + ha1 * b21 + ha2 * b22 + hb2 * (b20 * a02 + b21 * a12 + b22 * a22) +
             (hb0 + hb1) * e3 + sB,
         n20 * n20 + n21 * n21 + n22 * n22);
    /* e_i x c_j: i1 = i+1, i2 = i+2, j1 = j+1, j2 = j+2 (mod 3); B's radius
     * hb_j1 |n_j2[i]| + hb_j2 |n_j1[i]| + (hb_j1 + hb_j2) en */
    const double e01 = (hb1 + hb2) * en, e12 = (hb2 + hb0) * en, e20 = (hb0 + hb1) * en;
    /* i = 0 (i1 = 1, i2 = 2) */
    AXIS(r10 * t2 - r20 * t1, ha1 * a20 + ha2 * a10 + hb1 * b20 + hb2 * b10 + e01 + sX,
         r10 * r10 + r20 * r20);
    AXIS(r11 * t2 - r21 * t1, ha1 * a21 + ha2 * a11 + hb2 * b00 + hb0 * b20 + e12 + sX,
         r11 * r11 + r21 * r21);
    AXIS(r12 * t2 - r22 * t1, ha1 * a22 + ha2 * a12 + hb0 * b10 + hb1 * b00 + e20 + sX,
         r12 * r12 + r22 * r22);
    /* i = 1 (i1 = 2, i2 = 0) */
    AXIS(r20 * t0 - r00 * t2, ha2 * a00 + ha0 * a20 + hb1 * b21 + hb2 * b11 + e01 + sX,
         r20 * r20 + r00 * r00);
    AXIS(r21 * t0 - r01 * t2, ha2 * a01 + ha0 * a21 + hb2 * b01 + hb0 * b21 + e12 + sX,
         r21 * r21 + r01 * r01);
    AXIS(r22 * t0 - r02 * t2, ha2 * a02 + ha0 * a22 + hb0 * b11 + hb1 * b01 + e20 + sX,
         r22 * r22 + r02 * r02);
    /* i = 2 (i1 = 0, i2 = 1) */
    AXIS(r00 * t1 - r10 * t0, ha0 * a10 + ha1 * a00 + hb1 * b22 + hb2 * b12 + e01 + sX,
         r00 * r00 + r10 * r10);
    AXIS(r01 * t1 - r11 * t0, ha0 * a11 + ha1 * a01 + hb2 * b02 + hb0 * b22 + e12 + sX,
         r01 * r01 + r11 * r11);
    AXIS(r02 * t1 - r12 * t0, ha0 * a12 + ha1 * a02 + hb0 * b12 + hb1 * b02 + e20 + sX,
         r02 * r02 + r12 * r12);
    return 1;
}

int obb_overlap_frame(const double ha[3], const double R[9], const double t[3],
                      const double hb[3])
{
    return sat15(ha, R, t, hb, NULL);
}

double obb_gap_frame(const double ha[3], const double R[9], const double t[3],
                     const double hb[3])
{
    double gap = 0;
    sat15(ha, R, t, hb, &gap);
    return gap;
}

int hs_obb_overlap(const hs_obb *a, const hs_obb *b) { return obb_overlap_posed(a, b, NULL); }

int obb_overlap_posed(const hs_obb *a, const hs_obb *b, const double *m)
{
    double ha[3], R[9], t[3], scale;
    if (!a || !b || obb_relative(a, b, m, ha, R, t, &scale) != 0)
        return 1;
    return obb_overlap_frame(ha, R, t, b->half);
}

/* Distances in A's frame y = A (x - c) are at most ||A||_2 = scale times
 * the world ones, so the world distance is at least gap / scale. */
double hs_obb_distance_lower_bound(const hs_obb *a, const hs_obb *b)
{
    double ha[3], R[9], t[3], scale;
    if (!a || !b || obb_relative(a, b, NULL, ha, R, t, &scale) != 0)
        return 0;
    return down_or_zero(obb_gap_frame(ha, R, t, b->half) / scale);
}
