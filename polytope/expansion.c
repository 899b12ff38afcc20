/* expansion.c -- sums, products and directed rounding of floating-point
 * expansions (see expansion.h for the representation and the conditions).
 *
 * The sum merges the two component lists by increasing magnitude and runs
 * one Two-Sum per component, carrying the running total Q upward and
 * emitting the exact residuals (Shewchuk's FAST-EXPANSION-SUM, Theorem 13,
 * with Two-Sum in every step, so that no magnitude precondition is left;
 * with round-to-even, strongly nonoverlapping inputs give a strongly
 * nonoverlapping output, see expansion.h).  The scale multiplies
 * component by component with Two-Product and folds each product's two
 * halves into the running total with Two-Sum (SCALE-EXPANSION, Theorem
 * 19).  Zero residuals are dropped as they appear, so lengths stay short
 * when the values are short (common for integer or dyadic data). */
#include "polytope/expansion.h"

int xp_sum(int elen, const double *e, int flen, const double *f, double *h)
{
    int i = 0, j = 0, out = 0;
    double q, s, r;
    if (elen == 0 && flen == 0)
        return 0;
    /* the smaller of the two leading components starts the total */
    if (j >= flen || (i < elen && fabs(e[i]) <= fabs(f[j])))
        q = e[i++];
    else
        q = f[j++];
    /* The merge and the zero elimination are written without branches on
     * the data (selections and a conditional increment): their outcome is
     * unpredictable, and mispredictions would cost more than the
     * arithmetic.  h[out] is written before the test; out never passes
     * the number of components consumed, so h's length suffices. */
    while (i < elen && j < flen) {
        double a = e[i], b = f[j];
        int take_e = fabs(a) <= fabs(b);
        double next = take_e ? a : b;
        i += take_e;
        j += 1 - take_e;
        xp_two_sum(q, next, &s, &r);
        h[out] = r;
        out += r != 0;
        q = s;
    }
    for (; i < elen; i++) {
        xp_two_sum(q, e[i], &s, &r);
        h[out] = r;
        out += r != 0;
        q = s;
    }
    for (; j < flen; j++) {
        xp_two_sum(q, f[j], &s, &r);
        h[out] = r;
        out += r != 0;
        q = s;
    }
    h[out] = q;
    return out + (q != 0);
}

int xp_scale(int elen, const double *e, double b, double *h)
{
    int out = 0;
    double q, r;
    if (elen == 0 || b == 0)
        return 0;
    xp_two_prod(e[0], b, &q, &r);
    h[out] = r; /* written first, kept when nonzero (as in xp_sum) */
    out += r != 0;
    for (int i = 1; i < elen; i++) {
        double hi, lo, s, t;
        xp_two_prod(e[i], b, &hi, &lo);
        xp_two_sum(q, lo, &s, &t);
        h[out] = t;
        out += t != 0;
        xp_two_sum(hi, s, &q, &t);
        h[out] = t;
        out += t != 0;
    }
    h[out] = q;
    return out + (q != 0);
}

int xp_prod_diff(double a, double b, double c, double d, double *h)
{
    double e[2], f[2], hi, lo;
    int el = 0, fl = 0;
    xp_two_prod(a, b, &hi, &lo);
    if (lo != 0)
        e[el++] = lo;
    if (hi != 0)
        e[el++] = hi;
    xp_two_prod(c, d, &hi, &lo);
    if (lo != 0)
        f[fl++] = -lo;
    if (hi != 0)
        f[fl++] = -hi;
    return xp_sum(el, e, fl, f, h);
}

int xp_mul(int elen, const double *e, int flen, const double *f, double *h, double *scratch)
{
    /* h accumulates e f_0 + e f_1 + ...; the partial sums alternate
     * between h and the first half of scratch, the product e f_k goes to
     * the second half. */
    double *acc[2] = {h, scratch}, *part = scratch + 2 * elen * flen;
    int len = 0, cur = flen % 2; /* so that the last sum lands in h */
    for (int k = 0; k < flen; k++) {
        int plen = xp_scale(elen, e, f[k], part);
        len = xp_sum(len, acc[cur], plen, part, acc[1 - cur]);
        cur = 1 - cur;
    }
    return len;
}

/* Shewchuk's COMPRESS (Theorem 23): a downward pass folds the components
 * into nonadjacent sums from the top, an upward pass renormalises from
 * the bottom.  Two-Sum replaces Fast-Two-Sum, whose magnitude condition
 * the theorem guarantees anyway (the results are the same). */
int xp_compress(int len, const double *e, double *h)
{
    if (len == 0)
        return 0;
    /* downward: the sums go to h[bottom..len-1] (bottom stays above the
     * index read, so h may be e) */
    int bottom = len - 1;
    double q = e[len - 1];
    for (int i = len - 2; i >= 0; i--) {
        double s, t;
        xp_two_sum(q, e[i], &s, &t);
        if (t != 0) {
            h[bottom--] = s;
            q = t;
        } else
            q = s;
    }
    /* upward: residuals to h[0..top) (top stays below the index read) */
    int top = 0;
    for (int i = bottom + 1; i < len; i++) {
        double s, t;
        xp_two_sum(h[i], q, &s, &t);
        if (t != 0)
            h[top++] = t;
        q = s;
    }
    h[top++] = q;
    return top;
}

/* Sign of e - s (s a double), exactly; buf holds len + 1 doubles. */
static int xp_sign_minus(int len, const double *e, double s, double *buf)
{
    double neg = -s;
    int n = xp_sum(len, e, s != 0, &neg, buf);
    return xp_sign(n, buf);
}

double xp_round(int len, const double *e, int dir, double *buf)
{
    if (len == 0)
        return 0.0;
    double s = 0;
    for (int i = 0; i < len; i++) /* smallest first: nearly the sum */
        s += e[i];
    /* Find neighbouring doubles lo < S < hi, or S itself.  Each round
     * moves s by the approximate remainder; two rounds suffice in practice
     * (the first approximation is within a few units in the last place),
     * and the loop steps one double at a time after that. */
    for (int round = 0;; round++) {
        int rs = xp_sign_minus(len, e, s, buf);
        if (rs == 0)
            return s;
        double t = nextafter(s, rs > 0 ? INFINITY : -INFINITY);
        int ts = xp_sign_minus(len, e, t, buf);
        if (ts == 0)
            return t;
        if (ts != rs) { /* S lies strictly between s and t */
            double lo = rs > 0 ? s : t, hi = rs > 0 ? t : s;
            if (dir > 0)
                return hi;
            if (dir < 0)
                return lo;
            return e[len - 1] > 0 ? lo : hi;
        }
        if (round < 4) { /* s += approximate remainder */
            double neg = -s, r = 0;
            int n = xp_sum(len, e, s != 0, &neg, buf);
            for (int i = 0; i < n; i++)
                r += buf[i];
            double next = s + r;
            s = next != s ? next : t;
        } else
            s = t;
    }
}
