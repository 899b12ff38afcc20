/* error.h -- filling hs_error and small allocation helpers shared by every
 * part of the library. */
#ifndef HS_ERROR_H
#define HS_ERROR_H

#include "halfspace.h"

#if defined(__GNUC__)
#define HS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define HS_PRINTF(a, b)
#endif

/* Set err (if not NULL) to code and a formatted message; returns code. */
hs_code hs_fail(hs_error *err, hs_code code, const char *fmt, ...) HS_PRINTF(3, 4);

/* Input error located in a file: "FILE:LINE: message". */
hs_code hs_fail_at(hs_error *err, const char *file, int line, const char *fmt, ...)
    HS_PRINTF(4, 5);

/* malloc/calloc/realloc that return NULL on n == 0 overflow-safely. */
void *hs_malloc(size_t n, size_t size);
void *hs_calloc(size_t n, size_t size);
void *hs_realloc(void *p, size_t n, size_t size);
char *hs_strdup(const char *s);

#endif
