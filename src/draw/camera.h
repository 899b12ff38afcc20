/* camera.h -- the orthographic camera of the 3-D pictures (polyhedra and
 * scenes): a view given by azimuth and elevation in degrees about the
 * scene's up axis (z for .ine systems, y for VRML scenes), fitted to a
 * rectangle of the canvas so that given points fill it. */
#ifndef HS_DRAW_CAMERA_H
#define HS_DRAW_CAMERA_H

typedef struct camera {
    double right[3], up[3], toward[3]; /* orthonormal; toward points at the viewer */
    double scale, ox, oy;              /* screen = (ox + scale p.right, oy - scale p.up) */
} camera;

/* The view: az = 0, el = 0 looks along -x with z up (y_up = 0), or
 * along -z with y up (y_up = 1, VRML's default viewpoint); az turns the
 * viewer about the up axis, el raises it. */
void camera_set_view(camera *c, double az_deg, double el_deg, int y_up);
/* Scale and offset so that the n points (3 n doubles) fill the rectangle
 * (x, y, w, h) less a margin (fraction of w and h on each side). */
void camera_fit(camera *c, const double *pts, int n, double x, double y, double w, double h,
                double margin);
void camera_project(const camera *c, const double p[3], double *sx, double *sy);
/* Distance towards the viewer (larger is nearer). */
double camera_depth(const camera *c, const double p[3]);

#endif
