/* chain_self.c -- self-collision of a chain (seed 003, section 2.3): the
 * box hierarchy tested against itself, a node against itself by its
 * children, two nodes as two separate objects.
 *
 * What is skipped.  The seed skips the inside of every box that the last
 * update did not recompute: its links have not moved relative to each
 * other since the last query found the chain free.  We record the joints
 * moved since that answer (chain_moved.c) and skip, more generally, every
 * pair of nodes A before B such that no moved joint lies between A's first
 * link and B's last (the links from A to B form one rigid piece, free at
 * the last answer).  With one moved joint the search is then exactly the
 * two rigid pieces tested against each other, without building a
 * hierarchy for each (the seed's remark after Figure 3).
 *
 * Transforms.  The pair (A, B) carries the pose of B's box frame in A's;
 * going down one side multiplies by a child's `up` (or its inverse), so a
 * box test costs one product of rigid maps and the tests of
 * chain_box.h: the balls around the boxes, then seed 004's
 * separating-axis test on the 6 face axes, rigorous for any R (the
 * propagated rotations are rotations only to rounding).  The 9 edge-edge
 * axes are left out: on bench/chain they separate 7% of the pairs the
 * face axes keep, which costs about what it saves.
 *
 * Order.  Every pair tested is two nodes of one level (it starts from
 * two siblings), and the two go down together (their four child pairs);
 * of two children, the one nearer the moved joint along the chain is
 * visited first; the levels of the path are searched bottom-up.
 * hs_chain_try_change refits the path (shortcuts and boxes) just ahead of
 * that climb (chain_tree_refit_to). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/chain/chain.h"
#include "src/chain/chain_box.h"
#include "src/chain/chain_piece_tests.h"
#include "polytope/error.h"
#include "polytope/mem.h"

typedef struct self_ctx {
    const hs_chain *c;
    hs_chain *lazy; /* c, when its boxes are refitted as the search climbs */
    int cached;     /* use the record of moved joints */
    int collect;    /* find every pair, not just one */
    int one;        /* cached, exactly one joint moved: that joint (else 0) */
    int first_moved; /* cached: the first moved joint (else 0), for the order */
    double slack;
    long box_tests, piece_tests;
    chain_convex_ws *ws;
    hs_error *err;
    int hit_i, hit_j;
    int *pairs;
    int npairs, cap;
} self_ctx;

/* Result of a step: keep going, stop (a pair found in first-pair mode),
 * or an error. */
enum { GO = 0, FOUND = 1, FAILED = -1 };

/* A node as the search sees it: its data, level and index, and the links
 * first..last below it. */
typedef struct nref {
    const chain_node *nd;
    int l, j, first, last;
} nref;

static inline nref node_ref(const hs_chain *c, int l, int j)
{
    nref r = {&c->nd[chain_node_index(c, l, j)], l, j, chain_first(l, j), chain_last(c, l, j)};
    return r;
}

/* Must a pair spanning the links lo..hi be searched, that is, did a joint
 * between them move since the last free answer? */
static inline int needs(const self_ctx *x, int lo, int hi)
{
    if (x->one) /* without a branch on the data (see wanted) */
        return (lo < x->one) & (x->one <= hi);
    return !x->cached || chain_span_changed(x->c, lo, hi);
}

static int collect_pair(self_ctx *x, int a, int b)
{
    if (x->npairs == x->cap) {
        int cap = x->cap ? 2 * x->cap : 16;
        int *p = mem_realloc(x->pairs, (size_t)cap, 2 * sizeof(int));
        if (!p) {
            err_set(x->err, HS_ERR_NOMEM, "out of memory");
            return FAILED;
        }
        x->pairs = p;
        x->cap = cap;
    }
    x->pairs[2 * x->npairs] = a;
    x->pairs[2 * x->npairs + 1] = b;
    x->npairs++;
    return GO;
}

/* Links a < b, their boxes overlapping: the exact test with b placed in
 * a's frame from the shortcuts (the same numbers whatever the path that
 * led here). */
static int leaf_pair(self_ctx *x, int a, int b)
{
    chain_xf t;
    chain_relative(x->c, a, b, &t);
    int r = chain_links_meet(x->c, a, b, &t, &x->ws, &x->piece_tests, x->err);
    if (r < 0)
        return FAILED;
    if (!r)
        return GO;
    if (x->collect)
        return collect_pair(x, a, b);
    x->hit_i = a;
    x->hit_j = b;
    return FOUND;
}

/* Which side of the pair goes down a level. */
enum { DOWN_A, DOWN_B };

/* The pose of B's box frame in A's after one side went down to its child
 * `nc`: A side m' = up^-1 m, B side m' = m up.  Translation first: the
 * balls around the boxes often separate them, and then the rotation is
 * never needed.  up^-1 is (r^T, -r^T t) when chain_up_transposable, so
 * m'.t = r^T (m.t - t), else `inv`, computed by the caller. */
static inline void child_t(chain_xf *out, const chain_xf *m, const chain_node *nc, int side,
                           const chain_xf *inv)
{
    if (side == DOWN_A && !inv) {
        const double *r = nc->up.r;
        double d0 = m->t[0] - nc->up.t[0], d1 = m->t[1] - nc->up.t[1], d2 = m->t[2] - nc->up.t[2];
        out->t[0] = r[0] * d0 + r[3] * d1 + r[6] * d2;
        out->t[1] = r[1] * d0 + r[4] * d1 + r[7] * d2;
        out->t[2] = r[2] * d0 + r[5] * d1 + r[8] * d2;
        return;
    }
    const chain_xf *a = side == DOWN_A ? inv : m;
    const chain_xf *b = side == DOWN_A ? m : &nc->up;
    const double *r = a->r, *t = b->t;
    double t0 = t[0], t1 = t[1], t2 = t[2];
    out->t[0] = r[0] * t0 + r[1] * t1 + r[2] * t2 + a->t[0];
    out->t[1] = r[3] * t0 + r[4] * t1 + r[5] * t2 + a->t[1];
    out->t[2] = r[6] * t0 + r[7] * t1 + r[8] * t2 + a->t[2];
}

/* out->r = p q, p's rows read as columns when transposed. */
static inline void mul_r(double *restrict out, const double *p, int transposed, const double *q)
{
    const double q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3], q4 = q[4], q5 = q[5], q6 = q[6],
                 q7 = q[7], q8 = q[8];
    const int si = transposed ? 1 : 3, sk = transposed ? 3 : 1; /* p_ik = p[si i + sk k] */
    for (int i = 0; i < 3; i++) {
        double p0 = p[si * i], p1 = p[si * i + sk], p2 = p[si * i + 2 * sk];
        out[3 * i] = p0 * q0 + p1 * q3 + p2 * q6;
        out[3 * i + 1] = p0 * q1 + p1 * q4 + p2 * q7;
        out[3 * i + 2] = p0 * q2 + p1 * q5 + p2 * q8;
    }
}

/* up^-1 of nc in *store when its transpose does not serve; else NULL. */
static inline const chain_xf *general_inverse(const chain_node *nc, chain_xf *store)
{
    if (chain_up_transposable(nc))
        return NULL;
    chain_xf_inverse(store, &nc->up);
    return store;
}

static inline void child_r(chain_xf *restrict out, const chain_xf *m, const chain_node *nc,
                           int side, const chain_xf *inv)
{
    if (side == DOWN_B)
        mul_r(out->r, m->r, 0, nc->up.r);
    else if (!inv)
        mul_r(out->r, nc->up.r, 1, m->r);
    else
        mul_r(out->r, inv->r, 0, m->r);
}

static int descend(self_ctx *x, const nref *A, const nref *B, const chain_xf *m, double eps,
                   const chain_b_view *v);

/* Nodes that can be skipped before any arithmetic: no piece below, or
 * two links whose pair is on the skip list. */
static inline int nothing_to_test(const self_ctx *x, const nref *A, const nref *B)
{
    return chain_node_empty(A->nd) || chain_node_empty(B->nd) ||
           (A->l == 0 && B->l == 0 && chain_pair_skipped(x->c, A->j, B->j));
}

/* Is the pair of a child (data nc, index jc) and a node (index jo) known
 * to hold pieces to be tested: does it span a moved joint (lo..hi its
 * links), does the child hold pieces, is the pair not on the skip list
 * (both leaves: `leaves`)?  Without branches on the data where it can
 * be: like the box tests below, these outcomes are as unpredictable as
 * the geometry, and a misprediction costs more than the few comparisons
 * (measured on bench/chain). */
static inline int wanted(const self_ctx *x, const chain_node *nc, int leaves, int jc, int jo,
                         int lo, int hi)
{
    int w = needs(x, lo, hi) & !chain_node_empty(nc);
    if (w && leaves)
        w = !chain_pair_skipped(x->c, jc, jo);
    return w;
}

/* Test the boxes of A and B (A before B), whose pose is m' = (m with one
 * side gone down to nc, the node now in A or B); go down when they may
 * meet.  The caller checked that the span A..B is not rigid and
 * nothing_to_test. */
static int test_node_pair(self_ctx *x, const nref *A, const nref *B, const chain_xf *m,
                          const chain_node *nc, int side, double eps)
{
    const hs_chain *c = x->c;
    const chain_node *na = A->nd, *nb = B->nd;
    chain_xf mm, store;
    const chain_xf *inv = side == DOWN_A ? general_inverse(nc, &store) : NULL;
    double e = chain_defect_mul(eps, nc->eps);
    x->box_tests++;
    child_t(&mm, m, nc, side, inv);
    if (chain_spheres_apart(mm.t, na->rho, nb->rho, e, x->slack))
        return GO;
    int leaves = A->l == 0 && B->l == 0;
    if (leaves && c->link[A->j].ncvx == 0 && c->link[B->j].ncvx == 0)
        return leaf_pair(x, A->j, B->j); /* spheres: the exact test is as cheap */
    child_r(&mm, m, nc, side, inv);
    double ha[3] = {na->half[0] + x->slack, na->half[1] + x->slack, na->half[2] + x->slack};
    chain_b_view v; /* for the face test, or else for the descent */
    chain_view_from_b(&v, ha, mm.r, mm.t);
    if (!chain_balls_meet(mm.t, na->half, nb->half) &&
        chain_faces_apart(ha, mm.r, mm.t, nb->half, e, &v))
        return GO;
    if (leaves)
        return leaf_pair(x, A->j, B->j);
    return descend(x, A, B, &mm, e, &v);
}

/* The children of a node N (level >= 1) as the descent needs them: the
 * first child's data (the second's is next to it), their level and
 * index, whether the second exists, where its links begin, and the
 * visiting order: the child nearer (along the chain) to a joint moved
 * since the last free answer first, a collision being likelier there (on
 * bench/chain N = 10,000 as few box tests as ordering by the distance
 * between box centres, without its arithmetic). */
typedef struct kids {
    const chain_node *nd;
    int l, j, two;
    int mid;          /* the second child's first link */
    int last0;        /* the first child's last link */
    int second_first; /* visit the second child first */
} kids;

static inline void kids_of(const self_ctx *x, const nref *N, kids *k)
{
    const hs_chain *c = x->c;
    k->l = N->l - 1;
    k->j = 2 * N->j;
    k->nd = &c->nd[c->lev_off[k->l] + k->j];
    k->two = k->j + 1 < c->lev_n[k->l];
    k->mid = N->first + (1 << k->l);
    k->last0 = k->mid - 1 < N->last ? k->mid - 1 : N->last; /* one child: N->last */
    k->second_first = k->two & (x->first_moved >= k->mid);
}

/* Child i (0 or 1) of N. */
static inline nref kid_ref(const nref *N, const kids *k, int i)
{
    nref r = {k->nd + i, k->l, k->j + i, i ? k->mid : N->first, i ? N->last : k->last0};
    return r;
}

/* A's children C against D (a child of B, one level below A), D's pose
 * in A's box frame m.  First, for free, C's extents along A's axes (ext,
 * around up.t) against D's there (around m.t, radius sum_k hd_k |R_ik|,
 * exact for any R); the slack (twice, for the child's growth) covers
 * rounding.  The pairs left get the box test. */
static int a_kids_vs(self_ctx *x, const nref *A, const kids *ka, const nref *D, const chain_xf *m,
                     double eps)
{
    const double *R = m->r, *h = D->nd->half;
    double rd[3];
    for (int i = 0; i < 3; i++)
        rd[i] = h[0] * fabs(R[3 * i]) + h[1] * fabs(R[3 * i + 1]) + h[2] * fabs(R[3 * i + 2]) +
                2 * x->slack;
    int go[2] = {0, 0}, apart = 0;
    for (int i = 0; i <= ka->two; i++) {
        const chain_node *nc = ka->nd + i;
        int first = i ? ka->mid : A->first;
        int w = wanted(x, nc, ka->l == 0 && D->l == 0, ka->j + i, D->j, first, D->last);
        int out = (fabs(m->t[0] - nc->up.t[0]) > nc->ext[0] + rd[0]) |
                  (fabs(m->t[1] - nc->up.t[1]) > nc->ext[1] + rd[1]) |
                  (fabs(m->t[2] - nc->up.t[2]) > nc->ext[2] + rd[2]);
        go[i] = w & !out;
        apart += w & out;
    }
    x->box_tests += apart;
    for (int s = 0; s <= ka->two; s++) {
        int i = s ^ ka->second_first;
        if (go[i]) {
            nref C = kid_ref(A, ka, i);
            int r = test_node_pair(x, &C, D, m, C.nd, DOWN_A, eps);
            if (r != GO)
                return r;
        }
    }
    return GO;
}

/* The boxes of A and B (A before B, one level) may meet: their children
 * against each other, A's children against B's (without testing A
 * against B's children on the way: when most box pairs overlap, as in
 * compact chains, that test rarely prunes; with overlap rate p, going
 * down one side costs 2 + 4p tests to reach the four pairs of children,
 * both sides 4).  First, for free, each child D of B: its extents along
 * B's axes (ext around up.t, in B's box coordinates) against A's: A's
 * centre is at y = R^-1 (-t), which is -R^T t up to eps (|t| + rho_A)
 * (R^-1 = (I + E)^-1 R^T with ||E|| <= eps), and A's radius along c_j
 * is sum_i a_i |R_ij| (both in v, from the box test of A and B). */
static int descend(self_ctx *x, const nref *A, const nref *B, const chain_xf *m, double eps,
                   const chain_b_view *v)
{
    kids ka, kb;
    kids_of(x, A, &ka);
    kids_of(x, B, &kb);
    double grow = 2 * eps * (chain_norm1(m->t) + A->nd->rho) + 2 * x->slack, ra[3];
    const double *ct = v->pb;
    for (int j = 0; j < 3; j++)
        ra[j] = v->ra[j] + grow;
    int go[2] = {0, 0}, apart = 0;
    for (int i = 0; i <= kb.two; i++) {
        const chain_node *nc = kb.nd + i;
        int last = i ? B->last : kb.last0;
        int w = wanted(x, nc, kb.l == 0 && A->l == 0, kb.j + i, A->j, A->first, last);
        int out = (fabs(nc->up.t[0] + ct[0]) > nc->ext[0] + ra[0]) |
                  (fabs(nc->up.t[1] + ct[1]) > nc->ext[1] + ra[1]) |
                  (fabs(nc->up.t[2] + ct[2]) > nc->ext[2] + ra[2]);
        go[i] = w & !out;
        apart += w & out;
    }
    x->box_tests += apart;
    for (int s = 0; s <= kb.two; s++) {
        int i = s ^ kb.second_first;
        if (!go[i])
            continue;
        nref D = kid_ref(B, &kb, i);
        chain_xf mm;
        child_t(&mm, m, D.nd, DOWN_B, NULL);
        child_r(&mm, m, D.nd, DOWN_B, NULL);
        int r = a_kids_vs(x, A, &ka, &D, &mm, chain_defect_mul(eps, D.nd->eps));
        if (r != GO)
            return r;
    }
    return GO;
}

/* The two children of node N against each other (the second child's box
 * frame in the first's is up(first)^-1 up(second)). */
static int self_pair(self_ctx *x, const nref *N)
{
    const hs_chain *c = x->c;
    nref k1 = node_ref(c, N->l - 1, 2 * N->j), k2 = node_ref(c, N->l - 1, 2 * N->j + 1);
    if (nothing_to_test(x, &k1, &k2))
        return GO;
    chain_xf m; /* up(k1)^-1 */
    if (!general_inverse(k1.nd, &m))
        chain_xf_rigid_inverse(&m, &k1.nd->up);
    return test_node_pair(x, &k1, &k2, &m, k2.nd, DOWN_B, k1.nd->eps);
}

/* Node (l, j) against itself: each child against itself, then the two
 * against each other.  Bottom-up order: the links near a moved joint are
 * searched first, where a turn of the joint meets its neighbours soonest
 * (measured: about half the box tests of top-down before the first
 * collision, with +-180 degree torsions).  The caller checked that the
 * links of (l, j) are not rigid. */
static int self(self_ctx *x, int l, int j)
{
    const hs_chain *c = x->c;
    if (l == 0 || chain_node_empty(&c->nd[chain_node_index(c, l, j)]))
        return GO;
    int n = chain_children(c, l, j);
    for (int k = 0; k < n; k++) {
        int jc = 2 * j + k;
        if (needs(x, chain_first(l - 1, jc), chain_last(c, l - 1, jc))) {
            int r = self(x, l - 1, jc);
            if (r != GO)
                return r;
        }
    }
    if (n < 2)
        return GO;
    if (x->lazy) { /* the boxes up to this level, and the slack of this subtree */
        chain_tree_refit_to(x->lazy, l);
        x->slack = chain_box_slack_below(c, l, j);
    }
    nref N = node_ref(c, l, j);
    return self_pair(x, &N);
}

static int run_search(self_ctx *x)
{
    const hs_chain *c = x->c;
    x->slack = x->lazy ? 0 : chain_box_slack(c); /* lazy: set per level by self */
    if (x->cached && !c->all_dirty && c->nchanged > 0) {
        x->first_moved = c->changed[0];
        x->one = c->nchanged == 1 ? c->changed[0] : 0;
    }
    if (c->npieces == 0 || !needs(x, 0, c->n - 1))
        return GO;
    return self(x, c->levels, 0);
}

static void put_stats(const self_ctx *x, hs_chain_stats *st)
{
    if (st) {
        st->box_tests = x->box_tests;
        st->piece_tests = x->piece_tests;
    }
}

int hs_chain_self_collision(hs_chain *c, int *i, int *j, hs_chain_stats *st, hs_error *err)
{
    if (!c) {
        err_set(err, HS_ERR_ARG, "hs_chain_self_collision: NULL chain");
        return -1;
    }
    return chain_self_search(c, 0, i, j, st, err);
}

int chain_self_search(hs_chain *c, int lazy, int *i, int *j, hs_chain_stats *st, hs_error *err)
{
    hs_error local;
    self_ctx x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.lazy = lazy ? c : NULL;
    x.cached = 1;
    x.err = err ? err : &local;
    int r = run_search(&x);
    chain_convex_ws_free(x.ws);
    put_stats(&x, st);
    if (r == FAILED)
        return -1;
    if (r == FOUND) {
        if (i)
            *i = x.hit_i;
        if (j)
            *j = x.hit_j;
        return 1;
    }
    chain_clear_changed(c);
    return 0;
}

static int cmp_pair(const void *a, const void *b)
{
    const int *p = a, *q = b;
    if (p[0] != q[0])
        return (p[0] > q[0]) - (p[0] < q[0]);
    return (p[1] > q[1]) - (p[1] < q[1]);
}

hs_code hs_chain_self_collision_all(const hs_chain *c, int **pairs, int *npairs,
                                    hs_chain_stats *st, hs_error *err)
{
    if (!c || !pairs || !npairs)
        return err_set(err, HS_ERR_ARG, "hs_chain_self_collision_all: NULL argument");
    hs_error local;
    self_ctx x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.collect = 1;
    x.err = err ? err : &local;
    int r = run_search(&x);
    chain_convex_ws_free(x.ws);
    put_stats(&x, st);
    if (r == FAILED) {
        free(x.pairs);
        return x.err->code;
    }
    if (x.npairs > 1)
        qsort(x.pairs, (size_t)x.npairs, 2 * sizeof(int), cmp_pair);
    *pairs = x.pairs;
    *npairs = x.npairs;
    return HS_OK;
}

/* The pairs in contact now join the skip list (seed-free convenience for
 * robots whose neighbouring links touch at rest). */
hs_code hs_chain_auto_skip(hs_chain *c, int **pairs, int *npairs, hs_error *err)
{
    if (!c)
        return err_set(err, HS_ERR_ARG, "hs_chain_auto_skip: NULL chain");
    int *p = NULL, np = 0;
    hs_code rc = hs_chain_self_collision_all(c, &p, &np, NULL, err);
    for (int k = 0; k < np && rc == HS_OK; k++)
        rc = hs_chain_skip_pair(c, p[2 * k], p[2 * k + 1], 1, err);
    if (rc != HS_OK || !pairs) {
        free(p);
        p = NULL;
    }
    if (pairs)
        *pairs = p;
    if (npairs)
        *npairs = rc == HS_OK ? np : 0;
    return rc;
}
