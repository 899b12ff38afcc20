/* chain_sphere_sphere.c -- two spheres, exact: do they meet
 * (|p - q|^2 <= (r + s)^2, touching counts)?  A filter in doubles with a
 * rigorous error bound decides almost every pair; the rest go to GMP
 * rationals. */
#include <gmp.h>

#include <math.h>

#include "src/chain/chain_piece_tests.h"
#include "polytope/error.h"
#include "polytope/fp.h"

int chain_all_finite(const double *v, int n)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return 0;
    return 1;
}

int chain_test_failed(int r, hs_error *err)
{
    if (r == CHAIN_TEST_NOT_FINITE)
        err_set(err, HS_ERR_ARG, "a piece placed by the link poses is not finite (the poses "
                                 "overflow the range of doubles)");
    else
        err_set(err, HS_ERR_NOMEM, "out of memory");
    return -1;
}

/* Exact sign of (r + s)^2 - |p - q|^2 over rationals (finite doubles
 * only: CHAIN_TEST_NOT_FINITE otherwise). */
int chain_spheres_meet_exact(const double p[3], double r, const double q[3], double s)
{
    if (!chain_all_finite(p, 3) || !chain_all_finite(q, 3) || !isfinite(r) || !isfinite(s))
        return CHAIN_TEST_NOT_FINITE;
    mpq_t a, b, sum;
    mpq_inits(a, b, sum, NULL);
    for (int j = 0; j < 3; j++) {
        mpq_set_d(a, p[j]);
        mpq_set_d(b, q[j]);
        mpq_sub(a, a, b);
        mpq_mul(a, a, a);
        mpq_add(sum, sum, a);
    }
    mpq_set_d(a, r);
    mpq_set_d(b, s);
    mpq_add(a, a, b);
    mpq_mul(a, a, a);
    int meet = mpq_cmp(sum, a) <= 0;
    mpq_clears(a, b, sum, NULL);
    return meet;
}

/* Filter: every difference, square and sum below is one rounding (factor
 * 1 + u); |p - q|^2 has at most 5 on any path (difference, square, two
 * additions: (1 + u)^4 - 1 < 4.01u) and (r + s)^2 at most 2, so
 * |fl(D) - D| <= 4.01u D and |fl(R) - R| <= 2.01u R, and the computed
 * difference adds u |R - D| more.  16u (D + R) covers all of it; values
 * outside [2^-500, 2^500] go to the exact path (no underflow or
 * overflow to reason about; and values that are not finite, which
 * the exact path refuses). */
int chain_spheres_meet(const double p[3], double r, const double q[3], double s)
{
    double d0 = p[0] - q[0], d1 = p[1] - q[1], d2 = p[2] - q[2];
    double D = d0 * d0 + d1 * d1 + d2 * d2, rs = r + s, R = rs * rs;
    double bound = 16 * FP_U * (D + R);
    if (R > 0x1p-500 && R < 0x1p500 && D < 0x1p500 && (D > 0x1p-500 || D == 0)) {
        if (D - R > bound)
            return 0;
        if (R - D > bound)
            return 1;
    }
    return chain_spheres_meet_exact(p, r, q, s);
}
