/* simplest.h -- simpler witness points: a point with margin tau > 0 in
 * every row of a system of inequalities may move by up to tau / (sum_j
 * |a_j|) per coordinate and stay strictly inside; within that distance
 * each coordinate is replaced by the simplest rational (smallest
 * denominator).  Points then print as 3/4 rather than as the quotient of
 * two 100-digit integers, and checking them exactly is cheaper. */
#ifndef HS_SIMPLEST_H
#define HS_SIMPLEST_H

#include <gmp.h>

#include "solver/rows_z.h"

/* The simplest rational in the closed interval [lo, hi] (lo <= hi): the
 * least denominator, then the least absolute value. */
void q_simplest_between(mpq_t out, const mpq_t lo, const mpq_t hi);

/* x (n rationals) satisfies a_r . x + tau <= b_r with tau > 0 for every
 * stacked row r of z with use[r] != 0 (inequality rows only).  Replace x
 * by a simpler point that satisfies all of them strictly (a_r . x < b_r).
 * Returns 0, or -1 (x unchanged) when tau is not positive or out of
 * memory. */
int q_simplify_strict_point(const zrows *z, const unsigned char *use, const mpq_t tau, mpq_t *x);

#endif
