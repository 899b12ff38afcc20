/* result.c -- storage, accessors and writers of hs_result. */
#include "solver/result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/dense.h"
#include "polytope/hpoly.h"
#include "solver/fast_work.h"
#include "solver/qmatrix.h"
#include "polytope/rational.h"
#include "polytope/error.h"
#include "polytope/mem.h"

hs_result *hs_result_new(void)
{
    return calloc(1, sizeof(hs_result));
}

void hs_result_free(hs_result *r)
{
    if (!r)
        return;
    for (int j = 0; j < r->point_cap; j++) {
        mpq_clear(r->point[j]);
        mpq_clear(r->strict[j]);
    }
    for (int k = 0; k < r->mult_cap; k++)
        mpq_clear(r->mult[k].y);
    free(r->point);
    free(r->strict);
    free(r->mult);
    free(r->point_d);
    free(r->lazy_g);
    free(r->lazy_h);
    free(r->lazy_which);
    free(r->lazy_row);
    free(r->strict_d);
    fast_work_free(r->fast);
    free(r);
}

static int ensure_point_cap(hs_result *r, int n)
{
    if (n <= r->point_cap)
        return 0;
    mpq_t *p = mem_realloc(r->point, (size_t)n, sizeof *p);
    if (!p)
        return -1;
    r->point = p;
    mpq_t *s = mem_realloc(r->strict, (size_t)n, sizeof *s);
    if (!s)
        return -1;
    r->strict = s;
    for (int j = r->point_cap; j < n; j++) {
        mpq_init(r->point[j]);
        mpq_init(r->strict[j]);
    }
    r->point_cap = n;
    return 0;
}

int result_reset(hs_result *r, hs_status status, int n)
{
    if (ensure_point_cap(r, n) != 0)
        return -1;
    r->status = status;
    r->n = n;
    r->has_point = 0;
    r->kind = CERT_NONE;
    r->nmult = 0;
    r->has_strict = 0;
    r->strict_which = 0;
    r->nodes = 0;
    r->pivots = 0;
    r->lazy = 0;
    r->lazy_D = 0;
    r->lazy_touch = 0;
    r->fell_back = 0;
    return 0;
}

int result_lazy_reserve(hs_result *r, int n)
{
    int D = n + 1;
    if (D <= r->lazy_cap)
        return 0;
    double *p = realloc(r->point_d, sizeof(double) * (size_t)D);
    if (p)
        r->point_d = p;
    double *g = realloc(r->lazy_g, sizeof(double) * (size_t)(D * D));
    if (g)
        r->lazy_g = g;
    double *h = realloc(r->lazy_h, sizeof(double) * (size_t)D);
    if (h)
        r->lazy_h = h;
    int *w = realloc(r->lazy_which, sizeof(int) * (size_t)D);
    if (w)
        r->lazy_which = w;
    int *ro = realloc(r->lazy_row, sizeof(int) * (size_t)D);
    if (ro)
        r->lazy_row = ro;
    double *s = realloc(r->strict_d, sizeof(double) * (size_t)D);
    if (s)
        r->strict_d = s;
    if (!p || !g || !h || !w || !ro || !s)
        return -1;
    r->lazy_cap = D;
    return 0;
}

/* Multipliers in a fixed order: A's before B's, by row. */
static int by_poly_row(const void *x, const void *y)
{
    const cert_mult *a = x, *b = y;
    if (a->which != b->which)
        return a->which - b->which;
    return (a->row > b->row) - (a->row < b->row);
}

/* Exact multipliers of a lazy Farkas certificate: y with G y = e_tau. */
static int materialize_farkas(const hs_result *r, hs_result *out)
{
    int D = r->lazy_D;
    mpq_t *G = mem_alloc_gmp((size_t)(D * D), sizeof(mpq_t)), *rhs = mem_alloc_gmp((size_t)D, sizeof(mpq_t));
    mpq_t *y = mem_alloc_gmp((size_t)D, sizeof(mpq_t));
    qmatrix_work qw;
    int rc = (!G || !rhs || !y || qmatrix_work_init(&qw, D) != 0) ? -1 : 0;
    if (rc == 0) {
        for (int i = 0; i < D; i++) {
            mpq_inits(rhs[i], y[i], NULL);
            mpq_set_ui(rhs[i], i == D - 1, 1);
            for (int c = 0; c < D; c++) { /* row i, column c */
                mpq_init(G[i * D + c]);
                mpq_set_d(G[i * D + c], r->lazy_g[c * D + i]);
            }
        }
        rc = qmatrix_solve(&qw, D, G, rhs, y, 0);
        int first = out->nmult;
        for (int c = 0; rc == 0 && c < D; c++)
            if (r->lazy_which[c] >= 0 && mpq_sgn(y[c]) != 0)
                rc = result_add_mult(out, r->lazy_which[c], r->lazy_row[c], y[c]);
        if (rc == 0) /* (a swap of structs moves their mpq_t handles along) */
            qsort(out->mult + first, (size_t)(out->nmult - first), sizeof *out->mult, by_poly_row);
        for (int i = 0; i < D; i++) {
            mpq_clears(rhs[i], y[i], NULL);
            for (int c = 0; c < D; c++)
                mpq_clear(G[i * D + c]);
        }
        qmatrix_work_free(&qw);
    }
    free(G);
    free(rhs);
    free(y);
    return rc;
}

/* The point of a lazy contact, x of G^T z = h (z = (x, 0)), and the
 * strict point from its doubles. */
static int materialize_touch(const hs_result *r, hs_result *out)
{
    int D = r->lazy_D, n = D - 1;
    mpq_t *M = mem_alloc_gmp((size_t)(D * D), sizeof(mpq_t)), *rhs = mem_alloc_gmp((size_t)D, sizeof(mpq_t));
    mpq_t *z = mem_alloc_gmp((size_t)D, sizeof(mpq_t));
    qmatrix_work qw;
    int rc = (!M || !rhs || !z || qmatrix_work_init(&qw, D) != 0) ? -1 : 0;
    if (rc == 0) {
        for (int c = 0; c < D; c++) {
            mpq_inits(rhs[c], z[c], NULL);
            mpq_set_d(rhs[c], r->lazy_h[c]);
            for (int i = 0; i < D; i++) { /* row c: the basis column g_c */
                mpq_init(M[c * D + i]);
                mpq_set_d(M[c * D + i], r->lazy_g[c * D + i]);
            }
        }
        rc = qmatrix_solve(&qw, D, M, rhs, z, 0);
        if (rc == 0)
            result_set_point_q(out, z); /* the first n entries */
        for (int c = 0; c < D; c++) {
            mpq_clears(rhs[c], z[c], NULL);
            for (int i = 0; i < D; i++)
                mpq_clear(M[c * D + i]);
        }
        qmatrix_work_free(&qw);
    }
    if (rc == 0) {
        mpq_t *s = mem_alloc_gmp((size_t)n, sizeof(mpq_t));
        if (!s)
            rc = -1;
        for (int j = 0; s && j < n; j++) {
            mpq_init(s[j]);
            mpq_set_d(s[j], r->strict_d[j]);
        }
        if (s)
            result_set_strict(out, 0, s);
        for (int j = 0; s && j < n; j++)
            mpq_clear(s[j]);
        free(s);
    }
    free(M);
    free(rhs);
    free(z);
    return rc;
}

const hs_result *result_exact(const hs_result *r, hs_result **tmp)
{
    *tmp = NULL;
    if (!r->lazy)
        return r;
    hs_result *out = hs_result_new();
    if (!out || result_reset(out, r->status, r->n) != 0) {
        hs_result_free(out);
        return NULL;
    }
    out->engine = r->engine;
    out->nodes = r->nodes;
    out->pivots = r->pivots;
    out->fell_back = r->fell_back;
    if (r->has_point && !r->lazy_touch)
        result_set_point_d(out, r->point_d);
    if (r->lazy_D > 0) {
        out->kind = r->lazy_touch ? CERT_SEPARATION : CERT_FARKAS;
        if (materialize_farkas(r, out) != 0 || (r->lazy_touch && materialize_touch(r, out) != 0)) {
            hs_result_free(out);
            return NULL;
        }
    }
    *tmp = out;
    return out;
}

void result_set_point_d(hs_result *r, const double *x)
{
    for (int j = 0; j < r->n; j++)
        mpq_set_d(r->point[j], x[j]);
    r->has_point = 1;
}

void result_set_point_q(hs_result *r, mpq_t *const x)
{
    for (int j = 0; j < r->n; j++)
        mpq_set(r->point[j], x[j]);
    r->has_point = 1;
}

int result_add_mult(hs_result *r, int which, int row, const mpq_t y)
{
    if (r->nmult == r->mult_cap) {
        int cap = r->mult_cap ? 2 * r->mult_cap : 8;
        cert_mult *m = mem_realloc(r->mult, (size_t)cap, sizeof *m);
        if (!m)
            return -1;
        r->mult = m;
        for (int k = r->mult_cap; k < cap; k++)
            mpq_init(r->mult[k].y);
        r->mult_cap = cap;
    }
    cert_mult *m = &r->mult[r->nmult++];
    m->which = which;
    m->row = row;
    mpq_set(m->y, y);
    return 0;
}

void result_set_strict(hs_result *r, int which, mpq_t *const z)
{
    for (int j = 0; j < r->n; j++)
        mpq_set(r->strict[j], z[j]);
    r->strict_which = which;
    r->has_strict = 1;
}

/* ------------------------------------------------------------ accessors */

hs_status hs_result_status(const hs_result *r) { return r->status; }
int hs_result_dim(const hs_result *r) { return r->n; }
int hs_result_has_point(const hs_result *r) { return r->has_point; }
int hs_result_multiplier_count(const hs_result *r)
{
    hs_result *tmp;
    const hs_result *ex = result_exact(r, &tmp);
    int count = ex ? ex->nmult : 0;
    hs_result_free(tmp);
    return count;
}

int hs_result_fallback(const hs_result *r) { return r->fell_back; }
long hs_result_nodes(const hs_result *r) { return r->nodes; }
long hs_result_pivots(const hs_result *r) { return r->pivots; }

hs_code hs_result_point(const hs_result *r, double *x)
{
    if (!r || !r->has_point || !x)
        return HS_ERR_ARG;
    if (r->lazy && r->lazy_touch) { /* point_d is close, not nearest: make it exact */
        hs_result *tmp;
        const hs_result *e = result_exact(r, &tmp);
        if (!e)
            return HS_ERR_NOMEM;
        for (int j = 0; j < r->n; j++)
            x[j] = q_nearest_double(e->point[j], NULL);
        hs_result_free(tmp);
        return HS_OK;
    }
    for (int j = 0; j < r->n; j++)
        x[j] = r->lazy ? r->point_d[j] : q_nearest_double(r->point[j], NULL);
    return HS_OK;
}

/* y with sum_c y_c g_c = e_tau for the lazy columns, in floating point
 * (dense.c); -1 if singular. */
static int lazy_multipliers_d(const hs_result *r, double *y)
{
    int D = r->lazy_D;
    double M[DENSE_MAX * DENSE_MAX], rhs[DENSE_MAX];
    if (D > DENSE_MAX)
        return -1;
    for (int i = 0; i < D; i++) {
        rhs[i] = i == D - 1;
        for (int c = 0; c < D; c++)
            M[i * D + c] = r->lazy_g[c * D + i];
    }
    return dense_solve(D, M, rhs, y);
}

int result_normal_d(const hs_result *r, int which, const hs_poly *p, double *out)
{
    int n = r->n;
    for (int j = 0; j < n; j++)
        out[j] = 0;
    if (r->lazy) {
        double y[DENSE_MAX];
        if (r->lazy_D <= 0 || lazy_multipliers_d(r, y) != 0)
            return -1;
        for (int c = 0; c < r->lazy_D; c++)
            if (r->lazy_which[c] == which)
                for (int j = 0; j < n; j++)
                    out[j] += y[c] * r->lazy_g[c * r->lazy_D + j];
        return 0;
    }
    for (int k = 0; k < r->nmult; k++) {
        const cert_mult *m = &r->mult[k];
        if (m->which != which)
            continue;
        double y = q_nearest_double(m->y, NULL);
        for (int j = 0; j < n; j++)
            out[j] += y * p->a[(size_t)m->row * (size_t)n + (size_t)j];
    }
    return 0;
}

int result_point_near(const hs_result *r, double *x)
{
    if (!r || !r->has_point)
        return -1;
    for (int j = 0; j < r->n; j++)
        x[j] = r->lazy ? r->point_d[j] : q_nearest_double(r->point[j], NULL);
    return 0;
}

char *hs_result_point_str(const hs_result *r, int j)
{
    if (!r || !r->has_point || j < 0 || j >= r->n)
        return NULL;
    if (r->lazy && r->lazy_touch) { /* point_d is close, not the point: make it exact */
        hs_result *tmp;
        const hs_result *e = result_exact(r, &tmp);
        char *s = e ? q_to_string(e->point[j]) : NULL;
        hs_result_free(tmp);
        return s;
    }
    return r->lazy ? q_double_to_string(r->point_d[j]) : q_to_string(r->point[j]);
}

hs_code hs_result_multiplier(const hs_result *r, int k, int *which, int *row, double *value,
                             char **exact)
{
    if (!r)
        return HS_ERR_ARG;
    hs_result *tmp;
    const hs_result *ex = result_exact(r, &tmp);
    hs_code rc = (!ex || k < 0 || k >= ex->nmult) ? HS_ERR_ARG : HS_OK;
    if (rc == HS_OK) {
        const cert_mult *m = &ex->mult[k];
        if (which)
            *which = m->which;
        if (row)
            *row = m->row;
        if (value)
            *value = q_nearest_double(m->y, NULL);
        if (exact)
            *exact = q_to_string(m->y);
    }
    hs_result_free(tmp);
    return rc;
}

static const char *kind_name(cert_kind k)
{
    switch (k) {
    case CERT_FARKAS: return "farkas";
    case CERT_SEPARATION: return "separation";
    case CERT_IMPLICIT: return "implicit";
    case CERT_NONE: break;
    }
    return "none";
}

/* ------------------------------------------------------------- writers */

static int put_q(FILE *out, const char *pre, const mpq_t v, const char *quote)
{
    char *s = q_to_string(v);
    if (!s)
        return -1;
    int rc = fprintf(out, "%s%s%s%s", pre, quote, s, quote);
    free(s);
    return rc < 0 ? -1 : 0;
}

static int put_vector(FILE *out, mpq_t *v, int n, int json)
{
    int bad = 0;
    if (json)
        bad |= fputc('[', out) == EOF;
    for (int j = 0; j < n; j++)
        bad |= put_q(out, json ? (j ? "," : "") : " ", v[j], json ? "\"" : "") != 0;
    if (json)
        bad |= fputc(']', out) == EOF;
    return bad;
}

static hs_code write_text_exact(const hs_result *r, FILE *out, hs_error *err)
{
    int bad = fprintf(out, "%s\n", hs_status_name(r->status)) < 0;
    if (r->has_point) {
        bad |= fputs("point", out) == EOF;
        bad |= put_vector(out, r->point, r->n, 0);
        bad |= fputc('\n', out) == EOF;
    }
    if (r->kind != CERT_NONE)
        bad |= fprintf(out, "certificate %s\n", kind_name(r->kind)) < 0;
    for (int k = 0; k < r->nmult; k++) {
        bad |= fprintf(out, "multiplier %c %d", r->mult[k].which ? 'B' : 'A',
                       r->mult[k].row + 1) < 0;
        bad |= put_q(out, " ", r->mult[k].y, "") != 0;
        bad |= fputc('\n', out) == EOF;
    }
    if (r->has_strict) {
        bad |= fprintf(out, "strict %c", r->strict_which ? 'B' : 'A') < 0;
        bad |= put_vector(out, r->strict, r->n, 0);
        bad |= fputc('\n', out) == EOF;
    }
    return bad ? err_set(err, HS_ERR_IO, "write error") : HS_OK;
}

static hs_code write_json_exact(const hs_result *r, FILE *out, hs_error *err)
{
    int bad = fprintf(out, "{\"status\":\"%s\",\"engine\":\"%s\",\"dimension\":%d,\"point\":",
                      hs_status_name(r->status), hs_engine_name(r->engine), r->n) < 0;
    if (r->has_point)
        bad |= put_vector(out, r->point, r->n, 1);
    else
        bad |= fputs("null", out) == EOF;
    bad |= fputs(",\"certificate\":", out) == EOF;
    if (r->kind == CERT_NONE) {
        bad |= fputs("null", out) == EOF;
    } else {
        bad |= fprintf(out, "{\"kind\":\"%s\",\"multipliers\":[", kind_name(r->kind)) < 0;
        for (int k = 0; k < r->nmult; k++) {
            bad |= fprintf(out, "%s{\"polytope\":\"%c\",\"row\":%d,\"value\":", k ? "," : "",
                           r->mult[k].which ? 'B' : 'A', r->mult[k].row + 1) < 0;
            bad |= put_q(out, "", r->mult[k].y, "\"") != 0;
            bad |= fputc('}', out) == EOF;
        }
        bad |= fputc(']', out) == EOF;
        if (r->has_strict) {
            bad |= fprintf(out, ",\"strict\":{\"polytope\":\"%c\",\"point\":",
                           r->strict_which ? 'B' : 'A') < 0;
            bad |= put_vector(out, r->strict, r->n, 1);
            bad |= fputc('}', out) == EOF;
        }
        bad |= fputc('}', out) == EOF;
    }
    bad |= fputs("}\n", out) == EOF;
    return bad ? err_set(err, HS_ERR_IO, "write error") : HS_OK;
}

hs_code hs_result_write_text(const hs_result *r, FILE *out, hs_error *err)
{
    hs_result *tmp;
    const hs_result *ex = result_exact(r, &tmp);
    hs_code rc = ex ? write_text_exact(ex, out, err) : err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_result_free(tmp);
    return rc;
}

hs_code hs_result_write_json(const hs_result *r, FILE *out, hs_error *err)
{
    hs_result *tmp;
    const hs_result *ex = result_exact(r, &tmp);
    hs_code rc = ex ? write_json_exact(ex, out, err) : err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_result_free(tmp);
    return rc;
}
