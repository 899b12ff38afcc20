/* vrml_graph.c -- the storage of a parsed VRML scene, one arena freed at
 * once, and the lookups in its graph (fields, PROTO declarations, the node
 * a PROTO instance stands for). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/scene/vrml.h"

/* -------------------------------------------------------------- arena */

void *vrml_arena_alloc(arena *a, size_t n)
{
    size_t unit = sizeof(max_align_t);
    if (n > SIZE_MAX / 4)
        return NULL;
    n = n ? (n + unit - 1) / unit * unit : unit;
    arena_block *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *vrml_arena_strdup(arena *a, const char *s, size_t n)
{
    char *d = vrml_arena_alloc(a, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

void vrml_arena_free(arena *a)
{
    while (a->head) {
        arena_block *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

/* -------------------------------------------------------------- graph */

const vfield *vrml_find_field(const vfield *f, const char *name)
{
    for (; f; f = f->next)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

const vdecl *vrml_find_decl(const vproto *p, const char *name)
{
    for (int k = 0; p && k < p->ndecl; k++)
        if (strcmp(p->decl[k].name, name) == 0)
            return &p->decl[k];
    return NULL;
}

const vnode *vrml_proto_root(const vproto *p)
{
    for (int k = 0; k < p->nbody; k++)
        if (p->body[k].kind == IT_NODE)
            return p->body[k].node;
    return NULL;
}
