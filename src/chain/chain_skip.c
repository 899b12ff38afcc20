/* chain_skip.c -- the skip list of a chain: the pairs of links the
 * self-collision search never tests (adjacent pairs, unless turned off,
 * and the pairs listed, kept as sorted keys i * n + j, i < j). */
#include <string.h>

#include "src/chain/chain.h"
#include "polytope/error.h"
#include "polytope/mem.h"

static long long skip_key(const hs_chain *c, int i, int j) { return (long long)i * c->n + j; }

static int skip_find(const hs_chain *c, long long key, int *pos)
{
    int a = 0, b = c->nskip;
    while (a < b) {
        int m = (a + b) >> 1;
        if (c->skip[m] < key)
            a = m + 1;
        else
            b = m;
    }
    *pos = a;
    return a < c->nskip && c->skip[a] == key;
}

int chain_pair_skipped(const hs_chain *c, int i, int j)
{
    if (i > j) {
        int t = i;
        i = j;
        j = t;
    }
    if (c->skip_adjacent && j == i + 1)
        return 1;
    int pos;
    return c->nskip > 0 && skip_find(c, skip_key(c, i, j), &pos);
}

hs_code hs_chain_skip_pair(hs_chain *c, int i, int j, int skip, hs_error *err)
{
    if (!c)
        return err_set(err, HS_ERR_ARG, "hs_chain_skip_pair: NULL chain");
    if (i < 0 || j < 0 || i >= c->n || j >= c->n || i == j)
        return err_set(err, HS_ERR_ARG,
                       "hs_chain_skip_pair: (%d, %d) is not a pair of distinct links in 0..%d", i,
                       j, c->n - 1);
    if (i > j) {
        int t = i;
        i = j;
        j = t;
    }
    int pos, found = skip_find(c, skip_key(c, i, j), &pos);
    if (skip && !found) {
        if (c->nskip == c->capskip) {
            int cap = c->capskip ? 2 * c->capskip : 8;
            long long *s = mem_realloc(c->skip, (size_t)cap, sizeof *s);
            if (!s)
                return err_set(err, HS_ERR_NOMEM, "out of memory");
            c->skip = s;
            c->capskip = cap;
        }
        memmove(c->skip + pos + 1, c->skip + pos, sizeof(long long) * (size_t)(c->nskip - pos));
        c->skip[pos] = skip_key(c, i, j);
        c->nskip++;
    } else if (!skip && found) {
        memmove(c->skip + pos, c->skip + pos + 1, sizeof(long long) * (size_t)(c->nskip - pos - 1));
        c->nskip--;
        chain_clear_changed(c);
        c->all_dirty = 1; /* a pair that was not tested may collide */
    }
    return HS_OK;
}

void hs_chain_skip_adjacent(hs_chain *c, int skip)
{
    if (!c)
        return;
    if (c->skip_adjacent && !skip) {
        chain_clear_changed(c);
        c->all_dirty = 1;
    }
    c->skip_adjacent = skip != 0;
}
