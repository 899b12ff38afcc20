/* simplex_q_rounds.c -- the slack LP of many rows, solved exactly in
 * Clarkson's rounds (simplex_q.h: lp_solve_rounds).
 *
 * lp_solve's exact simplex prices every column at every exact pivot, and
 * where the optimum is nearly degenerate (two polyhedra a rounding apart,
 * or lying on each other: many rows nearly tight, reduced costs near
 * zero) its filters fail and the prices are taken in rationals: about a
 * millisecond at a thousand rows.  Here the exact LP runs on a few rows
 * only:
 *  1. the floating-point simplex on every row proposes an optimal point
 *     (as lp_solve's own proposal does); the set is the equality rows,
 *     its basis rows and the rows nearly tight at its point;
 *  2. lp_solve on the set (the other rows LP_OFF);
 *  3. tau* < 0 (or inconsistent equalities): the set alone is infeasible
 *     and its multipliers are a Farkas certificate for every row: done
 *     (tau* of the set bounds the full LP's from above);
 *  4. otherwise every other slack row is checked at the set's exact
 *     optimum (x*, tau*): a . x* + tau* <= b in doubles with a rigorous
 *     error bound, in rationals where the bound cannot decide.  None
 *     violated: (x*, tau*) is feasible for the full LP and optimal for a
 *     relaxation of it, so optimal, and the set's multipliers (0 on the
 *     other rows) are an optimal dual: done.  Otherwise the violated rows
 *     join the set and 2 runs again.
 * Every step is exact; floating point only chooses the set.  The answer
 * is an optimal solution of the same LP (tau* the same, the point and the
 * multipliers possibly another optimal pair). */
#include "solver/simplex_q.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/mem.h"
#include "polytope/predicates.h"

#define ROUNDS_MIN_ROWS 64   /* fewer slack rows: lp_solve on all of them */
#define ROUNDS_TIGHT 0x1p-20 /* rows this close to tight (relative) start the set */
#define ROUNDS_MAX 32        /* then lp_solve on every row (never seen) */

/* Sign of a_r . x + tau - b_r at the exact point, in rationals (from the
 * row's integer form: s a . x + s tau - s b, s > 0). */
static int exact_excess_sign(const zrows *z, int r, const lp_solution *sol, mpq_t acc, mpq_t t)
{
    zrows_need(z, r);
    const mpz_t *a = (const mpz_t *)zrows_coef(z, r);
    mpq_set_z(acc, z->scale[r]);
    mpq_mul(acc, acc, sol->tau);
    for (int j = 0; j < z->n; j++) {
        if (mpz_sgn(a[j]) == 0)
            continue;
        mpq_set_z(t, a[j]);
        mpq_mul(t, t, sol->x[j]);
        mpq_add(acc, acc, t);
    }
    mpz_set(mpq_numref(t), z->b[r]); /* s G b / G */
    mpz_set(mpq_denref(t), z->G);
    mpq_canonicalize(t);
    mpq_sub(acc, acc, t);
    return mpq_sgn(acc);
}

/* The slack rows outside the set (kind LP_SLACK, sub LP_OFF) violated at
 * the set's optimum join it.  Returns how many joined. */
static int join_violated(const zrows *z, const unsigned char *kind, unsigned char *sub,
                         const lp_solution *sol, double *xd)
{
    int n = z->n, joined = 0; /* x* and tau* rounded */
    int safe = pred_near_point(sol->x, n, xd);
    safe &= pred_near_value(sol->tau, &xd[n]);
    mpq_t acc, t;
    mpq_inits(acc, t, NULL);
    for (int r = 0; r < z->m; r++) {
        if (kind[r] != LP_SLACK || sub[r] != LP_OFF)
            continue;
        double b;
        int exact;
        const double *a = zrows_row_d(z, r, &b, &exact);
        int sign = safe && exact ? pred_row_sign_near(a, b, xd, xd[n], n) : 2;
        if (sign == 2)
            sign = exact_excess_sign(z, r, sol, acc, t);
        if (sign > 0) {
            sub[r] = LP_SLACK;
            joined++;
        }
    }
    mpq_clears(acc, t, NULL);
    return joined;
}

int lp_solve_rounds(const zrows *z, const unsigned char *kind, lp_solution *out)
{
    int slack = 0, n = z->n;
    for (int r = 0; r < z->m; r++)
        slack += kind[r] == LP_SLACK;
    if (slack <= ROUNDS_MIN_ROWS)
        return lp_solve(z, kind, out);
    unsigned char *sub = mem_calloc((size_t)z->m, 1);
    double *pi = mem_alloc((size_t)n + 1, sizeof(double));
    if (!sub || !pi || lp_float_point(z, kind, pi, sub) != 0) {
        free(sub);
        free(pi);
        return lp_solve(z, kind, out);
    }
    int chosen = 0;
    for (int r = 0; r < z->m; r++) { /* the set: basis rows, nearly tight rows, equalities */
        if (kind[r] != LP_SLACK) {
            sub[r] = kind[r];
            continue;
        }
        double b;
        int exact;
        const double *a = zrows_row_d(z, r, &b, &exact);
        double v = pi[n] - b, mag = fabs(pi[n]) + fabs(b);
        for (int j = 0; j < n; j++) {
            v += a[j] * pi[j];
            mag += fabs(a[j] * pi[j]);
        }
        sub[r] = sub[r] || !(v < -ROUNDS_TIGHT * mag) ? LP_SLACK : LP_OFF;
        chosen += sub[r] == LP_SLACK;
    }
    if (chosen > slack / 2) { /* nearly every row tight: no gain */
        free(sub);
        free(pi);
        return lp_solve(z, kind, out);
    }
    long pivots = 0, exact_pivots = 0;
    int rc = 0, repaired = 0, done = 0;
    for (int round = 0; round < ROUNDS_MAX && rc == 0 && !done; round++) {
        rc = lp_solve(z, sub, out);
        pivots += out->pivots;
        exact_pivots += out->exact_pivots;
        repaired |= out->repaired;
        done = rc == 0 && (out->status == LP_EQ_INCONSISTENT || mpq_sgn(out->tau) < 0 ||
                           join_violated(z, kind, sub, out, pi) == 0);
    }
    free(sub);
    free(pi);
    if (rc == 0 && !done) /* (rounds exhausted: every row at once) */
        return lp_solve(z, kind, out);
    out->pivots = pivots;
    out->exact_pivots = exact_pivots;
    out->repaired = repaired;
    return rc;
}
