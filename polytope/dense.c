/* dense.c -- small dense linear algebra in floating point (dense.h). */
#include "polytope/dense.h"

#include <math.h>
#include <string.h>

/* Partial pivoting: the row (c or below) with the largest |A[., c]|, or
 * -1 when that is 0 or not finite (singular to working precision). */
static int pivot_row(const double *A, int k, int c)
{
    int p = c;
    for (int i = c + 1; i < k; i++)
        if (fabs(A[i * k + c]) > fabs(A[p * k + c]))
            p = i;
    return fabs(A[p * k + c]) > 0 && isfinite(A[p * k + c]) ? p : -1;
}

int dense_solve(int k, const double *M, const double *r, double *x)
{
    double A[DENSE_MAX * DENSE_MAX], b[DENSE_MAX];
    if (k < 1 || k > DENSE_MAX)
        return -1;
    memcpy(A, M, sizeof(double) * (size_t)(k * k));
    memcpy(b, r, sizeof(double) * (size_t)k);
    for (int c = 0; c < k; c++) {
        int p = pivot_row(A, k, c);
        if (p < 0)
            return -1;
        if (p != c) {
            for (int j = 0; j < k; j++) {
                double t = A[c * k + j];
                A[c * k + j] = A[p * k + j];
                A[p * k + j] = t;
            }
            double t = b[c];
            b[c] = b[p];
            b[p] = t;
        }
        for (int i = c + 1; i < k; i++) {
            double f = A[i * k + c] / A[c * k + c];
            if (f == 0)
                continue;
            for (int j = c; j < k; j++)
                A[i * k + j] -= f * A[c * k + j];
            b[i] -= f * b[c];
        }
    }
    for (int c = k - 1; c >= 0; c--) {
        double s = b[c];
        for (int j = c + 1; j < k; j++)
            s -= A[c * k + j] * x[j];
        x[c] = s / A[c * k + c];
    }
    return 0;
}

int dense_inverse(int k, const double *M, double *inv)
{
    double A[DENSE_MAX * DENSE_MAX];
    if (k < 1 || k > DENSE_MAX)
        return -1;
    memcpy(A, M, sizeof(double) * (size_t)(k * k));
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            inv[i * k + j] = i == j;
    for (int c = 0; c < k; c++) {
        int p = pivot_row(A, k, c);
        if (p < 0)
            return -1;
        if (p != c)
            for (int j = 0; j < k; j++) {
                double t = A[c * k + j];
                A[c * k + j] = A[p * k + j];
                A[p * k + j] = t;
                t = inv[c * k + j];
                inv[c * k + j] = inv[p * k + j];
                inv[p * k + j] = t;
            }
        double piv = 1 / A[c * k + c];
        for (int j = 0; j < k; j++) {
            A[c * k + j] *= piv;
            inv[c * k + j] *= piv;
        }
        for (int i = 0; i < k; i++) {
            double f = A[i * k + c];
            if (i == c || f == 0)
                continue;
            for (int j = 0; j < k; j++) {
                A[i * k + j] -= f * A[c * k + j];
                inv[i * k + j] -= f * inv[c * k + j];
            }
        }
    }
    return 0;
}
