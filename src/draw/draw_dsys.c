/* draw_dsys.c -- the parts of panels (panel.h) that every dimension uses:
 * systems in doubles (from a polyhedron, row labels, inks of rows and
 * roles), setting a panel up, padding its frame, its points and texts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/mem.h"
#include "src/draw/panel.h"

dsys *dsys_new(int n, int m, int which, char prefix)
{
    dsys *s = mem_calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->n = n;
    s->m = m;
    s->which = which;
    s->prefix = prefix;
    s->c = mem_calloc((size_t)m * (size_t)(n + 1), sizeof *s->c);
    s->label = mem_calloc((size_t)m, sizeof *s->label);
    s->role = mem_calloc((size_t)m, 1);
    if (!s->c || !s->label || !s->role) {
        dsys_free(s);
        return NULL;
    }
    return s;
}

dsys *dsys_from_poly(const hs_poly *p, int which, char prefix)
{
    int n = hs_poly_dim(p), m = hs_poly_rows(p), rows = 0;
    for (int i = 0; i < m; i++)
        rows += hs_poly_row_is_eq(p, i) ? 2 : 1;
    dsys *s = dsys_new(n, rows, which, prefix);
    if (!s)
        return NULL;
    int r = 0;
    for (int i = 0; i < m; i++) {
        double *row = s->c + (size_t)r * (size_t)(n + 1);
        hs_poly_row(p, i, row, row + n);
        s->label[r++] = i + 1;
        if (!hs_poly_row_is_eq(p, i))
            continue;
        double *neg = s->c + (size_t)r * (size_t)(n + 1);
        for (int j = 0; j <= n; j++)
            neg[j] = -row[j];
        s->label[r++] = i + 1;
    }
    return s;
}

void dsys_free(dsys *s)
{
    if (!s)
        return;
    free(s->c);
    free(s->label);
    free(s->role);
    free(s);
}

int dsys_holds(const dsys *s, const double *x)
{
    for (int i = 0; i < s->m; i++) {
        const double *a = s->c + (size_t)i * (size_t)(s->n + 1);
        double v = -a[s->n], mag = fabs(a[s->n]);
        for (int j = 0; j < s->n; j++) {
            v += a[j] * x[j];
            mag += fabs(a[j] * x[j]);
        }
        if (v > 1e-9 * (mag + 1e-300))
            return 0;
    }
    return 1;
}

void dsys_row_label(const dsys *s, int i, char *buf, size_t size)
{
    if (s->prefix)
        snprintf(buf, size, "%c%d", s->prefix, s->label[i]);
    else
        snprintf(buf, size, "%d", s->label[i]);
}

ink dsys_fill_ink(const dsys *s) { return s->which ? INK_B_FILL : INK_A_FILL; }
ink dsys_line_ink(const dsys *s) { return s->which ? INK_B_LINE : INK_A_LINE; }

ink dsys_role_ink(const dsys *s, int role)
{
    if (role == ROLE_CANDIDATE)
        return INK_CANDIDATE;
    if (role == ROLE_FACE || role == ROLE_VIOLATED)
        return INK_FACE;
    return dsys_line_ink(s);
}

void panel_init(panel *p, double x, double y, double w, double h, int k)
{
    memset(p, 0, sizeof *p);
    p->x = x;
    p->y = y;
    p->w = w;
    p->h = h;
    p->k = k;
    p->az = -60;
    p->el = 25;
    for (int j = 0; j < 3; j++)
        snprintf(p->axis[j], sizeof p->axis[j], "%c", "xyz"[j]);
}

void panel_add_point(panel *p, const double *x, ink k, point_style style, const char *label)
{
    if (p->npts >= PANEL_MAX_POINTS)
        return;
    dpoint *d = &p->pts[p->npts++];
    memset(d, 0, sizeof *d);
    for (int j = 0; j < p->k && j < 3; j++)
        d->x[j] = x[j];
    d->k = k;
    d->style = style;
    snprintf(d->label, sizeof d->label, "%s", label ? label : "");
}

void panel_pad_box(double *lo, double *hi, int k, double frac)
{
    double span = 0;
    for (int j = 0; j < k; j++) {
        if (lo[j] > hi[j])
            lo[j] = hi[j] = 0;
        span = fmax(span, hi[j] - lo[j]);
    }
    if (!(span > 0))
        span = 2;
    for (int j = 0; j < k; j++) {
        double w = hi[j] - lo[j], least = 0.25 * span;
        if (w < least) {
            double mid = 0.5 * (lo[j] + hi[j]);
            lo[j] = mid - least / 2;
            hi[j] = mid + least / 2;
            w = least;
        }
        lo[j] -= frac * w;
        hi[j] += frac * w;
    }
}

void panel_draw_point(canvas *cv, const panel *p, int i, double x, double y)
{
    const dpoint *d = &p->pts[i];
    if (d->style == PT_WITNESS) {
        canvas_witness_marker(cv, x, y, 7, d->k);
    } else if (d->style == PT_RING) {
        canvas_set_ink(cv, d->k);
        cairo_set_line_width(cv->cr, 2);
        cairo_arc(cv->cr, x, y, 8, 0, 2 * M_PI);
        cairo_stroke(cv->cr);
    } else {
        canvas_dot(cv, x, y, 4.5, d->k);
    }
    if (!d->label[0])
        return;
    double w = canvas_text_width(cv, 11, 1, d->label), ly = y - 9 - 13 * (i % 2);
    if (x + 10 + w > p->x + p->w - 4)
        canvas_text(cv, x - 10, ly, 11, 2, 1, 1, d->k, d->label);
    else
        canvas_text(cv, x + 10, ly, 11, 0, 1, 1, d->k, d->label);
}

void panel_draw_texts(canvas *cv, const panel *p)
{
    if (p->title[0])
        canvas_text(cv, p->x + 6, p->y + 16, 12.5, 0, 1, 0, INK_TEXT, p->title);
    if (p->note[0])
        canvas_text(cv, p->x + p->w / 2, p->y + 40, 15, 1, 1, 1, INK_FACE, p->note);
}
