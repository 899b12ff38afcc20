/* mesh_obj.c -- the Wavefront OBJ mesh format, geometry only: points
 * ("v x y z", "v x y z w" divided by w, or "v x y z r g b" with a colour)
 * and faces ("f" with corners v, v/vt, v//vn or v/vt/vn; indices from 1,
 * or from -1 counting back).  Normals, texture coordinates, groups,
 * smoothing and materials are ignored; any other statement is an error.
 * A leading line of two counts (points, faces), as in FCL's env.obj, is
 * checked against the file. */
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "src/scene/mesh.h"

typedef struct obj_reader {
    const char *file;
    scene_soup soup;
    long nfaces_seen;
    long count_v, count_f; /* the leading count line, if any */
    int count_line;
    int first_face;        /* line of the first face */
} obj_reader;

/* Out of memory while reading line `line`: the input is too large. */
static hs_code obj_nomem(const obj_reader *r, int line, hs_error *err)
{
    return err_set(err, HS_ERR_NOMEM, "%s:%d: out of memory (the input is too large)", r->file,
                   line);
}

/* "v x y z", "v x y z w" (divided by w) or "v x y z r g b" (colour). */
static hs_code obj_vertex(obj_reader *r, text_line *ln, hs_error *err)
{
    int n = ln->ntok - 1;
    double x[6];
    if (n != 3 && n != 4 && n != 6)
        return err_at(err, r->file, ln->number,
                      "'v' takes 3 coordinates (or x y z w, or x y z r g b), found %d", n);
    for (int k = 0; k < n; k++)
        if (!mesh_parse_real(ln->tok[k + 1], &x[k]))
            return err_at(err, r->file, ln->number, "bad number '%s'", ln->tok[k + 1]);
    if (n == 4) {
        if (x[3] == 0)
            return err_at(err, r->file, ln->number, "vertex weight w must not be 0");
        for (int d = 0; d < 3; d++)
            x[d] /= x[3];
    }
    return soup_point(&r->soup, x) == 0 ? HS_OK : obj_nomem(r, ln->number, err);
}

/* Corner text "v", "v/vt", "v//vn" or "v/vt/vn" well formed? */
static int obj_corner_form(const char *t)
{
    char buf[64];
    long x;
    int part = 0;
    for (const char *c = t;; part++) {
        size_t n = strcspn(c, "/");
        if (n >= sizeof buf || part > 2)
            return 0;
        memcpy(buf, c, n);
        buf[n] = '\0';
        if (n == 0 ? part != 1 || c[n] != '/' : !mesh_parse_int32(buf, &x))
            return 0;
        if (c[n] == '\0')
            return 1;
        c += n + 1;
    }
}

/* One face corner: its point index (0-based) is appended to the face. */
static hs_code obj_corner(obj_reader *r, const char *t, int line, hs_error *err)
{
    long v = 0;
    if (!obj_corner_form(t) || (v = strtol(t, NULL, 10)) == 0)
        return err_at(err, r->file, line, "bad face corner '%s' (expected v, v/vt, v//vn "
                      "or v/vt/vn; indices start at 1 or count back from -1)", t);
    long idx = v > 0 ? v - 1 : r->soup.npts + v;
    if (idx < 0 || idx >= r->soup.npts)
        return err_at(err, r->file, line, "face corner '%s' refers to a point not defined "
                      "yet (%d so far)", t, r->soup.npts);
    return soup_corner(&r->soup, (int)idx) == 0 ? HS_OK
                                                : obj_nomem(r, line, err);
}

static hs_code obj_face(obj_reader *r, text_line *ln, hs_error *err)
{
    if (ln->ntok < 4)
        return err_at(err, r->file, ln->number, "a face needs at least 3 corners, found %d",
                      ln->ntok - 1);
    for (int k = 1; k < ln->ntok; k++) {
        hs_code rc = obj_corner(r, ln->tok[k], ln->number, err);
        if (rc != HS_OK)
            return rc;
    }
    r->nfaces_seen++;
    return soup_end_face(&r->soup) == 0 ? HS_OK : obj_nomem(r, ln->number, err);
}

/* FCL's env.obj opens with "6540 2180": the numbers of points and faces. */
static int obj_count_line(obj_reader *r, text_line *ln)
{
    if (r->count_line || r->soup.npts > 0 || r->nfaces_seen > 0 || ln->ntok != 2 ||
        !mesh_parse_int32(ln->tok[0], &r->count_v) || !mesh_parse_int32(ln->tok[1], &r->count_f) ||
        r->count_v < 0 || r->count_f < 0)
        return 0;
    r->count_line = ln->number;
    return 1;
}

static hs_code obj_statement(obj_reader *r, text_line *ln, hs_error *err)
{
    /* normals, texture coordinates, names, groups, materials; and lines
     * (l) and points (p), which bound no surface and hold no volume */
    static const char *const ignored[] = {"vn", "vt", "vp", "o",      "g", "s",
                                          "usemtl", "mtllib", "l", "p"};
    const char *k = ln->tok[0];
    if (strcmp(k, "v") == 0)
        return obj_vertex(r, ln, err);
    if (strcmp(k, "f") == 0) {
        r->first_face = r->first_face ? r->first_face : ln->number;
        return obj_face(r, ln, err);
    }
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
        if (strcmp(k, ignored[i]) == 0)
            return HS_OK;
    if (obj_count_line(r, ln))
        return HS_OK;
    return err_at(err, r->file, ln->number, "OBJ statement '%s' is not supported", k);
}

static hs_code obj_lines(obj_reader *r, text_reader *rd, int *last, hs_error *err)
{
    text_line ln;
    hs_code rc = HS_OK;
    while (rc == HS_OK && mesh_next_line(rd, &ln, r->file, err, &rc)) {
        *last = ln.number;
        rc = obj_statement(r, &ln, err);
    }
    if (rc != HS_OK)
        return rc;
    if (r->count_line && (r->count_v != r->soup.npts || r->count_f != r->nfaces_seen))
        return err_at(err, r->file, r->count_line,
                      "the count line says %ld points and %ld faces, the file has %d and %ld",
                      r->count_v, r->count_f, r->soup.npts, r->nfaces_seen);
    if (r->nfaces_seen == 0)
        return err_at(err, r->file, *last, "no faces ('f' lines) in the file");
    return HS_OK;
}

hs_code mesh_parse_obj(const char *text, const char *path, scene_soup *s, int *line,
                       hs_error *err)
{
    obj_reader r;
    memset(&r, 0, sizeof r);
    r.file = path;
    text_reader rd;
    text_reader_init(&rd, text);
    int last = 1;
    hs_code rc = obj_lines(&r, &rd, &last, err);
    text_reader_free(&rd);
    *s = r.soup;
    *line = r.first_face;
    return rc;
}

hs_code mesh_read_obj(const char *path, size_t max_bytes, scene_soup *s, int *line,
                      hs_error *err)
{
    soup_init(s);
    char *text = text_read_file_max(path, max_bytes, 0, NULL, err);
    if (!text)
        return err ? err->code : HS_ERR_IO;
    hs_code rc = mesh_parse_obj(text, path, s, line, err);
    free(text);
    return rc;
}
