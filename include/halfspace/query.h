/*
 * halfspace/query.h -- feasibility and intersection queries on polyhedra:
 * their options (hs_options), their answers with witness points and
 * certificates (hs_result), certificate verification, reading and
 * writing.  Part of the public API of libhalfspace; programs include
 * "halfspace.h", which includes this file.
 *
 * The answers (hs_status) and the engines (hs_engine) are declared in
 * halfspace.h, since worlds use them too.
 */
#include "../halfspace.h"

#ifndef HALFSPACE_QUERY_H
#define HALFSPACE_QUERY_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Options                                                              */
/* ------------------------------------------------------------------ */

/* Receives one line of trace text (no trailing newline).  The line is
 * valid only during the call. */
typedef void (*hs_trace_fn)(void *user, const char *line);

/* Options of a query; fill with hs_options_init, then change fields.
 * A plain struct owned by the caller; the library reads it during a call
 * and keeps nothing of it (not the replay arrays either). */
typedef struct hs_options {
    hs_engine engine;        /* default HS_ENGINE_FAST */
    /* Faithful engine only: a computed value v is treated as zero when
     * |v| <= faithful_tol * (magnitude of the terms it was computed from).
     * 0 means exact comparisons of doubles, as the paper writes them.
     * Default 1e-12. */
    double faithful_tol;
    /* Trace for teaching: the seed-002 recursion (faithful engines), the
     * steps of the fast engine, the LPs of the exact engine.  Called once
     * per line with trace_user; NULL for none.  Default NULL. */
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

/* Fill *opt (not NULL) with the defaults above.  Thread-safe. */
HS_API void hs_options_init(hs_options *opt);

/* ------------------------------------------------------------------ */
/* Results                                                              */
/* ------------------------------------------------------------------ */

/* The answer of one query, with its witness point and certificate.
 * A result object is reusable: create it once per thread and pass it to
 * many queries; each query overwrites it (after a failed query its
 * contents are unspecified; before the first query it reads as
 * HS_INFEASIBLE of dimension 0 without a point or multipliers).  It also
 * owns the scratch memory of the fast engine: O(m n^2) for queries with m
 * rows in all (precisely n (m + 2n + 2)(n + 3) doubles and
 * (n + 1)(m + 2n + 2) ints: the rows projected at each level of the
 * recursion, at most n levels), allocated at the first query and grown
 * only when a larger query than ever before arrives, so a loop of queries
 * on polyhedra of bounded size allocates nothing.  (A query that falls
 * back to the exact engine does allocate.)  The fast engine keeps its
 * answer in double form and turns it into exact rationals only when it is
 * read, written or verified (in a temporary: reading never changes r).
 * Every accessor below needs r not NULL unless it says otherwise.
 * (The type hs_result is declared in halfspace.h.) */

/* New empty result, or NULL when out of memory; free with hs_result_free.
 * Thread-safe. */
HS_API hs_result *hs_result_new(void);
/* Free a result and its scratch memory (NULL is allowed).  Not while
 * another thread uses r. */
HS_API void hs_result_free(hs_result *r);

/* Decide whether {x : A x <= b} is empty.  On success the result holds
 * HS_FEASIBLE with a point, or HS_INFEASIBLE with (exact and fast engines)
 * Farkas multipliers on at most n+1 rows.  opt NULL means the defaults of
 * hs_options_init.  Returns HS_OK, HS_ERR_ARG for p or r NULL or an
 * unknown engine, or the error of the engine (HS_ERR_NOMEM, ...).
 * Const-safe in p; r must not be shared between threads.  The GLPK
 * engines are not thread-safe. */
HS_API hs_code hs_feasible(const hs_poly *p, const hs_options *opt, hs_result *r,
                           hs_error *err);

/* Decide how A and B meet.  A and B must have the same dimension.  The
 * fast and exact engines answer DISJOINT, TOUCHING or OVERLAP with a
 * certificate (see hs_result_verify); the faithful engines answer
 * INTERSECT or DISJOINT with a point; the GLPK engines classify like the
 * exact one without certificates.  opt NULL means the defaults.  Returns
 * HS_OK, HS_ERR_ARG for A, B or r NULL or an unknown engine, HS_ERR_INPUT
 * when the dimensions differ, or the error of the engine.  Const-safe in
 * A and B; r must not be shared between threads.  The GLPK engines are not
 * thread-safe. */
HS_API hs_code hs_intersect(const hs_poly *A, const hs_poly *B,
                            const hs_options *opt, hs_result *r, hs_error *err);

/* Many pairs at once: pair k is (A[k], B[k]), k < count (A and B have
 * count entries; they may be NULL only when count is 0).  With
 * threads > 1 the pairs are shared out among that many worker threads
 * (0: one per online CPU; never more than count); the GLPK engines always
 * run on the calling thread.  The status of pair k goes to status[k]
 * (count entries, may be NULL; not written for a pair that failed), and,
 * when results is not NULL, its whole answer to results[k] (count
 * distinct result objects from hs_result_new, owned by the caller; a NULL
 * entry makes that pair fail with HS_ERR_NOMEM).  opt NULL means the
 * defaults; opt->trace, if set, is called from the worker threads and
 * must be thread-safe.  Returns HS_OK, HS_ERR_ARG for threads < 0 or A or
 * B NULL with count > 0, or the error of the lowest-numbered pair that
 * failed (err describes it, prefixed "pair K: " with K = k + 1); the
 * other pairs are still answered.  Const-safe in the polyhedra; the
 * arrays must not be shared with other calls. */
HS_API hs_code hs_intersect_batch(const hs_poly *const *A, const hs_poly *const *B,
                                  size_t count, const hs_options *opt, int threads,
                                  hs_status *status, hs_result **results, hs_error *err);

/* Status of the last query stored in r.  Const-safe. */
HS_API hs_status hs_result_status(const hs_result *r);
/* Dimension n of the last query (the length of its point).  Const-safe. */
HS_API int hs_result_dim(const hs_result *r);
/* Nonzero if r holds a point (feasible / intersecting answers).
 * Const-safe. */
HS_API int hs_result_has_point(const hs_result *r);
/* Nearest doubles of the point into x[0..dim-1].  Returns HS_OK, or
 * HS_ERR_ARG (x untouched) if r or x is NULL or r holds no point.
 * Const-safe. */
HS_API hs_code hs_result_point(const hs_result *r, double *x);
/* Exact coordinate j (0-based) of the point as a new string ("-1/2",
 * "3"): the caller frees it with hs_free.  NULL if r is NULL, r holds no
 * point, j is outside 0..dim-1, or memory ran out.  Const-safe. */
HS_API char *hs_result_point_str(const hs_result *r, int j);

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
 * Engines without certificates (faithful, GLPK) leave no multipliers. */

/* Count of multipliers (0 when there are none or memory ran out while
 * the fast engine's answer was turned exact).  Const-safe. */
HS_API int hs_result_multiplier_count(const hs_result *r);
/* Multiplier k (0-based, k < hs_result_multiplier_count): polyhedron
 * index into *which, row into *row, nearest double into *value, and (if
 * exact is not NULL) the exact value as a new string into *exact, which
 * the caller frees with hs_free (NULL if memory ran out).  Any of which,
 * row, value, exact may be NULL.  Returns HS_OK, or HS_ERR_ARG (nothing
 * written) for r NULL, k out of range, or memory running out.
 * Const-safe. */
HS_API hs_code hs_result_multiplier(const hs_result *r, int k, int *which, int *row,
                                    double *value, char **exact);

/* Check the certificate in r against A (and B; NULL for a single system)
 * in exact arithmetic, independently of how it was produced.  Returns
 * HS_OK when it proves the status, HS_ERR_INPUT with a reason otherwise
 * (also when the dimensions differ), HS_ERR_ARG for r or A NULL,
 * HS_ERR_NOMEM.  Const-safe. */
HS_API hs_code hs_result_verify(const hs_result *r, const hs_poly *A,
                                const hs_poly *B, hs_error *err);

/* Rewrite the answer in r with the simplest numbers that still prove it
 * against A (and B; NULL for a single system), as the CLI prints it: the
 * fast engine answers in doubles, so its points and multipliers read as
 * fractions of 16 digits where the exact engine prints 1/3.  The
 * multipliers are scaled to sum 1, then each vector (multipliers, point,
 * strict point) is replaced by the continued-fraction convergents of its
 * entries, level by level, keeping the first candidate hs_result_verify
 * accepts (a point keeps the rows tight at it tight); numbers of at most
 * 32 bits are left alone.  The status never changes.  An answer that
 * does not verify (engines without certificates) is left as it is, and so
 * is r when memory runs out.  Returns HS_OK, or HS_ERR_ARG for r or A
 * NULL.  Changes r (not concurrently with other use of it); const-safe in
 * A and B. */
HS_API hs_code hs_result_simplify(hs_result *r, const hs_poly *A, const hs_poly *B,
                                  hs_error *err);

/* Write r (not NULL) to out (not NULL) in the text form printed by the
 * CLI (first line the status, then "point", "multiplier" and "strict"
 * lines) or as one JSON object with "status", "point" and "certificate",
 * every number an exact string.  Returns HS_OK, HS_ERR_IO on a write
 * error, HS_ERR_NOMEM.  Const-safe in r; out must not be written by
 * another thread meanwhile. */
HS_API hs_code hs_result_write_text(const hs_result *r, FILE *out, hs_error *err);
HS_API hs_code hs_result_write_json(const hs_result *r, FILE *out, hs_error *err);

/* Read a certificate written by hs_result_write_text for polyhedra of
 * dimension n >= 1: from the file path (not NULL; HS_ERR_IO when it
 * cannot be read), or from NUL-terminated text with `name` (may be NULL)
 * for messages.  Errors: HS_ERR_ARG for text NULL or n < 1, HS_ERR_INPUT
 * ("FILE:LINE: ...") for malformed text.  Returns a new result (free with
 * hs_result_free), or NULL on error.  Thread-safe. */
HS_API hs_result *hs_result_read(const char *path, int n, hs_error *err);
HS_API hs_result *hs_result_parse(const char *text, const char *name, int n,
                                  hs_error *err);

/* Counters of the last query: recursion nodes visited by the seed-002
 * routines (fast engine: rows that became equalities in Seidel's LP) and
 * simplex pivots of the exact classification.  Const-safe. */
HS_API long hs_result_nodes(const hs_result *r);
HS_API long hs_result_pivots(const hs_result *r);

/* Fast engine: nonzero when the last query could not be certified in
 * floating point and was answered by the exact engine.  Const-safe. */
HS_API int hs_result_fallback(const hs_result *r);

#ifdef __cplusplus
}
#endif

#endif /* HALFSPACE_QUERY_H */
