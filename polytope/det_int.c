/* det_int.c -- exact small determinants in 128-bit integers (det_int.h).
 *
 * Bounds.  After scaling, |entry in column j| < 2^B_j.  A 2 x 2 minor on
 * columns (i, j) is below 2^(B_i + B_j + 1); a k x k determinant is a sum
 * of k! products of one entry per column, below k! 2^(sum B).  For k = 4
 * it is evaluated as the six products of complementary 2 x 2 minors of
 * columns (0, 1) and (2, 3), each below 2^(sum B + 2), their sum below
 * 2^(sum B + 5); for k = 3 by cofactors along column 0, below
 * 2^(sum B + 3).  sum B <= 120 keeps every intermediate below 2^125, and
 * each B_j <= 62 keeps every scaled entry inside int64_t. */
#include "polytope/det_int.h"

#include <stdint.h>
#include <string.h>

#define DET_INT_MAX_BITS 120
#define DET_INT_MAX_COLUMN 62

#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 det_i128;

/* x = sig 2^ex with sig odd (x != 0 finite); -1 for infinities and NaN. */
static int split_double(double x, int64_t *sig, int *ex)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int E = (int)((bits >> 52) & 0x7ff);
    if (E == 0x7ff)
        return -1;
    uint64_t m = bits & 0xfffffffffffffull;
    int e = -1074;
    if (E != 0) {
        m |= 1ull << 52;
        e = E - 1075;
    }
    int tz = __builtin_ctzll(m);
    m >>= tz;
    *sig = (bits >> 63) ? -(int64_t)m : (int64_t)m;
    *ex = e + tz;
    return 0;
}

/* Bit length of |s|, s != 0. */
static int bit_length(int64_t s)
{
    uint64_t u = s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s;
    return 64 - __builtin_clzll(u);
}

static int sign128(det_i128 v) { return (v > 0) - (v < 0); }

static det_i128 minor2(const int64_t *X, int r0, int r1, int c0, int c1)
{
    return (det_i128)X[r0 * 4 + c0] * X[r1 * 4 + c1] - (det_i128)X[r1 * 4 + c0] * X[r0 * 4 + c1];
}

int det_int_sign(const double *M, int k, int stride)
{
    if (k < 1 || k > 4)
        return 2;
    int64_t sig[16];
    int ex[16], low[4], high[4], total = 0;
    for (int j = 0; j < k; j++) {
        low[j] = INT32_MAX;
        high[j] = INT32_MIN;
        for (int i = 0; i < k; i++) {
            double x = M[i * stride + j];
            if (x == 0) {
                sig[i * 4 + j] = 0;
                continue;
            }
            if (split_double(x, &sig[i * 4 + j], &ex[i * 4 + j]) != 0)
                return 2;
            int lo = ex[i * 4 + j], hi = lo + bit_length(sig[i * 4 + j]);
            low[j] = lo < low[j] ? lo : low[j];
            high[j] = hi > high[j] ? hi : high[j];
        }
        if (low[j] == INT32_MAX)
            return 0; /* a zero column */
        int width = high[j] - low[j];
        if (width > DET_INT_MAX_COLUMN)
            return 2;
        total += width;
    }
    if (total > DET_INT_MAX_BITS)
        return 2;
    int64_t X[16];
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) {
            int64_t s = sig[i * 4 + j];
            X[i * 4 + j] = s == 0 ? 0 : s * ((int64_t)1 << (ex[i * 4 + j] - low[j]));
        }
    switch (k) {
    case 1:
        return sign128(X[0]);
    case 2:
        return sign128(minor2(X, 0, 1, 0, 1));
    case 3:
        return sign128(X[0] * minor2(X, 1, 2, 1, 2) - X[4] * minor2(X, 0, 2, 1, 2) +
                       X[8] * minor2(X, 0, 1, 1, 2));
    default: {
        /* rows {p, q} on columns (0, 1) times the complementary rows on
         * (2, 3), with the sign of the permutation (p q r s) */
        det_i128 d = minor2(X, 0, 1, 0, 1) * minor2(X, 2, 3, 2, 3) -
                     minor2(X, 0, 2, 0, 1) * minor2(X, 1, 3, 2, 3) +
                     minor2(X, 0, 3, 0, 1) * minor2(X, 1, 2, 2, 3) +
                     minor2(X, 1, 2, 0, 1) * minor2(X, 0, 3, 2, 3) -
                     minor2(X, 1, 3, 0, 1) * minor2(X, 0, 2, 2, 3) +
                     minor2(X, 2, 3, 0, 1) * minor2(X, 0, 1, 2, 3);
        return sign128(d);
    }
    }
}
#else
int det_int_sign(const double *M, int k, int stride)
{
    (void)M;
    (void)k;
    (void)stride;
    return 2;
}
#endif
