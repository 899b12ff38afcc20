/* c_side.c -- the C half of bench/python: the same queries as the Python
 * driver (bench/python/bench.py), timed from C, so that the difference is
 * the cost of the binding.
 *
 * Usage: python_c DIR THREADS REPS SINGLE
 *        python_c states URDF SCENE QFILE N THREADS REPS
 *   DIR/pairs.txt   first line "pool K pairs N", then N lines "i j" (0-based
 *                   indices into the pool); DIR/p<i>.ine the K polytopes.
 *   THREADS         worker threads of hs_intersect_batch (0: one per CPU)
 *   REPS            repetitions of each measurement (the median is kept)
 *   SINGLE          how many of the pairs the single-call timing walks
 *
 * Measured (in CPU time of the process, CLOCK_PROCESS_CPUTIME_ID, so that
 * other jobs on a shared machine do not count; with THREADS > 1 the batch
 * in wall time, CLOCK_MONOTONIC, since the CPU time would add the threads):
 *   intersect   hs_intersect on pairs 0..SINGLE-1 with one reused
 *               hs_result, in blocks of 1000 calls: the per-call time of
 *               a block; the median over every block of every repetition.
 *   batch       hs_intersect_batch on all N pairs (statuses only), THREADS
 *               threads: the time over N; the median over REPS runs.
 * Output (stdout), one line each:
 *   c_intersect_us X
 *   c_batch_us X
 *   counts DISJOINT TOUCHING OVERLAP      (of the batch's answers)
 *
 * The states mode: the robot of URDF (the default options: meshes as hulls,
 * the skip list at the rest configuration) among the bodies of SCENE;
 * QFILE holds N configurations, dof doubles each (native byte order, as
 * numpy's tofile writes them).  hs_robot_check_states on all N rows with
 * THREADS threads, REPS times: the time over N (CPU time for 1 thread,
 * wall time otherwise); the median.  Output:
 *   c_states_us X
 *   labels FREE SELF WORLD BOTH            (how many rows of each) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "halfspace.h"
#include "bench/median.h"

static double now_on(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double cpu_now(void) { return now_on(CLOCK_PROCESS_CPUTIME_ID); }

static void die(const char *what, const hs_error *err)
{
    fprintf(stderr, "python_c: %s%s%s\n", what, err ? ": " : "", err ? err->msg : "");
    exit(2);
}

static int states_main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr, "usage: python_c states URDF SCENE QFILE N THREADS REPS\n");
        return 1;
    }
    long n = atol(argv[5]);
    int threads = atoi(argv[6]), reps = atoi(argv[7]);
    hs_error err;
    hs_robot *r = hs_robot_load(argv[2], NULL, &err);
    if (!r)
        die("loading the robot", &err);
    hs_world *w = hs_world_load(argv[3], &err);
    if (!w)
        die("loading the scene", &err);
    int dof = hs_robot_dof(r);
    if (n < 1 || reps < 1 || threads < 0)
        die("bad arguments", NULL);
    double *Q = malloc(sizeof(double) * (size_t)dof * (size_t)n);
    unsigned char *out = malloc((size_t)n);
    double *us = malloc(sizeof(double) * (size_t)reps);
    FILE *f = fopen(argv[4], "rb");
    if (!Q || !out || !us || !f || fread(Q, sizeof(double) * (size_t)dof, (size_t)n, f) != (size_t)n)
        die("reading the configurations", NULL);
    fclose(f);
    clockid_t clock = threads == 1 ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC;
    for (int rep = 0; rep < reps; rep++) {
        double t0 = now_on(clock);
        if (hs_robot_check_states(r, w, Q, (size_t)n, threads, out, &err) != HS_OK)
            die("hs_robot_check_states", &err);
        us[rep] = (now_on(clock) - t0) * 1e6 / (double)n;
    }
    long cnt[4] = {0, 0, 0, 0};
    for (long i = 0; i < n; i++)
        cnt[out[i] & 3]++;
    printf("c_states_us %.6g\n", bench_median(us, reps));
    printf("labels %ld %ld %ld %ld\n", cnt[0], cnt[1], cnt[2], cnt[3]);
    free(Q);
    free(out);
    free(us);
    hs_world_free(w);
    hs_robot_free(r);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "states") == 0)
        return states_main(argc, argv);
    if (argc != 5) {
        fprintf(stderr, "usage: python_c DIR THREADS REPS SINGLE\n");
        return 1;
    }
    const char *dir = argv[1];
    int threads = atoi(argv[2]), reps = atoi(argv[3]);
    long single = atol(argv[4]);
    char path[4096];
    snprintf(path, sizeof path, "%s/pairs.txt", dir);
    FILE *f = fopen(path, "r");
    int k;
    long n;
    if (!f || fscanf(f, "pool %d pairs %ld", &k, &n) != 2 || k < 1 || n < 1 || reps < 1)
        die("bad pairs.txt or arguments", NULL);
    hs_error err;
    hs_poly **pool = calloc((size_t)k, sizeof *pool);
    const hs_poly **A = calloc((size_t)n, sizeof *A), **B = calloc((size_t)n, sizeof *B);
    hs_status *st = calloc((size_t)n, sizeof *st);
    if (!pool || !A || !B || !st)
        die("out of memory", NULL);
    for (int i = 0; i < k; i++) {
        snprintf(path, sizeof path, "%s/p%d.ine", dir, i);
        if (!(pool[i] = hs_poly_read(path, &err)))
            die("reading the pool", &err);
    }
    for (long i = 0; i < n; i++) {
        int a, b;
        if (fscanf(f, "%d %d", &a, &b) != 2 || a < 0 || b < 0 || a >= k || b >= k)
            die("bad pair line", NULL);
        A[i] = pool[a];
        B[i] = pool[b];
    }
    fclose(f);
    if (single > n)
        single = n;

    hs_result *r = hs_result_new();
    long blocks = single / 1000;
    if (!r || blocks < 1)
        die("need SINGLE >= 1000", NULL);
    double *block_us = malloc((size_t)(blocks * reps) * sizeof *block_us);
    double *batch_us = malloc((size_t)reps * sizeof *batch_us);
    if (!block_us || !batch_us)
        die("out of memory", NULL);
    long nb = 0;
    for (long i = 0; i < 1000; i++) /* warm up: scratch, caches */
        hs_intersect(A[i % n], B[i % n], NULL, r, NULL);
    for (int rep = 0; rep < reps; rep++)
        for (long bl = 0; bl < blocks; bl++) {
            double t0 = cpu_now();
            for (long i = bl * 1000; i < (bl + 1) * 1000; i++)
                if (hs_intersect(A[i], B[i], NULL, r, &err) != HS_OK)
                    die("hs_intersect", &err);
            block_us[nb++] = (cpu_now() - t0) * 1e6 / 1000;
        }
    clockid_t clock = threads == 1 ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC;
    for (int rep = 0; rep < reps; rep++) {
        double t0 = now_on(clock);
        if (hs_intersect_batch(A, B, (size_t)n, NULL, threads, st, NULL, &err) != HS_OK)
            die("hs_intersect_batch", &err);
        batch_us[rep] = (now_on(clock) - t0) * 1e6 / (double)n;
    }
    long cnt[3] = {0, 0, 0};
    for (long i = 0; i < n; i++)
        cnt[st[i] == HS_DISJOINT ? 0 : st[i] == HS_TOUCHING ? 1 : 2]++;
    printf("c_intersect_us %.6g\n", bench_median(block_us, nb));
    printf("c_batch_us %.6g\n", bench_median(batch_us, reps));
    printf("counts %ld %ld %ld\n", cnt[0], cnt[1], cnt[2]);
    hs_result_free(r);
    for (int i = 0; i < k; i++)
        hs_poly_free(pool[i]);
    free(pool);
    free(A);
    free(B);
    free(st);
    free(block_us);
    free(batch_us);
    return 0;
}
