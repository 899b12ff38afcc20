/* engine_glpk.c -- the GLPK engines, used only to cross-check our own
 * solvers.  Every question becomes the "margin" LP
 *
 *     maximize tau  subject to  a_i . x + w_i tau <= b_i   (inequality rows)
 *                               a_i . x           =  b_i   (equality rows)
 *                               x free, tau <= 1,
 *
 * with positive weights w_i (see below).  tau* >= 0 means the system is
 * feasible, tau* > 0 that some point satisfies every inequality row
 * strictly; the sign of tau*, and which rows carry nonzero duals, do not
 * depend on the weights.
 *
 * Two engines share the code: glp_simplex (floating point) and glp_exact
 * (rational arithmetic).  What each one sees:
 *  - GLPK takes doubles.  A row whose exact value is not a double (hs_poly
 *    exact flag 0) is given to GLPK as its nearest doubles, so the GLPK
 *    answer is about that rounded row, not about the row as written.
 *  - glp_exact does not take a non-integral double at its exact value: it
 *    substitutes a nearby simple fraction (relative error up to about
 *    1e-10).  Integral doubles it takes exactly.  So for glp_exact every
 *    row, weight included, is multiplied by the power of two that makes
 *    all its entries integers (w_i = that power): GLPK then solves exactly
 *    our problem, and tau is in the units of the data.
 *  - glp_exact reports its rational results (tau*, duals) as doubles and
 *    stops the process if a nonzero reduced cost rounds to 0.0.  Both are
 *    safe while every basis determinant and value fits the double range,
 *    which GLPK_EXACT_BITS bounds through Hadamard's inequality; wider
 *    data are refused with HS_ERR_UNSUPPORTED rather than risked.
 *  - For glp_simplex every row is multiplied by the power of two that puts
 *    its largest |entry| (of a and b) in [1, 2), and w_i = 1: tau measures
 *    slack relative to each row's size.  A margin |tau*| <= GLPK_REL_TOL
 *    counts as zero and a dual below GLPK_DUAL_TOL in magnitude counts as
 *    zero.  Near touching this engine may therefore disagree with the
 *    exact ones; that is expected.
 *  - GLPK's floating-point factorization can stop the process (an internal
 *    assertion) on rows mixing extreme magnitudes, such as 1 next to
 *    1e-300, and on some singular bases.  glp_simplex is only given rows
 *    whose nonzero entries lie within 2^GLPK_FLOAT_RANGE of the row's
 *    largest one (others are refused with HS_ERR_UNSUPPORTED), and every
 *    solve starts from the standard basis once rows have been rewritten.
 *  - We keep no global state, but GLPK itself is not thread-safe: do not
 *    run GLPK queries from several threads at once.  GLPK also stops the
 *    process when it runs out of memory or is called with invalid
 *    arguments; every argument is checked before the call.
 */
#include <glpk.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/engines.h"
#include "solver/result.h"
#include "polytope/error.h"
#include "polytope/mem.h"

/* glp_simplex: |tau*| <= GLPK_REL_TOL (rows normalized to largest |entry|
 * in [1, 2)) counts as tau* = 0. */
#define GLPK_REL_TOL 1e-9
/* glp_simplex: duals sum to 1 at a zero margin; smaller ones count as 0. */
#define GLPK_DUAL_TOL 1e-9
/* Floating-point GLPK only sees rows whose nonzero entries are at least
 * 2^-GLPK_FLOAT_RANGE times the row's largest |entry|. */
#define GLPK_FLOAT_RANGE 60
/* The floating-point head start of glp_exact only sees integers below this. */
#define GLPK_WARM_LIMIT 1e30
/* glp_exact: bound (in bits) on basis determinants times right-hand sides;
 * below the double exponent range with room to spare. */
#define GLPK_EXACT_BITS 1000.0
/* Iteration limit of glp_simplex, per row and column of the LP. */
#define GLPK_ITER_PER_SIZE 1000
/* GLPK's own limit on the number of rows and of columns. */
#define GLPK_MAX_SIZE 100000000

/* One margin LP in GLPK, over the rows of one or two polyhedra. */
typedef struct margin_lp {
    glp_prob *lp;
    int n;              /* variables x_1..x_n are columns 1..n, tau is n+1 */
    int use_exact;      /* glp_exact instead of glp_simplex */
    double tol;         /* |tau| <= tol counts as zero */
    int *ind;           /* scratch for GLPK (1-based): n+2 entries */
    double *val;
    double *row;        /* scratch: the scaled row a_1..a_n, b */
    double tau_coef;    /* weight w of the row in `row` */
    int warm_ok;        /* glp_exact: the data suit a glp_simplex head start */
    int rewritten;      /* rows changed since the last solve */
    double *top_bits;   /* glp_exact: log2 norms of the n+1 widest rows,
                           largest first */
    double rhs_bits;    /* glp_exact: log2 of the largest |b| */
} margin_lp;

/* Outcome of one solve. */
typedef struct margin_answer {
    int feasible;       /* the LP has a feasible solution */
    double tau;         /* tau* when feasible */
} margin_answer;

/* How a polyhedron row enters the LP. */
typedef enum row_mode {
    ROW_SLACK,          /* a.x + w tau <= b */
    ROW_FIXED,          /* a.x = b */
    ROW_NEG_SLACK       /* -a.x + w tau <= -b (second half of a split equality) */
} row_mode;

/* ------------------------------------------------------------ checks */

/* Everything GLPK would stop the process for, checked in advance. */
static hs_code glpk_check_poly(const hs_poly *P, const char *what, hs_error *err)
{
    if (!P)
        return err_set(err, HS_ERR_ARG, "glpk: %s is NULL", what);
    if (P->n < 1 || P->m < 1)
        return err_set(err, HS_ERR_ARG, "glpk: %s has %d rows and %d variables", what, P->m,
                       P->n);
    if (P->n >= GLPK_MAX_SIZE || P->m > GLPK_MAX_SIZE / 4)
        return err_set(err, HS_ERR_UNSUPPORTED, "glpk: %s is too large for GLPK", what);
    size_t cells = (size_t)P->m * (size_t)P->n;
    for (size_t k = 0; k < cells; k++)
        if (!isfinite(P->a[k]))
            return err_set(err, HS_ERR_INTERNAL, "glpk: %s holds a non-finite entry", what);
    for (int i = 0; i < P->m; i++)
        if (!isfinite(P->b[i]))
            return err_set(err, HS_ERR_INTERNAL, "glpk: %s holds a non-finite entry", what);
    return HS_OK;
}

/* Are the nonzero entries of row (len doubles) within 2^GLPK_FLOAT_RANGE
 * of its largest one? */
static int row_float_safe(const double *row, int len)
{
    double big = 0.0, small = INFINITY;
    for (int j = 0; j < len; j++)
        if (row[j] != 0.0) {
            big = fmax(big, fabs(row[j]));
            small = fmin(small, fabs(row[j]));
        }
    return big == 0.0 || small >= ldexp(big, -GLPK_FLOAT_RANGE);
}

/* Multiply row by the power of two that brings its largest |entry| into
 * [1, 2) (exact: only the binary exponents change). */
static void normalize_row(double *row, int len)
{
    double big = 0.0;
    for (int j = 0; j < len; j++)
        big = fmax(big, fabs(row[j]));
    if (big == 0.0)
        return;
    int e;
    frexp(big, &e); /* big = f * 2^e with 1/2 <= f < 1 */
    for (int j = 0; j < len; j++)
        row[j] = ldexp(row[j], 1 - e);
}

/* Number of binary digits after the point that v needs (0 for integers). */
static int fraction_bits(double v)
{
    if (v == 0.0 || v == floor(v))
        return 0;
    int e;
    double f = frexp(fabs(v), &e);          /* |v| = f * 2^e, 1/2 <= f < 1 */
    uint64_t mant = (uint64_t)ldexp(f, 53); /* |v| = mant * 2^(e-53) */
    int low = e - 53;
    while ((mant & 1u) == 0) {
        mant >>= 1;
        low++;
    }
    return low < 0 ? -low : 0;
}

/* Multiply row (len doubles) by the power of two that makes every entry an
 * integer.  Returns the power used, or -1 if the row or the power itself
 * would overflow. */
static int scale_row_to_integers(double *row, int len)
{
    int bits = 0;
    double big = 0.0;
    for (int j = 0; j < len; j++) {
        int k = fraction_bits(row[j]);
        bits = k > bits ? k : bits;
        big = fmax(big, fabs(row[j]));
    }
    if (bits == 0)
        return 0;
    if (bits > DBL_MAX_EXP - 1 || !isfinite(ldexp(big, bits)))
        return -1;
    for (int j = 0; j < len; j++)
        row[j] = ldexp(row[j], bits);
    return bits;
}

/* ------------------------------------------------------- building the LP */

static void margin_close(margin_lp *M)
{
    if (M->lp)
        glp_delete_prob(M->lp);
    free(M->ind);
    free(M->val);
    free(M->row);
    free(M->top_bits);
    memset(M, 0, sizeof *M);
}

/* Columns x (free) and tau (<= 1), objective max tau, no rows yet. */
static hs_code margin_open(margin_lp *M, int n, int use_exact, hs_error *err)
{
    memset(M, 0, sizeof *M);
    M->n = n;
    M->use_exact = use_exact;
    M->tol = use_exact ? 0.0 : GLPK_REL_TOL;
    M->warm_ok = 1;
    M->ind = mem_alloc((size_t)n + 2, sizeof *M->ind);
    M->val = mem_alloc((size_t)n + 2, sizeof *M->val);
    M->row = mem_alloc((size_t)n + 1, sizeof *M->row);
    M->top_bits = mem_calloc((size_t)n + 1, sizeof *M->top_bits);
    if (!M->ind || !M->val || !M->row || !M->top_bits) {
        margin_close(M);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    M->lp = glp_create_prob();
    glp_set_obj_dir(M->lp, GLP_MAX);
    glp_add_cols(M->lp, n + 1);
    for (int j = 1; j <= n; j++)
        glp_set_col_bnds(M->lp, j, GLP_FR, 0.0, 0.0);
    glp_set_col_bnds(M->lp, n + 1, GLP_UP, 0.0, 1.0);
    glp_set_obj_coef(M->lp, n + 1, 1.0);
    return HS_OK;
}

/* glp_exact: remember the size of the (scaled) row in M->row for the
 * bound on basis determinants: every basis determinant is a minor of the
 * n+1 columns, so by Hadamard at most the product of the n+1 largest row
 * norms. */
static void note_row_size(margin_lp *M)
{
    double norm2 = M->tau_coef * M->tau_coef;
    for (int j = 0; j < M->n; j++)
        norm2 += M->row[j] * M->row[j];
    double bits = 0.5 * log2(norm2);
    if (!isfinite(bits))
        bits = (double)DBL_MAX_EXP; /* the square overflowed: far too wide */
    for (int k = 0; k <= M->n; k++)
        if (bits > M->top_bits[k]) {
            double t = M->top_bits[k];
            M->top_bits[k] = bits;
            bits = t;
        }
    double b = fabs(M->row[M->n]);
    if (b > 0.0)
        M->rhs_bits = fmax(M->rhs_bits, log2(b));
}

/* glp_exact: refuse data whose results might not fit a double. */
static hs_code check_exact_width(const margin_lp *M, hs_error *err)
{
    double bits = M->rhs_bits + log2((double)glp_get_num_rows(M->lp) + 2.0);
    for (int k = 0; k <= M->n; k++)
        bits += M->top_bits[k];
    if (bits <= GLPK_EXACT_BITS)
        return HS_OK;
    return err_set(err, HS_ERR_UNSUPPORTED,
                   "glpk-exact: the data are too wide (about 2^%.0f) for glp_exact to report "
                   "its results reliably",
                   bits);
}

/* Scale the row in M->row for the solver (see the top of the file) and
 * set its weight M->tau_coef. */
static hs_code prepare_row(margin_lp *M, const hs_poly *P, int i, hs_error *err)
{
    int len = M->n + 1;
    int safe = row_float_safe(M->row, len);
    if (!M->use_exact) {
        if (!safe)
            return err_set(err, HS_ERR_UNSUPPORTED,
                           "glpk: row %d of %s mixes magnitudes too far apart for glp_simplex",
                           i + 1, P->name);
        normalize_row(M->row, len);
        M->tau_coef = 1.0;
        return HS_OK;
    }
    int k = scale_row_to_integers(M->row, len);
    if (k < 0)
        return err_set(err, HS_ERR_UNSUPPORTED,
                       "glpk-exact: row %d of %s spans too many orders of magnitude to be "
                       "passed to glp_exact exactly",
                       i + 1, P->name);
    M->tau_coef = ldexp(1.0, k);
    for (int j = 0; j < len; j++)
        safe = safe && fabs(M->row[j]) <= GLPK_WARM_LIMIT;
    M->warm_ok = M->warm_ok && safe && M->tau_coef <= GLPK_WARM_LIMIT;
    return HS_OK;
}

/* Write row i of P into LP row `lp_row` in the given mode. */
static hs_code margin_set_row(margin_lp *M, int lp_row, const hs_poly *P, int i, row_mode mode,
                              hs_error *err)
{
    int n = M->n;
    double sign = mode == ROW_NEG_SLACK ? -1.0 : 1.0;
    const double *a = hpoly_row(P, i);
    for (int j = 0; j < n; j++)
        M->row[j] = sign * a[j];
    M->row[n] = sign * P->b[i];
    hs_code rc = prepare_row(M, P, i, err);
    if (rc != HS_OK)
        return rc;
    int len = 0;
    for (int j = 0; j < n; j++)
        if (M->row[j] != 0.0) {
            len++;
            M->ind[len] = j + 1;
            M->val[len] = M->row[j];
        }
    if (mode != ROW_FIXED) {
        len++;
        M->ind[len] = n + 1;
        M->val[len] = M->tau_coef;
    }
    glp_set_mat_row(M->lp, lp_row, len, M->ind, M->val);
    if (mode == ROW_FIXED)
        glp_set_row_bnds(M->lp, lp_row, GLP_FX, M->row[n], M->row[n]);
    else
        glp_set_row_bnds(M->lp, lp_row, GLP_UP, 0.0, M->row[n]);
    M->rewritten = 1;
    return HS_OK;
}

/* A new LP row holding row i of P. */
static hs_code margin_append_row(margin_lp *M, int lp_row, const hs_poly *P, int i,
                                 row_mode mode, hs_error *err)
{
    hs_code rc = margin_set_row(M, lp_row, P, i, mode, err);
    if (rc == HS_OK && M->use_exact)
        note_row_size(M);
    return rc;
}

/* Append the rows of P; returns the LP index of P's row 0 in *first.
 * With split_eq, each equality row becomes the two slack rows
 * a.x + w tau <= b and -a.x + w tau <= -b (the extra ones appended last). */
static hs_code margin_add_poly(margin_lp *M, const hs_poly *P, int split_eq, int *first,
                               hs_error *err)
{
    int start = glp_add_rows(M->lp, P->m);
    if (first)
        *first = start;
    for (int i = 0; i < P->m; i++) {
        row_mode mode = P->eq[i] && !split_eq ? ROW_FIXED : ROW_SLACK;
        hs_code rc = margin_append_row(M, start + i, P, i, mode, err);
        if (rc == HS_OK && P->eq[i] && split_eq)
            rc = margin_append_row(M, glp_add_rows(M->lp, 1), P, i, ROW_NEG_SLACK, err);
        if (rc != HS_OK)
            return rc;
    }
    return HS_OK;
}

/* ------------------------------------------------------------- solving */

static void quiet_parameters(glp_smcp *parm)
{
    glp_init_smcp(parm);
    parm->msg_lev = GLP_MSG_OFF;
    parm->presolve = GLP_OFF;
}

/* Did the last solve end in one of the two answers the margin LP can have
 * (it is never unbounded: tau <= 1)? */
static int glpk_settled(glp_prob *lp)
{
    int status = glp_get_status(lp);
    return status == GLP_OPT || status == GLP_NOFEAS;
}

/* glp_simplex with an iteration limit.  GLPK's primal simplex can stall,
 * or lose its way numerically, on the very degenerate LPs met here, so on
 * failure it is tried again from the standard basis with the dual simplex,
 * then with the textbook ratio test.  Returns GLPK's code of the last
 * attempt (0 with an unexpected status when none settled). */
static int run_simplex(margin_lp *M)
{
    glp_smcp parm;
    quiet_parameters(&parm);
    long size = (long)glp_get_num_rows(M->lp) + M->n + 1;
    parm.it_lim = size > INT32_MAX / GLPK_ITER_PER_SIZE ? INT32_MAX
                                                        : (int)(size * GLPK_ITER_PER_SIZE);
    int rc = glp_simplex(M->lp, &parm);
    for (int attempt = 0; (rc != 0 || !glpk_settled(M->lp)) && attempt < 2; attempt++) {
        glp_std_basis(M->lp);
        if (attempt == 0) {
            parm.meth = GLP_DUALP;
        } else {
            parm.meth = GLP_PRIMAL;
            parm.r_test = GLP_RT_STD;
        }
        rc = glp_simplex(M->lp, &parm);
    }
    return rc;
}

/* Run the engine's solver from the current basis.  glp_exact is given a
 * head start when `warm`: a basis that glp_simplex found optimal in
 * floating point usually leaves it little to do.  That basis is only a
 * starting point (glp_exact's answer does not depend on it); when
 * glp_simplex fails, glp_exact starts from the standard basis instead.
 * The head start is skipped for data that floating-point GLPK may not
 * survive (see row_float_safe and GLPK_WARM_LIMIT). */
static int run_glpk(margin_lp *M, int warm)
{
    if (!M->use_exact)
        return run_simplex(M);
    if (warm && M->warm_ok && (run_simplex(M) != 0 || !glpk_settled(M->lp)))
        glp_std_basis(M->lp);
    glp_smcp parm;
    quiet_parameters(&parm);
    return glp_exact(M->lp, &parm);
}

static const char *glpk_code_name(int rc)
{
    switch (rc) {
    case GLP_EBADB: return "invalid basis";
    case GLP_ESING: return "singular basis";
    case GLP_ECOND: return "ill-conditioned basis";
    case GLP_EBOUND: return "invalid bounds";
    case GLP_EFAIL: return "solver failure";
    case GLP_EITLIM: return "iteration limit";
    case GLP_ETMLIM: return "time limit";
    case GLP_ENOPFS: return "no primal feasible solution";
    case GLP_ENODFS: return "no dual feasible solution";
    default: return "unknown failure";
    }
}

/* Solve.  After rows were rewritten the old basis may be singular, and
 * GLPK's factorization can stop the process on some singular bases instead
 * of reporting them, so such a solve starts from the standard basis (the
 * identity, always valid).  A basis that glp_exact still finds unusable
 * (from its floating-point head start) is replaced the same way. */
static hs_code margin_solve(margin_lp *M, margin_answer *ans, hs_error *err)
{
    if (M->use_exact) {
        hs_code wide = check_exact_width(M, err);
        if (wide != HS_OK)
            return wide;
    }
    if (M->rewritten)
        glp_std_basis(M->lp);
    M->rewritten = 0;
    int rc = run_glpk(M, 1);
    if (rc == GLP_EBADB || rc == GLP_ESING || rc == GLP_ECOND) {
        glp_std_basis(M->lp);
        rc = run_glpk(M, 0);
    }
    const char *solver = M->use_exact ? "glp_exact" : "glp_simplex";
    if (rc != 0)
        return err_set(err, HS_ERR_INTERNAL, "glpk: %s failed with code %d (%s)", solver, rc,
                       glpk_code_name(rc));
    int status = glp_get_status(M->lp);
    if (status == GLP_OPT) {
        ans->feasible = 1;
        ans->tau = glp_get_col_prim(M->lp, M->n + 1);
        return HS_OK;
    }
    if (status == GLP_NOFEAS || glp_get_prim_stat(M->lp) == GLP_NOFEAS) {
        ans->feasible = 0;
        ans->tau = 0.0;
        return HS_OK;
    }
    return err_set(err, HS_ERR_INTERNAL, "glpk: %s ended with unexpected status %d", solver,
                   status);
}

/* -1, 0, +1: the sign of tau* under the engine's tolerance. */
static int tau_sign(const margin_lp *M, double tau)
{
    if (tau > M->tol)
        return 1;
    return tau < -M->tol ? -1 : 0;
}

/* The x part of GLPK's solution becomes the point of r. */
static hs_code margin_point(const margin_lp *M, hs_result *r, hs_error *err)
{
    double *x = mem_alloc((size_t)r->n, sizeof *x);
    if (!x)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int j = 0; j < r->n; j++)
        x[j] = glp_get_col_prim(M->lp, j + 1);
    result_set_point_d(r, x);
    free(x);
    return HS_OK;
}

/* ------------------------------------------------- implicit equalities */

/* Fix as equalities the inequality rows (not yet marked) whose dual is
 * nonzero; *fixed counts them. */
static hs_code fix_rows_with_dual(margin_lp *M, const hs_poly *P, int first,
                                  unsigned char *implicit, int *fixed, hs_error *err)
{
    double dual_tol = M->use_exact ? 0.0 : GLPK_DUAL_TOL;
    *fixed = 0;
    for (int i = 0; i < P->m; i++) {
        if (P->eq[i] || implicit[i])
            continue;
        if (fabs(glp_get_row_dual(M->lp, first + i)) <= dual_tol)
            continue;
        hs_code rc = margin_set_row(M, first + i, P, i, ROW_FIXED, err);
        if (rc != HS_OK)
            return rc;
        implicit[i] = 1;
        (*fixed)++;
    }
    return HS_OK;
}

static int has_free_inequality(const hs_poly *P, const unsigned char *implicit)
{
    for (int i = 0; i < P->m; i++)
        if (!P->eq[i] && !implicit[i])
            return 1;
    return 0;
}

/* One round of find_implicit: solve, and at a zero margin fix the rows
 * with nonzero duals.  *done is set when no further round is needed. */
static hs_code implicit_round(margin_lp *M, const hs_poly *P, int first,
                              unsigned char *implicit, int *done, hs_error *err)
{
    margin_answer ans;
    *done = 1;
    hs_code rc = margin_solve(M, &ans, err);
    if (rc != HS_OK || (ans.feasible && tau_sign(M, ans.tau) > 0))
        return rc;
    if (!ans.feasible || tau_sign(M, ans.tau) < 0) {
        /* P was seen to be nonempty, so only rounding in glp_simplex can
         * get here; it keeps the equalities found so far. */
        if (!M->use_exact)
            return HS_OK;
        return err_set(err, HS_ERR_INTERNAL,
                       "glpk-exact: %s became infeasible while fixing its implicit equalities",
                       P->name);
    }
    int fixed = 0;
    rc = fix_rows_with_dual(M, P, first, implicit, &fixed, err);
    if (rc == HS_OK && fixed == 0 && M->use_exact)
        return err_set(err, HS_ERR_INTERNAL,
                       "glpk-exact: zero margin for %s without a nonzero dual", P->name);
    *done = fixed == 0;
    return rc;
}

/* Mark in implicit[] the inequality rows of the nonempty P that hold with
 * equality on all of P.  At tau* = 0 the LP dual says sum y_i (a_i.x - b_i)
 * = 0 on P with y >= 0 and sum y_i w_i = 1, so every row with y_i > 0 is
 * tight on all of P; fixing those and solving again finds the next ones,
 * until the margin is positive or no inequality row is left. */
static hs_code glpk_find_implicit(const hs_poly *P, int use_exact, unsigned char *implicit,
                             hs_error *err)
{
    margin_lp M;
    hs_code rc = margin_open(&M, P->n, use_exact, err);
    if (rc != HS_OK)
        return rc;
    int first = 0, done = 0;
    rc = margin_add_poly(&M, P, 0, &first, err);
    while (rc == HS_OK && !done && has_free_inequality(P, implicit))
        rc = implicit_round(&M, P, first, implicit, &done, err);
    margin_close(&M);
    return rc;
}

/* ------------------------------------------------------------- queries */

static hs_code start_result(hs_result *r, hs_status status, int n, hs_error *err)
{
    if (result_reset(r, status, n) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    return HS_OK;
}

hs_code glpk_feasible(const hs_poly *P, int use_exact, hs_result *r, hs_error *err)
{
    hs_code rc = glpk_check_poly(P, "the polyhedron", err);
    if (rc != HS_OK)
        return rc;
    if (!r)
        return err_set(err, HS_ERR_ARG, "result object is NULL");
    margin_lp M;
    rc = margin_open(&M, P->n, use_exact, err);
    if (rc != HS_OK)
        return rc;
    margin_answer ans = {0, 0.0};
    rc = margin_add_poly(&M, P, 0, NULL, err);
    if (rc == HS_OK)
        rc = margin_solve(&M, &ans, err);
    int feasible = ans.feasible && tau_sign(&M, ans.tau) >= 0;
    if (rc == HS_OK)
        rc = start_result(r, feasible ? HS_FEASIBLE : HS_INFEASIBLE, P->n, err);
    if (rc == HS_OK && feasible)
        rc = margin_point(&M, r, err);
    margin_close(&M);
    return rc;
}

/* The stacked LP of A and B (B may be NULL); first[k] is the LP row of
 * row 0 of part k. */
static hs_code open_pair(margin_lp *M, const hs_poly *A, const hs_poly *B, int use_exact,
                         int split_eq, int first[2], hs_error *err)
{
    hs_code rc = margin_open(M, A->n, use_exact, err);
    if (rc != HS_OK)
        return rc;
    rc = margin_add_poly(M, A, split_eq, &first[0], err);
    if (rc == HS_OK && B)
        rc = margin_add_poly(M, B, split_eq, &first[1], err);
    if (rc != HS_OK)
        margin_close(M);
    return rc;
}

/* Steps 2 and 3 of the classification (the stacked margin is zero):
 * fix the implicit equalities of A and of B in the stacked LP and solve it
 * again.  *overlap is set when the relative interiors meet; the point of
 * r becomes the solution of that LP. */
static hs_code classify_zero_margin(margin_lp *M, const hs_poly *A, const hs_poly *B,
                                    const int first[2], hs_result *r, int *overlap,
                                    hs_error *err)
{
    const hs_poly *part[2] = {A, B};
    hs_code rc = HS_OK;
    *overlap = 0;
    for (int k = 0; k < 2 && rc == HS_OK; k++) {
        unsigned char *implicit = mem_calloc((size_t)part[k]->m, 1);
        if (!implicit)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        rc = glpk_find_implicit(part[k], M->use_exact, implicit, err);
        for (int i = 0; rc == HS_OK && i < part[k]->m; i++)
            if (implicit[i])
                rc = margin_set_row(M, first[k] + i, part[k], i, ROW_FIXED, err);
        free(implicit);
    }
    margin_answer ans;
    if (rc == HS_OK)
        rc = margin_solve(M, &ans, err);
    if (rc == HS_OK && ans.feasible) {
        *overlap = tau_sign(M, ans.tau) > 0;
        rc = margin_point(M, r, err);
    }
    return rc;
}

/* Step 1 on the stacked LP, then steps 2 and 3 when its margin is zero. */
static hs_code glpk_classify_pair(margin_lp *M, const hs_poly *A, const hs_poly *B,
                             const int first[2], hs_result *r, hs_error *err)
{
    margin_answer ans;
    hs_code rc = margin_solve(M, &ans, err);
    if (rc != HS_OK)
        return rc;
    int sign = ans.feasible ? tau_sign(M, ans.tau) : -1;
    hs_status status = sign < 0 ? HS_DISJOINT : sign > 0 ? HS_OVERLAP : HS_TOUCHING;
    rc = start_result(r, status, A->n, err);
    if (rc != HS_OK || status == HS_DISJOINT)
        return rc;
    rc = margin_point(M, r, err); /* a common point */
    if (rc != HS_OK || status == HS_OVERLAP)
        return rc;
    int overlap = 0;
    rc = classify_zero_margin(M, A, B, first, r, &overlap, err);
    if (rc == HS_OK && overlap)
        r->status = HS_OVERLAP;
    return rc;
}

static hs_code check_pair(const hs_poly *A, const hs_poly *B, hs_error *err)
{
    hs_code rc = glpk_check_poly(A, "A", err);
    if (rc == HS_OK && B)
        rc = glpk_check_poly(B, "B", err);
    if (rc == HS_OK && B && A->n != B->n)
        rc = err_set(err, HS_ERR_ARG, "glpk: A has %d variables, B has %d", A->n, B->n);
    return rc;
}

hs_code glpk_intersect(const hs_poly *A, const hs_poly *B, int use_exact, hs_result *r,
                       hs_error *err)
{
    hs_code rc = check_pair(A, B, err);
    if (rc != HS_OK)
        return rc;
    if (!B)
        return err_set(err, HS_ERR_ARG, "glpk: B is NULL");
    if (!r)
        return err_set(err, HS_ERR_ARG, "result object is NULL");
    margin_lp M;
    int first[2] = {0, 0};
    rc = open_pair(&M, A, B, use_exact, 0, first, err);
    if (rc != HS_OK)
        return rc;
    rc = glpk_classify_pair(&M, A, B, first, r, err);
    margin_close(&M);
    return rc;
}

hs_code glpk_margin(const hs_poly *A, const hs_poly *B, int use_exact, double *tau,
                    hs_error *err)
{
    hs_code rc = check_pair(A, B, err);
    if (rc != HS_OK)
        return rc;
    for (int split = 0; split < 2; split++) {
        margin_lp M;
        int first[2];
        rc = open_pair(&M, A, B, use_exact, split, first, err);
        if (rc != HS_OK)
            return rc;
        margin_answer ans;
        rc = margin_solve(&M, &ans, err);
        margin_close(&M);
        if (rc != HS_OK)
            return rc;
        if (ans.feasible) {
            *tau = ans.tau;
            return HS_OK;
        }
    }
    return err_set(err, HS_ERR_INTERNAL, "glpk: the relaxed margin LP has no solution");
}
