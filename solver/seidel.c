/* seidel.c -- Seidel's randomized incremental LP as seed 002's recursion
 * (see seidel.h).  Level 0 reads the caller's rows in place; level L >= 1
 * holds the rows of its parent projected onto the hyperplane of the row
 * that became an equality, one variable fewer.  The box stays axis-aligned
 * on the surviving variables; the two box bounds of an eliminated variable
 * become ordinary projected rows of the child. */
#include "solver/seidel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A 1-D coefficient this small relative to its row is treated as zero. */
#define PARALLEL_TOL 1e-13

typedef struct level {
    int k;                                     /* free variables */
    int var[SEIDEL_MAX_DIM];                   /* their original indices */
    double lo[SEIDEL_MAX_DIM], hi[SEIDEL_MAX_DIM];
    double obj[SEIDEL_MAX_DIM][SEIDEL_MAX_DIM]; /* obj[t][j] */
    int count;                                  /* projected rows (L >= 1) */
    double *coef;                               /* cap * D */
    double *rhs, *scale;
    int *id;
    /* the equality that produced the child: coefficients, rhs, pivot */
    double eq[SEIDEL_MAX_DIM];
    double eq_rhs;
    int eq_pivot;
} level;

struct seidel_work {
    int n_cap, m_cap;
    level lv[SEIDEL_MAX_DIM];
    const seidel_problem *p;
    int D;
    long recursions;
    double row_buf[SEIDEL_MAX_DIM];
};

/* The levels' fixed arrays (about 45 KB in all) are written by a solve
 * before it reads them, so only the sizes and pointers are cleared: a
 * workspace made per query costs no pass over its memory. */
seidel_work *seidel_work_new(void)
{
    seidel_work *w = malloc(sizeof *w);
    if (!w)
        return NULL;
    w->n_cap = w->m_cap = 0;
    for (int L = 0; L < SEIDEL_MAX_DIM; L++) {
        level *v = &w->lv[L];
        v->k = v->count = 0;
        v->coef = v->rhs = v->scale = NULL;
        v->id = NULL;
        v->eq_rhs = 0;
        v->eq_pivot = -1;
    }
    w->p = NULL;
    w->D = 0;
    w->recursions = 0;
    return w;
}

static void free_levels(seidel_work *w)
{
    for (int L = 0; L < SEIDEL_MAX_DIM; L++) {
        free(w->lv[L].coef);
        free(w->lv[L].rhs);
        free(w->lv[L].scale);
        free(w->lv[L].id);
        w->lv[L].coef = w->lv[L].rhs = w->lv[L].scale = NULL;
        w->lv[L].id = NULL;
    }
}

void seidel_work_free(seidel_work *w)
{
    if (!w)
        return;
    free_levels(w);
    free(w);
}

int seidel_reserve(seidel_work *w, int n, int m)
{
    if (n + 1 > SEIDEL_MAX_DIM || n < 1 || m < 0)
        return -1;
    if (n <= w->n_cap && m <= w->m_cap)
        return 0;
    int nn = n > w->n_cap ? n : w->n_cap;
    int mm = m > w->m_cap ? m : w->m_cap;
    free_levels(w);
    size_t D = (size_t)nn + 1, cap = (size_t)mm + 2 * D;
    for (size_t L = 1; L < D; L++) {
        level *v = &w->lv[L];
        v->coef = malloc(sizeof(double) * cap * D);
        v->rhs = malloc(sizeof(double) * cap);
        v->scale = malloc(sizeof(double) * cap);
        v->id = malloc(sizeof(int) * cap);
        if (!v->coef || !v->rhs || !v->scale || !v->id) {
            free_levels(w);
            w->n_cap = w->m_cap = 0;
            return -1;
        }
    }
    w->n_cap = nn;
    w->m_cap = mm;
    return 0;
}

size_t seidel_work_bytes(const seidel_work *w)
{
    size_t D = (size_t)w->n_cap + 1, cap = (size_t)w->m_cap + 2 * D;
    return sizeof *w + (D - 1) * cap * (D * sizeof(double) + 2 * sizeof(double) + sizeof(int));
}

/* ---------------------------------------------------------- helpers */

static int violated(const double *c, const double *y, double h, int k)
{
    double v = -h, mag = fabs(h);
    for (int j = 0; j < k; j++) {
        double t = c[j] * y[j];
        v += t;
        mag += fabs(t);
    }
    return v > SEIDEL_VIOLATION_TOL * mag;
}

static int all_finite(const double *v, int k)
{
    for (int j = 0; j < k; j++)
        if (!isfinite(v[j]))
            return 0;
    return 1;
}

/* Direction (+1 / -1) in which the lexicographic objective pushes free
 * variable j of a level: the sign of the first nonzero objective entry. */
static int push_direction(const seidel_work *w, const level *v, int j)
{
    for (int t = 0; t < w->D; t++)
        if (v->obj[t][j] != 0)
            return v->obj[t][j] > 0 ? 1 : -1;
    return 1;
}

/* Start of a level: the box vertex that is optimal for the objective. */
static void box_vertex(const seidel_work *w, const level *v, double *y, int *basis)
{
    for (int j = 0; j < v->k; j++) {
        int up = push_direction(w, v, j) > 0;
        y[j] = up ? v->hi[j] : v->lo[j];
        basis[j] = SEIDEL_BOX_ID(v->var[j], up);
    }
}

/* Row i of a level: level 0 reads the caller's row in place. */
static const double *level_row(seidel_work *w, int L, int i, double *rhs, int *id, double *scale)
{
    if (L > 0) {
        const level *v = &w->lv[L];
        *rhs = v->rhs[i];
        *id = v->id[i];
        *scale = v->scale[i];
        return v->coef + (size_t)i * (size_t)w->D;
    }
    const seidel_problem *p = w->p;
    int r = p->order[i], k = r >= p->bank[0].m, ri = k ? r - p->bank[0].m : r;
    const seidel_bank *bk = &p->bank[k];
    const double *a = bk->a + (size_t)ri * (size_t)p->n;
    double wt = bk->w ? bk->w[ri] : 0, s = fabs(wt);
    memcpy(w->row_buf, a, sizeof(double) * (size_t)p->n);
    w->row_buf[p->n] = wt;
    if (!(s > 0)) /* the tau coefficient, a norm, bounds every entry; else scan */
        for (int j = 0; j < p->n; j++)
            if (fabs(a[j]) > s)
                s = fabs(a[j]);
    *rhs = bk->b[ri];
    *id = r;
    *scale = s;
    return w->row_buf;
}

static int level_count(const seidel_work *w, int L)
{
    return L == 0 ? w->p->m : w->lv[L].count;
}

/* ------------------------------------------------------- projection */

/* The pivot: the variable with the largest |coefficient| (last on ties),
 * as seed 002 restricts a system to a face. */
static int choose_pivot(const double *c, int k)
{
    int p = 0;
    for (int j = 1; j < k; j++)
        if (fabs(c[j]) >= fabs(c[p]))
            p = j;
    return p;
}

/* Append row (d, g) of the parent projected through the equality. */
static void push_projected(seidel_work *w, const level *par, level *ch, const double *d, double g,
                           int id, double scale)
{
    int p = par->eq_pivot, k = par->k;
    double f = d[p] / par->eq[p];
    double *out = ch->coef + (size_t)ch->count * (size_t)w->D;
    for (int j = 0, q = 0; j < k; j++)
        if (j != p)
            out[q++] = d[j] - f * par->eq[j];
    ch->rhs[ch->count] = g - f * par->eq_rhs;
    ch->scale[ch->count] = scale;
    ch->id[ch->count] = id;
    ch->count++;
}

/* Child level of L for the equality (c, h) over rows 0..i-1 of L. */
static void build_child(seidel_work *w, int L, const double *c, double h, int i)
{
    level *par = &w->lv[L], *ch = &w->lv[L + 1];
    int k = par->k, p = choose_pivot(c, k);
    memcpy(par->eq, c, sizeof(double) * (size_t)k);
    par->eq_rhs = h;
    par->eq_pivot = p;
    ch->k = k - 1;
    for (int j = 0, q = 0; j < k; j++) {
        if (j == p)
            continue;
        ch->var[q] = par->var[j];
        ch->lo[q] = par->lo[j];
        ch->hi[q] = par->hi[j];
        q++;
    }
    for (int t = 0; t < w->D; t++) {
        double f = par->obj[t][p] / c[p];
        for (int j = 0, q = 0; j < k; j++)
            if (j != p)
                ch->obj[t][q++] = par->obj[t][j] - f * c[j];
    }
    ch->count = 0;
    double unit[SEIDEL_MAX_DIM] = {0};
    unit[p] = 1; /* z_p <= hi_p */
    push_projected(w, par, ch, unit, par->hi[p], SEIDEL_BOX_ID(par->var[p], 1), 1.0);
    unit[p] = -1; /* -z_p <= -lo_p */
    push_projected(w, par, ch, unit, -par->lo[p], SEIDEL_BOX_ID(par->var[p], 0), 1.0);
    for (int r = 0; r < i; r++) {
        double g, s;
        int id;
        const double *d = level_row(w, L, r, &g, &id, &s);
        push_projected(w, par, ch, d, g, id, s);
    }
}

/* Parent point from the child's: the pivot variable from the equality. */
static void lift(const level *par, const double *yc, double *y)
{
    int p = par->eq_pivot;
    double acc = par->eq_rhs;
    for (int j = 0, q = 0; j < par->k; j++) {
        if (j == p)
            continue;
        y[j] = yc[q++];
        acc -= par->eq[j] * y[j];
    }
    y[p] = acc / par->eq[p];
}

/* ------------------------------------------------------------ solving */

/* One variable: the interval cut out by the box and every row. */
static seidel_status solve_1d(seidel_work *w, int L, double *y, int *basis)
{
    const level *v = &w->lv[L];
    double lo = v->lo[0], hi = v->hi[0];
    int lo_id = SEIDEL_BOX_ID(v->var[0], 0), hi_id = SEIDEL_BOX_ID(v->var[0], 1);
    for (int i = 0; i < v->count; i++) {
        double c = v->coef[(size_t)i * (size_t)w->D], h = v->rhs[i], s = v->scale[i];
        if (fabs(c) <= PARALLEL_TOL * s) {
            if (h < -SEIDEL_VIOLATION_TOL * s * (1 + fabs(lo) + fabs(hi))) {
                basis[0] = v->id[i];
                return SEIDEL_INFEASIBLE;
            }
            continue;
        }
        double bound = h / c;
        if (!isfinite(bound))
            continue; /* a coefficient near zero: as good as parallel */
        if (c > 0 && bound < hi) {
            hi = bound;
            hi_id = v->id[i];
        } else if (c < 0 && bound > lo) {
            lo = bound;
            lo_id = v->id[i];
        }
    }
    if (lo > hi + SEIDEL_VIOLATION_TOL * (fabs(lo) + fabs(hi))) {
        basis[0] = lo_id;
        basis[1] = hi_id;
        return SEIDEL_INFEASIBLE;
    }
    int up = push_direction(w, v, 0) > 0;
    y[0] = up ? (hi > lo ? hi : lo) : (lo < hi ? lo : hi);
    basis[0] = up ? hi_id : lo_id;
    return SEIDEL_OPTIMAL;
}

/* The row at position i of the order goes first; the loop over the order
 * is at i, and positions 0..i hold the same rows afterwards. */
static void move_to_front(int *order, int i)
{
    int r = order[i];
    memmove(order + 1, order, sizeof(int) * (size_t)i);
    order[0] = r;
}

static seidel_status solve_level(seidel_work *w, int L, double *y, int *basis);

/* The top level with one row made an equality first: the child holds
 * every row (the forced one projects to 0 <= 0). */
static seidel_status solve_forced(seidel_work *w, double *y, int *basis)
{
    level *v = &w->lv[0];
    const seidel_problem *p = w->p;
    int at = 0;
    while (at < p->m && p->order[at] != p->forced)
        at++;
    if (at == p->m) /* the caller must list the forced row among the rows */
        return SEIDEL_NUMERIC;
    double h, s, eq[SEIDEL_MAX_DIM], yc[SEIDEL_MAX_DIM];
    int id;
    memcpy(eq, level_row(w, 0, at, &h, &id, &s), sizeof(double) * (size_t)v->k);
    w->recursions++;
    build_child(w, 0, eq, h, p->m);
    seidel_status st = solve_level(w, 1, yc, basis + 1);
    basis[0] = id;
    if (st != SEIDEL_OPTIMAL)
        return st;
    lift(v, yc, y);
    if (!all_finite(y, v->k))
        return SEIDEL_NUMERIC;
    if (p->hook && p->hook(p->hook_user, y, basis))
        return SEIDEL_STOPPED;
    return SEIDEL_OPTIMAL;
}

static seidel_status solve_level(seidel_work *w, int L, double *y, int *basis)
{
    level *v = &w->lv[L];
    if (v->k == 1)
        return solve_1d(w, L, y, basis);
    if (L == 0 && w->p->forced >= 0)
        return solve_forced(w, y, basis);
    box_vertex(w, v, y, basis);
    int count = level_count(w, L);
    double yc[SEIDEL_MAX_DIM];
    for (int i = 0; i < count; i++) {
        double h, s;
        int id;
        const double *c = level_row(w, L, i, &h, &id, &s);
        if (!violated(c, y, h, v->k))
            continue;
        w->recursions++;
        double eq[SEIDEL_MAX_DIM];
        memcpy(eq, c, sizeof(double) * (size_t)v->k); /* c may be row_buf */
        build_child(w, L, eq, h, i);
        seidel_status st = solve_level(w, L + 1, yc, basis + 1);
        basis[0] = id;
        if (st != SEIDEL_OPTIMAL)
            return st;
        lift(v, yc, y);
        if (!all_finite(y, v->k))
            return SEIDEL_NUMERIC;
        if (L == 0) {
            move_to_front(w->p->order, i);
            if (w->p->hook && w->p->hook(w->p->hook_user, y, basis))
                return SEIDEL_STOPPED;
        }
    }
    return SEIDEL_OPTIMAL;
}

seidel_status seidel_solve(seidel_work *w, const seidel_problem *p, double *z, int *basis,
                           long *recursions)
{
    if (seidel_reserve(w, p->n, p->m) != 0)
        return SEIDEL_NOMEM;
    w->p = p;
    w->D = p->n + 1;
    w->recursions = 0;
    level *top = &w->lv[0];
    top->k = w->D;
    for (int j = 0; j < w->D; j++) {
        top->var[j] = j;
        top->lo[j] = p->lo[j];
        top->hi[j] = p->hi[j];
        for (int t = 0; t < w->D; t++) /* default: c_1 = e_tau, then e_x1 .. e_xn */
            top->obj[t][j] = p->obj ? p->obj[t * w->D + j]
                                    : (t == 0) ? (j == p->n) : (j == t - 1);
    }
    seidel_status st = solve_level(w, 0, z, basis);
    if (recursions)
        *recursions = w->recursions;
    return st;
}
