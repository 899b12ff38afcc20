/* pose.h -- internal helpers on 4x4 poses (public builders in halfspace.h). */
#ifndef HS_POSE_H
#define HS_POSE_H

#include "halfspace.h"

/* Finite, last row 0 0 0 1, invertible linear part. */
int pose_is_valid(const double m[16]);
double pose_det3(const double m[16]);
void pose_inverse(double out[16], const double m[16]);
/* out = host^-1 other: the frame of `other` expressed in the frame of
 * `host` (bodies keep only their pose; this is where a pose is inverted). */
void pose_relative(double out[16], const double host[16], const double other[16]);
/* The same with host^-1 given (pose_inverse of host: the same numbers as
 * pose_relative gives). */
void pose_relative_inv(double out[16], const double host_inv[16], const double other[16]);
/* out = m p (point) / m v (direction, no translation); out may alias. */
void pose_apply(const double m[16], const double p[3], double out[3]);
/* Coordinate i of pose_apply(m, p): the same sum in the same order,
 * inline for tight loops. */
static inline double pose_apply_row(const double m[16], int i, const double p[3])
{
    return m[4 * i] * p[0] + m[4 * i + 1] * p[1] + m[4 * i + 2] * p[2] + m[4 * i + 3];
}
void pose_apply_linear(const double m[16], const double v[3], double out[3]);
/* Row a.x <= b of frame F expressed in frame G, given inv = (F->G)^-1. */
void pose_map_row(const double inv[16], const double a[3], double b, double a_out[3],
                  double *b_out);
/* Relative widening of mapped boxes (see pose_map_box). */
#define POSE_BOX_SLACK 0x1p-30

/* Box containing the image of [lo, hi] under m (safely widened). */
void pose_map_box(const double m[16], const double lo[3], const double hi[3], double out_lo[3],
                  double out_hi[3]);

#endif
