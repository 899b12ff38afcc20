/* diff_fuzz.c -- differential fuzzing of answers (issue 14, deliverable
 * 3): random and degenerate pairs of polyhedra through the fast, exact
 * and glpk-exact engines, every certificate through the verifier.
 *
 * Instances come from the cross-check's generator (solver/crosscheck_gen.c:
 * ten families, most touching or nearly touching by construction, with
 * a known class), n = 1..8, integer and dyadic data.  Each instance is
 * also asked in forms that must not change its class:
 *   rows     every row multiplied by its own power of two (2^-40..2^40);
 *   space    the space scaled by 2^k, k = +-(100..900) (b scaled; only
 *            when exact): magnitudes near the ends of the double range;
 *   decimal  every row multiplied by a decimal (0.1, 0.3, 2.5, 1.7, ...),
 *            read from exact decimal strings: rows that are not doubles;
 *   swapped  B against A, the rows of each reversed.
 * For each form: the exact engine must give the instance's class (the
 * construction's when known, else the exact engine's on the plain form),
 * the fast engine and glp_exact the same (glp_exact only on data that are
 * doubles, and when it accepts them); every certificate of the fast and
 * exact engines must verify, read back from its text and JSON forms
 * (hs_result_parse), and once simplified for printing.
 *
 * Usage: diff_fuzz [--seconds S] [--count N] [--seed X] [--verbose]
 * Runs until S seconds have passed (default 20) or N instances (if
 * given).  Prints every failure with what reproduces it (seed, instance,
 * form) and a summary; exit 0 when there was none, 1 otherwise, 2 on bad
 * options. */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "polytope/rng.h"
#include "solver/crosscheck.h"
#include "solver/result_simplify.h"

#define FUZZ_MAX_DIM 8

typedef struct fuzz {
    uint64_t seed;
    int verbose;
    long instances, queries, certificates, failures, skipped_glpk, forms;
    hs_result *r;
    char buf[1 << 16];
} fuzz;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void failure(fuzz *f, long index, const char *form, const char *what, const char *detail)
{
    f->failures++;
    printf("FAIL seed %llu instance %ld form %s: %s%s%s\n", (unsigned long long)f->seed, index,
           form, what, detail ? ": " : "", detail ? detail : "");
}

/* ------------------------------------------------ forms of an instance */

/* The rows of P as doubles (the generator's data are doubles). */
typedef struct rows_d {
    int n, m;
    double *a, *b;
    unsigned char *eq;
} rows_d;

static int rows_of(const hs_poly *P, rows_d *R)
{
    R->n = hs_poly_dim(P);
    R->m = hs_poly_rows(P);
    R->a = malloc(sizeof(double) * (size_t)(R->n * R->m + 1));
    R->b = malloc(sizeof(double) * (size_t)(R->m + 1));
    R->eq = malloc((size_t)R->m + 1);
    if (!R->a || !R->b || !R->eq)
        return -1;
    int exact = 1;
    for (int i = 0; i < R->m; i++) {
        exact &= hs_poly_row(P, i, R->a + (size_t)i * (size_t)R->n, &R->b[i]) != 0;
        R->eq[i] = (unsigned char)(hs_poly_row_is_eq(P, i) != 0);
    }
    return exact ? 0 : -1;
}

static void rows_free(rows_d *R)
{
    free(R->a);
    free(R->b);
    free(R->eq);
}

static hs_poly *poly_of_rows(const rows_d *R)
{
    hs_error err;
    return hs_poly_from_doubles(R->n, R->m, R->a, R->b, R->eq, &err);
}

/* Each row times 2^k_i, |k_i| <= 40 (exact unless a value leaves the
 * normal range: then NULL). */
static hs_poly *form_rows(const hs_poly *P, uint64_t *g)
{
    rows_d R;
    hs_poly *out = NULL;
    if (rows_of(P, &R) == 0) {
        int ok = 1;
        for (int i = 0; i < R.m && ok; i++) {
            int k = (int)(rng_splitmix(g) % 81) - 40;
            for (int j = 0; j <= R.n; j++) {
                double *v = j < R.n ? &R.a[(size_t)i * (size_t)R.n + (size_t)j] : &R.b[i];
                double w = ldexp(*v, k);
                ok &= ldexp(w, -k) == *v && isfinite(w);
                *v = w;
            }
        }
        if (ok)
            out = poly_of_rows(&R);
    }
    rows_free(&R);
    return out;
}

/* The space scaled by 2^k: a.x <= b becomes a.x <= 2^k b. */
static hs_poly *form_space(const hs_poly *P, int k)
{
    rows_d R;
    hs_poly *out = NULL;
    if (rows_of(P, &R) == 0) {
        int ok = 1;
        for (int i = 0; i < R.m && ok; i++) {
            double w = ldexp(R.b[i], k);
            ok = isfinite(w) && ldexp(w, -k) == R.b[i] && (w == 0 || fabs(w) >= 0x1p-1022);
            R.b[i] = w;
        }
        if (ok)
            out = poly_of_rows(&R);
    }
    rows_free(&R);
    return out;
}

/* Rows reversed. */
static hs_poly *form_reversed(const hs_poly *P)
{
    rows_d R, S;
    hs_poly *out = NULL;
    if (rows_of(P, &R) == 0 && rows_of(P, &S) == 0) {
        for (int i = 0; i < R.m; i++) {
            int k = R.m - 1 - i;
            memcpy(S.a + (size_t)k * (size_t)R.n, R.a + (size_t)i * (size_t)R.n,
                   sizeof(double) * (size_t)R.n);
            S.b[k] = R.b[i];
            S.eq[k] = R.eq[i];
        }
        out = poly_of_rows(&S);
        rows_free(&S);
    }
    rows_free(&R);
    return out;
}

/* The exact decimal text of q, whose denominator is 2^a 5^b (a finite
 * decimal), into a new string; NULL otherwise. */
static char *decimal_text(const mpq_t q)
{
    mpz_t den, t;
    mpz_inits(den, t, NULL);
    mpz_set(den, mpq_denref(q));
    unsigned long twos = mpz_remove(den, den, (mpz_set_ui(t, 2), t));
    unsigned long fives = mpz_remove(den, den, (mpz_set_ui(t, 5), t));
    char *out = NULL;
    if (mpz_cmp_ui(den, 1) == 0) {
        unsigned long digits = twos > fives ? twos : fives;
        mpz_ui_pow_ui(t, 10, digits); /* q * 10^digits is an integer */
        mpz_mul(t, t, mpq_numref(q));
        mpz_divexact(t, t, mpq_denref(q));
        int neg = mpz_sgn(t) < 0;
        mpz_abs(t, t);
        char *s = mpz_get_str(NULL, 10, t);
        size_t len = strlen(s);
        out = malloc(len + digits + 4);
        if (out) {
            char *o = out;
            if (neg)
                *o++ = '-';
            if (len <= digits) {
                *o++ = '0';
                *o++ = '.';
                for (size_t z = len; z < digits; z++)
                    *o++ = '0';
                memcpy(o, s, len + 1);
            } else {
                memcpy(o, s, len - digits);
                o += len - digits;
                if (digits) {
                    *o++ = '.';
                    memcpy(o, s + len - digits, digits);
                    o += digits;
                }
                *o = '\0';
            }
        }
        free(s);
    }
    mpz_clears(den, t, NULL);
    return out;
}

/* Every row times a decimal factor, given as exact decimal strings. */
static hs_poly *form_decimal(const hs_poly *P, uint64_t *g)
{
    static const char *const factors[] = {"0.1", "0.3", "2.5", "1.7", "0.05", "12.34", "0.625"};
    rows_d R;
    hs_poly *out = NULL;
    if (rows_of(P, &R) != 0) {
        rows_free(&R);
        return NULL;
    }
    int w = R.n + 1, ok = 1;
    char **text = calloc((size_t)(R.m * w) + 1, sizeof *text);
    const char **A = calloc((size_t)(R.m * R.n) + 1, sizeof *A), **b = calloc((size_t)R.m + 1,
                                                                               sizeof *b);
    mpq_t f, v;
    mpq_inits(f, v, NULL);
    for (int i = 0; i < R.m && text && A && b && ok; i++) {
        const char *fac = factors[rng_splitmix(g) % (sizeof factors / sizeof factors[0])];
        /* fac as a rational: digits / 10^decimals */
        const char *dot = strchr(fac, '.');
        size_t decimals = dot ? strlen(dot + 1) : 0;
        char digits[32];
        size_t k = 0;
        for (const char *c = fac; *c; c++)
            if (*c != '.')
                digits[k++] = *c;
        digits[k] = '\0';
        mpz_set_str(mpq_numref(f), digits, 10);
        mpz_ui_pow_ui(mpq_denref(f), 10, decimals);
        mpq_canonicalize(f);
        for (int j = 0; j <= R.n && ok; j++) {
            double x = j < R.n ? R.a[(size_t)i * (size_t)R.n + (size_t)j] : R.b[i];
            mpq_set_d(v, x);
            mpq_mul(v, v, f);
            char *s = decimal_text(v);
            ok = s != NULL;
            text[i * w + j] = s;
            if (j < R.n)
                A[(size_t)i * (size_t)R.n + (size_t)j] = s;
            else
                b[i] = s;
        }
    }
    if (text && A && b && ok) {
        hs_error err;
        out = hs_poly_from_strings(R.n, R.m, A, b, R.eq, &err);
    }
    for (int i = 0; text && i < R.m * w; i++)
        free(text[i]);
    free(text);
    free(A);
    free(b);
    mpq_clears(f, v, NULL);
    rows_free(&R);
    return out;
}

/* ------------------------------------------------ checks */

/* r's certificate verifies as it is, read back from text and from JSON,
 * and simplified. */
static void check_certificate(fuzz *f, long index, const char *form, const char *engine,
                              const hs_poly *A, const hs_poly *B)
{
    hs_error err;
    char what[96];
    f->certificates++;
    if (hs_result_verify(f->r, A, B, &err) != HS_OK) {
        snprintf(what, sizeof what, "the %s engine's certificate does not verify", engine);
        failure(f, index, form, what, err.msg);
        return;
    }
    for (int json = 0; json < 2; json++) {
        FILE *mem = fmemopen(f->buf, sizeof f->buf, "w");
        if (!mem)
            continue;
        hs_code rc = json ? hs_result_write_json(f->r, mem, &err)
                          : hs_result_write_text(f->r, mem, &err);
        int closed = fclose(mem) == 0;
        if (rc != HS_OK || !closed)
            continue; /* (a certificate longer than the buffer: not checked) */
        hs_result *back = hs_result_parse(f->buf, json ? "cert.json" : "cert.txt",
                                          hs_poly_dim(A), &err);
        if (!back || hs_result_verify(back, A, B, &err) != HS_OK ||
            hs_result_status(back) != hs_result_status(f->r)) {
            snprintf(what, sizeof what, "the %s engine's certificate read back from %s fails",
                     engine, json ? "JSON" : "text");
            failure(f, index, form, what, err.msg);
        }
        hs_result_free(back);
    }
    hs_result *s = result_simplified(f->r, A, B);
    if (!s || hs_result_verify(s, A, B, &err) != HS_OK ||
        hs_result_status(s) != hs_result_status(f->r)) {
        snprintf(what, sizeof what, "the %s engine's simplified certificate fails", engine);
        failure(f, index, form, what, s ? err.msg : "not made");
    }
    hs_result_free(s);
}

/* One engine on (A, B): its status into *st; 1 when it answered, 0 when
 * it declined (glp_exact on data it cannot take), -1 on an error. */
static int ask(fuzz *f, long index, const char *form, hs_engine e, const hs_poly *A,
               const hs_poly *B, hs_status *st)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = e;
    hs_error err;
    f->queries++;
    hs_code rc = hs_intersect(A, B, &opt, f->r, &err);
    if (rc == HS_ERR_UNSUPPORTED && e == HS_ENGINE_GLPK_EXACT) {
        f->skipped_glpk++;
        return 0;
    }
    if (rc != HS_OK) {
        char what[64];
        snprintf(what, sizeof what, "the %s engine failed", hs_engine_name(e));
        failure(f, index, form, what, err.msg);
        return -1;
    }
    *st = hs_result_status(f->r);
    if (e != HS_ENGINE_GLPK_EXACT)
        check_certificate(f, index, form, hs_engine_name(e), A, B);
    return 1;
}

/* All engines on one form; want: the class it must have (or -1: the
 * exact engine's answer becomes it).  Returns the exact engine's class,
 * or -1. */
static int check_form(fuzz *f, long index, const char *form, const hs_poly *A,
                      const hs_poly *B, int want, int doubles)
{
    if (!A || !B)
        return -1;
    f->forms++;
    hs_status ex, fa, gl;
    char detail[128];
    if (ask(f, index, form, HS_ENGINE_EXACT, A, B, &ex) != 1)
        return -1;
    if (want >= 0 && (int)ex != want) {
        snprintf(detail, sizeof detail, "exact says %s, expected %s", hs_status_name(ex),
                 hs_status_name((hs_status)want));
        failure(f, index, form, "wrong class", detail);
    }
    if (ask(f, index, form, HS_ENGINE_FAST, A, B, &fa) == 1 && fa != ex) {
        snprintf(detail, sizeof detail, "fast says %s, exact %s", hs_status_name(fa),
                 hs_status_name(ex));
        failure(f, index, form, "disagreement", detail);
    }
    if (doubles && ask(f, index, form, HS_ENGINE_GLPK_EXACT, A, B, &gl) == 1 && gl != ex) {
        snprintf(detail, sizeof detail, "glpk-exact says %s, exact %s", hs_status_name(gl),
                 hs_status_name(ex));
        failure(f, index, form, "disagreement", detail);
    }
    return (int)ex;
}

static void fuzz_instance(fuzz *f, long index)
{
    int n = 1 + (int)((index / CC_FAMILY_COUNT) % FUZZ_MAX_DIM);
    cc_family family = (cc_family)(index % CC_FAMILY_COUNT);
    uint64_t g = f->seed ^ ((uint64_t)index * 0x9E3779B97F4A7C15ull);
    int rows = 2 + (int)(rng_splitmix(&g) % 11);
    crosscheck_instance inst;
    hs_error err;
    if (crosscheck_generate_family(f->seed, index, family, n, rows, &inst, &err) != HS_OK) {
        failure(f, index, "plain", "the generator failed", err.msg);
        return;
    }
    f->instances++;
    if (f->verbose)
        printf("instance %ld: %s (%s) n=%d rows=%d+%d\n", index, crosscheck_family_name(family),
               inst.variant, n, hs_poly_rows(inst.A), hs_poly_rows(inst.B));
    int want = check_form(f, index, "plain", inst.A, inst.B, inst.expected, 1);
    if (want >= 0) {
        hs_poly *A = form_rows(inst.A, &g), *B = form_rows(inst.B, &g);
        check_form(f, index, "rows", A, B, want, 1);
        hs_poly_free(A);
        hs_poly_free(B);
        int k = (int)(100 + rng_splitmix(&g) % 801) * (rng_splitmix(&g) & 1 ? 1 : -1);
        char form[32];
        snprintf(form, sizeof form, "space*2^%d", k);
        A = form_space(inst.A, k);
        B = form_space(inst.B, k);
        check_form(f, index, form, A, B, want, 1);
        hs_poly_free(A);
        hs_poly_free(B);
        A = form_decimal(inst.A, &g);
        B = form_decimal(inst.B, &g);
        check_form(f, index, "decimal", A, B, want, 0);
        hs_poly_free(A);
        hs_poly_free(B);
        A = form_reversed(inst.A);
        B = form_reversed(inst.B);
        check_form(f, index, "swapped", B, A, want, 1);
        hs_poly_free(A);
        hs_poly_free(B);
    }
    crosscheck_instance_free(&inst);
}

static int parse_args(int argc, char **argv, double *seconds, long *count, fuzz *f)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (strcmp(a, "--verbose") == 0) {
            f->verbose = 1;
            continue;
        }
        if (!v)
            return -1;
        if (strcmp(a, "--seconds") == 0)
            *seconds = strtod(v, &end);
        else if (strcmp(a, "--count") == 0)
            *count = strtol(v, &end, 10);
        else if (strcmp(a, "--seed") == 0)
            f->seed = strtoull(v, &end, 10);
        else
            return -1;
        if (!end || *end || end == v)
            return -1;
        i++;
    }
    return *seconds > 0 && *count != 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    fuzz *f = calloc(1, sizeof *f); /* (a large buffer: not on the stack) */
    double seconds = 20;
    long count = -1;
    if (!f)
        return 2;
    f->seed = 1;
    if (parse_args(argc, argv, &seconds, &count, f) != 0) {
        fprintf(stderr, "usage: diff_fuzz [--seconds S] [--count N] [--seed X] [--verbose]\n");
        free(f);
        return 2;
    }
    f->r = hs_result_new();
    if (!f->r) {
        free(f);
        return 2;
    }
    double start = now();
    long index = 0;
    for (; (count < 0 || index < count) && now() - start < seconds; index++)
        fuzz_instance(f, index);
    hs_result_free(f->r);
    printf("diff_fuzz: seed %llu, %.0f s: %ld instances, %ld forms, %ld queries, %ld "
           "certificates verified, %ld glpk-exact refusals, %ld failures\n",
           (unsigned long long)f->seed, now() - start, f->instances, f->forms, f->queries,
           f->certificates, f->skipped_glpk, f->failures);
    int code = f->failures ? 1 : 0;
    free(f);
    return code;
}
