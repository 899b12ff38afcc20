/* select.h -- partial selection (select.c): the k smallest keys of an
 * array moved to its front, in expected linear time. */
#ifndef HS_SELECT_H
#define HS_SELECT_H

/* A key and the item it belongs to (a row, a column). */
typedef struct keyed {
    double key;
    int id;
} keyed;

/* Reorder v[0 .. count-1] so that its `keep` smallest keys come first (in
 * no particular order): quickselect, the middle element as pivot.  Keys
 * must not be NaN.  keep <= 0 or >= count leaves v as it is. */
void keyed_smallest_first(keyed *v, int count, int keep);

/* A running list of the `room` largest keys met so far, largest first:
 * keys[0 .. *count) and their ids.  (key, id) joins when the list has room
 * or when key beats its last; an equal key keeps the earlier.  Inline: the
 * scans over every row call it on each candidate. */
static inline void keep_largest(double *keys, int *ids, int *count, int room, double key, int id)
{
    if (*count == room && key <= keys[room - 1])
        return;
    int at = *count < room ? (*count)++ : room - 1;
    for (; at > 0 && keys[at - 1] < key; at--) {
        keys[at] = keys[at - 1];
        ids[at] = ids[at - 1];
    }
    keys[at] = key;
    ids[at] = id;
}

#endif
