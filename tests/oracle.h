/* oracle.h -- exact reference computations for the unit tests, written
 * independently of the library's eliminations: determinants by cofactor
 * (Laplace) expansion over GMP integers, and linear solves by Cramer's
 * rule on those determinants.  Slow (k! terms) and meant for k <= 6. */
#ifndef HS_TEST_ORACLE_H
#define HS_TEST_ORACLE_H

#include <gmp.h>

#define ORACLE_MAX_K 10

/* det <- the determinant of the k*k row-major rational matrix M
 * (1 <= k <= ORACLE_MAX_K). */
void oracle_det_q(mpq_t det, mpq_t *const M, int k);

/* Sign (-1, 0, +1) of the determinant of the k*k row-major matrix of
 * finite doubles M, exactly. */
int oracle_det_sign_d(const double *M, int k);

/* Solve A x = b (k*k row-major) by Cramer's rule: x_i = det(A_i) / det(A),
 * A_i being A with column i replaced by b.  Returns 0, or -1 when A is
 * singular (x is then left alone).  x must not alias A or b. */
int oracle_solve_q(mpq_t *x, mpq_t *const A, mpq_t *const b, int k);

/* Sign (-1, 0, +1) of the orientation of d with respect to the plane
 * through a, b, c: the sign of ((b - a) x (c - a)) . (d - a), exactly. */
int oracle_orient3d(const double a[3], const double b[3], const double c[3], const double d[3]);

#endif
