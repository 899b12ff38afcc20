/* fuzz_batch.c -- libFuzzer harness of the batch list reader
 * (src/cli/batch_list.c): any text as the list "fuzz/list.txt"; its
 * members are served from memory (names ending in a.ine and b.ine: two
 * 2-D boxes, c.ine: a 3-D one; any other name: "cannot open"), so no
 * file is read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_util.h"
#include "halfspace.h"
#include "src/cli/batch_list.h"

typedef struct members {
    hs_poly *a, *b, *c;
} members;

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

static const hs_poly *serve(void *user, const char *path, hs_error *err)
{
    members *m = user;
    if (ends_with(path, "a.ine"))
        return m->a;
    if (ends_with(path, "b.ine"))
        return m->b;
    if (ends_with(path, "c.ine"))
        return m->c;
    hs_error_clear(err);
    snprintf(err->msg, sizeof err->msg, "%s: cannot open: No such file", path);
    err->code = HS_ERR_IO;
    return NULL;
}

static hs_poly *poly(const char *text)
{
    hs_error err;
    hs_poly *p = hs_poly_parse(text, "member.ine", &err);
    if (!p)
        abort();
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    static members m;
    if (!m.a) { /* made once, kept for the whole run */
        m.a = poly("begin\n4 3 integer\n1 -1 0\n1 0 -1\n0 1 0\n0 0 1\nend\n");
        m.b = poly("begin\n4 3 integer\n2 -1 0\n2 0 -1\n-1 1 0\n-1 0 1\nend\n");
        m.c = poly("begin\n4 4 integer\n1 -1 -1 -1\n0 1 0 0\n0 0 1 0\n0 0 0 1\nend\n");
    }
    char *text = fuzz_text(d, n);
    batch_list bl;
    hs_error err;
    batch_list_parse(&bl, text, "fuzz/list.txt", serve, &m, &err);
    batch_list_free(&bl);
    free(text);
    return 0;
}
