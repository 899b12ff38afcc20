/* ccd_peer.c -- libccd shapes and support functions for bench/pairs (see
 * ccd_peer.h). */
#include "bench/ccd_peer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/vertices.h"

#define MERGE_REL 1e-9 /* edges shorter than this times the extent are contracted */

void ccd_shape_free(ccd_shape *s)
{
    free(s->v);
    free(s->adj_start);
    free(s->adj);
    memset(s, 0, sizeof *s);
}

void ccd_shape_reset(ccd_shape *s) { s->last = 0; }

static int uf_find(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

static int cmp_edge(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

static hs_code no_memory(hs_error *err)
{
    if (err) {
        err->code = HS_ERR_NOMEM;
        strcpy(err->msg, "out of memory");
    }
    return HS_ERR_NOMEM;
}

/* The vertices, with every edge shorter than MERGE_REL times the
 * polytope's extent contracted (its ends merged into the first vertex
 * of the cluster), and the adjacency lists of the contracted graph. */
static hs_code shape_from_set(const vertex_set *vs, ccd_shape *s, hs_error *err)
{
    int nv = vs->nverts, ne = vs->nedges;
    int *parent = malloc((size_t)nv * sizeof *parent);
    int *id = malloc((size_t)nv * sizeof *id);
    int *pairs = malloc((size_t)(2 * ne + 2) * sizeof *pairs);
    if (!parent || !id || !pairs) {
        free(parent);
        free(id);
        free(pairs);
        return no_memory(err);
    }
    double ext = 0;
    for (int j = 0; j < 3; j++)
        ext = fmax(ext, vs->hi[j] - vs->lo[j]);
    double tol = MERGE_REL * ext;
    for (int i = 0; i < nv; i++)
        parent[i] = i;
    for (int e = 0; e < ne; e++) {
        const double *a = vs->x + 3 * vs->edges[2 * e], *b = vs->x + 3 * vs->edges[2 * e + 1];
        double d2 = 0;
        for (int j = 0; j < 3; j++)
            d2 += (a[j] - b[j]) * (a[j] - b[j]);
        if (d2 <= tol * tol) {
            int ra = uf_find(parent, vs->edges[2 * e]), rb = uf_find(parent, vs->edges[2 * e + 1]);
            if (ra != rb)
                parent[ra > rb ? ra : rb] = ra < rb ? ra : rb; /* the smaller index */
        }
    }
    int count = 0;
    for (int i = 0; i < nv; i++)
        id[i] = uf_find(parent, i) == i ? count++ : -1;
    int np = 0;
    for (int e = 0; e < ne; e++) {
        int a = id[uf_find(parent, vs->edges[2 * e])], b = id[uf_find(parent, vs->edges[2 * e + 1])];
        if (a == b)
            continue;
        pairs[2 * np] = a < b ? a : b;
        pairs[2 * np + 1] = a < b ? b : a;
        np++;
    }
    qsort(pairs, (size_t)np, 2 * sizeof *pairs, cmp_edge);
    int nu = 0;
    for (int k = 0; k < np; k++)
        if (nu == 0 || pairs[2 * k] != pairs[2 * nu - 2] || pairs[2 * k + 1] != pairs[2 * nu - 1]) {
            pairs[2 * nu] = pairs[2 * k];
            pairs[2 * nu + 1] = pairs[2 * k + 1];
            nu++;
        }
    s->nv = count;
    s->v = malloc((size_t)count * 3 * sizeof *s->v);
    s->adj_start = calloc((size_t)count + 1, sizeof *s->adj_start);
    s->adj = malloc((size_t)(2 * nu + 1) * sizeof *s->adj);
    int *fill = calloc((size_t)count + 1, sizeof *fill);
    hs_code rc = HS_OK;
    if (!s->v || !s->adj_start || !s->adj || !fill) {
        ccd_shape_free(s);
        rc = no_memory(err);
    } else {
        for (int i = 0; i < nv; i++)
            if (id[i] >= 0)
                memcpy(s->v + 3 * id[i], vs->x + 3 * i, 3 * sizeof *s->v);
        for (int e = 0; e < nu; e++) {
            s->adj_start[pairs[2 * e] + 1]++;
            s->adj_start[pairs[2 * e + 1] + 1]++;
        }
        for (int i = 0; i < count; i++)
            s->adj_start[i + 1] += s->adj_start[i];
        for (int e = 0; e < nu; e++) {
            int u = pairs[2 * e], w = pairs[2 * e + 1];
            s->adj[s->adj_start[u] + fill[u]++] = w;
            s->adj[s->adj_start[w] + fill[w]++] = u;
        }
        for (int j = 0; j < 3; j++) {
            double sum = 0;
            for (int i = 0; i < count; i++)
                sum += s->v[3 * i + j];
            s->center[j] = sum / count;
        }
        s->last = 0;
        s->merged = nv - count;
    }
    free(fill);
    free(parent);
    free(id);
    free(pairs);
    return rc;
}

hs_code ccd_shape_from_poly(const hs_poly *P, const double *interior, ccd_shape *s,
                            hs_error *err)
{
    memset(s, 0, sizeof *s);
    vertex_set *vs = NULL;
    hs_code rc = vertex_enum(P, interior, &vs, err);
    if (rc == HS_ERR_ARG && interior) /* the point is not strictly inside */
        rc = vertex_enum(P, NULL, &vs, err);
    if (rc == HS_OK)
        rc = shape_from_set(vs, s, err);
    vertex_set_free(vs);
    return rc;
}

void ccd_peer_support_scan(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out)
{
    const ccd_shape *s = obj;
    double dx = ccdVec3X(dir), dy = ccdVec3Y(dir), dz = ccdVec3Z(dir);
    double best = -INFINITY;
    int at = 0;
    for (int i = 0; i < s->nv; i++) {
        const double *v = s->v + 3 * i;
        double d = v[0] * dx + v[1] * dy + v[2] * dz;
        if (d > best) {
            best = d;
            at = i;
        }
    }
    ccdVec3Set(out, s->v[3 * at], s->v[3 * at + 1], s->v[3 * at + 2]);
}

void ccd_peer_support_hill(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out)
{
    ccd_shape *s = (ccd_shape *)obj; /* ours: the start vertex is updated */
    double dx = ccdVec3X(dir), dy = ccdVec3Y(dir), dz = ccdVec3Z(dir);
    int at = s->last;
    const double *v = s->v + 3 * at;
    double best = v[0] * dx + v[1] * dy + v[2] * dz;
    for (;;) {
        int next = -1;
        for (int k = s->adj_start[at]; k < s->adj_start[at + 1]; k++) {
            const double *w = s->v + 3 * s->adj[k];
            double d = w[0] * dx + w[1] * dy + w[2] * dz;
            if (d > best) {
                best = d;
                next = s->adj[k];
            }
        }
        if (next < 0)
            break;
        at = next;
    }
    s->last = at;
    ccdVec3Set(out, s->v[3 * at], s->v[3 * at + 1], s->v[3 * at + 2]);
}

void ccd_peer_center(const void *obj, ccd_vec3_t *center)
{
    const ccd_shape *s = obj;
    ccdVec3Set(center, s->center[0], s->center[1], s->center[2]);
}
