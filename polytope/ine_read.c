/* ine_read.c -- reader of cddlib/lrs H-representation (.ine) files.
 *
 * Layout accepted (lrs manual, cddlib manual):
 *     [name]
 *     [H-representation]
 *     [options] [linearity k i1 .. ik]
 *     begin
 *     m n+1 real|rational|integer
 *     b -a1 ... -an          (m lines: b - a.x >= 0)
 *     end
 *     [options] [linearity k i1 .. ik]
 * Comment lines start with '*' or '#'.  Every error names FILE:LINE. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "polytope/ine.h"
#include "polytope/text_lines.h"
#include "polytope/rational.h"
#include "polytope/error.h"
#include "polytope/mem.h"

/* Options of cddlib and lrs that only affect their output or their
 * algorithms, never the polyhedron: accepted and ignored. */
static const char *const ignored_options[] = {
    "adjacency", "input_adjacency", "incidence", "input_incidence", "partial_enum",
    "preprojection", "minindex", "maxindex", "lexmin", "lexmax", "random", "roworder",
    "nondegenerate", "maxcutoff", "mincutoff", "allbases", "cache", "debug", "digits",
    "estimates", "maxdepth", "maxoutput", "mindepth", "printcobasis", "printslack",
    "truncate", "verbose", "geometric", "volume", "startingcobasis", "restart", "bound",
    "lponly", "maximize", "minimize", "dualsimplex", "criss-cross", "facet_listing",
    "redund", "redund_list", "testlin", "noredund", "plrs", "mplrs", NULL};

/* Options that change the polyhedron and that we do not implement. */
static const char *const rejected_options[] = {"nonnegative", "hull", "voronoi", "project",
                                               "eliminate", "extract", NULL};

static int in_list(const char *const *list, const char *word)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], word) == 0)
            return 1;
    return 0;
}

typedef struct ine_state {
    const char *file;
    int have_begin, have_end, have_size, have_name;
    int m, d;            /* declared rows and columns (d = n + 1) */
    int integer_only;
    int rows_read;
    int *lin;            /* linearity indices (1-based) */
    int nlin;
    int lin_line;        /* line of the linearity statement */
    hs_poly *p;          /* p->m: rows allocated so far (at most m) */
    mpq_t v;
} ine_state;

static hs_code parse_int_token(const char *tok, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(tok, &end, 10);
    if (errno || *end || end == tok || v < lo || v > hi)
        return HS_ERR_INPUT;
    *out = v;
    return HS_OK;
}

static hs_code read_linearity(ine_state *st, text_line *ln, hs_error *err)
{
    if (st->lin)
        return err_at(err, st->file, ln->number, "a second 'linearity' statement");
    long k;
    if (ln->ntok < 2 || parse_int_token(ln->tok[1], 1, 100000000L, &k) != HS_OK)
        return err_at(err, st->file, ln->number,
                          "linearity needs a positive count: 'linearity k i1 ... ik'");
    if (ln->ntok - 2 != k)
        return err_at(err, st->file, ln->number,
                          "linearity declares %ld indices but lists %d", k, ln->ntok - 2);
    st->lin = malloc(sizeof *st->lin * (size_t)k);
    if (!st->lin)
        return err_set(err, HS_ERR_NOMEM, "%s:%d: out of memory (the input is too large)",
                       st->file, ln->number);
    for (long i = 0; i < k; i++) {
        long idx;
        if (parse_int_token(ln->tok[2 + i], 1, 1000000000L, &idx) != HS_OK)
            return err_at(err, st->file, ln->number,
                              "linearity index '%s' is not a positive integer", ln->tok[2 + i]);
        st->lin[i] = (int)idx;
    }
    st->nlin = (int)k;
    st->lin_line = ln->number;
    return HS_OK;
}

/* A line outside begin..end: keyword, option or the name line. */
static hs_code read_outer_line(ine_state *st, text_line *ln, hs_error *err)
{
    const char *w = ln->tok[0];
    if (strcmp(w, "H-representation") == 0)
        return HS_OK;
    if (strcmp(w, "V-representation") == 0)
        return err_at(err, st->file, ln->number,
                          "this is a V-representation; an H-representation (.ine) is expected");
    if (strcmp(w, "linearity") == 0)
        return read_linearity(st, ln, err);
    if (in_list(ignored_options, w))
        return HS_OK;
    if (in_list(rejected_options, w))
        return err_at(err, st->file, ln->number, "option %s is not supported", w);
    if (!st->have_begin && !st->have_name) {
        st->have_name = 1; /* lrs: the first line may name the polytope */
        return HS_OK;
    }
    if (st->have_end)
        return err_at(err, st->file, ln->number, "option %s is not supported", w);
    return err_at(err, st->file, ln->number, "unexpected text '%s' before 'begin'", w);
}

static hs_code read_size_line(ine_state *st, text_line *ln, hs_error *err)
{
    long m, d;
    if (ln->ntok != 3)
        return err_at(err, st->file, ln->number,
                          "expected 'm n+1 real|rational|integer' after begin");
    if (parse_int_token(ln->tok[0], 0, 100000000L, &m) != HS_OK)
        return err_at(err, st->file, ln->number, "row count '%s' is not a nonnegative integer",
                          ln->tok[0]);
    if (parse_int_token(ln->tok[1], 0, 1000000L, &d) != HS_OK)
        return err_at(err, st->file, ln->number,
                          "column count '%s' is not a nonnegative integer", ln->tok[1]);
    const char *type = ln->tok[2];
    if (strcmp(type, "integer") == 0)
        st->integer_only = 1;
    else if (strcmp(type, "real") != 0 && strcmp(type, "rational") != 0)
        return err_at(err, st->file, ln->number,
                          "number type '%s' is not real, rational or integer", type);
    if (m == 0)
        return err_at(err, st->file, ln->number, "the system has no rows (m = 0)");
    if (d < 2)
        return err_at(err, st->file, ln->number,
                          "n+1 = %ld columns: at least one variable is needed", d);
    st->m = (int)m;
    st->d = (int)d;
    st->have_size = 1;
    /* Rows are allocated as they arrive (grow_rows), so the memory follows
     * the file's size, not the declared counts. */
    st->p = hpoly_alloc((int)d - 1, 0, st->file);
    if (!st->p)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    st->p->size_line = ln->number;
    return HS_OK;
}

/* Room for row i in st->p: every array of the system grown (capacity
 * doubling, never beyond the declared m), new rows zero and exact.  0, or
 * -1 when out of memory (p unchanged, still valid). */
static int grow_rows(ine_state *st, int i)
{
    hs_poly *p = st->p;
    if (i < p->m)
        return 0;
    long cap = p->m > 0 ? 2L * p->m : 4;
    if (cap > st->m)
        cap = st->m;
    size_t n = (size_t)p->n, c = (size_t)cap, old = (size_t)p->m;
    double *a = mem_realloc(p->a, c * n, sizeof *a);
    if (a)
        p->a = a;
    double *b = mem_realloc(p->b, c, sizeof *b);
    if (b)
        p->b = b;
    unsigned char *eq = mem_realloc(p->eq, c, 1);
    if (eq)
        p->eq = eq;
    unsigned char *exact = mem_realloc(p->exact, c, 1);
    if (exact)
        p->exact = exact;
    mpq_t **q = mem_realloc(p->q, c, sizeof *q);
    if (q)
        p->q = q;
    int *line = mem_realloc(p->line, c, sizeof *line);
    if (line)
        p->line = line;
    if (!a || !b || !eq || !exact || !q || !line)
        return -1;
    memset(p->a + old * n, 0, (c - old) * n * sizeof *a);
    memset(p->b + old, 0, (c - old) * sizeof *b);
    memset(p->eq + old, 0, c - old);
    memset(p->exact + old, 1, c - old);
    memset(p->q + old, 0, (c - old) * sizeof *q);
    memset(p->line + old, 0, (c - old) * sizeof *line);
    p->m = (int)cap;
    return 0;
}

static int is_integer_token(const char *t)
{
    if (*t == '+' || *t == '-')
        t++;
    if (!*t)
        return 0;
    for (; *t; t++)
        if (*t < '0' || *t > '9')
            return 0;
    return 1;
}

/* Row "b -a1 ... -an": store a_j = -token_j, b = token_0. */
static hs_code read_row(ine_state *st, text_line *ln, hs_error *err)
{
    if (st->rows_read == st->m)
        return err_at(err, st->file, ln->number,
                          "more rows than the %d declared (missing 'end'?)", st->m);
    if (ln->ntok != st->d)
        return err_at(err, st->file, ln->number, "row %d has %d entries, expected %d",
                          st->rows_read + 1, ln->ntok, st->d);
    int i = st->rows_read;
    int n = st->d - 1;
    if (grow_rows(st, i) != 0)
        return err_at(err, st->file, ln->number, "out of memory for row %d of %d entries "
                      "(the file declares %d rows)", i + 1, st->d, st->m);
    for (int c = 0; c < st->d; c++) {
        const char *why = NULL;
        const char *tok = ln->tok[c];
        if (st->integer_only && !is_integer_token(tok))
            return err_at(err, st->file, ln->number,
                              "'%s' is not an integer (the file declares integer)", tok);
        if (q_parse(st->v, tok, &why) != 0)
            return err_at(err, st->file, ln->number, "bad number '%s': %s", tok, why);
        int j = c == 0 ? n : c - 1;
        if (c > 0)
            mpq_neg(st->v, st->v);
        if (hpoly_set_q(st->p, i, j, st->v, &why) != 0)
            return err_at(err, st->file, ln->number, "bad number '%s': %s", tok, why);
    }
    st->p->line[i] = ln->number;
    st->rows_read++;
    return HS_OK;
}

static hs_code read_line(void *user, text_line *ln, hs_error *err)
{
    ine_state *st = user;
    const char *w = ln->tok[0];
    if (!st->have_begin) {
        if (strcmp(w, "begin") == 0) {
            st->have_begin = 1;
            return HS_OK;
        }
        return read_outer_line(st, ln, err);
    }
    if (st->have_end) {
        if (strcmp(w, "begin") == 0)
            return err_at(err, st->file, ln->number, "a second 'begin' block");
        return read_outer_line(st, ln, err);
    }
    if (!st->have_size)
        return read_size_line(st, ln, err);
    if (strcmp(w, "end") == 0) {
        if (st->rows_read != st->m)
            return err_at(err, st->file, ln->number, "expected %d rows, found %d", st->m,
                              st->rows_read);
        st->have_end = 1;
        return HS_OK;
    }
    return read_row(st, ln, err);
}

static hs_code apply_linearity(ine_state *st, hs_error *err)
{
    for (int i = 0; i < st->nlin; i++) {
        if (st->lin[i] > st->m)
            return err_at(err, st->file, st->lin_line,
                              "linearity index %d exceeds the %d rows", st->lin[i], st->m);
        st->p->eq[st->lin[i] - 1] = 1;
    }
    return HS_OK;
}

hs_poly *ine_parse(const char *text, const char *name, hs_error *err)
{
    const char *file = name ? name : "<input>";
    if (!text) {
        err_set(err, HS_ERR_ARG, "hs_poly_parse: text is NULL");
        return NULL;
    }
    ine_state st;
    memset(&st, 0, sizeof st);
    st.file = file;
    mpq_init(st.v);
    int last_line = 0;
    hs_code rc = text_for_each_line(text, file, read_line, &st, &last_line, err);
    if (rc == HS_OK && !st.have_begin)
        rc = err_at(err, file, last_line, "missing 'begin' (not an H-representation file?)");
    if (rc == HS_OK && !st.have_size)
        rc = err_at(err, file, last_line, "unexpected end of file: missing 'm n+1 type' line");
    if (rc == HS_OK && !st.have_end)
        rc = err_at(err, file, last_line,
                        "unexpected end of file after %d of %d rows: missing 'end'",
                        st.rows_read, st.m);
    if (rc == HS_OK)
        rc = apply_linearity(&st, err);
    mpq_clear(st.v);
    free(st.lin);
    if (rc != HS_OK) {
        hpoly_destroy(st.p);
        return NULL;
    }
    return st.p;
}
