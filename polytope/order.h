/* order.h -- sorting by a permutation (order.c): the indices 0..n-1 put
 * in the order of a comparison that takes a context (a stable merge
 * sort), and an O(n) check that a permutation already orders the items,
 * so that a caller whose items come in the same order time after time
 * (the pairs of a scene at rest) can reuse the last permutation.
 *
 * cmp(ctx, i, j) < 0, 0, > 0 as item i comes before, with, after item j.
 * Thread-safe: nothing is shared between calls. */
#ifndef HS_ORDER_H
#define HS_ORDER_H

typedef int (*order_cmp)(void *ctx, int i, int j);

/* perm (n ints) receives the indices in order (ties in index order); tmp
 * is scratch for n ints. */
void order_sort(int n, order_cmp cmp, void *ctx, int *perm, int *tmp);

/* 1 when perm (n ints) lists indices in strictly increasing order of cmp
 * (each item strictly before the next), else 0.  perm is trusted to be a
 * permutation of 0..n-1. */
int order_holds(int n, order_cmp cmp, void *ctx, const int *perm);

#endif
