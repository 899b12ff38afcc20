/* engines.h -- internal entry points behind hs_feasible / hs_intersect.
 * Each fills the result object (status, point, certificate, counters) and
 * returns HS_OK or an error code with err set. */
#ifndef HS_ENGINES_H
#define HS_ENGINES_H

#include "halfspace.h"

/* Seed-002 routines in double, as written: FEASIBLE/INFEASIBLE and
 * INTERSECT/DISJOINT with the point found; no certificate. */
hs_code faithful_feasible(const hs_poly *P, const hs_options *opt, hs_result *r, hs_error *err);
hs_code faithful_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt,
                           hs_result *r, hs_error *err);

/* Seed-002 routines over GMP rationals, then the exact classification
 * (DISJOINT / TOUCHING / OVERLAP) with verified certificates. */
hs_code exact_feasible(const hs_poly *P, const hs_options *opt, hs_result *r, hs_error *err);
hs_code exact_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt,
                        hs_result *r, hs_error *err);

/* The same questions posed as LPs to GLPK (use_exact: glp_exact instead of
 * glp_simplex).  Classifies like the exact engine; no certificate.  Not
 * thread-safe. */
hs_code glpk_feasible(const hs_poly *P, int use_exact, hs_result *r, hs_error *err);
hs_code glpk_intersect(const hs_poly *A, const hs_poly *B, int use_exact, hs_result *r,
                       hs_error *err);

#endif
