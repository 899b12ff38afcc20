/* pairs_report.c -- the output of bench/pairs: per row and method the
 * mean over all pairs and repeats, the per-class means, the spread of the
 * per-repeat means, the floor and the first query; the two Markdown
 * tables, the notes and the RESULT lines (see pairs.c for what they
 * mean). */
#include <glpk.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "bench/pairs.h"

const char *const method_label[METHODS] = {"fast", "exact", "glpk", "mpr",
                                           "mpr-hill", "gjk", "gjk-hill"};

/* What one method did in one row; times in microseconds, NAN when there
 * is nothing to average. */
typedef struct method_fig {
    long n;         /* pairs timed */
    double mean;    /* over all pairs and repeats */
    double cls[CLASSES];
    double lo, hi;  /* smallest and largest per-repeat mean */
    double floor;   /* mean over pairs of the fastest repeat */
    double first;   /* mean first query */
} method_fig;

static method_fig figures(const bench_opts *o, const row_stats *st, int e)
{
    method_fig f = {0, NAN, {NAN, NAN, NAN}, NAN, NAN, NAN, NAN};
    double sum = 0, csum[CLASSES] = {0}, fsum = 0, first = 0;
    long cn[CLASSES] = {0};
    for (long i = 0; i < st->pairs; i++) {
        if (isnan(st->first[e][i]))
            continue;
        f.n++;
        first += st->first[e][i];
        double best = INFINITY;
        for (int r = 0; r < o->repeat; r++) {
            double t = st->t[e][(long)r * st->pairs + i];
            sum += t;
            csum[class_index(st->cls[i])] += t;
            cn[class_index(st->cls[i])]++;
            best = fmin(best, t);
        }
        fsum += best;
    }
    if (f.n == 0)
        return f;
    f.mean = 1e6 * sum / ((double)f.n * o->repeat);
    for (int c = 0; c < CLASSES; c++)
        f.cls[c] = cn[c] ? 1e6 * csum[c] / (double)cn[c] : NAN;
    f.floor = 1e6 * fsum / (double)f.n;
    f.first = 1e6 * first / (double)f.n;
    f.lo = INFINITY;
    f.hi = -INFINITY;
    for (int r = 0; r < o->repeat; r++) {
        double rsum = 0;
        for (long i = 0; i < st->pairs; i++)
            if (!isnan(st->first[e][i]))
                rsum += st->t[e][(long)r * st->pairs + i];
        double mean = 1e6 * rsum / (double)f.n;
        f.lo = fmin(f.lo, mean);
        f.hi = fmax(f.hi, mean);
    }
    return f;
}

static const char *num(double v, char *buf, size_t size)
{
    if (isnan(v))
        snprintf(buf, size, "na");
    else
        snprintf(buf, size, "%.3g", v);
    return buf;
}

/* "mean (lo-hi)" */
static const char *cell(const method_fig *f, char *buf, size_t size)
{
    char a[32], b[32], c[32];
    if (f->n == 0)
        snprintf(buf, size, "na");
    else
        snprintf(buf, size, "%s (%s-%s)", num(f->mean, a, sizeof a), num(f->lo, b, sizeof b),
                 num(f->hi, c, sizeof c));
    return buf;
}

static const char *m_text(const row_stats *st, char *buf, size_t size)
{
    if (fam_has_m(st->fam))
        snprintf(buf, size, "%d", st->m);
    else
        snprintf(buf, size, "%d-%d (mean %.0f)", st->m_min, st->m_max, st->m_mean);
    return buf;
}

/* "build / ready" microseconds per polytope. */
static const char *build_text(const row_stats *st, char *buf, size_t size)
{
    char a[32], b[32];
    double n = st->builds ? (double)st->builds : NAN;
    snprintf(buf, size, "%s / %s", num(1e6 * st->build_s / n, a, sizeof a),
             num(1e6 * st->ready_s / n, b, sizeof b));
    return buf;
}

/* The better (lower mean) of two variants. */
static int better(const method_fig *f, int a, int b)
{
    return !(f[b].mean < f[a].mean) ? a : b;
}

static void print_main_table(const bench_opts *o, const row_stats *st, int nst)
{
    printf("Mean time of one query in microseconds over all pairs and %d repeats, with the "
           "smallest and largest per-repeat mean in parentheses.\n\n",
           o->repeat);
    printf("| family | m | vertices | pairs: disjoint / overlap / touching | build / ready us | "
           "fast | exact | GLPK | MPR | MPR-hill | GJK | GJK-hill | fast / MPR* | fast / GJK* | "
           "fast / GLPK |\n");
    printf("|---|---|---:|---|---|---|---|---|---|---|---|---|---:|---:|---:|\n");
    for (int s = 0; s < nst; s++) {
        method_fig f[METHODS];
        char c[METHODS][112], mt[64], r[3][32], b[72];
        for (int e = 0; e < METHODS; e++) {
            f[e] = figures(o, &st[s], e);
            cell(&f[e], c[e], sizeof c[e]);
        }
        int mpr = better(f, M_MPR, M_MPR_HILL), gjk = better(f, M_GJK, M_GJK_HILL);
        printf("| %s | %s | %.0f | %ld / %ld / %ld | %s | %s | %s (%ld pairs) | %s | %s | %s | "
               "%s | %s | %s | %s | %s |\n",
               fam_name(st[s].fam), m_text(&st[s], mt, sizeof mt),
               (double)st[s].vertices / (2.0 * (double)st[s].pairs), st[s].count[0],
               st[s].count[1], st[s].count[2],
               build_text(&st[s], b, sizeof b),
               c[M_FAST], c[M_EXACT], f[M_EXACT].n, c[M_GLPK], c[M_MPR], c[M_MPR_HILL], c[M_GJK],
               c[M_GJK_HILL], num(f[M_FAST].mean / f[mpr].mean, r[0], sizeof r[0]),
               num(f[M_FAST].mean / f[gjk].mean, r[1], sizeof r[1]),
               num(f[M_FAST].mean / f[M_GLPK].mean, r[2], sizeof r[2]));
    }
}

static void print_class_table(const bench_opts *o, const row_stats *st, int nst)
{
    printf("\nPer class (the exact answer): mean microseconds over the pairs of each class, "
           "disjoint / overlap / touching; the fast engine's floor (mean over pairs of the "
           "fastest repeat) and first query (priming pass); wrong answers.\n\n");
    printf("| family | m | fast | fast floor / first | fallback rate | MPR* | GJK* | GLPK | "
           "wrong: fast / exact / GLPK / MPR / MPR-hill / GJK / GJK-hill |\n");
    printf("|---|---|---|---|---:|---|---|---|---|\n");
    for (int s = 0; s < nst; s++) {
        method_fig f[METHODS];
        for (int e = 0; e < METHODS; e++)
            f[e] = figures(o, &st[s], e);
        int pick[4] = {M_FAST, better(f, M_MPR, M_MPR_HILL), better(f, M_GJK, M_GJK_HILL),
                       M_GLPK};
        char c[4][112], mt[64], fl[2][32], fr[32];
        for (int k = 0; k < 4; k++) {
            char x[CLASSES][32];
            snprintf(c[k], sizeof c[k], "%s / %s / %s", num(f[pick[k]].cls[0], x[0], sizeof x[0]),
                     num(f[pick[k]].cls[1], x[1], sizeof x[1]),
                     num(f[pick[k]].cls[2], x[2], sizeof x[2]));
        }
        char w[128];
        int at = 0;
        for (int e = 0; e < METHODS; e++)
            at += snprintf(w + at, sizeof w - (size_t)at, "%s%ld", e ? " / " : "",
                           st[s].wrong[e]);
        printf("| %s | %s | %s | %s / %s | %s | %s (%s) | %s (%s) | %s | %s |\n",
               fam_name(st[s].fam), m_text(&st[s], mt, sizeof mt), c[0],
               num(f[M_FAST].floor, fl[0], sizeof fl[0]),
               num(f[M_FAST].first, fl[1], sizeof fl[1]),
               num(st[s].pairs ? (double)st[s].fallbacks / (double)st[s].pairs : NAN, fr,
                   sizeof fr),
               c[1], method_label[pick[1]], c[2], method_label[pick[2]], c[3], w);
    }
}

static double report_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double timer_overhead_ns(void)
{
    double best = INFINITY;
    for (int k = 0; k < 5; k++) {
        double t0 = report_now(), t1 = t0;
        for (int i = 0; i < 100000; i++)
            t1 = report_now();
        best = fmin(best, (t1 - t0) / 100000);
    }
    return best * 1e9;
}

static void print_notes(const bench_opts *o, const row_stats *st, int nst,
                        const fam_meshes *meshes, const char *mesh_note)
{
    long skipped = 0, not_ready = 0;
    for (int s = 0; s < nst; s++) {
        skipped += st[s].skipped;
        not_ready += st[s].not_ready;
    }
    printf("\nSeed %" PRIu64 ", %ld pairs per row, %d timed repeats after one priming pass; "
           "each query timed alone (clock_gettime(CLOCK_MONOTONIC), about %.0f ns per call, "
           "not subtracted).  In a repeat the pairs come in a new random order and every "
           "method runs once on each pair, the methods in a rotated order.  MPR* and GJK* "
           "are the better (lower mean) of the scan and hill variants, named in the second "
           "table; the ratios are of the means.  \"vertices\": the mean number of vertices "
           "libccd is given per polytope.  The exact engine is timed on the first %ld "
           "pairs of each row (its answers on every pair are the reference).  \"build / "
           "ready us\": hs_poly_from_doubles per polytope, and the same followed by "
           "hs_poly_fast_ready (whatever the fast engine prepares, lazily or not; timed on a "
           "copy, so the first fast query on the instance still pays a lazy preparation); "
           "setup, not in the query times.\n",
           o->seed, o->pairs, o->repeat, timer_overhead_ns(), o->exact_pairs);
    printf("\nGLPK %s: glp_simplex, presolve off, messages off, problem built per query; "
           "|tau*| <= %g counts as touching.  libccd: CCD_INIT defaults (first_dir "
           "ccdFirstDirDefault, mpr_tolerance 1e-4, dist_tolerance 1e-6), max_iterations %d; "
           "vertices from our exact vertex enumeration rounded to doubles, center = vertex "
           "average; scan = linear scan, hill = hill climbing on the vertex graph from "
           "vertex 0 in every query.  libccd answers intersect / disjoint, touching "
           "counts as intersect.\n",
           glp_version(), GLPK_TOL, CCD_ITERATIONS);
    if (o->fam[FAM_HULL] || o->fam[FAM_HULL_REST] || o->fam[FAM_HULL_REST_FP]) {
        if (!meshes)
            printf("\nThe hull families skipped: %s.\n", mesh_note);
        else {
            printf("\nThe hull families: %d meshes (hull vertices):",
                   fam_meshes_count(meshes));
            for (int k = 0; k < fam_meshes_count(meshes); k++)
                printf("%s %s (%d)", k ? "," : "", fam_mesh_name(meshes, k),
                       fam_mesh_points(meshes, k));
            printf(".\n");
            if (*fam_meshes_duplicates(meshes))
                printf("Left out as copies of an earlier mesh: %s.\n",
                       fam_meshes_duplicates(meshes));
            if (*fam_meshes_skipped(meshes))
                printf("Mesh files skipped (the library's reader refuses them): %s.\n",
                       fam_meshes_skipped(meshes));
        }
    }
    long pre[METHODS] = {0}, cpu[METHODS] = {0}, total = 0, total_cpu = 0;
    for (int s = 0; s < nst; s++)
        for (int e = 0; e < METHODS; e++) {
            pre[e] += st[s].preempted[e];
            cpu[e] += st[s].by_cpu[e];
            total += st[s].preempted[e];
            total_cpu += st[s].by_cpu[e];
        }
    printf("\nSwitched out: a query during which the thread was switched out (another "
           "process ran) was run again when short (at most %d attempts, the fastest kept) "
           "and timed by the thread's CPU time when its first query took %.0f us or more.  "
           "Attempts run again:", PREEMPT_TRIES, LONG_QUERY_S * 1e6);
    for (int e = 0; e < METHODS; e++)
        printf("%s %s %ld", e ? "," : "", method_label[e], pre[e]);
    printf(" (%ld in all); queries timed by CPU time:", total);
    for (int e = 0; e < METHODS; e++)
        printf("%s %s %ld", e ? "," : "", method_label[e], cpu[e]);
    printf(" (%ld in all).\n", total_cpu);
    if (skipped > 0)
        printf("\nDraws skipped because a polytope was unbounded: %ld.\n", skipped);
    if (not_ready > 0)
        printf("\nPolytopes the fast engine could not prepare (their queries fall back): "
               "%ld.\n", not_ready);
}

static void print_results(const bench_opts *o, const row_stats *st, int nst)
{
    printf("\n```text\n");
    for (int s = 0; s < nst; s++)
        for (int e = 0; e < METHODS; e++) {
            method_fig f = figures(o, &st[s], e);
            if (f.n == 0)
                continue;
            char v[8][32];
            printf("RESULT bench=pairs family=%s m=%d method=%s mean_us=%s disjoint_us=%s "
                   "overlap_us=%s touching_us=%s spread=%s-%s wrong=%ld pairs=%ld "
                   "floor_us=%s first_us=%s",
                   fam_name(st[s].fam), st[s].m, method_label[e], num(f.mean, v[0], 32),
                   num(f.cls[0], v[1], 32), num(f.cls[1], v[2], 32), num(f.cls[2], v[3], 32),
                   num(f.lo, v[4], 32), num(f.hi, v[5], 32), st[s].wrong[e], f.n,
                   num(f.floor, v[6], 32), num(f.first, v[7], 32));
            if (!fam_has_m(st[s].fam))
                printf(" m_min=%d m_max=%d", st[s].m_min, st[s].m_max);
            if (e == M_FAST)
                printf(" fallback_rate=%s build_us=%s ready_us=%s",
                       num((double)st[s].fallbacks / (double)st[s].pairs, v[0], 32),
                       num(1e6 * st[s].build_s / (double)st[s].builds, v[1], 32),
                       num(1e6 * st[s].ready_s / (double)st[s].builds, v[2], 32));
            printf("\n");
        }
    printf("```\n");
}

void pairs_report(const bench_opts *o, const row_stats *st, int nst, const fam_meshes *meshes,
                  const char *mesh_note)
{
    print_main_table(o, st, nst);
    print_class_table(o, st, nst);
    print_notes(o, st, nst, meshes, mesh_note);
    print_results(o, st, nst);
}
