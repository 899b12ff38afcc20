/* engine_exact.c -- the exact engine: the slack LP, proposed in floating
 * point and solved or certified over GMP integers (classify.c,
 * simplex_q.c), classifies the answer and builds its certificate, which
 * is verified (verify.c) before it is returned: an answer whose
 * certificate fails is reported as an internal error, never returned.
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

static void trace_line(const hs_options *opt, const hs_result *r, const classify_stats *st)
{
    if (!opt || !opt->trace)
        return;
    char line[300];
    snprintf(line, sizeof line,
             "exact classification: %s (%d slack LP%s, %ld simplex pivots of which %ld exact; "
             "floating-point basis certified optimal in %d of %d)",
             hs_status_name(r->status), st->lps, st->lps == 1 ? "" : "s", r->pivots,
             st->exact_pivots, st->lps - st->repaired, st->lps);
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
    classify_stats st;
    hs_code rc = classify_infeasible_stats(P, r, &feasible, &st, err);
    if (rc != HS_OK)
        return rc;
    trace_line(opt, r, &st);
    return self_verify(r, P, NULL, err);
}

hs_code exact_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt, hs_result *r,
                        hs_error *err)
{
    classify_stats st;
    hs_code rc = classify_pair_stats(A, B, r, &st, err);
    if (rc != HS_OK)
        return rc;
    trace_line(opt, r, &st);
    return self_verify(r, A, B, err);
}
