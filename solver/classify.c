/* classify.c -- exact three-way classification of a pair of polyhedra (and
 * feasibility of one), with certificates, on top of the slack LP.
 *
 * Pair A, B (rows stacked, equality rows kept as equalities):
 *  1. LP0: slack LP of all rows.  tau* < 0 (or inconsistent equalities):
 *     DISJOINT, and the optimal dual is a Farkas combination on at most
 *     n+1 rows.  tau* > 0: a point strict in every inequality row, hence in
 *     both relative interiors: OVERLAP.
 *  2. tau* = 0: find the implicit equalities of A and of B (rows tight on
 *     the whole polyhedron).  Repeatedly solve the slack LP of the
 *     polyhedron alone; while tau* = 0 the dual is a combination
 *     0.x <= 0 positive on some inequality rows, which are therefore
 *     implicit equalities; turn them into equalities and repeat.  The
 *     combinations, added up with large enough weights, give one proof
 *     vector Z >= 0 positive exactly on the implicit rows; the last LP
 *     gives a relative-interior point.
 *  3. LP1: slack LP with those rows as equalities.  tau* > 0: OVERLAP
 *     (certificate: the point and Z_A, Z_B).  tau* = 0: TOUCHING; its dual y
 *     gives a hyperplane with A on one side and B on the other; negative
 *     entries of y on implicit rows are lifted with Z (which adds 0.x <= 0
 *     on that polyhedron's rows), and a relative-interior point of the
 *     polyhedron owning a positive slack multiplier lies strictly off the
 *     hyperplane, so the relative interiors cannot meet.
 *
 * A point found with margin tau* > 0 (an overlap, a relative-interior
 * point, a feasible system) is replaced by a simpler one, each coordinate
 * the simplest rational within a distance that keeps every row strict
 * (simplest.h), when no row is an equality. */
#include "solver/classify.h"

#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/simplest.h"
#include "solver/simplex_q.h"
#include "solver/result.h"
#include "solver/rows_z.h"
#include "polytope/error.h"
#include "polytope/mem.h"

typedef struct implicit_info {
    unsigned char *implicit; /* z->m flags (rows of this polyhedron only) */
    mpq_t *proof;            /* z->m: the vector Z */
    mpq_t *ri_point;         /* n: a point of the relative interior */
    int count;               /* implicit rows found */
} implicit_info;

typedef struct classify_ctx {
    zrows z;
    unsigned char *kind;
    lp_solution sol;         /* LP of the pair (or of the single system) */
    /* made by the first search for implicit equalities (step 2: only
     * pairs whose LP0 ends at tau* = 0 need them; O(m) rationals each) */
    int have_aux;
    lp_solution aux;         /* LPs of one polyhedron (implicit equalities) */
    implicit_info imp[2];
    long pivots;
    classify_stats st;
} classify_ctx;

static hs_code internal(hs_error *err, const char *what)
{
    return err_set(err, HS_ERR_INTERNAL, "exact classification: %s (please report)", what);
}

static hs_code lp_error(int rc, hs_error *err)
{
    return rc == -1 ? err_set(err, HS_ERR_NOMEM, "out of memory")
                    : internal(err, "simplex failed on a singular basis or pivot limit");
}

/* ----------------------------------------------------------- context */

static int implicit_init(implicit_info *im, int m, int n)
{
    memset(im, 0, sizeof *im);
    im->implicit = mem_calloc((size_t)m, 1);
    im->proof = mem_alloc_gmp((size_t)m, sizeof(mpq_t));
    im->ri_point = mem_alloc_gmp((size_t)n, sizeof(mpq_t));
    if (!im->implicit || !im->proof || !im->ri_point) {
        free(im->implicit);
        free(im->proof);
        free(im->ri_point);
        memset(im, 0, sizeof *im);
        return -1;
    }
    for (int r = 0; r < m; r++)
        mpq_init(im->proof[r]);
    for (int j = 0; j < n; j++)
        mpq_init(im->ri_point[j]);
    return 0;
}

static void implicit_free(implicit_info *im, int m, int n)
{
    if (!im->implicit)
        return;
    for (int r = 0; r < m; r++)
        mpq_clear(im->proof[r]);
    for (int j = 0; j < n; j++)
        mpq_clear(im->ri_point[j]);
    free(im->implicit);
    free(im->proof);
    free(im->ri_point);
}

static void classify_ctx_free(classify_ctx *c)
{
    for (int w = 0; w < 2; w++)
        implicit_free(&c->imp[w], c->z.m, c->z.n);
    lp_solution_free(&c->sol);
    if (c->have_aux)
        lp_solution_free(&c->aux);
    free(c->kind);
    zrows_free(&c->z);
}

static hs_code classify_ctx_init(classify_ctx *c, const hs_poly *A, const hs_poly *B, hs_error *err)
{
    memset(c, 0, sizeof *c);
    if (zrows_build(&c->z, A, B) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    int m = c->z.m, n = c->z.n;
    c->kind = mem_alloc((size_t)m, 1);
    if (!c->kind || lp_solution_init(&c->sol, n, m) != 0) {
        classify_ctx_free(c);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    return HS_OK;
}

/* The parts of step 2 (the auxiliary LP's solution, the implicit rows of
 * each polyhedron and their proofs), made on first use. */
static hs_code need_implicit(classify_ctx *c, hs_error *err)
{
    int m = c->z.m, n = c->z.n;
    if (!c->have_aux) {
        if (lp_solution_init(&c->aux, n, m) != 0)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        c->have_aux = 1;
    }
    for (int w = 0; w < 2; w++)
        if (!c->imp[w].implicit && implicit_init(&c->imp[w], m, n) != 0)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
    return HS_OK;
}

/* kind of every row: equality rows LP_EQ, inequality rows LP_SLACK unless
 * marked implicit; rows of the other polyhedron LP_OFF when only = 0/1. */
static void set_kinds(classify_ctx *c, int only)
{
    for (int r = 0; r < c->z.m; r++) {
        int w = c->z.which[r];
        if (only >= 0 && w != only)
            c->kind[r] = LP_OFF;
        else if (c->z.eq[r] || (c->imp[w].implicit && c->imp[w].implicit[r]))
            c->kind[r] = LP_EQ;
        else
            c->kind[r] = LP_SLACK;
    }
}

static hs_code solve(classify_ctx *c, lp_solution *sol, hs_error *err)
{
    int rc = lp_solve_rounds(&c->z, c->kind, sol);
    c->pivots += sol->pivots;
    c->st.lps++;
    c->st.repaired += sol->repaired;
    c->st.exact_pivots += sol->exact_pivots;
    return rc == 0 ? HS_OK : lp_error(rc, err);
}

/* The LP point x (tau > 0) replaced by a simpler strictly interior point
 * of the rows in the LP, when none of them is an equality (simplest.h). */
static void simplify_point(classify_ctx *c, const lp_solution *sol, mpq_t *x)
{
    for (int r = 0; r < c->z.m; r++)
        if (c->kind[r] == LP_EQ)
            return;
    unsigned char *use = mem_alloc((size_t)c->z.m, 1);
    if (!use)
        return;
    for (int r = 0; r < c->z.m; r++)
        use[r] = c->kind[r] == LP_SLACK;
    q_simplify_strict_point(&c->z, use, sol->tau, x);
    free(use);
}

static int lp_infeasible(const lp_solution *sol)
{
    return sol->status == LP_EQ_INCONSISTENT || mpq_sgn(sol->tau) < 0;
}

/* ------------------------------------------------ implicit equalities */

/* Z <- y + mu Z with mu making Z >= 0 on the rows already implicit. */
static void merge_proof(classify_ctx *c, implicit_info *im, int which)
{
    const lp_solution *s = &c->aux;
    mpq_t mu, t, one;
    mpq_inits(mu, t, one, NULL);
    mpq_set_ui(one, 1, 1);
    mpq_set(mu, one);
    for (int r = 0; r < c->z.m; r++) {
        if (c->z.which[r] != which || !im->implicit[r] || mpq_sgn(s->y[r]) >= 0)
            continue;
        mpq_div(t, s->y[r], im->proof[r]); /* proof > 0 on implicit rows */
        mpq_neg(t, t);
        mpq_add(t, t, one);
        if (mpq_cmp(t, mu) > 0)
            mpq_set(mu, t);
    }
    for (int r = 0; r < c->z.m; r++) {
        if (c->z.which[r] != which)
            continue;
        mpq_mul(t, mu, im->proof[r]);
        mpq_add(im->proof[r], s->y[r], t);
    }
    mpq_clears(mu, t, one, NULL);
}

/* Fill c->imp[which]; the polyhedron must be nonempty. */
static hs_code find_implicit(classify_ctx *c, int which, hs_error *err)
{
    implicit_info *im = &c->imp[which];
    for (;;) {
        set_kinds(c, which);
        hs_code rc = solve(c, &c->aux, err);
        if (rc != HS_OK)
            return rc;
        if (lp_infeasible(&c->aux))
            return internal(err, "a polyhedron of an intersecting pair is empty");
        if (mpq_sgn(c->aux.tau) > 0)
            break;
        merge_proof(c, im, which);
        int found = 0;
        for (int r = 0; r < c->z.m; r++) {
            if (c->kind[r] == LP_SLACK && mpq_sgn(c->aux.y[r]) > 0) {
                im->implicit[r] = 1;
                found++;
            }
        }
        if (!found)
            return internal(err, "tau* = 0 without a positive slack multiplier");
        im->count += found;
    }
    if (im->count == 0)
        simplify_point(c, &c->aux, c->aux.x);
    for (int j = 0; j < c->z.n; j++)
        mpq_set(im->ri_point[j], c->aux.x[j]);
    return HS_OK;
}

/* ------------------------------------------------------ certificates */

static hs_code add_nonzero_multipliers(classify_ctx *c, mpq_t *y, hs_result *r, hs_error *err)
{
    for (int row = 0; row < c->z.m; row++) {
        if (mpq_sgn(y[row]) == 0)
            continue;
        if (result_add_mult(r, c->z.which[row], c->z.row[row], y[row]) != 0)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    return HS_OK;
}

static hs_code answer_disjoint(classify_ctx *c, hs_status status, hs_result *r, hs_error *err)
{
    r->status = status;
    r->kind = CERT_FARKAS;
    return add_nonzero_multipliers(c, c->sol.y, r, err);
}

/* y_row >= 0 on implicit rows of `which`, by adding mu * Z (Z sums to 0.x <= 0). */
static void lift_with_proof(classify_ctx *c, int which)
{
    implicit_info *im = &c->imp[which];
    mpq_t mu, t;
    mpq_inits(mu, t, NULL);
    for (int row = 0; row < c->z.m; row++) {
        if (c->z.which[row] != which || !im->implicit[row] || mpq_sgn(c->sol.y[row]) >= 0)
            continue;
        mpq_div(t, c->sol.y[row], im->proof[row]);
        mpq_neg(t, t);
        if (mpq_cmp(t, mu) > 0)
            mpq_set(mu, t);
    }
    if (mpq_sgn(mu) > 0) {
        for (int row = 0; row < c->z.m; row++) {
            if (c->z.which[row] != which)
                continue;
            mpq_mul(t, mu, im->proof[row]);
            mpq_add(c->sol.y[row], c->sol.y[row], t);
        }
    }
    mpq_clears(mu, t, NULL);
}

static hs_code answer_touching(classify_ctx *c, hs_result *r, hs_error *err)
{
    int owner = -1;
    for (int row = 0; row < c->z.m && owner < 0; row++)
        if (c->kind[row] == LP_SLACK && mpq_sgn(c->sol.y[row]) > 0)
            owner = c->z.which[row];
    if (owner < 0)
        return internal(err, "touching without a positive slack multiplier");
    lift_with_proof(c, 0);
    lift_with_proof(c, 1);
    r->status = HS_TOUCHING;
    r->kind = CERT_SEPARATION;
    result_set_point_q(r, c->sol.x);
    result_set_strict(r, owner, c->imp[owner].ri_point);
    return add_nonzero_multipliers(c, c->sol.y, r, err);
}

static hs_code answer_overlap_lowdim(classify_ctx *c, hs_result *r, hs_error *err)
{
    r->status = HS_OVERLAP;
    r->kind = CERT_IMPLICIT;
    result_set_point_q(r, c->sol.x);
    for (int w = 0; w < 2; w++) {
        hs_code rc = add_nonzero_multipliers(c, c->imp[w].proof, r, err);
        if (rc != HS_OK)
            return rc;
    }
    return HS_OK;
}

/* ------------------------------------------------------------ entries */

static hs_code classify_run(classify_ctx *c, hs_result *r, hs_error *err)
{
    set_kinds(c, -1);
    hs_code rc = solve(c, &c->sol, err);
    if (rc != HS_OK)
        return rc;
    if (lp_infeasible(&c->sol))
        return answer_disjoint(c, HS_DISJOINT, r, err);
    if (mpq_sgn(c->sol.tau) > 0) {
        r->status = HS_OVERLAP;
        simplify_point(c, &c->sol, c->sol.x);
        result_set_point_q(r, c->sol.x);
        return HS_OK;
    }
    if ((rc = need_implicit(c, err)) != HS_OK || (rc = find_implicit(c, 0, err)) != HS_OK ||
        (rc = find_implicit(c, 1, err)) != HS_OK)
        return rc;
    set_kinds(c, -1);
    if (c->imp[0].count + c->imp[1].count > 0) {
        /* LP1: implicit rows as equalities */
        if ((rc = solve(c, &c->sol, err)) != HS_OK)
            return rc;
        if (lp_infeasible(&c->sol))
            return internal(err, "implicit equalities made a feasible pair infeasible");
        if (mpq_sgn(c->sol.tau) > 0)
            return answer_overlap_lowdim(c, r, err);
    }
    return answer_touching(c, r, err);
}

hs_code classify_pair(const hs_poly *A, const hs_poly *B, hs_result *r, hs_error *err)
{
    return classify_pair_stats(A, B, r, NULL, err);
}

hs_code classify_infeasible(const hs_poly *P, hs_result *r, int *feasible, hs_error *err)
{
    return classify_infeasible_stats(P, r, feasible, NULL, err);
}

hs_code classify_pair_stats(const hs_poly *A, const hs_poly *B, hs_result *r, classify_stats *st,
                            hs_error *err)
{
    classify_ctx c;
    hs_code rc = classify_ctx_init(&c, A, B, err);
    if (rc != HS_OK)
        return rc;
    if (result_reset(r, HS_DISJOINT, A->n) != 0)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    else
        rc = classify_run(&c, r, err);
    r->pivots = c.pivots;
    if (st)
        *st = c.st;
    classify_ctx_free(&c);
    return rc;
}

hs_code classify_infeasible_stats(const hs_poly *P, hs_result *r, int *feasible,
                                  classify_stats *st, hs_error *err)
{
    classify_ctx c;
    hs_code rc = classify_ctx_init(&c, P, NULL, err);
    if (rc != HS_OK)
        return rc;
    *feasible = 0;
    if (result_reset(r, HS_INFEASIBLE, P->n) != 0)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    else {
        set_kinds(&c, -1);
        rc = solve(&c, &c.sol, err);
    }
    if (rc == HS_OK) {
        if (lp_infeasible(&c.sol))
            rc = answer_disjoint(&c, HS_INFEASIBLE, r, err);
        else {
            *feasible = 1;
            r->status = HS_FEASIBLE;
            if (mpq_sgn(c.sol.tau) > 0)
                simplify_point(&c, &c.sol, c.sol.x);
            result_set_point_q(r, c.sol.x);
        }
    }
    r->pivots = c.pivots;
    if (st)
        *st = c.st;
    classify_ctx_free(&c);
    return rc;
}
