/* arena.c -- the bump allocator of arena.h. */
#include "polytope/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The smallest block: allocations are small, and a block is one malloc. */
#define ARENA_BLOCK_BYTES 65536

/* n bytes, not initialised. */
static void *arena_take(mem_arena *a, size_t n)
{
    size_t unit = sizeof(max_align_t);
    if (n > SIZE_MAX / 4)
        return NULL;
    n = n ? (n + unit - 1) / unit * unit : unit;
    mem_arena_block *b = a->cur;
    while (b && b->cap - b->used < n) { /* (after a reset: the blocks in order) */
        b = b->next;
        if (b)
            b->used = 0;
    }
    if (!b) {
        size_t cap = n > ARENA_BLOCK_BYTES ? n : ARENA_BLOCK_BYTES;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = NULL;
        b->used = 0;
        b->cap = cap;
        if (a->cur) { /* after cur: the blocks it skipped stay behind it, unused until a reset */
            b->next = a->cur->next;
            a->cur->next = b;
        } else {
            b->next = a->head;
            a->head = b;
        }
    }
    a->cur = b;
    void *p = (char *)b->data + b->used;
    b->used += n;
    return p;
}

void *mem_arena_alloc(mem_arena *a, size_t n)
{
    void *p = arena_take(a, n);
    if (p)
        memset(p, 0, n ? n : 1);
    return p;
}

char *mem_arena_strdup(mem_arena *a, const char *s, size_t n)
{
    char *d = mem_arena_alloc(a, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

void *mem_arena_grow(mem_arena *a, void *p, size_t old_n, size_t new_n, size_t size)
{
    if (p && new_n <= old_n)
        return p;
    if (size && new_n > SIZE_MAX / 4 / size)
        return NULL;
    void *q = arena_take(a, new_n * size);
    if (q && p && old_n)
        memcpy(q, p, old_n * size);
    return q;
}

void mem_arena_reset(mem_arena *a)
{
    a->cur = a->head;
    if (a->cur)
        a->cur->used = 0;
}

void mem_arena_free(mem_arena *a)
{
    while (a->head) {
        mem_arena_block *next = a->head->next;
        free(a->head);
        a->head = next;
    }
    a->cur = NULL;
}
