/* rows_z.c -- integer-scaled stacked rows (see rows_z.h). */
#include "solver/rows_z.h"

#include <math.h>
#include <stdint.h>
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
    z->a = mem_alloc_gmp((size_t)m * (size_t)n, sizeof(mpz_t));
    z->b = mem_alloc_gmp((size_t)m, sizeof(mpz_t));
    z->scale = mem_alloc_gmp((size_t)m, sizeof(mpz_t));
    z->ready = mem_calloc((size_t)m, 1);
    z->eq = mem_alloc((size_t)m, 1);
    z->which = mem_alloc((size_t)m, sizeof(int));
    z->row = mem_alloc((size_t)m, sizeof(int));
    z->vals = mem_alloc_gmp((size_t)n + 1, sizeof(mpq_t));
    if (!z->a || !z->b || !z->scale || !z->ready || !z->eq || !z->which || !z->row || !z->vals) {
        free(z->a); free(z->b); free(z->scale); free(z->ready); free(z->eq); free(z->which);
        free(z->row); free(z->vals);
        memset(z, 0, sizeof *z);
        return -1;
    }
    for (int j = 0; j <= n; j++)
        mpq_init(z->vals[j]);
    mpz_init(z->G);
    return 0;
}

void zrows_free(zrows *z)
{
    if (!z->a)
        return;
    for (int r = 0; r < z->m; r++) {
        if (!z->ready[r])
            continue;
        mpz_t *a = zrows_coef(z, r);
        for (int j = 0; j < z->n; j++)
            mpz_clear(a[j]);
        mpz_clear(z->b[r]);
        mpz_clear(z->scale[r]);
    }
    for (int j = 0; j <= z->n; j++)
        mpq_clear(z->vals[j]);
    mpz_clear(z->G);
    free(z->a); free(z->b); free(z->scale); free(z->ready); free(z->eq); free(z->which);
    free(z->row); free(z->vals);
    memset(z, 0, sizeof *z);
}

/* Row r: s = lcm of the denominators of its coefficients; the right side
 * times s G is an integer since G is a multiple of its denominator. */
void zrows_make(zrows *z, int r)
{
    int n = z->n;
    const hs_poly *p = z->src[z->which[r]];
    int i = z->row[r];
    mpq_t *vals = z->vals;
    mpz_t *a = zrows_coef(z, r);
    for (int j = 0; j < n; j++)
        mpz_init(a[j]);
    mpz_init(z->b[r]);
    mpz_init(z->scale[r]);
    for (int j = 0; j <= n; j++)
        hpoly_get_q(p, i, j, vals[j]);
    mpz_set_ui(z->scale[r], 1);
    for (int j = 0; j < n; j++)
        if (mpz_cmp_ui(mpq_denref(vals[j]), 1) != 0)
            mpz_lcm(z->scale[r], z->scale[r], mpq_denref(vals[j]));
    for (int j = 0; j < n; j++) {
        mpz_divexact(a[j], z->scale[r], mpq_denref(vals[j]));
        mpz_mul(a[j], a[j], mpq_numref(vals[j]));
    }
    mpz_mul(z->b[r], z->scale[r], z->G);
    mpz_divexact(z->b[r], z->b[r], mpq_denref(vals[n]));
    mpz_mul(z->b[r], z->b[r], mpq_numref(vals[n]));
    z->ready[r] = 1;
}

const double *zrows_row_d(const zrows *z, int r, double *b, int *exact)
{
    const hs_poly *p = z->src[z->which[r]];
    int i = z->row[r];
    *b = p->b[i];
    *exact = p->exact[i];
    return hpoly_row(p, i);
}

/* log2 of the denominator of a double (a power of two). */
static int dyadic_den_bits(double v)
{
    if (v == 0)
        return 0;
    int e;
    double f = frexp(fabs(v), &e); /* v = f 2^e, f in [1/2, 1): f 2^53 is an integer */
    uint64_t mant = (uint64_t)ldexp(f, 53);
    int tz = 0;
    while (!(mant & 1)) {
        mant >>= 1;
        tz++;
    }
    int low = e - 53 + tz; /* v = odd * 2^low */
    return low < 0 ? -low : 0;
}

/* G = lcm of the denominators of every right side. */
static void common_scale(zrows *z)
{
    int bits = 0;
    mpz_set_ui(z->G, 1);
    for (int r = 0; r < z->m; r++) {
        const hs_poly *p = z->src[z->which[r]];
        int i = z->row[r];
        if (p->exact[i]) {
            int d = dyadic_den_bits(p->b[i]);
            bits = d > bits ? d : bits;
        } else {
            hpoly_get_q(p, i, p->n, z->vals[0]);
            mpz_lcm(z->G, z->G, mpq_denref(z->vals[0]));
        }
    }
    if (bits > 0) {
        mpz_t pow2;
        mpz_init(pow2);
        mpz_setbit(pow2, (mp_bitcnt_t)bits);
        mpz_lcm(z->G, z->G, pow2);
        mpz_clear(pow2);
    }
}

int zrows_build(zrows *z, const hs_poly *A, const hs_poly *B)
{
    int n = A->n;
    int m = A->m + (B ? B->m : 0);
    if (alloc_rows(z, n, m) != 0)
        return -1;
    z->m_first = A->m;
    z->src[0] = A;
    z->src[1] = B;
    for (int r = 0; r < m; r++) {
        const hs_poly *p = r < A->m ? A : B;
        int i = r < A->m ? r : r - A->m;
        z->eq[r] = p->eq[i];
        z->which[r] = r < A->m ? 0 : 1;
        z->row[r] = i;
    }
    common_scale(z);
    return 0;
}
