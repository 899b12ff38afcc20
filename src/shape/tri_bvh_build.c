/* tri_bvh_build.c -- building the hierarchy of a mesh's triangles
 * (tri_bvh.h), once per mesh.
 *
 * Tree.  Binary, top down, one triangle per leaf.  Down to depth
 * BVH_SAH_DEPTH a node's triangles are split by the surface-area heuristic
 * over BVH_BINS bins of their box centres per axis; below (and when all
 * centres coincide) at the median of the centres along the axis where they
 * spread most (a selection, ties broken by index), so the depth stays
 * below BVH_SAH_DEPTH + 33 and traversals need only a fixed stack.  The
 * leaves' triangles are stored in tree order with copies of their corners
 * (in the triangle's own corner order), their exact boxes and their planes
 * for the certified plane test (tri_bvh_data.h).
 *
 * Volumes.  Every node keeps two:
 *   - an axis box in the mesh's frame, centre c and half sizes h, that
 *     contains its triangles' corners exactly: c is the midpoint of the
 *     exact bounds lo, hi (rounded), h = max(hi - c, c - lo) rounded up;
 *   - an oriented box (bvh_obb): of the candidate frames (the mesh's axes,
 *     the principal axes of the node's corners, and for a leaf the frame
 *     of its triangle: an edge, the normal), orthonormalised
 *     (obb_orthonormalize), the one whose rough box of the corners is
 *     smallest (volume, then area); its centre the middle of those rough
 *     extents; its half sizes rigorous (bvh_fit, then
 *     obb_halves_from_extents, polytope/obb.c).  Only the choice of frame
 *     is heuristic; containment holds for every rounding. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/mem.h"
#include "polytope/obb.h"
#include "src/shape/tri_bvh_data.h"

/* ============================================================ the tree */

typedef struct bvh_build {
    tri_bvh *h;
    const double *key;  /* per triangle: its box centre (3 doubles) */
    const double *tbox; /* per triangle: its box lo[3], hi[3] */
    int *slot;          /* triangle indices, permuted into tree order */
    int *span;          /* per node: first slot and count */
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
 * range for its boxes. */
static void bvh_build_node(bvh_build *bb, int ni, int first, int count, int depth)
{
    tri_bvh *h = bb->h;
    bvh_node *n = &h->node[ni];
    bb->span[2 * (size_t)ni] = first;
    bb->span[2 * (size_t)ni + 1] = count;
    if (count <= 1) {
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

/* ============================================================ oriented boxes */

/* Rough extents lo, hi of the corners of the slots [first, first + n)
 * along the rows of f. */
static void bvh_rough(const tri_bvh *h, const double *f, int first, int n, double lo[3],
                      double hi[3])
{
    for (int i = 0; i < 3; i++) {
        lo[i] = INFINITY;
        hi[i] = -INFINITY;
    }
    for (const double *x = h->corner + 9 * (size_t)first; x < h->corner + 9 * (size_t)(first + n);
         x += 3)
        for (int i = 0; i < 3; i++) {
            double p = dot3(f + 3 * i, x);
            lo[i] = p < lo[i] ? p : lo[i];
            hi[i] = p > hi[i] ? p : hi[i];
        }
}

/* 1 when the rough box lo, hi is smaller than the best so far (volume,
 * then area), which it then becomes. */
static int bvh_smaller(const double lo[3], const double hi[3], double best[2])
{
    double x = hi[0] - lo[0], y = hi[1] - lo[1], z = hi[2] - lo[2];
    double vol = x * y * z, area = x * y + y * z + z * x;
    if (!(vol < best[0] || (vol == best[0] && area < best[1])))
        return 0;
    best[0] = vol;
    best[1] = area;
    return 1;
}

/* The candidate frames of a node (see the top); count written. */
static int bvh_frames(const tri_bvh *h, int first, int n, double f[3][9])
{
    int k = 0;
    for (int i = 0; i < 9; i++)
        f[k][i] = i % 4 == 0;
    k++;
    const double *x0 = h->corner + 9 * (size_t)first;
    if (n > 1) { /* the principal axes of the corners */
        double mean[3] = {0, 0, 0}, cov[3][3] = {{0}}, v[9];
        int m = 3 * n;
        for (int p = 0; p < m; p++)
            for (int d = 0; d < 3; d++)
                mean[d] += x0[3 * p + d] / m;
        for (int p = 0; p < m; p++)
            for (int i = 0; i < 3; i++)
                for (int j = i; j < 3; j++)
                    cov[i][j] += (x0[3 * p + i] - mean[i]) * (x0[3 * p + j] - mean[j]);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < i; j++)
                cov[i][j] = cov[j][i];
        obb_jacobi3(cov, v, 8, 1e-12); /* (a heuristic: only the frame's choice uses it) */
        memcpy(f[k], v, sizeof f[k]);
        if (obb_orthonormalize(f[k]) == 0)
            k++;
    } else { /* a leaf: its triangle's frame, an edge and the normal */
        double e[3], g[3], nrm[3];
        for (int d = 0; d < 3; d++) {
            e[d] = x0[3 + d] - x0[d];
            g[d] = x0[6 + d] - x0[d];
        }
        cross3(e, g, nrm);
        cross3(nrm, e, g);
        memcpy(f[k], e, sizeof e);
        memcpy(f[k] + 3, g, sizeof g);
        if (obb_orthonormalize(f[k]) == 0)
            k++;
    }
    return k;
}

/* The oriented box of node ni (slots [first, first + n)).  Half sizes:
 * for a corner x, p = fl(f_i . x) lies in the rough [lo_i, hi_i], and
 * with q = fl(f_i . c), |f_i . (x - c)| <= max(hi_i - q, q - lo_i) + 2 err,
 * err = gamma_3 1.01 (max_x |x|_1 + |c|_1) + 2^-1000 bounding both dot
 * products' roundings (|f_ij| <= 1.01); those extents, rounded up, go
 * through obb_halves_from_extents (the frame's defect). */
static void bvh_fit(tri_bvh *h, int ni, int first, int n)
{
    double f[3][9], best[2] = {INFINITY, INFINITY}, lo[3], hi[3];
    int nf = bvh_frames(h, first, n, f), pick = 0;
    double plo[3] = {0, 0, 0}, phi[3] = {0, 0, 0};
    for (int k = 0; k < nf; k++) {
        bvh_rough(h, f[k], first, n, lo, hi);
        if (bvh_smaller(lo, hi, best) || k == 0) {
            pick = k;
            memcpy(plo, lo, sizeof lo);
            memcpy(phi, hi, sizeof hi);
        }
    }
    bvh_obb *o = &h->obb[ni];
    memcpy(o->f, f[pick], sizeof o->f);
    double xs = 0;
    for (const double *x = h->corner + 9 * (size_t)first; x < h->corner + 9 * (size_t)(first + n);
         x += 3) {
        double a = abs_sum3(x);
        xs = a > xs || a != a ? a : xs;
    }
    for (int d = 0; d < 3; d++) { /* centre: the middle of the rough extents */
        o->c[d] = 0;
        for (int i = 0; i < 3; i++)
            o->c[d] += o->f[3 * i + d] * (0.5 * plo[i] + 0.5 * phi[i]);
    }
    double err = fp_gamma(3) * 1.01 * (xs + abs_sum3(o->c)) + 0x1p-1000, ext[3];
    for (int i = 0; i < 3; i++) {
        double q = dot3(o->f + 3 * i, o->c), e = fmax(phi[i] - q, q - plo[i]);
        ext[i] = obb_up(e + 2 * err);
        if (!(e >= 0))
            ext[i] = INFINITY; /* (NaN: never certifies) */
    }
    obb_halves_from_extents(o->f, ext, o->h);
    double delta = obb_frame_defect(o->f);
    o->hs = obb_up(o->h[0] + o->h[1] + o->h[2]);
    for (int i = 0; i < 3; i++) {
        o->he[i] = obb_up(o->h[i] + delta * o->hs); /* (inf if the frame failed) */
        double a = fabs(o->c[i]);
        h->cmax[i] = a > h->cmax[i] || a != a ? a : h->cmax[i];
    }
}

/* ============================================================ entry */

void tri_bvh_free(tri_bvh *h)
{
    if (!h)
        return;
    free(h->node);
    free(h->obb);
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
    h->obb = mem_alloc(2 * nt, sizeof *h->obb);
    h->id = mem_alloc(nt, sizeof *h->id);
    h->corner = mem_alloc(9 * nt, sizeof *h->corner);
    h->box = mem_alloc(6 * nt, sizeof *h->box);
    h->plane = mem_alloc(6 * nt, sizeof *h->plane);
    double *key = mem_alloc(9 * nt, sizeof *key), *tbox = key + 3 * nt;
    int *slot = mem_alloc(nt, sizeof *slot), *span = mem_alloc(4 * nt, sizeof *span);
    if (!h->node || !h->obb || !h->id || !h->corner || !h->box || !h->plane || !key || !slot ||
        !span) {
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
        for (int i = 0; i < h->nnodes; i++) { /* (from the slots: no growth by level) */
            bvh_node_box(h, &h->node[i], span[2 * i], span[2 * i + 1]);
            bvh_fit(h, i, span[2 * i], span[2 * i + 1]);
        }
    }
    free(key);
    free(slot);
    free(span);
    return h;
}

