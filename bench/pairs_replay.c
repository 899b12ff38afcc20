/* pairs_replay.c -- replays the pairs written by bench/pairs_dump.c through
 * the public API only (hs_poly_read, hs_intersect with the default fast
 * engine), so that it builds against any version of the library:
 *
 *   build/bench/pairs_replay DIR COUNT [REPEATS]
 *
 * One untimed pass first (whatever is prepared lazily is prepared; not in
 * replay_pass, so that a profile of replay_pass leaves it out), then
 * REPEATS passes (default 5) in replay_pass, of which the fastest is
 * printed as microseconds per query with the classes found.  For an
 * instruction profile of the queries alone:
 *
 *   valgrind --tool=callgrind --toggle-collect=replay_pass \
 *       build/bench/pairs_replay DIR COUNT 1
 *   callgrind_annotate --inclusive=yes callgrind.out.PID
 *
 * (warm timing, back to back: for profiles and before/after comparisons on
 * one machine, not for the cold figures of bench/pairs).  After the timed
 * passes, one more pass queries each pair through replay_disjoint,
 * replay_overlap or replay_touching (by its answer in the untimed pass),
 * so that a profile of one class alone is
 *
 *   valgrind --tool=callgrind --toggle-collect=replay_disjoint \
 *       build/bench/pairs_replay DIR COUNT 0
 *
 * (instructions per query: the total over the class's count printed).
 * With the word `trace` for REPEATS, it prints instead each pair's answer
 * after every line of the fast engine's trace (its decisions, the rows of
 * its bases), nothing timed: two builds that print the same text took the
 * same steps to the same certificates,
 *
 *   build/bench/pairs_replay DIR COUNT trace > new.txt; cmp old.txt new.txt
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/pair_files.h"
#include "halfspace.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One query per pair; the classes counted into cls when not NULL.  Not
 * inlined, so that callgrind can collect it alone. */
__attribute__((noinline)) void replay_pass(hs_poly **A, hs_poly **B, int count,
                                           const hs_options *opt, hs_result *r, int *cls);
void replay_pass(hs_poly **A, hs_poly **B, int count, const hs_options *opt, hs_result *r,
                 int *cls)
{
    hs_error err;
    for (int k = 0; k < count; k++)
        if (hs_intersect(A[k], B[k], opt, r, &err) == HS_OK && cls)
            cls[hs_result_status(r)]++;
}

/* One query of a pair of one class, for a profile of that class alone. */
__attribute__((noinline)) void replay_disjoint(const hs_poly *A, const hs_poly *B,
                                               const hs_options *opt, hs_result *r);
__attribute__((noinline)) void replay_overlap(const hs_poly *A, const hs_poly *B,
                                              const hs_options *opt, hs_result *r);
__attribute__((noinline)) void replay_touching(const hs_poly *A, const hs_poly *B,
                                               const hs_options *opt, hs_result *r);
void replay_disjoint(const hs_poly *A, const hs_poly *B, const hs_options *opt, hs_result *r)
{
    hs_error err;
    hs_intersect(A, B, opt, r, &err);
}
void replay_overlap(const hs_poly *A, const hs_poly *B, const hs_options *opt, hs_result *r)
{
    hs_error err;
    hs_intersect(A, B, opt, r, &err);
}
void replay_touching(const hs_poly *A, const hs_poly *B, const hs_options *opt, hs_result *r)
{
    hs_error err;
    hs_intersect(A, B, opt, r, &err);
}

/* The trace callback of the `trace` mode: each line as it comes. */
static void print_line(void *user, const char *line)
{
    (void)user;
    printf("   %s\n", line);
}

/* Every pair's trace and answer (the `trace` mode): 0, or 1 on an error. */
static int print_traces(hs_poly **A, hs_poly **B, int count, hs_result *r)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.trace = print_line;
    for (int k = 0; k < count; k++) {
        hs_error err;
        printf("pair %d:\n", k);
        if (hs_intersect(A[k], B[k], &opt, r, &err) != HS_OK) {
            fprintf(stderr, "pairs_replay: pair %d: %s\n", k, err.msg);
            return 1;
        }
        printf("  => %s\n", hs_status_name(hs_result_status(r)));
    }
    return 0;
}

/* The timed passes and the passes by class (the default mode): 0, or 1
 * when out of memory. */
static int replay_timed(hs_poly **A, hs_poly **B, int count, int reps, hs_result *r)
{
    hs_error err;
    hs_options opt;
    hs_options_init(&opt);
    int cls[8] = {0};
    hs_status *st = calloc((size_t)count, sizeof *st);
    if (!st)
        return 1;
    for (int k = 0; k < count; k++) { /* the lazy preparations, outside replay_pass */
        st[k] = hs_intersect(A[k], B[k], &opt, r, &err) == HS_OK ? hs_result_status(r) : HS_INFEASIBLE;
        cls[st[k]]++;
    }
    double best = 1e300;
    for (int rep = 0; rep < reps; rep++) {
        double t = now_s();
        replay_pass(A, B, count, &opt, r, NULL);
        double d = now_s() - t;
        best = d < best ? d : best;
    }
    for (int k = 0; k < count; k++) /* each pair by its class, for profiles */
        if (st[k] == HS_DISJOINT)
            replay_disjoint(A[k], B[k], &opt, r);
        else if (st[k] == HS_OVERLAP)
            replay_overlap(A[k], B[k], &opt, r);
        else if (st[k] == HS_TOUCHING)
            replay_touching(A[k], B[k], &opt, r);
    if (reps > 0)
        printf("%.3g us per query (fastest of %d passes); ", best * 1e6 / count, reps);
    printf("disjoint %d, touching %d, overlap %d\n", cls[HS_DISJOINT], cls[HS_TOUCHING],
           cls[HS_OVERLAP]);
    free(st);
    return 0;
}

int main(int argc, char **argv)
{
    int tracing = argc > 3 && strcmp(argv[3], "trace") == 0;
    if (argc < 3 || atoi(argv[2]) < 1 || (argc > 3 && !tracing && atoi(argv[3]) < 0)) {
        fprintf(stderr, "usage: pairs_replay DIR COUNT [REPEATS | trace]\n");
        return 1;
    }
    int count = atoi(argv[2]), reps = argc > 3 && !tracing ? atoi(argv[3]) : 5;
    hs_poly **A = calloc((size_t)count, sizeof *A), **B = calloc((size_t)count, sizeof *B);
    hs_result *r = hs_result_new();
    if (!A || !B || !r)
        return 1;
    hs_error err;
    if (pair_files_read(argv[1], count, A, B, &err) != 0) {
        fprintf(stderr, "pairs_replay: %s\n", err.msg);
        return 1;
    }
    int rc = tracing ? print_traces(A, B, count, r) : replay_timed(A, B, count, reps, r);
    for (int k = 0; k < count; k++) {
        hs_poly_free(A[k]);
        hs_poly_free(B[k]);
    }
    free(A);
    free(B);
    hs_result_free(r);
    return rc;
}
