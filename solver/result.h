/* result.h -- the hs_result object: status, exact witness point and
 * certificate multipliers, filled by the engines and read by the API, the
 * verifier and the writers.  All numbers are exact rationals. */
#ifndef HS_RESULT_H
#define HS_RESULT_H

#include <gmp.h>

#include "halfspace.h"

/* What the multipliers of a result prove. */
typedef enum cert_kind {
    CERT_NONE = 0,    /* no certificate (faithful and GLPK engines) */
    CERT_FARKAS,      /* infeasible / disjoint: combination 0.x <= negative */
    CERT_SEPARATION,  /* touching: combination 0.x <= 0 plus a strict point */
    CERT_IMPLICIT     /* overlap of lower-dimensional polyhedra: combination
                         0.x <= 0 positive exactly on implicit equalities */
} cert_kind;

typedef struct cert_mult {
    int which; /* 0 = A (or the single system), 1 = B */
    int row;   /* 0-based row */
    mpq_t y;
} cert_mult;

struct hs_result {
    hs_status status;
    hs_engine engine;
    int n;               /* dimension of points */
    int has_point;
    mpq_t *point;        /* n entries when has_point */
    int point_cap;       /* initialised entries of point and strict */
    cert_kind kind;
    cert_mult *mult;
    int nmult, mult_cap; /* entries in use / initialised */
    int has_strict;      /* separation: a point of polyhedron strict_which */
    int strict_which;
    mpq_t *strict;
    long nodes;          /* seed-002 recursion nodes / Seidel recursions */
    long pivots;         /* simplex pivots of the exact classification */
    /* Fast engine: the answer in double form, made exact only on demand.
     * lazy: point_d (n) holds the point, and a Farkas certificate (if
     * lazy_D > 0) is the solution y of G y = e_tau for the D columns
     * g_c = lazy_g[c*D ..] (rows (a, w) of A/B, or unit box bounds with
     * lazy_which = -1 whose multiplier is certified to be 0). */
    int lazy;
    double *point_d;
    int lazy_D, lazy_cap;
    double *lazy_g, *lazy_h;
    int *lazy_which, *lazy_row;
    /* lazy_touch: a separation certificate (touching): the multipliers as
     * for Farkas, the point the x part of z with rows g_c . z = h_c (point_d
     * holds it to a few ulps), the strict point strict_d (n doubles) in A. */
    int lazy_touch;
    double *strict_d;
    int fell_back;       /* the last query needed the exact fallback */
    void *fast;          /* fast engine workspace (fast_work.h) */
};

/* Room for a lazy answer of dimension n (D = n + 1 columns); 0 or -1. */
int result_lazy_reserve(hs_result *r, int n);

/* r itself when it holds exact data, else a new exact copy in *tmp (free
 * it with hs_result_free); NULL when out of memory. */
const hs_result *result_exact(const hs_result *r, hs_result **tmp);

/* Start a new answer of dimension n: clears point and certificate.
 * Returns 0, or -1 when out of memory. */
int result_reset(hs_result *r, hs_status status, int n);

/* Set the point from doubles (taken exactly) or from rationals. */
void result_set_point_d(hs_result *r, const double *x);
void result_set_point_q(hs_result *r, mpq_t *const x);

/* Append multiplier y on row `row` of polyhedron `which`.  Returns 0 or -1
 * when out of memory. */
int result_add_mult(hs_result *r, int which, int row, const mpq_t y);

/* The point of r in doubles, cheaply: the nearest doubles, except for a
 * lazy contact point, which may be a few ulps off them (hs_result_point
 * gives the nearest ones).  0, or -1 when r holds no point. */
int result_point_near(const hs_result *r, double *x);

/* sum y_k a_k over the certificate's multipliers on rows of polyhedron
 * `which` (p: its rows; a lazy result reads them from its columns), in
 * floating point: the direction of a separating plane, measured, not
 * proved.  out has n entries.  0, or -1 when r has no multipliers. */
int result_normal_d(const hs_result *r, int which, const hs_poly *p, double *out);

/* Set the strict point of a separation certificate. */
void result_set_strict(hs_result *r, int which, mpq_t *const z);

#endif
