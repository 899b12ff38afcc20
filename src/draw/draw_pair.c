/* draw_pair.c -- `halfspace draw A.ine [B.ine] -o OUT`: one panel with
 * the system or the pair, the answer of the query as its title, the
 * witness point, the separating line or plane of the certificate of a
 * disjoint or touching pair, and a legend. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "src/draw/canvas.h"
#include "src/draw/draw.h"
#include "src/draw/panel.h"

enum { PAIR_W = 800, PAIR_H = 660, PAIR_TOP = 34, PAIR_LEGEND = 58 };

int draw_parse_view(const char *text, draw_opts *o)
{
    char *end;
    double az = strtod(text, &end);
    if (end == text || (*end != ',' && *end != ' '))
        return -1;
    const char *rest = end + 1;
    double el = strtod(rest, &end);
    if (end == rest || *end || !isfinite(az) || !isfinite(el) || el < -90 || el > 90)
        return -1;
    o->have_view = 1;
    o->az = az;
    o->el = el;
    return 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The separating hyperplane h.x = c of a disjoint or touching pair's
 * certificate: A's part of the combination gives h.x <= cA on A, B's part
 * -h.x <= cB on B; the line is midway (cA - cB) / 2 (touching: cA = -cB).
 * Returns 0 when the certificate does not involve both systems. */
int result_separator(const hs_result *r, const hs_poly *A, const hs_poly *B, double *h,
                        double *c)
{
    int n = hs_poly_dim(A), used[2] = {0, 0};
    double cA = 0, cB = 0, a[3];
    for (int j = 0; j < n; j++)
        h[j] = 0;
    for (int k = 0; k < hs_result_multiplier_count(r); k++) {
        int which, row;
        double y, b;
        if (hs_result_multiplier(r, k, &which, &row, &y, NULL) != HS_OK || y == 0)
            continue;
        hs_poly_row(which ? B : A, row, a, &b);
        used[which != 0] = 1;
        if (which)
            cB += y * b;
        else {
            cA += y * b;
            for (int j = 0; j < n; j++)
                h[j] += y * a[j];
        }
    }
    double norm = 0;
    for (int j = 0; j < n; j++)
        norm += h[j] * h[j];
    *c = 0.5 * (cA - cB);
    return used[0] && used[1] && norm > 0;
}

static void draw_legend(canvas *cv, const hs_poly *A, const hs_poly *B, int common, int witness,
                        int sep)
{
    double y = PAIR_H - PAIR_LEGEND + 22, x = 16;
    char buf[160];
    cairo_t *cr = cv->cr;
    for (int w = 0; w < (B ? 2 : 1); w++) {
        const hs_poly *p = w ? B : A;
        rgba f = canvas_ink(w ? INK_B_FILL : INK_A_FILL);
        cairo_set_source_rgba(cr, f.r, f.g, f.b, 0.6);
        cairo_rectangle(cr, x, y - 10, 14, 12);
        cairo_fill(cr);
        snprintf(buf, sizeof buf, "%s%s (%d rows)", B ? (w ? "B: " : "A: ") : "",
                 base_name(hs_poly_name(p)), hs_poly_rows(p));
        x += 20 + canvas_text(cv, x + 20, y, 11, 0, 0, 0, INK_TEXT, buf) + 16;
    }
    if (common) {
        rgba f = canvas_ink(INK_COMMON);
        cairo_set_source_rgba(cr, f.r, f.g, f.b, 0.8);
        cairo_rectangle(cr, x, y - 10, 14, 12);
        cairo_fill(cr);
        x += 20 + canvas_text(cv, x + 20, y, 11, 0, 0, 0, INK_TEXT, "common region") + 16;
    }
    if (witness) {
        rgba f = canvas_ink(INK_WITNESS);
        cairo_set_source_rgba(cr, f.r, f.g, f.b, 0.8);
        cairo_set_line_width(cr, 1.5);
        cairo_arc(cr, x + 6, y - 4, 5, 0, 2 * M_PI);
        cairo_stroke(cr);
        x += 16 + canvas_text(cv, x + 16, y, 11, 0, 0, 0, INK_TEXT, "witness point") + 16;
    }
    if (sep) {
        rgba f = canvas_ink(INK_SEPARATOR);
        cairo_set_source_rgba(cr, f.r, f.g, f.b, 0.8);
        cairo_set_line_width(cr, 1.5);
        cairo_move_to(cr, x, y - 4);
        cairo_line_to(cr, x + 18, y - 4);
        cairo_stroke(cr);
        canvas_text(cv, x + 24, y, 11, 0, 0, 0, INK_TEXT, "from the certificate");
    }
    canvas_text(cv, 16, y + 20, 10, 0, 0, 0, INK_FAINT,
                "numbers: the rows of the .ine files on their edges/faces; dotted: open sides "
                "(unbounded, cut by the frame); dashed: hidden edges");
}

hs_code draw_pair_picture(const hs_poly *A, const hs_poly *B, const hs_options *q,
                          const draw_opts *o, hs_error *err)
{
    int n = hs_poly_dim(A);
    if (n < 1 || n > 3)
        return err_set(err, HS_ERR_INPUT,
                       "%s: %d variables; pictures are of 1, 2 or 3 variables", hs_poly_name(A), n);
    if (B && hs_poly_dim(B) != n)
        return err_set(err, HS_ERR_INPUT, "%s has %d variables and %s has %d", hs_poly_name(A),
                       n, hs_poly_name(B), hs_poly_dim(B));
    hs_options opt;
    if (q)
        opt = *q;
    else
        hs_options_init(&opt);
    opt.trace = NULL;
    hs_result *r = hs_result_new();
    dsys *sa = dsys_from_poly(A, 0, B ? 'A' : 0), *sb = B ? dsys_from_poly(B, 1, 'B') : NULL;
    hs_code rc = HS_OK;
    if (!r || !sa || (B && !sb)) {
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
        goto done;
    }
    rc = B ? hs_intersect(A, B, &opt, r, err) : hs_feasible(A, &opt, r, err);
    if (rc != HS_OK)
        goto done;
    hs_status st = hs_result_status(r);
    panel P;
    panel_init(&P, 0, PAIR_TOP, PAIR_W, PAIR_H - PAIR_TOP - PAIR_LEGEND, n);
    if (o->have_view)
        P.az = o->az, P.el = o->el;
    P.sys[0] = sa;
    P.sys[1] = sb;
    P.common = B != NULL;
    double x[3] = {0, 0, 0};
    int witness = hs_result_has_point(r) && hs_result_point(r, x) == HS_OK;
    if (witness) {
        char lab[64];
        int len = snprintf(lab, sizeof lab, "witness (");
        for (int j = 0; j < n; j++)
            len += snprintf(lab + len, sizeof lab - (size_t)len, "%s%.4g", j ? ", " : "", x[j]);
        snprintf(lab + len, sizeof lab - (size_t)len, ")");
        panel_add_point(&P, x, INK_WITNESS, PT_WITNESS, lab);
    }
    if (B && (st == HS_DISJOINT || st == HS_TOUCHING) && n >= 2)
        P.sep = result_separator(r, A, B, P.sep_a, &P.sep_b);
    canvas cv;
    if ((rc = canvas_open_file(&cv, o->out, PAIR_W, PAIR_H, err)) != HS_OK)
        goto done;
    char title[300];
    if (B)
        snprintf(title, sizeof title, "%s and %s: %s (engine %s)", base_name(hs_poly_name(A)),
                 base_name(hs_poly_name(B)), hs_status_name(st), hs_engine_name(opt.engine));
    else
        snprintf(title, sizeof title, "%s: %s (engine %s)", base_name(hs_poly_name(A)),
                 hs_status_name(st), hs_engine_name(opt.engine));
    canvas_text(&cv, 16, 24, 15, 0, 1, 0, INK_TEXT, title);
    rc = panel_draw(&cv, &P, err);
    draw_legend(&cv, A, B, B && (st == HS_OVERLAP || st == HS_INTERSECT || st == HS_TOUCHING),
                witness, P.sep);
    hs_code rc2 = canvas_close(&cv, err);
    if (rc == HS_OK)
        rc = rc2;
    else if (rc == HS_ERR_NOMEM)
        err_set(err, HS_ERR_NOMEM, "out of memory");
done:
    canvas_release_fonts();
    hs_result_free(r);
    dsys_free(sa);
    dsys_free(sb);
    return rc;
}
