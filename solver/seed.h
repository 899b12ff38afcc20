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

/* ------------------------------------------------------------ steps hook
 * Structured steps of qiujiao, for pictures (src/draw/draw_trace.c): the
 * same walk as the trace, as numbers instead of text.  Internal: not part
 * of the public API.  When a hook is given (seed_intersect_steps_d/_q),
 * it is called once per step, always right after the trace lines of that
 * step (so a caller that also sets opt->trace can hand each step the
 * lines printed since the previous one).  The steps, in the order the
 * recursion meets them:
 *
 *   SEED_STEP_NODE        a call of qiujiao: A, B as given (depth, k);
 *   SEED_STEP_POINTS      s and t chosen (Step 3, or the replayed points);
 *                         A, B without their constant rows (Steps 1-2);
 *   SEED_STEP_STEP5       Step 5: inside = 1 (s is in B) or 2 (t is in A):
 *                         point is the common point found (TRUE); inside =
 *                         0: s_out is the first row of B that s violates,
 *                         t_out the first row of A that t violates;
 *   SEED_STEP_CANDIDATES  Steps 6/7: use_a (1: faces of A, 0: of B), the
 *                         ncand candidate faces cand[] (indices into the
 *                         rows of that side at this level), dir = t - s;
 *   SEED_STEP_FACE        face `face` of that side made an equality,
 *                         variable `elim` (0..k-1) eliminated; restricted
 *                         = 1 with the reduced systems RA, RB over k - 1
 *                         variables, 0 when the restriction met a
 *                         contradiction;
 *   SEED_STEP_LIFTED      the reduced problem's point reduced_point (k - 1
 *                         coordinates) lifted back to point (k) through
 *                         that face;
 *   SEED_STEP_TRUE        Step 1: only constant rows, point (all zero);
 *   SEED_STEP_FALSE       this call of qiujiao answers FALSE.
 *
 * Every pointer in a step is valid only during the call; numbers are
 * doubles (the "_q" routines give the nearest doubles of their exact
 * values).  A hook must not call back into the routines. */
typedef enum seed_step_kind {
    SEED_STEP_NODE = 0,
    SEED_STEP_POINTS,
    SEED_STEP_STEP5,
    SEED_STEP_CANDIDATES,
    SEED_STEP_FACE,
    SEED_STEP_LIFTED,
    SEED_STEP_TRUE,
    SEED_STEP_FALSE
} seed_step_kind;

/* A system at one level: m rows over k variables; row i is
 * c[i (k + 1) .. i (k + 1) + k - 1] . x <= c[i (k + 1) + k]; it came from
 * polyhedron which[i] (0 = A, 1 = B), input row row[i] (0-based), half[i]
 * (0: an inequality, 1: the <= half of an equality row, 2: its >= half). */
typedef struct seed_sys_view {
    int m, k;
    const double *c;
    const int *which, *row, *half;
} seed_sys_view;

typedef struct seed_step {
    seed_step_kind kind;
    int depth;             /* depth of this call of qiujiao (0 = top) */
    int k;                 /* variables at this level */
    const int *var;        /* k input indices of those variables */
    seed_sys_view A, B;    /* the systems at this level */
    const double *s, *t;   /* POINTS, STEP5, CANDIDATES (k each) */
    int inside, s_out, t_out;      /* STEP5 */
    int use_a, ncand;              /* CANDIDATES, FACE, LIFTED */
    const int *cand;               /* CANDIDATES */
    const double *dir;             /* CANDIDATES */
    int face, elim, restricted;    /* FACE, LIFTED (face, elim) */
    seed_sys_view RA, RB;          /* FACE (restricted = 1) */
    const double *point;           /* STEP5 (inside), LIFTED, TRUE */
    const double *reduced_point;   /* LIFTED (k - 1) */
} seed_step;

typedef void (*seed_step_fn)(void *user, const seed_step *step);

/* seed_intersect_d / _q with a steps hook (fn NULL: exactly those).
 * Returns and errors as they do; an out-of-memory while building a step
 * for the hook is HS_ERR_NOMEM. */
int seed_intersect_steps_d(const hs_poly *A, const hs_poly *B, const hs_options *opt,
                           seed_step_fn fn, void *user, double *x, long *nodes, hs_error *err);
int seed_intersect_steps_q(const hs_poly *A, const hs_poly *B, const hs_options *opt,
                           seed_step_fn fn, void *user, mpq_t *x, long *nodes, hs_error *err);

#endif
