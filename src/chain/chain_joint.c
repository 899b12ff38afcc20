/* chain_joint.c -- joints with a type (fixed, revolute, prismatic), their
 * limits and values, and the names of links and joints. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/chain/chain.h"
#include "polytope/error.h"
#include "polytope/mem.h"

/* J(q) = origin M(q): M the rotation by q about the axis (revolute), the
 * translation q axis (prismatic), the identity (fixed). */
static void joint_pose(const chain_joint *jt, double q, double m[16])
{
    double M[16];
    if (jt->type == HS_JOINT_REVOLUTE) {
        hs_pose_from_axis_angle(M, jt->axis, q, NULL, NULL);
    } else {
        hs_pose_identity(M);
        if (jt->type == HS_JOINT_PRISMATIC)
            for (int j = 0; j < 3; j++)
                M[4 * j + 3] = q * jt->axis[j];
    }
    hs_pose_multiply(m, jt->origin, M);
}

/* The movable joints in a Fenwick tree over 1..n-1 (mov_tree[i] holds
 * the count of movable joints in (i - lowbit(i), i]): a joint's change of
 * kind and the k-th movable joint both cost O(log n), so that defining N
 * joints one by one is O(N log N), not O(N^2). */
static void movable_add(hs_chain *c, int i, int delta)
{
    for (; i < c->n; i += i & -i)
        c->mov_tree[i] += delta;
    c->dof += delta;
}

/* Index of the (k+1)-th movable joint (0-based k < dof). */
static int movable_find(const hs_chain *c, int k)
{
    int pos = 0, step = 1;
    while (2 * step < c->n)
        step *= 2;
    for (; step > 0; step /= 2)
        if (pos + step < c->n && c->mov_tree[pos + step] <= k) {
            pos += step;
            k -= c->mov_tree[pos];
        }
    return pos + 1;
}

static hs_code check_definition(const hs_chain *c, int i, hs_joint_type type,
                                const double origin[16], const double axis[3], double lo,
                                double hi, double rest, hs_error *err)
{
    if (!c)
        return err_set(err, HS_ERR_ARG, "hs_chain_define_joint: NULL chain");
    if (i < 1 || i >= c->n)
        return err_set(err, HS_ERR_ARG, "hs_chain_define_joint: joint %d is not in 1..%d", i,
                       c->n - 1);
    if (type != HS_JOINT_FIXED && type != HS_JOINT_REVOLUTE && type != HS_JOINT_PRISMATIC)
        return err_set(err, HS_ERR_ARG, "hs_chain_define_joint: joint %d: unknown type %d", i,
                       (int)type);
    if (origin && !chain_pose_is_rigid(origin))
        return err_set(err, HS_ERR_ARG, "hs_chain_define_joint: joint %d: the origin is not a "
                                        "rigid pose", i);
    if (type == HS_JOINT_FIXED)
        return HS_OK;
    if (!axis || !isfinite(axis[0]) || !isfinite(axis[1]) || !isfinite(axis[2]) ||
        !(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2] > 0))
        return err_set(err, HS_ERR_ARG, "hs_chain_define_joint: joint %d: the axis must be "
                                        "finite and nonzero", i);
    if (isnan(lo) || isnan(hi) || !(lo <= hi) || lo == HUGE_VAL || hi == -HUGE_VAL)
        return err_set(err, HS_ERR_ARG, "hs_chain_define_joint: joint %d: limits [%g, %g] are "
                                        "not an interval", i, lo, hi);
    if (!isfinite(rest) || rest < lo || rest > hi)
        return err_set(err, HS_ERR_ARG, "hs_chain_define_joint: joint %d: rest value %g is "
                                        "not within [%g, %g]", i, rest, lo, hi);
    return HS_OK;
}

hs_code hs_chain_define_joint(hs_chain *c, int i, hs_joint_type type, const double origin[16],
                              const double axis[3], double lo, double hi, double rest,
                              hs_error *err)
{
    hs_code rc = check_definition(c, i, type, origin, axis, lo, hi, rest, err);
    if (rc != HS_OK)
        return rc;
    chain_joint nj = c->joint[i]; /* kept only when the joint can be set */
    nj.type = type;
    if (origin)
        memcpy(nj.origin, origin, sizeof nj.origin);
    else
        hs_pose_identity(nj.origin);
    if (type != HS_JOINT_FIXED) {
        double len = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        for (int j = 0; j < 3; j++)
            nj.axis[j] = axis[j] / len;
        nj.lo = lo;
        nj.hi = hi;
        nj.q = rest;
    } else {
        nj.lo = nj.hi = nj.q = 0;
    }
    double m[16];
    joint_pose(&nj, nj.q, m);
    rc = hs_chain_set_joint(c, i, m, err); /* fails (nothing changed) beyond the range */
    if (rc != HS_OK)
        return rc;
    int was_movable = c->joint[i].type != HS_JOINT_FIXED, movable = type != HS_JOINT_FIXED;
    if (movable != was_movable)
        movable_add(c, i, movable - was_movable);
    c->joint[i] = nj;
    return HS_OK;
}

int hs_chain_dof(const hs_chain *c) { return c ? c->dof : 0; }

int hs_chain_movable_joint(const hs_chain *c, int k)
{
    if (!c || k < 0 || k >= c->dof)
        return -1;
    return movable_find(c, k);
}

hs_joint_type hs_chain_joint_type(const hs_chain *c, int i)
{
    return c && i >= 1 && i < c->n ? c->joint[i].type : HS_JOINT_FIXED;
}

hs_code hs_chain_joint_limits(const hs_chain *c, int k, double *lo, double *hi, double *q,
                              hs_error *err)
{
    int i = hs_chain_movable_joint(c, k);
    if (i < 0)
        return err_set(err, HS_ERR_ARG, "hs_chain_joint_limits: no movable joint %d", k);
    if (lo)
        *lo = c->joint[i].lo;
    if (hi)
        *hi = c->joint[i].hi;
    if (q)
        *q = c->joint[i].q;
    return HS_OK;
}

/* Every value checked first (count, finite, limits), then all joints
 * set at once (one merged update). */
hs_code hs_chain_set_angles(hs_chain *c, const double *q, int nq, hs_error *err)
{
    if (!c || (nq > 0 && !q))
        return err_set(err, HS_ERR_ARG, "hs_chain_set_angles: NULL argument");
    if (nq != c->dof)
        return err_set(err, HS_ERR_ARG, "hs_chain_set_angles: %d values for %d movable joints",
                       nq, c->dof);
    int *idx = mem_alloc((size_t)nq + 1, sizeof(int));
    double *m = mem_alloc((size_t)nq + 1, 16 * sizeof(double));
    hs_code rc = idx && m ? HS_OK : err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int i = 1, k = 0; i < c->n && rc == HS_OK; i++) {
        const chain_joint *jt = &c->joint[i];
        if (jt->type == HS_JOINT_FIXED)
            continue;
        const char *name = jt->name ? jt->name : "";
        if (!isfinite(q[k]))
            rc = err_set(err, HS_ERR_ARG, "hs_chain_set_angles: value %d (joint %d %s) is not "
                                          "finite", k + 1, i, name);
        else if (q[k] < jt->lo || q[k] > jt->hi)
            rc = err_set(err, HS_ERR_ARG, "hs_chain_set_angles: value %d (joint %d %s) = %.17g "
                                          "is outside the limits [%.15g, %.15g]",
                         k + 1, i, name, q[k], jt->lo, jt->hi);
        else {
            idx[k] = i;
            joint_pose(jt, q[k], m + 16 * k);
        }
        k++;
    }
    if (rc == HS_OK)
        rc = hs_chain_set_joints(c, idx, m, nq, err);
    for (int k = 0; k < nq && rc == HS_OK; k++)
        c->joint[idx[k]].q = q[k];
    free(idx);
    free(m);
    return rc;
}

static hs_code set_name(char **slot, const char *name, hs_error *err)
{
    char *copy = NULL;
    if (name && *name && !(copy = mem_strdup(name)))
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    free(*slot);
    *slot = copy;
    return HS_OK;
}

hs_code hs_chain_set_link_name(hs_chain *c, int i, const char *name, hs_error *err)
{
    if (!c || i < 0 || i >= c->n)
        return err_set(err, HS_ERR_ARG, "hs_chain_set_link_name: no link %d", i);
    return set_name(&c->link[i].name, name, err);
}

hs_code hs_chain_set_joint_name(hs_chain *c, int i, const char *name, hs_error *err)
{
    if (!c || i < 1 || i >= c->n)
        return err_set(err, HS_ERR_ARG, "hs_chain_set_joint_name: no joint %d", i);
    return set_name(&c->joint[i].name, name, err);
}

const char *hs_chain_link_name(const hs_chain *c, int i)
{
    return c && i >= 0 && i < c->n ? c->link[i].name : NULL;
}

const char *hs_chain_joint_name(const hs_chain *c, int i)
{
    return c && i >= 1 && i < c->n ? c->joint[i].name : NULL;
}
