/* batch.c -- many intersection queries, optionally on worker threads.
 * Each worker owns one scratch result (the fast engine's workspace lives
 * there), so the queries allocate nothing after the first ones; pairs are
 * handed out one at a time through an atomic counter, which balances the
 * load when pairs differ in cost. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "solver/result.h"
#include "polytope/error.h"
#include "polytope/mem.h"

typedef struct batch_job {
    const hs_poly *const *A;
    const hs_poly *const *B;
    size_t count;
    const hs_options *opt;
    hs_status *status;
    hs_result **results;
    atomic_size_t next;          /* next pair to take */
    pthread_mutex_t lock;        /* guards the first error */
    size_t first_failed;         /* count when none failed */
    hs_error first_err;
} batch_job;

static void record_failure(batch_job *job, size_t k, const hs_error *e)
{
    pthread_mutex_lock(&job->lock);
    if (k < job->first_failed) {
        job->first_failed = k;
        job->first_err = *e;
    }
    pthread_mutex_unlock(&job->lock);
}

static void *batch_worker(void *arg)
{
    batch_job *job = arg;
    hs_result *scratch = hs_result_new();
    for (;;) {
        size_t k = atomic_fetch_add(&job->next, 1);
        if (k >= job->count)
            break;
        hs_result *r = job->results ? job->results[k] : scratch;
        hs_error e;
        hs_error_clear(&e);
        hs_code rc = r ? hs_intersect(job->A[k], job->B[k], job->opt, r, &e)
                       : err_set(&e, HS_ERR_NOMEM, "out of memory");
        if (rc != HS_OK)
            record_failure(job, k, &e);
        else if (job->status)
            job->status[k] = hs_result_status(r);
    }
    hs_result_free(scratch);
    return NULL;
}

static int worker_count(int threads, const hs_options *opt, size_t count)
{
    if (opt && (opt->engine == HS_ENGINE_GLPK || opt->engine == HS_ENGINE_GLPK_EXACT))
        return 1; /* GLPK is not thread-safe */
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (int)cpus : 1;
    }
    if (threads < 1)
        threads = 1;
    if ((size_t)threads > count)
        threads = count > 0 ? (int)count : 1;
    return threads;
}

hs_code hs_intersect_batch(const hs_poly *const *A, const hs_poly *const *B, size_t count,
                           const hs_options *opt, int threads, hs_status *status,
                           hs_result **results, hs_error *err)
{
    if ((!A || !B) && count > 0)
        return err_set(err, HS_ERR_ARG, "hs_intersect_batch: A and B must not be NULL");
    if (threads < 0)
        return err_set(err, HS_ERR_ARG, "hs_intersect_batch: threads must be >= 0");
    batch_job job = {A, B, count, opt, status, results, 0, PTHREAD_MUTEX_INITIALIZER, count,
                     {HS_OK, ""}};
    int workers = worker_count(threads, opt, count);
    pthread_t *tid = mem_alloc((size_t)workers, sizeof *tid);
    if (!tid)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    int started = 0;
    for (int w = 1; w < workers; w++) /* the calling thread is worker 0 */
        if (pthread_create(&tid[started], NULL, batch_worker, &job) == 0)
            started++;
    batch_worker(&job);
    for (int w = 0; w < started; w++)
        pthread_join(tid[w], NULL);
    free(tid);
    pthread_mutex_destroy(&job.lock);
    if (job.first_failed < count) {
        if (err) {
            err->code = job.first_err.code;
            snprintf(err->msg, sizeof err->msg, "pair %zu: %.480s", job.first_failed + 1,
                     job.first_err.msg);
        }
        return job.first_err.code;
    }
    return HS_OK;
}
