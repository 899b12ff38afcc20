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

/* Ask for the cache line holding p ahead of its read: a hint, with no
 * effect where the compiler has no prefetch.  Never faults.  A volatile
 * asm where there is one: GCC counts __builtin_prefetch as no side
 * effect, deems a function that only prefetches pure, and drops its calls
 * (engine_fast.c's prefetch_small and prefetch_candidates compiled to
 * nothing that way). */
static inline void mem_prefetch(const void *p)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#elif defined(__GNUC__) && defined(__aarch64__)
    __asm__ volatile("prfm pldl1keep, %0" : : "Q"(*(const char *)p));
#elif defined(__GNUC__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/* mem_alloc for an array of n GMP numbers (mpq_t or mpz_t, `size` bytes
 * each) that the caller will initialize: also NULL when the heap has no
 * room for their digits as well (GMP's allocator aborts the process when
 * out of memory; this check, a probe of MEM_GMP_BYTES per number allocated
 * and freed at once, turns the common case of a huge input into an error
 * that the caller can return).  Thread-safe. */
void *mem_alloc_gmp(size_t n, size_t size);

#endif
