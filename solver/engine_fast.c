/* engine_fast.c -- the fast engine (see fast.h).
 *
 * A query for A and B, in the order of seed 002's intersection routine:
 *  Step 3.  s and t are the certified interior points of A and B, computed
 *     once per polyhedron (fast_prep.c).
 *  Steps 6-7, the candidates.  The faces of A whose normals point along
 *     d = t - s, and those of B pointing along -d, strongest first, come
 *     from each polyhedron's direction map without reading every row.
 *  Step 5.  If s is strictly inside B, or t strictly inside A, the answer
 *     is overlap at once.  A candidate row that the point violates settles
 *     the question without reading the others.
 *  The segment.  On p(l) = s + l d, a row of A is left where it becomes
 *     tight; B is entered where its last violated row becomes satisfied.
 *     If the segment leaves A only after entering B, the middle of the two
 *     is inside both: certified row by row, that is overlap.
 *  The LP.  Otherwise Seidel's randomized incremental LP (seidel.c), the
 *     seed's recursion (a violated row becomes an equality, a variable is
 *     eliminated), maximises the margin tau subject to a.x + |a| tau <= b:
 *     tau* > 0 overlap, tau* < 0 disjoint, tau* = 0 contact.  It runs
 *     first on the candidate rows; the others are scanned for violations
 *     and the worst join, until none is violated (Clarkson's rounds).
 *  Certification.  Each time the optimum moves to tau < 0, its D = n + 1
 *     tight rows are tested as a Farkas certificate by the signs of D + 2
 *     small determinants: Cramer's rule for y in G y = e_tau (y >= 0,
 *     exactly 0 on box bounds) and for the tau of the basis vertex (< 0).
 *     Then the answer is disjoint, without reading the remaining rows.  A
 *     final optimum with tau > 0 is overlap once every row is certified
 *     strict at its point.
 *  Anything else (contact, or a filter that cannot decide) goes to the
 *  exact engine, counted by hs_result_fallback. */
#include "solver/fast.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/engines.h"
#include "solver/fast_lp.h"
#include "solver/fast_prep.h"
#include "solver/fast_touch.h"
#include "solver/fast_work.h"
#include "polytope/rng.h"
#include "polytope/fp.h"
#include "polytope/predicates.h"
#include "solver/result.h"
#include "solver/seidel.h"
#include "polytope/error.h"


typedef struct fast_query {
    fast_work *fw;
    const fast_view *V[2];
    const fast_prep *F[2];
    int n, mA, M;
    seidel_bank bank[2];
    double d[SEIDEL_MAX_DIM];              /* t - s */
    const int *cand[2];                    /* candidate rows of A (along d), B (along -d) */
    int ncand[2];
    double lA, lB;                         /* the segment leaves A at lA, enters B at lB */
    int exit_row;                          /* row of A (stacked id) where it leaves A, or -1 */
    double lo[SEIDEL_MAX_DIM], hi[SEIDEL_MAX_DIM];
    hs_result *r;
    const hs_options *opt;
    int certified;
    const fast_hint *stale; /* a disjoint hint that no longer certifies: its rows
                               start the LP's candidate set */
    int last_basis[SEIDEL_MAX_DIM + 1]; /* the basis of the last optimum found */
    int have_basis;
} fast_query;

/* ------------------------------------------------------------ workspace */

static int fast_work_grow(fast_work *w, int m)
{
    int *order = realloc(w->order, sizeof(int) * (size_t)m);
    if (order)
        w->order = order;
    unsigned char *in_set = realloc(w->in_set, (size_t)m);
    if (in_set) {
        memset(in_set + w->cap_m, 0, (size_t)(m - w->cap_m));
        w->in_set = in_set;
    }
    if (!order || !in_set)
        return -1;
    w->cap_m = m;
    return 0;
}

static fast_work *work_for(hs_result *r, int n, int m)
{
    fast_work *w = r->fast;
    if (!w) {
        w = calloc(1, sizeof *w);
        if (!w || !(w->sw = seidel_work_new())) {
            free(w);
            return NULL;
        }
        w->rng = 0x9e3779b97f4a7c15ULL;
        r->fast = w;
    }
    if (m > w->cap_m && fast_work_grow(w, m) != 0)
        return NULL;
    if (seidel_reserve(w->sw, n, m) != 0 || result_lazy_reserve(r, n) != 0)
        return NULL;
    return w;
}

/* ---------------------------------------------------------- row access */

/* Stacked row id: A's rows first, then B's. */
static int poly_of(const fast_query *q, int id) { return id >= q->mA; }
static int index_in(const fast_query *q, int id) { return id >= q->mA ? id - q->mA : id; }

static const double *view_row(const fast_view *v, int n, int i)
{
    return v->a + (size_t)i * (size_t)n;
}

static const double *row_a(const fast_query *q, int id)
{
    return view_row(q->V[poly_of(q, id)], q->n, index_in(q, id));
}

static double row_b(const fast_query *q, int id)
{
    return q->V[poly_of(q, id)]->b[index_in(q, id)];
}

/* ---------------------------------------------------------------- trace */

static void trace(const fast_query *q, const char *fmt, ...) ERR_PRINTF(2, 3);
static void trace(const fast_query *q, const char *fmt, ...)
{
    if (!q->opt || !q->opt->trace)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    q->opt->trace(q->opt->trace_user, line);
}

static void trace_basis(const fast_query *q, const char *before, const int *basis)
{
    if (!q->opt || !q->opt->trace)
        return;
    char list[256];
    size_t used = 0;
    for (int c = 0; c <= q->n && used < sizeof list; c++) {
        int id = basis[c];
        int k = id >= 0 ? snprintf(list + used, sizeof list - used, "%s%c row %d", c ? ", " : "",
                                   poly_of(q, id) ? 'B' : 'A', index_in(q, id) + 1)
                        : snprintf(list + used, sizeof list - used, "%sbox bound", c ? ", " : "");
        used += k > 0 ? (size_t)k : 0;
    }
    trace(q, "%s (%s)", before, list);
}

/* -------------------------------------------------------------- answers */

static void answer_point(fast_query *q, hs_status status, const double *x)
{
    hs_result *r = q->r;
    r->status = status;
    r->lazy = 1;
    r->has_point = 1;
    memcpy(r->point_d, x, sizeof(double) * (size_t)q->n);
}

/* ---------------------------------------------- row values and strictness */

/* a.x - b in doubles; *strict: certified < 0 (the bound of pred_row_sign,
 * rows it cannot decide asked exactly). */
static inline double row_value(fast_query *q, const double *a, double b, const double *x,
                               int *strict)
{
    int n = q->n;
    double v = -b, mag = fabs(b);
    if (n == 3) { /* the common case, unrolled */
        double t0 = a[0] * x[0], t1 = a[1] * x[1], t2 = a[2] * x[2];
        v += t0 + t1 + t2;
        mag += fabs(t0) + fabs(t1) + fabs(t2);
    } else
        for (int j = 0; j < n; j++) {
            double t = a[j] * x[j];
            v += t;
            mag += fabs(t);
        }
    double bound = (double)(n + 2) * FP_U * mag;
    if (mag < 0x1p+900 && mag > 0x1p-900 && (v < -bound || v > bound))
        *strict = v < 0; /* the filter decides either way */
    else
        *strict = pred_row_sign(a, x, b, n, &q->fw->ps) < 0;
    return v;
}

/* Is x certified strictly inside polyhedron k?  One pass with the filter
 * bound of pred_row_sign, (n+2) u mag_i: a row certainly violated (or on
 * the boundary side beyond the bound) ends it at once; when every row is
 * certainly strict the answer is yes; rows the filter leaves open (or
 * magnitudes out of its safe range) are then asked exactly. */
static int strictly_inside(fast_query *q, int k, const double *x)
{
    const fast_view *P = q->V[k];
    int n = q->n, unsure = 0;
    double c = (double)(n + 2) * FP_U;
    for (int i = 0; i < P->m; i++) {
        const double *a = P->a + (size_t)i * (size_t)n;
        double v = -P->b[i], mag = fabs(P->b[i]);
        if (n == 3) { /* the common case, unrolled */
            double t0 = a[0] * x[0], t1 = a[1] * x[1], t2 = a[2] * x[2];
            v += t0 + t1 + t2;
            mag += fabs(t0) + fabs(t1) + fabs(t2);
        } else
            for (int j = 0; j < n; j++) {
                double t = a[j] * x[j];
                v += t;
                mag += fabs(t);
            }
        int safe = mag < 0x1p+900 && mag > 0x1p-900;
        if (safe && v > c * mag)
            return 0; /* certainly not strict: no need to read further */
        unsure |= !(safe && v < -c * mag);
    }
    if (!unsure)
        return 1;
    for (int i = 0; i < P->m; i++) { /* rows the filter left open, decided exactly */
        int strict;
        row_value(q, view_row(P, n, i), P->b[i], x, &strict);
        if (!strict)
            return 0;
    }
    return 1;
}

/* ------------------------------------------------ Step 5 and the segment */

/* Rows of polyhedron k evaluated at x (the other center): the
 * candidates only (all = 0) or every row (all = 1).  For A at t: a row
 * with value v > 0 and slack S at s is left at l = S/(S+v) on the segment;
 * for B at s: a row with value u > 0 and slack S at t is entered at
 * l = u/(u+S); *l keeps the first exit (A) or the last entry (B), *row
 * the row giving it.  Returns 1 when no row looked at is violated. */
static int rows_at(fast_query *q, int k, const double *x, int all, double *l, int *row)
{
    const fast_prep *F = q->F[k];
    const fast_view *P = q->V[k];
    int none_violated = 1, count = all ? P->m : q->ncand[k];
    for (int c = 0; c < count; c++) {
        int i = all ? c : q->cand[k][c], strict;
        double v = row_value(q, view_row(P, q->n, i), P->b[i], x, &strict);
        if (strict)
            continue;
        none_violated = 0;
        if (v > 0) {
            double at = k == 0 ? F->center_slack[i] / (F->center_slack[i] + v)
                               : v / (v + F->center_slack[i]);
            if (k == 0 ? at < *l : at > *l) {
                *l = at;
                *row = i;
            }
        }
    }
    return none_violated;
}

static int step5(fast_query *q)
{
    const double *s = q->V[0]->center, *t = q->V[1]->center;
    int entry_row = -1;
    q->lA = 1;
    q->lB = 0;
    q->exit_row = -1;
    if (rows_at(q, 1, s, 0, &q->lB, &entry_row) && strictly_inside(q, 1, s) &&
        (q->V[0]->center_certified || strictly_inside(q, 0, s))) {
        trace(q, "Step 5: s (the interior point of A) is strictly inside B: overlap");
        answer_point(q, HS_OVERLAP, s);
        return 1;
    }
    if (rows_at(q, 0, t, 0, &q->lA, &q->exit_row) && strictly_inside(q, 0, t) &&
        (q->V[1]->center_certified || strictly_inside(q, 1, t))) {
        trace(q, "Step 5: t (the interior point of B) is strictly inside A: overlap");
        answer_point(q, HS_OVERLAP, t);
        return 1;
    }
    trace(q, "Step 5: s is not strictly inside B, t not strictly inside A");
    return 0;
}

static int try_midpoint(fast_query *q)
{
    double l = 0.5 * (q->lA + q->lB), p[SEIDEL_MAX_DIM];
    const double *s = q->V[0]->center;
    for (int j = 0; j < q->n; j++)
        p[j] = s[j] + l * q->d[j];
    if (!strictly_inside(q, 0, p) || !strictly_inside(q, 1, p))
        return 0;
    trace(q, "the segment s-t is inside A up to %.6g and inside B from %.6g: its middle is "
             "certified inside both: overlap",
          q->lA, q->lB);
    answer_point(q, HS_OVERLAP, p);
    return 1;
}

/* The middle of the stretch where the segment is in both.  The
 * candidates bound that stretch from outside (the first exit over some
 * rows of A comes no earlier than over all of them); when they leave room
 * but the middle fails, the stretch is measured over every row and the
 * middle tried once more. */
static int segment_overlap(fast_query *q)
{
    if (!(q->lB < q->lA))
        return 0;
    if (try_midpoint(q))
        return 1;
    int entry_row = -1;
    q->lA = 1;
    q->lB = 0;
    rows_at(q, 0, q->V[1]->center, 1, &q->lA, &q->exit_row);
    rows_at(q, 1, q->V[0]->center, 1, &q->lB, &entry_row);
    return q->lB < q->lA && try_midpoint(q);
}

/* ---------------------------------------------------- the search boxes */

/* Neither the box nor the bounds on tau can change an answer: a box bound
 * that carries weight in the final basis makes certification fail, and
 * the query is retried in the wide box or falls back.
 *  - near: around where the segment leaves A and enters B, padded by half
 *    |t - s|; Seidel's recursion starting from a nearby corner costs far
 *    fewer recursions than from a distant one;
 *  - wide: the box hints of both polyhedra, padded. */
static void set_tau_range(fast_query *q)
{
    int n = q->n;
    double diag2 = 0;
    for (int j = 0; j < n; j++)
        diag2 += (q->hi[j] - q->lo[j]) * (q->hi[j] - q->lo[j]);
    q->lo[n] = -(2 * sqrt(diag2) + 1);
    q->hi[n] = 2 * fmax(q->F[0]->inradius, q->F[1]->inradius);
}

static void wide_box(fast_query *q)
{
    for (int j = 0; j < q->n; j++) {
        double lo = fmin(q->V[0]->lo[j], q->V[1]->lo[j]);
        double hi = fmax(q->V[0]->hi[j], q->V[1]->hi[j]);
        double pad = 0.01 * (hi - lo) + 1e-9 * (fabs(lo) + fabs(hi)) + 1e-300;
        q->lo[j] = lo - pad;
        q->hi[j] = hi + pad;
    }
    set_tau_range(q);
}

static void near_box(fast_query *q)
{
    const double *s = q->V[0]->center;
    double d2 = 0;
    for (int j = 0; j < q->n; j++)
        d2 += q->d[j] * q->d[j];
    double pad = 0.5 * sqrt(d2) + 1e-300;
    for (int j = 0; j < q->n; j++) {
        double pa = s[j] + q->lA * q->d[j], pb = s[j] + q->lB * q->d[j];
        q->lo[j] = fmin(pa, pb) - pad;
        q->hi[j] = fmax(pa, pb) + pad;
    }
    set_tau_range(q);
}

/* ------------------------------------------------------- certification */

/* Column g (D entries) and right side of basis element id. */
static void basis_column(const fast_query *q, int id, double *g, double *h)
{
    int n = q->n, D = n + 1;
    if (id >= 0) {
        memcpy(g, row_a(q, id), sizeof(double) * (size_t)n);
        g[n] = q->F[poly_of(q, id)]->norm[index_in(q, id)];
        *h = row_b(q, id);
        return;
    }
    int var = SEIDEL_BOX_VAR(id), upper = SEIDEL_BOX_UPPER(id);
    memset(g, 0, sizeof(double) * (size_t)D);
    g[var] = upper ? 1 : -1;
    *h = upper ? q->hi[var] : -q->lo[var];
}

/* Is the basis a Farkas certificate?  With G the matrix whose rows are
 * the basis columns: y_i ~ det(G with row i := e_tau) det(G) must be
 * >= 0 (exactly 0 on box bounds), and sum y_i h_i ~ det(G with column
 * tau := h) det(G) must be < 0. */
static int certify_farkas(fast_query *q, const int *basis)
{
    int n = q->n, D = n + 1;
    double G[SEIDEL_MAX_DIM * SEIDEL_MAX_DIM] = {0}, M[SEIDEL_MAX_DIM * SEIDEL_MAX_DIM];
    double h[SEIDEL_MAX_DIM];
    for (int i = 0; i < D; i++)
        basis_column(q, basis[i], G + i * D, &h[i]);
    pred_stats *ps = &q->fw->ps;
    int s0 = pred_det_sign(G, D, ps);
    if (s0 == 0 || s0 == -2)
        return 0;
    for (int i = 0; i < D; i++) { /* det(G with row i := e_tau): a cofactor */
        int si = D <= 5 ? pred_cofactor_sign(G, D, i, n, ps) : -2;
        if (si == -2 && D > 5) {
            memcpy(M, G, sizeof(double) * (size_t)(D * D));
            memset(M + i * D, 0, sizeof(double) * (size_t)D);
            M[i * D + n] = 1;
            si = pred_det_sign(M, D, ps);
        }
        if (si == -2 || si * s0 < 0 || (basis[i] < 0 && si != 0))
            return 0;
    }
    memcpy(M, G, sizeof(double) * (size_t)(D * D));
    for (int i = 0; i < D; i++)
        M[i * D + n] = h[i];
    int sh = pred_det_sign(M, D, ps);
    return sh != -2 && sh * s0 < 0;
}

static void store_farkas(fast_query *q, const int *basis)
{
    hs_result *r = q->r;
    int D = q->n + 1;
    for (int c = 0; c < D; c++) {
        int id = basis[c];
        basis_column(q, id, r->lazy_g + c * D, &r->lazy_h[c]);
        r->lazy_which[c] = id >= 0 ? poly_of(q, id) : -1;
        r->lazy_row[c] = id >= 0 ? index_in(q, id) : -1;
    }
    r->lazy_D = D;
    r->lazy = 1;
    r->status = HS_DISJOINT;
}

static int on_update(void *user, const double *z, const int *basis)
{
    fast_query *q = user;
    if (!(z[q->n] < 0) || !certify_farkas(q, basis))
        return 0;
    store_farkas(q, basis);
    q->certified = 1;
    trace_basis(q, "margin < 0 and the tight rows are a certified Farkas certificate: disjoint",
                basis);
    return 1;
}

/* ---------------------------------------------------- the LP in rounds */

/* The candidates of A and B, alternately, strongest first. */
static int seed_candidates(fast_query *q, int forced)
{
    fast_work *w = q->fw;
    int count = 0;
    for (int c = 0; c < q->ncand[0] || c < q->ncand[1]; c++)
        for (int k = 0; k < 2; k++)
            if (c < q->ncand[k]) {
                int id = q->cand[k][c] + (k ? q->mA : 0);
                w->order[count++] = id;
                w->in_set[id] = 1;
            }
    if (forced >= 0 && !w->in_set[forced]) { /* the LP must hold its forced row */
        w->order[count++] = forced;
        w->in_set[forced] = 1;
    }
    for (int c = 0; q->stale && c <= q->n; c++) {
        int which = q->stale->which[c], row = q->stale->row[c];
        int id = which ? q->mA + row : row;
        if (row < q->V[which]->m && !w->in_set[id]) {
            w->order[count++] = id;
            w->in_set[id] = 1;
        }
    }
    return count;
}

/* Safety net: every row, those facing along d first, each group in random
 * order (Seidel's expected bound). */
static void full_order(fast_query *q)
{
    fast_work *w = q->fw;
    int front = 0, back = q->M;
    for (int id = 0; id < q->M; id++) {
        const double *a = row_a(q, id);
        double along = 0;
        for (int j = 0; j < q->n; j++)
            along += a[j] * q->d[j];
        w->in_set[id] = 0;
        if (poly_of(q, id) ? along < 0 : along > 0)
            w->order[front++] = id;
        else
            w->order[--back] = id;
    }
    rng_shuffle(&w->rng, w->order, front);
    rng_shuffle(&w->rng, w->order + front, q->M - front);
}

/* Clarkson's step: every row outside the candidate set is checked against
 * the optimum z = (x, tau); the worst violated rows (8, up to FAST_ADD_MAX
 * on large systems) join the set.  The test is a cheap bound: |a . x| + |w tau| <= (sqrt(n) + 1) w
 * max|z| for the margin rows (w = |a|), and a row is violated beyond
 * SEIDEL_VIOLATION_TOL of that (answers never depend on it).  When no row
 * is violated, *strict says whether every row, set and others, holds
 * strictly at x (certified), which settles overlap. */
#define FAST_ADD_MAX 32
static int strict_at(fast_query *q, const double *x);
static int scan_rows(fast_query *q, const double *z, int *count, int *strict)
{
    fast_work *w = q->fw;
    /* more rows join per round on large systems: a round costs a scan of
     * all of them, a row in the set only a little more pricing */
    int n = q->n, added = 0, worst[FAST_ADD_MAX];
    int room = q->M / 64 < 8 ? 8 : q->M / 64 > FAST_ADD_MAX ? FAST_ADD_MAX : q->M / 64;
    double score[FAST_ADD_MAX], zmax = 0;
    int maybe_not_strict = 0;
    for (int j = 0; j <= n; j++)
        zmax = fmax(zmax, fabs(z[j]));
    const double spread = (sqrt((double)n) + 1) * zmax;
    for (int k = 0; k < 2; k++) {
        const fast_view *V = q->V[k];
        const double *norm = q->F[k]->norm;
        int base = k ? q->mA : 0;
        for (int i = 0; i < V->m; i++) {
            const double *a = V->a + (size_t)i * (size_t)n;
            double ax = 0;
            if (n == 3) /* the common case, unrolled */
                ax = a[0] * z[0] + a[1] * z[1] + a[2] * z[2];
            else
                for (int j = 0; j < n; j++)
                    ax += a[j] * z[j];
            double tol = SEIDEL_VIOLATION_TOL * (spread * norm[i] + fabs(V->b[i]));
            maybe_not_strict |= ax - V->b[i] > -tol; /* (a . x < b is all overlap needs) */
            double v = ax + norm[i] * z[n] - V->b[i];
            if (!(v > tol))
                continue;
            if (w->in_set[base + i]) /* (rare: the LP holds its own rows) */
                continue;
            double sc = v / norm[i];
            if (added == room && sc <= score[room - 1])
                continue;
            int c = added < room ? added++ : room - 1;
            for (; c > 0 && score[c - 1] < sc; c--) {
                score[c] = score[c - 1];
                worst[c] = worst[c - 1];
            }
            score[c] = sc;
            worst[c] = base + i;
        }
    }
    for (int c = 0; c < added; c++) {
        w->order[(*count)++] = worst[c];
        w->in_set[worst[c]] = 1;
    }
    /* x strictly inside every row is overlap, whatever the margin rows say
     * (the set's rows are checked too, by strict_at) */
    *strict = z[n] > 0 && (added == 0 || !maybe_not_strict) && strict_at(q, z);
    return added;
}

/* Every row of A and B holds strictly at x (certified). */
static int strict_at(fast_query *q, const double *x)
{
    return strictly_inside(q, 0, x) && strictly_inside(q, 1, x);
}

static void clear_set(fast_query *q, int count)
{
    for (int k = 0; k < count; k++)
        q->fw->in_set[q->fw->order[k]] = 0;
}

static seidel_status solve_set(fast_query *q, int count, int forced, double *z, int *basis)
{
    seidel_problem sp = {q->n, {q->bank[0], q->bank[1]}, count, q->fw->order, q->lo, q->hi,
                         NULL, forced, on_update, q};
    long recursions = 0;
    seidel_status st = seidel_solve(q->fw->sw, &sp, z, basis, &recursions);
    q->r->nodes += recursions;
    q->have_basis = st == SEIDEL_OPTIMAL;
    if (q->have_basis)
        memcpy(q->last_basis, basis, sizeof(int) * (size_t)(q->n + 1));
    return st;
}

/* The LP on the candidate set, a scan of the other rows, the worst
 * violators join; until nothing is violated (FAST_ROUNDS at most, then
 * one Seidel pass over every row).  z and *strict describe the optimum. */
#define FAST_ROUNDS 24
static seidel_status lp_rounds(fast_query *q, int forced, double *z, int *strict)
{
    int count = seed_candidates(q, forced), rounds = 0;
    int basis[SEIDEL_MAX_DIM + 1];
    seidel_status st = SEIDEL_OPTIMAL;
    *strict = 0;
    for (; rounds < FAST_ROUNDS; rounds++) {
        st = solve_set(q, count, forced, z, basis);
        if (q->certified || st != SEIDEL_OPTIMAL || scan_rows(q, z, &count, strict) == 0 ||
            *strict)
            break;
    }
    clear_set(q, count);
    if (!q->certified && st == SEIDEL_OPTIMAL && rounds == FAST_ROUNDS) {
        full_order(q);
        count = q->M;
        st = solve_set(q, count, forced, z, basis);
        *strict = st == SEIDEL_OPTIMAL && z[q->n] > 0 && strict_at(q, z);
    }
    trace(q, "%d rounds, LP on %d of %d rows, %ld violated rows became equalities", rounds + 1,
          count, q->M, q->r->nodes);
    return st;
}

/* The same rounds with the dual simplex of fast_lp.c, which goes on from
 * its last basis when violated rows join instead of starting again.
 * Returns 0 when it reached an optimum over every row (z, *strict), or
 * certified disjointness on the way; -1 when it met trouble (the caller
 * then runs Seidel's LP). */
static int dual_hook(void *user, const double *z, const int *basis, const double *lam_tau)
{
    fast_query *q = user;
    double scale = 0;
    for (int c = 0; c <= q->n; c++) { /* a box bound with weight cannot certify */
        if (basis[c] < 0 && fabs(lam_tau[c]) > 1e-9)
            return 0;
        scale = fmax(scale, fabs(z[c]));
    }
    /* A margin that is rounding noise around 0 (a contact) is not worth
     * the exact determinants now; the final basis is tried at the end. */
    if (z[q->n] > -1e-12 * (scale + 1e-300))
        return 0;
    return on_update(q, z, basis);
}

static int lp_rounds_dual(fast_query *q, double *z, int *strict)
{
    flp_state st;
    flp_init(&st, q->n, q->bank, q->lo, q->hi, NULL, dual_hook, q);
    fast_work *w = q->fw;
    long need = (long)(q->n + 4) * q->M; /* room for every row: the set never outgrows it */
    if (w->lp_tab_cap < need) {
        double *t = realloc(w->lp_tab, sizeof(double) * (size_t)need);
        if (t) {
            w->lp_tab = t;
            w->lp_tab_cap = (int)need;
        }
    }
    if (w->lp_tab_cap >= need)
        flp_set_table(&st, w->lp_tab, q->M);
    int count = seed_candidates(q, -1), rounds = 0, rc = -1;
    *strict = 0;
    for (; rounds < FAST_ROUNDS; rounds++) {
        flp_status fs = flp_solve(&st, q->fw->order, count);
        if (fs == FLP_STOPPED || q->certified) {
            rc = 0;
            break;
        }
        if (fs != FLP_OPTIMAL)
            break;
        if (scan_rows(q, st.z, &count, strict) == 0 || *strict) {
            rc = 0;
            break;
        }
    }
    clear_set(q, count);
    memcpy(z, st.z, sizeof(double) * (size_t)(q->n + 1));
    memcpy(q->last_basis, st.basis, sizeof(int) * (size_t)(q->n + 1));
    double zmax = 0;
    for (int c = 0; c <= q->n; c++)
        zmax = fmax(zmax, fabs(z[c]));
    if (rc == 0 && !q->certified && z[q->n] < -1e-12 * (zmax + 1e-300))
        on_update(q, z, st.basis); /* a disjoint optimum the hook left alone (a
                                      margin of rounding noise: a contact, tried next) */
    q->have_basis = rc == 0 && !q->certified;

    q->r->nodes += st.pivots;
    trace(q, "dual simplex: %d rounds, %d pivots, LP on %d of %d rows%s", rounds + 1, st.pivots,
          count, q->M, rc == 0 ? "" : " (numerical trouble: Seidel's LP instead)");
    return rc;
}

/* ----------------------------------------------------------- the query */

/* The rows of a view as an hs_poly (the view's own, or a plain copy). */
static const hs_poly *poly_of_view(const fast_view *v, int n, hs_poly **made, hs_error *err)
{
    *made = NULL;
    if (v->poly)
        return v->poly;
    *made = hpoly_from_rows(n, v->m, v->a, v->b);
    if (!*made)
        err_set(err, HS_ERR_NOMEM, "out of memory");
    return *made;
}

static hs_code fall_back(fast_query *q, const char *why, hs_error *err)
{
    trace(q, "%s: exact engine", why);
    hs_poly *made[2];
    const hs_poly *A = poly_of_view(q->V[0], q->n, &made[0], err);
    const hs_poly *B = A ? poly_of_view(q->V[1], q->n, &made[1], err) : NULL;
    hs_code rc = (A && B) ? exact_intersect(A, B, q->opt, q->r, err) : HS_ERR_NOMEM;
    hs_poly_free(made[0]);
    if (A)
        hs_poly_free(made[1]);
    q->r->fell_back = 1;
    q->r->engine = HS_ENGINE_FAST;
    return rc;
}

static int fast_settled(const fast_query *q, seidel_status st, const double *z, int strict)
{
    return q->certified || st == SEIDEL_NOMEM || (st == SEIDEL_OPTIMAL && z[q->n] > 0 && strict);
}

/* Contact: the last optimum's basis, certified exactly (fast_touch.c). */
static int try_touching(fast_query *q)
{
    int D = q->n + 1, which[SEIDEL_MAX_DIM], row[SEIDEL_MAX_DIM];
    double G[SEIDEL_MAX_DIM * SEIDEL_MAX_DIM], h[SEIDEL_MAX_DIM];
    if (!q->have_basis || D > SEIDEL_MAX_DIM)
        return 0;
    for (int c = 0; c < D; c++) {
        int id = q->last_basis[c];
        basis_column(q, id, G + c * D, &h[c]);
        which[c] = id >= 0 ? poly_of(q, id) : -1;
        row[c] = id >= 0 ? index_in(q, id) : -1;
    }
    fast_touch_job job = {q->n, G, h, which, row, {q->V[0], q->V[1]}, q->V[0]->center};
    return fast_touch_certify(&job, q->r, &q->fw->ps) == 1;
}

/* The LP, first with the face where the segment leaves A made an equality
 * (seed 002's move: near contact that face is tight at the optimum, and the
 * LP drops a dimension; a wrong guess just fails to certify), then with
 * every row free in the box near the segment, then in the wide box. */
static hs_code run_lp(fast_query *q, hs_error *err)
{
    double z[SEIDEL_MAX_DIM];
    int strict = 0, touching = 0;
    seidel_status st = SEIDEL_OPTIMAL;
    near_box(q);
    for (int box = 0; box < 2; box++) { /* the dual simplex near the segment, then wide */
        if (box == 1) {
            int on_box = 0;
            for (int c = 0; c <= q->n; c++)
                on_box |= q->last_basis[c] < 0;
            if (!q->have_basis || !on_box)
                break; /* the box did not bind: a wider one would not help */
            trace(q, "the optimum is on the box near the segment: again in the wide box");
            wide_box(q);
        }
        if (lp_rounds_dual(q, z, &strict) != 0)
            break;
        touching = !fast_settled(q, st, z, strict) && try_touching(q);
        if (touching || fast_settled(q, st, z, strict))
            goto settled;
    }
    if (q->n >= FAST_PREP_SIMPLEX_DIM) /* Seidel's LP costs like n! here */
        return fall_back(q, "not settled by the dual simplex", err);
    near_box(q);
    if (q->exit_row >= 0) {
        trace(q, "A row %d (where the segment leaves A) made an equality first",
              q->exit_row + 1);
        st = lp_rounds(q, q->exit_row, z, &strict);
        touching = !fast_settled(q, st, z, strict) && st == SEIDEL_OPTIMAL && try_touching(q);
    }
    if (!touching && !fast_settled(q, st, z, strict)) {
        trace(q, "every row free, in the box near the segment");
        st = lp_rounds(q, -1, z, &strict);
        touching = !fast_settled(q, st, z, strict) && st == SEIDEL_OPTIMAL && try_touching(q);
    }
    if (!touching && !fast_settled(q, st, z, strict)) {
        trace(q, "not settled in the box near the segment: again in the wide box");
        wide_box(q);
        st = lp_rounds(q, -1, z, &strict);
        touching = !fast_settled(q, st, z, strict) && st == SEIDEL_OPTIMAL && try_touching(q);
    }
settled:
    if (touching) {
        trace_basis(q, "margin 0: the tight rows certify a contact point and a separating plane: "
                       "touching", q->last_basis);
        return HS_OK;
    }
    if (st == SEIDEL_NOMEM)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (q->certified)
        return HS_OK;
    if (st == SEIDEL_OPTIMAL && z[q->n] > 0 && strict) {
        trace(q, "margin %.6g > 0 and every row certified strict at the optimum: overlap",
              z[q->n]);
        answer_point(q, HS_OVERLAP, z);
        return HS_OK;
    }
    char why[96];
    snprintf(why, sizeof why, "margin %.3g could not be certified", z[q->n]);
    return fall_back(q, why, err);
}

/* Direction d of the query frame as seen by view k's direction map. */
static void to_map_frame(const fast_view *v, int n, const double *d, double *out)
{
    if (!v->lookup) {
        memcpy(out, d, sizeof(double) * (size_t)n);
        return;
    }
    for (int i = 0; i < n; i++) {
        out[i] = 0;
        for (int j = 0; j < n; j++)
            out[i] += v->lookup[i * n + j] * d[j];
    }
}

/* Without a direction map (many variables): the FAST_SCAN_CANDIDATES rows
 * of polyhedron k best aligned with d (query frame), by one pass. */
static const int *scan_candidates(fast_query *q, int k, const double *d, int *count)
{
    const fast_view *V = q->V[k];
    const double *norm = q->F[k]->norm;
    int *out = q->fw->cand[k], n = q->n, c = 0;
    double score[FAST_SCAN_CANDIDATES];
    for (int i = 0; i < V->m; i++) {
        const double *a = V->a + (size_t)i * (size_t)n;
        double s = 0;
        for (int j = 0; j < n; j++)
            s += a[j] * d[j];
        s /= norm[i] > 0 ? norm[i] : 1;
        if (c == FAST_SCAN_CANDIDATES && s <= score[c - 1])
            continue;
        int at = c < FAST_SCAN_CANDIDATES ? c++ : c - 1;
        for (; at > 0 && score[at - 1] < s; at--) {
            score[at] = score[at - 1];
            out[at] = out[at - 1];
        }
        score[at] = s;
        out[at] = i;
    }
    *count = c;
    return out;
}

static void setup(fast_query *q)
{
    int n = q->n;
    const double *s = q->V[0]->center, *t = q->V[1]->center;
    double probe[SEIDEL_MAX_DIM], minus[SEIDEL_MAX_DIM], dir[SEIDEL_MAX_DIM], len = 0;
    for (int j = 0; j < n; j++) {
        q->d[j] = t[j] - s[j];
        len += fabs(q->d[j]);
    }
    for (int j = 0; j < n; j++) { /* equal centers: any direction serves */
        probe[j] = len > 0 ? q->d[j] : (j == 0);
        minus[j] = -probe[j];
    }
    to_map_frame(q->V[0], n, probe, dir);
    q->cand[0] = fast_prep_lookup(q->F[0], dir, &q->ncand[0]);
    to_map_frame(q->V[1], n, minus, dir);
    q->cand[1] = fast_prep_lookup(q->F[1], dir, &q->ncand[1]);
    int scanned = !q->cand[0] || !q->cand[1];
    if (!q->cand[0])
        q->cand[0] = scan_candidates(q, 0, probe, &q->ncand[0]);
    if (!q->cand[1])
        q->cand[1] = scan_candidates(q, 1, minus, &q->ncand[1]);
    for (int k = 0; k < 2; k++)
        q->bank[k] = (seidel_bank){q->V[k]->a, q->F[k]->norm, q->V[k]->b, q->V[k]->m};
    trace(q, "candidate faces along t - s: %d of A, %d of B (%s)", q->ncand[0], q->ncand[1],
          scanned ? "by a scan of the rows" : "from the direction maps");
}

/* The hint, certified: a disjoint basis must pass the Farkas check on
 * today's rows, an overlap point must be strictly inside both. */
static int try_hint(fast_query *q, const fast_hint *h)
{
    int n = q->n, basis[SEIDEL_MAX_DIM + 1];
    if (h->kind == FAST_HINT_OVERLAP) {
        if (!strictly_inside(q, 0, h->x) || !strictly_inside(q, 1, h->x))
            return 0;
        trace(q, "the overlap point of the last query is still strictly inside both");
        answer_point(q, HS_OVERLAP, h->x);
        return 1;
    }
    if (h->kind == FAST_HINT_TOUCHING && n <= FAST_HINT_MAX_DIM) {
        for (int c = 0; c <= n; c++) {
            int which = h->which[c], row = h->row[c];
            if (which < 0 || which > 1 || row < 0 || row >= q->V[which]->m)
                return 0;
            q->last_basis[c] = which ? q->mA + row : row;
        }
        q->have_basis = 1;
        if (!try_touching(q))
            return 0;
        trace_basis(q, "the contact basis of the last query still certifies: touching",
                    q->last_basis);
        return 1;
    }
    if (h->kind != FAST_HINT_DISJOINT || n > FAST_HINT_MAX_DIM)
        return 0;
    for (int c = 0; c <= n; c++) {
        int which = h->which[c], row = h->row[c];
        if (which < 0 || which > 1 || row < 0 || row >= q->V[which]->m)
            return 0;
        basis[c] = which ? q->mA + row : row;
    }
    if (!certify_farkas(q, basis))
        return 0;
    store_farkas(q, basis);
    trace_basis(q, "the certificate rows of the last query still certify: disjoint", basis);
    return 1;
}

static void make_hint(const fast_query *q, fast_hint *h)
{
    const hs_result *r = q->r;
    int n = q->n;
    h->kind = FAST_HINT_NONE;
    if (n > FAST_HINT_MAX_DIM || !r->lazy)
        return;
    if (r->status == HS_OVERLAP && r->has_point) {
        h->kind = FAST_HINT_OVERLAP;
        memcpy(h->x, r->point_d, sizeof(double) * (size_t)n);
        return;
    }
    if ((r->status != HS_DISJOINT && r->status != HS_TOUCHING) || r->lazy_D != n + 1)
        return;
    for (int c = 0; c <= n; c++) {
        if (r->lazy_which[c] < 0) /* a box bound: not a certificate of the rows alone */
            return;
        h->which[c] = r->lazy_which[c];
        h->row[c] = r->lazy_row[c];
    }
    h->kind = r->status == HS_TOUCHING ? FAST_HINT_TOUCHING : FAST_HINT_DISJOINT;
}

static void query_init(fast_query *q, const fast_view *A, const fast_view *B, int n,
                       const hs_options *opt, hs_result *r)
{
    memset(q, 0, sizeof *q);
    q->V[0] = A;
    q->V[1] = B;
    q->F[0] = A->prep;
    q->F[1] = B->prep;
    q->n = n;
    q->mA = A->m;
    q->M = A->m + B->m;
    q->r = r;
    q->opt = opt;
}

int fast_try_hint(const fast_view *A, const fast_view *B, int n, const hs_options *opt,
                  const fast_hint *hint, hs_result *r, hs_error *err)
{
    fast_query q;
    query_init(&q, A, B, n, opt, r);
    if (!hint || !q.F[0] || !q.F[1])
        return 0;
    if (result_reset(r, HS_DISJOINT, n) != 0 || !(q.fw = work_for(r, n, q.M))) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return -1;
    }
    return try_hint(&q, hint);
}

hs_code fast_intersect_views_hinted(const fast_view *A, const fast_view *B, int n,
                                    const hs_options *opt, const fast_hint *hint, hs_result *r,
                                    fast_hint *next, hs_error *err)
{
    fast_query q;
    query_init(&q, A, B, n, opt, r);
    if (next)
        next->kind = FAST_HINT_NONE;
    if (!q.F[0] || !q.F[1])
        return fall_back(&q, "not eligible for the fast path (see hs_poly_fast_ready)", err);
    if (result_reset(r, HS_DISJOINT, n) != 0 || !(q.fw = work_for(r, n, q.M)))
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (hint && try_hint(&q, hint)) {
        if (next)
            *next = *hint;
        return HS_OK;
    }
    if (hint && hint->kind == FAST_HINT_DISJOINT && n <= FAST_HINT_MAX_DIM)
        q.stale = hint;
    setup(&q);
    hs_code rc = HS_OK;
    if (!step5(&q) && !segment_overlap(&q))
        rc = run_lp(&q, err);
    if (rc == HS_OK && next)
        make_hint(&q, next);
    return rc;
}

hs_code fast_intersect_views(const fast_view *A, const fast_view *B, int n,
                             const hs_options *opt, hs_result *r, hs_error *err)
{
    return fast_intersect_views_hinted(A, B, n, opt, NULL, r, NULL, err);
}

int fast_view_of_poly(fast_view *v, const hs_poly *p)
{
    const fast_prep *fp = NULL;
    int rc = fast_prep_get(p, &fp, NULL);
    *v = (fast_view){p->m, p->a, p->b, fp, fp ? fp->center : NULL, 1, NULL,
                     fp ? fp->lo : NULL, fp ? fp->hi : NULL, p};
    return rc;
}

hs_code fast_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt, hs_result *r,
                       hs_error *err)
{
    fast_view va, vb;
    if (fast_view_of_poly(&va, A) != 0 || fast_view_of_poly(&vb, B) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    return fast_intersect_views(&va, &vb, A->n, opt, r, err);
}

hs_code fast_feasible(const hs_poly *P, const hs_options *opt, hs_result *r, hs_error *err)
{
    const fast_prep *fp = NULL;
    if (fast_prep_get(P, &fp, NULL) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (!fp) {
        hs_code rc = exact_feasible(P, opt, r, err);
        r->fell_back = 1;
        r->engine = HS_ENGINE_FAST;
        return rc;
    }
    if (result_reset(r, HS_FEASIBLE, P->n) != 0 || result_lazy_reserve(r, P->n) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    r->lazy = 1;
    r->has_point = 1;
    memcpy(r->point_d, fp->center, sizeof(double) * (size_t)P->n);
    return HS_OK;
}
