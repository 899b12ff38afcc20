/* seed_d.c -- the seed-002 routines (xianliang.inl, qiujiao.inl) over double: the
 * numbers of the faithful engine.  Rows are read as their doubles; the
 * tolerance opt->faithful_tol decides when a computed value counts as
 * zero (see seed.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/seed.h"

/* Entry j of row i of P as its double (j == n: b_i). */
static double entry_double(const hs_poly *P, int i, int j)
{
    return j == P->n ? P->b[i] : hpoly_row(P, i)[j];
}

/* Shortest decimal text that reads back as v ("-0.5", "0.1"); like
 * snprintf, writes when it fits and returns the length. */
static size_t double_to_text(char *buf, size_t cap, double v)
{
    char tmp[40];
    if (v == 0)
        v = 0; /* no "-0" */
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(tmp, sizeof tmp, "%.*g", digits, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    size_t len = strlen(tmp);
    if (len < cap)
        memcpy(buf, tmp, len + 1);
    return len;
}

#define NUM double
#define NUM_INIT(x) ((x) = 0.0)
#define NUM_CLEAR(x) ((void)(x))
#define NUM_SET(r, a) ((r) = (a))
#define NUM_SET_SI(r, i) ((r) = (double)(i))
#define NUM_SET_D(r, d) ((r) = (d))
#define NUM_FROM_POLY(r, P, i, j) ((r) = entry_double(P, i, j))
#define NUM_ADD(r, a, b) ((r) = (a) + (b))
#define NUM_SUB(r, a, b) ((r) = (a) - (b))
#define NUM_MUL(r, a, b) ((r) = (a) * (b))
#define NUM_DIV(r, a, b) ((r) = (a) / (b))
#define NUM_NEG(r, a) ((r) = -(a))
#define NUM_ABS(r, a) ((r) = fabs(a))
#define NUM_SGN(a) (((a) > 0) - ((a) < 0))
#define NUM_CMP(a, b) (((a) > (b)) - ((a) < (b)))
#define NUM_MAG(a) fabs(a)
#define NUM_NEGLIGIBLE(tol, v, mag) (fabs(v) <= (tol) * (mag))
#define NUM_TO_TEXT(buf, cap, a) double_to_text(buf, cap, a)
#define NUM_TOLERANCE(opt) ((opt)->faithful_tol)
#define SEED_FEASIBLE seed_feasible_d
#define SEED_INTERSECT seed_intersect_d
#define SEED_INTERSECT_STEPS seed_intersect_steps_d
#define NUM_GET_D(a) (a)

#include "solver/seed_base.inl"
#include "solver/xianliang.inl"
#include "solver/qiujiao.inl"
#include "solver/seed_entry.inl"
