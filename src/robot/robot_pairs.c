/* robot_pairs.c -- the exact tests of two links of a robot, or of a link
 * and a body of a world: oriented boxes prune first (the link's box
 * around all its pieces, then each piece's box, each moved by its pose:
 * hs_obb_transform contains the image for every rounding, and
 * hs_obb_overlap answers "apart" only when certain), then every pair of
 * pieces is decided by a certified shortcut (robot_certify.c: a proven
 * separating plane or common interior point) or, when none is proven, by
 * the world's narrow phase (src/narrow, exact for the posed numbers,
 * touching counts).  Also the lists of pairs the *_all queries return,
 * and the scratch of the tests. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/grow.h"
#include "src/robot/robot.h"
#include "src/world/world.h"

int robot_ws_init(robot_ws *ws)
{
    memset(ws, 0, sizeof *ws);
    int rc = narrow_ws_init(&ws->nw, HS_TRI_GRID, HS_ENGINE_FAST);
    ws->nw.want_normal = 0; /* statuses and witnesses only */
    return rc;
}

void robot_ws_free(robot_ws *ws)
{
    narrow_ws_free(&ws->nw);
    robot_cert_free(&ws->cert);
    free(ws->link_box);
    free(ws->body_box);
}

/* b moved by P, from the memo m (NULL: none) when it holds it. */
static const hs_obb *memo_box(robot_box_memo *m, const void *what, const hs_obb *b,
                              const double P[16], hs_obb *tmp)
{
    if (!m) {
        hs_obb_transform(tmp, b, P);
        return tmp;
    }
    if (m->what != what || memcmp(m->P, P, sizeof m->P) != 0) {
        hs_obb_transform(&m->box, b, P);
        memcpy(m->P, P, sizeof m->P);
        m->what = what;
    }
    return &m->box;
}

const hs_obb *robot_link_box(robot_ws *ws, const hs_robot *r, int a, const double A[16])
{
    if (ws->nlink < r->nlinks) {
        robot_box_memo *m = realloc(ws->link_box, sizeof *m * (size_t)r->nlinks);
        if (m) {
            memset(m, 0, sizeof *m * (size_t)r->nlinks);
            ws->link_box = m;
            ws->nlink = r->nlinks;
        }
    }
    robot_box_memo *m = ws->nlink >= r->nlinks ? &ws->link_box[a] : NULL;
    return memo_box(m, &r->link[a].box, &r->link[a].box, A, &ws->spare_box);
}

const hs_obb *robot_body_box(robot_ws *ws, const hs_body *bd, int k, hs_obb *tmp)
{
    const geom *g = bd->piece[k];
    if (k > 0) {
        hs_obb_transform(tmp, &g->obb, bd->pose);
        return tmp;
    }
    if (ws->nbody <= bd->id) {
        int n = 2 * bd->id + 16;
        robot_box_memo *m = realloc(ws->body_box, sizeof *m * (size_t)n);
        if (m) {
            memset(m + ws->nbody, 0, sizeof *m * (size_t)(n - ws->nbody));
            ws->body_box = m;
            ws->nbody = n;
        }
    }
    return memo_box(ws->nbody > bd->id ? &ws->body_box[bd->id] : NULL, g, &g->obb, bd->pose, tmp);
}

robot_ws *robot_scratch(hs_robot *r)
{
    if (!r->ws_ready) {
        if (robot_ws_init(&r->ws) != 0) {
            robot_ws_free(&r->ws);
            return NULL;
        }
        r->ws_ready = 1;
    }
    robot_cert_reset(&r->ws.cert);
    return &r->ws;
}

/* One pair of posed pieces: a proof, or the narrow phase. */
static hs_code certify_or_narrow(robot_ws *ws, const geom *ga, const double PA[16], const char *na,
                          const geom *gb, const double PB[16], const char *nb, hs_status *st,
                          hs_error *err)
{
    int c = robot_certify(&ws->cert, ga, PA, gb, PB);
    if (c >= 0) {
        ws->certified++;
        *st = (hs_status)c;
        return HS_OK;
    }
    ws->exact++;
    piece_hit hit;
    hs_code rc = narrow_test_geoms(&ws->nw, ga, PA, na, gb, PB, nb, &hit, err);
    *st = hit.status;
    return rc;
}

void robot_link_aabb(const hs_robot *r, int a, const double A[16], double lo[3], double hi[3])
{
    hs_obb b;
    hs_obb_transform(&b, &r->link[a].box, A);
    for (int d = 0; d < 3; d++) {
        double e = 0;
        for (int k = 0; k < 3; k++)
            e += b.half[k] * fabs(b.axis[k][d]);
        e = e * (1 + 0x1p-50) + 0x1p-1000;
        double s = fabs(b.center[d]) * 0x1p-50;
        lo[d] = b.center[d] - e - s;
        hi[d] = b.center[d] + e + s;
    }
}

/* The strongest of two statuses (overlap > touching > disjoint). */
static hs_status stronger(hs_status a, hs_status b)
{
    if (a == HS_OVERLAP || b == HS_OVERLAP)
        return HS_OVERLAP;
    if (a == HS_TOUCHING || b == HS_TOUCHING)
        return HS_TOUCHING;
    return HS_DISJOINT;
}

hs_code robot_links_test(robot_ws *ws, const hs_robot *r, int a, const double A[16], int b,
                         const double B[16], int first, hs_status *st, hs_error *err)
{
    const robot_link *La = &r->link[a], *Lb = &r->link[b];
    *st = HS_DISJOINT;
    hs_obb ba = *robot_link_box(ws, r, a, A), bb = *robot_link_box(ws, r, b, B);
    if (!hs_obb_overlap(&ba, &bb))
        return HS_OK;
    for (int i = 0; i < La->npiece; i++) {
        hs_obb pa = ba;
        if (La->npiece > 1) {
            hs_obb_transform(&pa, &La->piece[i]->obb, A);
            if (!hs_obb_overlap(&pa, &bb))
                continue;
        }
        for (int k = 0; k < Lb->npiece; k++) {
            if (Lb->npiece > 1) {
                hs_obb pb;
                hs_obb_transform(&pb, &Lb->piece[k]->obb, B);
                if (!hs_obb_overlap(&pa, &pb))
                    continue;
            }
            hs_status ps;
            hs_code rc = certify_or_narrow(ws, La->piece[i], A, La->name, Lb->piece[k], B, Lb->name,
                                    &ps, err);
            if (rc != HS_OK)
                return rc;
            *st = stronger(*st, ps);
            if (*st == HS_OVERLAP || (first && *st != HS_DISJOINT))
                return HS_OK;
        }
    }
    return HS_OK;
}

hs_code robot_link_body_test(robot_ws *ws, const hs_robot *r, int a, const double A[16],
                             const hs_body *bd, int first, hs_status *st, hs_error *err)
{
    const robot_link *La = &r->link[a];
    *st = HS_DISJOINT;
    hs_obb ba = *robot_link_box(ws, r, a, A);
    for (int k = 0; k < bd->npieces; k++) {
        const geom *gb = bd->piece[k];
        hs_obb pb, tmp;
        pb = *robot_body_box(ws, bd, k, &tmp);
        if (!hs_obb_overlap(&ba, &pb))
            continue;
        for (int i = 0; i < La->npiece; i++) {
            if (La->npiece > 1) {
                hs_obb pa;
                hs_obb_transform(&pa, &La->piece[i]->obb, A);
                if (!hs_obb_overlap(&pa, &pb))
                    continue;
            }
            hs_status ps;
            hs_code rc = certify_or_narrow(ws, La->piece[i], A, La->name, gb, bd->pose, bd->name, &ps,
                                    err);
            if (rc != HS_OK)
                return rc;
            *st = stronger(*st, ps);
            if (*st == HS_OVERLAP || (first && *st != HS_DISJOINT))
                return HS_OK;
        }
    }
    return HS_OK;
}

/* ------------------------------------------------------------ lists */

int robot_pairs_add(robot_pairs *l, int a, int b, int body, hs_status st)
{
    hs_robot_pair *p = grow_array(l->p, &l->cap, (long)l->n + 1, sizeof *p);
    if (!p)
        return -1;
    l->p = p;
    p[l->n].a = a;
    p[l->n].b = b;
    p[l->n].body = body;
    p[l->n].status = st;
    l->n++;
    return 0;
}

static int pair_order(const void *x, const void *y)
{
    const hs_robot_pair *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return (p->body > q->body) - (p->body < q->body);
}

void robot_pairs_sort(robot_pairs *l)
{
    if (l->n > 1)
        qsort(l->p, (size_t)l->n, sizeof *l->p, pair_order);
}
