/*
 * halfspace.h -- exact intersection tests for convex polyhedra given as
 * systems of linear inequalities {x in R^n : A x <= b}, and a collision
 * toolkit built on them (worlds of bodies, scene files, paths, kinematic
 * chains, oriented boxes).
 *
 * This is the one header a program includes: #include "halfspace.h" and
 * link with -lhalfspace (pkg-config halfspace).  It holds the base of the
 * API (version, the HS_API export mark, errors, memory, the handle types,
 * answers and engines) and includes one header per area, each of which
 * documents its own routines:
 *
 *   halfspace/poly.h    polyhedra in H-representation (hs_poly)
 *   halfspace/query.h   feasibility and intersection queries, results and
 *                       certificates (hs_options, hs_result)
 *   halfspace/pose.h    rigid and affine poses (4x4 matrices)
 *   halfspace/world.h   worlds, bodies, pieces, filters, world queries and
 *                       reports (hs_world, hs_body, hs_report)
 *   halfspace/motion.h  moving a body until contact; paths (hs_path)
 *   halfspace/scene.h   scene files (VRML, OFF, OBJ, STL) in and out
 *   halfspace/obb.h     oriented bounding boxes (hs_obb)
 *   halfspace/chain.h   kinematic chains (hs_chain)
 *   halfspace/robot.h   robots from URDF: trees of links, self-collision,
 *                       worlds, exact motion checks (hs_robot)
 *
 * Including one of those alone includes this header, hence the whole API.
 * Every type is an opaque handle or a plain struct (options structs are
 * filled by an *_init function); every name starts with hs_ (types,
 * functions) or HS_ (constants, macros).
 *
 * Conventions used in the documentation of every routine
 * ------------------------------------------------------
 * Errors.     Routines that can fail take a last argument `hs_error *err`
 *             (may be NULL: then no message is kept).  On failure they
 *             return NULL, a nonzero hs_code or -1 (as each states) and
 *             fill err->code and err->msg.  For input errors the message
 *             has the form "FILE:LINE: what is wrong".  On success *err
 *             may or may not have been written: read it only after a
 *             failure.  Routines without an err argument state with
 *             each what a bad index or a NULL handle gives.
 * Arguments.  Indices are 0-based (rows, pieces, links, pairs, ...) unless
 *             a routine says otherwise (joints are numbered 1..N-1).  A
 *             pointer argument may be NULL only where the documentation
 *             of the routine says what happens then; anywhere else NULL
 *             is undefined behaviour.  Array sizes are stated with each
 *             routine (a pose is double[16], a point double[3]).
 * Ownership.  The library never takes ownership of memory passed in and
 *             keeps no pointer to it after the call returns: arrays,
 *             strings and polyhedra it needs later are copied.  What it
 *             returns is owned as follows:
 *              - a new handle (hs_poly, hs_result, hs_world, hs_report,
 *                hs_chain, hs_path, hs_robot) belongs to the caller,
 *                who releases it with the matching *_free (each accepts
 *                NULL);
 *              - an hs_body belongs to its world: it is released by
 *                hs_world_remove_body or hs_world_free, never by the
 *                caller;
 *              - a string or array documented as "free with hs_free" is
 *                new memory of the caller's, released with hs_free (the
 *                complete list is at hs_free below);
 *              - every `const char *` the library returns (hs_version,
 *                hs_status_name, hs_engine_name, the reason of
 *                hs_poly_fast_ready, hs_poly_name, hs_body_name, the names
 *                of hs_report_pair, hs_chain_link_name,
 *                hs_chain_joint_name, and the names and warnings of
 *                hs_robot_*) is owned by the library (static
 *                text) or by the object it was read from, and valid as
 *                long as each routine states.  Never free or modify it.
 * Exactness.  Every answer is about the numbers exactly as written: the
 *             text 0.3 means 3/10, not the nearest double.  Doubles passed
 *             through the API are taken at their exact binary value.
 * Threads.    There is no global mutable state.  Each routine states its
 *             thread-safety; "const-safe" means: may run concurrently from
 *             any number of threads as long as the objects passed as const
 *             are not modified meanwhile and each thread uses its own
 *             non-const objects (for example its own hs_result).
 *             "Thread-safe" means: may run concurrently with anything.
 */
#ifndef HALFSPACE_H
#define HALFSPACE_H

#include <stddef.h>
#include <stdio.h>

/* ------------------------------------------------------------------ */
/* Export mark                                                          */
/* ------------------------------------------------------------------ */

/* HS_API marks every public function.  The library is compiled with
 * -fvisibility=hidden, so with GCC and Clang the shared library exports
 * exactly the functions carrying this mark (the hs_ ones) and nothing of
 * its internals.  In a program using the library the mark on a
 * declaration changes nothing.  With other compilers it is empty.  A
 * program may define HS_API itself before including this header. */
#ifndef HS_API
#if defined(__GNUC__) && __GNUC__ >= 4
#define HS_API __attribute__((visibility("default")))
#else
#define HS_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Version                                                              */
/* ------------------------------------------------------------------ */

/* The version is written here and only here; hs_version, HS_VERSION_STRING
 * and the installed halfspace.pc are derived from these three numbers. */
#define HS_VERSION_MAJOR 0
#define HS_VERSION_MINOR 1
#define HS_VERSION_PATCH 0

/* "MAJOR.MINOR.PATCH" as a string literal, from the three numbers above
 * (the version of the header; hs_version gives the library's). */
#define HS_VERSION_STRINGIFY_(x) #x
#define HS_VERSION_EXPAND_(x) HS_VERSION_STRINGIFY_(x)
#define HS_VERSION_STRING                                                     \
    HS_VERSION_EXPAND_(HS_VERSION_MAJOR) "." HS_VERSION_EXPAND_(HS_VERSION_MINOR) "." \
    HS_VERSION_EXPAND_(HS_VERSION_PATCH)

/* Version of the library the program runs with, "MAJOR.MINOR.PATCH"
 * (equal to HS_VERSION_STRING of the header it was built from).  Static
 * text: never free it.  Thread-safe. */
HS_API const char *hs_version(void);

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

/* Error details.  msg is always NUL-terminated (cut to HS_ERROR_MSG_SIZE
 * bytes).  A plain struct owned by the caller, usually on the stack; one
 * per thread. */
typedef struct hs_error {
    hs_code code;
    char msg[HS_ERROR_MSG_SIZE];
} hs_error;

/* Reset *err to HS_OK with an empty message (err NULL: nothing).
 * Thread-safe (on distinct err). */
HS_API void hs_error_clear(hs_error *err);

/* ------------------------------------------------------------------ */
/* Memory                                                               */
/* ------------------------------------------------------------------ */

/* Free memory that the library allocated for the caller (NULL is
 * allowed).  Exactly these are freed with hs_free:
 *   - the string of hs_result_point_str;
 *   - the *exact string of hs_result_multiplier;
 *   - the three arrays *verts, *face_start, *face_vert of
 *     hs_body_piece_boundary;
 *   - the array *poses of hs_path_step_poses;
 *   - the pair lists *pairs of hs_chain_auto_skip,
 *     hs_chain_self_collision_all and hs_chain_world_collision_all;
 *   - the pair lists *pairs of hs_robot_auto_skip,
 *     hs_robot_self_collision_all and hs_robot_world_collision_all.
 * Nothing else may be given to hs_free: not a handle (each has its own
 * *_free), not a `const char *` the library returns (those are owned by
 * the library or by an object), not memory from the program's own
 * allocator.  (hs_free is the C library's free, and the two strings above
 * come from GMP's allocator, malloc unless the program replaced it with
 * mp_set_memory_functions.)  Thread-safe. */
HS_API void hs_free(void *p);

/* ------------------------------------------------------------------ */
/* Handles                                                              */
/* ------------------------------------------------------------------ */

/* The opaque objects, each documented in its area's header. */
typedef struct hs_poly hs_poly;     /* immutable system A x <= b (poly.h) */
typedef struct hs_result hs_result; /* answer of a query, reusable (query.h) */
typedef struct hs_world hs_world;   /* bodies and their pieces (world.h) */
typedef struct hs_body hs_body;     /* a body, owned by its world (world.h) */
typedef struct hs_report hs_report; /* answer of a world query (world.h) */
typedef struct hs_path hs_path;     /* a line or an arc of poses (motion.h) */
typedef struct hs_chain hs_chain;   /* a kinematic chain (chain.h) */
typedef struct hs_robot hs_robot;   /* a robot: a tree of links (robot.h) */

/* ------------------------------------------------------------------ */
/* Answers and engines                                                  */
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

/* Lower-case name of a status ("infeasible", "feasible", "disjoint",
 * "touching", "overlap", "intersect", "contact"; "unknown" for a value
 * outside the enum).  Static text: never free it.  Thread-safe. */
HS_API const char *hs_status_name(hs_status s);

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
 * "faithful-exact"; "unknown" for a value outside the enum).  Static
 * text: never free it.  Thread-safe. */
HS_API const char *hs_engine_name(hs_engine e);
/* Reverse lookup: if name (case-sensitive) is one of the names above,
 * store its engine in *e (which must not be NULL) and return 1; otherwise
 * (also for name NULL) return 0 and leave *e unchanged.  Thread-safe. */
HS_API int hs_engine_from_name(const char *name, hs_engine *e);

#ifdef __cplusplus
}
#endif

/* The areas, in the order their types depend on each other. */
#include "halfspace/poly.h"
#include "halfspace/query.h"
#include "halfspace/pose.h"
#include "halfspace/world.h"
#include "halfspace/motion.h"
#include "halfspace/scene.h"
#include "halfspace/obb.h"
#include "halfspace/chain.h"
#include "halfspace/robot.h"

#endif /* HALFSPACE_H */
