/* robot_config.c -- the configuration of a robot: coordinates checked and
 * set (mimic joints follow), joint transforms origin M(q), and the links'
 * world poses (each its parent's times its joint's transform, in link
 * order; only the subtrees of the joints that changed). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/robot/robot.h"
#include "src/shape/pose.h"

hs_code robot_check_q(const hs_robot *r, const double *q, int n, const char *fn, hs_error *err)
{
    if (!r || (n > 0 && !q))
        return err_set(err, HS_ERR_ARG, "%s: NULL argument", fn);
    if (n != r->dof)
        return err_set(err, HS_ERR_ARG, "%s: %d values for %d coordinates", fn, n, r->dof);
    for (int k = 0; k < n; k++) {
        const robot_joint *J = &r->joint[r->coord_joint[k]];
        if (!isfinite(q[k]))
            return err_set(err, HS_ERR_ARG, "%s: value %d (joint %s) is not finite", fn, k + 1,
                           J->name);
        if (q[k] < J->lo || q[k] > J->hi)
            return err_set(err, HS_ERR_ARG, "%s: value %d (joint %s) = %.17g is outside the "
                                            "limits [%.15g, %.15g]", fn, k + 1, J->name, q[k],
                           J->lo, J->hi);
    }
    return HS_OK;
}

/* The transform of joint j at value q (movable joints) or its pose. */
static void transform_at(const robot_joint *J, double q, double m[16])
{
    double M[16];
    switch (J->type) {
    case HS_ROBOT_REVOLUTE:
    case HS_ROBOT_CONTINUOUS:
        hs_pose_from_axis_angle(M, J->axis, q, NULL, NULL);
        break;
    case HS_ROBOT_PRISMATIC:
        hs_pose_identity(M);
        for (int k = 0; k < 3; k++)
            M[4 * k + 3] = q * J->axis[k];
        break;
    case HS_ROBOT_FLOATING:
    case HS_ROBOT_PLANAR:
        memcpy(M, J->free, sizeof M);
        break;
    default:
        memcpy(m, J->origin, 16 * sizeof(double));
        return;
    }
    hs_pose_multiply(m, J->origin, M);
}

/* The value of joint j for the coordinates q (its own when it has none). */
static double joint_value(const hs_robot *r, int j, const double *q)
{
    const robot_joint *J = &r->joint[j];
    if (!q)
        return J->q;
    if (J->coord >= 0)
        return q[J->coord];
    if (J->mimic >= 0)
        return J->mult * q[r->joint[J->mimic].coord] + J->offset;
    return J->q;
}

void robot_poses_at(const hs_robot *r, const double *q, double *W)
{
    memcpy(W, r->base, sizeof r->base);
    for (int i = 1; i < r->nlinks; i++) {
        const robot_joint *J = &r->joint[i - 1];
        double T[16];
        transform_at(J, joint_value(r, i - 1, q), T);
        hs_pose_multiply(W + 16 * i, W + 16 * J->parent, T);
    }
}

void robot_apply_q(hs_robot *r, const double *q)
{
    int all = !r->W_ready;
    if (all)
        memcpy(r->W, r->base, sizeof r->base);
    /* moved[i]: link i's world pose changes; in link order a parent comes
     * first, so one pass suffices (the flags live in the scratch) */
    unsigned char *moved = (unsigned char *)r->scratch;
    memset(moved, 0, (size_t)r->nlinks);
    for (int i = 1; i < r->nlinks; i++) {
        robot_joint *J = &r->joint[i - 1];
        double v = joint_value(r, i - 1, q);
        int changed = v != J->q;
        J->q = v;
        if (!all && !changed && !moved[J->parent])
            continue;
        moved[i] = 1;
        double T[16];
        transform_at(J, v, T);
        hs_pose_multiply(r->W + 16 * i, r->W + 16 * J->parent, T);
    }
    r->W_ready = 1;
}

void robot_refresh(hs_robot *r)
{
    r->W_ready = 0;
    robot_apply_q(r, NULL);
}

/* ------------------------------------------------------------ public */

hs_code hs_robot_set_q(hs_robot *r, const double *q, int n, hs_error *err)
{
    hs_code rc = robot_check_q(r, q, n, "hs_robot_set_q", err);
    if (rc == HS_OK)
        robot_apply_q(r, q);
    return rc;
}

hs_code hs_robot_get_q(const hs_robot *r, double *q, int n, hs_error *err)
{
    if (!r || (n > 0 && !q) || n != r->dof)
        return err_set(err, HS_ERR_ARG, "hs_robot_get_q: needs the robot and %d values",
                       r ? r->dof : 0);
    for (int k = 0; k < n; k++)
        q[k] = r->joint[r->coord_joint[k]].q;
    return HS_OK;
}

hs_code hs_robot_rest(const hs_robot *r, double *q, int n, hs_error *err)
{
    if (!r || (n > 0 && !q) || n != r->dof)
        return err_set(err, HS_ERR_ARG, "hs_robot_rest: needs the robot and %d values",
                       r ? r->dof : 0);
    if (n > 0)
        memcpy(q, r->rest, sizeof(double) * (size_t)n);
    return HS_OK;
}

hs_code hs_robot_set_value(hs_robot *r, const char *joint, double value, hs_error *err)
{
    if (!r || !joint)
        return err_set(err, HS_ERR_ARG, "hs_robot_set_value: NULL argument");
    int j = hs_robot_joint_find(r, joint);
    if (j < 0)
        return err_set(err, HS_ERR_ARG, "hs_robot_set_value: no joint named '%s'", joint);
    const robot_joint *J = &r->joint[j];
    if (J->coord < 0)
        return err_set(err, HS_ERR_ARG, "hs_robot_set_value: joint '%s' is %s, not a "
                                        "coordinate", joint,
                       J->mimic >= 0 ? "a mimic joint" : hs_robot_joint_type_name(J->type));
    double *q = mem_alloc((size_t)r->dof, sizeof(double));
    if (!q)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int k = 0; k < r->dof; k++)
        q[k] = r->joint[r->coord_joint[k]].q;
    q[J->coord] = value;
    hs_code rc = hs_robot_set_q(r, q, r->dof, err);
    free(q);
    return rc;
}

/* Finite, last row 0 0 0 1, R^T R = I to 1e-9 per entry, det R > 0. */
static int robot_pose_rigid(const double m[16])
{
    for (int k = 0; k < 16; k++)
        if (!isfinite(m[k]))
            return 0;
    if (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1)
        return 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = m[i] * m[j] + m[4 + i] * m[4 + j] + m[8 + i] * m[8 + j];
            if (fabs(s - (i == j)) > 1e-9)
                return 0;
        }
    return pose_det3(m) > 0;
}

/* Is m a rotation about the unit axis a and a translation perpendicular
 * to it (to 1e-9)? */
static int planar_pose(const double m[16], const double a[3])
{
    double Ra[3], t[3] = {m[3], m[7], m[11]};
    pose_apply_linear(m, a, Ra);
    double tn = fabs(t[0] * a[0] + t[1] * a[1] + t[2] * a[2]);
    double tl = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    return fabs(Ra[0] - a[0]) <= 1e-9 && fabs(Ra[1] - a[1]) <= 1e-9 &&
           fabs(Ra[2] - a[2]) <= 1e-9 && tn <= 1e-9 * (1 + tl);
}

hs_code hs_robot_set_joint_pose(hs_robot *r, int j, const double m[16], hs_error *err)
{
    if (!r || !m || j < 0 || j >= r->njoints)
        return err_set(err, HS_ERR_ARG, "hs_robot_set_joint_pose: no joint %d", j);
    robot_joint *J = &r->joint[j];
    if (J->type != HS_ROBOT_FLOATING && J->type != HS_ROBOT_PLANAR)
        return err_set(err, HS_ERR_ARG, "hs_robot_set_joint_pose: joint '%s' is %s, not "
                                        "floating or planar", J->name,
                       hs_robot_joint_type_name(J->type));
    if (!robot_pose_rigid(m))
        return err_set(err, HS_ERR_ARG, "hs_robot_set_joint_pose: not a rigid pose");
    if (J->type == HS_ROBOT_PLANAR && !planar_pose(m, J->axis))
        return err_set(err, HS_ERR_ARG, "hs_robot_set_joint_pose: joint '%s' is planar: the "
                                        "pose must turn about its axis and move across it",
                       J->name);
    memcpy(J->free, m, sizeof J->free);
    r->pose_moved[j] = 1;
    robot_refresh(r);
    return HS_OK;
}

hs_code hs_robot_set_base(hs_robot *r, const double m[16], hs_error *err)
{
    if (!r || !m)
        return err_set(err, HS_ERR_ARG, "hs_robot_set_base: NULL argument");
    if (!robot_pose_rigid(m))
        return err_set(err, HS_ERR_ARG, "hs_robot_set_base: not a rigid pose");
    memcpy(r->base, m, sizeof r->base);
    robot_refresh(r);
    return HS_OK;
}

void hs_robot_link_pose(const hs_robot *r, int i, double m[16])
{
    if (!r || i < 0 || i >= r->nlinks)
        hs_pose_identity(m);
    else
        memcpy(m, r->W + 16 * i, 16 * sizeof(double));
}
