/* fuzz_cert.c -- libFuzzer harness of the certificate reader
 * (hs_result_parse, solver/result_read.c) and of the exact check that
 * follows it (hs_result_verify): the first byte gives the dimension n =
 * 1 + byte % 4, the rest is the certificate's text.  A certificate that
 * parses is checked against A = [0,1]^n and B = [1,2]^n (touching), and
 * written back as text and as JSON.  The reader takes the JSON form too
 * (solver/result_json.c): seeds of both forms are in corpus/cert/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_util.h"
#include "halfspace.h"

/* [lo, lo + 1]^n as .ine text, parsed. */
static hs_poly *unit_box(int n, int lo)
{
    char text[1024];
    int at = snprintf(text, sizeof text, "begin\n%d %d integer\n", 2 * n, n + 1);
    for (int i = 0; i < n; i++)
        for (int s = 0; s < 2; s++) { /* x_i <= lo + 1, -x_i <= -lo */
            at += snprintf(text + at, sizeof text - (size_t)at, "%d", s ? -lo : lo + 1);
            for (int j = 0; j < n; j++)
                at += snprintf(text + at, sizeof text - (size_t)at, " %d",
                               j == i ? (s ? 1 : -1) : 0);
            at += snprintf(text + at, sizeof text - (size_t)at, "\n");
        }
    snprintf(text + at, sizeof text - (size_t)at, "end\n");
    hs_error err;
    hs_poly *p = hs_poly_parse(text, "box.ine", &err);
    if (!p)
        abort();
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t size)
{
    if (size < 1)
        return 0;
    int n = 1 + d[0] % 4;
    char *text = fuzz_text(d + 1, size - 1);
    hs_error err;
    hs_result *r = hs_result_parse(text, "fuzz.cert", n, &err);
    if (r) {
        hs_poly *A = unit_box(n, 0), *B = unit_box(n, 1);
        hs_result_verify(r, A, B, &err);
        hs_result_verify(r, A, NULL, &err);
        FILE *null = fopen("/dev/null", "w");
        if (!null)
            abort();
        hs_result_write_text(r, null, &err);
        hs_result_write_json(r, null, &err);
        fclose(null);
        hs_poly_free(A);
        hs_poly_free(B);
    }
    hs_result_free(r);
    free(text);
    return 0;
}
