/* robot_motion.c -- hs_robot_check_motion: is the straight joint-space
 * motion q(t) = (1 - t) qa + t qb, t in [0, 1], free of collision?
 *
 * Stepped mode: the configurations q(k/K), k = 0..K, in order, K the
 * fewest steps with no coordinate changing by more than the resolution
 * between two of them; each checked in full (self, then the world).
 *
 * Guaranteed mode (Schwarzer, Saha and Latombe, "Adaptive dynamic
 * collision checking for single and multiple articulated robots in
 * complex environments", 2005): every pair that can come together -- two
 * tested links with a joint between them, and each link with pieces
 * against the world (its distance to the world is the least over the
 * bodies; only those whose boxes come within the distance asked for are
 * measured, the others are at least that far, so a link is one pair
 * however many bodies the world holds) -- starts with the interval
 * [0, 1].  An interval [t0, t1] with certified distance lower bounds d0,
 * d1 at its ends is free for that pair when
 *     rate (t1 - t0) + delta < d0 + d1,
 * rate the pair's bound on how fast its two sides approach
 * (robot_bound.c): a point in between is within rate (t - t0) of its
 * place at t0 and rate (t1 - t) of its place at t1, so it could only
 * touch if both d0 <= rate (t - t0) and d1 <= rate (t1 - t).  delta =
 * 2^-30 of the scene's size covers the rounding of the posed
 * configurations (computed poses against the ideal motion).  Otherwise the
 * interval is halved; at its midpoint the lower bound is computed, and
 * when it is 0 the exact test decides (a collision there is recorded, and
 * only the left half is kept).  Intervals are taken earliest first (a
 * heap on t0); one that starts after the first collision found is
 * dropped; one whose pair moves by at most `tolerance` across it and that
 * still cannot be proven free ends the search there: it either ends at
 * the collision found, or it is a stretch within about `tolerance` of
 * contact that no sample found in collision (blocked = 2). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/grow.h"
#include "src/robot/robot_motion.h"
#include "src/world/world.h"

#define COLLIDES (-1.0) /* a d at an end found in collision */

typedef struct mpair {
    int a, b;             /* links (b = -1: link a and the world) */
    double rate, delta;
    double dir[3];        /* GJK's last direction for the pair */
} mpair;

typedef struct span {
    double t0, t1, d0, d1;
    int pair;
} span;

typedef struct mctx {
    hs_robot *r;
    const hs_world *w;
    const double *qa, *qb;
    const hs_robot_motion_options *o;
    robot_ws *ws;
    hs_robot_motion_result *res;
    hs_error *err;
    double *q, *W;        /* scratch: a configuration; W the poses at tW */
    double tW;            /* the t of W (-1: none) */
    double *cache;        /* POSE_SLOTS sets of link poses, by t */
    double cache_t[32];
    mpair *pair;
    int npairs, pcap;
    span *heap;
    int nheap, hcap;
    double col_t;         /* earliest collision found (HUGE_VAL: none) */
    int col_pair;
    hs_status col_st;
    const hs_body *col_body; /* the body of a collision with the world */
    const hs_body **near; /* scratch: bodies near a link */
    int near_cap;
    struct gap_body *gaps;
    int gaps_cap;
    double near_t;        /* earliest stretch left unproven (HUGE_VAL: none) */
    int near_pair;
    double free_upto;
} mctx;

/* ------------------------------------------------------------ poses */

static void config_at(const mctx *c, double t, double *q)
{
    int n = c->r->dof;
    for (int k = 0; k < n; k++)
        q[k] = t == 0 ? c->qa[k] : t == 1 ? c->qb[k] : (1 - t) * c->qa[k] + t * c->qb[k];
}

/* The poses at t: the bisection comes back to the same dyadic t for
 * many pairs, so the last POSE_SLOTS sets are kept, by a hash of t. */
#define POSE_SLOTS 32
static void poses_at(mctx *c, double t)
{
    if (c->tW == t)
        return;
    uint64_t bits;
    memcpy(&bits, &t, sizeof bits);
    bits ^= bits >> 29;
    int slot = (int)((bits * 0x9E3779B97F4A7C15ull) >> 59); /* 5 bits: 32 slots */
    double *W = c->cache ? c->cache + (size_t)slot * 16 * (size_t)c->r->nlinks : c->W;
    c->tW = t;
    if (c->cache && c->cache_t[slot] == t) {
        c->W = W;
        return;
    }
    config_at(c, t, c->q);
    robot_poses_at(c->r, c->q, W);
    if (c->cache)
        c->cache_t[slot] = t;
    c->W = W;
    c->res->configurations++;
}

/* The whole configuration q(t): 1 (blocked, pair and status into the
 * result), 0, -1. */
static int check_config(mctx *c, double t)
{
    poses_at(c, t);
    int a, b, body;
    hs_status st;
    int hit = c->o->self ? robot_self_first(c->r, c->W, c->ws, c->r->scratch, &a, &b, &st,
                                            c->err)
                         : 0;
    if (hit == 1) {
        c->res->a = a;
        c->res->b = b;
        c->res->body = -1;
        c->res->status = st;
        return 1;
    }
    if (hit < 0 || !c->w)
        return hit;
    hit = robot_world_first(c->r, c->w, c->W, c->ws, &a, &body, &st, c->err);
    if (hit == 1) {
        c->res->a = a;
        c->res->b = -1;
        c->res->body = body;
        c->res->status = st;
    }
    return hit;
}

/* ------------------------------------------------------------ stepped */

static hs_code stepped(mctx *c)
{
    hs_robot_motion_result *res = c->res;
    double span_max = 0;
    for (int k = 0; k < c->r->dof; k++)
        span_max = fmax(span_max, fabs(c->qb[k] - c->qa[k]));
    double steps = ceil(span_max / c->o->resolution);
    if (steps > 1e7)
        return err_set(c->err, HS_ERR_ARG, "hs_robot_check_motion: %.0f steps at resolution %g "
                                           "(at most 10^7)", steps, c->o->resolution);
    int K = steps < 1 ? 1 : (int)steps;
    res->steps = K;
    for (int k = 1; k <= K; k++) {
        double t = k == K ? 1 : (double)k / K;
        int hit = check_config(c, t);
        if (hit < 0)
            return c->err ? c->err->code : HS_ERR_INTERNAL;
        if (hit) {
            res->blocked = 1;
            res->fraction = t;
            res->free_fraction = (double)(k - 1) / K;
            return HS_OK;
        }
    }
    return HS_OK;
}

/* ------------------------------------------------------------ guaranteed */

static int heap_push(mctx *c, double t0, double t1, double d0, double d1, int pair)
{
    span *h = grow_array(c->heap, &c->hcap, (long)c->nheap + 1, sizeof *h);
    if (!h)
        return -1;
    c->heap = h;
    int i = c->nheap++;
    span s = {t0, t1, d0, d1, pair};
    while (i > 0 && h[(i - 1) / 2].t0 > t0) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = s;
    return 0;
}

static span heap_pop(mctx *c)
{
    span *h = c->heap, top = h[0], last = h[--c->nheap];
    int i = 0, n = c->nheap;
    for (;;) {
        int k = 2 * i + 1;
        if (k >= n)
            break;
        if (k + 1 < n && h[k + 1].t0 < h[k].t0)
            k++;
        if (h[k].t0 >= last.t0)
            break;
        h[i] = h[k];
        i = k;
    }
    if (n > 0)
        h[i] = last;
    return top;
}

static void motion_record(mctx *c, double t, int pair, hs_status st, const hs_body *body)
{
    if (st == HS_DISJOINT) { /* a stretch left unproven */
        if (t < c->near_t) {
            c->near_t = t;
            c->near_pair = pair;
        }
    } else if (t < c->col_t) {
        c->col_t = t;
        c->col_pair = pair;
        c->col_st = st;
        c->col_body = body;
    }
}

/* The bodies whose boxes come within e of link a's at pose A: their
 * number (in c->near), or -1 when out of memory. */
static int bodies_within(mctx *c, int a, const double A[16], double e)
{
    double lo[3], hi[3];
    robot_link_aabb(c->r, a, A, lo, hi);
    e = fmin(e, 1e18); /* (every body, with finite numbers) */
    for (int d = 0; d < 3; d++) {
        lo[d] -= e;
        hi[d] += e;
    }
    return robot_bodies_near(c->w, lo, hi, &c->near, &c->near_cap);
}

/* A near body and the gap between its box and the link's. */
typedef struct gap_body {
    double gap;
    const hs_body *b;
} gap_body;

static int by_gap(const void *x, const void *y)
{
    const gap_body *p = x, *q = y;
    return (p->gap > q->gap) - (p->gap < q->gap);
}

/* A lower bound on the distance from link a to the world: the least over
 * the bodies within `enough` (the others are farther).  The bodies are
 * taken by the gap between their box and the link's (a lower bound on
 * their distance), nearest first, each measured only as far as the least
 * bound so far, and the rest left out once their gap reaches it; *nearest
 * (may be NULL) the body that gave the bound. */
static double world_bound(mctx *c, int a, const double A[16], double enough, double *dir,
                          const hs_body **nearest)
{
    double e = enough * (1 + 0x1p-40), best = e, lo[3], hi[3];
    int n = bodies_within(c, a, A, e);
    if (n < 0)
        return 0; /* out of memory: nothing proven, the exact test decides */
    gap_body *g = grow_array(c->gaps, &c->gaps_cap, n, sizeof *g);
    if (!g)
        return 0;
    c->gaps = g;
    robot_link_aabb(c->r, a, A, lo, hi);
    for (int k = 0; k < n; k++) {
        const hs_body *bd = c->near[k];
        double s = 0;
        for (int d = 0; d < 3; d++) {
            double t = fmax(bd->lo[d] - hi[d], lo[d] - bd->hi[d]);
            if (t > 0)
                s += t * t;
        }
        g[k].gap = sqrt(s) * (1 - 0x1p-40);
        g[k].b = bd;
    }
    if (n > 1)
        qsort(g, (size_t)n, sizeof *g, by_gap);
    for (int k = 0; k < n && best > 0 && g[k].gap < best; k++) {
        double d = robot_link_body_lower_bound(c->ws, c->r, a, A, g[k].b, best,
                                               k == 0 ? dir : NULL);
        if (d < best) {
            best = d;
            if (nearest)
                *nearest = g[k].b;
        }
    }
    return best;
}

/* The certified lower bound of pair p at t (as far as `enough`). */
static double bound_at(mctx *c, mpair *p, double t, double enough)
{
    poses_at(c, t);
    c->res->bounds++;
    const double *W = c->W;
    return p->b >= 0 ? robot_links_lower_bound(c->ws, c->r, p->a, W + 16 * p->a, p->b,
                                               W + 16 * p->b, enough, p->dir)
                     : world_bound(c, p->a, W + 16 * p->a, enough, p->dir, NULL);
}

/* The exact test of pair p at t: 1 (collision, *st, *body for the
 * world), 0, -1 (error). */
static int exact_at(mctx *c, const mpair *p, double t, hs_status *st, const hs_body **body)
{
    poses_at(c, t);
    c->res->exact_tests++;
    const double *A = c->W + 16 * p->a;
    *st = HS_DISJOINT;
    if (p->b >= 0)
        return robot_links_test(c->ws, c->r, p->a, A, p->b, c->W + 16 * p->b, 1, st, c->err) ==
                       HS_OK
                   ? *st != HS_DISJOINT
                   : -1;
    int n = bodies_within(c, p->a, A, 0);
    if (n < 0) {
        err_set(c->err, HS_ERR_NOMEM, "out of memory");
        return -1;
    }
    for (int k = 0; k < n; k++) {
        if (robot_link_body_test(c->ws, c->r, p->a, A, c->near[k], 1, st, c->err) != HS_OK)
            return -1;
        if (*st != HS_DISJOINT) {
            *body = c->near[k];
            return 1;
        }
    }
    return 0;
}

/* A value of d as a distance (a collision counts 0). */
static double dist_of(double d) { return d < 0 ? 0 : d; }

static hs_code motion_add_pair(mctx *c, int a, int b, double rate, double delta)
{
    mpair *p = grow_array(c->pair, &c->pcap, (long)c->npairs + 1, sizeof *p);
    if (!p)
        return err_set(c->err, HS_ERR_NOMEM, "out of memory");
    c->pair = p;
    p[c->npairs++] = (mpair){a, b, rate, delta, {0, 0, 0}};
    return HS_OK;
}

/* Every pair that can come together during the motion: tested pairs of
 * links with a joint between them, and each link with pieces against the
 * world when a body's box comes within the link's reach of motion. */
static hs_code gather_pairs(mctx *c, const motion_rates *mr)
{
    const hs_robot *r = c->r;
    double base = fabs(r->base[3]) + fabs(r->base[7]) + fabs(r->base[11]);
    double delta_self = 0x1p-30 * (r->size + base) + 0x1p-1000;
    hs_code rc = HS_OK;
    for (int a = 0; a < r->nlinks && c->o->self && rc == HS_OK; a++)
        for (int b = a + 1; b < r->nlinks && rc == HS_OK; b++) {
            if (!robot_pair_tested(r, a, b))
                continue;
            double rate = robot_pair_rate(r, mr, a, b);
            if (rate > 0) /* a rigid pair keeps its start, free */
                rc = motion_add_pair(c, a, b, rate, delta_self);
        }
    if (!c->w || !c->w->enabled)
        return rc;
    double mag = 0; /* the world's size, for delta */
    for (int k = 0; k < c->w->nbodies; k++) {
        const hs_body *bd = c->w->bodies[k];
        if (robot_body_counts(c->w, bd))
            for (int d = 0; d < 3; d++)
                mag = fmax(mag, fmax(fabs(bd->lo[d]), fabs(bd->hi[d])));
    }
    poses_at(c, 0);
    for (int a = 0; a < r->nlinks && rc == HS_OK; a++) {
        if (r->link[a].npiece == 0)
            continue;
        double rate = robot_pair_rate(r, mr, a, -1);
        int n = bodies_within(c, a, c->W + 16 * a, rate * (1 + 0x1p-40) + 2 * delta_self);
        if (n < 0)
            rc = err_set(c->err, HS_ERR_NOMEM, "out of memory");
        else if (n > 0)
            rc = motion_add_pair(c, a, -1, rate, delta_self + 0x1p-30 * mag);
    }
    return rc;
}

/* Settle one interval: certified, dropped, ended, or halved. */
static hs_code refine(mctx *c, span s)
{
    mpair *p = &c->pair[s.pair];
    double w = s.t1 - s.t0, move = p->rate * w;
    double d0 = dist_of(s.d0), d1 = dist_of(s.d1);
    if (s.t0 >= c->col_t || move + p->delta < d0 + d1)
        return HS_OK;
    double tm = s.t0 + 0.5 * w;
    if (move <= c->o->tolerance || !(tm > s.t0 && tm < s.t1)) {
        if (s.d1 != COLLIDES)
            motion_record(c, s.t0, s.pair, HS_DISJOINT, NULL);
        if (s.t0 < c->free_upto)
            c->free_upto = s.t0;
        return HS_OK;
    }
    if (c->res->bounds >= c->o->max_checks)
        return err_set(c->err, HS_ERR_UNSUPPORTED, "hs_robot_check_motion: more than %ld "
                                                   "distance bounds", c->o->max_checks);
    double enough = 0.5 * move + p->delta - fmin(d0, d1);
    double dm = bound_at(c, p, tm, enough * (1 + 0x1p-20));
    if (dm <= 0) {
        hs_status st;
        const hs_body *body = NULL;
        int hit = exact_at(c, p, tm, &st, &body);
        if (hit < 0)
            return c->err ? c->err->code : HS_ERR_INTERNAL;
        if (hit) {
            motion_record(c, tm, s.pair, st, body);
            return heap_push(c, s.t0, tm, s.d0, COLLIDES, s.pair) == 0
                       ? HS_OK
                       : err_set(c->err, HS_ERR_NOMEM, "out of memory");
        }
        dm = 0;
    }
    if (heap_push(c, s.t0, tm, s.d0, dm, s.pair) != 0 ||
        heap_push(c, tm, s.t1, dm, s.d1, s.pair) != 0)
        return err_set(c->err, HS_ERR_NOMEM, "out of memory");
    return HS_OK;
}

/* The pair's ends, then its interval. */
static hs_code start_pair(mctx *c, int k)
{
    mpair *p = &c->pair[k];
    double need = p->rate + p->delta;
    double d0 = bound_at(c, p, 0, need * (1 + 0x1p-20));
    if (d0 > need)
        return HS_OK;
    double d1 = bound_at(c, p, 1, (need - d0) * (1 + 0x1p-20));
    if (d0 + d1 > need)
        return HS_OK;
    if (d1 <= 0) {
        hs_status st;
        const hs_body *body = NULL;
        int hit = exact_at(c, p, 1, &st, &body);
        if (hit < 0)
            return c->err ? c->err->code : HS_ERR_INTERNAL;
        if (hit) {
            motion_record(c, 1, k, st, body);
            d1 = COLLIDES;
        }
    }
    return heap_push(c, 0, 1, d0, d1, k) == 0 ? HS_OK
                                              : err_set(c->err, HS_ERR_NOMEM, "out of memory");
}

static hs_code guaranteed(mctx *c)
{
    motion_rates mr;
    memset(&mr, 0, sizeof mr);
    hs_code rc = robot_motion_rates(c->r, c->qa, c->qb, &mr, c->err);
    if (rc == HS_OK)
        rc = gather_pairs(c, &mr);
    robot_motion_rates_free(&mr);
    for (int k = 0; k < c->npairs && rc == HS_OK; k++)
        rc = start_pair(c, k);
    while (rc == HS_OK && c->nheap > 0)
        rc = refine(c, heap_pop(c));
    if (rc != HS_OK)
        return rc;
    /* a collision found wins; a stretch left unproven only blocks alone */
    hs_robot_motion_result *res = c->res;
    int kind = c->col_t <= 1 ? 1 : c->near_t <= 1 ? 2 : 0;
    if (kind) {
        mpair *p = &c->pair[kind == 1 ? c->col_pair : c->near_pair];
        res->blocked = kind;
        res->fraction = kind == 1 ? c->col_t : c->near_t;
        res->a = p->a;
        res->b = p->b;
        res->status = kind == 1 ? c->col_st : HS_DISJOINT;
        const hs_body *body = c->col_body;
        if (p->b < 0 && kind == 2) { /* the body nearest the link there */
            poses_at(c, c->near_t);
            world_bound(c, p->a, c->W + 16 * p->a, HUGE_VAL, NULL, &body);
        }
        res->body = p->b >= 0 || !body ? -1 : robot_body_index(c->w, body);
    }
    res->free_fraction = fmin(c->free_upto, fmin(c->col_t, c->near_t));
    if (res->free_fraction > 1)
        res->free_fraction = 1;
    return HS_OK;
}

/* ------------------------------------------------------------ public */

void hs_robot_motion_options_init(hs_robot_motion_options *o)
{
    memset(o, 0, sizeof *o);
    o->guaranteed = 0;
    o->resolution = 0.017453292519943295;
    o->tolerance = 1e-6;
    o->self = 1;
    o->max_checks = 10000000;
}

static hs_code check_options(const hs_robot_motion_options *o, hs_error *err)
{
    if (!(o->resolution > 0) || !isfinite(o->resolution))
        return err_set(err, HS_ERR_ARG, "hs_robot_check_motion: the resolution must be finite "
                                        "and > 0");
    if (!(o->tolerance > 0) || !isfinite(o->tolerance))
        return err_set(err, HS_ERR_ARG, "hs_robot_check_motion: the tolerance must be finite "
                                        "and > 0");
    if (o->max_checks < 1)
        return err_set(err, HS_ERR_ARG, "hs_robot_check_motion: max_checks must be >= 1");
    return HS_OK;
}

hs_code hs_robot_check_motion(hs_robot *r, const hs_world *w, const double *qa,
                              const double *qb, int n, const hs_robot_motion_options *opt,
                              hs_robot_motion_result *res, double *q_hit, hs_error *err)
{
    hs_robot_motion_options def;
    if (!opt) {
        hs_robot_motion_options_init(&def);
        opt = &def;
    }
    if (!r || !qa || !qb || !res)
        return err_set(err, HS_ERR_ARG, "hs_robot_check_motion: NULL argument");
    hs_code rc = robot_check_q(r, qa, n, "hs_robot_check_motion (start)", err);
    if (rc == HS_OK)
        rc = robot_check_q(r, qb, n, "hs_robot_check_motion (end)", err);
    if (rc == HS_OK)
        rc = check_options(opt, err);
    if (rc != HS_OK)
        return rc;
    memset(res, 0, sizeof *res);
    res->fraction = res->free_fraction = 1;
    res->a = res->b = res->body = -1;
    res->status = HS_DISJOINT;
    mctx c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.w = w;
    c.qa = qa;
    c.qb = qb;
    c.o = opt;
    c.res = res;
    c.err = err;
    c.tW = -1;
    c.col_t = c.near_t = HUGE_VAL;
    c.free_upto = 1;
    c.ws = robot_scratch(r);
    c.q = mem_alloc((size_t)r->dof + 1, sizeof(double));
    double *W = mem_alloc((size_t)r->nlinks, 16 * sizeof(double));
    c.W = W;
    if (opt->guaranteed) { /* without it the poses are recomputed: slower, not wrong */
        c.cache = mem_alloc((size_t)POSE_SLOTS * 16, sizeof(double) * (size_t)r->nlinks);
        for (int k = 0; k < POSE_SLOTS; k++)
            c.cache_t[k] = -1;
    }
    if (!c.ws || !c.q || !c.W)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    int hit = rc == HS_OK ? check_config(&c, 0) : 0;
    if (hit < 0)
        rc = err ? err->code : HS_ERR_INTERNAL;
    else if (hit) {
        res->blocked = 1;
        res->fraction = res->free_fraction = 0;
    } else if (rc == HS_OK) {
        rc = opt->guaranteed ? guaranteed(&c) : stepped(&c);
    }
    if (rc == HS_OK && q_hit)
        config_at(&c, res->blocked ? res->fraction : 1, q_hit);
    if (rc == HS_OK && !res->blocked)
        res->a = res->b = res->body = -1;
    free(c.q);
    free(W);
    free(c.cache);
    free(c.pair);
    free(c.heap);
    free(c.near);
    free(c.gaps);
    return rc;
}
