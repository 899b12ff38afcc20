/* bp_box.c -- what the broad-phase methods share (bp_impl.h): closed boxes,
 * growable arrays and the table from item ids to slots. */
#include <stdlib.h>
#include <string.h>

#include "polytope/grow.h"
#include "src/broadphase/bp_impl.h"

int bp_box_set(bp_box *box, const double lo[3], const double hi[3])
{
    for (int k = 0; k < 3; k++) {
        if (!(lo[k] <= hi[k]))
            return -1; /* NaN, or an inverted interval */
        box->lo[k] = lo[k];
        box->hi[k] = hi[k];
    }
    return 0;
}

int bp_box_is_far(const bp_box *box)
{
    for (int k = 0; k < 3; k++)
        if (!(box->lo[k] >= -BP_FAR && box->hi[k] <= BP_FAR))
            return 1;
    return 0;
}

int bp_grow(void **array, int *cap, int need, size_t elem)
{
    void *grown = grow_array_zeroed(*array, cap, need, elem);
    if (!grown)
        return -1;
    *array = grown;
    return 0;
}

void bp_idmap_free(bp_idmap *m)
{
    free(m->at);
    m->at = NULL;
    m->cap = 0;
}

int bp_idmap_reserve(bp_idmap *m, int id)
{
    if (id < 0 || id == 0x7fffffff)
        return -1;
    int old = m->cap;
    if (bp_grow((void **)&m->at, &m->cap, id + 1, sizeof(int)) != 0)
        return -1;
    for (int i = old; i < m->cap; i++)
        m->at[i] = -1;
    return 0;
}
