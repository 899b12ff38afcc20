/* draw_fast.c -- `halfspace draw --trace --engine=fast`: the fast
 * engine's version of the seed's steps, one frame per line of its trace.
 * Every frame shows A and B, s and t (the certified interior points the
 * engine starts from, solver/fast_prep.h) and the segment; the rows a line
 * names ("A row 3", a basis) are marked as the face made an equality, the
 * candidate faces along t - s (from the direction maps) on the line that
 * counts them; the last frame adds the answer's witness point and the
 * certificate's separating line or plane. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "solver/fast_prep.h"
#include "src/draw/frames.h"

/* Mark every row of s labelled `label` with role. */
static void mark_label(dsys *s, int label, int role)
{
    for (int i = 0; s && i < s->m; i++)
        if (s->label[i] == label)
            s->role[i] = (unsigned char)role;
}

/* "A row 3", "B row 12" in line: mark those rows as faces. */
static void mark_named_rows(const char *line, dsys *a, dsys *b)
{
    for (const char *p = line; (p = strstr(p, " row ")) != NULL; p += 5) {
        if (p == line || (p[-1] != 'A' && p[-1] != 'B'))
            continue;
        int row = atoi(p + 5);
        if (row > 0)
            mark_label(p[-1] == 'A' ? a : b, row, ROLE_FACE);
    }
}

static void mark_candidates_fast(const fast_prep *fa, const fast_prep *fb, const double *s,
                                 const double *t, int n, dsys *a, dsys *b)
{
    double d[3], md[3], len = 0;
    for (int j = 0; j < n; j++) {
        d[j] = t[j] - s[j];
        md[j] = -d[j];
        len += d[j] * d[j];
    }
    if (!(len > 0))
        return;
    int count;
    const int *rows = fast_prep_lookup(fa, d, &count);
    for (int i = 0; i < count; i++)
        if (rows[i] >= 0)
            mark_label(a, rows[i] + 1, ROLE_CANDIDATE);
    rows = fast_prep_lookup(fb, md, &count);
    for (int i = 0; i < count; i++)
        if (rows[i] >= 0)
            mark_label(b, rows[i] + 1, ROLE_CANDIDATE);
}

static dsys *dsys_of(const hs_poly *p, int which)
{
    return dsys_from_poly(p, which, which ? 'B' : 'A');
}

hs_code fast_walk_frames(const hs_poly *A, const hs_poly *B, const hs_options *q, tframes *t,
                         hs_error *err)
{
    int n = hs_poly_dim(A);
    hs_options opt = *q;
    tframes lines;
    tframes_init(&lines);
    opt.trace = tframes_trace_line;
    opt.trace_user = &lines;
    hs_result *r = hs_result_new();
    if (!r)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_code rc = hs_intersect(A, B, &opt, r, err);
    const fast_prep *fa = NULL, *fb = NULL;
    if (rc == HS_OK && (fast_prep_get(A, &fa, NULL) != 0 || fast_prep_get(B, &fb, NULL) != 0))
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    int have_st = fa && fb;
    double sep_a[3], sep_b = 0, x[3];
    hs_status st = hs_result_status(r);
    int sep = rc == HS_OK && (st == HS_DISJOINT || st == HS_TOUCHING) && n >= 2 &&
              result_separator(r, A, B, sep_a, &sep_b);
    int witness = rc == HS_OK && hs_result_has_point(r) && hs_result_point(r, x) == HS_OK;
    for (int i = 0; rc == HS_OK && i < lines.npending; i++) {
        tframe *f = tframes_add(t, 0, "line", n);
        if (!f)
            break;
        f->lines = malloc(sizeof *f->lines);
        if (!f->lines) {
            t->nomem = 1;
            break;
        }
        f->lines[0] = lines.pending[i];
        lines.pending[i] = NULL;
        f->nlines = f->caplines = 1;
        snprintf(f->title, sizeof f->title, "fast engine: %s", f->lines[0]);
        dsys *a = tframe_own(f, dsys_of(A, 0)), *b = tframe_own(f, dsys_of(B, 1));
        if (!a || !b) {
            t->nomem = 1;
            break;
        }
        f->left.sys[0] = a;
        f->left.sys[1] = b;
        f->left.common = 1;
        if (have_st) {
            f->left.seg = 1;
            memcpy(f->left.s, fa->center, sizeof(double) * (size_t)n);
            memcpy(f->left.t, fb->center, sizeof(double) * (size_t)n);
            panel_add_point(&f->left, fa->center, INK_S, PT_DOT, "s");
            panel_add_point(&f->left, fb->center, INK_T, PT_DOT, "t");
            if (strstr(f->lines[0], "candidate faces"))
                mark_candidates_fast(fa, fb, fa->center, fb->center, n, a, b);
        }
        mark_named_rows(f->lines[0], a, b);
        if (i == lines.npending - 1) {
            if (witness)
                panel_add_point(&f->left, x, INK_WITNESS, PT_WITNESS, "witness");
            f->left.sep = sep;
            memcpy(f->left.sep_a, sep_a, sizeof sep_a);
            f->left.sep_b = sep_b;
        }
    }
    if (rc == HS_OK)
        snprintf(t->title, sizeof t->title, "%s and %s: the fast engine's steps: %s",
                 hs_poly_name(A), hs_poly_name(B), hs_status_name(st));
    tframes_free(&lines);
    hs_result_free(r);
    return rc;
}
