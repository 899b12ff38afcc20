/*
 * halfspace/poly.h -- polyhedra in H-representation: hs_poly, read from
 * cddlib/lrs files or text, built from arrays of doubles or of exact
 * strings, inspected and written.  Part of the public API of libhalfspace;
 * programs include "halfspace.h", which includes this file.
 *
 * An hs_poly is immutable once built, so every routine that reads one is
 * const-safe; it belongs to the caller, who frees it with hs_poly_free.
 * Routines that keep a polyhedron (hs_body_add_polytope,
 * hs_chain_add_polytope) copy it.
 */
#include "../halfspace.h"

#ifndef HALFSPACE_POLY_H
#define HALFSPACE_POLY_H

#ifdef __cplusplus
extern "C" {
#endif

/* An immutable system of m rows over n variables.  Row i (0-based in the
 * API, 1-based in files and in printed output) is either an inequality
 * a_i . x <= b_i or, if it is a linearity row, an equality a_i . x = b_i.
 * Every number is stored as a double and, when the value as written is not
 * exactly a double, also as an exact rational.  Empty and unbounded
 * polyhedra are legal.  (The type hs_poly is declared in halfspace.h.) */

/* Read a cddlib/lrs H-representation (.ine) file.
 * Accepted: comment lines starting with '*' or '#', one optional name line,
 * "H-representation", "linearity k i1 .. ik" (before "begin" or after
 * "end"), "begin", "m n+1 real|rational|integer", m rows "b -a1 .. -an"
 * (meaning b - a.x >= 0, one row per line), "end", and the output-only
 * options of cddlib and lrs after "end" (ignored).  Numbers: integers,
 * decimals, exponents (1.5e-3) and fractions p/q; "integer" files accept
 * integers only.  Errors ("FILE:LINE: ...", HS_ERR_INPUT): missing
 * begin/end, wrong counts, bad or non-finite numbers, numbers outside the
 * double range, m = 0, n = 0, bad linearity indices, V-representations,
 * unknown options; HS_ERR_IO when the file cannot be opened or read.
 * Limits: the counts m <= 10^8 and n + 1 <= 10^6; memory is taken as the
 * rows arrive, so counts larger than the file holds fail at its end
 * ("FILE:LINE: expected M rows, found K"); a file larger than 256 MiB is
 * refused ("FILE: larger than the limit of 268435456 bytes", HS_ERR_INPUT),
 * from its size before reading when it is a regular file.
 * path must not be NULL; the polyhedron's name (hs_poly_name) is path.
 * Returns a new polyhedron (free with hs_poly_free), or NULL on error.
 * Thread-safe. */
HS_API hs_poly *hs_poly_read(const char *path, hs_error *err);

/* Same as hs_poly_read on the NUL-terminated text held in memory; `name`
 * (may be NULL: "<input>") is used as FILE in error messages and as the
 * polyhedron's name.  text NULL is HS_ERR_ARG.  Returns a new polyhedron
 * (free with hs_poly_free), or NULL on error.  Thread-safe. */
HS_API hs_poly *hs_poly_parse(const char *text, const char *name, hs_error *err);

/* Build from doubles: A is m*n row-major (row i is A[i*n .. i*n+n-1]),
 * b has m entries, is_eq (may be NULL: all inequalities) has m flags,
 * nonzero marking equality rows.  Values are taken exactly; the arrays are
 * copied.  Errors: m < 1 or n < 1 (HS_ERR_INPUT), A or b NULL
 * (HS_ERR_ARG), NaN or infinity (HS_ERR_INPUT, naming row and entry).
 * The name is "<arrays>".  Returns a new polyhedron (free with
 * hs_poly_free), or NULL on error.  Thread-safe. */
HS_API hs_poly *hs_poly_from_doubles(int n, int m, const double *A, const double *b,
                                     const unsigned char *is_eq, hs_error *err);

/* Build from exact decimal or rational strings ("3/10", "-2.5e-1", "7"),
 * laid out like hs_poly_from_doubles: A has m*n string pointers, b has m.
 * Errors as hs_poly_from_doubles; a NULL or malformed string is
 * HS_ERR_INPUT naming row and entry.  The name is "<strings>".  Returns a
 * new polyhedron (free with hs_poly_free), or NULL on error.  Thread-safe. */
HS_API hs_poly *hs_poly_from_strings(int n, int m, const char *const *A,
                                     const char *const *b,
                                     const unsigned char *is_eq, hs_error *err);

/* Free a polyhedron and everything it owns (its name included; NULL is
 * allowed).  Not safe while another thread uses the same polyhedron. */
HS_API void hs_poly_free(hs_poly *p);

/* Number of variables n (0 for p NULL).  Const-safe. */
HS_API int hs_poly_dim(const hs_poly *p);
/* Number of rows m (0 for p NULL).  Const-safe. */
HS_API int hs_poly_rows(const hs_poly *p);
/* Nonzero when the fast engine can answer queries with p by itself: every
 * row is an inequality whose numbers are exactly doubles, and a strictly
 * interior point is found and certified.  The fast engine's preparation of
 * p (that point, row norms, the direction map of candidate rows and, in
 * 3-D, the skeleton made with it: the longest chord through the point) is
 * made by the first query that needs it, or by this call: call it once before
 * timing queries, or before sharing p between threads to keep the first
 * queries short (sharing is safe either way).  Up to 4 variables, queries
 * also keep an inner star of p (one float per cell of directions, about
 * 1.6 KB in 3-D, each cell filled by the first query that looks in it).
 * Otherwise
 * *why (if why is not NULL) receives the reason, static text (never free
 * it), and fast queries with p are answered by the exact engine (counted
 * by hs_result_fallback).  When ready, and for p NULL (which returns 0),
 * *why is set to NULL.  Const-safe. */
HS_API int hs_poly_fast_ready(const hs_poly *p, const char **why);

/* Nonzero if row i (0-based) is an equality; 0 for an inequality, for p
 * NULL and for i outside 0..m-1.  Const-safe. */
HS_API int hs_poly_row_is_eq(const hs_poly *p, int i);
/* Nearest doubles of row i (0-based): a[0..n-1] and *b (either may be
 * NULL).  Returns nonzero if these are the exact values, 0 if some value
 * was rounded; returns 0 and writes nothing for p NULL or i outside
 * 0..m-1.  Const-safe. */
HS_API int hs_poly_row(const hs_poly *p, int i, double *a, double *b);
/* Name the polyhedron was read from (file path, the name given to
 * hs_poly_parse, "<arrays>" or "<strings>"; "" for p NULL).  Owned by p:
 * valid until hs_poly_free(p); never free it.  Const-safe. */
HS_API const char *hs_poly_name(const hs_poly *p);

/* Write p to out in cddlib H-representation format with every number
 * exact (integers or p/q), a comment line with its name first.  Returns
 * HS_OK, HS_ERR_ARG if p or out is NULL, HS_ERR_IO on a write error (also
 * when a number could not be converted for lack of memory).  Const-safe
 * in p; out must not be written by another thread meanwhile. */
HS_API hs_code hs_poly_write(const hs_poly *p, FILE *out, hs_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HALFSPACE_POLY_H */
