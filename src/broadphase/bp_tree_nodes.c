/* bp_tree_nodes.c -- the pool of inner nodes of the broad phase's tree:
 * 64-byte aligned blocks, grown by doubling, free nodes linked through
 * their parent field. */
#include <stdlib.h>
#include <string.h>

#include "src/broadphase/bp_tree.h"

/* Room for one more inner node, so that taking one cannot fail.  The node
 * array is aligned on cache lines. */
int bp_tree_reserve_node(bp_tree *t)
{
    if (t->free_node >= 0)
        return 0;
    int old = t->cap_node, cap = old < 64 ? 64 : 2 * old;
    if (old > 0x3fffffff)
        return -1;
    tnode *grown = aligned_alloc(64, sizeof(tnode) * (size_t)cap);
    if (!grown)
        return -1;
    if (old)
        memcpy(grown, t->node, sizeof(tnode) * (size_t)old);
    free(t->node);
    t->node = grown;
    t->cap_node = cap;
    for (int i = cap - 1; i >= old; i--) {
        t->node[i].height[0] = -1;
        t->node[i].parent = t->free_node;
        t->free_node = i;
    }
    return 0;
}

int bp_tree_take_node(bp_tree *t)
{
    int n = t->free_node;
    t->free_node = t->node[n].parent;
    return n;
}

void bp_tree_give_back_node(bp_tree *t, int n)
{
    t->node[n].height[0] = -1;
    t->node[n].parent = t->free_node;
    t->free_node = n;
}
