/* draw_poly3.c -- panels of 3 variables (panel.h): each polyhedron from
 * its exact vertices and faces (solver/vertices.h), an unbounded one cut
 * by the frame box (its faces on the box are open sides: faint, their
 * edges dotted); the common region from the rows of both; translucent
 * faces drawn back to front; every edge solid where it is seen and dashed
 * where a polyhedron hides it (a ray from a point of the edge towards the
 * viewer that passes through the inside of A or B).
 *
 * The frame box holds the true vertices of both systems (vertices of the
 * system cut by a huge box that lie on no side of that box) and the
 * points shown, padded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/fp.h"
#include "polytope/mem.h"
#include "solver/vertices.h"
#include "src/draw/camera.h"
#include "src/draw/panel.h"

/* A polyhedron cut by a box, ready to draw. */
typedef struct poly3 {
    int state;        /* 1: drawn; 0: empty; -1: cannot be drawn (why) */
    char why[96];
    int m_real;       /* rows of the system; the 6 rows after them are the box */
    int m;
    double *rows;     /* m * 4: a, b */
    vertex_set *vs;
    int nf;
    int *frow;        /* nf: the row of face f */
    int *fstart;      /* nf + 1 */
    int *fvert;
} poly3;

static void poly3_free(poly3 *P)
{
    free(P->rows);
    vertex_set_free(P->vs);
    free(P->frow);
    free(P->fstart);
    free(P->fvert);
    memset(P, 0, sizeof *P);
}

static int has_row(const vertex_set *vs, int v, int r)
{
    for (int i = vs->tight_start[v]; i < vs->tight_start[v + 1]; i++)
        if (vs->tight[i] == r)
            return 1;
    return 0;
}

typedef struct angled {
    double ang;
    int v;
} angled;

static int cmp_angled(const void *a, const void *b)
{
    double x = ((const angled *)a)->ang, y = ((const angled *)b)->ang;
    return (x > y) - (x < y);
}

/* The faces: one per facet row, its vertices in order around it. */
static hs_code poly3_faces(poly3 *P)
{
    const vertex_set *vs = P->vs;
    int total = 0;
    for (int v = 0; v < vs->nverts; v++)
        total += vs->tight_start[v + 1] - vs->tight_start[v];
    P->frow = mem_alloc((size_t)vs->nfacets + 1, sizeof *P->frow);
    P->fstart = mem_alloc((size_t)vs->nfacets + 2, sizeof *P->fstart);
    P->fvert = mem_alloc((size_t)total + 1, sizeof *P->fvert);
    angled *tmp = mem_alloc((size_t)vs->nverts + 1, sizeof *tmp);
    if (!P->frow || !P->fstart || !P->fvert || !tmp) {
        free(tmp);
        return HS_ERR_NOMEM;
    }
    P->nf = 0;
    int used = 0;
    for (int r = 0; r < P->m; r++) {
        if (!vs->is_facet[r])
            continue;
        const double *a = P->rows + 4 * r;
        double c[3] = {0, 0, 0}, u[3], w[3], tmpv[3] = {1, 0, 0};
        int nv = 0;
        for (int v = 0; v < vs->nverts; v++)
            if (has_row(vs, v, r)) {
                tmp[nv++].v = v;
                for (int j = 0; j < 3; j++)
                    c[j] += vs->x[3 * v + j];
            }
        if (nv < 3)
            continue;
        for (int j = 0; j < 3; j++)
            c[j] /= nv;
        if (fabs(a[0]) > 0.9 * sqrt(dot3(a, a)))
            tmpv[0] = 0, tmpv[1] = 1;
        cross3(a, tmpv, u);
        cross3(a, u, w);
        for (int i = 0; i < nv; i++) {
            double d[3];
            for (int j = 0; j < 3; j++)
                d[j] = vs->x[3 * tmp[i].v + j] - c[j];
            tmp[i].ang = atan2(dot3(d, w), dot3(d, u));
        }
        qsort(tmp, (size_t)nv, sizeof *tmp, cmp_angled);
        P->frow[P->nf] = r;
        P->fstart[P->nf] = used;
        for (int i = 0; i < nv; i++)
            P->fvert[used++] = tmp[i].v;
        P->nf++;
    }
    P->fstart[P->nf] = used;
    free(tmp);
    return HS_OK;
}

/* Build P from the rows of up to two systems cut by the box [lo, hi]. */
static hs_code poly3_build(poly3 *P, const dsys *s1, const dsys *s2, const double lo[3],
                           const double hi[3], hs_error *err)
{
    memset(P, 0, sizeof *P);
    P->m_real = (s1 ? s1->m : 0) + (s2 ? s2->m : 0);
    P->m = P->m_real + 6;
    P->rows = mem_alloc((size_t)P->m * 4, sizeof *P->rows);
    double *a = mem_alloc((size_t)P->m * 3, sizeof *a), *b = mem_alloc((size_t)P->m, sizeof *b);
    hs_code rc = HS_OK;
    if (!P->rows || !a || !b) {
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
        goto done;
    }
    int r = 0;
    for (int w = 0; w < 2; w++) {
        const dsys *s = w ? s2 : s1;
        for (int i = 0; s && i < s->m; i++, r++)
            for (int j = 0; j < 4; j++)
                P->rows[4 * r + j] = s->c[4 * i + j];
    }
    for (int j = 0; j < 3; j++, r += 2) {
        double *up = P->rows + 4 * r, *down = up + 4;
        memset(up, 0, 8 * sizeof *up);
        up[j] = 1, up[3] = hi[j];
        down[j] = -1, down[3] = -lo[j];
    }
    for (int i = 0; i < P->m; i++) {
        for (int j = 0; j < 3; j++)
            a[3 * i + j] = P->rows[4 * i + j];
        b[i] = P->rows[4 * i + 3];
    }
    hs_error mine;
    hs_poly *poly = hs_poly_from_doubles(3, P->m, a, b, NULL, &mine);
    if (!poly) {
        rc = err_set(err, mine.code, "%s", mine.msg);
        goto done;
    }
    hs_code vr = vertex_enum(poly, NULL, &P->vs, &mine);
    hs_poly_free(poly);
    if (vr == HS_ERR_INPUT) {
        P->state = strstr(mine.msg, "empty") ? 0 : -1;
        snprintf(P->why, sizeof P->why, "%s",
                 P->state == 0 ? "empty" : "flat (not full-dimensional): not drawn");
    } else if (vr != HS_OK) {
        rc = err_set(err, mine.code, "%s", mine.msg);
    } else {
        P->state = 1;
        if (poly3_faces(P) != HS_OK)
            rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    }
done:
    free(a);
    free(b);
    return rc;
}

/* Does a ray from p towards the viewer pass through the inside of P? */
static int poly3_hides(const poly3 *P, const double p[3], const double dv[3], double size)
{
    if (P->state != 1)
        return 0;
    double lo = -INFINITY, hi = INFINITY;
    for (int i = 0; i < P->m; i++) {
        const double *a = P->rows + 4 * i;
        double ad = dot3(a, dv), f = a[3] - dot3(a, p), na = sqrt(dot3(a, a));
        double tol = 1e-9 * (fabs(a[3]) + na * size);
        if (fabs(ad) <= 1e-12 * na) {
            if (f < -tol)
                return 0;
            continue;
        }
        double s = f / ad;
        if (ad > 0)
            hi = fmin(hi, s);
        else
            lo = fmax(lo, s);
    }
    return hi > fmax(lo, 0) + 1e-6 * size;
}

/* ------------------------------------------------------------ picture */

typedef struct face_ref {
    double depth;
    int poly, face; /* poly 0, 1: A, B; 2: the common region */
} face_ref;

static int cmp_face_depth(const void *a, const void *b)
{
    double x = ((const face_ref *)a)->depth, y = ((const face_ref *)b)->depth;
    return (x > y) - (x < y);
}

typedef struct scene3 {
    const panel *p;
    poly3 P[3];
    camera cam;
    double lo[3], hi[3], size;
} scene3;

static void face_path(canvas *cv, const scene3 *S, const poly3 *P, int f)
{
    for (int i = P->fstart[f]; i < P->fstart[f + 1]; i++) {
        double x, y;
        camera_project(&S->cam, P->vs->x + 3 * P->fvert[i], &x, &y);
        if (i == P->fstart[f])
            cairo_move_to(cv->cr, x, y);
        else
            cairo_line_to(cv->cr, x, y);
    }
    cairo_close_path(cv->cr);
}

static hs_code draw_faces(canvas *cv, const scene3 *S)
{
    int total = 0;
    for (int k = 0; k < 3; k++)
        total += S->P[k].state == 1 ? S->P[k].nf : 0;
    face_ref *fr = mem_alloc((size_t)total + 1, sizeof *fr);
    if (!fr)
        return HS_ERR_NOMEM;
    int n = 0;
    for (int k = 0; k < 3; k++) {
        const poly3 *P = &S->P[k];
        for (int f = 0; P->state == 1 && f < P->nf; f++) {
            double c[3] = {0, 0, 0};
            int cnt = P->fstart[f + 1] - P->fstart[f];
            for (int i = P->fstart[f]; i < P->fstart[f + 1]; i++)
                for (int j = 0; j < 3; j++)
                    c[j] += P->vs->x[3 * P->fvert[i] + j] / cnt;
            fr[n++] = (face_ref){camera_depth(&S->cam, c), k, f};
        }
    }
    qsort(fr, (size_t)n, sizeof *fr, cmp_face_depth);
    for (int i = 0; i < n; i++) {
        const poly3 *P = &S->P[fr[i].poly];
        int row = P->frow[fr[i].face];
        if (fr[i].poly == 2) {
            if (row >= P->m_real)
                continue;
            canvas_set_ink_alpha(cv, INK_COMMON, 0.3);
        } else {
            const dsys *s = S->p->sys[fr[i].poly];
            if (row >= P->m_real)
                canvas_set_ink_alpha(cv, dsys_fill_ink(s), 0.07);
            else if (s->role[row])
                canvas_set_ink_alpha(cv, dsys_role_ink(s, s->role[row]), 0.5);
            else
                canvas_set_ink(cv, dsys_fill_ink(s));
        }
        face_path(cv, S, P, fr[i].face);
        cairo_fill(cv->cr);
    }
    free(fr);
    return HS_OK;
}

/* The facet rows shared by vertices u and v: up to two. */
static int edge_rows(const poly3 *P, int u, int v, int rows[2])
{
    int n = 0;
    for (int i = P->vs->tight_start[u]; i < P->vs->tight_start[u + 1] && n < 2; i++) {
        int r = P->vs->tight[i];
        if (P->vs->is_facet[r] && has_row(P->vs, v, r))
            rows[n++] = r;
    }
    return n;
}

static void stroke_piece(canvas *cv, const double *a, const double *b, int hidden, ink k)
{
    double dash[] = {4, 3};
    cairo_t *cr = cv->cr;
    canvas_set_ink_alpha(cv, k, hidden ? 0.75 : 1);
    cairo_set_line_width(cr, hidden ? 1 : 1.8);
    cairo_set_dash(cr, hidden ? dash : NULL, hidden ? 2 : 0, 0);
    cairo_move_to(cr, a[0], a[1]);
    cairo_line_to(cr, b[0], b[1]);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
}

/* Edge u-v of polyhedron k: split into pieces, each solid or dashed by
 * whether A or B hides its middle; runs of equal pieces in one stroke. */
static void draw_edge(canvas *cv, const scene3 *S, int k, int u, int v)
{
    const poly3 *P = &S->P[k];
    const dsys *s = S->p->sys[k];
    int rows[2], nr = edge_rows(P, u, v, rows), open = 0;
    for (int i = 0; i < nr; i++)
        open += rows[i] >= P->m_real;
    if (nr == 2 && open == 2)
        return; /* an edge of the frame box */
    const double *pu = P->vs->x + 3 * u, *pv = P->vs->x + 3 * v;
    if (open) { /* where the box cuts the polyhedron: an open side */
        double a[2], b[2], dash[] = {1.5, 3.5};
        camera_project(&S->cam, pu, &a[0], &a[1]);
        camera_project(&S->cam, pv, &b[0], &b[1]);
        canvas_set_ink_alpha(cv, dsys_line_ink(s), 0.6);
        cairo_set_line_width(cv->cr, 1.1);
        cairo_set_dash(cv->cr, dash, 2, 0);
        cairo_move_to(cv->cr, a[0], a[1]);
        cairo_line_to(cv->cr, b[0], b[1]);
        cairo_stroke(cv->cr);
        cairo_set_dash(cv->cr, NULL, 0, 0);
        return;
    }
    enum { PIECES = 40 };
    int state[PIECES];
    for (int i = 0; i < PIECES; i++) {
        double f = (i + 0.5) / PIECES, m[3];
        for (int j = 0; j < 3; j++)
            m[j] = pu[j] + f * (pv[j] - pu[j]);
        state[i] = poly3_hides(&S->P[0], m, S->cam.toward, S->size) ||
                   poly3_hides(&S->P[1], m, S->cam.toward, S->size);
    }
    for (int i = 0; i < PIECES;) {
        int j = i;
        while (j < PIECES && state[j] == state[i])
            j++;
        double a3[3], b3[3], a[2], b[2];
        for (int q = 0; q < 3; q++) {
            a3[q] = pu[q] + (double)i / PIECES * (pv[q] - pu[q]);
            b3[q] = pu[q] + (double)j / PIECES * (pv[q] - pu[q]);
        }
        camera_project(&S->cam, a3, &a[0], &a[1]);
        camera_project(&S->cam, b3, &b[0], &b[1]);
        stroke_piece(cv, a, b, state[i], dsys_line_ink(s));
        i = j;
    }
}

static void draw_labels_and_roles(canvas *cv, const scene3 *S, int k)
{
    const poly3 *P = &S->P[k];
    const dsys *s = S->p->sys[k];
    char lab[32];
    for (int f = 0; f < P->nf; f++) {
        int row = P->frow[f];
        if (row >= P->m_real)
            continue;
        if (s->role[row]) {
            canvas_set_ink(cv, dsys_role_ink(s, s->role[row]));
            cairo_set_line_width(cv->cr, 3.5);
            face_path(cv, S, P, f);
            cairo_stroke(cv->cr);
        }
        double c[3] = {0, 0, 0}, x, y;
        int cnt = P->fstart[f + 1] - P->fstart[f];
        for (int i = P->fstart[f]; i < P->fstart[f + 1]; i++)
            for (int j = 0; j < 3; j++)
                c[j] += P->vs->x[3 * P->fvert[i] + j] / cnt;
        camera_project(&S->cam, c, &x, &y);
        int front = dot3(P->rows + 4 * row, S->cam.toward) > 0;
        dsys_row_label(s, row, lab, sizeof lab);
        canvas_text(cv, x, y + 4, front ? 11 : 9, 1, front, 1, dsys_line_ink(s), lab);
    }
}

/* The plane a.x = b across the frame box, translucent. */
static void draw_plane(canvas *cv, const scene3 *S, const double a[3], double b)
{
    double pts[12][3], cen[3] = {0, 0, 0};
    int np = 0;
    for (int j = 0; j < 3; j++) /* the 4 box edges parallel to axis j */
        for (int e = 0; e < 4; e++) {
            int o1 = (j + 1) % 3, o2 = (j + 2) % 3;
            double p[3];
            p[o1] = e & 1 ? S->hi[o1] : S->lo[o1];
            p[o2] = e & 2 ? S->hi[o2] : S->lo[o2];
            if (a[j] == 0)
                continue;
            p[j] = (b - a[o1] * p[o1] - a[o2] * p[o2]) / a[j];
            if (p[j] < S->lo[j] || p[j] > S->hi[j])
                continue;
            for (int q = 0; q < 3; q++)
                pts[np][q] = p[q], cen[q] += p[q];
            np++;
        }
    if (np < 3)
        return;
    for (int q = 0; q < 3; q++)
        cen[q] /= np;
    double u[3], w[3], tmpv[3] = {1, 0, 0};
    if (fabs(a[0]) > 0.9 * sqrt(dot3(a, a)))
        tmpv[0] = 0, tmpv[1] = 1;
    cross3(a, tmpv, u);
    cross3(a, u, w);
    angled order[12];
    for (int i = 0; i < np; i++) {
        double d[3] = {pts[i][0] - cen[0], pts[i][1] - cen[1], pts[i][2] - cen[2]};
        order[i] = (angled){atan2(dot3(d, w), dot3(d, u)), i};
    }
    qsort(order, (size_t)np, sizeof *order, cmp_angled);
    for (int i = 0; i < np; i++) {
        double x, y;
        camera_project(&S->cam, pts[order[i].v], &x, &y);
        if (i == 0)
            cairo_move_to(cv->cr, x, y);
        else
            cairo_line_to(cv->cr, x, y);
    }
    cairo_close_path(cv->cr);
    canvas_set_ink_alpha(cv, INK_SEPARATOR, 0.12);
    cairo_fill_preserve(cv->cr);
    double dash[] = {9, 5};
    canvas_set_ink(cv, INK_SEPARATOR);
    cairo_set_line_width(cv->cr, 1.5);
    cairo_set_dash(cv->cr, dash, 2, 0);
    cairo_stroke(cv->cr);
    cairo_set_dash(cv->cr, NULL, 0, 0);
    double x, y;
    camera_project(&S->cam, pts[order[0].v], &x, &y);
    canvas_text(cv, x + 4, y - 6, 11, 0, 0, 1, INK_SEPARATOR, "separating plane");
}

static void draw_tripod(canvas *cv, const scene3 *S)
{
    const panel *p = S->p;
    double ox = p->x + 34, oy = p->y + p->h - 30;
    for (int j = 0; j < 3; j++) {
        double e[3] = {0, 0, 0};
        e[j] = 1;
        double dx = 22 * dot3(e, S->cam.right), dy = -22 * dot3(e, S->cam.up);
        canvas_arrow(cv, ox, oy, ox + dx, oy + dy, 5, INK_FAINT, 1);
        canvas_text(cv, ox + 1.35 * dx, oy + 1.35 * dy + 4, 10, 1, 0, 0, INK_TEXT, p->axis[j]);
    }
}

static void draw_points3(canvas *cv, const scene3 *S)
{
    const panel *p = S->p;
    if (p->seg) {
        double ax, ay, bx, by;
        camera_project(&S->cam, p->s, &ax, &ay);
        camera_project(&S->cam, p->t, &bx, &by);
        canvas_arrow(cv, ax, ay, bx, by, 10, INK_TEXT, 1.3);
    }
    for (int i = 0; i < p->npts; i++) {
        const dpoint *d = &p->pts[i];
        double x, y;
        camera_project(&S->cam, d->x, &x, &y);
        panel_draw_point(cv, p, i, x, y);
    }
}

/* The frame box: true vertices and points, padded. */
static hs_code frame_box(scene3 *S, hs_error *err)
{
    const panel *p = S->p;
    double big = 1, lo[3], hi[3];
    for (int w = 0; w < 2; w++)
        for (int i = 0; p->sys[w] && i < p->sys[w]->m; i++) {
            const double *a = p->sys[w]->c + 4 * i;
            double na = sqrt(dot3(a, a));
            if (na > 0)
                big = fmax(big, fabs(a[3]) / na);
        }
    big *= 1e4;
    for (int j = 0; j < 3; j++)
        lo[j] = -big, hi[j] = big, S->lo[j] = INFINITY, S->hi[j] = -INFINITY;
    for (int w = 0; w < 2; w++) {
        poly3 P;
        if (!p->sys[w])
            continue;
        hs_code rc = poly3_build(&P, p->sys[w], NULL, lo, hi, err);
        if (rc != HS_OK) {
            poly3_free(&P);
            return rc;
        }
        for (int v = 0; P.state == 1 && v < P.vs->nverts; v++) {
            int on_box = 0;
            for (int i = P.vs->tight_start[v]; i < P.vs->tight_start[v + 1]; i++)
                on_box |= P.vs->tight[i] >= P.m_real;
            for (int j = 0; !on_box && j < 3; j++) {
                S->lo[j] = fmin(S->lo[j], P.vs->x[3 * v + j]);
                S->hi[j] = fmax(S->hi[j], P.vs->x[3 * v + j]);
            }
        }
        poly3_free(&P);
    }
    for (int i = 0; i < p->npts; i++)
        for (int j = 0; j < 3; j++) {
            S->lo[j] = fmin(S->lo[j], p->pts[i].x[j]);
            S->hi[j] = fmax(S->hi[j], p->pts[i].x[j]);
        }
    for (int j = 0; p->seg && j < 3; j++) {
        S->lo[j] = fmin(S->lo[j], fmin(p->s[j], p->t[j]));
        S->hi[j] = fmax(S->hi[j], fmax(p->s[j], p->t[j]));
    }
    panel_pad_box(S->lo, S->hi, 3, 0.12);
    S->size = 0;
    for (int j = 0; j < 3; j++)
        S->size = fmax(S->size, S->hi[j] - S->lo[j]);
    return HS_OK;
}

hs_code panel_draw_3d(canvas *cv, const panel *p, hs_error *err)
{
    scene3 S;
    memset(&S, 0, sizeof S);
    S.p = p;
    hs_code rc = frame_box(&S, err);
    for (int w = 0; rc == HS_OK && w < 2; w++)
        if (p->sys[w])
            rc = poly3_build(&S.P[w], p->sys[w], NULL, S.lo, S.hi, err);
    if (rc == HS_OK && p->common && p->sys[0] && p->sys[1] && S.P[0].state == 1 &&
        S.P[1].state == 1)
        rc = poly3_build(&S.P[2], p->sys[0], p->sys[1], S.lo, S.hi, err);
    if (rc != HS_OK)
        goto done;
    camera_set_view(&S.cam, p->az, p->el, 0);
    {
        int n = 0, cap = p->npts + 2;
        for (int k = 0; k < 2; k++)
            cap += S.P[k].state == 1 ? S.P[k].vs->nverts : 0;
        double *pts = mem_alloc((size_t)cap * 3, sizeof *pts);
        if (!pts) {
            rc = err_set(err, HS_ERR_NOMEM, "out of memory");
            goto done;
        }
        for (int k = 0; k < 2; k++)
            for (int v = 0; S.P[k].state == 1 && v < S.P[k].vs->nverts; v++, n++)
                memcpy(pts + 3 * n, S.P[k].vs->x + 3 * v, 3 * sizeof *pts);
        for (int i = 0; i < p->npts; i++, n++)
            memcpy(pts + 3 * n, p->pts[i].x, 3 * sizeof *pts);
        if (p->seg) {
            memcpy(pts + 3 * n++, p->s, 3 * sizeof *pts);
            memcpy(pts + 3 * n++, p->t, 3 * sizeof *pts);
        }
        double top = p->title[0] ? 22 : 0;
        camera_fit(&S.cam, pts, n, p->x, p->y + top, p->w, p->h - top, 0.08);
        free(pts);
    }
    if (draw_faces(cv, &S) != HS_OK) {
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int k = 0; k < 2; k++)
        for (int e = 0; S.P[k].state == 1 && e < S.P[k].vs->nedges; e++)
            draw_edge(cv, &S, k, S.P[k].vs->edges[2 * e], S.P[k].vs->edges[2 * e + 1]);
    for (int k = 0; k < 2; k++)
        if (S.P[k].state == 1)
            draw_labels_and_roles(cv, &S, k);
    if (p->sep)
        draw_plane(cv, &S, p->sep_a, p->sep_b);
    draw_points3(cv, &S);
    draw_tripod(cv, &S);
    int line = 0;
    for (int k = 0; k < 2; k++) {
        char msg[128];
        if (!p->sys[k] || S.P[k].state == 1)
            continue;
        snprintf(msg, sizeof msg, "%s is %s",
                 !p->sys[k]->prefix ? "the system" : k ? "B" : "A", S.P[k].why);
        canvas_text(cv, p->x + p->w / 2, p->y + 56 + 22 * line++, 14, 1, 1, 1,
                    dsys_line_ink(p->sys[k]), msg);
    }
    panel_draw_texts(cv, p);
done:
    for (int k = 0; k < 3; k++)
        poly3_free(&S.P[k]);
    return rc;
}
