/* chain_box.h -- the cheap tests the self-collision recursion runs on a
 * pair of boxes before the face-axis test of seed 004 (obb_overlap_frame_faces,
 * polytope/obb.h), inline: they run once per box pair.
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
 * separates is false for NaN. */
#ifndef HS_CHAIN_BOX_H
#define HS_CHAIN_BOX_H

#include <math.h>

#include "src/chain.h"

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
    if (fabs(t[0]) <= ha[0] && fabs(t[1]) <= ha[1] && fabs(t[2]) <= ha[2])
        return 1;
    double ra = ha[0] < ha[1] ? ha[0] : ha[1], rb = hb[0] < hb[1] ? hb[0] : hb[1];
    ra = ra < ha[2] ? ra : ha[2];
    rb = rb < hb[2] ? rb : hb[2];
    double r = (ra + rb) * (1 - 0x1p-20);
    return t[0] * t[0] + t[1] * t[1] + t[2] * t[2] < r * r;
}

#endif
