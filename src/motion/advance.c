/* advance.c -- one body moved along a curve of poses among the others:
 * its distance to the nearest one, the start check, conservative
 * advancement and bisection (see advance.h).  The distance is Lipschitz
 * along the curve: between p(f) and p(g) no point of the body moves more
 * than speed * |g - f|, so the distance changes by no more than that.
 * Conservative advancement (seed 001: move until contact) uses this to
 * take steps that cannot pass through an obstacle; bisection uses it to
 * know when a blocked pose is within the threshold without collision. */
#include "src/motion/advance.h"

#include <math.h>
#include <string.h>

#include "polytope/error.h"
#include "src/narrow/narrow.h"
#include "src/world/world.h"

double adv_body_radius(const hs_body *b)
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

/* Gap between the world boxes of two bodies: a lower bound on their
 * distance (the boxes contain the pieces, rounded outward). */
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

/* Do a and b have a common point?  The exact narrow phase on their
 * pieces (asked only when the floating-point distance came out 0). */
static hs_code bodies_meet(const hs_body *a, const hs_body *b, int *met, hs_error *err)
{
    narrow_ws ws;
    hs_code rc = HS_OK;
    *met = 0;
    if (narrow_ws_init(&ws, HS_TRI_BVH, HS_ENGINE_FAST) != 0)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int ia = 0; rc == HS_OK && ia < a->npieces && !*met; ia++)
        for (int ib = 0; rc == HS_OK && ib < b->npieces && !*met; ib++) {
            piece_hit hit;
            narrow_piece pa = body_piece(a, ia), pb = body_piece(b, ib);
            rc = narrow_test(&ws, &pa, &pb, NULL, NULL, &hit, err);
            *met = rc == HS_OK && hit.status != HS_DISJOINT;
        }
    narrow_ws_free(&ws);
    return rc;
}

/* Gap between b and o, the pair taken in the order hs_world_query takes
 * it (by name), so that both express the same piece in the other's frame
 * and decide a contact at the scale of a rounding alike. */
static hs_code body_gap(const hs_world *w, const hs_body *b, const hs_body *o, adv_gap *g,
                        hs_error *err)
{
    int by_name = strcmp(b->name, o->name) <= 0;
    const hs_body *first = by_name ? b : o, *second = by_name ? o : b;
    double pa[3], pb[3];
    hs_code rc = hs_world_distance(w, first, second, &g->d, pa, pb, err);
    g->met = 0;
    if (rc == HS_OK && g->d == 0)
        rc = bodies_meet(first, second, &g->met, err);
    return rc;
}

hs_code adv_nearest(adv_ctx *c, double cap, adv_gap *best, hs_error *err)
{
    const hs_world *w = c->w;
    const hs_body *b = c->b;
    best->d = INFINITY;
    best->met = 0;
    c->queries++;
    for (int i = 0; i < w->nbodies && !best->met; i++) {
        const hs_body *o = w->bodies[i];
        if (o == b || o->npieces == 0 || !world_pair_allowed(w, b, o))
            continue;
        double gap = box_gap(b, o);
        if (gap > cap || gap > best->d || (gap == best->d && best->d > 0))
            continue;
        adv_gap g;
        hs_code rc = body_gap(w, b, o, &g, err);
        if (rc != HS_OK)
            return rc;
        if (g.met || g.d < best->d)
            *best = g;
    }
    return HS_OK;
}

hs_code adv_place(adv_ctx *c, double f, double cap, adv_gap *g, hs_error *err)
{
    double pose[16];
    c->m->pose_at(c->m->curve, f, pose);
    hs_code rc = hs_body_set_pose(c->b, pose, err);
    return rc == HS_OK ? adv_nearest(c, cap, g, err) : rc;
}

int adv_blocked(const adv_gap *g, double threshold, int zero_blocks)
{
    return g->met || g->d < threshold || (zero_blocks && g->d == 0);
}

hs_code adv_start(adv_ctx *c, double threshold, double *thr_used, adv_gap *g0, hs_error *err)
{
    hs_code rc = adv_place(c, 0, INFINITY, g0, err);
    if (rc != HS_OK)
        return rc;
    if (adv_blocked(g0, 0, 1))
        return err_set(err, HS_ERR_INPUT, "%s: body '%s' is in collision at its start pose",
                       c->who, hs_body_name(c->b));
    *thr_used = g0->d < threshold ? g0->d / 2 : threshold;
    return HS_OK;
}

hs_code adv_bisect(adv_ctx *c, double threshold, int zero_blocks, double *lo, double *hi,
                   adv_gap *g_hi, hs_error *err)
{
    hs_code rc = HS_OK;
    for (int it = 0; rc == HS_OK && it < ADV_BISECTIONS; it++) {
        /* Lipschitz: d(hi) >= d(lo) - speed (hi - lo) > 0 once the body's
         * points move less than the threshold between lo and hi */
        if (threshold > 0 && !g_hi->met && c->m->speed * (*hi - *lo) < threshold)
            break;
        double mid = 0.5 * (*lo + *hi);
        adv_gap g;
        rc = adv_place(c, mid, threshold, &g, err);
        if (rc == HS_OK && adv_blocked(&g, threshold, zero_blocks)) {
            *hi = mid;
            *g_hi = g;
        } else if (rc == HS_OK) {
            *lo = mid;
        }
    }
    return rc;
}

/* A step landed in collision although the distance said it could not
 * (round-off): bisect back to a free pose and stop there. */
static hs_code back_off(adv_ctx *c, double next, adv_gap g_next, adv_stop *out, hs_error *err)
{
    double lo = out->f_stop, hi = next;
    hs_code rc = adv_bisect(c, 0, 1, &lo, &hi, &g_next, err);
    if (rc == HS_OK)
        rc = adv_place(c, lo, INFINITY, &out->stop, err);
    out->f_stop = lo;
    return rc;
}

hs_code adv_run(adv_ctx *c, double threshold, adv_stop *out, hs_error *err)
{
    double thr;
    adv_gap g;
    hs_code rc = adv_start(c, threshold, &thr, &g, err);
    if (rc != HS_OK)
        return rc;
    double speed = c->m->speed;
    out->f_free = out->f_stop = 0;
    out->stop = g;
    out->threshold = thr;
    if (speed > 0 && 2 * speed / thr > 1e7)
        return err_set(err, HS_ERR_ARG,
                       "%s: the motion is over 5e6 thresholds long (or starts too close to "
                       "another body); raise the threshold", c->who);
    while (rc == HS_OK && out->f_stop < 1 && !(g.d < thr)) {
        double next = speed > 0 ? out->f_stop + (g.d - thr / 2) / speed : 1;
        next = fmin(1, next);
        out->f_free = out->f_stop;
        if ((rc = adv_place(c, next, INFINITY, &g, err)) != HS_OK)
            break;
        if (adv_blocked(&g, 0, 1))
            return back_off(c, next, g, out, err);
        out->f_stop = next;
        out->stop = g;
    }
    return rc;
}
