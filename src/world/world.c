/* world.c -- worlds and bodies: creation, names, poses, clones, removal,
 * the collision filters of seed 001, and the broad-phase registration. */
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/shape/pose.h"
#include "src/world/world.h"

hs_world *hs_world_new(void)
{
    hs_world *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->enabled = 1;
    w->method = HS_BROAD_GRID;
    w->bp = bp_new(w->method);
    if (!w->bp) {
        free(w);
        return NULL;
    }
    return w;
}

/* What a body owns (its slot is the world's). */
static void body_release(hs_body *b)
{
    for (int i = 0; i < b->npieces; i++)
        geom_release(b->piece[i]);
    free(b->piece);
    free(b->name);
}

void hs_world_free(hs_world *w)
{
    if (!w)
        return;
    for (int k = 0; k < w->nbodies; k++)
        body_release(w->bodies[k]);
    slab_free_all(w);
    free(w->bodies);
    free(w->by_id);
    free(w->off_pairs);
    names_free(w);
    bp_free(w->bp);
    free(w);
}

/* ------------------------------------------------------------ bodies */

static int grow_bodies(hs_world *w)
{
    if (w->nbodies == w->cap) {
        int cap = w->cap ? 2 * w->cap : 16;
        hs_body **nb = mem_realloc(w->bodies, (size_t)cap, sizeof *nb);
        if (!nb)
            return -1;
        w->bodies = nb;
        w->cap = cap;
    }
    if (w->next_id == w->id_cap) {
        int cap = w->id_cap ? 2 * w->id_cap : 16;
        hs_body **ni = mem_realloc(w->by_id, (size_t)cap, sizeof *ni);
        if (!ni)
            return -1;
        w->by_id = ni;
        w->id_cap = cap;
    }
    return 0;
}

hs_body *hs_world_find_body(const hs_world *w, const char *name)
{
    return w && name ? names_find(w, name) : NULL;
}

hs_body *hs_world_add_body(hs_world *w, const char *name, int is_static, hs_error *err)
{
    if (!w || !name || !*name) {
        err_set(err, HS_ERR_ARG, "a body needs a world and a nonempty name");
        return NULL;
    }
    if (hs_world_find_body(w, name)) {
        err_set(err, HS_ERR_ARG, "a body named '%s' exists already", name);
        return NULL;
    }
    hs_body *b = slab_take(w);
    if (!b || !(b->name = mem_strdup(name)) || grow_bodies(w) != 0) {
        if (b) {
            free(b->name);
            slab_give_back(w, b);
        }
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    b->world = w;
    b->name_key = names_key(name);
    b->id = w->next_id++;
    b->is_static = is_static != 0;
    b->enabled = 1;
    b->group = 1;
    b->mask = ~0u;
    hs_pose_identity(b->pose);
    hs_pose_identity(b->inv);
    w->bodies[w->nbodies++] = b;
    w->by_id[b->id] = b;
    names_add(w, b);
    return b;
}

hs_body *hs_world_clone_body(hs_world *w, const hs_body *src, const char *name, hs_error *err)
{
    if (!src) {
        err_set(err, HS_ERR_ARG, "no body to clone");
        return NULL;
    }
    hs_body *b = hs_world_add_body(w, name, src->is_static, err);
    if (!b)
        return NULL;
    b->enabled = src->enabled;
    b->group = src->group;
    b->mask = src->mask;
    memcpy(b->pose, src->pose, sizeof b->pose);
    memcpy(b->inv, src->inv, sizeof b->inv);
    for (int i = 0; i < src->npieces; i++) {
        if (body_add_geom(b, src->piece[i], err) != HS_OK) {
            hs_world_remove_body(w, b, NULL);
            return NULL;
        }
    }
    return b;
}

hs_code hs_world_remove_body(hs_world *w, hs_body *b, hs_error *err)
{
    int k = 0;
    while (k < w->nbodies && w->bodies[k] != b)
        k++;
    if (k == w->nbodies)
        return err_set(err, HS_ERR_ARG, "the body is not in this world");
    memmove(w->bodies + k, w->bodies + k + 1, sizeof *w->bodies * (size_t)(w->nbodies - k - 1));
    w->nbodies--;
    w->by_id[b->id] = NULL;
    if (b->in_bp)
        bp_remove(w->bp, b->id);
    body_release(b);
    slab_give_back(w, b);
    names_rebuild(w);
    return HS_OK;
}

int hs_world_body_count(const hs_world *w) { return w ? w->nbodies : 0; }

hs_body *hs_world_body(const hs_world *w, int k)
{
    return (w && k >= 0 && k < w->nbodies) ? w->bodies[k] : NULL;
}

const char *hs_body_name(const hs_body *b) { return b->name; }
int hs_body_is_static(const hs_body *b) { return b->is_static; }
void hs_body_set_static(hs_body *b, int is_static) { b->is_static = is_static != 0; }
int hs_body_piece_count(const hs_body *b) { return b->npieces; }

/* ------------------------------------------------------------- poses */

/* Bodies with more pieces than this get their world box from their
 * body-frame box (one mapping per pose) rather than from the union of the
 * mapped piece boxes (tighter, but linear in the pieces). */
#define BOX_PER_PIECE_MAX 16

hs_code body_refresh_box(hs_body *b, hs_error *err)
{
    if (b->npieces == 0)
        return HS_OK;
    double lo[3], hi[3];
    int whole = b->npieces == 1 || b->npieces > BOX_PER_PIECE_MAX; /* (1: the same box) */
    if (whole)
        pose_map_box(b->pose, b->blo, b->bhi, lo, hi);
    for (int i = 0; !whole && i < b->npieces; i++) {
        double plo[3], phi[3];
        pose_map_box(b->pose, b->piece[i]->lo, b->piece[i]->hi, plo, phi);
        for (int j = 0; j < 3; j++) {
            lo[j] = (i == 0 || plo[j] < lo[j]) ? plo[j] : lo[j];
            hi[j] = (i == 0 || phi[j] > hi[j]) ? phi[j] : hi[j];
        }
    }
    memcpy(b->lo, lo, sizeof lo);
    memcpy(b->hi, hi, sizeof hi);
    int rc = b->in_bp ? bp_update(b->world->bp, b->id, lo, hi)
                      : bp_insert(b->world->bp, b->id, lo, hi);
    if (rc != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    b->in_bp = 1;
    return HS_OK;
}

hs_code hs_body_set_pose(hs_body *b, const double m[16], hs_error *err)
{
    if (!b || !m || !pose_is_valid(m))
        return err_set(err, HS_ERR_ARG,
                       "a pose needs finite entries, last row 0 0 0 1 and an invertible "
                       "rotation part");
    memcpy(b->pose, m, sizeof b->pose);
    pose_inverse(b->inv, m);
    return body_refresh_box(b, err);
}

void hs_body_get_pose(const hs_body *b, double m[16]) { memcpy(m, b->pose, sizeof b->pose); }

int hs_body_aabb(const hs_body *b, double lo[3], double hi[3])
{
    if (!b || b->npieces == 0)
        return 0;
    memcpy(lo, b->lo, sizeof b->lo);
    memcpy(hi, b->hi, sizeof b->hi);
    return 1;
}

hs_code body_add_geom(hs_body *b, geom *g, hs_error *err)
{
    if (b->npieces == b->cap) {
        int cap = b->cap ? 2 * b->cap : 4;
        geom **np = mem_realloc(b->piece, (size_t)cap, sizeof *np);
        if (!np)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        b->piece = np;
        b->cap = cap;
    }
    geom_retain(g);
    for (int j = 0; j < 3; j++) {
        b->blo[j] = b->npieces == 0 || g->lo[j] < b->blo[j] ? g->lo[j] : b->blo[j];
        b->bhi[j] = b->npieces == 0 || g->hi[j] > b->bhi[j] ? g->hi[j] : b->bhi[j];
    }
    b->piece[b->npieces++] = g;
    return body_refresh_box(b, err);
}

/* -------------------------------------------------------- broad phase */

hs_code hs_world_set_broadphase(hs_world *w, hs_broadphase method, hs_error *err)
{
    if (method != HS_BROAD_TREE && method != HS_BROAD_GRID && method != HS_BROAD_RAW)
        return err_set(err, HS_ERR_ARG, "unknown broad phase %d", (int)method);
    broadphase *bp = bp_new(method);
    if (!bp)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int k = 0; k < w->nbodies; k++) {
        hs_body *b = w->bodies[k];
        if (b->in_bp && bp_insert(bp, b->id, b->lo, b->hi) != 0) {
            bp_free(bp);
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        }
    }
    bp_free(w->bp);
    w->bp = bp;
    w->method = method;
    return HS_OK;
}

/* ------------------------------------------------------------ filters */

static unsigned long long pair_key(int a, int b)
{
    unsigned lo = (unsigned)(a < b ? a : b), hi = (unsigned)(a < b ? b : a);
    return ((unsigned long long)hi << 32 | lo) + 1; /* 0 marks an empty slot */
}

static size_t pair_slot_of(const hs_world *w, unsigned long long key)
{
    size_t k = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (w->off_cap - 1);
    while (w->off_pairs[k] && w->off_pairs[k] != key)
        k = (k + 1) & (w->off_cap - 1);
    return k;
}

static int pair_disabled(const hs_world *w, int a, int b)
{
    if (w->off_count == 0)
        return 0;
    return w->off_pairs[pair_slot_of(w, pair_key(a, b))] != 0;
}

static int grow_pairs(hs_world *w)
{
    size_t cap = w->off_cap ? 2 * w->off_cap : 64;
    unsigned long long *old = w->off_pairs;
    size_t old_cap = w->off_cap;
    w->off_pairs = calloc(cap, sizeof *old);
    if (!w->off_pairs) {
        w->off_pairs = old;
        return -1;
    }
    w->off_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i])
            w->off_pairs[pair_slot_of(w, old[i])] = old[i];
    free(old);
    return 0;
}

/* Deleting from open addressing: re-place the entries after the hole. */
static void remove_pair(hs_world *w, size_t k)
{
    w->off_pairs[k] = 0;
    w->off_count--;
    for (size_t j = (k + 1) & (w->off_cap - 1); w->off_pairs[j]; j = (j + 1) & (w->off_cap - 1)) {
        unsigned long long key = w->off_pairs[j];
        w->off_pairs[j] = 0;
        w->off_pairs[pair_slot_of(w, key)] = key;
    }
}

hs_code hs_world_set_pair_enabled(hs_world *w, const hs_body *a, const hs_body *b, int on,
                                  hs_error *err)
{
    if (!w || !a || !b || a->world != w || b->world != w || a == b)
        return err_set(err, HS_ERR_ARG, "a pair toggle needs two distinct bodies of the world");
    unsigned long long key = pair_key(a->id, b->id);
    if (on) {
        if (w->off_count && w->off_pairs[pair_slot_of(w, key)])
            remove_pair(w, pair_slot_of(w, key));
        return HS_OK;
    }
    if (2 * (w->off_count + 1) > w->off_cap && grow_pairs(w) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    size_t k = pair_slot_of(w, key);
    if (!w->off_pairs[k]) {
        w->off_pairs[k] = key;
        w->off_count++;
    }
    return HS_OK;
}

void hs_world_set_enabled(hs_world *w, int on) { w->enabled = on != 0; }
void hs_body_set_enabled(hs_body *b, int on) { b->enabled = on != 0; }

void hs_body_set_groups(hs_body *b, unsigned group, unsigned mask)
{
    b->group = group;
    b->mask = mask;
}

int world_pair_allowed(const hs_world *w, const hs_body *a, const hs_body *b)
{
    return w->enabled && a != b && a->enabled && b->enabled && !(a->is_static && b->is_static) &&
           (a->group & b->mask) && (b->group & a->mask) && !pair_disabled(w, a->id, b->id);
}
