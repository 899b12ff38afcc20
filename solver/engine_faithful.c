/* engine_faithful.c -- the faithful engine: the seed-002 routines over double
 * (solver/seed.h), answered as the paper answers: FEASIBLE / INFEASIBLE
 * for one system, INTERSECT / DISJOINT for a pair, with the point found
 * and no certificate. */
#include <stdlib.h>

#include "polytope/hpoly.h"
#include "solver/engines.h"
#include "solver/seed.h"
#include "solver/result.h"
#include "polytope/error.h"
#include "polytope/mem.h"

/* Store the routine's answer (got: 1 point found, 0 none) in r. */
static hs_code store_answer(hs_result *r, int got, hs_status yes, hs_status no, int n,
                            const double *x, long nodes, hs_error *err)
{
    if (result_reset(r, got ? yes : no, n) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (got)
        result_set_point_d(r, x);
    r->nodes = nodes;
    return HS_OK;
}

/* The error of a failed routine call, copied to err. */
static hs_code routine_failed(const hs_error *mine, hs_error *err)
{
    hs_code code = mine->code != HS_OK ? mine->code : HS_ERR_INTERNAL;
    if (err)
        *err = *mine;
    return code;
}

hs_code faithful_feasible(const hs_poly *P, const hs_options *opt, hs_result *r, hs_error *err)
{
    double *x = mem_alloc((size_t)P->n, sizeof *x);
    if (!x)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_error mine;
    hs_error_clear(&mine);
    long nodes = 0;
    int got = seed_feasible_d(P, opt, x, &nodes, &mine);
    hs_code rc = got < 0 ? routine_failed(&mine, err)
                         : store_answer(r, got, HS_FEASIBLE, HS_INFEASIBLE, P->n, x, nodes, err);
    free(x);
    return rc;
}

hs_code faithful_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt,
                           hs_result *r, hs_error *err)
{
    double *x = mem_alloc((size_t)A->n, sizeof *x);
    if (!x)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_error mine;
    hs_error_clear(&mine);
    long nodes = 0;
    int got = seed_intersect_d(A, B, opt, x, &nodes, &mine);
    hs_code rc = got < 0 ? routine_failed(&mine, err)
                         : store_answer(r, got, HS_INTERSECT, HS_DISJOINT, A->n, x, nodes, err);
    free(x);
    return rc;
}

/* ------------------------------------------- the same over rationals */

static mpq_t *new_point_q(int n)
{
    mpq_t *x = mem_alloc_gmp((size_t)n, sizeof(mpq_t));
    if (x)
        for (int j = 0; j < n; j++)
            mpq_init(x[j]);
    return x;
}

static void free_point_q(mpq_t *x, int n)
{
    for (int j = 0; j < n; j++)
        mpq_clear(x[j]);
    free(x);
}

static hs_code store_answer_q(hs_result *r, int got, hs_status yes, hs_status no, int n,
                              mpq_t *x, long nodes, hs_error *err)
{
    if (result_reset(r, got ? yes : no, n) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (got)
        result_set_point_q(r, x);
    r->nodes = nodes;
    return HS_OK;
}

hs_code faithful_exact_feasible(const hs_poly *P, const hs_options *opt, hs_result *r,
                                hs_error *err)
{
    mpq_t *x = new_point_q(P->n);
    if (!x)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_error mine;
    hs_error_clear(&mine);
    long nodes = 0;
    int got = seed_feasible_q(P, opt, x, &nodes, &mine);
    hs_code rc = got < 0 ? routine_failed(&mine, err)
                         : store_answer_q(r, got, HS_FEASIBLE, HS_INFEASIBLE, P->n, x, nodes, err);
    free_point_q(x, P->n);
    return rc;
}

hs_code faithful_exact_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt,
                                 hs_result *r, hs_error *err)
{
    mpq_t *x = new_point_q(A->n);
    if (!x)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_error mine;
    hs_error_clear(&mine);
    long nodes = 0;
    int got = seed_intersect_q(A, B, opt, x, &nodes, &mine);
    hs_code rc = got < 0 ? routine_failed(&mine, err)
                         : store_answer_q(r, got, HS_INTERSECT, HS_DISJOINT, A->n, x, nodes, err);
    free_point_q(x, A->n);
    return rc;
}
