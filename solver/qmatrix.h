/* qmatrix.h -- small dense exact linear solves over GMP rationals. */
#ifndef HS_QMATRIX_H
#define HS_QMATRIX_H

#include <gmp.h>

/* Scratch for solves of size up to k: k*k + k rationals. */
typedef struct qmatrix_work {
    int cap;
    mpq_t *m;   /* k*k elimination copy */
    mpq_t *v;   /* k right-hand side copy */
    mpq_t t, prod; /* temporaries */
} qmatrix_work;

int qmatrix_work_init(qmatrix_work *w, int k);
void qmatrix_work_free(qmatrix_work *w);

/* Solve M z = r (transpose == 0) or M^T z = r (transpose != 0) for the
 * k*k row-major matrix M.  Returns 0, or -1 when M is singular.  z may
 * not alias r. */
int qmatrix_solve(qmatrix_work *w, int k, mpq_t *const M, mpq_t *const r, mpq_t *z,
                  int transpose);

#endif
