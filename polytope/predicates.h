/* predicates.h -- exact signs of small expressions in doubles, computed in
 * floating point when a rigorous error bound proves the sign, exactly
 * otherwise (the style of Shewchuk's adaptive predicates).  The exact
 * stage runs on floating-point expansions (polytope/expansion.h: no
 * allocation, no GMP) whenever the magnitudes allow it, checked up front,
 * and on GMP only beyond (spreads of magnitude that could make an
 * expansion underflow or overflow); either way the answer is exact for
 * every finite double.
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

#include <gmp.h>

/* Counters of one caller (not shared between threads). */
typedef struct pred_stats {
    long filtered; /* answers given by the floating-point filter, or by
                      short integers (det_int.h), without expansions or GMP */
    long exact;    /* answers that needed expansions or GMP */
} pred_stats;

/* Sign (-1, 0, +1) of a . x - b for n-vectors of finite doubles.  Inputs
 * that are not finite have no sign: the answer is then 2, which callers
 * treat as "not certified". */
int pred_row_sign(const double *a, const double *x, double b, int n, pred_stats *st);

/* The sign of a . x + t - b at a point known only to a rounding: each of
 * its n coordinates and t within 2 u relative of xd[j] and td (as
 * mpq_get_d leaves a rational).  +1 or -1 when a floating-point sum with
 * a rigorous bound decides, 2 when it cannot (near 0, or a magnitude
 * outside [2^-400, 2^400] where the bound does not hold): the caller then
 * asks exactly.  Pure. */
int pred_row_sign_near(const double *a, double b, const double *xd, double td, int n);

/* x (n rationals) rounded to doubles into xd, as pred_row_sign_near asks
 * of its point: 1 when it may be asked (no nonzero coordinate rounded to
 * 0), 0 when not.  Pure but for xd. */
int pred_near_point(mpq_t *const x, int n, double *xd);
/* The same for one rational v (pred_row_sign_near's t, say), into *d. */
int pred_near_value(mpq_srcptr v, double *d);

/* The sign of a . x - b at the rational point x, exactly: by
 * pred_row_sign_near at xd (x rounded by pred_near_point, when near_ok,
 * its return) where that decides, else in rationals (acc, t: initialised
 * scratch).  Pure but for the scratch. */
int pred_row_sign_at(const double *a, double b, mpq_t *const x, const double *xd, int near_ok,
                     int n, mpq_t acc, mpq_t t);

/* The sign (-1, 0, +1) of a . x - b at a rational point x (n entries),
 * exactly; acc and t: initialised scratch rationals.  Pure but for the
 * scratch. */
int pred_row_sign_q(const double *a, double b, mpq_t *const x, int n, mpq_t acc, mpq_t t);

/* Is every nonzero entry of v (count doubles) in [2^-200, 2^200] (so
 * that products of up to four of them are exact by Two-Products and
 * expansions, neither underflowing nor overflowing)?  NaN and infinities
 * fail.  1 or 0.  Pure. */
int pred_entries_moderate(const double *v, int count);

/* The sign (-1, 0, +1) of a . x - b, exactly, at the point x of the
 * plane g . x = gb whose coordinates other than k are p_c (c != k; p[k]
 * is not read) and whose x_k = (gb - sum_{c != k} g_c p_c) / g_k: a point
 * of a face given by its plane and rounded coordinates, which the fast
 * engine's face-on-face proof (solver/fast_touch.c) checks every row at.
 * A sum of 2 n products of three entries, signed in integers by
 * pred_prod3_sum_sign.  2 (undecided) when g_k = 0, n is outside 1..16, or
 * a nonzero entry of a, b, g, gb or p lies outside [2^-200, 2^200] (or is
 * not finite): the range of the face proof that asks.  Pure. */
int pred_row_sign_on_plane(const double *a, double b, const double *g, double gb, int k,
                           const double *p, int n);

/* Are the rows (a1, b1) and (a2, b2) (n coefficients and a right side
 * each) exactly opposite multiples, (a1, b1) = -lambda (a2, b2) with
 * lambda > 0?  Every 2 x 2 minor with the column J of a2's largest entry
 * is 0, tested as equal Two-Products (fl(x y) = fl(u v) and equal
 * residuals).  Exact only for entries in [2^-200, 2^200] or 0: the caller
 * checks that range.  1 yes, 0 no.  Pure. */
int pred_rows_opposite(const double *a1, double b1, const double *a2, double b2, int n);

/* Sign of the cofactor (-1)^(row + col) det(M without that row and
 * column) of the k*k row-major M, 1 <= k <= 5 (exact, as
 * pred_det_sign): the sign of det(M with row `row` replaced by the unit
 * vector e_col).  -2 when an entry is not finite or k is too large. */
int pred_cofactor_sign(const double *M, int k, int row, int col, pred_stats *st);

/* Sign of the determinant of the k*k row-major matrix M, 1 <= k <= 4 by
 * closed formulas with a filter and expansions; larger k (up to
 * PRED_MAX_K) first expanded exactly along rows and columns with one
 * nonzero entry (unit rows: box bounds), the rest by the small cases or
 * by fraction-free elimination over GMP integers.  Returns -2 when out of
 * memory (GMP path only) or when an entry is not finite. */
int pred_det_sign(const double *M, int k, pred_stats *st);

/* The 4x4 determinant of the rows r[0..3] in floating point, by the six
 * products of complementary 2x2 minors of columns (0, 1) and (2, 3), and
 * in *perm the same expansion on absolute values (the scale of its
 * rounding error: see the callers' bounds).  No filter: the caller bounds
 * the error. */
double pred_det4_expand(const double *const r[4], double *perm);

/* For the row-major 4x4 M and the column h: det[0] = det M and det[1 + c]
 * = det(M with column c replaced by h), c = 0, 1, 2 (Cramer's rule), each
 * with its perm[] as pred_det4_expand computes them, value for value, but
 * from shared 2x2 minors (30 instead of 48). */
void pred_det4_cramer(const double *M, const double *h, double det[4], double perm[4]);

/* The largest k pred_last_column_signs takes. */
#define PRED_MAX_K 17

/* The signs of a basis's multipliers and margin, exactly, for the k*k
 * row-major M (1 <= k <= PRED_MAX_K) and the column h: *sdet = sign det M,
 * cof[i] (k values) = sign of the cofactor of entry (i, k - 1) (the sign
 * of det(M with row i replaced by e_(k-1))), and, when sh is not NULL,
 * *sh = sign det(M with its last column replaced by h).  For k = 4 the
 * filters of pred_last_column_filtered first, the exact predicates for
 * what they leave.  Returns 0, or -2 when an entry is not finite, k is
 * out of range or GMP runs out of memory. */
int pred_last_column_signs(const double *M, const double *h, int k, int *sdet, int *cof, int *sh,
                           pred_stats *st);

/* The same signs one at a time, so that a caller testing a sign pattern
 * (a Farkas certificate, a contact) can stop at the first sign that
 * fails it.  pred_last_column_filtered sets those the k = 4 filters decide
 * (any other k: none) and returns a mask of them: bit 0 *sdet, bit 1 + i
 * cof[i], bit k + 1 *sh (sh may be NULL: h is not read, the bit never
 * set); the undecided ones are left unset.  pred_last_column_sign_of
 * returns one sign exactly: which = 0 sign det M, 1 + i the cofactor
 * cof[i], k + 1 the margin's (-2 on a non-finite entry, a k or which out
 * of range, or GMP out of memory).  Both pure; thread-safe. */
#define PRED_LC_SDET 0x1
#define PRED_LC_COFS4 0x1e
#define PRED_LC_SH4 0x20
int pred_last_column_filtered(const double *M, const double *h, int k, int *sdet, int *cof,
                              int *sh);
int pred_last_column_sign_of(const double *M, const double *h, int k, int which, pred_stats *st);
/* How many signs a mask of pred_last_column_filtered holds. */
static inline int pred_last_column_count(int mask)
{
    int c = 0;
    for (; mask; mask &= mask - 1)
        c++;
    return c;
}

/* The same signs as pred_last_column_signs when det M != 0 (*sdet = 0
 * leaves cof and *sh unset), exactly, by two fraction-free Gauss-Jordan
 * eliminations over GMP integers (M^T y = e_(k-1) for the multipliers,
 * M z = h for the margin; rows scaled to integers by powers of two), and,
 * when x is not NULL and *sdet != 0, the solution z of M z = h (k
 * initialised rationals, set exactly).  For bases in many
 * variables with few unit rows, where k + 2 separate determinants would
 * cost k + 2 eliminations.  Returns 0, or -2 when an entry is not finite,
 * k is out of range (1..PRED_MAX_K) or out of memory.  Thread-safe. */
int pred_basis_exact(const double *M, const double *h, int k, int *sdet, int *cof, int *sh,
                     mpq_t *x);

/* Sign (-1, 0, +1) of the orientation of d with respect to the plane
 * through a, b, c: +1 when d lies on the side towards which the normal
 * (b - a) x (c - a) points ("above"; a, b, c then appear clockwise seen
 * from d), -1 below, 0 when the four points are coplanar.  Exact for all
 * finite doubles: a floating-point evaluation with a static error bound
 * (Shewchuk's orient3d bound, plus a check that nothing can underflow or
 * overflow; tried with each point as the base), then expansions (exact
 * differences when some base has them, else the 4x4 lifted determinant),
 * GMP rationals only for extreme spreads of magnitude. */
int pred_orient3d(const double a[3], const double b[3], const double c[3], const double d[3]);

/* 1 when the points a, b, c (finite doubles) are collinear, two of them
 * equal included, else 0: exactly, whatever their magnitude (the three
 * components of (b - a) x (c - a) are exact 2-D orientations). */
int pred_collinear3(const double a[3], const double b[3], const double c[3]);

/* Sign of the 4x4 determinant whose rows are r0..r3, exactly (floating
 * point with an error bound, then floating-point expansions, GMP integers
 * only for entries of extreme spread). */
int pred_det4_rows(const double *r0, const double *r1, const double *r2, const double *r3);

/* The same for rows of 4 exact rationals each. */
int pred_det4_sign_q(mpq_t *r0, mpq_t *r1, mpq_t *r2, mpq_t *r3);
/* out = det of the 3x3 row-major rational matrix e (t1, t2: scratch). */
void pred_det3_q(mpq_t out, mpq_t *e, mpq_t t1, mpq_t t2);

/* Sign of sum_t f[3t] f[3t+1] f[3t+2] over `count` terms of finite
 * doubles, exactly (in integers: each term is an integer times a power of
 * two); acc, t0, t1 are the caller's initialised scratch. */
int pred_prod3_sum_sign(const double *f, int count, mpz_t acc, mpz_t t0, mpz_t t1);

#endif
