/*
 * halfspace.h -- exact intersection tests for convex polyhedra given as
 * systems of linear inequalities {x in R^n : A x <= b}.
 *
 * This is the one public header of libhalfspace.  Every type is an opaque
 * handle or a plain options struct filled by an *_init function; every name
 * starts with hs_ (types, functions) or HS_ (constants).
 *
 * Conventions used in the documentation of every routine below
 * -----------------------------------------------------------------
 * Errors.     Routines that can fail take a last argument `hs_error *err`
 *             (may be NULL).  On failure they return NULL or a nonzero
 *             hs_code and fill err->code and err->msg.  For input errors the
 *             message has the form "FILE:LINE: what is wrong".
 * Ownership.  Whatever a routine returns through a pointer the caller owns
 *             and frees with the matching *_free (or hs_free for strings).
 * Exactness.  Every answer is about the numbers exactly as written: the
 *             text 0.3 means 3/10, not the nearest double.  Doubles passed
 *             through the API are taken at their exact binary value.
 * Threads.    There is no global mutable state.  Each routine states its
 *             thread-safety; "const-safe" means: may run concurrently from
 *             any number of threads as long as the objects passed as const
 *             are not modified meanwhile and each thread uses its own
 *             non-const objects (for example its own hs_result).
 */
#ifndef HALFSPACE_H
#define HALFSPACE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HS_VERSION_MAJOR 0
#define HS_VERSION_MINOR 1
#define HS_VERSION_PATCH 0

/* Version string "MAJOR.MINOR.PATCH".  Thread-safe. */
const char *hs_version(void);

/* ------------------------------------------------------------------ */
/* Errors                                                               */
/* ------------------------------------------------------------------ */

typedef enum hs_code {
    HS_OK = 0,
    HS_ERR_INPUT,      /* malformed or invalid input (file or arrays) */
    HS_ERR_ARG,        /* invalid argument to an API routine */
    HS_ERR_IO,         /* a file could not be opened, read or written */
    HS_ERR_NOMEM,      /* out of memory */
    HS_ERR_UNSUPPORTED,/* valid request this build cannot honour */
    HS_ERR_INTERNAL    /* a self-check failed: please report it */
} hs_code;

#define HS_ERROR_MSG_SIZE 512

/* Error details.  msg is always NUL-terminated. */
typedef struct hs_error {
    hs_code code;
    char msg[HS_ERROR_MSG_SIZE];
} hs_error;

/* Reset *err to HS_OK with an empty message.  Thread-safe. */
void hs_error_clear(hs_error *err);

/* Free a string returned by the library (NULL is allowed).  Thread-safe. */
void hs_free(void *p);

/* ------------------------------------------------------------------ */
/* Polyhedra in H-representation                                        */
/* ------------------------------------------------------------------ */

/* An immutable system of m rows over n variables.  Row i (0-based in the
 * API, 1-based in files and in printed output) is either an inequality
 * a_i . x <= b_i or, if it is a linearity row, an equality a_i . x = b_i.
 * Every number is stored as a double and, when the value as written is not
 * exactly a double, also as an exact rational.  Empty and unbounded
 * polyhedra are legal. */
typedef struct hs_poly hs_poly;

/* Read a cddlib/lrs H-representation (.ine) file.
 * Accepted: comment lines starting with '*' or '#', one optional name line,
 * "H-representation", "linearity k i1 .. ik" (before "begin" or after
 * "end"), "begin", "m n+1 real|rational|integer", m rows "b -a1 .. -an"
 * (meaning b - a.x >= 0, one row per line), "end", and the output-only
 * options of cddlib and lrs after "end" (ignored).  Numbers: integers,
 * decimals, exponents (1.5e-3) and fractions p/q; "integer" files accept
 * integers only.  Errors ("FILE:LINE: ..."): missing begin/end, wrong
 * counts, bad or non-finite numbers, numbers outside the double range,
 * m = 0, n = 0, bad linearity indices, V-representations, unknown options.
 * Returns a new polyhedron, or NULL on error.  Thread-safe. */
hs_poly *hs_poly_read(const char *path, hs_error *err);

/* Same as hs_poly_read on text held in memory; `name` is used as FILE in
 * error messages.  Thread-safe. */
hs_poly *hs_poly_parse(const char *text, const char *name, hs_error *err);

/* Build from doubles: A is m*n row-major, b has m entries, is_eq (may be
 * NULL) has m flags marking equality rows.  Values are taken exactly.
 * NaN/inf, m < 1 or n < 1 are errors.  Thread-safe. */
hs_poly *hs_poly_from_doubles(int n, int m, const double *A, const double *b,
                              const unsigned char *is_eq, hs_error *err);

/* Build from exact decimal or rational strings ("3/10", "-2.5e-1", "7"),
 * laid out like hs_poly_from_doubles.  Thread-safe. */
hs_poly *hs_poly_from_strings(int n, int m, const char *const *A,
                              const char *const *b,
                              const unsigned char *is_eq, hs_error *err);

/* Free a polyhedron (NULL is allowed).  Not safe while another thread uses
 * the same polyhedron. */
void hs_poly_free(hs_poly *p);

/* Number of variables n.  Const-safe. */
int hs_poly_dim(const hs_poly *p);
/* Number of rows m.  Const-safe. */
int hs_poly_rows(const hs_poly *p);
/* Nonzero when the fast engine can answer queries with p by itself: every
 * row is an inequality whose numbers are exactly doubles, and a strictly
 * interior point was found and certified when p was built.  Otherwise
 * *why (if not NULL) names the reason, and fast queries with p are
 * answered by the exact engine (counted by hs_result_fallback).
 * Const-safe. */
int hs_poly_fast_ready(const hs_poly *p, const char **why);

/* Nonzero if row i (0-based) is an equality.  Const-safe. */
int hs_poly_row_is_eq(const hs_poly *p, int i);
/* Nearest doubles of row i: a[0..n-1] and *b.  Returns nonzero if these are
 * the exact values.  Const-safe. */
int hs_poly_row(const hs_poly *p, int i, double *a, double *b);
/* Name the polyhedron was read from (file path or given name).  Const-safe. */
const char *hs_poly_name(const hs_poly *p);

/* Write p in cddlib H-representation format with every number exact
 * (integers or p/q).  Returns HS_OK or HS_ERR_IO.  Const-safe. */
hs_code hs_poly_write(const hs_poly *p, FILE *out, hs_error *err);

/* ------------------------------------------------------------------ */
/* Queries                                                              */
/* ------------------------------------------------------------------ */

/* The answers.  For one system: FEASIBLE / INFEASIBLE.  For a pair:
 *   DISJOINT   no common point;
 *   TOUCHING   common points, but the relative interiors do not meet
 *              (faces, edges or vertices in contact);
 *   OVERLAP    the relative interiors meet (for full-dimensional
 *              polyhedra: a common interior point).
 *   INTERSECT  a common point exists, not classified further (the
 *              faithful engine answers as the paper does). */
typedef enum hs_status {
    HS_INFEASIBLE = 0,
    HS_FEASIBLE,
    HS_DISJOINT,
    HS_TOUCHING,
    HS_OVERLAP,
    HS_INTERSECT
} hs_status;

/* Lower-case name of a status ("overlap", ...).  Thread-safe. */
const char *hs_status_name(hs_status s);

typedef enum hs_engine {
    HS_ENGINE_EXACT = 0,    /* exact LP over GMP rationals: the three-way
                               classification with verified certificates */
    HS_ENGINE_FAITHFUL,     /* seed-002 routines in double, as written */
    HS_ENGINE_GLPK,         /* GLPK simplex (cross-checking only) */
    HS_ENGINE_GLPK_EXACT,   /* GLPK glp_exact (cross-checking only) */
    HS_ENGINE_FAST,         /* the default: seed-002's recursion as Seidel's
                               randomized LP in doubles, every answer
                               certified by exact-sign predicates, exact
                               engine when they cannot decide */
    HS_ENGINE_FAITHFUL_EXACT /* seed-002 routines over GMP rationals, as
                               written (intersect / disjoint, exact points) */
} hs_engine;

/* Defined since the fast engine exists (for programs that must also build
 * against older headers). */
#define HS_ENGINE_FAST_AVAILABLE 1

/* Name of an engine ("exact", "faithful", "glpk", "glpk-exact", "fast",
 * "faithful-exact"), and the reverse lookup (returns nonzero if the name is
 * known).  Thread-safe. */
const char *hs_engine_name(hs_engine e);
int hs_engine_from_name(const char *name, hs_engine *e);

/* Receives one line of trace text (no trailing newline). */
typedef void (*hs_trace_fn)(void *user, const char *line);

/* Options of a query; fill with hs_options_init, then change fields. */
typedef struct hs_options {
    hs_engine engine;        /* default HS_ENGINE_FAST */
    /* Faithful engine only: a computed value v is treated as zero when
     * |v| <= faithful_tol * (magnitude of the terms it was computed from).
     * 0 means exact comparisons of doubles, as the paper writes them.
     * Default 1e-12. */
    double faithful_tol;
    /* Trace for teaching: the seed-002 recursion (faithful engines), the
     * steps of the fast engine, the LPs of the exact engine.  Called once
     * per line; NULL for none.  Default NULL. */
    hs_trace_fn trace;
    void *trace_user;
    /* Teaching aid for the faithful engines: when replay_s and
     * replay_t are non-NULL (n entries each), the top level of the
     * intersection routine uses these points as s and t instead of
     * computing them, as the paper's worked examples do.  A point that
     * violates its own system is reported in the trace and used anyway.
     * Default NULL. */
    const double *replay_s;
    const double *replay_t;
} hs_options;

/* Fill *opt with the defaults above.  Thread-safe. */
void hs_options_init(hs_options *opt);

/* The answer of one query, with its witness point and certificate.
 * A result object is reusable: create it once per thread and pass it to
 * many queries; each query overwrites it.  It also owns the scratch memory
 * of the fast engine: O(m n^2) for queries with m rows in all (precisely
 * n (m + 2n + 2)(n + 3) doubles and (n + 1)(m + 2n + 2) ints: the rows
 * projected at each level of the recursion, at most n levels), allocated at
 * the first query and grown only when a larger query than ever before
 * arrives, so a loop of queries on polyhedra of bounded size allocates
 * nothing.  (A query that falls back to the exact engine does allocate.)
 * The fast engine keeps its answer in double form and turns it into exact
 * rationals only when it is read, written or verified. */
typedef struct hs_result hs_result;

/* New empty result, or NULL when out of memory.  Thread-safe. */
hs_result *hs_result_new(void);
/* Free a result (NULL is allowed). */
void hs_result_free(hs_result *r);

/* Decide whether {x : A x <= b} is empty.  On success the result holds
 * HS_FEASIBLE with a point, or HS_INFEASIBLE with (exact and fast engines)
 * Farkas multipliers on at most n+1 rows.  Returns HS_OK or an error code.
 * Const-safe in p; r must not be shared between threads.  The GLPK
 * engines are not thread-safe. */
hs_code hs_feasible(const hs_poly *p, const hs_options *opt, hs_result *r,
                    hs_error *err);

/* Decide how A and B meet.  A and B must have the same dimension.  The
 * fast and exact engines answer DISJOINT, TOUCHING or OVERLAP with a
 * certificate (see hs_result_verify); the faithful engines answer
 * INTERSECT or DISJOINT with a point; the GLPK engines classify like the
 * exact one without certificates.  Returns HS_OK or an error code.  Const-safe in A
 * and B; r must not be shared between threads.  The GLPK engines are not
 * thread-safe. */
hs_code hs_intersect(const hs_poly *A, const hs_poly *B,
                     const hs_options *opt, hs_result *r, hs_error *err);

/* Many pairs at once: pair k is (A[k], B[k]), k < count.  With threads > 1
 * the pairs are shared out among that many worker threads (0: one per
 * online CPU); the GLPK engines always run on the calling thread.  The
 * status of pair k goes to status[k] (count entries, may be NULL), and,
 * when results is not NULL, its whole answer to results[k] (count
 * distinct result objects from hs_result_new).  opt->trace, if set, is
 * called from the worker threads and must be thread-safe.  Returns HS_OK,
 * or the error of the lowest-numbered pair that failed (err describes it,
 * prefixed "pair K: "); the other pairs are still answered.  Const-safe
 * in the polyhedra; the arrays must not be shared with other calls. */
hs_code hs_intersect_batch(const hs_poly *const *A, const hs_poly *const *B, size_t count,
                           const hs_options *opt, int threads, hs_status *status,
                           hs_result **results, hs_error *err);

/* Status of the last query stored in r.  Const-safe. */
hs_status hs_result_status(const hs_result *r);
/* Dimension of the point in r.  Const-safe. */
int hs_result_dim(const hs_result *r);
/* Nonzero if r holds a point (feasible / intersecting answers). */
int hs_result_has_point(const hs_result *r);
/* Nearest doubles of the point into x[0..dim-1].  Returns HS_OK, or
 * HS_ERR_ARG if r holds no point.  Const-safe. */
hs_code hs_result_point(const hs_result *r, double *x);
/* Exact coordinate j of the point as a string ("-1/2"); free with hs_free.
 * NULL if there is no point or j is out of range.  Const-safe. */
char *hs_result_point_str(const hs_result *r, int j);

/* Certificates.  A certificate lists multipliers y_k >= 0 on rows
 * (equality rows may carry any sign).  Which polyhedron: 0 = A (or the
 * single system), 1 = B.  Rows are 0-based here.
 *  - INFEASIBLE / DISJOINT: sum_k y_k (a_k . x - b_k) reads 0 . x <= -c with
 *    c > 0 (Farkas); at most n+1 rows.
 *  - TOUCHING: the multipliers give sum = 0 . x <= 0, so the hyperplane
 *    H = {x : sum over A's rows of y_k a_k . x = sum y_k b_k} has A on one
 *    side and B on the other; the "strict point" lies in A (or B) strictly
 *    off H, so the relative interiors cannot meet; the point lies in both.
 *  - OVERLAP: the point; if A or B is not full-dimensional the
 *    multipliers prove which rows are implicit equalities (a nonnegative
 *    combination equal to 0 . x <= 0 that is positive on exactly those rows
 *    of that polyhedron), and the point satisfies every other row strictly.
 * Count of multipliers.  Const-safe. */
int hs_result_multiplier_count(const hs_result *r);
/* Multiplier k: polyhedron index, row, nearest double, and (if exact is
 * not NULL) the exact value as a string to free with hs_free.  Returns
 * HS_OK or HS_ERR_ARG.  Const-safe. */
hs_code hs_result_multiplier(const hs_result *r, int k, int *which, int *row,
                             double *value, char **exact);

/* Check the certificate in r against A (and B, NULL for a single system)
 * in exact arithmetic, independently of how it was produced.  Returns
 * HS_OK when it proves the status, HS_ERR_INPUT with a reason otherwise.
 * Const-safe. */
hs_code hs_result_verify(const hs_result *r, const hs_poly *A,
                         const hs_poly *B, hs_error *err);

/* Write r in the text form printed by the CLI (first line the status,
 * then "point", "multiplier" and "strict" lines) or as one JSON object with
 * "status", "point" and "certificate", every number an exact string.
 * Const-safe. */
hs_code hs_result_write_text(const hs_result *r, FILE *out, hs_error *err);
hs_code hs_result_write_json(const hs_result *r, FILE *out, hs_error *err);

/* Read a certificate written by hs_result_write_text (path, or text with a
 * name for messages) for polyhedra of dimension n.  Returns a new result or
 * NULL on error.  Thread-safe. */
hs_result *hs_result_read(const char *path, int n, hs_error *err);
hs_result *hs_result_parse(const char *text, const char *name, int n,
                           hs_error *err);

/* Counters of the last query: recursion nodes visited by the seed-002
 * routines (fast engine: rows that became equalities in Seidel's LP) and
 * simplex pivots of the exact classification.  Const-safe. */
long hs_result_nodes(const hs_result *r);
long hs_result_pivots(const hs_result *r);

/* Fast engine: nonzero when the last query could not be certified in
 * floating point and was answered by the exact engine.  Const-safe. */
int hs_result_fallback(const hs_result *r);

#ifdef __cplusplus
}
#endif

#endif /* HALFSPACE_H */
