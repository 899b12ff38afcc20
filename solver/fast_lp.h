/* fast_lp.h -- the fast engine's margin LP by a dual simplex method
 * (fast_lp.c), in floating point, on a set of rows that grows between
 * calls (Clarkson's rounds: the rows found violated join, and the method
 * goes on from the basis it had).
 *
 * Problem, in D = n + 1 variables z = (x, tau), as in seidel.h:
 *     maximise lexicographically  tau, x_1, ..., x_n  (by default; any
 *                                 order of the D variables, each with a sign)
 *     subject to  a_r . x + w_r tau <= b_r   for the rows r of the set,
 *                 lo <= z <= hi.
 * The rows come from the two banks of seidel.h (a row id below bank[0].m
 * is bank 0's, the rest bank 1's); box bounds have the ids of
 * SEIDEL_BOX_ID.
 *
 * Like Seidel's LP this is arithmetic in doubles with no guarantee: its
 * basis is certified afterwards (Farkas, contact or strictness checks of
 * engine_fast.c).  When it meets trouble (a basis too ill-conditioned to
 * trust, too many pivots) it says so and the caller uses seidel.c. */
#ifndef HS_FAST_LP_H
#define HS_FAST_LP_H

#include "solver/seidel.h"

#define FLP_MAX_D SEIDEL_MAX_DIM

typedef enum flp_status {
    FLP_OPTIMAL,    /* z is optimal over the rows given; basis, lambda hold it */
    FLP_INFEASIBLE, /* the rows and the box have no common point */
    FLP_STOPPED,    /* the hook asked to stop (z, basis current) */
    FLP_TROUBLE     /* numerical trouble or the pivot limit: use Seidel */
} flp_status;

/* Called after every pivot with the current vertex; return nonzero to
 * stop.  basis has D ids; lam_tau the multipliers of the margin objective
 * (D values: sum lam_tau[c] g_c = e_tau). */
typedef int (*flp_hook)(void *user, const double *z, const int *basis, const double *lam_tau);

typedef struct flp_state {
    int n, D;
    seidel_bank bank[2];
    const double *lo, *hi;
    int basis[FLP_MAX_D];
    double G[FLP_MAX_D * FLP_MAX_D];    /* row c: the normal of basis constraint c */
    double h[FLP_MAX_D];
    double Ginv[FLP_MAX_D * FLP_MAX_D]; /* inverse of G */
    int ovar[FLP_MAX_D];                /* objective t is osign[t] * z[ovar[t]] */
    double osign[FLP_MAX_D];
    double z[FLP_MAX_D];
    int pivots, since_refactor;
    int started;                        /* a basis is set (the corner, or a crash) */
    flp_hook hook;
    void *hook_user;
    double *tab;                        /* room for packed rows (flp_set_table) */
    int tab_cap, ntab;
} flp_state;

/* Start at the corner of the box the objectives push to (dual feasible
 * for the lexicographic objective; made by the first flp_solve, so that a
 * crash basis taken before it costs no corner).  objective (NULL: +tau,
 * +x_1, ..., +x_n) lists D codes: +(v + 1) to maximise z_v, -(v + 1) to
 * minimise it, each variable once (tau is variable n). */
void flp_init(flp_state *s, int n, const seidel_bank bank[2], const double *lo,
              const double *hi, const int *objective, flp_hook hook, void *hook_user);

/* A start nearer the optimum than the box corner, for the default
 * objective: the rows ra and rb (ids, e.g. the candidates of A and B
 * facing each other) with the box bounds of the other axes, when that
 * basis is dual feasible (ra and rb carry weight for tau; each box bound
 * on the side where its multipliers are lexicographically positive: for
 * tau, or for a later objective when ra and rb face each other exactly).
 * Returns 1 when taken, 0 when s is left to start at its box corner.
 * Only before the first flp_solve. */
int flp_crash(flp_state *s, int ra, int rb);

/* Room for tab_cap rows of n + 4 doubles, owned by the caller: the rows
 * of the set are packed there as they arrive (pricing then reads them in
 * order).  Without it (or beyond cap) rows are read from the banks.  The
 * set must only grow between calls of flp_solve (its first entries keep
 * their places). */
void flp_set_table(flp_state *s, double *tab, int cap);
/* The same with the rows packed so far copied from the current table to
 * tab (a larger one, when the set outgrows the first). */
void flp_move_table(flp_state *s, double *tab, int cap);

/* Re-optimise over the rows set[0..count-1] (ids), from the current basis. */
flp_status flp_solve(flp_state *s, const int *set, int count);

/* The optimum over every row of the banks, in Clarkson's rounds: the LP on
 * a set of rows (order[0 .. count) first, from s's current basis: rows
 * likely tight at the optimum, or none), a scan of the others at its
 * optimum, the FLP_ROUND_JOIN most violated join (the test of violation is
 * flp_solve's own pricing, so the optimum is the one over every row),
 * until none is; after FLP_ROUNDS rounds every row at once.  Each pivot
 * prices the set, not every row: for many rows and few pivots.  order and
 * in: scratch of one int and one byte a row (order holds the final set).
 * Returns what the last flp_solve returned, or FLP_OPTIMAL. */
#define FLP_ROUND_JOIN 12
#define FLP_ROUNDS 24
flp_status flp_solve_rounds(flp_state *s, int *order, unsigned char *in, int count);

#endif
