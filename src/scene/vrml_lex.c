/* vrml_lex.c -- the VRML 2.0 lexer: text into tokens (names, numbers,
 * strings, braces, brackets and '.'), and the header line.  Comments run
 * from '#' to the end of the line and may hold any bytes, as strings may;
 * elsewhere a control byte is an error.  Commas are white space. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/grow.h"
#include "src/scene/vrml.h"

typedef struct lexer {
    const char *p;
    int line;
    const char *file;
    mem_arena *ar;
    token *tok;
    int ntok, cap;
    hs_error *err;
} lexer;

static token *lx_push(lexer *lx, tok_kind kind, int line)
{
    token *tok = grow_array(lx->tok, &lx->cap, (long)lx->ntok + 1, sizeof *tok);
    if (!tok)
        return NULL;
    lx->tok = tok;
    token *t = &lx->tok[lx->ntok++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->line = line;
    return t;
}

static hs_code lx_nomem(lexer *lx)
{
    return err_set(lx->err, HS_ERR_NOMEM, "%s:%d: out of memory (the input is too large)",
                   lx->file, lx->line);
}

static int lx_space(char c) { return c == ' ' || c == '\t' || c == ','; }

/* Step over a line break ("\n", "\r\n" or a lone "\r"). */
static void lx_newline(lexer *lx)
{
    if (lx->p[0] == '\r' && lx->p[1] == '\n')
        lx->p++;
    lx->p++;
    lx->line++;
}

/* Skip white space, commas and comments (any bytes up to the line end). */
static void lx_skip(lexer *lx)
{
    for (;;) {
        char c = *lx->p;
        if (c == '\n' || c == '\r')
            lx_newline(lx);
        else if (lx_space(c))
            lx->p++;
        else if (c == '#')
            lx->p += strcspn(lx->p, "\r\n");
        else
            return;
    }
}

/* Characters that end a number or an identifier. */
static int lx_delim(char c)
{
    return c == '\0' || c == '\n' || c == '\r' || lx_space(c) || strchr("[]{}#\"", c) != NULL;
}

static int id_first(unsigned char c)
{
    return c >= 0x80 || (c > 0x20 && c != 0x7f && !strchr("\"#',.[\\]{}+-0123456789", c));
}

static int id_rest(unsigned char c)
{
    return c >= 0x80 || (c > 0x20 && c != 0x7f && !strchr("\"#',.[\\]{}", c));
}

/* A string: backslash keeps the next byte as it is; any other byte,
 * line breaks included, is taken literally. */
static hs_code lx_string(lexer *lx)
{
    int line = lx->line;
    const char *s = ++lx->p, *q = s;
    while (*q && *q != '"')
        q += q[0] == '\\' && q[1] ? 2 : 1;
    if (!*q)
        return err_at(lx->err, lx->file, line, "unterminated string");
    token *t = lx_push(lx, T_STR, line);
    char *out = mem_arena_alloc(lx->ar, (size_t)(q - s) + 1);
    if (!t || !out)
        return lx_nomem(lx);
    size_t n = 0;
    for (const char *c = s; c < q; c++) {
        if (*c == '\\')
            c++;
        if (*c == '\n' || (*c == '\r' && c[1] != '\n'))
            lx->line++;
        out[n++] = *c;
    }
    t->text = out;
    lx->p = q + 1;
    return HS_OK;
}

/* Length of the number starting at s (0 when malformed); sets *is_int. */
static size_t number_length(const char *s, int *is_int)
{
    const char *q = s;
    int digits = 0;
    *is_int = 1;
    if (*q == '+' || *q == '-')
        q++;
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
        for (q += 2; isxdigit((unsigned char)*q); q++)
            digits++;
        return digits ? (size_t)(q - s) : 0;
    }
    for (; isdigit((unsigned char)*q); q++)
        digits++;
    if (*q == '.')
        for (*is_int = 0, q++; isdigit((unsigned char)*q); q++)
            digits++;
    if (digits && (*q == 'e' || *q == 'E')) {
        int exp_digits = 0;
        *is_int = 0;
        q += q[1] == '+' || q[1] == '-' ? 2 : 1;
        for (; isdigit((unsigned char)*q); q++)
            exp_digits++;
        digits = exp_digits ? digits : 0;
    }
    return digits ? (size_t)(q - s) : 0;
}

/* Value of a number of length n: decimal (nearest double) or hexadecimal
 * (an integer up to 0xFFFFFFFF, as SFImage pixels use). */
static int number_value(const char *s, size_t n, double *v)
{
    char buf[512];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    const char *h = buf + (buf[0] == '+' || buf[0] == '-');
    if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) {
        unsigned long long u = strtoull(h + 2, NULL, 16);
        if (strlen(h + 2) > 8 || u > 0xFFFFFFFFull)
            return 0;
        *v = buf[0] == '-' ? -(double)u : (double)u;
        return 1;
    }
    *v = strtod(buf, NULL);
    return isfinite(*v);
}

static hs_code lx_number(lexer *lx)
{
    int is_int;
    size_t n = number_length(lx->p, &is_int);
    if (n == 0 || !lx_delim(lx->p[n])) {
        size_t bad = 0;
        while (!lx_delim(lx->p[bad]))
            bad++;
        return err_at(lx->err, lx->file, lx->line, "bad number '%.*s'",
                      (int)(bad > 60 ? 60 : bad), lx->p);
    }
    token *t = lx_push(lx, T_NUM, lx->line);
    if (!t)
        return lx_nomem(lx);
    if (!number_value(lx->p, n, &t->num))
        return err_at(lx->err, lx->file, lx->line, "number '%.*s' is out of range",
                      (int)(n > 60 ? 60 : n), lx->p);
    t->is_int = is_int;
    lx->p += n;
    return HS_OK;
}

static hs_code lx_ident(lexer *lx)
{
    size_t n = 1;
    while (id_rest((unsigned char)lx->p[n]))
        n++;
    token *t = lx_push(lx, T_ID, lx->line);
    if (!t || !(t->text = mem_arena_strdup(lx->ar, lx->p, n)))
        return lx_nomem(lx);
    lx->p += n;
    return HS_OK;
}

static int starts_number(const char *p)
{
    if (p[0] == '+' || p[0] == '-')
        p++;
    return isdigit((unsigned char)p[0]) || (p[0] == '.' && isdigit((unsigned char)p[1]));
}

static hs_code lx_punct(lexer *lx, char c)
{
    static const char chars[] = "{}[].";
    static const tok_kind kinds[] = {T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_DOT};
    if (!lx_push(lx, kinds[strchr(chars, c) - chars], lx->line))
        return lx_nomem(lx);
    lx->p++;
    return HS_OK;
}

static hs_code lx_token(lexer *lx)
{
    unsigned char c = (unsigned char)*lx->p;
    if (c == '"')
        return lx_string(lx);
    if (starts_number(lx->p))
        return lx_number(lx);
    if (strchr("{}[].", c))
        return lx_punct(lx, (char)c);
    if (id_first(c))
        return lx_ident(lx);
    if (isprint(c))
        return err_at(lx->err, lx->file, lx->line, "unexpected character '%c'", c);
    return err_at(lx->err, lx->file, lx->line, "unexpected byte 0x%02x", c);
}

/* All tokens of text, ending with T_END. */
hs_code vrml_lex(const char *text, const char *file, mem_arena *ar, token **out, hs_error *err)
{
    lexer lx = {text, 1, file, ar, NULL, 0, 0, err};
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        lx.p += 3; /* UTF-8 byte order mark */
    hs_code rc = HS_OK;
    for (lx_skip(&lx); rc == HS_OK && *lx.p; lx_skip(&lx))
        rc = lx_token(&lx);
    if (rc == HS_OK && !lx_push(&lx, T_END, lx.line))
        rc = lx_nomem(&lx);
    if (rc != HS_OK) {
        free(lx.tok);
        return rc;
    }
    *out = lx.tok;
    return HS_OK;
}

/* The "#VRML V2.0 utf8" line: required, or (Inline) optional. */
hs_code vrml_check_header(const char *text, const char *file, int required, hs_error *err)
{
    static const char want[] = "#VRML V2.0 utf8";
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        text += 3;
    size_t n = sizeof want - 1;
    if (strncmp(text, want, n) == 0 && (text[n] == '\0' || isspace((unsigned char)text[n])))
        return HS_OK;
    if (strncmp(text, "#VRML", 5) == 0)
        return err_at(err, file, 1, "unsupported header '%.*s' (need '%s')",
                      (int)strcspn(text, "\r\n") > 40 ? 40 : (int)strcspn(text, "\r\n"),
                      text, want);
    if (required)
        return err_at(err, file, 1, "missing header '%s' on the first line", want);
    return HS_OK;
}
