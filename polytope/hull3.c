/* hull3.c -- exact 3-D convex hull (quickhull with exact predicates).
 *
 * Outline.  Find four points spanning a tetrahedron, give every other
 * point to the first facet it lies strictly above (its "outside set"),
 * then repeatedly take a facet with a nonempty outside set, insert the
 * point of that set farthest from the facet (approximately: the distance
 * only chooses the order), delete every facet the point lies strictly
 * above, close the hole with a cone of new triangles from the horizon to
 * the point, and hand the orphaned outside points to the new triangles
 * (a point above none of them lies inside the new hull; this is the
 * quickhull lemma of Barber, Dobkin and Huhdanpaa).  Coplanar points are
 * never "above", so the result is a triangulated surface that may contain
 * flat edges and points lying on edges or inside faces; the assembly step
 * merges coplanar neighbours into polygons and drops corners where the
 * boundary runs straight, so only true vertices remain.
 *
 * Predicates: pred_orient3d (polytope/predicates.c), exact.  The
 * conservative rows of a hull (hull3_rows) are in hull3_rows.c. */
#include "polytope/hull3.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/grow.h"
#include "polytope/mem.h"
#include "polytope/predicates.h"


/* ============================================================ the core */

typedef struct tri {
    int v[3];       /* corners, counterclockwise seen from outside */
    int nb[3];      /* neighbour across the edge v[k] -> v[k+1] */
    int head;       /* first point of the outside set, -1 when empty */
    int far;        /* point of the outside set farthest from the plane */
    double far_d;
    double pl[4];   /* approximate unit normal pl[0..2] and offset pl[3] */
    int stamp;      /* last search that looked at this triangle */
    unsigned char dead, vis;
} tri;

typedef struct qhull {
    const hull3_source *src;
    int n;
    tri *t;
    int nt, tcap;
    int *next;      /* n: next point of the same outside set */
    int *start_map; /* n: new triangle whose horizon edge starts here */
    int *end_map;   /* n: new triangle whose horizon edge ends here */
    int *work;      /* visible triangles of a step, then the new ones */
    int wcap;
    int *pend;      /* stack of triangles that may have outside points */
    int npend, pcap;
    int stamp;
    mpq_t q[14];    /* scratch: three exact points and two temporaries */
} qhull;

static int push_int(int **arr, int *count, int *cap, int v)
{
    int *na = grow_array(*arr, cap, *count + 1, sizeof *na);
    if (!na)
        return -1;
    *arr = na;
    na[(*count)++] = v;
    return 0;
}

static int qh_init(qhull *qh, const hull3_source *src)
{
    memset(qh, 0, sizeof *qh);
    qh->src = src;
    qh->n = src->n;
    qh->next = mem_alloc((size_t)src->n, sizeof(int));
    qh->start_map = mem_alloc((size_t)src->n, sizeof(int));
    qh->end_map = mem_alloc((size_t)src->n, sizeof(int));
    for (int i = 0; i < 14; i++)
        mpq_init(qh->q[i]);
    if (!qh->next || !qh->start_map || !qh->end_map)
        return -1;
    for (int i = 0; i < src->n; i++)
        qh->start_map[i] = qh->end_map[i] = -1;
    return 0;
}

static void qh_free(qhull *qh)
{
    free(qh->t);
    free(qh->next);
    free(qh->start_map);
    free(qh->end_map);
    free(qh->work);
    free(qh->pend);
    for (int i = 0; i < 14; i++)
        mpq_clear(qh->q[i]);
}

static const double *approx_pt(const qhull *qh, int i) { return qh->src->approx + 3 * (size_t)i; }

static void approx_plane(qhull *qh, tri *t)
{
    const double *a = approx_pt(qh, t->v[0]), *b = approx_pt(qh, t->v[1]),
                 *c = approx_pt(qh, t->v[2]);
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double nx = u[1] * w[2] - u[2] * w[1], ny = u[2] * w[0] - u[0] * w[2],
           nz = u[0] * w[1] - u[1] * w[0];
    double len = sqrt(nx * nx + ny * ny + nz * nz);
    if (!(len > 0) || !isfinite(len))
        len = 1;
    t->pl[0] = nx / len;
    t->pl[1] = ny / len;
    t->pl[2] = nz / len;
    t->pl[3] = t->pl[0] * a[0] + t->pl[1] * a[1] + t->pl[2] * a[2];
}

/* New triangle (a, b, c) with no neighbours yet; its index or -1. */
static int new_tri(qhull *qh, int a, int b, int c)
{
    tri *nt = grow_array(qh->t, &qh->tcap, qh->nt + 1, sizeof *nt);
    if (!nt)
        return -1;
    qh->t = nt;
    tri *t = &qh->t[qh->nt];
    memset(t, 0, sizeof *t);
    t->v[0] = a;
    t->v[1] = b;
    t->v[2] = c;
    t->nb[0] = t->nb[1] = t->nb[2] = -1;
    t->head = t->far = -1;
    approx_plane(qh, t);
    return qh->nt++;
}

static int above(const qhull *qh, int f, int p)
{
    const tri *t = &qh->t[f];
    return qh->src->orient(qh->src->user, t->v[0], t->v[1], t->v[2], p);
}

static void add_outside(qhull *qh, int f, int p)
{
    tri *t = &qh->t[f];
    const double *x = approx_pt(qh, p);
    double d = t->pl[0] * x[0] + t->pl[1] * x[1] + t->pl[2] * x[2] - t->pl[3];
    qh->next[p] = t->head;
    t->head = p;
    if (t->far < 0 || d > t->far_d) {
        t->far = p;
        t->far_d = d;
    }
}

/* Give p to the first triangle of list[0..k) it lies strictly above. */
static void assign_point(qhull *qh, int p, const int *list, int k)
{
    for (int i = 0; i < k; i++)
        if (above(qh, list[i], p) > 0) {
            add_outside(qh, list[i], p);
            return;
        }
}

/* Edge index e of triangle g that runs from a to b, or -1. */
static int edge_of(const tri *g, int a, int b)
{
    for (int e = 0; e < 3; e++)
        if (g->v[e] == a && g->v[(e + 1) % 3] == b)
            return e;
    return -1;
}

/* ------------------------------------------------ initial tetrahedron */

/* Whether the k = 2 or 3 homogeneous points idx[0..k) given as exact
 * doubles are independent: some k x k minor of the k x 4 matrix is not
 * zero (pred_det_sign, exact).  -1 when a point has no exact doubles. */
static int independent_d(const qhull *qh, const int *idx, int k)
{
    double h[3][4];
    for (int i = 0; i < k; i++)
        if (!qh->src->exact_d || !qh->src->exact_d(qh->src->user, idx[i], h[i]))
            return -1;
    /* the column sets: pairs for k = 2, triples for k = 3 */
    static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    static const int triples[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
    int count = k == 2 ? 6 : 4;
    for (int t = 0; t < count; t++) {
        const int *cols = k == 2 ? pairs[t] : triples[t];
        double M[9];
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++)
                M[k * i + j] = h[i][cols[j]];
        int s = pred_det_sign(M, k, NULL);
        if (s == -2)
            return -1;
        if (s != 0)
            return 1;
    }
    return 0;
}

/* Exact rank of the homogeneous points idx[0..k) (k <= 3). */
static int hull_rank(qhull *qh, const int *idx, int k)
{
    if (k >= 2) {
        int ind = independent_d(qh, idx, k);
        if (ind == 1)
            return k;
        if (ind == 0 && k == 2)
            return 1; /* two dependent nonzero homogeneous points (w > 0) */
    }
    mpq_t *v = qh->q, *f = &qh->q[12], *tmp = &qh->q[13];
    for (int i = 0; i < k; i++)
        qh->src->exact(qh->src->user, idx[i], v + 4 * i);
    int rank = 0;
    for (int col = 0; col < 4 && rank < k; col++) {
        int piv = -1;
        for (int r = rank; r < k && piv < 0; r++)
            if (mpq_sgn(v[4 * r + col]) != 0)
                piv = r;
        if (piv < 0)
            continue;
        for (int c = 0; c < 4; c++)
            mpq_swap(v[4 * piv + c], v[4 * rank + c]);
        for (int r = rank + 1; r < k; r++) {
            mpq_div(*f, v[4 * r + col], v[4 * rank + col]);
            for (int c = col; c < 4; c++) {
                mpq_mul(*tmp, *f, v[4 * rank + c]);
                mpq_sub(v[4 * r + c], v[4 * r + c], *tmp);
            }
        }
        rank++;
    }
    return rank;
}

static int simplex_ok(qhull *qh, const int s[4])
{
    int pair[2] = {s[0], s[1]};
    return hull_rank(qh, pair, 2) == 2 && hull_rank(qh, s, 3) == 3 &&
           qh->src->orient(qh->src->user, s[0], s[1], s[2], s[3]) != 0;
}

static double dist2(const double *a, const double *b)
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* Score of point p for the next corner of a well-shaped simplex (larger is
 * better); stage 1: distance from s0, 2: from the line s0 s1, 3: from the
 * plane s0 s1 s2. */
static double corner_score(const qhull *qh, const int *s, int stage, int p)
{
    const double *x = approx_pt(qh, p), *a = approx_pt(qh, s[0]);
    if (stage == 1)
        return dist2(x, a);
    const double *b = approx_pt(qh, s[1]);
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double w[3] = {x[0] - a[0], x[1] - a[1], x[2] - a[2]};
    if (stage == 3) {
        const double *c = approx_pt(qh, s[2]);
        double z[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double nrm[3] = {u[1] * z[2] - u[2] * z[1], u[2] * z[0] - u[0] * z[2],
                         u[0] * z[1] - u[1] * z[0]};
        return fabs(nrm[0] * w[0] + nrm[1] * w[1] + nrm[2] * w[2]);
    }
    double cr[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                    u[0] * w[1] - u[1] * w[0]};
    return cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2];
}

/* A simplex chosen from the approximate coordinates (may be degenerate). */
static void guess_simplex(const qhull *qh, int s[4])
{
    s[0] = 0;
    for (int p = 1; p < qh->n; p++)
        if (approx_pt(qh, p)[0] < approx_pt(qh, s[0])[0])
            s[0] = p;
    for (int stage = 1; stage <= 3; stage++) {
        double best = -1;
        s[stage] = (s[stage - 1] + 1) % qh->n;
        for (int p = 0; p < qh->n; p++) {
            double sc = corner_score(qh, s, stage, p);
            if (sc > best && isfinite(sc)) {
                best = sc;
                s[stage] = p;
            }
        }
    }
}

/* Distinct points among all of them, counted up to 4. */
static int count_distinct(qhull *qh)
{
    int rep[4], k = 0;
    for (int p = 0; p < qh->n && k < 4; p++) {
        int fresh = 1;
        for (int i = 0; i < k && fresh; i++) {
            int pair[2] = {rep[i], p};
            fresh = hull_rank(qh, pair, 2) == 2;
        }
        if (fresh)
            rep[k++] = p;
    }
    return k;
}

static hs_code degenerate(qhull *qh, const char *what, hs_error *err)
{
    if (count_distinct(qh) < 4)
        return err_set(err, HS_ERR_INPUT,
                       "convex hull of %d points: fewer than 4 distinct points "
                       "(the hull is not a solid)", qh->n);
    return err_set(err, HS_ERR_INPUT,
                   "convex hull of %d points: points are %s (the hull is not a solid)", qh->n,
                   what);
}

/* The first point completing s[0..k) to rank k+1 (k = 1, 2) or to a
 * nonzero orientation (k = 3); -1 if none. */
static int scan_corner(qhull *qh, int s[4], int k)
{
    for (int p = 0; p < qh->n; p++) {
        s[k] = p;
        if (k < 3 ? hull_rank(qh, s, k + 1) == k + 1
                  : qh->src->orient(qh->src->user, s[0], s[1], s[2], p) != 0)
            return p;
    }
    return -1;
}

static hs_code find_simplex(qhull *qh, int s[4], hs_error *err)
{
    guess_simplex(qh, s);
    if (simplex_ok(qh, s))
        return HS_OK;
    s[0] = 0;
    if (scan_corner(qh, s, 1) < 0)
        return degenerate(qh, "identical", err);
    if (scan_corner(qh, s, 2) < 0)
        return degenerate(qh, "collinear", err);
    if (scan_corner(qh, s, 3) < 0)
        return degenerate(qh, "coplanar", err);
    return HS_OK;
}

/* The tetrahedron's four triangles, linked, with the other points
 * distributed over them. */
static hs_code start_hull(qhull *qh, int s[4], hs_error *err)
{
    if (qh->src->orient(qh->src->user, s[0], s[1], s[2], s[3]) > 0) {
        int tmp = s[1];
        s[1] = s[2];
        s[2] = tmp;
    }
    const int face[4][3] = {{s[0], s[1], s[2]}, {s[0], s[3], s[1]},
                            {s[1], s[3], s[2]}, {s[2], s[3], s[0]}};
    int all[4];
    for (int f = 0; f < 4; f++)
        if ((all[f] = new_tri(qh, face[f][0], face[f][1], face[f][2])) < 0)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int f = 0; f < 4; f++)
        for (int k = 0; k < 3; k++)
            for (int g = 0; g < 4; g++) {
                tri *t = &qh->t[all[f]];
                if (g != f && edge_of(&qh->t[all[g]], t->v[(k + 1) % 3], t->v[k]) >= 0)
                    t->nb[k] = all[g];
            }
    for (int p = 0; p < qh->n; p++)
        if (p != s[0] && p != s[1] && p != s[2] && p != s[3])
            assign_point(qh, p, all, 4);
    for (int f = 0; f < 4; f++)
        if (qh->t[all[f]].head >= 0 && push_int(&qh->pend, &qh->npend, &qh->pcap, all[f]) != 0)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
    return HS_OK;
}

/* ------------------------------------------------ one insertion */

/* Triangles that q lies strictly above, grown from f: work[0..*nv). */
static int collect_visible(qhull *qh, int f, int q, int *nv)
{
    int count = 0;
    qh->stamp++;
    qh->t[f].stamp = qh->stamp;
    qh->t[f].vis = 1;
    if (push_int(&qh->work, &count, &qh->wcap, f) != 0)
        return -1;
    for (int i = 0; i < count; i++) {
        for (int k = 0; k < 3; k++) {
            int h = qh->t[qh->work[i]].nb[k];
            if (qh->t[h].stamp == qh->stamp)
                continue;
            qh->t[h].stamp = qh->stamp;
            qh->t[h].vis = above(qh, h, q) > 0;
            if (qh->t[h].vis && push_int(&qh->work, &count, &qh->wcap, h) != 0)
                return -1;
        }
    }
    *nv = count;
    return 0;
}

static hs_code broken(hs_error *err, const char *what)
{
    return err_set(err, HS_ERR_INTERNAL, "convex hull: %s (please report)", what);
}

/* One new triangle (a, b, q) on the horizon edge a -> b of a visible
 * triangle whose neighbour there is h. */
static hs_code cone_triangle(qhull *qh, int a, int b, int q, int h, int *count, hs_error *err)
{
    int nt = new_tri(qh, a, b, q);
    if (nt < 0 || push_int(&qh->work, count, &qh->wcap, nt) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    int e = edge_of(&qh->t[h], b, a);
    if (e < 0 || qh->start_map[a] >= 0 || qh->end_map[b] >= 0)
        return broken(err, "the horizon is not a simple cycle");
    qh->t[nt].nb[0] = h;
    qh->t[h].nb[e] = nt;
    qh->start_map[a] = nt;
    qh->end_map[b] = nt;
    return HS_OK;
}

/* Close the hole left by work[0..nv) with triangles to q, appended to
 * work[nv..*count). */
static hs_code make_cone(qhull *qh, int q, int nv, int *count, hs_error *err)
{
    *count = nv;
    for (int i = 0; i < nv; i++)
        for (int k = 0; k < 3; k++) {
            int vt = qh->work[i], h = qh->t[vt].nb[k];
            if (qh->t[h].vis)
                continue;
            hs_code rc = cone_triangle(qh, qh->t[vt].v[k], qh->t[vt].v[(k + 1) % 3], q, h,
                                       count, err);
            if (rc != HS_OK)
                return rc;
        }
    hs_code rc = HS_OK;
    for (int i = nv; i < *count; i++) {
        tri *t = &qh->t[qh->work[i]];
        t->nb[1] = qh->start_map[t->v[1]];
        t->nb[2] = qh->end_map[t->v[0]];
        if (t->nb[1] < 0 || t->nb[2] < 0)
            rc = broken(err, "the horizon is not closed");
    }
    for (int i = nv; i < *count; i++) {
        const tri *t = &qh->t[qh->work[i]];
        qh->start_map[t->v[0]] = qh->end_map[t->v[1]] = -1;
    }
    return rc;
}

/* Hand the outside points of the deleted triangles to the new ones. */
static int redistribute(qhull *qh, int q, int nv, int count)
{
    for (int i = 0; i < nv; i++) {
        tri *t = &qh->t[qh->work[i]];
        t->dead = 1;
        for (int p = t->head, nx; p >= 0; p = nx) {
            nx = qh->next[p];
            if (p != q)
                assign_point(qh, p, qh->work + nv, count - nv);
        }
        t->head = -1;
    }
    for (int i = nv; i < count; i++)
        if (qh->t[qh->work[i]].head >= 0 &&
            push_int(&qh->pend, &qh->npend, &qh->pcap, qh->work[i]) != 0)
            return -1;
    return 0;
}

static hs_code insert_far_point(qhull *qh, int f, hs_error *err)
{
    int q = qh->t[f].far, nv, count;
    if (collect_visible(qh, f, q, &nv) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_code rc = make_cone(qh, q, nv, &count, err);
    if (rc != HS_OK)
        return rc;
    for (int i = 0; i < nv; i++)
        qh->t[qh->work[i]].vis = 0;
    if (redistribute(qh, q, nv, count) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    return HS_OK;
}

static hs_code run_quickhull(qhull *qh, hs_error *err)
{
    int s[4];
    hs_code rc = find_simplex(qh, s, err);
    if (rc == HS_OK)
        rc = start_hull(qh, s, err);
    while (rc == HS_OK && qh->npend > 0) {
        int f = qh->pend[--qh->npend];
        if (!qh->t[f].dead && qh->t[f].head >= 0)
            rc = insert_far_point(qh, f, err);
    }
    return rc;
}

/* ============================================================ assembly */

/* Coplanar triangles are merged into faces (union-find), each face's
 * boundary is walked as a cycle and straight corners are dropped. */
typedef struct assembly {
    int *parent;   /* nt: union-find over triangles */
    int *face;     /* nt: face number of a live triangle's root, else -1 */
    int *succ;     /* n: next boundary corner of the face being walked */
    int *succ_nb;  /* n: face across that boundary edge */
    int *succ_off; /* n: a point of the neighbouring triangle off the face */
    int *cycle;    /* n: the boundary cycle being walked */
    int *mstart;   /* faces + 1: offsets into members */
    int *members;  /* nt: live triangles grouped by face */
    unsigned char *is_vertex; /* n */
} assembly;

static int find_root(int *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void merge_coplanar(qhull *qh, assembly *as)
{
    for (int f = 0; f < qh->nt; f++)
        as->parent[f] = f;
    for (int f = 0; f < qh->nt; f++) {
        if (qh->t[f].dead)
            continue;
        for (int k = 0; k < 3; k++) {
            int g = qh->t[f].nb[k];
            if (g < f)
                continue;
            int e = edge_of(&qh->t[g], qh->t[f].v[(k + 1) % 3], qh->t[f].v[k]);
            int opp = qh->t[g].v[(e + 2) % 3];
            if (above(qh, f, opp) == 0)
                as->parent[find_root(as->parent, g)] = find_root(as->parent, f);
        }
    }
}

static int number_faces(qhull *qh, assembly *as)
{
    int nf = 0;
    for (int f = 0; f < qh->nt; f++)
        as->face[f] = -1;
    for (int f = 0; f < qh->nt; f++) {
        if (qh->t[f].dead)
            continue;
        int r = find_root(as->parent, f);
        if (as->face[r] < 0)
            as->face[r] = nf++;
    }
    return nf;
}

static int face_of(const assembly *as, int f) { return as->face[find_root(as->parent, f)]; }

/* Group the live triangles by face (counting sort). */
static int bucket_faces(qhull *qh, assembly *as, int nf)
{
    as->mstart = mem_calloc((size_t)nf + 1, sizeof(int));
    if (!as->mstart)
        return -1;
    for (int f = 0; f < qh->nt; f++)
        if (!qh->t[f].dead)
            as->mstart[face_of(as, f) + 1]++;
    for (int i = 0; i < nf; i++)
        as->mstart[i + 1] += as->mstart[i];
    int *fill = mem_alloc((size_t)nf, sizeof(int));
    if (!fill)
        return -1;
    memcpy(fill, as->mstart, (size_t)nf * sizeof(int));
    for (int f = 0; f < qh->nt; f++)
        if (!qh->t[f].dead)
            as->members[fill[face_of(as, f)]++] = f;
    free(fill);
    return 0;
}

/* Record the boundary edges of face `fc`; returns their number and one
 * start corner. */
static int face_boundary(qhull *qh, assembly *as, int fc, int *start)
{
    int count = 0;
    for (int i = as->mstart[fc]; i < as->mstart[fc + 1]; i++) {
        int f = as->members[i];
        for (int k = 0; k < 3; k++) {
            int g = qh->t[f].nb[k], a = qh->t[f].v[k], b = qh->t[f].v[(k + 1) % 3];
            if (face_of(as, g) == fc)
                continue;
            int e = edge_of(&qh->t[g], b, a);
            as->succ[a] = b;
            as->succ_nb[a] = face_of(as, g);
            as->succ_off[a] = qh->t[g].v[(e + 2) % 3];
            *start = a;
            count++;
        }
    }
    return count;
}

typedef struct hull_out {
    hull3 *h;
    int used; /* corners written so far */
} hull_out;

/* Walk face fc's boundary and append its true corners to the output. */
static hs_code emit_face(qhull *qh, assembly *as, int fc, hull_out *o, hs_error *err)
{
    int start = -1, nb = face_boundary(qh, as, fc, &start), len = 0;
    for (int c = start; c >= 0 && len <= nb; c = as->succ[c]) {
        if (len > 0 && c == start)
            break;
        as->cycle[len++] = c;
    }
    if (nb < 3 || len != nb)
        return broken(err, "a face boundary is not a simple cycle");
    hull3 *h = o->h;
    h->facet_start[fc] = o->used;
    for (int i = 0; i < len; i++) {
        int u = as->cycle[(i + len - 1) % len], v = as->cycle[i], w = as->cycle[(i + 1) % len];
        if (qh->src->orient(qh->src->user, u, v, w, as->succ_off[u]) == 0)
            continue; /* v lies on the segment u w */
        h->facet_vert[o->used] = v;
        h->facet_nb[o->used++] = as->succ_nb[v];
        as->is_vertex[v] = 1;
    }
    for (int i = 0; i < len; i++)
        as->succ[as->cycle[i]] = -1;
    if (o->used - h->facet_start[fc] < 3)
        return broken(err, "a face has fewer than 3 corners");
    return HS_OK;
}

static hull3 *hull_alloc(int npoints, int nfacets, int corners)
{
    hull3 *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->npoints = npoints;
    h->nfacets = nfacets;
    h->verts = mem_alloc((size_t)npoints, sizeof(int));
    h->facet_start = mem_alloc((size_t)nfacets + 1, sizeof(int));
    h->facet_vert = mem_alloc((size_t)corners, sizeof(int));
    h->facet_nb = mem_alloc((size_t)corners, sizeof(int));
    if (!h->verts || !h->facet_start || !h->facet_vert || !h->facet_nb) {
        hull3_free(h);
        return NULL;
    }
    return h;
}

static void assembly_free(assembly *as)
{
    free(as->parent);
    free(as->face);
    free(as->succ);
    free(as->succ_nb);
    free(as->succ_off);
    free(as->cycle);
    free(as->mstart);
    free(as->members);
    free(as->is_vertex);
}

static int assembly_init(assembly *as, int nt, int n)
{
    memset(as, 0, sizeof *as);
    as->parent = mem_alloc((size_t)nt, sizeof(int));
    as->face = mem_alloc((size_t)nt, sizeof(int));
    as->succ = mem_alloc((size_t)n, sizeof(int));
    as->succ_nb = mem_alloc((size_t)n, sizeof(int));
    as->succ_off = mem_alloc((size_t)n, sizeof(int));
    as->cycle = mem_alloc((size_t)n, sizeof(int));
    as->members = mem_alloc((size_t)nt, sizeof(int));
    as->is_vertex = mem_calloc((size_t)n, 1);
    if (!as->parent || !as->face || !as->succ || !as->succ_nb || !as->succ_off || !as->cycle ||
        !as->members || !as->is_vertex)
        return -1;
    for (int i = 0; i < n; i++)
        as->succ[i] = -1;
    return 0;
}

static hs_code assemble(qhull *qh, hull3 **out, hs_error *err)
{
    assembly as;
    if (assembly_init(&as, qh->nt, qh->n) != 0) {
        assembly_free(&as);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    merge_coplanar(qh, &as);
    int nf = number_faces(qh, &as);
    hull_out o = {hull_alloc(qh->n, nf, 3 * qh->nt), 0};
    hs_code rc = o.h && bucket_faces(qh, &as, nf) == 0
                     ? HS_OK
                     : err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int fc = 0; fc < nf && rc == HS_OK; fc++)
        rc = emit_face(qh, &as, fc, &o, err);
    if (rc == HS_OK) {
        o.h->facet_start[nf] = o.used;
        o.h->nedges = o.used / 2;
        for (int p = 0; p < qh->n; p++)
            if (as.is_vertex[p])
                o.h->verts[o.h->nverts++] = p;
        *out = o.h;
    } else
        hull3_free(o.h);
    assembly_free(&as);
    return rc;
}

/* ============================================================ entry points */

hs_code hull3_from_source(const hull3_source *src, hull3 **out, hs_error *err)
{
    if (!src || !out || !src->orient || !src->exact || !src->approx)
        return err_set(err, HS_ERR_ARG, "convex hull: NULL argument");
    *out = NULL;
    if (src->n < 4)
        return err_set(err, HS_ERR_INPUT,
                       "convex hull of %d points: fewer than 4 distinct points "
                       "(the hull is not a solid)", src->n);
    qhull qh;
    hs_code rc = HS_OK;
    if (qh_init(&qh, src) != 0)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    if (rc == HS_OK)
        rc = run_quickhull(&qh, err);
    if (rc == HS_OK)
        rc = assemble(&qh, out, err);
    qh_free(&qh);
    return rc;
}

static int points_orient(void *user, int i, int j, int k, int l)
{
    const double *p = user;
    return pred_orient3d(p + 3 * (size_t)i, p + 3 * (size_t)j, p + 3 * (size_t)k,
                          p + 3 * (size_t)l);
}

static int points_exact_d(void *user, int i, double h[4])
{
    const double *p = (const double *)user + 3 * (size_t)i;
    h[0] = p[0];
    h[1] = p[1];
    h[2] = p[2];
    h[3] = 1;
    return 1;
}

static void points_exact(void *user, int i, mpq_t h[4])
{
    const double *p = (const double *)user + 3 * (size_t)i;
    for (int j = 0; j < 3; j++)
        mpq_set_d(h[j], p[j]);
    mpq_set_ui(h[3], 1, 1);
}

hs_code hull3_points(const double *pts, int n, hull3 **out, hs_error *err)
{
    if (!pts || !out)
        return err_set(err, HS_ERR_ARG, "convex hull: NULL argument");
    *out = NULL;
    if (n < 4)
        return err_set(err, HS_ERR_ARG, "convex hull: %d points given, at least 4 are needed", n);
    for (int i = 0; i < 3 * n; i++)
        if (!isfinite(pts[i]))
            return err_set(err, HS_ERR_ARG, "convex hull: point %d has a non-finite coordinate",
                           i / 3);
    hull3_source src = {n, pts, points_orient, points_exact, (void *)pts, points_exact_d};
    return hull3_from_source(&src, out, err);
}

void hull3_free(hull3 *h)
{
    if (!h)
        return;
    free(h->verts);
    free(h->facet_start);
    free(h->facet_vert);
    free(h->facet_nb);
    free(h);
}
