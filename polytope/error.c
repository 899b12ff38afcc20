/* error.c -- filling hs_error: the message of every failure, "FILE:LINE:
 * what" for input errors. */
#include "polytope/error.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void hs_error_clear(hs_error *err)
{
    if (err) {
        err->code = HS_OK;
        err->msg[0] = '\0';
    }
}

static hs_code set_message(hs_error *err, hs_code code, const char *prefix,
                           const char *fmt, va_list ap)
{
    if (!err)
        return code;
    err->code = code;
    size_t used = 0;
    if (prefix) {
        int k = snprintf(err->msg, sizeof err->msg, "%s", prefix);
        used = k < 0 ? 0 : (size_t)k;
        if (used >= sizeof err->msg)
            return code;
    }
    vsnprintf(err->msg + used, sizeof err->msg - used, fmt, ap);
    return code;
}

hs_code err_set(hs_error *err, hs_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_message(err, code, NULL, fmt, ap);
    va_end(ap);
    return code;
}

hs_code err_at(hs_error *err, const char *file, int line, const char *fmt, ...)
{
    char prefix[300];
    if (line > 0)
        snprintf(prefix, sizeof prefix, "%s:%d: ", file ? file : "<input>", line);
    else
        snprintf(prefix, sizeof prefix, "%s: ", file ? file : "<input>");
    va_list ap;
    va_start(ap, fmt);
    set_message(err, HS_ERR_INPUT, prefix, fmt, ap);
    va_end(ap);
    return HS_ERR_INPUT;
}
