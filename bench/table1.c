/* table1.c -- our run of seed 002's Table 1 (Ren, Hong, Meng 1999): the
 * intersection routine timed on pairs of 3-D polytopes with 60x60, 80x60,
 * 80x80, 100x100 and 250x250 rows, with the faithful (double) and the
 * exact (GMP rational) engines on the same pairs.
 *
 * The pairs are tangent-sphere polytopes (bench/tangent.h); the paper does
 * not say how its own instances were made.  Each query is timed once with
 * CLOCK_MONOTONIC; a query faster than 1 ms is repeated in batches of
 * doubling size until a batch takes at least 1 ms, and the batch time is
 * divided by its size.  Exact answers are checked with hs_result_verify
 * outside the timed region.
 *
 * Output (stdout) is Markdown: one table, notes, then a fenced block with
 * one line per size and engine:
 *   RESULT bench=table1 size=AxB engine=E n=N min_s=.. avg_s=.. max_s=..
 *          intersecting=K disagreements=D
 * where K counts that engine's "intersect" answers and D the pairs on
 * which the faithful and exact answers (intersect or disjoint) differ
 * ("na" when only one engine ran).  Progress goes to stderr. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/tangent.h"
#include "halfspace.h"

#define MAX_SIZES 16
#define ENGINES 2           /* 0: faithful, 1: exact */
#define MIN_TIMED_S 1e-3    /* batches of fast queries last at least this */
#define MAX_REPEATS (1L << 20)

/* One row of the paper's Table 1 (IBM 486 seconds). */
typedef struct paper_row {
    int mA, mB, count;
    double max_s, min_s, avg_s;
} paper_row;

static const paper_row paper_table[] = {
    {60, 60, 30, 0.03, 0.01, 0.01},  {80, 60, 30, 0.04, 0.01, 0.01},
    {80, 80, 20, 0.06, 0.02, 0.03},  {100, 100, 20, 0.14, 0.07, 0.09},
    {250, 250, 20, 1.93, 1.2, 1.52},
};
#define PAPER_ROWS ((int)(sizeof paper_table / sizeof paper_table[0]))

typedef struct size_spec {
    int mA, mB;
    long count;       /* pairs */
    long exact_count; /* pairs run by the exact engine (<= count) */
} size_spec;

typedef struct bench_opts {
    size_spec size[MAX_SIZES];
    int nsizes;
    long count;     /* --count, 0: the paper's counts */
    uint64_t seed;
    int use[ENGINES];
    int verbose;
} bench_opts;

/* Accumulated figures of one engine on one size. */
typedef struct engine_stats {
    long n, intersecting, verify_failures;
    double min_s, max_s, sum_s;
    double nodes, pivots;
} engine_stats;

/* The seed's routines in double and over GMP rationals (the engine called
 * "exact" when this table was first measured, then the routines followed
 * by the exact classification LP, which costs under a millisecond). */
static const hs_engine engine_of[ENGINES] = {HS_ENGINE_FAITHFUL, HS_ENGINE_FAITHFUL_EXACT};

/* ============================================================ options */

static const paper_row *paper_lookup(int mA, int mB)
{
    for (int i = 0; i < PAPER_ROWS; i++)
        if (paper_table[i].mA == mA && paper_table[i].mB == mB)
            return &paper_table[i];
    return NULL;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: table1 [--sizes AxB,...] [--count N] [--seed S]\n"
            "              [--engines faithful,exact] [--exact-count AxB=N,...] [--verbose]\n"
            "  --sizes        sizes to run (default 60x60,80x60,80x80,100x100,250x250)\n"
            "  --count        pairs per size (default: the paper's 30,30,20,20,20; 20\n"
            "                 for sizes not in the paper)\n"
            "  --seed         seed of the pair stream (default 1)\n"
            "  --engines      engines to time (default faithful,exact)\n"
            "  --exact-count  run the exact engine on only the first N pairs of a size\n"
            "  --verbose      one stderr line per pair\n");
}

/* Parse "AxB" into *mA, *mB; returns 0 or -1. */
static int parse_size(const char *s, int *mA, int *mB)
{
    char *end;
    errno = 0;
    long a = strtol(s, &end, 10);
    if (end == s || *end != 'x' || errno)
        return -1;
    const char *t = end + 1;
    long b = strtol(t, &end, 10);
    if (end == t || (*end != '\0' && *end != '=' && *end != ',') || errno)
        return -1;
    if (a < 1 || b < 1 || a > 100000 || b > 100000)
        return -1;
    *mA = (int)a;
    *mB = (int)b;
    return 0;
}

static int parse_long(const char *s, long lo, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno || v < lo)
        return -1;
    *out = v;
    return 0;
}

static int parse_sizes(const char *arg, bench_opts *o)
{
    char *copy = strdup(arg);
    if (!copy)
        return -1;
    o->nsizes = 0;
    int rc = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && rc == 0;
         tok = strtok_r(NULL, ",", &save)) {
        size_spec *z = &o->size[o->nsizes];
        if (o->nsizes == MAX_SIZES || parse_size(tok, &z->mA, &z->mB) != 0)
            rc = -1;
        else
            o->nsizes++;
    }
    free(copy);
    return rc == 0 && o->nsizes > 0 ? 0 : -1;
}

static int parse_engines(const char *arg, bench_opts *o)
{
    char *copy = strdup(arg);
    if (!copy)
        return -1;
    o->use[0] = o->use[1] = 0;
    int rc = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "faithful") == 0)
            o->use[0] = 1;
        else if (strcmp(tok, "exact") == 0 || strcmp(tok, "faithful-exact") == 0)
            o->use[1] = 1;
        else
            rc = -1;
    }
    free(copy);
    return rc == 0 && (o->use[0] || o->use[1]) ? 0 : -1;
}

/* "AxB=N,..." limits, stored as given and applied after --sizes. */
typedef struct exact_limit {
    int mA, mB;
    long n;
} exact_limit;

static int parse_exact_limits(const char *arg, exact_limit *lim, int *nlim)
{
    char *copy = strdup(arg);
    if (!copy)
        return -1;
    int rc = 0;
    *nlim = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && rc == 0;
         tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        exact_limit *l = &lim[*nlim];
        if (!eq || *nlim == MAX_SIZES || parse_size(tok, &l->mA, &l->mB) != 0 ||
            parse_long(eq + 1, 0, &l->n) != 0)
            rc = -1;
        else
            (*nlim)++;
    }
    free(copy);
    return rc;
}

static void set_defaults(bench_opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < PAPER_ROWS; i++) {
        o->size[i].mA = paper_table[i].mA;
        o->size[i].mB = paper_table[i].mB;
    }
    o->nsizes = PAPER_ROWS;
    o->seed = 1;
    o->use[0] = o->use[1] = 1;
}

/* Fill each size's counts from --count, the paper, and the limits. */
static void resolve_counts(bench_opts *o, const exact_limit *lim, int nlim)
{
    for (int i = 0; i < o->nsizes; i++) {
        size_spec *z = &o->size[i];
        const paper_row *p = paper_lookup(z->mA, z->mB);
        z->count = o->count > 0 ? o->count : p ? p->count : 20;
        z->exact_count = z->count;
        for (int k = 0; k < nlim; k++)
            if (lim[k].mA == z->mA && lim[k].mB == z->mB && lim[k].n < z->count)
                z->exact_count = lim[k].n;
    }
}

/* Returns 0 to run, 1 after --help, -1 on a bad option. */
static int parse_args(int argc, char **argv, bench_opts *o)
{
    exact_limit lim[MAX_SIZES];
    int nlim = 0;
    set_defaults(o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 1;
        } else if (strcmp(a, "--verbose") == 0) {
            o->verbose = 1;
            continue;
        } else if (!v) {
            bad = 1;
        } else if (strcmp(a, "--sizes") == 0) {
            bad = parse_sizes(v, o) != 0;
        } else if (strcmp(a, "--count") == 0) {
            bad = parse_long(v, 1, &o->count) != 0;
        } else if (strcmp(a, "--seed") == 0) {
            char *end;
            errno = 0;
            o->seed = (uint64_t)strtoull(v, &end, 0);
            bad = end == v || *end != '\0' || errno != 0;
        } else if (strcmp(a, "--engines") == 0) {
            bad = parse_engines(v, o) != 0;
        } else if (strcmp(a, "--exact-count") == 0) {
            bad = parse_exact_limits(v, lim, &nlim) != 0;
        } else {
            bad = 1;
        }
        if (bad) {
            fprintf(stderr, "table1: bad option or value: %s%s%s\n", a, v ? " " : "", v ? v : "");
            usage(stderr);
            return -1;
        }
        i++;
    }
    resolve_counts(o, lim, nlim);
    return 0;
}

/* ============================================================= timing */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Time one query into *secs (repeating it when it is very fast). */
static hs_code time_query(const hs_poly *A, const hs_poly *B, const hs_options *opt,
                          hs_result *r, double *secs, hs_error *err)
{
    double t0 = now_s();
    hs_code rc = hs_intersect(A, B, opt, r, err);
    double t = now_s() - t0;
    for (long reps = 2; rc == HS_OK && t < MIN_TIMED_S && reps <= MAX_REPEATS; reps *= 2) {
        t0 = now_s();
        for (long k = 0; k < reps && rc == HS_OK; k++)
            rc = hs_intersect(A, B, opt, r, err);
        t = (now_s() - t0) / (double)reps;
        if (t * (double)reps >= MIN_TIMED_S)
            break;
    }
    *secs = t;
    return rc;
}

static int is_intersecting(hs_status s)
{
    return s == HS_INTERSECT || s == HS_TOUCHING || s == HS_OVERLAP;
}

static void stats_init(engine_stats *s)
{
    memset(s, 0, sizeof *s);
    s->min_s = 1e300;
}

static void stats_add(engine_stats *s, double secs, const hs_result *r)
{
    s->n++;
    s->sum_s += secs;
    if (secs < s->min_s)
        s->min_s = secs;
    if (secs > s->max_s)
        s->max_s = secs;
    s->intersecting += is_intersecting(hs_result_status(r));
    s->nodes += (double)hs_result_nodes(r);
    s->pivots += (double)hs_result_pivots(r);
}

/* ============================================================== runs */

/* Run engine e on one pair; *meets receives 1 (intersect) or 0. */
static hs_code run_engine(int e, const hs_poly *A, const hs_poly *B, hs_result *r,
                          engine_stats *st, int *meets, hs_error *err)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = engine_of[e];
    double secs = 0;
    hs_code rc = time_query(A, B, &opt, r, &secs, err);
    if (rc != HS_OK)
        return rc;
    stats_add(st, secs, r);
    *meets = is_intersecting(hs_result_status(r));
    if (e == 1 && hs_result_status(r) == HS_INTERSECT) { /* the exact point must be common */
        hs_error verr;
        if (hs_result_verify(r, A, B, &verr) != HS_OK) {
            st->verify_failures++;
            fprintf(stderr, "table1: certificate rejected: %s\n", verr.msg);
        }
    }
    return HS_OK;
}

/* Run every selected engine on pair `index` of size z. */
static hs_code run_pair(const bench_opts *o, const size_spec *z, long index, hs_result *r,
                        engine_stats st[ENGINES], long *disagreements, hs_error *err)
{
    hs_poly *A = NULL, *B = NULL;
    hs_code rc = tangent_pair(o->seed, index, z->mA, z->mB, &A, &B, NULL, err);
    int meets[ENGINES] = {-1, -1};
    for (int e = 0; e < ENGINES && rc == HS_OK; e++) {
        int limited = e == 1 && index >= z->exact_count;
        if (o->use[e] && !limited)
            rc = run_engine(e, A, B, r, &st[e], &meets[e], err);
    }
    if (rc == HS_OK && meets[0] >= 0 && meets[1] >= 0 && meets[0] != meets[1]) {
        (*disagreements)++;
        fprintf(stderr, "table1: %dx%d pair %ld: faithful says %s, exact says %s\n", z->mA,
                z->mB, index, meets[0] ? "intersect" : "disjoint",
                meets[1] ? "intersect" : "disjoint");
    }
    if (rc == HS_OK && o->verbose)
        fprintf(stderr, "table1: %dx%d pair %ld: faithful=%d exact=%d\n", z->mA, z->mB, index,
                meets[0], meets[1]);
    hs_poly_free(A);
    hs_poly_free(B);
    return rc;
}

/* ============================================================ output */

static void print_header(void)
{
    printf("| A x B | paper: pairs | paper IBM 486 max / min / avg (s) | engine | pairs "
           "| min (s) | avg (s) | max (s) | intersecting | avg nodes | avg pivots "
           "| disagreements |\n");
    printf("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
}

static void print_row(const size_spec *z, int e, const engine_stats *s, long disagreements,
                      int both)
{
    const paper_row *p = paper_lookup(z->mA, z->mB);
    char paper_n[16] = "-", paper_t[64] = "-", dis[32] = "n/a";
    if (p) {
        snprintf(paper_n, sizeof paper_n, "%d", p->count);
        snprintf(paper_t, sizeof paper_t, "%.2f / %.2f / %.2f", p->max_s, p->min_s, p->avg_s);
    }
    if (both)
        snprintf(dis, sizeof dis, "%ld", disagreements);
    double n = (double)s->n;
    printf("| %dx%d | %s | %s | %s | %ld | %.3g | %.3g | %.3g | %ld (%.0f%%) | %.0f | %.0f | %s |\n",
           z->mA, z->mB, paper_n, paper_t, hs_engine_name(engine_of[e]), s->n, s->min_s,
           s->sum_s / n, s->max_s, s->intersecting, 100.0 * (double)s->intersecting / n,
           s->nodes / n, s->pivots / n, dis);
}

static void print_result_line(const size_spec *z, int e, const engine_stats *s,
                              long disagreements, int both)
{
    char dis[32] = "na";
    if (both)
        snprintf(dis, sizeof dis, "%ld", disagreements);
    printf("RESULT bench=table1 size=%dx%d engine=%s n=%ld min_s=%.6g avg_s=%.6g max_s=%.6g "
           "intersecting=%ld disagreements=%s\n",
           z->mA, z->mB, hs_engine_name(engine_of[e]), s->n, s->min_s,
           s->sum_s / (double)s->n, s->max_s, s->intersecting, dis);
}

/* Figures of one size, kept for the final printout. */
typedef struct size_outcome {
    engine_stats st[ENGINES];
    long disagreements;
} size_outcome;

static hs_code run_size(const bench_opts *o, const size_spec *z, hs_result *r,
                        size_outcome *out, hs_error *err)
{
    for (int e = 0; e < ENGINES; e++)
        stats_init(&out->st[e]);
    out->disagreements = 0;
    double t0 = now_s();
    hs_code rc = HS_OK;
    for (long i = 0; i < z->count && rc == HS_OK; i++)
        rc = run_pair(o, z, i, r, out->st, &out->disagreements, err);
    fprintf(stderr, "table1: %dx%d done in %.1f s (faithful avg %.3g s, exact avg %.3g s)\n",
            z->mA, z->mB, now_s() - t0,
            out->st[0].n ? out->st[0].sum_s / (double)out->st[0].n : 0.0,
            out->st[1].n ? out->st[1].sum_s / (double)out->st[1].n : 0.0);
    return rc;
}

/* Notes under the table: limited exact runs and rejected certificates. */
static long print_notes(const bench_opts *o, const size_outcome *out)
{
    long rejected = 0;
    printf("\nSeed %" PRIu64 "; pair i of every size is tangent_pair(seed, i, mA, mB).\n",
           o->seed);
    for (int i = 0; i < o->nsizes; i++) {
        const size_spec *z = &o->size[i];
        rejected += out[i].st[1].verify_failures;
        if (o->use[1] && z->exact_count < z->count)
            printf("\nNote: at %dx%d the exact engine ran on only the first %ld of the %ld "
                   "pairs (--exact-count); disagreements are counted on those.\n",
                   z->mA, z->mB, z->exact_count, z->count);
    }
    if (o->use[1])
        printf("\nExact certificates rejected by hs_result_verify: %ld.\n", rejected);
    return rejected;
}

static long print_all(const bench_opts *o, const size_outcome *out)
{
    int both = o->use[0] && o->use[1];
    print_header();
    for (int i = 0; i < o->nsizes; i++)
        for (int e = 0; e < ENGINES; e++)
            if (o->use[e] && out[i].st[e].n > 0)
                print_row(&o->size[i], e, &out[i].st[e], out[i].disagreements, both);
    long rejected = print_notes(o, out);
    printf("\n```text\n");
    for (int i = 0; i < o->nsizes; i++)
        for (int e = 0; e < ENGINES; e++)
            if (o->use[e] && out[i].st[e].n > 0)
                print_result_line(&o->size[i], e, &out[i].st[e], out[i].disagreements, both);
    printf("```\n");
    return rejected;
}

int main(int argc, char **argv)
{
    bench_opts o;
    int pr = parse_args(argc, argv, &o);
    if (pr != 0)
        return pr > 0 ? EXIT_SUCCESS : 2;
    hs_result *r = hs_result_new();
    size_outcome out[MAX_SIZES];
    hs_error err;
    hs_error_clear(&err);
    hs_code rc = r ? HS_OK : HS_ERR_NOMEM;
    double t0 = now_s();
    for (int i = 0; i < o.nsizes && rc == HS_OK; i++)
        rc = run_size(&o, &o.size[i], r, &out[i], &err);
    hs_result_free(r);
    if (rc != HS_OK) {
        fprintf(stderr, "table1: %s\n", err.msg[0] ? err.msg : "out of memory");
        return EXIT_FAILURE;
    }
    long rejected = print_all(&o, out);
    fprintf(stderr, "table1: total %.1f s\n", now_s() - t0);
    return rejected == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
