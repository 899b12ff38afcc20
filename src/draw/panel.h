/* panel.h -- one picture of one or two systems of inequalities in 1, 2 or
 * 3 variables, drawn into a rectangle of a canvas (draw_panel.c: the
 * frame, 0 and 1 variables; draw_poly2.c: 2 variables; draw_poly3.c: 3
 * variables).  The pair picture (draw_pair.c) is one panel; a frame of
 * the seed's recursion (draw_trace.c) is one or two.
 *
 * What a panel shows: each system shaded in its ink with every row's
 * number on its edge (2-D) or face (3-D) or at its end (1-D); in 2-D and
 * 3-D unbounded systems are cut by the panel's frame and the open sides
 * are dotted; the common region shaded; rows marked as candidate faces,
 * the face made an equality, or rows a point violates; points (s, t, the
 * witness, a point found or lifted); the segment s -> t; a separating
 * line or plane; a note when a system is empty or cannot be drawn. */
#ifndef HS_DRAW_PANEL_H
#define HS_DRAW_PANEL_H

#include "halfspace.h"
#include "src/draw/canvas.h"

/* What a row is in a picture of the recursion. */
enum { ROLE_NONE = 0, ROLE_CANDIDATE, ROLE_FACE, ROLE_VIOLATED };

/* A system in doubles: m rows a.x <= b over n variables. */
typedef struct dsys {
    int n, m;
    double *c;           /* m * (n + 1): a_i then b_i */
    int *label;          /* m: the row number printed (1-based input row) */
    unsigned char *role; /* m: ROLE_* */
    int which;           /* 0: A (or a single system), 1: B */
    char prefix;         /* 'A', 'B', or 0 for labels without a letter */
} dsys;

/* A system of m rows over n variables, rows zero, roles none. */
dsys *dsys_new(int n, int m, int which, char prefix);
/* The rows of p (an equality row as two rows, a.x <= b and -a.x <= -b,
 * both labelled with its number). */
dsys *dsys_from_poly(const hs_poly *p, int which, char prefix);
void dsys_free(dsys *s);
/* Nonzero when x satisfies every row within a relative tolerance. */
int dsys_holds(const dsys *s, const double *x);

enum { PANEL_MAX_POINTS = 8 };

typedef enum point_style { PT_DOT = 0, PT_WITNESS, PT_RING } point_style;

typedef struct dpoint {
    double x[3];
    ink k;
    point_style style;
    char label[64];
} dpoint;

typedef struct panel {
    double x, y, w, h;        /* the rectangle of the canvas */
    int k;                    /* variables: 0..3 */
    char axis[3][16];         /* their names */
    const dsys *sys[2];       /* A and B (either may be NULL) */
    int common;               /* shade the common region */
    dpoint pts[PANEL_MAX_POINTS];
    int npts;
    int seg;                  /* draw the segment s -> t */
    double s[3], t[3];
    int sep;                  /* draw the separating line / plane a.x = b */
    double sep_a[3], sep_b;
    double az, el;            /* 3-D view in degrees */
    char title[160];          /* above the panel ("" for none) */
    char note[160];           /* in the panel ("" for none) */
} panel;

/* A panel over the rectangle, k variables named x, y, z (or x1..x3),
 * default view. */
void panel_init(panel *p, double x, double y, double w, double h, int k);
/* Add a point (ignored beyond PANEL_MAX_POINTS). */
void panel_add_point(panel *p, const double *x, ink k, point_style style, const char *label);
/* Draw the panel.  Returns HS_OK or an error (memory, exact enumeration). */
hs_code panel_draw(canvas *cv, const panel *p, hs_error *err);

/* The parts, one per dimension (draw_panel.c, draw_poly2.c, draw_poly3.c). */
hs_code panel_draw_1d(canvas *cv, const panel *p, hs_error *err);
hs_code panel_draw_2d(canvas *cv, const panel *p, hs_error *err);
hs_code panel_draw_3d(canvas *cv, const panel *p, hs_error *err);

/* Shared by the parts: the label of row i of s ("A3", or "3"). */
void dsys_row_label(const dsys *s, int i, char *buf, size_t size);
/* Inks of a system. */
ink dsys_fill_ink(const dsys *s);
ink dsys_line_ink(const dsys *s);
/* The ink of a role (INK_CANDIDATE, INK_FACE), or the system's line ink. */
ink dsys_role_ink(const dsys *s, int role);
/* Point i of the panel at (x, y) on the canvas: its marker and its
 * label, put left of it when it would leave the panel. */
void panel_draw_point(canvas *cv, const panel *p, int i, double x, double y);
/* The panel's note line and title, drawn last. */
void panel_draw_texts(canvas *cv, const panel *p);

/* Pad [lo, hi] (per coordinate, k of them) by frac of its size, with a
 * least size when it is flat or empty (lo > hi: around the origin). */
void panel_pad_box(double *lo, double *hi, int k, double frac);

/* The separating hyperplane h.x = c (h: n doubles) of the certificate of
 * a disjoint or touching pair in r (draw_pair.c); 0 when the certificate
 * does not use rows of both A and B (an empty system). */
int result_separator(const hs_result *r, const hs_poly *A, const hs_poly *B, double *h,
                     double *c);

#endif
