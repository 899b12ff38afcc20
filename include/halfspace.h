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
    HS_INTERSECT,
    HS_CONTACT /* worlds: closer than the contact threshold, no common point */
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

/* ------------------------------------------------------------------ */
/* Poses                                                                */
/* ------------------------------------------------------------------ */

/* A pose is a 4x4 row-major matrix m mapping body coordinates to world
 * coordinates, x_world = R x + t with R = m[0..2], m[4..6], m[8..10] by rows
 * and t = (m[3], m[7], m[11]); the last row is 0 0 0 1.  Builders fill m;
 * thread-safe. */
void hs_pose_identity(double m[16]);
void hs_pose_from_rt(double m[16], const double R[9], const double t[3]);
/* Z-Y-Z Euler angles (radians) as in seed 004, eq. (1):
 * R = Rz(alpha) Ry(beta) Rz(gamma). */
void hs_pose_from_zyz(double m[16], double alpha, double beta, double gamma, const double t[3]);
/* Rotation by angle (radians) about axis (any nonzero length); HS_ERR_ARG
 * for a zero or non-finite axis. */
hs_code hs_pose_from_axis_angle(double m[16], const double axis[3], double angle,
                                const double t[3], hs_error *err);
/* Unit quaternion q = (w, x, y, z) (normalised here; HS_ERR_ARG if zero). */
hs_code hs_pose_from_quat(double m[16], const double q[4], const double t[3], hs_error *err);
/* out = a b (apply b, then a); out may alias a or b. */
void hs_pose_multiply(double out[16], const double a[16], const double b[16]);

/* ------------------------------------------------------------------ */
/* Worlds of bodies                                                     */
/* ------------------------------------------------------------------ */

/* A world holds bodies; a body has a unique name, a static flag, a pose,
 * and pieces given in its own frame.  A piece is convex (a bounded,
 * full-dimensional polytope kept as a half-space system, with its exact
 * vertices, box and an interior point derived once) or a triangle mesh
 * (any shape).  Geometry is shared, reference counted, between a body and
 * its clones.
 *
 * Exactness in a world.  A pose is applied in double precision: to compare
 * two pieces, one is expressed in the other's frame and its numbers are
 * rounded once to doubles.  Every answer is exact for those numbers.
 *
 * Threads.  Queries (hs_world_query, hs_world_distance) only read the
 * world: any number may run at once, each with its own report.  Every
 * function that changes the world (adding, removing, posing, toggling) must
 * not run concurrently with anything else on the same world. */
typedef struct hs_world hs_world;
typedef struct hs_body hs_body;

/* Broad phase: which pairs of bodies are tested at all. */
typedef enum hs_broadphase {
    HS_BROAD_TREE = 0, /* dynamic AABB tree (incremental; its shape depends
                          on where bodies were when added) */
    HS_BROAD_GRID,     /* seed 000's uniform grid, cell size from the
                          average extent of the bodies (the default of
                          hs_world_new: as fast as the tree at 10,000 moving
                          bodies and independent of how the world was
                          filled; see bench/RESULTS.md) */
    HS_BROAD_RAW       /* every pair */
} hs_broadphase;

/* New empty world (NULL when out of memory), and its release (bodies,
 * pieces and shared geometry no longer used). */
hs_world *hs_world_new(void);
void hs_world_free(hs_world *w);

/* Method of the broad phase (rebuilds its structure). */
hs_code hs_world_set_broadphase(hs_world *w, hs_broadphase method, hs_error *err);

/* New body (identity pose, no pieces).  Names are unique and nonempty.
 * The handle stays valid until the body is removed or the world freed. */
hs_body *hs_world_add_body(hs_world *w, const char *name, int is_static, hs_error *err);
/* A copy of src named `name`, sharing its geometry; it stays valid when
 * src is removed. */
hs_body *hs_world_clone_body(hs_world *w, const hs_body *src, const char *name, hs_error *err);
/* Remove and free a body (its handle becomes invalid). */
hs_code hs_world_remove_body(hs_world *w, hs_body *b, hs_error *err);
/* Lookups.  Const-safe. */
hs_body *hs_world_find_body(const hs_world *w, const char *name);
int hs_world_body_count(const hs_world *w);
hs_body *hs_world_body(const hs_world *w, int k); /* in order of creation */

const char *hs_body_name(const hs_body *b);
int hs_body_is_static(const hs_body *b);
void hs_body_set_static(hs_body *b, int is_static);
int hs_body_piece_count(const hs_body *b);
/* Set the pose (finite entries, last row 0 0 0 1, invertible R); the
 * world's broad phase is updated.  HS_ERR_ARG otherwise. */
hs_code hs_body_set_pose(hs_body *b, const double m[16], hs_error *err);
void hs_body_get_pose(const hs_body *b, double m[16]);
/* World-frame box of the body (outward rounded); 0 if it has no piece. */
int hs_body_aabb(const hs_body *b, double lo[3], double hi[3]);

/* Pieces, in the body frame, placed by `place` (a pose of the piece in the
 * body frame; NULL is the identity; any invertible affine map, so scales
 * are allowed).  Every constructor validates its arguments (finite,
 * positive sizes, at least 3 sides, ...) and returns HS_ERR_ARG or
 * HS_ERR_INPUT with a message.
 * Pieces made from points (box, cylinder, cone, sphere, hull) are the exact
 * convex hull of the points, written as one row in doubles per facet: the
 * row is the facet's plane exactly whenever that plane has a double
 * representation (axis-aligned faces; in general, integer or dyadic data),
 * so a box or a prism standing on a floor touches it; otherwise the
 * plane is moved outward by one rounding (the piece contains the hull). */
/* Box of full sizes size[0..2], centered at the origin. */
hs_code hs_body_add_box(hs_body *b, const double size[3], const double place[16], hs_error *err);
/* Prism / pyramid with `sides` side facets whose vertices lie on the
 * circle of the given radius, axis y, centered (as in VRML): inscribed in
 * the round shape. */
hs_code hs_body_add_cylinder(hs_body *b, double radius, double height, int sides,
                             const double place[16], hs_error *err);
hs_code hs_body_add_cone(hs_body *b, double radius, double height, int sides,
                         const double place[16], hs_error *err);
/* Icosphere: the icosahedron subdivided `level` times (20 * 4^level
 * triangles), vertices on the sphere. */
hs_code hs_body_add_sphere(hs_body *b, double radius, int level, const double place[16],
                           hs_error *err);
/* Convex hull of n points (x,y,z triples); not all coplanar. */
hs_code hs_body_add_hull(hs_body *b, const double *points, int n, const double place[16],
                         hs_error *err);
/* A polytope given as a half-space system (n = 3, bounded, full-dimensional,
 * inequality rows); copied. */
hs_code hs_body_add_polytope(hs_body *b, const hs_poly *p, const double place[16],
                             hs_error *err);
/* Triangle mesh: nverts points, ntris index triples (0-based); need not be
 * closed or convex; degenerate triangles are an error. */
hs_code hs_body_add_mesh(hs_body *b, const double *verts, int nverts, const int *tris,
                         int ntris, const double place[16], hs_error *err);

/* Boundary of piece k of b, in the body frame: *is_convex is nonzero for a
 * convex piece; *nverts points in *verts (x, y, z); *nfaces faces, face f
 * having the corners (*face_vert)[(*face_start)[f] .. (*face_start)[f+1]-1]
 * (counterclockwise seen from outside for a convex piece; the triangles as
 * given for a mesh).  The three arrays are new: free them with hs_free.
 * HS_ERR_ARG for a bad k.  Const-safe. */
hs_code hs_body_piece_boundary(const hs_body *b, int k, int *is_convex, double **verts,
                               int *nverts, int **face_start, int **face_vert, int *nfaces,
                               hs_error *err);

/* Filters (seed 001).  Collisions are tested only for pairs of bodies that
 * are both enabled, in a world that is enabled, whose pair is enabled, that
 * are not both static, and whose groups match: a and b may collide when
 * (a.group & b.mask) and (b.group & a.mask) are both nonzero (default group
 * 1, mask all ones).  Two pieces of one body are never tested.  (Seed 001's
 * threads: main-thread bodies group 1; thread k's bodies group 1 << k and
 * mask 1 | 1 << k, so they meet the main thread's and their own only.) */
void hs_world_set_enabled(hs_world *w, int on);
void hs_body_set_enabled(hs_body *b, int on);
hs_code hs_world_set_pair_enabled(hs_world *w, const hs_body *a, const hs_body *b, int on,
                                  hs_error *err);
void hs_body_set_groups(hs_body *b, unsigned group, unsigned mask);

/* ------------------------------------------------------------------ */
/* World queries                                                        */
/* ------------------------------------------------------------------ */

typedef enum hs_tri_method {
    HS_TRI_GRID = 0, /* triangles of two meshes paired through a uniform grid */
    HS_TRI_RAW       /* every triangle against every triangle (seed 000's raw method) */
} hs_tri_method;

typedef struct hs_query_options {
    double threshold;        /* contact threshold in scene units (default 0.1):
                                pairs of pieces closer than this without a
                                common point are reported as contacts; 0: none */
    int contacts;            /* compute contact points and normals (default 1) */
    hs_tri_method triangles; /* default HS_TRI_GRID */
    int threads;             /* worker threads for the narrow phase (default 1;
                                0: one per CPU) */
    hs_engine engine;        /* convex pairs: HS_ENGINE_FAST (default) or
                                HS_ENGINE_EXACT, the exact LP engine on the
                                same two systems (slow; a cross-check) */
} hs_query_options;

void hs_query_options_init(hs_query_options *opt);

/* The answer of a world query: pairs of bodies in collision or contact,
 * sorted by (first name, second name) with first < second; for each, the
 * pairs of pieces and the contacts.  Reusable; one per thread.
 * Temporal coherence: a report also keeps, for every pair of convex pieces
 * it tested, what decided it (the rows of the separation certificate or a
 * common interior point), and the next query with the same report tries
 * that first.  The hint goes through the same certified predicates as a
 * fresh answer, so answers never depend on it; only the time does (a
 * moving world queried with one report per thread is about twice as fast).
 * Memory: a hint per tested pair of pieces (about 100 bytes). */
typedef struct hs_report hs_report;
hs_report *hs_report_new(void);
void hs_report_free(hs_report *r);

/* All pairs of bodies that overlap, touch or are in contact.  Const-safe in
 * the world.  A body pair's status is the strongest of its piece pairs
 * (overlap > touching > contact). */
hs_code hs_world_query(const hs_world *w, const hs_query_options *opt, hs_report *rep,
                       hs_error *err);

int hs_report_pair_count(const hs_report *r);
/* Body pair k: names and status.  HS_ERR_ARG for a bad k. */
hs_code hs_report_pair(const hs_report *r, int k, const char **a, const char **b,
                       hs_status *status);
/* Piece pairs of body pair k: piece indices (in order of addition), status,
 * a witness point in world coordinates (common point for overlap and
 * touching; for contact the point on the first piece), and the distance
 * (0 for overlap and touching). */
int hs_report_piece_count(const hs_report *r, int k);
hs_code hs_report_piece(const hs_report *r, int k, int j, int *piece_a, int *piece_b,
                        hs_status *status, double witness[3], double *distance);
/* Contacts of body pair k (pieces within the threshold, or touching):
 * the point on each body and the unit normal from the first body towards
 * the second; many contacts in a small area are pruned to the corners of
 * their convex hull (seed 001), at most 16 per pair of pieces (corners
 * spread evenly around the hull when it has more). */
int hs_report_contact_count(const hs_report *r, int k);
hs_code hs_report_contact(const hs_report *r, int k, int c, double on_a[3], double on_b[3],
                          double normal[3]);

/* Counters of the last query. */
typedef struct hs_report_stats {
    long body_pairs;     /* pairs of bodies the broad phase kept */
    long piece_pairs;    /* pairs of pieces tested */
    long triangle_tests; /* triangle-triangle tests */
    long fallbacks;      /* fast-engine queries answered by the exact engine */
} hs_report_stats;
void hs_report_get_stats(const hs_report *r, hs_report_stats *st);

/* Distance between two bodies: the smallest distance between their pieces,
 * with a point on each (|pa - pb| = *dist; 0 when they meet).  Const-safe. */
hs_code hs_world_distance(const hs_world *w, const hs_body *a, const hs_body *b, double *dist,
                          double pa[3], double pb[3], hs_error *err);

/* Move until contact (seed 001): from its current pose, which must be free
 * of collision, body b moves towards `end` (translation linear, rotation
 * by slerp along the shortest arc) and stops at the first pose closer than
 * opt->threshold (> 0) to a body it may collide with.  The motion advances
 * conservatively: each step is bounded by the current distance over the
 * fastest-moving point's speed, so b cannot pass through a thin obstacle.
 * b is left at the stopping pose and rep holds the world's query there.
 * *fraction (may be NULL) receives how far along the motion it stopped
 * (1: the end is free and farther than the threshold).  If b starts
 * within the threshold, it stops only on getting closer than half its
 * starting distance, so it can move away from a contact.  HS_ERR_INPUT if
 * the start pose is in collision (b is left unmoved); HS_ERR_ARG if the
 * motion is longer than 5e6 thresholds.  Not thread-safe on w (moves b). */
hs_code hs_world_move_until_contact(hs_world *w, hs_body *b, const double end[16],
                                    const hs_query_options *opt, hs_report *rep,
                                    double *fraction, hs_error *err);

/* ------------------------------------------------------------------ */
/* Scene files                                                          */
/* ------------------------------------------------------------------ */

/* How scene geometry becomes pieces.  Defaults (hs_scene_options_init):
 * 24 side facets for Cylinder and Cone, icosphere level 2 (320 triangles)
 * for Sphere, meshes kept as meshes. */
typedef struct hs_scene_options {
    int cylinder_sides; /* side facets of Cylinder / Cone prisms (>= 3) */
    int sphere_level;   /* subdivisions of the Sphere's icosahedron (0..6) */
    int mesh_as_hull;   /* nonzero: every mesh piece (OFF, OBJ, STL, a
                           non-convex IndexedFaceSet) becomes the convex hull
                           of its points, a convex piece */
} hs_scene_options;
void hs_scene_options_init(hs_scene_options *o);

/* Load a scene into a new world, by extension: .wrl (VRML 2.0 subset, see
 * the README), .off, .obj, .stl (one body made of one mesh piece).  Errors
 * "FILE:LINE: what is wrong", including "node X is not supported".
 * Thread-safe (the world is new). */
hs_world *hs_world_load(const char *path, hs_error *err);

/* Add the bodies of a scene file to an existing world; on failure the
 * bodies added by this call are removed again.  Changes w. */
hs_code hs_world_add_file(hs_world *w, const char *path, hs_error *err);
/* The same with options (NULL: the defaults).  Changes w. */
hs_code hs_world_add_file_opts(hs_world *w, const char *path, const hs_scene_options *o,
                               hs_error *err);

/* Write the world as VRML 2.0, pieces in collision (per rep, may be NULL)
 * coloured red, the others grey.  Const-safe. */
hs_code hs_world_export_vrml(const hs_world *w, const hs_report *rep, FILE *out, hs_error *err);

/* ------------------------------------------------------------------ */
/* Oriented bounding boxes (seed 004)                                   */
/* ------------------------------------------------------------------ */

/* An oriented box: the points center + sum_k s_k axis[k] with |s_k| <=
 * half[k].  axis[0..2] are orthonormal (rows of a rotation matrix, so
 * axis[k][j] is component j of axis k); half[k] >= 0.  A plain struct:
 * copy it freely.  Every routine of this section is a pure function of its
 * arguments and thread-safe.
 *
 * Boxes are bounding volumes, so their routines are conservative: a box
 * that must contain a set contains it for every rounding (sizes are
 * rounded outward), and the overlap test answers "separated" only when the
 * two boxes are certainly disjoint. */
typedef struct hs_obb {
    double center[3];
    double axis[3][3];
    double half[3];
} hs_obb;

/* Box containing the n points (x, y, z triples, n >= 1, finite): axes
 * from the principal directions of the points' convex hull (the covariance
 * of its surface, robust to how the points are spread), then the smallest
 * of that and a few candidate frames (the world axes, hull edges) by
 * volume.  HS_ERR_ARG for n < 1 or a non-finite coordinate. */
hs_code hs_obb_fit(hs_obb *box, const double *points, int n, hs_error *err);
/* Box of the image of `in` under the rigid pose m (contains it for every
 * rounding). */
void hs_obb_transform(hs_obb *out, const hs_obb *in, const double m[16]);
/* Separating-axis test on the 15 axes (3 + 3 face normals, 9 edge
 * cross products): 0 when the boxes are certainly disjoint, 1 when they
 * may meet (touching counts as meeting).  Nearly parallel edges, whose
 * cross products are tiny, are handled by a rigorous round-off bound on
 * every projection, never by a fixed epsilon.  A box whose axes are not
 * orthonormal to within 2^-20, or with a non-finite number, may meet
 * anything (1).  About 100 ns. */
int hs_obb_overlap(const hs_obb *a, const hs_obb *b);
/* A lower bound on the distance between the two boxes: the largest gap
 * over the 15 axes, rounded down (0 when they may meet, and for the boxes
 * for which hs_obb_overlap answers 1 by rule). */
double hs_obb_distance_lower_bound(const hs_obb *a, const hs_obb *b);
/* A box containing both a and b (out may alias either). */
void hs_obb_merge(hs_obb *out, const hs_obb *a, const hs_obb *b);
/* Does the box contain the point (conservatively: 1 when it may)? */
int hs_obb_contains(const hs_obb *box, const double p[3]);
/* Box of piece k of body b in the body frame, fitted once when the piece
 * was made (to the exact vertices of a convex piece, the points of a
 * mesh) and widened by 2^-30 of its size, the margin the world's piece
 * boxes keep for rows mapped into another body's frame; world queries
 * skip pairs of pieces whose boxes are apart.  HS_ERR_ARG for a bad k.
 * Const-safe. */
hs_code hs_body_piece_obb(const hs_body *b, int k, hs_obb *box, hs_error *err);

/* ------------------------------------------------------------------ */
/* Kinematic chains (seed 003: ChainTree)                               */
/* ------------------------------------------------------------------ */

/* A chain of N links 0..N-1.  Link 0 is placed by the base pose; link i
 * (i >= 1) is placed by joint i, the rigid transform J_i from link i-1's
 * frame to link i's: pose(i) = base J_1 J_2 ... J_i.  Every link has zero
 * or more pieces in its own frame: spheres, or convex pieces (hulls of
 * points or half-space systems, tested with the exact narrow phase).
 *
 * Exactness.  Two links i < j are compared with j's pieces placed in i's
 * frame by the relative pose computed from the shortcuts (rounded to
 * doubles; hs_chain_relative_pose gives the same numbers); the answer is
 * exact for those numbers, and touching counts as collision.  A sphere is
 * placed in a convex piece's frame (by that pose or its inverse).  Boxes
 * only prune where separation is certain.  Poses given to the chain must
 * be rigid: finite, last row 0 0 0 1, R^T R = I to 1e-9 per entry,
 * det R > 0.
 *
 * The chain keeps seed 003's ChainTree: a balanced binary tree over the
 * joints whose node at level l caches the shortcut J(i, i + 2^l) (at most
 * 2N - 3 transforms), and a loose box hierarchy aligned with the chain
 * (each node's box bounds its two children, in the frame of the node's
 * first link).  Changing k joints costs O(k log(N/k)) (changes merged
 * level by level); the relative pose of two links costs O(log N).
 *
 * Threads.  A chain is changed by every function taking a non-const
 * hs_chain, including hs_chain_self_collision (it keeps which sub-trees
 * are known free); functions taking a const hs_chain are const-safe. */
typedef struct hs_chain hs_chain;

/* New chain of n >= 1 links, identity joints and base, no pieces (NULL
 * with err filled on failure). */
hs_chain *hs_chain_new(int n, hs_error *err);
void hs_chain_free(hs_chain *c);
int hs_chain_link_count(const hs_chain *c);

/* Pieces of link i, in its frame.  A sphere (radius > 0); the convex hull
 * of n points (not all coplanar); a polytope (3 variables, bounded,
 * full-dimensional), copied.  HS_ERR_ARG for a bad link or argument.
 * Pieces should be added before the first query (adding one refits the
 * box hierarchy). */
hs_code hs_chain_add_sphere(hs_chain *c, int link, const double center[3], double radius,
                            hs_error *err);
hs_code hs_chain_add_hull(hs_chain *c, int link, const double *points, int n, hs_error *err);
hs_code hs_chain_add_polytope(hs_chain *c, int link, const hs_poly *p, hs_error *err);

/* Joint i (1 <= i < N): set J_i to m (a rigid pose), or compose it with a
 * change, J_i <- J_i d (d in link i's frame, for example a rotation about
 * the joint axis).  HS_ERR_ARG for a bad index or a pose that is not
 * rigid (the chain is then unchanged).  O(log N) each; setting a joint
 * back to exactly its value before the last single-joint change (an undo)
 * restores the nodes that change rewrote, in O(log N) copies. */
hs_code hs_chain_set_joint(hs_chain *c, int i, const double m[16], hs_error *err);
hs_code hs_chain_change_joint(hs_chain *c, int i, const double d[16], hs_error *err);
/* Several joints at once, the updates merged level by level: joint idx[k]
 * set to m + 16 k, k < count (the last of repeated indices wins; every
 * pose is checked before any is applied). */
hs_code hs_chain_set_joints(hs_chain *c, const int *idx, const double *m, int count,
                            hs_error *err);
void hs_chain_get_joint(const hs_chain *c, int i, double m[16]);
/* Base pose (world pose of link 0; a rigid pose).  It moves the chain
 * in the world only: self-collision does not depend on it. */
hs_code hs_chain_set_base(hs_chain *c, const double m[16], hs_error *err);

/* World pose of link i; pose of link j in link i's frame (O(log N) from
 * the shortcuts).  Const-safe; out of range indices give the identity. */
void hs_chain_link_pose(const hs_chain *c, int i, double m[16]);
void hs_chain_relative_pose(const hs_chain *c, int i, int j, double m[16]);

/* Self-collision skip list: pairs of links never tested against each
 * other.  Adjacent links (i, i+1) are skipped by default
 * (hs_chain_skip_adjacent(c, 0) turns that off).  HS_ERR_ARG for a pair
 * that is not two distinct links. */
hs_code hs_chain_skip_pair(hs_chain *c, int i, int j, int skip, hs_error *err);
void hs_chain_skip_adjacent(hs_chain *c, int skip);
/* Automatic skip list: skip every pair of links that overlap or touch at
 * the current pose (the rest pose), besides the adjacent ones.  The pairs
 * newly skipped are returned in *pairs (2 ints each, i < j; free with
 * hs_free; may be NULL if not wanted), so the caller can report them. */
hs_code hs_chain_auto_skip(hs_chain *c, int **pairs, int *npairs, hs_error *err);

typedef struct hs_chain_stats {
    long box_tests;    /* box-box overlap tests */
    long piece_tests;  /* exact piece-piece tests */
} hs_chain_stats;

/* Self-collision: do two non-skipped links overlap or touch?  Returns 1
 * (yes; *i < *j is one such pair; i, j may be NULL), 0 (no) or -1
 * (error, err filled).  The chain remembers the joints moved since the
 * last query that answered 0 (a joint set back to exactly its value at
 * that answer is forgotten again) and searches only between links with
 * such a joint between them: the rest moved rigidly since the chain was
 * known free.  A 0 answer resets that record; adding pieces or removing a
 * pair from the skip list makes the next query search everything.  st
 * (may be NULL) receives this query's counters. */
int hs_chain_self_collision(hs_chain *c, int *i, int *j, hs_chain_stats *st, hs_error *err);
/* A move kept only if it is free (seed 003's experiment, and a Monte
 * Carlo or planner step): J_i <- J_i d, then hs_chain_self_collision; on
 * a collision the joint is set back exactly.  Returns 0 (the chain is
 * free and keeps the move), 1 (it would collide: *i < *j is one such pair,
 * i, j may be NULL, and the chain is as before the call) or -1 (err
 * filled: a bad index or a d that is not rigid leave the chain unchanged;
 * an error of the query leaves the move applied, as hs_chain_change_joint
 * would).  The same answers as those three calls, cheaper: when no other
 * joint moved since the last free answer, the boxes are refitted only as
 * the search climbs, so a collision found low never pays for the boxes
 * above it.  st as for hs_chain_self_collision.  Modifies c: not to be
 * called concurrently with anything else on c. */
int hs_chain_try_change(hs_chain *c, int i, const double d[16], int *hit_i, int *hit_j,
                        hs_chain_stats *st, hs_error *err);
/* All colliding link pairs (2 ints each, i < j, sorted; free with
 * hs_free).  Does not use or change the cache of free sub-trees. */
hs_code hs_chain_self_collision_all(const hs_chain *c, int **pairs, int *npairs,
                                    hs_chain_stats *st, hs_error *err);

/* The chain against the bodies of a world (links at base J_1 ... J_i;
 * only enabled bodies of an enabled world count; a body's group, mask and
 * static flag do not apply): returns 1 and the first colliding (link,
 * body) found (link, body may be NULL), 0 if none, -1 on error.  Exact
 * like the world's narrow phase (a sphere's centre is placed in the
 * body's frame).  Const-safe. */
int hs_chain_world_collision(const hs_chain *c, const hs_world *w, int *link,
                             const hs_body **body, hs_error *err);
/* Every colliding (link, body) pair: 2 ints each, the link and the body's
 * index in order of creation (hs_world_body), sorted by link then body;
 * free with hs_free.  Const-safe. */
hs_code hs_chain_world_collision_all(const hs_chain *c, const hs_world *w, int **pairs,
                                     int *npairs, hs_error *err);
/* Smallest distance from the chain to a body of the world, with the link,
 * the body and a point on each in world coordinates (|pa - pb| = *dist up
 * to rounding; 0, decided exactly, when a pair meets, and then pa = pb, a
 * common point up to rounding).  Measured with GJK on the pieces' corners
 * (a mesh triangle by triangle), like hs_world_distance.  HS_ERR_ARG if
 * the chain or the world (its enabled bodies) has no piece.  link, body,
 * pa, pb may be NULL.  Const-safe. */
hs_code hs_chain_world_distance(const hs_chain *c, const hs_world *w, double *dist, int *link,
                                const hs_body **body, double pa[3], double pb[3],
                                hs_error *err);

/* Joints with a type, for hs_chain_set_angles.  hs_chain_define_joint
 * declares joint i (1 <= i < N): J_i(q) = origin M(q), where M(q) is the
 * rotation by q radians about `axis` (revolute), the translation q axis
 * (prismatic) or the identity (fixed); origin is a rigid pose (NULL: the
 * identity), axis finite and nonzero (normalised here; ignored for fixed
 * joints), lo <= hi the limits of q (-HUGE_VAL / HUGE_VAL for none) and
 * `rest` (within the limits) the value J_i is set to now.  Movable joints
 * are numbered in index order for hs_chain_set_angles; joints never
 * declared are fixed at their current pose.  hs_chain_set_joint and
 * hs_chain_change_joint still move any joint freely (the q of a declared
 * joint is then no longer updated).  HS_ERR_ARG for a bad index, type,
 * pose, axis, limits or rest value. */
typedef enum hs_joint_type {
    HS_JOINT_FIXED = 0,
    HS_JOINT_REVOLUTE,
    HS_JOINT_PRISMATIC
} hs_joint_type;
hs_code hs_chain_define_joint(hs_chain *c, int i, hs_joint_type type, const double origin[16],
                              const double axis[3], double lo, double hi, double rest,
                              hs_error *err);
/* Names of links and joints (copied; NULL or "" clears).  HS_ERR_ARG for
 * a bad index. */
hs_code hs_chain_set_link_name(hs_chain *c, int i, const char *name, hs_error *err);
hs_code hs_chain_set_joint_name(hs_chain *c, int i, const char *name, hs_error *err);
/* Name of joint i (NULL when it has none or i is not in 1..N-1), its
 * type (fixed for a bad i), and the index of the k-th movable joint
 * (k < dof; -1 otherwise).  Const-safe. */
const char *hs_chain_joint_name(const hs_chain *c, int i);
hs_joint_type hs_chain_joint_type(const hs_chain *c, int i);
int hs_chain_movable_joint(const hs_chain *c, int k);
/* Limits and current value of the movable joint k (k < dof).  HS_ERR_ARG
 * for a bad k.  Const-safe. */
hs_code hs_chain_joint_limits(const hs_chain *c, int k, double *lo, double *hi, double *q,
                              hs_error *err);

/* Chain files (see the README "Kinematic chains"): links, joints, pieces,
 * skip pairs; returns a new chain at the joints' rest values, with the
 * names and types of links and joints.  Errors "FILE:LINE: what is
 * wrong" (HS_ERR_INPUT), HS_ERR_IO when the file cannot be read.
 * hs_chain_dof counts the movable joints.  hs_chain_set_angles sets every
 * movable joint's value (revolute: radians about its axis, prismatic:
 * along it), nq values in joint order, all at once (merged update);
 * HS_ERR_ARG, and nothing changed, if nq does not match, a value is not
 * finite or is outside its joint's limits.  hs_chain_link_name: the
 * link's name, NULL when it has none or i is out of range.  Const-safe
 * except hs_chain_set_angles. */
hs_chain *hs_chain_load(const char *path, hs_error *err);
int hs_chain_dof(const hs_chain *c);
hs_code hs_chain_set_angles(hs_chain *c, const double *q, int nq, hs_error *err);
const char *hs_chain_link_name(const hs_chain *c, int i);

/* ------------------------------------------------------------------ */
/* Trajectories (seed 004, sections 4-5)                                */
/* ------------------------------------------------------------------ */

/* A path is a curve of rigid poses p(f), f from 0 (start) to 1 (end), for
 * one body of a world to follow.  Two kinds:
 *  - a straight line (seed 004, section 4), from a start pose to a target
 *    translation: the translation moves linearly; the orientation stays,
 *    or turns to a target orientation given as Z-Y-Z Euler angles (seed
 *    004, eq. (1)) about one fixed axis at a constant rate (slerp, the
 *    shorter way round);
 *  - an arc through three points (seed 004, section 5): the start pose's
 *    translation p0, a via point p1 and an end point p2.  The body's
 *    origin moves along the circle through them at a constant angular
 *    rate, from p0 through p1 to p2 (the arc angle theta may exceed pi).
 *    The orientation stays fixed (the body translates along the arc), or,
 *    with `turn`, turns with the arc: at angle phi along it the body is
 *    rotated by phi about the arc's axis (the line through its centre
 *    along its normal), as on a turntable.
 * Start poses must be rigid: finite, last row 0 0 0 1, rotation part
 * orthonormal with determinant 1 to within 1e-9 in every entry.
 *
 * Checking a path (hs_path_check) cuts it into K steps of equal f (equal
 * lengths for a line, equal angles for an arc) and runs in one of two
 * modes.  A pose is BLOCKED when the body has a common point with another
 * body it may collide with (a collision: overlap or touching, decided
 * exactly for the pose's doubles, as in hs_world_query) or comes closer
 * to one than the contact threshold (a contact; distances are computed
 * in floating point).  With threshold 0 only collisions block.
 *  - Stepped mode (the seed's method): the K poses p(k/K), k = 1..K, are
 *    tested in order; the first blocked one is step k.  A thin obstacle
 *    that the body passes through entirely between two consecutive step
 *    poses is NOT seen: the stepped mode can report `free` for a path
 *    that collides.  It is exact only at the step poses.
 *  - Guaranteed mode: conservative advancement along the same curve (as
 *    hs_world_move_until_contact): at a pose whose distance to the
 *    nearest other body is d, the next pose is d - threshold/2 further
 *    along, measured by a bound on the speed of every point of the body
 *    (line: |translation| + rotation angle * r; arc: R theta, plus
 *    theta * r when the body turns; r = the largest distance from the
 *    body's origin to its points), so every pose in between stays at
 *    least threshold/2 away from everything.  It cannot miss a collision:
 *    `free` means no pose of the whole curve has a common point with
 *    another body (each pose stays at least threshold/2 away, up to the
 *    accuracy of the floating-point distance, about 1e-12 of the scene's
 *    size, which a threshold must exceed by far).  It stops
 *    at the first pose it measures closer than the threshold; a pose
 *    between two measured ones may have come within the threshold (but
 *    not within threshold/2) unreported.  Needs threshold > 0, and stops
 *    with HS_ERR_ARG for paths over 5e6 thresholds long.
 * In both modes the start pose must be free of collision (HS_ERR_INPUT
 * otherwise, also for a floating-point distance of 0 to another body: too
 * close to tell); a body starting closer than the threshold to another
 * (but without collision) uses half that starting distance as its
 * threshold, so that it can move away from a contact. */
typedef struct hs_path hs_path;

/* Most steps a path may be cut into. */
#define HS_PATH_MAX_STEPS 1000000

/* Straight line from the rigid pose `start` to the translation target[3];
 * zyz NULL keeps start's orientation (exactly), otherwise zyz[3] = (alpha,
 * beta, gamma) in radians gives the end orientation
 * Rz(alpha) Ry(beta) Rz(gamma) (hs_pose_from_zyz).  A line may have zero
 * length (a rotation in place).  HS_ERR_ARG (NULL returned) for a start
 * pose that is not rigid or a non-finite target or angle.  Thread-safe. */
hs_path *hs_path_line(const double start[16], const double target[3], const double *zyz,
                      hs_error *err);

/* Arc from start's translation through via[3] to end[3] (see above);
 * turn nonzero turns the body with the arc.  The centre is the point
 * equidistant from the three in their plane (seed 004, eqs. (16)-(18)),
 * theta the angle from p0 to p2 through p1, in (0, 2 pi) (eqs.
 * (19)-(25)).  HS_ERR_ARG (NULL returned) for a start pose that is not
 * rigid, non-finite points, two coincident points, or collinear points
 * (the cross product (p1 - p0) x (p2 - p0) is zero to within its rounding
 * error bound: no circle is defined in double precision).  Thread-safe. */
hs_path *hs_path_arc(const double start[16], const double via[3], const double end[3], int turn,
                     hs_error *err);

/* Free a path (NULL is allowed). */
void hs_path_free(hs_path *p);

/* Nonzero for an arc.  Const-safe. */
int hs_path_is_arc(const hs_path *p);
/* Length of the curve the body's origin follows (line: |target - start
 * translation|; arc: radius * theta).  Const-safe. */
double hs_path_length(const hs_path *p);
/* An arc's centre, unit normal (the arc turns counterclockwise about it:
 * n = (p1 - p0) x (p2 - p1) normalised), radius and angle theta; any
 * output may be NULL.  HS_ERR_ARG for a line.  Const-safe. */
hs_code hs_path_arc_geometry(const hs_path *p, double centre[3], double normal[3],
                             double *radius, double *theta, hs_error *err);
/* Pose p(f) for 0 <= f <= 1 (p(0) is the start pose exactly; p(1) has the
 * target or end point exactly as its translation).  HS_ERR_ARG for f
 * outside [0, 1] or NaN.  Const-safe. */
hs_code hs_path_pose(const hs_path *p, double f, double out[16], hs_error *err);

/* How a path is checked.  Fill with hs_path_options_init, then change. */
typedef struct hs_path_options {
    /* Steps: either steps = K >= 1 (default 10) with speed = period = 0,
     * or steps = 0 with a speed F > 0 (scene units per time unit) and an
     * interpolation period T > 0 (time units; seed 004, section 5).  Then
     * a line gets K = ceil(L / (F T)) steps (L its length, which must be
     * > 0), and an arc of radius R and angle theta gets the seed's step
     * angle delta = asin(min(1, F T / R)) (eq. (31), about F T / R) and
     * K = ceil(theta / delta) steps (the seed's N = theta / delta + 1
     * interpolation points, rounded up so that no step is longer than
     * delta).  K may not exceed HS_PATH_MAX_STEPS. */
    int steps;
    double speed;
    double period;
    int guaranteed;    /* 0: stepped mode (default); nonzero: guaranteed mode */
    double threshold;  /* contact threshold, finite, >= 0 (default 0.1 scene
                          units); the guaranteed mode needs > 0 */
    /* Options of the world query that fills the report at the contact
     * pose (engine, triangles, contacts, threads); its threshold is
     * replaced by the threshold used.  Default hs_query_options_init. */
    hs_query_options query;
} hs_path_options;
void hs_path_options_init(hs_path_options *opt);

/* Number of steps K of path p under opt (rules above).  HS_ERR_ARG for
 * steps < 0, steps and a speed or period both given, a speed or period
 * that is not finite and > 0, a line of length 0 with a speed, or more
 * than HS_PATH_MAX_STEPS steps.  Const-safe. */
hs_code hs_path_step_count(const hs_path *p, const hs_path_options *opt, int *steps,
                           hs_error *err);
/* The K + 1 step poses p(k/K), k = 0..K, the ones the stepped mode tests
 * (16 doubles each, row-major, in a new array of 16 (K + 1) doubles to
 * free with hs_free); *count = K + 1.  Errors as hs_path_step_count.
 * Const-safe. */
hs_code hs_path_step_poses(const hs_path *p, const hs_path_options *opt, double **poses,
                           int *count, hs_error *err);

/* The answer of hs_path_check.  A plain struct. */
typedef struct hs_path_result {
    int blocked;           /* 0: the path is free; 1: a blocked pose was found */
    int steps;             /* K */
    int step;              /* the first blocked step k, 1..K (guaranteed mode:
                              the step whose interval holds the contact pose);
                              0 when free */
    int step_collision;    /* stepped: nonzero when step k's pose has a
                              common point with another body (a collision),
                              0 when it only comes within the threshold (a
                              contact); guaranteed: 0 */
    double step_distance;  /* stepped: distance at step k's pose (0 for a
                              collision); guaranteed: the distance at the
                              contact pose */
    double free_fraction;  /* f of last_free */
    double last_free[16];  /* stepped: step k-1's pose (the start for k = 1);
                              guaranteed: the last pose measured at or
                              beyond the threshold; free: the end pose */
    double fraction;       /* f of the contact pose (1 when free) */
    double contact[16];    /* the contact pose (the end pose when free) */
    double distance;       /* distance at the contact pose to the nearest
                              other body (0: a common point; INFINITY:
                              none within reach) */
    double threshold;      /* the threshold used (lowered when the body
                              starts closer than opt->threshold) */
    long queries;          /* distance evaluations of the body against the
                              bodies near it */
} hs_path_result;

/* Check body b of world w along path p (modes above).  b is placed at
 * the path's poses and put back at the pose it had before the call.
 * THE CONTACT POSE.  Stepped mode: between the last free step pose and
 * the first blocked one, by bisection (seed 001: between the last free
 * state and the colliding one): the interval is halved, keeping a free
 * pose below and a blocked one above, until the body's points move less
 * than the threshold across it; the blocked end is the contact pose: it
 * is within the threshold without a common point, and the first pose of
 * the curve within the threshold lies at most one threshold of motion
 * before it.  With threshold 0, 60 halvings: the contact pose then has a
 * common point and lies less than 2^-60 of a step past a free pose.
 * Guaranteed mode: the pose where advancement stopped (closer than the
 * threshold, no common point).
 * rep (may be NULL) receives hs_world_query of the whole world with b at
 * the contact pose (at the end pose when the path is free), with
 * opt->query and the threshold used: the pairs with b are the path's.
 * Errors: HS_ERR_ARG for NULL arguments, a body of another world, a body
 * without pieces, a static body, bad options (see hs_path_step_count;
 * threshold NaN, infinite or < 0; guaranteed mode with threshold 0) or a
 * path too long for the guaranteed mode; HS_ERR_INPUT when the start pose
 * is in collision.  On error b is put back too.  Not thread-safe on w
 * (moves b). */
hs_code hs_path_check(hs_world *w, hs_body *b, const hs_path *p, const hs_path_options *opt,
                      hs_path_result *res, hs_report *rep, hs_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HALFSPACE_H */
