/* chain_tree.c -- seed 003's ChainTree: the shortcut hierarchy (section
 * 2.1), the loose chain-aligned box hierarchy on top of it (section 2.2,
 * each box shrunk to its descendants two levels down, a bounded form of
 * section 6.1) and their update, merged level by level (section 3.1), or
 * for one joint refitted lazily as a search climbs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/obb.h"
#include "src/chain/chain.h"
#include "polytope/error.h"
#include "polytope/mem.h"

/* One level of the undo journal: the node on the path from the changed
 * leaf to the root, and its sibling (whose up changes with the parent's
 * box). */
typedef struct chain_journal {
    chain_fit fit;
    chain_node nd, sib;
} chain_journal;

int chain_tree_alloc(hs_chain *c)
{
    int levels = 0;
    while ((1 << levels) < c->n)
        levels++;
    c->levels = levels;
    c->lazy_leaf = -1;
    c->lev_off = mem_alloc((size_t)levels + 1, sizeof(int));
    c->lev_n = mem_alloc((size_t)levels + 1, sizeof(int));
    if (!c->lev_off || !c->lev_n)
        return -1;
    int total = 0;
    for (int l = 0; l <= levels; l++) {
        c->lev_off[l] = total;
        c->lev_n[l] = (int)(((long)c->n + (1L << l) - 1) >> l);
        total += c->lev_n[l];
    }
    c->fit = mem_calloc((size_t)total, sizeof(chain_fit));
    size_t nd_bytes = (sizeof(chain_node) * (size_t)total + 63) / 64 * 64; /* aligned_alloc
                                                                           wants a multiple */
    c->nd = aligned_alloc(64, nd_bytes);
    if (c->nd)
        memset(c->nd, 0, nd_bytes);
    c->wa = mem_alloc((size_t)c->n, sizeof(int));
    c->wb = mem_alloc((size_t)c->n, sizeof(int));
    c->wflag_a = mem_calloc((size_t)c->n, 1);
    c->wflag_b = mem_calloc((size_t)c->n, 1);
    c->jr = mem_alloc((size_t)levels + 1, sizeof(chain_journal));
    if (!c->fit || !c->nd || !c->wa || !c->wb || !c->wflag_a ||
        !c->wflag_b || !c->jr)
        return -1;
    for (int k = 0; k < total; k++) {
        chain_xf_identity(&c->fit[k].sc);
        chain_xf_identity(&c->nd[k].up);
        c->nd[k].rho = -1;
        c->fit[k].box.axis[0][0] = c->fit[k].box.axis[1][1] = c->fit[k].box.axis[2][2] = 1;
    }
    return 0;
}

void chain_tree_free(hs_chain *c)
{
    free(c->lev_off);
    free(c->lev_n);
    free(c->fit);
    free(c->nd);
    free(c->wa);
    free(c->wb);
    free(c->wflag_a);
    free(c->wflag_b);
    free(c->jr);
}

/* Sibling of node j of level l, or -1. */
static int sibling(const hs_chain *c, int l, int j)
{
    int s = j ^ 1;
    return s < c->lev_n[l] ? chain_node_index(c, l, s) : -1;
}

/* The journal is written as the update goes: level 0 here (the leaf,
 * whose shortcut is the joint), each level above by chain_tree_refit_to
 * just before it rewrites the level, so that a search stopping low (a
 * collision) saves and restores only the levels it refitted.  jr_top: the
 * highest level saved (the siblings are saved up to jr_top - 1: the
 * sibling of level l changes with the box of level l + 1). */
void chain_journal_save(hs_chain *c, int i)
{
    int p = i - 1;
    c->jr[0].fit = c->fit[p];
    c->jr[0].nd = c->nd[p];
    c->jr_top = 0;
    c->jr_joint = i;
    c->jr_old = c->fit[p].sc;
}

/* Level l >= 1 of the path of leaf p is about to be rewritten. */
static void journal_level(hs_chain *c, int p, int l)
{
    int k = chain_node_index(c, l, p >> l), s = sibling(c, l - 1, p >> (l - 1));
    c->jr[l].fit = c->fit[k];
    c->jr[l].nd = c->nd[k];
    if (s >= 0)
        c->jr[l - 1].sib = c->nd[s];
    c->jr_top = l;
}

int chain_journal_undo(hs_chain *c, int i, const chain_xf *x)
{
    if (c->jr_joint != i || memcmp(&c->jr_old, x, sizeof *x) != 0) {
        c->jr_joint = 0;
        return 0;
    }
    int p = i - 1;
    for (int l = 0; l <= c->jr_top; l++) {
        int j = p >> l, k = chain_node_index(c, l, j), s = sibling(c, l, j);
        const chain_journal *e = &c->jr[l];
        c->fit[k] = e->fit;
        c->nd[k] = e->nd;
        if (s >= 0 && l < c->jr_top)
            c->nd[s] = e->sib;
    }
    c->jr_joint = 0;
    c->lazy_leaf = -1; /* the restored levels are as they were; those above
                          were not touched */
    return 1;
}

static void set_half(chain_node *nd, const hs_obb *b)
{
    memcpy(nd->half, b->half, sizeof nd->half);
    double h = b->half[0] * b->half[0] + b->half[1] * b->half[1] + b->half[2] * b->half[2];
    nd->rho = sqrt(h) * (1 + 0x1p-48);
}

/* Points whose hull contains link i's pieces: the corners of each
 * sphere's cube and the vertices of each convex piece. */
static int leaf_points(const chain_link *L, double **pts)
{
    int n = 8 * L->nsph;
    for (int k = 0; k < L->ncvx; k++)
        n += L->cvx[k]->nverts;
    double *p = mem_alloc((size_t)n, 3 * sizeof(double));
    if (!p)
        return -1;
    int m = 0;
    for (int k = 0; k < L->nsph; k++) {
        double r = obb_up(L->sph[k].r);
        for (int s = 0; s < 8; s++, m++)
            for (int j = 0; j < 3; j++)
                p[3 * m + j] = L->sph[k].c[j] + ((s >> j) & 1 ? r : -r);
    }
    for (int k = 0; k < L->ncvx; k++) {
        memcpy(p + 3 * m, L->cvx[k]->verts, sizeof(double) * 3 * (size_t)L->cvx[k]->nverts);
        m += L->cvx[k]->nverts;
    }
    *pts = p;
    return n;
}

/* A single sphere gets the cube around it in the link's axes; anything
 * else the box fitted to the points above.  (The cube's corners are
 * outside the sphere and rounded outward, so either way the box contains
 * every piece.) */
void chain_leaf_box(hs_chain *c, int i)
{
    const chain_link *L = &c->link[i];
    hs_obb *b = &c->fit[i].box;
    chain_node *nd = &c->nd[i];
    memset(b, 0, sizeof *b);
    b->axis[0][0] = b->axis[1][1] = b->axis[2][2] = 1;
    nd->rho = -1;
    if (L->nsph + L->ncvx == 0)
        return;
    double *pts = NULL;
    int n = L->nsph == 1 && L->ncvx == 0 ? 0 : leaf_points(L, &pts);
    if (n <= 0 || hs_obb_fit(b, pts, n, NULL) != HS_OK) {
        /* one sphere, or no memory for the points: the link-axis box of
         * the spheres' cubes and the pieces' boxes */
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int k = 0; k < L->nsph; k++)
            for (int j = 0; j < 3; j++) {
                lo[j] = fmin(lo[j], L->sph[k].c[j] - L->sph[k].r);
                hi[j] = fmax(hi[j], L->sph[k].c[j] + L->sph[k].r);
            }
        for (int k = 0; k < L->ncvx; k++)
            for (int j = 0; j < 3; j++) {
                lo[j] = fmin(lo[j], L->cvx[k]->lo[j]);
                hi[j] = fmax(hi[j], L->cvx[k]->hi[j]);
            }
        memset(b, 0, sizeof *b);
        for (int j = 0; j < 3; j++) {
            b->axis[j][j] = 1;
            b->center[j] = 0.5 * lo[j] + 0.5 * hi[j];
            b->half[j] = obb_up(fmax(hi[j] - b->center[j], b->center[j] - lo[j]));
        }
    }
    free(pts);
    if (L->ncvx > 0) {
        /* a convex piece's stored corners are its vertices to rounding:
         * widen like the world widens mapped piece boxes (POSE_BOX_SLACK) */
        double mag = 0;
        for (int j = 0; j < 3; j++)
            mag += fabs(b->center[j]) + b->half[j];
        for (int j = 0; j < 3; j++)
            b->half[j] += 0x1p-30 * mag;
    }
    set_half(nd, b);
    if (L->nsph == 1 && L->ncvx == 0)
        nd->rho = L->sph[0].r * (1 + 0x1p-50); /* the ball itself, around the centre */
}

/* ------------------------------------------------------------------ */
/* Merging two boxes (section 2.2: a box bounds the two boxes below it)  */

/* Frame of a box as a map box coordinates -> link coordinates. */
static void box_frame(chain_xf *f, const hs_obb *b)
{
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            f->r[3 * i + j] = b->axis[j][i];
        f->t[i] = b->center[i];
    }
}

/* The transpose inverse of a box frame (its axes are orthonormal to
 * rounding). */
static void box_frame_inv(chain_xf *f, const hs_obb *b)
{
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            f->r[3 * i + j] = b->axis[i][j];
        f->t[i] = -dot3(b->axis[i], b->center);
    }
}

/* Rows f[0..2] made orthonormal from the directions f[0], f[1]
 * (Gram-Schmidt, f[2] = f[0] x f[1]); -1 when they are (nearly)
 * dependent or not finite. */
static int frame_from_two(double f[9])
{
    double n0 = dot3(f, f);
    if (!(n0 > 0x1p-900 && n0 < 0x1p900))
        return -1;
    double s0 = 1 / sqrt(n0);
    for (int j = 0; j < 3; j++)
        f[j] *= s0;
    double d = dot3(f, f + 3), n1_given = dot3(f + 3, f + 3);
    for (int j = 0; j < 3; j++)
        f[3 + j] -= d * f[j];
    double n1 = dot3(f + 3, f + 3);
    if (!(n1 > 0x1p-40 * n1_given + 0x1p-900 && n1 < 0x1p900))
        return -1;
    double s1 = 1 / sqrt(n1);
    for (int j = 0; j < 3; j++)
        f[3 + j] *= s1;
    f[6] = f[1] * f[5] - f[2] * f[4];
    f[7] = f[2] * f[3] - f[0] * f[5];
    f[8] = f[0] * f[4] - f[1] * f[3];
    return 0;
}

/* out = f g^T for rows f[0..2], g[0..2]: out[3i + k] = f_i . g_k. */
static inline void rows_times_rows(double out[9], const double f[9], const double g[3][3])
{
    for (int i = 0; i < 3; i++) {
        const double f0 = f[3 * i], f1 = f[3 * i + 1], f2 = f[3 * i + 2];
        out[3 * i] = f0 * g[0][0] + f1 * g[0][1] + f2 * g[0][2];
        out[3 * i + 1] = f0 * g[1][0] + f1 * g[1][1] + f2 * g[1][2];
        out[3 * i + 2] = f0 * g[2][0] + f1 * g[2][1] + f2 * g[2][2];
    }
}

/* Two boxes seen in a candidate frame F (orthonormal rows f_i, the
 * parent's axes): ra = F A^T and rb = F B^T are then the rotations of the
 * children's box frames in the parent's (up), ca and cb their centres'
 * coordinates, [lo, hi] the extents of both along each f_i. */
typedef struct frame_fit {
    double f[9];
    double ra[9], rb[9];
    double ca[3], cb[3];
    double lo[3], hi[3];
    double vol;
    int f_is_a;        /* F is a's axes, number for number */
} frame_fit;

/* Extent along a direction of a box of half sizes h whose axes have
 * coordinates q along it (a row of F B^T): sum_k h_k |q_k|; for a node
 * whose pieces lie in a ball of radius ball around its box centre
 * (ball < 0: none known), the smaller of that and the ball's, ball |q|.
 * Only a link holding one sphere has a ball smaller than its box (the
 * sphere itself; its cube reaches sqrt(3) times farther along a
 * diagonal); for a box, sum_k h_k |q_k| <= |h| |q|. */
static inline double row_extent(const double q[3], const double h[3], double ball)
{
    double e = h[0] * fabs(q[0]) + h[1] * fabs(q[1]) + h[2] * fabs(q[2]);
    if (ball > 0) {
        double eb = ball * sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]) * (1 + 0x1p-50);
        e = eb < e ? eb : e;
    }
    return e;
}

/* The same along row i of the rotation r. */
static inline double node_extent(const double r[9], int i, const double h[3], double ball)
{
    return row_extent(r + 3 * i, h, ball);
}

/* Ball of node (l, j) for node_extent: a link of one sphere (and nothing
 * else) has rho = its radius, around its box centre. */
static inline double sphere_ball(const hs_chain *c, int l, int j)
{
    if (l > 0 || c->link[j].nsph != 1 || c->link[j].ncvx != 0)
        return -1;
    return c->nd[j].rho;
}

static inline void fit_in_frame(frame_fit *ft, const hs_obb *a, const double pb[3][3],
                                const double pc[3], const double hb[3], double ball_a,
                                double ball_b)
{
    if (ft->f_is_a) { /* F = A: a's rotation is the identity, exactly */
        static const double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        memcpy(ft->ra, id, sizeof ft->ra);
    } else {
        rows_times_rows(ft->ra, ft->f, a->axis);
    }
    rows_times_rows(ft->rb, ft->f, pb);
    ft->vol = 1;
    for (int i = 0; i < 3; i++) {
        const double *fi = ft->f + 3 * i;
        double ca = dot3(fi, a->center), cb = dot3(fi, pc);
        double ra = node_extent(ft->ra, i, a->half, ball_a),
               rb = node_extent(ft->rb, i, hb, ball_b);
        ft->ca[i] = ca;
        ft->cb[i] = cb;
        ft->lo[i] = ca - ra < cb - rb ? ca - ra : cb - rb;
        ft->hi[i] = ca + ra > cb + rb ? ca + ra : cb + rb;
        ft->vol *= ft->hi[i] - ft->lo[i];
    }
}

/* up of a child from its rotation r and centre c in the parent's box
 * frame (c relative to the parent's centre), half sizes h, ball as for
 * node_extent; identity: r is exactly I (defect 0).  eps bounds the
 * defect of up and of its inverse: the inverse of a map of defect e has
 * defect at most e / (1 - e), plus the rounding (chain_defect_mul's
 * 2^-48); the search takes the transpose for the inverse when
 * chain_up_transposable. */
static void put_up(chain_node *child, const double r[9], const double c[3], const double h[3],
                   double ball, int identity)
{
    memcpy(child->up.r, r, sizeof child->up.r);
    memcpy(child->up.t, c, sizeof child->up.t);
    double e = identity ? 0 : chain_rotation_defect(r);
    child->eps = e < 0x1p-20 ? chain_defect_mul(e, e) : INFINITY;
    for (int i = 0; i < 3; i++)
        child->ext[i] = node_extent(r, i, h, ball) * (1 + 0x1p-40);
}

/* Seed 003, section 6.1 shrinks every box until its faces touch the
 * geometry, which may visit every link below.  We shrink to a fixed
 * depth: a box is fitted to its grandchildren's boxes (at most four)
 * instead of its two children's, so looseness compounds every second
 * level instead of at every level (depths 3 and 4 cost more refit than
 * they save in box tests on bench/chain).  A grandchild is mapped into
 * the new frame through its up: the parallelotope {t + R s : |s_k| <=
 * half_k} with R = (F C^T) up.r (exact for any R; the same maps the
 * search composes), whose extent along row i is t_i +- sum_k half_k
 * |R_ik|.  Their rounding is covered by chain_box_slack like the rest.
 * rc and cc: the child's rotation and centre in the new frame (its up);
 * rc NULL: the new frame has the child's axes (rc = I), so a grandchild
 * reaches its ext (sum_k half_k |up.r_ik|, stored rounded up) around
 * up.t, with no product. */
static void grandchild_extents(const hs_chain *c, int l, int jc, const double rc[9],
                               const double cc[3], double lo[3], double hi[3])
{
    int n = chain_children(c, l, jc);
    const chain_node *g = &c->nd[chain_node_index(c, l - 1, 2 * jc)];
    for (int k = 0; k < n; k++, g++) {
        if (chain_node_empty(g))
            continue;
        if (!rc) { /* the new frame is the child's own: the grandchild's ext */
            for (int i = 0; i < 3; i++) {
                double t = g->up.t[i] + cc[i];
                lo[i] = t - g->ext[i] < lo[i] ? t - g->ext[i] : lo[i];
                hi[i] = t + g->ext[i] > hi[i] ? t + g->ext[i] : hi[i];
            }
            continue;
        }
        const double *u = g->up.r, *v = g->up.t;
        double ball = sphere_ball(c, l - 1, 2 * jc + k);
        for (int i = 0; i < 3; i++) {
            const double r0 = rc[3 * i], r1 = rc[3 * i + 1], r2 = rc[3 * i + 2];
            double q[3] = {r0 * u[0] + r1 * u[3] + r2 * u[6], r0 * u[1] + r1 * u[4] + r2 * u[7],
                           r0 * u[2] + r1 * u[5] + r2 * u[8]}; /* row i of rc up.r */
            double t = r0 * v[0] + r1 * v[1] + r2 * v[2] + cc[i];
            double e = row_extent(q, g->half, ball);
            lo[i] = t - e < lo[i] ? t - e : lo[i];
            hi[i] = t + e > hi[i] ? t + e : hi[i];
        }
    }
}

/* The first candidate frame is kept without trying the second when its
 * box is at most this many times the children's boxes' total volume (on
 * bench/chain N = 10,000: 3% faster, 1% more box tests; 2 saves less, 5
 * and more lose box tests on the layered walk). */
#define FRAME_GOOD_ENOUGH 3.0

/* Seed 003, section 2.2: the box of node k bounds its children's boxes a
 * (in the node's first link frame) and b (placed by the shortcut s of
 * the first child).  Two candidate frames, a's axes and b's axes as
 * placed (made orthonormal: the joints may be rigid only to 1e-9); the
 * smaller volume wins, the second tried only when the first is not good
 * enough (FRAME_GOOD_ENOUGH).  (A third, along the segment between the
 * centres, won 3% of the merges on bench/chain and saved no box test.)  The
 * products computed for the extents are the children's up rotations.
 * Every quantity is rounded to a few units of roundoff of the
 * magnitudes (the candidate frames are orthonormal to rounding, so
 * F F^T mid = mid to rounding), which chain_box_slack covers. */
static void merge_node(hs_chain *c, int l, int j, int k, int k1, int k2)
{
    const hs_obb *a = &c->fit[k1].box, *b = &c->fit[k2].box;
    const chain_xf *s = &c->fit[k1].sc;
    double pb[3][3], pc[3]; /* b's axes and centre placed by s */
    for (int i = 0; i < 3; i++)
        for (int q = 0; q < 3; q++)
            pb[i][q] = s->r[3 * q] * b->axis[i][0] + s->r[3 * q + 1] * b->axis[i][1] +
                       s->r[3 * q + 2] * b->axis[i][2];
    chain_xf_apply(s, b->center, pc);
    frame_fit cand[2];
    memcpy(cand[0].f, a->axis, sizeof cand[0].f);
    cand[0].f_is_a = 1;
    double ball_a = sphere_ball(c, l - 1, 2 * j), ball_b = sphere_ball(c, l - 1, 2 * j + 1);
    fit_in_frame(&cand[0], a, (const double(*)[3])pb, pc, b->half, ball_a, ball_b);
    int best = 0, root = l == c->levels; /* the root's box bounds nothing that is tested */
    double va = a->half[0] * a->half[1] * a->half[2], vb = b->half[0] * b->half[1] * b->half[2];
    if (!root && !(cand[0].vol <= FRAME_GOOD_ENOUGH * 8 * (va + vb))) {
        memcpy(cand[1].f, pb, sizeof cand[1].f);
        cand[1].f_is_a = 0;
        if (frame_from_two(cand[1].f) == 0) {
            fit_in_frame(&cand[1], a, (const double(*)[3])pb, pc, b->half, ball_a, ball_b);
            best = cand[1].vol < cand[0].vol;
        }
    }
    frame_fit *ft = &cand[best];
    if (l >= 2 && !root) {
        for (int i = 0; i < 3; i++) {
            ft->lo[i] = INFINITY;
            ft->hi[i] = -INFINITY;
        }
        grandchild_extents(c, l - 1, 2 * j, ft->f_is_a ? NULL : ft->ra, ft->ca, ft->lo, ft->hi);
        grandchild_extents(c, l - 1, 2 * j + 1, ft->rb, ft->cb, ft->lo, ft->hi);
    }
    hs_obb *out = &c->fit[k].box;
    memcpy(out->axis, ft->f, sizeof out->axis);
    double mid[3], ua[3], ub[3];
    for (int i = 0; i < 3; i++) {
        mid[i] = 0.5 * (ft->lo[i] + ft->hi[i]);
        out->half[i] = 0.5 * (ft->hi[i] - ft->lo[i]) * (1 + 0x1p-40);
        ua[i] = ft->ca[i] - mid[i];
        ub[i] = ft->cb[i] - mid[i];
    }
    for (int q = 0; q < 3; q++)
        out->center[q] = mid[0] * ft->f[q] + mid[1] * ft->f[3 + q] + mid[2] * ft->f[6 + q];
    set_half(&c->nd[k], out);
    put_up(&c->nd[k1], ft->ra, ua, a->half, ball_a, ft->f_is_a);
    put_up(&c->nd[k2], ft->rb, ub, b->half, ball_b, 0);
}

/* up of a child: its box frame in the parent's box frame, the child's
 * link frame placed by `place` (NULL: the parent's link frame). */
static void set_up(chain_node *child, const hs_obb *cbox, const hs_obb *pbox,
                   const chain_xf *place)
{
    chain_xf fc, fp_inv, tmp, up;
    box_frame(&fc, cbox);
    box_frame_inv(&fp_inv, pbox);
    if (place) {
        chain_xf_mul(&tmp, place, &fc);
        chain_xf_mul(&up, &fp_inv, &tmp);
    } else {
        chain_xf_mul(&up, &fp_inv, &fc);
    }
    put_up(child, up.r, up.t, cbox->half, -1, 0);
}

/* Recompute the box of node (l, j) from its children, and their up. */
static void node_box(hs_chain *c, int l, int j)
{
    int k = chain_node_index(c, l, j), k1 = chain_node_index(c, l - 1, 2 * j);
    int two = chain_children(c, l, j) == 2;
    int k2 = two ? k1 + 1 : -1;
    chain_node *nd = &c->nd[k], *n1 = &c->nd[k1], *n2 = two ? &c->nd[k2] : NULL;
    if (chain_node_empty(n1) && (!n2 || chain_node_empty(n2))) {
        nd->rho = -1;
        return;
    }
    if (n2 && !chain_node_empty(n1) && !chain_node_empty(n2)) {
        merge_node(c, l, j, k, k1, k2);
        return;
    }
    if (!n2 || chain_node_empty(n2)) {
        c->fit[k].box = c->fit[k1].box;
    } else {
        double m[16];
        chain_xf_to_pose(&c->fit[k1].sc, m);
        hs_obb_transform(&c->fit[k].box, &c->fit[k2].box, m);
    }
    set_half(nd, &c->fit[k].box);
    set_up(n1, &c->fit[k1].box, &c->fit[k].box, NULL);
    if (n2)
        set_up(n2, &c->fit[k2].box, &c->fit[k].box, &c->fit[k1].sc);
}

static double max2(double a, double b) { return a > b ? a : b; }

static void node_mag(hs_chain *c, int l, int j)
{
    int k = chain_node_index(c, l, j);
    double m = chain_norm1(c->fit[k].sc.t);
    if (!chain_node_empty(&c->nd[k]))
        m = max2(m, chain_norm1(c->fit[k].box.center) + chain_norm1(c->fit[k].box.half));
    if (l > 0) {
        int k1 = chain_node_index(c, l - 1, 2 * j);
        m = max2(m, c->fit[k1].mag);
        if (chain_children(c, l, j) == 2)
            m = max2(m, c->fit[k1 + 1].mag);
    }
    c->fit[k].mag = m;
}

static void node_shortcut(hs_chain *c, int l, int j)
{
    int k = chain_node_index(c, l, j), k1 = chain_node_index(c, l - 1, 2 * j);
    if (chain_children(c, l, j) == 2)
        chain_xf_mul(&c->fit[k].sc, &c->fit[k1].sc, &c->fit[k1 + 1].sc);
    else
        c->fit[k].sc = c->fit[k1].sc;
}

static int cmp_leaf(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorted, unique leaves with their box flags into c->wa / c->wflag_a. */
static int first_level(hs_chain *c, const int *leaves, int count, int boxes_changed)
{
    int *cur = c->wa, m = 0;
    unsigned char *flag = c->wflag_a, *seen = c->wflag_b;
    /* unique leaves (at most n, whatever count is): marked in seen, which
     * is all zero between updates */
    for (int k = 0; k < count; k++)
        if (!seen[leaves[k]]) {
            seen[leaves[k]] = 1;
            cur[m++] = leaves[k];
        }
    for (int k = 0; k < m; k++)
        seen[cur[k]] = 0;
    if (m > 1)
        qsort(cur, (size_t)m, sizeof(int), cmp_leaf);
    for (int k = 0; k < m; k++)
        flag[k] = (unsigned char)(boxes_changed != 0);
    for (int k = 0; k < m; k++)
        node_mag(c, 0, cur[k]);
    return m;
}

/* Seed 003, sections 2.1-2.2 and 3.1: one level at a time, every node
 * above a changed node gets its shortcut recomputed; its box too when a
 * child's box changed or its first child's shortcut did (that shortcut
 * places the second child).  Converging paths merge, so nothing is
 * recomputed twice. */
void chain_tree_update(hs_chain *c, const int *leaves, int count, int boxes_changed)
{
    if (count <= 0)
        return;
    int ncur = first_level(c, leaves, count, boxes_changed), used = ncur;
    int *cur = c->wa, *next = c->wb;
    unsigned char *cflag = c->wflag_a, *nflag = c->wflag_b;
    for (int l = 1; l <= c->levels; l++) {
        int m = 0;
        for (int k = 0; k < ncur;) {
            int p = cur[k] >> 1, left = 0, box = 0;
            for (; k < ncur && cur[k] >> 1 == p; k++) {
                left |= (cur[k] & 1) == 0;
                box |= cflag[k];
            }
            node_shortcut(c, l, p);
            int redo = box || (left && chain_children(c, l, p) == 2);
            if (redo)
                node_box(c, l, p);
            node_mag(c, l, p);
            next[m] = p;
            nflag[m++] = (unsigned char)redo;
        }
        int *ti = cur;
        cur = next;
        next = ti;
        unsigned char *tf = cflag;
        cflag = nflag;
        nflag = tf;
        ncur = m;
    }
    memset(c->wflag_a, 0, (size_t)used); /* both flag arrays end all zero */
    memset(c->wflag_b, 0, (size_t)used);
}

/* One leaf's path: what chain_tree_update does, level by level as
 * chain_tree_refit_to asks (a search that stops low never pays for the
 * levels above).  Along a single path a box is recomputed from the first
 * level where the leaf's ancestor is a left child with a sibling (whose
 * placement, the left child's shortcut, changed) upwards. */
void chain_tree_update_lazy(hs_chain *c, int leaf)
{
    node_mag(c, 0, leaf);
    c->lazy_leaf = leaf;
    c->lazy_level = 1;
    c->lazy_redo = 0;
}

void chain_tree_refit_to(hs_chain *c, int level)
{
    if (c->lazy_leaf < 0)
        return;
    int leaf = c->lazy_leaf, top = level < c->levels ? level : c->levels;
    int journal = c->jr_joint == leaf + 1; /* this change is journaled */
    for (int l = c->lazy_level; l <= top; l++) {
        int p = leaf >> l, left = ((leaf >> (l - 1)) & 1) == 0;
        if (journal)
            journal_level(c, leaf, l);
        node_shortcut(c, l, p);
        c->lazy_redo |= left && chain_children(c, l, p) == 2;
        if (c->lazy_redo)
            node_box(c, l, p);
        node_mag(c, l, p);
    }
    c->lazy_level = top + 1;
    if (top == c->levels)
        c->lazy_leaf = -1;
}

/* T(a, b) = J_{a+1} ... J_b as the fewest shortcuts: from p, the longest
 * shortcut that starts at p (p a multiple of 2^l) and does not pass b. */
void chain_relative(const hs_chain *c, int a, int b, chain_xf *out)
{
    chain_xf_identity(out);
    int p = a, first = 1;
    while (p < b) {
        int l = 0;
        while (l < c->levels && (p & ((2 << l) - 1)) == 0 && p + (2 << l) <= b)
            l++;
        const chain_xf *s = &c->fit[chain_node_index(c, l, p >> l)].sc;
        if (first) {
            *out = *s;
            first = 0;
        } else {
            chain_xf tmp;
            chain_xf_mul(&tmp, out, s);
            *out = tmp;
        }
        p += 1 << l;
    }
}

/* The recursion tests boxes placed by products of up transforms, the
 * leaves' pieces are placed by chain_relative: both are products of at
 * most 2 (levels + 1) rounded rigid maps whose translations are at most
 * (2 levels + 4) mag (mag bounds every shortcut translation and every box
 * centre plus size), each product off by a few units of roundoff of those
 * magnitudes.  2^-30 (2 levels + 4) mag is more than 10^4 times that
 * error for chains of up to 2^30 links whose joints are rigid to
 * CHAIN_RIGID_TOL, so a box test widened by it never drops a pair the
 * exact leaf test would find. */
double chain_box_slack(const hs_chain *c) { return chain_box_slack_below(c, c->levels, 0); }

/* Pairs below node (l, j) involve only shortcuts and boxes below it,
 * which its mag bounds. */
double chain_box_slack_below(const hs_chain *c, int l, int j)
{
    double mag = c->fit[chain_node_index(c, l, j)].mag;
    return 0x1p-30 * (2.0 * c->levels + 4) * mag + 0x1p-1000;
}
