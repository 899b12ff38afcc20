/* ab_cold.c -- two builds of the library side by side, cold: the pairs
 * written by bench/pairs_dump.c, loaded by each build (dlopen of two
 * shared libraries), each pair queried by both builds once per repeat
 * (hs_intersect, the default fast engine), the pairs in a new random order
 * every repeat, the two builds' turns alternating, and before every timed
 * query the same pair solved by GLPK (as bench/pairs interleaves it: the
 * caches, the TLB and the branch predictors hold GLPK's state, not ours).
 *
 *   build/bench/ab_cold LIB_A LIB_B DIR COUNT [REPEATS]
 *
 * LIB_A and LIB_B are two different files (copies of libhalfspace.so.*
 * from two builds; the same file twice is one library to the loader, and
 * the program refuses it).  It prints the mean over the pairs of each
 * pair's fastest query (REPEATS, default 9), per build and per class of
 * the answer, and B / A.  The answers of the two builds must be the same
 * (status of every pair), or it stops.
 *
 * The library loaded second measured 10-25% slower than the first on the
 * same code (2-CPU AMD EPYC VM, 2026-11-27): where the loader and malloc
 * place each build's code and data matters that much.  Run both orders
 * and take the geometric mean: new / old = sqrt((B/A with the new second)
 * / (B/A with the old second)).  A diagnostic for comparing two commits,
 * not a benchmark of record: RESULTS.md quotes it with its commands. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench/pair_files.h"
#include "halfspace.h"

typedef struct build {
    hs_poly *(*read)(const char *, hs_error *);
    hs_code (*intersect)(const hs_poly *, const hs_poly *, const hs_options *, hs_result *,
                         hs_error *);
    hs_result *(*result_new)(void);
    void (*result_free)(hs_result *);
    void (*options_init)(hs_options *);
    hs_status (*status)(const hs_result *);
    void (*poly_free)(hs_poly *);
    const char *(*name)(hs_status);
    hs_poly **A, **B;
    hs_result *r;
    hs_options fast, glpk;
    double *best;
} build;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *sym(void *h, const char *name, const char *path)
{
    void *f = dlsym(h, name);
    if (!f) {
        fprintf(stderr, "ab_cold: %s: no symbol %s\n", path, name);
        exit(1);
    }
    return f;
}

/* The build in the shared library at path, with the COUNT pairs of dir
 * read and queried once (their preparations made, untimed). */
static void load(build *b, const char *path, const char *dir, int count)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "ab_cold: %s\n", dlerror());
        exit(1);
    }
    *(void **)&b->read = sym(h, "hs_poly_read", path);
    *(void **)&b->intersect = sym(h, "hs_intersect", path);
    *(void **)&b->result_new = sym(h, "hs_result_new", path);
    *(void **)&b->result_free = sym(h, "hs_result_free", path);
    *(void **)&b->options_init = sym(h, "hs_options_init", path);
    *(void **)&b->status = sym(h, "hs_result_status", path);
    *(void **)&b->poly_free = sym(h, "hs_poly_free", path);
    *(void **)&b->name = sym(h, "hs_status_name", path);
    b->A = calloc((size_t)count, sizeof *b->A);
    b->B = calloc((size_t)count, sizeof *b->B);
    b->best = malloc(sizeof *b->best * (size_t)count);
    b->r = b->result_new();
    if (!b->A || !b->B || !b->best || !b->r) {
        fprintf(stderr, "ab_cold: out of memory\n");
        exit(1);
    }
    b->options_init(&b->fast);
    b->options_init(&b->glpk);
    b->glpk.engine = HS_ENGINE_GLPK;
    for (int k = 0; k < count; k++) {
        char p[4096];
        hs_error err;
        for (int s = 0; s < 2; s++) {
            pair_file(p, sizeof p, dir, s, k);
            hs_poly *P = b->read(p, &err);
            if (!P) {
                fprintf(stderr, "%s\n", err.msg);
                exit(1);
            }
            (s ? b->B : b->A)[k] = P;
        }
        if (b->intersect(b->A[k], b->B[k], &b->fast, b->r, &err) != HS_OK) {
            fprintf(stderr, "ab_cold: %s pair %d: %s\n", path, k, err.msg);
            exit(1);
        }
        b->best[k] = 1e300;
    }
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: ab_cold LIB_A LIB_B DIR COUNT [REPEATS]\n");
        return 2;
    }
    struct stat sa, sb;
    if (stat(argv[1], &sa) != 0 || stat(argv[2], &sb) != 0) {
        fprintf(stderr, "ab_cold: cannot read %s or %s\n", argv[1], argv[2]);
        return 2;
    }
    if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino) {
        fprintf(stderr, "ab_cold: %s and %s are one file (copy one of them)\n", argv[1], argv[2]);
        return 2;
    }
    int count = atoi(argv[4]), repeats = argc > 5 ? atoi(argv[5]) : 9;
    if (count < 1 || repeats < 1) {
        fprintf(stderr, "ab_cold: COUNT and REPEATS must be positive\n");
        return 2;
    }
    build L[2];
    load(&L[0], argv[1], argv[3], count);
    load(&L[1], argv[2], argv[3], count);
    int *status = malloc(sizeof *status * (size_t)count);
    int *order = malloc(sizeof *order * (size_t)count);
    if (!status || !order)
        return 1;
    for (int k = 0; k < count; k++) {
        hs_error err;
        for (int w = 0; w < 2; w++)
            L[w].intersect(L[w].A[k], L[w].B[k], &L[w].fast, L[w].r, &err);
        status[k] = (int)L[0].status(L[0].r);
        if (status[k] != (int)L[1].status(L[1].r)) {
            fprintf(stderr, "ab_cold: pair %d: the two builds answer differently\n", k);
            return 1;
        }
        order[k] = k;
    }
    unsigned long long rng = 0x9e3779b97f4a7c15ULL;
    for (int rep = 0; rep < repeats; rep++) {
        for (int k = count - 1; k > 0; k--) { /* a new order (xorshift) */
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            int j = (int)(rng % (unsigned long long)(k + 1)), t = order[k];
            order[k] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < count; i++) {
            int k = order[i];
            for (int turn = 0; turn < 2; turn++) {
                build *b = &L[(turn + rep + i) & 1];
                hs_error err;
                L[0].intersect(L[0].A[k], L[0].B[k], &L[0].glpk, L[0].r, &err);
                double t = now_s();
                b->intersect(b->A[k], b->B[k], &b->fast, b->r, &err);
                t = now_s() - t;
                if (t < b->best[k])
                    b->best[k] = t;
            }
        }
    }
    double all[2] = {0, 0};
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < count; k++)
            all[w] += L[w].best[k];
    printf("%s: %d pairs, fastest of %d: A %.3f us, B %.3f us, B / A %.3f\n", argv[3], count,
           repeats, all[0] / count * 1e6, all[1] / count * 1e6, all[1] / all[0]);
    for (int s = HS_INFEASIBLE; s <= HS_CONTACT; s++) {
        double sum[2] = {0, 0};
        int n = 0;
        for (int k = 0; k < count; k++)
            if (status[k] == s) {
                sum[0] += L[0].best[k];
                sum[1] += L[1].best[k];
                n++;
            }
        if (n)
            printf("  %-10s %3d pairs: A %.3f us, B %.3f us\n", L[0].name((hs_status)s), n,
                   sum[0] / n * 1e6,
                   sum[1] / n * 1e6);
    }
    for (int w = 0; w < 2; w++) {
        for (int k = 0; k < count; k++) {
            L[w].poly_free(L[w].A[k]);
            L[w].poly_free(L[w].B[k]);
        }
        L[w].result_free(L[w].r);
        free(L[w].A);
        free(L[w].B);
        free(L[w].best);
    }
    free(status);
    free(order);
    return 0;
}
