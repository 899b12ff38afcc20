/* simplex_q.h -- the slack LP of a system of rows, solved exactly.
 *
 *     maximise tau   subject to   a_r . x + tau <= b_r   (rows of kind LP_SLACK)
 *                                 a_r . x        = b_r   (rows of kind LP_EQ)
 *                                          tau   <= 1
 *
 * x and tau are free.  tau* > 0 means a point satisfies every slack row
 * strictly; tau* = 0 means the system is feasible but no point does;
 * tau* < 0 means the system is infeasible.  The LP is solved through its
 * dual (n+1 equality rows):
 *
 *     minimise sum b_r y_r + w   subject to   sum y_r a_r = 0,
 *                                             sum_{slack} y_r + w = 1,
 *                                             y_r >= 0 (slack), w >= 0,
 *                                             y_r free (equality rows),
 *
 * whose optimal basic solution is the certificate: for tau* < 0 it is a
 * Farkas combination 0.x <= tau* - w < 0 on at most n+1 rows; for
 * tau* = 0 it is a combination 0.x <= 0 that is positive on some slack
 * rows, which are therefore tight everywhere on the system.
 *
 * How it is solved (simplex_q.c): a floating-point simplex (simplex_d.c)
 * proposes an optimal basis; the exact simplex starts from that basis,
 * kept as integers (basis_q.c), and checks it: primal and dual feasibility
 * in exact arithmetic (signs of the m reduced costs filtered in floating
 * point with a rigorous error bound, exact where the filter cannot
 * decide).  A basis that passes is optimal and no exact pivot is made;
 * otherwise the exact simplex continues from it (or from the start when
 * the proposal is singular or infeasible), so the answer never depends on
 * floating point. */
#ifndef HS_LP_EXACT_H
#define HS_LP_EXACT_H

#include <gmp.h>

#include "solver/rows_z.h"

typedef enum lp_kind { LP_OFF = 0, LP_SLACK, LP_EQ } lp_kind;

typedef enum lp_status {
    LP_OPTIMAL,        /* tau, x, y, w hold an optimal primal/dual pair */
    LP_EQ_INCONSISTENT /* the equality rows alone have no solution; y holds
                          multipliers on them with sum y a = 0, sum y b < 0 */
} lp_status;

typedef struct lp_solution {
    lp_status status;
    mpq_t tau;
    mpq_t *x;     /* n */
    mpq_t *y;     /* m, multipliers on the original (unscaled) rows */
    mpq_t w;      /* multiplier of tau <= 1 */
    long pivots;  /* simplex pivots: floating-point and exact */
    long exact_pivots; /* of which exact (after the proposed start) */
    int proposed; /* the floating-point simplex proposed a start */
    int repaired; /* ... which was not optimal exactly as proposed (rejected,
                     or the exact simplex had to pivot) */
    int n, m;
} lp_solution;

int lp_solution_init(lp_solution *s, int n, int m);
void lp_solution_free(lp_solution *s);

/* Solve the slack LP on the rows of z with the given kinds (m entries).
 * Returns 0, -1 when out of memory, -2 on an internal failure (singular
 * basis or pivot limit: a bug, reported as such by the callers). */
int lp_solve(const zrows *z, const unsigned char *kind, lp_solution *out);

/* The floating-point simplex's proposal for the LP of the rows of kind
 * (lp_solve's own, the same columns from the same start): its point
 * (x, tau) in pi (n + 1 doubles) and the rows of its basis flagged in
 * basis_rows (z->m entries; others left alone).  0 when the proposal is
 * optimal to its tolerances; -1 when not, or out of memory. */
int lp_float_point(const zrows *z, const unsigned char *kind, double *pi, unsigned char *basis_rows);

/* The same LP, the same tau* and an optimal pair (x, y) of it, solved in
 * Clarkson's rounds (simplex_q_rounds.c): lp_solve on a few rows chosen by
 * a floating-point proposal, the rows violated at that exact optimum
 * added, again; every check exact.  Above 64 slack rows; fewer: lp_solve.
 * Where tau* < 0 the answer is the LP of the rows in the last set (its
 * tau* may lie above the full LP's; its multipliers are a Farkas
 * certificate of the whole system).  Same returns as lp_solve. */
int lp_solve_rounds(const zrows *z, const unsigned char *kind, lp_solution *out);

/* lp_solve with the start chosen (for tests and measurements):
 * LP_START_FLOAT is lp_solve (the floating-point proposal); LP_START_COLD
 * runs the exact simplex alone from the artificial basis; LP_START_GIVEN
 * pivots the k column indices in `given` into the start as if they had
 * been proposed (any indices in [0, number of columns): the solver copes
 * with singular, infeasible or repeated ones).  Columns are numbered in
 * the order of the stacked rows, one per slack row and two (+, -) per
 * equality row (rows of kind LP_OFF have none), then w, then the n
 * artificials. */
typedef enum lp_start { LP_START_FLOAT, LP_START_COLD, LP_START_GIVEN } lp_start;
int lp_solve_start(const zrows *z, const unsigned char *kind, lp_start start, const int *given,
                   lp_solution *out);

#endif
