/* helpers.c -- shared helpers of the unit tests. */
#include "tests/helpers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/families.h"
#include "polytope/hull3.h"
#include "solver/fast_prep.h"
#include "solver/vertices.h"

hs_poly *t_poly(const char *text)
{
    hs_error err;
    hs_error_clear(&err);
    hs_poly *p = hs_poly_parse(text, "test.ine", &err);
    ck_assert_msg(p != NULL, "parse failed: %s", err.msg);
    return p;
}

const char *t_poly_error(const char *text)
{
    static hs_error err;
    hs_error_clear(&err);
    hs_poly *p = hs_poly_parse(text, "test.ine", &err);
    ck_assert_msg(p == NULL, "expected a parse error");
    ck_assert_int_eq(err.code, HS_ERR_INPUT);
    return err.msg;
}

const char *t_example_path(const char *rel)
{
    static char path[1024];
    const char *dir = getenv("HS_EXAMPLES");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "examples", rel);
    return path;
}

hs_poly *t_example(const char *rel)
{
    hs_error err;
    hs_error_clear(&err);
    hs_poly *p = hs_poly_read(t_example_path(rel), &err);
    ck_assert_msg(p != NULL, "cannot load %s: %s", rel, err.msg);
    return p;
}

static void slurp(FILE *f, char *buf, size_t cap)
{
    size_t len = 0, got;
    while (len + 1 < cap && (got = fread(buf + len, 1, cap - 1 - len, f)) > 0)
        len += got;
    buf[len] = '\0';
}

const char *t_temp_file_suffix(const char *prefix, const char *suffix, const char *text)
{
    static char path[256];
    /* mkstemps' template: the six X are replaced, the suffix kept */
    snprintf(path, sizeof path, "/tmp/%sXXXXXX%s", prefix, suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    ck_assert_msg(fd >= 0, "mkstemps failed");
    FILE *f = fdopen(fd, "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
    return path;
}

const char *t_temp_file(const char *prefix, const char *text)
{
    return t_temp_file_suffix(prefix, "", text);
}

void t_temp_dir(char *dir, size_t cap, const char *prefix)
{
    snprintf(dir, cap, "/tmp/%sXXXXXX", prefix); /* mkdtemp's template */
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp failed");
}

void t_remove_dir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

double t_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int t_cli(const char *args, const char **out, const char **errtext)
{
    static char obuf[65536], ebuf[65536];
    const char *cli = getenv("HS_CLI");
    char errpath[] = "/tmp/hs_cli_err_XXXXXX";
    int fd = mkstemp(errpath);
    ck_assert_msg(fd >= 0, "mkstemp failed");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s 2>%s", cli ? cli : "build/halfspace", args, errpath);
    FILE *p = popen(cmd, "r");
    ck_assert_msg(p != NULL, "popen failed");
    slurp(p, obuf, sizeof obuf);
    int status = pclose(p);
    FILE *e = fdopen(fd, "r");
    slurp(e, ebuf, sizeof ebuf);
    fclose(e);
    remove(errpath);
    if (out)
        *out = obuf;
    if (errtext)
        *errtext = ebuf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Exact text of -v for a number given as text. */
static void negate_text(const char *v, char *out, size_t cap)
{
    if (v[0] == '-')
        snprintf(out, cap, "%s", v + 1);
    else if (strcmp(v, "0") == 0)
        snprintf(out, cap, "0");
    else
        snprintf(out, cap, "-%s", v[0] == '+' ? v + 1 : v);
}

hs_poly *t_box_poly(int n, const double *lo, const double *hi)
{
    double *a = calloc((size_t)(2 * n) * (size_t)n, sizeof(double));
    double *b = calloc((size_t)(2 * n), sizeof(double));
    ck_assert(a && b);
    for (int j = 0; j < n; j++) {
        a[(size_t)(2 * j) * (size_t)n + (size_t)j] = 1;
        b[2 * j] = hi[j];
        a[(size_t)(2 * j + 1) * (size_t)n + (size_t)j] = -1;
        b[2 * j + 1] = -lo[j];
    }
    return t_poly_from_owned(n, 2 * n, a, b, NULL);
}

const char *t_box_text(int n, const char *lo, const char *hi)
{
    static char buf[8192];
    char neg_lo[256];
    negate_text(lo, neg_lo, sizeof neg_lo);
    size_t k = (size_t)snprintf(buf, sizeof buf, "H-representation\nbegin\n%d %d rational\n",
                                2 * n, n + 1);
    for (int i = 0; i < n; i++) {
        /* x_i <= hi is "hi -e_i";  x_i >= lo is "-lo e_i" */
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s", hi);
        for (int j = 0; j < n; j++)
            k += (size_t)snprintf(buf + k, sizeof buf - k, " %d", j == i ? -1 : 0);
        k += (size_t)snprintf(buf + k, sizeof buf - k, "\n%s", neg_lo);
        for (int j = 0; j < n; j++)
            k += (size_t)snprintf(buf + k, sizeof buf - k, " %d", j == i ? 1 : 0);
        k += (size_t)snprintf(buf + k, sizeof buf - k, "\n");
    }
    snprintf(buf + k, sizeof buf - k, "end\n");
    return buf;
}

uint64_t t_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

double t_rng_unit(uint64_t *s) { return (double)(t_rng_next(s) >> 11) * 0x1p-53; }
double t_rng_sym(uint64_t *s) { return 2 * t_rng_unit(s) - 1; }

const char *t_data_dir(void)
{
    const char *d = getenv("HS_DATA");
    return d && *d ? d : "../shared/data";
}

void t_skip(const char *test, const char *why)
{
    const char *log = getenv("HS_SKIP_LOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fprintf(f, "%s: %s\n", test, why);
        fclose(f);
    } else
        fprintf(stderr, "SKIP %s: %s\n", test, why);
}

const char *t_data(const char *test, const char *rel)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", t_data_dir(), rel);
    if (access(path, R_OK) == 0)
        return path;
    char why[1200];
    snprintf(why, sizeof why, "data file %s is missing", path);
    t_skip(test, why);
    return NULL;
}

struct hull3 *t_hull(const double *pts, int n)
{
    hull3 *h = NULL;
    hs_error err;
    hs_error_clear(&err);
    ck_assert_msg(hull3_points(pts, n, &h, &err) == HS_OK, "%s", err.msg);
    return h;
}

hs_poly *t_hull_rows_poly(const hull3 *h, const double *pts, double **a, double **b)
{
    *a = malloc(sizeof(double) * 3 * (size_t)h->nfacets);
    *b = malloc(sizeof(double) * (size_t)h->nfacets);
    hs_error err;
    ck_assert_int_eq(hull3_rows(h, pts, *a, *b, &err), HS_OK);
    hs_poly *P = hs_poly_from_doubles(3, h->nfacets, *a, *b, NULL, &err);
    EXPECT(P != NULL, "%s", err.msg);
    return P;
}

hs_poly *t_hull_poly(const double *pts, int n)
{
    hull3 *h = t_hull(pts, n);
    double *a, *b;
    hs_poly *P = t_hull_rows_poly(h, pts, &a, &b);
    hull3_free(h);
    free(a);
    free(b);
    return P;
}

struct vertex_set *t_vertices(const hs_poly *P, const double *interior)
{
    vertex_set *vs = NULL;
    hs_error err;
    hs_error_clear(&err);
    ck_assert_msg(vertex_enum(P, interior, &vs, &err) == HS_OK, "%s", err.msg);
    return vs;
}

void t_sphere_points(int n, double r, const double c[3], uint64_t *rng, double *pts)
{
    for (int i = 0; i < n; i++) {
        double z = 1 - (2.0 * i + 1) / n, s = sqrt(1 - z * z), t = 2.399963229728653 * i;
        double k = r * (1 + 0.05 * (double)(t_rng_next(rng) % 1000) / 1000);
        pts[3 * i] = c[0] + k * s * cos(t);
        pts[3 * i + 1] = c[1] + k * s * sin(t);
        pts[3 * i + 2] = c[2] + k * z;
    }
}

hs_poly *t_poly_from_owned(int n, int m, double *a, double *b, const unsigned char *eq)
{
    hs_error err;
    hs_poly *p = hs_poly_from_doubles(n, m, a, b, eq, &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    free(a);
    free(b);
    return p;
}

/* A polyhedron tangent to the ellipsoid with semi-axes (1, e, e) around c,
 * scaled by s: m random integer normals, right sides rounded up to
 * multiples of 2^-10 s (every number an exact double). */
hs_poly *t_ellipsoid_rows(int m, double e, const double *c, double s, uint64_t *rng)
{
    double *A = malloc(sizeof(double) * 3 * (size_t)m), *b = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < m; i++) {
        double u[3], r2;
        do {
            for (int j = 0; j < 3; j++)
                u[j] = round(64 * t_rng_sym(rng));
            r2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
        } while (r2 == 0);
        double h = sqrt(u[0] * u[0] + e * e * (u[1] * u[1] + u[2] * u[2])) * s;
        double off = u[0] * c[0] + u[1] * c[1] + u[2] * c[2];
        for (int j = 0; j < 3; j++)
            A[3 * i + j] = u[j];
        b[i] = ldexp(ceil(ldexp(h + off, 10) / s) * s, -10);
    }
    return t_poly_from_owned(3, m, A, b, NULL);
}

static void trace_append(void *user, const char *line)
{
    char *buf = user;
    size_t used = strlen(buf);
    snprintf(buf + used, T_TRACE_CAP - used, "%s\n", line);
}

char *t_traced_options(hs_options *opt)
{
    hs_options_init(opt);
    char *trace = calloc(T_TRACE_CAP, 1);
    ck_assert(trace != NULL);
    opt->trace = trace_append;
    opt->trace_user = trace;
    return trace;
}

void t_pair_polys(const struct fam_pair *p, hs_poly **A, hs_poly **B)
{
    hs_error err;
    *A = hs_poly_from_doubles(3, p->m[0], p->a[0], p->b[0], NULL, &err);
    ck_assert_msg(*A != NULL, "the pair's A: %s", err.msg);
    *B = hs_poly_from_doubles(3, p->m[1], p->a[1], p->b[1], NULL, &err);
    ck_assert_msg(*B != NULL, "the pair's B: %s", err.msg);
}

const struct fast_prep *t_ready_prep(const hs_poly *P)
{
    const fast_prep *fp = NULL;
    ck_assert_int_eq(fast_prep_get(P, &fp, NULL), 0);
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(fast_prep_lazy_ready(fp), 0);
    return fp;
}
