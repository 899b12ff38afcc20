/* draw_scene.c -- pictures of worlds, paths and chains (draw.h): every
 * face of every piece placed by its body's pose, flat-shaded and drawn
 * back to front (painter's order; closed convex pieces show only the
 * faces turned to the viewer); a piece's colour is its status in the
 * report: overlap red, touching orange, contact yellow, else grey
 * (static) or blue; contact points as yellow dots with their normals as
 * arrows; a path's step poses faded, joined by its curve.  The camera
 * frames the whole scene unless a view is given.  The world drawer takes
 * any world and report, so a robot (a world, or a chain) draws the same
 * way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/fp.h"
#include "polytope/grow.h"
#include "polytope/mem.h"
#include "src/chain/chain.h"
#include "src/draw/camera.h"
#include "src/draw/canvas.h"
#include "src/draw/draw.h"
#include "src/shape/geom.h"

enum { SCENE_W = 900, SCENE_H = 680 };

typedef struct sface {
    double depth;
    int start, n;      /* corners: pts[3 start .. 3 (start + n) - 1] */
    ink k;
    double alpha;
    int cull;          /* a face of a closed convex piece: hidden when turned away */
} sface;

typedef struct sdraw {
    double *pts;
    int npts, cappts;
    sface *f;
    int nf, capf;
    double *marks;     /* contact points and normals: 6 doubles each */
    int nmarks, capmarks;
    double *curve;     /* a path's curve: 3 doubles per point */
    int ncurve;
    int nomem;
} sdraw;

static void sdraw_free(sdraw *sd)
{
    free(sd->pts);
    free(sd->f);
    free(sd->marks);
    free(sd->curve);
}

/* The faces of one boundary, placed by pose (row-major 4x4). */
static void sdraw_add(sdraw *sd, const double *verts, const int *fs, const int *fv, int nfaces,
                      const double pose[16], ink k, double alpha, int cull)
{
    for (int f = 0; f < nfaces && !sd->nomem; f++) {
        int n = fs[f + 1] - fs[f];
        double *p = grow_array(sd->pts, &sd->cappts, 3L * (sd->npts + n), sizeof *p);
        sface *nf = grow_array(sd->f, &sd->capf, sd->nf + 1L, sizeof *nf);
        if (p)
            sd->pts = p;
        if (nf)
            sd->f = nf;
        if (!p || !nf) {
            sd->nomem = 1;
            return;
        }
        for (int i = 0; i < n; i++) {
            const double *v = verts + 3 * fv[fs[f] + i];
            double *o = sd->pts + 3 * (sd->npts + i);
            for (int r = 0; r < 3; r++)
                o[r] = pose[4 * r] * v[0] + pose[4 * r + 1] * v[1] + pose[4 * r + 2] * v[2] +
                       pose[4 * r + 3];
        }
        sd->f[sd->nf++] = (sface){0, sd->npts, n, k, alpha, cull};
        sd->npts += n;
    }
}

static void sdraw_mark(sdraw *sd, const double p[3], const double nrm[3])
{
    double *m = grow_array(sd->marks, &sd->capmarks, 6L * (sd->nmarks + 1), sizeof *m);
    if (!m) {
        sd->nomem = 1;
        return;
    }
    sd->marks = m;
    memcpy(m + 6 * sd->nmarks, p, 3 * sizeof *m);
    memcpy(m + 6 * sd->nmarks + 3, nrm, 3 * sizeof *m);
    sd->nmarks++;
}

static int cmp_sface(const void *a, const void *b)
{
    double x = ((const sface *)a)->depth, y = ((const sface *)b)->depth;
    return (x > y) - (x < y);
}

/* Newell's normal of face f (unit; zero for a degenerate face). */
static void face_normal(const sdraw *sd, const sface *f, double n[3])
{
    n[0] = n[1] = n[2] = 0;
    for (int i = 0; i < f->n; i++) {
        const double *a = sd->pts + 3 * (f->start + i), *b = sd->pts + 3 * (f->start + (i + 1) % f->n);
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    fp_normalize3(n);
}

/* ------------------------------------------------------------ ordering */

/* Which of two faces is behind the other, by their planes: -1 when f
 * must be drawn before g, 1 when after, 0 when the planes do not tell
 * (the faces cross).  "In front of f" is the viewer's side of its plane. */
static int plane_order(const sdraw *sd, const sface *f, const sface *g, const camera *cam,
                       double eps)
{
    for (int pass = 0; pass < 2; pass++) {
        const sface *a = pass ? g : f, *b = pass ? f : g;
        double n[3];
        face_normal(sd, a, n);
        if (dot3(n, cam->toward) < 0)
            for (int j = 0; j < 3; j++)
                n[j] = -n[j];
        const double *p0 = sd->pts + 3 * a->start;
        int front = 1, behind = 1;
        for (int i = 0; i < b->n; i++) {
            const double *v = sd->pts + 3 * (b->start + i);
            double d = n[0] * (v[0] - p0[0]) + n[1] * (v[1] - p0[1]) + n[2] * (v[2] - p0[2]);
            front &= d > -eps;
            behind &= d < eps;
        }
        if (front && !behind)
            return pass ? 1 : -1; /* b in front of a: a first */
        if (behind && !front)
            return pass ? -1 : 1;
    }
    return 0;
}

/* Painter's order beyond the centroids (a simplified Newell ordering):
 * faces whose screen boxes overlap are ordered by their planes, then
 * sorted topologically, ties and cycles by depth.  Only for scenes of at
 * most SCENE_ORDER_MAX visible faces (quadratic); larger ones keep the
 * order of their centroids. */
enum { SCENE_ORDER_MAX = 4000 };

static int scene_order(sdraw *sd, const camera *cam)
{
    int n = 0;
    for (int i = 0; i < sd->nf; i++) { /* drop the faces turned away */
        double nrm[3];
        face_normal(sd, &sd->f[i], nrm);
        if (!(sd->f[i].cull && dot3(nrm, cam->toward) < 0))
            sd->f[n++] = sd->f[i];
    }
    sd->nf = n;
    if (n > SCENE_ORDER_MAX || n < 2)
        return 0;
    double *box = mem_alloc((size_t)n * 4, sizeof *box), span = 0;
    int *indeg = mem_calloc((size_t)n, sizeof *indeg), *adj_start = mem_calloc((size_t)n + 1,
                                                                                sizeof *adj_start);
    int *edges = NULL, nedges = 0, capedges = 0;
    int *order = mem_alloc((size_t)n, sizeof *order);
    unsigned char *done = mem_calloc((size_t)n, 1);
    sface *sorted = mem_alloc((size_t)n, sizeof *sorted);
    int rc = box && indeg && adj_start && order && done && sorted ? 0 : -1;
    for (int i = 0; rc == 0 && i < n; i++) {
        double *b = box + 4 * i;
        b[0] = b[1] = INFINITY;
        b[2] = b[3] = -INFINITY;
        for (int q = 0; q < sd->f[i].n; q++) {
            const double *v = sd->pts + 3 * (sd->f[i].start + q);
            double u = dot3(v, cam->right), w = dot3(v, cam->up);
            b[0] = fmin(b[0], u), b[1] = fmin(b[1], w);
            b[2] = fmax(b[2], u), b[3] = fmax(b[3], w);
        }
        span = fmax(span, fmax(b[2] - b[0], b[3] - b[1]));
    }
    double eps = 1e-7 * (span > 0 ? span : 1);
    /* edges i -> j: i before j; pairs (i, j) stored flat then bucketed */
    for (int i = 0; rc == 0 && i < n; i++)
        for (int j = i + 1; rc == 0 && j < n; j++) {
            const double *a = box + 4 * i, *b = box + 4 * j;
            if (a[0] >= b[2] - eps || b[0] >= a[2] - eps || a[1] >= b[3] - eps ||
                b[1] >= a[3] - eps)
                continue;
            int o = plane_order(sd, &sd->f[i], &sd->f[j], cam, eps);
            if (o == 0)
                continue;
            int *e = grow_array(edges, &capedges, 2L * (nedges + 1), sizeof *e);
            if (!e) {
                rc = -1;
                break;
            }
            edges = e;
            edges[2 * nedges] = o < 0 ? i : j;
            edges[2 * nedges + 1] = o < 0 ? j : i;
            nedges++;
        }
    int *adj = rc == 0 ? mem_alloc((size_t)nedges + 1, sizeof *adj) : NULL;
    if (rc == 0 && !adj)
        rc = -1;
    if (rc == 0) {
        for (int e = 0; e < nedges; e++) {
            adj_start[edges[2 * e] + 1]++;
            indeg[edges[2 * e + 1]]++;
        }
        for (int i = 0; i < n; i++)
            adj_start[i + 1] += adj_start[i];
        int *fill = order; /* scratch: next free slot per face */
        for (int i = 0; i < n; i++)
            fill[i] = adj_start[i];
        for (int e = 0; e < nedges; e++)
            adj[fill[edges[2 * e]]++] = edges[2 * e + 1];
        /* Kahn's sort, always taking the farthest ready face (lowest index:
         * the faces are sorted by depth); on a cycle the farthest left. */
        int out = 0, scan = 0;
        while (out < n) {
            int pick = -1;
            for (int i = scan; i < n; i++)
                if (!done[i] && indeg[i] == 0) {
                    pick = i;
                    break;
                }
            if (pick < 0)
                for (int i = 0; i < n; i++)
                    if (!done[i]) {
                        pick = i;
                        break;
                    }
            done[pick] = 1;
            sorted[out++] = sd->f[pick];
            for (int k = adj_start[pick]; k < adj_start[pick + 1]; k++)
                indeg[adj[k]]--;
            while (scan < n && done[scan])
                scan++;
            if (pick >= 0)
                scan = 0;
            while (scan < n && done[scan])
                scan++;
        }
        memcpy(sd->f, sorted, (size_t)n * sizeof *sorted);
    }
    free(adj);
    free(box);
    free(indeg);
    free(adj_start);
    free(edges);
    free(order);
    free(done);
    free(sorted);
    return rc;
}

typedef struct scene_text {
    const char *title;
    const char *sub;
} scene_text;

static void scene_legend(canvas *cv)
{
    static const struct {
        ink k;
        const char *what;
    } items[] = {{INK_OVERLAP, "overlap"}, {INK_TOUCHING, "touching"}, {INK_CONTACT, "contact"},
                 {INK_DYNAMIC, "moving body"}, {INK_STATIC, "static body"}};
    double x = 16, y = SCENE_H - 14;
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        rgba c = canvas_ink(items[i].k);
        cairo_set_source_rgba(cv->cr, c.r, c.g, c.b, 0.9);
        cairo_rectangle(cv->cr, x, y - 10, 14, 12);
        cairo_fill(cv->cr);
        x += 20 + canvas_text(cv, x + 20, y, 11, 0, 0, 0, INK_TEXT, items[i].what) + 16;
    }
    canvas_text(cv, x, y, 10, 0, 0, 0, INK_FAINT, "dots: contact points; arrows: contact normals");
}

static hs_code sdraw_render(sdraw *sd, const draw_opts *o, int y_up, const scene_text *txt,
                            hs_error *err)
{
    if (sd->nomem)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    camera cam;
    camera_set_view(&cam, o->have_view ? o->az : y_up ? 35 : -60, o->have_view ? o->el : 25,
                    y_up);
    camera_fit(&cam, sd->pts, sd->npts, 0, 40, SCENE_W, SCENE_H - 70, 0.04);
    double light[3];
    for (int j = 0; j < 3; j++)
        light[j] = cam.toward[j] + 0.6 * cam.up[j] + 0.3 * cam.right[j];
    double ll = sqrt(dot3(light, light));
    for (int j = 0; j < 3; j++)
        light[j] /= ll;
    for (int i = 0; i < sd->nf; i++) {
        sface *f = &sd->f[i];
        double c[3] = {0, 0, 0};
        for (int q = 0; q < f->n; q++)
            for (int j = 0; j < 3; j++)
                c[j] += sd->pts[3 * (f->start + q) + j] / f->n;
        f->depth = camera_depth(&cam, c);
    }
    qsort(sd->f, (size_t)sd->nf, sizeof *sd->f, cmp_sface);
    if (scene_order(sd, &cam) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    canvas cv;
    hs_code rc = canvas_open_file(&cv, o->out, SCENE_W, SCENE_H, err);
    if (rc != HS_OK)
        return rc;
    cairo_t *cr = cv.cr;
    cairo_set_line_width(cr, 0.5);
    for (int i = 0; i < sd->nf; i++) {
        const sface *f = &sd->f[i];
        double n[3], x, y;
        face_normal(sd, f, n);
        double facing = dot3(n, cam.toward);
        if (f->cull && facing < 0)
            continue;
        double shade = 0.5 + 0.5 * fabs(dot3(n, light));
        rgba k = canvas_ink(f->k);
        for (int q = 0; q < f->n; q++) {
            camera_project(&cam, sd->pts + 3 * (f->start + q), &x, &y);
            if (q == 0)
                cairo_move_to(cr, x, y);
            else
                cairo_line_to(cr, x, y);
        }
        cairo_close_path(cr);
        cairo_set_source_rgba(cr, k.r * shade, k.g * shade, k.b * shade, f->alpha);
        if (f->cull && f->alpha >= 1) {
            cairo_fill_preserve(cr);
            cairo_set_source_rgba(cr, k.r * 0.45, k.g * 0.45, k.b * 0.45, 0.6);
            cairo_stroke(cr);
        } else {
            cairo_fill(cr);
        }
    }
    double span = 0;
    for (int j = 0; j < 2; j++)
        span = fmax(span, (j ? SCENE_H : SCENE_W) / cam.scale);
    if (sd->ncurve > 1) {
        double dash[] = {6, 4}, x, y;
        canvas_set_ink_alpha(&cv, INK_TEXT, 0.7);
        cairo_set_line_width(cr, 1.2);
        cairo_set_dash(cr, dash, 2, 0);
        for (int i = 0; i < sd->ncurve; i++) {
            camera_project(&cam, sd->curve + 3 * i, &x, &y);
            if (i == 0)
                cairo_move_to(cr, x, y);
            else
                cairo_line_to(cr, x, y);
        }
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    for (int i = 0; i < sd->nmarks; i++) {
        const double *p = sd->marks + 6 * i, *nrm = p + 3;
        double x, y, e[3], ex, ey;
        for (int j = 0; j < 3; j++)
            e[j] = p[j] + 0.05 * span * nrm[j];
        camera_project(&cam, p, &x, &y);
        camera_project(&cam, e, &ex, &ey);
        if (dot3(nrm, nrm) > 0)
            canvas_arrow(&cv, x, y, ex, ey, 7, INK_TEXT, 1.2);
        cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 1);
        cairo_arc(cr, x, y, 4, 0, 2 * M_PI);
        cairo_fill(cr);
        canvas_dot(&cv, x, y, 3, INK_CONTACT);
    }
    canvas_text(&cv, 16, 22, 14, 0, 1, 0, INK_TEXT, txt->title);
    if (txt->sub)
        canvas_text(&cv, 16, 38, 10.5, 0, 0, 0, INK_FAINT, txt->sub);
    scene_legend(&cv);
    rc = canvas_close(&cv, err);
    canvas_release_fonts();
    return rc;
}

/* ---------------------------------------------------------------- worlds */

static int status_rank(hs_status s)
{
    return s == HS_OVERLAP ? 3 : s == HS_TOUCHING ? 2 : s == HS_CONTACT ? 1 : 0;
}

static ink rank_ink(int rank, int is_static)
{
    return rank == 3 ? INK_OVERLAP
         : rank == 2 ? INK_TOUCHING
         : rank == 1 ? INK_CONTACT
         : is_static ? INK_STATIC
                     : INK_DYNAMIC;
}

/* Strongest status of each piece of body b in rep. */
static void piece_ranks(const hs_world *w, const hs_report *rep, const hs_body *b, int *rank)
{
    int np = hs_body_piece_count(b);
    memset(rank, 0, sizeof *rank * (size_t)(np ? np : 1));
    for (int k = 0; rep && k < hs_report_pair_count(rep); k++) {
        const char *na, *nb;
        hs_report_pair(rep, k, &na, &nb, NULL);
        int side = hs_world_find_body(w, na) == b ? 0 : hs_world_find_body(w, nb) == b ? 1 : -1;
        if (side < 0)
            continue;
        for (int j = 0; j < hs_report_piece_count(rep, k); j++) {
            int pa, pb;
            hs_status st;
            hs_report_piece(rep, k, j, &pa, &pb, &st, NULL, NULL);
            int p = side ? pb : pa;
            if (p >= 0 && p < np && status_rank(st) > rank[p])
                rank[p] = status_rank(st);
        }
    }
}

static hs_code add_body(sdraw *sd, const hs_body *b, const double pose[16], const int *rank,
                        double alpha, hs_error *err)
{
    for (int p = 0; p < hs_body_piece_count(b); p++) {
        int convex, nv, nf, *fs, *fv;
        double *v;
        if (hs_body_piece_boundary(b, p, &convex, &v, &nv, &fs, &fv, &nf, err) != HS_OK)
            return err->code;
        ink k = rank ? rank_ink(rank[p], hs_body_is_static(b)) : INK_DYNAMIC;
        sdraw_add(sd, v, fs, fv, nf, pose, k, alpha, convex);
        hs_free(v);
        hs_free(fs);
        hs_free(fv);
    }
    return HS_OK;
}

static hs_code add_world(sdraw *sd, const hs_world *w, const hs_report *rep, hs_error *err)
{
    for (int i = 0; i < hs_world_body_count(w); i++) {
        const hs_body *b = hs_world_body(w, i);
        int np = hs_body_piece_count(b);
        int *rank = mem_calloc((size_t)(np ? np : 1), sizeof *rank);
        double pose[16];
        if (!rank)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        piece_ranks(w, rep, b, rank);
        hs_body_get_pose(b, pose);
        hs_code rc = add_body(sd, b, pose, rank, 1, err);
        free(rank);
        if (rc != HS_OK)
            return rc;
    }
    for (int k = 0; rep && k < hs_report_pair_count(rep); k++)
        for (int c = 0; c < hs_report_contact_count(rep, k); c++) {
            double pa[3], pb[3], nrm[3];
            if (hs_report_contact(rep, k, c, pa, pb, nrm) == HS_OK)
                sdraw_mark(sd, pa, nrm);
        }
    return HS_OK;
}

static void count_statuses(const hs_report *rep, int count[4])
{
    memset(count, 0, 4 * sizeof *count);
    for (int k = 0; rep && k < hs_report_pair_count(rep); k++) {
        hs_status st;
        hs_report_pair(rep, k, NULL, NULL, &st);
        count[status_rank(st)]++;
    }
}

hs_code draw_world_picture(const hs_world *w, const hs_report *rep, const draw_opts *o,
                           hs_error *err)
{
    sdraw sd;
    memset(&sd, 0, sizeof sd);
    hs_code rc = add_world(&sd, w, rep, err);
    char title[200], sub[200];
    int count[4];
    count_statuses(rep, count);
    snprintf(title, sizeof title, "%d bodies: %d pairs in overlap, %d touching, %d in contact",
             hs_world_body_count(w), count[3], count[2], count[1]);
    snprintf(sub, sizeof sub, "%d faces, %d contact points", sd.nf, sd.nmarks);
    scene_text txt = {title, sub};
    if (rc == HS_OK)
        rc = sdraw_render(&sd, o, 1, &txt, err);
    sdraw_free(&sd);
    return rc;
}

hs_code draw_path_picture(hs_world *w, hs_body *b, const double *poses, int nposes,
                          const double contact[16], const hs_report *rep, const draw_opts *o,
                          hs_error *err)
{
    sdraw sd;
    memset(&sd, 0, sizeof sd);
    double was[16];
    hs_body_get_pose(b, was);
    hs_code rc = hs_body_set_pose(b, contact, err);
    if (rc == HS_OK)
        rc = add_world(&sd, w, rep, err);
    for (int i = 0; rc == HS_OK && i < nposes; i++)
        rc = add_body(&sd, b, poses + 16 * i, NULL, 0.16, err);
    sd.curve = mem_alloc((size_t)nposes * 3 + 3, sizeof *sd.curve);
    if (!sd.curve)
        sd.nomem = 1;
    for (int i = 0; sd.curve && i < nposes; i++) {
        for (int j = 0; j < 3; j++)
            sd.curve[3 * i + j] = poses[16 * i + 4 * j + 3];
        sd.ncurve++;
    }
    char title[200], sub[200];
    int count[4];
    count_statuses(rep, count);
    snprintf(title, sizeof title, "path of %s: %d step poses (faded), at the last pose %d overlap, "
             "%d touching, %d contact", hs_body_name(b), nposes, count[3], count[2], count[1]);
    snprintf(sub, sizeof sub, "%d faces, %d contact points; the dashed curve joins the step poses",
             sd.nf, sd.nmarks);
    scene_text txt = {title, sub};
    if (rc == HS_OK)
        rc = sdraw_render(&sd, o, 1, &txt, err);
    hs_error ignore;
    hs_body_set_pose(b, was, &ignore);
    sdraw_free(&sd);
    return rc;
}

/* ---------------------------------------------------------------- chains */

/* A sphere as a latitude-longitude mesh of quads (12 x 8). */
static void add_sphere(sdraw *sd, const double c[3], double r, const double pose[16], ink k)
{
    enum { SLICES = 12, STACKS = 8 };
    double v[(STACKS + 1) * SLICES * 3];
    int fs[STACKS * SLICES + 1], fv[STACKS * SLICES * 4], nf = 0, nfv = 0;
    for (int i = 0; i <= STACKS; i++)
        for (int j = 0; j < SLICES; j++) {
            double th = M_PI * i / STACKS, ph = 2 * M_PI * j / SLICES;
            double *p = v + 3 * (i * SLICES + j);
            p[0] = c[0] + r * sin(th) * cos(ph);
            p[1] = c[1] + r * sin(th) * sin(ph);
            p[2] = c[2] + r * cos(th);
        }
    for (int i = 0; i < STACKS; i++)
        for (int j = 0; j < SLICES; j++) {
            fs[nf++] = nfv;
            fv[nfv++] = i * SLICES + j;
            fv[nfv++] = (i + 1) * SLICES + j;
            fv[nfv++] = (i + 1) * SLICES + (j + 1) % SLICES;
            fv[nfv++] = i * SLICES + (j + 1) % SLICES;
        }
    fs[nf] = nfv;
    sdraw_add(sd, v, fs, fv, nf, pose, k, 1, 1);
}

/* Is idx in one of the n pairs: at place `which` (0, 1), or either (-1)? */
static int pair_has(const int *pairs, int n, int idx, int which)
{
    for (int i = 0; i < n; i++) {
        if (which >= 0 ? pairs[2 * i + which] == idx
                       : pairs[2 * i] == idx || pairs[2 * i + 1] == idx)
            return 1;
    }
    return 0;
}

/* The bodies of w (may be NULL), every piece of body i ranked rank_of(i)
 * (3 overlap, 2 touching, 0 none; see rank_ink). */
static hs_code add_ranked_bodies(sdraw *sd, const hs_world *w, int (*rank_of)(const void *, int),
                                 const void *ctx, hs_error *err)
{
    for (int i = 0; w && i < hs_world_body_count(w); i++) {
        const hs_body *b = hs_world_body(w, i);
        int np = hs_body_piece_count(b), *rank = mem_calloc((size_t)(np ? np : 1), sizeof *rank);
        double pose[16];
        if (!rank)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        for (int p = 0; p < np; p++)
            rank[p] = rank_of(ctx, i);
        hs_body_get_pose(b, pose);
        hs_code rc = add_body(sd, b, pose, rank, 1, err);
        free(rank);
        if (rc != HS_OK)
            return rc;
    }
    return HS_OK;
}

/* The closest points near[0..2] (on the moving thing) and near[3..5] (on
 * the scene), marked, the first with the direction towards the second. */
static void mark_near(sdraw *sd, const double *near)
{
    double d[3] = {near[3] - near[0], near[4] - near[1], near[5] - near[2]};
    fp_normalize3(d);
    sdraw_mark(sd, near, d);
    double none[3] = {0, 0, 0};
    sdraw_mark(sd, near + 3, none);
}

/* The pairs (link, body) of a chain's scene collisions. */
typedef struct chain_hits {
    const int *scene;
    int nscene;
} chain_hits;

static int chain_body_rank(const void *ctx, int body)
{
    const chain_hits *h = ctx;
    return pair_has(h->scene, h->nscene, body, 1) ? 3 : 0;
}

hs_code draw_chain_picture(const hs_chain *c, const hs_world *w, const int *self, int nself,
                           const int *scene, int nscene, const double *near, const draw_opts *o,
                           hs_error *err)
{
    sdraw sd;
    memset(&sd, 0, sizeof sd);
    hs_code rc = HS_OK;
    for (int i = 0; rc == HS_OK && i < c->n; i++) {
        double pose[16];
        hs_chain_link_pose(c, i, pose);
        int hit = pair_has(self, nself, i, -1) || pair_has(scene, nscene, i, 0);
        ink k = hit ? INK_OVERLAP : INK_DYNAMIC;
        const chain_link *L = &c->link[i];
        for (int s = 0; s < L->nsph; s++)
            add_sphere(&sd, L->sph[s].c, L->sph[s].r, pose, k);
        for (int g = 0; rc == HS_OK && g < L->ncvx; g++) {
            int convex, nv, nf, *fs, *fv;
            double *v;
            if ((rc = geom_boundary(L->cvx[g], &convex, &v, &nv, &fs, &fv, &nf, err)) != HS_OK)
                break;
            sdraw_add(&sd, v, fs, fv, nf, pose, k, 1, convex);
            free(v);
            free(fs);
            free(fv);
        }
    }
    chain_hits hits = {scene, nscene};
    if (rc == HS_OK)
        rc = add_ranked_bodies(&sd, w, chain_body_rank, &hits, err);
    if (near)
        mark_near(&sd, near);
    char title[200], sub[200];
    snprintf(title, sizeof title, "chain of %d links: %d pairs in self-collision, %d link-body "
             "collisions (red)", c->n, nself, nscene);
    snprintf(sub, sizeof sub, "%d faces%s", sd.nf,
             near ? "; yellow: the closest points of the chain and the scene" : "");
    scene_text txt = {title, sub};
    if (rc == HS_OK)
        rc = sdraw_render(&sd, o, 0, &txt, err);
    sdraw_free(&sd);
    return rc;
}

/* The strongest status (rank 3 overlap, 2 touching) of link i in the
 * pairs (a, b: links; b < 0 and body: a scene body), or of body k when
 * i < 0. */
static int robot_rank(const hs_robot_pair *p, int n, int link, int body)
{
    int rank = 0;
    for (int k = 0; k < n; k++) {
        int hit = link >= 0 ? (p[k].a == link || p[k].b == link) : (p[k].b < 0 && p[k].body == body);
        int r = p[k].status == HS_OVERLAP ? 3 : p[k].status == HS_TOUCHING ? 2 : 0;
        if (hit && r > rank)
            rank = r;
    }
    return rank;
}

/* The scene pairs of a robot, for the ranks of the bodies they meet. */
typedef struct robot_hits {
    const hs_robot_pair *scene;
    int nscene;
} robot_hits;

static int robot_body_rank(const void *ctx, int body)
{
    const robot_hits *h = ctx;
    return robot_rank(h->scene, h->nscene, -1, body);
}

hs_code draw_robot_picture(const hs_robot *r, const hs_world *w, const hs_robot_pair *self,
                           int nself, const hs_robot_pair *scene, int nscene, const double *near,
                           const draw_opts *o, hs_error *err)
{
    sdraw sd;
    memset(&sd, 0, sizeof sd);
    hs_code rc = HS_OK;
    for (int i = 0; rc == HS_OK && i < hs_robot_link_count(r); i++) {
        double pose[16];
        hs_robot_link_pose(r, i, pose);
        int rank = robot_rank(self, nself, i, -1), rs = robot_rank(scene, nscene, i, -1);
        ink k = rank_ink(rs > rank ? rs : rank, 0);
        for (int p = 0; rc == HS_OK && p < hs_robot_link_piece_count(r, i); p++) {
            int convex, nv, nf, *fs, *fv;
            double *v;
            if ((rc = hs_robot_link_piece_boundary(r, i, p, &convex, &v, &nv, &fs, &fv, &nf,
                                                   err)) != HS_OK)
                break;
            sdraw_add(&sd, v, fs, fv, nf, pose, k, 1, convex);
            hs_free(v);
            hs_free(fs);
            hs_free(fv);
        }
    }
    robot_hits hits = {scene, nscene};
    if (rc == HS_OK)
        rc = add_ranked_bodies(&sd, w, robot_body_rank, &hits, err);
    if (near)
        mark_near(&sd, near);
    char title[300], sub[200];
    snprintf(title, sizeof title, "robot %s, %d links: %d pairs in self-collision, %d link-body "
             "collisions (red: overlap, orange: touching)", hs_robot_name(r),
             hs_robot_link_count(r), nself, nscene);
    snprintf(sub, sizeof sub, "%d faces%s", sd.nf,
             near ? "; yellow: the closest points of the robot and the scene" : "");
    scene_text txt = {title, sub};
    if (rc == HS_OK)
        rc = sdraw_render(&sd, o, 0, &txt, err);
    sdraw_free(&sd);
    return rc;
}
