/* fast_graph.c -- the vertex graph of a 3-D polytope (see fast_graph.h). */
#include "solver/fast_graph.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/mem.h"
#include "solver/vertices.h"

/* Start cells per axis of a cube face: 6 g^2 = 150 starts.  A walk from
 * the start of its cell takes a step or two on the polytopes of
 * bench/pairs (hulls of 900 vertices included). */
#define GRAPH_START_G 5

static void *no_graph(void)
{
    return mem_calloc(1, sizeof(fast_graph));
}

/* The vertex extreme along d, by a pass over all of them. */
static int extreme_vertex(const fast_vertex *vert, int nverts, const double *d)
{
    int best = 0;
    double top = -INFINITY;
    for (int v = 0; v < nverts; v++) {
        const double *x = vert[v].x;
        double along = d[0] * x[0] + d[1] * x[1] + d[2] * x[2];
        if (along > top) {
            top = along;
            best = v;
        }
    }
    return best;
}

/* The cone of a simple vertex: the inverse of the matrix N whose column k
 * is tight row k's unit normal (N l = d), by cofactors; 0, or -1 when N is
 * too close to singular for the floats to steer. */
static int cone_of(const fast_prep *fp, const int *rows, float *cone)
{
    double N[3][3];
    for (int k = 0; k < 3; k++) {
        const double *a = fp->poly->a + 3 * (size_t)rows[k];
        for (int j = 0; j < 3; j++)
            N[j][k] = a[j] / fp->norm[rows[k]];
    }
    double c[3][3]; /* c[k][j]: cofactor of N[j][k] (the adjugate) */
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
            c[k][j] = N[j1][k1] * N[j2][k2] - N[j1][k2] * N[j2][k1];
        }
    double det = N[0][0] * c[0][0] + N[1][0] * c[0][1] + N[2][0] * c[0][2];
    if (!(fabs(det) > 1e-6))
        return -1;
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            cone[3 * k + j] = (float)(c[k][j] / det);
    return 0;
}

/* The enumeration with each cluster of vertices on one point merged:
 * planes that meet at a point to rounding (as on the hull of a mesh) give
 * several exact vertices within a few units in the last place of each
 * other, and a walk would stall on their edges, whose gain along any
 * direction is rounding.  Edges shorter than GRAPH_TINY times the
 * polytope's extent are contracted: V points, E edges (pairs, each once,
 * no loops), and each point's tight rows (the union, ascending). */
#define GRAPH_TINY 1e-9

typedef struct merged {
    int V, E;
    double *x;              /* 3 V */
    int *edges;             /* 2 E */
    int *tight_at, *tight;  /* CSR */
} merged;

static int root_of(int *parent, int v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

static int by_int(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a > b) - (a < b);
}

static int by_pair(const void *pa, const void *pb)
{
    const int *a = pa, *b = pb;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

static void merged_free(merged *mg)
{
    free(mg->x);
    free(mg->edges);
    free(mg->tight_at);
    free(mg->tight);
}

/* 0, or -1 when memory ran out. */
static int merge_points(const vertex_set *vs, merged *mg)
{
    int V0 = vs->nverts, E0 = vs->nedges, T0 = vs->tight_start[V0];
    int *rep = mem_alloc((size_t)V0, sizeof(int)), *at = mem_alloc((size_t)V0 + 1, sizeof(int));
    *mg = (merged){0, 0, mem_alloc(3 * (size_t)V0, sizeof(double)),
                   mem_alloc(2 * (size_t)E0 + 2, sizeof(int)),
                   mem_calloc((size_t)V0 + 1, sizeof(int)), mem_alloc((size_t)T0 + 1, sizeof(int))};
    if (!rep || !at || !mg->x || !mg->edges || !mg->tight_at || !mg->tight) {
        free(rep);
        free(at);
        merged_free(mg);
        return -1;
    }
    double extent = 0;
    for (int j = 0; j < 3; j++)
        extent = fp_max(extent, vs->hi[j] - vs->lo[j]);
    for (int v = 0; v < V0; v++)
        rep[v] = v;
    for (int e = 0; e < E0; e++) { /* the tiny edges contracted */
        const double *xu = vs->x + 3 * (size_t)vs->edges[2 * e], *xw = vs->x + 3 * (size_t)vs->edges[2 * e + 1];
        double len = fp_max(fabs(xu[0] - xw[0]), fp_max(fabs(xu[1] - xw[1]), fabs(xu[2] - xw[2])));
        if (len <= GRAPH_TINY * extent) {
            int ru = root_of(rep, vs->edges[2 * e]), rw = root_of(rep, vs->edges[2 * e + 1]);
            rep[ru > rw ? ru : rw] = ru > rw ? rw : ru;
        }
    }
    for (int v = 0; v < V0; v++) /* (a root stays a root: rep stays a forest) */
        rep[v] = root_of(rep, v);
    for (int v = 0; v < V0; v++) { /* roots numbered in order, each point its root's */
        if (rep[v] == v) {
            at[v] = mg->V;
            memcpy(mg->x + 3 * (size_t)mg->V++, vs->x + 3 * (size_t)v, 3 * sizeof(double));
        }
    }
    for (int v = 0; v < V0; v++)
        rep[v] = at[rep[v]];
    for (int e = 0; e < E0; e++) {
        int u = rep[vs->edges[2 * e]], w = rep[vs->edges[2 * e + 1]];
        if (u == w)
            continue;
        mg->edges[2 * mg->E] = u < w ? u : w;
        mg->edges[2 * mg->E + 1] = u < w ? w : u;
        mg->E++;
    }
    qsort(mg->edges, (size_t)mg->E, 2 * sizeof(int), by_pair);
    int E = 0;
    for (int e = 0; e < mg->E; e++)
        if (E == 0 || by_pair(mg->edges + 2 * e, mg->edges + 2 * (E - 1)) != 0) {
            mg->edges[2 * E] = mg->edges[2 * e];
            mg->edges[2 * E + 1] = mg->edges[2 * e + 1];
            E++;
        }
    mg->E = E;
    for (int v = 0; v < V0; v++) /* the rows of each point, then each list sorted, unique */
        mg->tight_at[rep[v] + 1] += vs->tight_start[v + 1] - vs->tight_start[v];
    for (int v = 0; v < mg->V; v++)
        mg->tight_at[v + 1] += mg->tight_at[v];
    memcpy(at, mg->tight_at, sizeof(int) * (size_t)mg->V);
    for (int v = 0; v < V0; v++)
        for (int t = vs->tight_start[v]; t < vs->tight_start[v + 1]; t++)
            mg->tight[at[rep[v]]++] = vs->tight[t];
    int T = 0;
    for (int v = 0; v < mg->V; v++) {
        int from = mg->tight_at[v], to = mg->tight_at[v + 1];
        qsort(mg->tight + from, (size_t)(to - from), sizeof(int), by_int);
        mg->tight_at[v] = T;
        for (int t = from; t < to; t++)
            if (t == from || mg->tight[t] != mg->tight[t - 1])
                mg->tight[T++] = mg->tight[t];
    }
    mg->tight_at[mg->V] = T;
    free(at);
    free(rep);
    return 0;
}

/* Whether point u has tight row r. */
static int has_row(const merged *mg, int u, int r)
{
    for (int t = mg->tight_at[u]; t < mg->tight_at[u + 1]; t++)
        if (mg->tight[t] == r)
            return 1;
    return 0;
}

/* The simple vertices' cones and links (the others keep simple 0). */
static void simple_vertices(const fast_prep *fp, const merged *mg, const int *adj_at,
                            const int *adj, fast_vertex *vert, fast_links *links)
{
    for (int v = 0; v < mg->V; v++) {
        const int *rows = mg->tight + mg->tight_at[v];
        if (mg->tight_at[v + 1] - mg->tight_at[v] != 3 || adj_at[v + 1] - adj_at[v] != 3 ||
            cone_of(fp, rows, vert[v].cone) != 0)
            continue;
        int found = 0;
        for (int k = 0; k < 3; k++) {
            links[v].tight[k] = rows[k];
            links[v].nb[k] = -1;
            for (int e = adj_at[v]; e < adj_at[v + 1]; e++) /* the edge releasing row k */
                if (!has_row(mg, adj[e], rows[k]) && has_row(mg, adj[e], rows[(k + 1) % 3]) &&
                    has_row(mg, adj[e], rows[(k + 2) % 3])) {
                    links[v].nb[k] = adj[e];
                    found++;
                    break;
                }
        }
        vert[v].simple = found == 3;
    }
}

/* One block: the structure, the vertices (aligned to their lines), the
 * links, then the int arrays. */
static void *make_graph(const fast_prep *fp)
{
    if (fp->n != 3 || fp->m < FAST_GRAPH_MIN_ROWS)
        return no_graph();
    vertex_set *vs = NULL;
    hs_error err;
    hs_code rc = vertex_enum_doubles(fp->poly, fp->center, &vs, &err);
    if (rc == HS_ERR_NOMEM)
        return NULL;
    merged mg;
    if (rc != HS_OK || vs->nverts < 4) {
        vertex_set_free(vs);
        return no_graph();
    }
    rc = merge_points(vs, &mg) == 0 ? HS_OK : HS_ERR_NOMEM;
    vertex_set_free(vs);
    if (rc != HS_OK)
        return NULL;
    if (mg.V < 4) {
        merged_free(&mg);
        return no_graph();
    }
    size_t V = (size_t)mg.V, E = (size_t)mg.E, T = (size_t)mg.tight_at[V];
    int g = GRAPH_START_G;
    size_t head = (sizeof(fast_graph) + 63) / 64 * 64 + 64; /* (room to align) */
    size_t bytes = head + V * sizeof(fast_vertex) + V * sizeof(fast_links) +
                   2 * E * sizeof(fast_nb) +
                   sizeof(int) * (2 * (V + 1) + T + 6 * (size_t)g * (size_t)g);
    char *block = mem_alloc(bytes, 1);
    int *adj = mem_alloc(2 * E + 1, sizeof(int)); /* (the neighbours' numbers, to build) */
    if (!block || !adj) {
        free(block);
        free(adj);
        merged_free(&mg);
        return NULL;
    }
    fast_graph *gr = (fast_graph *)(void *)block;
    uintptr_t at = ((uintptr_t)(block + sizeof(fast_graph)) + 63) & ~(uintptr_t)63;
    fast_vertex *vert = (fast_vertex *)at;
    fast_links *links = (fast_links *)(void *)(vert + V);
    fast_nb *nbs = (fast_nb *)(void *)(links + V);
    int *adj_at = (int *)(void *)(nbs + 2 * E), *tight_at = adj_at + V + 1;
    int *tight = tight_at + V + 1, *start = tight + T;
    memset(vert, 0, V * sizeof(fast_vertex));
    for (size_t v = 0; v < V; v++)
        memcpy(vert[v].x, mg.x + 3 * v, sizeof(double) * 3);
    memset(adj_at, 0, sizeof(int) * (V + 1));
    for (size_t e = 0; e < E; e++) {
        adj_at[mg.edges[2 * e] + 1]++;
        adj_at[mg.edges[2 * e + 1] + 1]++;
    }
    for (size_t v = 0; v < V; v++)
        adj_at[v + 1] += adj_at[v];
    int *fill = tight; /* (tight is written after: borrowed as V counters) */
    memcpy(fill, adj_at, sizeof(int) * V);
    for (size_t e = 0; e < E; e++) {
        int u = mg.edges[2 * e], v = mg.edges[2 * e + 1];
        adj[fill[u]++] = v;
        adj[fill[v]++] = u;
    }
    for (size_t k = 0; k < 2 * E; k++) {
        for (int j = 0; j < 3; j++)
            nbs[k].x[j] = (float)vert[adj[k]].x[j];
        nbs[k].v = adj[k];
    }
    memcpy(tight_at, mg.tight_at, sizeof(int) * (V + 1));
    memcpy(tight, mg.tight, sizeof(int) * T);
    simple_vertices(fp, &mg, adj_at, adj, vert, links);
    for (int c = 0; c < 6 * g * g; c++) {
        double d[3];
        fast_prep_cell_center(3, g, c, d);
        start[c] = extreme_vertex(vert, (int)V, d);
    }
    *gr = (fast_graph){(int)V, g, vert, links, adj_at, nbs, tight_at, tight, start};
    free(adj);
    merged_free(&mg);
    return gr;
}

const fast_graph *fast_prep_graph(const fast_prep *fp)
{
    fast_prep *mp = (fast_prep *)fp; /* only the atomic slot is written */
    return fast_prep_lazy(fp, &mp->graph, make_graph);
}

static double along_of(const fast_vertex *v, const double *d)
{
    return d[0] * v->x[0] + d[1] * v->x[1] + d[2] * v->x[2];
}

/* The neighbour of v that gains most along d over top (any vertex), or -1.
 * The neighbours' points are read from v's list, in floats: each is off
 * by at most 2^-24 of its coordinate, so a float gain is within
 * slack = 2^-23 sum_j |d_j| max|x_j| of the true one.  The best float gain
 * past that slack is a move (confirmed in doubles); when none is, every
 * neighbour whose float gain is within the slack is read in doubles. */
static int best_neighbour(const fast_graph *g, int v, const double *d, double *top)
{
    const fast_nb *nb = g->nbs + g->adj_at[v], *end = g->nbs + g->adj_at[v + 1];
    const double *x = g->vert[v].x;
    double scale = fabs(d[0]) * fabs(x[0]) + fabs(d[1]) * fabs(x[1]) + fabs(d[2]) * fabs(x[2]);
    double best = -INFINITY, big = 0;
    int pick = -1;
    for (const fast_nb *e = nb; e < end; e++) {
        double at = d[0] * e->x[0] + d[1] * e->x[1] + d[2] * e->x[2];
        big = fp_max(big, fabs(d[0] * e->x[0]) + fabs(d[1] * e->x[1]) + fabs(d[2] * e->x[2]));
        if (at > best) {
            best = at;
            pick = e->v;
        }
    }
    double slack = 0x1p-22 * (fp_max(scale, big) + 0x1p-1000);
    if (pick >= 0 && best > *top + slack) {
        double exact = along_of(&g->vert[pick], d);
        if (exact > *top) {
            *top = exact;
            return pick;
        }
    }
    int next = -1;
    for (const fast_nb *e = nb; e < end; e++) {
        if (!(d[0] * e->x[0] + d[1] * e->x[1] + d[2] * e->x[2] > *top - slack))
            continue;
        double exact = along_of(&g->vert[e->v], d);
        if (exact > *top) {
            *top = exact;
            next = e->v;
        }
    }
    return next;
}

/* Steps across edges that do not gain (two vertices on one point: planes
 * that meet at a point to rounding, as on the hull of a mesh) allowed in a
 * row; the walk is then the simplex method's degenerate pivots, which can
 * cycle, hence the cap. */
#define GRAPH_FLAT_STEPS 8

int fast_graph_support(const fast_graph *g, const double *d, double *along)
{
    int v = g->start[fast_prep_cell(3, g->g, d)], flat = 0;
    double top = along_of(&g->vert[v], d);
    /* a gaining step never returns to a vertex: at most nverts of them */
    for (int steps = 0; steps < g->nverts; steps++) {
        const fast_vertex *r = &g->vert[v];
        int next = -1;
        if (r->simple) { /* the multipliers of d on the cone: a negative one names the edge */
            int k = -1;
            double least = 0;
            for (int t = 0; t < 3; t++) {
                double l = r->cone[3 * t] * d[0] + r->cone[3 * t + 1] * d[1] +
                           r->cone[3 * t + 2] * d[2];
                if (l < least) {
                    least = l;
                    k = t;
                }
            }
            if (k < 0)
                break;
            next = g->links[v].nb[k];
            double at = along_of(&g->vert[next], d);
            if (at > top) {
                top = at;
                flat = 0;
            } else if (at == top && flat < GRAPH_FLAT_STEPS) {
                flat++;
                steps--;
            } else
                next = best_neighbour(g, v, d, &top); /* (the floats' rounding) */
        } else
            next = best_neighbour(g, v, d, &top);
        if (next < 0)
            break;
        v = next;
    }
    *along = top;
    return v;
}

const int *fast_graph_tight(const fast_graph *g, int v, int *count)
{
    if (g->vert[v].simple) {
        *count = 3;
        return g->links[v].tight;
    }
    *count = g->tight_at[v + 1] - g->tight_at[v];
    return g->tight + g->tight_at[v];
}
