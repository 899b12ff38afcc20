/* error.h -- filling hs_error (error.c).  Every failure of the library goes
 * through err_set or err_at. */
#ifndef HS_ERROR_H
#define HS_ERROR_H

#include "halfspace.h"

#if defined(__GNUC__)
#define ERR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define ERR_PRINTF(a, b)
#endif

/* Set err (if not NULL) to code and a formatted message; returns code. */
hs_code err_set(hs_error *err, hs_code code, const char *fmt, ...) ERR_PRINTF(3, 4);

/* Input error located in a file: "FILE:LINE: message". */
hs_code err_at(hs_error *err, const char *file, int line, const char *fmt, ...)
    ERR_PRINTF(4, 5);

#endif
