/* fast_support.c -- the rows at a polyhedron's extreme vertex, per
 * direction cell (fast_support.h). */
#include "solver/fast_support.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "polytope/fp.h"
#include "polytope/hpoly.h"
#include "polytope/rng.h"
#include "polytope/select.h"

#define SUPPORT_SLOTS (1 + FAST_SUPPORT_MAX) /* a cell: its count, then its rows */
#define SUPPORT_TIGHT 1e-9                   /* relative slack of a tight row */
#define SUPPORT_LEAD 12                      /* rows the LP takes first */

/* The block: SUPPORT_SLOTS ints a cell, every count -1 (not made). */
static void *make_block(const fast_prep *fp)
{
    size_t bytes = (size_t)fp->map_cells * SUPPORT_SLOTS * sizeof(_Atomic int);
    _Atomic int *cells = aligned_alloc(64, (bytes + 63) / 64 * 64); /* (a cell in one line) */
    if (!cells)
        return NULL;
    for (size_t k = 0; k < (size_t)fp->map_cells * SUPPORT_SLOTS; k++)
        atomic_init(&cells[k], k % SUPPORT_SLOTS ? 0 : -1);
    return cells;
}

/* The vertex of fp's rows extreme along e (Seidel's LP in doubles: e . x,
 * then two axes, lexicographically, in the preparation's box hint
 * widened by its own width on each side), into x: 0, or -1 when the LP
 * failed. */
static int extreme_vertex(const fast_prep *fp, const double *e, seidel_work *sw, int *order,
                          double *x)
{
    const hs_poly *p = fp->poly;
    double lo[4], hi[4], obj[16] = {0}, z[4];
    int basis[5], top = fp_largest_axis(e, 3);
    for (int j = 0; j < 3; j++) {
        double half = fp->hi[j] - fp->lo[j] + 1e-300;
        lo[j] = fp->lo[j] - half;
        hi[j] = fp->hi[j] + half;
        obj[j] = e[j];
    }
    lo[3] = hi[3] = 0; /* (tau: no row weighs it) */
    for (int j = 0, t = 1; j < 3; j++) /* e and the two other axes span R^3 */
        if (j != top)
            obj[4 * t++ + j] = 1;
    obj[15] = 1;
    /* the SUPPORT_LEAD rows leaning most along e first: their LP's
     * optimum is usually the vertex, and each later row then only passes
     * Seidel's violation test; the others after them in a fixed shuffle
     * (Seidel's bound wants a random order; the same cell must give the
     * same rows in every thread) */
    int lead[SUPPORT_LEAD], nl = 0;
    double key[SUPPORT_LEAD];
    for (int i = 0; i < p->m; i++)
        if (fp->norm[i] > 0)
            keep_largest(key, lead, &nl, SUPPORT_LEAD, dot3(hpoly_row(p, i), e) / fp->norm[i], i);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < p->m; i++)
        order[i] = i;
    for (int k = 0; k < nl; k++)
        order[lead[k]] = -1; /* (marked: placed first below) */
    rng_shuffle(&seed, order, p->m);
    for (int t = p->m - 1, w = p->m; t >= 0; t--) /* (the unmarked to the back, in order) */
        if (order[t] >= 0)
            order[--w] = order[t];
    for (int k = 0; k < nl; k++)
        order[k] = lead[k];
    seidel_problem sp = {3, {{p->a, NULL, p->b, p->m}, {NULL, NULL, NULL, 0}}, p->m, order, lo,
                         hi, obj, -1, NULL, NULL};
    if (seidel_solve(sw, &sp, z, basis, NULL) != SEIDEL_OPTIMAL)
        return -1;
    for (int j = 0; j < 3; j++)
        x[j] = z[j];
    return isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]) ? 0 : -1;
}

/* Cell's rows made: the LP's vertex, then the tightest rows there; -1
 * when out of memory (the cell stays unmade). */
static int make_cell(const fast_prep *fp, int cell, seidel_work *sw, int *scratch, int *out)
{
    const hs_poly *p = fp->poly;
    double e[3], x[3], minus_slack[FAST_SUPPORT_MAX];
    fast_prep_cell_center(3, fp->map_g, cell, e);
    if (seidel_reserve(sw, 3, p->m) != 0)
        return -1;
    if (extreme_vertex(fp, e, sw, scratch, x) != 0)
        return 0;
    int count = 0, seen_count = 0;
    const int *seen = fast_prep_list(fp, cell, &seen_count);
    seen_count = seen_count < FAST_SUPPORT_SEEN ? seen_count : FAST_SUPPORT_SEEN;
    for (int i = 0; i < p->m; i++) {
        int listed = 0;
        for (int c = 0; c < seen_count; c++)
            listed |= seen[c] == i;
        if (listed)
            continue;
        const double *a = hpoly_row(p, i);
        double t0 = a[0] * x[0], t1 = a[1] * x[1], t2 = a[2] * x[2];
        double gap = p->b[i] - (t0 + t1 + t2);
        double scale = fabs(p->b[i]) + fabs(t0) + fabs(t1) + fabs(t2);
        if (!(fabs(gap) <= SUPPORT_TIGHT * scale))
            continue;
        /* (tightest first; scale > 0 here unless the row is 0 . x <= 0) */
        keep_largest(minus_slack, out, &count, FAST_SUPPORT_MAX, -fabs(gap) / scale, i);
    }
    return count;
}

int fast_support_rows(const fast_prep *fp, int cell, seidel_work *sw, int *scratch, int *out)
{
    if (fp->n != 3 || fp->map_cells == 0 || cell < 0 || cell >= fp->map_cells)
        return 0;
    _Atomic int *cells = fast_prep_lazy(fp, &((fast_prep *)fp)->support, make_block);
    if (!cells)
        return 0;
    _Atomic int *slot = cells + (size_t)cell * SUPPORT_SLOTS;
    int count = atomic_load_explicit(&slot[0], memory_order_acquire);
    if (count >= 0) {
        for (int c = 0; c < count; c++)
            out[c] = atomic_load_explicit(&slot[1 + c], memory_order_relaxed);
        return count;
    }
    if ((count = make_cell(fp, cell, sw, scratch, out)) < 0)
        return 0;
    for (int c = 0; c < count; c++)
        atomic_store_explicit(&slot[1 + c], out[c], memory_order_relaxed);
    atomic_store_explicit(&slot[0], count, memory_order_release);
    return count;
}
