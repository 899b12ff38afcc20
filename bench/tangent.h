/* tangent.h -- "tangent-sphere polytopes": random 3-D polytopes whose m
 * facets all touch (to within 2^-10) a unit sphere, and reproducible pairs
 * of them for the benchmarks.
 *
 * A polytope around the center c has one row per facet:
 *
 *     u . x <= u . c + r(u),
 *
 * where u is an integer vector drawn uniformly from the ball of radius 1000
 * in Z^3 (zero excluded), so its direction is (up to the lattice) uniform
 * on the sphere, and r(u) is |u| rounded up to a multiple of 2^-10.  The
 * plane is therefore at distance between 1 and 1 + 2^-10 / |u| from c.
 * Centers have coordinates that are multiples of 2^-10, so every number of
 * every row is a dyadic rational of fewer than 53 significant bits: it is
 * exactly a double, and the exact engine sees the same small numbers as
 * the floating-point one.
 *
 * A pair (tangent_pair) puts A around the origin and B around a point at
 * distance d, uniform in [1.7, 2.3], along a random integer direction
 * (each coordinate rounded to the nearest multiple of 2^-10).  Both
 * polytopes contain their unit balls, so pairs with d < 2 always meet;
 * beyond 2 they meet when the polytopes' corners reach far enough.
 *
 * Randomness comes from xoshiro256** seeded through splitmix64; the state
 * lives in a caller's tangent_rng, nothing is global, and the same
 * (seed, index, mA, mB) always gives the same pair.  The center of pair
 * (seed, index) does not depend on mA and mB. */
#ifndef HS_BENCH_TANGENT_H
#define HS_BENCH_TANGENT_H

#include <stdint.h>

#include "halfspace.h"

/* Largest |component| of a drawn direction, and its squared norm bound. */
#define TANGENT_COORD_MAX 1000
/* Rows and centers are multiples of 2^-TANGENT_FRAC_BITS. */
#define TANGENT_FRAC_BITS 10
/* Range of the distance between the centers of a pair. */
#define TANGENT_DIST_MIN 1.7
#define TANGENT_DIST_MAX 2.3

/* xoshiro256** state. */
typedef struct tangent_rng {
    uint64_t s[4];
} tangent_rng;

/* Seed the generator (any seed, 0 included, gives a valid state). */
void tangent_rng_seed(tangent_rng *g, uint64_t seed);
/* Next 64 random bits. */
uint64_t tangent_rng_next(tangent_rng *g);
/* Uniform integer in [lo, hi] (lo <= hi), without modulo bias. */
long tangent_rng_int(tangent_rng *g, long lo, long hi);
/* Uniform double in [0, 1) with 53 random bits. */
double tangent_rng_unit(tangent_rng *g);

/* Integer vector u != 0 with |u_j| <= TANGENT_COORD_MAX and
 * |u| <= TANGENT_COORD_MAX, uniform among such vectors. */
void tangent_direction(tangent_rng *g, long u[3]);

/* ceil(sqrt(v)) for v < 2^62, computed exactly in integers. */
uint64_t tangent_isqrt_ceil(uint64_t v);

/* The right side of the tangent row u . x <= rhs around c:
 * u . c + (|u| rounded up to a multiple of 2^-10).  c must have
 * coordinates that are multiples of 2^-10 (|c_j| < 2^30); the result is
 * then exact. */
double tangent_rhs(const long u[3], const double c[3]);

/* Write m tangent rows around c into a (m*3, row-major) and b (m). */
void tangent_rows(tangent_rng *g, int m, const double c[3], double *a, double *b);

/* A new polytope of m tangent rows around c, or NULL (err set) when m < 1
 * or memory runs out. */
hs_poly *tangent_polytope(tangent_rng *g, int m, const double c[3], hs_error *err);

/* The generator of pair number `index` of the stream `seed`. */
tangent_rng tangent_rng_for_pair(uint64_t seed, long index);

/* Center of B for pair (seed, index): distance uniform in
 * [TANGENT_DIST_MIN, TANGENT_DIST_MAX] along a random integer direction,
 * rounded per coordinate to a multiple of 2^-10.  *dist (if not NULL)
 * receives the distance drawn before rounding. */
void tangent_pair_center(tangent_rng *g, double c[3], double *dist);

/* Pair number `index` of the stream `seed`: A with mA rows around the
 * origin, B with mB rows around the center above (written to cB when not
 * NULL).  Returns HS_OK, or an error with *A = *B = NULL. */
hs_code tangent_pair(uint64_t seed, long index, int mA, int mB, hs_poly **A, hs_poly **B,
                     double cB[3], hs_error *err);

#endif
