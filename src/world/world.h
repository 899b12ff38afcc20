/* world.h -- the structures behind hs_world and hs_body, shared by the
 * world's files (src/world/) and those that move bodies (src/motion/). */
#ifndef HS_WORLD_H
#define HS_WORLD_H

#include <stdint.h>
#include <string.h>

#include "halfspace.h"
#include "src/broadphase/broadphase.h"
#include "src/narrow/narrow.h"
#include "src/shape/geom.h"

/* Bodies live in slabs of the world (world_slab.c), in order of
 * creation, so a pass over the bodies walks memory forward; the fields a
 * pose change touches come first, next to the pose. */
struct hs_body {
    hs_world *world;
    uint64_t name_key;    /* the name's first 8 bytes (names_compare) */
    int id;               /* stable id (broad phase, pair toggles) */
    int npieces;
    int in_bp;            /* registered in the broad phase */
    int is_static, enabled;
    unsigned group, mask;
    double blo[3], bhi[3]; /* body-frame box of all pieces (npieces > 0) */
    double lo[3], hi[3];  /* world box of all pieces (valid when npieces > 0) */
    double pose[16];
    double inv[16];       /* pose_inverse of pose, kept with it */
    geom **piece;
    int cap;
    char *name;
    hs_body *next_free;   /* in the world's list of free slots */
};

struct hs_world {
    hs_body **bodies;     /* in order of creation */
    int nbodies, cap;
    hs_body **by_id;      /* id -> body (NULL after removal) */
    int id_cap, next_id;
    int enabled;
    hs_broadphase method;
    broadphase *bp;
    unsigned long long *off_pairs; /* disabled pairs, open addressing */
    size_t off_cap, off_count;
    hs_body **name_slot;  /* bodies by name (world_names.c), at most half full */
    size_t name_cap;
    hs_body **slab;       /* blocks of body slots (world_slab.c) */
    int nslabs, slab_cap, slab_used; /* slots used in the last block */
    hs_body *free_body;   /* slots of removed bodies */
};

/* Body slots (world_slab.c): a zeroed slot, or NULL without memory; a
 * slot back to the free list; every block freed. */
hs_body *slab_take(hs_world *w);
void slab_give_back(hs_world *w, hs_body *b);
void slab_free_all(hs_world *w);

/* Bodies by name (world_names.c): lookup; registration of a body already
 * in w->bodies; rebuild after a removal (never fail: without memory for
 * the table, lookups scan the bodies). */
hs_body *names_find(const hs_world *w, const char *name);
void names_add(hs_world *w, hs_body *b);
void names_rebuild(hs_world *w);
void names_free(hs_world *w);

/* The first 8 bytes of s (zero padded) as a big-endian number: two
 * names' keys, when they differ, order them as strcmp does (which
 * compares bytes as unsigned char); equal keys holding a 0 byte mean equal
 * names. */
uint64_t names_key(const char *s);

/* strcmp of the bodies' names, without reading the names themselves when
 * their first 8 bytes differ (the query orders every candidate pair). */
static inline int names_compare(const hs_body *a, const hs_body *b)
{
    if (a->name_key != b->name_key)
        return a->name_key < b->name_key ? -1 : 1;
    if ((a->name_key & 0xff) == 0)
        return 0;
    return strcmp(a->name, b->name);
}

/* Add a geometry to a body (takes a reference). */
hs_code body_add_geom(hs_body *b, geom *g, hs_error *err);

/* Recompute the body's world box and tell the broad phase. */
hs_code body_refresh_box(hs_body *b, hs_error *err);

/* Piece i of b as the narrow phase sees it: its geometry at b's pose. */
static inline narrow_piece body_piece(const hs_body *b, int i)
{
    narrow_piece p = {b->piece[i], b->pose, b->name, b->inv};
    return p;
}

/* May bodies a and b collide at all (filters of seed 001)? */
int world_pair_allowed(const hs_world *w, const hs_body *a, const hs_body *b);

#endif
