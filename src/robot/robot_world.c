/* robot_world.c -- the links of a robot against the bodies of a world:
 * collision (the link's world box against the world's broad phase, then
 * boxes and exact tests, robot_pairs.c) and distance (GJK on the pieces'
 * corners, a mesh triangle by triangle, after the exact test: 0 exactly
 * when a pair meets).  Only enabled bodies of an enabled world count; a
 * body's static flag, groups and pair filters are for pairs of bodies and
 * do not apply. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/broadphase/broadphase.h"
#include "src/robot/robot.h"
#include "src/shape/geom_distance.h"
#include "src/shape/pose.h"
#include "src/world/world.h"

int robot_body_counts(const hs_world *w, const hs_body *b)
{
    return w->enabled && b->enabled && b->npieces > 0;
}

int robot_body_index(const hs_world *w, const hs_body *b)
{
    for (int k = 0; k < w->nbodies; k++)
        if (w->bodies[k] == b)
            return k;
    return -1;
}

/* ------------------------------------------------------------ collision */

typedef struct near_list {
    const hs_world *w;
    const hs_body **b;
    int n, cap, failed;
} near_list;

static void link_near_body(void *user, int id)
{
    near_list *l = user;
    const hs_body *b = id >= 0 && id < l->w->next_id ? l->w->by_id[id] : NULL;
    if (!b || !robot_body_counts(l->w, b))
        return;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        const hs_body **p = mem_realloc(l->b, (size_t)cap, sizeof *p);
        if (!p) {
            l->failed = 1;
            return;
        }
        l->b = p;
        l->cap = cap;
    }
    l->b[l->n++] = b;
}

static int body_order(const void *x, const void *y)
{
    const hs_body *a = *(const hs_body *const *)x, *b = *(const hs_body *const *)y;
    return (a->id > b->id) - (a->id < b->id);
}

int robot_bodies_near(const hs_world *w, const double lo[3], const double hi[3],
                      const hs_body ***list, int *cap)
{
    near_list l = {w, *list, 0, *cap, 0};
    if (w->enabled)
        bp_query(w->bp, lo, hi, link_near_body, &l);
    *list = l.b;
    *cap = l.cap;
    if (l.failed)
        return -1;
    if (l.n > 1)
        qsort(l.b, (size_t)l.n, sizeof *l.b, body_order); /* creation order */
    return l.n;
}

/* Every (link, body) pair in collision, or the first: fn(user, link,
 * body, status) for each; stops when fn returns nonzero.  Returns 1 if a
 * pair was found, 0, or -1 (err set). */
typedef int (*hit_fn)(void *user, int link, const hs_body *b, hs_status st);
static int world_hits(const hs_robot *r, const hs_world *w, const double *W, robot_ws *ws,
                      int first, hit_fn fn, void *user, hs_error *err)
{
    const hs_body **near = NULL;
    int cap = 0, found = 0;
    if (!w->enabled)
        return 0;
    for (int i = 0; i < r->nlinks; i++) {
        if (r->link[i].npiece == 0)
            continue;
        const double *A = W + 16 * i;
        double lo[3], hi[3];
        robot_link_aabb(r, i, A, lo, hi);
        int n = robot_bodies_near(w, lo, hi, &near, &cap);
        if (n < 0) {
            free(near);
            err_set(err, HS_ERR_NOMEM, "out of memory");
            return -1;
        }
        for (int k = 0; k < n; k++) {
            hs_status st;
            if (robot_link_body_test(ws, r, i, A, near[k], first, &st, err) != HS_OK) {
                free(near);
                return -1;
            }
            if (st == HS_DISJOINT)
                continue;
            found = 1;
            if (fn(user, i, near[k], st)) {
                free(near);
                return 1;
            }
        }
    }
    free(near);
    return found;
}

typedef struct first_hit {
    int link;
    const hs_body *b;
    hs_status st;
} first_hit;

static int world_keep_first(void *user, int link, const hs_body *b, hs_status st)
{
    first_hit *f = user;
    f->link = link;
    f->b = b;
    f->st = st;
    return 1;
}

int robot_world_first(const hs_robot *r, const hs_world *w, const double *W, robot_ws *ws,
                      int *link, int *body, hs_status *st, hs_error *err)
{
    first_hit f = {-1, NULL, HS_DISJOINT};
    int hit = world_hits(r, w, W, ws, 1, world_keep_first, &f, err);
    if (hit == 1) {
        *link = f.link;
        *body = robot_body_index(w, f.b);
        *st = f.st;
    }
    return hit;
}

int hs_robot_world_collision(const hs_robot *r, const hs_world *w, int *link, int *body,
                             hs_error *err)
{
    if (!r || !w) {
        err_set(err, HS_ERR_ARG, "hs_robot_world_collision: NULL argument");
        return -1;
    }
    robot_ws ws;
    if (robot_ws_init(&ws) != 0) {
        robot_ws_free(&ws);
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return -1;
    }
    first_hit f = {-1, NULL, HS_DISJOINT};
    int hit = world_hits(r, w, r->W, &ws, 1, world_keep_first, &f, err);
    robot_ws_free(&ws);
    if (hit == 1) {
        if (link)
            *link = f.link;
        if (body)
            *body = robot_body_index(w, f.b);
    }
    return hit;
}

typedef struct all_hits {
    const hs_world *w;
    robot_pairs l;
    int failed;
} all_hits;

static int world_keep_all(void *user, int link, const hs_body *b, hs_status st)
{
    all_hits *h = user;
    if (robot_pairs_add(&h->l, link, -1, robot_body_index(h->w, b), st) != 0) {
        h->failed = 1;
        return 1;
    }
    return 0;
}

hs_code hs_robot_world_collision_all(const hs_robot *r, const hs_world *w,
                                     hs_robot_pair **pairs, int *n, hs_error *err)
{
    if (!r || !w || !pairs || !n)
        return err_set(err, HS_ERR_ARG, "hs_robot_world_collision_all: NULL argument");
    robot_ws ws;
    if (robot_ws_init(&ws) != 0) {
        robot_ws_free(&ws);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    all_hits h = {w, {NULL, 0, 0}, 0};
    int hit = world_hits(r, w, r->W, &ws, 0, world_keep_all, &h, err);
    robot_ws_free(&ws);
    if (hit < 0 || h.failed) {
        free(h.l.p);
        return hit < 0 ? (err ? err->code : HS_ERR_NOMEM)
                       : err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    robot_pairs_sort(&h.l);
    *pairs = h.l.p;
    *n = h.l.n;
    return HS_OK;
}

int hs_robot_check(hs_robot *r, const hs_world *w, const double *q, int n, hs_error *err)
{
    if (hs_robot_set_q(r, q, n, err) != HS_OK)
        return -1;
    int hit = hs_robot_self_collision(r, NULL, NULL, err);
    if (hit != 0 || !w)
        return hit;
    robot_ws *ws = robot_scratch(r);
    if (!ws) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return -1;
    }
    first_hit f = {-1, NULL, HS_DISJOINT};
    return world_hits(r, w, r->W, ws, 1, world_keep_first, &f, err);
}

/* ------------------------------------------------------------ distance */

typedef struct best_pair {
    double d, pa[3], pb[3];
    int link;
    const hs_body *body;
} best_pair;

/* The distance between two placed pieces, kept in best when it is the
 * smallest so far. */
static void measure_pieces(const geom *ga, const double *A, int na, const geom *gb,
                               const double *B, int nb, best_pair *best, int link,
                               const hs_body *body)
{
    if (geom_pair_closer(ga, A, na, 0, gb, B, nb, &best->d, best->pa, best->pb)) {
        best->link = link;
        best->body = body;
    }
}

static int link_body_distance(const hs_robot *r, int i, const hs_world *w, const hs_body *only,
                         best_pair *best)
{
    const robot_link *L = &r->link[i];
    const double *A = r->W + 16 * i;
    double lo[3], hi[3];
    robot_link_aabb(r, i, A, lo, hi);
    for (int k = 0; k < w->nbodies; k++) {
        const hs_body *b = w->bodies[k];
        if (!robot_body_counts(w, b) || (only && b != only) ||
            geom_box_gap(lo, hi, b->lo, b->hi) > best->d)
            continue;
        for (int kb = 0; kb < b->npieces; kb++) {
            int nb;
            double *B = geom_placed_points(b->piece[kb], b->pose, &nb);
            if (!B)
                return -1;
            for (int kp = 0; kp < L->npiece; kp++) {
                int na;
                double *P = geom_placed_points(L->piece[kp], A, &na);
                if (!P) {
                    free(B);
                    return -1;
                }
                measure_pieces(L->piece[kp], P, na, b->piece[kb], B, nb, best, i, b);
                free(P);
            }
            free(B);
        }
    }
    return 0;
}

hs_code hs_robot_world_distance(const hs_robot *r, const hs_world *w, double *dist, int *link,
                                int *body, double pa[3], double pb[3], hs_error *err)
{
    hs_error local;
    if (!err)
        err = &local;
    if (!r || !w || !dist)
        return err_set(err, HS_ERR_ARG, "hs_robot_world_distance: NULL argument");
    int pieces = 0, bodies = 0;
    for (int i = 0; i < r->nlinks; i++)
        pieces += r->link[i].npiece;
    for (int k = 0; k < w->nbodies; k++)
        bodies += robot_body_counts(w, w->bodies[k]);
    if (pieces == 0 || bodies == 0)
        return err_set(err, HS_ERR_ARG, "hs_robot_world_distance: the %s has no piece",
                       pieces == 0 ? "robot" : "world (enabled bodies)");
    int li = -1, bi = -1;
    int hit = hs_robot_world_collision(r, w, &li, &bi, err);
    if (hit < 0)
        return err->code;
    best_pair best = {INFINITY, {0, 0, 0}, {0, 0, 0}, -1, NULL};
    int bad = 0;
    for (int i = 0; i < r->nlinks && !bad; i++)
        if (r->link[i].npiece > 0 && (!hit || i == li))
            bad = link_body_distance(r, i, w, hit ? w->bodies[bi] : NULL, &best) != 0;
    if (bad)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (hit) { /* decided exactly: 0, the GJK points as the common point */
        best.d = 0;
        best.link = li;
        best.body = w->bodies[bi];
        memcpy(best.pb, best.pa, sizeof best.pa);
    }
    *dist = best.d;
    if (link)
        *link = best.link;
    if (body)
        *body = best.body ? robot_body_index(w, best.body) : -1;
    if (pa)
        memcpy(pa, best.pa, sizeof best.pa);
    if (pb)
        memcpy(pb, best.pb, sizeof best.pb);
    return HS_OK;
}
