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

#endif
