/* pairs_dump.c -- writes the pairs of one bench/pairs family as .ine files,
 * so that any version of the library (through its public API alone) can
 * replay the same instances (bench/pairs_replay.c): used to profile the
 * fast engine before and after a change.
 *
 *   build/bench/pairs_dump FAMILY M COUNT DIR [DATA]
 *
 * writes DIR/A<k>.ine and DIR/B<k>.ine for k = 0..COUNT-1 (seed 1, as
 * bench/pairs; M is ignored by the hull family, whose meshes come from
 * DATA, default ../shared/data).  Exit 0, or 1 with a message. */
#include <stdio.h>
#include <stdlib.h>

#include "bench/families.h"
#include "bench/pair_files.h"
#include "halfspace.h"

static int write_poly(const char *dir, int side, int k, int m, const double *a, const double *b)
{
    hs_error err;
    hs_poly *P = hs_poly_from_doubles(3, m, a, b, NULL, &err);
    char path[4096];
    pair_file(path, sizeof path, dir, side, k);
    FILE *out = P ? fopen(path, "w") : NULL;
    int ok = out && hs_poly_write(P, out, &err) == HS_OK;
    if (out && fclose(out) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "pairs_dump: %s: %s\n", path, P ? "cannot write" : err.msg);
    hs_poly_free(P);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    fam_id f;
    if (argc < 5 || fam_from_name(argv[1], &f) != 0) {
        fprintf(stderr, "usage: pairs_dump FAMILY M COUNT DIR [DATA]\n");
        return 1;
    }
    int m = atoi(argv[2]), count = atoi(argv[3]);
    char note[512];
    fam_meshes *ms = NULL;
    if (fam_needs_meshes(f) && !(ms = fam_meshes_load(argc > 5 ? argv[5] : "../shared/data", note,
                                                sizeof note))) {
        fprintf(stderr, "pairs_dump: %s\n", note);
        return 1;
    }
    int rc = 0;
    for (int k = 0; k < count && rc == 0; k++) {
        fam_pair p;
        hs_error err;
        if (fam_make(f, 1, k, m, ms, &p, &err) != HS_OK) {
            fprintf(stderr, "pairs_dump: %s\n", err.msg);
            rc = 1;
            break;
        }
        if (write_poly(argv[4], 0, k, p.m[0], p.a[0], p.b[0]) != 0 ||
            write_poly(argv[4], 1, k, p.m[1], p.a[1], p.b[1]) != 0)
            rc = 1;
        fam_pair_free(&p);
    }
    fam_meshes_free(ms);
    return rc;
}
