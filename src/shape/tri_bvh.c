/* tri_bvh.c -- a bounding-volume hierarchy of the triangles of a mesh.
 *
 * Build (once per mesh).  A binary tree, top down: a node's triangles are
 * split at the median of their box centres along the axis where those
 * centres spread most (a selection, not a sort, ties broken by index), down
 * to leaves of at most LEAF_MAX triangles; so the depth is at most
 * ceil(log2(ntris)) + 1 and traversals need only a small fixed stack.  A
 * node's volume is a box in the mesh's own frame, centre c and half sizes
 * h, that contains its triangles' corners exactly: c is the midpoint of
 * the exact bounds lo, hi (rounded), h = max(hi - c, c - lo) rounded up.
 * The leaves' triangles are stored in tree order with copies of their
 * corners (in the triangle's own corner order) and their exact boxes.
 *
 * Traversal under a pose T (x -> R x + t, row-major 4x4, any finite 3x3
 * part: the numbers as given are the map).  The points of the second mesh
 * are what pose_apply makes of them (each coordinate rounded once), and
 * every answer is exact for those rounded points, as in HS_TRI_RAW; a
 * node pair is skipped only when a certified separating-axis test shows
 * that no rounded point of the second node can lie in the first node's box:
 *
 *   - The first node is the axis box c_a + [-h_a, h_a]; the exact image of
 *     the second node's box is the parallelotope {R c_b + t + R s :
 *     |s_k| <= h_b[k]}.  obb_overlap_frame (polytope/obb_sat.c) decides the
 *     core problem [-H, H] against {d + R s} with a rigorous bound on each
 *     of its 15 projections, exact for its inputs.
 *   - d = fl(R c_b + t) - c_a is computed: with X_k the largest |x_k| over
 *     the second mesh's points (so |c_b[k]| <= X_k) and X'_j the largest
 *     |coordinate j| of the first side, the 4-term sum is off by at most
 *     gamma_4 M_j, M_j = sum_k |R_jk| X_k + |t_j|, and the subtraction by
 *     1.01 u (1.01 M_j + X'_j).
 *   - Each rounded point fl(R x + t) lies within gamma_4 M_j of R x + t.
 *   - So H = h_a + E with E_j >= 9.3 u M_j + 1.02 u X'_j covers both (a
 *     Minkowski sum with the box [-E, E]); E_j = up(16 u (M_j + X'_j)) with
 *     M_j computed (a few roundings more) and up() = obb_up, which also
 *     covers underflow.  Non-finite numbers never certify.
 *
 * At a pair of leaves the second mesh's triangles are mapped (pose_apply
 * on their corners, the same doubles HS_TRI_RAW maps), a pair whose exact
 * boxes do not meet is skipped (it cannot meet), and tri_tri_classify
 * decides the rest.  Of two inner nodes the larger (sum of half sizes) is
 * split first. */
#include "src/shape/tri_bvh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/mem.h"
#include "polytope/obb.h"
#include "src/shape/pose.h"
#include "src/shape/tri_tri.h"

/* At most this many triangles per leaf. */
#define LEAF_MAX 1
#ifndef INNER_AXES
#define INNER_AXES 15
#endif
/* Bins of the surface-area heuristic, and the depth from which the split
 * is the median instead. */
#define BVH_BINS 16
#define BVH_SAH_DEPTH 32
/* Stack of a traversal: depth(a) + depth(b) + 2 pairs are enough, and
 * each depth is below BVH_SAH_DEPTH + 33. */
#define STACK_MAX 136

typedef struct bvh_node {
    double c[3], h[3]; /* box: centre and half sizes, in the mesh's frame */
    int first;         /* inner: index of the left child (the right follows);
                          leaf: first slot */
    int count;         /* leaf: number of triangles (>= 1); inner: 0 */
} bvh_node;

struct tri_bvh {
    int ntris, nnodes;
    bvh_node *node;    /* node[0] is the root (when ntris > 0) */
    int *id;           /* per slot: the triangle's index in the mesh */
    double *corner;    /* per slot: its 3 corners (9 doubles) */
    double *box;       /* per slot: its exact box lo[3], hi[3] */
    double *plane;     /* per slot: its plane n[3], perm[3] (bvh_plane_of) */
    double xmax[3];    /* largest |coordinate| per axis over all points */
};

/* ============================================================ building */

typedef struct bvh_build {
    tri_bvh *h;
    const double *key; /* per triangle: its box centre (3 doubles) */
    const double *tbox; /* per triangle: its box lo[3], hi[3] */
    int *slot;         /* triangle indices, permuted into tree order */
    int *span;         /* per node: first slot and count */
} bvh_build;

static int bvh_key_less(const bvh_build *bb, int axis, int x, int y)
{
    double kx = bb->key[3 * (size_t)x + axis], ky = bb->key[3 * (size_t)y + axis];
    return kx < ky || (kx == ky && x < y);
}

static void bvh_swap(int *a, int i, int j)
{
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* Insertion sort of a[0 .. n) by (key on axis, index). */
static void bvh_small_sort(const bvh_build *bb, int axis, int *a, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && bvh_key_less(bb, axis, a[j], a[j - 1]); j--)
            bvh_swap(a, j, j - 1);
}

/* Rearrange a[0 .. n) so that a[k] is the element of rank k by (key on
 * axis, index), smaller ones before it and larger after (quickselect with
 * a median-of-three pivot; the order is total, so any input works). */
static void bvh_select(const bvh_build *bb, int axis, int *a, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (hi - lo > 16) {
        int mid = lo + (hi - lo) / 2;
        if (bvh_key_less(bb, axis, a[mid], a[lo]))
            bvh_swap(a, mid, lo);
        if (bvh_key_less(bb, axis, a[hi], a[lo]))
            bvh_swap(a, hi, lo);
        if (bvh_key_less(bb, axis, a[hi], a[mid]))
            bvh_swap(a, hi, mid);
        int pivot = a[mid], i = lo, j = hi;
        while (i <= j) { /* Hoare partition around the pivot's value */
            while (bvh_key_less(bb, axis, a[i], pivot))
                i++;
            while (bvh_key_less(bb, axis, pivot, a[j]))
                j--;
            if (i <= j)
                bvh_swap(a, i++, j--);
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return;
    }
    bvh_small_sort(bb, axis, a + lo, hi - lo + 1);
}

/* Box of the triangles of slots [first, first + count) into node n. */
static void bvh_node_box(tri_bvh *h, bvh_node *n, int first, int count)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int s = first; s < first + count; s++) {
        const double *b = h->box + 6 * (size_t)s;
        for (int d = 0; d < 3; d++) {
            lo[d] = b[d] < lo[d] ? b[d] : lo[d];
            hi[d] = b[3 + d] > hi[d] ? b[3 + d] : hi[d];
        }
    }
    for (int d = 0; d < 3; d++) {
        double c = 0.5 * lo[d] + 0.5 * hi[d]; /* (no overflow) */
        double r = hi[d] - c, l = c - lo[d];
        n->c[d] = c;
        n->h[d] = obb_up(r > l ? r : l); /* (NaN stays NaN: never certifies) */
    }
}

/* ============================================================ planes */

/* A certified plane test for the leaves, pred_orient3d's static filter
 * with the plane shared by three points (polytope/predicates.c): for a
 * triangle t, a = t1 - t0, b = t2 - t0, n = a x b and, per component, the
 * permanent of its minor |a_i b_j| + |a_j b_i|, all as computed; for a
 * point x, c = x - t0, det = n . c (= det[a; b; c]) and P = sum_k perm_k
 * |c_k|.  This is Shewchuk's orient3d expression (a row times the minors
 * of the other two, differences from one corner), so |det - exact| <=
 * (7 + 56u) u P when every nonzero input lies in [2^-250, 2^250] and
 * P >= 2^-800 (predicates.c's filter conditions: no overflow, underflow
 * far below the bound).  A triangle outside that range gets perm = NaN:
 * it never certifies. */
#define BVH_ERR ((7.0 + 56.0 * FP_U) * FP_U)
#define BVH_RANGE_MAX 0x1p250
#define BVH_RANGE_MIN 0x1p-250
#define BVH_PERM_MIN 0x1p-800

static int bvh_in_range(const double *v, int n)
{
    for (int i = 0; i < n; i++) {
        double m = fabs(v[i]);
        if (!(m <= BVH_RANGE_MAX) || (m != 0 && m < BVH_RANGE_MIN))
            return 0;
    }
    return 1;
}

/* The plane of the triangle t (9 doubles): out = n[3], perm[3]. */
static void bvh_plane_of(const double *t, double out[6])
{
    double a[3], b[3];
    for (int d = 0; d < 3; d++) {
        a[d] = t[3 + d] - t[d];
        b[d] = t[6 + d] - t[d];
    }
    int ok = bvh_in_range(t, 9);
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        double x = a[i] * b[j], y = a[j] * b[i];
        out[k] = x - y;
        out[3 + k] = ok ? fabs(x) + fabs(y) : NAN;
    }
}

/* 1 when the three points x (9 doubles, in range) lie strictly on one
 * side of the plane pl of the triangle t (certified); 0 otherwise. */
static int bvh_plane_apart(const double *t, const double pl[6], const double *x)
{
    int side = 0;
    for (int k = 0; k < 3; k++) {
        const double *p = x + 3 * k;
        double c0 = p[0] - t[0], c1 = p[1] - t[1], c2 = p[2] - t[2];
        double det = pl[0] * c0 + pl[1] * c1 + pl[2] * c2;
        double perm = pl[3] * fabs(c0) + pl[4] * fabs(c1) + pl[5] * fabs(c2);
        if (!(perm >= BVH_PERM_MIN))
            return 0; /* (NaN too) */
        double bound = BVH_ERR * perm;
        int s = det > bound ? 1 : -det > bound ? -1 : 0;
        if (s == 0 || (side != 0 && s != side))
            return 0;
        side = s;
    }
    return 1;
}

/* The slots' copies (corners, boxes, ids) in tree order. */
static void bvh_fill_slots(tri_bvh *h, const double *verts, const int *tris, const int *slot)
{
    for (int s = 0; s < h->ntris; s++) {
        int t = slot[s];
        double *cr = h->corner + 9 * (size_t)s, *b = h->box + 6 * (size_t)s;
        h->id[s] = t;
        for (int k = 0; k < 3; k++)
            memcpy(cr + 3 * k, verts + 3 * (size_t)tris[3 * (size_t)t + k], 3 * sizeof(double));
        for (int d = 0; d < 3; d++) {
            double x = cr[d], y = cr[3 + d], z = cr[6 + d];
            double lo = x < y ? x : y, hi = x < y ? y : x;
            b[d] = z < lo ? z : lo;
            b[3 + d] = z > hi ? z : hi;
        }
        bvh_plane_of(cr, h->plane + 6 * (size_t)s);
    }
}

/* Surface area of the box lo, hi (half of it: only comparisons matter). */
static double bvh_area(const double lo[3], const double hi[3])
{
    double x = hi[0] - lo[0], y = hi[1] - lo[1], z = hi[2] - lo[2];
    return x * y + y * z + z * x;
}

static void bvh_grow(double lo[3], double hi[3], const double *b)
{
    for (int d = 0; d < 3; d++) {
        lo[d] = b[d] < lo[d] ? b[d] : lo[d];
        hi[d] = b[3 + d] > hi[d] ? b[3 + d] : hi[d];
    }
}

static int bvh_bin_of(double k, double lo, double scale)
{
    double x = (k - lo) * scale;
    return x >= 0 ? (x < BVH_BINS ? (int)x : BVH_BINS - 1) : 0; /* (NaN: bin 0) */
}

/* The surface-area heuristic over BVH_BINS bins of the box centres per
 * axis: the split (axis, first bin of the right part) of least cost
 * area(left) n(left) + area(right) n(right); 0 when every axis has all
 * centres equal. */
static int bvh_sah_split(const bvh_build *bb, int first, int count, const double clo[3],
                         const double chi[3], int *axis, int *cut)
{
    double best = INFINITY;
    int found = 0;
    for (int d = 0; d < 3; d++) {
        if (!(chi[d] > clo[d]))
            continue;
        double scale = BVH_BINS / (chi[d] - clo[d]);
        int n[BVH_BINS] = {0};
        double lo[BVH_BINS][3], hi[BVH_BINS][3];
        for (int b = 0; b < BVH_BINS; b++)
            for (int e = 0; e < 3; e++)
                lo[b][e] = INFINITY, hi[b][e] = -INFINITY;
        for (int s = first; s < first + count; s++) {
            int t = bb->slot[s];
            int b = bvh_bin_of(bb->key[3 * (size_t)t + d], clo[d], scale);
            n[b]++;
            bvh_grow(lo[b], hi[b], bb->tbox + 6 * (size_t)t);
        }
        double right[BVH_BINS]; /* right[i]: area of bins i.. times their count */
        double rlo[3] = {INFINITY, INFINITY, INFINITY}, rhi[3] = {-INFINITY, -INFINITY, -INFINITY};
        int rn = 0;
        for (int b = BVH_BINS - 1; b > 0; b--) {
            double box[6] = {lo[b][0], lo[b][1], lo[b][2], hi[b][0], hi[b][1], hi[b][2]};
            if (n[b] > 0)
                bvh_grow(rlo, rhi, box);
            rn += n[b];
            right[b] = rn > 0 ? bvh_area(rlo, rhi) * rn : 0;
        }
        double llo[3] = {INFINITY, INFINITY, INFINITY}, lhi[3] = {-INFINITY, -INFINITY, -INFINITY};
        int ln = 0;
        for (int b = 1; b < BVH_BINS; b++) {
            double box[6] = {lo[b - 1][0], lo[b - 1][1], lo[b - 1][2],
                             hi[b - 1][0], hi[b - 1][1], hi[b - 1][2]};
            if (n[b - 1] > 0)
                bvh_grow(llo, lhi, box);
            ln += n[b - 1];
            if (ln == 0 || ln == count)
                continue;
            double cost = bvh_area(llo, lhi) * ln + right[b];
            if (cost < best) {
                best = cost;
                *axis = d;
                *cut = b;
                found = 1;
            }
        }
    }
    return found;
}

/* Split the node's triangles (slots [first, first + count), in bb->slot)
 * and build below it; span[2 ni], span[2 ni + 1] keep each node's slot
 * range for its box.  The surface-area heuristic chooses the split down to
 * depth BVH_SAH_DEPTH, a median split below (so the depth stays below
 * BVH_SAH_DEPTH + 33). */
static void bvh_build_node(bvh_build *bb, int ni, int first, int count, int depth)
{
    tri_bvh *h = bb->h;
    bvh_node *n = &h->node[ni];
    bb->span[2 * (size_t)ni] = first;
    bb->span[2 * (size_t)ni + 1] = count;
    if (count <= LEAF_MAX) {
        n->first = first;
        n->count = count;
        return;
    }
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int s = first; s < first + count; s++)
        for (int d = 0; d < 3; d++) {
            double k = bb->key[3 * (size_t)bb->slot[s] + d];
            lo[d] = k < lo[d] ? k : lo[d];
            hi[d] = k > hi[d] ? k : hi[d];
        }
    int axis = 0, cut = 0, split = 0;
    if (depth < BVH_SAH_DEPTH && bvh_sah_split(bb, first, count, lo, hi, &axis, &cut)) {
        double scale = BVH_BINS / (hi[axis] - lo[axis]);
        int *a = bb->slot + first, i = 0, j = count - 1;
        while (i <= j) { /* partition: bins < cut first */
            if (bvh_bin_of(bb->key[3 * (size_t)a[i] + axis], lo[axis], scale) < cut)
                i++;
            else
                bvh_swap(a, i, j--);
        }
        split = i;
    } else {
        for (int d = 1; d < 3; d++)
            if (hi[d] - lo[d] > hi[axis] - lo[axis])
                axis = d;
        split = count / 2;
        bvh_select(bb, axis, bb->slot + first, count, split);
    }
    int left = h->nnodes;
    h->nnodes += 2;
    n->first = left;
    n->count = 0;
    bvh_build_node(bb, left, first, split, depth + 1);
    bvh_build_node(bb, left + 1, first + split, count - split, depth + 1);
}

void tri_bvh_free(tri_bvh *h)
{
    if (!h)
        return;
    free(h->node);
    free(h->id);
    free(h->corner);
    free(h->box);
    free(h->plane);
    free(h);
}

tri_bvh *tri_bvh_new(const double *verts, int nverts, const int *tris, int ntris)
{
    if (nverts < 0 || ntris < 0)
        return NULL;
    tri_bvh *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    size_t nt = ntris > 0 ? (size_t)ntris : 1;
    h->ntris = ntris;
    h->node = mem_alloc(2 * nt, sizeof *h->node);
    h->id = mem_alloc(nt, sizeof *h->id);
    h->corner = mem_alloc(9 * nt, sizeof *h->corner);
    h->box = mem_alloc(6 * nt, sizeof *h->box);
    h->plane = mem_alloc(6 * nt, sizeof *h->plane);
    double *key = mem_alloc(9 * nt, sizeof *key), *tbox = key + 3 * nt;
    int *slot = mem_alloc(nt, sizeof *slot), *span = mem_alloc(4 * nt, sizeof *span);
    if (!h->node || !h->id || !h->corner || !h->box || !h->plane || !key || !slot || !span) {
        free(key);
        free(slot);
        free(span);
        tri_bvh_free(h);
        return NULL;
    }
    for (int i = 0; i < nverts; i++)
        for (int d = 0; d < 3; d++) {
            double x = fabs(verts[3 * (size_t)i + d]);
            h->xmax[d] = x > h->xmax[d] || x != x ? x : h->xmax[d]; /* (NaN kept) */
        }
    for (int t = 0; t < ntris; t++) {
        slot[t] = t;
        for (int d = 0; d < 3; d++) {
            double lo = INFINITY, hi = -INFINITY;
            for (int k = 0; k < 3; k++) {
                double x = verts[3 * (size_t)tris[3 * (size_t)t + k] + d];
                lo = x < lo ? x : lo;
                hi = x > hi ? x : hi;
            }
            key[3 * (size_t)t + d] = 0.5 * lo + 0.5 * hi;
            tbox[6 * (size_t)t + d] = lo;
            tbox[6 * (size_t)t + 3 + d] = hi;
        }
    }
    bvh_build bb = {h, key, tbox, slot, span};
    if (ntris > 0) {
        h->nnodes = 1;
        bvh_build_node(&bb, 0, 0, ntris, 0);
        bvh_fill_slots(h, verts, tris, slot);
        for (int i = 0; i < h->nnodes; i++) /* (exact bounds from the slots) */
            bvh_node_box(h, &h->node[i], span[2 * i], span[2 * i + 1]);
    }
    free(key);
    free(slot);
    free(span);
    return h;
}

/* ============================================================ traversal */

/* A pose T, the inflation E of the first side's boxes (see the top), and
 * the terms of obb_sat.c's 15-axis test that depend on R alone, computed
 * once per traversal instead of once per node pair: |R|, B's face
 * normals n_j = c_{j+1} x c_{j+2} (c_k: column k of R) and |n_j|, their
 * largest entries and the error terms en, e3 (the bounds are sat15's,
 * term for term; see obb_sat.c). */
typedef struct bvh_frame {
    const double *T;
    double E[3];
    double r[9], a[9];  /* R, |R| (row-major) */
    double n[9], b[9];  /* n_j as row j, |n_j| */
    double nb[3];       /* sum_i |n_j[i]| |R_ij| */
    double rmax, nmax, en, e3;
    int finite;         /* rmax and nmax finite (else nothing certifies) */
} bvh_frame;

/* M_j = sum_k |R_jk| X_k + |t_j| for the points of h (X = h->xmax). */
static double bvh_image_bound(const tri_bvh *h, const double T[16], int j)
{
    const double *r = T + 4 * j;
    return fabs(r[0]) * h->xmax[0] + fabs(r[1]) * h->xmax[1] + fabs(r[2]) * h->xmax[2] +
           fabs(r[3]);
}

/* first_max: the largest |coordinate| per axis on the first side. */
static void bvh_frame_init(bvh_frame *f, const double T[16], const tri_bvh *second,
                           const double first_max[3])
{
    f->T = T;
    f->rmax = 0;
    for (int j = 0; j < 3; j++) {
        for (int k = 0; k < 3; k++) {
            f->r[3 * j + k] = T[4 * j + k];
            f->a[3 * j + k] = fabs(T[4 * j + k]);
            f->rmax = f->a[3 * j + k] > f->rmax ? f->a[3 * j + k] : f->rmax;
        }
        f->E[j] = obb_up(16 * FP_U * (bvh_image_bound(second, T, j) + first_max[j]));
    }
    const double *r = f->r;
    double *n = f->n;
    for (int j = 0; j < 3; j++) { /* n_j = c_{j+1} x c_{j+2} */
        int p = (j + 1) % 3, q = (j + 2) % 3;
        n[3 * j + 0] = r[3 + p] * r[6 + q] - r[6 + p] * r[3 + q];
        n[3 * j + 1] = r[6 + p] * r[q] - r[p] * r[6 + q];
        n[3 * j + 2] = r[p] * r[3 + q] - r[3 + p] * r[q];
    }
    f->nmax = 0;
    for (int i = 0; i < 9; i++) {
        f->b[i] = fabs(n[i]);
        f->nmax = f->b[i] > f->nmax ? f->b[i] : f->nmax;
    }
    for (int j = 0; j < 3; j++)
        f->nb[j] = f->b[3 * j] * f->a[j] + f->b[3 * j + 1] * f->a[3 + j] +
                   f->b[3 * j + 2] * f->a[6 + j];
    f->finite = f->rmax < INFINITY && f->nmax < INFINITY; /* (NaN: 0) */
    for (int j = 0; j < 3; j++) /* (then no mapped centre overflows) */
        f->finite &= bvh_image_bound(second, T, j) + first_max[j] < 0x1p1020;
    f->en = obb_err_floor(4.1 * FP_U * f->rmax * f->rmax);
    f->e3 = 3.01 * f->rmax * f->en;
}

/* One axis: certified separation when |num| exceeds up(bound). */
#define BVH_AXIS(num, bound)                                                             \
    do {                                                                                 \
        if (fabs(num) - obb_up(bound) > 0)                                               \
            return 0;                                                                    \
    } while (0)

/* obb_sat.c's core test, the axis box [-H, H] against {d + R s : |s| <=
 * hb}, with f's prepared terms: 0 only when they are disjoint. */
static int bvh_sat(const bvh_frame *f, const double H[3], const double d[3], const double hb[3],
                   int axes)
{
    const double t0 = d[0], t1 = d[1], t2 = d[2], ha0 = H[0], ha1 = H[1], ha2 = H[2];
    const double hb0 = hb[0], hb1 = hb[1], hb2 = hb[2];
    const double *a = f->a, *b = f->b, *n = f->n, *r = f->r;
    const double tsum = fabs(t0) + fabs(t1) + fabs(t2);
    if (!(tsum < INFINITY) || !f->finite)
        return 1;
    /* A's faces */
    BVH_AXIS(t0, ha0 + hb0 * a[0] + hb1 * a[1] + hb2 * a[2]);
    BVH_AXIS(t1, ha1 + hb0 * a[3] + hb1 * a[4] + hb2 * a[5]);
    BVH_AXIS(t2, ha2 + hb0 * a[6] + hb1 * a[7] + hb2 * a[8]);
    if (axes <= 3)
        return 1;
    /* B's faces */
    const double e3 = f->e3, sB = 3.1 * FP_U * f->nmax * tsum;
    BVH_AXIS(n[0] * t0 + n[1] * t1 + n[2] * t2,
             ha0 * b[0] + ha1 * b[1] + ha2 * b[2] + hb0 * f->nb[0] + (hb1 + hb2) * e3 + sB);
    BVH_AXIS(n[3] * t0 + n[4] * t1 + n[5] * t2,
             ha0 * b[3] + ha1 * b[4] + ha2 * b[5] + hb1 * f->nb[1] + (hb2 + hb0) * e3 + sB);
    BVH_AXIS(n[6] * t0 + n[7] * t1 + n[8] * t2,
             ha0 * b[6] + ha1 * b[7] + ha2 * b[8] + hb2 * f->nb[2] + (hb0 + hb1) * e3 + sB);
    if (axes <= 6)
        return 1;
    /* e_i x c_j (sat15's order and bounds; b[3 j + i] = |n_j[i]|) */
    const double en = f->en, sX = 2.1 * FP_U * f->rmax * tsum;
    const double e01 = (hb1 + hb2) * en, e12 = (hb2 + hb0) * en, e20 = (hb0 + hb1) * en;
    BVH_AXIS(r[3] * t2 - r[6] * t1, ha1 * a[6] + ha2 * a[3] + hb1 * b[6] + hb2 * b[3] + e01 + sX);
    BVH_AXIS(r[4] * t2 - r[7] * t1, ha1 * a[7] + ha2 * a[4] + hb2 * b[0] + hb0 * b[6] + e12 + sX);
    BVH_AXIS(r[5] * t2 - r[8] * t1, ha1 * a[8] + ha2 * a[5] + hb0 * b[3] + hb1 * b[0] + e20 + sX);
    BVH_AXIS(r[6] * t0 - r[0] * t2, ha2 * a[0] + ha0 * a[6] + hb1 * b[7] + hb2 * b[4] + e01 + sX);
    BVH_AXIS(r[7] * t0 - r[1] * t2, ha2 * a[1] + ha0 * a[7] + hb2 * b[1] + hb0 * b[7] + e12 + sX);
    BVH_AXIS(r[8] * t0 - r[2] * t2, ha2 * a[2] + ha0 * a[8] + hb0 * b[4] + hb1 * b[1] + e20 + sX);
    BVH_AXIS(r[0] * t1 - r[3] * t0, ha0 * a[3] + ha1 * a[0] + hb1 * b[8] + hb2 * b[5] + e01 + sX);
    BVH_AXIS(r[1] * t1 - r[4] * t0, ha0 * a[4] + ha1 * a[1] + hb2 * b[2] + hb0 * b[8] + e12 + sX);
    BVH_AXIS(r[2] * t1 - r[5] * t0, ha0 * a[5] + ha1 * a[2] + hb0 * b[5] + hb1 * b[2] + e20 + sX);
    return 1;
}

int tri_bvh_image_finite(const tri_bvh *h, const double T[16])
{
    for (int j = 0; j < 3; j++)
        if (!(bvh_image_bound(h, T, j) < 0x1p1020))
            return 0;
    return 1;
}

/* Corners of slot s of h mapped by T, and their exact box. */
long bvh_stat_maps;
static void bvh_map_slot(const tri_bvh *h, const double T[16], int s, double p[3][3], double box[6])
{
    const double *cr = h->corner + 9 * (size_t)s;
    bvh_stat_maps++;
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

/* Leaf la of a against leaf lb of b; nonzero to stop.  A pair is skipped
 * when the exact boxes do not meet or when a plane test certifies that
 * one triangle lies strictly on one side of the other's plane (as
 * tri_tri_classify's first step would find, exactly). */
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

static double bvh_node_size(const bvh_node *n)
{
    return n->h[0] * n->h[0] + n->h[1] * n->h[1] + n->h[2] * n->h[2];
}

/* A node of the second mesh seen in the first one's frame: its mapped
 * centre m = fl(R c + t) and r_j = sum_k h[k] |R_jk| (as computed), the
 * half sizes of the axis box around m that holds the exact image of its
 * box (up to the rounding of r and m, covered in bvh_apart). */
typedef struct bvh_image {
    double m[3], r[3];
} bvh_image;

static void bvh_image_of(const bvh_frame *f, const bvh_node *b, bvh_image *im)
{
    const double *T = f->T, *a = f->a;
    for (int j = 0; j < 3; j++) {
        const double *r = T + 4 * j;
        im->m[j] = r[0] * b->c[0] + r[1] * b->c[1] + r[2] * b->c[2] + r[3];
        im->r[j] = b->h[0] * a[3 * j] + b->h[1] * a[3 * j + 1] + b->h[2] * a[3 * j + 2];
    }
}

/* 1 only when the node image im certainly misses the box c + [-h, h] of
 * the first side: on one axis j of the first frame, |m_j - c_j| exceeds
 * up(h_j + E_j + r_j).  This is the test of sat15's first three axes (the
 * face normals of the first box) on the core problem [-(h + E), h + E]
 * against {d + R s}, d = m - c, whose projection on e_j is d_j +- r_j
 * exactly; up() covers the rounding of the sum and of r_j (a few
 * roundings), E that of d and of the mapped points.  Without a finite
 * frame (f->finite == 0) nothing is certified. */
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

/* 0 only when no rounded image of a point of node b (second mesh, image
 * im) lies in the box c + [-h, h] of the first side (certified): the
 * 15-axis test on [-(h + E), h + E] against {m - c + R s : |s| <= h_b}. */
static int bvh_may_meet(const bvh_frame *f, const double c[3], const double h[3],
                        const bvh_node *b, const bvh_image *im, int axes)
{
    double d[3], H[3];
    for (int j = 0; j < 3; j++) {
        d[j] = im->m[j] - c[j];
        H[j] = obb_up(h[j] + f->E[j]);
    }
    return bvh_sat(f, H, d, b->h, axes);
}

long bvh_stat_nodes;
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
    bvh_frame_init(&pw.f, T, b, a->xmax);
    bvh_pending stack[STACK_MAX];
    int top = 1;
    stack[0].ia = stack[0].ib = 0;
    bvh_image_of(&pw.f, &b->node[0], &stack[0].im);
    while (top > 0) {
        const bvh_pending *p = &stack[--top];
        int ia = p->ia, ib = p->ib;
        const bvh_node *na = &a->node[ia], *nb = &b->node[ib];
        bvh_stat_nodes++;
        int leaves = na->count > 0 && nb->count > 0;
        if (bvh_apart(&pw.f, na->c, na->h, &p->im) ||
            !bvh_may_meet(&pw.f, na->c, na->h, nb, &p->im, leaves ? 15 : INNER_AXES))
            continue;
        if (na->count > 0 && nb->count > 0) {
            if (bvh_leaf_pairs(&pw, na, nb))
                break;
            continue;
        }
        /* split a when b is a leaf or a is the larger inner node (b's
         * image goes along); the left child is pushed last, so it is
         * visited first */
        if (nb->count > 0 || (na->count == 0 && bvh_node_size(na) >= bvh_node_size(nb))) {
            bvh_image im = p->im;
            stack[top++] = (bvh_pending){na->first + 1, ib, im};
            stack[top++] = (bvh_pending){na->first, ib, im};
        } else {
            const bvh_node *child = &b->node[nb->first];
            bvh_pending *r = &stack[top++], *l = &stack[top++]; /* (p is overwritten) */
            r->ia = l->ia = ia;
            r->ib = nb->first + 1;
            l->ib = nb->first;
            bvh_image_of(&pw.f, child + 1, &r->im);
            bvh_image_of(&pw.f, child, &l->im);
        }
    }
    return pw.tests;
}

int tri_bvh_near_box(const tri_bvh *h, const double T[16], const double lo[3],
                     const double hi[3], const double grow[3], tri_bvh_visit_fn fn, void *user)
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
    bvh_frame_init(&f, T, h, amax);
    int stack[STACK_MAX], top = 0;
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
        for (int s = n->first; s < n->first + n->count; s++) {
            double p[3][3], box[6];
            bvh_map_slot(h, T, s, p, box);
            if (fn(user, h->id[s], (const double(*)[3])p))
                return 1;
        }
    }
    return 0;
}
