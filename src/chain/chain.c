/* chain.c -- hs_chain: creation, pieces, joints, poses, skip lists and the
 * record of which joints moved since the last collision-free answer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/chain/chain.h"
#include "polytope/error.h"
#include "polytope/mem.h"

static void joint_init(chain_joint *jt)
{
    memset(jt, 0, sizeof *jt);
    jt->type = HS_JOINT_FIXED;
    hs_pose_identity(jt->origin);
    jt->axis[2] = 1;
    jt->lo = -HUGE_VAL;
    jt->hi = HUGE_VAL;
}

hs_chain *hs_chain_new(int n, hs_error *err)
{
    if (n < 1 || n > (1 << 26)) {
        err_set(err, HS_ERR_ARG, "hs_chain_new: link count %d is not in 1..%d", n, 1 << 26);
        return NULL;
    }
    hs_chain *c = mem_calloc(1, sizeof *c);
    if (!c) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    c->n = n;
    c->link = mem_calloc((size_t)n, sizeof(chain_link));
    c->joint = mem_calloc((size_t)n, sizeof(chain_joint));
    c->is_changed = mem_calloc((size_t)n, 1);
    c->changed = mem_alloc(CHAIN_TRACK_MAX, sizeof(int));
    c->was = mem_alloc(CHAIN_TRACK_MAX, sizeof(chain_xf));
    if (!c->link || !c->joint || !c->is_changed || !c->changed || !c->was ||
        chain_tree_alloc(c) != 0) {
        hs_chain_free(c);
        err_set(err, HS_ERR_NOMEM, "out of memory for a chain of %d links", n);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        joint_init(&c->joint[i]);
    hs_pose_identity(c->base);
    c->skip_adjacent = 1;
    c->all_dirty = 1;
    return c;
}

void hs_chain_free(hs_chain *c)
{
    if (!c)
        return;
    if (c->link)
        for (int i = 0; i < c->n; i++) {
            free(c->link[i].sph);
            for (int k = 0; k < c->link[i].ncvx; k++)
                geom_release(c->link[i].cvx[k]);
            free(c->link[i].cvx);
            free(c->link[i].name);
        }
    if (c->joint)
        for (int i = 0; i < c->n; i++)
            free(c->joint[i].name);
    free(c->link);
    free(c->joint);
    free(c->is_changed);
    free(c->changed);
    free(c->was);
    free(c->skip);
    chain_tree_free(c);
    free(c);
}

int hs_chain_link_count(const hs_chain *c) { return c ? c->n : 0; }

/* ------------------------------------------------------------------ */
/* Pieces                                                               */

/* After link i got a piece: its box, the boxes above it, and every pair
 * must be searched again. */
void chain_piece_added(hs_chain *c, int i)
{
    c->jr_joint = 0;
    chain_leaf_box(c, i);
    chain_tree_update(c, &i, 1, 1);
    c->npieces++;
    c->all_dirty = 1;
}

hs_code hs_chain_add_sphere(hs_chain *c, int link, const double center[3], double radius,
                            hs_error *err)
{
    if (!c || !center)
        return err_set(err, HS_ERR_ARG, "hs_chain_add_sphere: NULL argument");
    if (link < 0 || link >= c->n)
        return err_set(err, HS_ERR_ARG, "hs_chain_add_sphere: link %d is not in 0..%d", link,
                       c->n - 1);
    if (!isfinite(center[0]) || !isfinite(center[1]) || !isfinite(center[2]))
        return err_set(err, HS_ERR_ARG, "hs_chain_add_sphere: centre is not finite");
    if (!(radius > 0) || !isfinite(radius))
        return err_set(err, HS_ERR_ARG, "hs_chain_add_sphere: radius must be positive and finite");
    chain_link *L = &c->link[link];
    if (L->nsph == L->capsph) {
        int cap = L->capsph ? 2 * L->capsph : 1;
        chain_sphere *s = mem_realloc(L->sph, (size_t)cap, sizeof *s);
        if (!s)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        L->sph = s;
        L->capsph = cap;
    }
    chain_sphere *s = &L->sph[L->nsph++];
    memcpy(s->c, center, sizeof s->c);
    s->r = radius;
    chain_piece_added(c, link);
    return HS_OK;
}

/* ------------------------------------------------------------------ */
/* Joints                                                               */

static hs_code check_joint(const hs_chain *c, int i, const double *m, const char *fn,
                           hs_error *err)
{
    if (!c || !m)
        return err_set(err, HS_ERR_ARG, "%s: NULL argument", fn);
    if (i < 1 || i >= c->n)
        return err_set(err, HS_ERR_ARG, "%s: joint %d is not in 1..%d", fn, i, c->n - 1);
    if (!chain_pose_is_rigid(m))
        return err_set(err, HS_ERR_ARG,
                       "%s: joint %d: not a rigid pose (finite, last row 0 0 0 1, rotation "
                       "orthonormal to %g, det > 0)",
                       fn, i, CHAIN_RIGID_TOL);
    return HS_OK;
}

/* Position of joint in the sorted record, or -1. */
static int changed_index(const hs_chain *c, int joint)
{
    if (!c->is_changed[joint])
        return -1;
    int k = 0;
    while (c->changed[k] != joint)
        k++;
    return k;
}

/* Joint i is about to become x.  The record of joints moved since the
 * last free answer (seed 003, 2.3: the rigid pieces between moved joints
 * need no search inside) gains it, with the value it had at that answer;
 * a joint set back to exactly that value leaves the record (the chain is
 * then, bit for bit, what it was at the answer for that joint: an undo
 * costs the next query nothing). */
static void note_changed(hs_chain *c, int joint, const chain_xf *x)
{
    if (c->all_dirty)
        return;
    int at = changed_index(c, joint);
    if (at >= 0) {
        if (memcmp(&c->was[at], x, sizeof *x) != 0)
            return;
        c->is_changed[joint] = 0;
        c->nchanged--;
        memmove(c->changed + at, c->changed + at + 1, sizeof(int) * (size_t)(c->nchanged - at));
        memmove(c->was + at, c->was + at + 1, sizeof(chain_xf) * (size_t)(c->nchanged - at));
        return;
    }
    if (c->nchanged == CHAIN_TRACK_MAX) {
        chain_clear_changed(c);
        c->all_dirty = 1;
        return;
    }
    int k = c->nchanged++;
    while (k > 0 && c->changed[k - 1] > joint) {
        c->changed[k] = c->changed[k - 1];
        c->was[k] = c->was[k - 1];
        k--;
    }
    c->changed[k] = joint;
    c->was[k] = c->fit[joint - 1].sc;
    c->is_changed[joint] = 1;
}

void chain_clear_changed(hs_chain *c)
{
    for (int k = 0; k < c->nchanged; k++)
        c->is_changed[c->changed[k]] = 0;
    c->nchanged = 0;
    c->all_dirty = 0;
}

/* Binary search for the first changed joint > lo. */
int chain_span_changed_search(const hs_chain *c, int lo, int hi)
{
    int a = 0, b = c->nchanged;
    while (a < b) {
        int m = (a + b) >> 1;
        if (c->changed[m] <= lo)
            a = m + 1;
        else
            b = m;
    }
    return a < c->nchanged && c->changed[a] <= hi;
}

static void apply_joint(hs_chain *c, int i, const chain_xf *x)
{
    note_changed(c, i, x);
    c->fit[i - 1].sc = *x;
}

/* One joint: an exact undo of the last change restores the nodes it
 * rewrote (they are a function of the joints, so this is the update's
 * own result); otherwise journal, then update. */
static void set_one_joint(hs_chain *c, int i, const chain_xf *x)
{
    if (chain_journal_undo(c, i, x)) {
        apply_joint(c, i, x);
        return;
    }
    chain_journal_save(c, i); /* before the change: the undo compares with the old joint */
    apply_joint(c, i, x);
    chain_tree_update_lazy(c, i - 1); /* the path of one joint, as hs_chain_try_change */
    chain_tree_refit_to(c, c->levels);
}

hs_code hs_chain_set_joint(hs_chain *c, int i, const double m[16], hs_error *err)
{
    hs_code rc = check_joint(c, i, m, "hs_chain_set_joint", err);
    if (rc != HS_OK)
        return rc;
    chain_xf x;
    chain_xf_from_pose(&x, m);
    set_one_joint(c, i, &x);
    return HS_OK;
}

hs_code hs_chain_change_joint(hs_chain *c, int i, const double d[16], hs_error *err)
{
    hs_code rc = check_joint(c, i, d, "hs_chain_change_joint", err);
    if (rc != HS_OK)
        return rc;
    chain_xf x, dx;
    chain_xf_from_pose(&dx, d);
    chain_xf_mul(&x, &c->fit[i - 1].sc, &dx);
    set_one_joint(c, i, &x);
    return HS_OK;
}

int hs_chain_try_change(hs_chain *c, int i, const double d[16], int *hit_i, int *hit_j,
                        hs_chain_stats *st, hs_error *err)
{
    if (check_joint(c, i, d, "hs_chain_try_change", err) != HS_OK)
        return -1;
    chain_xf old = c->fit[i - 1].sc, x, dx;
    chain_xf_from_pose(&dx, d);
    chain_xf_mul(&x, &old, &dx);
    int r;
    if (c->nchanged != 0 || c->all_dirty) {
        /* other joints unsearched: no single path to refit lazily */
        set_one_joint(c, i, &x);
        r = hs_chain_self_collision(c, hit_i, hit_j, st, err);
        if (r == 1)
            set_one_joint(c, i, &old);
        return r;
    }
    chain_journal_save(c, i);
    apply_joint(c, i, &x);
    chain_tree_update_lazy(c, i - 1);
    r = chain_self_search(c, 1, hit_i, hit_j, st, err);
    if (r == 1 && chain_journal_undo(c, i, &old)) {
        apply_joint(c, i, &old); /* forgets joint i: back to its value */
        return 1;
    }
    chain_tree_refit_to(c, c->levels);
    if (r == 1) /* not reached: the journal holds this very change */
        set_one_joint(c, i, &old);
    return r;
}

hs_code hs_chain_set_joints(hs_chain *c, const int *idx, const double *m, int count,
                            hs_error *err)
{
    if (!c || (count > 0 && (!idx || !m)))
        return err_set(err, HS_ERR_ARG, "hs_chain_set_joints: NULL argument");
    if (count < 0)
        return err_set(err, HS_ERR_ARG, "hs_chain_set_joints: negative count %d", count);
    for (int k = 0; k < count; k++) {
        hs_code rc = check_joint(c, idx[k], m + 16 * k, "hs_chain_set_joints", err);
        if (rc != HS_OK)
            return rc;
    }
    int *leaves = mem_alloc((size_t)count + 1, sizeof(int));
    if (!leaves)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    c->jr_joint = 0;
    for (int k = 0; k < count; k++) {
        chain_xf x;
        chain_xf_from_pose(&x, m + 16 * k);
        apply_joint(c, idx[k], &x);
        leaves[k] = idx[k] - 1;
    }
    chain_tree_update(c, leaves, count, 0);
    free(leaves);
    return HS_OK;
}

void hs_chain_get_joint(const hs_chain *c, int i, double m[16])
{
    if (!c || i < 1 || i >= c->n) {
        hs_pose_identity(m);
        return;
    }
    chain_xf_to_pose(&c->fit[i - 1].sc, m);
}

hs_code hs_chain_set_base(hs_chain *c, const double m[16], hs_error *err)
{
    if (!c || !m)
        return err_set(err, HS_ERR_ARG, "hs_chain_set_base: NULL argument");
    if (!chain_pose_is_rigid(m))
        return err_set(err, HS_ERR_ARG,
                       "hs_chain_set_base: not a rigid pose (finite, last row 0 0 0 1, rotation "
                       "orthonormal to %g, det > 0)",
                       CHAIN_RIGID_TOL);
    memcpy(c->base, m, sizeof c->base);
    return HS_OK;
}

void hs_chain_relative_pose(const hs_chain *c, int i, int j, double m[16])
{
    if (!c || i < 0 || j < 0 || i >= c->n || j >= c->n) {
        hs_pose_identity(m);
        return;
    }
    chain_xf t;
    if (i <= j) {
        chain_relative(c, i, j, &t);
    } else {
        chain_xf u;
        chain_relative(c, j, i, &u);
        chain_xf_inverse(&t, &u);
    }
    chain_xf_to_pose(&t, m);
}

void hs_chain_link_pose(const hs_chain *c, int i, double m[16])
{
    if (!c || i < 0 || i >= c->n) {
        hs_pose_identity(m);
        return;
    }
    chain_xf t, b, w;
    chain_relative(c, 0, i, &t);
    chain_xf_from_pose(&b, c->base);
    chain_xf_mul(&w, &b, &t);
    chain_xf_to_pose(&w, m);
}

/* ------------------------------------------------------------------ */
/* Skip lists                                                           */

static long long skip_key(const hs_chain *c, int i, int j) { return (long long)i * c->n + j; }

static int skip_find(const hs_chain *c, long long key, int *pos)
{
    int a = 0, b = c->nskip;
    while (a < b) {
        int m = (a + b) >> 1;
        if (c->skip[m] < key)
            a = m + 1;
        else
            b = m;
    }
    *pos = a;
    return a < c->nskip && c->skip[a] == key;
}

int chain_pair_skipped(const hs_chain *c, int i, int j)
{
    if (i > j) {
        int t = i;
        i = j;
        j = t;
    }
    if (c->skip_adjacent && j == i + 1)
        return 1;
    int pos;
    return c->nskip > 0 && skip_find(c, skip_key(c, i, j), &pos);
}

hs_code hs_chain_skip_pair(hs_chain *c, int i, int j, int skip, hs_error *err)
{
    if (!c)
        return err_set(err, HS_ERR_ARG, "hs_chain_skip_pair: NULL chain");
    if (i < 0 || j < 0 || i >= c->n || j >= c->n || i == j)
        return err_set(err, HS_ERR_ARG,
                       "hs_chain_skip_pair: (%d, %d) is not a pair of distinct links in 0..%d", i,
                       j, c->n - 1);
    if (i > j) {
        int t = i;
        i = j;
        j = t;
    }
    int pos, found = skip_find(c, skip_key(c, i, j), &pos);
    if (skip && !found) {
        if (c->nskip == c->capskip) {
            int cap = c->capskip ? 2 * c->capskip : 8;
            long long *s = mem_realloc(c->skip, (size_t)cap, sizeof *s);
            if (!s)
                return err_set(err, HS_ERR_NOMEM, "out of memory");
            c->skip = s;
            c->capskip = cap;
        }
        memmove(c->skip + pos + 1, c->skip + pos, sizeof(long long) * (size_t)(c->nskip - pos));
        c->skip[pos] = skip_key(c, i, j);
        c->nskip++;
    } else if (!skip && found) {
        memmove(c->skip + pos, c->skip + pos + 1, sizeof(long long) * (size_t)(c->nskip - pos - 1));
        c->nskip--;
        chain_clear_changed(c);
        c->all_dirty = 1; /* a pair that was not tested may collide */
    }
    return HS_OK;
}

void hs_chain_skip_adjacent(hs_chain *c, int skip)
{
    if (!c)
        return;
    if (c->skip_adjacent && !skip) {
        chain_clear_changed(c);
        c->all_dirty = 1;
    }
    c->skip_adjacent = skip != 0;
}
