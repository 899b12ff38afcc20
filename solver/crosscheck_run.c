/* crosscheck_run.c -- the runner of `halfspace crosscheck`: generated
 * instances through every selected engine, the answers compared pairwise
 * (see crosscheck.h), and the summary printed.
 *
 * A float engine that disagrees is excused only near touching: when the
 * reference says TOUCHING, or the exact margin tau* of the stacked LP
 * (from glp_exact) satisfies |tau*| <= CC_NEAR_TOL * (largest |entry| of
 * the data). */
#include "solver/crosscheck.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "polytope/error.h"
#include "solver/engines.h"

/* Instances within this relative margin of touching excuse float answers. */
#define CC_NEAR_TOL 1e-9

void crosscheck_opts_init(crosscheck_opts *o)
{
    memset(o, 0, sizeof *o);
    o->count = 1000;
    o->dim = 0;
    o->rows = 8;
    o->seed = 1;
    o->verbose = 0;
    o->engines = CC_ALL_ENGINES;
}

/* The order in which the engines run; answers are indexed by hs_engine. */
#define CC_RUN 5
static const hs_engine run_order[CC_RUN] = {HS_ENGINE_EXACT, HS_ENGINE_GLPK_EXACT,
                                            HS_ENGINE_FAST, HS_ENGINE_FAITHFUL, HS_ENGINE_GLPK};
/* Answer slots are indexed by hs_engine. */
#define CC_ENGINE_SLOTS (HS_ENGINE_FAITHFUL_EXACT + 1)

typedef struct cc_answers {
    int have[CC_ENGINE_SLOTS];
    hs_status status[CC_ENGINE_SLOTS];
} cc_answers;

/* Everything the comparisons of one instance need. */
typedef struct cc_check {
    const crosscheck_instance *inst;
    long index;
    const cc_answers *ans;
    int ref;          /* engine whose answer is the reference, or -1 */
    int near_known;   /* near has been computed */
    int near;         /* within CC_NEAR_TOL of touching */
    FILE *out;
    crosscheck_summary *s;
} cc_check;

static void instance_label(const cc_check *k, char *buf, size_t cap)
{
    snprintf(buf, cap, "instance %ld (%s, %s, n=%d)", k->index,
             crosscheck_family_name(k->inst->family), k->inst->variant, k->inst->n);
}

static void run_engines(const crosscheck_instance *inst, long index, unsigned mask,
                        hs_result *r, cc_answers *ans, FILE *out, crosscheck_summary *s)
{
    for (int k = 0; k < CC_RUN; k++) {
        hs_engine e = run_order[k];
        ans->have[e] = 0;
        if (!(mask & CC_ENGINE_BIT(e)))
            continue;
        hs_options opt;
        hs_options_init(&opt);
        opt.engine = e;
        hs_error err;
        hs_error_clear(&err);
        if (hs_intersect(inst->A, inst->B, &opt, r, &err) != HS_OK) {
            s->engine_errors++;
            fprintf(out, "error: instance %ld (%s, %s, n=%d): engine %s failed: %s\n", index,
                    crosscheck_family_name(inst->family), inst->variant, inst->n, hs_engine_name(e),
                    err.msg);
            continue;
        }
        ans->have[e] = 1;
        ans->status[e] = hs_result_status(r);
        if (e == HS_ENGINE_FAST) {
            s->fast_queries++;
            s->fast_fallbacks += hs_result_fallback(r) != 0;
        }
    }
}

/* ------------------------------------------------ under a time limit */

/* What a child process sends back for one instance: the answers, the
 * counters run_engines updates, and the lines it printed. */
typedef struct cc_child {
    cc_answers ans;
    long engine_errors, fast_queries, fast_fallbacks;
    char lines[2048];
} cc_child;

/* In the child: the engines under a timer that ends the process when the
 * time is up (SIGALRM's default action), the answers written to fd. */
static void child_run(const crosscheck_instance *inst, long index, unsigned mask, double limit,
                      int fd)
{
    struct itimerval tv;
    memset(&tv, 0, sizeof tv);
    tv.it_value.tv_sec = (time_t)limit;
    tv.it_value.tv_usec = (suseconds_t)((limit - floor(limit)) * 1e6);
    if (tv.it_value.tv_sec == 0 && tv.it_value.tv_usec == 0)
        tv.it_value.tv_usec = 1;
    signal(SIGALRM, SIG_DFL);
    setitimer(ITIMER_REAL, &tv, NULL);
    cc_child *c = calloc(1, sizeof *c);
    if (!c)
        _exit(1);
    crosscheck_summary s;
    memset(&s, 0, sizeof s);
    FILE *lines = fmemopen(c->lines, sizeof c->lines - 1, "w");
    hs_result *r = hs_result_new();
    if (lines && r)
        run_engines(inst, index, mask, r, &c->ans, lines, &s);
    if (lines)
        fclose(lines);
    c->engine_errors = s.engine_errors + (!lines || !r);
    c->fast_queries = s.fast_queries;
    c->fast_fallbacks = s.fast_fallbacks;
    hs_result_free(r);
    const char *p = (const char *)c;
    size_t left = sizeof *c;
    int code = 0;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            code = 1;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    free(c); /* (everything of its own freed: memory checkers stay quiet) */
    _exit(code);
}

/* The engines of one instance in a child process stopped after `limit`
 * seconds: 0 with *ans filled (and the counters of s), 1 when the time
 * ran out (the instance is skipped), -1 when the child failed (counted
 * as an engine error). */
static int run_engines_limited(const crosscheck_instance *inst, long index, unsigned mask,
                               double limit, cc_answers *ans, FILE *out, crosscheck_summary *s)
{
    int fd[2];
    fflush(out);
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        child_run(inst, index, mask, limit, fd[1]);
    }
    close(fd[1]);
    cc_child *c = calloc(1, sizeof *c);
    char *p = (char *)c;
    size_t got = 0;
    while (c && got < sizeof *c) {
        ssize_t n = read(fd[0], p + got, sizeof *c - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (c && got == sizeof *c && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        *ans = c->ans;
        s->engine_errors += c->engine_errors;
        s->fast_queries += c->fast_queries;
        s->fast_fallbacks += c->fast_fallbacks;
        c->lines[sizeof c->lines - 1] = '\0';
        fputs(c->lines, out);
        free(c);
        return 0;
    }
    free(c);
    memset(ans, 0, sizeof *ans);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        return 1;
    s->engine_errors++;
    fprintf(out, "error: instance %ld (%s, %s, n=%d): the engines' process failed (%s %d)\n",
            index, crosscheck_family_name(inst->family), inst->variant, inst->n,
            WIFSIGNALED(status) ? "signal" : "exit status",
            WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    return -1;
}

static double poly_data_scale(const hs_poly *P)
{
    double a[CC_MAX_DIM], b, big = 0.0;
    if (hs_poly_dim(P) > CC_MAX_DIM)
        return 0.0;
    for (int i = 0; i < hs_poly_rows(P); i++) {
        hs_poly_row(P, i, a, &b);
        big = fmax(big, fabs(b));
        for (int j = 0; j < hs_poly_dim(P); j++)
            big = fmax(big, fabs(a[j]));
    }
    return big;
}

/* Is the instance within tolerance of touching?  Computed on first use. */
static int near_touching(cc_check *k)
{
    if (k->near_known)
        return k->near;
    k->near_known = 1;
    k->near = k->ref >= 0 && k->ans->status[k->ref] == HS_TOUCHING;
    if (k->near)
        return 1;
    double tau = 0.0;
    hs_error err;
    hs_error_clear(&err);
    if (glpk_margin(k->inst->A, k->inst->B, 1, &tau, &err) != HS_OK) {
        char label[200];
        instance_label(k, label, sizeof label);
        k->s->engine_errors++;
        fprintf(k->out, "error: %s: margin LP failed: %s\n", label, err.msg);
        return 0;
    }
    double scale = fmax(poly_data_scale(k->inst->A), poly_data_scale(k->inst->B));
    k->near = fabs(tau) <= CC_NEAR_TOL * scale;
    return k->near;
}

static int meets(hs_status st)
{
    return st == HS_TOUCHING || st == HS_OVERLAP || st == HS_INTERSECT;
}

/* Count one comparison; print it when it is an unexplained disagreement. */
static void record(cc_check *k, cc_pair pair, int agree, int is_float, const char *left,
                   hs_status ls, const char *right, const char *rs)
{
    cc_pair_stats *st = &k->s->pair[pair];
    st->compared++;
    if (agree) {
        st->agree++;
        return;
    }
    if (is_float && near_touching(k)) {
        st->explained++;
        return;
    }
    st->unexplained++;
    char label[200];
    instance_label(k, label, sizeof label);
    fprintf(k->out, "disagreement: %s: %s says %s, %s says %s\n", label, left,
            hs_status_name(ls), right, rs);
}

static void record_engines(cc_check *k, cc_pair pair, hs_engine l, hs_engine r, int three_way,
                           int is_float)
{
    const cc_answers *a = k->ans;
    if (!a->have[l] || !a->have[r])
        return;
    int agree = three_way ? a->status[l] == a->status[r]
                          : meets(a->status[l]) == meets(a->status[r]);
    record(k, pair, agree, is_float, hs_engine_name(l), a->status[l], hs_engine_name(r),
           hs_status_name(a->status[r]));
}

static void compare_answers(cc_check *k)
{
    const cc_answers *a = k->ans;
    record_engines(k, CC_EXACT_VS_GLPK_EXACT, HS_ENGINE_EXACT, HS_ENGINE_GLPK_EXACT, 1, 0);
    record_engines(k, CC_FAST_VS_EXACT, HS_ENGINE_FAST, HS_ENGINE_EXACT, 1, 0);
    if (k->ref >= 0 && k->inst->expected != CC_UNKNOWN) {
        hs_status want = (hs_status)k->inst->expected;
        record(k, CC_EXACT_VS_EXPECTED, a->status[k->ref] == want, 0,
               hs_engine_name((hs_engine)k->ref), a->status[k->ref], "the construction",
               hs_status_name(want));
    }
    record_engines(k, CC_FAITHFUL_VS_GLPK, HS_ENGINE_FAITHFUL, HS_ENGINE_GLPK, 0, 1);
    record_engines(k, CC_FAITHFUL_VS_EXACT, HS_ENGINE_FAITHFUL, HS_ENGINE_EXACT, 0, 1);
    record_engines(k, CC_GLPK_VS_EXACT, HS_ENGINE_GLPK, HS_ENGINE_EXACT, 1, 1);
}

/* The exact engine when it ran; glp_exact when the exact engine was not
 * selected at all. */
static int reference_engine(const cc_answers *a, unsigned mask)
{
    if (a->have[HS_ENGINE_EXACT])
        return HS_ENGINE_EXACT;
    if (!(mask & CC_ENGINE_BIT(HS_ENGINE_EXACT)) && a->have[HS_ENGINE_GLPK_EXACT])
        return HS_ENGINE_GLPK_EXACT;
    return -1;
}

static void print_instance(const cc_check *k)
{
    const crosscheck_instance *inst = k->inst;
    fprintf(k->out, "instance %ld: %s (%s) n=%d rows=%d+%d expected=%s", k->index,
            crosscheck_family_name(inst->family), inst->variant, inst->n, hs_poly_rows(inst->A),
            hs_poly_rows(inst->B),
            inst->expected == CC_UNKNOWN ? "?" : hs_status_name((hs_status)inst->expected));
    for (int i = 0; i < CC_RUN; i++) {
        hs_engine e = run_order[i];
        fprintf(k->out, " %s=%s", hs_engine_name(e),
                k->ans->have[e] ? hs_status_name(k->ans->status[e]) : "-");
    }
    fputc('\n', k->out);
}

static void count_reference(crosscheck_summary *s, const cc_check *k)
{
    s->family_count[k->inst->family]++;
    if (k->ref < 0)
        return;
    hs_status st = k->ans->status[k->ref];
    int slot = st == HS_DISJOINT ? 0 : st == HS_TOUCHING ? 1 : st == HS_OVERLAP ? 2 : -1;
    if (slot >= 0)
        s->family_status[k->inst->family][slot]++;
}

static void check_instance(const crosscheck_opts *o, const crosscheck_instance *inst,
                           long index, hs_result *r, FILE *out, crosscheck_summary *s)
{
    cc_answers ans;
    if (o->time_limit > 0) {
        if (run_engines_limited(inst, index, o->engines, o->time_limit, &ans, out, s) == 1) {
            s->skipped++;
            s->family_count[inst->family]++;
            fprintf(out, "skipped: instance %ld (%s, %s, n=%d): over the time limit of %g s\n",
                    index, crosscheck_family_name(inst->family), inst->variant, inst->n,
                    o->time_limit);
            return;
        }
    } else
        run_engines(inst, index, o->engines, r, &ans, out, s);
    cc_check k = {inst, index, &ans, reference_engine(&ans, o->engines), 0, 0, out, s};
    compare_answers(&k);
    count_reference(s, &k);
    if (o->verbose)
        print_instance(&k);
}

static const char *pair_name(cc_pair p, unsigned mask)
{
    switch (p) {
    case CC_EXACT_VS_GLPK_EXACT: return "exact vs glpk-exact";
    case CC_FAST_VS_EXACT: return "fast vs exact";
    case CC_EXACT_VS_EXPECTED:
        return (mask & CC_ENGINE_BIT(HS_ENGINE_EXACT)) ? "exact vs expected class"
                                                       : "glpk-exact vs expected class";
    case CC_FAITHFUL_VS_GLPK: return "faithful vs glpk";
    case CC_FAITHFUL_VS_EXACT: return "faithful vs exact";
    case CC_GLPK_VS_EXACT: return "glpk vs exact";
    case CC_PAIR_COUNT: break;
    }
    return "?";
}

static void print_summary(const crosscheck_opts *o, FILE *out, const crosscheck_summary *s)
{
    for (int f = 0; f < CC_FAMILY_COUNT; f++)
        if (s->family_count[f])
            fprintf(out, "family %-12s %6ld instances: %ld disjoint, %ld touching, %ld overlap\n",
                    crosscheck_family_name((cc_family)f), s->family_count[f],
                    s->family_status[f][0], s->family_status[f][1], s->family_status[f][2]);
    for (int p = 0; p < CC_PAIR_COUNT; p++) {
        const cc_pair_stats *st = &s->pair[p];
        fprintf(out, "%s: %ld compared, %ld agree", pair_name((cc_pair)p, o->engines),
                st->compared, st->agree);
        if (p >= CC_FAITHFUL_VS_GLPK)
            fprintf(out, ", %ld explained (near touching)", st->explained);
        fprintf(out, ", %ld disagreements\n", st->unexplained);
    }
    if (s->fast_queries)
        fprintf(out, "fast engine: %ld queries, %ld answered by the exact fallback (%.1f%%)\n",
                s->fast_queries, s->fast_fallbacks, 100.0 * (double)s->fast_fallbacks /
                                                        (double)s->fast_queries);
    fprintf(out, "engine errors: %ld\n", s->engine_errors);
    if (s->skipped)
        fprintf(out, "crosscheck: %ld instances, %ld disagreements, %ld skipped (over the time "
                     "limit)\n",
                s->instances, s->disagreements, s->skipped);
    else
        fprintf(out, "crosscheck: %ld instances, %ld disagreements\n", s->instances,
                s->disagreements);
}

hs_code crosscheck_run(const crosscheck_opts *o, FILE *out, crosscheck_summary *s,
                       hs_error *err)
{
    if (!o || !out || !s)
        return err_set(err, HS_ERR_ARG, "crosscheck: NULL argument");
    memset(s, 0, sizeof *s);
    hs_result *r = hs_result_new();
    if (!r)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_code rc = HS_OK;
    for (long i = 0; i < o->count && rc == HS_OK; i++) {
        crosscheck_instance inst;
        rc = crosscheck_generate(o->seed, i, o->dim, o->rows, &inst, err);
        if (rc != HS_OK)
            break;
        check_instance(o, &inst, i, r, out, s);
        crosscheck_instance_free(&inst);
        s->instances++;
    }
    hs_result_free(r);
    s->disagreements = s->engine_errors;
    for (int p = 0; p < CC_PAIR_COUNT; p++)
        s->disagreements += s->pair[p].unexplained;
    if (rc == HS_OK)
        print_summary(o, out, s);
    return rc;
}
