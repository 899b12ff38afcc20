/* tri_bvh.c -- traversals of the hierarchies of mesh triangles (built by
 * tri_bvh_build.c): two meshes against each other, and a mesh against a
 * box.
 *
 * A pose T (x -> R x + t, row-major 4x4, any finite 3x3 part: the numbers
 * as given are the map) places the second mesh in the first one's frame.
 * Its points are what pose_apply makes of them (each coordinate rounded
 * once), and every answer is exact for those rounded points, as in
 * HS_TRI_RAW; a node pair is skipped only when a certified test shows that
 * no rounded point of the second node lies in the first node's volume.
 * Bounds used below (u = 2^-53, gamma_k = k u / (1 - k u)):
 *
 *   - X_k, the largest |x_k| over the second mesh's points; C_k, over the
 *     centres of its oriented boxes; X'_j and C'_j the same for the first
 *     side.  M_j = sum_k |R_jk| X_k + |t_j| bounds |(R x + t)_j|, and
 *     M^c_j (with C) the image of a centre.
 *   - A rounded point fl(R x + t) lies within gamma_4 M_j of R x + t.
 *
 * Axis boxes (the cheap test).  The first node is c + [-h, h]; the image
 * of the second's box c_b + [-h_b, h_b] lies in the axis box around m =
 * fl(R c_b + t) of half sizes r_j = sum_k h_b[k] |R_jk| (exact identity
 * for the image of the box, r as computed is covered by up()).  They are
 * apart on axis j when |m_j - c_j| > up(h_j + E_j + r_j), where E_j =
 * up(16 u (M_j + X'_j)) covers the rounding of m and of the subtraction
 * (9.3 u M_j + 1.02 u X'_j) and the rounded points' offset (this is the
 * first three axes of obb_sat.c's core problem [-(h + E), h + E] against
 * {d + R s : |s| <= h_b}).
 *
 * Oriented boxes (the full test).  In the first box's coordinates y =
 * F_a (x - c_a) that box lies in [-he_a, he_a] (tri_bvh_data.h); the exact
 * image of the second box is {t_ab + M s : |s| <= h_b}, with M = F_a R
 * F_b^T and t_ab = F_a (R c_b + t - c_a) for the stored frames.  Computed:
 * g_k = fl(R f_b,k) (cached per node of the second tree), M~_ik =
 * fl(f_a,i . g_k) and t~ = fl(F_a fl(fl(R c_b + t) - c_a)).  With |f| <=
 * 1.01 entrywise and |f|_1 <= 1.75 for unit rows:
 *   |M - M~| <= 2 gamma_3 1.75^2 rmax <= 19 u rmax entrywise (rmax the
 *   largest |R_jk|), charged eps_M = 32 u rmax;
 *   |t_ab - t~|_i <= 1.01 sum_j (gamma_4 M^c_j + 1.01 u (1.01 M^c_j +
 *   C'_j)) + gamma_3 1.01 sum_j (M^c_j + C'_j) <= 10 u sum_j (M^c_j +
 *   C'_j), charged 16 u;
 *   a rounded point's offset, in y: <= 1.01 sum_j gamma_4 M_j, charged
 *   4.2 u sum_j M_j.
 * So [-H, H] with H = up(he_a + eps_t + eps_p + eps_M (h_b,0 + h_b,1 +
 * h_b,2)) against {t~ + M~ s : |s| <= h_b}, decided by obb_overlap_frame
 * (exact for its inputs, any M~), is the certified test.
 *
 * Mesh against mesh: a depth-first traversal of node pairs, each pair
 * through the cheap test, then the full one; the larger of two inner
 * boxes (sum of squared half sizes) is split first.  At a pair of leaves
 * the second mesh's triangle is mapped (pose_apply on its corners, the
 * same doubles HS_TRI_RAW maps), and the pair is skipped when the exact
 * boxes do not meet or a certified plane test (tri_bvh_data.h) puts one
 * triangle strictly on one side of the other's plane; tri_tri_classify
 * decides the rest.
 *
 * Mesh against a box: only the cheap test, on purpose (tri_bvh.h). */
#include "src/shape/tri_bvh.h"

#include <math.h>
#include <string.h>

#include "polytope/obb.h"
#include "src/shape/pose.h"
#include "src/shape/tri_bvh_data.h"
#include "src/shape/tri_tri.h"

/* Stack of a traversal: depth(a) + depth(b) + 2 pairs are enough, and
 * each depth is below BVH_SAH_DEPTH + 33. */
#define STACK_MAX (2 * (BVH_SAH_DEPTH + 33) + 4)

/* A pose and the error terms of its tests (see the top). */
typedef struct bvh_frame {
    const double *T;
    double R[9];
    double E[3];         /* the cheap test */
    double eps_tp, eps_m; /* the full test: eps_t + eps_p, eps_M */
    int finite;          /* every bound finite: else nothing is certified */
} bvh_frame;

/* sum_k |R_jk| X_k + |t_j| for the bounds X. */
static double bvh_image_bound(const double T[16], const double X[3], int j)
{
    const double *r = T + 4 * j;
    return fabs(r[0]) * X[0] + fabs(r[1]) * X[1] + fabs(r[2]) * X[2] + fabs(r[3]);
}

/* first_x, first_c: X' and C' of the first side (its points, its boxes'
 * centres). */
static void bvh_frame_init(bvh_frame *f, const double T[16], const tri_bvh *second,
                           const double first_x[3], const double first_c[3])
{
    f->T = T;
    double rmax = 0, sp = 0, st = 0;
    for (int j = 0; j < 3; j++) {
        for (int k = 0; k < 3; k++) {
            f->R[3 * j + k] = T[4 * j + k];
            double a = fabs(T[4 * j + k]);
            rmax = a > rmax || a != a ? a : rmax;
        }
        double M = bvh_image_bound(T, second->xmax, j);
        double Mc = bvh_image_bound(T, second->cmax, j);
        f->E[j] = obb_up(16 * FP_U * (M + first_x[j]));
        sp += M;
        st += Mc + first_c[j];
    }
    f->eps_tp = obb_up(16 * FP_U * st + 4.2 * FP_U * sp);
    f->eps_m = obb_up(32 * FP_U * rmax);
    f->finite = rmax < INFINITY && f->eps_tp < 0x1p1000 && f->eps_m < INFINITY;
    for (int j = 0; j < 3; j++) /* (then no mapped centre overflows) */
        f->finite &= f->E[j] < 0x1p1000;
}

int tri_bvh_image_finite(const tri_bvh *h, const double T[16])
{
    for (int j = 0; j < 3; j++)
        if (!(bvh_image_bound(T, h->xmax, j) < 0x1p1020))
            return 0;
    return 1;
}

/* ----------------------------------------------------- node images */

/* A node of the second tree seen in the first one's frame: for the cheap
 * test m = fl(R c + t) and r (top); for the full one, once needed, the
 * oriented box's centre mc = fl(R c_o + t) and axes g_k = fl(R f_k). */
typedef struct bvh_image {
    double m[3], r[3];
    double mc[3], g[9];
    int oriented; /* mc and g computed */
} bvh_image;

static void bvh_image_of(const bvh_frame *f, const bvh_node *b, bvh_image *im)
{
    const double *T = f->T;
    for (int j = 0; j < 3; j++) {
        const double *r = T + 4 * j;
        im->m[j] = r[0] * b->c[0] + r[1] * b->c[1] + r[2] * b->c[2] + r[3];
        im->r[j] = b->h[0] * fabs(r[0]) + b->h[1] * fabs(r[1]) + b->h[2] * fabs(r[2]);
    }
    im->oriented = 0;
}

static void bvh_image_oriented(const bvh_frame *f, const bvh_obb *o, bvh_image *im)
{
    const double *T = f->T;
    for (int j = 0; j < 3; j++) {
        const double *r = T + 4 * j;
        im->mc[j] = r[0] * o->c[0] + r[1] * o->c[1] + r[2] * o->c[2] + r[3];
        for (int k = 0; k < 3; k++)
            im->g[3 * k + j] = r[0] * o->f[3 * k] + r[1] * o->f[3 * k + 1] + r[2] * o->f[3 * k + 2];
    }
    im->oriented = 1;
}

/* The cheap test: 1 only when the image certainly misses c + [-h, h]. */
static int bvh_apart(const bvh_frame *f, const double c[3], const double h[3],
                     const bvh_image *im)
{
    if (!f->finite)
        return 0;
    for (int j = 0; j < 3; j++)
        if (fabs(im->m[j] - c[j]) - obb_up(h[j] + f->E[j] + im->r[j]) > 0)
            return 1;
    return 0;
}

/* The full test: 1 only when the oriented box ob (second tree, image im
 * with its oriented part) certainly misses the oriented box oa. */
static int bvh_obb_apart(const bvh_frame *f, const bvh_obb *oa, const bvh_obb *ob,
                         const bvh_image *im)
{
    if (!f->finite)
        return 0;
    double d[3], t[3], M[9], H[3];
    for (int j = 0; j < 3; j++)
        d[j] = im->mc[j] - oa->c[j];
    double grow = f->eps_tp + f->eps_m * ob->hs;
    for (int i = 0; i < 3; i++) {
        const double *fa = oa->f + 3 * i;
        t[i] = dot3(fa, d);
        for (int k = 0; k < 3; k++)
            M[3 * i + k] = dot3(fa, im->g + 3 * k);
        H[i] = obb_up(oa->he[i] + grow);
    }
    return !obb_overlap_frame(H, M, t, ob->h);
}

/* -------------------------------------------------------------- leaves */

/* Corners of slot s of h mapped by T, and their exact box. */
static void bvh_map_slot(const tri_bvh *h, const double T[16], int s, double p[3][3],
                         double box[6])
{
    const double *cr = h->corner + 9 * (size_t)s;
    for (int k = 0; k < 3; k++)
        pose_apply(T, cr + 3 * k, p[k]);
    for (int d = 0; d < 3; d++) {
        double x = p[0][d], y = p[1][d], z = p[2][d];
        double lo = x < y ? x : y, hi = x < y ? y : x;
        box[d] = z < lo ? z : lo;
        box[3 + d] = z > hi ? z : hi;
    }
}

/* The exact boxes lo/hi (6 doubles each) are disjoint (NaN: not). */
static int bvh_boxes_apart(const double *x, const double *y)
{
    for (int d = 0; d < 3; d++)
        if (x[d] > y[3 + d] || y[d] > x[3 + d])
            return 1;
    return 0;
}

typedef struct pair_walk {
    const tri_bvh *a, *b;
    bvh_frame f;
    tri_bvh_pair_fn fn;
    void *user;
    long tests;
} pair_walk;

/* Leaf la of a against leaf lb of b; nonzero to stop (see the top). */
static int bvh_leaf_pairs(pair_walk *pw, const bvh_node *la, const bvh_node *lb)
{
    const tri_bvh *a = pw->a, *b = pw->b;
    for (int sb = lb->first; sb < lb->first + lb->count; sb++) {
        double q[3][3], qbox[6], qpl[6], w[3];
        bvh_map_slot(b, pw->f.T, sb, q, qbox);
        int qplane = 0; /* q's plane: computed on first need */
        for (int sa = la->first; sa < la->first + la->count; sa++) {
            const double *pc = a->corner + 9 * (size_t)sa;
            if (bvh_boxes_apart(a->box + 6 * (size_t)sa, qbox) ||
                bvh_plane_apart(pc, a->plane + 6 * (size_t)sa, &q[0][0]))
                continue;
            if (!qplane) {
                bvh_plane_of(&q[0][0], qpl);
                qplane = 1;
            }
            if (bvh_plane_apart(&q[0][0], qpl, pc))
                continue;
            pw->tests++;
            const double(*p)[3] = (const double(*)[3])pc;
            hs_status st = tri_tri_classify(p, (const double(*)[3])q, w);
            if (st != HS_DISJOINT && pw->fn(pw->user, a->id[sa], b->id[sb], st, w))
                return 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------- mesh vs mesh */

static double bvh_obb_size(const bvh_obb *o)
{
    return o->h[0] * o->h[0] + o->h[1] * o->h[1] + o->h[2] * o->h[2];
}

static double bvh_dist2(const double *x, const double *y)
{
    double a = x[0] - y[0], b = x[1] - y[1], c = x[2] - y[2];
    return a * a + b * b + c * c;
}

/* A node pair waiting in a traversal, with the second node's image. */
typedef struct bvh_pending {
    int ia, ib;
    bvh_image im;
} bvh_pending;

long tri_bvh_pairs(const tri_bvh *a, const tri_bvh *b, const double T[16], tri_bvh_pair_fn fn,
                   void *user)
{
    pair_walk pw = {a, b, {0}, fn, user, 0};
    if (a->ntris == 0 || b->ntris == 0)
        return 0;
    bvh_frame_init(&pw.f, T, b, a->xmax, a->cmax);
    bvh_pending stack[STACK_MAX];
    int top = 1;
    stack[0].ia = stack[0].ib = 0;
    bvh_image_of(&pw.f, &b->node[0], &stack[0].im);
    while (top > 0) {
        bvh_pending *p = &stack[--top];
        int ia = p->ia, ib = p->ib;
        const bvh_node *na = &a->node[ia], *nb = &b->node[ib];
        const bvh_obb *oa = &a->obb[ia], *ob = &b->obb[ib];
        if (bvh_apart(&pw.f, na->c, na->h, &p->im))
            continue;
        if (!p->im.oriented)
            bvh_image_oriented(&pw.f, ob, &p->im);
        if (bvh_obb_apart(&pw.f, oa, ob, &p->im))
            continue;
        if (na->count > 0 && nb->count > 0) {
            if (bvh_leaf_pairs(&pw, na, nb))
                break;
            continue;
        }
        /* split a when b is a leaf or a is the larger inner box (b's image
         * goes along); the left child is pushed last, so it is visited
         * first */
        if (nb->count > 0 || (na->count == 0 && bvh_obb_size(oa) >= bvh_obb_size(ob))) {
            bvh_image im = p->im; /* (p's slot is overwritten) */
            int first = na->first, near = bvh_dist2(a->node[first].c, im.m) <=
                                          bvh_dist2(a->node[first + 1].c, im.m);
            stack[top++] = (bvh_pending){near ? first + 1 : first, ib, im};
            stack[top++] = (bvh_pending){near ? first : first + 1, ib, im};
        } else {
            const bvh_node *child = &b->node[nb->first];
            bvh_image il, ir;
            bvh_image_of(&pw.f, child, &il);
            bvh_image_of(&pw.f, child + 1, &ir);
            int near = bvh_dist2(na->c, il.m) <= bvh_dist2(na->c, ir.m);
            stack[top++] = (bvh_pending){ia, near ? nb->first + 1 : nb->first, near ? ir : il};
            stack[top++] = (bvh_pending){ia, near ? nb->first : nb->first + 1, near ? il : ir};
        }
    }
    return pw.tests;
}

/* ------------------------------------------------------- mesh vs box */

/* The walk of tri_bvh_near_box; with fn NULL it only counts the
 * triangles it would visit, up to limit. */
static int bvh_near_walk(const tri_bvh *h, const double T[16], const double lo[3],
                         const double hi[3], const double grow[3], tri_bvh_visit_fn fn,
                         void *user, int limit)
{
    if (h->ntris == 0)
        return 0;
    double c[3], half[3], amax[3];
    for (int d = 0; d < 3; d++) { /* the box widened by 2 grow */
        c[d] = 0.5 * lo[d] + 0.5 * hi[d];
        double r = hi[d] - c[d], l = c[d] - lo[d];
        half[d] = obb_up((r > l ? r : l) + 2 * grow[d]);
        amax[d] = fmax(fabs(lo[d]), fabs(hi[d]));
    }
    bvh_frame f;
    bvh_frame_init(&f, T, h, amax, amax);
    int stack[STACK_MAX], top = 0, count = 0;
    stack[top++] = 0;
    while (top > 0) {
        const bvh_node *n = &h->node[stack[--top]];
        bvh_image im;
        bvh_image_of(&f, n, &im);
        if (bvh_apart(&f, c, half, &im))
            continue;
        if (n->count == 0) {
            stack[top++] = n->first + 1;
            stack[top++] = n->first;
            continue;
        }
        if (!fn) {
            if ((count += n->count) >= limit)
                return count;
            continue;
        }
        for (int s = n->first; s < n->first + n->count; s++) {
            double p[3][3], box[6];
            bvh_map_slot(h, T, s, p, box);
            if (fn(user, h->id[s], (const double(*)[3])p))
                return 1;
        }
    }
    return fn ? 0 : count;
}

int tri_bvh_near_box(const tri_bvh *h, const double T[16], const double lo[3],
                     const double hi[3], const double grow[3], tri_bvh_visit_fn fn, void *user)
{
    return bvh_near_walk(h, T, lo, hi, grow, fn, user, 0);
}

int tri_bvh_near_count(const tri_bvh *h, const double T[16], const double lo[3],
                       const double hi[3], const double grow[3], int limit)
{
    return bvh_near_walk(h, T, lo, hi, grow, NULL, NULL, limit);
}
