/* world_util.h -- small helpers shared by the parts of bench/world
 * (world.cpp: moving bodies; world_rest.cpp: resting contact and body
 * setup; world_hulls.cpp: hulls set face down): the random stream, the
 * clock, fatal errors, the options of a timed step, and summaries of
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

#include "bench/bench_rng.h"
#include "halfspace.h"

namespace wbench {

/* splitmix64 stream. */
struct rng : bench_rng {
    explicit rng(uint64_t seed) : bench_rng(seed, 0x632BE59BD9B4E019ull) {}
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

/* The options of a timed world query step: the defaults with threshold
 * 0 (pairs that meet only), contacts off and one thread. */
inline hs_query_options step_options()
{
    hs_query_options opt;
    hs_query_options_init(&opt);
    opt.threshold = 0;
    opt.contacts = 0;
    opt.threads = 1;
    return opt;
}

/* A method's timings (milliseconds or microseconds), its untimed first
 * run, and how many were timed by CPU time (the thread switched out). */
struct series {
    std::vector<double> v;
    double first = NAN;
    long switched = 0;
    double lo() const { return v.empty() ? NAN : *std::min_element(v.begin(), v.end()); }
    double hi() const { return v.empty() ? NAN : *std::max_element(v.begin(), v.end()); }
};

} // namespace wbench

#endif
