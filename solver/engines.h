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

/* The same routines over GMP rationals: exact points, no certificate. */
hs_code faithful_exact_feasible(const hs_poly *P, const hs_options *opt, hs_result *r,
                                hs_error *err);
hs_code faithful_exact_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt,
                                 hs_result *r, hs_error *err);

/* The exact LP classification (DISJOINT / TOUCHING / OVERLAP) with
 * certificates, verified before they are returned. */
hs_code exact_feasible(const hs_poly *P, const hs_options *opt, hs_result *r, hs_error *err);
hs_code exact_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt,
                        hs_result *r, hs_error *err);

/* The same questions posed as LPs to GLPK (use_exact: glp_exact instead of
 * glp_simplex).  Classifies like the exact engine; no certificate.  Not
 * thread-safe. */
hs_code glpk_feasible(const hs_poly *P, int use_exact, hs_result *r, hs_error *err);
hs_code glpk_intersect(const hs_poly *A, const hs_poly *B, int use_exact, hs_result *r,
                       hs_error *err);

/* tau* of the margin LP (max tau s.t. a.x + tau <= b on inequality rows,
 * a.x = b on equality rows, tau <= 1) of A stacked on B (B may be NULL).
 * With use_exact it is solved by glp_exact and tau is in the units of the
 * data; otherwise by glp_simplex on rows normalized to largest |entry| in
 * [1, 2).  When the equality rows are inconsistent, they are relaxed into
 * pairs of inequality rows and the (negative) margin of that LP is
 * returned.  Not thread-safe (GLPK). */
hs_code glpk_margin(const hs_poly *A, const hs_poly *B, int use_exact, double *tau,
                    hs_error *err);

#endif
