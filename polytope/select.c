/* select.c -- quickselect of the smallest keys (select.h). */
#include "polytope/select.h"

void keyed_smallest_first(keyed *v, int count, int keep)
{
    int lo = 0, hi = count - 1;
    while (lo < hi && keep > 0 && keep < count) {
        double piv = v[(lo + hi) / 2].key;
        int i = lo, j = hi;
        while (i <= j) {
            while (v[i].key < piv)
                i++;
            while (v[j].key > piv)
                j--;
            if (i <= j) {
                keyed t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        if (keep - 1 <= j)
            hi = j;
        else if (keep - 1 >= i)
            lo = i;
        else
            return;
    }
}
