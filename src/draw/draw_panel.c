/* draw_panel.c -- panels (panel.h): the dispatch by dimension and the
 * pictures of 0 and 1 variables (a number line with an interval per
 * system). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/draw/panel.h"

/* --------------------------------------------------------- 0 variables */

static hs_code panel_draw_0d(canvas *cv, const panel *p)
{
    canvas_text(cv, p->x + p->w / 2, p->y + p->h / 2 - 8, 13, 1, 0, 0, INK_TEXT,
                "no variables left: the empty point");
    canvas_text(cv, p->x + p->w / 2, p->y + p->h / 2 + 12, 11, 1, 0, 0, INK_FAINT,
                "(every row is a constant 0 <= b)");
    panel_draw_texts(cv, p);
    return HS_OK;
}

/* ---------------------------------------------------------- 1 variable */

/* The interval of s: [*lo, *hi] with the bounding rows (-1: open), or
 * 0 when empty. */
static int interval_of(const dsys *s, double *lo, double *hi, int *rlo, int *rhi)
{
    *lo = -INFINITY;
    *hi = INFINITY;
    *rlo = *rhi = -1;
    for (int i = 0; i < s->m; i++) {
        double a = s->c[2 * i], b = s->c[2 * i + 1];
        if (a > 0 && b / a < *hi) {
            *hi = b / a;
            *rhi = i;
        } else if (a < 0 && b / a > *lo) {
            *lo = b / a;
            *rlo = i;
        } else if (a == 0 && b < 0) {
            return 0;
        }
    }
    return *lo <= *hi;
}

typedef struct line1 {
    double x0, x1, px, pw; /* world range and pixel range */
} line1;

static double line1_x(const line1 *L, double x)
{
    return L->px + (x - L->x0) / (L->x1 - L->x0) * L->pw;
}

static void draw_interval(canvas *cv, const line1 *L, const dsys *s, double y)
{
    cairo_t *cr = cv->cr;
    double lo, hi;
    int rlo, rhi;
    char lab[32];
    if (!interval_of(s, &lo, &hi, &rlo, &rhi)) {
        canvas_text(cv, L->px + L->pw / 2, y + 4, 11, 1, 1, 1, dsys_line_ink(s),
                    !s->prefix ? "the system is empty" : s->which ? "B is empty" : "A is empty");
        return;
    }
    double a = isfinite(lo) ? line1_x(L, lo) : L->px, b = isfinite(hi) ? line1_x(L, hi) : L->px + L->pw;
    canvas_set_ink_alpha(cv, dsys_fill_ink(s), 0.45);
    cairo_rectangle(cr, a, y - 6, fmax(b - a, 1.5), 12);
    cairo_fill(cr);
    for (int e = 0; e < 2; e++) {
        double at = e ? b : a;
        int r = e ? rhi : rlo;
        if (r < 0) { /* open end */
            canvas_set_ink(cv, INK_FAINT);
            cairo_set_line_width(cr, 1);
            double dash[] = {2, 3};
            cairo_set_dash(cr, dash, 2, 0);
            cairo_move_to(cr, at, y - 9);
            cairo_line_to(cr, at, y + 9);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
            continue;
        }
        int role = s->role[r];
        canvas_set_ink(cv, dsys_role_ink(s, role));
        cairo_set_line_width(cr, role ? 4 : 2);
        cairo_move_to(cr, at, y - 10);
        cairo_line_to(cr, at, y + 10);
        cairo_stroke(cr);
        dsys_row_label(s, r, lab, sizeof lab);
        canvas_text(cv, at, s->which ? y + 24 : y - 14, 11, 1, 0, 1, dsys_line_ink(s), lab);
    }
}

hs_code panel_draw_1d(canvas *cv, const panel *p, hs_error *err)
{
    (void)err;
    if (p->k == 0)
        return panel_draw_0d(cv, p);
    double lo = INFINITY, hi = -INFINITY;
    for (int w = 0; w < 2; w++) {
        const dsys *s = p->sys[w];
        double a, b;
        int ra, rb;
        if (!s || !interval_of(s, &a, &b, &ra, &rb))
            continue;
        if (isfinite(a))
            lo = fmin(lo, a), hi = fmax(hi, a);
        if (isfinite(b))
            lo = fmin(lo, b), hi = fmax(hi, b);
    }
    for (int i = 0; i < p->npts; i++)
        lo = fmin(lo, p->pts[i].x[0]), hi = fmax(hi, p->pts[i].x[0]);
    if (p->seg)
        lo = fmin(lo, fmin(p->s[0], p->t[0])), hi = fmax(hi, fmax(p->s[0], p->t[0]));
    panel_pad_box(&lo, &hi, 1, 0.2);
    line1 L = {lo, hi, p->x + 30, p->w - 60};
    double y = p->y + p->h / 2;
    cairo_t *cr = cv->cr;
    canvas_set_ink(cv, INK_FAINT);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, L.px - 10, y);
    cairo_line_to(cr, L.px + L.pw + 10, y);
    cairo_stroke(cr);
    char buf[64];
    snprintf(buf, sizeof buf, "%.4g", lo);
    canvas_text(cv, L.px, y + 44, 10, 1, 0, 0, INK_FAINT, buf);
    snprintf(buf, sizeof buf, "%.4g", hi);
    canvas_text(cv, L.px + L.pw, y + 44, 10, 1, 0, 0, INK_FAINT, buf);
    canvas_text(cv, L.px + L.pw + 14, y + 4, 11, 0, 0, 0, INK_TEXT, p->axis[0]);
    for (int w = 0; w < 2; w++)
        if (p->sys[w])
            draw_interval(cv, &L, p->sys[w], w ? y + 14 : y - 14);
    if (p->seg) {
        double a = line1_x(&L, p->s[0]), b = line1_x(&L, p->t[0]);
        canvas_arrow(cv, a, y - 34, b, y - 34, 8, INK_TEXT, 1.2);
    }
    for (int i = 0; i < p->npts; i++) {
        const dpoint *d = &p->pts[i];
        double x = line1_x(&L, d->x[0]);
        if (d->style == PT_WITNESS)
            canvas_witness_marker(cv, x, y, 6, d->k);
        else
            canvas_dot(cv, x, y, 4.5, d->k);
        if (d->label[0])
            canvas_text(cv, x, y - 42 - 12 * (i % 2), 11, 1, 1, 1, d->k, d->label);
    }
    panel_draw_texts(cv, p);
    return HS_OK;
}

hs_code panel_draw(canvas *cv, const panel *p, hs_error *err)
{
    cairo_save(cv->cr);
    cairo_rectangle(cv->cr, p->x, p->y, p->w, p->h);
    cairo_clip(cv->cr);
    hs_code rc = p->k <= 1 ? panel_draw_1d(cv, p, err)
                 : p->k == 2 ? panel_draw_2d(cv, p, err)
                             : panel_draw_3d(cv, p, err);
    cairo_restore(cv->cr);
    return rc;
}
