/* rng.h -- the project's random numbers: small, fast, deterministic
 * generators whose whole state is one 64-bit word owned by the caller
 * (no global state).  They steer randomized algorithms (the row order of
 * Seidel's LP) and generate test instances; no answer depends on them.
 *
 *   rng_splitmix   splitmix64 (Steele, Lea, Flood 2014): good from any
 *                  seed, also to derive independent seeds;
 *   rng_xorshift   the high 32 bits of xorshift64* (Vigna 2016): the
 *                  state must not be 0. */
#ifndef HS_RNG_H
#define HS_RNG_H

#include <stdint.h>
#include <string.h>

static inline uint64_t rng_splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint32_t rng_xorshift(uint64_t *state)
{
    uint64_t s = *state;
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    *state = s;
    return (uint32_t)((s * 0x2545F4914F6CDD1DULL) >> 32);
}

/* Fisher-Yates shuffle of v[0..count-1] driven by rng_xorshift. */
static inline void rng_shuffle(uint64_t *state, int *v, int count)
{
    for (int i = count - 1; i > 0; i--) {
        int j = (int)(rng_xorshift(state) % (uint32_t)(i + 1));
        int t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* A seed made from h and the bit patterns of n doubles (never 0, so it
 * also serves rng_xorshift).  A randomized algorithm seeded from its own
 * input this way answers a query the same whatever ran before it (so the
 * answers of a query split among threads do not depend on which thread
 * took which part). */
static inline uint64_t rng_seed_of(uint64_t h, const double *v, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        h ^= bits;
        h = rng_splitmix(&h);
    }
    return h ? h : 0x9E3779B97F4A7C15ull;
}

/* Uniform double in [0, 1) from 53 random bits. */
static inline double rng_unit(uint64_t *state)
{
    return (double)(rng_splitmix(state) >> 11) * 0x1p-53;
}

#endif
