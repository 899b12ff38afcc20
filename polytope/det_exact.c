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

/* The k x w integers of [A | c] (w = k, or k + 1 with the column c; A = M,
 * or M^T when transposed), each row scaled to integers by a power of two
 * (2^-E, E the least exponent in the row: a positive factor for a
 * determinant, none for a system's solution).  NULL when out of memory;
 * the caller clears k * w integers and frees the array. */
static mpz_t *integer_rows(const double *M, int k, int transposed, const double *c)
{
    int w = c ? k + 1 : k;
    mpz_t *z = malloc(sizeof(mpz_t) * (size_t)(k * w));
    if (!z)
        return NULL;
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
    return z;
}

/* Fraction-free elimination of the k x w integers z (its first k columns
 * square), Bareiss' one-step rule: the rows below each pivot, or every
 * other row too (jordan: Gauss-Jordan, for a solve), each entry made
 * (z_cc z_ij - z_ic z_cj) / (the previous pivot), a division that is
 * always exact (every entry stays a minor of z).  Returns the sign of the
 * determinant of the square part (0 when singular); piv receives the last
 * pivot, which is +-that determinant, and with jordan, row i's entries
 * past column k are piv times the solutions' x_i. */
static int ff_eliminate(mpz_t *z, int k, int w, int jordan, mpz_t piv)
{
    int swaps = 0;
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(piv, 1);
    for (int col = 0; col < k; col++) {
        int p = col;
        while (p < k && mpz_sgn(z[p * w + col]) == 0)
            p++;
        if (p == k) {
            mpz_clear(t);
            return 0;
        }
        if (p != col) {
            for (int j = 0; j < w; j++)
                mpz_swap(z[p * w + j], z[col * w + j]);
            swaps ^= 1;
        }
        for (int i = jordan ? 0 : col + 1; i < k; i++) {
            if (i == col)
                continue;
            for (int j = col + 1; j < w; j++) {
                mpz_mul(t, z[i * w + j], z[col * w + col]);
                mpz_submul(t, z[i * w + col], z[col * w + j]);
                mpz_divexact(z[i * w + j], t, piv);
            }
        }
        mpz_set(piv, z[col * w + col]);
    }
    mpz_clear(t);
    return mpz_sgn(piv) * (swaps ? -1 : 1);
}

static void free_integers(mpz_t *z, int count)
{
    for (int i = 0; i < count; i++)
        mpz_clear(z[i]);
    free(z);
}

int det_exact_sign(const double *M, int k)
{
    for (int i = 0; i < k * k; i++)
        if (!isfinite(M[i]))
            return -2;
    mpz_t *z = integer_rows(M, k, 0, NULL), piv;
    if (!z)
        return -2;
    mpz_init(piv);
    int sign = ff_eliminate(z, k, k, 0, piv);
    mpz_clear(piv);
    free_integers(z, k * k);
    return sign;
}

/* The solution of A x = c (A = M, or M^T when transposed; finite
 * entries) by fraction-free Gauss-Jordan elimination: *sdet = sign det A
 * and, when it is not 0, num[i] = P x_i with P (*piv) the last pivot.  0,
 * or -2 out of memory.  num: k initialised integers. */
static int ff_solve(const double *M, int k, int transposed, const double *c, int *sdet,
                    mpz_t *num, mpz_t piv)
{
    mpz_t *z = integer_rows(M, k, transposed, c);
    if (!z)
        return -2;
    *sdet = ff_eliminate(z, k, k + 1, 1, piv);
    for (int i = 0; *sdet != 0 && i < k; i++)
        mpz_set(num[i], z[i * (k + 1) + k]);
    free_integers(z, k * (k + 1));
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

