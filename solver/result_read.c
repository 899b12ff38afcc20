/* result_read.c -- read back the text form written by hs_result_write_text:
 *     <status>
 *     point x1 ... xn
 *     certificate farkas|separation|implicit
 *     multiplier A|B <row> <value>        (rows 1-based)
 *     strict A|B z1 ... zn
 * Comment lines start with '#' or '*'.  Errors name FILE:LINE.  Text
 * that opens with '{' is the JSON form instead (result_json.c). */
#include <stdlib.h>
#include <string.h>

#include "polytope/text_lines.h"
#include "polytope/rational.h"
#include "solver/result.h"
#include "solver/result_json.h"
#include "polytope/error.h"
#include "polytope/mem.h"

typedef struct cert_reader {
    const char *file;
    hs_result *r;
    int n;
    int have_status;
    mpq_t v;
    mpq_t *vec;
} cert_reader;

static int parse_status(const char *w, hs_status *s)
{
    for (int k = HS_INFEASIBLE; k <= HS_INTERSECT; k++)
        if (strcmp(w, hs_status_name((hs_status)k)) == 0) {
            *s = (hs_status)k;
            return 1;
        }
    return 0;
}

static int parse_which(const char *w, int *which)
{
    if (strcmp(w, "A") == 0 || strcmp(w, "B") == 0) {
        *which = w[0] == 'B';
        return 1;
    }
    return 0;
}

static hs_code read_vector(cert_reader *cr, text_line *ln, int first, hs_error *err)
{
    if (ln->ntok - first != cr->n)
        return err_at(err, cr->file, ln->number, "%s has %d coordinates, expected %d",
                          ln->tok[0], ln->ntok - first, cr->n);
    for (int j = 0; j < cr->n; j++) {
        const char *why = "";
        if (q_parse(cr->vec[j], ln->tok[first + j], &why) != 0)
            return err_at(err, cr->file, ln->number, "bad number '%s': %s",
                              ln->tok[first + j], why);
    }
    return HS_OK;
}

static hs_code read_multiplier(cert_reader *cr, text_line *ln, hs_error *err)
{
    int which;
    const char *why = "";
    if (ln->ntok != 4 || !parse_which(ln->tok[1], &which))
        return err_at(err, cr->file, ln->number, "expected 'multiplier A|B ROW VALUE'");
    char *end;
    long row = strtol(ln->tok[2], &end, 10);
    if (*end || row < 1 || row > 1000000000L)
        return err_at(err, cr->file, ln->number, "row '%s' is not a positive integer",
                          ln->tok[2]);
    if (q_parse(cr->v, ln->tok[3], &why) != 0)
        return err_at(err, cr->file, ln->number, "bad number '%s': %s", ln->tok[3], why);
    if (result_add_mult(cr->r, which, (int)row - 1, cr->v) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    return HS_OK;
}

static hs_code read_kind(cert_reader *cr, text_line *ln, hs_error *err)
{
    static const struct { const char *name; cert_kind kind; } kinds[] = {
        {"farkas", CERT_FARKAS}, {"separation", CERT_SEPARATION}, {"implicit", CERT_IMPLICIT}};
    for (size_t k = 0; ln->ntok == 2 && k < sizeof kinds / sizeof kinds[0]; k++)
        if (strcmp(ln->tok[1], kinds[k].name) == 0) {
            cr->r->kind = kinds[k].kind;
            return HS_OK;
        }
    return err_at(err, cr->file, ln->number,
                      "expected 'certificate farkas|separation|implicit'");
}

static hs_code read_cert_line(void *user, text_line *ln, hs_error *err)
{
    cert_reader *cr = user;
    const char *w = ln->tok[0];
    hs_status status;
    if (!cr->have_status) {
        if (!parse_status(w, &status) || ln->ntok != 1)
            return err_at(err, cr->file, ln->number,
                              "the first line must be a status (feasible, infeasible, disjoint, "
                              "touching, overlap, intersect), not '%s'", w);
        cr->have_status = 1;
        cr->r->status = status;
        return HS_OK;
    }
    hs_code rc;
    int which;
    if (strcmp(w, "point") == 0) {
        if ((rc = read_vector(cr, ln, 1, err)) != HS_OK)
            return rc;
        result_set_point_q(cr->r, cr->vec);
        return HS_OK;
    }
    if (strcmp(w, "certificate") == 0)
        return read_kind(cr, ln, err);
    if (strcmp(w, "multiplier") == 0)
        return read_multiplier(cr, ln, err);
    if (strcmp(w, "strict") == 0) {
        if (ln->ntok < 2 || !parse_which(ln->tok[1], &which))
            return err_at(err, cr->file, ln->number, "expected 'strict A|B coordinates'");
        if ((rc = read_vector(cr, ln, 2, err)) != HS_OK)
            return rc;
        result_set_strict(cr->r, which, cr->vec);
        return HS_OK;
    }
    return err_at(err, cr->file, ln->number, "unknown certificate line '%s'", w);
}

hs_result *hs_result_parse(const char *text, const char *name, int n, hs_error *err)
{
    if (!text || n < 1) {
        err_set(err, HS_ERR_ARG, "hs_result_parse: bad arguments");
        return NULL;
    }
    if (result_text_is_json(text)) /* the --json form (result_json.c) */
        return result_parse_json(text, name, n, err);
    cert_reader cr;
    memset(&cr, 0, sizeof cr);
    cr.file = name ? name : "<certificate>";
    cr.n = n;
    cr.r = hs_result_new();
    cr.vec = mem_alloc_gmp((size_t)n, sizeof(mpq_t));
    if (!cr.r || !cr.vec || result_reset(cr.r, HS_FEASIBLE, n) != 0) {
        hs_result_free(cr.r);
        free(cr.vec);
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (int j = 0; j < n; j++)
        mpq_init(cr.vec[j]);
    mpq_init(cr.v);
    int last = 0;
    hs_code rc = text_for_each_line(text, cr.file, read_cert_line, &cr, &last, err);
    if (rc == HS_OK && !cr.have_status)
        rc = err_at(err, cr.file, last, "empty certificate: no status line");
    for (int j = 0; j < n; j++)
        mpq_clear(cr.vec[j]);
    free(cr.vec);
    mpq_clear(cr.v);
    if (rc != HS_OK) {
        hs_result_free(cr.r);
        return NULL;
    }
    return cr.r;
}

hs_result *hs_result_read(const char *path, int n, hs_error *err)
{
    char *text = text_read_file(path, err);
    if (!text)
        return NULL;
    hs_result *r = hs_result_parse(text, path, n, err);
    free(text);
    return r;
}
