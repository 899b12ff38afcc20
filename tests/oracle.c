/* oracle.c -- exact determinants by cofactor expansion and solves by
 * Cramer's rule (see oracle.h).  No pivoting, no elimination: nothing here
 * shares a step with the library's Gaussian eliminations, so the two can
 * be compared. */
#include "tests/oracle.h"

#include <check.h>

/* The determinant of the minor of the integer matrix M (k*k) made of rows
 * row..k-1 and of the columns in the bit set cols, expanded along its
 * first row: sum over the columns j left of (-1)^p M[row][j] times the
 * minor without row and j, p being j's position among the columns left.
 * tmp[row..k-1] is scratch; out must not be one of them. */
static void cofactor_z(mpz_t out, mpz_t *const M, int k, int row, unsigned cols, mpz_t *tmp)
{
    if (row == k - 1) {
        for (int j = 0; j < k; j++)
            if (cols >> j & 1u)
                mpz_set(out, M[row * k + j]);
        return;
    }
    mpz_set_ui(out, 0);
    int sign = 1;
    for (int j = 0; j < k; j++) {
        if (!(cols >> j & 1u))
            continue;
        if (mpz_sgn(M[row * k + j]) != 0) {
            cofactor_z(tmp[row], M, k, row + 1, cols & ~(1u << j), tmp);
            mpz_mul(tmp[row], tmp[row], M[row * k + j]);
            if (sign > 0)
                mpz_add(out, out, tmp[row]);
            else
                mpz_sub(out, out, tmp[row]);
        }
        sign = -sign;
    }
}

void oracle_det_q(mpq_t det, mpq_t *const M, int k)
{
    if (k < 1 || k > ORACLE_MAX_K)
        ck_abort_msg("oracle: size %d out of range", k);
    mpz_t Z[ORACLE_MAX_K * ORACLE_MAX_K], tmp[ORACLE_MAX_K], scale, lcm, d;
    mpz_inits(scale, lcm, d, NULL);
    for (int i = 0; i < k; i++)
        mpz_init(tmp[i]);
    mpz_set_ui(scale, 1);
    /* Row i times the (positive) lcm of its denominators is integer; the
     * determinant is multiplied by the product of those lcms. */
    for (int i = 0; i < k; i++) {
        mpz_set_ui(lcm, 1);
        for (int j = 0; j < k; j++)
            mpz_lcm(lcm, lcm, mpq_denref(M[i * k + j]));
        for (int j = 0; j < k; j++) {
            mpz_init(Z[i * k + j]);
            mpz_divexact(d, lcm, mpq_denref(M[i * k + j]));
            mpz_mul(Z[i * k + j], mpq_numref(M[i * k + j]), d);
        }
        mpz_mul(scale, scale, lcm);
    }
    cofactor_z(d, Z, k, 0, (1u << k) - 1, tmp);
    mpq_set_num(det, d);
    mpq_set_den(det, scale);
    mpq_canonicalize(det);
    for (int i = 0; i < k * k; i++)
        mpz_clear(Z[i]);
    for (int i = 0; i < k; i++)
        mpz_clear(tmp[i]);
    mpz_clears(scale, lcm, d, NULL);
}

int oracle_det_sign_d(const double *M, int k)
{
    if (k < 1 || k > ORACLE_MAX_K)
        ck_abort_msg("oracle: size %d out of range", k);
    mpq_t Q[ORACLE_MAX_K * ORACLE_MAX_K], det;
    mpq_init(det);
    for (int i = 0; i < k * k; i++) {
        mpq_init(Q[i]);
        mpq_set_d(Q[i], M[i]);
    }
    oracle_det_q(det, Q, k);
    int s = mpq_sgn(det);
    for (int i = 0; i < k * k; i++)
        mpq_clear(Q[i]);
    mpq_clear(det);
    return s;
}

int oracle_solve_q(mpq_t *x, mpq_t *const A, mpq_t *const b, int k)
{
    if (k < 1 || k > ORACLE_MAX_K)
        ck_abort_msg("oracle: size %d out of range", k);
    mpq_t Ai[ORACLE_MAX_K * ORACLE_MAX_K], det, deti;
    mpq_inits(det, deti, NULL);
    for (int i = 0; i < k * k; i++)
        mpq_init(Ai[i]);
    oracle_det_q(det, A, k);
    int singular = mpq_sgn(det) == 0;
    for (int c = 0; c < k && !singular; c++) {
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++)
                mpq_set(Ai[i * k + j], j == c ? b[i] : A[i * k + j]);
        oracle_det_q(deti, Ai, k);
        mpq_div(x[c], deti, det);
    }
    for (int i = 0; i < k * k; i++)
        mpq_clear(Ai[i]);
    mpq_clears(det, deti, NULL);
    return singular ? -1 : 0;
}

int oracle_orient3d(const double a[3], const double b[3], const double c[3], const double d[3])
{
    const double *p[3] = {b, c, d};
    mpq_t M[9], t;
    mpq_init(t);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            mpq_init(M[i * 3 + j]);
            mpq_set_d(M[i * 3 + j], p[i][j]);
            mpq_set_d(t, a[j]);
            mpq_sub(M[i * 3 + j], M[i * 3 + j], t);
        }
    oracle_det_q(t, M, 3);
    int s = mpq_sgn(t);
    for (int i = 0; i < 9; i++)
        mpq_clear(M[i]);
    mpq_clear(t);
    return s;
}
