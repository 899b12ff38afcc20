/* cold_anatomy.c -- where a cold query's time goes: the pairs written by
 * bench/pairs_dump.c, each queried once per pass through the public API
 * (hs_poly_read, hs_intersect with the default fast engine), after one of
 * these preparations (untimed):
 *
 *   warm   nothing: the pairs back to back (all of them fit in the caches)
 *   cold   BYTES of a buffer touched one cache line at a time: the caches
 *          and the TLB hold none of the library's code or data, as after
 *          the other methods of bench/pairs (GLPK above all)
 *   code   cold, then the program's machine code read as data (it is in
 *          the unified L2/L3 caches; the pair's data, the result and the
 *          stack are not)
 *   other  cold, then one query of the next pair with a second result: the
 *          code, the stack and their TLB entries are warm, this pair's
 *          data and this result are not
 *   glpk   no sweep: the same pair solved by GLPK first (hs_intersect with
 *          HS_ENGINE_GLPK, a third result), as bench/pairs interleaves it
 *   glpk+other  glpk, then one query of the next pair with the second
 *          result (code and processor state warm, this pair's data not)
 *   glpk+same   glpk, then one query of this pair with the second result
 *          (its data warm too; only the first result is cold)
 *
 *   build/bench/cold_anatomy DIR COUNT [BYTES]
 *
 * prints, per preparation, the fastest of 5 passes in microseconds per
 * query.  The difference cold - code is what fetching the code costs a
 * cold query; code - warm and other - warm what its data costs; after
 * GLPK, glpk - glpk+other is the code's and the processor's share and
 * glpk+other - glpk+same the pair's data's.  (The
 * program's code is its executable segments, found by dl_iterate_phdr; on
 * systems without it the code preparation is skipped.)  A diagnostic, not
 * a benchmark of record: RESULTS.md quotes it with its command. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench/pair_files.h"
#include "halfspace.h"

#if defined(__linux__)
#include <link.h>
#define HAVE_TEXT_BOUNDS 1
#else
#define HAVE_TEXT_BOUNDS 0
#endif

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Reads every cache line of [p, p + bytes) (volatile reads: none is
 * left out by the compiler). */
static void touch(const volatile char *p, size_t bytes)
{
    for (size_t at = 0; at < bytes; at += 64)
        (void)p[at];
}

#if HAVE_TEXT_BOUNDS
/* The executable segments of the program itself (the first object that
 * dl_iterate_phdr reports), collected into a list of ranges. */
typedef struct text_ranges {
    const char *start[8];
    size_t bytes[8];
    int count;
} text_ranges;

static int text_of_program(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    text_ranges *t = data;
    for (int i = 0; i < info->dlpi_phnum && t->count < 8; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            t->start[t->count] = (const char *)(info->dlpi_addr + ph->p_vaddr);
            t->bytes[t->count++] = ph->p_memsz;
        }
    }
    return 1; /* the program only, not the shared libraries */
}
#endif

enum { WARM, COLD, CODE, OTHER, GLPK, GLPK_OTHER, GLPK_SAME, MODES };
static const char *const mode_name[MODES] = {"warm",  "cold",       "code",     "other",
                                             "glpk",  "glpk+other", "glpk+same"};

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: cold_anatomy DIR COUNT [BYTES]\n");
        return 2;
    }
    int count = atoi(argv[2]);
    size_t bytes = argc > 3 ? (size_t)atol(argv[3]) : (size_t)64 << 20;
    if (count < 2 || bytes < 64) {
        fprintf(stderr, "cold_anatomy: COUNT must be at least 2, BYTES at least 64\n");
        return 2;
    }
    hs_poly **A = calloc((size_t)count, sizeof *A), **B = calloc((size_t)count, sizeof *B);
    volatile char *buf = calloc(bytes, 1);
    hs_result *r = hs_result_new(), *r2 = hs_result_new(), *rg = hs_result_new();
    if (!A || !B || !buf || !r || !r2 || !rg) {
        fprintf(stderr, "cold_anatomy: out of memory\n");
        return 1;
    }
    hs_options opt, opt_glpk;
    hs_options_init(&opt);
    hs_options_init(&opt_glpk);
    opt_glpk.engine = HS_ENGINE_GLPK;
    hs_error err;
    if (pair_files_read(argv[1], count, A, B, &err) != 0) {
        fprintf(stderr, "cold_anatomy: %s\n", err.msg);
        return 1;
    }
    for (int k = 0; k < count; k++) {
        if (hs_intersect(A[k], B[k], &opt, r, &err) != HS_OK) { /* (lazy preparation) */
            fprintf(stderr, "cold_anatomy: pair %d: %s\n", k, err.msg);
            return 1;
        }
    }
#if HAVE_TEXT_BOUNDS
    text_ranges text = {.count = 0};
    dl_iterate_phdr(text_of_program, &text);
#endif
    for (int mode = 0; mode < MODES; mode++) {
        if (mode == CODE && !HAVE_TEXT_BOUNDS)
            continue;
        double best = -1;
        for (int rep = 0; rep < 5; rep++) {
            double total = 0;
            for (int k = 0; k < count; k++) {
                if (mode == GLPK || mode == GLPK_OTHER || mode == GLPK_SAME)
                    (void)hs_intersect(A[k], B[k], &opt_glpk, rg, &err);
                else if (mode != WARM) {
                    for (size_t at = 0; at < bytes; at += 64)
                        buf[at] = (char)(buf[at] + 1);
                }
#if HAVE_TEXT_BOUNDS
                for (int c = 0; mode == CODE && c < text.count; c++)
                    touch(text.start[c], text.bytes[c]);
#endif
                if (mode == OTHER || mode == GLPK_OTHER)
                    (void)hs_intersect(A[(k + 1) % count], B[(k + 1) % count], &opt, r2, &err);
                if (mode == GLPK_SAME)
                    (void)hs_intersect(A[k], B[k], &opt, r2, &err);
                double t = now_s();
                (void)hs_intersect(A[k], B[k], &opt, r, &err);
                total += now_s() - t;
            }
            if (best < 0 || total < best)
                best = total;
        }
        printf("%-10s %8.2f us per query\n", mode_name[mode], best * 1e6 / count);
    }
    for (int k = 0; k < count; k++) {
        hs_poly_free(A[k]);
        hs_poly_free(B[k]);
    }
    free(A);
    free(B);
    free((void *)buf);
    hs_result_free(r);
    hs_result_free(r2);
    hs_result_free(rg);
    return 0;
}
