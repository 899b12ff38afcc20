/* advance.h -- moving one body of a world along a curve of poses and
 * watching its distance to the others: the start check, conservative
 * advancement (seed 001's move until contact, no tunnelling) and the
 * bisection between a free and a blocked pose.  Shared by move.c
 * (hs_world_move_until_contact) and path_check.c (hs_path_check). */
#ifndef HS_ADVANCE_H
#define HS_ADVANCE_H

#include "halfspace.h"

/* A curve of poses p(f), f in [0, 1], and a bound on how fast any point
 * of the moved body travels: |d x / d f| <= speed for every point x of
 * the body (see adv_body_radius). */
typedef void (*adv_pose_fn)(const void *curve, double f, double out[16]);

typedef struct adv_motion {
    adv_pose_fn pose_at;
    const void *curve;
    double speed;
} adv_motion;

/* One body moved along one motion, and the count of distance queries. */
typedef struct adv_ctx {
    const hs_world *w;
    hs_body *b;
    const adv_motion *m;
    const char *who; /* prefix of error messages ("move", "path") */
    long queries;
} adv_ctx;

/* Halvings of a bisection at most: 2^-60 of the interval, below the
 * resolution of a double fraction. */
#define ADV_BISECTIONS 60

/* Largest distance from the body's origin to a point of its pieces,
 * rounded up (0 for a body without pieces). */
double adv_body_radius(const hs_body *b);

/* How close the body is: the distance d to the nearest body it may
 * collide with, and whether it has a common point with one (met, decided
 * exactly; then d = 0).  A distance of 0 without a common point is a gap
 * below the resolution of the floating-point distance. */
typedef struct adv_gap {
    double d;
    int met;
} adv_gap;

/* The gap of b among the bodies whose boxes come within `cap` of b's box
 * (INFINITY: all of them); d = INFINITY when none is that close. */
hs_code adv_nearest(adv_ctx *c, double cap, adv_gap *g, hs_error *err);

/* Put the body at p(f) and measure adv_nearest(cap) there. */
hs_code adv_place(adv_ctx *c, double f, double cap, adv_gap *g, hs_error *err);

/* A pose is blocked when the body has a common point with another body
 * or comes closer than the threshold; with zero_blocks, a distance of 0
 * blocks too (the conservative reading, for advancement). */
int adv_blocked(const adv_gap *g, double threshold, int zero_blocks);

/* The body at p(0): HS_ERR_INPUT when it is in collision (a common point,
 * or a distance of 0); otherwise *thr_used is threshold, or half the
 * starting distance when the body starts closer than the threshold (so
 * that it can move away from a contact), and *g0 the starting gap. */
hs_code adv_start(adv_ctx *c, double threshold, double *thr_used, adv_gap *g0, hs_error *err);

/* Bisection between a free fraction *lo and a blocked *hi (gap *g_hi
 * there; blocked as adv_blocked): halve, keeping a free pose below and a
 * blocked one above, until the body's points move less than the
 * threshold between the two (then the pose at *hi is within the threshold
 * without a common point), or ADV_BISECTIONS times.  The body is left at
 * an unspecified pose. */
hs_code adv_bisect(adv_ctx *c, double threshold, int zero_blocks, double *lo, double *hi,
                   adv_gap *g_hi, hs_error *err);

/* Where conservative advancement stopped. */
typedef struct adv_stop {
    double f_free;    /* last pose measured at or beyond the threshold */
    double f_stop;    /* the stopping pose (1 when the whole motion is free) */
    adv_gap stop;     /* the gap there */
    double threshold; /* the threshold used (see adv_start) */
} adv_stop;

/* Conservative advancement from p(0) (checked by adv_start): each step is
 * the current distance d minus threshold/2 over the speed bound, so every
 * pose in between stays at least threshold/2 from everything; stops at
 * the first measured pose closer than the threshold, or at p(1).  A step
 * that lands in collision all the same (round-off; a distance of 0 counts)
 * is bisected back to a free pose.  HS_ERR_ARG when the motion is longer than 5e6 thresholds.
 * The body is left at the stopping pose. */
hs_code adv_run(adv_ctx *c, double threshold, adv_stop *out, hs_error *err);

#endif
