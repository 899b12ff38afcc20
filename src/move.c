/* move.c -- move until contact (seed 001): a body moves from a free pose
 * towards a goal and stops at the first pose within the contact threshold
 * of another body.  The motion is advanced conservatively: from the
 * current distance d to the nearest obstacle and a bound on how fast any
 * point of the body moves, a step that cannot close more than d - thr/2
 * is taken, so the body never passes through a thin obstacle (no
 * tunnelling), whatever the goal. */
#include <math.h>
#include <string.h>

#include "src/error.h"
#include "src/pose.h"
#include "src/world.h"

/* Rotation part of a pose as a unit quaternion (w, x, y, z). */
static void quat_of(const double m[16], double q[4])
{
    double tr = m[0] + m[5] + m[10];
    if (tr > 0) {
        double s = 2 * sqrt(tr + 1);
        q[0] = s / 4;
        q[1] = (m[9] - m[6]) / s;
        q[2] = (m[2] - m[8]) / s;
        q[3] = (m[4] - m[1]) / s;
    } else if (m[0] > m[5] && m[0] > m[10]) {
        double s = 2 * sqrt(1 + m[0] - m[5] - m[10]);
        q[0] = (m[9] - m[6]) / s;
        q[1] = s / 4;
        q[2] = (m[1] + m[4]) / s;
        q[3] = (m[2] + m[8]) / s;
    } else if (m[5] > m[10]) {
        double s = 2 * sqrt(1 + m[5] - m[0] - m[10]);
        q[0] = (m[2] - m[8]) / s;
        q[1] = (m[1] + m[4]) / s;
        q[2] = s / 4;
        q[3] = (m[6] + m[9]) / s;
    } else {
        double s = 2 * sqrt(1 + m[10] - m[0] - m[5]);
        q[0] = (m[4] - m[1]) / s;
        q[1] = (m[2] + m[8]) / s;
        q[2] = (m[6] + m[9]) / s;
        q[3] = s / 4;
    }
}

/* The motion: translation linear, rotation by slerp along the shortest
 * arc, so the angular speed is the constant `angle` per unit fraction. */
typedef struct motion {
    double qa[4], qb[4], ta[3], tb[3];
    double angle; /* total rotation angle, radians */
    double speed; /* bound on |d point / d fraction| over the body */
} motion;

static void motion_init(motion *mv, const double a[16], const double b[16], double radius)
{
    quat_of(a, mv->qa);
    quat_of(b, mv->qb);
    double c = 0, dt = 0;
    for (int i = 0; i < 4; i++)
        c += mv->qa[i] * mv->qb[i];
    if (c < 0) {
        c = -c;
        for (int i = 0; i < 4; i++)
            mv->qb[i] = -mv->qb[i];
    }
    for (int i = 0; i < 3; i++) {
        mv->ta[i] = a[4 * i + 3];
        mv->tb[i] = b[4 * i + 3];
        dt += (mv->tb[i] - mv->ta[i]) * (mv->tb[i] - mv->ta[i]);
    }
    mv->angle = 2 * acos(fmin(1, c));
    /* a point x of the body moves at most |dt| + angle * |x| per unit f */
    mv->speed = sqrt(dt) + mv->angle * radius;
}

static void motion_at(const motion *mv, double f, double out[16])
{
    double q[4], t[3], wa = 1 - f, wb = f, half = mv->angle / 2;
    if (half > 1e-9) {
        wa = sin((1 - f) * half) / sin(half);
        wb = sin(f * half) / sin(half);
    }
    for (int i = 0; i < 4; i++)
        q[i] = wa * mv->qa[i] + wb * mv->qb[i];
    for (int i = 0; i < 3; i++)
        t[i] = (1 - f) * mv->ta[i] + f * mv->tb[i];
    if (f == 1)
        memcpy(t, mv->tb, sizeof t);
    hs_pose_from_quat(out, q, t, NULL);
}

/* Largest distance from the body origin to a point of its pieces. */
static double body_radius(const hs_body *b)
{
    double r2 = 0;
    for (int i = 0; i < b->npieces; i++) {
        const geom *g = b->piece[i];
        const double *v = g->kind == PIECE_CONVEX ? g->verts : g->mv;
        int n = g->kind == PIECE_CONVEX ? g->nverts : g->nmv;
        for (int k = 0; k < n; k++)
            r2 = fmax(r2, v[3 * k] * v[3 * k] + v[3 * k + 1] * v[3 * k + 1] +
                              v[3 * k + 2] * v[3 * k + 2]);
    }
    return sqrt(r2) * (1 + 1e-12);
}

static double box_gap(const hs_body *a, const hs_body *b)
{
    double s = 0;
    for (int d = 0; d < 3; d++) {
        double g = fmax(a->lo[d] - b->hi[d], b->lo[d] - a->hi[d]);
        if (g > 0)
            s += g * g;
    }
    return sqrt(s);
}

/* Distance from b to the nearest body it may collide with (0: they meet,
 * decided exactly; INFINITY: nothing in the world). */
static hs_code nearest(const hs_world *w, const hs_body *b, double *best, hs_error *err)
{
    *best = INFINITY;
    for (int i = 0; i < w->nbodies && *best > 0; i++) {
        const hs_body *o = w->bodies[i];
        if (o == b || o->npieces == 0 || !world_pair_allowed(w, b, o) || box_gap(b, o) >= *best)
            continue;
        double d, pa[3], pb[3];
        hs_code rc = hs_world_distance(w, b, o, &d, pa, pb, err);
        if (rc != HS_OK)
            return rc;
        *best = fmin(*best, d);
    }
    return HS_OK;
}

/* Poses along the motion at most this many steps apart in f are not
 * refined further when a step lands in collision. */
#define MOVE_BISECTIONS 60

/* A step landed in collision (the distance estimate was off by round-off):
 * bisect between the free fraction lo and the colliding hi. */
static hs_code refine(const hs_world *w, hs_body *b, const motion *mv, double *lo, double hi,
                      hs_error *err)
{
    double pose[16], d;
    hs_code rc = HS_OK;
    for (int it = 0; rc == HS_OK && it < MOVE_BISECTIONS; it++) {
        double mid = 0.5 * (*lo + hi);
        motion_at(mv, mid, pose);
        if ((rc = hs_body_set_pose(b, pose, err)) == HS_OK && (rc = nearest(w, b, &d, err)) == HS_OK)
            *(d > 0 ? lo : &hi) = mid;
    }
    return rc;
}

/* Conservative advancement: the step keeps the body at least thr/2 away
 * from everything, so every step is at least thr / (2 speed) long. */
static hs_code advance(const hs_world *w, hs_body *b, const motion *mv, double thr, double *f,
                       hs_error *err)
{
    double pose[16], d;
    hs_code rc = nearest(w, b, &d, err);
    if (rc == HS_OK && d == 0)
        return hs_fail(err, HS_ERR_INPUT, "move: body '%s' is in collision at its start pose",
                       b->name);
    if (rc == HS_OK && d < thr)
        thr = d / 2; /* starting in contact: stop only on coming closer */
    if (rc == HS_OK && mv->speed > 0 && 2 * mv->speed / thr > 1e7)
        return hs_fail(err, HS_ERR_ARG,
                       "move: the motion is over 5e6 thresholds long (or starts too close to "
                       "another body); raise the threshold");
    while (rc == HS_OK && *f < 1 && !(d < thr)) {
        double next = mv->speed > 0 ? *f + (d - thr / 2) / mv->speed : 1;
        next = fmin(1, next);
        motion_at(mv, next, pose);
        if ((rc = hs_body_set_pose(b, pose, err)) != HS_OK || (rc = nearest(w, b, &d, err)) != HS_OK)
            break;
        if (d == 0) { /* round-off: back off to a free pose and stop */
            rc = refine(w, b, mv, f, next, err);
            motion_at(mv, *f, pose);
            if (rc == HS_OK)
                rc = hs_body_set_pose(b, pose, err);
            break;
        }
        *f = next;
    }
    return rc;
}

hs_code hs_world_move_until_contact(hs_world *w, hs_body *b, const double end[16],
                                    const hs_query_options *opt, hs_report *rep,
                                    double *fraction, hs_error *err)
{
    hs_query_options defaults;
    if (!opt) {
        hs_query_options_init(&defaults);
        opt = &defaults;
    }
    if (!w || !b || !end || !rep || !pose_is_valid(end) || b->world != w)
        return hs_fail(err, HS_ERR_ARG, "move: a world, one of its bodies, a valid goal pose and "
                                        "a report");
    if (!(opt->threshold > 0) || !isfinite(opt->threshold))
        return hs_fail(err, HS_ERR_ARG, "move: the contact threshold must be positive and finite");
    double start[16];
    memcpy(start, b->pose, sizeof start);
    motion mv;
    motion_init(&mv, start, end, body_radius(b));
    double f = 0;
    hs_code rc = advance(w, b, &mv, opt->threshold, &f, err);
    if (rc != HS_OK)
        hs_body_set_pose(b, start, NULL);
    else
        rc = hs_world_query(w, opt, rep, err);
    if (rc == HS_OK && fraction)
        *fraction = f;
    return rc;
}
