/* chain.h -- the structures behind hs_chain (seed 003: ChainTree), shared
 * by the files of src/chain/, and the functions of the hierarchy, the
 * record of moved joints, the skip list, the pieces and the
 * self-collision search (the exact tests of pieces: chain_piece_tests.h).
 *
 * Layout.  Links 0..n-1 are the leaves (level 0) of a balanced binary
 * tree: node j of level l covers links j 2^l .. min((j+1) 2^l, n) - 1 and
 * has the children 2j and 2j+1 of level l-1 (the last node of a level may
 * have one child).  Every node keeps
 *   sc   the shortcut J(f, f + 2^l), f = j 2^l its first link: the pose of
 *        link f + 2^l in link f's frame (for the last node of a level, up
 *        to the last link: a product of the joints that exist), so that
 *        sc(l, j) = sc(l-1, 2j) sc(l-1, 2j+1) (seed 003, section 2.1);
 *   box  its box in link f's frame, bounding its children's boxes (a loose
 *        chain-aligned hierarchy, seed 003 section 2.2), so that changing
 *        a joint changes only the boxes of the nodes that contain it;
 *   up   the box's frame in its parent's box frame, the only transforms
 *        the self-collision recursion multiplies (with their inverses).
 * sc and box live in chain_fit (what the update reads), up and the box's
 * sizes in chain_node (what the search reads).
 * Joint i (1 <= i < n) is sc(0, i-1). */
#ifndef HS_CHAIN_H
#define HS_CHAIN_H

#include <math.h>

#include "halfspace.h"
#include "src/world/world.h"

/* A rigid map x -> r x + t (r row-major). */
typedef struct chain_xf {
    double r[9];
    double t[3];
} chain_xf;

typedef struct chain_sphere {
    double c[3];
    double r;
} chain_sphere;

/* Pieces of one link, in its frame. */
typedef struct chain_link {
    chain_sphere *sph;
    int nsph, capsph;
    geom **cvx;          /* convex pieces (world geometry, refcounted) */
    int ncvx, capcvx;
    char *name;
} chain_link;

/* What a joint is, for hs_chain_set_angles (default: fixed). */
typedef struct chain_joint {
    hs_joint_type type;
    double origin[16];   /* pose of the joint frame in the parent link */
    double axis[3];      /* unit axis in the joint frame */
    double lo, hi;       /* limits of q */
    double q;            /* current value */
    char *name;
} chain_joint;

/* Data of a node read by the recursion: the fields every test reads
 * first fill one cache line, and two siblings take five lines exactly.
 * (The tree outgrows the caches at a few thousand links; every byte of
 * a node costs time: 128 more bytes made bench/chain 7-12% slower.)
 * The inverse of up is not stored: its transpose serves when
 * chain_up_transposable, otherwise the search inverts on the spot. */
typedef struct chain_node {
    double half[3];
    double rho;          /* radius of a ball around the box centre holding
                            every piece below: |half| rounded up, or for a
                            leaf of one sphere its radius; negative: the
                            node has no piece below */
    double eps;          /* bound on ||R^T R - I||_2 for up and its inverse */
    double ext[3];       /* half extents of the box along the parent's box
                            axes: sum_k half_k |up.r_ik| */
    chain_xf up;         /* box frame in the parent's box frame */
} chain_node;

static inline int chain_node_empty(const chain_node *nd) { return nd->rho < 0; }

/* Data of a node read by the update (one array: a refit reads all three
 * of a node together). */
typedef struct chain_fit {
    chain_xf sc;         /* the shortcut */
    hs_obb box;          /* box in the node's first link's frame */
    double mag;          /* bound on the magnitudes below the node */
} chain_fit;

/* Does (r^T, -r^T t) serve as the inverse of the node's up?  So when
 * eps = chain_defect_mul(e, e) is below this bound, e the defect of
 * up.r (then e < 2^-39): the transpose moves a point at distance rho by
 * at most about e (rho + |t|), far inside chain_box_slack. */
#define CHAIN_TRANSPOSE_EPS 0x1p-38
static inline int chain_up_transposable(const chain_node *nd)
{
    return nd->eps < CHAIN_TRANSPOSE_EPS;
}

struct hs_chain {
    int n;               /* links */
    int levels;          /* top level: lev_n[levels] == 1 */
    int *lev_off, *lev_n;
    chain_fit *fit;      /* per node: what the update reads and writes */
    chain_node *nd;
    chain_link *link;
    chain_joint *joint;  /* joint[i] for 1 <= i < n */
    int dof;             /* movable joints */
    int *mov_tree;       /* Fenwick tree over joints 1..n-1, 1 per movable
                            joint: the k-th movable joint in O(log n)
                            (chain_joint.c) */
    double base[16];
    /* joints changed since the last self-collision query that answered 0
     * (sorted); all_dirty when too many or when the question changed */
    int *changed;
    chain_xf *was;       /* their values at that answer */
    int nchanged;
    int all_dirty;
    unsigned char *is_changed;
    /* skip list: adjacent pairs, and sorted keys i * n + j (i < j) */
    int skip_adjacent;
    long long *skip;
    int nskip, capskip;
    int npieces;
    /* undo journal: the nodes the last single-joint change rewrote, as
     * they were before it (jr_joint 0: none), levels 0..jr_top */
    struct chain_journal *jr;
    int jr_joint, jr_top;
    chain_xf jr_old;
    /* a refit in progress (hs_chain_try_change): the shortcuts and boxes of
     * the path of leaf lazy_leaf are current up to level lazy_level - 1;
     * -1: none */
    int lazy_leaf, lazy_level, lazy_redo;
    /* scratch of the update: node lists of two levels and flags */
    int *wa, *wb;
    unsigned char *wflag_a, *wflag_b;
};

/* The range of a chain's numbers: every shortcut translation and every
 * box centre plus size (the top node's mag), and the base's translation,
 * stay at most CHAIN_MAG_MAX (about 1e301).  Every relative pose is a
 * product of at most 2 (levels + 1) shortcuts and boxes bounded by
 * (2 levels + 4) mag (see chain_box_slack), levels <= 26, so every posed
 * piece and every link's world pose stays below 2^1008: finite, as the
 * exact tests of pieces need.  A call that would leave the range fails
 * with HS_ERR_ARG and changes nothing. */
#define CHAIN_MAG_MAX 0x1p1000
/* 1 when the chain is within that range (the tree refitted to the top). */
int chain_in_range(const hs_chain *c);

/* Largest number of changed joints tracked one by one. */
#define CHAIN_TRACK_MAX 64

/* Tolerance on the rotation part of a joint: every entry of R^T R - I
 * must be at most this (documented in halfspace.h). */
#define CHAIN_RIGID_TOL 1e-9

static inline int chain_node_index(const hs_chain *c, int level, int j)
{
    return c->lev_off[level] + j;
}

/* Number of children of node (level, j), level >= 1: 1 or 2. */
static inline int chain_children(const hs_chain *c, int level, int j)
{
    return 2 * j + 1 < c->lev_n[level - 1] ? 2 : 1;
}

static inline int chain_first(int level, int j) { return j << level; }
static inline int chain_last(const hs_chain *c, int level, int j)
{
    int e = ((j + 1) << level) - 1;
    return e < c->n - 1 ? e : c->n - 1;
}

/* out = a b (apply b first); out may alias neither. */
static inline void chain_xf_mul(chain_xf *out, const chain_xf *a, const chain_xf *b)
{
    for (int i = 0; i < 3; i++) {
        const double *ra = a->r + 3 * i;
        for (int j = 0; j < 3; j++)
            out->r[3 * i + j] = ra[0] * b->r[j] + ra[1] * b->r[3 + j] + ra[2] * b->r[6 + j];
        out->t[i] = ra[0] * b->t[0] + ra[1] * b->t[1] + ra[2] * b->t[2] + a->t[i];
    }
}

/* |v_0| + |v_1| + |v_2|. */
static inline double chain_norm1(const double v[3]) { return fabs(v[0]) + fabs(v[1]) + fabs(v[2]); }

static inline void chain_xf_apply(const chain_xf *a, const double p[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a->r[3 * i] * p[0] + a->r[3 * i + 1] * p[1] + a->r[3 * i + 2] * p[2] + a->t[i];
}

void chain_xf_identity(chain_xf *a);
void chain_xf_from_pose(chain_xf *a, const double m[16]);
void chain_xf_to_pose(const chain_xf *a, double m[16]);
/* General inverse (adjugate of r); a need not be exactly orthonormal. */
void chain_xf_inverse(chain_xf *out, const chain_xf *a);
/* The transpose inverse (r^T, -r^T t); out may not alias a. */
void chain_xf_rigid_inverse(chain_xf *out, const chain_xf *a);
/* Is m a rigid pose within CHAIN_RIGID_TOL (finite, last row 0 0 0 1,
 * det > 0)? */
int chain_pose_is_rigid(const double m[16]);

/* chain_tree.c: the hierarchy. */
/* Allocate the levels and nodes for n links (identity shortcuts, empty
 * boxes).  0 or -1 (out of memory). */
int chain_tree_alloc(hs_chain *c);
void chain_tree_free(hs_chain *c);
/* Recompute, level by level, the shortcuts of every ancestor of the
 * leaves in `leaves` (count entries, any order, duplicates allowed) and
 * the boxes of those whose box can have changed: the listed leaves have
 * new boxes when boxes_changed is nonzero (else new shortcuts, i.e. the
 * joint after each moved); a joint inside a node changes its box. */
void chain_tree_update(hs_chain *c, const int *leaves, int count, int boxes_changed);
/* The same for one leaf, level by level: the shortcuts and boxes of the
 * leaf's ancestors up to and including a level (chain_tree_refit_to), so
 * that a search that stops low never pays for the levels above (stale
 * until then); every single-joint change goes this way (refitted to the
 * top unless a search drives it). */
void chain_tree_update_lazy(hs_chain *c, int leaf);
void chain_tree_refit_to(hs_chain *c, int level);
/* Journal of a change of joint i (saves the nodes the update will
 * rewrite, level by level as chain_tree_refit_to reaches them), and its
 * use: if joint i is being set back to exactly the value before that
 * change, restore the nodes and return 1. */
void chain_journal_save(hs_chain *c, int i);
int chain_journal_undo(hs_chain *c, int i, const chain_xf *x);
/* Box of leaf i from its pieces (empty when it has none). */
void chain_leaf_box(hs_chain *c, int i);
/* Pose of link b in link a's frame, a <= b, from the shortcuts. */
void chain_relative(const hs_chain *c, int a, int b, chain_xf *out);
/* Slack added to box half sizes in the recursion (covers the rounding of
 * the propagated transforms; see chain_tree.c). */
double chain_box_slack(const hs_chain *c);
/* The same for pairs of boxes below node (l, j) only. */
double chain_box_slack_below(const hs_chain *c, int l, int j);

/* A bound on ||r^T r - I||_2. */
double chain_rotation_defect(const double r[9]);
/* Defect of a product of maps of defects e1 and e2 (with its rounding). */
static inline double chain_defect_mul(double e1, double e2)
{
    return (e1 + e2) * (1 + 0x1p-20) + 0x1p-48;
}

/* chain_moved.c: the record of the joints changed since the last free
 * answer.  chain_note_changed: `joint` is about to become x (set back to
 * its value at that answer, it leaves the record). */
void chain_note_changed(hs_chain *c, int joint, const chain_xf *x);
void chain_clear_changed(hs_chain *c);
/* Does a changed joint k satisfy lo < k <= hi (the links lo..hi are not
 * rigid since the last free answer)? */
int chain_span_changed_search(const hs_chain *c, int lo, int hi);
static inline int chain_span_changed(const hs_chain *c, int lo, int hi)
{
    if (c->all_dirty)
        return 1;
    if (c->nchanged == 1)
        return lo < c->changed[0] && c->changed[0] <= hi;
    return chain_span_changed_search(c, lo, hi);
}

/* chain_skip.c: is the pair of links i, j (any order) on the skip list? */
int chain_pair_skipped(const hs_chain *c, int i, int j);

/* chain_pieces.c: after a piece was added to link i. */
void chain_piece_added(hs_chain *c, int i);

/* chain_self.c: hs_chain_self_collision; lazy: the boxes of a
 * chain_tree_update_lazy are refitted as the search climbs (a search that
 * ends with a collision leaves the levels above unrefitted). */
int chain_self_search(hs_chain *c, int lazy, int *i, int *j, hs_chain_stats *st, hs_error *err);

#endif
