/*
 * halfspace/chain.h -- kinematic chains (seed 003: ChainTree): links and
 * their pieces, joints (free poses, or typed with limits), chain files,
 * self-collision with skip lists, and the chain against a world.  Part of
 * the public API of libhalfspace; programs include "halfspace.h", which
 * includes this file.
 */
#include "../halfspace.h"

#ifndef HALFSPACE_CHAIN_H
#define HALFSPACE_CHAIN_H

#ifdef __cplusplus
extern "C" {
#endif

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
 * Range.  The exact tests need finite numbers, so the chain keeps every
 * placed number finite: each product of joints (the pose of a link in
 * another's frame), each piece's extent in its link's frame and the
 * base's translation must stay within 2^1000 (about 1e301) in magnitude.
 * A call that would break this (a joint, a piece, a base, typed joint
 * values, a chain file's rest values) fails with HS_ERR_ARG and changes
 * nothing.
 *
 * The chain keeps seed 003's ChainTree: a balanced binary tree over the
 * joints whose node at level l caches the shortcut J(i, i + 2^l) (at most
 * 2N - 3 transforms), and a loose box hierarchy aligned with the chain
 * (each node's box bounds its two children, in the frame of the node's
 * first link).  Changing k joints costs O(k log(N/k)) (changes merged
 * level by level); the relative pose of two links costs O(log N).
 *
 * Ownership.  The caller owns a chain (hs_chain_free).  Pieces, names and
 * polytopes given to it are copied.  The pair lists of
 * hs_chain_auto_skip, hs_chain_self_collision_all and
 * hs_chain_world_collision_all are new arrays of 2 ints per pair, the
 * caller's, freed with hs_free (NULL when there is no pair).  The names
 * of links and joints are owned by the chain.
 *
 * Threads.  A chain is changed by every function taking a non-const
 * hs_chain, including hs_chain_self_collision (it keeps which sub-trees
 * are known free); functions taking a const hs_chain are const-safe
 * (with the world too, for those taking one).
 *
 * Arguments.  Links are numbered 0..N-1 and joints 1..N-1.  Where a
 * routine returns hs_code or -1, a NULL chain is HS_ERR_ARG; the getters
 * say what they return for it.  Pose arguments are double[16].  (The type
 * hs_chain is declared in halfspace.h.) */

/* New chain of n links, 1 <= n <= 2^26, identity joints and base, no
 * pieces, adjacent links skipped.  Returns it (free with hs_chain_free),
 * or NULL with HS_ERR_ARG for n out of range or HS_ERR_NOMEM.
 * Thread-safe. */
HS_API hs_chain *hs_chain_new(int n, hs_error *err);
/* Free a chain with its pieces and names (NULL is allowed).  Not while
 * another thread uses c. */
HS_API void hs_chain_free(hs_chain *c);
/* Number of links N (0 for c NULL).  Const-safe. */
HS_API int hs_chain_link_count(const hs_chain *c);

/* Pieces of link i, in its frame.  A sphere (center[3] finite, radius > 0
 * and finite); the convex hull of n >= 4 points (3n doubles; not all
 * coplanar); a polytope (3 variables, bounded, full-dimensional,
 * inequality rows), copied.  Returns HS_OK, HS_ERR_ARG for a NULL
 * argument, a link outside 0..N-1, a bad size or a piece beyond the
 * chain's range (see Range above), HS_ERR_INPUT for
 * degenerate geometry, HS_ERR_NOMEM.  Pieces should be added before the
 * first query (adding one refits the box hierarchy and makes the next
 * self-collision query search everything). */
HS_API hs_code hs_chain_add_sphere(hs_chain *c, int link, const double center[3],
                                   double radius, hs_error *err);
HS_API hs_code hs_chain_add_hull(hs_chain *c, int link, const double *points, int n,
                                 hs_error *err);
HS_API hs_code hs_chain_add_polytope(hs_chain *c, int link, const hs_poly *p, hs_error *err);

/* Joint i (1 <= i < N): set J_i to m (a rigid pose), or compose it with a
 * change, J_i <- J_i d (d in link i's frame, for example a rotation about
 * the joint axis).  HS_ERR_ARG for c or the pose NULL, a bad index, a
 * pose that is not rigid or one that takes the chain beyond its range
 * (the chain is then unchanged).  O(log N) each;
 * setting a joint back to exactly its value before the last single-joint
 * change (an undo) restores the nodes that change rewrote, in O(log N)
 * copies. */
HS_API hs_code hs_chain_set_joint(hs_chain *c, int i, const double m[16], hs_error *err);
HS_API hs_code hs_chain_change_joint(hs_chain *c, int i, const double d[16], hs_error *err);
/* Several joints at once, the updates merged level by level: joint idx[k]
 * set to the pose m + 16 k, k < count (idx has count entries, m 16 count
 * doubles; the last of repeated indices wins; every pose is checked
 * before any is applied, so on HS_ERR_ARG nothing changed).  HS_ERR_ARG
 * for c NULL, idx or m NULL with count > 0, count < 0, a bad index, a
 * pose that is not rigid, or poses that take the chain beyond its range
 * (then all are set back: nothing changed); HS_ERR_NOMEM. */
HS_API hs_code hs_chain_set_joints(hs_chain *c, const int *idx, const double *m, int count,
                                   hs_error *err);
/* J_i into m (the identity for c NULL or i outside 1..N-1).  Const-safe. */
HS_API void hs_chain_get_joint(const hs_chain *c, int i, double m[16]);
/* Base pose (world pose of link 0; a rigid pose).  It moves the chain
 * in the world only: self-collision does not depend on it.  HS_ERR_ARG
 * for a NULL argument, a pose that is not rigid or a translation beyond
 * the chain's range. */
HS_API hs_code hs_chain_set_base(hs_chain *c, const double m[16], hs_error *err);

/* World pose of link i; pose of link j in link i's frame (O(log N) from
 * the shortcuts).  Const-safe; out of range indices and c NULL give the
 * identity. */
HS_API void hs_chain_link_pose(const hs_chain *c, int i, double m[16]);
HS_API void hs_chain_relative_pose(const hs_chain *c, int i, int j, double m[16]);

/* Self-collision skip list: pairs of links never tested against each
 * other.  skip nonzero adds the pair (i, j), in either order; 0 removes
 * it (the next query then searches everything).  Adjacent links (i, i+1)
 * are skipped by default (hs_chain_skip_adjacent(c, 0) turns that off;
 * c NULL: nothing).  HS_ERR_ARG for c NULL or a pair that is not two
 * distinct links; HS_ERR_NOMEM. */
HS_API hs_code hs_chain_skip_pair(hs_chain *c, int i, int j, int skip, hs_error *err);
HS_API void hs_chain_skip_adjacent(hs_chain *c, int skip);
/* Automatic skip list: skip every pair of links that overlap or touch at
 * the current pose (the rest pose), besides the adjacent ones.  The pairs
 * newly skipped are returned in *pairs (2 ints each, i < j, *npairs
 * pairs; a new array the caller frees with hs_free; NULL when there are
 * none or on error), so the caller can report them; pairs and npairs may
 * each be NULL if not wanted.  HS_ERR_ARG for c NULL, or the error of the
 * search (*npairs is then 0). */
HS_API hs_code hs_chain_auto_skip(hs_chain *c, int **pairs, int *npairs, hs_error *err);

/* Counters of one self-collision query. */
typedef struct hs_chain_stats {
    long box_tests;    /* box-box overlap tests */
    long piece_tests;  /* exact piece-piece tests */
} hs_chain_stats;

/* Self-collision: do two non-skipped links overlap or touch?  Returns 1
 * (yes; *i < *j is one such pair; i, j may be NULL), 0 (no) or -1
 * (error, err filled: HS_ERR_ARG for c NULL, else the error of a piece
 * test, such as HS_ERR_NOMEM).  The chain remembers the
 * joints moved since the last query that answered 0 (a joint set back to
 * exactly its value at that answer is forgotten again) and searches only
 * between links with such a joint between them: the rest moved rigidly
 * since the chain was known free.  A 0 answer resets that record; adding
 * pieces or removing a pair from the skip list makes the next query search
 * everything.  st (may be NULL) receives this query's counters.  Modifies
 * c. */
HS_API int hs_chain_self_collision(hs_chain *c, int *i, int *j, hs_chain_stats *st,
                                   hs_error *err);
/* A move kept only if it is free (seed 003's experiment, and a Monte
 * Carlo or planner step): J_i <- J_i d, then hs_chain_self_collision; on
 * a collision the joint is set back exactly.  Returns 0 (the chain is
 * free and keeps the move), 1 (it would collide: *hit_i < *hit_j is one
 * such pair, hit_i, hit_j may be NULL, and the chain is as before the
 * call) or -1 (err filled: c or d NULL, a bad index, a d that is not
 * rigid or one that takes the chain beyond its range, or an error of the
 * query: the chain is then as before the call).  The same answers as those
 * three calls, cheaper: when no other joint moved since the last free
 * answer, the boxes are refitted only as the search climbs, so a
 * collision found low never pays for the boxes above it.  st as for
 * hs_chain_self_collision.  Modifies c: not to be called concurrently
 * with anything else on c. */
HS_API int hs_chain_try_change(hs_chain *c, int i, const double d[16], int *hit_i,
                               int *hit_j, hs_chain_stats *st, hs_error *err);
/* All colliding link pairs: a new array of 2 ints each (i < j, sorted by
 * i then j) into *pairs, *npairs pairs; the caller frees it with hs_free
 * (NULL when there are none).  Does not use or change the cache of free
 * sub-trees.  st as for hs_chain_self_collision.  HS_ERR_ARG for a NULL
 * c, pairs or npairs; HS_ERR_NOMEM (outputs untouched on error).
 * Const-safe. */
HS_API hs_code hs_chain_self_collision_all(const hs_chain *c, int **pairs, int *npairs,
                                           hs_chain_stats *st, hs_error *err);

/* The chain against the bodies of a world (links at base J_1 ... J_i;
 * only enabled bodies of an enabled world count; a body's group, mask and
 * static flag do not apply): returns 1 and the first colliding (link,
 * body) found (link, body may be NULL; the body belongs to w), 0 if none,
 * -1 on error (c or w NULL: HS_ERR_ARG; a piece placed by the link and
 * body poses that is not finite: HS_ERR_ARG; HS_ERR_NOMEM).  Exact like the
 * world's narrow phase (a sphere's centre is placed in the body's frame).
 * Const-safe. */
HS_API int hs_chain_world_collision(const hs_chain *c, const hs_world *w, int *link,
                                    const hs_body **body, hs_error *err);
/* Every colliding (link, body) pair: a new array of 2 ints each, the link
 * and the body's index in order of creation (hs_world_body), sorted by
 * link then body, into *pairs, *npairs pairs; the caller frees it with
 * hs_free (NULL when there are none).  HS_ERR_ARG for a NULL argument;
 * HS_ERR_NOMEM (outputs untouched on error).  Const-safe. */
HS_API hs_code hs_chain_world_collision_all(const hs_chain *c, const hs_world *w,
                                            int **pairs, int *npairs, hs_error *err);
/* Smallest distance from the chain to a body of the world into *dist (not
 * NULL), with the link, the body and a point on each in world coordinates
 * (|pa - pb| = *dist up to rounding; 0, decided exactly, when a pair
 * meets, and then pa = pb, a common point up to rounding).  Measured with
 * GJK on the pieces' corners (a mesh triangle by triangle), like
 * hs_world_distance.  HS_ERR_ARG for c, w or dist NULL, or if the chain or
 * the world (its enabled bodies) has no piece; HS_ERR_INPUT when every
 * distance is beyond the range of doubles (nothing is written then);
 * HS_ERR_ARG when a piece placed by the link and body poses is not
 * finite; HS_ERR_NOMEM.  link, body,
 * pa, pb may be NULL.  Const-safe. */
HS_API hs_code hs_chain_world_distance(const hs_chain *c, const hs_world *w, double *dist,
                                       int *link, const hs_body **body, double pa[3],
                                       double pb[3], hs_error *err);

/* Joints with a type, for hs_chain_set_angles.  hs_chain_define_joint
 * declares joint i (1 <= i < N): J_i(q) = origin M(q), where M(q) is the
 * rotation by q radians about `axis` (revolute), the translation q axis
 * (prismatic) or the identity (fixed); origin is a rigid pose (NULL: the
 * identity), axis finite and nonzero (double[3], normalised here; ignored
 * for fixed joints, may then be NULL), lo <= hi the limits of q
 * (-HUGE_VAL / HUGE_VAL for none) and `rest` (within the limits) the
 * value J_i is set to now.  Movable joints are numbered in index order for
 * hs_chain_set_angles; joints never declared are fixed at their current
 * pose.  hs_chain_set_joint and hs_chain_change_joint still move any
 * joint freely (the q of a declared joint is then no longer updated).
 * HS_ERR_ARG for c NULL, a bad index, type, pose, axis, limits or rest
 * value. */
typedef enum hs_joint_type {
    HS_JOINT_FIXED = 0,
    HS_JOINT_REVOLUTE,
    HS_JOINT_PRISMATIC
} hs_joint_type;
HS_API hs_code hs_chain_define_joint(hs_chain *c, int i, hs_joint_type type,
                                     const double origin[16], const double axis[3], double lo,
                                     double hi, double rest, hs_error *err);
/* Names of link i (0..N-1) and joint i (1..N-1), copied; NULL or ""
 * clears.  HS_ERR_ARG for c NULL or a bad index; HS_ERR_NOMEM (the old
 * name is then kept). */
HS_API hs_code hs_chain_set_link_name(hs_chain *c, int i, const char *name, hs_error *err);
HS_API hs_code hs_chain_set_joint_name(hs_chain *c, int i, const char *name, hs_error *err);
/* Name of joint i (NULL when it has none, c is NULL or i is not in
 * 1..N-1; owned by the chain: valid until the joint is renamed or the
 * chain freed, never free it), its type (fixed for c NULL or a bad i), and
 * the index of the k-th movable joint (k < dof; -1 otherwise, and for c
 * NULL).  Const-safe. */
HS_API const char *hs_chain_joint_name(const hs_chain *c, int i);
HS_API hs_joint_type hs_chain_joint_type(const hs_chain *c, int i);
HS_API int hs_chain_movable_joint(const hs_chain *c, int k);
/* Limits and current value of the movable joint k (k < dof) into *lo,
 * *hi, *q (each may be NULL).  HS_ERR_ARG for c NULL or a bad k.
 * Const-safe. */
HS_API hs_code hs_chain_joint_limits(const hs_chain *c, int k, double *lo, double *hi,
                                     double *q, hs_error *err);

/* Chain files (see the README "Kinematic chains"): links, joints, pieces,
 * skip pairs.  hs_chain_load returns a new chain (free with
 * hs_chain_free) at the joints' rest values, with the names and types of
 * links and joints, or NULL: HS_ERR_ARG for path NULL, HS_ERR_IO when the
 * file cannot be read, HS_ERR_INPUT "FILE:LINE: what is wrong" (also
 * for a file, or a mesh file it names, larger than 256 MiB: "FILE: larger
 * than the limit"), HS_ERR_NOMEM; thread-safe; it takes time O(N log N)
 * for N links.  hs_chain_dof counts the movable joints (0
 * for c NULL).  hs_chain_set_angles sets every movable joint's value
 * (revolute: radians about its axis, prismatic: along it), nq values in
 * joint order (q has nq entries), all at once (merged update);
 * HS_ERR_ARG, and nothing changed, if c is NULL, q is NULL with nq > 0, nq
 * does not match, a value is not finite or is outside its joint's limits;
 * it modifies c.  hs_chain_link_name: the link's name, NULL when it has
 * none, c is NULL or i is out of range (owned by the chain: valid until
 * the link is renamed or the chain freed; never free it).  Const-safe
 * except hs_chain_set_angles. */
HS_API hs_chain *hs_chain_load(const char *path, hs_error *err);
HS_API int hs_chain_dof(const hs_chain *c);
HS_API hs_code hs_chain_set_angles(hs_chain *c, const double *q, int nq, hs_error *err);
HS_API const char *hs_chain_link_name(const hs_chain *c, int i);

#ifdef __cplusplus
}
#endif

#endif /* HALFSPACE_CHAIN_H */
