/* pred_sums.c -- exact signs of sums of products of doubles, in GMP
 * integers (see predicates.h). */
#include "polytope/predicates.h"

#include <gmp.h>
#include <math.h>

/* Sign of sum_t f[3t] f[3t+1] f[3t+2] over count terms, exactly: every
 * finite double is an integer of at most 53 bits times a power of two, so
 * the sum is an integer times 2^(lowest exponent), accumulated in GMP. */
int pred_prod3_sum_sign(const double *f, int count, mpz_t acc, mpz_t t0, mpz_t t1)
{
    long low = 0;
    int any = 0;
    for (int t = 0; t < count; t++) {
        const double *g = f + 3 * t;
        if (g[0] == 0 || g[1] == 0 || g[2] == 0)
            continue;
        long e = 0;
        for (int j = 0; j < 3; j++) {
            int ej;
            frexp(g[j], &ej);
            e += ej - 53;
        }
        low = (!any || e < low) ? e : low;
        any = 1;
    }
    mpz_set_ui(acc, 0);
    for (int t = 0; any && t < count; t++) {
        const double *g = f + 3 * t;
        if (g[0] == 0 || g[1] == 0 || g[2] == 0)
            continue;
        long e = 0;
        mpz_set_ui(t0, 1);
        for (int j = 0; j < 3; j++) {
            int ej;
            double frac = frexp(g[j], &ej);
            e += ej - 53;
            mpz_set_d(t1, ldexp(frac, 53)); /* an integer: exact */
            mpz_mul(t0, t0, t1);
        }
        mpz_mul_2exp(t0, t0, (mp_bitcnt_t)(e - low));
        mpz_add(acc, acc, t0);
    }
    return mpz_sgn(acc);
}
