/* tri_bvh_data.h -- the data of a triangle hierarchy (tri_bvh.h), shared
 * by its builder (tri_bvh_build.c) and its traversals (tri_bvh.c): plain
 * types, and the certified plane test both use. */
#ifndef HS_TRI_BVH_DATA_H
#define HS_TRI_BVH_DATA_H

#include <math.h>

#include "polytope/fp.h"
#include "polytope/pred_filters.h"
#include "src/shape/tri_bvh.h"

/* Bins of the surface-area heuristic, and the depth from which the split
 * is the median instead: every depth stays below BVH_SAH_DEPTH + 33. */
#define BVH_BINS 16
#define BVH_SAH_DEPTH 32

/* A node: its triangles are the slots [first, first + count) (leaves hold
 * one), its children node[first] and node[first + 1] (count = 0). */
typedef struct bvh_node {
    double c[3], h[3]; /* axis box in the mesh's frame: centre, half sizes */
    int first, count;
} bvh_node;

/* A node's oriented box: the points c + sum_k s_k f_k, |s_k| <= h[k], for
 * the stored rows f_k (orthonormal to rounding); it holds the node's
 * corners for every rounding.  he = up(h + delta (h0 + h1 + h2)), delta the
 * frame's defect (obb_frame_defect), bounds the box in its own frame's
 * coordinates y = F (x - c); hs = h0 + h1 + h2. */
typedef struct bvh_obb {
    double c[3], f[9], h[3], he[3], hs;
} bvh_obb;

struct tri_bvh {
    int ntris, nnodes;
    bvh_node *node;    /* node[0] is the root (when ntris > 0) */
    bvh_obb *obb;      /* per node */
    int *id;           /* per slot: the triangle's index in the mesh */
    double *corner;    /* per slot: its 3 corners (9 doubles), in its order */
    double *box;       /* per slot: its exact box lo[3], hi[3] */
    double *plane;     /* per slot: its plane (bvh_plane_of) */
    double xmax[3];    /* largest |coordinate| per axis over all points */
    double cmax[3];    /* largest |c[j]| over the oriented boxes' centres */
};

/* A certified plane test for the leaves, pred_orient3d's static filter
 * with the plane shared by three points (polytope/predicates.c): for a
 * triangle t, a = t1 - t0, b = t2 - t0, n = a x b and, per component, the
 * permanent of its minor |a_i b_j| + |a_j b_i|, all as computed; for a
 * point x, c = x - t0, det = n . c (= det[a; b; c]) and P = sum_k perm_k
 * |c_k|.  This is Shewchuk's orient3d expression (a row times the minors
 * of the other two, differences from one corner), so |det - exact| <=
 * ORIENT_ERR P = (7 + 56u) u P when every nonzero input lies in
 * [2^-250, 2^250] and P >= ORIENT_PERM_MIN = 2^-800 (the filter's
 * conditions, polytope/pred_filters.h: no overflow, underflow far below
 * the bound).  A triangle outside that range gets perm = NaN: it never
 * certifies. */

/* The plane of the triangle t (9 doubles): out = n[3], perm[3]. */
static inline void bvh_plane_of(const double *t, double out[6])
{
    double a[3], b[3];
    for (int d = 0; d < 3; d++) {
        a[d] = t[3 + d] - t[d];
        b[d] = t[6 + d] - t[d];
    }
    int ok = filter_range_ok(t, 9); /* (polytope/pred_filters.h) */
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        double x = a[i] * b[j], y = a[j] * b[i];
        out[k] = x - y;
        out[3 + k] = ok ? fabs(x) + fabs(y) : NAN;
    }
}

/* 1 when the three points x (9 doubles, in range) lie strictly on one
 * side of the plane pl of the triangle t (certified); 0 otherwise. */
static inline int bvh_plane_apart(const double *t, const double pl[6], const double *x)
{
    int side = 0;
    for (int k = 0; k < 3; k++) {
        const double *p = x + 3 * k;
        double c0 = p[0] - t[0], c1 = p[1] - t[1], c2 = p[2] - t[2];
        double det = pl[0] * c0 + pl[1] * c1 + pl[2] * c2;
        double perm = pl[3] * fabs(c0) + pl[4] * fabs(c1) + pl[5] * fabs(c2);
        if (!(perm >= ORIENT_PERM_MIN))
            return 0; /* (NaN too) */
        double bound = ORIENT_ERR * perm;
        int s = det > bound ? 1 : -det > bound ? -1 : 0;
        if (s == 0 || (side != 0 && s != side))
            return 0;
        side = s;
    }
    return 1;
}

#endif
