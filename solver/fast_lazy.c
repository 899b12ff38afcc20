/* fast_lazy.c -- a part of a fast-engine preparation made on first use
 * and installed for every thread (fast_prep.h: fast_prep_lazy). */
#include "solver/fast_prep.h"

#include <stdatomic.h>
#include <stdlib.h>

void *fast_prep_lazy(const fast_prep *fp, _Atomic(void *) *slot,
                     void *(*make)(const fast_prep *fp))
{
    void *have = atomic_load_explicit(slot, memory_order_acquire);
    if (have)
        return have;
    void *mine = make(fp), *expected = NULL;
    if (!mine)
        return NULL;
    if (atomic_compare_exchange_strong_explicit(slot, &expected, mine, memory_order_acq_rel,
                                                memory_order_acquire))
        return mine;
    free(mine); /* another thread installed the same block first */
    return expected;
}
