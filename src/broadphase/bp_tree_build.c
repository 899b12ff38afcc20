/* bp_tree_build.c -- the top-down rebuild of the broad phase's tree (see
 * "Rebuilding" in bp_tree.c): the leaves are split at the boundary of
 * least surface-area cost between BP_TREE_BINS bins along the widest
 * spread of their centres, or at the median when that would leave fewer
 * than a quarter on one side; nodes are taken in depth-first order. */
#include <stdlib.h>
#include <string.h>

#include "src/broadphase/bp_tree.h"

/* A leaf while the tree is built anew: its float box and its id. */
typedef struct bleaf {
    fbox box;
    int id;
} bleaf;

/* Twice the centre of a leaf along axis. */
static float centre(const bleaf *l, int axis)
{
    return l->box.lo[axis] + l->box.hi[axis];
}

static int bin_of(const bleaf *l, int axis, float lo, double scale)
{
    int b = (int)(((double)centre(l, axis) - lo) * scale);
    return b < 0 ? 0 : b >= BP_TREE_BINS ? BP_TREE_BINS - 1 : b;
}

/* Reorders l[0..n) so that l[m] has the m-th smallest centre along axis. */
static void select_nth(bleaf *l, int n, int m, int axis)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        float pivot = centre(&l[(lo + hi) / 2], axis);
        int i = lo, j = hi;
        while (i <= j) {
            while (centre(&l[i], axis) < pivot)
                i++;
            while (centre(&l[j], axis) > pivot)
                j--;
            if (i <= j) {
                bleaf swap = l[i];
                l[i++] = l[j];
                l[j--] = swap;
            }
        }
        if (m <= j)
            hi = j;
        else if (m >= i)
            lo = i;
        else
            return;
    }
}

/* The bin boundary of least surface-area cost along axis (bins of the
 * centres from lo, BP_TREE_BINS / scale wide), among those leaving at
 * least least leaves on each side; -1 when there is none.  *left: how many
 * leaves go before it. */
static int best_cut(const bleaf *l, int n, int axis, float lo, double scale, int least, int *left)
{
    static const fbox empty = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    fbox bin[BP_TREE_BINS];
    int count[BP_TREE_BINS] = {0};
    for (int b = 0; b < BP_TREE_BINS; b++)
        bin[b] = empty;
    for (int i = 0; i < n; i++) {
        int b = bin_of(&l[i], axis, lo, scale);
        count[b]++;
        f_union(&bin[b], &l[i].box, &bin[b]);
    }
    double left_cost[BP_TREE_BINS];
    fbox acc = empty;
    int seen = 0;
    for (int b = 0; b < BP_TREE_BINS - 1; b++) {
        f_union(&acc, &bin[b], &acc);
        seen += count[b];
        left_cost[b + 1] = seen ? f_area(&acc) * seen : 0;
    }
    int best = -1, right = 0;
    double best_cost = INFINITY;
    acc = empty;
    for (int b = BP_TREE_BINS - 1; b > 0; b--) {
        f_union(&acc, &bin[b], &acc);
        right += count[b];
        double cost = left_cost[b] + (right ? f_area(&acc) * right : 0);
        if (right >= least && n - right >= least && cost < best_cost) {
            best_cost = cost;
            best = b;
            *left = n - right;
        }
    }
    return best;
}

/* The bounds of the centres of l[0..n) (kept in scalars: the loop is hot). */
static void centre_bounds(const bleaf *l, int n, float lo[3], float hi[3])
{
    float x0 = centre(l, 0), x1 = x0, y0 = centre(l, 1), y1 = y0, z0 = centre(l, 2), z1 = z0;
    for (int i = 1; i < n; i++) {
        float x = centre(&l[i], 0), y = centre(&l[i], 1), z = centre(&l[i], 2);
        x0 = x < x0 ? x : x0;
        x1 = x > x1 ? x : x1;
        y0 = y < y0 ? y : y0;
        y1 = y > y1 ? y : y1;
        z0 = z < z0 ? z : z0;
        z1 = z > z1 ? z : z1;
    }
    lo[0] = x0;
    lo[1] = y0;
    lo[2] = z0;
    hi[0] = x1;
    hi[1] = y1;
    hi[2] = z1;
}

/* Splits l[0..n) (n >= 2) in two; returns the size of the first part. */
static int split(bleaf *l, int n)
{
    float lo[3], hi[3];
    centre_bounds(l, n, lo, hi);
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (hi[k] - lo[k] > hi[axis] - lo[axis])
            axis = k;
    if (!(hi[axis] > lo[axis]))
        return n / 2; /* all centres equal: any halves do */
    double scale = BP_TREE_BINS / ((double)hi[axis] - lo[axis]);
    int left = 0, cut = best_cut(l, n, axis, lo[axis], scale, n / 4 > 1 ? n / 4 : 1, &left);
    if (cut < 0) {
        select_nth(l, n, n / 2, axis);
        return n / 2;
    }
    int i = 0, j = n - 1;
    while (i <= j) {
        if (bin_of(&l[i], axis, lo[axis], scale) < cut) {
            i++;
        } else {
            bleaf swap = l[i];
            l[i] = l[j];
            l[j--] = swap;
        }
    }
    return left;
}

/* Builds the subtree of l[0..n) under node parent; returns its reference,
 * its box and its height. */
static int build(bp_tree *t, bleaf *l, int n, int parent, fbox *box, int *height)
{
    if (n == 1) {
        t->item[l->id].parent = parent;
        t->item[l->id].displaced = 0;
        *box = l->box;
        *height = 0;
        return leaf_ref(l->id);
    }
    int p = bp_tree_take_node(t), m = split(l, n);
    t->node[p].parent = parent;
    for (int k = 0; k < 2; k++) {
        int h;
        t->node[p].child[k] = build(t, k ? l + m : l, k ? n - m : m, p, &t->node[p].box[k], &h);
        t->node[p].height[k] = (short)h;
    }
    f_union(&t->node[p].box[0], &t->node[p].box[1], box);
    *height = own_height(&t->node[p]);
    return p;
}

/* Lists the leaves under reference ref (of box box) from l[count]. */
static int gather(const bp_tree *t, int ref, const fbox *box, bleaf *l, int count)
{
    if (!is_leaf(ref)) {
        const tnode *n = &t->node[ref];
        count = gather(t, n->child[0], &n->box[0], l, count);
        return gather(t, n->child[1], &n->box[1], l, count);
    }
    l[count].box = *box;
    l[count].id = leaf_id(ref);
    return count + 1;
}

/* Builds the whole tree anew from the items' boxes, taking the nodes in
 * the order of a depth-first walk (for locality).  Skipped when out of
 * memory. */
void bp_tree_rebuild(bp_tree *t)
{
    bleaf *l = t->leaves > 1 ? malloc(sizeof(bleaf) * (size_t)t->leaves) : NULL;
    if (!l)
        return;
    int n = gather(t, t->root, &t->root_box, l, 0), height;
    t->free_node = -1;
    for (int i = t->cap_node - 1; i >= 0; i--)
        bp_tree_give_back_node(t, i);
    t->root = build(t, l, n, -1, &t->root_box, &height);
    t->displaced = 0;
    t->changes = 0;
    free(l);
}
