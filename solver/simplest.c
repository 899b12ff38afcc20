/* simplest.c -- simplest rationals in intervals, and simpler strictly
 * interior points (simplest.h). */
#include "solver/simplest.h"

#include <math.h>

#include "polytope/fp.h"
#include "polytope/rational.h"

/* Continued fractions: for 0 < lo <= hi, if an integer lies in [lo, hi]
 * the simplest is ceil(lo); otherwise both share the integer part f and
 * the answer is f + 1 / simplest(1 / (hi - f), 1 / (lo - f)).  The terms
 * a_0, a_1, ... are folded as they come by the convergent recurrences
 * h_k = a_k h_{k-1} + h_{k-2}, k_k = a_k k_{k-1} + k_{k-2}. */
static void simplest_positive(mpq_t out, const mpq_t lo0, const mpq_t hi0)
{
    mpq_t lo, hi, t;
    mpz_t a, h1, h2, k1, k2;
    mpq_inits(lo, hi, t, NULL);
    mpz_inits(a, h1, h2, k1, k2, NULL);
    mpq_set(lo, lo0);
    mpq_set(hi, hi0);
    mpz_set_ui(h1, 1); /* h_{-1} = 1, h_{-2} = 0, k_{-1} = 0, k_{-2} = 1 */
    mpz_set_ui(k2, 1);
    for (;;) {
        mpz_cdiv_q(a, mpq_numref(lo), mpq_denref(lo)); /* ceil(lo) */
        mpq_set_z(t, a);
        int last = mpq_cmp(t, hi) <= 0;
        if (!last) {
            mpz_fdiv_q(a, mpq_numref(lo), mpq_denref(lo)); /* floor(lo) < lo */
            mpq_set_z(t, a);
            mpq_sub(lo, lo, t);
            mpq_sub(hi, hi, t);
            mpq_inv(t, lo); /* the next interval: [1/(hi - f), 1/(lo - f)] */
            mpq_inv(lo, hi);
            mpq_set(hi, t);
        }
        mpz_addmul(h2, a, h1); /* h2 <- a h1 + h2, then swap: h1 is the newest */
        mpz_swap(h1, h2);
        mpz_addmul(k2, a, k1);
        mpz_swap(k1, k2);
        if (last)
            break;
    }
    mpz_set(mpq_numref(out), h1);
    mpz_set(mpq_denref(out), k1);
    mpq_canonicalize(out);
    mpz_clears(a, h1, h2, k1, k2, NULL);
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
