/* expansion.h -- exact arithmetic on floating-point expansions: sums and
 * products of doubles kept exactly as short arrays of doubles, without
 * allocation (Priest 1991; Shewchuk, "Adaptive Precision Floating-Point
 * Arithmetic and Fast Robust Geometric Predicates", 1997).
 *
 * An expansion of length n is the exact sum e[0] + ... + e[n-1] of its
 * components.  Every expansion made here has no zero component, its
 * components ordered by increasing magnitude, and is nonoverlapping (the
 * lowest set bit of a component lies above the highest set bit of the
 * component before it); the empty expansion (n = 0) is zero.  Such an
 * expansion has the sign of its last component.  More precisely the
 * expansions are strongly nonoverlapping in Shewchuk's sense (moreover,
 * two neighbouring components are "adjacent" only when both are powers of
 * two), the property under which the merge of xp_sum is proved to keep
 * them nonoverlapping: Two-Product pairs, xp_scale, xp_compress and xp_sum
 * itself all give it (with round-to-even), and expansions built only with
 * these functions, as every caller does, have it.
 *
 * Conditions.  The primitives rely on IEEE double arithmetic rounding to
 * nearest (ties to even) with no extended intermediate precision
 * (XP_RELIABLE tells), and on the absence of overflow and of inexact
 * underflow: every value met must stay below 2^1023 in magnitude and be an
 * integer multiple of 2^-1074 (then sums and fma's residuals are exact
 * even among subnormals).  Callers check their inputs' magnitudes up front
 * and take another route when these could fail. */
#ifndef HS_EXPANSION_H
#define HS_EXPANSION_H

#include <float.h>
#include <math.h>

/* 1 when double arithmetic is evaluated in double precision (not on the
 * x87 stack), which the algorithms below need. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define XP_RELIABLE 1
#else
#define XP_RELIABLE 0
#endif

/* s + e = a + b exactly, s = fl(a + b) (Knuth's Two-Sum, six flops, no
 * condition on the magnitudes). */
static inline void xp_two_sum(double a, double b, double *s, double *e)
{
    double x = a + b;
    double bpart = x - a;
    double apart = x - bpart;
    *e = (a - apart) + (b - bpart);
    *s = x;
}

/* s + e = a - b exactly, s = fl(a - b). */
static inline void xp_two_diff(double a, double b, double *s, double *e)
{
    double x = a - b;
    double bpart = a - x;
    double apart = x + bpart;
    *e = (a - apart) + (bpart - b);
    *s = x;
}

/* p + e = a b exactly, p = fl(a b): the residual of a fused multiply-add
 * is exact whenever a b is a multiple of 2^-1074 below the overflow
 * threshold. */
static inline void xp_two_prod(double a, double b, double *p, double *e)
{
    double x = a * b;
    *e = fma(a, b, -x);
    *p = x;
}

/* h = e + f (lengths elen, flen); returns the length of h, at most
 * elen + flen.  h must not overlap e or f. */
int xp_sum(int elen, const double *e, int flen, const double *f, double *h);

/* h = b e (b a double); returns the length of h, at most 2 elen.  h must
 * not overlap e. */
int xp_scale(int elen, const double *e, double b, double *h);

/* h = a b - c d exactly; returns the length (at most 4). */
int xp_prod_diff(double a, double b, double c, double d, double *h);

/* h = e f (lengths elen, flen >= 0), using scratch of 4 elen flen
 * doubles; returns the length of h, at most 2 elen flen.  h, e, f and
 * scratch must not overlap. */
int xp_mul(int elen, const double *e, int flen, const double *f, double *h, double *scratch);

/* h = e with as few components as the value needs (about one per 53
 * bits), the largest one then within an ulp of the whole value; returns
 * the new length.  h may be e itself. */
int xp_compress(int len, const double *e, double *h);

/* Sign (-1, 0, +1) of an expansion. */
static inline int xp_sign(int len, const double *e)
{
    return len == 0 ? 0 : (e[len - 1] > 0) - (e[len - 1] < 0);
}

/* The value of e rounded toward zero (dir = 0, as GMP's mpq_get_d and
 * mpz_get_d round), toward +infinity (dir = +1) or toward -infinity
 * (dir = -1).  The result is exact: a first approximation is corrected
 * with the exact sign of the remainder.  buf: scratch of len + 1
 * doubles.  The value must lie below DBL_MAX in magnitude. */
double xp_round(int len, const double *e, int dir, double *buf);

#endif
