/* query.c -- the public query entry points: argument checks, then the
 * engine chosen in the options. */
#include "polytope/hpoly.h"
#include "solver/engines.h"
#include "solver/fast.h"
#include "solver/result.h"
#include "polytope/error.h"

static hs_code query_check_poly(const hs_poly *p, const char *what, hs_error *err)
{
    if (!p)
        return err_set(err, HS_ERR_ARG, "%s is NULL", what);
    return HS_OK;
}

hs_code hs_feasible(const hs_poly *p, const hs_options *opt, hs_result *r, hs_error *err)
{
    hs_options defaults;
    if (!opt) {
        hs_options_init(&defaults);
        opt = &defaults;
    }
    if (query_check_poly(p, "the polyhedron", err) != HS_OK)
        return HS_ERR_ARG;
    if (!r)
        return err_set(err, HS_ERR_ARG, "result object is NULL");
    hs_code rc;
    switch (opt->engine) {
    case HS_ENGINE_FAITHFUL: rc = faithful_feasible(p, opt, r, err); break;
    case HS_ENGINE_EXACT: rc = exact_feasible(p, opt, r, err); break;
    case HS_ENGINE_GLPK: rc = glpk_feasible(p, 0, r, err); break;
    case HS_ENGINE_GLPK_EXACT: rc = glpk_feasible(p, 1, r, err); break;
    case HS_ENGINE_FAST: rc = fast_feasible(p, opt, r, err); break;
    case HS_ENGINE_FAITHFUL_EXACT: rc = faithful_exact_feasible(p, opt, r, err); break;
    default: return err_set(err, HS_ERR_ARG, "unknown engine %d", (int)opt->engine);
    }
    r->engine = opt->engine;
    return rc;
}

hs_code hs_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt, hs_result *r,
                     hs_error *err)
{
    hs_options defaults;
    if (!opt) {
        hs_options_init(&defaults);
        opt = &defaults;
    }
    if (query_check_poly(A, "A", err) != HS_OK || query_check_poly(B, "B", err) != HS_OK)
        return HS_ERR_ARG;
    if (!r)
        return err_set(err, HS_ERR_ARG, "result object is NULL");
    if (A->n != B->n)
        return err_at(err, B->name, B->size_line,
                          "dimension mismatch: %s has %d variables, %s has %d", A->name, A->n,
                          B->name, B->n);
    hs_code rc;
    switch (opt->engine) {
    case HS_ENGINE_FAITHFUL: rc = faithful_intersect(A, B, opt, r, err); break;
    case HS_ENGINE_EXACT: rc = exact_intersect(A, B, opt, r, err); break;
    case HS_ENGINE_GLPK: rc = glpk_intersect(A, B, 0, r, err); break;
    case HS_ENGINE_GLPK_EXACT: rc = glpk_intersect(A, B, 1, r, err); break;
    case HS_ENGINE_FAST: rc = fast_intersect(A, B, opt, r, err); break;
    case HS_ENGINE_FAITHFUL_EXACT: rc = faithful_exact_intersect(A, B, opt, r, err); break;
    default: return err_set(err, HS_ERR_ARG, "unknown engine %d", (int)opt->engine);
    }
    r->engine = opt->engine;
    return rc;
}
