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

#endif
