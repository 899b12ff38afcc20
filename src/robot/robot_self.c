/* robot_self.c -- self-collision of a robot: every tested pair of links
 * (both with pieces, neither adjacent nor skipped), with both links at
 * their world poses; balls around the links first, then their oriented
 * boxes and pieces (robot_pairs.c).  The incremental query keeps the
 * joint values of its last free answer: a pair is tested again only when
 * a joint changed since then lies between its two links in the tree
 * (exactly one of them below the joint), as ChainTree (seed 003) skips
 * the sub-chains that moved rigidly; after one joint moved, only its
 * subtree against the rest.  Large robots find candidate pairs by sorting
 * the balls along x (sweep and prune) instead of trying every pair.  Also
 * the automatic skip list, which takes every pair in collision now. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/robot/robot.h"
#include "src/shape/pose.h"

/* Joints moved since the last free answer (all: every pair). */
#define MOVED_MAX 64
typedef struct moved_set {
    int all, n;
    int j[MOVED_MAX];
} moved_set;

static void moved_joints(const hs_robot *r, moved_set *m)
{
    m->all = !r->have_free;
    m->n = 0;
    for (int j = 0; j < r->njoints && !m->all; j++) {
        const robot_joint *J = &r->joint[j];
        int moved = r->pose_moved[j] || J->q != r->q_free[j];
        if (!moved)
            continue;
        if (m->n == MOVED_MAX)
            m->all = 1;
        else
            m->j[m->n++] = j;
    }
}

/* Does a moved joint lie between links a and b? */
static int pair_moved(const hs_robot *r, const moved_set *m, int a, int b)
{
    if (m->all)
        return 1;
    for (int k = 0; k < m->n; k++) {
        int c = m->j[k] + 1;
        if (robot_below(r, c, a) != robot_below(r, c, b))
            return 1;
    }
    return 0;
}

/* The links' balls in the world (centre, radius: 4 doubles a link). */
static void link_balls(const hs_robot *r, const double *W, double *ball)
{
    for (int i = 0; i < r->nlinks; i++)
        if (r->link[i].npiece > 0) {
            pose_apply(W + 16 * i, r->link[i].ball_c, ball + 4 * i);
            ball[4 * i + 3] = r->link[i].ball_r;
        }
}

/* May the balls of a and b meet (conservatively: the rounding of the
 * centres, 2^-40 of their magnitude, is added to the radii)? */
static int balls_meet(const double *x, const double *y)
{
    double d2 = 0, mag = 0;
    for (int k = 0; k < 3; k++) {
        double d = x[k] - y[k];
        d2 += d * d;
        mag += fabs(x[k]) + fabs(y[k]);
    }
    double s = (x[3] + y[3]) * (1 + 0x1p-40) + mag * 0x1p-40;
    return d2 <= s * s;
}

typedef int (*pair_fn)(void *user, int a, int b);

/* Calls fn for pair (a, b), a < b, when it is tested, its balls meet and
 * (m not NULL) a moved joint lies between; nonzero from fn stops. */
static int try_pair(const hs_robot *r, const double *ball, const moved_set *m, int a, int b,
                    pair_fn fn, void *user)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    if ((m && !pair_moved(r, m, a, b)) || !balls_meet(ball + 4 * a, ball + 4 * b) ||
        robot_skip_reason(r, a, b) != HS_ROBOT_TESTED)
        return 0;
    return fn(user, a, b);
}

/* Links with pieces sorted by the low end of their ball along x. */
typedef struct swept {
    double lo;
    int link;
} swept;

static int by_low_end(const void *x, const void *y)
{
    const swept *p = x, *q = y;
    return p->lo < q->lo ? -1 : p->lo > q->lo ? 1 : (p->link > q->link) - (p->link < q->link);
}

/* Every candidate pair.  Few links: all pairs; many: sweep and prune
 * along x.  Returns the first nonzero of fn, 0, or -1 out of memory. */
static int each_pair(const hs_robot *r, const double *ball, const moved_set *m, pair_fn fn,
                     void *user)
{
    int with = 0;
    for (int i = 0; i < r->nlinks; i++)
        with += r->link[i].npiece > 0;
    if (with <= 48) {
        for (int a = 0; a < r->nlinks; a++) {
            if (r->link[a].npiece == 0)
                continue;
            for (int b = a + 1; b < r->nlinks; b++) {
                if (r->link[b].npiece == 0)
                    continue;
                int s = try_pair(r, ball, m, a, b, fn, user);
                if (s)
                    return s;
            }
        }
        return 0;
    }
    swept *v = mem_alloc((size_t)with, sizeof *v);
    if (!v)
        return -1;
    int n = 0;
    for (int i = 0; i < r->nlinks; i++)
        if (r->link[i].npiece > 0) {
            const double *b = ball + 4 * i;
            v[n].lo = b[0] - b[3] * (1 + 0x1p-40) - fabs(b[0]) * 0x1p-40;
            v[n++].link = i;
        }
    qsort(v, (size_t)n, sizeof *v, by_low_end);
    int s = 0;
    for (int k = 0; k < n && !s; k++) {
        const double *bk = ball + 4 * v[k].link;
        double hi = bk[0] + bk[3] * (1 + 0x1p-40) + fabs(bk[0]) * 0x1p-40;
        for (int l = k + 1; l < n && v[l].lo <= hi && !s; l++)
            s = try_pair(r, ball, m, v[k].link, v[l].link, fn, user);
    }
    free(v);
    return s;
}

typedef struct pair_job {
    const hs_robot *r;
    const double *W;
    robot_ws *ws;
    hs_error *err;
    robot_pairs *out; /* all pairs; NULL: stop at the first */
    int a, b;
    hs_status st;
    hs_code rc;
} pair_job;

static int self_test_pair(void *user, int a, int b)
{
    pair_job *job = user;
    hs_status st;
    job->rc = robot_links_test(job->ws, job->r, a, job->W + 16 * a, b, job->W + 16 * b,
                               !job->out, &st, job->err);
    if (job->rc != HS_OK)
        return -2;
    if (st == HS_DISJOINT)
        return 0;
    job->a = a;
    job->b = b;
    job->st = st;
    if (!job->out)
        return 1;
    if (robot_pairs_add(job->out, a, b, -1, st) != 0) {
        job->rc = err_set(job->err, HS_ERR_NOMEM, "out of memory");
        return -2;
    }
    return 0;
}

/* Run the pairs; 1 (a pair met, job->a, job->b), 0, or -1 (err set). */
static int run_pairs(const hs_robot *r, const double *ball, const moved_set *m, pair_job *job)
{
    int s = each_pair(r, ball, m, self_test_pair, job);
    if (s == -1)
        job->rc = err_set(job->err, HS_ERR_NOMEM, "out of memory");
    return s < 0 ? -1 : s;
}

int hs_robot_self_collision(hs_robot *r, int *a, int *b, hs_error *err)
{
    if (!r) {
        err_set(err, HS_ERR_ARG, "hs_robot_self_collision: NULL robot");
        return -1;
    }
    moved_set m;
    moved_joints(r, &m);
    if (m.all || m.n > 0) {
        robot_ws *ws = robot_scratch(r);
        if (!ws) {
            err_set(err, HS_ERR_NOMEM, "out of memory");
            return -1;
        }
        double *ball = r->scratch;
        link_balls(r, r->W, ball);
        pair_job job = {r, r->W, ws, err, NULL, -1, -1, HS_DISJOINT, HS_OK};
        int s = run_pairs(r, ball, &m, &job);
        if (s != 0) {
            if (s == 1 && a)
                *a = job.a;
            if (s == 1 && b)
                *b = job.b;
            return s;
        }
    }
    for (int j = 0; j < r->njoints; j++)
        r->q_free[j] = r->joint[j].q;
    memset(r->pose_moved, 0, (size_t)r->njoints);
    r->have_free = 1;
    return 0;
}

int robot_self_first(const hs_robot *r, const double *W, robot_ws *ws, double *ball, int *a,
                     int *b, hs_status *st, hs_error *err)
{
    link_balls(r, W, ball);
    pair_job job = {r, W, ws, err, NULL, -1, -1, HS_DISJOINT, HS_OK};
    int s = run_pairs(r, ball, NULL, &job);
    if (s == 1) {
        *a = job.a;
        *b = job.b;
        *st = job.st;
    }
    return s;
}

hs_code robot_self_all(const hs_robot *r, const double *W, robot_ws *ws, robot_pairs *out,
                       hs_error *err)
{
    double *ball = mem_alloc((size_t)r->nlinks, 4 * sizeof(double));
    if (!ball)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    link_balls(r, W, ball);
    pair_job job = {r, W, ws, err, out, -1, -1, HS_DISJOINT, HS_OK};
    run_pairs(r, ball, NULL, &job);
    free(ball);
    if (job.rc == HS_OK)
        robot_pairs_sort(out);
    return job.rc;
}

hs_code hs_robot_self_collision_all(const hs_robot *r, hs_robot_pair **pairs, int *n,
                                    hs_error *err)
{
    if (!r || !pairs || !n)
        return err_set(err, HS_ERR_ARG, "hs_robot_self_collision_all: NULL argument");
    robot_ws ws;
    if (robot_ws_init(&ws) != 0) {
        robot_ws_free(&ws);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    robot_pairs l = {NULL, 0, 0};
    hs_code rc = robot_self_all(r, r->W, &ws, &l, err);
    robot_ws_free(&ws);
    if (rc != HS_OK) {
        free(l.p);
        return rc;
    }
    *pairs = l.p;
    *n = l.n;
    return HS_OK;
}

hs_code hs_robot_auto_skip(hs_robot *r, int **pairs, int *npairs, hs_error *err)
{
    if (pairs)
        *pairs = NULL;
    if (npairs)
        *npairs = 0;
    if (!r)
        return err_set(err, HS_ERR_ARG, "hs_robot_auto_skip: NULL robot");
    robot_ws *ws = robot_scratch(r);
    if (!ws)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    robot_pairs l = {NULL, 0, 0};
    hs_code rc = robot_self_all(r, r->W, ws, &l, err);
    int *out = NULL;
    if (rc == HS_OK && pairs && l.n > 0 && !(out = malloc(sizeof(int) * 2 * (size_t)l.n)))
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int k = 0; k < l.n && rc == HS_OK; k++) {
        if (robot_skip_set(r, l.p[k].a, l.p[k].b, HS_ROBOT_REST) != 0)
            rc = err_set(err, HS_ERR_NOMEM, "out of memory");
        if (out) {
            out[2 * k] = l.p[k].a;
            out[2 * k + 1] = l.p[k].b;
        }
    }
    free(l.p);
    if (rc != HS_OK) {
        free(out);
        return rc;
    }
    if (pairs)
        *pairs = out;
    if (npairs)
        *npairs = l.n;
    return HS_OK;
}
