/* simplex_q.c -- revised simplex on the dual of the slack LP (simplex_q.h).
 *
 * The dual has k = n+1 equality rows, so a basis is k columns.  Each
 * iteration rebuilds the k*k basis matrix and solves it exactly
 * (qmatrix.c); pricing runs over every column with integers only, using
 * the integer-scaled rows of rows_z.c.  Columns: one per slack row, two per
 * equality row (y = y+ - y-), one for w, and n artificial unit columns that
 * start in the basis at level 0 and are never allowed back in.  Entering
 * column: the most violated primal row (Dantzig on the row-normalised
 * reduced cost); after a run of degenerate pivots the rule switches for
 * good to Bland's smallest-index rule, which cannot cycle. */
#include "solver/simplex_q.h"

#include <stdlib.h>
#include <string.h>

#include "solver/qmatrix.h"
#include "polytope/error.h"
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
    int *basis;      /* k column indices */
    char *in_basis;  /* ncol flags */
    mpq_t *bmat;     /* k*k, row-major, column i = A_{basis[i]} */
    mpq_t *cb, *pi, *u, *xb, *rhs, *acol;
    mpz_t *pz;       /* pi scaled to integers */
    mpz_t dz, val, best, t1, t2;
    mpq_t q1, q2;
    qmatrix_work qw;
} simplex;

int lp_solution_init(lp_solution *s, int n, int m)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->m = m;
    s->x = mem_alloc((size_t)n, sizeof(mpq_t));
    s->y = mem_alloc((size_t)m, sizeof(mpq_t));
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

static mpq_t *new_qvec(int k)
{
    mpq_t *v = mem_alloc((size_t)k, sizeof(mpq_t));
    if (v)
        for (int i = 0; i < k; i++)
            mpq_init(v[i]);
    return v;
}

static void free_qvec(mpq_t *v, int k)
{
    if (!v)
        return;
    for (int i = 0; i < k; i++)
        mpq_clear(v[i]);
    free(v);
}

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
    free_qvec(s->bmat, s->k * s->k);
    free_qvec(s->cb, s->k);
    free_qvec(s->pi, s->k);
    free_qvec(s->u, s->k);
    free_qvec(s->xb, s->k);
    free_qvec(s->rhs, s->k);
    free_qvec(s->acol, s->k);
    if (s->pz) {
        for (int i = 0; i < s->k; i++)
            mpz_clear(s->pz[i]);
        free(s->pz);
    }
    mpz_clears(s->dz, s->val, s->best, s->t1, s->t2, NULL);
    mpq_clears(s->q1, s->q2, NULL);
    qmatrix_work_free(&s->qw);
}

static int simplex_init(simplex *s, const zrows *z, const unsigned char *kind)
{
    memset(s, 0, sizeof *s);
    s->z = z;
    s->kind = kind;
    s->n = z->n;
    s->k = z->n + 1;
    int k = s->k;
    mpz_inits(s->dz, s->val, s->best, s->t1, s->t2, NULL);
    mpq_inits(s->q1, s->q2, NULL);
    if (build_columns(s) != 0 || qmatrix_work_init(&s->qw, k) != 0)
        return -1;
    s->basis = mem_alloc((size_t)k, sizeof *s->basis);
    s->in_basis = mem_calloc((size_t)s->ncol, 1);
    s->bmat = new_qvec(k * k);
    s->cb = new_qvec(k);
    s->pi = new_qvec(k);
    s->u = new_qvec(k);
    s->xb = new_qvec(k);
    s->rhs = new_qvec(k);
    s->acol = new_qvec(k);
    s->pz = mem_alloc((size_t)k, sizeof(mpz_t));
    if (s->pz)
        for (int i = 0; i < k; i++)
            mpz_init(s->pz[i]);
    if (!s->basis || !s->in_basis || !s->bmat || !s->cb || !s->pi || !s->u || !s->xb ||
        !s->rhs || !s->acol || !s->pz)
        return -1;
    mpq_set_ui(s->rhs[k - 1], 1, 1);
    /* start: the artificial columns for the n rows sum y a = 0, w for the last */
    for (int i = 0; i < s->n; i++)
        s->basis[i] = s->ncol - s->n + i;
    s->basis[s->n] = s->ncol - s->n - 1;
    for (int i = 0; i < k; i++)
        s->in_basis[s->basis[i]] = 1;
    return 0;
}

/* ------------------------------------------------------ column access */

/* Entry i of column c (dual constraint matrix) into q. */
static void column_entry(const simplex *s, int c, int i, mpq_t q)
{
    const column *cl = &s->col[c];
    switch (cl->type) {
    case COL_W: mpq_set_ui(q, i == s->n ? 1 : 0, 1); return;
    case COL_ART: mpq_set_ui(q, i == cl->row ? 1 : 0, 1); return;
    case COL_ROW: break;
    }
    if (i == s->n) {
        if (s->kind[cl->row] == LP_SLACK)
            mpq_set_z(q, s->z->scale[cl->row]);
        else
            mpq_set_ui(q, 0, 1);
        return;
    }
    mpq_set_z(q, zrows_coef(s->z, cl->row)[i]);
    if (cl->sign < 0)
        mpq_neg(q, q);
}

static void column_cost(const simplex *s, int c, mpq_t q)
{
    const column *cl = &s->col[c];
    if (cl->type == COL_W)
        mpq_set_ui(q, 1, 1);
    else if (cl->type == COL_ART)
        mpq_set_ui(q, 0, 1);
    else {
        mpq_set_z(q, s->z->b[cl->row]);
        if (cl->sign < 0)
            mpq_neg(q, q);
    }
}

static void load_basis(simplex *s)
{
    int k = s->k;
    for (int i = 0; i < k; i++) {
        for (int r = 0; r < k; r++)
            column_entry(s, s->basis[i], r, s->bmat[r * k + i]);
        column_cost(s, s->basis[i], s->cb[i]);
    }
}

/* ------------------------------------------------------------ pricing */

/* pi = P / D with integer P and D > 0. */
static void scale_pi(simplex *s)
{
    mpz_set_ui(s->dz, 1);
    for (int i = 0; i < s->k; i++)
        mpz_lcm(s->dz, s->dz, mpq_denref(s->pi[i]));
    for (int i = 0; i < s->k; i++) {
        mpz_divexact(s->pz[i], s->dz, mpq_denref(s->pi[i]));
        mpz_mul(s->pz[i], s->pz[i], mpq_numref(s->pi[i]));
    }
}

/* D * (reduced cost of column c) into s->val.  Returns the positive factor
 * that normalises it to D * (slack of the primal row), i.e. the row's
 * scale, or NULL for the factor 1 (column w). */
static const mpz_t *reduced_cost(simplex *s, int c)
{
    const column *cl = &s->col[c];
    int n = s->n;
    if (cl->type == COL_W) {
        mpz_sub(s->val, s->dz, s->pz[n]); /* D*1 - P_tau */
        return NULL;
    }
    int r = cl->row;
    const mpz_t *a = (const mpz_t *)zrows_coef(s->z, r);
    mpz_mul(s->val, s->dz, s->z->b[r]);
    for (int j = 0; j < n; j++)
        mpz_submul(s->val, s->pz[j], a[j]);
    if (s->kind[r] == LP_SLACK)
        mpz_submul(s->val, s->pz[n], s->z->scale[r]);
    if (cl->sign < 0)
        mpz_neg(s->val, s->val);
    return (const mpz_t *)&s->z->scale[r];
}

/* Is val/norm more negative than best/best_norm?  Norms are positive. */
static int simplex_better(simplex *s, const mpz_t *norm, const mpz_t *best_norm)
{
    if (norm)
        mpz_set(s->t1, *norm);
    else
        mpz_set_ui(s->t1, 1);
    if (best_norm)
        mpz_mul(s->t2, s->val, *best_norm);
    else
        mpz_set(s->t2, s->val);
    mpz_mul(s->t1, s->best, s->t1);
    return mpz_cmp(s->t2, s->t1) < 0;
}

/* Entering column, or -1 when the basis is optimal. */
static int choose_entering(simplex *s, int bland)
{
    scale_pi(s);
    int enter = -1;
    const mpz_t *enter_norm = NULL;
    for (int c = 0; c < s->ncol; c++) {
        if (s->in_basis[c] || s->col[c].type == COL_ART)
            continue;
        const mpz_t *norm = reduced_cost(s, c);
        if (mpz_sgn(s->val) >= 0)
            continue;
        if (bland)
            return c;
        if (enter < 0 || simplex_better(s, norm, enter_norm)) {
            enter = c;
            enter_norm = norm;
            mpz_set(s->best, s->val);
        }
    }
    return enter;
}

/* --------------------------------------------------------- ratio test */

/* Leaving position in the basis; -1 when the column is an unbounded ray. */
static int choose_leaving(simplex *s, int bland)
{
    int k = s->k;
    for (int i = 0; i < k; i++) /* an artificial at level 0 leaves first */
        if (s->col[s->basis[i]].type == COL_ART && mpq_sgn(s->u[i]) != 0)
            return i;
    int leave = -1;
    for (int i = 0; i < k; i++) {
        if (mpq_sgn(s->u[i]) <= 0)
            continue;
        mpq_div(s->q1, s->xb[i], s->u[i]);
        int c = leave < 0 ? -1 : mpq_cmp(s->q1, s->q2);
        if (leave < 0 || c < 0 || (c == 0 && bland && s->basis[i] < s->basis[leave])) {
            leave = i;
            mpq_set(s->q2, s->q1);
        }
    }
    return leave;
}

/* ------------------------------------------------------------ results */

static void add_row_multiplier(const simplex *s, lp_solution *out, int c, const mpq_t level)
{
    const column *cl = &s->col[c];
    if (cl->type == COL_W) {
        mpq_add(out->w, out->w, level);
        return;
    }
    if (cl->type != COL_ROW)
        return;
    mpq_t t;
    mpq_init(t);
    /* the column is scale * (a; 1): the original row's multiplier is scale * level */
    mpq_set_z(t, s->z->scale[cl->row]);
    mpq_mul(t, t, level);
    if (cl->sign < 0)
        mpq_neg(t, t);
    mpq_add(out->y[cl->row], out->y[cl->row], t);
    mpq_clear(t);
}

static void clear_multipliers(lp_solution *out)
{
    for (int r = 0; r < out->m; r++)
        mpq_set_ui(out->y[r], 0, 1);
    mpq_set_ui(out->w, 0, 1);
}

static void record_optimum(const simplex *s, lp_solution *out)
{
    out->status = LP_OPTIMAL;
    for (int j = 0; j < s->n; j++)
        mpq_set(out->x[j], s->pi[j]);
    mpq_set(out->tau, s->pi[s->n]);
    clear_multipliers(out);
    for (int i = 0; i < s->k; i++)
        add_row_multiplier(s, out, s->basis[i], s->xb[i]);
}

/* Ray: the entering column at +1, basic columns at -u.  Only equality rows
 * can carry it (slack and w levels are pinned by sum y + w = 1). */
static void record_ray(const simplex *s, int enter, lp_solution *out)
{
    out->status = LP_EQ_INCONSISTENT;
    clear_multipliers(out);
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    add_row_multiplier(s, out, enter, one);
    for (int i = 0; i < s->k; i++) {
        mpq_neg(one, s->u[i]);
        add_row_multiplier(s, out, s->basis[i], one);
    }
    mpq_clear(one);
}

/* --------------------------------------------------------------- main */

#define LP_PIVOT_LIMIT 10000000L

static int iterate(simplex *s, lp_solution *out)
{
    int k = s->k, bland = 0, degenerate_run = 0;
    for (out->pivots = 0; out->pivots < LP_PIVOT_LIMIT; out->pivots++) {
        load_basis(s);
        if (qmatrix_solve(&s->qw, k, s->bmat, s->cb, s->pi, 1) != 0 ||
            qmatrix_solve(&s->qw, k, s->bmat, s->rhs, s->xb, 0) != 0)
            return -2;
        int enter = choose_entering(s, bland);
        if (enter < 0) {
            record_optimum(s, out);
            return 0;
        }
        for (int i = 0; i < k; i++)
            column_entry(s, enter, i, s->acol[i]);
        if (qmatrix_solve(&s->qw, k, s->bmat, s->acol, s->u, 0) != 0)
            return -2;
        int leave = choose_leaving(s, bland);
        if (leave < 0) {
            record_ray(s, enter, out);
            return 0;
        }
        degenerate_run = mpq_sgn(s->xb[leave]) == 0 ? degenerate_run + 1 : 0;
        if (degenerate_run > 4 * k)
            bland = 1; /* for good: Bland's rule terminates from any basis */
        s->in_basis[s->basis[leave]] = 0;
        s->basis[leave] = enter;
        s->in_basis[enter] = 1;
    }
    return -2;
}

int lp_solve(const zrows *z, const unsigned char *kind, lp_solution *out)
{
    simplex s;
    int rc = simplex_init(&s, z, kind);
    if (rc == 0)
        rc = iterate(&s, out);
    else
        rc = -1;
    simplex_free(&s);
    return rc;
}
