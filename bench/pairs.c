/* pairs.c -- one query on one pair of 3-D polytopes, timed cold: our fast
 * and exact engines (hs_intersect), GLPK's simplex on the margin LP, and
 * libccd's GJK and MPR with two support functions, in one run on the same
 * instances.
 *
 * Instances: the families of bench/families.h (tangent spheres, elongated,
 * near-touching, exactly touching face-face / edge-edge / vertex-face, and
 * hulls of the real meshes of the data folder, alone at random poses and
 * resting face on face, exactly and to rounding), m rows per polytope.
 * Everything a method needs is built before any timing, once per pair:
 * our hs_poly (hs_poly_from_doubles: its time is reported as "build";
 * "ready" adds hs_poly_fast_ready, which makes whatever the fast engine
 * prepares, timed on a copy so that a lazy preparation is still paid by
 * the first query),
 * libccd's vertices and vertex graph (our exact vertex enumeration,
 * rounded to doubles), and the plain row arrays GLPK reads.
 *
 * Methods:
 *   fast      hs_intersect with hs_options_init's defaults (the fast
 *             engine); three-way answer, certified.
 *   exact     hs_intersect with HS_ENGINE_EXACT (exact LP over GMP), timed
 *             on the first --exact-pairs pairs of each row only (it takes
 *             milliseconds); its answers on all pairs are the reference.
 *   glpk      max tau s.t. a . x + tau <= b for every row of A and B,
 *             tau <= 1, x and tau free, built with the GLPK C API inside
 *             the timed region from plain arrays, glp_simplex with presolve
 *             and messages off; tau* > 1e-9 overlap, |tau*| <= 1e-9
 *             touching, below disjoint.  The cross-check engine: it
 *             answers the same three-way question as ours.
 *   mpr, gjk  ccdMPRIntersect / ccdGJKIntersect, support by a linear scan
 *             of the vertices, center (MPR) = vertex average; CCD_INIT
 *             defaults, max_iterations 100.
 *   mpr-hill, gjk-hill
 *             the same with hill climbing on the vertex graph, restarted
 *             at vertex 0 for every query (ccd_peer.h): the best libccd
 *             can do on a polytope without warm starts.
 *
 * Timing (cold).  Each row (family and m) builds its P pairs, then runs
 * one untimed-for-the-headline priming pass (every method once on every
 * pair: its times are reported as "first", the first query on a fresh
 * polytope, which pays any lazily built structure), then R repeats.  In a
 * repeat every pair is queried once by every method: the pairs in a new
 * random order, and for the k-th pair of repeat r the methods in the
 * cyclic order starting at method (k + r) mod 7, so no method always
 * follows another on the same pair.  Each query is timed alone with
 * clock_gettime(CLOCK_MONOTONIC) (its own overhead is printed).
 * Reported per method: the mean over all pairs and repeats (the
 * headline), the means over the pairs of each exact class (disjoint,
 * overlap, touching), the spread (smallest and largest of the R
 * per-repeat means over all pairs), the floor (the mean over pairs of the
 * fastest of the R queries of that pair) and the mean first query.
 *
 * Correctness: the exact engine's class is the reference; wrong counts
 * the pairs on which a method ever answered differently: three-way for
 * fast, exact and GLPK, intersect (touching counts) versus disjoint for
 * libccd.  fallback_rate is the fraction of pairs whose fast query was
 * answered by the exact fallback.  A pair that is not of its family's
 * class (near: overlap / disjoint by parity; touch-*: touching) stops the
 * program.
 *
 * Output (stdout): Markdown tables and notes, then a fenced block of
 *   RESULT bench=pairs family=F m=M method=X mean_us=.. disjoint_us=..
 *          overlap_us=.. touching_us=.. spread=LO-HI wrong=N pairs=N
 *          floor_us=.. first_us=.. [m_min=.. m_max=..]
 *          [fallback_rate=.. build_us=.. ready_us=..]
 * (na where a class is empty; pairs = the pairs the method was timed on;
 * the fast lines add the fallback rate and the mean build and ready times
 * of one hs_poly; the hull families' rows give the mean m and its range).
 * Progress goes to stderr. */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <errno.h>
#include <glpk.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench/ccd_peer.h"
#include "bench/families.h"
#include "bench/pairs.h"
#include "halfspace.h"
#include "polytope/rng.h"

/* One pair with everything the methods need (built before any timing). */
typedef struct instance {
    hs_poly *A, *B;
    ccd_shape sa, sb;
    double *rows; /* (mA + mB) * 4: a, b; A's rows first */
    int mA, mB;
    answer exact;
    char label[128];
} instance;

/* Workspace of the queries. */
typedef struct runner {
    const instance *in;
    hs_result *r;
    hs_options opt_fast, opt_exact;
    ccd_t ccd_scan, ccd_hill;
    int *ia, *ja;
    double *ar;
    int cap;
    int fallback;
} runner;

/* ============================================================ options */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: pairs [--families F,...] [--sizes M,...] [--pairs N] [--repeat R]\n"
            "             [--exact-pairs N] [--seed S] [--data DIR] [--methods M,...]\n"
            "             [--verbose]\n"
            "  --families    any of sphere,elong2,elong4,elong10,near,touch-ff,touch-ee,\n"
            "                touch-vf,hull,hull-rest,hull-rest-fp, or all (default all)\n"
            "  --sizes       rows per polytope (default 20,60,250,1000; the hull\n"
            "                families have their own)\n"
            "  --pairs       pairs per family and size (default 100)\n"
            "  --repeat      timed repeats, each pair once per method (default 5)\n"
            "  --exact-pairs the exact engine is timed on this many pairs per row\n"
            "                (default 10; its answers on every pair are the reference)\n"
            "  --seed        seed of the pair streams (default 1)\n"
            "  --data        data folder of the hull families (default $HS_DATA or\n"
            "                ../shared/data; missing: they are skipped with a note)\n"
            "  --methods     the methods timed beside fast: any of exact,glpk,mpr,\n"
            "                mpr-hill,gjk,gjk-hill, or all (default all); fewer methods\n"
            "                between two of our queries evict less of what they read\n"
            "  --verbose     one stderr line per pair\n");
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_sizes(const char *arg, bench_opts *o)
{
    char *copy = strdup(arg);
    if (!copy)
        return -1;
    int rc = 0;
    o->nsizes = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && rc == 0;
         tok = strtok_r(NULL, ",", &save)) {
        long m;
        if (o->nsizes == MAX_SIZES || parse_long(tok, 8, 100000, &m) != 0)
            rc = -1;
        else
            o->sizes[o->nsizes++] = (int)m;
    }
    free(copy);
    return rc == 0 && o->nsizes > 0 ? 0 : -1;
}

static int parse_families(const char *arg, bench_opts *o)
{
    char *copy = strdup(arg);
    if (!copy)
        return -1;
    int rc = 0, any = 0;
    memset(o->fam, 0, sizeof o->fam);
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        fam_id f;
        if (strcmp(tok, "all") == 0)
            for (int i = 0; i < FAM_COUNT; i++)
                o->fam[i] = any = 1;
        else if (fam_from_name(tok, &f) == 0)
            o->fam[f] = any = 1;
        else
            rc = -1;
    }
    free(copy);
    return rc == 0 && any ? 0 : -1;
}

static int parse_methods(const char *arg, bench_opts *o)
{
    char *copy = strdup(arg);
    if (!copy)
        return -1;
    int rc = 0;
    memset(o->run, 0, sizeof o->run);
    o->run[M_FAST] = 1;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int e = 0; e < METHODS; e++)
            if (strcmp(tok, "all") == 0 || strcmp(tok, method_label[e]) == 0)
                o->run[e] = found = 1;
        if (!found)
            rc = -1;
    }
    free(copy);
    return rc;
}

static int bad_value(const char *opt, const char *val, const char *want)
{
    fprintf(stderr, "pairs: bad value '%s' for %s (expected %s)\n", val, opt, want);
    return -1;
}

/* One option with a value; 1 when the name is unknown. */
static int apply_option(bench_opts *o, const char *a, const char *v)
{
    long x;
    if (strcmp(a, "--sizes") == 0)
        return parse_sizes(v, o) == 0
                   ? 0
                   : bad_value(a, v, "a comma list of row counts 8..100000, at most 16");
    if (strcmp(a, "--families") == 0)
        return parse_families(v, o) == 0 ? 0 : bad_value(a, v, "a comma list of families");
    if (strcmp(a, "--pairs") == 0)
        return parse_long(v, 1, 1000000, &o->pairs) == 0 ? 0
                                                          : bad_value(a, v, "1..1000000");
    if (strcmp(a, "--repeat") == 0) {
        if (parse_long(v, 1, 1000, &x) != 0)
            return bad_value(a, v, "1..1000");
        o->repeat = (int)x;
        return 0;
    }
    if (strcmp(a, "--exact-pairs") == 0)
        return parse_long(v, 0, 1000000, &o->exact_pairs) == 0
                   ? 0
                   : bad_value(a, v, "0..1000000");
    if (strcmp(a, "--seed") == 0) {
        if (parse_long(v, 0, LONG_MAX, &x) != 0)
            return bad_value(a, v, "a nonnegative integer");
        o->seed = (uint64_t)x;
        return 0;
    }
    if (strcmp(a, "--data") == 0) {
        o->data = v;
        return 0;
    }
    if (strcmp(a, "--methods") == 0)
        return parse_methods(v, o) == 0 ? 0 : bad_value(a, v, "a comma list of methods");
    return 1;
}

static int parse_args(int argc, char **argv, bench_opts *o)
{
    static const int default_sizes[] = {20, 60, 250, 1000};
    memset(o, 0, sizeof *o);
    o->nsizes = 4;
    memcpy(o->sizes, default_sizes, sizeof default_sizes);
    o->pairs = 100;
    o->repeat = 5;
    o->seed = 1;
    o->exact_pairs = 10;
    const char *env = getenv("HS_DATA");
    o->data = env && *env ? env : "../shared/data";
    for (int i = 0; i < FAM_COUNT; i++)
        o->fam[i] = 1;
    for (int e = 0; e < METHODS; e++)
        o->run[e] = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(EXIT_SUCCESS);
        }
        if (strcmp(a, "--verbose") == 0) {
            o->verbose = 1;
            continue;
        }
        int rc = i + 1 < argc ? apply_option(o, a, argv[i + 1]) : 1;
        if (rc < 0)
            return -1;
        if (rc > 0) {
            fprintf(stderr, "pairs: unknown option or missing value: %s\n", a);
            usage(stderr);
            return -1;
        }
        i++;
    }
    return 0;
}

/* ============================================================ instances */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Context switches of this thread so far. */
static long switches(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nvcsw + ru.ru_nivcsw : 0;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Time since t0 (wall clock), or the thread's CPU time since c0 when the
 * thread was switched out since sw (another process ran); for setup work
 * timed once, which is long enough for the CPU clock's cost not to count. */
static double setup_elapsed(long sw, double c0, double t0)
{
    double t = now_s() - t0, c = cpu_now() - c0;
    return switches() != sw ? fmin(t, c) : t;
}

static answer answer_of(hs_status s)
{
    switch (s) {
    case HS_DISJOINT: return ANS_DISJOINT;
    case HS_TOUCHING: return ANS_TOUCHING;
    case HS_OVERLAP: return ANS_OVERLAP;
    case HS_INTERSECT: return ANS_INTERSECT;
    default: return ANS_ERROR;
    }
}

static const char *answer_name(answer a)
{
    static const char *const names[] = {"disjoint", "overlap", "touching", "intersect", "error"};
    return names[a];
}

static void instance_free(instance *in)
{
    hs_poly_free(in->A);
    hs_poly_free(in->B);
    ccd_shape_free(&in->sa);
    ccd_shape_free(&in->sb);
    free(in->rows);
    memset(in, 0, sizeof *in);
}

/* The class the family promises, or ANS_ERROR when it promises none. */
static answer promised(fam_id f, long index)
{
    switch (f) {
    case FAM_NEAR: return index % 2 ? ANS_DISJOINT : ANS_OVERLAP;
    case FAM_TOUCH_FF: case FAM_TOUCH_EE: case FAM_TOUCH_VF: return ANS_TOUCHING;
    default: return ANS_ERROR;
    }
}

/* Build pair `index` of the row: 0, 1 when the draw is unusable (an
 * unbounded polytope: skip it), -1 on error. */
static int make_instance(const bench_opts *o, row_stats *st, const fam_meshes *meshes,
                         long index, instance *in, hs_result *r)
{
    memset(in, 0, sizeof *in);
    hs_error err;
    hs_error_clear(&err);
    fam_pair fp;
    if (fam_make(st->fam, o->seed, index, st->m, meshes, &fp, &err) != HS_OK) {
        fprintf(stderr, "pairs: %s pair %ld: %s\n", fam_name(st->fam), index, err.msg);
        return -1;
    }
    snprintf(in->label, sizeof in->label, "%s", fp.label);
    in->mA = fp.m[0];
    in->mB = fp.m[1];
    long sw = switches();
    double c0 = cpu_now(), t0 = now_s();
    in->A = hs_poly_from_doubles(3, fp.m[0], fp.a[0], fp.b[0], NULL, &err);
    in->B = in->A ? hs_poly_from_doubles(3, fp.m[1], fp.a[1], fp.b[1], NULL, &err) : NULL;
    double built = setup_elapsed(sw, c0, t0);
    int rc = in->A && in->B ? 0 : -1;
    if (rc == 0) {
        st->build_s += built;
        st->builds += 2;
        /* Ready to query: the same build plus hs_poly_fast_ready, which
         * makes whatever the fast engine prepares (lazily or not), timed on
         * copies so that the instances stay as built: their first fast
         * query pays any lazy preparation (the "first" figures). */
        for (int s = 0; s < 2; s++) {
            sw = switches();
            c0 = cpu_now();
            t0 = now_s();
            hs_poly *copy = hs_poly_from_doubles(3, fp.m[s], fp.a[s], fp.b[s], NULL, NULL);
            if (copy)
                (void)hs_poly_fast_ready(copy, NULL);
            st->ready_s += setup_elapsed(sw, c0, t0);
            hs_poly_free(copy);
        }
        hs_code c = ccd_shape_from_poly(in->A, fp.interior[0], &in->sa, &err);
        if (c == HS_OK)
            c = ccd_shape_from_poly(in->B, fp.interior[1], &in->sb, &err);
        if (c == HS_ERR_INPUT && strstr(err.msg, "unbounded"))
            rc = 1;
        else if (c != HS_OK)
            rc = -1;
    }
    if (rc == 0) {
        int m = in->mA + in->mB;
        in->rows = malloc((size_t)m * 4 * sizeof *in->rows);
        if (!in->rows) {
            rc = -1;
            snprintf(err.msg, sizeof err.msg, "out of memory");
        }
        for (int i = 0; i < m && in->rows; i++) {
            int s = i < in->mA ? 0 : 1, k = s ? i - in->mA : i;
            memcpy(in->rows + 4 * i, fp.a[s] + 3 * k, 3 * sizeof(double));
            in->rows[4 * i + 3] = fp.b[s][k];
        }
    }
    if (rc == 0) {
        hs_options opt;
        hs_options_init(&opt);
        opt.engine = HS_ENGINE_EXACT;
        if (hs_intersect(in->A, in->B, &opt, r, &err) != HS_OK)
            rc = -1;
        else
            in->exact = answer_of(hs_result_status(r));
    }
    fam_pair_free(&fp);
    if (rc < 0)
        fprintf(stderr, "pairs: %s m=%d pair %ld: %s\n", fam_name(st->fam), st->m, index,
                err.msg);
    if (rc == 0 && promised(st->fam, index) != ANS_ERROR &&
        in->exact != promised(st->fam, index)) {
        fprintf(stderr, "pairs: %s m=%d pair %ld (%s): the exact engine says %s, the "
                        "construction promises %s\n", fam_name(st->fam), st->m, index,
                in->label, answer_name(in->exact), answer_name(promised(st->fam, index)));
        rc = -1;
    }
    if (rc != 0)
        instance_free(in);
    return rc;
}

/* ============================================================ the methods */

static int runner_init(runner *w)
{
    memset(w, 0, sizeof *w);
    w->r = hs_result_new();
    hs_options_init(&w->opt_fast);
    hs_options_init(&w->opt_exact);
    w->opt_exact.engine = HS_ENGINE_EXACT;
    ccd_t *c[2] = {&w->ccd_scan, &w->ccd_hill};
    for (int k = 0; k < 2; k++) {
        CCD_INIT(c[k]);
        c[k]->support1 = c[k]->support2 = k ? ccd_peer_support_hill : ccd_peer_support_scan;
        c[k]->center1 = c[k]->center2 = ccd_peer_center;
        c[k]->max_iterations = CCD_ITERATIONS;
    }
    return w->r ? 0 : -1;
}

static void runner_free(runner *w)
{
    hs_result_free(w->r);
    free(w->ia);
    free(w->ja);
    free(w->ar);
}

static int runner_reserve(runner *w, int rows)
{
    int need = 4 * rows + 1;
    if (need <= w->cap)
        return 0;
    free(w->ia);
    free(w->ja);
    free(w->ar);
    w->ia = malloc((size_t)need * sizeof *w->ia);
    w->ja = malloc((size_t)need * sizeof *w->ja);
    w->ar = malloc((size_t)need * sizeof *w->ar);
    w->cap = need;
    return w->ia && w->ja && w->ar ? 0 : -1;
}

static answer run_hs(runner *w, const hs_options *opt)
{
    hs_error err;
    if (hs_intersect(w->in->A, w->in->B, opt, w->r, &err) != HS_OK) {
        fprintf(stderr, "pairs: %s: %s\n", hs_engine_name(opt->engine), err.msg);
        return ANS_ERROR;
    }
    return answer_of(hs_result_status(w->r));
}

/* The margin LP built and solved by GLPK. */
static answer run_glpk(runner *w)
{
    const instance *in = w->in;
    int m = in->mA + in->mB, nz = 0;
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_rows(lp, m);
    glp_add_cols(lp, 4);
    for (int j = 1; j <= 3; j++)
        glp_set_col_bnds(lp, j, GLP_FR, 0.0, 0.0);
    glp_set_col_bnds(lp, 4, GLP_UP, 0.0, 1.0);
    glp_set_obj_coef(lp, 4, 1.0);
    for (int i = 0; i < m; i++) {
        const double *row = in->rows + 4 * i;
        glp_set_row_bnds(lp, i + 1, GLP_UP, 0.0, row[3]);
        for (int j = 0; j < 4; j++) {
            double v = j < 3 ? row[j] : 1.0;
            if (v != 0) {
                nz++;
                w->ia[nz] = i + 1;
                w->ja[nz] = j + 1;
                w->ar[nz] = v;
            }
        }
    }
    glp_load_matrix(lp, nz, w->ia, w->ja, w->ar);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_OFF;
    answer a = ANS_ERROR;
    if (glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT) {
        double tau = glp_get_obj_val(lp);
        a = tau > GLPK_TOL ? ANS_OVERLAP : tau < -GLPK_TOL ? ANS_DISJOINT : ANS_TOUCHING;
    }
    glp_delete_prob(lp);
    return a;
}

static answer run_ccd(runner *w, int mpr, int hill)
{
    instance *in = (instance *)w->in; /* the hill climbs' start vertices */
    const ccd_t *c = hill ? &w->ccd_hill : &w->ccd_scan;
    ccd_shape_reset(&in->sa);
    ccd_shape_reset(&in->sb);
    int hit = mpr ? ccdMPRIntersect(&in->sa, &in->sb, c) : ccdGJKIntersect(&in->sa, &in->sb, c);
    return hit ? ANS_INTERSECT : ANS_DISJOINT;
}

static answer run_method(runner *w, int e)
{
    switch (e) {
    case M_FAST: {
        answer a = run_hs(w, &w->opt_fast);
        w->fallback = hs_result_fallback(w->r) != 0;
        return a;
    }
    case M_EXACT: return run_hs(w, &w->opt_exact);
    case M_GLPK: return run_glpk(w);
    case M_MPR: return run_ccd(w, 1, 0);
    case M_MPR_HILL: return run_ccd(w, 1, 1);
    case M_GJK: return run_ccd(w, 0, 0);
    case M_GJK_HILL: return run_ccd(w, 0, 1);
    default: return ANS_ERROR;
    }
}

/* Does method e's answer differ from the exact class?  Three-way for the
 * methods that classify, intersect versus disjoint for libccd. */
static int differs(int e, answer got, answer ref)
{
    if (got == ANS_ERROR)
        return 1;
    if (e == M_FAST || e == M_EXACT || e == M_GLPK)
        return got != ref;
    return (got == ANS_DISJOINT) != (ref == ANS_DISJOINT);
}

static int method_runs(const bench_opts *o, int e, long pair)
{
    return o->run[e] && (e != M_EXACT || pair < o->exact_pairs);
}

/* ============================================================ one row */

static int row_alloc(row_stats *st, long pairs, int repeat)
{
    st->cls = malloc((size_t)pairs * sizeof *st->cls);
    if (!st->cls)
        return -1;
    for (int e = 0; e < METHODS; e++) {
        st->t[e] = malloc((size_t)pairs * (size_t)repeat * sizeof(double));
        st->first[e] = malloc((size_t)pairs * sizeof(double));
        if (!st->t[e] || !st->first[e])
            return -1;
        for (long i = 0; i < pairs * repeat; i++)
            st->t[e][i] = NAN;
        for (long i = 0; i < pairs; i++)
            st->first[e][i] = NAN;
    }
    return 0;
}

static void row_free(row_stats *st)
{
    free(st->cls);
    for (int e = 0; e < METHODS; e++) {
        free(st->t[e]);
        free(st->first[e]);
    }
}

/* What one call of cpu_now costs (the smallest of many), in seconds. */
static double cpu_overhead(void)
{
    double best = INFINITY;
    for (int i = 0; i < 1000; i++) {
        double a = cpu_now(), b = cpu_now();
        best = fmin(best, b - a);
    }
    return best;
}

/* One query of method e on a pair, timed into *slot; a wrong answer
 * counts once per pair (*seen).  When the thread was switched out during
 * the query (another process ran), a short query is run again, at most
 * PREEMPT_TRIES times in all (the fastest attempt is kept if none ran
 * alone), and a long one (its first query took LONG_QUERY_S or more) is
 * timed by the thread's CPU time instead, read around the wall-clock
 * timer and less one reading's cost. */
static void timed_query(runner *w, row_stats *st, const instance *in, int e, double first,
                        double *slot, unsigned char *seen)
{
    w->in = in;
    int is_long = first >= LONG_QUERY_S;
    double best = INFINITY;
    for (int attempt = 0; attempt < PREEMPT_TRIES; attempt++) {
        long sw = switches();
        double c0 = is_long ? cpu_now() : 0;
        double t0 = now_s();
        answer a = run_method(w, e);
        double t = now_s() - t0;
        double c = is_long ? cpu_now() - c0 - st->cpu_cost : 0;
        if (differs(e, a, in->exact) && !*seen) {
            *seen = 1;
            st->wrong[e]++;
        }
        if (switches() == sw) {
            best = t;
            break;
        }
        if (is_long) {
            best = fmin(t, c);
            st->by_cpu[e]++;
            break;
        }
        best = fmin(best, t);
        st->preempted[e]++;
    }
    *slot = best;
}

static int run_row(const bench_opts *o, runner *w, const fam_meshes *meshes, row_stats *st)
{
    long P = o->pairs;
    int R = o->repeat;
    instance *ins = calloc((size_t)P, sizeof *ins);
    int *order = malloc((size_t)P * sizeof *order);
    unsigned char *wrong_seen = calloc((size_t)P * METHODS, 1);
    int rc = ins && order && wrong_seen && row_alloc(st, P, R) == 0 ? 0 : -1;
    if (rc != 0)
        fprintf(stderr, "pairs: out of memory\n");
    double t0 = now_s();
    long index = 0, msum = 0;
    st->m_min = INT_MAX;
    for (long i = 0; i < P && rc == 0; i++) {
        int got = 1;
        while (got == 1 && rc == 0) {
            got = make_instance(o, st, meshes, index++, &ins[i], w->r);
            if (got < 0)
                rc = -1;
            else if (got == 1 && ++st->skipped > SKIP_MAX) {
                fprintf(stderr, "pairs: %s: too many unbounded draws\n", fam_name(st->fam));
                rc = -1;
            }
        }
        if (rc != 0)
            break;
        instance *in = &ins[i];
        if (runner_reserve(w, in->mA + in->mB) != 0)
            rc = -1;
        st->pairs++;
        st->cls[i] = in->exact;
        st->count[class_index(in->exact)]++;
        st->vertices += in->sa.nv + in->sb.nv;
        for (int s = 0; s < 2; s++) {
            int m = s ? in->mB : in->mA;
            msum += m;
            st->m_min = m < st->m_min ? m : st->m_min;
            st->m_max = m > st->m_max ? m : st->m_max;
        }
        if (o->verbose)
            fprintf(stderr, "%s m=%d pair %ld: %s, exact %s\n", fam_name(st->fam), st->m, i,
                    in->label, answer_name(in->exact));
    }
    st->setup_s = now_s() - t0;
    if (st->pairs > 0) {
        st->m_mean = (double)msum / (2.0 * (double)st->pairs);
        if (!fam_has_m(st->fam))
            st->m = (int)lround(st->m_mean);
    }
    /* priming pass (first queries), then the timed repeats */
    st->cpu_cost = cpu_overhead();
    uint64_t rs = o->seed * 0x9E3779B97F4A7C15ull + (uint64_t)st->fam * 7919u + (uint64_t)st->m;
    t0 = now_s();
    for (int r = -1; r < R && rc == 0; r++) {
        for (long i = 0; i < P; i++)
            order[i] = (int)i;
        if (r >= 0)
            rng_shuffle(&rs, order, (int)P);
        for (long k = 0; k < P; k++) {
            long i = order[k];
            int start = (int)((k + (r < 0 ? 0 : r)) % METHODS);
            for (int j = 0; j < METHODS; j++) {
                int e = (start + j) % METHODS;
                if (!method_runs(o, e, i))
                    continue;
                double *slot = r < 0 ? &st->first[e][i] : &st->t[e][(long)r * P + i];
                timed_query(w, st, &ins[i], e, r < 0 ? 0 : st->first[e][i], slot,
                            &wrong_seen[i * METHODS + e]);
                if (e == M_FAST && r < 0)
                    st->fallbacks += w->fallback;
            }
            if (o->verbose && r < 0) {
                fprintf(stderr, "%s m=%d pair %ld first:", fam_name(st->fam), st->m, i);
                for (int e = 0; e < METHODS; e++)
                    if (method_runs(o, e, i))
                        fprintf(stderr, " %s %.3gus", method_label[e], st->first[e][i] * 1e6);
                fprintf(stderr, "\n");
            }
        }
    }
    st->run_s = now_s() - t0;
    for (long i = 0; i < st->pairs && rc == 0; i++) /* (after the timing: it prepares) */
        st->not_ready += !hs_poly_fast_ready(ins[i].A, NULL) + !hs_poly_fast_ready(ins[i].B, NULL);
    for (long i = 0; i < P && ins; i++)
        instance_free(&ins[i]);
    free(ins);
    free(order);
    free(wrong_seen);
    if (rc == 0)
        fprintf(stderr, "pairs: %s m=%d: %ld pairs, setup %.1f s, queries %.1f s\n",
                fam_name(st->fam), st->m, st->pairs, st->setup_s, st->run_s);
    return rc;
}

int main(int argc, char **argv)
{
    bench_opts o;
    if (parse_args(argc, argv, &o) != 0)
        return EXIT_FAILURE;
    glp_term_out(GLP_OFF);
    char mesh_note[512] = "";
    fam_meshes *meshes = NULL;
    if (o.fam[FAM_HULL] || o.fam[FAM_HULL_REST] || o.fam[FAM_HULL_REST_FP]) {
        meshes = fam_meshes_load(o.data, mesh_note, sizeof mesh_note);
        if (!meshes)
            fprintf(stderr, "pairs: the hull families skipped: %s\n", mesh_note);
    }
    row_stats *st = calloc((size_t)FAM_COUNT * MAX_SIZES, sizeof *st);
    runner w;
    int nst = 0, rc = st && runner_init(&w) == 0 ? 0 : -1;
    if (rc != 0)
        fprintf(stderr, "pairs: out of memory\n");
    for (int f = 0; f < FAM_COUNT && rc == 0; f++) {
        if (!o.fam[f] || (fam_needs_meshes((fam_id)f) && !meshes))
            continue;
        int nsz = fam_has_m((fam_id)f) ? o.nsizes : 1;
        for (int s = 0; s < nsz && rc == 0; s++) {
            st[nst].fam = (fam_id)f;
            st[nst].m = fam_has_m((fam_id)f) ? o.sizes[s] : 0;
            rc = run_row(&o, &w, meshes, &st[nst++]);
        }
    }
    if (rc == 0 && nst > 0) {
        pairs_report(&o, st, nst, meshes, mesh_note);
    }
    for (int i = 0; st && i < nst; i++)
        row_free(&st[i]);
    free(st);
    if (rc == 0 || nst > 0)
        runner_free(&w);
    fam_meshes_free(meshes);
    return rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
