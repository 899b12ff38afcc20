/* geom_distance.c -- distances between placed pieces by GJK
 * (geom_distance.h): convex point sets whole, meshes triangle by
 * triangle, spheres as their centre less the radius. */
#include "src/shape/geom_distance.h"

#include <math.h>
#include <string.h>

#include "polytope/mem.h"
#include "src/shape/gjk.h"
#include "src/shape/pose.h"

double *geom_placed_points(const geom *g, const double m[16], int *n)
{
    int cnt = g->kind == PIECE_CONVEX ? g->nverts : g->nmv;
    const double *src = g->kind == PIECE_CONVEX ? g->verts : g->mv;
    double *out = mem_alloc((size_t)cnt, 3 * sizeof(double));
    if (out)
        for (int k = 0; k < cnt; k++)
            pose_apply(m, src + 3 * k, out + 3 * k);
    *n = cnt;
    return out;
}

double geom_box_gap(const double lo1[3], const double hi1[3], const double lo2[3],
                    const double hi2[3])
{
    double s = 0;
    for (int d = 0; d < 3; d++) {
        double g = fmax(lo2[d] - hi1[d], lo1[d] - hi2[d]);
        if (g > 0)
            s += g * g;
    }
    return sqrt(s) * (1 - 0x1p-40); /* below the rounding of the sum and root */
}

/* Triangle t of a mesh g whose placed points are P, or all of P. */
static const double *part(const geom *g, const double *P, int n, int t, double tri[9], int *cnt)
{
    if (!g || g->kind != PIECE_MESH) {
        *cnt = n;
        return P;
    }
    for (int k = 0; k < 3; k++)
        memcpy(tri + 3 * k, P + 3 * g->tris[3 * t + k], 3 * sizeof(double));
    *cnt = 3;
    return tri;
}

int geom_pair_closer(const geom *ga, const double *A, int na, double ra, const geom *gb,
                     const double *B, int nb, double *best, double pa[3], double pb[3])
{
    int ta = ga && ga->kind == PIECE_MESH ? ga->ntris : 1;
    int tb = gb && gb->kind == PIECE_MESH ? gb->ntris : 1;
    int closer = 0;
    for (int s = 0; s < ta; s++) {
        double tri_a[9];
        int ca;
        const double *pts_a = part(ga, A, na, s, tri_a, &ca);
        for (int t = 0; t < tb; t++) {
            double tri_b[9], qa[3], qb[3];
            int cb;
            const double *pts_b = part(gb, B, nb, t, tri_b, &cb);
            double d = gjk_distance(pts_a, ca, pts_b, cb, qa, qb) - ra;
            if (ra > 0 && d + ra > 0)
                for (int j = 0; j < 3; j++) /* from the centre towards qb, ra along */
                    qa[j] += (qb[j] - qa[j]) * (ra / (d + ra));
            if (d < 0)
                d = 0;
            if (d < *best) {
                *best = d;
                closer = 1;
                memcpy(pa, qa, sizeof qa);
                memcpy(pb, d == 0 ? qa : qb, sizeof qb);
            }
        }
    }
    return closer;
}
