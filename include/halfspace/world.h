/*
 * halfspace/world.h -- worlds of bodies (seeds 000 and 001): bodies and
 * their pieces, poses, collision filters, the broad phase, world queries
 * with their reports (pairs in collision or contact, contact points), and
 * distances.  Part of the public API of libhalfspace; programs include
 * "halfspace.h", which includes this file.  Moving a body until contact
 * and along paths is in halfspace/motion.h, scene files in
 * halfspace/scene.h, a piece's oriented box in halfspace/obb.h.
 */
#include "../halfspace.h"

#ifndef HALFSPACE_WORLD_H
#define HALFSPACE_WORLD_H

#ifdef __cplusplus
extern "C" {
#endif

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
 * Ownership.  The caller owns an hs_world (hs_world_free).  Bodies belong
 * to their world: an hs_body handle is valid until the body is removed or
 * the world freed, and is never freed by the caller.
 *
 * Exactness in a world.  A pose is applied in double precision: to compare
 * two pieces, one is expressed in the other's frame and its numbers are
 * rounded once to doubles.  Every answer is exact for those numbers.
 *
 * Threads.  Queries (hs_world_query, hs_world_distance) and the lookups
 * and getters below only read the world: any number may run at once, each
 * query with its own report.  Every function that changes the world
 * (adding, removing, posing, toggling, adding pieces, setting flags) must
 * not run concurrently with anything else on the same world.  A body
 * cloned from another world shares its geometry with that world, and the
 * shared reference count is not atomic: cloning, removing or freeing
 * bodies that share geometry must not run concurrently even in different
 * worlds.
 *
 * Arguments.  A world or body argument must not be NULL unless a routine
 * says otherwise.  (The types hs_world and hs_body are declared in
 * halfspace.h.) */

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

/* New empty world (enabled, broad phase HS_BROAD_GRID), or NULL when out
 * of memory; free with hs_world_free.  Thread-safe. */
HS_API hs_world *hs_world_new(void);
/* Free a world: its bodies (every hs_body handle of it becomes invalid),
 * their names, pieces and the geometry no clone elsewhere still uses.
 * NULL is allowed.  Not while anything else uses w. */
HS_API void hs_world_free(hs_world *w);

/* Method of the broad phase (rebuilds its structure).  Returns HS_OK,
 * HS_ERR_ARG for a value outside the enum, HS_ERR_NOMEM (the world keeps
 * its old broad phase).  Changes w. */
HS_API hs_code hs_world_set_broadphase(hs_world *w, hs_broadphase method, hs_error *err);

/* New body (identity pose, no pieces, enabled, group 1, mask all ones)
 * named `name` (copied).  Names are unique and nonempty.  Returns the
 * body, owned by w, valid until it is removed or the world freed; NULL
 * with HS_ERR_ARG for w or name NULL, an empty name or a name already
 * used, or with HS_ERR_NOMEM.  Changes w. */
HS_API hs_body *hs_world_add_body(hs_world *w, const char *name, int is_static,
                                  hs_error *err);
/* A copy of src named `name`, with src's static flag, enabled flag,
 * groups, pose and pieces (sharing its geometry); it stays valid when src
 * is removed.  src may belong to another world (see Threads above).
 * Returns NULL with HS_ERR_ARG for src NULL and as hs_world_add_body.
 * Changes w. */
HS_API hs_body *hs_world_clone_body(hs_world *w, const hs_body *src, const char *name,
                                    hs_error *err);
/* Remove and free body b of w (its handle becomes invalid; so do the
 * hs_world_body indices after it, which move down by one).  HS_ERR_ARG if
 * b (may be NULL) is not a body of w.  Changes w. */
HS_API hs_code hs_world_remove_body(hs_world *w, hs_body *b, hs_error *err);
/* Lookups: the body named `name` (NULL if none, or if w or name is NULL);
 * the number of bodies (0 for w NULL); body k, 0 <= k < count, in order of
 * creation (NULL for w NULL or k out of range).  Const-safe. */
HS_API hs_body *hs_world_find_body(const hs_world *w, const char *name);
HS_API int hs_world_body_count(const hs_world *w);
HS_API hs_body *hs_world_body(const hs_world *w, int k);

/* The body's name (owned by the body: valid until it is removed or the
 * world freed; never free it), static flag and number of pieces.
 * Const-safe. */
HS_API const char *hs_body_name(const hs_body *b);
HS_API int hs_body_is_static(const hs_body *b);
HS_API int hs_body_piece_count(const hs_body *b);
/* Set the static flag (two static bodies are never tested).  Changes the
 * world. */
HS_API void hs_body_set_static(hs_body *b, int is_static);
/* Set the pose (double[16]: finite entries, last row 0 0 0 1, invertible
 * R); the world's broad phase is updated.  HS_ERR_ARG (pose unchanged)
 * for b or m NULL or an invalid pose; HS_ERR_NOMEM.  Changes the world. */
HS_API hs_code hs_body_set_pose(hs_body *b, const double m[16], hs_error *err);
/* The pose into m[16].  Const-safe. */
HS_API void hs_body_get_pose(const hs_body *b, double m[16]);
/* World-frame box of the body (outward rounded) into lo[3], hi[3];
 * returns 1, or 0 (lo, hi untouched) if b is NULL or has no piece.
 * Const-safe. */
HS_API int hs_body_aabb(const hs_body *b, double lo[3], double hi[3]);

/* ------------------------------------------------------------------ */
/* Pieces                                                               */
/* ------------------------------------------------------------------ */

/* Pieces, in the body frame, placed by `place` (a pose of the piece in the
 * body frame, double[16]; NULL is the identity; any valid pose, that is an
 * invertible affine map, so scales are allowed).  Every constructor copies
 * its arrays, validates its arguments (finite, positive sizes, at least 3
 * sides, ...) and returns HS_OK, HS_ERR_ARG (bad sizes or counts, a NULL
 * array, a placement that is not a valid pose) or HS_ERR_INPUT
 * (degenerate geometry: coplanar points, an unbounded or lower-dimensional
 * polytope, ...) with a message, or HS_ERR_NOMEM; after HS_ERR_ARG or
 * HS_ERR_INPUT the body is unchanged.  (Without err, an error of the
 * geometry may read as HS_ERR_INPUT whatever its cause.)  b must not be NULL.  Each changes the body and the
 * world's broad phase: not concurrently with anything else on the world.
 * Pieces made from points (box, cylinder, cone, sphere, hull) are the exact
 * convex hull of the points, written as one row in doubles per facet: the
 * row is the facet's plane exactly whenever that plane has a double
 * representation (axis-aligned faces; in general, integer or dyadic data),
 * so a box or a prism standing on a floor touches it; otherwise the
 * plane is moved outward by one rounding (the piece contains the hull). */
/* Box of full sizes size[0..2] (not NULL), centered at the origin. */
HS_API hs_code hs_body_add_box(hs_body *b, const double size[3], const double place[16],
                               hs_error *err);
/* Prism / pyramid with `sides` (3 to 100000) side facets whose vertices
 * lie on the circle of the given radius, axis y, centered (as in VRML):
 * inscribed in the round shape. */
HS_API hs_code hs_body_add_cylinder(hs_body *b, double radius, double height, int sides,
                                    const double place[16], hs_error *err);
HS_API hs_code hs_body_add_cone(hs_body *b, double radius, double height, int sides,
                                const double place[16], hs_error *err);
/* Icosphere: the icosahedron subdivided `level` (0 to 6) times
 * (20 * 4^level triangles), vertices on the sphere. */
HS_API hs_code hs_body_add_sphere(hs_body *b, double radius, int level,
                                  const double place[16], hs_error *err);
/* Convex hull of n >= 4 points (x,y,z triples: 3n doubles); not all
 * coplanar. */
HS_API hs_code hs_body_add_hull(hs_body *b, const double *points, int n,
                                const double place[16], hs_error *err);
/* A polytope given as a half-space system (n = 3, bounded,
 * full-dimensional, inequality rows); copied (p stays the caller's).  A
 * world's pieces, like its poses, are in doubles: each row is taken as its
 * doubles (a row read from "0.3" becomes the double nearest 3/10, as
 * hs_poly_row gives it), and the world's answers are exact for those
 * numbers; for rational rows taken exactly, ask hs_intersect.  p NULL or
 * not of dimension 3 is HS_ERR_INPUT. */
HS_API hs_code hs_body_add_polytope(hs_body *b, const hs_poly *p, const double place[16],
                                    hs_error *err);
/* Triangle mesh: nverts >= 3 points (3 nverts doubles), ntris >= 1 index
 * triples (3 ntris ints, 0-based, each < nverts); need not be closed or
 * convex; non-finite points and degenerate triangles are HS_ERR_INPUT. */
HS_API hs_code hs_body_add_mesh(hs_body *b, const double *verts, int nverts, const int *tris,
                                int ntris, const double place[16], hs_error *err);

/* Boundary of piece k of b, in the body frame: *is_convex is nonzero for a
 * convex piece; *nverts points in *verts (x, y, z: 3 *nverts doubles);
 * *nfaces faces, face f having the corners
 * (*face_vert)[(*face_start)[f] .. (*face_start)[f+1]-1] (*face_start has
 * *nfaces + 1 entries; counterclockwise seen from outside for a convex
 * piece; the triangles as given for a mesh).  The three arrays are new
 * and the caller's: free each with hs_free.  Every output pointer must be
 * non-NULL.  Returns HS_OK, HS_ERR_ARG for b NULL or k outside
 * 0..pieces-1, HS_ERR_NOMEM (outputs untouched on error).  Const-safe. */
HS_API hs_code hs_body_piece_boundary(const hs_body *b, int k, int *is_convex,
                                      double **verts, int *nverts, int **face_start,
                                      int **face_vert, int *nfaces, hs_error *err);

/* ------------------------------------------------------------------ */
/* Filters                                                              */
/* ------------------------------------------------------------------ */

/* Filters (seed 001).  Collisions are tested only for pairs of bodies that
 * are both enabled, in a world that is enabled, whose pair is enabled, that
 * are not both static, and whose groups match: a and b may collide when
 * (a.group & b.mask) and (b.group & a.mask) are both nonzero (default group
 * 1, mask all ones).  Two pieces of one body are never tested.  (Seed 001's
 * threads: main-thread bodies group 1; thread k's bodies group 1 << k and
 * mask 1 | 1 << k, so they meet the main thread's and their own only.)
 * Each changes the world: not concurrently with anything else on it. */
HS_API void hs_world_set_enabled(hs_world *w, int on);
HS_API void hs_body_set_enabled(hs_body *b, int on);
/* HS_ERR_ARG unless a and b are two distinct bodies of w; HS_ERR_NOMEM. */
HS_API hs_code hs_world_set_pair_enabled(hs_world *w, const hs_body *a, const hs_body *b,
                                         int on, hs_error *err);
HS_API void hs_body_set_groups(hs_body *b, unsigned group, unsigned mask);

/* ------------------------------------------------------------------ */
/* World queries                                                        */
/* ------------------------------------------------------------------ */

/* How the triangles of two meshes are paired.  All three report the same
 * pairs with the same statuses (exact triangle-triangle tests on the same
 * rounded points); only the time differs, and, when a piece pair has
 * several meeting triangle pairs, which one's common point becomes the
 * piece pair's witness (each method stops at the first overlap it finds,
 * in its own order). */
typedef enum hs_tri_method {
    HS_TRI_GRID = 0, /* a uniform grid rebuilt per query (seed 000) */
    HS_TRI_RAW,      /* every triangle against every triangle (seed 000's raw method) */
    HS_TRI_BVH       /* a box hierarchy of each mesh, built once, traversed pairwise
                        with certified culling (the default) */
} hs_tri_method;

/* Options of a world query; fill with hs_query_options_init, then
 * change fields.  A plain struct owned by the caller. */
typedef struct hs_query_options {
    double threshold;        /* contact threshold in scene units (default 0.1):
                                pairs of pieces closer than this without a
                                common point are reported as contacts; 0: none */
    int contacts;            /* compute contact points and normals (default 1) */
    hs_tri_method triangles; /* default HS_TRI_BVH */
    int threads;             /* worker threads for the narrow phase (default 1;
                                0: one per CPU; at most 64 are used) */
    hs_engine engine;        /* convex pairs: HS_ENGINE_FAST (default) or
                                HS_ENGINE_EXACT, the exact LP engine on the
                                same two systems (slow; a cross-check) */
} hs_query_options;

/* Fill *opt (not NULL) with the defaults above.  Thread-safe. */
HS_API void hs_query_options_init(hs_query_options *opt);

/* The answer of a world query: pairs of bodies in collision or contact,
 * sorted by (first name, second name) with first < second; for each, the
 * pairs of pieces and the contacts.  Reusable; one per thread.  Owned by
 * the caller (hs_report_free); each query with it overwrites it.
 * Temporal coherence: a report also keeps, for every pair of convex pieces
 * it tested, what decided it (the rows of the separation certificate or a
 * common interior point), and the next query with the same report tries
 * that first.  The hint goes through the same certified predicates as a
 * fresh answer, so answers never depend on it; only the time does (a
 * moving world queried with one report per thread is about twice as fast).
 * Memory: a hint per tested pair of pieces (about 100 bytes; a touching
 * pair of small pieces also keeps the record of its test, about 1 KB),
 * the narrow phase's scratch of each worker thread (buffers sized by the
 * largest piece and mesh met; a later query reuses them instead of
 * allocating), and each worker's arena for what it finds per pair during
 * a query (the largest query's worth, in 64 KB blocks, reused by the next
 * query), all released by hs_report_free.
 * The accessors below are const-safe and accept r NULL (counts 0,
 * HS_ERR_ARG).  (The type hs_report is declared in halfspace.h.) */

/* New empty report (no pairs), or NULL when out of memory; free with
 * hs_report_free.  Thread-safe. */
HS_API hs_report *hs_report_new(void);
/* Free a report (NULL is allowed); the names it handed out become
 * invalid.  Not while another thread uses r. */
HS_API void hs_report_free(hs_report *r);

/* All pairs of bodies that overlap, touch or are in contact, into rep
 * (overwritten).  A body pair's status is the strongest of its piece pairs
 * (overlap > touching > contact).  opt NULL means the defaults.  Returns
 * HS_OK, HS_ERR_ARG for w or rep NULL, a threshold that is not finite and
 * >= 0, or an engine other than fast and exact; HS_ERR_NOMEM, or an error
 * of the narrow phase.  Const-safe in the world (its workers only read
 * it); rep must not be used by another thread meanwhile. */
HS_API hs_code hs_world_query(const hs_world *w, const hs_query_options *opt, hs_report *rep,
                              hs_error *err);

/* Number of body pairs in r (0 for r NULL). */
HS_API int hs_report_pair_count(const hs_report *r);
/* Body pair k (0-based): names into *a and *b (owned by the report: valid
 * until the next query that fills r or hs_report_free; never free them),
 * status into *status; any output may be NULL.  HS_ERR_ARG (nothing
 * written) for r NULL or a bad k. */
HS_API hs_code hs_report_pair(const hs_report *r, int k, const char **a, const char **b,
                              hs_status *status);
/* Piece pairs of body pair k: their number (0 for r NULL or a bad k), and
 * piece pair j: piece indices (in order of addition to each body),
 * status, a witness point in world coordinates (common point for overlap
 * and touching; for contact the point on the first piece; double[3]), and
 * the distance (0 for overlap and touching); any output may be NULL.
 * HS_ERR_ARG (nothing written) for r NULL or a bad k or j. */
HS_API int hs_report_piece_count(const hs_report *r, int k);
HS_API hs_code hs_report_piece(const hs_report *r, int k, int j, int *piece_a, int *piece_b,
                               hs_status *status, double witness[3], double *distance);
/* Contacts of body pair k (pieces within the threshold, or touching):
 * the point on each body and the unit normal from the first body towards
 * the second (double[3] each, any may be NULL); many contacts in a small
 * area are pruned to the corners of their convex hull (seed 001), at most
 * 16 per pair of pieces (corners spread evenly around the hull when it has
 * more).  The count is 0 for r NULL or a bad k (and when the query ran
 * with contacts = 0); hs_report_contact returns HS_ERR_ARG (nothing
 * written) for r NULL or a bad k or c. */
HS_API int hs_report_contact_count(const hs_report *r, int k);
HS_API hs_code hs_report_contact(const hs_report *r, int k, int c, double on_a[3],
                                 double on_b[3], double normal[3]);

/* Counters of the last query. */
typedef struct hs_report_stats {
    long body_pairs;     /* pairs of bodies the broad phase kept */
    long piece_pairs;    /* pairs of pieces tested */
    long triangle_tests; /* triangle-triangle tests */
    long fallbacks;      /* fast-engine queries answered by the exact engine */
    long repeated;       /* of the piece pairs, those answered from the last
                            query with this report, without a test: two
                            convex pieces (at most 2048 rows each) that
                            touched or overlapped then, whose rows and
                            poses are equal bit for bit (nothing moved),
                            with their
                            contacts when the threshold is the same;
                            exact, as the answer is decided from those
                            numbers.  (The
                            report keeps such records for up to 2^22
                            doubles, 32 MiB, a query.) */
} hs_report_stats;
/* Copy the counters into *st (nothing when r or st is NULL). */
HS_API void hs_report_get_stats(const hs_report *r, hs_report_stats *st);

/* Distance between two bodies: the smallest distance between their pieces,
 * into *dist (may be NULL), with a point on each into pa[3] and pb[3]
 * (not NULL; |pa - pb| = *dist; 0, and pa = pb a common point, when they
 * meet, decided exactly).  Filters do not apply.  Returns HS_OK,
 * HS_ERR_ARG unless a and b are two distinct bodies with pieces (w not
 * NULL), or when a piece placed in the other's frame leaves the range of
 * doubles; HS_ERR_INPUT when the distance itself is beyond that range;
 * HS_ERR_NOMEM.  Const-safe. */
HS_API hs_code hs_world_distance(const hs_world *w, const hs_body *a, const hs_body *b,
                                 double *dist, double pa[3], double pb[3], hs_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HALFSPACE_WORLD_H */
