/* world_names.c -- the bodies of a world by name: an open-addressing hash
 * table (linear probing, FNV-1a hash, at most half full), so adding N
 * uniquely named bodies costs O(N) rather than O(N^2) name comparisons.
 * Removal rebuilds the table (removal already costs O(N)); without memory
 * for a table, lookups scan the bodies. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/world/world.h"

static uint64_t name_hash(const char *s)
{
    uint64_t h = 14695981039346656037ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

uint64_t names_key(const char *s)
{
    uint64_t k = 0;
    int i = 0;
    for (; i < 8 && s[i]; i++)
        k = (k << 8) | (unsigned char)s[i];
    return i == 0 ? 0 : k << (8 * (8 - i));
}

static void names_put(hs_body **slot, size_t cap, hs_body *b)
{
    size_t i = (size_t)(name_hash(b->name) & (cap - 1));
    while (slot[i])
        i = (i + 1) & (cap - 1);
    slot[i] = b;
}

static int names_table_rebuild(hs_world *w, size_t cap)
{
    hs_body **slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (int k = 0; k < w->nbodies; k++)
        names_put(slot, cap, w->bodies[k]);
    free(w->name_slot);
    w->name_slot = slot;
    w->name_cap = cap;
    return 0;
}

hs_body *names_find(const hs_world *w, const char *name)
{
    if (!w->name_cap) { /* no table (out of memory once): a scan */
        for (int k = 0; k < w->nbodies; k++)
            if (strcmp(w->bodies[k]->name, name) == 0)
                return w->bodies[k];
        return NULL;
    }
    size_t i = (size_t)(name_hash(name) & (w->name_cap - 1));
    for (; w->name_slot[i]; i = (i + 1) & (w->name_cap - 1))
        if (strcmp(w->name_slot[i]->name, name) == 0)
            return w->name_slot[i];
    return NULL;
}

void names_add(hs_world *w, hs_body *b)
{
    /* w->bodies already holds b: the table is sized for nbodies */
    if (2 * (size_t)w->nbodies > w->name_cap) {
        size_t cap = w->name_cap ? 2 * w->name_cap : 64;
        while (2 * (size_t)w->nbodies > cap)
            cap *= 2;
        if (names_table_rebuild(w, cap) != 0)
            names_free(w); /* lookups fall back to a scan */
        return;
    }
    names_put(w->name_slot, w->name_cap, b);
}

void names_rebuild(hs_world *w)
{
    if (names_table_rebuild(w, w->name_cap ? w->name_cap : 64) != 0)
        names_free(w); /* lookups fall back to a scan */
}

void names_free(hs_world *w)
{
    free(w->name_slot);
    w->name_slot = NULL;
    w->name_cap = 0;
}
