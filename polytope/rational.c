/* rational.c -- exact number text <-> GMP rationals <-> doubles. */
#include "polytope/rational.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Reads an optional sign then digits; returns the number of digits. */
static size_t scan_digits(const char *s, size_t *pos)
{
    size_t start = *pos;
    while (isdigit((unsigned char)s[*pos]))
        (*pos)++;
    return *pos - start;
}

static int looks_special(const char *t)
{
    const char *p = t;
    if (*p == '+' || *p == '-')
        p++;
    return strncasecmp(p, "nan", 3) == 0 || strncasecmp(p, "inf", 3) == 0;
}

static int parse_fraction(mpq_t out, const char *t, const char *slash, const char **why)
{
    size_t nlen = (size_t)(slash - t);
    char *num = malloc(nlen + 1);
    if (!num) {
        *why = "out of memory";
        return -1;
    }
    memcpy(num, t, nlen);
    num[nlen] = '\0';
    const char *den = slash + 1;
    size_t pos = 0;
    const char *digits = num;
    if (*digits == '+' || *digits == '-')
        digits++;
    size_t dpos = 0;
    int ok = scan_digits(digits, &dpos) > 0 && digits[dpos] == '\0' &&
             scan_digits(den, &pos) > 0 && den[pos] == '\0';
    if (!ok) {
        free(num);
        *why = "a fraction must be p/q with integers p and q > 0";
        return -1;
    }
    mpz_t z;
    mpz_init(z);
    mpz_set_str(z, den, 10);
    if (mpz_sgn(z) == 0) {
        mpz_clear(z);
        free(num);
        *why = "zero denominator";
        return -1;
    }
    mpq_set_den(out, z);
    mpz_set_str(z, num[0] == '+' ? num + 1 : num, 10);
    mpq_set_num(out, z);
    mpq_canonicalize(out);
    mpz_clear(z);
    free(num);
    return 0;
}

/* [+-]int[.frac][e[+-]exp] -> mantissa * 10^(exp - len(frac)) exactly. */
static int parse_decimal(mpq_t out, const char *t, const char **why)
{
    size_t pos = 0;
    int neg = 0;
    if (t[pos] == '+' || t[pos] == '-')
        neg = t[pos++] == '-';
    size_t int_start = pos;
    size_t int_len = scan_digits(t, &pos);
    size_t frac_start = pos, frac_len = 0;
    if (t[pos] == '.') {
        pos++;
        frac_start = pos;
        frac_len = scan_digits(t, &pos);
    }
    if (int_len + frac_len == 0) {
        *why = "not a number";
        return -1;
    }
    long exp10 = 0;
    if (t[pos] == 'e' || t[pos] == 'E') {
        pos++;
        int eneg = 0;
        if (t[pos] == '+' || t[pos] == '-')
            eneg = t[pos++] == '-';
        size_t estart = pos;
        size_t elen = scan_digits(t, &pos);
        if (elen == 0) {
            *why = "exponent has no digits";
            return -1;
        }
        if (elen > 6) {
            *why = "exponent too large";
            return -1;
        }
        exp10 = strtol(t + estart, NULL, 10);
        if (eneg)
            exp10 = -exp10;
    }
    if (t[pos] != '\0') {
        *why = "not a number";
        return -1;
    }
    exp10 -= (long)frac_len;
    if (labs(exp10) > Q_MAX_DECIMAL_EXPONENT) {
        *why = "exponent too large";
        return -1;
    }
    char *digits = malloc(int_len + frac_len + 1);
    if (!digits) {
        *why = "out of memory";
        return -1;
    }
    memcpy(digits, t + int_start, int_len);
    memcpy(digits + int_len, t + frac_start, frac_len);
    digits[int_len + frac_len] = '\0';
    mpz_t m, p;
    mpz_inits(m, p, NULL);
    mpz_set_str(m, digits, 10);
    free(digits);
    if (neg)
        mpz_neg(m, m);
    mpz_ui_pow_ui(p, 10, (unsigned long)labs(exp10));
    if (exp10 >= 0) {
        mpz_mul(m, m, p);
        mpz_set_ui(p, 1);
    }
    mpq_set_num(out, m);
    mpq_set_den(out, p);
    mpq_canonicalize(out);
    mpz_clears(m, p, NULL);
    return 0;
}

int q_parse(mpq_t out, const char *token, const char **why)
{
    static const char *dummy;
    if (!why)
        why = &dummy;
    if (!token || !*token) {
        *why = "empty number";
        return -1;
    }
    if (looks_special(token)) {
        *why = "NaN and infinity are not allowed";
        return -1;
    }
    const char *slash = strchr(token, '/');
    if (slash)
        return parse_fraction(out, token, slash, why);
    return parse_decimal(out, token, why);
}

/* Nonzero if the last bit of the 53-bit significand of d is 1. */
static int odd_significand(double d)
{
    int e;
    double m = frexp(fabs(d), &e); /* m in [0.5, 1) */
    double scaled = ldexp(m, 53);
    return fmod(scaled, 2.0) != 0.0;
}

double q_nearest_double(const mpq_t q, int *exact)
{
    double d0 = mpq_get_d(q); /* truncated toward zero */
    mpq_t t;
    mpq_init(t);
    if (isinf(d0) || fabs(d0) > DBL_MAX) {
        mpq_clear(t);
        if (exact)
            *exact = 0;
        return mpq_sgn(q) < 0 ? -INFINITY : INFINITY;
    }
    mpq_set_d(t, d0);
    if (mpq_equal(t, q)) {
        mpq_clear(t);
        if (exact)
            *exact = 1;
        return d0;
    }
    double away = nextafter(d0, mpq_sgn(q) < 0 ? -INFINITY : INFINITY);
    double best = d0;
    if (!isinf(away)) {
        /* Compare |q - d0| with |away - q| exactly: 2q vs d0 + away. */
        mpq_t mid, two_q;
        mpq_inits(mid, two_q, NULL);
        mpq_set_d(mid, away);
        mpq_add(mid, mid, t); /* d0 + away */
        mpq_add(two_q, q, q);
        int c = mpq_cmp(two_q, mid);
        if (mpq_sgn(q) < 0)
            c = -c;
        if (c > 0)
            best = away;
        else if (c == 0 && odd_significand(d0))
            best = away; /* tie: round half to even */
        mpq_clears(mid, two_q, NULL);
    } else {
        /* beyond DBL_MAX: round to inf if past the halfway point */
        mpq_t lim;
        mpq_init(lim);
        mpq_set_d(lim, DBL_MAX);
        mpq_t half_ulp;
        mpq_init(half_ulp);
        mpq_set_d(half_ulp, ldexp(1.0, 970)); /* half an ulp of DBL_MAX */
        mpq_add(lim, lim, half_ulp);
        mpq_t aq;
        mpq_init(aq);
        mpq_abs(aq, q);
        if (mpq_cmp(aq, lim) >= 0)
            best = mpq_sgn(q) < 0 ? -INFINITY : INFINITY;
        mpq_clears(lim, half_ulp, aq, NULL);
    }
    mpq_clear(t);
    if (exact)
        *exact = 0;
    return best;
}

int q_check_range(const mpq_t q, const char **why)
{
    if (mpq_sgn(q) == 0)
        return 0;
    double d = q_nearest_double(q, NULL);
    if (isinf(d)) {
        *why = "number is beyond the double range";
        return -1;
    }
    if (fabs(d) < DBL_MIN) {
        *why = "number is too small for the double range (below 2^-1022)";
        return -1;
    }
    return 0;
}

char *q_to_string(const mpq_t q)
{
    return mpq_get_str(NULL, 10, q);
}

char *q_double_to_string(double d)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_d(q, d);
    char *s = q_to_string(q);
    mpq_clear(q);
    return s;
}

/* Directed rounding of a rational to a double (+-inf beyond the range). */
double q_round_up(mpq_srcptr q)
{
    double d = mpq_get_d(q); /* truncates towards zero */
    mpq_t t;
    mpq_init(t);
    if (isfinite(d)) {
        mpq_set_d(t, d);
        if (mpq_cmp(q, t) > 0)
            d = nextafter(d, INFINITY);
    }
    mpq_clear(t);
    return d;
}

double q_round_down(mpq_srcptr q)
{
    double d = mpq_get_d(q);
    mpq_t t;
    mpq_init(t);
    if (isfinite(d)) {
        mpq_set_d(t, d);
        if (mpq_cmp(q, t) < 0)
            d = nextafter(d, -INFINITY);
    }
    mpq_clear(t);
    return d;
}
