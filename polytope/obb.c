/* obb.c -- oriented boxes (seed 004): frames and their defect, the
 * reduction of a pair to one box's frame, rigorous enclosures (transform,
 * merge) and point containment.
 *
 * Enclosures.  A box with axes F (rows f_i) and centre c contains a set S
 * when every x in S has coordinates s = G^-1 F (x - c) (G = F F^T, the
 * coordinates in the basis f_k) with |s_i| <= half_i.  With
 * ext_i >= |f_i . (x - c)| over S, half_i = ext_i + kappa max_k ext_k is
 * enough (obb_kappa).  The ext_i are computed in floating point and
 * increased by a bound on their rounding, so the box contains S for every
 * rounding, as halfspace.h promises. */
#include <math.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/obb.h"


/* |fl(a . a) - a . a| <= gamma_3 |a|^2 (about 3u for unit rows), and
 * fl(g) - 1 is exact for g in [1/2, 2] (Sterbenz), so the computed
 * deviation plus 4u bounds the real one when it is small; 4u also covers
 * the rounding of the sum below. */
double obb_frame_defect(const double *ax)
{
    double worst = 0;
    for (int i = 0; i < 3; i++)
        for (int k = i; k < 3; k++) {
            double g = dot3(ax + 3 * i, ax + 3 * k);
            double dev = fabs(i == k ? g - 1 : g);
            if (!(dev <= worst))
                worst = dev; /* NaN propagates */
        }
    if (!(worst <= OBB_MAX_DEFECT))
        return INFINITY;
    return worst + 4 * FP_U;
}

/* 3 delta / (1 - 3 delta) <= 3.0001 delta for delta <= 2^-20. */
double obb_kappa(double delta) { return delta * 3.001; }

static int obb_normalize(double v[3])
{
    double len = sqrt(dot3(v, v));
    if (!(len > 0x1p-500 && len < INFINITY)) /* also rejects NaN */
        return -1;
    for (int j = 0; j < 3; j++)
        v[j] /= len;
    return 0;
}

static void identity_frame(double *ax)
{
    for (int i = 0; i < 9; i++)
        ax[i] = i % 4 == 0;
}

/* The directions may have any scale: they are normalised first, then
 * Gram-Schmidt is applied twice (one pass leaves O(u) / sin(angle)). */
int obb_orthonormalize(double *ax)
{
    double e0[3], e1[3], e2[3];
    memcpy(e0, ax, sizeof e0);
    memcpy(e1, ax + 3, sizeof e1);
    if (obb_normalize(e0) != 0 || obb_normalize(e1) != 0)
        goto fail;
    for (int pass = 0; pass < 2; pass++) {
        double p = dot3(e0, e1);
        for (int j = 0; j < 3; j++)
            e1[j] -= p * e0[j];
        if (obb_normalize(e1) != 0)
            goto fail;
    }
    cross3(e0, e1, e2);
    if (obb_normalize(e2) != 0)
        goto fail;
    memcpy(ax, e0, sizeof e0);
    memcpy(ax + 3, e1, sizeof e1);
    memcpy(ax + 6, e2, sizeof e2);
    return 0;
fail:
    identity_frame(ax);
    return -1;
}

/* Image of a point under the pose m (NULL: identity) and a bound on the
 * rounding of each coordinate: gamma_4 (sum_l |m_jl p_l| + |m_j3|) +
 * 5 eta, as 4.1u (..).
 *
 * Underflow.  The bounds below leave out their few eta = 2^-1075 terms:
 * added directly into a half size they are covered by obb_up; wherever a
 * bound is multiplied by a half size it is floored first (obb_err_floor). */
static void pose_point(const double *m, const double p[3], double out[3], double err[3])
{
    if (!m) {
        memcpy(out, p, 3 * sizeof(double));
        err[0] = err[1] = err[2] = 0;
        return;
    }
    for (int j = 0; j < 3; j++) {
        const double *r = m + 4 * j;
        out[j] = r[0] * p[0] + r[1] * p[1] + r[2] * p[2] + r[3];
        err[j] =
            4.1 * FP_U * (fabs(r[0] * p[0]) + fabs(r[1] * p[1]) + fabs(r[2] * p[2]) + fabs(r[3]));
    }
}

/* Image of a direction (no translation); error gamma_3 (..) + 4 eta,
 * as 3.1u (..). */
static void pose_dir(const double *m, const double v[3], double out[3], double err[3])
{
    if (!m) {
        memcpy(out, v, 3 * sizeof(double));
        err[0] = err[1] = err[2] = 0;
        return;
    }
    for (int j = 0; j < 3; j++) {
        const double *r = m + 4 * j;
        out[j] = r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
        err[j] = 3.1 * FP_U * (fabs(r[0] * v[0]) + fabs(r[1] * v[1]) + fabs(r[2] * v[2]));
    }
}

/* f . x for x known as x~ (computed) with |x - x~|_j <= ex_j, f a row of
 * a frame of small defect (|f_j| <= 1.01): returns fl(f . x~) and adds to
 * *err a bound on its distance to f . x:
 * gamma_3 1.01 |x~|_1 + 3 eta + 1.01 sum ex (as 3.1u and 1.01). */
static double frame_dot(const double f[3], const double x[3], const double ex[3], double *err)
{
    *err = 3.1 * FP_U * abs_sum3(x) + 1.01 * abs_sum3(ex);
    return dot3(f, x);
}

int obb_relative(const hs_obb *a, const hs_obb *b, const double *m, double ha[3], double R[9],
                 double t[3], double *scale)
{
    double delta = obb_frame_defect((const double *)a->axis);
    if (!(delta < INFINITY))
        return -1;
    /* centre of b in a's frame, then d = cb - ca (error 1.01u |d_j| more) */
    double cb[3], ec[3], d[3], ed[3];
    pose_point(m, b->center, cb, ec);
    for (int j = 0; j < 3; j++) {
        d[j] = cb[j] - a->center[j];
        ed[j] = ec[j] + 1.01 * FP_U * fabs(d[j]);
    }
    double et = 0, e, ha_sum = a->half[0] + a->half[1] + a->half[2];
    for (int i = 0; i < 3; i++) {
        t[i] = frame_dot(a->axis[i], d, ed, &e);
        et = e > et ? e : et;
    }
    /* columns of R: b's edges seen in a's frame; E_i = et + sum hb_k eR_k
     * bounds the displacement of every point of b's image */
    double E = et;
    for (int k = 0; k < 3; k++) {
        double g[3], eg[3], eR = 0;
        pose_dir(m, b->axis[k], g, eg);
        for (int i = 0; i < 3; i++) {
            R[3 * i + k] = frame_dot(a->axis[i], g, eg, &e);
            eR = e > eR ? e : eR;
        }
        E += b->half[k] * obb_err_floor(eR);
    }
    /* a's image {G s} lies in the axis box ha_i + delta sum ha; the
     * Minkowski sum with [-E, E]^3 absorbs the displacement of b */
    int finite = 1;
    for (int i = 0; i < 3; i++) {
        ha[i] = obb_up(a->half[i] + delta * ha_sum + E);
        finite &= ha[i] < INFINITY && fabs(t[i]) < INFINITY;
        finite &= fabs(R[3 * i]) + fabs(R[3 * i + 1]) + fabs(R[3 * i + 2]) < INFINITY;
    }
    *scale = 1 + 1.5 * delta + 4 * FP_U; /* sqrt(1 + 3 delta) rounded up */
    return finite ? 0 : -1;
}

void obb_extent_in(const double *fax, const double c[3], const hs_obb *box,
                   const double *m, double ext[3])
{
    double cb[3], ec[3], d[3], ed[3];
    pose_point(m, box->center, cb, ec);
    for (int j = 0; j < 3; j++) {
        d[j] = cb[j] - c[j];
        ed[j] = ec[j] + 1.01 * FP_U * fabs(d[j]);
    }
    double g[3][3], eg[3][3];
    for (int k = 0; k < 3; k++)
        pose_dir(m, box->axis[k], g[k], eg[k]);
    for (int i = 0; i < 3; i++) {
        double e, x = fabs(frame_dot(fax + 3 * i, d, ed, &e)) + e;
        for (int k = 0; k < 3; k++) {
            double q = fabs(frame_dot(fax + 3 * i, g[k], eg[k], &e));
            x += box->half[k] * (q + obb_err_floor(e));
        }
        x = obb_up(x);
        if (!(x <= ext[i]))
            ext[i] = x; /* NaN propagates */
    }
}

void obb_halves_from_extents(const double *fax, const double ext[3], double half[3])
{
    double delta = obb_frame_defect(fax);
    double kappa = delta < INFINITY ? obb_kappa(delta) : INFINITY;
    double mx = ext[0];
    for (int i = 1; i < 3; i++)
        mx = ext[i] > mx ? ext[i] : mx;
    for (int i = 0; i < 3; i++) {
        double h = obb_up(ext[i] + kappa * mx);
        half[i] = h == h ? h : INFINITY; /* inf * 0 */
    }
}

void hs_obb_transform(hs_obb *out, const hs_obb *in, const double m[16])
{
    hs_obb src = *in, res;
    double e[3];
    for (int k = 0; k < 3; k++)
        pose_dir(m, src.axis[k], res.axis[k], e);
    obb_orthonormalize((double *)res.axis);
    pose_point(m, src.center, res.center, e);
    double ext[3] = {0, 0, 0};
    obb_extent_in((double *)res.axis, res.center, &src, m, ext);
    obb_halves_from_extents((double *)res.axis, ext, res.half);
    *out = res;
}

/* Approximate extent of box b along the frame: [lo, hi] per axis. */
static void rough_interval(const double *fax, const hs_obb *b, double lo[3], double hi[3])
{
    for (int i = 0; i < 3; i++) {
        double c = dot3(fax + 3 * i, b->center), r = 0;
        for (int k = 0; k < 3; k++)
            r += b->half[k] * fabs(dot3(fax + 3 * i, b->axis[k]));
        lo[i] = c - r;
        hi[i] = c + r;
    }
}

/* Rough volume of the box of frame fax around a and b, and its centre. */
static double rough_merge(const double *fax, const hs_obb *a, const hs_obb *b,
                          double c[3])
{
    double lo[3], hi[3], lo2[3], hi2[3], vol = 1;
    rough_interval(fax, a, lo, hi);
    rough_interval(fax, b, lo2, hi2);
    for (int j = 0; j < 3; j++)
        c[j] = 0;
    for (int i = 0; i < 3; i++) {
        lo[i] = lo2[i] < lo[i] ? lo2[i] : lo[i];
        hi[i] = hi2[i] > hi[i] ? hi2[i] : hi[i];
        vol *= hi[i] - lo[i];
        for (int j = 0; j < 3; j++)
            c[j] += (0.5 * lo[i] + 0.5 * hi[i]) * fax[3 * i + j];
    }
    return vol;
}

void obb_merge_in_frame(hs_obb *out, const double *fax, const hs_obb *a,
                        const double *ma, const hs_obb *b, const double *mb)
{
    hs_obb sa = *a, sb = *b, res;
    memcpy((double *)res.axis, fax, sizeof res.axis);
    /* centre from the posed centres' rough extents */
    hs_obb pa = sa, pb = sb;
    double e[3];
    pose_point(ma, sa.center, pa.center, e);
    pose_point(mb, sb.center, pb.center, e);
    for (int k = 0; k < 3; k++) {
        pose_dir(ma, sa.axis[k], pa.axis[k], e);
        pose_dir(mb, sb.axis[k], pb.axis[k], e);
    }
    rough_merge(fax, &pa, &pb, res.center);
    double ext[3] = {0, 0, 0};
    obb_extent_in(fax, res.center, &sa, ma, ext);
    obb_extent_in(fax, res.center, &sb, mb, ext);
    obb_halves_from_extents(fax, ext, res.half);
    *out = res;
}

/* Candidate frames: a's and b's (the smaller rough volume wins). */
void hs_obb_merge(hs_obb *out, const hs_obb *a, const hs_obb *b)
{
    double ca[3], cb[3], fa[9], fb[9];
    memcpy(fa, (const double *)a->axis, sizeof fa);
    memcpy(fb, (const double *)b->axis, sizeof fb);
    if (obb_frame_defect(fa) == INFINITY)
        obb_orthonormalize(fa);
    if (obb_frame_defect(fb) == INFINITY)
        obb_orthonormalize(fb);
    double va = rough_merge(fa, a, b, ca), vb = rough_merge(fb, a, b, cb);
    obb_merge_in_frame(out, vb < va ? fb : fa, a, NULL, b, NULL);
}

/* Outside for certain when, on some axis, the coordinate's lower bound
 * |w_i| - e - kappa (max |w| + e) exceeds half_i (w = fl(F (p - c)), e its
 * rounding bound). */
int hs_obb_contains(const hs_obb *box, const double p[3])
{
    double delta = obb_frame_defect((const double *)box->axis);
    if (!(delta < INFINITY))
        return 1;
    double d[3], ed[3], w[3], e = 0, ei, wmax = 0;
    for (int j = 0; j < 3; j++) {
        d[j] = p[j] - box->center[j];
        ed[j] = 1.01 * FP_U * fabs(d[j]);
    }
    for (int i = 0; i < 3; i++) {
        w[i] = fabs(frame_dot(box->axis[i], d, ed, &ei));
        e = ei > e ? ei : e;
        wmax = w[i] > wmax ? w[i] : wmax;
    }
    double kappa = obb_kappa(delta);
    for (int i = 0; i < 3; i++)
        if (w[i] > obb_up(box->half[i] + e + kappa * (wmax + e)))
            return 0;
    return 1;
}
