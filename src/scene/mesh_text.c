/* mesh_text.c -- the tokens of the text mesh formats (OFF, OBJ, ASCII
 * STL): numbers in the forms those formats allow, and lines with their
 * '#' comments removed. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "src/scene/mesh.h"

int mesh_parse_real(const char *t, double *v)
{
    if (!*t || strspn(t, "0123456789+-.eE") != strlen(t))
        return 0;
    char *end;
    *v = strtod(t, &end);
    return *end == '\0' && isfinite(*v);
}

int mesh_parse_int32(const char *t, long *v)
{
    if (!*t || strspn(t, "0123456789+-") != strlen(t))
        return 0;
    char *end;
    long long x = strtoll(t, &end, 10);
    if (*end != '\0' || x > INT32_MAX || x < INT32_MIN)
        return 0;
    *v = (long)x;
    return 1;
}

/* Drop what follows a '#' on the line. */
static void strip_comment(text_line *ln)
{
    for (int k = 0; k < ln->ntok; k++) {
        char *h = strchr(ln->tok[k], '#');
        if (h) {
            *h = '\0';
            ln->ntok = ln->tok[k][0] ? k + 1 : k;
            return;
        }
    }
}

int mesh_next_line(text_reader *rd, text_line *ln, const char *file, hs_error *err,
                   hs_code *rc)
{
    while (text_reader_next(rd, ln)) {
        if (ln->bad_byte) {
            *rc = err_at(err, file, ln->number, "unexpected control byte in text");
            return 0;
        }
        strip_comment(ln);
        if (ln->ntok > 0)
            return 1;
    }
    if (rd->failed)
        *rc = err_set(err, HS_ERR_NOMEM, "%s:%d: out of memory (a line too long)", file,
                      rd->line + 1);
    return 0;
}
