/* preds.c -- micro-benchmark of the exact predicates and of what is built
 * on them: pred_orient3d and pred_det4_rows on random, exactly coplanar,
 * near-coplanar and clustered inputs; the convex hull (hull3_points) and
 * the vertex enumeration (vertex_enum of the hull's rows) of box corners,
 * icospheres of level 2 and 3, cylinders and the robot meshes of
 * ../shared/data/robots (when present); hs_obb_fit on the enumerated
 * vertices (the second hull of a piece's setup); and adding a box, a
 * sphere (level 2) and a cylinder (32 sides) to a world.
 *
 * Before/after in one run: when bench.mk could extract the predicates of
 * the reference commit (PREDS_OLD, default b752fcc, before the expansion
 * stage) it compiles them with every pred_ symbol renamed old_pred_ and
 * the predicate timings show both; otherwise (bench/preds_old missing)
 * only the current code is timed.  The hull, vertex and body timings are
 * of the library linked in; link the same program against another build
 * for its numbers.
 *
 * Timing: the process's CPU time (CLOCK_PROCESS_CPUTIME_ID: on a shared
 * machine, time spent descheduled does not count) around a batch, several
 * batches, the fastest kept.  The predicate answers of the two
 * implementations are compared on every input (the program fails on a
 * difference).
 *
 * Output: tables, then a fenced block of lines
 *   RESULT bench=preds case=<name> impl=<new|old> ns_per_call=T
 *   RESULT bench=preds case=<hull|venum|obbfit>/<shape> us_per_call=T n=N
 *   RESULT bench=setup case=<box|sphere2|cyl32> us_per_body=T */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "halfspace.h"
#include "polytope/hull3.h"
#include "polytope/obb.h"
#include "polytope/predicates.h"
#include "solver/vertices.h"
#include "src/shape/solids.h"

/* The reference predicates (bench.mk: bench/preds_old.c), when built. */
int old_pred_orient3d(const double a[3], const double b[3], const double c[3], const double d[3]);
int old_pred_det4_rows(const double *r0, const double *r1, const double *r2, const double *r3);
extern const int preds_old_present;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The RESULT lines, printed together at the end. */
static char results[16384];
static size_t results_len;

static void result(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(results + results_len, sizeof results - results_len, fmt, ap);
    va_end(ap);
    if (k > 0 && results_len + (size_t)k < sizeof results)
        results_len += (size_t)k;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [-1, 1). */
static double sym(void) { return (double)(next_u64() >> 11) * 0x1p-52 - 1; }

/* ------------------------------------------------------------ predicates */

#define NCASE 1024

/* 4 points (12 doubles) per case for orient3d, 4 rows (16) for det4. */
typedef struct pcase {
    const char *name;
    double v[NCASE][16];
} pcase;

static void orient_inputs(pcase *pc, int kind)
{
    for (int t = 0; t < NCASE; t++) {
        double *p = pc->v[t];
        for (int i = 0; i < 9; i++)
            p[i] = sym();
        double s = sym(), u = sym();
        switch (kind) {
        case 0: /* random */
            for (int j = 0; j < 3; j++)
                p[9 + j] = sym();
            break;
        case 1: /* coplanar corners of a box with random sizes */
            for (int i = 0; i < 12; i++)
                p[i] = 0.5 * (double)(next_u64() % 3 + 1);
            for (int i = 0; i < 4; i++)
                p[3 * i] = 0.75; /* four points on the plane x = 0.75 */
            break;
        case 2: /* exactly coplanar, small integers (exact zero) */
            for (int i = 0; i < 9; i++)
                p[i] = (double)((int)(next_u64() % 17) - 8);
            s = (double)((int)(next_u64() % 5) - 2);
            u = (double)((int)(next_u64() % 5) - 2);
            for (int j = 0; j < 3; j++)
                p[9 + j] = p[j] + s * (p[3 + j] - p[j]) + u * (p[6 + j] - p[j]);
            break;
        case 3: /* near-coplanar: a point of the plane moved by 2^-50 */
            for (int j = 0; j < 3; j++)
                p[9 + j] = p[j] + s * (p[3 + j] - p[j]) + u * (p[6 + j] - p[j]);
            p[9 + t % 3] += 0x1p-50;
            break;
        default: /* a cluster of three points within 1e-16 and a far point */
            for (int i = 1; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    p[3 * i + j] = p[j] + 0x1p-54 * (double)((int)(next_u64() % 9) - 4);
            for (int j = 0; j < 3; j++)
                p[9 + j] = 4 * sym();
            break;
        }
    }
}

static void det4_inputs(pcase *pc, int kind)
{
    for (int t = 0; t < NCASE; t++) {
        double *m = pc->v[t];
        for (int i = 0; i < 16; i++)
            m[i] = sym();
        if (kind == 0)
            continue;
        if (kind == 4) { /* rows of full doubles, the last one a rounded combination */
            double s = sym(), u = sym();
            for (int j = 0; j < 4; j++)
                m[12 + j] = m[j] + s * m[4 + j] + u * m[8 + j];
            continue;
        }
        /* row 3 = row 0 + 2 row 1 - row 2 (exactly, in small integers) */
        for (int i = 0; i < 12; i++)
            m[i] = (double)((int)(next_u64() % 33) - 16);
        for (int j = 0; j < 4; j++)
            m[12 + j] = m[j] + 2 * m[4 + j] - m[8 + j];
        if (kind == 2) /* near-singular */
            m[12 + t % 4] += 0x1p-40;
        if (kind == 3) /* singular rows of mixed sizes: rows scaled by 2^+-60 */
            for (int j = 0; j < 4; j++) {
                m[j] = ldexp(m[j], 60);
                m[4 + j] = ldexp(m[4 + j], -60);
            }
    }
}

typedef int (*pred_fn)(const double *v);
static int new_orient(const double *v) { return pred_orient3d(v, v + 3, v + 6, v + 9); }
static int old_orient(const double *v) { return old_pred_orient3d(v, v + 3, v + 6, v + 9); }
static int new_det4(const double *v) { return pred_det4_rows(v, v + 4, v + 8, v + 12); }
static int old_det4(const double *v) { return old_pred_det4_rows(v, v + 4, v + 8, v + 12); }

/* Fastest of `rounds` batches over all cases, in ns per call. */
static double time_pred(pred_fn f, const pcase *pc, int rounds, long *sink)
{
    double best = INFINITY;
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        long s = 0;
        for (int t = 0; t < NCASE; t++)
            s += f(pc->v[t]);
        double dt = now() - t0;
        *sink += s;
        best = dt < best ? dt : best;
    }
    return best / NCASE * 1e9;
}

static int bench_pred(const char *name, pcase *pc, pred_fn fnew, pred_fn fold, int rounds)
{
    long sink = 0;
    int bad = 0;
    if (preds_old_present)
        for (int t = 0; t < NCASE; t++)
            if (fnew(pc->v[t]) != fold(pc->v[t]))
                bad++;
    /* interleave the two so that both see the same load */
    double tn = INFINITY, to = INFINITY;
    for (int rep = 0; rep < 5; rep++) {
        double x = time_pred(fnew, pc, rounds, &sink);
        tn = x < tn ? x : tn;
        if (preds_old_present) {
            x = time_pred(fold, pc, rounds, &sink);
            to = x < to ? x : to;
        }
    }
    int zeros = 0;
    for (int t = 0; t < NCASE; t++)
        zeros += fnew(pc->v[t]) == 0;
    if (preds_old_present)
        printf("| %-22s | %9.1f | %9.1f | %6.1fx | %4d/%d |\n", name, to, tn, to / tn, zeros, NCASE);
    else
        printf("| %-22s | %9s | %9.1f | %7s | %4d/%d |\n", name, "-", tn, "-", zeros, NCASE);
    result("RESULT bench=preds case=%s impl=new ns_per_call=%.1f\n", name, tn);
    if (preds_old_present)
        result("RESULT bench=preds case=%s impl=old ns_per_call=%.1f\n", name, to);
    if (bad)
        printf("ERROR: %s: %d answers differ between old and new\n", name, bad);
    return bad;
}

/* ------------------------------------------------------------ shapes */

typedef struct shape {
    char name[64];
    double *pts;
    int n;
} shape;

static int read_stl(const char *path, shape *s)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    unsigned char head[84];
    uint32_t nt = 0;
    int ok = fread(head, 1, 84, f) == 84;
    if (ok) {
        nt = (uint32_t)head[80] | (uint32_t)head[81] << 8 | (uint32_t)head[82] << 16 |
             (uint32_t)head[83] << 24;
        ok = nt > 0 && nt < 10000000;
    }
    s->pts = ok ? malloc(sizeof(double) * 9 * nt) : NULL;
    s->n = 0;
    for (uint32_t t = 0; ok && s->pts && t < nt; t++) {
        unsigned char rec[50];
        if (fread(rec, 1, 50, f) != 50) {
            ok = 0;
            break;
        }
        for (int k = 0; k < 9; k++) {
            float x;
            memcpy(&x, rec + 12 + 4 * k, 4); /* little-endian hosts */
            s->pts[3 * s->n + k] = x;
        }
        s->n += 3;
    }
    fclose(f);
    if (!ok || !s->pts) {
        free(s->pts);
        return -1;
    }
    return 0;
}

static int make_shapes(shape *sh, int max)
{
    int k = 0;
    double size[3] = {1, 2, 3};
    sh[k].pts = malloc(sizeof(double) * 24);
    solid_box_points(size, sh[k].pts);
    sh[k].n = 8;
    snprintf(sh[k++].name, sizeof sh[0].name, "box");
    for (int level = 2; level <= 3; level++) {
        solid_icosphere_points(level, &sh[k].pts, &sh[k].n);
        snprintf(sh[k++].name, sizeof sh[0].name, "sphere%d", level);
    }
    sh[k].pts = solid_cylinder_points(1.0, 2.0, 32);
    sh[k].n = 64;
    snprintf(sh[k++].name, sizeof sh[0].name, "cyl32");
    static const char *robots[] = {"franka_panda/collision/link1.stl",
                                   "franka_panda/collision/hand.stl",
                                   "ur5/collision/upperarm.stl", "ur5/collision/base.stl"};
    for (int i = 0; i < 4 && k < max; i++) {
        char path[512];
        snprintf(path, sizeof path, "../shared/data/robots/%s", robots[i]);
        if (read_stl(path, &sh[k]) == 0) {
            const char *base = strrchr(robots[i], '/');
            snprintf(sh[k].name, sizeof sh[0].name, "%.*s:%s", (int)strcspn(robots[i], "/"),
                     robots[i], base + 1);
            k++;
        }
    }
    return k;
}

/* The polytope of a shape's hull rows and an interior point (the mean of
 * the hull's vertices). */
static hs_poly *hull_poly(const shape *s, double c[3])
{
    hull3 *h = NULL;
    if (hull3_points(s->pts, s->n, &h, NULL) != HS_OK)
        return NULL;
    double *a = malloc(sizeof(double) * 3 * (size_t)h->nfacets);
    double *b = malloc(sizeof(double) * (size_t)h->nfacets);
    hs_poly *P = NULL;
    if (a && b && hull3_rows(h, s->pts, a, b, NULL) == HS_OK)
        P = hs_poly_from_doubles(3, h->nfacets, a, b, NULL, NULL);
    c[0] = c[1] = c[2] = 0;
    for (int i = 0; i < h->nverts; i++)
        for (int j = 0; j < 3; j++)
            c[j] += s->pts[3 * h->verts[i] + j] / h->nverts;
    free(a);
    free(b);
    hull3_free(h);
    return P;
}

/* Microseconds per call of what, the fastest of several batches. */
typedef struct job {
    const shape *s;
    hs_poly *P;
    double c[3];
    vertex_set *vs;
} job;

static int run_hull(job *j)
{
    hull3 *h = NULL;
    int rc = hull3_points(j->s->pts, j->s->n, &h, NULL);
    hull3_free(h);
    return rc;
}

static int run_venum(job *j)
{
    vertex_set *vs = NULL;
    int rc = vertex_enum(j->P, j->c, &vs, NULL);
    vertex_set_free(vs);
    return rc;
}

static int run_obbfit(job *j)
{
    hs_obb box;
    return hs_obb_fit(&box, j->vs->x, j->vs->nverts, NULL);
}

static double time_job(int (*f)(job *), job *j, double budget)
{
    double best = INFINITY, spent = 0;
    int calls = 0;
    while (spent < budget || calls < 5) {
        double t0 = now();
        if (f(j) != HS_OK)
            return NAN;
        double dt = now() - t0;
        best = dt < best ? dt : best;
        spent += dt;
        calls++;
    }
    return best * 1e6;
}

/* ------------------------------------------------------------ bodies */

static double time_bodies(int kind, int count)
{
    double best = INFINITY;
    for (int rep = 0; rep < 5; rep++) {
        hs_world *w = hs_world_new();
        double t0 = now();
        for (int i = 0; i < count; i++) {
            char name[32];
            snprintf(name, sizeof name, "b%d", i);
            hs_body *b = hs_world_add_body(w, name, 0, NULL);
            double size[3] = {1, 2, 3};
            hs_code rc = kind == 0   ? hs_body_add_box(b, size, NULL, NULL)
                         : kind == 1 ? hs_body_add_sphere(b, 1.0, 2, NULL, NULL)
                                     : hs_body_add_cylinder(b, 1.0, 2.0, 32, NULL, NULL);
            if (!b || rc != HS_OK) {
                hs_world_free(w);
                return NAN;
            }
        }
        double dt = (now() - t0) / count;
        best = dt < best ? dt : best;
        hs_world_free(w);
    }
    return best * 1e6;
}

int main(int argc, char **argv)
{
    double budget = argc > 1 ? atof(argv[1]) : 0.2; /* seconds per hull/venum timing */
    int bad = 0;
    static pcase pc;
    printf("## Predicates (ns of CPU per call, fastest batch of %d calls; old: commit %s)\n\n",
           NCASE, preds_old_present ? "before the expansions" : "not built");
    printf("| %-22s | %9s | %9s | %7s | %9s |\n", "case", "old", "new", "speedup", "zeros");
    printf("|%s|%s|%s|%s|%s|\n", "------------------------", "----------:", "----------:",
           "--------:", "----------:");
    static const char *on[] = {"orient3d/random", "orient3d/box-coplanar",
                               "orient3d/int-coplanar", "orient3d/near-coplanar",
                               "orient3d/cluster"};
    for (int k = 0; k < 5; k++) {
        orient_inputs(&pc, k);
        bad += bench_pred(on[k], &pc, new_orient, old_orient, 20);
    }
    static const char *dn[] = {"det4/random", "det4/int-singular", "det4/near-singular",
                               "det4/scaled-singular", "det4/rounded-singular"};
    for (int k = 0; k < 5; k++) {
        det4_inputs(&pc, k);
        bad += bench_pred(dn[k], &pc, new_det4, old_det4, 20);
    }

    shape sh[16];
    int ns = make_shapes(sh, 16);
    printf("\n## Hulls, vertex enumeration, OBB fit (us of CPU per call, fastest)\n\n");
    printf("| %-24s | %6s | %9s | %9s | %6s | %9s |\n", "shape", "points", "hull3", "vertex_enum",
           "verts", "obb_fit");
    printf("|%s|%s|%s|%s|%s|%s|\n", "--------------------------", "-------:", "----------:",
           "------------:", "-------:", "----------:");
    for (int i = 0; i < ns; i++) {
        job j = {&sh[i], NULL, {0, 0, 0}, NULL};
        j.P = hull_poly(&sh[i], j.c);
        double th = time_job(run_hull, &j, budget), tv = NAN, to = NAN;
        int nv = 0;
        if (j.P && vertex_enum(j.P, j.c, &j.vs, NULL) == HS_OK) {
            nv = j.vs->nverts;
            tv = time_job(run_venum, &j, budget);
            to = time_job(run_obbfit, &j, budget);
        }
        printf("| %-24s | %6d | %9.1f | %11.1f | %6d | %9.1f |\n", sh[i].name, sh[i].n, th, tv,
               nv, to);
        result("RESULT bench=preds case=hull/%s us_per_call=%.1f n=%d\n", sh[i].name, th, sh[i].n);
        result("RESULT bench=preds case=venum/%s us_per_call=%.1f n=%d\n", sh[i].name, tv, nv);
        result("RESULT bench=preds case=obbfit/%s us_per_call=%.1f n=%d\n", sh[i].name, to, nv);
        vertex_set_free(j.vs);
        hs_poly_free(j.P);
        free(sh[i].pts);
    }

    printf("\n## Adding a body (us of CPU per body, fastest of 5 worlds)\n\n");
    static const char *bn[] = {"box", "sphere2", "cyl32"};
    static const int counts[] = {400, 20, 100};
    for (int k = 0; k < 3; k++) {
        double t = time_bodies(k, counts[k]);
        printf("- %s: %.1f us\n", bn[k], t);
        result("RESULT bench=setup case=%s us_per_body=%.1f\n", bn[k], t);
    }
    printf("\n```\n%s```\n", results);
    return bad ? 1 : 0;
}
