/* seed.h -- the two routines of seed 002 (Ren, Hong, Meng 1999, "A fast
 * algorithm to determine whether the intersection of two convex regions is
 * empty"), section 2:
 *
 *   xianliang(A)   vector location: a point of {x : A x <= b}, or none;
 *   qiujiao(A, B)  intersection: does {A x <= a} meet {B x <= b}?
 *
 * Both are written once (solver/xianliang.inl, solver/qiujiao.inl, on the
 * ground of solver/seed_base.inl) against a number type and compiled
 * twice: over double (seed_d.c, the "_d" functions of the faithful engine)
 * and over GMP rationals (seed_q.c, the "_q" functions of the
 * faithful-exact engine; the exact engine is the slack LP of classify.c
 * and does not use them).
 *
 * Input.  Equality (linearity) rows enter as two inequalities, a.x <= b
 * (the "<= half") and -a.x <= -b (the ">= half"), kept at the row's place.
 * The "_d" functions read the rows' doubles, the "_q" functions the exact
 * values (hpoly_get_q).
 *
 * Choices where seed 002 leaves room (see xianliang.inl and qiujiao.inl for the steps):
 *  - xianliang Step 4 pushes the free variable exactly to its tightest
 *    bound (the seed says "sufficiently large/small");
 *  - xianliang Steps 5/6 on |A1| == |A3| take the side holding the
 *    earliest-listed row (this reproduces every point printed in the
 *    seed's section 3);
 *  - qiujiao Steps 6/7 on |A| == |B| take A (the seed's strict "<" in both
 *    steps would skip both and answer FALSE);
 *  - a face is restricted to by eliminating the variable with the largest
 *    |coefficient| in its row, the last one on ties.
 *
 * Tolerance ("_d" only; the "_q" functions are exact and ignore it).
 * With tol = opt->faithful_tol (default 1e-12; 0 gives the exact double
 * comparisons the seed writes):
 *  - a substituted entry v = r_j - (r_d / e_d) e_j (coefficient or right
 *    side) is set to exactly 0 when |v| <= tol * (|r_j| + |r_d / e_d| |e_j|);
 *  - a point x satisfies the row r.x <= b when
 *    r.x - b <= tol * (sum_j |r_j x_j| + |b|);
 *  - a face a of the side being searched is a candidate when a.(t - s) is
 *    positive (for A) or negative (for B) and
 *    |a.(t - s)| > tol * sum_j |a_j| (|t_j| + |s_j|).
 * Every other comparison (signs of coefficients, which is the largest
 * |coefficient|, minima of bounds) is an exact comparison of the doubles.
 *
 * Options used: faithful_tol ("_d"), trace / trace_user (one line per
 * callback, the recursion indented by depth, numbers as shortest
 * round-trip decimals in "_d" and exact rationals "p/q" in "_q"), and
 * replay_s / replay_t (both non-NULL, n finite doubles each): the top
 * level of qiujiao uses them as s and t instead of calling xianliang; a
 * replayed point that violates its own system is reported in the trace
 * and used anyway (the answer may then be wrong: teaching aid only).
 * opt may be NULL (defaults).
 *
 * Thread safety: no global state; const-safe in the polyhedra.
 */
#ifndef HS_SEED_H
#define HS_SEED_H

#include <gmp.h>

#include "halfspace.h"

/* Return 1 when a point was found (x[0..n-1] filled), 0 when none exists,
 * -1 on error (err set: HS_ERR_ARG for bad arguments or options,
 * HS_ERR_NOMEM when out of memory).  *nodes (if not NULL) receives the
 * number of calls of either routine. */
int seed_feasible_d(const hs_poly *P, const hs_options *opt, double *x, long *nodes,
                     hs_error *err);
int seed_intersect_d(const hs_poly *A, const hs_poly *B, const hs_options *opt, double *x,
                      long *nodes, hs_error *err);

/* The same over exact rationals; x: n initialised mpq_t. */
int seed_feasible_q(const hs_poly *P, const hs_options *opt, mpq_t *x, long *nodes,
                     hs_error *err);
int seed_intersect_q(const hs_poly *A, const hs_poly *B, const hs_options *opt, mpq_t *x,
                      long *nodes, hs_error *err);

#endif
