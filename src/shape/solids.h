/* solids.h -- points of the primitive solids (solids.c), in the solid's
 * own frame, for their convex hulls.  Sizes are the caller's to check. */
#ifndef HS_SOLIDS_H
#define HS_SOLIDS_H

/* The 8 corners of the box of full sizes size[], centred at the origin. */
void solid_box_points(const double size[3], double pts[24]);

/* A cylinder (axis y, centred): two rings of `sides` points at
 * y = -height/2 and height/2 (2 sides points); a cone: the ring at
 * -height/2 and the apex (0, height/2, 0) (sides + 1 points).  New arrays
 * (3 doubles per point) to free, or NULL when out of memory. */
double *solid_cylinder_points(double radius, double height, int sides);
double *solid_cone_points(double radius, double height, int sides);

/* The corners of the icosahedron subdivided `level` times, on the unit
 * sphere: *out_pts (3 * *out_n doubles, to free).  0, or -1 when out of
 * memory. */
int solid_icosphere_points(int level, double **out_pts, int *out_n);

#endif
