/* fast_work.c -- freeing and measuring the fast engine's scratch
 * (fast_work.h). */
#include "solver/fast_work.h"

#include <stdlib.h>

void fast_work_free(fast_work *w)
{
    if (!w)
        return;
    seidel_work_free(w->sw);
    free(w->order);
    free(w->in_set);
    free(w->lp_tab);
    free(w->plane_buf);
    free(w->plane_ids);
    free(w->plane_in);
    free(w);
}
