/* chain_world.c -- a chain against the bodies of a world: collision
 * (exact, like the world's own narrow phase) and distance (measured with
 * GJK, as the world's distances are).
 *
 * Link i is placed in the world by base J_1 ... J_i (hs_chain_link_pose).
 * A sphere's centre is mapped into the body's frame and tested there; a
 * link's convex piece and a body's piece go through the world's narrow
 * phase with both poses.  Boxes prune first: the link's box (its leaf
 * box, mapped, widened like the world's piece boxes) against the body's
 * world box. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/chain/chain_piece_tests.h"
#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/shape/geom_distance.h"
#include "src/shape/pose.h"

/* World poses of every link (n * 16), or NULL when out of memory. */
static double *link_poses(const hs_chain *c)
{
    double *P = mem_alloc((size_t)c->n, 16 * sizeof(double));
    if (!P)
        return NULL;
    chain_xf w, b, t;
    chain_xf_from_pose(&w, c->base);
    chain_xf_to_pose(&w, P);
    for (int i = 1; i < c->n; i++) {
        chain_relative(c, 0, i, &t);
        chain_xf_from_pose(&b, c->base);
        chain_xf_mul(&w, &b, &t);
        chain_xf_to_pose(&w, P + 16 * i);
    }
    return P;
}

/* World box of link i's leaf box under the pose m. */
static void link_aabb(const hs_chain *c, int i, const double m[16], double lo[3], double hi[3])
{
    const hs_obb *b = &c->fit[i].box;
    double lo0[3], hi0[3];
    /* the leaf box as an axis box of its own frame, then mapped */
    double F[16], M[16];
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 3; k++)
            F[4 * r + k] = b->axis[k][r];
        F[4 * r + 3] = b->center[r];
        lo0[r] = -b->half[r];
        hi0[r] = b->half[r];
    }
    F[12] = F[13] = F[14] = 0;
    F[15] = 1;
    hs_pose_multiply(M, m, F);
    pose_map_box(M, lo0, hi0, lo, hi);
}

static int aabbs_meet(const double *lo1, const double *hi1, const double *lo2, const double *hi2)
{
    for (int d = 0; d < 3; d++)
        if (lo1[d] > hi2[d] || lo2[d] > hi1[d])
            return 0;
    return 1;
}

/* A sphere (centre p in the body frame) against a mesh piece. */
static int sphere_mesh(const double p[3], double r, const geom *g)
{
    for (int t = 0; t < g->ntris; t++) {
        double v[3][3];
        int near = 1;
        for (int k = 0; k < 3; k++)
            memcpy(v[k], g->mv + 3 * g->tris[3 * t + k], sizeof v[k]);
        for (int d = 0; d < 3 && near; d++) {
            double lo = fmin(v[0][d], fmin(v[1][d], v[2][d]));
            double hi = fmax(v[0][d], fmax(v[1][d], v[2][d]));
            double s = POSE_BOX_SLACK * (fabs(lo) + fabs(hi) + fabs(p[d]) + r) + 0x1p-1000;
            near = p[d] + r >= lo - s && p[d] - r <= hi + s;
        }
        int hit = near ? chain_sphere_triangle(p, r, (const double(*)[3])v) : 0;
        if (hit != 0)
            return hit;
    }
    return 0;
}

/* Does piece k of link i (posed by m) meet piece kb of body b? */
static int piece_meets(const chain_link *L, int k, const double m[16], const hs_body *b, int kb,
                       chain_convex_ws **ws, hs_error *err)
{
    const geom *gb = b->piece[kb];
    if (k < L->nsph) {
        double w[3], p[3], b_inv[16];
        pose_apply(m, L->sph[k].c, w);
        pose_inverse(b_inv, b->pose);
        pose_apply(b_inv, w, p);
        int r = gb->kind == PIECE_CONVEX ? chain_sphere_convex(p, L->sph[k].r, gb)
                                         : sphere_mesh(p, L->sph[k].r, gb);
        return r < 0 ? chain_test_failed(r, err) : r;
    }
    narrow_ws *nw = chain_convex_narrow(ws);
    if (!nw) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return -1;
    }
    piece_hit hit;
    if (narrow_test_geoms(nw, L->cvx[k - L->nsph], m, L->name ? L->name : "link", gb, b->pose,
                          b->name, &hit, err) != HS_OK)
        return -1;
    return hit.status != HS_DISJOINT;
}

static int body_counts(const hs_world *w, const hs_body *b)
{
    return w->enabled && b->enabled && b->npieces > 0;
}

/* Link i (pose m, world box lo/hi) against body b: 1, 0, -1. */
static int link_vs_body(const hs_chain *c, int i, const double m[16], const double lo[3],
                        const double hi[3], const hs_world *w,
                        const hs_body *b, chain_convex_ws **ws, hs_error *err)
{
    const chain_link *L = &c->link[i];
    if (!body_counts(w, b) || !aabbs_meet(lo, hi, b->lo, b->hi))
        return 0;
    for (int kp = 0; kp < L->nsph + L->ncvx; kp++)
        for (int kb = 0; kb < b->npieces; kb++) {
            int r = piece_meets(L, kp, m, b, kb, ws, err);
            if (r != 0)
                return r;
        }
    return 0;
}

/* Every (link, body) pair, or only the first when `all` is 0: each
 * colliding pair goes to fn(user, link, body index); stops early when fn
 * returns nonzero.  Returns 1 if a pair was found, 0, or -1. */
typedef int (*pair_fn)(void *user, int link, int body);

static int world_pairs(const hs_chain *c, const hs_world *w, pair_fn fn, void *user,
                       hs_error *err)
{
    double *P = link_poses(c);
    if (!P) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return -1;
    }
    chain_convex_ws *ws = NULL;
    int found = 0, stop = 0;
    for (int i = 0; i < c->n && !stop; i++) {
        if (chain_node_empty(&c->nd[i]))
            continue;
        double lo[3], hi[3];
        link_aabb(c, i, P + 16 * i, lo, hi);
        for (int k = 0; k < hs_world_body_count(w) && !stop; k++) {
            int r = link_vs_body(c, i, P + 16 * i, lo, hi, w, hs_world_body(w, k), &ws, err);
            if (r < 0) {
                found = -1;
                stop = 1;
            } else if (r) {
                found = 1;
                stop = fn(user, i, k);
            }
        }
    }
    chain_convex_ws_free(ws);
    free(P);
    return found;
}

typedef struct first_pair {
    int link, body;
} first_pair;

static int keep_first(void *user, int link, int body)
{
    first_pair *f = user;
    f->link = link;
    f->body = body;
    return 1;
}

int hs_chain_world_collision(const hs_chain *c, const hs_world *w, int *link,
                             const hs_body **body, hs_error *err)
{
    if (!c || !w) {
        err_set(err, HS_ERR_ARG, "hs_chain_world_collision: NULL argument");
        return -1;
    }
    first_pair f = {-1, -1};
    int r = world_pairs(c, w, keep_first, &f, err);
    if (r == 1) {
        if (link)
            *link = f.link;
        if (body)
            *body = hs_world_body(w, f.body);
    }
    return r;
}

typedef struct pair_list {
    int *p;
    int n, cap, nomem;
} pair_list;

static int keep_all(void *user, int link, int body)
{
    pair_list *l = user;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        int *p = mem_realloc(l->p, (size_t)cap, 2 * sizeof(int));
        if (!p) {
            l->nomem = 1;
            return 1;
        }
        l->p = p;
        l->cap = cap;
    }
    l->p[2 * l->n] = link;
    l->p[2 * l->n + 1] = body;
    l->n++;
    return 0;
}

hs_code hs_chain_world_collision_all(const hs_chain *c, const hs_world *w, int **pairs,
                                     int *npairs, hs_error *err)
{
    if (!c || !w || !pairs || !npairs)
        return err_set(err, HS_ERR_ARG, "hs_chain_world_collision_all: NULL argument");
    hs_error local;
    if (!err)
        err = &local;
    pair_list l = {NULL, 0, 0, 0};
    int r = world_pairs(c, w, keep_all, &l, err);
    if (r < 0 || l.nomem) {
        free(l.p);
        return r < 0 ? err->code : err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    *pairs = l.p;
    *npairs = l.n;
    return HS_OK;
}

/* ------------------------------------------------------------------ */
/* Distance                                                             */

typedef struct best_pair {
    double d, pa[3], pb[3];
    int link;
    const hs_body *body;
} best_pair;

/* The distance of A (a sphere of radius r and centre A[0], or a convex
 * piece's placed points) to body piece gb (placed points B), kept in best
 * when it is the smallest so far. */
static void measure(const double *A, int na, double r, const geom *gb, const double *B, int nb,
                    best_pair *best, int link, const hs_body *body)
{
    if (geom_pair_closer(NULL, A, na, r, gb, B, nb, &best->d, best->pa, best->pb)) {
        best->link = link;
        best->body = body;
    }
}

/* Link i (pose m) against the bodies (only `only` if not NULL); bodies
 * whose box is farther than the best distance so far are skipped. */
static int link_distance(const hs_chain *c, int i, const double m[16], const hs_world *w,
                         const hs_body *only, best_pair *best)
{
    const chain_link *L = &c->link[i];
    double lo[3], hi[3];
    link_aabb(c, i, m, lo, hi);
    for (int k = 0; k < hs_world_body_count(w); k++) {
        const hs_body *b = hs_world_body(w, k);
        if (!body_counts(w, b) || (only && b != only) ||
            geom_box_gap(lo, hi, b->lo, b->hi) > best->d)
            continue;
        for (int kb = 0; kb < b->npieces; kb++) {
            int nb;
            double *B = geom_placed_points(b->piece[kb], b->pose, &nb);
            if (!B)
                return -1;
            for (int kp = 0; kp < L->nsph + L->ncvx; kp++) {
                if (kp < L->nsph) {
                    double p[3];
                    pose_apply(m, L->sph[kp].c, p);
                    measure(p, 1, L->sph[kp].r, b->piece[kb], B, nb, best, i, b);
                    continue;
                }
                int na;
                double *A = geom_placed_points(L->cvx[kp - L->nsph], m, &na);
                if (!A) {
                    free(B);
                    return -1;
                }
                measure(A, na, 0, b->piece[kb], B, nb, best, i, b);
                free(A);
            }
            free(B);
        }
    }
    return 0;
}

static int has_piece(const hs_world *w)
{
    for (int k = 0; k < hs_world_body_count(w); k++)
        if (body_counts(w, hs_world_body(w, k)))
            return 1;
    return 0;
}

hs_code hs_chain_world_distance(const hs_chain *c, const hs_world *w, double *dist, int *link,
                                const hs_body **body, double pa[3], double pb[3],
                                hs_error *err)
{
    hs_error local;
    if (!err)
        err = &local;
    if (!c || !w || !dist)
        return err_set(err, HS_ERR_ARG, "hs_chain_world_distance: NULL argument");
    if (c->npieces == 0 || !has_piece(w))
        return err_set(err, HS_ERR_ARG, "hs_chain_world_distance: the %s has no piece",
                       c->npieces == 0 ? "chain" : "world (enabled bodies)");
    double *P = link_poses(c);
    if (!P)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    /* a pair that meets, decided exactly, has distance 0; its witness is
     * the closest points found for that link and body (a common point up
     * to rounding) */
    int li = -1;
    const hs_body *bi = NULL;
    int hit = hs_chain_world_collision(c, w, &li, &bi, err);
    best_pair best = {INFINITY, {0, 0, 0}, {0, 0, 0}, -1, NULL};
    int bad = hit < 0;
    for (int i = 0; i < c->n && !bad; i++)
        if (!chain_node_empty(&c->nd[i]) && (!hit || i == li))
            bad = link_distance(c, i, P + 16 * i, w, hit ? bi : NULL, &best) != 0;
    free(P);
    if (bad)
        return hit < 0 ? err->code : err_set(err, HS_ERR_NOMEM, "out of memory");
    if (hit) {
        best.d = 0;
        best.link = li;
        best.body = bi;
        memcpy(best.pb, best.pa, sizeof best.pa);
    }
    if (!best.body) /* every distance measured beyond the double range (or not a number) */
        return err_set(err, HS_ERR_INPUT, "hs_chain_world_distance: the distance from the chain "
                                          "to the world overflows the range of doubles");
    *dist = best.d;
    if (link)
        *link = best.link;
    if (body)
        *body = best.body;
    if (pa)
        memcpy(pa, best.pa, sizeof best.pa);
    if (pb)
        memcpy(pb, best.pb, sizeof best.pb);
    return HS_OK;
}
