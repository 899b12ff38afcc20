/* det_exact.c -- exact determinants and eliminations over GMP integers
 * (det_exact.h): the cases the floating-point filters of predicates.c
 * cannot settle in more than 4 rows.
 *
 * Every finite double is an integer times a power of two; scaling a row
 * or a column by a power of two scales a determinant by a positive factor
 * (its sign stays) and, for rows, leaves a system's solution alone.  So
 * the doubles become integers, and fraction-free (Bareiss) elimination,
 * whose every division is exact, runs without gcds or fractions. */
#include "polytope/det_exact.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "polytope/predicates.h"

/* The integer and exponent of a finite double: v = f 2^e with f an
 * integer of at most 53 bits (0 for v = 0). */
static void split_double(double v, double *f, int *e)
{
    int ex = 0;
    double m = frexp(v, &ex);
    *f = ldexp(m, 53);
    *e = ex - 53;
}

/* The least exponent of split_double over low and v (v = 0 leaves low). */
static int least_exponent(int low, double v)
{
    double f;
    int e;
    if (v == 0)
        return low;
    split_double(v, &f, &e);
    return e < low ? e : low;
}

/* z = v 2^-low exactly (an integer when low is at most v's least
 * exponent; z initialised). */
static void set_scaled(mpz_t z, double v, int low)
{
    double f;
    int e;
    if (v == 0) {
        mpz_set_ui(z, 0);
        return;
    }
    split_double(v, &f, &e);
    mpz_set_d(z, f);
    mpz_mul_2exp(z, z, (mp_bitcnt_t)(e - low));
}

/* Sign of det M (k*k, finite entries), exactly, by fraction-free (Bareiss)
 * elimination over GMP integers: column j is scaled by 2^-E_j, E_j the
 * smallest exponent of its entries (split_double), which makes every
 * entry an integer and leaves the sign alone; every division of the
 * elimination is exact.  About k^3 / 3 integer products, no gcds. */
int det_exact_sign(const double *M, int k)
{
    for (int i = 0; i < k * k; i++)
        if (!isfinite(M[i]))
            return -2;
    mpz_t *z = malloc(sizeof(mpz_t) * (size_t)(k * k));
    if (!z)
        return -2;
    mpz_t prev, t;
    mpz_inits(prev, t, NULL);
    for (int j = 0; j < k; j++) {
        int low = INT_MAX;
        for (int i = 0; i < k; i++)
            low = least_exponent(low, M[i * k + j]);
        for (int i = 0; i < k; i++) {
            mpz_init(z[i * k + j]);
            set_scaled(z[i * k + j], M[i * k + j], low);
        }
    }
    int sign = 1;
    mpz_set_ui(prev, 1);
    for (int c = 0; c < k && sign != 0; c++) {
        int p = c;
        while (p < k && mpz_sgn(z[p * k + c]) == 0)
            p++;
        if (p == k) {
            sign = 0;
            break;
        }
        if (p != c) {
            for (int j = 0; j < k; j++)
                mpz_swap(z[p * k + j], z[c * k + j]);
            sign = -sign;
        }
        for (int i = c + 1; i < k; i++)
            for (int j = c + 1; j < k; j++) { /* (z_ij z_cc - z_ic z_cj) / prev */
                mpz_mul(t, z[i * k + j], z[c * k + c]);
                mpz_submul(t, z[i * k + c], z[c * k + j]);
                mpz_divexact(z[i * k + j], t, prev);
            }
        mpz_set(prev, z[c * k + c]);
    }
    if (sign != 0 && mpz_sgn(prev) < 0) /* prev: the last pivot, det up to the swaps */
        sign = -sign;
    for (int i = 0; i < k * k; i++)
        mpz_clear(z[i]);
    mpz_clears(prev, t, NULL);
    free(z);
    return sign;
}

/* Fraction-free Gauss-Jordan elimination (Bareiss' one-step rule applied
 * to every row, every division exact) of the k x (k + 1) system [A | c]
 * of finite doubles, A given by rows (transposed: A = M^T), each row
 * scaled to integers by a power of two (which keeps the solution and the
 * determinant's sign).  On return *sdet = sign det A and num[i] = P x_i
 * with P (*piv) the last pivot, x the solution of A x = c (when *sdet !=
 * 0): P = +-det of the scaled A, and every num[i] and P are minors of it.
 * 0, or -2 out of memory.  num: k initialised integers. */
static int ff_solve(const double *M, int k, int transposed, const double *c, int *sdet,
                    mpz_t *num, mpz_t piv)
{
    int w = k + 1, swaps = 0;
    mpz_t *z = malloc(sizeof(mpz_t) * (size_t)(k * w)), t;
    if (!z)
        return -2;
    mpz_init(t);
    for (int i = 0; i < k; i++) {
        int low = INT_MAX;
        for (int j = 0; j < w; j++)
            low = least_exponent(low, j < k ? (transposed ? M[j * k + i] : M[i * k + j]) : c[i]);
        for (int j = 0; j < w; j++) {
            mpz_init(z[i * w + j]);
            set_scaled(z[i * w + j], j < k ? (transposed ? M[j * k + i] : M[i * k + j]) : c[i],
                           low);
        }
    }
    *sdet = 1;
    mpz_set_ui(piv, 1);
    for (int col = 0; col < k; col++) {
        int p = col;
        while (p < k && mpz_sgn(z[p * w + col]) == 0)
            p++;
        if (p == k) {
            *sdet = 0;
            break;
        }
        if (p != col) {
            for (int j = 0; j < w; j++)
                mpz_swap(z[p * w + j], z[col * w + j]);
            swaps ^= 1;
        }
        for (int i = 0; i < k; i++) {
            if (i == col)
                continue;
            for (int j = col + 1; j < w; j++) { /* (z_cc z_ij - z_ic z_cj) / previous pivot */
                mpz_mul(t, z[i * w + j], z[col * w + col]);
                mpz_submul(t, z[i * w + col], z[col * w + j]);
                mpz_divexact(z[i * w + j], t, piv);
            }
        }
        mpz_set(piv, z[col * w + col]);
    }
    if (*sdet != 0) {
        *sdet = mpz_sgn(piv) * (swaps ? -1 : 1);
        for (int i = 0; i < k; i++)
            mpz_set(num[i], z[i * w + k]);
    }
    for (int i = 0; i < k * w; i++)
        mpz_clear(z[i]);
    mpz_clear(t);
    free(z);
    return 0;
}

int pred_basis_exact(const double *M, const double *h, int k, int *sdet, int *cof, int *sh,
                     mpq_t *x)
{
    if (k < 1 || k > PRED_MAX_K)
        return -2;
    for (int i = 0; i < k * k; i++)
        if (!isfinite(M[i]))
            return -2;
    for (int i = 0; i < k; i++)
        if (!isfinite(h[i]))
            return -2;
    mpz_t num[PRED_MAX_K], piv;
    double e[PRED_MAX_K] = {0};
    e[k - 1] = 1;
    for (int i = 0; i < k; i++)
        mpz_init(num[i]);
    mpz_init(piv);
    int sd = 0, rc = ff_solve(M, k, 1, e, &sd, num, piv); /* M^T y = e_last */
    *sdet = sd;
    if (rc == 0 && sd != 0) {
        for (int i = 0; i < k; i++) /* y_i det M: the sign of row i's cofactor */
            cof[i] = mpz_sgn(num[i]) * mpz_sgn(piv) * sd;
        rc = ff_solve(M, k, 0, h, &sd, num, piv); /* M z = h */
        if (rc == 0) {
            *sh = mpz_sgn(num[k - 1]) * mpz_sgn(piv) * sd;
            for (int i = 0; x && i < k; i++) {
                mpq_set_num(x[i], num[i]);
                mpq_set_den(x[i], piv);
                mpq_canonicalize(x[i]);
            }
        }
    }
    for (int i = 0; i < k; i++)
        mpz_clear(num[i]);
    mpz_clear(piv);
    return rc;
}

