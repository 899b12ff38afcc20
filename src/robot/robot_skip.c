/* robot_skip.c -- the skip list of a robot (its allowed-collision
 * matrix): pairs of links with pieces that are never tested, each with
 * its reason (adjacent, in collision at the rest configuration, the
 * caller's), kept sorted by the key a * L + b (a < b).  (The automatic
 * skip list is made in robot_self.c.) */
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/grow.h"
#include "src/robot/robot.h"

static long long robot_skip_key(const hs_robot *r, int a, int b)
{
    return a < b ? (long long)a * r->nlinks + b : (long long)b * r->nlinks + a;
}

/* Position of key in the list (1 if present), or where it would go. */
static int robot_skip_find(const hs_robot *r, long long key, int *pos)
{
    int lo = 0, hi = r->nskip;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (r->skip[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    *pos = lo;
    return lo < r->nskip && r->skip[lo].key == key;
}

hs_robot_skip_reason robot_skip_reason(const hs_robot *r, int a, int b)
{
    if (r->link[a].npiece == 0 || r->link[b].npiece == 0)
        return HS_ROBOT_NO_GEOMETRY;
    int pos;
    return robot_skip_find(r, robot_skip_key(r, a, b), &pos) ? (hs_robot_skip_reason)r->skip[pos].why
                                                 : HS_ROBOT_TESTED;
}

int robot_skip_set(hs_robot *r, int a, int b, hs_robot_skip_reason why)
{
    int pos;
    long long key = robot_skip_key(r, a, b);
    int present = robot_skip_find(r, key, &pos);
    if (why == HS_ROBOT_TESTED) {
        if (!present)
            return 0;
        memmove(r->skip + pos, r->skip + pos + 1, sizeof *r->skip * (size_t)(r->nskip - pos - 1));
        r->nskip--;
        r->have_free = 0; /* a pair to test again: search everything */
    } else if (present) {
        r->skip[pos].why = (unsigned char)why;
    } else {
        robot_skip *s = grow_array(r->skip, &r->skip_cap, (long)r->nskip + 1, sizeof *s);
        if (!s)
            return -1;
        r->skip = s;
        memmove(s + pos + 1, s + pos, sizeof *s * (size_t)(r->nskip - pos));
        s[pos].key = key;
        s[pos].why = (unsigned char)why;
        r->nskip++;
    }
    return 0;
}

/* ------------------------------------------------------------ public */

const char *hs_robot_skip_reason_name(hs_robot_skip_reason why)
{
    switch (why) {
    case HS_ROBOT_TESTED: return "tested";
    case HS_ROBOT_ADJACENT: return "adjacent";
    case HS_ROBOT_REST: return "rest";
    case HS_ROBOT_USER: return "user";
    case HS_ROBOT_NO_GEOMETRY: return "no-geometry";
    }
    return "unknown";
}

static int pair_ok(const hs_robot *r, int a, int b)
{
    return r && a >= 0 && b >= 0 && a < r->nlinks && b < r->nlinks && a != b;
}

hs_code hs_robot_skip_pair(hs_robot *r, int a, int b, int skip, hs_error *err)
{
    if (!pair_ok(r, a, b))
        return err_set(err, HS_ERR_ARG, "hs_robot_skip_pair: (%d, %d) is not a pair of distinct "
                                        "links of the robot", a, b);
    hs_robot_skip_reason now = robot_skip_reason(r, a, b);
    if (now == HS_ROBOT_NO_GEOMETRY || now == HS_ROBOT_ADJACENT)
        return HS_OK;
    if (robot_skip_set(r, a, b, skip ? HS_ROBOT_USER : HS_ROBOT_TESTED) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    return HS_OK;
}

hs_robot_skip_reason hs_robot_pair_skipped(const hs_robot *r, int a, int b)
{
    return pair_ok(r, a, b) ? robot_skip_reason(r, a, b) : HS_ROBOT_TESTED;
}

int hs_robot_skip_count(const hs_robot *r) { return r ? r->nskip : 0; }

hs_code hs_robot_skip_get(const hs_robot *r, int k, int *a, int *b, hs_robot_skip_reason *why,
                          hs_error *err)
{
    if (!r || k < 0 || k >= r->nskip)
        return err_set(err, HS_ERR_ARG, "hs_robot_skip_get: no skip pair %d", k);
    long long key = r->skip[k].key;
    if (a)
        *a = (int)(key / r->nlinks);
    if (b)
        *b = (int)(key % r->nlinks);
    if (why)
        *why = (hs_robot_skip_reason)r->skip[k].why;
    return HS_OK;
}
