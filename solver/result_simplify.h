/* result_simplify.h -- an answer rewritten with the simplest numbers that
 * still prove it (result_simplify.c), for printing. */
#ifndef HS_RESULT_SIMPLIFY_H
#define HS_RESULT_SIMPLIFY_H

#include "halfspace.h"

/* A new exact copy of r (free it with hs_result_free) whose multipliers
 * and points are the simplest rationals found that still pass
 * hs_result_verify against A (and B, NULL for a single system): the
 * multipliers scaled to sum 1, then every vector replaced by the
 * continued-fraction convergents of its entries, level by level, the
 * first verified candidate kept.  Numbers of at most 32 bits are left
 * alone.  NULL when r does not verify or memory ran out (print r then).
 * Const-safe in r, A and B.  (hs_result_simplify does it in place.) */
hs_result *result_simplified(const hs_result *r, const hs_poly *A, const hs_poly *B);

#endif
