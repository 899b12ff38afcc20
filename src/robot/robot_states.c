/* robot_states.c -- hs_robot_check_states: many configurations of a robot
 * answered at once, on worker threads, without changing the robot.
 *
 * Each worker owns the kinematic state of the configurations it answers
 * (the links' world poses, robot_poses_at, and their balls) and the
 * scratch of the tests (a robot_ws: the narrow phase, the certified
 * shortcuts, the memos of moved boxes); the robot's links, pieces, skip
 * list and the world are shared and only read.  Rows are handed out one
 * at a time through an atomic counter, which balances the load when
 * configurations differ in cost (a free one far from everything is
 * decided by balls, one near contact by the exact tests).
 *
 * Every row is answered from scratch: all its link poses computed, every
 * tested pair of links tried (the tests of hs_robot_check, without the
 * incremental record), then every link against the world.  Its answer
 * depends on its numbers only, never on which worker took it or what that
 * worker answered before, so the output is the same for any number of
 * threads. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/robot/robot.h"

typedef struct states_job {
    const hs_robot *r;
    const hs_world *w;
    const double *Q;
    size_t n;
    unsigned char *out;
    atomic_size_t next;       /* next row to take */
    pthread_mutex_t lock;     /* guards the first failure */
    size_t first_failed;      /* n when none failed */
    hs_error first_err;
} states_job;

static void states_failed(states_job *job, size_t k, const hs_error *e)
{
    pthread_mutex_lock(&job->lock);
    if (k < job->first_failed) {
        job->first_failed = k;
        job->first_err = *e;
    }
    pthread_mutex_unlock(&job->lock);
}

/* The answer for the configuration q with the worker's state: 0, 1
 * (self), 2 (world), 3 (both), or -1 (err set). */
static int states_answer(const states_job *job, robot_ws *ws, double *W, double *ball,
                         const double *q, hs_error *err)
{
    const hs_robot *r = job->r;
    robot_poses_at(r, q, W);
    robot_cert_reset(&ws->cert);
    int a, b, link, body;
    hs_status st;
    int self = robot_self_first(r, W, ws, ball, &a, &b, &st, err);
    if (self < 0)
        return -1;
    int world = 0;
    if (job->w && (world = robot_world_first(r, job->w, W, ws, &link, &body, &st, err)) < 0)
        return -1;
    return self | world << 1;
}

static void *states_worker(void *arg)
{
    states_job *job = arg;
    const hs_robot *r = job->r;
    size_t dof = (size_t)r->dof;
    robot_ws ws;
    int ok = robot_ws_init(&ws) == 0;
    double *W = mem_alloc((size_t)r->nlinks, 16 * sizeof(double));
    double *ball = mem_alloc((size_t)r->nlinks, 4 * sizeof(double));
    ok = ok && W && ball;
    for (;;) {
        size_t k = atomic_fetch_add(&job->next, 1);
        if (k >= job->n)
            break;
        hs_error e;
        hs_error_clear(&e);
        int s = -1;
        if (!ok)
            err_set(&e, HS_ERR_NOMEM, "out of memory");
        else
            s = states_answer(job, &ws, W, ball, job->Q ? job->Q + k * dof : NULL, &e);
        if (s < 0) {
            states_failed(job, k, &e);
            /* nothing after the first failure is needed */
            atomic_store(&job->next, job->n);
            break;
        }
        job->out[k] = (unsigned char)s;
    }
    free(W);
    free(ball);
    robot_ws_free(&ws);
    return NULL;
}

static int states_thread_count(int threads, size_t n)
{
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (int)cpus : 1;
    }
    if (threads > 256)
        threads = 256;
    if ((size_t)threads > n)
        threads = n > 0 ? (int)n : 1;
    return threads;
}

/* The first error as the caller sees it: "configuration K: ...". */
static hs_code states_report(hs_error *err, size_t k, const hs_error *e)
{
    if (err) {
        err->code = e->code;
        snprintf(err->msg, sizeof err->msg, "hs_robot_check_states: configuration %zu: %.440s",
                 k + 1, e->msg);
    }
    return e->code;
}

hs_code hs_robot_check_states(const hs_robot *r, const hs_world *w, const double *Q, size_t n,
                              int threads, unsigned char *out, hs_error *err)
{
    if (!r || (n > 0 && !out) || (n > 0 && r->dof > 0 && !Q))
        return err_set(err, HS_ERR_ARG, "hs_robot_check_states: NULL argument");
    if (threads < 0)
        return err_set(err, HS_ERR_ARG, "hs_robot_check_states: threads must be >= 0");
    size_t dof = (size_t)r->dof;
    for (size_t k = 0; k < n; k++) {
        const double *q = r->dof > 0 ? Q + k * dof : NULL;
        if (robot_check_q(r, q, r->dof, "hs_robot_check_states", NULL) != HS_OK) {
            char fn[64]; /* again, to name the row in the message */
            snprintf(fn, sizeof fn, "hs_robot_check_states: configuration %zu", k + 1);
            return robot_check_q(r, q, r->dof, fn, err);
        }
    }
    if (n == 0)
        return HS_OK;
    states_job job = {r, w, r->dof > 0 ? Q : NULL, n, out, 0, PTHREAD_MUTEX_INITIALIZER, n,
                      {HS_OK, ""}};
    int workers = states_thread_count(threads, n);
    pthread_t *tid = workers > 1 ? mem_alloc((size_t)workers, sizeof *tid) : NULL;
    if (workers > 1 && !tid)
        workers = 1; /* the calling thread alone */
    int started = 0;
    for (int t = 1; t < workers; t++) /* the calling thread is worker 0 */
        if (pthread_create(&tid[started], NULL, states_worker, &job) == 0)
            started++;
    states_worker(&job);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    free(tid);
    pthread_mutex_destroy(&job.lock);
    if (job.first_failed < n)
        return states_report(err, job.first_failed, &job.first_err);
    return HS_OK;
}
