/* pred_basis.c -- the signs of a basis's multipliers and margin
 * (predicates.h: pred_det4_cramer, pred_last_column_filtered, pred_last_column_sign_of,
 * pred_last_column_signs): for the 4 x 4 bases of 3-D queries by filters
 * that share their 2 x 2 minors, each sign decided on its own; what they
 * leave, and every other size, by the exact predicates of predicates.c
 * and det_exact.c. */
#include "polytope/predicates.h"

#include <math.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/pred_filters.h"

/* The six 2x2 minors of two columns, each given as 4 values at a stride
 * (a column of the row-major 4 x 4 M: M + c, stride 4; a right side h:
 * h, stride 1): values v[k] for the row pair p0, p1 of det4_pair(k)
 * (first two) and magnitudes a[k]; the complementary pairs (last two) are
 * indexed by `second`. */
static inline void minors2(const double *x, int sx, const double *y, int sy, int second,
                           double v[6], double a[6])
{
    for (int k = 0; k < 6; k++) {
        int r0 = det4_pair(k)[second ? 2 : 0], r1 = det4_pair(k)[second ? 3 : 1];
        double m1 = x[r0 * sx] * y[r1 * sy], m2 = x[r1 * sx] * y[r0 * sy];
        v[k] = m1 - m2;
        a[k] = fabs(m1) + fabs(m2);
    }
}

static double join_minors(const double *lv, const double *la, const double *hv, const double *ha,
                          double *perm)
{
    double det = 0, pm = 0;
    for (int k = 0; k < 6; k++) {
        double term = lv[k] * hv[k];
        det += det4_pair_sign(k) > 0 ? term : -term;
        pm += la[k] * ha[k];
    }
    *perm = pm;
    return det;
}

void pred_det4_cramer(const double *M, const double *h, double det[4], double perm[4])
{
    double v01[6], a01[6], v23[6], a23[6], vh1[6], ah1[6], v0h[6], a0h[6], vh3[6], ah3[6];
    minors2(M, 4, M + 1, 4, 0, v01, a01);
    minors2(M + 2, 4, M + 3, 4, 1, v23, a23);
    minors2(h, 1, M + 1, 4, 0, vh1, ah1);
    minors2(M, 4, h, 1, 0, v0h, a0h);
    minors2(h, 1, M + 3, 4, 1, vh3, ah3);
    det[0] = join_minors(v01, a01, v23, a23, &perm[0]);
    det[1] = join_minors(vh1, ah1, v23, a23, &perm[1]);
    det[2] = join_minors(v0h, a0h, v23, a23, &perm[2]);
    det[3] = join_minors(v01, a01, vh3, ah3, &perm[3]);
}

/* The 4 x 4 filters, sharing their 2 x 2 minors, each sign on its own:
 * the mask of pred_last_column_filtered (predicates.h: PRED_LC_SDET for
 * *sdet, bit 1 + i for cof[i], PRED_LC_SH4 for *sh when sh is not NULL);
 * an undecided sign is left unset. */
static int det4_last_column_filter(const double *M, const double *h, int *sdet, int cof[4], int *sh)
{
    if (!filter_range_ok(M, 16))
        return 0;
    int mask = 0;
    double v01[6], a01[6], v23[6], a23[6], v2h[6], a2h[6], perm;
    minors2(M, 4, M + 1, 4, 0, v01, a01);
    minors2(M + 2, 4, M + 3, 4, 1, v23, a23);
    double d = join_minors(v01, a01, v23, a23, &perm), bound = DET4_ERR * perm + 0x1p-1040;
    if (d > bound || -d > bound) {
        *sdet = d > 0 ? 1 : -1;
        mask |= PRED_LC_SDET;
    }
    /* the minor of rows r0 < r1 < r2 (all but i) and columns 0, 1, 2, along
     * column 2: G[r0][2] m(r1, r2) - G[r1][2] m(r0, r2) + G[r2][2] m(r0, r1),
     * m(a, b) the 2 x 2 minor of columns (0, 1): v01 at the pair's index;
     * the bound of pred_det_sign's 3 x 3 (8u times the permanent) */
    static const int pair_at[4][4] = {{-1, 0, 1, 2}, {0, -1, 3, 4}, {1, 3, -1, 5}, {2, 4, 5, -1}};
    for (int i = 0; i < 4; i++) {
        int r[3], c = 0;
        for (int k = 0; k < 4; k++)
            if (k != i)
                r[c++] = k;
        double t0 = M[4 * r[0] + 2] * v01[pair_at[r[1]][r[2]]];
        double t1 = M[4 * r[1] + 2] * v01[pair_at[r[0]][r[2]]];
        double t2 = M[4 * r[2] + 2] * v01[pair_at[r[0]][r[1]]];
        double m = t0 - t1 + t2;
        double mag = fabs(M[4 * r[0] + 2]) * a01[pair_at[r[1]][r[2]]] +
                     fabs(M[4 * r[1] + 2]) * a01[pair_at[r[0]][r[2]]] +
                     fabs(M[4 * r[2] + 2]) * a01[pair_at[r[0]][r[1]]];
        double b3 = 8 * FP_U * mag + 0x1p-1040;
        if (m > b3 || -m > b3) {
            int sm = m > 0 ? 1 : -1;
            cof[i] = (i + 3) % 2 ? -sm : sm;
            mask |= 2 << i;
        }
    }
    if (!sh || !filter_range_ok(h, 4))
        return mask;
    minors2(M + 2, 4, h, 1, 1, v2h, a2h);
    d = join_minors(v01, a01, v2h, a2h, &perm);
    bound = DET4_ERR * perm + 0x1p-1040;
    if (d > bound || -d > bound) {
        *sh = d > 0 ? 1 : -1;
        mask |= PRED_LC_SH4;
    }
    return mask;
}

/* Rows of M (k*k) with a single nonzero entry. */
static int unit_rows(const double *M, int k)
{
    int units = 0;
    for (int i = 0; i < k; i++) {
        int nz = 0;
        for (int j = 0; j < k; j++)
            nz += M[i * k + j] != 0;
        units += nz == 1;
    }
    return units;
}

int pred_last_column_filtered(const double *M, const double *h, int k, int *sdet, int *cof, int *sh)
{
    return k == 4 ? det4_last_column_filter(M, h, sdet, cof, sh) : 0;
}

int pred_last_column_sign_of(const double *M, const double *h, int k, int which, pred_stats *st)
{
    if (k < 1 || k > PRED_MAX_K || which < 0 || which > k + 1)
        return -2;
    if (which == 0)
        return pred_det_sign(M, k, st);
    double R[PRED_MAX_K * PRED_MAX_K];
    if (which <= k) {
        int i = which - 1;
        if (k <= 5)
            return pred_cofactor_sign(M, k, i, k - 1, st);
        memcpy(R, M, sizeof(double) * (size_t)(k * k)); /* det(M with row i := e_last) */
        memset(R + i * k, 0, sizeof(double) * (size_t)k);
        R[i * k + k - 1] = 1;
        return pred_det_sign(R, k, st);
    }
    memcpy(R, M, sizeof(double) * (size_t)(k * k));
    for (int i = 0; i < k; i++)
        R[i * k + k - 1] = h[i];
    return pred_det_sign(R, k, st);
}

int pred_last_column_signs(const double *M, const double *h, int k, int *sdet, int *cof, int *sh,
                           pred_stats *st)
{
    if (k < 1 || k > PRED_MAX_K)
        return -2;
    /* k = 4: the filters decide each sign on its own; only the others are
     * made exactly below (near a contact typically one or two cofactors
     * and the margin) */
    int done = pred_last_column_filtered(M, h, k, sdet, cof, sh);
    if (st)
        st->filtered += pred_last_column_count(done);
    if (k == 4 && done == (PRED_LC_SDET | PRED_LC_COFS4 | (sh ? PRED_LC_SH4 : 0)))
        return 0;
    if (!done && k > 5 && unit_rows(M, k) < k / 2) {
        /* few box bounds to expand away: one elimination for the
         * multipliers, one for the margin, instead of k + 2 determinants */
        int unused, rc = pred_basis_exact(M, h ? h : M, k, sdet, cof, sh ? sh : &unused, NULL);
        if (st)
            st->exact++;
        if (rc != 0 || *sdet != 0)
            return rc;
        /* (singular: the cofactors one by one below) */
    }
    for (int w = 0; w <= k + (sh != NULL); w++) {
        if (done >> w & 1)
            continue;
        int s = pred_last_column_sign_of(M, h, k, w, st);
        if (s == -2)
            return -2;
        if (w == 0)
            *sdet = s;
        else if (w <= k)
            cof[w - 1] = s;
        else
            *sh = s;
    }
    return 0;
}
