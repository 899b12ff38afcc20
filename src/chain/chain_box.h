/* chain_box.h -- the tests the self-collision recursion runs on a pair of
 * boxes, inline: they run once per box pair.
 *
 * The pair is seen in A's box frame: A is the axis box [-ha, ha], B the
 * parallelotope {t + R s : |s_k| <= hb_k} where R is the product of the
 * `up` rotations along the path, a rotation up to a defect eps (a bound on
 * ||R^T R - I||_2, propagated from the defects measured when each `up`
 * was computed), so ||R||_2 <= 1 + eps and R's smallest singular value is
 * at least 1 - eps.  The slack (chain_box_slack) is added to A's half
 * sizes: it covers the difference between these propagated transforms and
 * the ones placing the leaves' pieces, and the rounding of these few
 * operations (2^-30 relative, far above it).  Every comparison that
 * separates is false for NaN.  The comparisons of one test are combined
 * with | and &, not || and &&: their outcomes follow the geometry and
 * defeat branch prediction, and on bench/chain evaluating all of them
 * is faster than a mispredicted early exit. */
#ifndef HS_CHAIN_BOX_H
#define HS_CHAIN_BOX_H

#include <math.h>

#include "src/chain/chain.h"

/* The balls of radius rho around the nodes' pieces are apart (it needs
 * only the translation). */
static inline int chain_spheres_apart(const double t[3], double rho_a, double rho_b, double eps,
                                      double slack)
{
    double r = rho_a + 2 * slack + rho_b * (1 + eps); /* A grew by slack per axis */
    return t[0] * t[0] + t[1] * t[1] + t[2] * t[2] > r * r * (1 + 0x1p-40);
}

/* The boxes certainly meet, and the axis tests can be skipped: B's
 * centre lies in A, or the balls inscribed in the boxes (radius the
 * smallest half size) meet.  (The balls lie inside the boxes for any
 * rounding: B's ball has radius min hb scaled by the smallest singular
 * value of R, at least 1 - eps; the margin 2^-20 covers that and the
 * rounding.) */
static inline int chain_balls_meet(const double t[3], const double ha[3], const double hb[3])
{
    /* B's centre inside A: a common point */
    int inside = (fabs(t[0]) <= ha[0]) & (fabs(t[1]) <= ha[1]) & (fabs(t[2]) <= ha[2]);
    double ra = ha[0] < ha[1] ? ha[0] : ha[1], rb = hb[0] < hb[1] ? hb[0] : hb[1];
    ra = ra < ha[2] ? ra : ha[2];
    rb = rb < hb[2] ? rb : hb[2];
    double r = (ra + rb) * (1 - 0x1p-20);
    return inside | (t[0] * t[0] + t[1] * t[1] + t[2] * t[2] < r * r);
}

/* The pair along B's axes c_j (the columns of R): pb_j = c_j . t, the
 * offset of B's centre from A's along c_j (A's centre sits at about -pb
 * in B's box coordinates), and ra_j = sum_i ha_i |R_ij|, A's radius
 * along c_j.  The face test below reads them, and a descent into B's
 * children reuses them. */
typedef struct chain_b_view {
    double pb[3], ra[3];
} chain_b_view;

static inline void chain_view_from_b(chain_b_view *v, const double ha[3], const double R[9],
                                     const double t[3])
{
    for (int j = 0; j < 3; j++) {
        v->pb[j] = R[j] * t[0] + R[3 + j] * t[1] + R[6 + j] * t[2];
        v->ra[j] = ha[0] * fabs(R[j]) + ha[1] * fabs(R[3 + j]) + ha[2] * fabs(R[6 + j]);
    }
}

/* Seed 004's separating-axis test (eq. (5)) on the six face axes, for
 * the propagated R.  On any direction u the boxes are apart when
 * |u . t| > sum_i ha_i |u_i| + sum_k hb_k |u . c_k| (c_k: column k of R,
 * B's edge k), whatever R is.  We take u = e_i (A's faces; exact) and
 * u = c_j (v, from chain_view_from_b), which is B's face normal only up
 * to the defect e of R: with ||R^T R - I||_2 <= e, |c_j . c_j| <= 1 + e
 * and |c_j . c_k| <= e, so B's radius along c_j is at most
 * hb_j + e (hb_0 + hb_1 + hb_2).  No cross products, no division.  The
 * rounding of these sums (a few units of roundoff of |t| and the sizes)
 * is covered by the slack included in ha, as for the tests above: along
 * c_j it adds slack |c_j|_1 >= slack / 2.  An infinite e (R not trusted)
 * never separates along c_j; NaN never separates.  The edge-edge axes
 * are left out (see chain_self.c). */
static inline int chain_faces_apart(const double ha[3], const double R[9], const double t[3],
                                    const double hb[3], double e, const chain_b_view *v)
{
    const double h0 = hb[0], h1 = hb[1], h2 = hb[2];
    const double g = e * (h0 + h1 + h2);
    return (fabs(t[0]) > ha[0] + h0 * fabs(R[0]) + h1 * fabs(R[1]) + h2 * fabs(R[2])) |
           (fabs(t[1]) > ha[1] + h0 * fabs(R[3]) + h1 * fabs(R[4]) + h2 * fabs(R[5])) |
           (fabs(t[2]) > ha[2] + h0 * fabs(R[6]) + h1 * fabs(R[7]) + h2 * fabs(R[8])) |
           (fabs(v->pb[0]) > v->ra[0] + h0 + g) | (fabs(v->pb[1]) > v->ra[1] + h1 + g) |
           (fabs(v->pb[2]) > v->ra[2] + h2 + g);
}

#endif
