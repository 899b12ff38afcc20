/* chain_shapes.h -- pieces of chain files made convex hulls of points:
 * capsules, boxes, hulls and meshes (chain_shapes.c). */
#ifndef HS_CHAIN_SHAPES_H
#define HS_CHAIN_SHAPES_H

#include "halfspace.h"

/* The convex hull of n points placed by the rigid pose m (NULL: none). */
hs_code chain_add_points(hs_chain *c, int link, const double *pts, int n, const double *m,
                         hs_error *err);
/* A capsule from a to b of radius r, as the convex hull of two icospheres
 * (level 1, 42 corners) scaled out so that their facets lie outside the
 * true spheres: the piece contains the capsule and exceeds it by less
 * than 7% of r. */
hs_code chain_add_capsule(hs_chain *c, int link, const double a[3], const double b[3], double r,
                          hs_error *err);
/* A box of full sizes size[], centred, placed by m. */
hs_code chain_add_box(hs_chain *c, int link, const double size[3], const double *m,
                      hs_error *err);
/* The convex hull of the points of a mesh file (.stl, .obj, .off), placed
 * by m; errors of the reader keep their "FILE:LINE:" prefix. */
hs_code chain_add_mesh_hull(hs_chain *c, int link, const char *path, const double *m,
                            hs_error *err);

/* Scale that makes the level-1 icosphere (unit corners) contain the unit
 * ball: 1 / (its inradius), rounded up. */
double chain_icosphere_scale(void);
/* The 42 unit corners of the level-1 icosphere. */
void chain_icosphere_points(double pts[42 * 3]);

#endif
