/* bp_tree.h -- the insides of the broad phase's bounding-box tree, shared
 * by bp_tree.c (the tree: insertion, rotations, updates, reading) and
 * bp_tree_build.c (the top-down rebuild).  See bp_tree.c for the design. */
#ifndef HS_BP_TREE_H
#define HS_BP_TREE_H

#include <math.h>
#include <string.h>

#include "src/broadphase/bp_impl.h"

#define BP_TREE_MARGIN 0.1  /* fat boxes: this times the largest extent, on every side */
#define BP_TREE_SLOP 0.02    /* least slop of a moving leaf's parent box, times its size */
#define BP_TREE_SLOP_MAX 0.1 /* largest slop, times its size */
#define BP_TREE_SLACK 2      /* largest height difference of two siblings */
#define BP_TREE_BINS 16      /* bins of the top-down build */
#define BP_TREE_SMALL 64     /* below this many leaves: reinsert, never rebuild */

/* ---------------------------------------------------------------- single precision boxes */

typedef struct fbox {
    float lo[3], hi[3];
} fbox;

/* A float not above x, and one not below x: x moved outwards by a little
 * more than the rounding error of a float (2^-24 relative), then rounded
 * to the nearest float; one or two float steps wider than the tightest
 * choice, and no branch on the rounding direction. */
static inline float round_down(double x)
{
    if (!(x > -1e38))
        return -INFINITY;
    return x > 1e38 ? 1e38f : (float)(x - fabs(x) * 0x1p-23 - 0x1p-140);
}

static inline float round_up(double x)
{
    if (!(x < 1e38))
        return INFINITY;
    return x < -1e38 ? -1e38f : (float)(x + fabs(x) * 0x1p-23 + 0x1p-140);
}

/* The float box holding b, enlarged by grow on every side. */
static inline void to_fbox(const bp_box *b, double grow, fbox *f)
{
    for (int k = 0; k < 3; k++) {
        f->lo[k] = round_down(b->lo[k] - grow);
        f->hi[k] = round_up(b->hi[k] + grow);
    }
}

static inline int f_overlap(const fbox *a, const fbox *b)
{
    return (a->lo[0] <= b->hi[0]) & (b->lo[0] <= a->hi[0]) & (a->lo[1] <= b->hi[1]) &
           (b->lo[1] <= a->hi[1]) & (a->lo[2] <= b->hi[2]) & (b->lo[2] <= a->hi[2]);
}

static inline void f_union(const fbox *a, const fbox *b, fbox *u)
{
    for (int k = 0; k < 3; k++) {
        u->lo[k] = a->lo[k] < b->lo[k] ? a->lo[k] : b->lo[k];
        u->hi[k] = a->hi[k] > b->hi[k] ? a->hi[k] : b->hi[k];
    }
}

/* Half the surface area: what insertion, rotations and rebuilding minimise. */
static inline double f_area(const fbox *b)
{
    double x = (double)b->hi[0] - b->lo[0], y = (double)b->hi[1] - b->lo[1],
           z = (double)b->hi[2] - b->lo[2];
    return x * y + y * z + z * x;
}

static inline double f_union_area(const fbox *a, const fbox *b)
{
    fbox u;
    f_union(a, b, &u);
    return f_area(&u);
}

static inline int f_equal(const fbox *a, const fbox *b)
{
    return memcmp(a, b, sizeof(fbox)) == 0;
}

/* ---------------------------------------------------------------- the tree */

/* A child reference: an inner node (>= 0) or a leaf (-1 - id). */
static inline int is_leaf(int ref)
{
    return ref < 0;
}

static inline int leaf_id(int ref)
{
    return -1 - ref;
}

static inline int leaf_ref(int id)
{
    return -1 - id;
}

/* An inner node, 64 bytes; free nodes have height[0] == -1 and link the
 * free list through parent. */
typedef struct tnode {
    fbox box[2];
    int child[2];
    short height[2]; /* of the children: 0 for a leaf */
    int parent;      /* -1 at the root */
} tnode;

_Static_assert(sizeof(tnode) == 64, "a node should fill one cache line");

enum { ITEM_ABSENT = 0, ITEM_IN_TREE, ITEM_FAR };

typedef struct titem {
    bp_box fat;
    int parent; /* in the tree: the node holding it, -1 when it is the root */
    int state;
    int far_at;    /* index in the far list */
    int displaced; /* left its fat box once and was only refitted */
} titem;

struct bp_tree {
    tnode *node; /* 64-byte aligned */
    int cap_node, free_node;
    titem *item; /* by id */
    bp_box *box; /* by id: the items' own boxes */
    int cap_item, cap_box;
    int root; /* reference, when leaves > 0 */
    fbox root_box;
    int leaves;
    int displaced; /* items displaced since the last rebuild */
    int changes;   /* since the last rebuild: see count_change */
    int *far; /* ids of the far items */
    int nfar, cap_far;
};

static inline int tree_max_int(int a, int b)
{
    return a > b ? a : b;
}

static inline int own_height(const tnode *n)
{
    return 1 + tree_max_int(n->height[0], n->height[1]);
}

/* The node pool (bp_tree_nodes.c): room for one more inner node, so that
 * taking one cannot fail (0, or -1 without memory); a free node; a node
 * back to the free list. */
int bp_tree_reserve_node(bp_tree *t);
int bp_tree_take_node(bp_tree *t);
void bp_tree_give_back_node(bp_tree *t, int n);

/* The whole tree built anew, top down (bp_tree_build.c). */
void bp_tree_rebuild(bp_tree *t);

#endif
