/* grow.h -- the one helper behind every growable array: capacity doubles
 * (at least to what is needed), so n appends cost O(n) copies in all. */
#ifndef HS_GROW_H
#define HS_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Room for `need` items of `size` bytes in the array p of *cap items:
 * returns p when it already has room, otherwise the reallocated array
 * (*cap updated; the new items are not initialised), or NULL when out of
 * memory or when the size overflows, leaving p and *cap as they were.
 * Typical use:
 *     double *q = grow_array(buf, &cap, need, sizeof *buf);
 *     if (!q) return -1;
 *     buf = q; */
static inline void *grow_array(void *p, int *cap, long need, size_t size)
{
    if (need <= *cap)
        return p;
    if (need > INT32_MAX)
        return NULL;
    long c = *cap > 0 ? 2L * *cap : 8;
    if (c < need)
        c = need;
    if (c > INT32_MAX)
        c = INT32_MAX;
    if ((size_t)c > SIZE_MAX / (size ? size : 1))
        return NULL;
    void *q = realloc(p, (size_t)c * size);
    if (!q)
        return NULL;
    *cap = (int)c;
    return q;
}

/* grow_array, with the new items (from the old capacity on) zeroed. */
static inline void *grow_array_zeroed(void *p, int *cap, long need, size_t size)
{
    int old = *cap;
    char *q = grow_array(p, cap, need, size);
    if (q && *cap > old)
        memset(q + (size_t)old * size, 0, (size_t)(*cap - old) * size);
    return q;
}

#endif
