/* world_util.h -- small helpers shared by the parts of bench/world
 * (world.cpp: moving bodies; world_rest.cpp: resting contact and body
 * setup): the random stream, the clock, fatal errors, and summaries of
 * timings.  Header-only, C++17. */
#ifndef HS_BENCH_WORLD_UTIL_H
#define HS_BENCH_WORLD_UTIL_H

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <sys/resource.h>
#include <time.h>

#include "halfspace.h"

namespace wbench {

/* splitmix64 stream. */
struct rng {
    uint64_t s;
    explicit rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
    uint64_t next()
    {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return (double)(next() >> 11) * 0x1p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    int integer(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }
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
};

[[noreturn]] inline void die(const char *what, const hs_error *err = nullptr)
{
    std::fprintf(stderr, "world: %s%s%s\n", what, err ? ": " : "", err ? err->msg : "");
    std::exit(EXIT_FAILURE);
}

inline double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline double median(std::vector<double> v)
{
    if (v.empty())
        return NAN;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline double mean(const std::vector<double> &v)
{
    if (v.empty())
        return NAN;
    double s = 0;
    for (double x : v)
        s += x;
    return s / (double)v.size();
}

/* The CPU time of this thread, in seconds. */
inline double cpu_now()
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Context switches of this thread so far. */
inline long thread_switches()
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nvcsw + ru.ru_nivcsw : 0;
}

/* Run fn once and return its wall-clock time in seconds; when the thread
 * was switched out meanwhile (another process ran), return the smaller of
 * that and the thread's CPU time (read around the wall-clock timer, so
 * about one reading, ~1 us, more), and count it in *switched. */
template <class F> double timed(F &&fn, long *switched)
{
    long sw = thread_switches();
    double c0 = cpu_now();
    double t0 = now_s();
    fn();
    double t = now_s() - t0;
    double c = cpu_now() - c0;
    if (thread_switches() != sw) {
        ++*switched;
        return std::min(t, c);
    }
    return t;
}

} // namespace wbench

#endif
