/* text_lines.c -- line and token splitting for the text readers. */
#include "polytope/text_lines.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"

void text_reader_init(text_reader *rd, const char *text)
{
    memset(rd, 0, sizeof *rd);
    rd->text = text;
    rd->pos = text;
    /* skip a UTF-8 byte order mark */
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        rd->pos += 3;
}

void text_reader_free(text_reader *rd)
{
    free(rd->buf);
    free(rd->toks);
    rd->buf = NULL;
    rd->toks = NULL;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int push_token(text_reader *rd, char *t, int ntok)
{
    if (ntok == rd->tokcap) {
        int cap = rd->tokcap ? rd->tokcap * 2 : 16;
        char **nt = mem_realloc(rd->toks, (size_t)cap, sizeof *nt);
        if (!nt)
            return -1;
        rd->toks = nt;
        rd->tokcap = cap;
    }
    rd->toks[ntok] = t;
    return 0;
}

int text_reader_next(text_reader *rd, text_line *ln)
{
    if (rd->failed || *rd->pos == '\0')
        return 0;
    const char *end = strchr(rd->pos, '\n');
    size_t len = end ? (size_t)(end - rd->pos) : strlen(rd->pos);
    if (len + 1 > rd->bufcap) {
        char *nb = realloc(rd->buf, len + 1);
        if (!nb) {
            rd->failed = 1;
            return 0;
        }
        rd->buf = nb;
        rd->bufcap = len + 1;
    }
    memcpy(rd->buf, rd->pos, len);
    rd->buf[len] = '\0';
    rd->pos = end ? end + 1 : rd->pos + len;
    rd->line++;
    ln->number = rd->line;
    ln->bad_byte = 0;
    int ntok = 0;
    char *s = rd->buf;
    while (*s) {
        while (is_space(*s))
            s++;
        if (!*s)
            break;
        char *t = s;
        while (*s && !is_space(*s)) {
            if ((unsigned char)*s < 0x20)
                ln->bad_byte = 1;
            s++;
        }
        if (*s)
            *s++ = '\0';
        if (push_token(rd, t, ntok) != 0) {
            rd->failed = 1;
            return 0;
        }
        ntok++;
    }
    ln->ntok = ntok;
    ln->tok = rd->toks;
    return 1;
}

hs_code text_for_each_line(const char *text, const char *file, text_line_fn fn, void *user,
                           int *last_line, hs_error *err)
{
    text_reader rd;
    text_reader_init(&rd, text);
    text_line ln;
    hs_code rc = HS_OK;
    int last = 0;
    while (rc == HS_OK && text_reader_next(&rd, &ln)) {
        last = ln.number;
        if (ln.bad_byte)
            rc = err_at(err, file, ln.number, "unexpected control byte in text");
        else if (ln.ntok > 0 && ln.tok[0][0] != '*' && ln.tok[0][0] != '#')
            rc = fn(user, &ln, err);
    }
    if (rc == HS_OK && rd.failed)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    text_reader_free(&rd);
    if (last_line)
        *last_line = last;
    return rc;
}

char *text_read_file(const char *path, hs_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        err_set(err, HS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    int read_error = ferror(f);
    fclose(f);
    if (!buf) {
        err_set(err, HS_ERR_NOMEM, "%s: out of memory", path);
        return NULL;
    }
    if (read_error) {
        free(buf);
        err_set(err, HS_ERR_IO, "%s: read error", path);
        return NULL;
    }
    for (size_t i = 0; i < len; i++)
        if (buf[i] == '\0')
            buf[i] = '\x01';
    buf[len] = '\0';
    return buf;
}
