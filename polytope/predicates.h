/* predicates.h -- exact signs of small expressions in doubles, computed in
 * floating point when a rigorous error bound proves the sign, exactly
 * otherwise (the style of Shewchuk's adaptive predicates).
 *
 * Error bounds.  u = 2^-53 is the unit roundoff.  For a sum of k rounded
 * terms the classical bound |fl(s) - s| <= gamma_k * sum|terms|, with
 * gamma_k = k u / (1 - k u), is enlarged once more so that computing the
 * bound itself in floating point cannot make it too small; the constants
 * below are derived in predicates.c next to each use.  Inputs must be
 * finite doubles; magnitudes that could underflow or overflow inside the
 * floating-point evaluation skip the filter and go straight to exact
 * arithmetic, so the answer is always exact. */
#ifndef HS_PREDICATES_H
#define HS_PREDICATES_H

/* Counters of one caller (not shared between threads). */
typedef struct pred_stats {
    long filtered; /* answers given by the floating-point filter */
    long exact;    /* answers that needed exact arithmetic */
} pred_stats;

/* Sign (-1, 0, +1) of a . x - b for n-vectors of finite doubles.  Inputs
 * that are not finite have no sign: the answer is then 2, which callers
 * treat as "not certified". */
int pred_row_sign(const double *a, const double *x, double b, int n, pred_stats *st);

/* Sign of the determinant of the k*k row-major matrix M, 1 <= k <= 4 by
 * closed formulas with a filter, larger k exactly.  Returns -2 when out of
 * memory (exact path only) or when an entry is not finite. */
int pred_det_sign(const double *M, int k, pred_stats *st);

#endif
