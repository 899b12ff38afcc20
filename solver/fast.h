/* fast.h -- the fast engine: seed 002's structure (a violated inequality
 * becomes an equality, a variable is eliminated, recurse; candidate faces
 * taken from the s->t direction) made linear in expected time as Seidel's
 * randomized incremental LP, computed in doubles and certified with
 * exact-sign predicates.  When a predicate cannot certify the answer the
 * query falls back to the exact engine (counted in hs_result). */
#ifndef HS_FAST_H
#define HS_FAST_H

#include "halfspace.h"

/* Per-result workspace (allocated on first use, grown only when a larger
 * problem than ever before arrives, freed with the result). */
typedef struct fast_work fast_work;
void fast_work_free(fast_work *w);
/* Bytes held by the workspace of r (0 before the first fast query). */
size_t fast_work_bytes(const fast_work *w);

hs_code fast_feasible(const hs_poly *P, const hs_options *opt, hs_result *r, hs_error *err);
hs_code fast_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt, hs_result *r,
                       hs_error *err);

#endif
