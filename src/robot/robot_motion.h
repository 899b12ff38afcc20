/* robot_motion.h -- the bounds of the guaranteed motion check
 * (robot_bound.c) for robot_motion.c: how fast the links move along a
 * straight joint-space motion, and certified lower bounds on distances. */
#ifndef HS_ROBOT_MOTION_H
#define HS_ROBOT_MOTION_H

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/robot/robot.h"

/* Rates of one motion qa -> qb (per unit of t). */
typedef struct motion_rates {
    double *dq;    /* per joint: |change of its value|, rounded up */
    double *step;  /* per joint: largest distance of its child frame's
                      origin from its parent's on the motion */
} motion_rates;

hs_code robot_motion_rates(const hs_robot *r, const double *qa, const double *qb,
                           motion_rates *mr, hs_error *err);
void robot_motion_rates_free(motion_rates *mr);
/* Bound on how fast links x and y approach each other (y = -1: link x
 * and the world), rounded up: over [t0, t1] by (t1 - t0) times it. */
double robot_pair_rate(const hs_robot *r, const motion_rates *mr, int x, int y);

/* Certified lower bounds on the distance (0 when they may meet) between
 * link a at pose A and link b at pose B, or body bd; computed only as far
 * as needed to reach `enough`.  dir (3 doubles, may be NULL): GJK's warm
 * start for the pair, kept between calls (see robot_cert_lower_bound). */
double robot_links_lower_bound(robot_ws *ws, const hs_robot *r, int a, const double A[16],
                               int b, const double B[16], double enough, double *dir);
double robot_link_body_lower_bound(robot_ws *ws, const hs_robot *r, int a, const double A[16],
                                   const hs_body *bd, double enough, double *dir);

#endif
