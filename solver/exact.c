/* exact.c -- the exact engine: the seed-002 routines over GMP rationals
 * decide whether a point exists (and find one); the exact slack LP
 * (classify.c) then classifies the answer and builds its certificate,
 * which is verified (verify.c) before it is returned.  The two decisions
 * are computed independently and must agree; a disagreement is reported as
 * an internal error rather than answered. */
#include <stdio.h>
#include <stdlib.h>

#include "polytope/hpoly.h"
#include "solver/classify.h"
#include "solver/engines.h"
#include "solver/paper.h"
#include "solver/result.h"
#include "src/error.h"

static mpq_t *new_point(int n)
{
    mpq_t *x = hs_malloc((size_t)n, sizeof(mpq_t));
    if (x)
        for (int j = 0; j < n; j++)
            mpq_init(x[j]);
    return x;
}

static void free_point(mpq_t *x, int n)
{
    if (!x)
        return;
    for (int j = 0; j < n; j++)
        mpq_clear(x[j]);
    free(x);
}

static hs_code forward(hs_error *err, const hs_error *from)
{
    if (err)
        *err = *from;
    return from->code;
}

static void trace_line(const hs_options *opt, const hs_result *r)
{
    if (!opt->trace)
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
    return hs_fail(err, HS_ERR_INTERNAL,
                   "exact engine: its own certificate failed verification: %s (please report)",
                   verr.msg);
}

static hs_code disagreement(hs_error *err, int paper_found, const hs_result *r)
{
    return hs_fail(err, HS_ERR_INTERNAL,
                   "exact engine: the seed-002 routine %s a point but the LP says %s "
                   "(please report)",
                   paper_found ? "found" : "found no", hs_status_name(r->status));
}

hs_code exact_feasible(const hs_poly *P, const hs_options *opt, hs_result *r, hs_error *err)
{
    mpq_t *x = new_point(P->n);
    if (!x)
        return hs_fail(err, HS_ERR_NOMEM, "out of memory");
    long nodes = 0;
    hs_error perr;
    hs_error_clear(&perr);
    int found = paper_feasible_q(P, opt, x, &nodes, &perr);
    hs_code rc = HS_OK;
    if (found < 0)
        rc = forward(err, &perr);
    else if (found) {
        if (result_reset(r, HS_FEASIBLE, P->n) != 0)
            rc = hs_fail(err, HS_ERR_NOMEM, "out of memory");
        else
            result_set_point_q(r, x);
    } else {
        int lp_feasible = 0;
        rc = classify_infeasible(P, r, &lp_feasible, err);
        if (rc == HS_OK && lp_feasible)
            rc = disagreement(err, 0, r);
    }
    free_point(x, P->n);
    r->nodes = nodes;
    if (rc == HS_OK)
        rc = self_verify(r, P, NULL, err);
    return rc;
}

hs_code exact_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt, hs_result *r,
                        hs_error *err)
{
    mpq_t *x = new_point(A->n);
    if (!x)
        return hs_fail(err, HS_ERR_NOMEM, "out of memory");
    long nodes = 0;
    hs_error perr;
    hs_error_clear(&perr);
    int found = paper_intersect_q(A, B, opt, x, &nodes, &perr);
    free_point(x, A->n);
    if (found < 0)
        return forward(err, &perr);
    hs_code rc = classify_pair(A, B, r, err);
    r->nodes = nodes;
    if (rc != HS_OK)
        return rc;
    trace_line(opt, r);
    if (found != (r->status != HS_DISJOINT))
        return disagreement(err, found, r);
    return self_verify(r, A, B, err);
}
