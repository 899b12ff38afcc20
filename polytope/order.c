/* order.c -- sorting by a permutation (order.h). */
#include "polytope/order.h"

#include <string.h>

/* perm[lo, hi) sorted, by merging its sorted halves through tmp. */
static void merge_sort(int *perm, int *tmp, int lo, int hi, order_cmp cmp, void *ctx)
{
    if (hi - lo < 2)
        return;
    if (hi - lo <= 8) { /* short runs: insertion */
        for (int k = lo + 1; k < hi; k++) {
            int v = perm[k], j = k;
            for (; j > lo && cmp(ctx, perm[j - 1], v) > 0; j--)
                perm[j] = perm[j - 1];
            perm[j] = v;
        }
        return;
    }
    int mid = lo + (hi - lo) / 2;
    merge_sort(perm, tmp, lo, mid, cmp, ctx);
    merge_sort(perm, tmp, mid, hi, cmp, ctx);
    if (cmp(ctx, perm[mid - 1], perm[mid]) <= 0)
        return; /* (already in order) */
    int a = lo, b = mid, o = lo;
    while (a < mid && b < hi)
        tmp[o++] = cmp(ctx, perm[b], perm[a]) < 0 ? perm[b++] : perm[a++];
    while (a < mid)
        tmp[o++] = perm[a++];
    while (b < hi)
        tmp[o++] = perm[b++];
    memcpy(perm + lo, tmp + lo, sizeof(int) * (size_t)(hi - lo));
}

void order_sort(int n, order_cmp cmp, void *ctx, int *perm, int *tmp)
{
    for (int k = 0; k < n; k++)
        perm[k] = k;
    merge_sort(perm, tmp, 0, n, cmp, ctx);
}

int order_holds(int n, order_cmp cmp, void *ctx, const int *perm)
{
    for (int k = 1; k < n; k++)
        if (cmp(ctx, perm[k - 1], perm[k]) >= 0)
            return 0;
    return 1;
}
