/* hpoly.h -- the H-representation {x : a_i . x <= b_i (or = b_i)} behind
 * the public hs_poly handle.  Rows are stored as doubles; a row whose
 * numbers as written are not all exactly doubles also keeps its exact
 * rationals. */
#ifndef HS_HPOLY_H
#define HS_HPOLY_H

#include <gmp.h>
#include <stdatomic.h>

#include "halfspace.h"

struct hs_poly {
    int n;                /* variables */
    int m;                /* rows */
    double *a;            /* m*n, row-major */
    double *b;            /* m */
    unsigned char *eq;    /* m: 1 = equality (linearity) row */
    unsigned char *exact; /* m: 1 = the doubles of the row are exact */
    mpq_t **q;            /* m pointers; q[i] = n+1 exact values (a_i, b_i)
                             for rows with exact[i] == 0, else NULL */
    int *line;            /* m source lines (0 if none) */
    int size_line;        /* line of the "m n+1 type" header (0 if none) */
    char *name;           /* file or given name */
    /* The fast engine's once-per-polyhedron data (solver/fast_prep.h),
     * built on first use by whichever thread needs it first and installed
     * atomically (fast_prep_get); NULL until then. */
    _Atomic(struct fast_prep *) prep;
    int no_prep;            /* a plain system never prepared (hpoly_from_rows) */
};

/* Empty system with room for m rows of n variables (all zero, exact).
 * Returns NULL when out of memory. */
hs_poly *hpoly_alloc(int n, int m, const char *name);

/* Set entry j of row i (j == n means b_i) from an exact rational, keeping
 * the rational when it is not exactly a double.  Returns 0, or -1 with
 * *why set when the value is outside the double range. */
int hpoly_set_q(hs_poly *p, int i, int j, const mpq_t v, const char **why);

/* The same for a finite double, taken exactly (no rational is formed). */
int hpoly_set_d(hs_poly *p, int i, int j, double v, const char **why);

/* Exact value of entry j of row i (j == n means b_i) into out. */
void hpoly_get_q(const hs_poly *p, int i, int j, mpq_t out);

/* Pointer to row i's coefficients (n doubles). */
static inline const double *hpoly_row(const hs_poly *p, int i)
{
    return p->a + (size_t)i * (size_t)p->n;
}

/* m rows of n doubles (taken exactly, inequalities) with no fast-engine
 * preparation: a plain system for the exact engine.  NULL when out of
 * memory; the values must be finite and in the double range. */
hs_poly *hpoly_from_rows(int n, int m, const double *a, const double *b);

/* Free p's storage.  p->prep must already be freed and NULL: the public
 * hs_poly_free (solver/poly_build.c) does both. */
void hpoly_destroy(hs_poly *p);

/* Nonzero when every row is exactly representable in doubles. */
int hpoly_all_exact(const hs_poly *p);

#endif
