/* bp_tree.c -- dynamic bounding-box tree for the broad phase.
 *
 * Layout.  Items are the leaves.  An inner node holds the boxes of its two
 * children (its own box is in its parent), so testing both children, or
 * refitting a node from its children, touches one node only.  A leaf is
 * not a node: its box sits in its parent's slot and the child reference is
 * negative (-1 - id); the root's box is kept beside the tree.  Boxes in the
 * tree are single precision, rounded outwards, so that a node fills one
 * 64-byte cache line; the items' own boxes are kept exactly, and a pair or
 * a query hit is reported only after the exact boxes overlap.
 *
 * Fat boxes.  Each item also keeps a "fat" box: its box when it was last
 * placed, grown on every side by BP_TREE_MARGIN times its largest extent.
 * While the item stays in its fat box (and the fat box is not much too big
 * for it), an update keeps the shape of the tree and refits the boxes
 * above the leaf, up to the first that does not change.  The leaf's parent
 * box gets some slop (twice the leaf's last step, between BP_TREE_SLOP and
 * BP_TREE_SLOP_MAX times its size), so that most small motions stop right
 * there.  The boxes in the tree are thus close to the unions of the items'
 * own boxes, not of fat boxes: the pair search prunes on small boxes (on
 * 10k moving boxes, about half the box tests of fat boxes in the tree).
 *
 * Leaving the fat box.  An item leaving its fat box gets a new one.  While
 * few items are displaced, an item leaving it a second time is taken out
 * and put back where it now belongs.  Otherwise (and the first time) it
 * stays where it is, its ancestors refitted, and is counted as displaced.
 *
 * Rebuilding.  Moves of displaced items count 1 and insertions 2; when the
 * count since the last rebuild reaches the number of leaves, the whole
 * tree is built anew, top down.  When many items travel, this costs much
 * less than reinserting them one by one; a world inserted body by body
 * gets a tree mostly built top down (on 10k boxes, 16% fewer box tests
 * than by insertions alone), for about twice the cost of one last build,
 * spread over the insertions.  The leaves are split at the boundary of least surface-area
 * cost between BP_TREE_BINS bins along the widest spread of their centres,
 * or at the median when that would leave fewer than a quarter on one side,
 * so the height stays logarithmic.  Nodes are taken in depth-first order,
 * which helps the caches.
 *
 * Insertion.  A new leaf goes down from the root towards the place where
 * the surface area of the inner boxes grows least (keeping the best place
 * met so far, and going on while a cheaper one may lie below), and becomes
 * the sibling of what it finds there.  On the way back up each inner node
 * may be rotated, exchanging a child with a grandchild: necessarily when
 * the heights of its children differ by more than BP_TREE_SLACK (AVL trees
 * use a slack of 1; 2 lets the surface area matter more), and otherwise
 * when that shrinks the inner boxes without unbalancing.
 *
 * Reading.  Pairs come from one descent of the tree against itself: the
 * two children of every inner node are crossed, always splitting the side
 * with the larger box (by the sum of its extents).  Queries and pairs only
 * read the tree and use the call stack as their only memory (its depth is
 * that of the tree).
 *
 * Items whose box is unbounded or beyond BP_FAR are kept in a short list
 * beside the tree and tested against every item. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/broadphase/bp_impl.h"
#include "src/broadphase/bp_tree.h"

/* ---------------------------------------------------------------- fat boxes */

static double largest_extent(const bp_box *b)
{
    double m = 0;
    for (int k = 0; k < 3; k++)
        if (b->hi[k] - b->lo[k] > m)
            m = b->hi[k] - b->lo[k];
    return m;
}

static void fatten(const bp_box *b, bp_box *fat)
{
    double m = BP_TREE_MARGIN * largest_extent(b);
    for (int k = 0; k < 3; k++) {
        fat->lo[k] = b->lo[k] - m;
        fat->hi[k] = b->hi[k] + m;
    }
}

/* The fat box still serves box b: it holds it and is not more than about
 * twice as loose as a fresh fat box would be (an item that shrank a lot
 * gets a new one). */
static int fat_still_fits(const bp_box *fat, const bp_box *b)
{
    if (!bp_box_contains(fat, b))
        return 0;
    double slack = 4 * BP_TREE_MARGIN * largest_extent(b);
    for (int k = 0; k < 3; k++)
        if ((fat->hi[k] - fat->lo[k]) - (b->hi[k] - b->lo[k]) > slack)
            return 0;
    return 1;
}

/* ---------------------------------------------------------------- links */

static void set_parent(bp_tree *t, int ref, int parent)
{
    if (is_leaf(ref))
        t->item[leaf_id(ref)].parent = parent;
    else
        t->node[ref].parent = parent;
}

/* Which slot of node p holds ref. */
static int tree_slot_of(const bp_tree *t, int p, int ref)
{
    return t->node[p].child[0] == ref ? 0 : 1;
}

/* Puts ref, with its box and height, in slot k of node p. */
static void tree_put(bp_tree *t, int p, int k, int ref, const fbox *box, int height)
{
    t->node[p].child[k] = ref;
    t->node[p].box[k] = *box;
    t->node[p].height[k] = (short)height;
    set_parent(t, ref, p);
}

/* Puts ref where slot k of node p is, or at the root when p < 0 (whose
 * height is not kept). */
static void put_at(bp_tree *t, int p, int k, int ref, const fbox *box, int height)
{
    if (p >= 0) {
        tree_put(t, p, k, ref, box, height);
        return;
    }
    t->root = ref;
    t->root_box = *box;
    set_parent(t, ref, -1);
}

/* ---------------------------------------------------------------- rotations */

/* A rotation at inner node a exchanges its child in slot xs with the child
 * in slot ys of node s (a's other child); s keeps its other child z. */
typedef struct rotation {
    int xs, ys;
    int top_gap; /* height difference of a's children afterwards */
    double gain; /* area the box of s loses */
} rotation;

static int gap(int h0, int h1)
{
    return h0 > h1 ? h0 - h1 : h1 - h0;
}

static rotation tree_consider(const bp_tree *t, int a, int xs, int ys)
{
    const tnode *na = &t->node[a], *ns = &t->node[na->child[1 - xs]];
    rotation r = {xs, ys, 0, 0};
    int hx = na->height[xs], hy = ns->height[ys], hz = ns->height[1 - ys];
    r.top_gap = gap(hy, 1 + tree_max_int(hx, hz));
    if (gap(hx, hz) > BP_TREE_SLACK)
        r.top_gap = 1 << 30; /* would unbalance s */
    r.gain = f_area(&na->box[1 - xs]) - f_union_area(&na->box[xs], &ns->box[1 - ys]);
    return r;
}

/* Is rotation r better than best (xs < 0: none yet) at a node whose
 * children's heights differ by now_gap? */
static int tree_better(const rotation *r, const rotation *best, int now_gap)
{
    if (now_gap > BP_TREE_SLACK) /* too unbalanced: the gap must shrink */
        return r->top_gap < now_gap &&
               (best->xs < 0 || r->top_gap < best->top_gap ||
                (r->top_gap == best->top_gap && r->gain > best->gain));
    return r->top_gap <= BP_TREE_SLACK && r->gain > 0 && (best->xs < 0 || r->gain > best->gain);
}

static void apply(bp_tree *t, int a, const rotation *r)
{
    int s = t->node[a].child[1 - r->xs];
    tnode *na = &t->node[a], *ns = &t->node[s];
    int x = na->child[r->xs], hx = na->height[r->xs];
    fbox xbox = na->box[r->xs];
    tree_put(t, a, r->xs, ns->child[r->ys], &ns->box[r->ys], ns->height[r->ys]);
    tree_put(t, s, r->ys, x, &xbox, hx);
    f_union(&ns->box[0], &ns->box[1], &na->box[1 - r->xs]);
    na->height[1 - r->xs] = (short)own_height(ns);
}

/* Rotates at inner node a when its children's heights differ by more than
 * BP_TREE_SLACK (choosing, among the rotations that reduce the gap, the
 * one that shrinks the inner boxes most), or else when a rotation that
 * keeps the balance makes the inner boxes smaller. */
static void rebalance(bp_tree *t, int a)
{
    int now_gap = gap(t->node[a].height[0], t->node[a].height[1]);
    rotation best = {-1, -1, 0, 0};
    for (int xs = 0; xs < 2; xs++) {
        if (is_leaf(t->node[a].child[1 - xs]))
            continue;
        for (int ys = 0; ys < 2; ys++) {
            rotation r = tree_consider(t, a, xs, ys);
            if (tree_better(&r, &best, now_gap))
                best = r;
        }
    }
    if (best.xs >= 0)
        apply(t, a, &best);
}

/* Restores boxes, heights and balance from inner node n up to the root,
 * stopping as soon as a node's box and height come out unchanged. */
static void repair_upwards(bp_tree *t, int n)
{
    while (n >= 0) {
        rebalance(t, n);
        fbox u;
        f_union(&t->node[n].box[0], &t->node[n].box[1], &u);
        int h = own_height(&t->node[n]), p = t->node[n].parent;
        if (p < 0) {
            t->root_box = u;
            return;
        }
        int k = tree_slot_of(t, p, n);
        if (t->node[p].height[k] == h && f_equal(&t->node[p].box[k], &u))
            return;
        t->node[p].box[k] = u;
        t->node[p].height[k] = (short)h;
        n = p;
    }
}

/* Does the box kept for a node (above) still serve for the union u of its
 * children: holds it, and is larger by at most twice slop on every side? */
static int still_serves(const fbox *above, const fbox *u, double slop)
{
    for (int k = 0; k < 3; k++) {
        double below = (double)u->lo[k] - above->lo[k], over = (double)above->hi[k] - u->hi[k];
        if (below < 0 || over < 0 || below > 2 * slop || over > 2 * slop)
            return 0;
    }
    return 1;
}

/* The box of a leaf changed in node n: refits the boxes above while they
 * no longer serve (the shape is the same).  The box of n itself gets slop
 * on every side; the boxes higher up are exact unions. */
static void refit_upwards(bp_tree *t, int n, double slop)
{
    while (n >= 0) {
        fbox u;
        f_union(&t->node[n].box[0], &t->node[n].box[1], &u);
        int p = t->node[n].parent;
        fbox *above = p < 0 ? &t->root_box : &t->node[p].box[tree_slot_of(t, p, n)];
        if (slop > 0 ? still_serves(above, &u, slop) : f_equal(above, &u))
            return;
        for (int k = 0; k < 3; k++) {
            above->lo[k] = slop > 0 ? round_down(u.lo[k] - slop) : u.lo[k];
            above->hi[k] = slop > 0 ? round_up(u.hi[k] + slop) : u.hi[k];
        }
        slop = 0;
        n = p;
    }
}

/* ---------------------------------------------------------------- insertion */

/* Which child of inner node n has its centre nearer to the centre of b. */
static int nearer_child(const tnode *n, const fbox *b)
{
    double d[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 3; j++)
            d[k] += fabs((double)n->box[k].lo[j] + n->box[k].hi[j] - b->lo[j] - b->hi[j]);
    return d[1] < d[0];
}

/* Where to hang a new leaf of box b: the reference it becomes the sibling
 * of, given by its parent (-1: the root) and slot.  Pairing with a
 * reference costs the area of the new parent plus the growth of every
 * ancestor.  Going down one path, the cheapest place met is kept, and the
 * descent goes into the child whose subtree may still hold a cheaper one
 * (lower bound: the growth so far, plus the child's own growth, plus the
 * leaf's area); on a tie, into the child whose centre is nearer. */
static void best_sibling(const bp_tree *t, const fbox *b, int *parent, int *slot)
{
    double leaf_area = f_area(b), inherited = 0;
    double best_cost = f_union_area(&t->root_box, b);
    const fbox *box = &t->root_box;
    *parent = -1;
    *slot = 0;
    for (int ref = t->root; !is_leaf(ref);) {
        const tnode *n = &t->node[ref];
        inherited += f_union_area(box, b) - f_area(box);
        double bound[2];
        for (int k = 0; k < 2; k++) {
            double direct = f_union_area(&n->box[k], b);
            if (direct + inherited < best_cost) {
                best_cost = direct + inherited;
                *parent = ref;
                *slot = k;
            }
            bound[k] = is_leaf(n->child[k]) ? INFINITY
                                            : inherited + direct - f_area(&n->box[k]) + leaf_area;
        }
        int k = bound[0] < bound[1] ? 0 : bound[1] < bound[0] ? 1 : nearer_child(n, b);
        if (!(bound[k] < best_cost))
            break;
        ref = n->child[k];
        box = &n->box[k];
    }
}

/* Hangs leaf id (its box set) into the tree; needs one free node. */
static void attach_leaf(bp_tree *t, int id)
{
    fbox b;
    to_fbox(&t->box[id], 0, &b);
    int ref = leaf_ref(id);
    if (t->leaves++ == 0) {
        put_at(t, -1, 0, ref, &b, 0);
        return;
    }
    int g, k;
    best_sibling(t, &b, &g, &k);
    int sibling = g < 0 ? t->root : t->node[g].child[k];
    fbox sibling_box = g < 0 ? t->root_box : t->node[g].box[k];
    int sibling_height = g >= 0 ? t->node[g].height[k]
                         : is_leaf(t->root) ? 0
                                            : own_height(&t->node[t->root]);
    int p = bp_tree_take_node(t);
    tree_put(t, p, 0, sibling, &sibling_box, sibling_height);
    tree_put(t, p, 1, ref, &b, 0);
    fbox u;
    f_union(&sibling_box, &b, &u);
    put_at(t, g, k, p, &u, own_height(&t->node[p]));
    repair_upwards(t, g);
}

/* Takes leaf id out of the tree; its parent node goes back to the free list. */
static void detach_leaf(bp_tree *t, int id)
{
    int p = t->item[id].parent;
    t->leaves--;
    if (p < 0)
        return; /* it was the root: the tree is empty */
    int k = tree_slot_of(t, p, leaf_ref(id));
    const tnode *np = &t->node[p];
    int g = np->parent, sibling = np->child[1 - k], sibling_height = np->height[1 - k];
    fbox sibling_box = np->box[1 - k];
    put_at(t, g, g < 0 ? 0 : tree_slot_of(t, g, p), sibling, &sibling_box, sibling_height);
    bp_tree_give_back_node(t, p);
    repair_upwards(t, g);
}

/* ---------------------------------------------------------------- far items */

static void add_far(bp_tree *t, int id)
{
    t->item[id].state = ITEM_FAR;
    t->item[id].far_at = t->nfar;
    t->far[t->nfar++] = id;
}

static void drop_far(bp_tree *t, int id)
{
    int k = t->item[id].far_at, moved = t->far[--t->nfar];
    t->far[k] = moved;
    t->item[moved].far_at = k;
}

/* ---------------------------------------------------------------- changes */

bp_tree *bp_tree_new(void)
{
    bp_tree *t = calloc(1, sizeof(bp_tree));
    if (t)
        t->free_node = -1;
    return t;
}

void bp_tree_free(bp_tree *t)
{
    if (!t)
        return;
    free(t->node);
    free(t->item);
    free(t->box);
    free(t->far);
    free(t);
}

static int is_present(const bp_tree *t, int id)
{
    return id >= 0 && id < t->cap_item && t->item[id].state != ITEM_ABSENT;
}

/* Places item id (absent, its box set, room reserved) in the tree or the
 * far list. */
static void tree_place(bp_tree *t, int id)
{
    titem *it = &t->item[id];
    it->displaced = 0;
    if (bp_box_is_far(&t->box[id])) {
        add_far(t, id);
        return;
    }
    it->state = ITEM_IN_TREE;
    fatten(&t->box[id], &it->fat);
    attach_leaf(t, id);
}

static void tree_unplace(bp_tree *t, int id)
{
    titem *it = &t->item[id];
    if (it->state == ITEM_FAR) {
        drop_far(t, id);
    } else {
        detach_leaf(t, id);
        t->displaced -= it->displaced;
    }
    it->state = ITEM_ABSENT;
}

/* Counts changes that spoil the tree: a move of an item left where it was
 * counts 1, an insertion 2 (inserting one by one makes a worse tree than
 * building top down).  When they reach the number of leaves, the tree is
 * built anew: amortised, a few rebuilt leaves per change. */
static void count_change(bp_tree *t, int weight)
{
    t->changes += weight;
    if (t->leaves >= BP_TREE_SMALL && t->changes >= t->leaves)
        bp_tree_rebuild(t);
}

/* Room for item id, one more far item and one more node. */
static int tree_reserve(bp_tree *t, int id)
{
    if (bp_grow((void **)&t->item, &t->cap_item, id + 1, sizeof(titem)) != 0 ||
        bp_grow((void **)&t->box, &t->cap_box, id + 1, sizeof(bp_box)) != 0 ||
        bp_grow((void **)&t->far, &t->cap_far, t->nfar + 1, sizeof(int)) != 0)
        return -1;
    return bp_tree_reserve_node(t);
}

int bp_tree_insert(bp_tree *t, int id, const bp_box *b)
{
    if (id < 0 || is_present(t, id) || tree_reserve(t, id) != 0)
        return -1;
    t->box[id] = *b;
    tree_place(t, id);
    if (t->item[id].state == ITEM_IN_TREE)
        count_change(t, 2);
    return 0;
}

void bp_tree_remove(bp_tree *t, int id)
{
    if (is_present(t, id))
        tree_unplace(t, id);
}

/* The slop for the parent box of an item moving from box old to box b:
 * twice its last step, but at least BP_TREE_SLOP and at most
 * BP_TREE_SLOP_MAX times its size. */
static double slop_for(const bp_box *old, const bp_box *b)
{
    double step = 0, size = largest_extent(b);
    for (int k = 0; k < 3; k++) {
        double dlo = fabs(b->lo[k] - old->lo[k]), dhi = fabs(b->hi[k] - old->hi[k]);
        step = dlo > step ? dlo : step;
        step = dhi > step ? dhi : step;
    }
    double least = BP_TREE_SLOP * size, most = BP_TREE_SLOP_MAX * size;
    return 2 * step < least ? least : 2 * step > most ? most : 2 * step;
}

/* Item id left its fat box, and gets a new one.  When few items are
 * displaced, an item leaving its fat box a second time is put back where
 * it belongs.  Otherwise the item stays where it is (its ancestors are
 * refitted) and the move is counted towards a rebuild. */
static void moved_far(bp_tree *t, int id, double slop)
{
    titem *it = &t->item[id];
    fatten(&t->box[id], &it->fat);
    if (t->leaves < BP_TREE_SMALL || (it->displaced && t->displaced < t->leaves / 8)) {
        detach_leaf(t, id); /* frees the node attach_leaf takes */
        attach_leaf(t, id);
        t->displaced -= it->displaced;
        it->displaced = 0;
        return;
    }
    refit_upwards(t, it->parent, slop);
    t->displaced += !it->displaced;
    it->displaced = 1;
    count_change(t, 1);
}

int bp_tree_update(bp_tree *t, int id, const bp_box *b)
{
    if (!is_present(t, id))
        return -1;
    titem *it = &t->item[id];
    int now_far = bp_box_is_far(b);
    if (it->state == ITEM_IN_TREE && !now_far) {
        double slop = slop_for(&t->box[id], b);
        t->box[id] = *b;
        int p = it->parent;
        fbox *slot = p < 0 ? &t->root_box : &t->node[p].box[tree_slot_of(t, p, leaf_ref(id))];
        to_fbox(b, 0, slot);
        if (fat_still_fits(&it->fat, b))
            refit_upwards(t, p, slop);
        else
            moved_far(t, id, slop);
        return 0;
    }
    if (it->state == ITEM_FAR && now_far) {
        t->box[id] = *b;
        return 0;
    }
    if (tree_reserve(t, id) != 0)
        return -1;
    tree_unplace(t, id);
    t->box[id] = *b;
    tree_place(t, id);
    return 0;
}

int bp_tree_count(const bp_tree *t)
{
    return t->leaves + t->nfar;
}

int bp_tree_height(const bp_tree *t)
{
    if (t->leaves == 0)
        return 0;
    return is_leaf(t->root) ? 1 : 1 + own_height(&t->node[t->root]);
}

/* ---------------------------------------------------------------- reading */

/* What the reading functions pass down: call item(user, id) for a found
 * leaf, or, when pair is set, pair(user, with, id) / pair(user, a, b). */
typedef struct visit {
    const bp_tree *t;
    bp_item_fn item;
    bp_pair_fn pair;
    void *user;
    int with;
    const bp_box *q; /* the query's exact box */
    fbox qf;         /* and the float box holding it */
} visit;

static void found(const visit *v, int id)
{
    if (v->pair)
        bp_report(v->pair, v->user, v->with, id);
    else
        v->item(v->user, id);
}

/* Leaves under inner node n whose boxes overlap the query. */
static long query_below(const visit *v, int n)
{
    const tnode *a = &v->t->node[n];
    long tests = 2;
    for (int k = 0; k < 2; k++) {
        if (!f_overlap(&a->box[k], &v->qf))
            continue;
        if (!is_leaf(a->child[k])) {
            tests += query_below(v, a->child[k]);
        } else {
            tests++;
            if (bp_box_overlap(&v->t->box[leaf_id(a->child[k])], v->q))
                found(v, leaf_id(a->child[k]));
        }
    }
    return tests;
}

static long query_tree(visit *v, const bp_box *q)
{
    const bp_tree *t = v->t;
    if (t->leaves == 0)
        return 0;
    v->q = q;
    to_fbox(q, 0, &v->qf);
    if (is_leaf(t->root)) {
        if (bp_box_overlap(&t->box[leaf_id(t->root)], q))
            found(v, leaf_id(t->root));
        return 1;
    }
    if (!f_overlap(&t->root_box, &v->qf))
        return 1;
    return 1 + query_below(v, t->root);
}

/* Sum of the extents of a float box: which side of a crossing to split. */
static float f_girth(const fbox *b)
{
    return (b->hi[0] - b->lo[0]) + (b->hi[1] - b->lo[1]) + (b->hi[2] - b->lo[2]);
}

/* Every pair with one leaf under reference a (box ba) and one under b (box
 * bb), the two boxes overlapping.  The side with the larger box is split;
 * the second half of the split is handled by the loop, not a call. */
static long tree_cross(const visit *v, const fbox *ba, int a, const fbox *bb, int b)
{
    long tests = 0;
    for (;;) {
        if (is_leaf(a) && is_leaf(b)) {
            if (bp_box_overlap(&v->t->box[leaf_id(a)], &v->t->box[leaf_id(b)]))
                bp_report(v->pair, v->user, leaf_id(a), leaf_id(b));
            return tests + 1;
        }
        if (is_leaf(a) || (!is_leaf(b) && f_girth(ba) < f_girth(bb))) {
            const fbox *swap_box = ba;
            int swap = a;
            ba = bb;
            a = b;
            bb = swap_box;
            b = swap;
        }
        const tnode *n = &v->t->node[a];
        int hit0 = f_overlap(&n->box[0], bb), hit1 = f_overlap(&n->box[1], bb);
        tests += 2;
        if (hit0 && hit1)
            tests += tree_cross(v, &n->box[0], n->child[0], bb, b);
        else if (!hit1 && !hit0)
            return tests;
        int k = hit1;
        ba = &n->box[k];
        a = n->child[k];
    }
}

/* Every overlapping pair of leaves under inner node n. */
static long pairs_below(const visit *v, int n)
{
    const tnode *a = &v->t->node[n];
    long tests = 1;
    for (int k = 0; k < 2; k++)
        if (!is_leaf(a->child[k]))
            tests += pairs_below(v, a->child[k]);
    if (f_overlap(&a->box[0], &a->box[1]))
        tests += tree_cross(v, &a->box[0], a->child[0], &a->box[1], a->child[1]);
    return tests;
}

/* Pairs of the k-th far item with the tree and with the later far items. */
static long far_pairs(const bp_tree *t, int k, bp_pair_fn fn, void *user)
{
    int id = t->far[k];
    const bp_box *box = &t->box[id];
    visit v = {t, NULL, fn, user, id, NULL, {{0, 0, 0}, {0, 0, 0}}};
    long tests = query_tree(&v, box);
    for (int j = k + 1; j < t->nfar; j++, tests++)
        if (bp_box_overlap(box, &t->box[t->far[j]]))
            bp_report(fn, user, id, t->far[j]);
    return tests;
}

long bp_tree_pairs(const bp_tree *t, bp_pair_fn fn, void *user)
{
    visit v = {t, NULL, fn, user, -1, NULL, {{0, 0, 0}, {0, 0, 0}}};
    long tests = t->leaves > 1 ? pairs_below(&v, t->root) : 0;
    for (int k = 0; k < t->nfar; k++)
        tests += far_pairs(t, k, fn, user);
    return tests;
}

long bp_tree_query(const bp_tree *t, const bp_box *q, bp_item_fn fn, void *user)
{
    visit v = {t, fn, NULL, user, -1, NULL, {{0, 0, 0}, {0, 0, 0}}};
    long tests = query_tree(&v, q);
    for (int k = 0; k < t->nfar; k++, tests++)
        if (bp_box_overlap(&t->box[t->far[k]], q))
            fn(user, t->far[k]);
    return tests;
}
