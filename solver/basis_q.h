/* basis_q.h -- an exact simplex basis kept as integers: for a nonsingular
 * k*k integer matrix B (the basis columns) it holds D = |det B| and the
 * integer matrix M = D B^-1 (the adjugate, up to sign), so that
 * B^-1 v = (M v) / D exactly with integer arithmetic only.
 *
 * Replacing one column of B (a simplex pivot) updates M and D in O(k^2)
 * integer operations by the fraction-free (Edmonds / Bareiss) rule
 *
 *     u = M a (the entering column a, in the scale D),  p = u_r,
 *     M'_ij = (p M_ij - u_i M_rj) / D   (i != r),   M'_rj = M_rj,   D' = p,
 *
 * whose divisions are exact because M' is again the adjugate of the new
 * basis; the pair (M', D') is stored with the sign that makes D' > 0.
 * Zero entries are skipped,
 * so sparse bases (unit columns, a simplex's rows) cost far less.  Entries
 * are minors of B: their size is bounded by Hadamard's inequality,
 * whatever the pivot order. */
#ifndef HS_BASIS_Q_H
#define HS_BASIS_Q_H

#include <gmp.h>

typedef struct qbasis {
    int k;
    mpz_t *M;   /* k*k row-major */
    mpz_t D;    /* > 0 */
    mpz_t *u;   /* k: M a of the last column given to qbasis_ftran* */
    int *nz;    /* k scratch: nonzero positions of a pivot row */
    mpz_t t;    /* scratch */
} qbasis;

int qbasis_init(qbasis *q, int k);
void qbasis_free(qbasis *q);

/* B = I: M = I, D = 1. */
void qbasis_identity(qbasis *q);

/* u = M a for the column a = (head[0 .. len-1], tail) (tail NULL: the
 * column has len entries). */
void qbasis_ftran(qbasis *q, const mpz_t *head, int len, const mpz_t *tail);
/* u = M e_i (column i of M). */
void qbasis_ftran_unit(qbasis *q, int i);

/* Replace basis column r by the column whose u was computed last.
 * Returns 0, or -1 when u_r = 0 (the new basis would be singular; nothing
 * changes).  u_r is left as |u_r|, the new D. */
int qbasis_pivot(qbasis *q, int r);

/* Entry (i, j) of M. */
static inline mpz_t *qbasis_at(const qbasis *q, int i, int j)
{
    return q->M + (size_t)i * (size_t)q->k + (size_t)j;
}

#endif
