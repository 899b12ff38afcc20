/* chain_helpers.h -- helpers shared by the chain tests (test_chain.c,
 * test_chain_pieces.c, test_chain_api.c): random poses and torsions, and
 * chains built with every call checked. */
#ifndef HS_TEST_CHAIN_HELPERS_H
#define HS_TEST_CHAIN_HELPERS_H

#include <math.h>
#include <stdint.h>

#include "halfspace.h"
#include "tests/helpers.h"

static inline int rng_int(uint64_t *s, int n) { return (int)(t_rng_next(s) % (uint64_t)n); }

/* A random rigid pose: rotation from a quaternion, translation of length
 * about len along a random direction. */
static inline void random_pose(uint64_t *s, double len, double m[16])
{
    double q[4] = {t_rng_sym(s), t_rng_sym(s), t_rng_sym(s), t_rng_sym(s)};
    if (fabs(q[0]) + fabs(q[1]) + fabs(q[2]) + fabs(q[3]) < 0.1)
        q[0] = 1;
    double t[3] = {len * t_rng_sym(s), len * t_rng_sym(s), len * t_rng_sym(s)};
    ck_assert(hs_pose_from_quat(m, q, t, NULL) == HS_OK);
}

/* A rotation about x by a random angle (a torsion about the bond). */
static inline void random_torsion(uint64_t *s, double max_angle, double m[16])
{
    double x[3] = {1, 0, 0};
    ck_assert(hs_pose_from_axis_angle(m, x, max_angle * t_rng_sym(s), NULL, NULL) == HS_OK);
}

static inline hs_chain *new_chain(int n)
{
    hs_error err;
    hs_chain *c = hs_chain_new(n, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    return c;
}

static inline void set_joint(hs_chain *c, int i, const double m[16])
{
    hs_error err;
    ck_assert_msg(hs_chain_set_joint(c, i, m, &err) == HS_OK, "%s", err.msg);
}

static inline void add_sphere(hs_chain *c, int link, double x, double y, double z, double r)
{
    double p[3] = {x, y, z};
    hs_error err;
    ck_assert_msg(hs_chain_add_sphere(c, link, p, r, &err) == HS_OK, "%s", err.msg);
}

#endif
