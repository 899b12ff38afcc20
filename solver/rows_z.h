/* rows_z.h -- the rows of one or two polyhedra, stacked, in integers: row
 * a.x <= b is kept as its coefficients times s (the least positive integer
 * that makes s a integral) and its right side times s G, where G, one
 * positive integer for all the rows, is the least common multiple of the
 * denominators of the right sides.  (A row a.x <= b and s a.x <= s b with
 * s > 0 describe the same half-space; G is a common scale of the costs of
 * the slack LP, which leaves its optimal bases unchanged.)  Scaling the
 * coefficients alone keeps the basis determinants of the exact simplex
 * small when only the right sides are fractions (dyadic offsets of integer
 * normals, say).  Built once per exact query and shared by every LP of
 * that query.  The integer form
 * of a row is made on first use (zrows_need), so a query that only looks
 * at a few rows exactly never converts the others; the rows as doubles
 * (exact or rounded, see zrows_row_d) are always at hand. */
#ifndef HS_ZROWS_H
#define HS_ZROWS_H

#include <gmp.h>

#include "halfspace.h"

typedef struct zrows {
    int n;            /* variables */
    int m;            /* stacked rows */
    int m_first;      /* rows of the first polyhedron (which == 0) */
    mpz_t *a;         /* m*n scaled coefficients s a (row r valid once ready[r]) */
    mpz_t *b;         /* m scaled right-hand sides s G b */
    mpz_t *scale;     /* m positive scale factors s of the coefficients */
    mpz_t G;          /* common scale of the right sides */
    unsigned char *ready; /* m: the integer form of the row is made */
    unsigned char *eq;/* m: equality row */
    int *which;       /* m: 0 or 1 */
    int *row;         /* m: row index in its polyhedron */
    const hs_poly *src[2]; /* the polyhedra (src[1] NULL for one) */
    mpq_t *vals;      /* n+1 scratch rationals */
} zrows;

/* Stack the rows of A and (if not NULL) B.  Returns 0 or -1 (out of memory). */
int zrows_build(zrows *z, const hs_poly *A, const hs_poly *B);
void zrows_free(zrows *z);

/* Make the integer form of row r (coefficients zrows_coef, z->b[r],
 * z->scale[r]) if not yet made. */
void zrows_make(zrows *z, int r);

static inline void zrows_need(const zrows *z, int r)
{
    if (!z->ready[r])
        zrows_make((zrows *)z, r);
}

static inline mpz_t *zrows_coef(const zrows *z, int r) { return z->a + (size_t)r * (size_t)z->n; }

/* Row r as doubles: its n coefficients (returned) and right side (*b);
 * returns through *exact whether these doubles are the row's exact values
 * (otherwise each is the row's value rounded, relative error below 2^-52). */
const double *zrows_row_d(const zrows *z, int r, double *b, int *exact);

#endif
