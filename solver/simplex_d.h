/* simplex_d.h -- a dense revised simplex in floating point, for LPs in the
 * standard form
 *
 *     minimise sum_c cost_c y_c   subject to   sum_c y_c A_c = rhs,  y >= 0,
 *
 * with k equality rows (k = n or n + 1) and columns A_c that are either
 * unit vectors (+-e_i) or a row of coefficients a (n doubles) followed, when
 * k = n + 1, by one more entry t.  This is the dual of the LPs the solver
 * asks (x free, one row a . x + t tau <= b per column, cost b): at an
 * optimal basis the simplex multipliers pi = c_B B^-1 are the primal
 * point (x, tau).
 *
 * It only proposes: its answer is a basis, which the callers verify or
 * use as a start in exact arithmetic (simplex_q.c), or a point whose
 * strictness they check exactly (lpd.c).  Numerically it is careful but
 * not certified: B^-1 is kept explicitly (dense, zero entries skipped),
 * updated in product form and recomputed by Gauss-Jordan elimination with
 * partial pivoting every max(100, 2k) pivots; pricing is Dantzig's rule on
 * columns scaled to unit largest entry with a relative tolerance, partial
 * (a short list of the most negative columns of the last full pass is
 * priced first); the ratio test is Harris's two passes with bounded
 * tolerances; after a run of degenerate pivots the rule switches to
 * Bland's smallest index; a pivot limit stops it.  A start whose levels
 * are not all >= 0 but whose reduced costs are (an optimal basis of the
 * same LP with another right side) is first repaired by dual simplex
 * pivots. */
#ifndef HS_SIMPLEX_D_H
#define HS_SIMPLEX_D_H

typedef struct dlp_col {
    const double *a;     /* n coefficients, or NULL for a unit column */
    double t;            /* last entry (k == n + 1) of a coefficient column */
    double sign;         /* the column is sign * (a, t), or sign * e_unit */
    int unit;            /* unit column: position of its nonzero */
    double cost;         /* cost of the column (of sign * (a, t) as a whole) */
    unsigned char fixed; /* may leave the basis but never enters */
} dlp_col;

typedef struct dlp {
    int n, k;
    int ncol;
    const dlp_col *col;
    const double *rhs;   /* k */
} dlp;

typedef enum dlp_status {
    DLP_OPTIMAL,   /* basis optimal within the tolerances */
    DLP_UNBOUNDED, /* an entering column without a leaving one: *ray_col */
    DLP_FAILED,    /* singular basis, pivot limit or non-finite numbers */
    DLP_NOMEM
} dlp_status;

/* Solve lp from the starting basis in basis[0 .. k-1] (nonsingular; either
 * B^-1 rhs >= 0, or dual feasible: see above).  On return basis holds the
 * last basis (for DLP_FAILED: the last one known nonsingular), pi (k
 * doubles, may be NULL) its multipliers c_B B^-1, *pivots the pivots made,
 * *ray_col (may be NULL) the entering column of an unbounded ray. */
dlp_status dlp_solve(const dlp *lp, int *basis, double *pi, long *pivots, int *ray_col);

#endif
