/* mem.c -- allocation that checks n * size for overflow, and hs_free. */
#include "halfspace.h"
#include "polytope/mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void hs_free(void *p) { free(p); }

void *mem_alloc(size_t n, size_t size)
{
    if (n == 0 || size == 0)
        return malloc(1);
    if (n > SIZE_MAX / size)
        return NULL;
    return malloc(n * size);
}

void *mem_calloc(size_t n, size_t size)
{
    if (n == 0 || size == 0)
        return calloc(1, 1);
    return calloc(n, size);
}

void *mem_realloc(void *p, size_t n, size_t size)
{
    if (n == 0 || size == 0)
        return realloc(p, 1);
    if (n > SIZE_MAX / size)
        return NULL;
    return realloc(p, n * size);
}

char *mem_strdup(const char *s)
{
    size_t len = strlen(s) + 1;
    char *d = malloc(len);
    if (d)
        memcpy(d, s, len);
    return d;
}

/* The heap a fresh GMP number takes beyond its mpq_t/mpz_t: one limb each
 * for numerator and denominator, 32-byte malloc chunks, and headroom for
 * the few limbs that typical values grow to. */
enum { MEM_GMP_BYTES = 128 };

void *mem_alloc_gmp(size_t n, size_t size)
{
    if (n > SIZE_MAX / MEM_GMP_BYTES)
        return NULL;
    void *room = malloc(n * MEM_GMP_BYTES + 1);
    if (!room)
        return NULL;
    free(room);
    return mem_alloc(n, size);
}
