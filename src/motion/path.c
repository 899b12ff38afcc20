/* path.c -- building paths (a straight line, seed 004 section 4; an arc
 * through three points, section 5), their poses and their steps: K given,
 * or from a speed F and an interpolation period T (a step of length F T
 * on a line; the seed's step angle delta = asin(F T / R) on an arc). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/motion/path.h"
#include "src/shape/pose.h"

/* Rotation part orthonormal with determinant 1, to within 1e-9 an entry
 * (the documented tolerance of a "rigid" start pose). */
static int pose_is_rigid(const double m[16])
{
    if (!pose_is_valid(m) || !(pose_det3(m) > 0))
        return 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++)
                s += m[4 * k + i] * m[4 * k + j];
            if (!(fabs(s - (i == j)) <= 1e-9))
                return 0;
        }
    return 1;
}

static hs_path *path_new(const double start[16], const char *kind, hs_error *err)
{
    if (!start || !pose_is_rigid(start)) {
        err_set(err, HS_ERR_ARG, "%s: the start pose must be rigid (finite, last row 0 0 0 1, "
                                 "orthonormal rotation with determinant 1)", kind);
        return NULL;
    }
    hs_path *p = calloc(1, sizeof *p);
    if (!p)
        err_set(err, HS_ERR_NOMEM, "out of memory");
    else
        memcpy(p->start, start, sizeof p->start);
    return p;
}

hs_path *hs_path_line(const double start[16], const double target[3], const double *zyz,
                      hs_error *err)
{
    if (!target || !isfinite(target[0]) || !isfinite(target[1]) || !isfinite(target[2]) ||
        (zyz && !(isfinite(zyz[0]) && isfinite(zyz[1]) && isfinite(zyz[2])))) {
        err_set(err, HS_ERR_ARG, "line: the target translation and angles must be finite");
        return NULL;
    }
    hs_path *p = path_new(start, "line", err);
    if (!p)
        return NULL;
    double end[16];
    if (zyz) {
        hs_pose_from_zyz(end, zyz[0], zyz[1], zyz[2], target);
    } else {
        memcpy(end, start, sizeof end);
        end[3] = target[0], end[7] = target[1], end[11] = target[2];
    }
    curve_line_init(&p->curve, start, end);
    return p;
}

hs_path *hs_path_arc(const double start[16], const double via[3], const double end[3], int turn,
                     hs_error *err)
{
    if (!via || !end) {
        err_set(err, HS_ERR_ARG, "arc: NULL via or end point");
        return NULL;
    }
    hs_path *p = path_new(start, "arc", err);
    if (p && curve_arc_init(&p->curve, start, via, end, turn, err) != HS_OK) {
        free(p);
        return NULL;
    }
    return p;
}

void hs_path_free(hs_path *p) { free(p); }

int hs_path_is_arc(const hs_path *p) { return p && p->curve.kind == CURVE_ARC; }

double hs_path_length(const hs_path *p)
{
    return p ? curve_length(&p->curve) : 0;
}

hs_code hs_path_arc_geometry(const hs_path *p, double centre[3], double normal[3],
                             double *radius, double *theta, hs_error *err)
{
    if (!p || p->curve.kind != CURVE_ARC)
        return err_set(err, HS_ERR_ARG, "arc geometry: the path is not an arc");
    if (centre)
        memcpy(centre, p->curve.arc.centre, sizeof p->curve.arc.centre);
    if (normal)
        memcpy(normal, p->curve.arc.normal, sizeof p->curve.arc.normal);
    if (radius)
        *radius = p->curve.arc.radius;
    if (theta)
        *theta = p->curve.arc.theta;
    return HS_OK;
}

static void pose_at(const hs_path *p, double f, double out[16])
{
    if (f == 0)
        memcpy(out, p->start, sizeof p->start);
    else
        curve_pose(&p->curve, f, out);
}

hs_code hs_path_pose(const hs_path *p, double f, double out[16], hs_error *err)
{
    if (!p || !out || !(f >= 0 && f <= 1))
        return err_set(err, HS_ERR_ARG, "path pose: a path and a fraction in [0, 1]");
    pose_at(p, f, out);
    return HS_OK;
}

/* adv_pose_fn over a whole path (the start pose exactly at f = 0). */
static void path_pose_fn(const void *curve, double f, double out[16]) { pose_at(curve, f, out); }

void path_motion(const hs_path *p, double body_radius, adv_motion *m)
{
    m->pose_at = path_pose_fn;
    m->curve = p;
    m->speed = curve_speed(&p->curve, body_radius);
}

void hs_path_options_init(hs_path_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->steps = 10;
    opt->threshold = 0.1;
    hs_query_options_init(&opt->query);
}

/* Steps from a speed F and a period T: a step of length F T on a line;
 * on an arc the seed's step angle delta = asin(F T / R) (seed 004, eq.
 * (31)), saturated at pi/2 when F T > R. */
static hs_code steps_from_speed(const hs_path *p, double ft, double *k, hs_error *err)
{
    if (p->curve.kind == CURVE_ARC) {
        double delta = asin(fmin(1, ft / p->curve.arc.radius));
        *k = ceil(p->curve.arc.theta / delta);
    } else {
        double len = hs_path_length(p);
        if (!(len > 0))
            return err_set(err, HS_ERR_ARG, "steps: a line of length 0 (a rotation in place) "
                                            "needs a number of steps, not a speed");
        *k = ceil(len / ft);
    }
    return HS_OK;
}

hs_code hs_path_step_count(const hs_path *p, const hs_path_options *opt, int *steps,
                           hs_error *err)
{
    if (!p || !opt || !steps)
        return err_set(err, HS_ERR_ARG, "steps: NULL argument");
    double k = opt->steps;
    if (opt->steps < 0)
        return err_set(err, HS_ERR_ARG, "steps: the number of steps must be >= 1, not %d",
                       opt->steps);
    if (opt->steps > 0 && (opt->speed != 0 || opt->period != 0))
        return err_set(err, HS_ERR_ARG, "steps: give a number of steps or a speed and a "
                                        "period, not both");
    if (opt->steps == 0) {
        double ft = opt->speed * opt->period;
        if (!(opt->speed > 0) || !(opt->period > 0) || !isfinite(opt->speed) ||
            !isfinite(opt->period) || !(ft > 0) || !isfinite(ft))
            return err_set(err, HS_ERR_ARG, "steps: the speed and the period must be finite "
                                            "and > 0 (speed %g, period %g)",
                           opt->speed, opt->period);
        hs_code rc = steps_from_speed(p, ft, &k, err);
        if (rc != HS_OK)
            return rc;
    }
    if (!(k <= HS_PATH_MAX_STEPS))
        return err_set(err, HS_ERR_ARG, "steps: %.3g steps, more than the limit %d; take "
                                        "fewer steps or a higher speed",
                       k, HS_PATH_MAX_STEPS);
    *steps = k < 1 ? 1 : (int)k;
    return HS_OK;
}

hs_code hs_path_step_poses(const hs_path *p, const hs_path_options *opt, double **poses,
                           int *count, hs_error *err)
{
    int k;
    if (!poses || !count)
        return err_set(err, HS_ERR_ARG, "step poses: NULL argument");
    hs_code rc = hs_path_step_count(p, opt, &k, err);
    if (rc != HS_OK)
        return rc;
    double *out = mem_alloc((size_t)k + 1, 16 * sizeof *out);
    if (!out)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int i = 0; i <= k; i++)
        pose_at(p, (double)i / k, out + 16 * i);
    *poses = out;
    *count = k + 1;
    return HS_OK;
}
