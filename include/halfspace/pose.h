/*
 * halfspace/pose.h -- poses: 4x4 row-major matrices placing a body, a
 * piece, a path's start or a chain's link in space, and the routines
 * that build and compose them.  Part of the public API of libhalfspace;
 * programs include "halfspace.h", which includes this file.
 */
#include "../halfspace.h"

#ifndef HALFSPACE_POSE_H
#define HALFSPACE_POSE_H

#ifdef __cplusplus
extern "C" {
#endif

/* A pose is a 4x4 row-major matrix m (double[16]) mapping body
 * coordinates to world coordinates, x_world = R x + t with R = m[0..2],
 * m[4..6], m[8..10] by rows and t = (m[3], m[7], m[11]); the last row is
 * 0 0 0 1.  Where a routine needs a valid pose it means finite entries,
 * that last row and an invertible R (any invertible affine map); a rigid
 * pose moreover has R orthonormal with det R > 0 (to the tolerance each
 * routine states).
 *
 * The builders below write the whole of m (16 doubles, not NULL) and read
 * their other arguments only; t (double[3]) may be NULL for no
 * translation.  They are pure functions: thread-safe. */

/* The identity. */
HS_API void hs_pose_identity(double m[16]);
/* Rotation R (double[9], row-major, not NULL; taken as given, not
 * checked) and translation t. */
HS_API void hs_pose_from_rt(double m[16], const double R[9], const double t[3]);
/* Z-Y-Z Euler angles (radians) as in seed 004, eq. (1):
 * R = Rz(alpha) Ry(beta) Rz(gamma). */
HS_API void hs_pose_from_zyz(double m[16], double alpha, double beta, double gamma,
                             const double t[3]);
/* Rotation by angle (radians) about axis (double[3], not NULL, any
 * nonzero length; normalised here).  Returns HS_OK, or HS_ERR_ARG (m
 * untouched) for a zero or non-finite axis or a non-finite angle. */
HS_API hs_code hs_pose_from_axis_angle(double m[16], const double axis[3], double angle,
                                       const double t[3], hs_error *err);
/* Unit quaternion q = (w, x, y, z) (double[4], not NULL; normalised
 * here).  Returns HS_OK, or HS_ERR_ARG (m untouched) if q is zero or not
 * finite. */
HS_API hs_code hs_pose_from_quat(double m[16], const double q[4], const double t[3],
                                 hs_error *err);
/* out = a b (apply b, then a); out may alias a or b.  All three not
 * NULL. */
HS_API void hs_pose_multiply(double out[16], const double a[16], const double b[16]);

#ifdef __cplusplus
}
#endif

#endif /* HALFSPACE_POSE_H */
