/* fast_query.c -- the parts of a fast-engine query that the others build
 * on (fast_query.h): the fq_trace, answers, strictness of a point certified
 * row by row, and the Farkas certificate of a basis. */
#include "solver/fast_query.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "solver/fast_facet.h"
#include "solver/fast_star.h"

/* ---------------------------------------------------------------- trace */

void fq_trace(const fast_query *q, const char *fmt, ...)
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

void fq_trace_basis(const fast_query *q, const char *before, const int *basis)
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
    fq_trace(q, "%s (%s)", before, list);
}

/* -------------------------------------------------------------- answers */

void fq_answer_point(fast_query *q, hs_status status, const double *x)
{
    hs_result *r = q->r;
    r->status = status;
    r->lazy = 1;
    r->has_point = 1;
    memcpy(r->point_d, x, sizeof(double) * (size_t)q->n);
}

/* Is x certified strictly inside polyhedron k?  One pass with the filter
 * bound of pred_row_sign, (n+2) u mag_i: a row certainly violated (or on
 * the boundary side beyond the bound) ends it at once; when every row is
 * certainly strict the answer is yes; rows the filter leaves open (or
 * magnitudes out of its safe range) are then asked exactly. */
int fq_strictly_inside(fast_query *q, int k, const double *x)
{
    const fast_view *P = q->V[k];
    int n = q->n, unsure = 0;
    for (int j = 0; j < n; j++) /* a point that is not finite is never inside */
        if (!isfinite(x[j]))
            return 0;
    if (P->use_star && fast_star_inside(q->F[k], x)) /* without reading the rows */
        return 1;
    double c = (double)(n + 2) * FP_U;
    const float *unit = n == 3 ? fast_prep_unit_rows(q->F[k], P->a, P->b) : NULL;
    double noise = unit ? fast_unit_noise(fp_max(fabs(x[0]), fp_max(fabs(x[1]), fabs(x[2])))) : 0;
    for (int i = 0; i < P->m; i++) {
        if (unit) { /* (fast_prep.h; rows it leaves open: the doubles below) */
            const float *u = unit + 4 * (size_t)i;
            double nb, ex = fast_unit_value(u, x, noise, &nb);
            if (ex < -nb)
                continue; /* certainly strict */
            if (ex > nb)
                return 0; /* certainly violated */
        }
        double mag, v = fq_row_excess(P->a + (size_t)i * (size_t)n, P->b[i], x, n, &mag);
        int safe = mag < 0x1p+900 && mag > 0x1p-900;
        if (safe && v > c * mag)
            return 0; /* certainly not strict: no need to read further */
        unsure |= !(safe && v < -c * mag);
    }
    if (!unsure)
        return 1;
    for (int i = 0; i < P->m; i++) { /* rows the filter left open, decided exactly */
        int strict;
        fq_row_value(q, view_row(P, n, i), P->b[i], x, &strict);
        if (!strict)
            return 0;
    }
    return 1;
}

/* The candidate rows first (those facing the other polyhedron, read by
 * Step 5 already): a point between two disjoint polyhedra is turned down
 * there, before a pass over every row of one of them (a rounded test: it
 * only turns down; fewer instructions than the rows the direction maps
 * give for x, on every family of bench/pairs). */
int fq_common_point(fast_query *q, const double *x)
{
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < q->ncand[k]; c++) {
            int i = q->cand[k][c];
            double mag;
            if (fq_row_excess(view_row(q->V[k], q->n, i), q->V[k]->b[i], x, q->n, &mag) > 0)
                return 0;
        }
    return fq_strictly_inside_both(q, x);
}

int fq_strictly_inside_both(fast_query *q, const double *x)
{
    return fq_strictly_inside(q, 0, x) && fq_strictly_inside(q, 1, x);
}

/* ------------------------------------------------------ direction maps */

/* Direction d of the query frame as seen by view k's direction map: d
 * itself, or its rotation into out. */
static const double *to_map_frame(const fast_view *v, int n, const double *d, double *out)
{
    if (!v->lookup)
        return d;
    for (int i = 0; i < n; i++) {
        out[i] = 0;
        for (int j = 0; j < n; j++)
            out[i] += v->lookup[i * n + j] * d[j];
    }
    return out;
}

void fq_prefetch_lookup(fast_query *q, int k, const double *d)
{
    double dir[SEIDEL_MAX_DIM];
    q->map_cell[k] = 1 + fast_prep_prefetch(q->F[k], to_map_frame(q->V[k], q->n, d, dir));
}

const int *fq_lookup(const fast_query *q, int k, const double *d, int *count)
{
    double dir[SEIDEL_MAX_DIM];
    return fast_prep_lookup(q->F[k], to_map_frame(q->V[k], q->n, d, dir), count);
}

int fq_is_long(const fast_query *q, int k)
{
    fast_prep *F = (fast_prep *)q->F[k]; /* (only the atomic is read) */
    int e = atomic_load_explicit(&F->elongation16, memory_order_relaxed);
    if (e == 0 && fast_prep_skeleton(F))
        e = atomic_load_explicit(&F->elongation16, memory_order_relaxed);
    return e > 16 * FAST_LONG_ELONGATION;
}

int fq_support_rows(fast_query *q, int k, int *out)
{
    const fast_prep *F = q->F[k];
    if (q->n != 3 || F->map_cells == 0 || q->V[k]->m < FAST_SUPPORT_MIN_ROWS || fq_is_long(q, k))
        return 0;
    int cell = q->map_cell[k] - 1; /* (found by the prefetch) */
    if (cell < 0) {
        double along[3];
        for (int j = 0; j < 3; j++)
            along[j] = k ? -q->d[j] : q->d[j];
        return fq_support_rows_along(q, k, along, out);
    }
    return fast_support_rows(F, cell, q->fw->sw, q->fw->order, out);
}

int fq_support_rows_along(fast_query *q, int k, const double *d, int *out)
{
    const fast_prep *F = q->F[k];
    double dir[3];
    if (q->n != 3 || F->map_cells == 0 || !(fabs(d[0]) + fabs(d[1]) + fabs(d[2]) > 0))
        return 0;
    int cell = fast_prep_cell(3, F->map_g, to_map_frame(q->V[k], 3, d, dir));
    return fast_support_rows(F, cell, q->fw->sw, q->fw->order, out);
}

const int *fq_facet_rows(const fast_query *q, int k, int row, int *count)
{
    const fast_view *V = q->V[k];
    *count = 0;
    if (q->n != 3 || V->m < FAST_FACET_MIN_ROWS || !fast_prep_own_rows(q->F[k], V->a, V->b))
        return NULL;
    return fast_facet_rows(q->F[k], row, count);
}

/* ------------------------------------------------------- certification */

/* Column g (D entries) and right side of basis element id. */
void fq_basis_column(const fast_query *q, int id, double *g, double *h)
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

int fq_basis_signs_fit(int D, const double *G, const double *h, const int *kind, int contact,
                       pred_stats *ps, int *sdet)
{
    int s0 = 0, cof[SEIDEL_MAX_DIM], sh = 0, on_a = 0;
    if (D != 4) {
        if (pred_last_column_signs(G, h, D, &s0, cof, &sh, ps) != 0 || s0 == 0 ||
            (contact && sh != 0))
            return 0;
        for (int c = 0; c < D; c++) {
            if (cof[c] * s0 < 0 || (kind[c] < 0 && cof[c] != 0))
                return 0;
            on_a |= kind[c] == 0 && cof[c] != 0;
        }
        *sdet = s0;
        return contact ? on_a : sh * s0 < 0;
    }
    int done = pred_last_column_filtered(G, h, D, &s0, cof, &sh);
    if (ps)
        ps->filtered += pred_last_column_count(done);
    if (contact && (done & PRED_LC_SH4)) /* a margin certainly not 0 */
        return 0;
    if (!(done & PRED_LC_SDET) && (s0 = pred_last_column_sign_of(G, h, D, 0, ps)) == -2)
        return 0;
    if (s0 == 0 || (!contact && (done & PRED_LC_SH4) && sh * s0 >= 0))
        return 0;
    for (int pass = 0; pass < 2; pass++) /* the decided multipliers, then the others */
        for (int c = 0; c < D; c++) {
            int decided = done >> (1 + c) & 1;
            if (decided != (pass == 0))
                continue;
            if (!decided && (cof[c] = pred_last_column_sign_of(G, h, D, 1 + c, ps)) == -2)
                return 0;
            if (cof[c] * s0 < 0 || (kind[c] < 0 && cof[c] != 0))
                return 0;
            on_a |= kind[c] == 0 && cof[c] != 0;
        }
    if (contact && !on_a)
        return 0;
    if (contact || !(done & PRED_LC_SH4))
        sh = pred_last_column_sign_of(G, h, D, D + 1, ps);
    *sdet = s0;
    return contact ? sh == 0 : sh != -2 && sh * s0 < 0;
}

/* Is the basis a Farkas certificate?  With G the matrix whose rows are
 * the basis columns: y_i ~ det(G with row i := e_tau) det(G) must be
 * >= 0 (exactly 0 on box bounds), and sum y_i h_i ~ det(G with column
 * tau := h) det(G) must be < 0 (fq_basis_signs_fit). */
int fq_farkas_answer(fast_query *q, const int *basis)
{
    hs_result *r = q->r;
    int n = q->n, D = n + 1, s0;
    for (int c = 0; c < D; c++) { /* (lazy_which: the kinds the test wants) */
        fq_basis_column(q, basis[c], r->lazy_g + c * D, &r->lazy_h[c]);
        r->lazy_which[c] = basis[c] < 0 ? -1 : poly_of(q, basis[c]);
    }
    if (!fq_basis_signs_fit(D, r->lazy_g, r->lazy_h, r->lazy_which, 0, &q->fw->ps, &s0))
        return 0;
    for (int c = 0; c < D; c++)
        r->lazy_row[c] = basis[c] >= 0 ? index_in(q, basis[c]) : -1;
    r->lazy_D = D;
    r->lazy = 1;
    r->status = HS_DISJOINT;
    return 1;
}

int fq_on_update(void *user, const double *z, const int *basis)
{
    fast_query *q = user;
    if (!(z[q->n] < 0) || !fq_farkas_answer(q, basis))
        return 0;
    q->certified = 1;
    fq_trace_basis(q, "margin < 0 and the tight rows are a certified Farkas certificate: disjoint",
                basis);
    return 1;
}

