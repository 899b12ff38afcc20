/* fuzz_util.c -- the helpers of the fuzz harnesses (fuzz_util.h). */
#include "fuzz/fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_folder[64];
static char fuzz_names[8][64]; /* files written, removed at exit */
static int fuzz_nnames;

static void fuzz_cleanup(void)
{
    char path[160];
    for (int k = 0; k < fuzz_nnames; k++) {
        snprintf(path, sizeof path, "%s/%s", fuzz_folder, fuzz_names[k]);
        unlink(path);
    }
    if (fuzz_folder[0])
        rmdir(fuzz_folder);
}

const char *fuzz_dir(void)
{
    if (!fuzz_folder[0]) {
        strcpy(fuzz_folder, "/tmp/hs-fuzz-XXXXXX");
        if (!mkdtemp(fuzz_folder))
            abort();
        atexit(fuzz_cleanup);
    }
    return fuzz_folder;
}

char *fuzz_text(const uint8_t *d, size_t n)
{
    char *t = malloc(n + 1);
    if (!t)
        abort();
    if (n)
        memcpy(t, d, n);
    t[n] = '\0';
    return t;
}

const char *fuzz_file(const char *name, const uint8_t *d, size_t n)
{
    static char path[160];
    int known = 0;
    for (int k = 0; k < fuzz_nnames; k++)
        known |= strcmp(fuzz_names[k], name) == 0;
    if (!known) {
        if (fuzz_nnames == 8 || strlen(name) >= sizeof fuzz_names[0])
            abort();
        strcpy(fuzz_names[fuzz_nnames++], name);
    }
    snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(d, 1, n, f) != n || fclose(f) != 0)
        abort();
    return path;
}
