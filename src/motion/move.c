/* move.c -- move until contact (seed 001): a body moves from a free pose
 * towards a goal and stops at the first pose within the contact threshold
 * of another body.  The motion is the straight line of path_curve.h
 * (translation linear, rotation by slerp) and is advanced conservatively
 * (advance.c): from the current distance d to the nearest obstacle and a
 * bound on how fast any point of the body moves, a step that cannot close
 * more than d - thr/2 is taken, so the body never passes through a thin
 * obstacle (no tunnelling), whatever the goal. */
#include <math.h>
#include <string.h>

#include "src/motion/advance.h"
#include "polytope/error.h"
#include "src/motion/path_curve.h"
#include "src/shape/pose.h"
#include "src/world/world.h"

/* adv_pose_fn over a line curve. */
static void move_pose_fn(const void *curve, double f, double out[16]) { curve_pose(curve, f, out); }

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
        return err_set(err, HS_ERR_ARG, "move: a world, one of its bodies, a valid goal pose and "
                                        "a report");
    if (!(opt->threshold > 0) || !isfinite(opt->threshold))
        return err_set(err, HS_ERR_ARG, "move: the contact threshold must be positive and finite");
    double start[16];
    memcpy(start, b->pose, sizeof start);
    path_curve line;
    curve_line_init(&line, start, end);
    adv_motion mv = {move_pose_fn, &line, curve_speed(&line, adv_body_radius(b))};
    adv_ctx ctx = {w, b, &mv, "move", 0};
    adv_stop stop;
    hs_code rc = adv_run(&ctx, opt->threshold, &stop, err);
    if (rc != HS_OK)
        hs_body_set_pose(b, start, NULL);
    else
        rc = hs_world_query(w, opt, rep, err);
    if (rc == HS_OK && fraction)
        *fraction = stop.f_stop;
    return rc;
}
