/* rows_z.h -- the rows of one or two polyhedra, stacked, each scaled by a
 * positive integer so that all its numbers are integers (a row a.x <= b
 * and s*a.x <= s*b with s > 0 describe the same half-space).  Built once
 * per exact query and shared by every LP of that query. */
#ifndef HS_ZROWS_H
#define HS_ZROWS_H

#include <gmp.h>

#include "halfspace.h"

typedef struct zrows {
    int n;            /* variables */
    int m;            /* stacked rows */
    int m_first;      /* rows of the first polyhedron (which == 0) */
    mpz_t *a;         /* m*n scaled coefficients */
    mpz_t *b;         /* m scaled right-hand sides */
    mpz_t *scale;     /* m positive scale factors s (scaled = s * original) */
    unsigned char *eq;/* m: equality row */
    int *which;       /* m: 0 or 1 */
    int *row;         /* m: row index in its polyhedron */
} zrows;

/* Stack the rows of A and (if not NULL) B.  Returns 0 or -1 (out of memory). */
int zrows_build(zrows *z, const hs_poly *A, const hs_poly *B);
void zrows_free(zrows *z);

static inline mpz_t *zrows_coef(const zrows *z, int r) { return z->a + (size_t)r * (size_t)z->n; }

#endif
