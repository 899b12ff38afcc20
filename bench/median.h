/* median.h -- the median the benchmark programs report. */
#ifndef HS_BENCH_MEDIAN_H
#define HS_BENCH_MEDIAN_H

/* Median of v[0 .. n-1], n >= 1: the middle value, or the mean of the
 * two middle ones.  Sorts v in place (ascending), so v[0] and v[n-1] are
 * then the range. */
double bench_median(double *v, long n);

#endif
