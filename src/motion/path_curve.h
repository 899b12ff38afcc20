/* path_curve.h -- the curve a body moves along (path_curve.c), as poses
 * p(f) for f in [0, 1], of one of two kinds:
 *  - a straight line (seed 004, section 4): the translation moves linearly,
 *    the rotation turns about one fixed axis at a constant rate (slerp,
 *    shortest arc); used by hs_world_move_until_contact and hs_path_line;
 *  - a circular arc through three points (seed 004, section 5): the
 *    body's origin moves along the circle at a constant angular rate; the
 *    orientation stays fixed or turns with the arc. */
#ifndef HS_PATH_CURVE_H
#define HS_PATH_CURVE_H

#include "halfspace.h"

typedef struct line_curve {
    double qa[4], qb[4];  /* rotations as unit quaternions (w, x, y, z), qa.qb >= 0 */
    double ra[9];         /* start rotation, kept exactly when it does not change */
    int same_rotation;    /* start and end rotations are equal (bit for bit) */
    double ta[3], tb[3];  /* translations */
    double angle;         /* total rotation angle, radians */
} line_curve;

typedef struct arc_curve {
    double centre[3];
    double normal[3];     /* unit; the arc turns counterclockwise about it */
    double u[3], v[3];    /* u = p0 - centre, v = normal x u (|u| = |v| = radius) */
    double radius, theta; /* theta in (0, 2 pi): the arc angle */
    double p0[3], p2[3];  /* exact end points */
    double ra[9];         /* start rotation */
    int turn;             /* nonzero: the rotation turns with the arc */
} arc_curve;

typedef enum curve_kind { CURVE_LINE, CURVE_ARC } curve_kind;

typedef struct path_curve {
    curve_kind kind;
    line_curve line; /* kind == CURVE_LINE */
    arc_curve arc;   /* kind == CURVE_ARC */
} path_curve;

/* The line from pose a to pose b (rigid poses). */
void curve_line_init(path_curve *c, const double a[16], const double b[16]);

/* The arc from start's translation p0 through via to end.  HS_ERR_ARG for
 * non-finite, coincident or collinear points (collinear: the cross
 * product (via - p0) x (end - p0) is zero to within its rounding error
 * bound, so no circle is defined in double precision). */
hs_code curve_arc_init(path_curve *c, const double start[16], const double via[3],
                       const double end[3], int turn, hs_error *err);

/* Pose at fraction f.  Line: p(0) = a, p(1) has b's translation exactly,
 * rotation by slerp.  Arc: the origin at angle f theta along the arc (p0
 * and end exactly at f = 0 and 1); the rotation fixed, or turned by f
 * theta about the normal. */
void curve_pose(const path_curve *c, double f, double out[16]);

/* Bound on |d x / d f| for the points x at most `radius` from the body's
 * origin.  Line: the translation's length plus angle * radius.  Arc:
 * radius_of_arc * theta, plus theta * radius when the body turns. */
double curve_speed(const path_curve *c, double radius);

/* Length of the curve the body's origin follows. */
double curve_length(const path_curve *c);

#endif
