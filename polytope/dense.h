/* dense.h -- small dense linear algebra in floating point (dense.c):
 * Gaussian elimination with partial pivoting.  Measurements and proposals
 * only: nothing decided from these numbers goes unchecked. */
#ifndef HS_DENSE_H
#define HS_DENSE_H

/* Solve M x = r for the k x k row-major M (k <= DENSE_MAX): x (k values,
 * may alias r).  M and r are left unchanged.  0, or -1 when a pivot is
 * zero or not finite (M singular to working precision). */
#define DENSE_MAX 17
int dense_solve(int k, const double *M, const double *r, double *x);

/* The inverse of the k x k row-major M into inv (k*k; may not alias M) by
 * Gauss-Jordan elimination.  0, or -1 as dense_solve. */
int dense_inverse(int k, const double *M, double *inv);

#endif
