/* dim.c -- queries in higher dimension (issue 13, item 5): our exact and
 * fast engines against GLPK on random polytopes in n = 6..10 (or any n),
 * timed cold, plus the cost of building a polytope and the exact engine
 * on the standard simplex in high dimension.
 *
 * Instances: tangent-sphere polytopes in n dimensions.  A polytope around
 * the center c has m rows u . x <= u . c + r(u): u is an integer vector,
 * a Gaussian direction scaled to length 1000 and rounded (|u_j| <= 1000,
 * zero rejected), r(u) is |u| rounded up to a multiple of 2^-10, and c has
 * coordinates that are multiples of 2^-10, so every number is a small
 * dyadic rational, exactly a double (computed in 64-bit integers).  Every
 * such polytope contains the unit ball around c.  Pair i has class i mod 3,
 * each by construction:
 *   overlap   B's center at distance d in [0.25, 1.9] from A's (the unit
 *             balls meet in their interiors);
 *   touching  (pairs i with i / 3 even) a face on a face: the first row
 *             of A is 1000 s x_k <= 1000 s cA_k + 1000 and the first row of
 *             B is -1000 s x_k <= -1000 s cB_k + 1000 with cB = cA + 2 s e_k
 *             (axis k and sign s random): A lies in s x_k <= s cA_k + 1, B
 *             in s x_k >= the same, and both contain cA + s e_k, the
 *             tangent point of both rows;
 *             (i / 3 odd) a vertex on a face: A's corner is cut by n rows
 *             through v = cA + 1.5 s e_k whose normals' cone holds s e_k
 *             inside, B's first row is the plane s x_k >= s v_k and its
 *             center v + s e_k (make_vertex_pair): they meet in v only;
 *   disjoint  the same rows with cB = cA + (2 + g) s e_k + a lateral offset
 *             in [-1/2, 1/2] on the other axes, gap g in [2^-10, 1/2]: the
 *             slab between the two rows separates them.
 *
 * Methods: hs_intersect with the exact engine (exact), the fast engine as
 * it is (fast; it hands queries it cannot settle, and all queries in more
 * than SEIDEL_MAX_DIM - 1 dimensions, to the exact engine) and the GLPK
 * engine (glpk, glp_simplex on the margin LP with a tolerance).
 *
 * Timing is cold: in each repeat every pair is asked once per method, the
 * pairs in a new random order, the methods interleaved (one query of each
 * method on a pair, in a random method order, before the next pair).
 * CLOCK_MONOTONIC around one hs_intersect call.  Reported per (n, m,
 * method): mean_us, the mean over the pairs of each pair's fastest time
 * over the repeats (a floor against the load of a shared machine), the
 * per-class means of the same floors, and spread, the range of the
 * per-repeat means (mean over pairs of one repeat) divided by their
 * smallest.  wrong counts answers (over every repeat) that differ from the
 * class by construction; every exact and fast answer is also verified with
 * hs_result_verify, outside the timed region (a failure counts as wrong).
 *
 * Build: the time of hs_poly_from_doubles (which runs the fast engine's
 * preparation) on the A polytopes of the first pairs, and of the same
 * rows without preparation plus lpd_interior_point and lpd_box_hint
 * (solver/lpd.h): what a build based on them would cost.
 *
 * Simplex: the exact engine on the standard simplex x >= 0, sum x <= 1 in
 * n dimensions (m = n + 1): feasibility, and the intersection with the
 * copy shifted by 1/(2n) along every axis (they overlap).
 *
 * Output (stdout, at the end): Markdown tables and, in a fenced block,
 * lines
 *   RESULT bench=dim n=N m=M method=X mean_us=.. spread=.. wrong=..
 *          disjoint_us=.. overlap_us=.. touching_us=.. pairs=.. repeats=..
 *          [exact: lps=.. lps_certified_as_proposed=..: the slack LPs of
 *          the exact engine on the pairs (one untimed pass) and how many
 *          of them were certified optimal exactly as the floating-point
 *          simplex proposed them, without an exact pivot]
 *   RESULT bench=dim-build n=N m=M method=poly_from_doubles|lpd build_us=..
 *   RESULT bench=simplex n=N query=feasible|intersect method=exact ms=..
 * Progress, and each RESULT line as soon as it is known, go to stderr. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/tangent.h"
#include "halfspace.h"
#include "polytope/hpoly.h"
#include "solver/lpd.h"

#define MAX_LIST 16
#define FRAC 1024.0 /* 2^10 */
#define COORD 1000

enum { M_EXACT, M_FAST, M_GLPK, METHODS };
static const char *const method_name[METHODS] = {"exact", "fast", "glpk"};
static const hs_engine method_engine[METHODS] = {HS_ENGINE_EXACT, HS_ENGINE_FAST,
                                                 HS_ENGINE_GLPK};
enum { C_OVERLAP, C_TOUCHING, C_DISJOINT, CLASSES };
static const hs_status class_status[CLASSES] = {HS_OVERLAP, HS_TOUCHING, HS_DISJOINT};

typedef struct dim_opts {
    int dims[MAX_LIST], ndims;
    int sizes[MAX_LIST], nsizes;
    int simplex[MAX_LIST], nsimplex;
    int pairs, repeats, builds;
    int use[METHODS];
    double budget_s;   /* per (n, m, method): stop repeating past this */
    double build_budget_s;
    int full_build_max; /* time hs_poly_from_doubles only up to this n */
    uint64_t seed;
} dim_opts;

typedef struct pair {
    hs_poly *A, *B;
    int cls;
} pair;

/* What the run found, for the tables at the end. */
typedef struct cell_row {
    int n, m;
    double mean_us[METHODS]; /* < 0: not run */
    int fast_raw;            /* fast engine without preparation */
    long lps, certified;
} cell_row;

typedef struct build_row {
    int n, m;
    double full_us; /* < 0: not timed */
    int full_count;
    double lpd_us;
} build_row;

typedef struct summary {
    cell_row cell[256];
    int ncell;
    build_row build[256];
    int nbuild;
    int simplex_n[16];
    double simplex_ms[16][2];
    int nsimplex;
    char lines[1024][400]; /* RESULT lines */
    int nlines;
} summary;

static void add_line(summary *sm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_line(summary *sm, const char *fmt, ...)
{
    if (sm->nlines >= 1024)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sm->lines[sm->nlines], sizeof sm->lines[0], fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", sm->lines[sm->nlines++]);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------ instances */

static double gauss(tangent_rng *g)
{
    double u1 = tangent_rng_unit(g), u2 = tangent_rng_unit(g);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Integer direction u, |u_j| <= COORD, u != 0. */
static void direction(tangent_rng *g, int n, long *u)
{
    for (;;) {
        double v[64], len = 0;
        for (int j = 0; j < n; j++) {
            v[j] = gauss(g);
            len += v[j] * v[j];
        }
        len = sqrt(len);
        long r2 = 0;
        for (int j = 0; j < n; j++) {
            u[j] = lround(COORD * v[j] / len);
            if (u[j] > COORD)
                u[j] = COORD;
            if (u[j] < -COORD)
                u[j] = -COORD;
            r2 += u[j] * u[j];
        }
        if (r2 > 0)
            return;
    }
}

/* r(u) in units of 2^-10: |u| 2^10 rounded up = ceil(sqrt(|u|^2 2^20)). */
static int64_t tangent_r(int n, const long *u)
{
    int64_t r2 = 0;
    for (int j = 0; j < n; j++)
        r2 += (int64_t)u[j] * u[j];
    return (int64_t)tangent_isqrt_ceil((uint64_t)r2 << 20);
}

/* u . c + r(u) with c in units of 2^-10 (ck integers), exactly. */
static double tangent_rhs_n(int n, const long *u, const long *ck)
{
    int64_t dot = 0;
    for (int j = 0; j < n; j++)
        dot += (int64_t)u[j] * ck[j];
    return (double)(dot + tangent_r(n, u)) / FRAC;
}

/* The m rows (a: m*n, b: m) of a polytope around ck (units of 2^-10);
 * row 0 is `first` (n integers) when not NULL. */
static void tangent_rows_n(tangent_rng *g, int n, int m, const long *ck, const long *first,
                           double *a, double *b)
{
    long u[64];
    for (int i = 0; i < m; i++) {
        if (i == 0 && first)
            memcpy(u, first, sizeof(long) * (size_t)n);
        else
            direction(g, n, u);
        for (int j = 0; j < n; j++)
            a[(size_t)i * (size_t)n + (size_t)j] = (double)u[j];
        b[i] = tangent_rhs_n(n, u, ck);
    }
}

/* The polytope of those rows: by hs_poly_from_doubles (with the fast
 * engine's preparation) or, raw, without it. */
static hs_poly *build(int n, int m, const double *a, const double *b, int raw)
{
    hs_error err;
    hs_poly *p = raw ? hpoly_from_rows(n, m, a, b) : hs_poly_from_doubles(n, m, a, b, NULL, &err);
    if (!p) {
        fprintf(stderr, "dim: cannot build a polytope: %s\n", raw ? "out of memory" : err.msg);
        exit(1);
    }
    return p;
}

static hs_poly *polytope(tangent_rng *g, int n, int m, const long *ck, const long *first,
                         int raw)
{
    double *a = malloc(sizeof(double) * (size_t)m * (size_t)n);
    double *b = malloc(sizeof(double) * (size_t)m);
    tangent_rows_n(g, n, m, ck, first, a, b);
    hs_poly *p = build(n, m, a, b, raw);
    free(a);
    free(b);
    return p;
}

/* Centers (units of 2^-10) of pair `index` and the shared axis row. */
static int pair_layout(tangent_rng *g, int n, int cls, long *cA, long *cB, long *rowA,
                       long *rowB)
{
    for (int j = 0; j < n; j++)
        cA[j] = tangent_rng_int(g, -1024, 1024);
    if (cls == C_OVERLAP) {
        for (;;) {
            double v[64], len = 0, d = 0.25 + 1.65 * tangent_rng_unit(g), dd = 0;
            for (int j = 0; j < n; j++) {
                v[j] = gauss(g);
                len += v[j] * v[j];
            }
            len = sqrt(len);
            for (int j = 0; j < n; j++) {
                long off = lround(FRAC * d * v[j] / len);
                cB[j] = cA[j] + off;
                dd += (double)off * (double)off;
            }
            if (sqrt(dd) < 1.95 * FRAC)
                return 0;
        }
    }
    int k = (int)tangent_rng_int(g, 0, n - 1);
    long s = tangent_rng_int(g, 0, 1) ? 1 : -1;
    long gap = cls == C_TOUCHING ? 0 : tangent_rng_int(g, 1, 512);
    for (int j = 0; j < n; j++) {
        rowA[j] = rowB[j] = 0;
        cB[j] = cA[j];
        if (cls == C_DISJOINT && j != k)
            cB[j] += tangent_rng_int(g, -512, 512);
    }
    cB[k] = cA[k] + s * (2 * 1024 + gap);
    rowA[k] = s * COORD;
    rowB[k] = -s * COORD;
    return 1;
}

/* u . (x - c) for x, c in units of 2^-10 (exact in 64 bits). */
static int64_t dot_from(int n, const long *u, const long *x, const long *c)
{
    int64_t d = 0;
    for (int j = 0; j < n; j++)
        d += (int64_t)u[j] * (x[j] - c[j]);
    return d;
}

/* A vertex on a face (a touching pair that is not a face on a face): A is
 * a tangent polytope around cA with its corner cut by n rows through the
 * point v = cA + 1.5 s e_k (normals s COORD e_k + p_i, the perturbations
 * summing to 0, so s e_k lies inside their cone and v alone maximises
 * s x_k over A); its other rows are tangent directions strictly
 * satisfied at v (redrawn otherwise).  B is a tangent polytope around
 * v + s e_k whose row 0 is the plane s x_k >= s v_k; its other rows hold
 * strictly at v (directions along e_k redrawn).  So A and B meet in v
 * only.  Every number is a short dyadic rational, exactly a double. */
static void make_vertex_pair(pair *p, tangent_rng *g, int n, int m, int raw)
{
    long cA[64], cB[64], v[64], u[64];
    double *a = malloc(sizeof(double) * (size_t)m * (size_t)n);
    double *b = malloc(sizeof(double) * (size_t)m);
    int k = (int)tangent_rng_int(g, 0, n - 1);
    long s = tangent_rng_int(g, 0, 1) ? 1 : -1;
    for (int j = 0; j < n; j++) {
        cA[j] = tangent_rng_int(g, -1024, 1024);
        v[j] = cA[j] + (j == k ? s * 1536 : 0);
        cB[j] = v[j] + (j == k ? s * 1024 : 0);
    }
    for (int w = 0; w < 2; w++) {
        const long *c = w ? cB : cA;
        long sum[64] = {0};
        for (int i = 0; i < m; i++) {
            int corner = w == 0 && i < n, through_v = corner || (w == 1 && i == 0), tries = 0;
            for (;;) {
                if (corner) {
                    for (int j = 0; j < n; j++) {
                        long pj = j == k ? 0 : i < n - 1 ? tangent_rng_int(g, -200, 200) : -sum[j];
                        u[j] = (j == k ? s * COORD : 0) + pj;
                        if (i < n - 1)
                            sum[j] += pj;
                    }
                    break;
                }
                if (through_v) { /* B's face through v */
                    for (int j = 0; j < n; j++)
                        u[j] = j == k ? -s * COORD : 0;
                    break;
                }
                direction(g, n, u);
                int along = 1;
                for (int j = 0; j < n; j++)
                    along &= j == k || u[j] == 0;
                if (!along && dot_from(n, u, v, c) < tangent_r(n, u))
                    break;
                if (++tries > 1000) { /* (cannot happen for these sizes) */
                    fprintf(stderr, "dim: no tangent row clear of the vertex\n");
                    exit(1);
                }
            }
            int64_t at_v = 0; /* u . v: the right side of a row through v */
            for (int j = 0; j < n; j++) {
                a[(size_t)i * (size_t)n + (size_t)j] = (double)u[j];
                at_v += (int64_t)u[j] * v[j];
            }
            b[i] = through_v ? (double)at_v / FRAC : tangent_rhs_n(n, u, c);
        }
        if (w == 0)
            p->A = build(n, m, a, b, raw);
        else
            p->B = build(n, m, a, b, raw);
    }
    free(a);
    free(b);
}

static void make_pair(pair *p, uint64_t seed, int n, int m, int index, int raw)
{
    tangent_rng g = tangent_rng_for_pair(seed ^ ((uint64_t)n << 40) ^ ((uint64_t)m << 20),
                                         index);
    long cA[64], cB[64], rowA[64], rowB[64];
    p->cls = index % CLASSES;
    if (p->cls == C_TOUCHING && index / CLASSES % 2 == 1) {
        make_vertex_pair(p, &g, n, m, raw);
        return;
    }
    int axis = pair_layout(&g, n, p->cls, cA, cB, rowA, rowB);
    p->A = polytope(&g, n, m, cA, axis ? rowA : NULL, raw);
    p->B = polytope(&g, n, m, cB, axis ? rowB : NULL, raw);
}

/* -------------------------------------------------------------- timing */

static void shuffle(tangent_rng *g, int *v, int k)
{
    for (int i = k - 1; i > 0; i--) {
        int j = (int)tangent_rng_int(g, 0, i), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

typedef struct cell {
    double *best;       /* pairs: fastest time per pair */
    double rep_sum[64]; /* per repeat: sum over pairs */
    int reps;           /* repeats done */
    long wrong;
    int stopped;
    double total;
} cell;

static int query(const pair *p, int method, hs_result *r, double *secs)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = method_engine[method];
    hs_error err;
    double t0 = now_s();
    hs_code rc = hs_intersect(p->A, p->B, &opt, r, &err);
    *secs = now_s() - t0;
    if (rc != HS_OK) {
        fprintf(stderr, "dim: %s: %s\n", method_name[method], err.msg);
        return 0;
    }
    int ok = hs_result_status(r) == class_status[p->cls];
    if (ok && method != M_GLPK && hs_result_verify(r, p->A, p->B, &err) != HS_OK) {
        fprintf(stderr, "dim: %s: certificate rejected: %s\n", method_name[method], err.msg);
        ok = 0;
    }
    return ok;
}

/* The exact engine's trace line: "... floating-point basis certified
 * optimal in C of L)". */
typedef struct lp_tally {
    long lps, certified;
} lp_tally;

static void tally_trace(void *user, const char *line)
{
    lp_tally *t = user;
    const char *p = strstr(line, "certified optimal in ");
    int c, l;
    if (p && sscanf(p, "certified optimal in %d of %d", &c, &l) == 2) {
        t->certified += c;
        t->lps += l;
    }
}

/* How many of the exact engine's LPs on these pairs were certified as
 * the floating-point simplex proposed them (untimed pass). */
static lp_tally tally_proposals(const pair *pr, int count)
{
    lp_tally t = {0, 0};
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_EXACT;
    opt.trace = tally_trace;
    opt.trace_user = &t;
    hs_result *r = hs_result_new();
    hs_error err;
    for (int i = 0; i < count; i++)
        if (hs_intersect(pr[i].A, pr[i].B, &opt, r, &err) != HS_OK)
            fprintf(stderr, "dim: exact: %s\n", err.msg);
    hs_result_free(r);
    return t;
}

static double print_cell(const dim_opts *o, int n, int m, int method, const cell *c,
                         const pair *pr, char *out, size_t cap)
{
    double mean = 0, cls_sum[CLASSES] = {0};
    int cls_n[CLASSES] = {0};
    for (int i = 0; i < o->pairs; i++) {
        mean += c->best[i];
        cls_sum[pr[i].cls] += c->best[i];
        cls_n[pr[i].cls]++;
    }
    mean /= o->pairs;
    double lo = INFINITY, hi = 0;
    for (int k = 0; k < c->reps; k++) {
        double v = c->rep_sum[k] / o->pairs;
        lo = fmin(lo, v);
        hi = fmax(hi, v);
    }
    char cls_txt[3][32];
    for (int k = 0; k < CLASSES; k++)
        snprintf(cls_txt[k], sizeof cls_txt[k], "%.1f",
                 cls_n[k] ? 1e6 * cls_sum[k] / cls_n[k] : 0.0);
    snprintf(out, cap,
             "RESULT bench=dim n=%d m=%d method=%s mean_us=%.1f spread=%.2f wrong=%ld "
             "disjoint_us=%s overlap_us=%s touching_us=%s pairs=%d repeats=%d%s",
             n, m, method_name[method], 1e6 * mean, c->reps > 1 ? (hi - lo) / lo : 0.0, c->wrong,
             cls_txt[C_DISJOINT], cls_txt[C_OVERLAP], cls_txt[C_TOUCHING], o->pairs, c->reps,
             c->stopped ? " (time budget reached)" : "");
    return 1e6 * mean;
}

static void run_cell(const dim_opts *o, int n, int m, summary *sm)
{
    fprintf(stderr, "dim: n = %d, m = %d: building %d pairs\n", n, m, o->pairs);
    pair *pr = calloc((size_t)o->pairs, sizeof *pr);
    /* Pairs as the public constructor makes them, unless its preparation
     * is too slow to wait for (then without: the fast engine falls back). */
    double t0 = now_s(), one = INFINITY;
    if (o->build_budget_s > 0 && n <= o->full_build_max) {
        make_pair(&pr[0], o->seed, n, m, 0, 0);
        one = now_s() - t0;
    }
    int raw = one > o->build_budget_s;
    if (raw && one == INFINITY)
        make_pair(&pr[0], o->seed, n, m, 0, 1);
    else if (raw) {
        fprintf(stderr, "dim: building one pair took %.1f s: the rest are built without the "
                        "fast engine's preparation\n", one);
        hs_poly_free(pr[0].A);
        hs_poly_free(pr[0].B);
        make_pair(&pr[0], o->seed, n, m, 0, 1);
    }
    for (int i = 1; i < o->pairs; i++)
        make_pair(&pr[i], o->seed, n, m, i, raw);
    cell c[METHODS];
    memset(c, 0, sizeof c);
    for (int k = 0; k < METHODS; k++) {
        c[k].best = malloc(sizeof(double) * (size_t)o->pairs);
        for (int i = 0; i < o->pairs; i++)
            c[k].best[i] = INFINITY;
    }
    int *order = malloc(sizeof(int) * (size_t)o->pairs);
    int morder[METHODS] = {M_EXACT, M_FAST, M_GLPK};
    tangent_rng g;
    tangent_rng_seed(&g, o->seed * 7919 + (uint64_t)(n * 100003 + m));
    hs_result *r = hs_result_new();
    for (int rep = 0; rep < o->repeats && rep < 64; rep++) {
        for (int i = 0; i < o->pairs; i++)
            order[i] = i;
        shuffle(&g, order, o->pairs);
        int any = 0;
        for (int k = 0; k < METHODS; k++)
            any |= o->use[k] && !c[k].stopped;
        if (!any)
            break;
        for (int q = 0; q < o->pairs; q++) {
            shuffle(&g, morder, METHODS);
            for (int mk = 0; mk < METHODS; mk++) {
                int k = morder[mk];
                if (!o->use[k] || c[k].stopped)
                    continue;
                double secs;
                if (!query(&pr[order[q]], k, r, &secs))
                    c[k].wrong++;
                c[k].rep_sum[rep] += secs;
                c[k].total += secs;
                if (secs < c[k].best[order[q]])
                    c[k].best[order[q]] = secs;
            }
        }
        for (int k = 0; k < METHODS; k++) {
            if (!o->use[k] || c[k].stopped)
                continue;
            c[k].reps++;
            if (c[k].total > o->budget_s && rep + 1 < o->repeats)
                c[k].stopped = 1;
        }
        fprintf(stderr, "dim: n = %d, m = %d: repeat %d done\n", n, m, rep + 1);
    }
    lp_tally t = tally_proposals(pr, o->pairs);
    cell_row *row = &sm->cell[sm->ncell++];
    *row = (cell_row){n, m, {-1, -1, -1}, raw, t.lps, t.certified};
    for (int k = 0; k < METHODS; k++) {
        if (o->use[k]) {
            char line[400], extra[100] = "";
            row->mean_us[k] = print_cell(o, n, m, k, &c[k], pr, line, sizeof line);
            if (raw && k == M_FAST)
                snprintf(extra, sizeof extra, " (built without preparation)");
            if (k == M_EXACT)
                snprintf(extra, sizeof extra, " lps=%ld lps_certified_as_proposed=%ld", t.lps,
                         t.certified);
            add_line(sm, "%s%s", line, extra);
        }
        free(c[k].best);
    }
    hs_result_free(r);
    free(order);
    for (int i = 0; i < o->pairs; i++) {
        hs_poly_free(pr[i].A);
        hs_poly_free(pr[i].B);
    }
    free(pr);
}

/* Build times on the A polytopes of the first pairs (rows made first,
 * outside the timing). */
static void run_build(const dim_opts *o, int n, int m, summary *sm)
{
    double full = 0, lpd = 0;
    int nfull = 0, nlpd = 0;
    double *a = malloc(sizeof(double) * (size_t)m * (size_t)n);
    double *b = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < o->builds; i++) {
        tangent_rng g = tangent_rng_for_pair(o->seed ^ ((uint64_t)n << 40) ^ ((uint64_t)m << 20),
                                             i);
        long cA[64], cB[64], rowA[64], rowB[64];
        int axis = pair_layout(&g, n, i % CLASSES, cA, cB, rowA, rowB);
        tangent_rows_n(&g, n, m, cA, axis ? rowA : NULL, a, b);
        if (full < o->build_budget_s && n <= o->full_build_max) {
            double t0 = now_s();
            hs_poly *p = build(n, m, a, b, 0);
            full += now_s() - t0;
            nfull++;
            hs_poly_free(p);
        }
        double t0 = now_s();
        hs_poly *p = build(n, m, a, b, 1);
        double x[64], lo[64], hi[64], radius;
        int ok = lpd_interior_point(p, x, &radius) == 0 && lpd_box_hint(p, lo, hi) == 0;
        lpd += now_s() - t0;
        nlpd++;
        if (!ok)
            fprintf(stderr, "dim: lpd_interior_point failed at n = %d, m = %d\n", n, m);
        hs_poly_free(p);
    }
    free(a);
    free(b);
    build_row *br = &sm->build[sm->nbuild++];
    *br = (build_row){n, m, nfull ? 1e6 * full / nfull : -1, nfull, 1e6 * lpd / nlpd};
    if (nfull > 0)
        add_line(sm, "RESULT bench=dim-build n=%d m=%d method=poly_from_doubles build_us=%.1f "
                     "count=%d", n, m, br->full_us, nfull);
    add_line(sm, "RESULT bench=dim-build n=%d m=%d method=lpd build_us=%.1f count=%d", n, m,
             br->lpd_us, nlpd);
}

/* The standard simplex (shift 0) or its copy shifted by `shift` per axis. */
static hs_poly *simplex_poly(int n, double shift)
{
    double *a = calloc((size_t)(n + 1) * (size_t)n, sizeof(double));
    double *b = calloc((size_t)n + 1, sizeof(double));
    for (int i = 0; i < n; i++) {
        a[(size_t)i * (size_t)n + (size_t)i] = -1; /* -x_i <= -shift */
        b[i] = -shift;
    }
    for (int j = 0; j < n; j++)
        a[(size_t)n * (size_t)n + (size_t)j] = 1; /* sum x <= 1 + n shift */
    b[n] = 1 + n * shift;
    hs_poly *p = hpoly_from_rows(n, n + 1, a, b);
    free(a);
    free(b);
    return p;
}

static void run_simplex(int n, summary *sm)
{
    hs_poly *S = simplex_poly(n, 0), *T = simplex_poly(n, ldexp(1, -(int)ceil(log2(2.0 * n))));
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_EXACT;
    hs_result *r = hs_result_new();
    hs_error err;
    for (int q = 0; q < 2; q++) {
        fprintf(stderr, "dim: simplex n = %d, %s\n", n, q ? "intersect" : "feasible");
        double t0 = now_s();
        hs_code rc = q ? hs_intersect(S, T, &opt, r, &err) : hs_feasible(S, &opt, r, &err);
        double ms = 1e3 * (now_s() - t0);
        const char *st = rc == HS_OK ? hs_status_name(hs_result_status(r)) : err.msg;
        add_line(sm, "RESULT bench=simplex n=%d query=%s method=exact ms=%.1f status=%.100s "
                     "pivots=%ld", n, q ? "intersect" : "feasible", ms, st, hs_result_pivots(r));
        sm->simplex_ms[sm->nsimplex][q] = ms;
    }
    sm->simplex_n[sm->nsimplex++] = n;
    hs_result_free(r);
    hs_poly_free(S);
    hs_poly_free(T);
}

/* ------------------------------------------------------------- options */

static int parse_list(const char *s, int *v, int cap)
{
    int k = 0;
    while (*s && k < cap) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x < 0 || x > 100000)
            return -1;
        v[k++] = (int)x;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    return k;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: dim [--dims 6,7,8,9,10] [--sizes 100,1000] [--pairs 30] [--repeats 5]\n"
            "           [--methods exact,fast,glpk] [--builds 4] [--simplex 200,1000]\n"
            "           [--budget S] [--build-budget S] [--full-build-max N] [--seed N]\n");
    exit(2);
}

static void parse(int argc, char **argv, dim_opts *o)
{
    *o = (dim_opts){.ndims = 5, .dims = {6, 7, 8, 9, 10}, .nsizes = 2, .sizes = {100, 1000},
                    .nsimplex = 2, .simplex = {200, 1000}, .pairs = 30, .repeats = 5,
                    .builds = 4, .use = {1, 1, 1}, .budget_s = 60, .build_budget_s = 5,
                    .full_build_max = 10,
                    .seed = 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            usage();
        i++;
        if (!strcmp(a, "--dims"))
            o->ndims = parse_list(v, o->dims, MAX_LIST);
        else if (!strcmp(a, "--sizes"))
            o->nsizes = parse_list(v, o->sizes, MAX_LIST);
        else if (!strcmp(a, "--simplex"))
            o->nsimplex = strcmp(v, "none") ? parse_list(v, o->simplex, MAX_LIST) : 0;
        else if (!strcmp(a, "--pairs"))
            o->pairs = atoi(v);
        else if (!strcmp(a, "--repeats"))
            o->repeats = atoi(v);
        else if (!strcmp(a, "--builds"))
            o->builds = atoi(v);
        else if (!strcmp(a, "--budget"))
            o->budget_s = atof(v);
        else if (!strcmp(a, "--build-budget"))
            o->build_budget_s = atof(v);
        else if (!strcmp(a, "--full-build-max"))
            o->full_build_max = atoi(v);
        else if (!strcmp(a, "--seed"))
            o->seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--methods")) {
            for (int k = 0; k < METHODS; k++)
                o->use[k] = strstr(v, method_name[k]) != NULL;
        } else
            usage();
    }
    for (int k = 0; k < o->ndims; k++)
        if (o->dims[k] < 1 || o->dims[k] > 60)
            usage();
    if (o->ndims < 0 || o->nsizes < 0 || o->nsimplex < 0 || o->pairs < 1 || o->repeats < 1 ||
        o->repeats > 64 || o->builds < 0)
        usage();
}

static void print_tables(const summary *sm)
{
    printf("| n | m | exact | fast (as is) | GLPK | exact / GLPK | LPs certified as proposed |\n"
           "|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < sm->ncell; i++) {
        const cell_row *c = &sm->cell[i];
        char v[METHODS][32];
        for (int k = 0; k < METHODS; k++)
            snprintf(v[k], sizeof v[k], c->mean_us[k] < 0 ? "-" : "%.0f", c->mean_us[k]);
        printf("| %d | %d | %s | %s%s | %s | ", c->n, c->m, v[M_EXACT], v[M_FAST],
               c->fast_raw ? " (a)" : "", v[M_GLPK]);
        if (c->mean_us[M_EXACT] > 0 && c->mean_us[M_GLPK] > 0)
            printf("%.2f", c->mean_us[M_EXACT] / c->mean_us[M_GLPK]);
        else
            printf("-");
        printf(" | %ld of %ld |\n", c->certified, c->lps);
    }
    printf("\nQuery times: mean over the pairs of each pair's fastest time over the repeats, "
           "in microseconds.  (a) polytopes built without the fast engine's preparation (it "
           "took over the build budget), so every fast query went to the exact engine.\n");
    if (sm->nbuild > 0) {
        printf("\n| n | m | hs_poly_from_doubles | rows + lpd_interior_point + lpd_box_hint |\n"
               "|---:|---:|---:|---:|\n");
        for (int i = 0; i < sm->nbuild; i++) {
            const build_row *b = &sm->build[i];
            char full[48] = "-";
            if (b->full_us >= 0)
                snprintf(full, sizeof full, "%.0f (%d)", b->full_us, b->full_count);
            printf("| %d | %d | %s | %.0f |\n", b->n, b->m, full, b->lpd_us);
        }
        printf("\nBuild times of one polytope in microseconds (in parentheses: polytopes "
               "timed, fewer when one took over the build budget).\n");
    }
    if (sm->nsimplex > 0) {
        printf("\n| n | feasible (ms) | intersect with the shifted copy (ms) |\n"
               "|---:|---:|---:|\n");
        for (int i = 0; i < sm->nsimplex; i++)
            printf("| %d | %.1f | %.1f |\n", sm->simplex_n[i], sm->simplex_ms[i][0],
                   sm->simplex_ms[i][1]);
        printf("\nThe exact engine on the standard simplex (m = n + 1).\n");
    }
}

int main(int argc, char **argv)
{
    dim_opts o;
    parse(argc, argv, &o);
    summary *sm = calloc(1, sizeof *sm);
    for (int a = 0; a < o.ndims; a++)
        for (int b = 0; b < o.nsizes; b++) {
            run_cell(&o, o.dims[a], o.sizes[b], sm);
            if (o.builds > 0)
                run_build(&o, o.dims[a], o.sizes[b], sm);
        }
    for (int s = 0; s < o.nsimplex; s++)
        run_simplex(o.simplex[s], sm);
    printf("Pairs per (n, m): %d (a third each overlapping, touching, disjoint by construction), "
           "%d cold repeats, seed %llu.\n\n",
           o.pairs, o.repeats, (unsigned long long)o.seed);
    print_tables(sm);
    printf("\n```\n");
    for (int i = 0; i < sm->nlines; i++)
        printf("%s\n", sm->lines[i]);
    printf("```\n");
    free(sm);
    return 0;
}
