/* crosscheck_rows.h -- the building blocks of the crosscheck instance
 * generator (solver/crosscheck_gen.c): random integers from one splitmix64
 * stream, small integer vectors, exact rank, sums and products checked for
 * exactness, and a growing list of rows that remembers whether any number
 * in it would have been rounded.  Private to the generator. */
#ifndef HS_CROSSCHECK_ROWS_H
#define HS_CROSSCHECK_ROWS_H

#include <stdint.h>

#include "halfspace.h"

/* ---------------------------------------------------------------- random
 * Every draw comes from rng_splitmix (polytope/rng.h) on the caller's
 * state word. */

/* Uniform integer in [lo, hi]. */
int cc_rand_int(uint64_t *g, int lo, int hi);
/* 0 or 1. */
int cc_rand_coin(uint64_t *g);

/* --------------------------------------------------------------- vectors */

/* a . b in R^n, summed in index order. */
double cc_dot(int n, const double *a, const double *b);
/* Nonzero integer vector with entries in [lo, hi]. */
void cc_rand_vec(uint64_t *g, int n, int lo, int hi, double *v);
/* Integer point with entries in [-range, range]. */
void cc_rand_point(uint64_t *g, int n, int range, double *p);
/* out = k v (out may be v). */
void cc_scale_vec(int n, double k, const double *v, double *out);
/* Rank of k vectors of length n (row-major), by exact elimination; -1
 * when out of memory. */
int cc_rank(int k, int n, const double *vecs);
/* Are the k vectors linearly independent? */
int cc_independent(int k, int n, const double *vecs);
/* x + y and x * y into *out; 1 when the double result is exact. */
int cc_exact_sum(double x, double y, double *out);
int cc_exact_product(double x, double y, double *out);

/* ------------------------------------------------------------------ rows */

/* A growing list of rows a.x <= b (or = b). */
typedef struct cc_rows {
    int n, m, cap;
    double *a;
    double *b;
    unsigned char *eq;
    int oom;     /* an allocation failed */
    int inexact; /* a number would have been rounded */
} cc_rows;

void cc_rows_init(cc_rows *R, int n);
void cc_rows_free(cc_rows *R);
/* Append a.x <= b (= b when eq). */
void cc_rows_add(cc_rows *R, const double *a, double b, int eq);
/* a.x <= a.p + extra (or = when eq), with the sum checked for exactness. */
void cc_rows_add_at(cc_rows *R, const double *a, const double *p, double extra, int eq);
/* k a.x <= k beta (or = k beta when eq), k > 0. */
void cc_rows_add_scaled(cc_rows *R, double k, const double *a, double beta, int eq);
/* `count` random rows a.x <= a.p + s, s in 1..6: p stays well inside. */
void cc_add_strict_rows(cc_rows *R, uint64_t *g, int count, const double *p);
/* Bounding box around p: |x_j - p_j| <= r_j, r_j in 1..8. */
void cc_add_box(cc_rows *R, uint64_t *g, const double *p);
/* A positive factor that leaves a row's meaning unchanged. */
double cc_pick_scale(uint64_t *g);
/* c.p + extra, flagging R when the sum would round. */
double cc_plane_value(cc_rows *R, const double *c, const double *p, double extra);
/* The hyperplane c.x = beta: one equality row, or two opposite rows. */
void cc_add_plane(cc_rows *R, uint64_t *g, const double *c, double beta, int as_eq);
/* Move the polyhedron by s*c: a.x <= b becomes a.x <= b + s (a.c). */
void cc_rows_translate(cc_rows *R, double s, const double *c);
/* Copy row i of R, with b increased by `extra` and everything times k. */
void cc_add_row_copy(cc_rows *R, int i, double extra, double k);
/* Replace row i by k times itself. */
void cc_scale_row(cc_rows *R, int i, double k);
/* Shuffle the rows (so the family's own rows are not always first) and
 * build the polyhedron. */
hs_poly *cc_rows_to_poly(cc_rows *R, uint64_t *g, hs_error *err);

#endif
