/* qmatrix.c -- Gaussian elimination over the rationals.  Any nonzero
 * pivot is exact, so the first nonzero entry of a column is used. */
#include "solver/qmatrix.h"

#include <stdlib.h>

#include "polytope/error.h"
#include "polytope/mem.h"

int qmatrix_work_init(qmatrix_work *w, int k)
{
    w->cap = k;
    w->m = mem_alloc_gmp((size_t)k * (size_t)k, sizeof(mpq_t));
    w->v = mem_alloc_gmp((size_t)k, sizeof(mpq_t));
    if (!w->m || !w->v) {
        free(w->m);
        free(w->v);
        w->m = w->v = NULL;
        w->cap = 0;
        return -1;
    }
    for (int i = 0; i < k * k; i++)
        mpq_init(w->m[i]);
    for (int i = 0; i < k; i++)
        mpq_init(w->v[i]);
    mpq_init(w->t);
    mpq_init(w->prod);
    return 0;
}

void qmatrix_work_free(qmatrix_work *w)
{
    if (!w->m)
        return;
    for (int i = 0; i < w->cap * w->cap; i++)
        mpq_clear(w->m[i]);
    for (int i = 0; i < w->cap; i++)
        mpq_clear(w->v[i]);
    mpq_clear(w->t);
    mpq_clear(w->prod);
    free(w->m);
    free(w->v);
    w->m = w->v = NULL;
}

static void swap_rows(qmatrix_work *w, int k, int r1, int r2)
{
    for (int j = 0; j < k; j++)
        mpq_swap(w->m[r1 * k + j], w->m[r2 * k + j]);
    mpq_swap(w->v[r1], w->v[r2]);
}

/* Eliminate column c below row c; returns -1 if the column has no pivot. */
static int eliminate_column(qmatrix_work *w, int k, int c)
{
    int p = c;
    while (p < k && mpq_sgn(w->m[p * k + c]) == 0)
        p++;
    if (p == k)
        return -1;
    if (p != c)
        swap_rows(w, k, p, c);
    for (int i = c + 1; i < k; i++) {
        if (mpq_sgn(w->m[i * k + c]) == 0)
            continue;
        mpq_div(w->t, w->m[i * k + c], w->m[c * k + c]); /* row factor */
        for (int j = c; j < k; j++) {
            mpq_mul(w->prod, w->t, w->m[c * k + j]);
            mpq_sub(w->m[i * k + j], w->m[i * k + j], w->prod);
        }
        mpq_mul(w->prod, w->t, w->v[c]);
        mpq_sub(w->v[i], w->v[i], w->prod);
    }
    return 0;
}

int qmatrix_solve(qmatrix_work *w, int k, mpq_t *const M, mpq_t *const r, mpq_t *z,
                  int transpose)
{
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++)
            mpq_set(w->m[i * k + j], transpose ? M[j * k + i] : M[i * k + j]);
        mpq_set(w->v[i], r[i]);
    }
    for (int c = 0; c < k; c++)
        if (eliminate_column(w, k, c) != 0)
            return -1;
    for (int i = k - 1; i >= 0; i--) {
        mpq_set(w->t, w->v[i]);
        for (int j = i + 1; j < k; j++) {
            mpq_mul(w->prod, w->m[i * k + j], z[j]);
            mpq_sub(w->t, w->t, w->prod);
        }
        mpq_div(z[i], w->t, w->m[i * k + i]);
    }
    return 0;
}
