/* pair_files.h -- the files in which bench/pairs_dump writes the pairs of
 * a family, DIR/A<k>.ine and DIR/B<k>.ine (k = 0 .. COUNT - 1), for the
 * programs that replay them (pairs_replay, cold_anatomy, ab_cold). */
#ifndef HS_BENCH_PAIR_FILES_H
#define HS_BENCH_PAIR_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "halfspace.h"

/* The path of pair k's polytope A (side 0) or B (side 1) in dir, into
 * out (size bytes, truncated as snprintf does). */
static inline void pair_file(char *out, size_t size, const char *dir, int side, int k)
{
    snprintf(out, size, "%s/%c%d.ine", dir, side ? 'B' : 'A', k);
}

/* Pairs 0 .. count - 1 of dir read (hs_poly_read) into A[k] and B[k]: 0,
 * or -1 at the first file that cannot be read (err says why; the pairs
 * read before it stay in A and B, the caller frees them). */
static inline int pair_files_read(const char *dir, int count, hs_poly **A, hs_poly **B,
                                  hs_error *err)
{
    for (int k = 0; k < count; k++) {
        char path[4096];
        pair_file(path, sizeof path, dir, 0, k);
        A[k] = hs_poly_read(path, err);
        pair_file(path, sizeof path, dir, 1, k);
        B[k] = A[k] ? hs_poly_read(path, err) : NULL;
        if (!B[k])
            return -1;
    }
    return 0;
}

#endif
