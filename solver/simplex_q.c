/* simplex_q.c -- revised simplex on the dual of the slack LP (simplex_q.h),
 * exact, started from a basis proposed in floating point.
 *
 * The dual has k = n+1 equality rows, so a basis is k columns.  Columns:
 * one per slack row, two per equality row (y = y+ - y-), one for w, and n
 * artificial unit columns that start in the basis at level 0 and are never
 * allowed back in (an artificial with u_i != 0 leaves first, so its level
 * stays 0).  Every column is integral: the column of stacked row r is
 * s_r (a_r; 1) (slack) or +-s_r (a_r; 0) (equality) with the integer scale
 * s_r of rows_z.c, cost s_r G b_r (G: the common scale of the right
 * sides, rows_z.h; the cost of w is G).
 *
 * The basis B is kept as D = |det B| and the integer matrix M = D B^-1
 * (basis_q.c), updated in O(k^2) per pivot; the multipliers as the integer
 * vector P = c_B M, so pi = (x, tau) = P / (G D), updated in O(k).  The levels
 * x_B = B^-1 e_n are column n of M over D.
 *
 * Pricing.  The reduced cost of a row's column has the sign of the row's
 * slack b - a.x - tau at x = P/(G D) (the column's scale is positive).  It is
 * computed in doubles from P/(G D) rounded, with a rigorous bound on the
 * error (the rounding of P/(G D), of the row's doubles when they are not the
 * row's exact values, and of the sum); only a row whose slack is within
 * the bound is evaluated exactly, as D G s_r b_r - P . (s_r a_r; s_r).  The
 * entering column is the most negative slack (Dantzig on the row's own
 * units); after a run of degenerate pivots the rule switches for good to
 * Bland's smallest-index rule, which cannot cycle.  The ratio test and the
 * pivot are exact.
 *
 * Start.  simplex_d.c solves the same LP in doubles from the same start
 * (artificials and w).  Its last basis is pivoted into the exact basis,
 * one column at a time, replacing the columns of the start (a column that
 * would make the basis singular is skipped).  If the basis reached is
 * feasible (every level >= 0, artificials at 0) the exact simplex goes on
 * from it, and when the proposal was right it finds every reduced cost
 * >= 0 at once: the proposal is then certified optimal with no exact
 * pivot.  Otherwise it restarts from the artificial basis, and the
 * proposal's columns are the first to enter (of the columns whose reduced
 * cost is negative, the most negative of them, until none of them is
 * eligible or Bland's rule takes over): at a degenerate optimum the float
 * basis is usually right but for a row or two whose multiplier is below
 * its rounding, and the rest of it saves most of the pivots of a cold
 * start (hull-rest-fp's subsystems in bench/pairs: 9.7 -> 6.7 exact
 * pivots an LP, cold queries about 10% faster). */
#include "solver/simplex_q.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/basis_q.h"
#include "solver/simplex_d.h"
#include "polytope/error.h"
#include "polytope/fp.h"
#include "polytope/mem.h"

enum col_type { COL_ROW, COL_W, COL_ART };

typedef struct column {
    enum col_type type;
    int row;  /* COL_ROW: stacked row; COL_ART: unit index */
    int sign; /* COL_ROW: +1, or -1 for the negative part of an equality */
} column;

typedef struct simplex {
    const zrows *z;
    const unsigned char *kind;
    int n, k, ncol;
    column *col;
    int *basis;            /* k column indices */
    unsigned char *in_basis; /* ncol flags */
    qbasis qb;
    mpz_t *P;              /* k: c_B M */
    mpz_t val, t1, cost;
    double *xd;            /* k: P / (G D) rounded */
    double xd_rel;         /* relative error bound of xd (0: unusable) */
    int *uncertain;        /* ncol scratch */
    const unsigned char *prefer; /* ncol flags, or NULL: the proposal's
                                    columns, which enter first (choose_entering) */
} simplex;

int lp_solution_init(lp_solution *s, int n, int m)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->m = m;
    s->x = mem_alloc_gmp((size_t)n, sizeof(mpq_t));
    s->y = mem_alloc_gmp((size_t)m, sizeof(mpq_t));
    if (!s->x || !s->y) {
        free(s->x);
        free(s->y);
        return -1;
    }
    for (int j = 0; j < n; j++)
        mpq_init(s->x[j]);
    for (int r = 0; r < m; r++)
        mpq_init(s->y[r]);
    mpq_init(s->tau);
    mpq_init(s->w);
    return 0;
}

void lp_solution_free(lp_solution *s)
{
    if (!s->x)
        return;
    for (int j = 0; j < s->n; j++)
        mpq_clear(s->x[j]);
    for (int r = 0; r < s->m; r++)
        mpq_clear(s->y[r]);
    mpq_clear(s->tau);
    mpq_clear(s->w);
    free(s->x);
    free(s->y);
    s->x = s->y = NULL;
}

/* ------------------------------------------------------------ setup */

static int build_columns(simplex *s)
{
    int cap = 2 * s->z->m + 1 + s->n;
    s->col = mem_alloc((size_t)cap, sizeof *s->col);
    if (!s->col)
        return -1;
    int c = 0;
    for (int r = 0; r < s->z->m; r++) {
        if (s->kind[r] == LP_OFF)
            continue;
        s->col[c++] = (column){COL_ROW, r, +1};
        if (s->kind[r] == LP_EQ)
            s->col[c++] = (column){COL_ROW, r, -1};
    }
    s->col[c++] = (column){COL_W, 0, +1};
    for (int i = 0; i < s->n; i++)
        s->col[c++] = (column){COL_ART, i, +1};
    s->ncol = c;
    return 0;
}

static void simplex_free(simplex *s)
{
    free(s->col);
    free(s->basis);
    free(s->in_basis);
    free(s->xd);
    free(s->uncertain);
    if (s->P) {
        for (int i = 0; i < s->k; i++)
            mpz_clear(s->P[i]);
        free(s->P);
    }
    qbasis_free(&s->qb);
    mpz_clears(s->val, s->t1, s->cost, NULL);
}

/* The start: artificials for the n rows sum y a = 0, w for the last. */
static void start_basis(int n, int ncol, int *basis)
{
    for (int i = 0; i < n; i++)
        basis[i] = ncol - n + i;
    basis[n] = ncol - n - 1;
}

static void set_basis(simplex *s, const int *basis)
{
    memset(s->in_basis, 0, (size_t)s->ncol);
    for (int i = 0; i < s->k; i++) {
        s->basis[i] = basis[i];
        s->in_basis[basis[i]] = 1;
    }
}

static int simplex_init(simplex *s, const zrows *z, const unsigned char *kind)
{
    memset(s, 0, sizeof *s);
    s->z = z;
    s->kind = kind;
    s->n = z->n;
    s->k = z->n + 1;
    int k = s->k;
    mpz_inits(s->val, s->t1, s->cost, NULL);
    if (build_columns(s) != 0 || qbasis_init(&s->qb, k) != 0)
        return -1;
    s->basis = mem_alloc((size_t)k, sizeof *s->basis);
    s->in_basis = mem_calloc((size_t)s->ncol, 1);
    s->xd = mem_alloc((size_t)k, sizeof(double));
    s->uncertain = mem_alloc((size_t)s->ncol, sizeof(int));
    s->P = mem_alloc_gmp((size_t)k, sizeof(mpz_t));
    if (!s->basis || !s->in_basis || !s->xd || !s->uncertain || !s->P) {
        free(s->P);
        s->P = NULL;
        return -1;
    }
    for (int i = 0; i < k; i++)
        mpz_init(s->P[i]);
    return 0;
}

/* ------------------------------------------------------ column access */

/* Exact cost of column c into out. */
static void column_cost(const simplex *s, int c, mpz_t out)
{
    const column *cl = &s->col[c];
    if (cl->type == COL_W)
        mpz_set(out, s->z->G);
    else if (cl->type == COL_ART)
        mpz_set_ui(out, 0);
    else {
        zrows_need(s->z, cl->row);
        mpz_set(out, s->z->b[cl->row]);
        if (cl->sign < 0)
            mpz_neg(out, out);
    }
}

/* u = M A_c into s->qb.u. */
static void ftran(simplex *s, int c)
{
    const column *cl = &s->col[c];
    if (cl->type == COL_W) {
        qbasis_ftran_unit(&s->qb, s->n);
        return;
    }
    if (cl->type == COL_ART) {
        qbasis_ftran_unit(&s->qb, cl->row);
        return;
    }
    int r = cl->row;
    zrows_need(s->z, r);
    const mpz_t *tail = s->kind[r] == LP_SLACK ? (const mpz_t *)&s->z->scale[r] : NULL;
    qbasis_ftran(&s->qb, (const mpz_t *)zrows_coef(s->z, r), s->n, tail);
    if (cl->sign < 0)
        for (int i = 0; i < s->k; i++)
            mpz_neg(s->qb.u[i], s->qb.u[i]);
}

/* P = c_B M. */
static void compute_p(simplex *s)
{
    int k = s->k;
    for (int j = 0; j < k; j++)
        mpz_set_ui(s->P[j], 0);
    for (int i = 0; i < k; i++) {
        column_cost(s, s->basis[i], s->cost);
        if (mpz_sgn(s->cost) == 0)
            continue;
        for (int j = 0; j < k; j++) {
            const mpz_t *mij = (const mpz_t *)qbasis_at(&s->qb, i, j);
            if (mpz_sgn(*mij) != 0)
                mpz_addmul(s->P[j], s->cost, *mij);
        }
    }
}

/* D * (reduced cost of column c) into s->val: D c_c - P . A_c. */
static void reduced_cost(simplex *s, int c)
{
    const column *cl = &s->col[c];
    int n = s->n;
    if (cl->type != COL_ROW) {
        int i = cl->type == COL_W ? n : cl->row;
        mpz_mul(s->val, s->qb.D, s->z->G);
        if (cl->type == COL_ART)
            mpz_set_ui(s->val, 0);
        mpz_sub(s->val, s->val, s->P[i]);
        return;
    }
    int r = cl->row;
    zrows_need(s->z, r);
    const mpz_t *a = (const mpz_t *)zrows_coef(s->z, r);
    mpz_mul(s->val, s->qb.D, s->z->b[r]);
    for (int j = 0; j < n; j++)
        if (mpz_sgn(a[j]) != 0)
            mpz_submul(s->val, s->P[j], a[j]);
    if (s->kind[r] == LP_SLACK)
        mpz_submul(s->val, s->P[n], s->z->scale[r]);
    if (cl->sign < 0)
        mpz_neg(s->val, s->val);
}

/* ------------------------------------------------------------ pricing */

/* xd = P / (G D) in doubles; xd_rel their relative error bound, or 0
 * when some value is outside the range where that bound holds. */
static void round_multipliers(simplex *s)
{
    long eD, eP;
    mpz_mul(s->t1, s->qb.D, s->z->G);
    double dD = mpz_get_d_2exp(&eD, s->t1);
    s->xd_rel = 6 * FP_U;
    for (int j = 0; j < s->k; j++) {
        if (mpz_sgn(s->P[j]) == 0) {
            s->xd[j] = 0;
            continue;
        }
        double dP = mpz_get_d_2exp(&eP, s->P[j]);
        long e = eP - eD;
        if (e < -1000 || e > 1000) {
            s->xd_rel = 0;
            return;
        }
        s->xd[j] = ldexp(dP / dD, (int)e);
    }
}

/* Sign of the reduced cost of column c decided in doubles: -1, +1, or 0
 * when the error bound cannot decide; *value gets the slack (row units). */
static int filtered_sign(const simplex *s, int c, double *value)
{
    const column *cl = &s->col[c];
    int n = s->n;
    const double *x = s->xd;
    if (s->xd_rel == 0 || cl->type == COL_ART)
        return 0;
    if (cl->type == COL_W) {
        double v = 1 - x[n], err = 4 * FP_U + s->xd_rel * fabs(x[n]) * 2;
        *value = v;
        return v > err ? 1 : v < -err ? -1 : 0;
    }
    double b;
    int exact;
    const double *a = zrows_row_d(s->z, cl->row, &b, &exact);
    double sum = b, mag = fabs(b), xmag = 1;
    for (int j = 0; j < n; j++) {
        double t = a[j] * x[j];
        sum -= t;
        mag += fabs(t);
        xmag += fabs(x[j]);
    }
    if (s->kind[cl->row] == LP_SLACK) {
        sum -= x[n];
        mag += fabs(x[n]);
    }
    /* rounding of the sum, of x (xd_rel), of the row (2u when not exact),
     * doubled for the rounding of this bound; products that underflow and
     * rows rounded to subnormals lose at most 2^-1074 each */
    double err = ((2.0 * n + 8) * FP_U + s->xd_rel + (exact ? 0 : 4 * FP_U)) * 2 * mag +
                 0x1p-1074 * (n + 4) * xmag;
    if (cl->sign < 0)
        sum = -sum;
    *value = sum;
    if (!isfinite(err) || !isfinite(sum))
        return 0;
    return sum > err ? 1 : sum < -err ? -1 : 0;
}

/* Entering column, or -1 when the basis is optimal. */
static int choose_entering(simplex *s, int bland)
{
    round_multipliers(s);
    int enter = -1, pref = -1, nunc = 0;
    double best = 0, pref_best = 0;
    for (int c = 0; c < s->ncol; c++) {
        if (s->in_basis[c] || s->col[c].type == COL_ART)
            continue;
        double v = 0;
        int sg = filtered_sign(s, c, &v);
        if (sg == 0) {
            if (!bland) {
                s->uncertain[nunc++] = c;
                continue;
            }
            reduced_cost(s, c);
            sg = mpz_sgn(s->val);
        }
        if (sg >= 0)
            continue;
        if (bland)
            return c;
        if (s->prefer && s->prefer[c] && (pref < 0 || v < pref_best)) {
            pref = c;
            pref_best = v;
        }
        if (enter < 0 || v < best) {
            enter = c;
            best = v;
        }
    }
    if (pref >= 0)
        return pref;
    if (enter >= 0)
        return enter;
    for (int t = 0; t < nunc; t++) {
        reduced_cost(s, s->uncertain[t]);
        if (mpz_sgn(s->val) < 0)
            return s->uncertain[t];
    }
    return -1;
}

/* --------------------------------------------------------- ratio test */

/* Leaving position for u = M A_enter; -1 when the column is a ray. */
static int choose_leaving(simplex *s, int bland)
{
    int k = s->k, n = s->n;
    const mpz_t *u = (const mpz_t *)s->qb.u;
    for (int i = 0; i < k; i++) /* an artificial at level 0 leaves first */
        if (s->col[s->basis[i]].type == COL_ART && mpz_sgn(u[i]) != 0)
            return i;
    int leave = -1;
    for (int i = 0; i < k; i++) {
        if (mpz_sgn(u[i]) <= 0)
            continue;
        if (leave < 0) {
            leave = i;
            continue;
        }
        /* level_i / u_i = X_i / U_i (D cancels): compare X_i U_l with X_l U_i */
        mpz_mul(s->val, *qbasis_at(&s->qb, i, n), u[leave]);
        mpz_mul(s->t1, *qbasis_at(&s->qb, leave, n), u[i]);
        int c = mpz_cmp(s->val, s->t1);
        if (c < 0 || (c == 0 && bland && s->basis[i] < s->basis[leave]))
            leave = i;
    }
    return leave;
}

/* Pivot column `enter` into position r (u already computed). */
static void exact_pivot(simplex *s, int enter, int r)
{
    int k = s->k;
    /* P' = (|u_r| P + sign(u_r) dE M_r) / D, with dE = D c_e - P . A_e */
    reduced_cost(s, enter);
    int sg = mpz_sgn(s->qb.u[r]);
    if (sg < 0)
        mpz_neg(s->val, s->val);
    for (int j = 0; j < k; j++) {
        mpz_mul(s->P[j], s->P[j], s->qb.u[r]);
        if (sg < 0)
            mpz_neg(s->P[j], s->P[j]);
        const mpz_t *mrj = (const mpz_t *)qbasis_at(&s->qb, r, j);
        if (mpz_sgn(*mrj) != 0)
            mpz_addmul(s->P[j], s->val, *mrj);
        mpz_divexact(s->P[j], s->P[j], s->qb.D);
    }
    qbasis_pivot(&s->qb, r);
    s->in_basis[s->basis[r]] = 0;
    s->basis[r] = enter;
    s->in_basis[enter] = 1;
}

/* ------------------------------------------------------------ results */

/* y[row] (or w) += scale * num / D for column c. */
static void add_row_multiplier(simplex *s, lp_solution *out, int c, const mpz_t num, mpq_t t)
{
    const column *cl = &s->col[c];
    if (cl->type == COL_ART || mpz_sgn(num) == 0)
        return;
    mpz_set(mpq_numref(t), num);
    mpz_set(mpq_denref(t), s->qb.D);
    if (cl->type == COL_W) {
        mpq_canonicalize(t);
        mpq_add(out->w, out->w, t);
        return;
    }
    /* the column is scale * (a; 1): the original row's multiplier is scale * level */
    mpz_mul(mpq_numref(t), mpq_numref(t), s->z->scale[cl->row]);
    if (cl->sign < 0)
        mpz_neg(mpq_numref(t), mpq_numref(t));
    mpq_canonicalize(t);
    mpq_add(out->y[cl->row], out->y[cl->row], t);
}

static void clear_multipliers(lp_solution *out)
{
    for (int r = 0; r < out->m; r++)
        if (mpq_sgn(out->y[r]) != 0)
            mpq_set_ui(out->y[r], 0, 1);
    mpq_set_ui(out->w, 0, 1);
}

static void set_ratio(mpq_t q, const mpz_t num, const mpz_t den)
{
    mpz_set(mpq_numref(q), num);
    mpz_set(mpq_denref(q), den);
    mpq_canonicalize(q);
}

static void record_optimum(simplex *s, lp_solution *out)
{
    out->status = LP_OPTIMAL;
    mpz_mul(s->t1, s->qb.D, s->z->G); /* pi = P / (G D) */
    for (int j = 0; j < s->n; j++)
        set_ratio(out->x[j], s->P[j], s->t1);
    set_ratio(out->tau, s->P[s->n], s->t1);
    clear_multipliers(out);
    mpq_t t;
    mpq_init(t);
    for (int i = 0; i < s->k; i++)
        add_row_multiplier(s, out, s->basis[i], *qbasis_at(&s->qb, i, s->n), t);
    mpq_clear(t);
}

/* Ray: the entering column at +1, basic columns at -u.  Only equality rows
 * can carry it (slack and w levels are pinned by sum y + w = 1). */
static void record_ray(simplex *s, int enter, lp_solution *out)
{
    out->status = LP_EQ_INCONSISTENT;
    clear_multipliers(out);
    mpq_t t;
    mpq_init(t);
    add_row_multiplier(s, out, enter, s->qb.D, t);
    for (int i = 0; i < s->k; i++) {
        mpz_neg(s->val, s->qb.u[i]);
        add_row_multiplier(s, out, s->basis[i], s->val, t);
    }
    mpq_clear(t);
}

/* ------------------------------------------------------- the proposal */

/* The floating-point simplex on the same LP, from the same start: its
 * last basis in cand (k entries), and (pi not NULL) its point (x, tau) in
 * pi (k doubles).  Returns 0 when that basis is optimal to its
 * tolerances, 1 when it is only the last one reached (still a start), -1
 * out of memory. */
static int propose(simplex *s, int *cand, long *pivots, double *pi)
{
    int n = s->n, k = s->k;
    dlp_col *dc = mem_alloc((size_t)s->ncol, sizeof *dc);
    double *rhs = mem_calloc((size_t)k, sizeof(double));
    if (!dc || !rhs) {
        free(dc);
        free(rhs);
        return -1;
    }
    for (int c = 0; c < s->ncol; c++) {
        const column *cl = &s->col[c];
        dlp_col *d = &dc[c];
        memset(d, 0, sizeof *d);
        d->sign = 1;
        if (cl->type == COL_W) {
            d->unit = n;
            d->cost = 1;
        } else if (cl->type == COL_ART) {
            d->unit = cl->row;
            d->fixed = 1;
        } else {
            double b;
            int exact;
            d->a = zrows_row_d(s->z, cl->row, &b, &exact);
            d->t = s->kind[cl->row] == LP_SLACK;
            d->sign = cl->sign;
            d->cost = cl->sign * b;
        }
    }
    rhs[n] = 1;
    dlp lp = {n, k, s->ncol, dc, rhs};
    start_basis(n, s->ncol, cand);
    dlp_status st = dlp_solve(&lp, cand, pi, pivots, NULL);
    free(dc);
    free(rhs);
    return st == DLP_NOMEM ? -1 : st == DLP_OPTIMAL ? 0 : 1;
}

int lp_float_point(const zrows *z, const unsigned char *kind, double *pi, unsigned char *basis_rows)
{
    simplex s;
    long pivots = 0;
    int rc = simplex_init(&s, z, kind) == 0 ? 0 : -1;
    int *cand = rc == 0 ? mem_alloc((size_t)s.k, sizeof(int)) : NULL;
    rc = cand && propose(&s, cand, &pivots, pi) == 0 ? 0 : -1;
    for (int i = 0; rc == 0 && i < s.k; i++)
        if (s.col[cand[i]].type == COL_ROW)
            basis_rows[s.col[cand[i]].row] = 1;
    free(cand);
    simplex_free(&s);
    return rc;
}

/* Pivot the proposed columns into the exact start.  Returns 1 when the
 * basis reached is feasible, 0 when not (the caller restarts). */
static int crash(simplex *s, const int *cand)
{
    int k = s->k, n = s->n;
    unsigned char *want = mem_calloc((size_t)s->ncol, 1);
    if (!want)
        return 0;
    for (int i = 0; i < k; i++)
        want[cand[i]] = 1;
    for (int t = 0; t < k; t++) {
        int c = cand[t];
        if (s->in_basis[c])
            continue;
        ftran(s, c);
        int r = -1;
        for (int i = 0; i < k && r < 0; i++)
            if (!want[s->basis[i]] && mpz_sgn(s->qb.u[i]) != 0)
                r = i;
        if (r < 0)
            continue; /* dependent on the columns already in: skip */
        qbasis_pivot(&s->qb, r);
        s->in_basis[s->basis[r]] = 0;
        s->basis[r] = c;
        s->in_basis[c] = 1;
    }
    free(want);
    for (int i = 0; i < k; i++) {
        int sg = mpz_sgn(*qbasis_at(&s->qb, i, n));
        if (sg < 0 || (sg > 0 && s->col[s->basis[i]].type == COL_ART))
            return 0;
    }
    return 1;
}

/* --------------------------------------------------------------- main */

#define LP_PIVOT_LIMIT 10000000L

static int iterate(simplex *s, lp_solution *out)
{
    int k = s->k, bland = 0, degenerate_run = 0;
    for (out->exact_pivots = 0; out->exact_pivots < LP_PIVOT_LIMIT; out->exact_pivots++) {
        int enter = choose_entering(s, bland);
        if (enter < 0) {
            record_optimum(s, out);
            return 0;
        }
        ftran(s, enter);
        int leave = choose_leaving(s, bland);
        if (leave < 0) {
            record_ray(s, enter, out);
            return 0;
        }
        degenerate_run = mpz_sgn(*qbasis_at(&s->qb, leave, s->n)) == 0 ? degenerate_run + 1 : 0;
        if (degenerate_run > 4 * k)
            bland = 1; /* for good: Bland's rule terminates from any basis */
        exact_pivot(s, enter, leave);
    }
    return -2;
}

int lp_solve_start(const zrows *z, const unsigned char *kind, lp_start start, const int *given,
                   lp_solution *out)
{
    simplex s;
    int rc = simplex_init(&s, z, kind) == 0 ? 0 : -1;
    int *cand = rc == 0 ? mem_alloc((size_t)s.k, sizeof(int)) : NULL;
    int *first = rc == 0 ? mem_alloc((size_t)s.k, sizeof(int)) : NULL;
    long float_pivots = 0;
    unsigned char *prefer = NULL;
    out->proposed = out->repaired = 0;
    out->exact_pivots = 0;
    if (!cand || !first)
        rc = -1;
    if (rc == 0 && start == LP_START_FLOAT && propose(&s, cand, &float_pivots, NULL) < 0)
        rc = -1;
    if (rc == 0 && start == LP_START_GIVEN) {
        for (int i = 0; i < s.k; i++)
            cand[i] = given[i] >= 0 && given[i] < s.ncol ? given[i] : s.ncol - 1;
    }
    if (rc == 0) {
        start_basis(s.n, s.ncol, first);
        set_basis(&s, first);
        qbasis_identity(&s.qb);
        if (start != LP_START_COLD) {
            out->proposed = 1;
            if (!crash(&s, cand)) {
                out->repaired = 1;
                set_basis(&s, first);
                qbasis_identity(&s.qb);
                prefer = mem_calloc((size_t)s.ncol, 1);
                for (int i = 0; prefer && i < s.k; i++)
                    prefer[cand[i]] = 1;
                s.prefer = prefer;
            }
        }
        compute_p(&s);
        rc = iterate(&s, out);
        if (out->proposed && out->exact_pivots > 0)
            out->repaired = 1;
    }
    out->pivots = float_pivots + out->exact_pivots;
    free(prefer);
    free(cand);
    free(first);
    simplex_free(&s);
    return rc;
}

int lp_solve(const zrows *z, const unsigned char *kind, lp_solution *out)
{
    return lp_solve_start(z, kind, LP_START_FLOAT, NULL, out);
}
