/* chain_moved.c -- the record of the joints moved since the last
 * self-collision query that found the chain free (seed 003, 2.3: the
 * rigid pieces between moved joints need no search inside): which joints,
 * sorted, with the values they had at that answer, and the question the
 * search asks of it (did a joint between two links move?). */
#include <string.h>

#include "src/chain/chain.h"

/* Position of joint in the sorted record, or -1. */
static int changed_index(const hs_chain *c, int joint)
{
    if (!c->is_changed[joint])
        return -1;
    int k = 0;
    while (c->changed[k] != joint)
        k++;
    return k;
}

/* Joint i is about to become x.  The record gains it, with the value it
 * had at the last free answer; a joint set back to exactly that value
 * leaves the record (the chain is then, bit for bit, what it was at the
 * answer for that joint: an undo costs the next query nothing). */
void chain_note_changed(hs_chain *c, int joint, const chain_xf *x)
{
    if (c->all_dirty)
        return;
    int at = changed_index(c, joint);
    if (at >= 0) {
        if (memcmp(&c->was[at], x, sizeof *x) != 0)
            return;
        c->is_changed[joint] = 0;
        c->nchanged--;
        memmove(c->changed + at, c->changed + at + 1, sizeof(int) * (size_t)(c->nchanged - at));
        memmove(c->was + at, c->was + at + 1, sizeof(chain_xf) * (size_t)(c->nchanged - at));
        return;
    }
    if (c->nchanged == CHAIN_TRACK_MAX) {
        chain_clear_changed(c);
        c->all_dirty = 1;
        return;
    }
    int k = c->nchanged++;
    while (k > 0 && c->changed[k - 1] > joint) {
        c->changed[k] = c->changed[k - 1];
        c->was[k] = c->was[k - 1];
        k--;
    }
    c->changed[k] = joint;
    c->was[k] = c->fit[joint - 1].sc;
    c->is_changed[joint] = 1;
}

void chain_clear_changed(hs_chain *c)
{
    for (int k = 0; k < c->nchanged; k++)
        c->is_changed[c->changed[k]] = 0;
    c->nchanged = 0;
    c->all_dirty = 0;
}

/* Binary search for the first changed joint > lo. */
int chain_span_changed_search(const hs_chain *c, int lo, int hi)
{
    int a = 0, b = c->nchanged;
    while (a < b) {
        int m = (a + b) >> 1;
        if (c->changed[m] <= lo)
            a = m + 1;
        else
            b = m;
    }
    return a < c->nchanged && c->changed[a] <= hi;
}
