/* engine_exact.c -- the exact engine: the slack LP over GMP rationals
 * (classify.c) classifies the answer and builds its certificate, which is
 * verified (verify.c) before it is returned: an answer whose certificate
 * fails is reported as an internal error, never returned.
 *
 * (Until the fast engine existed this engine first ran the seed-002
 * routines over rationals; that is cubic in the rows, about four minutes
 * for a disjoint 250x250 pair, and is now the engine faithful-exact.) */
#include <stdio.h>

#include "polytope/hpoly.h"
#include "solver/classify.h"
#include "solver/engines.h"
#include "solver/result.h"
#include "polytope/error.h"

static void trace_line(const hs_options *opt, const hs_result *r)
{
    if (!opt || !opt->trace)
        return;
    char line[200];
    snprintf(line, sizeof line, "exact classification: %s (slack LP, %ld simplex pivots)",
             hs_status_name(r->status), r->pivots);
    opt->trace(opt->trace_user, line);
}

/* The certificate must check out before anyone sees it. */
static hs_code self_verify(const hs_result *r, const hs_poly *A, const hs_poly *B, hs_error *err)
{
    hs_error verr;
    hs_error_clear(&verr);
    if (hs_result_verify(r, A, B, &verr) == HS_OK)
        return HS_OK;
    return err_set(err, HS_ERR_INTERNAL,
                   "exact engine: its own certificate failed verification: %s (please report)",
                   verr.msg);
}

hs_code exact_feasible(const hs_poly *P, const hs_options *opt, hs_result *r, hs_error *err)
{
    int feasible = 0;
    hs_code rc = classify_infeasible(P, r, &feasible, err);
    if (rc != HS_OK)
        return rc;
    trace_line(opt, r);
    return self_verify(r, P, NULL, err);
}

hs_code exact_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt, hs_result *r,
                        hs_error *err)
{
    hs_code rc = classify_pair(A, B, r, err);
    if (rc != HS_OK)
        return rc;
    trace_line(opt, r);
    return self_verify(r, A, B, err);
}
