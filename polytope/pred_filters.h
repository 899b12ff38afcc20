/* pred_filters.h -- what the determinant filters of predicates.c and
 * pred_basis.c share (and the triangle hierarchy's plane tests, whose
 * filter is pred_orient3d's): the range in which a filter's bound holds,
 * the 4 x 4 filter's error factor, and the six pairs of rows of a 4 x 4
 * determinant's Laplace expansion along two columns (internal). */
#ifndef HS_PRED_FILTERS_H
#define HS_PRED_FILTERS_H

#include <math.h>

#include "polytope/fp.h"

/* Filters are used only when every nonzero input magnitude lies in
 * [FILTER_MIN, FILTER_MAX]: then no product of the evaluation overflows and
 * the absolute error of any underflow is far below the bound. */
#define FILTER_MAX 0x1p250
#define FILTER_MIN 0x1p-250
#define DET4_ERR (12.0 * FP_U)
/* pred_orient3d's filter (Shewchuk's orient3d expression: a row times the
 * minors of the other two, differences from one corner): |det - exact| <=
 * ORIENT_ERR times the permanent, when the inputs lie in the range above
 * and the permanent is at least ORIENT_PERM_MIN (below it an underflow
 * could matter: go exact). */
#define ORIENT_ERR ((7.0 + 56.0 * FP_U) * FP_U)
#define ORIENT_PERM_MIN 0x1p-800

static inline int filter_range_ok(const double *v, int count)
{
    for (int i = 0; i < count; i++) {
        double m = fabs(v[i]);
        if (!(m <= FILTER_MAX) || (m != 0 && m < FILTER_MIN))
            return 0;
    }
    return 1;
}

/* The 4 x 4 determinant as six products of 2 x 2 minors: rows
 * det4_pair(k)[0..1] on columns (0, 1) times the complementary rows [2..3]
 * on columns (2, 3), with the Laplace sign det4_pair_sign(k), k = 0..5. */
static inline const int *det4_pair(int k)
{
    static const int rows[6][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2},
                                   {1, 2, 0, 3}, {1, 3, 0, 2}, {2, 3, 0, 1}};
    return rows[k];
}
static inline int det4_pair_sign(int k)
{
    static const int sign[6] = {1, -1, 1, 1, -1, 1};
    return sign[k];
}

#endif
