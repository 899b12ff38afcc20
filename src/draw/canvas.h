/* canvas.h -- the one drawing surface of src/draw/: a cairo context on an
 * SVG, PNG or PDF surface chosen by the file's extension, or on an SVG
 * surface kept in memory (the frames of the step-through page); text in
 * DejaVu Sans (Debian fonts-dejavu-core); the colours ("inks") every
 * picture uses.
 *
 * Inks are whole percentages so that an SVG written by cairo names them
 * exactly (fill:rgb(20%,45%,85%)); tests/pictures_check.py finds the
 * polygons, the witness marker and the labels of a picture by them.  Keep
 * the table in draw_canvas.c and the one in that script together. */
#ifndef HS_DRAW_CANVAS_H
#define HS_DRAW_CANVAS_H

#include <cairo.h>
#include <stddef.h>

#include "halfspace.h"

typedef enum canvas_format { CANVAS_SVG = 0, CANVAS_PNG, CANVAS_PDF } canvas_format;

typedef enum ink {
    INK_A_FILL = 0,  /* polyhedron A (or the single system): translucent fill */
    INK_A_LINE,      /* its edges and row labels */
    INK_B_FILL,
    INK_B_LINE,
    INK_COMMON,      /* the common region */
    INK_WITNESS,     /* the witness point's marker */
    INK_SEPARATOR,   /* the certificate's separating line or plane */
    INK_CANDIDATE,   /* candidate faces of the seed's Steps 6-7 */
    INK_FACE,        /* the face made an equality; violated rows */
    INK_TEXT,        /* titles, captions, axes labels */
    INK_FAINT,       /* axes, frames, open sides */
    INK_S,           /* the point s */
    INK_T,           /* the point t */
    INK_LIFTED,      /* the point lifted back */
    INK_OVERLAP,     /* scene pieces in overlap */
    INK_TOUCHING,    /* scene pieces touching */
    INK_CONTACT,     /* scene pieces in contact, contact points and normals */
    INK_STATIC,      /* static scene bodies */
    INK_DYNAMIC,     /* other scene bodies */
    INK_COUNT
} ink;

typedef struct rgba {
    double r, g, b, a;
} rgba;

/* The colour of an ink. */
rgba canvas_ink(ink k);

typedef struct canvas {
    cairo_surface_t *surf;
    cairo_t *cr;
    canvas_format fmt;
    double w, h;
    char *path;          /* PNG: written when closed; NULL otherwise */
    char *buf;           /* in-memory SVG */
    size_t len, cap;
    int nomem;
} canvas;

/* Open a w x h picture (points for SVG and PDF, pixels for PNG) to be
 * written to path, the format from its extension (.svg, .png, .pdf; any
 * case); the background is white.  Returns HS_OK, HS_ERR_ARG for another
 * extension, HS_ERR_IO when cairo cannot create the file. */
hs_code canvas_open_file(canvas *cv, const char *path, double w, double h, hs_error *err);
/* Open a w x h SVG picture kept in memory (canvas_take_svg). */
hs_code canvas_open_svg_memory(canvas *cv, double w, double h, hs_error *err);
/* Finish the picture (write the PNG) and free the canvas; the in-memory
 * SVG stays in cv->buf (NUL-terminated) for canvas_take_svg.  Returns
 * HS_OK or HS_ERR_IO / HS_ERR_NOMEM. */
hs_code canvas_close(canvas *cv, hs_error *err);
/* The in-memory SVG after canvas_close (the caller frees it), or NULL. */
char *canvas_take_svg(canvas *cv);

/* Release the font caches of cairo and fontconfig (they are built again
 * when needed), so that a leak checker sees no memory of theirs at exit.
 * Call only when no canvas is open. */
void canvas_release_fonts(void);

/* The format named by path's extension: 1 and *fmt, or 0 for none. */
int canvas_format_of(const char *path, canvas_format *fmt);

void canvas_set_ink(canvas *cv, ink k);
void canvas_set_ink_alpha(canvas *cv, ink k, double alpha);

/* Text at (x, y) (baseline), size in points; align 0 left, 1 centre,
 * 2 right; bold when bold != 0.  With halo != 0 a translucent white box
 * is put under it first.  Returns the width of the text. */
double canvas_text(canvas *cv, double x, double y, double size, int align, int bold, int halo,
                   ink k, const char *text);
/* Width of text at that size. */
double canvas_text_width(canvas *cv, double size, int bold, const char *text);

/* A witness marker (ring and cross) of radius r at (x, y) in ink k
 * (INK_WITNESS for the witness point). */
void canvas_witness_marker(canvas *cv, double x, double y, double r, ink k);
/* A filled dot of radius r. */
void canvas_dot(canvas *cv, double x, double y, double r, ink k);
/* An arrow from (x0, y0) to (x1, y1) with a head of size head. */
void canvas_arrow(canvas *cv, double x0, double y0, double x1, double y1, double head, ink k,
                  double width);

#endif
