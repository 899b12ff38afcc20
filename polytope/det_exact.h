/* det_exact.h -- exact determinant signs and basis solves over GMP
 * integers (det_exact.c), for the predicates beyond 4 x 4 (predicates.c,
 * whose pred_basis_exact is implemented there too). */
#ifndef HS_DET_EXACT_H
#define HS_DET_EXACT_H

/* Sign (-1, 0, +1) of det M, M k*k row-major (k >= 1), by fraction-free
 * elimination over GMP integers, each row scaled to integers by a power
 * of two: about k^3 / 3 integer products.  -2 when an entry is not finite
 * or out of memory.  Pure function; thread-safe. */
int det_exact_sign(const double *M, int k);

#endif
