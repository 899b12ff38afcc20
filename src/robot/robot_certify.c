/* robot_certify.c -- proofs that decide most pairs of posed pieces
 * without the narrow phase's LP (which costs tens of microseconds on the
 * hulls of robot links, with hundreds of facets; FCL's GJK answers such a
 * pair in about one), each a rigorous certificate, never a
 * floating-point guess:
 *
 *   apart    GJK (boolean) offers directions d; at every step the
 *            supports (scanned in each piece's own frame: d . (R v + t) =
 *            (R^T d) . v + d . t) give gap = min_A d.a - max_B d.b, and
 *            the pair is apart when gap exceeds a bound on every rounding
 *            involved: the corners of a convex piece are its exact
 *            vertices rounded to nearest doubles (2^-53 relative), R^T d,
 *            the dot products and d . t (gamma_3 each) and the sums.  With
 *            V the largest |coordinate| of the piece's box, R and t its
 *            pose, each support is within |d|_1 e of the exact value,
 *            e = 2^-48 (9 max|R_ij| V + max|t_i|), so gap > |d|_1 (e_A +
 *            e_B) + u (|min_A| + |max_B|) proves the pieces placed exactly
 *            by their world poses (the doubles of the 4x4 matrices,
 *            applied in real arithmetic) apart.  A mesh lies inside the
 *            hull of its points, so the proof holds for meshes too.
 *   overlap  for two convex pieces, as the narrow phase poses them: in the
 *            frame of the piece with more rows (the host), with the other's
 *            rows mapped there by the same rounded inverse pose
 *            (pose_relative, pose_map_row); a point strictly inside every
 *            row of both, checked with a rigorous bound on the rounding of
 *            a . x, proves that the interiors meet (HS_OVERLAP) for exactly
 *            the numbers the narrow phase would decide.  The points tried:
 *            GJK's common point and the two pieces' interior points.
 *
 * Anything not proven (touching, grazing, a failed candidate) goes to the
 * narrow phase, which decides exactly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/grow.h"
#include "polytope/hpoly.h"
#include "solver/fast_prep.h"
#include "src/robot/robot_certify.h"
#include "src/shape/gjk.h"
#include "src/shape/pose.h"

#define CERT_MAX_ITER 64

void robot_cert_reset(robot_cert *c)
{
    c->side[0].g = c->side[1].g = NULL;
}

void robot_cert_free(robot_cert *c)
{
    free(c->rows);
    free(c->mapped);
    memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------ corners */

/* Side s: n corners v (3 n doubles, in their own frame, each coordinate
 * at most V in magnitude, about the centre cen) with the pose P; the
 * supports scan them in their own frame.  |computed support - exact| <=
 * |d|_1 e: the direction turned into the piece's frame (gamma_3 each),
 * its dot product with a corner (gamma_3), the corner's own rounding (2^-53
 * relative: a convex piece's vertices are its exact vertices rounded),
 * d . t (gamma_3) and the sum (u): below 2^-48 (9 max|R_ij| V + max|t_i|). */
static void side_points(cert_side *sd, const double *v, int n, double V, const double cen[3],
                        const double P[16])
{
    sd->v = v;
    sd->n = n;
    memcpy(sd->P, P, sizeof sd->P);
    memcpy(sd->cen, cen, sizeof sd->cen);
    double Rm = 0, tm = 0;
    for (int i = 0; i < 3; i++) {
        tm = fmax(tm, fabs(P[4 * i + 3]));
        for (int j = 0; j < 3; j++)
            Rm = fmax(Rm, fabs(P[4 * i + j]));
    }
    sd->e = 0x1p-48 * (9 * Rm * V + tm) * (1 + 0x1p-40);
}

/* Side s: the corners of g (its vertices, or a mesh's points). */
static void set_side(robot_cert *c, int s, const geom *g, const double P[16])
{
    cert_side *sd = &c->side[s];
    if (sd->g == g && memcmp(sd->P, P, sizeof sd->P) == 0)
        return;
    double V = 0; /* the box of g bounds every corner */
    for (int i = 0; i < 3; i++)
        V = fmax(V, fmax(fabs(g->lo[i]), fabs(g->hi[i])));
    side_points(sd, g->kind == PIECE_CONVEX ? g->verts : g->mv,
                g->kind == PIECE_CONVEX ? g->nverts : g->nmv, V, g->obb.center, P);
    sd->g = g;
}

/* The smallest (want_max: largest) value of d . (P v) over the corners
 * v, its corner in the world into *w. */
static double cert_support(const cert_side *sd, const double d[3], int want_max, double w[3])
{
    const double *P = sd->P, *v = sd->v;
    double dl[3];
    for (int j = 0; j < 3; j++) /* R^T d */
        dl[j] = P[j] * d[0] + P[4 + j] * d[1] + P[8 + j] * d[2];
    double best = dot3(v, dl);
    int bi = 0;
    for (int i = 1; i < sd->n; i++) {
        double x = dot3(v + 3 * i, dl);
        if (want_max ? x > best : x < best) {
            best = x;
            bi = i;
        }
    }
    pose_apply(P, v + 3 * bi, w);
    return best + (d[0] * P[3] + d[1] * P[7] + d[2] * P[11]);
}

/* ------------------------------------------------------------ GJK */

/* GJK on the two sides.  Mode apart (enough < 0): 1 as soon as a
 * separation is proven; 0 when they meet (*common: a point of A near B);
 * -1 when neither.  Mode distance (enough >= 0): *lb receives the best
 * certified lower bound on the distance found (each step's gap, less its
 * error bound, over |d| rounded up), returning as soon as it reaches
 * enough or GJK converges (0 if they meet). */
static int cert_gjk(const robot_cert *c, double enough, const double *v0, double common[3],
                    double *lb, double *v_out)
{
    const cert_side *A = &c->side[0], *B = &c->side[1];
    gjk_simplex s;
    s.k = 0;
    /* first direction: v0 (a warm start), or from B's centre to A's */
    double v[3], a0[3], b0[3];
    pose_apply(A->P, A->cen, a0);
    pose_apply(B->P, B->cen, b0);
    for (int d = 0; d < 3; d++)
        v[d] = a0[d] - b0[d];
    if (v0 && (v0[0] != 0 || v0[1] != 0 || v0[2] != 0))
        memcpy(v, v0, sizeof v);
    double scale = 0;
    for (int d = 0; d < 3; d++)
        scale += fabs(a0[d]) + fabs(b0[d]);
    double best = 0;
    int apart = enough < 0;
    for (int it = 0; it < CERT_MAX_ITER; it++) {
        double wa[3], wb[3];
        double sa = cert_support(A, v, 0, wa), sb = cert_support(B, v, 1, wb);
        double gap = sa - sb;
        double d1 = fabs(v[0]) + fabs(v[1]) + fabs(v[2]);
        double E = (d1 * (A->e + B->e) + FP_U * (fabs(sa) + fabs(sb))) * (1 + 0x1p-40);
        double vv = dot3(v, v);
        if (gap > E) {
            if (apart)
                return 1;
            double bound = (gap - E) / (sqrt(vv) * (1 + 0x1p-50)) * (1 - 0x1p-50);
            if (bound > best)
                best = bound;
            if (best >= enough) {
                *lb = best;
                if (v_out)
                    memcpy(v_out, v, sizeof v);
                return 1;
            }
        }
        double w[3];
        for (int d = 0; d < 3; d++)
            w[d] = wa[d] - wb[d];
        if (vv - dot3(v, w) <= (apart ? 1e-12 : 1e-9) * vv) /* no more progress */
            break;
        for (int d = 0; d < 3; d++) {
            s.w[s.k][d] = w[d];
            s.a[s.k][d] = wa[d];
            s.b[s.k][d] = wb[d];
        }
        s.k++;
        double pa[3] = {0, 0, 0}, lam[4];
        gjk_simplex_nearest(&s, v, lam);
        for (int i = 0; i < s.k; i++) /* the matching point of A */
            for (int d = 0; d < 3; d++)
                pa[d] += lam[i] * s.a[i][d];
        if (s.k == 4 || dot3(v, v) <= 1e-24 * scale * scale) {
            memcpy(common, pa, sizeof pa);
            if (lb)
                *lb = 0;
            return 0;
        }
    }
    if (lb)
        *lb = best;
    if (v_out)
        memcpy(v_out, v, sizeof v);
    return -1;
}

/* ------------------------------------------------------------ overlap */

/* Is x strictly inside the row (a, b), for certain: b - a.x > 0 with
 * a.x's rounding (gamma_3 sum |a_j x_j|) and the subtraction's bounded. */
static int strictly_below(const double a[3], double b, const double x[3])
{
    double s = a[0] * x[0] + a[1] * x[1] + a[2] * x[2];
    double mag = fabs(a[0] * x[0]) + fabs(a[1] * x[1]) + fabs(a[2] * x[2]);
    return b - s > fp_gamma(5) * (mag + fabs(b));
}

/* Row k of the pair: the host's rows first, then the mover's mapped. */
static const double *pair_row(robot_cert *c, const hs_poly *host, const hs_poly *mover,
                              const double Tinv[16], int k, double *b)
{
    if (k < host->m) {
        *b = host->b[k];
        return hpoly_row(host, k);
    }
    k -= host->m;
    double *r = c->rows + 4 * k;
    if (!c->mapped[k]) {
        pose_map_row(Tinv, hpoly_row(mover, k), mover->b[k], r, r + 3);
        c->mapped[k] = 1;
    }
    *b = r[3];
    return r;
}

/* Is x certified strictly inside every row of both (the first row that
 * fails ends the scan)? */
static int inside_all(robot_cert *c, const hs_poly *host, const hs_poly *mover,
                      const double Tinv[16], const double x[3])
{
    int m = host->m + mover->m;
    for (int k = 0; k < m; k++) {
        double b;
        const double *a = pair_row(c, host, mover, Tinv, k, &b);
        if (!strictly_below(a, b, x))
            return 0;
    }
    return 1;
}

/* Candidates for a common interior point, in the host's frame: three
 * cheap points, each checked against every row.  (Until 2026-11-27 a
 * Seidel LP in rounds followed for the deepest point of the rows near a
 * start: about 100,000 instructions a pair, three times the narrow
 * phase's fast engine on the same pair, so a failed try now goes to the
 * narrow phase: bench/robot, Panda states in collision 13.2 -> 9.3 us.) */
static int overlap_proven(robot_cert *c, const geom *ga, const double PA[16], const geom *gb,
                          const double PB[16], const double common[3])
{
    if (ga->kind != PIECE_CONVEX || gb->kind != PIECE_CONVEX ||
        !hs_poly_fast_ready(ga->poly, NULL) || !hs_poly_fast_ready(gb->poly, NULL))
        return 0;
    int a_hosts = ga->poly->m >= gb->poly->m; /* as narrow_test chooses */
    const geom *gh = a_hosts ? ga : gb, *gm = a_hosts ? gb : ga;
    const double *Ph = a_hosts ? PA : PB, *Pm = a_hosts ? PB : PA;
    double Tinv[16], Hinv[16];
    pose_relative(Tinv, Pm, Ph);
    pose_inverse(Hinv, Ph);
    int m = gm->poly->m;
    double *rows = grow_array(c->rows, &c->rows_cap, 4L * m, sizeof *rows);
    unsigned char *mk = rows ? grow_array(c->mapped, &c->mapped_cap, m, 1) : NULL;
    if (rows)
        c->rows = rows;
    if (mk)
        c->mapped = mk;
    if (!rows || !mk)
        return 0;
    memset(c->mapped, 0, (size_t)m);
    /* GJK's common point (a point of the hull of four corners of each
     * piece, with positive weights: inside both whenever those corners
     * span a solid, three times in four on the Panda), then each piece's
     * own centre (a small box deep in a link) */
    double pc[3], cand[3], T[16];
    pose_apply(Hinv, common, pc);
    pose_relative(T, Ph, Pm);
    pose_apply(T, gm->poly->prep->center, cand);
    return inside_all(c, gh->poly, gm->poly, Tinv, pc) ||
           inside_all(c, gh->poly, gm->poly, Tinv, cand) ||
           inside_all(c, gh->poly, gm->poly, Tinv, gh->poly->prep->center);
}

int robot_certify(robot_cert *c, const geom *ga, const double PA[16], const geom *gb,
                  const double PB[16])
{
    set_side(c, 0, ga, PA);
    set_side(c, 1, gb, PB);
    double common[3];
    int r = cert_gjk(c, -1, NULL, common, NULL, NULL);
    if (r == 1)
        return HS_DISJOINT;
    if (r == 0 && overlap_proven(c, ga, PA, gb, PB, common))
        return HS_OVERLAP;
    return -1;
}

/* A triangle of mesh g (corners in its frame) as side s. */
static void side_triangle(robot_cert *c, int s, const geom *g, int t, const double P[16])
{
    cert_side *sd = &c->side[s];
    double *tri = c->tri[s], cen[3] = {0, 0, 0}, V = 0;
    for (int k = 0; k < 3; k++)
        for (int d = 0; d < 3; d++) {
            tri[3 * k + d] = g->mv[3 * g->tris[3 * t + k] + d];
            cen[d] += tri[3 * k + d] / 3;
            V = fmax(V, fabs(tri[3 * k + d]));
        }
    side_points(sd, tri, 3, V, cen, P);
    sd->g = NULL; /* not the whole piece */
}

double robot_cert_lower_bound(robot_cert *c, const geom *ga, const double PA[16],
                              const geom *gb, const double PB[16], double enough, double *dir)
{
    double common[3], lb = 0;
    set_side(c, 0, ga, PA);
    set_side(c, 1, gb, PB);
    cert_gjk(c, enough, dir, common, &lb, dir);
    if (lb >= enough || (ga->kind != PIECE_MESH && gb->kind != PIECE_MESH))
        return lb;
    /* a mesh is only its triangles: the least bound over them (the hull's
     * bound holds for every one, so the least is at least it) */
    double best = HUGE_VAL;
    int ta = ga->kind == PIECE_MESH ? ga->ntris : 1, tb = gb->kind == PIECE_MESH ? gb->ntris : 1;
    for (int i = 0; i < ta && best > lb; i++)
        for (int k = 0; k < tb && best > lb; k++) {
            if (ga->kind == PIECE_MESH)
                side_triangle(c, 0, ga, i, PA);
            else
                set_side(c, 0, ga, PA);
            if (gb->kind == PIECE_MESH)
                side_triangle(c, 1, gb, k, PB);
            else
                set_side(c, 1, gb, PB);
            double t = 0;
            cert_gjk(c, HUGE_VAL, NULL, common, &t, NULL);
            if (t < best)
                best = t;
        }
    c->side[0].g = c->side[1].g = NULL;
    return best > lb ? best : lb;
}
