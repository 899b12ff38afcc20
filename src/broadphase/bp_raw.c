/* bp_raw.c -- the raw broad phase (seed 000, section 4.1): every pair of
 * items tested. */
#include <stdlib.h>
#include <string.h>

#include "src/broadphase/bp_impl.h"

/* Items packed densely; removal moves the last item into the hole. */
struct bp_raw {
    bp_box *box;
    int *id;
    int n, cap_box, cap_id;
    bp_idmap slot;
};

bp_raw *bp_raw_new(void)
{
    return calloc(1, sizeof(bp_raw));
}

void bp_raw_free(bp_raw *r)
{
    if (!r)
        return;
    free(r->box);
    free(r->id);
    bp_idmap_free(&r->slot);
    free(r);
}

int bp_raw_insert(bp_raw *r, int id, const bp_box *box)
{
    if (bp_idmap_get(&r->slot, id) >= 0 || bp_idmap_reserve(&r->slot, id) != 0)
        return -1;
    if (bp_grow((void **)&r->box, &r->cap_box, r->n + 1, sizeof(bp_box)) != 0 ||
        bp_grow((void **)&r->id, &r->cap_id, r->n + 1, sizeof(int)) != 0)
        return -1;
    r->box[r->n] = *box;
    r->id[r->n] = id;
    r->slot.at[id] = r->n++;
    return 0;
}

void bp_raw_remove(bp_raw *r, int id)
{
    int s = bp_idmap_get(&r->slot, id);
    if (s < 0)
        return;
    int last = --r->n;
    r->box[s] = r->box[last];
    r->id[s] = r->id[last];
    r->slot.at[r->id[s]] = s;
    r->slot.at[id] = -1;
}

int bp_raw_update(bp_raw *r, int id, const bp_box *box)
{
    int s = bp_idmap_get(&r->slot, id);
    if (s < 0)
        return -1;
    r->box[s] = *box;
    return 0;
}

int bp_raw_count(const bp_raw *r)
{
    return r->n;
}

long bp_raw_pairs(const bp_raw *r, bp_pair_fn fn, void *user)
{
    long tests = 0;
    for (int i = 0; i < r->n; i++) {
        for (int j = i + 1; j < r->n; j++)
            if (bp_box_overlap(&r->box[i], &r->box[j]))
                bp_report(fn, user, r->id[i], r->id[j]);
        tests += r->n - 1 - i;
    }
    return tests;
}

long bp_raw_query(const bp_raw *r, const bp_box *q, bp_item_fn fn, void *user)
{
    for (int i = 0; i < r->n; i++)
        if (bp_box_overlap(&r->box[i], q))
            fn(user, r->id[i]);
    return r->n;
}

/* ---------------------------------------------------------------- dispatch */
