/* bench_rng.h -- the random numbers of the C++ benchmarks: splitmix64
 * (polytope/rng.h's rng_splitmix) seeded from (seed, salt), with the
 * draws they share.  Each program derives its own `rng` with its salt,
 * so that its instance streams stay what its recorded results used. */
#ifndef HS_BENCH_RNG_H
#define HS_BENCH_RNG_H

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "polytope/rng.h"

struct bench_rng {
    uint64_t s;
    bench_rng(uint64_t seed, uint64_t salt) : s(seed * 0x9E3779B97F4A7C15ull + salt) {}
    uint64_t next() { return rng_splitmix(&s); }
    /* uniform in [0, 1) with 53 random bits; in [lo, hi) */
    double uniform() { return (double)(next() >> 11) * 0x1p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    /* uniform integer in [lo, hi] (modulo bias: irrelevant here) */
    int integer(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }
    /* a uniformly random unit vector (rejection from the cube) */
    void unit(double u[3])
    {
        for (;;) {
            double x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1);
            double r2 = x * x + y * y + z * z;
            if (r2 > 1e-6 && r2 <= 1) {
                double r = std::sqrt(r2);
                u[0] = x / r, u[1] = y / r, u[2] = z / r;
                return;
            }
        }
    }
    /* Fisher-Yates */
    template <class T> void shuffle(std::vector<T> &v)
    {
        for (size_t i = v.size(); i > 1; i--)
            std::swap(v[i - 1], v[next() % i]);
    }
};

#endif
