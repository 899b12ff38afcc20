/* fuzz_ine.c -- libFuzzer harness of the .ine reader (hs_poly_parse,
 * polytope/ine_read.c): any text; a system that parses is written back
 * with hs_poly_write and read again, and must give the same rows (a
 * difference aborts: a finding). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_util.h"
#include "halfspace.h"

static void same_system(const hs_poly *p, const hs_poly *q)
{
    int n = hs_poly_dim(p), m = hs_poly_rows(p);
    if (hs_poly_dim(q) != n || hs_poly_rows(q) != m)
        abort();
    double *a = malloc(sizeof(double) * (size_t)(2 * n + 2));
    if (!a)
        abort();
    for (int i = 0; i < m; i++) {
        double b, c;
        int ex1 = hs_poly_row(p, i, a, &b), ex2 = hs_poly_row(q, i, a + n + 1, &c);
        if (ex1 != ex2 || b != c || memcmp(a, a + n + 1, sizeof(double) * (size_t)n) != 0 ||
            hs_poly_row_is_eq(p, i) != hs_poly_row_is_eq(q, i))
            abort();
    }
    free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char *text = fuzz_text(d, n);
    hs_error err;
    hs_poly *p = hs_poly_parse(text, "fuzz.ine", &err);
    if (p) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (!f || hs_poly_write(p, f, &err) != HS_OK || fclose(f) != 0)
            abort();
        hs_poly *q = hs_poly_parse(buf, "written.ine", &err);
        if (!q)
            abort(); /* what we write must read back */
        same_system(p, q);
        hs_poly_free(q);
        free(buf);
    }
    hs_poly_free(p);
    free(text);
    return 0;
}
