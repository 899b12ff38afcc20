/* cli_batch.c -- the batch command: many pairs from a list file, answered
 * with hs_intersect_batch, one output line per pair in the list's order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/text_lines.h"
#include "src/cli/cli_commands.h"
#include "src/cli/cli_common.h"
#include "src/cli/json_emit.h"
#include "polytope/error.h"
#include "polytope/mem.h"

static const char batch_usage[] =
    "usage: halfspace batch [options] FILE\n"
    "  FILE lists one pair per line, \"A.ine B.ine\" (paths relative to FILE's folder;\n"
    "  lines starting with '#' or '*' are comments).  Prints one line per pair, in\n"
    "  order: \"A.ine B.ine STATUS\" (disjoint, touching, overlap; faithful: intersect).\n"
    "options:\n"
    "  --threads=N    worker threads (default 1; 0 = one per CPU)\n"
    "  --engine=E     fast (default), exact, faithful, faithful-exact, glpk, glpk-exact\n"
    "  --json         one JSON object per line: {\"a\":..,\"b\":..,\"status\":..}\n"
    "  --help         this text\n"
    "exit: 0 answers printed, 1 usage error, 2 bad input (FILE:LINE: what is wrong)\n";

/* Distinct polyhedron files, loaded once each (open addressing on paths). */
typedef struct poly_table {
    char **path;
    hs_poly **poly;
    size_t cap, used;
} poly_table;

static uint64_t hash_text(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static int table_grow(poly_table *t)
{
    size_t cap = t->cap ? 2 * t->cap : 64;
    char **path = calloc(cap, sizeof *path);
    hs_poly **poly = calloc(cap, sizeof *poly);
    if (!path || !poly) {
        free(path);
        free(poly);
        return -1;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->path[i])
            continue;
        size_t k = hash_text(t->path[i]) & (cap - 1);
        while (path[k])
            k = (k + 1) & (cap - 1);
        path[k] = t->path[i];
        poly[k] = t->poly[i];
    }
    free(t->path);
    free(t->poly);
    t->path = path;
    t->poly = poly;
    t->cap = cap;
    return 0;
}

/* The polyhedron read from path (loaded on first use), or NULL with err. */
static const hs_poly *table_get(poly_table *t, const char *path, hs_error *err)
{
    if (2 * (t->used + 1) > t->cap && table_grow(t) != 0) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    size_t k = hash_text(path) & (t->cap - 1);
    while (t->path[k] && strcmp(t->path[k], path) != 0)
        k = (k + 1) & (t->cap - 1);
    if (t->path[k])
        return t->poly[k];
    hs_poly *p = hs_poly_read(path, err);
    char *copy = p ? mem_strdup(path) : NULL;
    if (!p || !copy) {
        hs_poly_free(p);
        if (p)
            err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    t->path[k] = copy;
    t->poly[k] = p;
    t->used++;
    return p;
}

static void table_free(poly_table *t)
{
    for (size_t i = 0; i < t->cap; i++) {
        free(t->path[i]);
        hs_poly_free(t->poly[i]);
    }
    free(t->path);
    free(t->poly);
}

typedef struct batch_list {
    const char *file;
    char *dir;         /* folder of the list file, with a trailing '/' */
    poly_table table;
    const hs_poly **A, **B;
    char **name_a, **name_b; /* as written in the list */
    size_t count, cap;
} batch_list;

static char *resolve(const batch_list *bl, const char *path)
{
    size_t dl = (path[0] == '/') ? 0 : strlen(bl->dir), pl = strlen(path);
    char *full = malloc(dl + pl + 1);
    if (full) {
        memcpy(full, bl->dir, dl);
        memcpy(full + dl, path, pl + 1);
    }
    return full;
}

static int list_grow(batch_list *bl)
{
    size_t cap = bl->cap ? 2 * bl->cap : 64;
    const hs_poly **A = mem_realloc(bl->A, cap, sizeof *A);
    if (A)
        bl->A = A;
    const hs_poly **B = mem_realloc(bl->B, cap, sizeof *B);
    if (B)
        bl->B = B;
    char **na = mem_realloc(bl->name_a, cap, sizeof *na);
    if (na)
        bl->name_a = na;
    char **nb = mem_realloc(bl->name_b, cap, sizeof *nb);
    if (nb)
        bl->name_b = nb;
    if (!A || !B || !na || !nb)
        return -1;
    bl->cap = cap;
    return 0;
}

static const hs_poly *load_member(batch_list *bl, const char *name, hs_error *err)
{
    char *full = resolve(bl, name);
    if (!full) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    const hs_poly *p = table_get(&bl->table, full, err);
    free(full);
    return p;
}

static hs_code read_pair(void *user, text_line *ln, hs_error *err)
{
    batch_list *bl = user;
    if (ln->ntok != 2)
        return err_at(err, bl->file, ln->number, "expected two file names, found %d",
                          ln->ntok);
    if (bl->count == bl->cap && list_grow(bl) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    const hs_poly *a = load_member(bl, ln->tok[0], err);
    const hs_poly *b = a ? load_member(bl, ln->tok[1], err) : NULL;
    if (!a || !b)
        return err ? err->code : HS_ERR_INPUT;
    if (hs_poly_dim(a) != hs_poly_dim(b))
        return err_at(err, bl->file, ln->number, "%s has %d variables, %s has %d",
                          ln->tok[0], hs_poly_dim(a), ln->tok[1], hs_poly_dim(b));
    char *na = mem_strdup(ln->tok[0]), *nb = mem_strdup(ln->tok[1]);
    if (!na || !nb) {
        free(na);
        free(nb);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    bl->A[bl->count] = a;
    bl->B[bl->count] = b;
    bl->name_a[bl->count] = na;
    bl->name_b[bl->count] = nb;
    bl->count++;
    return HS_OK;
}

static void list_free(batch_list *bl)
{
    for (size_t k = 0; k < bl->count; k++) {
        free(bl->name_a[k]);
        free(bl->name_b[k]);
    }
    free(bl->name_a);
    free(bl->name_b);
    free(bl->A);
    free(bl->B);
    free(bl->dir);
    table_free(&bl->table);
}

static hs_code load_list(batch_list *bl, const char *file, hs_error *err)
{
    memset(bl, 0, sizeof *bl);
    bl->file = file;
    const char *slash = strrchr(file, '/');
    size_t dl = slash ? (size_t)(slash - file) + 1 : 0;
    bl->dir = malloc(dl + 1);
    if (!bl->dir)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    memcpy(bl->dir, file, dl);
    bl->dir[dl] = '\0';
    char *text = text_read_file(file, err);
    if (!text)
        return err ? err->code : HS_ERR_IO;
    int last = 0;
    hs_code rc = text_for_each_line(text, file, read_pair, bl, &last, err);
    free(text);
    if (rc == HS_OK && bl->count == 0)
        rc = err_at(err, file, last, "the list holds no pairs");
    return rc;
}

/* {"a":A,"b":B,"status":S} and a newline. */
static void batch_json_line(const char *a, const char *b, hs_status st)
{
    json_emit j;
    json_emit_init(&j, stdout);
    json_object_open(&j);
    json_key(&j, "a");
    json_string(&j, a);
    json_key(&j, "b");
    json_string(&j, b);
    json_key(&j, "status");
    json_string(&j, hs_status_name(st));
    json_object_close(&j);
    putchar('\n');
}

static void print_answers(const batch_list *bl, const hs_status *st, int json)
{
    for (size_t k = 0; k < bl->count; k++) {
        if (json)
            batch_json_line(bl->name_a[k], bl->name_b[k], st[k]);
        else
            printf("%s %s %s\n", bl->name_a[k], bl->name_b[k], hs_status_name(st[k]));
    }
}

int cmd_batch(int argc, char **argv)
{
    hs_options opt;
    hs_options_init(&opt);
    int threads = 1, json = 0;
    const char *file = NULL;
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *name, *value;
    while (cli_args_next(&a, &name, &value)) {
        if (!name) {
            if (file)
                return cli_usage_error(batch_usage, "one list file only ('%s')", value);
            file = value;
        } else if (strcmp(name, "help") == 0) {
            fputs(batch_usage, stdout);
            return EXIT_ANSWER;
        } else if (strcmp(name, "json") == 0) {
            json = 1;
        } else if (strcmp(name, "threads") == 0) {
            const char *t = cli_args_value(&a, value);
            char *end = NULL;
            long v = t ? strtol(t, &end, 10) : -1;
            if (!t || *end || v < 0 || v > 1024)
                return cli_usage_error(batch_usage, "--threads needs 0..1024, not '%s'", t);
            threads = (int)v;
        } else if (strcmp(name, "engine") == 0) {
            const char *e = cli_args_value(&a, value);
            if (!e || !hs_engine_from_name(e, &opt.engine))
                return cli_usage_error(batch_usage, "unknown engine '%s'", e);
        } else {
            return cli_usage_error(batch_usage, "unknown option '--%s'", name);
        }
    }
    if (!file)
        return cli_usage_error(batch_usage, "expected a list file%s", "");
    batch_list bl;
    hs_error err;
    hs_error_clear(&err);
    int code;
    hs_status *st = NULL;
    if (load_list(&bl, file, &err) != HS_OK)
        code = cli_fail(&err);
    else if (!(st = calloc(bl.count, sizeof *st)))
        code = EXIT_INTERNAL;
    else if (hs_intersect_batch(bl.A, bl.B, bl.count, &opt, threads, st, NULL, &err) != HS_OK)
        code = cli_fail(&err);
    else {
        print_answers(&bl, st, json);
        code = fflush(stdout) == 0 ? EXIT_ANSWER : EXIT_INTERNAL;
    }
    free(st);
    list_free(&bl);
    return code;
}
