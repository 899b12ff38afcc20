/* rational.h -- exact rationals (GMP mpq) read from text, rounded to the
 * nearest double, and printed.  The text "0.3" means exactly 3/10. */
#ifndef HS_RATIONAL_H
#define HS_RATIONAL_H

#include <gmp.h>

/* Largest decimal exponent accepted in text (|e| after folding the digits
 * after the point); keeps parsing bounded on hostile input. */
#define Q_MAX_DECIMAL_EXPONENT 4000

/* Parse one whole token: [+-]digits[.digits][(e|E)[+-]digits] or
 * [+-]digits/digits.  On success returns 0 and sets out; on failure
 * returns -1 and points *why at a static reason. */
int q_parse(mpq_t out, const char *token, const char **why);

/* Nearest double to q (ties to even); *exact (if not NULL) is set to 1
 * when the double equals q.  Returns +-inf when |q| is beyond the double
 * range. */
double q_nearest_double(const mpq_t q, int *exact);

/* 0 if q is zero or a normal double-range value (2^-1022 <= |q| <= DBL_MAX
 * after rounding); -1 otherwise with *why set. */
int q_check_range(const mpq_t q, const char **why);

/* Exact text "p/q" or "p"; the caller frees it with free(). */
char *q_to_string(const mpq_t q);

/* Exact text of a double (its binary value as p/q). */
char *q_double_to_string(double d);

/* A rational rounded to a double upwards / downwards (the nearest double
 * >= q / <= q; +-inf beyond the double range). */
double q_round_up(mpq_srcptr q);
double q_round_down(mpq_srcptr q);

#endif
