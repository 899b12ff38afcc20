/*
 * halfspace/robot.h -- robots as planners have them: a tree of links
 * loaded from URDF, its configuration (the values of its movable joints),
 * self-collision with an allowed-collision (skip) list, collision and
 * distance against a world, and exact checks of straight joint-space
 * motions (guaranteed or stepped).  Part of the public API of
 * libhalfspace; programs include "halfspace.h", which includes this file.
 */
#include "../halfspace.h"

#ifndef HALFSPACE_ROBOT_H
#define HALFSPACE_ROBOT_H

#ifdef __cplusplus
extern "C" {
#endif

/* A robot is a tree of L links 0..L-1 joined by L-1 joints.  Links are
 * numbered in the order of a depth-first walk from the root (link 0), the
 * children of a link in the order their joints appear in the file; joint
 * j (0..L-2) is the joint whose child is link j + 1, so a link's parent
 * always comes before it.
 *
 * Poses.  The root is placed by the base pose (hs_robot_set_base, default
 * the identity); a link's world pose is its parent's times its joint's
 * transform origin M(q): M the rotation by q about the joint's unit axis
 * (revolute, continuous), the translation q axis (prismatic), the
 * identity (fixed) or a pose set directly (floating, planar).
 *
 * The configuration.  The coordinates are the values of the movable
 * joints that are not mimic joints (revolute, continuous, prismatic), in
 * link order (depth-first, as above): coordinate k is joint
 * hs_robot_coordinate_joint(r, k).  Radians for revolute and continuous
 * joints, the file's length unit (metres in URDF) for prismatic ones.  A
 * mimic joint follows its leader: value = multiplier * leader + offset
 * (its own limits are not checked).  Floating and planar joints are not
 * coordinates: their pose is set with hs_robot_set_joint_pose and stays
 * fixed during a motion check.
 *
 * Geometry.  Each link has zero or more pieces in its frame, built from
 * the URDF's <collision> elements (see hs_robot_load): convex pieces, or
 * triangle meshes when meshes are kept as meshes.  Collision answers are
 * exact, touching counts as collision: every pair of pieces is decided by
 * a certificate checked with rigorous bounds on every rounding (a
 * separating plane, for the pieces placed exactly by the links' world
 * poses, or a point strictly inside both, with the pieces posed as the
 * narrow phase poses them) or, when neither is found, by the narrow phase
 * of worlds, which places one piece in the other's frame by their
 * relative pose rounded to doubles.  A pair within rounding (about 1e-15
 * of the scene's size) of touching may thus be decided for either
 * placement; each answer is exact for its numbers.
 *
 * Self-collision covers every pair of links that both have pieces and are
 * neither adjacent nor skipped.  Adjacent: joined by a joint, or both
 * joined to a common link that has no pieces (a link without geometry,
 * such as a flange frame, joins its neighbours, as MoveIt's setup
 * assistant does).  Skipped: pairs in collision at the rest configuration
 * (the automatic skip list, an "allowed collision matrix", made when the
 * robot is loaded unless the options say otherwise, or later by
 * hs_robot_auto_skip) and pairs the caller adds.
 *
 * Ownership.  The caller owns a robot (hs_robot_free).  Names and
 * warnings are owned by the robot, valid until it is freed.  The pair
 * lists returned are new arrays of the caller's, freed with hs_free.
 *
 * Threads.  A robot is changed by every routine taking a non-const
 * hs_robot (setting the configuration, the incremental self-collision
 * query, motion checks, which pose the robot as they go); routines taking
 * a const hs_robot are const-safe (with the world too).  For several
 * threads, load one robot per thread, or ask hs_robot_check_states, which
 * answers many configurations on its own worker threads without changing
 * the robot.  hs_robot_load and
 * hs_robot_load_string are thread-safe (libxml2 and Assimp are used
 * re-entrantly; only the text of an Assimp failure is Assimp's last
 * error, which another thread's failing import may replace).
 *
 * Arguments.  A NULL robot gives HS_ERR_ARG where a routine returns
 * hs_code or -1; the getters say what they return for it.  Poses are
 * double[16] (halfspace/pose.h).  (The type hs_robot is declared in
 * halfspace.h.) */

/* Kinds of joints, as URDF names them. */
typedef enum hs_robot_joint_kind {
    HS_ROBOT_FIXED = 0,
    HS_ROBOT_REVOLUTE,   /* rotation about the axis, limited */
    HS_ROBOT_CONTINUOUS, /* rotation about the axis, no limits */
    HS_ROBOT_PRISMATIC,  /* translation along the axis, limited */
    HS_ROBOT_FLOATING,   /* any rigid pose, set directly */
    HS_ROBOT_PLANAR      /* a rotation about the axis and a translation
                            perpendicular to it, set directly */
} hs_robot_joint_kind;

/* Lower-case URDF name of a joint type ("fixed", "revolute",
 * "continuous", "prismatic", "floating", "planar"; "unknown" otherwise).
 * Static text.  Thread-safe. */
HS_API const char *hs_robot_joint_type_name(hs_robot_joint_kind t);

/* How a URDF file becomes a robot.  Fill with hs_robot_options_init, then
 * change fields.  A plain struct owned by the caller; the strings it
 * points to are read during the load only. */
typedef struct hs_robot_options {
    int mesh_as_hull;        /* nonzero (default 1): every mesh becomes the
                                convex hull of its points, as MoveIt and
                                pybullet do for collision; 0: meshes are
                                kept as triangle meshes */
    int cylinder_sides;      /* side facets of the prism that replaces a
                                <cylinder> (3..1000, default 24) */
    int sphere_level;        /* subdivisions of the icosahedron that
                                replaces a <sphere> (0..4, default 2) */
    const char *package_path;/* folders searched for package://NAME/...,
                                separated by ':' (NULL: none), before
                                ROS_PACKAGE_PATH */
    int ros_package_path;    /* nonzero (default 1): also search the folders
                                of the environment variable ROS_PACKAGE_PATH */
    int missing_mesh_warns;  /* 0 (default): a mesh file that cannot be found
                                is an error; nonzero: a warning, and that
                                <collision> element gives no piece */
    int auto_skip;           /* nonzero (default 1): skip the pairs in
                                collision at the rest configuration */
    long max_file_bytes;     /* largest URDF and mesh file read (default
                                256 MiB; at most 2^31 - 1) */
    int max_links;           /* most links (default 10000; 1..2^26) */
} hs_robot_options;

/* Fill *o (not NULL) with the defaults above.  Thread-safe. */
HS_API void hs_robot_options_init(hs_robot_options *o);

/* Load a robot from a URDF file (o NULL: the defaults).  What is read:
 *  - <robot name>, its <link> and <joint> elements; <material>
 *    elements and, inside links and joints, <inertial>, <visual>,
 *    <dynamics>, <safety_controller> and <calibration> are not needed
 *    for collision and are passed over;
 *  - in a link, every <collision> element: an <origin xyz rpy> (R =
 *    Rz(yaw) Ry(pitch) Rx(roll)) and one <geometry>: <box size>,
 *    <cylinder radius length> (axis z; a prism of cylinder_sides sides
 *    circumscribing it), <sphere radius> (an icosphere circumscribing
 *    it), <capsule radius length> (axis z; the hull of two circumscribing
 *    icospheres), <mesh filename [scale]>; several per link;
 *  - meshes: .stl, .obj, .off by the library's own readers (in doubles);
 *    .dae (Collada), .ply, .gltf, .glb and the other formats Assimp reads
 *    through Assimp, which reads coordinates as float (every node
 *    transform of the file applied; Collada's up axis is ignored, as ROS
 *    does, its unit applied).  A filename is package://NAME/REST (found
 *    as FOLDER/NAME/REST for FOLDER in package_path, then in
 *    ROS_PACKAGE_PATH (and one level of subfolders of each, where ROS
 *    packages live), then the URDF's folder and its parent),
 *    file:///ABSOLUTE, an absolute path, or a path relative to the URDF's
 *    folder;
 *  - joints: <origin>, <parent link>, <child link>, <axis xyz> (default
 *    1 0 0, normalised; not zero), <limit lower upper> (required for
 *    revolute and prismatic joints, lower <= upper), <mimic joint
 *    [multiplier] [offset]> (default 1, 0).
 * What is refused, each as HS_ERR_INPUT "FILE:LINE: what is wrong": XML
 * that is not well formed (libxml2's message), a file over
 * max_file_bytes, no <robot> root, a link or joint without a name, two
 * with one name, an unknown joint type, a joint naming a link that does
 * not exist, a link with two parent joints, more than one root, a cycle,
 * more than max_links links, a bad number or vector, a geometry that is
 * missing, unknown or degenerate, a mesh file that cannot be found or
 * read, a mimic joint naming an unknown, fixed or floating joint or
 * forming a cycle of mimics.  What is passed over with a warning
 * ("FILE:LINE: ... ignored", hs_robot_warning): xacro elements (the file
 * should be expanded by xacro first), <transmission>, <gazebo>, and any
 * other element the reader does not know.  Never silently.
 * Returns a new robot at its rest configuration (each coordinate 0, or
 * the middle of its limits when 0 is outside them; hs_robot_rest), with
 * the automatic skip list made there when o->auto_skip, or NULL:
 * HS_ERR_ARG for path NULL or bad options, HS_ERR_IO when the file cannot
 * be read, HS_ERR_INPUT as above, HS_ERR_NOMEM.  Thread-safe. */
HS_API hs_robot *hs_robot_load(const char *path, const hs_robot_options *o, hs_error *err);
/* The same from URDF text in memory (NUL-terminated): `name` (NULL:
 * "<urdf>") names it in messages, relative mesh paths are relative to
 * `dir` (NULL: the current folder).  xml NULL is HS_ERR_ARG. */
HS_API hs_robot *hs_robot_load_string(const char *xml, const char *name, const char *dir,
                                      const hs_robot_options *o, hs_error *err);
/* Free a robot (NULL is allowed).  Not while another thread uses it. */
HS_API void hs_robot_free(hs_robot *r);

/* The robot's name ("" for r NULL), and its warnings: their number (0
 * for r NULL) and warning k ("FILE:LINE: what was ignored"; NULL for a
 * bad k).  Owned by the robot.  Const-safe. */
HS_API const char *hs_robot_name(const hs_robot *r);
HS_API int hs_robot_warning_count(const hs_robot *r);
HS_API const char *hs_robot_warning(const hs_robot *r, int k);

/* ------------------------------------------------------------------ */
/* Links and joints                                                     */
/* ------------------------------------------------------------------ */

/* Number of links L (0 for r NULL); the name of link i (NULL for a bad i
 * or r NULL; owned by the robot); the index of the link named `name` (-1
 * if none); the parent link of link i (-1 for the root, a bad i or r
 * NULL); the number of pieces of link i (0 for a bad i).  Const-safe. */
HS_API int hs_robot_link_count(const hs_robot *r);
HS_API const char *hs_robot_link_name(const hs_robot *r, int i);
HS_API int hs_robot_link_find(const hs_robot *r, const char *name);
HS_API int hs_robot_link_parent(const hs_robot *r, int i);
HS_API int hs_robot_link_piece_count(const hs_robot *r, int i);

/* Boundary of piece k of link i, in the link's frame, as
 * hs_body_piece_boundary gives a body's (the three arrays are new, the
 * caller's: free each with hs_free; every output pointer non-NULL).
 * HS_ERR_ARG for r NULL or a bad i or k; HS_ERR_NOMEM.  Const-safe. */
HS_API hs_code hs_robot_link_piece_boundary(const hs_robot *r, int i, int k, int *is_convex,
                                            double **verts, int *nverts, int **face_start,
                                            int **face_vert, int *nfaces, hs_error *err);

/* Joints 0..L-2 (joint j moves link j + 1).  Their number (0 for r NULL),
 * the name of joint j (NULL for a bad j), the index of the joint named
 * `name` (-1 if none), its type (HS_ROBOT_FIXED for a bad j), its
 * coordinate (0..dof-1; -1 for fixed, floating, planar and mimic joints
 * and a bad j), and for a mimic joint its leader's index with the
 * multiplier and offset (each output may be NULL; returns -1, outputs
 * untouched, when j is not a mimic joint).  Const-safe. */
HS_API int hs_robot_joint_count(const hs_robot *r);
HS_API const char *hs_robot_joint_name(const hs_robot *r, int j);
HS_API int hs_robot_joint_find(const hs_robot *r, const char *name);
HS_API hs_robot_joint_kind hs_robot_joint_type(const hs_robot *r, int j);
HS_API int hs_robot_joint_coordinate(const hs_robot *r, int j);
HS_API int hs_robot_joint_mimic(const hs_robot *r, int j, double *multiplier, double *offset);

/* ------------------------------------------------------------------ */
/* Configuration                                                        */
/* ------------------------------------------------------------------ */

/* Number of coordinates (0 for r NULL); the joint of coordinate k (-1 for
 * a bad k); its limits into *lo, *hi (continuous joints: -HUGE_VAL,
 * HUGE_VAL; either may be NULL; HS_ERR_ARG for a bad k).  Const-safe. */
HS_API int hs_robot_dof(const hs_robot *r);
HS_API int hs_robot_coordinate_joint(const hs_robot *r, int k);
HS_API hs_code hs_robot_coordinate_limits(const hs_robot *r, int k, double *lo, double *hi,
                                          hs_error *err);
/* The rest configuration (see hs_robot_load) into q (n = dof values);
 * the current one into q.  HS_ERR_ARG for r or q NULL (q may be NULL
 * when dof is 0) or n != dof.  Const-safe. */
HS_API hs_code hs_robot_rest(const hs_robot *r, double *q, int n, hs_error *err);
HS_API hs_code hs_robot_get_q(const hs_robot *r, double *q, int n, hs_error *err);
/* Set every coordinate (n = dof values in coordinate order), all at
 * once; mimic joints follow.  HS_ERR_ARG, robot unchanged, for r NULL, q
 * NULL with n > 0, n != dof, a value that is not finite or outside its
 * limits.  Changes r. */
HS_API hs_code hs_robot_set_q(hs_robot *r, const double *q, int n, hs_error *err);
/* Set one coordinate by its joint's name.  HS_ERR_ARG for a NULL
 * argument, a joint that is not a coordinate (unknown, fixed, floating,
 * planar or mimic: the message says which), a value that is not finite or
 * outside the limits.  Changes r. */
HS_API hs_code hs_robot_set_value(hs_robot *r, const char *joint, double value, hs_error *err);
/* The pose of a floating joint (any rigid pose: finite, last row 0 0 0 1,
 * R^T R = I to 1e-9, det R > 0) or a planar one (moreover a rotation
 * about the joint's axis and a translation perpendicular to it, to 1e-9)
 * in its joint frame.  HS_ERR_ARG for a bad j, another joint type or a
 * pose that does not fit.  Changes r. */
HS_API hs_code hs_robot_set_joint_pose(hs_robot *r, int j, const double m[16], hs_error *err);
/* The base pose (world pose of the root; a rigid pose as above; it moves
 * the robot in the world, not its links relative to each other).
 * HS_ERR_ARG for a NULL argument or a pose that is not rigid.  Changes
 * r. */
HS_API hs_code hs_robot_set_base(hs_robot *r, const double m[16], hs_error *err);
/* World pose of link i at the current configuration into m (the identity
 * for r NULL or a bad i).  Const-safe. */
HS_API void hs_robot_link_pose(const hs_robot *r, int i, double m[16]);

/* ------------------------------------------------------------------ */
/* Skip list (allowed collisions)                                       */
/* ------------------------------------------------------------------ */

/* Why a pair of links is not tested. */
typedef enum hs_robot_skip_reason {
    HS_ROBOT_TESTED = 0,   /* not skipped */
    HS_ROBOT_ADJACENT,     /* adjacent (see above) */
    HS_ROBOT_REST,         /* in collision at the rest configuration */
    HS_ROBOT_USER,         /* skipped by the caller */
    HS_ROBOT_NO_GEOMETRY   /* a link without pieces: nothing to test */
} hs_robot_skip_reason;
/* "tested", "adjacent", "rest", "user", "no-geometry" ("unknown"
 * otherwise).  Static text.  Thread-safe. */
HS_API const char *hs_robot_skip_reason_name(hs_robot_skip_reason why);

/* Skip (skip nonzero) or test again (0) the pair of links a, b (any
 * order).  An adjacent pair or one with a link without pieces cannot be
 * tested again (its reason stays).  HS_ERR_ARG for r NULL or a pair that
 * is not two distinct links; HS_ERR_NOMEM.  Changes r. */
HS_API hs_code hs_robot_skip_pair(hs_robot *r, int a, int b, int skip, hs_error *err);
/* Why the pair a, b is skipped (HS_ROBOT_TESTED when it is tested, and
 * for r NULL or bad links).  Const-safe. */
HS_API hs_robot_skip_reason hs_robot_pair_skipped(const hs_robot *r, int a, int b);
/* The skip list: the pairs of links that both have pieces and are not
 * tested, sorted (a < b, by a then b): their number, and pair k with its
 * reason (outputs may be NULL; HS_ERR_ARG for a bad k).  Const-safe. */
HS_API int hs_robot_skip_count(const hs_robot *r);
HS_API hs_code hs_robot_skip_get(const hs_robot *r, int k, int *a, int *b,
                                 hs_robot_skip_reason *why, hs_error *err);
/* The automatic skip list at the current configuration: every tested
 * pair in collision now is skipped (reason HS_ROBOT_REST) and returned in
 * *pairs (2 ints each, a < b, sorted; *npairs pairs; a new array freed
 * with hs_free, NULL when none; pairs, npairs may be NULL).  HS_ERR_ARG
 * for r NULL; HS_ERR_NOMEM or an error of the tests (*npairs is then 0).
 * Changes r. */
HS_API hs_code hs_robot_auto_skip(hs_robot *r, int **pairs, int *npairs, hs_error *err);

/* ------------------------------------------------------------------ */
/* Collision and distance                                               */
/* ------------------------------------------------------------------ */

/* A pair in collision: two links (self: a < b, body -1) or a link and a
 * body of the world (b -1, body its index in hs_world_body order), with
 * the status HS_OVERLAP or HS_TOUCHING (the strongest of its pieces'). */
typedef struct hs_robot_pair {
    int a, b, body;
    hs_status status;
} hs_robot_pair;

/* Self-collision at the current configuration: 1 (a pair of tested links
 * meets; *a < *b one such pair, a, b may be NULL), 0 (none) or -1 (err
 * filled).  Incremental: the robot remembers the joints moved since the
 * last query that answered 0 (a joint set back to exactly its value then
 * is forgotten) and tests only the pairs with such a joint between them
 * in the tree (the rest moved rigidly since they were known free), as
 * ChainTree (seed 003) skips the parts of a chain that moved rigidly.
 * Changes r (the record). */
HS_API int hs_robot_self_collision(hs_robot *r, int *a, int *b, hs_error *err);
/* Every tested pair of links in collision: a new array of *n pairs
 * (sorted by a then b; freed with hs_free; NULL when none).  HS_ERR_ARG
 * for a NULL argument; HS_ERR_NOMEM (outputs untouched on error).
 * Const-safe. */
HS_API hs_code hs_robot_self_collision_all(const hs_robot *r, hs_robot_pair **pairs, int *n,
                                           hs_error *err);
/* The links against the bodies of a world (only enabled bodies of an
 * enabled world; a body's static flag, groups and pair filters do not
 * apply): 1 and the first pair found (link, body index; either may be
 * NULL), 0 if none, -1 on error (HS_ERR_ARG for r or w NULL).
 * Const-safe. */
HS_API int hs_robot_world_collision(const hs_robot *r, const hs_world *w, int *link, int *body,
                                    hs_error *err);
/* Every (link, body) pair in collision: a new array (sorted by link then
 * body; b = -1; freed with hs_free; NULL when none).  HS_ERR_ARG for a
 * NULL argument; HS_ERR_NOMEM.  Const-safe. */
HS_API hs_code hs_robot_world_collision_all(const hs_robot *r, const hs_world *w,
                                            hs_robot_pair **pairs, int *n, hs_error *err);
/* The whole question for a planner: set the configuration q (n = dof
 * values, as hs_robot_set_q), then self-collision, then the world (w may
 * be NULL: self only).  1 in collision, 0 free, -1 on error (also for a
 * q that hs_robot_set_q refuses).  Changes r. */
HS_API int hs_robot_check(hs_robot *r, const hs_world *w, const double *q, int n,
                          hs_error *err);
/* Many configurations at once, for planners' data sets and batch
 * validity checks: row k of Q (n rows of dof values each, row-major, in
 * coordinate order as hs_robot_set_q takes them) is answered into out[k]:
 * 0 free, 1 self-collision only, 2 world collision only (a link meets an
 * enabled body of w), 3 both; w may be NULL (self only: 0 or 1).  Each
 * answer is that of hs_robot_check at the same configuration (nonzero
 * exactly when hs_robot_check says 1), from the same exact tests, but
 * computed from scratch: every tested pair of links, then every link
 * against the world (the incremental record of hs_robot_self_collision is
 * neither used nor changed).  The robot's base pose, floating and planar
 * joint poses and skip list apply as they are.
 * threads: worker threads (0: one per CPU; 1: the calling thread only;
 * at most 256 and at most n); rows are handed out one at a time and each
 * worker keeps its own link poses and scratch, so the output does not
 * depend on the number of threads.  Q and out are the caller's (out: n
 * bytes); nothing is kept after the call.
 * Returns HS_OK (out filled), or: HS_ERR_ARG for r NULL, Q or out NULL
 * with n > 0 (Q may be NULL when dof is 0), threads < 0, or a row
 * hs_robot_set_q would refuse (not finite, outside the limits; the
 * message names the first such row, "configuration K", K counted from 1;
 * nothing is answered then); HS_ERR_NOMEM or an error of the tests, for
 * the lowest-numbered row that failed (out is then partly filled).
 * Thread-safe: const on r and w, which no thread may change during the
 * call; several calls may share one robot and one world. */
HS_API hs_code hs_robot_check_states(const hs_robot *r, const hs_world *w, const double *Q,
                                     size_t n, int threads, unsigned char *out, hs_error *err);
/* Smallest distance from the links to the bodies of the world into
 * *dist, with the link, the body index and a point on each in world
 * coordinates (any of those outputs may be NULL).  0, decided exactly,
 * when a pair meets; otherwise measured in floating point (GJK on the
 * pieces' corners, a mesh triangle by triangle).  HS_ERR_ARG for r, w or
 * dist NULL, or when the robot or the world (its enabled bodies) has no
 * piece; HS_ERR_NOMEM.  Const-safe. */
HS_API hs_code hs_robot_world_distance(const hs_robot *r, const hs_world *w, double *dist,
                                       int *link, int *body, double pa[3], double pb[3],
                                       hs_error *err);

/* ------------------------------------------------------------------ */
/* Motions                                                              */
/* ------------------------------------------------------------------ */

/* A motion is the straight line in joint space q(t) = (1 - t) qa + t qb,
 * t in [0, 1] (mimic joints follow, floating and planar joints and the
 * base stay).  A configuration is blocked when a tested pair of links or
 * a link and a body meet.  Two modes:
 *  - stepped: the configurations q(k/K), k = 0..K, in order, K the
 *    smallest number of steps such that no coordinate changes by more
 *    than `resolution` between two of them.  A thin obstacle passed
 *    between two steps is NOT seen: this mode can say free for a motion
 *    that collides.
 *  - guaranteed (Schwarzer, Saha and Latombe's adaptive method): for
 *    every pair of links that can move relative to each other, and every
 *    link and body whose boxes can meet during the motion, a bound lambda
 *    on how far any point of one can move relative to the other while t
 *    goes from t0 to t1 (the sum over the joints between them of the
 *    joint's change times the largest distance from its axis to a point
 *    of the link, bounded over the whole motion, plus a prismatic joint's
 *    change) and certified lower bounds d0, d1 on their distance at t0
 *    and t1 (oriented boxes, or GJK's separating direction checked with a
 *    rigorous rounding-error bound) prove the pair free on [t0, t1] when
 *    lambda + delta < d0 + d1 (delta = 2^-30 of the size of the scene
 *    covers the rounding of the posed configurations); otherwise the
 *    interval is halved, and a configuration whose lower bound is 0 is
 *    decided by the exact test.  It never says free for a motion that
 *    collides.  Intervals are refined earliest first, so the collision
 *    returned is the first: every configuration before free_fraction is
 *    proven free, and the pair's motion between free_fraction and
 *    fraction is at most `tolerance`.  A stretch it can neither prove
 *    free nor find in collision within `tolerance` (a pair passing within
 *    about `tolerance` of contact) is reported blocked too, as
 *    blocked = 2.
 * Both modes test the start configuration first: a motion from a
 * configuration in collision is blocked at fraction 0. */
typedef struct hs_robot_motion_options {
    int guaranteed;      /* 0 (default): stepped; nonzero: guaranteed */
    double resolution;   /* stepped: largest change of a coordinate between
                            two checked configurations, radians or length
                            units (default 1 degree, 0.017453292519943295) */
    double tolerance;    /* guaranteed: motion (length units) within which
                            the first contact is located (default 1e-6) */
    int self;            /* nonzero (default 1): self-collisions count */
    long max_checks;     /* guaranteed: most distance bounds computed before
                            giving up with HS_ERR_UNSUPPORTED (default 10^7) */
} hs_robot_motion_options;
/* Fill *o (not NULL) with the defaults above.  Thread-safe. */
HS_API void hs_robot_motion_options_init(hs_robot_motion_options *o);

/* The answer of hs_robot_check_motion.  A plain struct owned by the
 * caller. */
typedef struct hs_robot_motion_result {
    int blocked;          /* 0: free; 1: a configuration in collision was
                             found; 2 (guaranteed only): a stretch within
                             about `tolerance` of contact, not confirmed */
    double fraction;      /* t of the first blocked configuration found
                             (1 when free) */
    double free_fraction; /* every configuration q(t), t < free_fraction,
                             is free (guaranteed: proven; stepped: the
                             steps before it are free, 1 when free) */
    int a, b, body;       /* the pair: links a < b (body -1), or link a and
                             body index `body` (b -1); -1 when free */
    hs_status status;     /* HS_OVERLAP or HS_TOUCHING for blocked = 1,
                             HS_DISJOINT otherwise */
    int steps;            /* stepped: K; guaranteed: 0 */
    long configurations;  /* configurations posed */
    long bounds;          /* guaranteed: distance bounds computed */
    long exact_tests;     /* exact tests of pairs of pieces */
} hs_robot_motion_result;

/* Check the motion from qa to qb (n = dof values each, within the
 * limits) against self-collision (opt->self) and the world w (may be
 * NULL) in the mode of opt (NULL: the defaults) into *res; q_hit (may be
 * NULL, n values) receives the configuration q(res->fraction).  The
 * robot is put back at the configuration it had before the call.
 * Errors: HS_ERR_ARG for a NULL r, qa, qb or res, n != dof, values not
 * finite or outside the limits, options out of range (resolution or
 * tolerance not finite and > 0); HS_ERR_UNSUPPORTED when the guaranteed
 * mode needs more than max_checks bounds; HS_ERR_NOMEM.  Changes r
 * during the call only. */
HS_API hs_code hs_robot_check_motion(hs_robot *r, const hs_world *w, const double *qa,
                                     const double *qb, int n,
                                     const hs_robot_motion_options *opt,
                                     hs_robot_motion_result *res, double *q_hit, hs_error *err);

/* ------------------------------------------------------------------ */
/* Export                                                               */
/* ------------------------------------------------------------------ */

/* Write the robot at its current configuration (one body per link with
 * pieces, named after the link) and the bodies of w (may be NULL) to out
 * as VRML 2.0, as hs_world_export_vrml does: pieces of the pairs in
 * collision red, the others grey.  Link names that are not VRML
 * identifiers are changed ('_' for other characters, a '_' before a
 * leading digit); a name that would then clash gets a number.  Returns
 * HS_OK, HS_ERR_ARG for r or out NULL, HS_ERR_IO on a write error,
 * HS_ERR_NOMEM.  Const-safe in r and w. */
HS_API hs_code hs_robot_export_vrml(const hs_robot *r, const hs_world *w, FILE *out,
                                    hs_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HALFSPACE_ROBOT_H */
