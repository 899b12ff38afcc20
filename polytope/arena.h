/* arena.h -- a bump allocator (arena.c): many small allocations that die
 * together, made from a few large blocks.  Used for a parsed VRML scene
 * (freed at once) and for what a world query's workers record per pair of
 * bodies (reset before the next query, its blocks reused).
 *
 * An arena belongs to one thread at a time (no locking).  A zeroed
 * mem_arena ({0}) is empty and ready. */
#ifndef HS_ARENA_H
#define HS_ARENA_H

#include <stddef.h>

typedef struct mem_arena_block {
    struct mem_arena_block *next;
    size_t used, cap; /* bytes of data */
    max_align_t data[];
} mem_arena_block;

typedef struct mem_arena {
    mem_arena_block *head; /* every block, oldest first */
    mem_arena_block *cur;  /* the block allocations come from (NULL: none yet) */
} mem_arena;

/* n bytes, zeroed, aligned for any type, valid until the arena is reset or
 * freed; NULL when out of memory (or n absurdly large). */
void *mem_arena_alloc(mem_arena *a, size_t n);

/* A copy of the n bytes at s, NUL-terminated; NULL when out of memory. */
char *mem_arena_strdup(mem_arena *a, const char *s, size_t n);

/* Room for new_n items of `size` bytes where p (NULL, or from this arena)
 * held old_n: p itself when new_n <= old_n, otherwise a new allocation
 * with p's old_n items copied and the others not initialised (p's space
 * is only reclaimed by a reset).
 * NULL when out of memory or when the size overflows (p unchanged). */
void *mem_arena_grow(mem_arena *a, void *p, size_t old_n, size_t new_n, size_t size);

/* Forget every allocation, keeping the blocks for the next ones. */
void mem_arena_reset(mem_arena *a);

/* Free every block; the arena is empty again. */
void mem_arena_free(mem_arena *a);

#endif
