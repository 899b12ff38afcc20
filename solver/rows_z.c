/* rows_z.c -- integer-scaled stacked rows (see rows_z.h). */
#include "solver/rows_z.h"

#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "polytope/error.h"
#include "polytope/mem.h"

static int alloc_rows(zrows *z, int n, int m)
{
    memset(z, 0, sizeof *z);
    z->n = n;
    z->m = m;
    z->a = mem_alloc((size_t)m * (size_t)n, sizeof(mpz_t));
    z->b = mem_alloc((size_t)m, sizeof(mpz_t));
    z->scale = mem_alloc((size_t)m, sizeof(mpz_t));
    z->eq = mem_alloc((size_t)m, 1);
    z->which = mem_alloc((size_t)m, sizeof(int));
    z->row = mem_alloc((size_t)m, sizeof(int));
    if (!z->a || !z->b || !z->scale || !z->eq || !z->which || !z->row) {
        free(z->a); free(z->b); free(z->scale); free(z->eq); free(z->which); free(z->row);
        memset(z, 0, sizeof *z);
        return -1;
    }
    for (int i = 0; i < m * n; i++)
        mpz_init(z->a[i]);
    for (int i = 0; i < m; i++) {
        mpz_init(z->b[i]);
        mpz_init(z->scale[i]);
    }
    return 0;
}

void zrows_free(zrows *z)
{
    if (!z->a)
        return;
    for (int i = 0; i < z->m * z->n; i++)
        mpz_clear(z->a[i]);
    for (int i = 0; i < z->m; i++) {
        mpz_clear(z->b[i]);
        mpz_clear(z->scale[i]);
    }
    free(z->a); free(z->b); free(z->scale); free(z->eq); free(z->which); free(z->row);
    memset(z, 0, sizeof *z);
}

/* Row i of p into stacked row r: s = lcm of the denominators. */
static void scale_row(zrows *z, int r, const hs_poly *p, int i, mpq_t *vals)
{
    int n = z->n;
    for (int j = 0; j <= n; j++)
        hpoly_get_q(p, i, j, vals[j]);
    mpz_set_ui(z->scale[r], 1);
    for (int j = 0; j <= n; j++)
        mpz_lcm(z->scale[r], z->scale[r], mpq_denref(vals[j]));
    mpz_t *a = zrows_coef(z, r);
    for (int j = 0; j <= n; j++) {
        mpz_t *dst = j == n ? &z->b[r] : &a[j];
        mpz_divexact(*dst, z->scale[r], mpq_denref(vals[j]));
        mpz_mul(*dst, *dst, mpq_numref(vals[j]));
    }
}

int zrows_build(zrows *z, const hs_poly *A, const hs_poly *B)
{
    int n = A->n;
    int m = A->m + (B ? B->m : 0);
    if (alloc_rows(z, n, m) != 0)
        return -1;
    z->m_first = A->m;
    mpq_t *vals = mem_alloc((size_t)n + 1, sizeof(mpq_t));
    if (!vals) {
        zrows_free(z);
        return -1;
    }
    for (int j = 0; j <= n; j++)
        mpq_init(vals[j]);
    for (int r = 0; r < m; r++) {
        const hs_poly *p = r < A->m ? A : B;
        int i = r < A->m ? r : r - A->m;
        scale_row(z, r, p, i, vals);
        z->eq[r] = p->eq[i];
        z->which[r] = r < A->m ? 0 : 1;
        z->row[r] = i;
    }
    for (int j = 0; j <= n; j++)
        mpq_clear(vals[j]);
    free(vals);
    return 0;
}
