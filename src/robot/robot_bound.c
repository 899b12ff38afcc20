/* robot_bound.c -- the two ingredients of the guaranteed motion check
 * (robot_motion.c), Schwarzer, Saha and Latombe's adaptive method:
 *
 * How far a link can move.  Along q(t) = (1 - t) qa + t qb every joint
 * value moves at the constant rate dq_j (a mimic joint: multiplier times
 * its leader's).  A point p of link x moves, relative to the frame of an
 * ancestor link f (or to the world), at the speed
 *     |sum over the joints k between f and x of
 *         dq_k (a_k x (p - o_k))   (revolute, continuous)
 *       + dq_k a_k                 (prismatic)|
 *  <= sum |dq_k| |p - o_k| + sum |dq_k|,
 * o_k the origin of joint k's child frame, a point of its axis.  And
 * |p - o_k| <= D(k, x) + reach(x) whatever the configuration: D(k, x) is
 * the sum, over the joints i after k down to x, of |t_i| (the origin's
 * translation) plus, for a prismatic joint, the largest |q_i| on the
 * motion (the larger of its two ends) and, for a floating or planar one,
 * the length of its translation; reach(x) bounds the distance from x's
 * origin to its pieces.  Over [t0, t1] every point of x thus moves by at
 * most (t1 - t0) lambda_x(f), lambda_x(f) = sum_k |dq_k| (D(k, x) +
 * reach(x)) [revolute] + sum_k |dq_k| [prismatic], and two links x, y
 * approach each other by at most (t1 - t0) (lambda_x(f) + lambda_y(f)),
 * f their nearest common ancestor (distances do not depend on the frame);
 * a link and a body of the world by (t1 - t0) lambda_x(world).  Every sum
 * is rounded up.
 *
 * How far apart they are.  Certified lower bounds on the distance between
 * two posed links, or a link and a body: the oriented boxes first
 * (hs_obb_distance_lower_bound, rounded down, boxes that contain the
 * pieces for every rounding), then per pair of pieces GJK with every
 * support's rounding bounded (robot_certify.c), stopping once the bound is
 * enough for the question asked. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/robot/robot_motion.h"
#include "src/world/world.h"

#define UP (1 + 0x1p-50)

/* |t| of a pose's translation, rounded up. */
static double shift(const double m[16])
{
    return sqrt(m[3] * m[3] + m[7] * m[7] + m[11] * m[11]) * UP * UP;
}

/* The largest distance joint j's child frame origin can have from its
 * parent's over the motion (rounded up). */
static double joint_reach(const hs_robot *r, int j, const double *va, const double *vb)
{
    const robot_joint *J = &r->joint[j];
    double s = shift(J->origin);
    if (J->type == HS_ROBOT_PRISMATIC)
        s = (s + fmax(fabs(va[j]), fabs(vb[j]))) * UP;
    else if (J->type == HS_ROBOT_FLOATING || J->type == HS_ROBOT_PLANAR)
        s = (s + shift(J->free)) * UP;
    return s;
}

/* The value of every joint at the two ends (own value for joints that do
 * not move with the coordinates). */
static void joint_values(const hs_robot *r, const double *q, double *v)
{
    for (int j = 0; j < r->njoints; j++) {
        const robot_joint *J = &r->joint[j];
        v[j] = J->coord >= 0 ? q[J->coord]
               : J->mimic >= 0 ? J->mult * q[r->joint[J->mimic].coord] + J->offset
                               : J->q;
    }
}

hs_code robot_motion_rates(const hs_robot *r, const double *qa, const double *qb,
                           motion_rates *mr, hs_error *err)
{
    int n = r->njoints;
    mr->dq = mem_alloc((size_t)n + 1, sizeof(double));
    mr->step = mem_alloc((size_t)n + 1, sizeof(double));
    double *va = mem_alloc((size_t)n + 1, sizeof(double)), *vb = mem_alloc((size_t)n + 1,
                                                                          sizeof(double));
    if (!mr->dq || !mr->step || !va || !vb) {
        free(va);
        free(vb);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    joint_values(r, qa, va);
    joint_values(r, qb, vb);
    for (int j = 0; j < n; j++) {
        const robot_joint *J = &r->joint[j];
        int moves = J->type == HS_ROBOT_REVOLUTE || J->type == HS_ROBOT_CONTINUOUS ||
                    J->type == HS_ROBOT_PRISMATIC;
        mr->dq[j] = moves ? fabs(vb[j] - va[j]) * UP : 0;
        mr->step[j] = joint_reach(r, j, va, vb);
    }
    free(va);
    free(vb);
    return HS_OK;
}

void robot_motion_rates_free(motion_rates *mr)
{
    free(mr->dq);
    free(mr->step);
    memset(mr, 0, sizeof *mr);
}

/* lambda_x relative to its ancestor f (f = -1: the world): the joints
 * from x up to f, each with D, the bound on its distance to x's origin,
 * grown as the walk climbs. */
static double rate_below(const hs_robot *r, const motion_rates *mr, int x, int f)
{
    double D = 0, sum = 0, reach = r->link[x].reach;
    for (int y = x; y > 0 && y != f; y = r->joint[y - 1].parent) {
        int j = y - 1;
        const robot_joint *J = &r->joint[j];
        if (J->type == HS_ROBOT_PRISMATIC)
            sum = (sum + mr->dq[j]) * UP;
        else if (J->type == HS_ROBOT_REVOLUTE || J->type == HS_ROBOT_CONTINUOUS)
            sum = (sum + mr->dq[j] * ((D + reach) * UP)) * UP;
        D = (D + mr->step[j]) * UP;
    }
    return sum;
}

/* The nearest common ancestor of links x and y. */
static int common_ancestor(const hs_robot *r, int x, int y)
{
    while (x != y) {
        if (r->link[x].depth >= r->link[y].depth)
            x = r->joint[x - 1].parent;
        else
            y = r->joint[y - 1].parent;
    }
    return x;
}

double robot_pair_rate(const hs_robot *r, const motion_rates *mr, int x, int y)
{
    if (y < 0)
        return rate_below(r, mr, x, -1);
    int f = common_ancestor(r, x, y);
    return (rate_below(r, mr, x, f) + rate_below(r, mr, y, f)) * UP;
}

/* ------------------------------------------------------------ distances */

/* The box of piece (or link) box b moved by P. */
static void moved_box(hs_obb *out, const hs_obb *b, const double P[16])
{
    hs_obb_transform(out, b, P);
}

double robot_links_lower_bound(robot_ws *ws, const hs_robot *r, int a, const double A[16],
                               int b, const double B[16], double enough, double *dir)
{
    const robot_link *La = &r->link[a], *Lb = &r->link[b];
    double lb = hs_obb_distance_lower_bound(robot_link_box(ws, r, a, A),
                                            robot_link_box(ws, r, b, B));
    if (lb >= enough)
        return lb;
    double best = HUGE_VAL;
    for (int i = 0; i < La->npiece && best > 0; i++)
        for (int k = 0; k < Lb->npiece && best > 0; k++) {
            int one = La->npiece == 1 && Lb->npiece == 1;
            double d = robot_cert_lower_bound(&ws->cert, La->piece[i], A, Lb->piece[k], B,
                                              enough, one ? dir : NULL);
            if (La->npiece > 1 || Lb->npiece > 1) {
                hs_obb pa, pb;
                moved_box(&pa, &La->piece[i]->obb, A);
                moved_box(&pb, &Lb->piece[k]->obb, B);
                d = fmax(d, hs_obb_distance_lower_bound(&pa, &pb));
            }
            if (d < best)
                best = d;
        }
    return fmax(lb, best);
}

double robot_link_body_lower_bound(robot_ws *ws, const hs_robot *r, int a, const double A[16],
                                   const hs_body *bd, double enough, double *dir)
{
    const robot_link *La = &r->link[a];
    hs_obb oa = *robot_link_box(ws, r, a, A);
    double best = HUGE_VAL;
    for (int k = 0; k < bd->npieces && best > 0; k++) {
        hs_obb pb = *robot_body_box(ws, bd, k, &pb);
        double d = hs_obb_distance_lower_bound(&oa, &pb);
        if (d >= enough) {
            best = fmin(best, d);
            continue;
        }
        for (int i = 0; i < La->npiece && best > 0; i++) {
            int one = La->npiece == 1 && bd->npieces == 1;
            double e = robot_cert_lower_bound(&ws->cert, La->piece[i], A, bd->piece[k],
                                              bd->pose, enough, one ? dir : NULL);
            if (La->npiece > 1) {
                hs_obb pa;
                moved_box(&pa, &La->piece[i]->obb, A);
                e = fmax(e, hs_obb_distance_lower_bound(&pa, &pb));
            }
            best = fmin(best, fmax(e, d));
        }
    }
    return best;
}
