/* draw_camera.c -- the orthographic camera of the 3-D pictures
 * (camera.h). */
#include <math.h>

#include "polytope/fp.h"
#include "src/draw/camera.h"

void camera_set_view(camera *c, double az_deg, double el_deg, int y_up)
{
    double az = az_deg * M_PI / 180, el = el_deg * M_PI / 180;
    double ca = cos(az), sa = sin(az), ce = cos(el), se = sin(el);
    if (y_up) {
        double t[3] = {ce * sa, se, ce * ca}, r[3] = {ca, 0, -sa};
        for (int j = 0; j < 3; j++)
            c->toward[j] = t[j], c->right[j] = r[j];
    } else {
        double t[3] = {ce * ca, ce * sa, se}, r[3] = {-sa, ca, 0};
        for (int j = 0; j < 3; j++)
            c->toward[j] = t[j], c->right[j] = r[j];
    }
    cross3(c->toward, c->right, c->up);
    c->scale = 1;
    c->ox = c->oy = 0;
}

void camera_fit(camera *c, const double *pts, int n, double x, double y, double w, double h,
                double margin)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int i = 0; i < n; i++) {
        double u = dot3(pts + 3 * i, c->right), v = dot3(pts + 3 * i, c->up);
        lo[0] = fmin(lo[0], u), hi[0] = fmax(hi[0], u);
        lo[1] = fmin(lo[1], v), hi[1] = fmax(hi[1], v);
    }
    if (n == 0)
        lo[0] = lo[1] = -1, hi[0] = hi[1] = 1;
    double sw = hi[0] - lo[0], sh = hi[1] - lo[1];
    double span = fmax(sw, sh) > 0 ? fmax(sw, sh) : 1;
    sw = fmax(sw, 1e-3 * span);
    sh = fmax(sh, 1e-3 * span);
    double aw = w * (1 - 2 * margin), ah = h * (1 - 2 * margin);
    c->scale = fmin(aw / sw, ah / sh);
    c->ox = x + w / 2 - c->scale * (lo[0] + hi[0]) / 2;
    c->oy = y + h / 2 + c->scale * (lo[1] + hi[1]) / 2;
}

void camera_project(const camera *c, const double p[3], double *sx, double *sy)
{
    *sx = c->ox + c->scale * dot3(p, c->right);
    *sy = c->oy - c->scale * dot3(p, c->up);
}

double camera_depth(const camera *c, const double p[3])
{
    return dot3(p, c->toward);
}
