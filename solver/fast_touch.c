/* fast_touch.c -- the fast engine's certificate of contact (fast_touch.h):
 * a basis of the margin LP, found in floating point, proved exactly to
 * describe two polyhedra that touch, without the exact engine.
 *
 * The basis.  D = n + 1 columns g_c = (a_c, w_c) (rows of A or B with their
 * margin weights, or unit box bounds) and right sides h_c; G is the matrix
 * whose rows are the g_c.  The basis vertex is z = G^-1 h, and the dual
 * multipliers are y with y^T G = e_tau.
 *
 * What is proved, all signs exact.
 *  1. det G != 0, and by Cramer's rule every y_c >= 0 (y_c = 0 on a box
 *     bound): the sign of det(G with row c replaced by e_tau) times that of
 *     det G.  Then sum y_c (a_c . x - b_c) = tau - z_tau for every (x, tau),
 *     so the combination of the rows reads 0 . x <= -z_tau (y^T G = e_tau
 *     gives sum y a = 0 and y . h = z_tau).
 *  2. z_tau = 0: det(G with column tau replaced by h) is exactly 0.  The
 *     combination is then 0 . x <= 0, and the hyperplane of A's part
 *     separates A from B (A's part is nonzero: both are full-dimensional,
 *     so neither alone combines to 0 . x <= 0).
 *     A face on a face (the common contact) proves 1 and 2 more cheaply:
 *     when det G != 0 is settled by its filter and a row of A and a row of
 *     B in the basis are exactly opposite multiples, (a_p, b_p) = -lambda
 *     (a_q, b_q) with lambda > 0 (exact 2 x 2 minors), the only dual of
 *     the basis is supported on those two rows (faces_opposed, below).
 *  3. The point x* of z = (x*, 0) lies in A and in B: for every row k not
 *     in the basis, a_k . x* - b_k <= 0 (basis rows hold with equality).
 *     With N_j = det(G with column j replaced by h) and D0 = det G,
 *     a_k . x* - b_k = (sum_j a_kj N_j - b_k D0) / D0.  The determinants
 *     are evaluated in floating point with a rigorous error bound (below),
 *     which settles every row whose value is not near 0; the few rows near
 *     0 (those also tight at x*: degenerate contacts) are settled with x*
 *     solved exactly over GMP rationals.  So exact arithmetic runs on
 *     O(n) rows, not on all of them.
 *  4. The strict point: A's certified interior point lies strictly inside
 *     every row of A, hence strictly on A's side of the hyperplane.
 * Together: the polyhedra meet (x*) and their interiors do not (1, 2, 4):
 * TOUCHING, the certificate of the exact engine (verify.c checks it).
 *
 * Floating-point determinants.  For D <= 3 by cofactors along the first
 * row, for D = 4 by the six products of complementary 2 x 2 minors of
 * columns (0, 1) and (2, 3), each with the permanent P (the same
 * expansion on absolute values; det G and the three determinants of
 * Cramer's rule share their minors: pred_det4_cramer).  To first order
 * |fl(det) - det| <= c u P with c = 2 (2 x 2: two products, a
 * difference), 5 (3 x 3: a minor, a product, a sum of three) and 10
 * (4 x 4: two minors, their product, a sum of six); 16 u fl(P) covers
 * c u P, the second-order terms and the rounding of P itself.  Entries
 * are required to lie in [2^-200, 2^200] (or be 0) so that no product of
 * four underflows or overflows. */
#include "solver/fast_touch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/dense.h"
#include "polytope/fp.h"
#include "polytope/hpoly.h"
#include "polytope/predicates.h"
#include "polytope/rational.h"
#include "solver/fast_prep.h"
#include "solver/fast_query.h"
#include "solver/qmatrix.h"
#include "solver/result.h"

#define TOUCH_MAX_D 4            /* the general proof */
#define FACE_MAX_D SEIDEL_MAX_DIM /* a face on a face: any dimension of the engine */
#define TOUCH_BLOCK 64           /* rows of a view a pass of point_in_both takes at once */
#define TOUCH_PENDING 64         /* rows near 0 at x* asked exactly one by one; beyond,
                                    every row is (a corner of many faces is rare) */

/* Determinant and permanent of the D x D row-major M, D <= 3, by explicit
 * formulas (4 x 4: pred_det4_cramer). */
static double det_perm(const double *M, int D, double *perm)
{
    if (D == 1) {
        *perm = fabs(M[0]);
        return M[0];
    }
    if (D == 2) {
        double p = M[0] * M[3], q = M[1] * M[2];
        *perm = fabs(p) + fabs(q);
        return p - q;
    }
    double det = 0, pm = 0;
    for (int j = 0; j < 3; j++) {
        int a = (j + 1) % 3, b = (j + 2) % 3; /* cyclic: the cofactor sign is + */
        double p = M[3 + a] * M[6 + b], q = M[3 + b] * M[6 + a];
        det += M[j] * (p - q);
        pm += fabs(M[j]) * (fabs(p) + fabs(q));
    }
    *perm = pm;
    return det;
}

/* det of the D x D row-major M in floating point with a rigorous bound on
 * its error (the entries were checked to lie in [2^-200, 2^200] or be 0:
 * fast_touch_certify checks G and h once, and M is made of them). */
static void det_bounded(const double *M, int D, double *value, double *err)
{
    double perm;
    *value = det_perm(M, D, &perm);
    *err = 16 * FP_U * perm;
}

/* The basis rows with column `col` replaced by v, into out. */
static void replaced(const fast_touch_job *j, int col, const double *v, double *out)
{
    int D = j->n + 1;
    memcpy(out, j->G, sizeof(double) * (size_t)(D * D));
    for (int i = 0; i < D; i++)
        out[i * D + col] = v[i];
}

/* Basis rows p (of A) and q (of B) that face each other exactly: (a_p,
 * b_p) = -lambda (a_q, b_q) for some lambda > 0 (a face on a face;
 * pred_rows_opposite, exact here: every entry of G and h is in its range). */
static int rows_opposed(const fast_touch_job *j, int p, int q)
{
    int D = j->n + 1;
    return pred_rows_opposite(j->G + p * D, j->h[p], j->G + q * D, j->h[q], j->n);
}

/* The separation of a face on a face, without determinants: when det G
 * != 0 and two basis rows p of A and q of B face each other exactly, y =
 * mu (e_p + lambda e_q) with mu (w_p + lambda w_q) = 1 solves y^T G =
 * e_tau (sum y a = 0 and y . w = 1), so it is the basis's only dual: y >=
 * 0, 0 on every other column (box bounds included), positive on a row of
 * A, and z_tau = y . h = mu (b_p + lambda b_q) = 0.  What steps 1 and 2
 * prove with D + 2 determinant signs, in at most 2 (n + 1) exact products
 * per pair of rows tried. */
static int faces_opposed(const fast_touch_job *j)
{
    for (int p = 0; p <= j->n; p++)
        for (int q = 0; q <= j->n; q++)
            if (j->which[p] == 0 && j->which[q] == 1 && rows_opposed(j, p, q))
                return 1;
    return 0;
}

/* 1 when the multipliers are a valid separation: y >= 0, 0 on box bounds,
 * positive on some row of A; and z_tau = 0.  *s0 receives sign det G.  A
 * face on a face is settled when D0 (det G in floating point, error at
 * most eD0) decides det G's sign; otherwise every sign comes from
 * fq_basis_signs_fit (the same signs as a Farkas certificate's, the
 * margin exactly 0). */
static int touch_separation_holds(const fast_touch_job *j, double D0, double eD0, int *s0,
                                  pred_stats *ps)
{
    int D = j->n + 1;
    if (D0 > eD0 || D0 < -eD0) {
        *s0 = D0 > 0 ? 1 : -1;
        if (ps)
            ps->filtered++;
        if (faces_opposed(j))
            return 1;
    }
    /* the multipliers' signs (vertex on face, edge on edge: every one
     * nonzero, settled by filters) and the margin's, exactly 0 */
    return fq_basis_signs_fit(D, j->G, j->h, j->which, 1, ps, s0);
}

static int in_basis(const fast_touch_job *j, int which, int row)
{
    for (int c = 0; c <= j->n; c++)
        if (j->which[c] == which && j->row[c] == row)
            return 1;
    return 0;
}

/* x* = the x part of G^-1 h, exactly, into x (n initialised rationals). */
static int exact_vertex(const fast_touch_job *j, mpq_t *x)
{
    int D = j->n + 1, rc = -1;
    mpq_t M[TOUCH_MAX_D * TOUCH_MAX_D], r[TOUCH_MAX_D], z[TOUCH_MAX_D];
    qmatrix_work qw;
    if (qmatrix_work_init(&qw, D) != 0)
        return -1;
    for (int i = 0; i < D; i++) {
        mpq_init(r[i]);
        mpq_init(z[i]);
        mpq_set_d(r[i], j->h[i]);
        for (int c = 0; c < D; c++) {
            mpq_init(M[i * D + c]);
            mpq_set_d(M[i * D + c], j->G[i * D + c]);
        }
    }
    if (qmatrix_solve(&qw, D, M, r, z, 0) == 0) {
        for (int c = 0; c < j->n; c++)
            mpq_set(x[c], z[c]);
        rc = 0;
    }
    for (int i = 0; i < D; i++) {
        mpq_clear(r[i]);
        mpq_clear(z[i]);
        for (int c = 0; c < D; c++)
            mpq_clear(M[i * D + c]);
    }
    qmatrix_work_free(&qw);
    return rc;
}

/* x* = (N_c / D0) by Cramer's rule into x, when the determinants' bounds
 * make every coordinate's error at most 2^-40 of the largest (|N_c - fl
 * N_c| <= eN_c, |D0 - fl D0| <= eD0 < |fl D0|): 1 when it did. */
static int cramer_vertex(int n, double D0, double eD0, const double *N, const double *eN,
                         double *x)
{
    double den = fabs(D0) - eD0, scale = 0;
    int ok = den > 0;
    for (int c = 0; c < n && ok; c++) {
        x[c] = N[c] / D0;
        scale = fp_max(scale, fabs(x[c]));
    }
    for (int c = 0; c < n && ok; c++) /* (|x_c| + 1) eD0: first order, and then some */
        ok = eN[c] + (fabs(x[c]) + 1) * eD0 <= 0x1p-40 * den * scale;
    return ok;
}

/* x* in floating point (dense.c) when Cramer's rule was not close enough:
 * a few ulps from the exact point, which is made on demand (result.c). */
static void approx_vertex(const fast_touch_job *j, double *x)
{
    double z[TOUCH_MAX_D];
    if (dense_solve(j->n + 1, j->G, j->h, z) == 0)
        memcpy(x, z, sizeof(double) * (size_t)j->n);
}

/* Row i of view V at x* in doubles, with point_in_both's bound (below):
 * -1 when it certainly holds strictly, 1 when it is certainly violated, 0
 * when the bound leaves it open. */
static inline int row_at_vertex(const fast_view *V, int n, int i, const double *SN, double SD,
                                const double *E, double Eb, double tiny)
{
    const double *a = V->a + (size_t)i * (size_t)n;
    double b = V->b[i], val = -b * SD, err = fabs(b) * Eb + tiny;
    if (n == 3) { /* the common case, unrolled */
        val += a[0] * SN[0] + a[1] * SN[1] + a[2] * SN[2];
        err += fabs(a[0]) * E[0] + fabs(a[1]) * E[1] + fabs(a[2]) * E[2];
    } else
        for (int c = 0; c < n; c++) {
            val += a[c] * SN[c];
            err += fabs(a[c]) * E[c];
        }
    return val < -err ? -1 : val > err;
}

/* Every row of A and B holds at x* (step 3 above).  1 yes, 0 no (or not
 * decidable here), -1 out of memory, 2 when j->defer_exact and rows near 0
 * would need x* exactly; D0 and eD0 as from det_bounded of G.
 * x is initialized only when x* has to be solved exactly (*solved = 1:
 * then the caller clears it, and x holds x* when the answer is 1).
 *
 * The bound.  For row (a, b), s0 (sum_j a_j N_j - b D0) is computed with
 * the signs folded into N and D0 (exact).  With the exact determinants
 * N_j + d_j, |d_j| <= eN_j (and D0 likewise), and the rounding of a sum
 * of n + 1 products at most g = gamma(n + 2) times the sum of their
 * magnitudes, the computed value is off by at most
 *   sum_j |a_j| (eN_j + g |N_j|) + |b| (eD0 + g |D0|)
 * (one weight per column, made once: E_j and Eb below, raised by 16 u for
 * their own rounding and that of the sum), plus 2^-1000 for products
 * that underflow.  A row whose value is below minus that bound holds
 * strictly, one above it is violated; the rest are asked exactly.
 *
 * Unit rows.  When a view reads its preparation's own rows, the pass reads
 * their unit rows u = (a, b) / w instead (fast_prep.h: half the bytes),
 * with r = FAST_UNIT_REL: |u_j - a_j / w| <= r |u_j|, so the computed
 * sum_j u_j N_j - u_b D0 is within
 *   sum_j |u_j| ((1 + r) eN_j + (r + g) |N_j|) + |u_b| ((1 + r) eD0 + (r + g) |D0|)
 * of the exact value over w > 0 (same sign as the row's).  The a part of a
 * unit row has sum |u_j| <= sqrt(3) (1 + 2 r) (it is a rounded unit vector),
 * so the first sum is at most 1.75 max_j (...): one constant for the
 * pass, and the row's own part is |u_b| times a second one.  A row that
 * this leaves open (near 0, or stored as NaNs) is read in doubles as
 * above. */
static int point_in_both(const fast_touch_job *j, int s0, double D0, double eD0,
                         const double *N, const double *eN, mpq_t *x, int *solved)
{
    int n = j->n, pending = 0, left[TOUCH_PENDING]; /* rows left open: i of A, ~i of B */
    *solved = 0;
    const double g = fp_gamma(n + 2), up = 1 + 16 * FP_U, tiny = 0x1p-1000;
    double SN[TOUCH_MAX_D], E[TOUCH_MAX_D], SD = s0 * D0, Eb = (eD0 + g * fabs(D0)) * up;
    const double r = FAST_UNIT_REL;
    double EUa = 0, EUb = ((1 + r) * eD0 + (r + g) * fabs(D0)) * up;
    for (int c = 0; c < n; c++) {
        SN[c] = s0 * N[c];
        E[c] = (eN[c] + g * fabs(N[c])) * up;
        EUa = fp_max(EUa, ((1 + r) * eN[c] + (r + g) * fabs(N[c])) * up);
    }
    EUa = 1.75 * EUa * up + tiny;
    for (int k = 0; k < 2; k++) {
        const fast_view *V = j->V[k];
        const float *unit = n == 3 ? fast_prep_unit_rows(V->prep, V->a, V->b) : NULL;
        int open[TOUCH_BLOCK];
        for (int from = 0; from < V->m; from += TOUCH_BLOCK) {
            int to = V->m - from < TOUCH_BLOCK ? V->m : from + TOUCH_BLOCK, nopen = 0;
            if (unit) {
                /* the block's unit rows without a branch a row (which rows
                 * the floats leave open is a coin toss for the branch
                 * predictor in a cold query): a violated one flagged, the
                 * open ones listed for the doubles */
                int violated = 0;
                for (int i = from; i < to; i++) {
                    const float *u = unit + 4 * (size_t)i;
                    double vu = u[0] * SN[0] + u[1] * SN[1] + u[2] * SN[2] - u[3] * SD;
                    double eu = EUa + fabs(u[3]) * EUb;
                    violated |= vu > eu;
                    open[nopen] = i;
                    nopen += !(vu < -eu);
                }
                if (violated)
                    return 0; /* x* violates a row */
            } else
                for (int i = from; i < to; i++)
                    open[nopen++] = i;
            for (int c = 0; c < nopen; c++) {
                int i = open[c], at = row_at_vertex(V, n, i, SN, SD, E, Eb, tiny);
                if (at > 0)
                    return 0; /* x* violates the row: not a contact basis */
                if (at == 0 && !in_basis(j, k, i)) { /* (a basis row is tight by
                                                        construction) */
                    if (pending < TOUCH_PENDING)
                        left[pending] = k ? ~i : i;
                    pending++;
                }
            }
        }
    }
    if (pending == 0)
        return 1;
    if (j->defer_exact)
        return 2;
    for (int c = 0; c < n; c++)
        mpq_init(x[c]);
    *solved = 1;
    if (exact_vertex(j, x) != 0)
        return 0;
    mpq_t acc, t;
    mpq_inits(acc, t, NULL);
    int ok = 1;
    if (pending <= TOUCH_PENDING) /* only the rows the filter left open */
        for (int p = 0; p < pending && ok; p++) {
            int k = left[p] < 0, i = k ? ~left[p] : left[p];
            const fast_view *V = j->V[k];
            ok = pred_row_sign_q(V->a + (size_t)i * (size_t)n, V->b[i], x, n, acc, t) <= 0;
        }
    else
        for (int k = 0; k < 2 && ok; k++) {
            const fast_view *V = j->V[k];
            for (int i = 0; i < V->m && ok; i++)
                if (!in_basis(j, k, i))
                    ok = pred_row_sign_q(V->a + (size_t)i * (size_t)n, V->b[i], x, n, acc, t) <= 0;
        }
    mpq_clears(acc, t, NULL);
    return ok;
}

/* The answer of a proved contact into r (lazily: the basis, its point
 * x, A's interior point). */
static void store_touch(const fast_touch_job *j, const double *x, hs_result *r)
{
    int n = j->n, D = n + 1;
    r->status = HS_TOUCHING;
    r->lazy = 1;
    r->has_point = 1;
    memcpy(r->point_d, x, sizeof(double) * (size_t)n);
    memcpy(r->lazy_g, j->G, sizeof(double) * (size_t)(D * D));
    memcpy(r->lazy_h, j->h, sizeof(double) * (size_t)D);
    memcpy(r->lazy_which, j->which, sizeof(int) * (size_t)D);
    memcpy(r->lazy_row, j->row, sizeof(int) * (size_t)D);
    r->lazy_D = D;
    r->lazy_touch = 1;
    memcpy(r->strict_d, j->strict_point, sizeof(double) * (size_t)n);
}

void fast_touch_unit_coords(int n, const double *G, const double *h, double *p)
{
    int D = n + 1;
    for (int c = 2; c < D; c++)
        for (int i = 0; i < n; i++)
            if (G[c * D + i] != 0)
                p[i] = h[c];
}

/* fast_touch_face's numerator of row i of view V (n variables) at the point (C: its
 * coefficients, ak: the face's a_k, s: the sign of a_k), C . g - a_k b
 * times s (the row's value is that over |a_k|), in doubles; *err bounds its
 * rounding: that of the sum (gamma(n + 2)), of each C_c (u; t: et) and of
 * the magnitude. */
static inline double face_row_value(const fast_view *V, int n, int i, int k, double ak,
                             const double *C, double s, double et, double *err)
{
    const double u = FP_U, g = fp_gamma(n + 2);
    const double *gr = V->a + (size_t)i * (size_t)n;
    double mag, val = fq_row_excess(gr, ak * V->b[i], C, n, &mag);
    *err = ((g + 2 * u) * mag + et * fabs(gr[k])) * (1 + 8 * u) + 0x1p-1000;
    return s * val;
}

/* The point is outside row i of view w: 0, the row's stacked id into
 * *j->violated when asked. */
static int outside_row(const fast_touch_job *j, int w, int i)
{
    if (j->violated)
        *j->violated = w ? j->V[0]->m + i : i;
    return 0;
}

int fast_touch_face(const fast_touch_job *j, int k, hs_result *r)
{
    int n = j->n, D = n + 1;
    if (D > FACE_MAX_D || k < 0 || k >= n || j->which[0] != 0 || j->which[1] != 1 ||
        !pred_entries_moderate(j->G, D * D) || !pred_entries_moderate(j->h, D))
        return -1;
    const double *a = j->G, b = j->h[0], ak = a[k];
    if (ak == 0 || !(a[n] > 0) || !(j->G[D + n] > 0) || !rows_opposed(j, 0, 1))
        return -1;
    /* t = b - sum_{c != k} a_c p_c, and the coefficients of a row's
     * numerator: C_c = a_k p_c (c != k), t for c = k, -a_k for b */
    double p[FACE_MAX_D] = {0}, C[FACE_MAX_D], t = b, tmag = fabs(b);
    fast_touch_unit_coords(n, j->G, j->h, p);
    for (int c = 0; c < n; c++) {
        if (c == k)
            continue;
        double ap = a[c] * p[c];
        t -= ap;
        tmag += fabs(ap);
        C[c] = ak * p[c];
    }
    C[k] = t;
    const double u = FP_U, g = fp_gamma(n + 2), et = fp_gamma(n + 1) * tmag * (1 + 4 * u);
    const double s = ak > 0 ? 1 : -1, tiny = 0x1p-1000, ru = FAST_UNIT_REL;
    /* unit rows (fast_prep.h), when a view reads its own rows: the same
     * numerator over the row's norm, from entries off by ru relative; the
     * a part of a unit row has sum |u_c| <= 1.75 and every |u_c| <= 1 + ru
     * (a rounded unit vector), so the bound is E0 + Eb |u_b| */
    const double gu = (g + 2 * u + ru * (1 + 4 * u)) * (1 + 8 * u);
    double cmax = 0;
    for (int c = 0; c < n; c++)
        cmax = fp_max(cmax, fabs(C[c]));
    const double E0 = (gu * 1.75 * cmax + et * (1 + 2 * ru)) * (1 + 8 * u) + tiny;
    const double Eb = gu * fabs(ak) * (1 + 8 * u);
    if (j->violated)
        *j->violated = -1;
    /* the rows that put an earlier point outside first (a failed point
     * usually fails at a row its neighbours fail at too): outside for
     * certain ends the proof before the pass; anything else is left to it */
    for (int f = 0; f < j->nfirst; f++) {
        int id = j->first[f], w = id >= j->V[0]->m, i = w ? id - j->V[0]->m : id;
        double err;
        if (id >= 0 && i < j->V[w]->m &&
            face_row_value(j->V[w], n, i, k, ak, C, s, et, &err) > err)
            return 0;
    }
    for (int w = 0; w < 2; w++) {
        const fast_view *V = j->V[w];
        int own = j->row[w];
        /* (a few rows are read as fast in doubles: boxes skip the floats) */
        const float *unit =
            n == 3 && V->m > 16 ? fast_prep_unit_rows(V->prep, V->a, V->b) : NULL;
        const int *only = j->only[w];
        int count = only ? j->nonly[w] : V->m;
        for (int at = 0; at < count; at++) {
            int i = only ? only[at] : at;
            if (unit) {
                const float *q = unit + 4 * (size_t)i;
                double vu = s * (C[0] * q[0] + C[1] * q[1] + C[2] * q[2] - ak * q[3]);
                double err = E0 + Eb * fabs(q[3]);
                if (vu < -err)
                    continue;
                if (vu > err)
                    return outside_row(j, w, i);
            }
            const double *gr = V->a + (size_t)i * (size_t)n;
            double err, val = face_row_value(V, n, i, k, ak, C, s, et, &err);
            if (val < -err)
                continue;
            if (val > err)
                return outside_row(j, w, i);
            if (i == own)
                continue; /* the face itself: 0 exactly */
            /* a row near the point (another face through it, or nearly):
             * its exact sign there (pred_row_sign_on_plane) */
            int sign = pred_row_sign_on_plane(gr, V->b[i], a, b, k, p, n);
            if (sign == 2)
                return -1; /* out of the predicate's range: the general proof decides */
            if (sign > 0)
                return 0;
        }
    }
    double x[FACE_MAX_D];
    memcpy(x, p, sizeof x);
    x[k] = t / ak;
    store_touch(j, x, r);
    return 1;
}

/* The proof in more than 3 variables (D > TOUCH_MAX_D), where there are
 * no determinant filters: steps 1 and 2 by the exact signs of
 * pred_basis_exact (two fraction-free eliminations over GMP integers),
 * which also gives the exact vertex x*; step 3 at x*, each row by a
 * filter at x* rounded to doubles: with |x*_c - xd_c| <= u |xd_c|
 * (nearest rounding) and the sum's own rounding,
 *     |a . x* - b - fl(a . xd - b)| <= 2 gamma(n + 2) (sum_c |a_c xd_c| + |b|)
 *                                      + n 2^-1000
 * (a coordinate below 2^-1000 that is not exact gives up); the rows it
 * leaves are signed exactly at x*.  So exact arithmetic still runs on
 * O(n) rows. */
static int touch_certify_general(const fast_touch_job *j, hs_result *r, pred_stats *ps)
{
    int n = j->n, D = n + 1, sdet = 0, cof[FACE_MAX_D], sh = 1, on_a = 0;
    mpq_t x[FACE_MAX_D], acc, t; /* (x: the D entries of z = G^-1 h) */
    double xd[FACE_MAX_D - 1];
    if (D > FACE_MAX_D)
        return 0;
    for (int c = 0; c < D; c++)
        mpq_init(x[c]);
    mpq_inits(acc, t, NULL);
    int ok = pred_basis_exact(j->G, j->h, D, &sdet, cof, &sh, x) == 0 && sdet != 0 && sh == 0;
    if (ps)
        ps->exact++;
    for (int c = 0; c < D && ok; c++) {
        ok = cof[c] * sdet >= 0 && (j->which[c] >= 0 || cof[c] == 0);
        on_a |= j->which[c] == 0 && cof[c] != 0;
    }
    ok = ok && on_a;
    for (int c = 0; c < n && ok; c++) { /* (the relative bound needs normal doubles) */
        int exact = 0;
        xd[c] = q_nearest_double(x[c], &exact);
        ok = isfinite(xd[c]) && (exact || fabs(xd[c]) >= 0x1p-1000);
    }
    const double g2 = 2 * fp_gamma(n + 2), tiny = n * 0x1p-1000;
    for (int k = 0; k < 2 && ok; k++) {
        const fast_view *V = j->V[k];
        for (int i = 0; i < V->m && ok; i++) {
            const double *a = V->a + (size_t)i * (size_t)n;
            double mag, val = fq_row_excess(a, V->b[i], xd, n, &mag); /* a . xd - b */
            double err = g2 * mag + tiny;
            if (val < -err || in_basis(j, k, i))
                continue;
            ok = val <= err && pred_row_sign_q(a, V->b[i], x, n, acc, t) <= 0;
        }
    }
    if (ok)
        store_touch(j, xd, r);
    for (int c = 0; c < D; c++)
        mpq_clear(x[c]);
    mpq_clears(acc, t, NULL);
    return ok;
}

int fast_touch_certify(const fast_touch_job *j, hs_result *r, pred_stats *ps)
{
    int n = j->n, D = n + 1, s0, solved = 0;
    double D0, eD0; /* det G in floating point and its error bound */
    if (!pred_entries_moderate(j->G, D * D) || !pred_entries_moderate(j->h, D))
        return 0;
    if (D > TOUCH_MAX_D)
        return touch_certify_general(j, r, ps);
    double N[TOUCH_MAX_D], eN[TOUCH_MAX_D]; /* det(G with column c replaced by h) */
    if (D == 4) { /* the common case: the four determinants from shared minors */
        double det[4], perm[4];
        pred_det4_cramer(j->G, j->h, det, perm);
        D0 = det[0];
        eD0 = 16 * FP_U * perm[0];
        for (int c = 0; c < 3; c++) {
            N[c] = det[1 + c];
            eN[c] = 16 * FP_U * perm[1 + c];
        }
    } else {
        double M[TOUCH_MAX_D * TOUCH_MAX_D];
        det_bounded(j->G, D, &D0, &eD0);
        for (int c = 0; c < n; c++) {
            replaced(j, c, j->h, M);
            det_bounded(M, D, &N[c], &eN[c]);
        }
    }
    if (!touch_separation_holds(j, D0, eD0, &s0, ps))
        return 0;
    mpq_t x[TOUCH_MAX_D];
    double xd[TOUCH_MAX_D];
    int ok = point_in_both(j, s0, D0, eD0, N, eN, x, &solved);
    if (ok == 2)
        return 2; /* (deferred: nothing initialized) */
    if (ok == 1) {
        if (solved)
            for (int c = 0; c < n; c++)
                xd[c] = q_nearest_double(x[c], NULL);
        else if (!cramer_vertex(n, D0, eD0, N, eN, xd))
            approx_vertex(j, xd);
        store_touch(j, xd, r);
    }
    for (int c = 0; solved && c < n; c++)
        mpq_clear(x[c]);
    return ok;
}
