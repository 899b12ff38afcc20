/* draw_canvas.c -- the drawing surface of every picture (canvas.h): one
 * code path through cairo for SVG, PNG and PDF files and in-memory SVG,
 * the inks, text in DejaVu Sans, markers and arrows. */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <ctype.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/draw/canvas.h"

/* Whole percentages (see canvas.h); tests/pictures_check.py has the same
 * table. */
static const rgba ink_table[INK_COUNT] = {
    [INK_A_FILL] = {0.20, 0.45, 0.85, 0.25},
    [INK_A_LINE] = {0.10, 0.30, 0.70, 1},
    [INK_B_FILL] = {0.90, 0.45, 0.10, 0.25},
    [INK_B_LINE] = {0.75, 0.30, 0.05, 1},
    [INK_COMMON] = {0.35, 0.70, 0.20, 0.55},
    [INK_WITNESS] = {0.80, 0.00, 0.60, 1},
    [INK_SEPARATOR] = {0.85, 0.05, 0.05, 1},
    [INK_CANDIDATE] = {1.00, 0.75, 0.00, 1},
    [INK_FACE] = {0.85, 0.00, 0.00, 1},
    [INK_TEXT] = {0.10, 0.10, 0.10, 1},
    [INK_FAINT] = {0.55, 0.55, 0.55, 1},
    [INK_S] = {0.05, 0.25, 0.60, 1},
    [INK_T] = {0.65, 0.25, 0.00, 1},
    [INK_LIFTED] = {0.00, 0.55, 0.25, 1},
    [INK_OVERLAP] = {0.90, 0.10, 0.10, 1},
    [INK_TOUCHING] = {1.00, 0.55, 0.00, 1},
    [INK_CONTACT] = {1.00, 0.85, 0.00, 1},
    [INK_STATIC] = {0.62, 0.62, 0.60, 1},
    [INK_DYNAMIC] = {0.35, 0.55, 0.80, 1},
};

rgba canvas_ink(ink k)
{
    return ink_table[k >= 0 && k < INK_COUNT ? k : INK_TEXT];
}

int canvas_format_of(const char *path, canvas_format *fmt)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    static const char *const names[] = {"svg", "png", "pdf"};
    if (!dot)
        return 0;
    for (int f = 0; f < 3; f++) {
        int same = strlen(dot + 1) == 3;
        for (int i = 0; same && i < 3; i++)
            same = tolower((unsigned char)dot[1 + i]) == names[f][i];
        if (same) {
            *fmt = (canvas_format)f;
            return 1;
        }
    }
    return 0;
}

static cairo_status_t canvas_write_mem(void *closure, const unsigned char *data,
                                       unsigned int length)
{
    canvas *cv = closure;
    if (cv->len + length + 1 > cv->cap) {
        size_t cap = cv->cap ? cv->cap : 1 << 16;
        while (cap < cv->len + length + 1)
            cap *= 2;
        char *nb = realloc(cv->buf, cap);
        if (!nb) {
            cv->nomem = 1;
            return CAIRO_STATUS_NO_MEMORY;
        }
        cv->buf = nb;
        cv->cap = cap;
    }
    memcpy(cv->buf + cv->len, data, length);
    cv->len += length;
    cv->buf[cv->len] = '\0';
    return CAIRO_STATUS_SUCCESS;
}

/* The context on a new surface: white background, round joins. */
static hs_code canvas_start(canvas *cv, hs_error *err)
{
    if (cairo_surface_status(cv->surf) != CAIRO_STATUS_SUCCESS) {
        hs_code rc = err_set(err, HS_ERR_IO, "%s: cannot create the picture (%s)",
                             cv->path ? cv->path : "<memory>",
                             cairo_status_to_string(cairo_surface_status(cv->surf)));
        cairo_surface_destroy(cv->surf);
        free(cv->path);
        free(cv->buf);
        memset(cv, 0, sizeof *cv);
        return rc;
    }
    cv->cr = cairo_create(cv->surf);
    cairo_set_source_rgb(cv->cr, 1, 1, 1);
    cairo_paint(cv->cr);
    cairo_set_line_join(cv->cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cv->cr, CAIRO_LINE_CAP_ROUND);
    cairo_select_font_face(cv->cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    return HS_OK;
}

hs_code canvas_open_file(canvas *cv, const char *path, double w, double h, hs_error *err)
{
    memset(cv, 0, sizeof *cv);
    cv->w = w;
    cv->h = h;
    if (!canvas_format_of(path, &cv->fmt))
        return err_set(err, HS_ERR_ARG, "%s: the picture's name must end in .svg, .png or .pdf",
                       path ? path : "(none)");
    if (cv->fmt == CANVAS_SVG) {
        cv->surf = cairo_svg_surface_create(path, w, h);
    } else if (cv->fmt == CANVAS_PDF) {
        cv->surf = cairo_pdf_surface_create(path, w, h);
    } else {
        cv->path = mem_strdup(path);
        if (!cv->path)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        cv->surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)ceil(w), (int)ceil(h));
    }
    return canvas_start(cv, err);
}

hs_code canvas_open_svg_memory(canvas *cv, double w, double h, hs_error *err)
{
    memset(cv, 0, sizeof *cv);
    cv->w = w;
    cv->h = h;
    cv->fmt = CANVAS_SVG;
    cv->surf = cairo_svg_surface_create_for_stream(canvas_write_mem, cv, w, h);
    return canvas_start(cv, err);
}

hs_code canvas_close(canvas *cv, hs_error *err)
{
    hs_code rc = HS_OK;
    if (!cv->surf)
        return HS_OK;
    cairo_status_t st = cairo_status(cv->cr);
    cairo_destroy(cv->cr);
    cv->cr = NULL;
    if (st == CAIRO_STATUS_SUCCESS && cv->fmt == CANVAS_PNG)
        st = cairo_surface_write_to_png(cv->surf, cv->path);
    cairo_surface_finish(cv->surf);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(cv->surf);
    cairo_surface_destroy(cv->surf);
    cv->surf = NULL;
    if (cv->nomem)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    else if (st != CAIRO_STATUS_SUCCESS)
        rc = err_set(err, HS_ERR_IO, "%s: cannot write the picture (%s)",
                     cv->path ? cv->path : "picture", cairo_status_to_string(st));
    free(cv->path);
    cv->path = NULL;
    return rc;
}

void canvas_release_fonts(void)
{
    cairo_debug_reset_static_data();
    FcFini();
}

char *canvas_take_svg(canvas *cv)
{
    char *s = cv->buf;
    cv->buf = NULL;
    cv->len = cv->cap = 0;
    return s;
}

void canvas_set_ink(canvas *cv, ink k)
{
    rgba c = canvas_ink(k);
    cairo_set_source_rgba(cv->cr, c.r, c.g, c.b, c.a);
}

void canvas_set_ink_alpha(canvas *cv, ink k, double alpha)
{
    rgba c = canvas_ink(k);
    cairo_set_source_rgba(cv->cr, c.r, c.g, c.b, alpha);
}

static void canvas_font(canvas *cv, double size, int bold)
{
    cairo_select_font_face(cv->cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cv->cr, size);
}

double canvas_text_width(canvas *cv, double size, int bold, const char *text)
{
    cairo_text_extents_t te;
    canvas_font(cv, size, bold);
    cairo_text_extents(cv->cr, text, &te);
    return te.x_advance;
}

double canvas_text(canvas *cv, double x, double y, double size, int align, int bold, int halo,
                   ink k, const char *text)
{
    cairo_t *cr = cv->cr;
    double w = canvas_text_width(cv, size, bold, text);
    double x0 = align == 1 ? x - w / 2 : align == 2 ? x - w : x;
    if (halo) {
        cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
        cairo_rectangle(cr, x0 - 2, y - 0.8 * size - 1, w + 4, 1.05 * size + 2);
        cairo_fill(cr);
    }
    canvas_set_ink(cv, k);
    cairo_move_to(cr, x0, y);
    cairo_show_text(cr, text);
    cairo_new_path(cr);
    return w;
}

void canvas_witness_marker(canvas *cv, double x, double y, double r, ink k)
{
    cairo_t *cr = cv->cr;
    cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
    cairo_arc(cr, x, y, r, 0, 2 * M_PI);
    cairo_fill(cr);
    canvas_set_ink(cv, k);
    cairo_set_line_width(cr, 2);
    cairo_arc(cr, x, y, r, 0, 2 * M_PI);
    cairo_stroke(cr);
    cairo_move_to(cr, x - r * 0.6, y - r * 0.6);
    cairo_line_to(cr, x + r * 0.6, y + r * 0.6);
    cairo_move_to(cr, x - r * 0.6, y + r * 0.6);
    cairo_line_to(cr, x + r * 0.6, y - r * 0.6);
    cairo_stroke(cr);
}

void canvas_dot(canvas *cv, double x, double y, double r, ink k)
{
    canvas_set_ink(cv, k);
    cairo_arc(cv->cr, x, y, r, 0, 2 * M_PI);
    cairo_fill(cv->cr);
}

void canvas_arrow(canvas *cv, double x0, double y0, double x1, double y1, double head, ink k,
                  double width)
{
    cairo_t *cr = cv->cr;
    double dx = x1 - x0, dy = y1 - y0, len = hypot(dx, dy);
    canvas_set_ink(cv, k);
    cairo_set_line_width(cr, width);
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, x1, y1);
    cairo_stroke(cr);
    if (!(len > 0))
        return;
    dx /= len;
    dy /= len;
    cairo_move_to(cr, x1, y1);
    cairo_line_to(cr, x1 - head * dx + 0.45 * head * dy, y1 - head * dy - 0.45 * head * dx);
    cairo_line_to(cr, x1 - head * dx - 0.45 * head * dy, y1 - head * dy + 0.45 * head * dx);
    cairo_close_path(cr);
    cairo_fill(cr);
}
