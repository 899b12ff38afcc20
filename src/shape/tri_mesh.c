/* tri_mesh.c -- pairing the triangles of two meshes (seed 000, section 4).
 *
 * A tri_mesh keeps, in its own frame, the box of every triangle, the box of
 * the whole mesh, the sum of the triangles' extents per axis and the
 * bounding-volume hierarchy of its triangles.
 *
 * tri_mesh_pairs maps the points of b into a's frame once per call
 * (pose_apply: x' = R x + t in doubles, each coordinate rounded once), and
 * from then on every answer is exact for a's points and those rounded
 * points.  Three methods:
 *
 *  HS_TRI_RAW   seed 000's raw method: every triangle of a against every
 *               triangle of b, with no box test first, so *tests is
 *               na * nb (unless fn stops the search early).
 *  HS_TRI_GRID  seed 000's space subdivision: a uniform grid of cells over
 *               the region where the two meshes' boxes overlap (a common
 *               point of two triangles lies in both meshes' boxes), over
 *               the triangles whose boxes meet that region, cell sides per
 *               axis equal to the average extent of those triangles on
 *               that axis (grown by factors of
 *               1.5 while the grid would have more than CELLS_PER_TRI cells
 *               or ENTRIES_PER_TRI cell entries per triangle, so that a
 *               few huge triangles cannot exhaust memory; one cell along an
 *               axis whose sizes overflow).  Each triangle is listed in
 *               every cell its box touches, in a list per mesh, so only
 *               triangles of different meshes are paired.  A pair sharing
 *               several cells is tested once: in the cell
 *               that holds the lower corner of the intersection of the two
 *               boxes; pairs whose boxes do not meet are skipped without a
 *               test (they cannot meet).  Cell indices come from one
 *               monotone function of a coordinate (subtract, multiply,
 *               floor, clamp), so the cell of that corner lies in both
 *               triangles' cell ranges whatever the rounding.
 *
 *  HS_TRI_BVH   the hierarchies of the two meshes (tri_bvh.c, built here
 *               once per mesh), traversed pairwise; b's points are mapped
 *               only where a leaf needs them, by the same pose_apply, and
 *               the bound from b's largest coordinates replaces the check
 *               of every mapped point unless it cannot exclude overflow.
 *
 * All three report the same set of pairs, with the same statuses and
 * witnesses (in different orders).
 * The search stops when fn returns nonzero.  A point of b whose mapping
 * overflows (not finite) makes the call fail with HS_ERR_ARG before any
 * test, since the exact predicates need finite input. */
#include "src/shape/tri_mesh.h"
#include "src/shape/tri_bvh.h"
#include "src/shape/tri_tri.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/shape/pose.h"

#define CELLS_PER_TRI 8.0
#define ENTRIES_PER_TRI 64.0
#define CELL_GROWTH 1.5
#define GROWTH_MAX 400

struct tri_mesh {
    const double *verts;
    const int *tris;
    int nverts, ntris;
    double *box;   /* per triangle: lo[3], hi[3] */
    double lo[3], hi[3];
    double ext[3]; /* sum over the triangles of hi - lo */
    tri_bvh *bvh;  /* the hierarchy of HS_TRI_BVH (tri_bvh.c) */
};

/* Box of the triangle with corner indices t in the point array v. */
static void tri_box(const double *v, const int *t, double box[6])
{
    for (int d = 0; d < 3; d++) {
        double a = v[3 * t[0] + d], b = v[3 * t[1] + d], c = v[3 * t[2] + d];
        double lo = a < b ? a : b, hi = a < b ? b : a; /* (points are finite) */
        box[d] = c < lo ? c : lo;
        box[3 + d] = c > hi ? c : hi;
    }
}

/* Boxes of every triangle, the union box and the extent sums. */
static void boxes_of(const double *v, const int *tris, int ntris, double *box, double lo[3],
                     double hi[3], double ext[3])
{
    for (int d = 0; d < 3; d++) {
        lo[d] = INFINITY;
        hi[d] = -INFINITY;
        ext[d] = 0;
    }
    for (int i = 0; i < ntris; i++) {
        double *b = box + 6 * (size_t)i;
        tri_box(v, tris + 3 * (size_t)i, b);
        for (int d = 0; d < 3; d++) {
            lo[d] = b[d] < lo[d] ? b[d] : lo[d];
            hi[d] = b[3 + d] > hi[d] ? b[3 + d] : hi[d];
            ext[d] += b[3 + d] - b[d];
        }
    }
}

/* NULL when out of memory or when a corner index is out of range. */
tri_mesh *tri_mesh_new(const double *verts, int nverts, const int *tris, int ntris)
{
    if (nverts < 0 || ntris < 0)
        return NULL;
    for (long i = 0; i < 3L * ntris; i++)
        if (tris[i] < 0 || tris[i] >= nverts)
            return NULL;
    tri_mesh *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->box = mem_alloc((size_t)ntris * 6, sizeof(double));
    m->bvh = tri_bvh_new(verts, nverts, tris, ntris);
    if (!m->box || !m->bvh) {
        tri_mesh_free(m);
        return NULL;
    }
    m->verts = verts;
    m->tris = tris;
    m->nverts = nverts;
    m->ntris = ntris;
    boxes_of(verts, tris, ntris, m->box, m->lo, m->hi, m->ext);
    return m;
}

void tri_mesh_free(tri_mesh *m)
{
    if (!m)
        return;
    free(m->box);
    tri_bvh_free(m->bvh);
    free(m);
}

const tri_bvh *tri_mesh_bvh(const tri_mesh *m) { return m->bvh; }

/* ============================================================ one call */

/* b mapped into a's frame, and the reporting state. */
typedef struct pairing {
    const tri_mesh *a, *b;
    double *bv;   /* b's points in a's frame */
    double *bbox; /* b's triangle boxes in a's frame */
    double blo[3], bhi[3], bext[3];
    tri_pair_fn fn;
    void *user;
    long tests;
} pairing;

static void corners(const double *v, const int *t, double out[3][3])
{
    for (int k = 0; k < 3; k++)
        memcpy(out[k], v + 3 * (size_t)t[k], sizeof out[k]);
}

/* Test triangle ia of a (corners pa) against ib of b; nonzero to stop. */
static int test_pair(pairing *pr, const double pa[3][3], int ia, int ib)
{
    double pb[3][3], w[3];
    corners(pr->bv, pr->b->tris + 3 * (size_t)ib, pb);
    pr->tests++;
    hs_status st = tri_tri_classify(pa, (const double(*)[3])pb, w);
    return st != HS_DISJOINT && pr->fn(pr->user, ia, ib, st, w);
}

static void pairs_raw(pairing *pr)
{
    for (int ia = 0; ia < pr->a->ntris; ia++) {
        double pa[3][3];
        corners(pr->a->verts, pr->a->tris + 3 * (size_t)ia, pa);
        for (int ib = 0; ib < pr->b->ntris; ib++)
            if (test_pair(pr, (const double(*)[3])pa, ia, ib))
                return;
    }
}

/* ============================================================ the grid */

typedef struct grid {
    double lo[3], hi[3]; /* region */
    double inv[3];       /* 1 / cell side (0: a single cell on that axis) */
    int n[3];
    long ncells;
    long *start[2];      /* per mesh: cell c lists items[start[c] .. start[c+1]) */
    int *items[2];
    int *sel[2];         /* per mesh: the triangles whose boxes meet the region */
    int nsel[2];
    int *range[2];       /* per selected triangle: its cells c0[3], c1[3] for the
                            current sides (grid_entries) */
} grid;

/* The monotone cell index of coordinate x on axis d. */
static int cell_of(const grid *g, int d, double x)
{
    double c = (x - g->lo[d]) * g->inv[d];
    if (!(c >= 0))
        return 0;
    return c >= g->n[d] ? g->n[d] - 1 : (int)c; /* (truncation: floor for c >= 0) */
}

/* Cell range of a box on each axis; 0 when the box misses the region. */
static int box_cells(const grid *g, const double *box, int c0[3], int c1[3])
{
    for (int d = 0; d < 3; d++) {
        if (box[3 + d] < g->lo[d] || box[d] > g->hi[d])
            return 0;
        c0[d] = cell_of(g, d, box[d]);
        c1[d] = cell_of(g, d, box[3 + d]);
    }
    return 1;
}

/* Cells per axis and in all (as a double: no overflow) for the current
 * sides. */
static double grid_cells(grid *g)
{
    double cells = 1;
    for (int d = 0; d < 3; d++) {
        double span = (g->hi[d] - g->lo[d]) * g->inv[d];
        double n = span < 1e9 ? floor(span) + 1 : 1e9;
        g->n[d] = (int)n;
        cells *= n;
    }
    return cells;
}

/* Cell entries the selected triangles' boxes would make (as a double);
 * their cell ranges go to g->range (c0[0] = -1: none). */
static double grid_entries(grid *g, const double *const box[2])
{
    double entries = 0;
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < g->nsel[m]; k++) {
            int *c0 = g->range[m] + 6 * (size_t)k, *c1 = c0 + 3;
            if (box_cells(g, box[m] + 6 * (size_t)g->sel[m][k], c0, c1))
                entries += (double)(c1[0] - c0[0] + 1) * (c1[1] - c0[1] + 1) *
                           (c1[2] - c0[2] + 1);
            else
                c0[0] = -1;
        }
    return entries;
}

/* Larger cells; after GROWTH_MAX steps (extreme ranges, where the
 * products could stay infinite) a single cell. */
static void grid_grow(grid *g, int step)
{
    for (int d = 0; d < 3; d++)
        g->inv[d] = step < GROWTH_MAX && isfinite(g->inv[d]) ? g->inv[d] / CELL_GROWTH : 0;
}

/* The triangles of a mesh whose boxes meet the region (only they can meet
 * a triangle of the other mesh), and the sum of their extents per axis;
 * -1 when out of memory. */
static int select_in_region(grid *g, int m, const double *box, int ntri, double ext[3])
{
    g->sel[m] = mem_alloc(ntri > 0 ? (size_t)ntri : 1, sizeof(int));
    g->range[m] = mem_alloc(ntri > 0 ? (size_t)ntri : 1, 6 * sizeof(int));
    if (!g->sel[m] || !g->range[m])
        return -1;
    g->nsel[m] = 0;
    for (int t = 0; t < ntri; t++) {
        const double *b = box + 6 * (size_t)t;
        int in = 1;
        for (int d = 0; d < 3 && in; d++)
            in = !(b[3 + d] < g->lo[d] || b[d] > g->hi[d]);
        if (!in)
            continue;
        g->sel[m][g->nsel[m]++] = t;
        for (int d = 0; d < 3; d++)
            ext[d] += b[3 + d] - b[d];
    }
    return 0;
}

/* Region (where the meshes' boxes overlap), the triangles in it, and cell
 * sides: the average extent of those triangles per axis (seed 000).
 * Returns 1, 0 when the boxes or no pair of triangles can meet, -1 when
 * out of memory. */
static int grid_shape(grid *g, const pairing *pr)
{
    const tri_mesh *a = pr->a;
    for (int d = 0; d < 3; d++) {
        g->lo[d] = fmax(a->lo[d], pr->blo[d]);
        g->hi[d] = fmin(a->hi[d], pr->bhi[d]);
        if (!(g->lo[d] <= g->hi[d]))
            return 0;
    }
    double ext[3] = {0, 0, 0};
    if (select_in_region(g, 0, a->box, a->ntris, ext) != 0 ||
        select_in_region(g, 1, pr->bbox, pr->b->ntris, ext) != 0)
        return -1;
    if (g->nsel[0] == 0 || g->nsel[1] == 0)
        return 0;
    double total = (double)g->nsel[0] + g->nsel[1];
    for (int d = 0; d < 3; d++) {
        double side = ext[d] / total;
        g->inv[d] = side > 0 && g->hi[d] > g->lo[d] ? 1 / side : 0;
        if (!isfinite(g->inv[d]) || !isfinite(g->hi[d] - g->lo[d]))
            g->inv[d] = 0; /* extreme magnitudes: one cell on this axis */
    }
    const double *box[2] = {a->box, pr->bbox};
    int step = 0;
    while (grid_cells(g) > CELLS_PER_TRI * total + 1)
        grid_grow(g, step++);
    while (grid_entries(g, box) > ENTRIES_PER_TRI * total) {
        grid_grow(g, step++);
        grid_cells(g);
    }
    g->ncells = (long)grid_cells(g);
    return 1;
}

static long cell_index(const grid *g, int i, int j, int k)
{
    return ((long)i * g->n[1] + j) * g->n[2] + k;
}

/* Counting pass (fill == 0) or filling pass of one mesh's cell lists
 * (from the ranges of the last grid_entries). */
static void grid_pass(grid *g, int m, int fill)
{
    for (int s = 0; s < g->nsel[m]; s++) {
        int t = g->sel[m][s];
        const int *c0 = g->range[m] + 6 * (size_t)s, *c1 = c0 + 3;
        if (c0[0] < 0)
            continue;
        for (int i = c0[0]; i <= c1[0]; i++)
            for (int j = c0[1]; j <= c1[1]; j++)
                for (int k = c0[2]; k <= c1[2]; k++) {
                    long c = cell_index(g, i, j, k);
                    if (fill)
                        g->items[m][g->start[m][c]++] = t;
                    else
                        g->start[m][c + 1]++;
                }
    }
}

/* Cell lists of mesh m (start[] zeroed by the caller); -1 out of memory. */
static int grid_lists(grid *g, int m)
{
    long *st = g->start[m];
    grid_pass(g, m, 0);
    for (long c = 0; c < g->ncells; c++)
        st[c + 1] += st[c];
    g->items[m] = mem_alloc((size_t)st[g->ncells], sizeof(int));
    if (!g->items[m])
        return -1;
    grid_pass(g, m, 1); /* start[c] now holds the end of cell c */
    for (long c = g->ncells; c > 0; c--)
        st[c] = st[c - 1];
    st[0] = 0;
    return 0;
}

/* The boxes meet and their lower common corner lies in cell (i, j, k). */
static int owns_pair(const grid *g, const double *ba, const double *bb, const int cell[3])
{
    for (int d = 0; d < 3; d++) {
        double lo = ba[d] > bb[d] ? ba[d] : bb[d];
        double hi = ba[3 + d] < bb[3 + d] ? ba[3 + d] : bb[3 + d];
        if (lo > hi || cell_of(g, d, lo) != cell[d])
            return 0;
    }
    return 1;
}

/* The pairs of cell (i, j, k); nonzero to stop. */
static int mesh_cell_pairs(const grid *g, pairing *pr, const int cell[3])
{
    long c = cell_index(g, cell[0], cell[1], cell[2]);
    for (long x = g->start[0][c]; x < g->start[0][c + 1]; x++) {
        int ia = g->items[0][x];
        const double *ba = pr->a->box + 6 * (size_t)ia;
        double pa[3][3];
        corners(pr->a->verts, pr->a->tris + 3 * (size_t)ia, pa);
        for (long y = g->start[1][c]; y < g->start[1][c + 1]; y++) {
            int ib = g->items[1][y];
            if (owns_pair(g, ba, pr->bbox + 6 * (size_t)ib, cell) &&
                test_pair(pr, (const double(*)[3])pa, ia, ib))
                return 1;
        }
    }
    return 0;
}

static hs_code pairs_grid(pairing *pr)
{
    grid g;
    memset(&g, 0, sizeof g);
    int shape = grid_shape(&g, pr);
    hs_code rc = shape < 0 ? HS_ERR_NOMEM : HS_OK;
    if (shape <= 0)
        goto done;
    rc = HS_ERR_NOMEM;
    g.start[0] = mem_calloc((size_t)g.ncells + 1, sizeof(long));
    g.start[1] = mem_calloc((size_t)g.ncells + 1, sizeof(long));
    if (!g.start[0] || !g.start[1] || grid_lists(&g, 0) || grid_lists(&g, 1))
        goto done;
    rc = HS_OK;
    int cell[3];
    for (cell[0] = 0; cell[0] < g.n[0]; cell[0]++)
        for (cell[1] = 0; cell[1] < g.n[1]; cell[1]++)
            for (cell[2] = 0; cell[2] < g.n[2]; cell[2]++)
                if (mesh_cell_pairs(&g, pr, cell))
                    goto done;
done:
    for (int m = 0; m < 2; m++) {
        free(g.start[m]);
        free(g.items[m]);
        free(g.sel[m]);
        free(g.range[m]);
    }
    return rc;
}

/* b's points mapped by T; HS_ERR_ARG when one is not finite. */
static hs_code map_points(pairing *pr, const double T[16])
{
    const tri_mesh *b = pr->b;
    for (int i = 0; i < b->nverts; i++) {
        double *x = pr->bv + 3 * (size_t)i;
        pose_apply(T, b->verts + 3 * (size_t)i, x);
        if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2]))
            return HS_ERR_ARG;
    }
    boxes_of(pr->bv, b->tris, b->ntris, pr->bbox, pr->blo, pr->bhi, pr->bext);
    return HS_OK;
}

/* HS_TRI_BVH: HS_ERR_ARG when a point of b mapped by T is not finite
 * (checked point by point only when the bound from the largest
 * coordinates cannot exclude it), else the traversal. */
static hs_code pairs_bvh(const tri_mesh *a, const tri_mesh *b, const double T[16],
                         tri_pair_fn fn, void *user, long *tests)
{
    if (!tri_bvh_image_finite(b->bvh, T))
        for (int i = 0; i < b->nverts; i++) {
            double x[3];
            pose_apply(T, b->verts + 3 * (size_t)i, x);
            if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2]))
                return HS_ERR_ARG;
        }
    long n = tri_bvh_pairs(a->bvh, b->bvh, T, fn, user);
    if (tests)
        *tests = n;
    return HS_OK;
}

/* Returns HS_OK, HS_ERR_NOMEM, or HS_ERR_ARG when a point of b mapped by
 * T overflows (not finite): the exact predicates need finite input. */
hs_code tri_mesh_pairs(const tri_mesh *a, const tri_mesh *b, const double T[16],
                       hs_tri_method method, tri_pair_fn fn, void *user, long *tests)
{
    pairing pr = {a, b, NULL, NULL, {0}, {0}, {0}, fn, user, 0};
    if (tests)
        *tests = 0;
    if (method == HS_TRI_BVH)
        return pairs_bvh(a, b, T, fn, user, tests);
    pr.bv = mem_alloc((size_t)b->nverts * 3, sizeof(double));
    pr.bbox = mem_alloc((size_t)b->ntris * 6, sizeof(double));
    hs_code rc = pr.bv && pr.bbox ? map_points(&pr, T) : HS_ERR_NOMEM;
    if (rc == HS_OK) {
        if (method == HS_TRI_RAW)
            pairs_raw(&pr);
        else
            rc = pairs_grid(&pr);
    }
    if (tests)
        *tests = pr.tests;
    free(pr.bv);
    free(pr.bbox);
    return rc;
}
