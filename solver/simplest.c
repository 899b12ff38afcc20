/* simplest.c -- simplest rationals in intervals, and simpler strictly
 * interior points (simplest.h). */
#include "solver/simplest.h"

#include <math.h>
#include <stdlib.h>

#include "polytope/fp.h"
#include "polytope/mem.h"
#include "polytope/rational.h"

/* Continued fractions: for 0 < lo <= hi, if an integer lies in [lo, hi]
 * the simplest is ceil(lo); otherwise both share the integer part f and
 * the answer is f + 1 / simplest(1 / (hi - f), 1 / (lo - f)).  The terms
 * are collected first, then folded from the last. */
static void simplest_positive(mpq_t out, const mpq_t lo0, const mpq_t hi0)
{
    mpq_t lo, hi, t;
    mpz_t f;
    mpq_inits(lo, hi, t, NULL);
    mpz_init(f);
    mpq_set(lo, lo0);
    mpq_set(hi, hi0);
    int cap = 16, count = 0;
    mpz_t *term = malloc(sizeof(mpz_t) * (size_t)cap);
    for (;;) {
        if (count == cap) {
            cap *= 2;
            term = realloc(term, sizeof(mpz_t) * (size_t)cap);
        }
        mpz_init(term[count]);
        mpz_cdiv_q(term[count], mpq_numref(lo), mpq_denref(lo)); /* ceil(lo) */
        mpq_set_z(t, term[count]);
        if (mpq_cmp(t, hi) <= 0) {
            count++;
            break;
        }
        mpz_fdiv_q(f, mpq_numref(lo), mpq_denref(lo)); /* floor(lo) < lo */
        mpz_set(term[count++], f);
        mpq_set_z(t, f);
        mpq_sub(lo, lo, t);
        mpq_sub(hi, hi, t);
        mpq_inv(t, lo); /* new interval [1/(hi - f), 1/(lo - f)] */
        mpq_inv(lo, hi);
        mpq_set(hi, t);
    }
    mpq_set_z(out, term[count - 1]);
    for (int k = count - 2; k >= 0; k--) {
        mpq_inv(out, out);
        mpq_set_z(t, term[k]);
        mpq_add(out, out, t);
    }
    for (int k = 0; k < count; k++)
        mpz_clear(term[k]);
    free(term);
    mpz_clear(f);
    mpq_clears(lo, hi, t, NULL);
}

void q_simplest_between(mpq_t out, const mpq_t lo, const mpq_t hi)
{
    if (mpq_sgn(lo) <= 0 && mpq_sgn(hi) >= 0) {
        mpq_set_ui(out, 0, 1);
        return;
    }
    if (mpq_sgn(lo) > 0) {
        simplest_positive(out, lo, hi);
        return;
    }
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    mpq_neg(a, hi);
    mpq_neg(b, lo);
    simplest_positive(out, a, b);
    mpq_neg(out, out);
    mpq_clears(a, b, NULL);
}

int q_simplify_strict_point(const zrows *z, const unsigned char *use, const mpq_t tau, mpq_t *x)
{
    if (mpq_sgn(tau) <= 0)
        return -1;
    /* L >= max_r sum_j |a_rj| over the rows used: the doubles' sum rounded
     * up by (1 + 2(n+1)u), then 4u more for rows whose doubles are rounded
     * (relative error below 2^-52 each), and a last factor for safety */
    double L = 0;
    for (int r = 0; r < z->m; r++) {
        if (!use[r])
            continue;
        double b;
        int exact;
        const double *a = zrows_row_d(z, r, &b, &exact);
        double s = 0;
        for (int j = 0; j < z->n; j++)
            s += fabs(a[j]);
        L = fmax(L, s);
    }
    L *= 1 + (2.0 * z->n + 10) * FP_U;
    L *= 1.0 + 0x1p-20;
    if (!(L >= 0x1p-1000) || !isfinite(L)) /* (tiny L: subnormal rounding) */
        return -1;
    /* delta <= tau / (2 L): |a_r . (x' - x)| <= L delta <= tau / 2 < tau */
    double delta = q_round_down(tau) / (2 * L);
    delta *= 1 - 0x1p-20;
    if (!(delta > 0) || !isfinite(delta))
        return -1;
    mpq_t d, lo, hi;
    mpq_inits(d, lo, hi, NULL);
    mpq_set_d(d, delta);
    for (int j = 0; j < z->n; j++) {
        mpq_sub(lo, x[j], d);
        mpq_add(hi, x[j], d);
        q_simplest_between(x[j], lo, hi);
    }
    mpq_clears(d, lo, hi, NULL);
    return 0;
}
