/* seidel.h -- Seidel's randomized incremental LP (1991) in floating point,
 * in the form of seed 002's recursion: rows are added one at a time; a row
 * that the current optimum violates becomes an equality, one variable is
 * eliminated with it, and the problem one dimension down (over the rows
 * added before it) is solved recursively.  With the rows in random order
 * the expected work is O(d! m) for d variables and m rows.
 *
 * Problem, in D = n + 1 variables z = (x, tau):
 *     maximise lexicographically  c_1 . z, c_2 . z, ..., c_D . z
 *     subject to  a_r . x + w_r tau <= b_r   for the rows r given,
 *                 lo <= z <= hi               (a box, always present).
 * By default the objectives are c_1 = e_tau (the margin), then e_x1, ...,
 * e_xn; any list whose vectors span R^D makes the optimum a unique vertex
 * of the box-bounded problem, which Seidel's argument needs.
 *
 * This is arithmetic in doubles with no guarantee: every answer it helps
 * to give is certified afterwards (engine_fast.c).  Memory: the workspace holds
 * the projected rows of every level, (D-1) (m + 2D) (D + 2) doubles, i.e.
 * O(m n^2); no allocation happens inside seidel_solve. */
#ifndef HS_SEIDEL_H
#define HS_SEIDEL_H

#include <stddef.h>

#define SEIDEL_MAX_DIM 17 /* D = n + 1 <= 17 */

/* A row counts as violated only beyond this relative margin (of the sum
 * of the magnitudes of its terms), so rounding noise on rows tight at the
 * optimum does not trigger recursions.  Answers never depend on it: they
 * are certified afterwards. */
#define SEIDEL_VIOLATION_TOL 1e-12

/* Basis ids: a row is named by its index (the value found in order[]); a
 * box bound by a negative id. */
#define SEIDEL_BOX_ID(var, upper) (-1 - (2 * (var) + ((upper) ? 1 : 0)))
#define SEIDEL_BOX_VAR(id) ((-1 - (id)) / 2)
#define SEIDEL_BOX_UPPER(id) ((-1 - (id)) % 2)

typedef enum seidel_status {
    SEIDEL_OPTIMAL,    /* z, basis hold the optimum */
    SEIDEL_INFEASIBLE, /* basis holds the rows (and box bounds) in conflict */
    SEIDEL_STOPPED,    /* the update hook asked to stop; z, basis current */
    SEIDEL_NUMERIC,    /* rounding broke the recursion (a non-finite value) */
    SEIDEL_NOMEM
} seidel_status;

/* Called at the top level each time the optimum moves; return nonzero to
 * stop.  basis has D ids. */
typedef int (*seidel_hook)(void *user, const double *z, const int *basis);

/* Rows are read in place from up to two banks (the two polyhedra): row
 * index r < bank[0].m is row r of bank 0, otherwise row r - bank[0].m of
 * bank 1. */
typedef struct seidel_bank {
    const double *a; /* m * n coefficients, row-major */
    const double *w; /* m tau coefficients (NULL: all zero) */
    const double *b; /* m right-hand sides */
    int m;
} seidel_bank;

typedef struct seidel_problem {
    int n;                   /* x variables; D = n + 1 */
    seidel_bank bank[2];
    int m;                   /* rows to add */
    int *order;              /* the m row indices, in the order to add them;
                                rows that become equalities at the top level
                                move to the front (move-to-front: later
                                sub-problems meet the current basis first) */
    const double *lo, *hi;   /* D box bounds */
    const double *obj;       /* D*D: objective t is obj[t*D..]; NULL: default */
    int forced;              /* -1, or a row index (among order[]) made an
                                equality before any other row is added: the
                                problem is solved on its hyperplane, one
                                dimension down (seed 002's move, used when a
                                row is expected to be tight at the optimum) */
    seidel_hook hook;        /* may be NULL */
    void *hook_user;
} seidel_problem;

typedef struct seidel_work seidel_work;

/* Workspace for up to m rows of n variables (grows on demand in
 * seidel_reserve; seidel_solve never allocates). */
seidel_work *seidel_work_new(void);
void seidel_work_free(seidel_work *w);
/* Make room for m rows of n variables; returns 0 or -1 (out of memory). */
int seidel_reserve(seidel_work *w, int n, int m);
/* Bytes held by the workspace. */
size_t seidel_work_bytes(const seidel_work *w);

/* Solve; z receives D values, basis D ids (D+1 room: an infeasible
 * answer lists up to D+1 rows and box bounds in conflict).  *recursions (may be NULL)
 * receives the number of violated rows that triggered a recursion. */
seidel_status seidel_solve(seidel_work *w, const seidel_problem *p, double *z, int *basis,
                           long *recursions);

#endif
