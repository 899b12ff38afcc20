/* path.h -- the structure behind hs_path, shared by path.c (building,
 * poses, steps) and path_check.c (checking a body along it). */
#ifndef HS_PATH_H
#define HS_PATH_H

#include "halfspace.h"
#include "src/motion/advance.h"
#include "src/motion/path_curve.h"

struct hs_path {
    double start[16];
    path_curve curve;
};

/* The path as a motion for advance.c, for a body whose points lie at
 * most body_radius from its origin. */
void path_motion(const hs_path *p, double body_radius, adv_motion *m);

#endif
