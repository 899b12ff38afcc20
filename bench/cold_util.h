/* cold_util.h -- cold timing of one query per instance against a peer,
 * for the C++ benchmarks that compare with FCL instance by instance
 * (bench/mesh, bench/robots, bench/robot).  The protocol of bench/pairs (issue 13):
 * every instance is queried once per repeat, the instances in a new random
 * order each repeat, the methods interleaved (which one goes first
 * alternates from instance to instance and from repeat to repeat), and
 * each query timed alone.  What is reported: the mean over all instances
 * and repeats (the headline), the means per class (disjoint, overlap,
 * touching, by our exact answer), the spread (smallest and largest
 * per-repeat mean) and the median of all timed queries.  Header-only,
 * C++17. */
#ifndef HS_BENCH_COLD_UTIL_H
#define HS_BENCH_COLD_UTIL_H

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_rng.h"
#include "halfspace.h"

namespace cold {

enum { DISJOINT = 0, OVERLAP = 1, TOUCHING = 2, CLASSES = 3 };

inline const char *class_name(int c)
{
    return c == DISJOINT ? "disjoint" : c == OVERLAP ? "overlap" : "touching";
}

/* The class of our answer. */
inline int class_of(hs_status st)
{
    return st == HS_OVERLAP ? OVERLAP : st == HS_TOUCHING ? TOUCHING : DISJOINT;
}

inline double now_us()
{
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/* One method's times: us[r * n + i] for repeat r and instance i. */
struct times {
    int n = 0, reps = 0;
    std::vector<double> us;

    void reset(int instances, int repeats)
    {
        n = instances;
        reps = repeats;
        us.assign((size_t)n * (size_t)reps, NAN);
    }
    double &at(int r, int i) { return us[(size_t)r * (size_t)n + (size_t)i]; }
    double at(int r, int i) const { return us[(size_t)r * (size_t)n + (size_t)i]; }

    /* Mean over the instances of class c (every instance when c < 0) and
     * every repeat; NaN when there is none. */
    double mean(const std::vector<int> &cls, int c = -1) const
    {
        double s = 0;
        long k = 0;
        for (int r = 0; r < reps; r++)
            for (int i = 0; i < n; i++)
                if (c < 0 || cls[(size_t)i] == c) {
                    s += at(r, i);
                    k++;
                }
        return k ? s / (double)k : NAN;
    }

    /* The smallest and largest per-repeat mean over all instances. */
    void spread(double *lo, double *hi) const
    {
        *lo = INFINITY;
        *hi = -INFINITY;
        for (int r = 0; r < reps; r++) {
            double s = 0;
            for (int i = 0; i < n; i++)
                s += at(r, i);
            *lo = std::min(*lo, s / n);
            *hi = std::max(*hi, s / n);
        }
    }

    /* The median of every timed query. */
    double median() const { return median_of(us); }

    /* The median of repeat r's queries. */
    double repeat_median(int r) const
    {
        return median_of(std::vector<double>(us.begin() + (long)r * n,
                                             us.begin() + (long)(r + 1) * n));
    }

    /* The smallest and largest per-repeat median. */
    void median_spread(double *lo, double *hi) const
    {
        *lo = INFINITY;
        *hi = -INFINITY;
        for (int r = 0; r < reps; r++) {
            double m = repeat_median(r);
            *lo = std::min(*lo, m);
            *hi = std::max(*hi, m);
        }
    }

  private:
    static double median_of(std::vector<double> v)
    {
        if (v.empty())
            return NAN;
        std::sort(v.begin(), v.end());
        size_t k = v.size();
        return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
    }
};

/* Runs `repeats` repeats over n instances for `methods` methods:
 * query(k, i) runs method k on instance i and returns its time in
 * microseconds (the caller times exactly what it wants timed); t[k] gets
 * the times.  In repeat r the instances come in a new random order (from
 * rng), and for the j-th instance of that order the methods start at
 * (j + r) mod methods and go round. */
template <class Query>
void run(int n, int repeats, int methods, bench_rng &rng, std::vector<times> &t, Query query)
{
    t.assign((size_t)methods, times());
    for (auto &x : t)
        x.reset(n, repeats);
    std::vector<int> order((size_t)n);
    for (int r = 0; r < repeats; r++) {
        for (int i = 0; i < n; i++)
            order[(size_t)i] = i;
        rng.shuffle(order);
        for (int j = 0; j < n; j++)
            for (int c = 0; c < methods; c++) {
                int k = (j + r + c) % methods, i = order[(size_t)j];
                t[(size_t)k].at(r, i) = query(k, i);
            }
    }
}

/* A mean for a table or a RESULT field: %.4g, or na (an empty class). */
inline std::string mean_text(double x)
{
    char buf[32];
    if (std::isnan(x))
        std::snprintf(buf, sizeof buf, "na");
    else
        std::snprintf(buf, sizeof buf, "%.4g", x);
    return buf;
}

/* "a / b / c" of the class means (na for an empty class), for a table. */
inline std::string class_means(const times &t, const std::vector<int> &cls)
{
    std::string s;
    for (int c = 0; c < CLASSES; c++)
        s += (c ? " / " : "") + mean_text(t.mean(cls, c));
    return s;
}

/* The RESULT fields of one method: mean_us, disjoint_us, overlap_us,
 * touching_us, spread, median_us. */
inline std::string result_fields(const times &t, const std::vector<int> &cls)
{
    char buf[256];
    double lo, hi;
    t.spread(&lo, &hi);
    std::snprintf(buf, sizeof buf,
                  "mean_us=%.4g disjoint_us=%s overlap_us=%s touching_us=%s spread=%.4g-%.4g "
                  "median_us=%.4g",
                  t.mean(cls), mean_text(t.mean(cls, DISJOINT)).c_str(),
                  mean_text(t.mean(cls, OVERLAP)).c_str(),
                  mean_text(t.mean(cls, TOUCHING)).c_str(), lo, hi, t.median());
    return buf;
}

} // namespace cold

#endif
