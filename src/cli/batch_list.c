/* batch_list.c -- the list file of `halfspace batch`: one pair "A.ine
 * B.ine" a line (paths relative to the list's folder, '#' and '*'
 * comments), each member file loaded once (open addressing on paths).
 * Every error names the list's FILE:LINE. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "polytope/text_lines.h"
#include "src/cli/batch_list.h"

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

/* A member of the list, by the loader, resolved against the list's
 * folder; a failure is located at the list's line: "LIST:LINE: what". */
static const hs_poly *load_member(batch_list *bl, const char *name, int line, hs_error *err)
{
    char *full = resolve(bl, name);
    if (!full) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    hs_error inner;
    hs_error_clear(&inner);
    const hs_poly *p = bl->load(bl->load_user, full, &inner);
    free(full);
    if (!p)
        err_at(err, bl->file, line, "%s", inner.msg[0] ? inner.msg : "cannot load");
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
    const hs_poly *a = load_member(bl, ln->tok[0], ln->number, err);
    const hs_poly *b = a ? load_member(bl, ln->tok[1], ln->number, err) : NULL;
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

void batch_list_free(batch_list *bl)
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
    if (bl->table) {
        table_free(bl->table);
        free(bl->table);
    }
}

hs_code batch_list_parse(batch_list *bl, const char *text, const char *file,
                         batch_load_fn load, void *user, hs_error *err)
{
    memset(bl, 0, sizeof *bl);
    bl->file = file;
    bl->load = load;
    bl->load_user = user;
    const char *slash = strrchr(file, '/');
    size_t dl = slash ? (size_t)(slash - file) + 1 : 0;
    bl->dir = malloc(dl + 1);
    if (!bl->dir)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    memcpy(bl->dir, file, dl);
    bl->dir[dl] = '\0';
    int last = 0;
    hs_code rc = text_for_each_line(text, file, read_pair, bl, &last, err);
    if (rc == HS_OK && bl->count == 0)
        rc = err_at(err, file, last, "the list holds no pairs");
    return rc;
}

/* The loader of batch_list_read: each file read once, kept in the table. */
static const hs_poly *load_from_table(void *user, const char *path, hs_error *err)
{
    return table_get(user, path, err);
}

hs_code batch_list_read(batch_list *bl, const char *file, hs_error *err)
{
    memset(bl, 0, sizeof *bl);
    char *text = text_read_file(file, err);
    if (!text)
        return err ? err->code : HS_ERR_IO;
    poly_table *t = calloc(1, sizeof *t);
    hs_code rc = t ? batch_list_parse(bl, text, file, load_from_table, t, err)
                   : err_set(err, HS_ERR_NOMEM, "out of memory");
    bl->table = t;
    free(text);
    return rc;
}
