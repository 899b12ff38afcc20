/* robot_build.h -- how a URDF model becomes a robot: shapes made points or
 * meshes (robot_shapes.c), then the robot itself (robot_build.c). */
#ifndef HS_ROBOT_BUILD_H
#define HS_ROBOT_BUILD_H

#include "halfspace.h"
#include "src/robot/robot.h"
#include "src/robot/robot_mesh.h"
#include "src/robot/urdf.h"

/* Shape s as points (and triangles for a mesh kept as a mesh) in its
 * link's frame (scaled, placed by its origin).  *skipped = 1 (HS_OK,
 * nothing made, a warning added to m) for a missing mesh file when the
 * options allow it.  Errors "FILE:LINE: what" at s's line. */
hs_code robot_shape_make(const urdf_shape *s, urdf_model *m, const hs_robot_options *o,
                         robot_mesh *out, int *skipped, hs_error *err);
/* The piece made of it (a new geometry, reference count 0): the convex
 * hull of the points, or the triangle mesh.  NULL with err located at
 * s's line. */
geom *robot_shape_geom(const robot_mesh *pm, const urdf_model *m, const urdf_shape *s,
                       hs_error *err);

/* A robot from the model (the model's warnings are taken over).  NULL
 * with err set. */
hs_robot *robot_build(urdf_model *m, const hs_robot_options *o, hs_error *err);

#endif
