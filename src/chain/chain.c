/* chain.c -- hs_chain: creation and release, joints set one by one or
 * together (journalled for undo, noted in the record of moved joints,
 * chain_moved.c), and the poses of links. */
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
    c->mov_tree = mem_calloc((size_t)n, sizeof(int));
    c->changed = mem_alloc(CHAIN_TRACK_MAX, sizeof(int));
    c->was = mem_alloc(CHAIN_TRACK_MAX, sizeof(chain_xf));
    if (!c->link || !c->joint || !c->is_changed || !c->mov_tree || !c->changed || !c->was ||
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
    free(c->mov_tree);
    free(c->changed);
    free(c->was);
    free(c->skip);
    chain_tree_free(c);
    free(c);
}

int hs_chain_link_count(const hs_chain *c) { return c ? c->n : 0; }

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

int chain_in_range(const hs_chain *c)
{
    double mag = c->fit[chain_node_index(c, c->levels, 0)].mag;
    double base = fabs(c->base[3]) + fabs(c->base[7]) + fabs(c->base[11]);
    return mag <= CHAIN_MAG_MAX && base <= CHAIN_MAG_MAX; /* (false for NaN) */
}

static hs_code out_of_range(const char *fn, int i, hs_error *err)
{
    const char *what = "the link poses would leave the range of a chain (every translation "
                       "and piece within 2^1000, about 1e301, of the links' frames)";
    if (i > 0)
        return err_set(err, HS_ERR_ARG, "%s: joint %d: %s", fn, i, what);
    return err_set(err, HS_ERR_ARG, "%s: %s", fn, what);
}

static void apply_joint(hs_chain *c, int i, const chain_xf *x)
{
    chain_note_changed(c, i, x);
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

/* Joint i set to x, or left as it was (and HS_ERR_ARG) when the chain
 * would leave its range. */
static hs_code set_one_in_range(hs_chain *c, int i, const chain_xf *x, const char *fn,
                                hs_error *err)
{
    chain_xf old = c->fit[i - 1].sc;
    set_one_joint(c, i, x);
    if (chain_in_range(c))
        return HS_OK;
    set_one_joint(c, i, &old);
    return out_of_range(fn, i, err);
}

hs_code hs_chain_set_joint(hs_chain *c, int i, const double m[16], hs_error *err)
{
    hs_code rc = check_joint(c, i, m, "hs_chain_set_joint", err);
    if (rc != HS_OK)
        return rc;
    chain_xf x;
    chain_xf_from_pose(&x, m);
    return set_one_in_range(c, i, &x, "hs_chain_set_joint", err);
}

hs_code hs_chain_change_joint(hs_chain *c, int i, const double d[16], hs_error *err)
{
    hs_code rc = check_joint(c, i, d, "hs_chain_change_joint", err);
    if (rc != HS_OK)
        return rc;
    chain_xf x, dx;
    chain_xf_from_pose(&dx, d);
    chain_xf_mul(&x, &c->fit[i - 1].sc, &dx);
    return set_one_in_range(c, i, &x, "hs_chain_change_joint", err);
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
        if (set_one_in_range(c, i, &x, "hs_chain_try_change", err) != HS_OK)
            return -1;
        r = hs_chain_self_collision(c, hit_i, hit_j, st, err);
        if (r != 0) /* a collision or an error: back to the old value */
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
    if (r == 0 && !chain_in_range(c)) {
        out_of_range("hs_chain_try_change", i, err);
        r = -1;
    }
    if (r != 0) /* (a collision: not reached, the journal holds this very change) */
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
    chain_xf *old = mem_alloc((size_t)count + 1, sizeof(chain_xf));
    if (!leaves || !old) {
        free(leaves);
        free(old);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    c->jr_joint = 0;
    for (int k = 0; k < count; k++) {
        chain_xf x;
        chain_xf_from_pose(&x, m + 16 * k);
        old[k] = c->fit[idx[k] - 1].sc;
        apply_joint(c, idx[k], &x);
        leaves[k] = idx[k] - 1;
    }
    chain_tree_update(c, leaves, count, 0);
    hs_code rc = HS_OK;
    if (count > 0 && !chain_in_range(c)) {
        /* back to the old values (in reverse order: a joint listed twice
         * gets the value it had before the call) */
        for (int k = count - 1; k >= 0; k--)
            apply_joint(c, idx[k], &old[k]);
        chain_tree_update(c, leaves, count, 0);
        rc = out_of_range("hs_chain_set_joints", 0, err);
    }
    free(leaves);
    free(old);
    return rc;
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
    if (!(fabs(m[3]) + fabs(m[7]) + fabs(m[11]) <= CHAIN_MAG_MAX))
        return err_set(err, HS_ERR_ARG, "hs_chain_set_base: the translation is beyond the range "
                                        "of a chain (2^1000, about 1e301)");
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
