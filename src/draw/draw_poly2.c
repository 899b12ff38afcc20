/* draw_poly2.c -- panels of 2 variables (panel.h): each system is the
 * frame rectangle cut by its rows one after the other (Sutherland and
 * Hodgman's clipping of a convex polygon by a half-plane, in doubles:
 * this is a picture, not an answer), every edge remembering the row it
 * lies on, so that edges get their row's number and the sides left from
 * the frame are the open sides of an unbounded polygon (dotted).  The
 * frame is chosen around the polygons' true vertices (cut from a huge
 * box first) and the points shown. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/mem.h"
#include "src/draw/panel.h"

/* A convex polygon; edge i runs from vertex i to vertex i + 1 (mod n)
 * and lies on row tag[i] of its system, or on the frame (tag -1). */
typedef struct poly2 {
    int n, cap;
    double *p;  /* 2 cap */
    int *tag;   /* cap */
    double *q;  /* scratch, 2 cap */
    int *qtag;
    int empty;
} poly2;

static int poly2_alloc(poly2 *P, int rows)
{
    memset(P, 0, sizeof *P);
    P->cap = rows + 8;
    P->p = mem_alloc((size_t)P->cap * 2, sizeof *P->p);
    P->q = mem_alloc((size_t)P->cap * 2, sizeof *P->q);
    P->tag = mem_alloc((size_t)P->cap, sizeof *P->tag);
    P->qtag = mem_alloc((size_t)P->cap, sizeof *P->qtag);
    return P->p && P->q && P->tag && P->qtag ? 0 : -1;
}

static void poly2_free(poly2 *P)
{
    free(P->p);
    free(P->q);
    free(P->tag);
    free(P->qtag);
}

static void poly2_box(poly2 *P, const double lo[2], const double hi[2])
{
    double xs[4] = {lo[0], hi[0], hi[0], lo[0]}, ys[4] = {lo[1], lo[1], hi[1], hi[1]};
    P->n = 4;
    P->empty = 0;
    for (int i = 0; i < 4; i++) {
        P->p[2 * i] = xs[i];
        P->p[2 * i + 1] = ys[i];
        P->tag[i] = -1;
    }
}

/* Cut P by a.x <= b (row tag). */
static void poly2_cut(poly2 *P, const double *a, double b, int tag, double scale)
{
    if (P->empty)
        return;
    if (a[0] == 0 && a[1] == 0) {
        if (b < 0)
            P->empty = 1;
        return;
    }
    double eps = 1e-12 * (fabs(b) + (fabs(a[0]) + fabs(a[1])) * scale);
    int out = 0;
    for (int i = 0; i < P->n && out + 2 <= P->cap; i++) {
        const double *u = P->p + 2 * i, *v = P->p + 2 * ((i + 1) % P->n);
        double fu = a[0] * u[0] + a[1] * u[1] - b, fv = a[0] * v[0] + a[1] * v[1] - b;
        int uin = fu <= eps, vin = fv <= eps;
        if (uin) {
            P->q[2 * out] = u[0];
            P->q[2 * out + 1] = u[1];
            P->qtag[out++] = P->tag[i];
        }
        if (uin != vin) {
            double f = fu / (fu - fv);
            P->q[2 * out] = u[0] + f * (v[0] - u[0]);
            P->q[2 * out + 1] = u[1] + f * (v[1] - u[1]);
            P->qtag[out++] = uin ? tag : P->tag[i];
        }
    }
    double *t = P->p;
    P->p = P->q;
    P->q = t;
    int *tt = P->tag;
    P->tag = P->qtag;
    P->qtag = tt;
    P->n = out;
    if (out < 2)
        P->empty = 1;
}

static void poly2_cut_system(poly2 *P, const dsys *s, double scale)
{
    for (int i = 0; i < s->m; i++)
        poly2_cut(P, s->c + 3 * i, s->c[3 * i + 2], i, scale);
}

/* The frame: true vertices of both systems (cut from a huge box), the
 * points, the segment; padded, then widened to the panel's aspect. */
static int frame_of(const panel *p, double lo[2], double hi[2], double aspect)
{
    double big = 1;
    for (int w = 0; w < 2; w++) {
        const dsys *s = p->sys[w];
        for (int i = 0; s && i < s->m; i++) {
            double na = hypot(s->c[3 * i], s->c[3 * i + 1]);
            if (na > 0)
                big = fmax(big, fabs(s->c[3 * i + 2]) / na);
        }
    }
    for (int i = 0; i < p->npts; i++)
        big = fmax(big, fmax(fabs(p->pts[i].x[0]), fabs(p->pts[i].x[1])));
    big *= 1e4;
    lo[0] = lo[1] = INFINITY;
    hi[0] = hi[1] = -INFINITY;
    for (int w = 0; w < 2; w++) {
        const dsys *s = p->sys[w];
        poly2 P;
        if (!s)
            continue;
        if (poly2_alloc(&P, s->m) != 0) {
            poly2_free(&P);
            return -1;
        }
        double blo[2] = {-big, -big}, bhi[2] = {big, big};
        poly2_box(&P, blo, bhi);
        poly2_cut_system(&P, s, big);
        for (int i = 0; !P.empty && i < P.n; i++) {
            if (P.tag[i] < 0 || P.tag[(i + P.n - 1) % P.n] < 0)
                continue; /* on the huge box */
            for (int j = 0; j < 2; j++) {
                lo[j] = fmin(lo[j], P.p[2 * i + j]);
                hi[j] = fmax(hi[j], P.p[2 * i + j]);
            }
        }
        poly2_free(&P);
    }
    for (int i = 0; i < p->npts; i++)
        for (int j = 0; j < 2; j++) {
            lo[j] = fmin(lo[j], p->pts[i].x[j]);
            hi[j] = fmax(hi[j], p->pts[i].x[j]);
        }
    if (p->seg)
        for (int j = 0; j < 2; j++) {
            lo[j] = fmin(lo[j], fmin(p->s[j], p->t[j]));
            hi[j] = fmax(hi[j], fmax(p->s[j], p->t[j]));
        }
    panel_pad_box(lo, hi, 2, 0.18);
    double w = hi[0] - lo[0], h = hi[1] - lo[1];
    if (w / h < aspect) {
        double add = (h * aspect - w) / 2;
        lo[0] -= add, hi[0] += add;
    } else {
        double add = (w / aspect - h) / 2;
        lo[1] -= add, hi[1] += add;
    }
    return 0;
}

typedef struct view2 {
    double lo[2], hi[2];
    double px, py, pw, ph, scale;
} view2;

static void to_screen(const view2 *v, const double *x, double *sx, double *sy)
{
    *sx = v->px + (x[0] - v->lo[0]) * v->scale;
    *sy = v->py + v->ph - (x[1] - v->lo[1]) * v->scale;
}

static void path_of(canvas *cv, const view2 *v, const poly2 *P)
{
    for (int i = 0; i < P->n; i++) {
        double sx, sy;
        to_screen(v, P->p + 2 * i, &sx, &sy);
        if (i == 0)
            cairo_move_to(cv->cr, sx, sy);
        else
            cairo_line_to(cv->cr, sx, sy);
    }
    cairo_close_path(cv->cr);
}

static void draw_edges(canvas *cv, const view2 *v, const poly2 *P, const dsys *s)
{
    cairo_t *cr = cv->cr;
    char lab[32];
    for (int i = 0; i < P->n; i++) {
        double ax, ay, bx, by;
        to_screen(v, P->p + 2 * i, &ax, &ay);
        to_screen(v, P->p + 2 * ((i + 1) % P->n), &bx, &by);
        int tag = P->tag[i];
        if (tag < 0) { /* an open side: the frame cuts the polygon */
            double dash[] = {1.5, 4};
            canvas_set_ink_alpha(cv, dsys_line_ink(s), 0.6);
            cairo_set_line_width(cr, 1.2);
            cairo_set_dash(cr, dash, 2, 0);
            cairo_move_to(cr, ax, ay);
            cairo_line_to(cr, bx, by);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
            continue;
        }
        int role = s->role[tag];
        canvas_set_ink(cv, dsys_role_ink(s, role));
        cairo_set_line_width(cr, role ? 4.5 : 2);
        cairo_move_to(cr, ax, ay);
        cairo_line_to(cr, bx, by);
        cairo_stroke(cr);
    }
    for (int i = 0; i < P->n; i++) {
        int tag = P->tag[i];
        if (tag < 0)
            continue;
        double ax, ay, bx, by;
        to_screen(v, P->p + 2 * i, &ax, &ay);
        to_screen(v, P->p + 2 * ((i + 1) % P->n), &bx, &by);
        const double *a = s->c + 3 * tag;
        double na = hypot(a[0], a[1]);
        double ox = a[0] / na, oy = -a[1] / na; /* outward normal on screen */
        dsys_row_label(s, tag, lab, sizeof lab);
        canvas_text(cv, (ax + bx) / 2 + 13 * ox, (ay + by) / 2 + 13 * oy + 4, 11, 1, 1, 1,
                    dsys_line_ink(s), lab);
    }
}

/* The line a.x = b across the frame, dashed. */
static void draw_separator(canvas *cv, const view2 *v, const panel *p)
{
    const double *a = p->sep_a;
    double b = p->sep_b, pts[4][2];
    int np = 0;
    for (int j = 0; j < 2 && np < 4; j++) /* crossings with x = lo, hi, y = lo, hi */
        for (int e = 0; e < 2 && np < 4; e++) {
            double fix = e ? v->hi[j] : v->lo[j];
            int o = 1 - j;
            if (a[o] == 0)
                continue;
            double val = (b - a[j] * fix) / a[o];
            if (val < v->lo[o] - 1e-12 || val > v->hi[o] + 1e-12)
                continue;
            pts[np][j] = fix;
            pts[np][o] = val;
            np++;
        }
    if (np < 2)
        return;
    double ax, ay, bx, by, dash[] = {9, 5};
    to_screen(v, pts[0], &ax, &ay);
    to_screen(v, pts[np - 1], &bx, &by);
    canvas_set_ink(cv, INK_SEPARATOR);
    cairo_set_line_width(cv->cr, 1.8);
    cairo_set_dash(cv->cr, dash, 2, 0);
    cairo_move_to(cv->cr, ax, ay);
    cairo_line_to(cv->cr, bx, by);
    cairo_stroke(cv->cr);
    cairo_set_dash(cv->cr, NULL, 0, 0);
    double lx = ax + 0.8 * (bx - ax), ly = ay + 0.8 * (by - ay);
    canvas_text(cv, lx + 6, ly - 6, 11, 0, 0, 1, INK_SEPARATOR, "separating line");
}

static void draw_axes(canvas *cv, const view2 *v, const panel *p)
{
    cairo_t *cr = cv->cr;
    double ox, oy, zero[2] = {0, 0}, buf_x = 0;
    char buf[160];
    to_screen(v, zero, &ox, &oy);
    canvas_set_ink_alpha(cv, INK_FAINT, 0.5);
    cairo_set_line_width(cr, 0.8);
    if (0 >= v->lo[1] && 0 <= v->hi[1]) {
        cairo_move_to(cr, v->px, oy);
        cairo_line_to(cr, v->px + v->pw, oy);
    }
    if (0 >= v->lo[0] && 0 <= v->hi[0]) {
        cairo_move_to(cr, ox, v->py);
        cairo_line_to(cr, ox, v->py + v->ph);
    }
    cairo_stroke(cr);
    canvas_text(cv, v->px + v->pw - 4, v->py + v->ph - 6, 11, 2, 0, 0, INK_TEXT, p->axis[0]);
    canvas_text(cv, v->px + 6, v->py + 30, 11, 0, 0, 0, INK_TEXT, p->axis[1]);
    snprintf(buf, sizeof buf, "%s from %.3g to %.3g, %s from %.3g to %.3g", p->axis[0], v->lo[0],
             v->hi[0], p->axis[1], v->lo[1], v->hi[1]);
    buf_x = v->px + 6;
    canvas_text(cv, buf_x, v->py + v->ph - 6, 9, 0, 0, 0, INK_FAINT, buf);
}

static void draw_points(canvas *cv, const view2 *v, const panel *p)
{
    if (p->seg) {
        double ax, ay, bx, by;
        to_screen(v, p->s, &ax, &ay);
        to_screen(v, p->t, &bx, &by);
        canvas_arrow(cv, ax, ay, bx, by, 10, INK_TEXT, 1.3);
    }
    for (int i = 0; i < p->npts; i++) {
        const dpoint *d = &p->pts[i];
        double x, y;
        to_screen(v, d->x, &x, &y);
        panel_draw_point(cv, p, i, x, y);
    }
}

hs_code panel_draw_2d(canvas *cv, const panel *p, hs_error *err)
{
    (void)err;
    view2 v;
    double top = p->title[0] ? 24 : 6;
    v.px = p->x + 8;
    v.py = p->y + top;
    v.pw = p->w - 16;
    v.ph = p->h - top - 8;
    if (frame_of(p, v.lo, v.hi, v.pw / v.ph) != 0)
        return HS_ERR_NOMEM;
    v.scale = v.pw / (v.hi[0] - v.lo[0]);
    double scale = fmax(fabs(v.lo[0]), fmax(fabs(v.hi[0]), fmax(fabs(v.lo[1]), fabs(v.hi[1]))));
    draw_axes(cv, &v, p);
    poly2 P[2], C;
    int rows = 0, ok = 1;
    memset(P, 0, sizeof P);
    for (int w = 0; w < 2; w++)
        rows += p->sys[w] ? p->sys[w]->m : 0;
    ok = poly2_alloc(&C, rows) == 0;
    for (int w = 0; w < 2; w++)
        ok = poly2_alloc(&P[w], p->sys[w] ? p->sys[w]->m : 0) == 0 && ok;
    if (!ok) {
        poly2_free(&C);
        poly2_free(&P[0]);
        poly2_free(&P[1]);
        return HS_ERR_NOMEM;
    }
    poly2_box(&C, v.lo, v.hi);
    for (int w = 0; w < 2; w++) {
        const dsys *s = p->sys[w];
        if (!s)
            continue;
        poly2_box(&P[w], v.lo, v.hi);
        poly2_cut_system(&P[w], s, scale);
        poly2_cut_system(&C, s, scale);
        if (P[w].empty)
            continue;
        canvas_set_ink(cv, dsys_fill_ink(s));
        path_of(cv, &v, &P[w]);
        cairo_fill(cv->cr);
    }
    if (p->common && !C.empty && C.n >= 3) {
        canvas_set_ink(cv, INK_COMMON);
        path_of(cv, &v, &C);
        cairo_fill(cv->cr);
    }
    for (int w = 0; w < 2; w++)
        if (p->sys[w] && !P[w].empty)
            draw_edges(cv, &v, &P[w], p->sys[w]);
    if (p->sep)
        draw_separator(cv, &v, p);
    draw_points(cv, &v, p);
    int line = 0;
    for (int w = 0; w < 2; w++)
        if (p->sys[w] && P[w].empty)
            canvas_text(cv, p->x + p->w / 2, p->y + 56 + 22 * line++, 14, 1, 1, 1,
                        dsys_line_ink(p->sys[w]),
                        !p->sys[w]->prefix ? "the system is empty"
                        : p->sys[w]->which ? "B is empty"
                                           : "A is empty");
    poly2_free(&C);
    poly2_free(&P[0]);
    poly2_free(&P[1]);
    panel_draw_texts(cv, p);
    return HS_OK;
}
