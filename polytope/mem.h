/* mem.h -- allocation helpers (mem.c): n * size is checked for overflow
 * (NULL returned), and n == 0 still gives a valid pointer to free. */
#ifndef HS_MEM_H
#define HS_MEM_H

#include <stddef.h>

/* malloc, calloc and realloc of n items of `size` bytes: NULL when out of
 * memory or when n * size overflows; n == 0 allocates one byte. */
void *mem_alloc(size_t n, size_t size);
void *mem_calloc(size_t n, size_t size);
void *mem_realloc(void *p, size_t n, size_t size);
char *mem_strdup(const char *s);

#endif
