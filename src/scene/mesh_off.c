/* mesh_off.c -- the OFF mesh format: an "OFF" line (the counts may follow
 * on it), the counts "points faces edges", the points (x y z, one a
 * line), then the faces ("n i1 .. in", 0-based indices, optionally
 * followed by a colour of 3 or 4 numbers).  '#' starts a comment.  Only
 * plain OFF: COFF, NOFF, STOFF ... are refused. */
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "src/scene/mesh.h"

typedef struct off_reader {
    const char *file;
    long nv, nf;
    int first_face; /* line of the first face (for errors about the whole mesh) */
    scene_soup soup;
} off_reader;

/* Out of memory while reading line `line`: the input is too large. */
static hs_code off_nomem(const off_reader *r, int line, hs_error *err)
{
    return err_set(err, HS_ERR_NOMEM, "%s:%d: out of memory (the input is too large)", r->file,
                   line);
}

static hs_code off_counts(off_reader *r, text_line *ln, int first, hs_error *err)
{
    long ne;
    if (ln->ntok - first != 3 || !mesh_parse_int32(ln->tok[first], &r->nv) ||
        !mesh_parse_int32(ln->tok[first + 1], &r->nf) || !mesh_parse_int32(ln->tok[first + 2], &ne))
        return err_at(err, r->file, ln->number,
                      "expected the counts 'points faces edges' (three integers)");
    if (r->nv < 3 || r->nf < 1 || ne < 0)
        return err_at(err, r->file, ln->number,
                      "an OFF mesh needs at least 3 points and 1 face (counts %ld %ld %ld)",
                      r->nv, r->nf, ne);
    return HS_OK;
}

static hs_code off_header(off_reader *r, text_line *ln, int *have_counts, hs_error *err)
{
    const char *t = ln->tok[0];
    if (strcmp(t, "OFF") != 0) {
        size_t n = strlen(t);
        if (n > 3 && strcmp(t + n - 3, "OFF") == 0)
            return err_at(err, r->file, ln->number,
                          "'%s' files are not supported (plain OFF only)", t);
        return err_at(err, r->file, ln->number, "missing 'OFF' header (found '%s')", t);
    }
    *have_counts = ln->ntok > 1;
    return *have_counts ? off_counts(r, ln, 1, err) : HS_OK;
}

static hs_code off_vertex(off_reader *r, text_line *ln, hs_error *err)
{
    double p[3];
    if (ln->ntok != 3)
        return err_at(err, r->file, ln->number, "point %d: expected 3 coordinates, found %d",
                      r->soup.npts + 1, ln->ntok);
    for (int d = 0; d < 3; d++)
        if (!mesh_parse_real(ln->tok[d], &p[d]))
            return err_at(err, r->file, ln->number, "bad number '%s'", ln->tok[d]);
    return soup_point(&r->soup, p) == 0 ? HS_OK : off_nomem(r, ln->number, err);
}

/* "n i1 .. in", optionally followed by a colour of 3 or 4 numbers. */
static hs_code off_face(off_reader *r, text_line *ln, hs_error *err)
{
    long n, idx;
    double colour;
    if (!mesh_parse_int32(ln->tok[0], &n) || n < 3)
        return err_at(err, r->file, ln->number,
                      "a face starts with its number of corners (at least 3), found '%s'",
                      ln->tok[0]);
    long extra = ln->ntok - 1 - n;
    if (extra != 0 && extra != 3 && extra != 4)
        return err_at(err, r->file, ln->number,
                      "face of %ld corners: expected %ld indices (and maybe a colour), "
                      "found %d numbers", n, n, ln->ntok - 1);
    for (long k = 1; k <= n; k++) {
        if (!mesh_parse_int32(ln->tok[k], &idx) || idx < 0 || idx >= r->nv)
            return err_at(err, r->file, ln->number,
                          "corner '%s' is not a point index (0 to %ld)", ln->tok[k],
                          r->nv - 1);
        if (soup_corner(&r->soup, (int)idx) != 0)
            return off_nomem(r, ln->number, err);
    }
    for (long k = n + 1; k < ln->ntok; k++)
        if (!mesh_parse_real(ln->tok[k], &colour))
            return err_at(err, r->file, ln->number, "bad colour value '%s'", ln->tok[k]);
    return soup_end_face(&r->soup) == 0 ? HS_OK : off_nomem(r, ln->number, err);
}

static hs_code off_lines(off_reader *r, text_reader *rd, int *last, hs_error *err)
{
    text_line ln;
    hs_code rc = HS_OK;
    int have_counts = 0, header = 0;
    while (rc == HS_OK && mesh_next_line(rd, &ln, r->file, err, &rc)) {
        *last = ln.number;
        if (!header) {
            header = 1;
            rc = off_header(r, &ln, &have_counts, err);
        } else if (!have_counts) {
            have_counts = 1;
            rc = off_counts(r, &ln, 0, err);
        } else if (r->soup.npts < r->nv)
            rc = off_vertex(r, &ln, err);
        else if (r->soup.nfaces < r->nf) {
            r->first_face = r->first_face ? r->first_face : ln.number;
            rc = off_face(r, &ln, err);
        }
        else
            rc = err_at(err, r->file, ln.number, "unexpected text after the last face");
    }
    if (rc == HS_OK && !header)
        rc = err_at(err, r->file, *last, "empty file (missing 'OFF' header)");
    else if (rc == HS_OK && (!have_counts || r->soup.nfaces < r->nf))
        rc = err_at(err, r->file, *last, "file ends early: %d of %ld points, %d of %ld faces",
                    r->soup.npts, r->nv, r->soup.nfaces, r->nf);
    return rc;
}

hs_code mesh_parse_off(const char *text, const char *path, scene_soup *s, int *line,
                       hs_error *err)
{
    off_reader r = {path, 0, 0, 0, {0}};
    text_reader rd;
    text_reader_init(&rd, text);
    int last = 1;
    hs_code rc = off_lines(&r, &rd, &last, err);
    text_reader_free(&rd);
    *s = r.soup;
    *line = r.first_face;
    return rc;
}

hs_code mesh_read_off(const char *path, size_t max_bytes, scene_soup *s, int *line,
                      hs_error *err)
{
    soup_init(s);
    char *text = text_read_file_max(path, max_bytes, 0, NULL, err);
    if (!text)
        return err ? err->code : HS_ERR_IO;
    hs_code rc = mesh_parse_off(text, path, s, line, err);
    free(text);
    return rc;
}
