/* mesh_stl.c -- the STL mesh format, binary (an 80-byte header, a
 * little-endian count, then 50 bytes a triangle: normal, 3 corners as
 * floats, 2 attribute bytes) or ASCII ("solid NAME", facets "facet normal
 * n n n outer loop vertex x y z ... endloop endfacet", "endsolid", possibly
 * several solids).  Binary STL has no lines: its errors read
 * "FILE: triangle K: what is wrong". */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "src/scene/mesh.h"

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static double le_float(const unsigned char *p)
{
    uint32_t u = le32(p);
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static hs_code stl_binary(const unsigned char *buf, uint32_t count, scene_soup *s,
                          const char *file, hs_error *err)
{
    if (count == 0)
        return err_at(err, file, 0, "binary STL without triangles");
    for (uint32_t t = 0; t < count; t++) {
        const unsigned char *rec = buf + 84 + 50 * (size_t)t + 12; /* after the normal */
        for (int v = 0; v < 3; v++) {
            double p[3];
            for (int d = 0; d < 3; d++)
                if (!isfinite(p[d] = le_float(rec + 12 * v + 4 * d)))
                    return err_at(err, file, 0, "triangle %lu: coordinate is not finite",
                                  (unsigned long)t + 1);
            if (soup_point(s, p) != 0 || soup_corner(s, s->npts - 1) != 0)
                return err_set(err, HS_ERR_NOMEM, "%s: triangle %lu: out of memory (the input "
                               "is too large)", file, (unsigned long)t + 1);
        }
        if (soup_end_face(s) != 0)
            return err_set(err, HS_ERR_NOMEM, "%s: triangle %lu: out of memory (the input is "
                           "too large)", file, (unsigned long)t + 1);
    }
    return HS_OK;
}

/* Tokens of an ASCII STL, line by line. */
typedef struct stl_text {
    const char *file;
    text_reader rd;
    text_line ln;
    int k, have, last;
    int first_facet; /* line of the first facet */
    hs_code rc;
    hs_error *err;
} stl_text;

/* Out of memory at the current line: the input is too large. */
static hs_code stl_nomem(const stl_text *t)
{
    return err_set(t->err, HS_ERR_NOMEM, "%s:%d: out of memory (the input is too large)",
                   t->file, t->last);
}

static const char *stl_next(stl_text *t)
{
    while (!t->have || t->k >= t->ln.ntok) {
        if (!mesh_next_line(&t->rd, &t->ln, t->file, t->err, &t->rc))
            return NULL;
        t->have = 1;
        t->k = 0;
        t->last = t->ln.number;
    }
    return t->ln.tok[t->k++];
}

static void stl_skip_line(stl_text *t) { t->k = t->have ? t->ln.ntok : 0; }

static hs_code stl_expect(stl_text *t, const char *word)
{
    const char *tok = stl_next(t);
    if (t->rc != HS_OK)
        return t->rc;
    if (!tok)
        return err_at(t->err, t->file, t->last, "file ends early: expected '%s'", word);
    if (strcmp(tok, word) != 0)
        return err_at(t->err, t->file, t->last, "expected '%s', found '%s'", word, tok);
    return HS_OK;
}

static hs_code stl_numbers(stl_text *t, double x[3])
{
    for (int d = 0; d < 3; d++) {
        const char *tok = stl_next(t);
        if (t->rc != HS_OK)
            return t->rc;
        if (!tok)
            return err_at(t->err, t->file, t->last, "file ends early: expected a number");
        if (!mesh_parse_real(tok, &x[d]))
            return err_at(t->err, t->file, t->last, "bad number '%s'", tok);
    }
    return HS_OK;
}

/* "facet normal n n n outer loop (vertex x y z){3,} endloop endfacet";
 * loops of more than 3 corners are taken as polygons. */
static hs_code stl_facet(stl_text *t, scene_soup *s)
{
    double x[3];
    hs_code rc = stl_expect(t, "normal");
    if (rc == HS_OK)
        rc = stl_numbers(t, x);
    if (rc == HS_OK)
        rc = stl_expect(t, "outer");
    if (rc == HS_OK)
        rc = stl_expect(t, "loop");
    int corners = 0;
    const char *tok = NULL;
    while (rc == HS_OK && (tok = stl_next(t)) && strcmp(tok, "vertex") == 0) {
        corners++;
        if ((rc = stl_numbers(t, x)) == HS_OK &&
            (soup_point(s, x) != 0 || soup_corner(s, s->npts - 1) != 0))
            rc = stl_nomem(t);
    }
    if (rc == HS_OK && (rc = t->rc) == HS_OK && (!tok || strcmp(tok, "endloop") != 0))
        rc = err_at(t->err, t->file, t->last, "expected 'vertex' or 'endloop', found %s%s%s",
                    tok ? "'" : "", tok ? tok : "the end of the file", tok ? "'" : "");
    if (rc == HS_OK && corners < 3)
        rc = err_at(t->err, t->file, t->last, "a facet needs 3 vertices, found %d", corners);
    if (rc == HS_OK)
        rc = stl_expect(t, "endfacet");
    if (rc == HS_OK && soup_end_face(s) != 0)
        rc = stl_nomem(t);
    return rc;
}

/* solid NAME facet* endsolid [NAME], possibly several solids. */
static hs_code stl_solids(stl_text *t, scene_soup *s)
{
    hs_code rc = stl_expect(t, "solid");
    int open = 1;
    stl_skip_line(t); /* the name after "solid" */
    while (rc == HS_OK) {
        const char *tok = stl_next(t);
        if ((rc = t->rc) != HS_OK || !tok)
            break;
        if (open && strcmp(tok, "facet") == 0) {
            t->first_facet = t->first_facet ? t->first_facet : t->last;
            rc = stl_facet(t, s);
        }
        else if (open && strcmp(tok, "endsolid") == 0) {
            open = 0;
            stl_skip_line(t);
        } else if (!open && strcmp(tok, "solid") == 0) {
            open = 1;
            stl_skip_line(t);
        } else
            rc = err_at(t->err, t->file, t->last, "expected '%s', found '%s'",
                        open ? "facet' or 'endsolid" : "solid' or the end of the file", tok);
    }
    if (rc == HS_OK && open)
        rc = err_at(t->err, t->file, t->last, "file ends inside a solid (missing 'endsolid')");
    if (rc == HS_OK && s->nfaces == 0)
        rc = err_at(t->err, t->file, t->last, "ASCII STL without facets");
    return rc;
}

static hs_code stl_ascii(unsigned char *buf, size_t len, scene_soup *s, const char *file,
                         int *line, hs_error *err)
{
    for (size_t i = 0; i < len; i++)
        if (buf[i] == 0)
            buf[i] = 1; /* reported as a control byte */
    stl_text t;
    memset(&t, 0, sizeof t);
    t.file = file;
    t.err = err;
    t.last = 1;
    text_reader_init(&t.rd, (const char *)buf);
    hs_code rc = stl_solids(&t, s);
    *line = t.first_facet;
    text_reader_free(&t.rd);
    return rc;
}

/* ASCII when the file starts with "solid" and the first word of the next
 * line is "facet" or "endsolid" (binary headers may start with "solid"). */
static int looks_ascii(const unsigned char *buf, size_t len)
{
    size_t i = strspn((const char *)buf, " \t\r\n");
    if (len - i < 5 || memcmp(buf + i, "solid", 5) != 0)
        return 0;
    const char *nl = memchr(buf + i, '\n', len - i);
    if (!nl)
        return 0;
    nl += strspn(nl, " \t\r\n");
    return strncmp(nl, "facet", 5) == 0 || strncmp(nl, "endsolid", 8) == 0;
}

static hs_code stl_read(unsigned char *buf, size_t len, scene_soup *s, const char *file,
                        int *line, hs_error *err)
{
    if (looks_ascii(buf, len))
        return stl_ascii(buf, len, s, file, line, err);
    uint32_t count = len >= 84 ? le32(buf + 80) : 0;
    if (len >= 84 && len == 84 + 50 * (size_t)count)
        return stl_binary(buf, count, s, file, err);
    const char *why = len >= 5 && memcmp(buf, "solid", 5) == 0
                          ? "not an ASCII STL (no 'facet' after the 'solid' line) nor a "
                            "binary STL: "
                          : "";
    if (len < 84)
        return err_at(err, file, 0, "%sbinary STL truncated: %zu bytes, the header and "
                      "count alone take 84", why, len);
    return err_at(err, file, 0, "%sbinary STL of %lu triangles must have %zu bytes, the "
                  "file has %zu", why, (unsigned long)count, 84 + 50 * (size_t)count, len);
}

hs_code mesh_parse_stl(unsigned char *buf, size_t len, const char *path, scene_soup *s,
                       int *line, hs_error *err)
{
    soup_init(s);
    *line = 0; /* binary STL: no lines */
    return stl_read(buf, len, s, path, line, err);
}

hs_code mesh_read_stl(const char *path, size_t max_bytes, scene_soup *s, int *line,
                      hs_error *err)
{
    soup_init(s);
    *line = 0;
    size_t len = 0;
    unsigned char *buf = (unsigned char *)text_read_file_max(path, max_bytes, 1, &len, err);
    if (!buf)
        return err ? err->code : HS_ERR_IO;
    hs_code rc = mesh_parse_stl(buf, len, path, s, line, err);
    free(buf);
    return rc;
}
