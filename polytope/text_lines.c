/* text_lines.c -- line and token splitting for the text readers. */
#include "polytope/text_lines.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
        rc = err_set(err, HS_ERR_NOMEM, "%s:%d: out of memory (a line too long)", file,
                     rd.line + 1);
    text_reader_free(&rd);
    if (last_line)
        *last_line = last;
    return rc;
}

char *text_read_file_max(const char *path, size_t max_bytes, int keep_nul, size_t *len,
                         hs_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        err_set(err, HS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    size_t expect = 0; /* a regular file: its size, read in one piece */
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        if ((unsigned long long)st.st_size > (unsigned long long)max_bytes) {
            fclose(f);
            err_at(err, path, 0, "larger than the limit of %zu bytes (%llu bytes)", max_bytes,
                   (unsigned long long)st.st_size);
            return NULL;
        }
        expect = (size_t)st.st_size;
    }
    /* The buffer holds the bytes and a NUL, and has room for one byte
     * past the limit, to see that the file exceeds it. */
    size_t most = max_bytes < SIZE_MAX - 2 ? max_bytes + 2 : SIZE_MAX;
    size_t cap = expect ? expect + 2 : (size_t)1 << 16, n = 0;
    if (cap > most)
        cap = most;
    char *buf = malloc(cap);
    int nomem = !buf, too_big = 0;
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n > max_bytes) {
            too_big = 1;
            break;
        }
        if (got == 0 || feof(f) || ferror(f))
            break;
        if (n + 1 == cap) { /* full: double, up to the limit */
            size_t c = cap > most / 2 ? most : 2 * cap;
            char *nb = realloc(buf, c);
            if (!nb) {
                nomem = 1;
                break;
            }
            buf = nb;
            cap = c;
        }
    }
    int read_error = ferror(f);
    fclose(f);
    if (nomem || too_big || read_error) {
        free(buf);
        if (nomem)
            err_set(err, HS_ERR_NOMEM, "%s: out of memory reading %zu bytes", path, n);
        else if (too_big)
            err_at(err, path, 0, "larger than the limit of %zu bytes", max_bytes);
        else
            err_set(err, HS_ERR_IO, "%s: read error", path);
        return NULL;
    }
    if (!keep_nul)
        for (size_t i = 0; i < n; i++)
            if (buf[i] == '\0')
                buf[i] = '\x01';
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

char *text_read_file(const char *path, hs_error *err)
{
    return text_read_file_max(path, TEXT_MAX_FILE_BYTES, 0, NULL, err);
}
