/* classify.h -- exact classification with certificates (see classify.c). */
#ifndef HS_CLASSIFY_H
#define HS_CLASSIFY_H

#include "halfspace.h"

/* DISJOINT / TOUCHING / OVERLAP of A and B with the point and certificate
 * stored in r (status, point, kind, multipliers, strict point, pivots). */
hs_code classify_pair(const hs_poly *A, const hs_poly *B, hs_result *r, hs_error *err);

/* Feasibility of P by the slack LP: sets *feasible; when infeasible r holds
 * INFEASIBLE with Farkas multipliers on at most n+1 rows, otherwise
 * FEASIBLE with the LP's point. */
hs_code classify_infeasible(const hs_poly *P, hs_result *r, int *feasible, hs_error *err);

/* What the slack LPs of one classification cost: each LP is proposed by
 * the floating-point simplex and certified exactly (simplex_q.h);
 * `repaired` counts the LPs whose proposal was not optimal exactly as
 * proposed (rejected, or the exact simplex had to pivot on). */
typedef struct classify_stats {
    int lps;
    int repaired;
    long exact_pivots;
} classify_stats;

/* The same two, also filling *st (may be NULL). */
hs_code classify_pair_stats(const hs_poly *A, const hs_poly *B, hs_result *r, classify_stats *st,
                            hs_error *err);
hs_code classify_infeasible_stats(const hs_poly *P, hs_result *r, int *feasible,
                                  classify_stats *st, hs_error *err);

#endif
