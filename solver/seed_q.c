/* seed_q.c -- the seed-002 routines (xianliang.inl, qiujiao.inl) over GMP
 * rationals: every row is read at its exact value (hpoly_get_q) and every
 * comparison is exact, so the tolerance is not used. */
#include <gmp.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/seed.h"

/* Exact text "p/q" or "p" of v; like snprintf, writes when it fits and
 * returns the length (an upper bound of it when it does not fit). */
static size_t rational_to_text(char *buf, size_t cap, mpq_srcptr v)
{
    size_t need = mpz_sizeinbase(mpq_numref(v), 10) + mpz_sizeinbase(mpq_denref(v), 10) + 3;
    if (need >= cap)
        return need;
    mpq_get_str(buf, 10, v);
    return strlen(buf);
}

#define NUM mpq_t
#define NUM_INIT(x) mpq_init(x)
#define NUM_CLEAR(x) mpq_clear(x)
#define NUM_SET(r, a) mpq_set(r, a)
#define NUM_SET_SI(r, i) mpq_set_si(r, i, 1)
#define NUM_SET_D(r, d) mpq_set_d(r, d)
#define NUM_FROM_POLY(r, P, i, j) hpoly_get_q(P, i, j, r)
#define NUM_ADD(r, a, b) mpq_add(r, a, b)
#define NUM_SUB(r, a, b) mpq_sub(r, a, b)
#define NUM_MUL(r, a, b) mpq_mul(r, a, b)
#define NUM_DIV(r, a, b) mpq_div(r, a, b)
#define NUM_NEG(r, a) mpq_neg(r, a)
#define NUM_ABS(r, a) mpq_abs(r, a)
#define NUM_SGN(a) mpq_sgn(a)
#define NUM_CMP(a, b) mpq_cmp(a, b)
#define NUM_MAG(a) 0.0
#define NUM_NEGLIGIBLE(tol, v, mag) ((void)(tol), (void)(mag), mpq_sgn(v) == 0)
#define NUM_TO_TEXT(buf, cap, a) rational_to_text(buf, cap, a)
#define NUM_TOLERANCE(opt) 0.0
#define SEED_FEASIBLE seed_feasible_q
#define SEED_INTERSECT seed_intersect_q
#define SEED_INTERSECT_STEPS seed_intersect_steps_q
#define NUM_GET_D(a) mpq_get_d(a)

#include "solver/seed_base.inl"
#include "solver/xianliang.inl"
#include "solver/qiujiao.inl"
#include "solver/seed_entry.inl"
