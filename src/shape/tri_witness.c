/* tri_witness.c -- the witness of two crossing triangles in double-double
 * arithmetic with a rigorous error bound (the fast path of tri_tri.c's
 * case-2 witness; the exact integer computation there is the fallback).
 *
 * The value.  Each end is E = a + (b - a) t, t = F_a / (F_a - F_b), with
 * F_x = n . (x - c0) and n = (c1 - c0) x (c2 - c0) for the plane through
 * c0, c1, c2: the same rational point as tri_tri.c's (F_a b - F_b a) /
 * (F_a - F_b).  F_a and F_b have opposite signs or F_b = 0, so D = F_a -
 * F_b is far from 0 (|D| >= |F_a|) and t lies in [0, 1].  The witness is
 * the midpoint (E_lo + E_hi) / 2, each coordinate rounded to the nearest
 * double.
 *
 * Arithmetic.  A double-double (hi + lo, |lo| <= ulp(hi) / 2) carries
 * about 106 bits.  Differences of input doubles are exact (TwoSum), so are
 * products of two doubles (Dekker's TwoProduct with Veltkamp's split).
 * Sums and products of double-doubles use the "accurate" algorithms of
 * Joldes, Muller and Popescu ("Tight and rigorous error bounds for basic
 * building blocks of double-word arithmetic", ACM TOMS 44(2), 2017:
 * AccurateDWPlusDW, relative error below 3u^2; DWTimesDW1, below 7u^2;
 * DWTimesFP1, below 2u^2; u = 2^-53), and here every such operation is
 * charged TW_EPS = 2^-98 (256 u^2) times the magnitude of its result.
 * The division t = F_a / D is one correction step: t1 = F_a.hi / D.hi,
 * the residual rho = F_a - t1 D, t2 = rho.hi / D.hi, t = t1 + t2
 * (exactly, FastTwoSum), and the exact t* = t1 + rho* / D* is within
 * (e_r + |r / d| e_d) / (|d| - e_d) + u |r / d| of it, for r = rho.hi,
 * d = D.hi known within e_r, e_d of rho*, D*.
 *
 * Error bounds.  Every quantity x carries a bound e with |x - x*| <= e
 * for its exact value x*, propagated by |xy - x*y*| <= |x| e_y + |y| e_x
 * + e_x e_y and |x + y - (x* + y*)| <= e_x + e_y, plus the operation's own
 * TW_EPS |result|; each bound is computed in round-to-nearest and then
 * multiplied by 1 + 2^-45, which covers its own few roundings (and a
 * lower bound by 1 - 2^-45).  Range: every input is 0 or of magnitude in
 * [2^-60, 2^60].  Then differences are multiples of 2^-112, |n| < 2^123,
 * |F| < 2^185 and a nonzero F is at least 2^-336 (a multiple of 2^-336),
 * so |t| >= 2^-522 when t != 0: every exact product and low part that
 * an error-free transformation must represent is a multiple of 2^-970 or
 * more, and nothing reaches 2^995 (Veltkamp's split), so those are exact;
 * each operation's bound also gets TW_FLOOR = 2^-1000 for underflow in
 * its rounded parts (at most a few 2^-1075).
 *
 * Certification.  With the midpoint known as M~ within delta, m the
 * double nearest to M~, and g-, g+ the gaps from m to its neighbours, m is
 * the double nearest to the exact M when M~ - m + delta < g+ / 2 and
 * M~ - m - delta > -g- / 2 (strictly: a tie is never certified); checked
 * with a relative margin of 2^-40.  Results below 2^-900 or above 2^900
 * in magnitude are left to the exact path (subnormal ranges, zero). */
#include "src/shape/tri_witness.h"

#include <math.h>

#include "polytope/fp.h"

#define TW_EPS 0x1p-98
#define TW_FLOOR 0x1p-1000
#define TW_RANGE_MAX 0x1p60
#define TW_RANGE_MIN 0x1p-60
#define TW_OUT_MIN 0x1p-900
#define TW_OUT_MAX 0x1p900

typedef struct tw_dd {
    double hi, lo;
} tw_dd;

/* A value and a bound on its error. */
typedef struct tw_val {
    tw_dd v;
    double e;
} tw_val;

static double tw_up(double x) { return x * (1 + 0x1p-45); }

static double tw_abs(tw_dd x) { return fabs(x.hi) + fabs(x.lo); }

/* ------------------------------------------ error-free transformations */

static tw_dd tw_two_sum(double a, double b)
{
    double s = a + b, bb = s - a;
    return (tw_dd){s, (a - (s - bb)) + (b - bb)};
}

static tw_dd tw_fast_two_sum(double a, double b) /* |a| >= |b| (or a = 0) */
{
    double s = a + b;
    return (tw_dd){s, b - (s - a)};
}

static void tw_split(double a, double *h, double *l)
{
    double c = 134217729.0 * a; /* 2^27 + 1 */
    double ab = c - a;
    *h = c - ab;
    *l = a - *h;
}

static tw_dd tw_two_prod(double a, double b)
{
    double p = a * b, ah, al, bh, bl;
    tw_split(a, &ah, &al);
    tw_split(b, &bh, &bl);
    return (tw_dd){p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

/* ------------------------------------------------- double-double ops */

/* AccurateDWPlusDW. */
static tw_dd tw_add(tw_dd x, tw_dd y)
{
    tw_dd s = tw_two_sum(x.hi, y.hi), t = tw_two_sum(x.lo, y.lo);
    double c = s.lo + t.hi;
    tw_dd v = tw_fast_two_sum(s.hi, c);
    double w = t.lo + v.lo;
    return tw_fast_two_sum(v.hi, w);
}

/* DWTimesDW1. */
static tw_dd tw_mul(tw_dd x, tw_dd y)
{
    tw_dd c = tw_two_prod(x.hi, y.hi);
    double tl1 = x.hi * y.lo, tl2 = x.lo * y.hi;
    double cl2 = tl1 + tl2, cl3 = c.lo + cl2;
    return tw_fast_two_sum(c.hi, cl3);
}

/* DWTimesFP1. */
static tw_dd tw_mul_d(tw_dd x, double y)
{
    tw_dd c = tw_two_prod(x.hi, y);
    double cl2 = x.lo * y, cl3 = c.lo + cl2;
    return tw_fast_two_sum(c.hi, cl3);
}

static tw_dd tw_neg(tw_dd x) { return (tw_dd){-x.hi, -x.lo}; }

/* ---------------------------------------------- values with error bounds */

static tw_val tw_vadd(tw_val x, tw_val y)
{
    tw_dd s = tw_add(x.v, y.v);
    return (tw_val){s, tw_up(x.e + y.e + TW_EPS * tw_abs(s) + TW_FLOOR)};
}

static tw_val tw_vsub(tw_val x, tw_val y)
{
    return tw_vadd(x, (tw_val){tw_neg(y.v), y.e});
}

static tw_val tw_vmul(tw_val x, tw_val y)
{
    tw_dd p = tw_mul(x.v, y.v);
    double ax = tw_abs(x.v), ay = tw_abs(y.v);
    return (tw_val){p, tw_up(ax * y.e + ay * x.e + x.e * y.e + TW_EPS * tw_abs(p) + TW_FLOOR)};
}

/* x - y for input doubles: exact. */
static tw_val tw_diff(double x, double y) { return (tw_val){tw_two_sum(x, -y), 0}; }

/* t = F_a / D (see the top); 0 when D cannot be bounded away from 0. */
static int tw_div(tw_val fa, tw_val D, tw_val *t)
{
    double d = D.v.hi;
    double ed = tw_up(D.e + fabs(D.v.lo));
    if (!(ed < fabs(d)))
        return 0;
    double t1 = fa.v.hi / d;
    tw_dd t1d = tw_mul_d(D.v, t1);
    tw_dd rho = tw_add(fa.v, tw_neg(t1d));
    /* |rho - rho*| <= e_Fa + |t1| e_D + the two operations' errors */
    double er = tw_up(fa.e + fabs(t1) * D.e + TW_EPS * (tw_abs(t1d) + tw_abs(rho)) +
                      fabs(rho.lo) + 2 * TW_FLOOR);
    double r = rho.hi, q = r / d;
    double aq = tw_up(fabs(q) * (1 + 0x1p-50)); /* >= |r / d| */
    double t2 = q;
    tw_dd tt = tw_fast_two_sum(t1, t2);
    double gap = (fabs(d) - ed) * (1 - 0x1p-45); /* <= |d| - e_d */
    double e = tw_up((er + aq * ed) / gap * (1 + 0x1p-50) + FP_U * aq);
    *t = (tw_val){tt, e};
    return isfinite(e);
}

/* One end, E = a + (b - a) t, coordinate by coordinate. */
static int tw_end(const tri_witness_end *w, tw_val E[3])
{
    const double *c0 = w->plane[0], *c1 = w->plane[1], *c2 = w->plane[2];
    tw_val u1[3], u2[3], da[3], db[3], n[3];
    for (int k = 0; k < 3; k++) {
        u1[k] = tw_diff(c1[k], c0[k]);
        u2[k] = tw_diff(c2[k], c0[k]);
        da[k] = tw_diff(w->a[k], c0[k]);
        db[k] = tw_diff(w->b[k], c0[k]);
    }
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        n[k] = tw_vsub(tw_vmul(u1[i], u2[j]), tw_vmul(u1[j], u2[i]));
    }
    tw_val fa = tw_vadd(tw_vadd(tw_vmul(n[0], da[0]), tw_vmul(n[1], da[1])), tw_vmul(n[2], da[2]));
    tw_val fb = tw_vadd(tw_vadd(tw_vmul(n[0], db[0]), tw_vmul(n[1], db[1])), tw_vmul(n[2], db[2]));
    tw_val t;
    if (!tw_div(fa, tw_vsub(fa, fb), &t))
        return 0;
    for (int k = 0; k < 3; k++) {
        tw_val ba = tw_diff(w->b[k], w->a[k]);
        E[k] = tw_vadd(tw_vmul(ba, t), (tw_val){{w->a[k], 0}, 0});
    }
    return 1;
}

static int tw_in_range(const double *x)
{
    for (int k = 0; k < 3; k++) {
        double m = fabs(x[k]);
        if (!(m <= TW_RANGE_MAX) || (m != 0 && m < TW_RANGE_MIN))
            return 0;
    }
    return 1;
}

static int tw_end_in_range(const tri_witness_end *w)
{
    return tw_in_range(w->plane[0]) && tw_in_range(w->plane[1]) && tw_in_range(w->plane[2]) &&
           tw_in_range(w->a) && tw_in_range(w->b);
}

/* The double nearest to the value known as M within delta, or 0 and
 * *ok = 0 when that is not certain. */
static double tw_nearest(tw_dd M, double delta, int *ok)
{
    double m = M.hi + M.lo;
    if (!(fabs(m) >= TW_OUT_MIN && fabs(m) <= TW_OUT_MAX)) {
        *ok = 0;
        return 0;
    }
    double up = nextafter(m, INFINITY) - m, down = m - nextafter(m, -INFINITY);
    tw_dd diff = tw_two_sum(M.hi - m, M.lo); /* M~ - m exactly (M.hi - m is exact) */
    double reach = tw_up(delta) * (1 + 0x1p-40);
    double above = diff.hi + fabs(diff.lo) + reach, below = diff.hi - fabs(diff.lo) - reach;
    if (!(above < 0.5 * up * (1 - 0x1p-40) && below > -0.5 * down * (1 - 0x1p-40)))
        *ok = 0;
    return m;
}

int tri_witness_crossing(const tri_witness_end *lo, const tri_witness_end *hi, double out[3])
{
    if (!tw_end_in_range(lo) || !tw_end_in_range(hi))
        return 0;
    tw_val El[3], Eh[3];
    if (!tw_end(lo, El) || !tw_end(hi, Eh))
        return 0;
    int ok = 1;
    for (int k = 0; k < 3 && ok; k++) {
        tw_val s = tw_vadd(El[k], Eh[k]);
        tw_dd M = {0.5 * s.v.hi, 0.5 * s.v.lo}; /* (exact: no underflow in range) */
        out[k] = tw_nearest(M, 0.5 * s.e, &ok);
    }
    return ok;
}
