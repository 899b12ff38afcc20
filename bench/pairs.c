/* pairs.c -- the fast engine against its peers, in one run on the same
 * instances: our fast, exact and faithful engines (hs_intersect), GLPK's
 * simplex on the margin LP, and libccd's GJK and MPR on the polytopes'
 * vertices.
 *
 * Families (3-D tangent-sphere polytopes, bench/tangent.h, m rows each):
 *   sphere  pair i is tangent_pair(seed, i, m, m) as generated.
 *   near    the same pair with B translated along the line of centers,
 *           by k 2^-30 cB, to within one step of first contact: k0 is
 *           the largest k for which the exact engine says A and B meet
 *           (bisection over k in [-2^29, 2^31]; the set of such k is an
 *           interval since A - B is convex); even pairs use k0 (or k0 - 1
 *           when k0 only touches), which overlaps by at most 2 steps, odd
 *           pairs use k0 + 1, which is disjoint by at most 1 step.  A step
 *           moves B by 2^-30 |cB|, 1.6e-9 to 2.1e-9, about 1e-9 of the
 *           polytopes' diameter (about 2).  Every number stays an exact
 *           double: rows are integers u and multiples of 2^-10, cB is a
 *           multiple of 2^-10, and the shifted right side
 *           b + k 2^-30 (u . cB) is computed in 64-bit integers in units of
 *           2^-40 and checked to be below 2^53 in magnitude.
 *
 * Peers:
 *   glpk    max tau s.t. a . x + tau <= b for every row of A and B, tau <= 1,
 *           x and tau free; the problem is built with the GLPK C API inside
 *           the timed region (rows taken from plain arrays), glp_simplex
 *           with presolve off and messages off; tau* > 1e-9: overlap,
 *           |tau*| <= 1e-9: touching, tau* < -1e-9: disjoint.
 *   mpr/gjk ccdMPRIntersect / ccdGJKIntersect; the vertices of each
 *           polytope come from our exact vertex enumeration (outside the
 *           timing, rounded to the nearest doubles), the support function
 *           scans them for the largest dot product, the center (MPR) is
 *           their average; CCD_INIT defaults and max_iterations 100.
 *
 * Timing: CLOCK_MONOTONIC around one query; a query faster than 1 ms is
 * repeated in doubling batches until a batch lasts 1 ms, and divided.
 * Reported: the median over the pairs, in microseconds.
 *
 * Correctness: the exact engine's class is the reference.  wrong counts
 * the pairs on which an engine's answer differs from it: three-way for
 * fast and GLPK, intersect (touching counts) versus disjoint for faithful,
 * MPR and GJK.  fallback_rate is the fraction of fast queries answered by
 * the exact fallback.
 *
 * Output (stdout): a Markdown table and notes, then a fenced block with one
 * line per family and size:
 *   RESULT family=F m=M fast_us=.. exact_us=.. glpk_us=.. mpr_us=.. gjk_us=..
 *          fallback_rate=.. wrong=.. faithful_us=.. wrong_glpk=.. wrong_mpr=..
 *          wrong_gjk=.. wrong_faithful=.. intersecting=.. pairs=..
 * (na where an engine did not run).  Progress goes to stderr. */
#include <ccd/ccd.h>
#include <errno.h>
#include <glpk.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/median.h"
#include "bench/tangent.h"
#include "halfspace.h"
#include "solver/vertices.h"

#define MAX_SIZES 16
#define MIN_TIMED_S 1e-3      /* batches of fast queries last at least this */
#define MAX_REPEATS (1L << 24)
#define FAITHFUL_MAX_M 100    /* the faithful engine is timed up to this m */
#define GLPK_TOL 1e-9         /* |tau*| below this is "touching" for GLPK */
#define CCD_ITERATIONS 100
#define NEAR_BITS 30          /* near family: B moves by k 2^-30 cB */
#define NEAR_K_LO (-(1L << 29)) /* centers at most 1.15 apart: overlap */
#define NEAR_K_HI (1L << 31)    /* centers at least 5.1 apart: disjoint */

enum { ENG_FAST, ENG_EXACT, ENG_GLPK, ENG_MPR, ENG_GJK, ENG_FAITHFUL, ENGINES };
static const char *const engine_label[ENGINES] = {"fast", "exact", "glpk",
                                                  "mpr", "gjk", "faithful"};

enum { FAM_SPHERE, FAM_NEAR, FAMILIES };
static const char *const family_label[FAMILIES] = {"sphere", "near"};

typedef enum answer { ANS_DISJOINT, ANS_TOUCHING, ANS_OVERLAP, ANS_INTERSECT, ANS_ERROR } answer;

/* A polytope as libccd sees it: its vertices and their average. */
typedef struct shape {
    double *v;
    int nv;
    double center[3];
} shape;

typedef struct instance {
    hs_poly *A, *B;
    double cA[3], cB[3]; /* strictly interior points */
    shape sa, sb;
    double *rows;        /* (mA + mB) * 4: a, b for GLPK, A's rows first */
    int mA, mB;
    answer exact;        /* the reference class */
} instance;

/* Workspace of the queries on one instance. */
typedef struct runner {
    const instance *in;
    hs_result *r;
    hs_options opt;
    ccd_t ccd;
    int *ia, *ja;        /* GLPK triplets, 1-based */
    double *ar;
    int cap;
    int fallback;        /* the fast query fell back to the exact engine */
} runner;

typedef struct bench_opts {
    int sizes[MAX_SIZES];
    int nsizes;
    long pairs;
    uint64_t seed;
    int family[FAMILIES];
    int verbose;
} bench_opts;

/* Figures of one family and size. */
typedef struct size_stats {
    int family, m;
    long pairs;
    double *t[ENGINES];  /* per pair, seconds per query */
    long n[ENGINES];     /* pairs timed */
    long wrong[ENGINES];
    long intersecting, touching, fallbacks, not_ready;
} size_stats;

/* ============================================================ options */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: pairs [--sizes M,...] [--pairs N] [--seed S] [--families F,...] [--verbose]\n"
            "  --sizes     rows per polytope (default 60,80,100,250,1000)\n"
            "  --pairs     pairs per size and family (default 200)\n"
            "  --seed      seed of the pair stream (default 1)\n"
            "  --families  sphere, near or both (default sphere,near)\n"
            "  --verbose   one stderr line per pair\n");
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
        if (o->nsizes == MAX_SIZES || parse_long(tok, 4, 100000, &m) != 0)
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
    int rc = 0;
    o->family[FAM_SPHERE] = o->family[FAM_NEAR] = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        int known = 0;
        for (int f = 0; f < FAMILIES; f++)
            if (strcmp(tok, family_label[f]) == 0)
                o->family[f] = known = 1;
        if (!known)
            rc = -1;
    }
    free(copy);
    return rc == 0 && (o->family[FAM_SPHERE] || o->family[FAM_NEAR]) ? 0 : -1;
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
                   : bad_value(a, v, "a comma list of row counts 4..100000, at most 16");
    if (strcmp(a, "--pairs") == 0)
        return parse_long(v, 1, 1000000, &o->pairs) == 0
                   ? 0
                   : bad_value(a, v, "an integer 1..1000000");
    if (strcmp(a, "--seed") == 0) {
        if (parse_long(v, 0, LONG_MAX, &x) != 0)
            return bad_value(a, v, "a nonnegative integer");
        o->seed = (uint64_t)x;
        return 0;
    }
    if (strcmp(a, "--families") == 0)
        return parse_families(v, o) == 0 ? 0 : bad_value(a, v, "sphere, near or sphere,near");
    return 1;
}

static int parse_args(int argc, char **argv, bench_opts *o)
{
    static const int default_sizes[] = {60, 80, 100, 250, 1000};
    memset(o, 0, sizeof *o);
    o->nsizes = 5;
    memcpy(o->sizes, default_sizes, sizeof default_sizes);
    o->pairs = 200;
    o->seed = 1;
    o->family[FAM_SPHERE] = o->family[FAM_NEAR] = 1;
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
    static const char *const names[] = {"disjoint", "touching", "overlap", "intersect", "error"};
    return names[a];
}

static int fail(const char *what, const hs_error *err)
{
    fprintf(stderr, "pairs: %s: %s\n", what, err ? err->msg : "out of memory");
    return -1;
}

/* The exact engine's class of (A, B); ANS_ERROR with a message on error. */
static answer exact_class(const hs_poly *A, const hs_poly *B, hs_result *r)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_EXACT;
    hs_error err;
    if (hs_intersect(A, B, &opt, r, &err) != HS_OK) {
        fail("exact engine", &err);
        return ANS_ERROR;
    }
    return answer_of(hs_result_status(r));
}

/* Rows of B moved by s = k 2^-30 cB, all arithmetic in integers (units of
 * 2^-40): b' = b + u . s.  Returns a new polyhedron, or NULL when a number
 * would not be an exact double (or memory runs out). */
static hs_poly *shifted(const double *a, const double *b, int m, const double cB[3], long k)
{
    int64_t C[3];
    for (int j = 0; j < 3; j++)
        C[j] = (int64_t)llround(ldexp(cB[j], TANGENT_FRAC_BITS));
    double *nb = malloc((size_t)m * sizeof *nb);
    if (!nb)
        return NULL;
    const int64_t limit = (int64_t)1 << 53;
    int ok = 1;
    for (int i = 0; i < m && ok; i++) {
        int64_t uc = 0;
        for (int j = 0; j < 3; j++) {
            ok = ok && a[3 * i + j] == (double)(int64_t)a[3 * i + j] &&
                 fabs(a[3 * i + j]) <= TANGENT_COORD_MAX;
            uc += (int64_t)a[3 * i + j] * C[j];
        }
        int64_t base = (int64_t)llround(ldexp(b[i], 40));
        int64_t num = base + (int64_t)k * uc;
        ok = ok && ldexp((double)base, -40) == b[i] && llabs(uc) < ((int64_t)1 << 30) &&
             llabs(num) < limit;
        nb[i] = ldexp((double)num, -40);
    }
    hs_error err;
    hs_poly *p = ok ? hs_poly_from_doubles(3, m, a, nb, NULL, &err) : NULL;
    if (ok && !p)
        fail("shifted polytope", &err);
    free(nb);
    return p;
}

/* The rows of P as plain arrays (a: m*3, b: m); 0 or -1. */
static int poly_arrays(const hs_poly *P, double **a, double **b)
{
    int m = hs_poly_rows(P);
    *a = malloc((size_t)m * 3 * sizeof **a);
    *b = malloc((size_t)m * sizeof **b);
    if (!*a || !*b)
        return -1;
    for (int i = 0; i < m; i++)
        if (!hs_poly_row(P, i, *a + 3 * i, *b + i))
            return -1; /* not exact doubles: not a tangent polytope */
    return 0;
}

/* Class at shift k (ANS_ERROR on failure). */
static answer class_at(const hs_poly *A, const double *a, const double *b, int m,
                       const double cB[3], long k, hs_result *r)
{
    hs_poly *Bk = shifted(a, b, m, cB, k);
    if (!Bk) {
        fprintf(stderr, "pairs: near family: B moved by %ld steps is not exactly in doubles "
                        "(or memory ran out)\n", k);
        return ANS_ERROR;
    }
    answer c = exact_class(A, Bk, r);
    hs_poly_free(Bk);
    return c;
}

/* Largest k in [NEAR_K_LO, NEAR_K_HI) at which A and B + k 2^-30 cB meet,
 * and its class; -1 on error. */
static int last_contact(const hs_poly *A, const double *a, const double *b, int m,
                        const double cB[3], hs_result *r, long *k, answer *cls)
{
    long lo = NEAR_K_LO, hi = NEAR_K_HI;
    answer at_lo = class_at(A, a, b, m, cB, lo, r);
    answer at_hi = class_at(A, a, b, m, cB, hi, r);
    if (at_lo == ANS_ERROR || at_hi == ANS_ERROR)
        return -1;
    if (at_lo == ANS_DISJOINT || at_hi != ANS_DISJOINT) {
        fprintf(stderr, "pairs: near family: the bisection bracket does not hold\n");
        return -1;
    }
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        answer c = class_at(A, a, b, m, cB, mid, r);
        if (c == ANS_ERROR)
            return -1;
        if (c == ANS_DISJOINT)
            hi = mid;
        else {
            lo = mid;
            at_lo = c;
        }
    }
    *k = lo;
    *cls = at_lo;
    return 0;
}

/* Replace in->B by its near-contact translate (see the header comment). */
static int make_near(instance *in, long index, hs_result *r)
{
    double *a = NULL, *b = NULL;
    long k = 0;
    answer c = ANS_ERROR;
    int rc = poly_arrays(in->B, &a, &b);
    if (rc != 0)
        fprintf(stderr, "pairs: near family: B's rows are not exact doubles\n");
    if (rc == 0)
        rc = last_contact(in->A, a, b, in->mB, in->cB, r, &k, &c);
    if (rc == 0) {
        if (index % 2 == 1)
            k++;          /* first disjoint position */
        else if (c == ANS_TOUCHING)
            k--;          /* k itself only touches: one step deeper */
        hs_poly *Bk = shifted(a, b, in->mB, in->cB, k);
        rc = Bk ? 0 : -1;
        if (Bk) {
            hs_poly_free(in->B);
            in->B = Bk;
            for (int j = 0; j < 3; j++) /* cB (1 + k 2^-30), exactly */
                in->cB[j] = ldexp((double)(llround(ldexp(in->cB[j], TANGENT_FRAC_BITS)) *
                                           ((1LL << NEAR_BITS) + k)),
                                  -(TANGENT_FRAC_BITS + NEAR_BITS));
        }
    }
    free(a);
    free(b);
    return rc;
}

/* Vertices of P (exact enumeration, nearest doubles) and their average. */
static int make_shape(const hs_poly *P, const double *interior, shape *s)
{
    vertex_set *vs = NULL;
    hs_error err;
    if (vertex_enum(P, interior, &vs, &err) != HS_OK)
        return fail("vertex enumeration", &err);
    s->nv = vs->nverts;
    s->v = malloc((size_t)vs->nverts * 3 * sizeof *s->v);
    if (s->v) {
        memcpy(s->v, vs->x, (size_t)vs->nverts * 3 * sizeof *s->v);
        for (int j = 0; j < 3; j++) {
            double sum = 0;
            for (int i = 0; i < s->nv; i++)
                sum += s->v[3 * i + j];
            s->center[j] = sum / s->nv;
        }
    }
    vertex_set_free(vs);
    return s->v ? 0 : fail("vertex enumeration", NULL);
}

static int make_rows(instance *in)
{
    int m = in->mA + in->mB;
    in->rows = malloc((size_t)m * 4 * sizeof *in->rows);
    if (!in->rows)
        return fail("rows", NULL);
    for (int i = 0; i < m; i++) {
        double *row = in->rows + 4 * i;
        const hs_poly *P = i < in->mA ? in->A : in->B;
        hs_poly_row(P, i < in->mA ? i : i - in->mA, row, row + 3);
    }
    return 0;
}

static void instance_free(instance *in)
{
    hs_poly_free(in->A);
    hs_poly_free(in->B);
    free(in->sa.v);
    free(in->sb.v);
    free(in->rows);
    memset(in, 0, sizeof *in);
}

/* Pair `index` of the family, with everything the peers need (built
 * outside the timing) and the exact engine's class. */
static int make_instance(int family, uint64_t seed, long index, int m, instance *in,
                         hs_result *r)
{
    hs_error err;
    memset(in, 0, sizeof *in);
    in->mA = in->mB = m;
    if (tangent_pair(seed, index, m, m, &in->A, &in->B, in->cB, &err) != HS_OK)
        return fail("tangent_pair", &err);
    if (family == FAM_NEAR && make_near(in, index, r) != 0)
        return -1;
    if (make_shape(in->A, in->cA, &in->sa) != 0 || make_shape(in->B, in->cB, &in->sb) != 0 ||
        make_rows(in) != 0)
        return -1;
    in->exact = exact_class(in->A, in->B, r);
    return in->exact == ANS_ERROR ? -1 : 0;
}

/* ============================================================ the engines */

static void ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out)
{
    const shape *s = obj;
    double dx = ccdVec3X(dir), dy = ccdVec3Y(dir), dz = ccdVec3Z(dir);
    double best = -INFINITY;
    int at = 0;
    for (int i = 0; i < s->nv; i++) {
        const double *v = s->v + 3 * i;
        double d = v[0] * dx + v[1] * dy + v[2] * dz;
        if (d > best) {
            best = d;
            at = i;
        }
    }
    ccdVec3Set(out, s->v[3 * at], s->v[3 * at + 1], s->v[3 * at + 2]);
}

static void ccd_center(const void *obj, ccd_vec3_t *center)
{
    const shape *s = obj;
    ccdVec3Set(center, s->center[0], s->center[1], s->center[2]);
}

static int runner_init(runner *w)
{
    memset(w, 0, sizeof *w);
    w->r = hs_result_new();
    hs_options_init(&w->opt);
    CCD_INIT(&w->ccd);
    w->ccd.support1 = w->ccd.support2 = ccd_support;
    w->ccd.center1 = w->ccd.center2 = ccd_center;
    w->ccd.max_iterations = CCD_ITERATIONS;
    return w->r ? 0 : -1;
}

static void runner_free(runner *w)
{
    hs_result_free(w->r);
    free(w->ia);
    free(w->ja);
    free(w->ar);
}

/* GLPK triplet arrays for the instance (outside the timing). */
static int runner_attach(runner *w, const instance *in)
{
    w->in = in;
    int need = 4 * (in->mA + in->mB) + 1;
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

static answer run_hs(runner *w, hs_engine engine)
{
    hs_error err;
    w->opt.engine = engine;
    if (hs_intersect(w->in->A, w->in->B, &w->opt, w->r, &err) != HS_OK) {
        fail(hs_engine_name(engine), &err);
        return ANS_ERROR;
    }
    return answer_of(hs_result_status(w->r));
}

static answer run_fast(runner *w)
{
#ifdef HS_ENGINE_FAST_AVAILABLE
    answer a = run_hs(w, HS_ENGINE_FAST);
    w->fallback = hs_result_fallback(w->r) != 0;
    return a;
#else
    (void)w;
    return ANS_ERROR;
#endif
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

static answer run_engine(runner *w, int e)
{
    switch (e) {
    case ENG_FAST: return run_fast(w);
    case ENG_EXACT: return run_hs(w, HS_ENGINE_EXACT);
    case ENG_GLPK: return run_glpk(w);
    case ENG_MPR:
        return ccdMPRIntersect(&w->in->sa, &w->in->sb, &w->ccd) ? ANS_INTERSECT : ANS_DISJOINT;
    case ENG_GJK:
        return ccdGJKIntersect(&w->in->sa, &w->in->sb, &w->ccd) ? ANS_INTERSECT : ANS_DISJOINT;
    case ENG_FAITHFUL: return run_hs(w, HS_ENGINE_FAITHFUL);
    default: return ANS_ERROR;
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One timed query of engine e (batches below MIN_TIMED_S); returns the
 * answer of the first run and the time per query in *secs. */
static answer time_engine(runner *w, int e, double *secs)
{
    double t0 = now_s();
    answer a = run_engine(w, e);
    int fell_back = w->fallback;
    double t = now_s() - t0;
    long reps = 1;
    while (t < MIN_TIMED_S && reps < MAX_REPEATS) {
        reps *= 2;
        t0 = now_s();
        for (long i = 0; i < reps; i++)
            run_engine(w, e);
        t = now_s() - t0;
    }
    w->fallback = fell_back;
    *secs = t / (double)reps;
    return a;
}

/* ============================================================ one size */

static int fast_available(void)
{
#ifdef HS_ENGINE_FAST_AVAILABLE
    return 1;
#else
    return 0;
#endif
}

static int engine_runs(int e, int m)
{
    if (e == ENG_FAST)
        return fast_available();
    return e != ENG_FAITHFUL || m <= FAITHFUL_MAX_M;
}

/* Does engine e's answer differ from the exact class?  Three-way for the
 * engines that classify, intersect versus disjoint for the others. */
static int differs(int e, answer got, answer ref)
{
    if (got == ANS_ERROR)
        return 1;
    if ((e == ENG_FAST || e == ENG_GLPK || e == ENG_EXACT) && got != ANS_INTERSECT)
        return got != ref;
    return (got == ANS_DISJOINT) != (ref == ANS_DISJOINT);
}

static int fast_not_ready(const instance *in)
{
#ifdef HS_ENGINE_FAST_AVAILABLE
    return !hs_poly_fast_ready(in->A, NULL) + !hs_poly_fast_ready(in->B, NULL);
#else
    (void)in;
    return 0;
#endif
}

static void time_pair(runner *w, size_stats *st, const bench_opts *o, long i)
{
    const instance *in = w->in;
    answer got[ENGINES];
    double secs[ENGINES];
    for (int e = 0; e < ENGINES; e++) {
        if (!engine_runs(e, st->m))
            continue;
        got[e] = time_engine(w, e, &secs[e]);
        st->t[e][st->n[e]++] = secs[e];
        st->wrong[e] += differs(e, got[e], in->exact);
        if (e == ENG_FAST)
            st->fallbacks += w->fallback;
    }
    if (!o->verbose)
        return;
    fprintf(stderr, "%s m=%d pair %ld: exact %s", family_label[st->family], st->m, i,
            answer_name(in->exact));
    for (int e = 0; e < ENGINES; e++)
        if (engine_runs(e, st->m))
            fprintf(stderr, " %s=%s/%.3gus", engine_label[e], answer_name(got[e]),
                    secs[e] * 1e6);
    fprintf(stderr, "\n");
}

static int run_size(const bench_opts *o, runner *w, size_stats *st)
{
    for (int e = 0; e < ENGINES; e++) {
        st->t[e] = malloc((size_t)o->pairs * sizeof(double));
        if (!st->t[e])
            return fail("timings", NULL);
    }
    double start = now_s();
    for (long i = 0; i < o->pairs; i++) {
        instance in;
        if (make_instance(st->family, o->seed, i, st->m, &in, w->r) != 0 ||
            runner_attach(w, &in) != 0) {
            instance_free(&in);
            fprintf(stderr, "pairs: %s m=%d pair %ld could not be built\n",
                    family_label[st->family], st->m, i);
            return -1;
        }
        st->pairs++;
        st->intersecting += in.exact != ANS_DISJOINT;
        st->touching += in.exact == ANS_TOUCHING;
        st->not_ready += fast_not_ready(&in);
        time_pair(w, st, o, i);
        instance_free(&in);
    }
    fprintf(stderr, "pairs: %s m=%d: %ld pairs in %.1f s\n", family_label[st->family], st->m,
            st->pairs, now_s() - start);
    return 0;
}

/* ============================================================ output */

/* Median of st->t[e] in microseconds, or -1 when the engine did not run. */
static double median_us(const size_stats *st, int e)
{
    long n = st->n[e];
    return n == 0 ? -1 : bench_median(st->t[e], n) * 1e6;
}

static const char *fmt_num(double v, char *buf, size_t size)
{
    if (v < 0)
        snprintf(buf, size, "na");
    else
        snprintf(buf, size, "%.4g", v);
    return buf;
}

static const char *fmt_wrong(const size_stats *st, int e, char *buf, size_t size)
{
    if (st->n[e] == 0)
        snprintf(buf, size, "na");
    else
        snprintf(buf, size, "%ld", st->wrong[e]);
    return buf;
}

static double ratio(double num, double den) { return num < 0 || den <= 0 ? -1 : num / den; }

static void print_table_row(const size_stats *st)
{
    double us[ENGINES];
    char b[ENGINES][32], w[ENGINES][32], r1[32], r2[32], fr[32];
    for (int e = 0; e < ENGINES; e++) {
        us[e] = median_us(st, e);
        fmt_num(us[e], b[e], sizeof b[e]);
        fmt_wrong(st, e, w[e], sizeof w[e]);
    }
    fmt_num(st->n[ENG_FAST] ? (double)st->fallbacks / (double)st->n[ENG_FAST] : -1, fr,
            sizeof fr);
    printf("| %s | %d | %ld | %ld (%.0f%%) | %s | %s | %s | %s | %s | %s | %s | "
           "%s / %s / %s / %s / %s | %s | %s |\n",
           family_label[st->family], st->m, st->pairs, st->intersecting,
           100.0 * (double)st->intersecting / (double)st->pairs, b[ENG_FAST], b[ENG_EXACT],
           b[ENG_GLPK], b[ENG_MPR], b[ENG_GJK], b[ENG_FAITHFUL], fr, w[ENG_FAST], w[ENG_GLPK],
           w[ENG_MPR], w[ENG_GJK], w[ENG_FAITHFUL],
           fmt_num(ratio(us[ENG_GLPK], us[ENG_FAST]), r1, sizeof r1),
           fmt_num(ratio(us[ENG_MPR], us[ENG_FAST]), r2, sizeof r2));
}

static void print_result_line(const size_stats *st)
{
    char b[ENGINES][32], w[ENGINES][32], fr[32];
    for (int e = 0; e < ENGINES; e++) {
        fmt_num(median_us(st, e), b[e], sizeof b[e]);
        fmt_wrong(st, e, w[e], sizeof w[e]);
    }
    fmt_num(st->n[ENG_FAST] ? (double)st->fallbacks / (double)st->n[ENG_FAST] : -1, fr,
            sizeof fr);
    printf("RESULT family=%s m=%d fast_us=%s exact_us=%s glpk_us=%s mpr_us=%s gjk_us=%s "
           "fallback_rate=%s wrong=%s faithful_us=%s wrong_glpk=%s wrong_mpr=%s wrong_gjk=%s "
           "wrong_faithful=%s intersecting=%ld pairs=%ld\n",
           family_label[st->family], st->m, b[ENG_FAST], b[ENG_EXACT], b[ENG_GLPK], b[ENG_MPR],
           b[ENG_GJK], fr, w[ENG_FAST], b[ENG_FAITHFUL], w[ENG_GLPK], w[ENG_MPR], w[ENG_GJK],
           w[ENG_FAITHFUL], st->intersecting, st->pairs);
}

static void print_notes(const bench_opts *o, const size_stats *st, int nst)
{
    long touching = 0, not_ready = 0;
    for (int i = 0; i < nst; i++) {
        touching += st[i].touching;
        not_ready += st[i].not_ready;
    }
    printf("\nSeed %" PRIu64 ", %ld pairs per family and size; pair i of family sphere is "
           "tangent_pair(seed, i, m, m), family near moves its B to within one 2^-30 |cB| "
           "step of first contact (even i: overlap, odd i: disjoint).  Times are medians of "
           "the time per query in microseconds (queries under 1 ms repeated in batches of at "
           "least 1 ms).  The reference class is the exact engine's; \"meet\" counts touching "
           "and overlapping pairs (%ld touching in all).\n",
           o->seed, o->pairs, touching);
    printf("\nGLPK %s: glp_simplex, presolve off, messages off, problem built per query; "
           "|tau*| <= %g counts as touching.  libccd: CCD_INIT defaults (first_dir "
           "ccdFirstDirDefault, mpr_tolerance 1e-4, epa_tolerance 1e-4, dist_tolerance 1e-6), "
           "max_iterations %d; support = linear scan of the vertices, center = vertex "
           "average.  The faithful engine runs for m <= %d only.\n",
           glp_version(), GLPK_TOL, CCD_ITERATIONS, FAITHFUL_MAX_M);
    if (!fast_available())
        printf("\nThe fast engine is not in this build's header: its columns are na.\n");
    if (not_ready > 0)
        printf("\nPolytopes the fast engine could not prepare (all their queries fall back): "
               "%ld.\n", not_ready);
}

static void print_report(const bench_opts *o, const size_stats *st, int nst)
{
    printf("| family | m | pairs | meet | fast us | exact us | GLPK us | MPR us | GJK us | "
           "faithful us | fallback rate | wrong: fast / GLPK / MPR / GJK / faithful | "
           "GLPK / fast | MPR / fast |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
    for (int i = 0; i < nst; i++)
        print_table_row(&st[i]);
    print_notes(o, st, nst);
    printf("\n```text\n");
    for (int i = 0; i < nst; i++)
        print_result_line(&st[i]);
    printf("```\n");
}

int main(int argc, char **argv)
{
    bench_opts o;
    if (parse_args(argc, argv, &o) != 0)
        return EXIT_FAILURE;
    glp_term_out(GLP_OFF);
    size_stats st[FAMILIES * MAX_SIZES];
    memset(st, 0, sizeof st);
    runner w;
    int nst = 0, rc = runner_init(&w);
    if (rc != 0)
        fail("setup", NULL);
    for (int f = 0; f < FAMILIES && rc == 0; f++)
        for (int s = 0; s < o.nsizes && rc == 0 && o.family[f]; s++) {
            st[nst].family = f;
            st[nst].m = o.sizes[s];
            rc = run_size(&o, &w, &st[nst++]);
        }
    if (rc == 0)
        print_report(&o, st, nst);
    for (int i = 0; i < nst; i++)
        for (int e = 0; e < ENGINES; e++)
            free(st[i].t[e]);
    runner_free(&w);
    return rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
