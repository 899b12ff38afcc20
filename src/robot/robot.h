/* robot.h -- the structures behind hs_robot, shared by the files of
 * src/robot/, and the functions they offer each other.
 *
 * Files, from the top down (each calls only files below it):
 *   robot_states.c     hs_robot_check_states: many configurations on
 *                      worker threads, the robot only read
 *   robot_motion.c     hs_robot_check_motion: stepped and guaranteed modes
 *   robot_bound.c      motion bounds and certified distance lower bounds
 *   robot_export.c     hs_robot_export_vrml
 *   robot_load.c       hs_robot_load: the file, then robot_build
 *   robot_build.c      a checked model (robot_tree.c) made a robot:
 *                      links, joints, coordinates, pieces, adjacency
 *   robot_shapes.c     collision shapes made points or meshes
 *   robot_meshes.c     mesh files (own readers, or robot_assimp.c), and
 *                      where they are (robot_paths.c)
 *   robot_self.c       self-collision, the automatic skip list
 *   robot_world.c      the links against a world: collision, distance
 *   robot_pairs.c      the tests of two links, or a link and a body
 *   robot_certify.c    proofs of apart / overlap before the narrow phase
 *   robot_skip.c       the skip list
 *   robot_config.c     the configuration, joint transforms, link poses
 *   robot.c            accessors, release
 *   urdf_read.c        the XML (libxml2) into a urdf_model (urdf.h)
 *
 * Layout of a robot.  Links are in depth-first order from the root (link
 * 0), children in the file order of their joints, so the subtree of link
 * i is the range i..link[i].last; joint j moves link j + 1 (its child),
 * and a joint lies between links a and b exactly when one of them is in
 * its child's subtree and the other is not.  Every pair of links is
 * tested with both placed by their world poses: bounding spheres, then
 * oriented boxes, then per pair of pieces the certified shortcuts and,
 * when they prove nothing, the narrow phase of worlds. */
#ifndef HS_ROBOT_H
#define HS_ROBOT_H

#include "halfspace.h"
#include "src/narrow/narrow.h"
#include "src/robot/robot_certify.h"
#include "src/shape/geom.h"

typedef struct robot_joint {
    char *name;
    hs_robot_joint_kind type;
    int parent, child;    /* links (child = index + 1) */
    double origin[16];    /* the joint frame in the parent's */
    double axis[3];       /* unit axis (movable joints) */
    double lo, hi;        /* limits (continuous: -HUGE_VAL, HUGE_VAL) */
    int coord;            /* coordinate, or -1 */
    int mimic;            /* leader joint, or -1 */
    double mult, offset;  /* mimic: q = mult q_leader + offset */
    double q;             /* value (movable and mimic joints) */
    double free[16];      /* floating, planar: the pose set (identity) */
} robot_joint;

typedef struct robot_link {
    char *name;
    geom **piece;         /* in the link frame; one reference each */
    int npiece, cap;
    int nmesh;            /* pieces that are triangle meshes */
    int last;             /* last link of the subtree */
    int depth;            /* joints from the root */
    hs_obb box;           /* around every piece, link frame (npiece > 0) */
    double ball_c[3];     /* a ball around every piece: centre (link frame) */
    double ball_r;        /* and radius, rounded up */
    double reach;         /* largest distance from the link's origin to a
                             point of its pieces, rounded up */
} robot_link;

/* A box moved by a pose, kept while the pose stays the same. */
typedef struct robot_box_memo {
    const void *what;     /* the link's box or the piece, NULL: empty */
    double P[16];
    hs_obb box;
} robot_box_memo;

/* Scratch of the tests of pieces: the narrow phase's and the certified
 * shortcuts', the world boxes of links and of bodies' pieces, and
 * counters. */
typedef struct robot_ws {
    narrow_ws nw;
    robot_cert cert;
    robot_box_memo *link_box;  /* per link (nlink entries) */
    int nlink;
    robot_box_memo *body_box;  /* per body id, its first piece */
    int nbody;
    hs_obb spare_box;     /* a link's box when the memo is out of memory */
    long certified;       /* pairs of pieces decided by a proof */
    long exact;           /* pairs decided by the narrow phase */
} robot_ws;
/* 0, or -1 when out of memory (then free it anyway). */
int robot_ws_init(robot_ws *ws);
void robot_ws_free(robot_ws *ws);

/* Skip list entries: pairs (a < b) of links with pieces, by key. */
typedef struct robot_skip {
    long long key;        /* a * nlinks + b */
    unsigned char why;    /* hs_robot_skip_reason */
} robot_skip;

struct hs_robot {
    char *name;
    robot_link *link;
    int nlinks;
    robot_joint *joint;   /* nlinks - 1 */
    int njoints;
    int dof;
    int *coord_joint;     /* dof */
    double *rest;         /* dof */
    double base[16];
    double *W;            /* world pose of every link, 16 each */
    int W_ready;          /* W is current */
    robot_skip *skip;
    int nskip, skip_cap;
    /* the incremental self-collision query: joint values (and poses of
     * floating and planar joints) at its last free answer */
    int have_free;
    double *q_free;       /* njoints */
    unsigned char *pose_moved; /* njoints: a floating / planar pose set since */
    robot_ws ws;          /* scratch of the non-const queries */
    int ws_ready;
    double *scratch;      /* 8 doubles per link (world balls and boxes) */
    char **warn;
    int nwarn;
    double size;          /* a bound on the robot's extent from its base */
};

/* robot_config.c */
/* Set every coordinate (already checked; q NULL: keep the values) and
 * the mimic joints; the world poses of the links that moved follow. */
void robot_apply_q(hs_robot *r, const double *q);
/* The world pose of every link into W (16 each) for the configuration
 * q (already checked), without changing r. */
void robot_poses_at(const hs_robot *r, const double *q, double *W);
/* Recompute every world pose (after a change of base or of a joint's
 * pose). */
void robot_refresh(hs_robot *r);
/* Check q (dof values): finite, within the limits.  fn names the
 * caller in messages. */
hs_code robot_check_q(const hs_robot *r, const double *q, int n, const char *fn,
                      hs_error *err);
/* Is link x in the subtree of link c (the links joint c - 1 moves)? */
static inline int robot_below(const hs_robot *r, int c, int x)
{
    return x >= c && x <= r->link[c].last;
}

/* robot_skip.c */
hs_robot_skip_reason robot_skip_reason(const hs_robot *r, int a, int b);
/* Add (or, why = HS_ROBOT_TESTED, remove) a pair of links with pieces.
 * 0 or -1 (out of memory). */
int robot_skip_set(hs_robot *r, int a, int b, hs_robot_skip_reason why);
/* Is the pair (a != b, any order) to be tested at all? */
static inline int robot_pair_tested(const hs_robot *r, int a, int b)
{
    return r->link[a].npiece > 0 && r->link[b].npiece > 0 &&
           robot_skip_reason(r, a, b) == HS_ROBOT_TESTED;
}

/* robot_pairs.c */
/* The robot's own scratch, made ready when first needed (its shortcuts
 * forgotten, see robot_cert_reset): NULL when out of memory. */
robot_ws *robot_scratch(hs_robot *r);
/* Pieces of link a (pose A) against those of link b (pose B), or of body
 * bd (its pose): boxes first, then the tests of pieces.  *st receives the
 * strongest status (HS_DISJOINT when none meet); with first nonzero it
 * stops at the first pair that meets.  HS_OK, or an error of the narrow
 * phase. */
hs_code robot_links_test(robot_ws *ws, const hs_robot *r, int a, const double A[16], int b,
                         const double B[16], int first, hs_status *st, hs_error *err);
hs_code robot_link_body_test(robot_ws *ws, const hs_robot *r, int a, const double A[16],
                             const hs_body *bd, int first, hs_status *st, hs_error *err);
/* World box of link a at pose A (rounded outward). */
void robot_link_aabb(const hs_robot *r, int a, const double A[16], double lo[3], double hi[3]);
/* The oriented box of link a moved by A (kept in ws for the next call
 * with the same pose). */
const hs_obb *robot_link_box(robot_ws *ws, const hs_robot *r, int a, const double A[16]);
/* The oriented box of piece k of body bd in the world (the first piece's
 * kept in ws by body id; others computed into *tmp). */
const hs_obb *robot_body_box(robot_ws *ws, const hs_body *bd, int k, hs_obb *tmp);
/* The pair list type of the *_all queries. */
typedef struct robot_pairs {
    hs_robot_pair *p;
    int n, cap;
} robot_pairs;
int robot_pairs_add(robot_pairs *l, int a, int b, int body, hs_status st);
void robot_pairs_sort(robot_pairs *l);

/* robot_self.c */
/* The first tested pair in collision with the links at the world poses W
 * (no record kept; ball: 4 doubles per link of scratch): 1 (*a < *b, its
 * status), 0, or -1 (err set). */
int robot_self_first(const hs_robot *r, const double *W, robot_ws *ws, double *ball, int *a,
                     int *b, hs_status *st, hs_error *err);
/* Every tested pair in collision with the links at the world poses W. */
hs_code robot_self_all(const hs_robot *r, const double *W, robot_ws *ws, robot_pairs *out,
                       hs_error *err);

/* robot_world.c */
/* The first (link, body index) pair in collision with the links at W: 1,
 * 0, or -1 (err set). */
int robot_world_first(const hs_robot *r, const hs_world *w, const double *W, robot_ws *ws,
                      int *link, int *body, hs_status *st, hs_error *err);
/* The bodies that take part whose world boxes meet [lo, hi], in order of
 * creation, into *list (grown as needed, *cap its room; the caller frees
 * it): their number, or -1 when out of memory. */
int robot_bodies_near(const hs_world *w, const double lo[3], const double hi[3],
                      const hs_body ***list, int *cap);
/* Index of body b in w's order of creation (-1 if not there). */
int robot_body_index(const hs_world *w, const hs_body *b);
/* Does body b take part (enabled world and body, with pieces)? */
int robot_body_counts(const hs_world *w, const hs_body *b);

/* robot.c */
/* Add a warning (a copy of text); 0 or -1. */
int robot_add_warning(hs_robot *r, const char *text);

#endif
