/* fp.h -- the floating-point ground: the unit roundoff and the error-bound
 * factors built from it, and small inline vector maths in R^3.
 *
 * Round-off bounds.  Every operation of IEEE double arithmetic (round to
 * nearest) returns fl(x op y) = (x op y)(1 + d) + e with |d| <= FP_U and
 * |e| <= FP_ETA (e only for underflow, and e = 0 for + and -).  A sum of
 * k rounded terms is off by at most fp_gamma(k) times the sum of the
 * terms' magnitudes (Higham, "Accuracy and Stability of Numerical
 * Algorithms", 3.1).  The bounds a caller derives this way depend on its
 * input's magnitudes, never on an absolute epsilon. */
#ifndef HS_FP_H
#define HS_FP_H

#include <math.h>

/* Unit roundoff of double: u = 2^-53. */
#define FP_U 0x1p-53
/* Smallest positive subnormal double, the absolute error of an underflowed
 * product. */
#define FP_ETA 0x1p-1074

/* A small numeric kernel that takes its dimension as an argument: always
 * inlined where it is called, so that a call with a constant dimension
 * (3 variables, 4 with the margin) unrolls its loops. */
#if defined(__GNUC__)
#define FP_KERNEL inline __attribute__((always_inline))
#else
#define FP_KERNEL inline
#endif
/* Before a loop of a kernel over its dimension: unrolled whole where the
 * dimension is a constant (GCC at -O2 keeps such loops otherwise). */
#if defined(__GNUC__) && !defined(__clang__)
#define FP_UNROLL _Pragma("GCC unroll 5")
#else
#define FP_UNROLL
#endif

/* gamma_k = k u / (1 - k u), the relative error bound of k roundings. */
static inline double fp_gamma(int k) { return k * FP_U / (1 - k * FP_U); }

static inline double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* |v_0| + |v_1| + |v_2|. */
static inline double abs_sum3(const double v[3]) { return fabs(v[0]) + fabs(v[1]) + fabs(v[2]); }

/* out = a x b (out may alias a or b). */
static inline void cross3(const double a[3], const double b[3], double out[3])
{
    double r0 = a[1] * b[2] - a[2] * b[1];
    double r1 = a[2] * b[0] - a[0] * b[2];
    double r2 = a[0] * b[1] - a[1] * b[0];
    out[0] = r0;
    out[1] = r1;
    out[2] = r2;
}

/* v divided by its length (rounded), in place; a length that is not
 * positive (v = 0, or NaN) leaves every entry 0. */
static inline void fp_normalize3(double v[3])
{
    double len = sqrt(dot3(v, v));
    for (int j = 0; j < 3; j++)
        v[j] = len > 0 ? v[j] / len : 0;
}

/* The coordinate of v (n entries, n >= 1) of largest magnitude, the first
 * of equal ones: the axis a plane v . x = b is solved for, a direction's
 * cube face (fast_prep_cell), a row's pivot entry. */
static inline int fp_largest_axis(const double *v, int n)
{
    int k = 0;
    for (int j = 1; j < n; j++)
        if (fabs(v[j]) > fabs(v[k]))
            k = j;
    return k;
}

/* fmin and fmax as the C library defines them (a NaN argument is ignored;
 * -0 and +0 may come either way), compiled inline: the library calls cost
 * more than the comparison in tight loops.  Written so that GCC makes
 * them minsd / maxsd and a cmov on the NaN test, not branches: which of
 * two values is larger is a coin toss for the branch predictor in a cold
 * query. */
static inline double fp_min(double a, double b)
{
    double m = b < a ? b : a;
    return a != a ? b : m;
}
static inline double fp_max(double a, double b)
{
    double m = b > a ? b : a;
    return a != a ? b : m;
}

#endif
