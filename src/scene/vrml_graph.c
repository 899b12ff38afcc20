/* vrml_graph.c -- the index of names of a parsed VRML scene (in its
 * arena, polytope/arena.h), and the lookups in its graph (fields, PROTO
 * declarations, the node a PROTO instance stands for). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/scene/vrml.h"

/* -------------------------------------------------------------- graph */

/* FNV-1a hash of a name. */
static size_t vrml_name_hash(const char *s)
{
    unsigned long long h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return (size_t)h;
}

/* The slot of name in ix: the one holding it, or the free one for it. */
static size_t vrml_index_slot(const vindex *ix, const char *name)
{
    size_t k = vrml_name_hash(name) & ix->mask;
    while (ix->key[k] && strcmp(ix->key[k], name) != 0)
        k = (k + 1) & ix->mask;
    return k;
}

/* A table of `slots` slots (a power of two) holding the names of old. */
static vindex *vrml_index_resize(mem_arena *a, const vindex *old, size_t slots)
{
    vindex *ix = mem_arena_alloc(a, sizeof *ix);
    if (!ix || slots > SIZE_MAX / (2 * sizeof(void *)))
        return NULL;
    ix->key = mem_arena_alloc(a, slots * sizeof *ix->key);
    ix->val = mem_arena_alloc(a, slots * sizeof *ix->val);
    if (!ix->key || !ix->val)
        return NULL;
    ix->mask = slots - 1;
    for (size_t k = 0; old && k <= old->mask; k++)
        if (old->key[k]) {
            size_t at = vrml_index_slot(ix, old->key[k]);
            ix->key[at] = old->key[k];
            ix->val[at] = old->val[k];
            ix->count++;
        }
    return ix;
}

int vrml_index_put(mem_arena *a, vindex **ix, const char *name, void *val)
{
    /* at most half full: a table twice as large (the old one stays in the arena) */
    if (!*ix || 2 * ((*ix)->count + 1) > (*ix)->mask + 1) {
        vindex *grown = vrml_index_resize(a, *ix, *ix ? 2 * ((*ix)->mask + 1) : 16);
        if (!grown)
            return -1;
        *ix = grown;
    }
    size_t k = vrml_index_slot(*ix, name);
    if (!(*ix)->key[k]) {
        (*ix)->key[k] = name;
        (*ix)->count++;
    }
    (*ix)->val[k] = val;
    return 0;
}

void *vrml_index_get(const vindex *ix, const char *name)
{
    if (!ix)
        return NULL;
    size_t k = vrml_index_slot(ix, name);
    return ix->key[k] ? ix->val[k] : NULL;
}

const vfield *vrml_find_field(const vnode *n, const char *name)
{
    if (n->findex)
        return vrml_index_get(n->findex, name);
    for (const vfield *f = n->fields; f; f = f->next)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

const vdecl *vrml_find_decl(const vproto *p, const char *name)
{
    uintptr_t k = p ? (uintptr_t)vrml_index_get(p->dindex, name) : 0;
    return k ? &p->decl[k - 1] : NULL;
}

const vnode *vrml_proto_root(const vproto *p)
{
    for (int k = 0; k < p->nbody; k++)
        if (p->body[k].kind == IT_NODE)
            return p->body[k].node;
    return NULL;
}
