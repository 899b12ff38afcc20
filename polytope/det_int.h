/* det_int.h -- the exact sign of a small determinant of doubles in
 * 128-bit integer arithmetic, when the numbers are short enough.
 *
 * Every finite double is an integer times a power of two.  Scaling a
 * column by a power of two scales the determinant by a positive factor,
 * so the sign is unchanged; after scaling column j by 2^-L_j (L_j the
 * lowest set bit of its entries) every entry is an integer below 2^B_j
 * (B_j the column's bit width).  With B_0 + ... + B_(k-1) <= 120 the
 * cofactor expansion cannot leave a signed 128-bit integer, and the sign
 * is exact: zero determinants included, which floating-point filters
 * cannot certify.  Typical data qualifies: integer or short dyadic
 * normals with dyadic offsets (boxes on a floor, rows scaled to integers).
 *
 * Available where the compiler has a 128-bit integer type (GCC and Clang
 * on 64-bit targets); elsewhere det_int_sign always answers 2 and the
 * callers' other exact stages answer instead. */
#ifndef HS_DET_INT_H
#define HS_DET_INT_H

/* Sign (-1, 0, +1) of det M, M k*k row-major with row stride `stride`,
 * 1 <= k <= 4, entries finite doubles (not checked beyond the bit read:
 * an infinity or NaN gives 2).  2 when the entries are too long for the
 * integer evaluation (or k is out of range).  Pure function; thread-safe. */
int det_int_sign(const double *M, int k, int stride);

#endif
