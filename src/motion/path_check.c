/* path_check.c -- a body checked along a path (seed 004, sections 4-5):
 * the stepped mode tests the K step poses as the seed does and bisects
 * between the last free step and the first blocked one (seed 001's
 * interpolation between the last collision-free state and the colliding
 * one); the guaranteed mode advances conservatively along the same curve
 * (advance.c), so that it cannot step over a thin obstacle. */
#include <math.h>
#include <string.h>

#include "polytope/error.h"
#include "src/motion/path.h"
#include "src/world/world.h"

static hs_code check_args(const hs_world *w, const hs_body *b, const hs_path *p,
                          const hs_path_options *opt, const hs_path_result *res, hs_error *err)
{
    if (!w || !b || !p || !opt || !res)
        return err_set(err, HS_ERR_ARG, "path: a world, one of its bodies, a path, options "
                                        "and a result are needed");
    if (b->world != w)
        return err_set(err, HS_ERR_ARG, "path: body '%s' is not in this world", b->name);
    if (b->npieces == 0)
        return err_set(err, HS_ERR_ARG, "path: body '%s' has no pieces", b->name);
    if (b->is_static)
        return err_set(err, HS_ERR_ARG, "path: body '%s' is static (static bodies do not move)",
                       b->name);
    if (!(opt->threshold >= 0) || !isfinite(opt->threshold))
        return err_set(err, HS_ERR_ARG, "path: the contact threshold must be finite and >= 0");
    if (opt->guaranteed && !(opt->threshold > 0))
        return err_set(err, HS_ERR_ARG, "path: the guaranteed mode needs a contact threshold "
                                        "> 0");
    if ((opt->query.engine != HS_ENGINE_FAST && opt->query.engine != HS_ENGINE_EXACT) ||
        opt->query.threads < 0 ||
        (opt->query.triangles != HS_TRI_GRID && opt->query.triangles != HS_TRI_RAW &&
         opt->query.triangles != HS_TRI_BVH))
        return err_set(err, HS_ERR_ARG, "path: bad query options (engine fast or exact, "
                                        "threads >= 0, triangles bvh, grid or raw)");
    return HS_OK;
}

/* The path's pose at f into out. */
static void pose_of(const adv_ctx *c, double f, double out[16])
{
    c->m->pose_at(c->m->curve, f, out);
}

static void set_free(const adv_ctx *c, hs_path_result *res, double distance)
{
    res->blocked = 0;
    res->step = 0;
    res->free_fraction = res->fraction = 1;
    pose_of(c, 1, res->last_free);
    pose_of(c, 1, res->contact);
    res->distance = distance;
}

/* Step k (f = k/K) is the first blocked one, with gap g: bisect between
 * step k-1 and step k for the contact pose. */
static hs_code stepped_contact(adv_ctx *c, int k, adv_gap g, hs_path_result *res, hs_error *err)
{
    double lo = (double)(k - 1) / res->steps, hi = (double)k / res->steps;
    res->blocked = 1;
    res->step = k;
    res->step_distance = g.d;
    res->step_collision = g.met;
    res->free_fraction = lo;
    pose_of(c, lo, res->last_free);
    hs_code rc = adv_bisect(c, res->threshold, 0, &lo, &hi, &g, err);
    res->fraction = hi;
    pose_of(c, hi, res->contact);
    res->distance = g.d;
    return rc;
}

static hs_code run_stepped(adv_ctx *c, const hs_path_options *opt, hs_path_result *res,
                           hs_error *err)
{
    double thr;
    adv_gap g;
    hs_code rc = adv_start(c, opt->threshold, &thr, &g, err);
    res->threshold = thr;
    for (int k = 1; rc == HS_OK && k <= res->steps; k++) {
        rc = adv_place(c, (double)k / res->steps, thr, &g, err);
        if (rc == HS_OK && adv_blocked(&g, thr, 0))
            return stepped_contact(c, k, g, res, err);
    }
    if (rc == HS_OK) /* at the end pose: its distance to anything */
        rc = adv_nearest(c, INFINITY, &g, err);
    if (rc == HS_OK)
        set_free(c, res, g.d);
    return rc;
}

static hs_code run_guaranteed(adv_ctx *c, const hs_path_options *opt, hs_path_result *res,
                              hs_error *err)
{
    adv_stop s;
    hs_code rc = adv_run(c, opt->threshold, &s, err);
    if (rc != HS_OK)
        return rc;
    res->threshold = s.threshold;
    if (!(s.f_stop < 1 || s.stop.d < s.threshold)) {
        set_free(c, res, s.stop.d);
        return HS_OK;
    }
    int k = (int)ceil(s.f_stop * res->steps);
    res->blocked = 1;
    res->step = k < 1 ? 1 : k > res->steps ? res->steps : k;
    res->step_distance = res->distance = s.stop.d;
    res->free_fraction = s.f_free;
    pose_of(c, s.f_free, res->last_free);
    res->fraction = s.f_stop;
    pose_of(c, s.f_stop, res->contact);
    return HS_OK;
}

/* The world's query with the body at the contact pose. */
static hs_code report_at_contact(hs_world *w, hs_body *b, const hs_path_options *opt,
                                 const hs_path_result *res, hs_report *rep, hs_error *err)
{
    hs_query_options q = opt->query;
    q.threshold = res->threshold;
    hs_code rc = hs_body_set_pose(b, res->contact, err);
    return rc == HS_OK ? hs_world_query(w, &q, rep, err) : rc;
}

hs_code hs_path_check(hs_world *w, hs_body *b, const hs_path *p, const hs_path_options *opt,
                      hs_path_result *res, hs_report *rep, hs_error *err)
{
    hs_code rc = check_args(w, b, p, opt, res, err);
    if (rc != HS_OK)
        return rc;
    memset(res, 0, sizeof *res);
    if ((rc = hs_path_step_count(p, opt, &res->steps, err)) != HS_OK)
        return rc;
    double saved[16];
    memcpy(saved, b->pose, sizeof saved);
    adv_motion m;
    path_motion(p, adv_body_radius(b), &m);
    adv_ctx c = {w, b, &m, "path", 0};
    rc = opt->guaranteed ? run_guaranteed(&c, opt, res, err) : run_stepped(&c, opt, res, err);
    if (rc == HS_OK && rep)
        rc = report_at_contact(w, b, opt, res, rep, err);
    res->queries = c.queries;
    hs_body_set_pose(b, saved, NULL);
    return rc;
}
