/* draw_frames.c -- the frames of a walk (frames.h): collecting them with
 * their trace lines, and rendering each through cairo to an SVG kept for
 * the page (and written beside it) and, on request, a PNG. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/grow.h"
#include "polytope/mem.h"
#include "src/draw/canvas.h"
#include "src/draw/frames.h"

void tframes_init(tframes *t)
{
    memset(t, 0, sizeof *t);
}

void tframes_free(tframes *t)
{
    for (int i = 0; i < t->n; i++) {
        tframe *f = &t->f[i];
        for (int j = 0; j < f->nlines; j++)
            free(f->lines[j]);
        free(f->lines);
        for (int j = 0; j < FRAME_MAX_SYS; j++)
            dsys_free(f->owned[j]);
    }
    free(t->f);
    for (int j = 0; j < t->npending; j++)
        free(t->pending[j]);
    free(t->pending);
    memset(t, 0, sizeof *t);
}

void tframes_trace_line(void *user, const char *line)
{
    tframes *t = user;
    char **p = grow_array(t->pending, &t->cappending, t->npending + 1L, sizeof *p);
    char *copy = p ? mem_strdup(line) : NULL;
    if (p)
        t->pending = p;
    if (!copy) {
        t->nomem = 1;
        return;
    }
    t->pending[t->npending++] = copy;
}

/* Move the pending lines to frame f. */
static void take_pending(tframes *t, tframe *f)
{
    if (t->npending == 0)
        return;
    char **p = grow_array(f->lines, &f->caplines, (long)f->nlines + t->npending, sizeof *p);
    if (!p) {
        t->nomem = 1;
        return;
    }
    f->lines = p;
    for (int j = 0; j < t->npending; j++)
        f->lines[f->nlines++] = t->pending[j];
    t->npending = 0;
}

tframe *tframes_add(tframes *t, int depth, const char *kind, int k)
{
    tframe *f = grow_array(t->f, &t->cap, t->n + 1L, sizeof *f);
    if (!f) {
        t->nomem = 1;
        return NULL;
    }
    t->f = f;
    f = &t->f[t->n++];
    memset(f, 0, sizeof *f);
    f->depth = depth;
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    panel_init(&f->left, 0, 30, FRAME_W, FRAME_H - 30, k);
    panel_init(&f->right, FRAME_W / 2, 30, FRAME_W / 2, FRAME_H - 30, k > 0 ? k - 1 : 0);
    take_pending(t, f);
    return f;
}

dsys *tframe_own(tframe *f, dsys *s)
{
    for (int j = 0; s && j < FRAME_MAX_SYS; j++)
        if (!f->owned[j]) {
            f->owned[j] = s;
            return s;
        }
    dsys_free(s);
    return NULL;
}

void tframes_finish(tframes *t)
{
    if (t->n > 0)
        take_pending(t, &t->f[t->n - 1]);
}

/* One frame on a canvas: the step's title and number, one or two
 * panels with a rule between them. */
static hs_code frame_render(canvas *cv, const tframes *t, int i, hs_error *err)
{
    const tframe *f = &t->f[i];
    char head[64];
    canvas_text(cv, 12, 20, 13.5, 0, 1, 0, INK_TEXT, f->title);
    snprintf(head, sizeof head, "step %d of %d, depth %d", i + 1, t->n, f->depth);
    canvas_text(cv, FRAME_W - 12, 20, 10, 2, 0, 0, INK_FAINT, head);
    panel L = f->left;
    if (f->two)
        L.w = FRAME_W / 2;
    hs_code rc = panel_draw(cv, &L, err);
    if (rc == HS_OK && f->two) {
        cairo_set_source_rgba(cv->cr, 0.6, 0.6, 0.6, 1);
        cairo_set_line_width(cv->cr, 1);
        cairo_move_to(cv->cr, FRAME_W / 2.0, 34);
        cairo_line_to(cv->cr, FRAME_W / 2.0, FRAME_H - 8);
        cairo_stroke(cv->cr);
        rc = panel_draw(cv, &f->right, err);
    }
    return rc;
}

static hs_code write_text_file(const char *path, const char *text, hs_error *err)
{
    FILE *out = fopen(path, "w");
    if (!out)
        return err_set(err, HS_ERR_IO, "%s: cannot write", path);
    int bad = fputs(text, out) < 0;
    bad |= fclose(out) != 0;
    return bad ? err_set(err, HS_ERR_IO, "%s: cannot write", path) : HS_OK;
}

hs_code tframes_write(const tframes *t, const char *dir, int png, hs_error *err)
{
    char **svgs = mem_calloc((size_t)t->n + 1, sizeof *svgs);
    size_t plen = strlen(dir) + 32;
    char *path = mem_alloc(plen, 1);
    hs_code rc = svgs && path ? HS_OK : err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int i = 0; rc == HS_OK && i < t->n; i++) {
        canvas cv;
        rc = canvas_open_svg_memory(&cv, FRAME_W, FRAME_H, err);
        if (rc != HS_OK)
            break;
        rc = frame_render(&cv, t, i, err);
        hs_code rc2 = canvas_close(&cv, err);
        svgs[i] = canvas_take_svg(&cv);
        if (rc == HS_OK)
            rc = rc2;
        if (rc == HS_OK && !svgs[i])
            rc = err_set(err, HS_ERR_NOMEM, "out of memory");
        if (rc != HS_OK)
            break;
        snprintf(path, plen, "%s/frame-%03d.svg", dir, i + 1);
        rc = write_text_file(path, svgs[i], err);
        if (rc != HS_OK || !png)
            continue;
        snprintf(path, plen, "%s/frame-%03d.png", dir, i + 1);
        if ((rc = canvas_open_file(&cv, path, FRAME_W, FRAME_H, err)) != HS_OK)
            break;
        rc = frame_render(&cv, t, i, err);
        rc2 = canvas_close(&cv, err);
        if (rc == HS_OK)
            rc = rc2;
    }
    if (rc == HS_OK)
        rc = page_write(t, dir, svgs, err);
    for (int i = 0; svgs && i < t->n; i++)
        free(svgs[i]);
    free(svgs);
    free(path);
    return rc;
}
