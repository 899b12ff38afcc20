/* ccd_peer.c -- libccd shapes and support functions for bench/pairs (see
 * ccd_peer.h). */
#include "bench/ccd_peer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/vertices.h"

void ccd_shape_free(ccd_shape *s)
{
    free(s->v);
    free(s->adj_start);
    free(s->adj);
    memset(s, 0, sizeof *s);
}

void ccd_shape_reset(ccd_shape *s) { s->last = 0; }

/* Copy the vertices and build the adjacency lists from the edge pairs. */
static hs_code shape_from_set(const vertex_set *vs, ccd_shape *s, hs_error *err)
{
    s->nv = vs->nverts;
    s->v = malloc((size_t)vs->nverts * 3 * sizeof *s->v);
    s->adj_start = calloc((size_t)vs->nverts + 1, sizeof *s->adj_start);
    s->adj = malloc((size_t)(2 * vs->nedges + 1) * sizeof *s->adj);
    int *fill = calloc((size_t)vs->nverts + 1, sizeof *fill);
    if (!s->v || !s->adj_start || !s->adj || !fill) {
        free(fill);
        ccd_shape_free(s);
        if (err) {
            err->code = HS_ERR_NOMEM;
            strcpy(err->msg, "out of memory");
        }
        return HS_ERR_NOMEM;
    }
    memcpy(s->v, vs->x, (size_t)vs->nverts * 3 * sizeof *s->v);
    for (int e = 0; e < vs->nedges; e++) {
        s->adj_start[vs->edges[2 * e] + 1]++;
        s->adj_start[vs->edges[2 * e + 1] + 1]++;
    }
    for (int i = 0; i < vs->nverts; i++)
        s->adj_start[i + 1] += s->adj_start[i];
    for (int e = 0; e < vs->nedges; e++) {
        int u = vs->edges[2 * e], w = vs->edges[2 * e + 1];
        s->adj[s->adj_start[u] + fill[u]++] = w;
        s->adj[s->adj_start[w] + fill[w]++] = u;
    }
    free(fill);
    for (int j = 0; j < 3; j++) {
        double sum = 0;
        for (int i = 0; i < s->nv; i++)
            sum += s->v[3 * i + j];
        s->center[j] = sum / s->nv;
    }
    s->last = 0;
    return HS_OK;
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
