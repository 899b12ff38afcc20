/* result_json.c -- read back the JSON form written by hs_result_write_json
 * (`halfspace feasible|intersect --json`), so that `verify` takes either
 * form:
 *   {"status":"touching","engine":"fast","dimension":3,
 *    "point":["0","0","2"] | null,
 *    "certificate":null | {"kind":"farkas|separation|implicit",
 *        "multipliers":[{"polytope":"A","row":2,"value":"1/4"}, ...],
 *        "strict":{"polytope":"A","point":["-1","0","0"]}}}
 * Numbers are exact strings ("1/4", "-0.5", "3") or JSON numbers (read
 * exactly as written); rows are 1-based.  Keys may come in any order;
 * "engine" is informative and unknown keys are errors.  The text is
 * parsed into a small tree first (bounded nesting), then read; errors
 * name FILE:LINE. */
#include "solver/result_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "polytope/rational.h"
#include "solver/result.h"

/* Nesting deeper than this is not a certificate. */
#define JSON_MAX_DEPTH 16

typedef enum jtype { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } jtype;

typedef struct jval jval;
struct jval {
    jtype type;
    int line;
    char *text;   /* J_STRING: the decoded string; J_NUMBER: the token */
    int count;    /* J_ARRAY, J_OBJECT: entries */
    char **keys;  /* J_OBJECT */
    jval **items; /* J_ARRAY, J_OBJECT */
};

typedef struct jparser {
    const char *s, *file;
    int line;
    hs_error *err;
    int failed;
} jparser;

static void rj_free(jval *v)
{
    if (!v)
        return;
    for (int i = 0; i < v->count; i++) {
        if (v->keys)
            free(v->keys[i]);
        rj_free(v->items[i]);
    }
    free(v->keys);
    free(v->items);
    free(v->text);
    free(v);
}

static jval *rj_fail(jparser *p, const char *what)
{
    if (!p->failed)
        err_at(p->err, p->file, p->line, "%s", what);
    p->failed = 1;
    return NULL;
}

static void rj_skip_space(jparser *p)
{
    for (;; p->s++) {
        if (*p->s == '\n')
            p->line++;
        else if (*p->s != ' ' && *p->s != '\t' && *p->s != '\r')
            return;
    }
}

static jval *rj_new(jparser *p, jtype t)
{
    jval *v = mem_calloc(1, sizeof *v);
    if (!v) {
        if (!p->failed)
            err_set(p->err, HS_ERR_NOMEM, "out of memory");
        p->failed = 1;
        return NULL;
    }
    v->type = t;
    v->line = p->line;
    return v;
}

/* A string's text after the opening quote, decoded (the escapes of JSON;
 * \u only for ASCII, which is all a certificate holds). */
static char *rj_read_string(jparser *p)
{
    size_t cap = 16, len = 0;
    char *out = malloc(cap);
    for (; out;) {
        char c = *p->s;
        if (c == '"') {
            p->s++;
            out[len] = '\0';
            return out;
        }
        if (c == '\0' || c == '\n' || (unsigned char)c < 0x20) {
            free(out);
            rj_fail(p, "unterminated string");
            return NULL;
        }
        p->s++;
        if (c == '\\') {
            char e = *p->s++;
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *at = strchr(from, e);
            if (e && at)
                c = to[at - from];
            else if (e == 'u' && strspn(p->s, "0123456789abcdefABCDEF") >= 4) {
                char hex[5] = {p->s[0], p->s[1], p->s[2], p->s[3], '\0'};
                long code = strtol(hex, NULL, 16);
                p->s += 4;
                if (code < 1 || code > 127) {
                    free(out);
                    rj_fail(p, "a \\u escape outside ASCII in a certificate");
                    return NULL;
                }
                c = (char)code;
            } else {
                free(out);
                rj_fail(p, "bad escape in a string");
                return NULL;
            }
        }
        if (len + 2 > cap) {
            char *bigger = realloc(out, cap *= 2);
            if (!bigger)
                break;
            out = bigger;
        }
        out[len++] = c;
    }
    free(out);
    if (!p->failed)
        err_set(p->err, HS_ERR_NOMEM, "out of memory");
    p->failed = 1;
    return NULL;
}

static jval *rj_parse_value(jparser *p, int depth);

/* Append item (and key) to the array or object v; 0 or -1. */
static int rj_append(jparser *p, jval *v, char *key, jval *item)
{
    jval **items = mem_realloc(v->items, (size_t)v->count + 1, sizeof *items);
    if (items)
        v->items = items;
    char **keys = v->type == J_OBJECT ? mem_realloc(v->keys, (size_t)v->count + 1, sizeof *keys)
                                      : NULL;
    if (keys)
        v->keys = keys;
    if (!items || (v->type == J_OBJECT && !keys)) {
        free(key);
        rj_free(item);
        if (!p->failed)
            err_set(p->err, HS_ERR_NOMEM, "out of memory");
        p->failed = 1;
        return -1;
    }
    if (keys)
        keys[v->count] = key;
    items[v->count++] = item;
    return 0;
}

/* The entries of an array or object after its opening bracket. */
static jval *rj_parse_container(jparser *p, jtype t, int depth)
{
    jval *v = rj_new(p, t);
    char close = t == J_ARRAY ? ']' : '}';
    rj_skip_space(p);
    if (v && *p->s == close) {
        p->s++;
        return v;
    }
    while (v) {
        char *key = NULL;
        rj_skip_space(p);
        if (t == J_OBJECT) {
            if (*p->s != '"' || (p->s++, !(key = rj_read_string(p)))) {
                rj_free(v);
                return rj_fail(p, "expected a key (a string)");
            }
            rj_skip_space(p);
            if (*p->s != ':') {
                free(key);
                rj_free(v);
                return rj_fail(p, "expected ':' after a key");
            }
            p->s++;
        }
        jval *item = rj_parse_value(p, depth + 1);
        if (!item || rj_append(p, v, key, item) != 0) {
            free(item ? NULL : key);
            rj_free(v);
            return NULL;
        }
        rj_skip_space(p);
        if (*p->s == ',') {
            p->s++;
            continue;
        }
        if (*p->s == close) {
            p->s++;
            return v;
        }
        rj_free(v);
        return rj_fail(p, t == J_ARRAY ? "expected ',' or ']'" : "expected ',' or '}'");
    }
    return NULL;
}

static jval *rj_parse_value(jparser *p, int depth)
{
    if (depth > JSON_MAX_DEPTH)
        return rj_fail(p, "nested too deeply for a certificate");
    rj_skip_space(p);
    char c = *p->s;
    if (c == '{' || c == '[') {
        p->s++;
        return rj_parse_container(p, c == '{' ? J_OBJECT : J_ARRAY, depth);
    }
    if (c == '"') {
        p->s++;
        jval *v = rj_new(p, J_STRING);
        if (v && !(v->text = rj_read_string(p))) {
            rj_free(v);
            return NULL;
        }
        return v;
    }
    static const char *const words[3] = {"null", "true", "false"};
    for (int k = 0; k < 3; k++)
        if (strncmp(p->s, words[k], strlen(words[k])) == 0) {
            p->s += strlen(words[k]);
            return rj_new(p, k ? J_BOOL : J_NULL);
        }
    size_t len = strspn(p->s, "+-0123456789.eE/");
    if (len == 0)
        return rj_fail(p, "expected a value");
    jval *v = rj_new(p, J_NUMBER);
    if (v && !(v->text = mem_alloc(len + 1, 1))) {
        rj_free(v);
        if (!p->failed)
            err_set(p->err, HS_ERR_NOMEM, "out of memory");
        p->failed = 1;
        return NULL;
    }
    if (v) {
        memcpy(v->text, p->s, len);
        v->text[len] = '\0';
    }
    p->s += len;
    return v;
}

/* ------------------------------------------------ the certificate */

typedef struct jreader {
    const char *file;
    int n;
    hs_result *r;
    mpq_t v;
    mpq_t *vec;
    hs_error *err;
} jreader;

static hs_code rj_bad(const jreader *jr, const jval *at, const char *what, const char *arg)
{
    return err_at(jr->err, jr->file, at->line, what, arg ? arg : "");
}

static const jval *rj_member(const jval *obj, const char *key)
{
    for (int i = 0; i < obj->count; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return obj->items[i];
    return NULL;
}

/* Every key of obj is one of the allowed ones, none twice. */
static hs_code rj_keys_allowed(const jreader *jr, const jval *obj, const char *const *allowed)
{
    for (int i = 0; i < obj->count; i++) {
        int known = 0;
        for (int k = 0; allowed[k]; k++)
            known |= strcmp(obj->keys[i], allowed[k]) == 0;
        if (!known)
            return rj_bad(jr, obj->items[i], "unknown key '%s'", obj->keys[i]);
        for (int j = 0; j < i; j++)
            if (strcmp(obj->keys[i], obj->keys[j]) == 0)
                return rj_bad(jr, obj->items[i], "key '%s' given twice", obj->keys[i]);
    }
    return HS_OK;
}

static hs_code rj_number(const jreader *jr, const jval *x, mpq_t out)
{
    const char *why = "";
    if (x->type != J_STRING && x->type != J_NUMBER)
        return rj_bad(jr, x, "expected a number (an exact string such as \"1/3\")%s", NULL);
    if (q_parse(out, x->text, &why) != 0)
        return err_at(jr->err, jr->file, x->line, "bad number '%s': %s", x->text, why);
    return HS_OK;
}

/* The array x (a member of parent, which gives the line when x is
 * missing) into jr->vec. */
static hs_code rj_vector(const jreader *jr, const jval *parent, const jval *x, const char *what)
{
    if (!x || x->type != J_ARRAY)
        return rj_bad(jr, x ? x : parent, "'%s' must be an array of numbers", what);
    if (x->count != jr->n) {
        char msg[96];
        snprintf(msg, sizeof msg, "'%s' has %d coordinates, expected %d", what, x->count,
                 jr->n);
        return rj_bad(jr, x, "%s", msg);
    }
    for (int j = 0; j < jr->n; j++) {
        hs_code rc = rj_number(jr, x->items[j], jr->vec[j]);
        if (rc != HS_OK)
            return rc;
    }
    return HS_OK;
}

static int rj_which(const jval *x, int *which)
{
    if (!x || x->type != J_STRING || (strcmp(x->text, "A") != 0 && strcmp(x->text, "B") != 0))
        return 0;
    *which = x->text[0] == 'B';
    return 1;
}

static hs_code rj_multiplier(jreader *jr, const jval *m)
{
    static const char *const keys[] = {"polytope", "row", "value", NULL};
    if (m->type != J_OBJECT)
        return rj_bad(jr, m, "a multiplier must be an object {\"polytope\", \"row\", \"value\"}%s",
                   NULL);
    hs_code rc = rj_keys_allowed(jr, m, keys);
    if (rc != HS_OK)
        return rc;
    const jval *w = rj_member(m, "polytope"), *row = rj_member(m, "row"), *v = rj_member(m, "value");
    int which;
    if (!rj_which(w, &which))
        return rj_bad(jr, m, "a multiplier's \"polytope\" must be \"A\" or \"B\"%s", NULL);
    if (!row || row->type != J_NUMBER || strspn(row->text, "0123456789") != strlen(row->text) ||
        strlen(row->text) > 9 || atol(row->text) < 1)
        return rj_bad(jr, m, "a multiplier's \"row\" must be a positive integer%s", NULL);
    if (!v)
        return rj_bad(jr, m, "a multiplier needs a \"value\"%s", NULL);
    if ((rc = rj_number(jr, v, jr->v)) != HS_OK)
        return rc;
    if (result_add_mult(jr->r, which, (int)atol(row->text) - 1, jr->v) != 0)
        return err_set(jr->err, HS_ERR_NOMEM, "out of memory");
    return HS_OK;
}

static hs_code rj_certificate(jreader *jr, const jval *c)
{
    static const char *const keys[] = {"kind", "multipliers", "strict", NULL};
    static const struct {
        const char *name;
        cert_kind kind;
    } kinds[] = {{"farkas", CERT_FARKAS}, {"separation", CERT_SEPARATION},
                 {"implicit", CERT_IMPLICIT}};
    if (c->type == J_NULL)
        return HS_OK;
    if (c->type != J_OBJECT)
        return rj_bad(jr, c, "\"certificate\" must be an object or null%s", NULL);
    hs_code rc = rj_keys_allowed(jr, c, keys);
    if (rc != HS_OK)
        return rc;
    const jval *kind = rj_member(c, "kind"), *mult = rj_member(c, "multipliers"),
               *strict = rj_member(c, "strict");
    int found = 0;
    for (size_t k = 0; kind && kind->type == J_STRING && k < 3; k++)
        if (strcmp(kind->text, kinds[k].name) == 0) {
            jr->r->kind = kinds[k].kind;
            found = 1;
        }
    if (!found)
        return rj_bad(jr, c, "\"kind\" must be \"farkas\", \"separation\" or \"implicit\"%s", NULL);
    if (!mult || mult->type != J_ARRAY)
        return rj_bad(jr, c, "\"multipliers\" must be an array%s", NULL);
    for (int k = 0; k < mult->count && rc == HS_OK; k++)
        rc = rj_multiplier(jr, mult->items[k]);
    if (rc != HS_OK || !strict || strict->type == J_NULL)
        return rc;
    static const char *const skeys[] = {"polytope", "point", NULL};
    int which;
    if (strict->type != J_OBJECT || (rc = rj_keys_allowed(jr, strict, skeys)) != HS_OK ||
        !rj_which(rj_member(strict, "polytope"), &which))
        return rc != HS_OK ? rc
                           : rj_bad(jr, strict, "\"strict\" must be {\"polytope\": \"A\"|\"B\", "
                                             "\"point\": [...]}%s", NULL);
    if ((rc = rj_vector(jr, strict, rj_member(strict, "point"), "strict point")) != HS_OK)
        return rc;
    result_set_strict(jr->r, which, jr->vec);
    return HS_OK;
}

static hs_code rj_top(jreader *jr, const jval *top)
{
    static const char *const keys[] = {"status", "engine", "dimension", "point", "certificate",
                                       NULL};
    if (top->type != J_OBJECT)
        return rj_bad(jr, top, "a JSON certificate is one object%s", NULL);
    hs_code rc = rj_keys_allowed(jr, top, keys);
    if (rc != HS_OK)
        return rc;
    const jval *st = rj_member(top, "status"), *dim = rj_member(top, "dimension"),
               *pt = rj_member(top, "point"), *cert = rj_member(top, "certificate");
    int ok = 0;
    for (int k = HS_INFEASIBLE; st && st->type == J_STRING && k <= HS_INTERSECT; k++)
        if (strcmp(st->text, hs_status_name((hs_status)k)) == 0) {
            jr->r->status = (hs_status)k;
            ok = 1;
        }
    if (!ok)
        return rj_bad(jr, st ? st : top,
                   "\"status\" must be feasible, infeasible, disjoint, touching, overlap or "
                   "intersect%s", NULL);
    if (dim && (dim->type != J_NUMBER || atol(dim->text) != jr->n ||
                strspn(dim->text, "0123456789") != strlen(dim->text))) {
        char msg[64];
        snprintf(msg, sizeof msg, "\"dimension\" must be %d (the polyhedra's)", jr->n);
        return rj_bad(jr, dim, "%s", msg);
    }
    if (pt && pt->type != J_NULL) {
        if ((rc = rj_vector(jr, top, pt, "point")) != HS_OK)
            return rc;
        result_set_point_q(jr->r, jr->vec);
    }
    return cert ? rj_certificate(jr, cert) : HS_OK;
}

int result_text_is_json(const char *text)
{
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        text++;
    return *text == '{';
}

hs_result *result_parse_json(const char *text, const char *name, int n, hs_error *err)
{
    hs_error local;
    if (!err)
        err = &local;
    jparser p = {text, name ? name : "<certificate>", 1, err, 0};
    jval *top = rj_parse_value(&p, 0);
    if (top) {
        rj_skip_space(&p);
        if (*p.s != '\0') {
            rj_free(top);
            top = rj_fail(&p, "text after the JSON object");
        }
    }
    if (!top)
        return NULL;
    jreader jr;
    memset(&jr, 0, sizeof jr);
    jr.file = p.file;
    jr.n = n;
    jr.err = err;
    jr.r = hs_result_new();
    jr.vec = mem_alloc((size_t)n, sizeof(mpq_t));
    hs_code rc = HS_OK;
    if (!jr.r || !jr.vec || result_reset(jr.r, HS_FEASIBLE, n) != 0) {
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    } else {
        for (int j = 0; j < n; j++)
            mpq_init(jr.vec[j]);
        mpq_init(jr.v);
        rc = rj_top(&jr, top);
        for (int j = 0; j < n; j++)
            mpq_clear(jr.vec[j]);
        mpq_clear(jr.v);
    }
    free(jr.vec);
    rj_free(top);
    if (rc != HS_OK) {
        hs_result_free(jr.r);
        return NULL;
    }
    return jr.r;
}
