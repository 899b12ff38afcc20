/* fuzz_util.h -- what the libFuzzer harnesses of fuzz/ share
 * (fuzz_util.c): the input as a NUL-terminated string, and the input
 * written to a file of a given name in the process's own temporary
 * folder (removed at exit), for the readers that take a path.  Nothing
 * here depends on the time or on earlier inputs: every harness is
 * deterministic. */
#ifndef HS_FUZZ_UTIL_H
#define HS_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* A malloc'd copy of the n bytes with a NUL after them (free with free).
 * Aborts when out of memory. */
char *fuzz_text(const uint8_t *d, size_t n);

/* Write the n bytes to the file `name` (a plain name, no '/') of the
 * temporary folder; returns its path (static buffer, valid until the next
 * call).  Aborts when the file cannot be written. */
const char *fuzz_file(const char *name, const uint8_t *d, size_t n);

/* The temporary folder itself. */
const char *fuzz_dir(void);

#endif
