/* error.c -- error reporting and allocation helpers. */
#include "src/error.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *hs_version(void) { return "0.1.0"; }

void hs_error_clear(hs_error *err)
{
    if (err) {
        err->code = HS_OK;
        err->msg[0] = '\0';
    }
}

void hs_free(void *p) { free(p); }

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

hs_code hs_fail(hs_error *err, hs_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_message(err, code, NULL, fmt, ap);
    va_end(ap);
    return code;
}

hs_code hs_fail_at(hs_error *err, const char *file, int line, const char *fmt, ...)
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

void *hs_malloc(size_t n, size_t size)
{
    if (n == 0 || size == 0)
        return malloc(1);
    if (n > SIZE_MAX / size)
        return NULL;
    return malloc(n * size);
}

void *hs_calloc(size_t n, size_t size)
{
    if (n == 0 || size == 0)
        return calloc(1, 1);
    return calloc(n, size);
}

void *hs_realloc(void *p, size_t n, size_t size)
{
    if (n == 0 || size == 0)
        return realloc(p, 1);
    if (n > SIZE_MAX / size)
        return NULL;
    return realloc(p, n * size);
}

char *hs_strdup(const char *s)
{
    size_t len = strlen(s) + 1;
    char *d = malloc(len);
    if (d)
        memcpy(d, s, len);
    return d;
}
