/* chain_baselines.c -- grid, 1-OBBTree and K-OBBTree self-collision for
 * a chain of spheres (seed 003, section 5); see chain_baselines.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/chain_baselines.h"

/* ------------------------------------------------------------ state */

typedef struct tree_node {
    hs_obb box;
    int left, right; /* children (internal) */
    int lo, hi;      /* spheres idx[lo .. hi-1] */
} tree_node;

typedef struct grid {
    int bits;
    uint64_t *key;
    int *head, *stamp;
    int *next;       /* per sphere: next sphere in its cell */
    int gen;
} grid;

struct cb_state {
    cb_method method;
    int n;
    double r;
    double *joint;   /* n * 12: rows of the 3x4 part */
    double *pose;    /* n * 12: world poses, valid below `dirty` */
    int dirty;       /* first link whose pose is out of date */
    int last_k;      /* joint of the last change, for undo and pieces */
    double saved[12];
    grid g;
    tree_node *node; /* 2n nodes */
    int nnodes;
    int *idx;        /* sphere permutation of the trees */
    double *proj;    /* n * 3: projections on the current node's axes */
    long tests;
};

const char *cb_method_name(cb_method method)
{
    static const char *names[] = {"grid", "obbtree1", "obbtreek"};
    return names[method];
}

/* out = a b for 3x4 rigid maps (rows). */
static void mul34(double *out, const double *a, const double *b)
{
    for (int i = 0; i < 3; i++) {
        const double *ai = a + 4 * i;
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = ai[0] * b[j] + ai[1] * b[4 + j] + ai[2] * b[8 + j];
        out[4 * i + 3] += ai[3];
    }
}

static int grid_init(grid *g, int n)
{
    g->bits = 4;
    while ((1 << g->bits) < 4 * n)
        g->bits++;
    size_t size = (size_t)1 << g->bits;
    g->key = malloc(size * sizeof *g->key);
    g->head = malloc(size * sizeof *g->head);
    g->stamp = calloc(size, sizeof *g->stamp);
    g->next = malloc((size_t)n * sizeof *g->next);
    g->gen = 0;
    return g->key && g->head && g->stamp && g->next ? 0 : -1;
}

cb_state *cb_new(cb_method method, int n, const double *joints, double r)
{
    cb_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->method = method;
    s->n = n;
    s->r = r;
    s->joint = malloc((size_t)n * 12 * sizeof(double));
    s->pose = malloc((size_t)n * 12 * sizeof(double));
    s->node = malloc((size_t)2 * n * sizeof *s->node);
    s->idx = malloc((size_t)n * sizeof *s->idx);
    s->proj = malloc((size_t)n * 3 * sizeof *s->proj);
    if (!s->joint || !s->pose || !s->node || !s->idx || !s->proj || grid_init(&s->g, n) != 0) {
        cb_free(s);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        memcpy(s->joint + 12 * i, joints + 16 * i, 12 * sizeof(double));
    s->dirty = 0;
    s->last_k = 1;
    return s;
}

void cb_free(cb_state *s)
{
    if (!s)
        return;
    free(s->joint);
    free(s->pose);
    free(s->node);
    free(s->idx);
    free(s->proj);
    free(s->g.key);
    free(s->g.head);
    free(s->g.stamp);
    free(s->g.next);
    free(s);
}

void cb_change(cb_state *s, int k, const double d[16])
{
    double *j = s->joint + 12 * k, out[12];
    memcpy(s->saved, j, sizeof s->saved);
    mul34(out, j, d);
    memcpy(j, out, sizeof out);
    s->last_k = k;
    s->dirty = k < s->dirty ? k : s->dirty;
}

void cb_undo(cb_state *s)
{
    memcpy(s->joint + 12 * s->last_k, s->saved, sizeof s->saved);
    s->dirty = s->last_k < s->dirty ? s->last_k : s->dirty;
}

/* Forward kinematics of the links whose pose is out of date. */
static void update_poses(cb_state *s)
{
    if (s->dirty == 0) {
        memcpy(s->pose, s->joint, 12 * sizeof(double));
        s->dirty = 1;
    }
    for (int i = s->dirty; i < s->n; i++)
        mul34(s->pose + 12 * i, s->pose + 12 * (i - 1), s->joint + 12 * i);
    s->dirty = s->n;
}

static const double *center(const cb_state *s, int i) { return s->pose + 12 * i; }

/* Sphere centres at stride 4 in the pose rows: x = pose[3], y = pose[7],
 * z = pose[11]. */
static void position(const cb_state *s, int i, double p[3])
{
    const double *m = center(s, i);
    p[0] = m[3];
    p[1] = m[7];
    p[2] = m[11];
}

static int spheres_meet(const cb_state *s, int i, int j)
{
    if (abs(i - j) < 2)
        return 0;
    double p[3], q[3];
    position(s, i, p);
    position(s, j, q);
    double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2], d = 2 * s->r;
    return dx * dx + dy * dy + dz * dz <= d * d;
}

/* ------------------------------------------------------------- grid */

static uint64_t cell_key(long x, long y, long z)
{
    const long off = 1L << 20;
    return (uint64_t)(x + off) << 42 | (uint64_t)(y + off) << 21 | (uint64_t)(z + off);
}

/* Cells of side 4r, twice the collision distance: the ball of radius 2r
 * around a centre meets at most 2 x 2 x 2 of them. */
static void cell_of(const cb_state *s, int i, long c[3])
{
    double p[3], h = 4 * s->r;
    position(s, i, p);
    for (int j = 0; j < 3; j++)
        c[j] = (long)floor(p[j] / h);
}

/* Slot of key (claimed when `claim`), or -1 if absent; one cell visit. */
static int grid_slot(cb_state *s, uint64_t key, int claim)
{
    grid *g = &s->g;
    size_t mask = ((size_t)1 << g->bits) - 1;
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15u) >> (64 - g->bits));
    s->tests++;
    for (;; h = (h + 1) & mask) {
        if (g->stamp[h] != g->gen) {
            if (!claim)
                return -1;
            g->stamp[h] = g->gen;
            g->key[h] = key;
            g->head[h] = -1;
            return (int)h;
        }
        if (g->key[h] == key)
            return (int)h;
    }
}

static void grid_insert(cb_state *s, int i)
{
    long c[3];
    cell_of(s, i, c);
    int h = grid_slot(s, cell_key(c[0], c[1], c[2]), 1);
    s->g.next[i] = s->g.head[h];
    s->g.head[h] = i;
}

/* A sphere in the grid meeting sphere i: the cells met by the ball of
 * radius 2r around its centre (at most 8). */
static int grid_query(cb_state *s, int i, int *other)
{
    double p[3], side = 4 * s->r, d = 2 * s->r;
    long lo[3], hi[3];
    position(s, i, p);
    for (int j = 0; j < 3; j++) {
        lo[j] = (long)floor((p[j] - d) / side);
        hi[j] = (long)floor((p[j] + d) / side);
    }
    for (long x = lo[0]; x <= hi[0]; x++)
        for (long y = lo[1]; y <= hi[1]; y++)
            for (long z = lo[2]; z <= hi[2]; z++) {
                int h = grid_slot(s, cell_key(x, y, z), 0);
                for (int j = h < 0 ? -1 : s->g.head[h]; j >= 0; j = s->g.next[j])
                    if (spheres_meet(s, i, j)) {
                        *other = j;
                        return 1;
                    }
            }
    return 0;
}

static void order_pair(int a, int b, int *i, int *j)
{
    *i = a < b ? a : b;
    *j = a < b ? b : a;
}

/* The larger piece goes into the grid, the smaller one looks up. */
static int grid_test(cb_state *s, int k, int *i, int *j)
{
    int n = s->n, small_lo = k <= n - k ? 0 : k, small_hi = k <= n - k ? k : n;
    s->g.gen++;
    for (int a = 0; a < n; a++)
        if (a < small_lo || a >= small_hi)
            grid_insert(s, a);
    for (int a = small_lo; a < small_hi; a++) {
        int b;
        if (grid_query(s, a, &b)) {
            order_pair(a, b, i, j);
            return 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ trees */

/* Rows v[1], v[2] completing the unit row v[0] to a right-handed
 * orthonormal frame (v[1] is made orthogonal to v[0] first). */
static void complete_frame(double v[3][3])
{
    double d = v[0][0] * v[1][0] + v[0][1] * v[1][1] + v[0][2] * v[1][2];
    for (int k = 0; k < 3; k++)
        v[1][k] -= d * v[0][k];
    double n1 = sqrt(v[1][0] * v[1][0] + v[1][1] * v[1][1] + v[1][2] * v[1][2]);
    for (int k = 0; k < 3; k++)
        v[1][k] /= n1;
    v[2][0] = v[0][1] * v[1][2] - v[0][2] * v[1][1];
    v[2][1] = v[0][2] * v[1][0] - v[0][0] * v[1][2];
    v[2][2] = v[0][0] * v[1][1] - v[0][1] * v[1][0];
}

/* Frame of two centres: x along the segment (their principal axis). */
static void segment_frame(const double d[3], double v[3][3])
{
    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    int w = 0;
    for (int k = 0; k < 3; k++) {
        v[0][k] = len > 0 ? d[k] / len : k == 0;
        if (fabs(v[0][k]) < fabs(v[0][w]))
            w = k;
    }
    for (int k = 0; k < 3; k++)
        v[1][k] = k == w;
    complete_frame(v);
}

/* Eigenvectors of the symmetric 3x3 matrix a (rows of v), two Jacobi
 * sweeps: the frame need not be exact, only the extents are. */
static void principal_axes(double a[3][3], double v[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            v[i][j] = i == j;
    for (int sweep = 0; sweep < 2; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        if (!(off > 1e-6 * (fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]))))
            break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0)
                    continue;
                double th = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), sn = t * c;
                for (int k = 0; k < 3; k++) {
                    double x = a[k][p], y = a[k][q];
                    a[k][p] = c * x - sn * y;
                    a[k][q] = sn * x + c * y;
                }
                for (int k = 0; k < 3; k++) {
                    double x = a[p][k], y = a[q][k];
                    a[p][k] = c * x - sn * y;
                    a[q][k] = sn * x + c * y;
                }
                for (int k = 0; k < 3; k++) {
                    double x = v[p][k], y = v[q][k];
                    v[p][k] = c * x - sn * y;
                    v[q][k] = sn * x + c * y;
                }
            }
    }
    /* right-handed, unit rows (Gram-Schmidt once more) */
    double n0 = sqrt(v[0][0] * v[0][0] + v[0][1] * v[0][1] + v[0][2] * v[0][2]);
    for (int k = 0; k < 3; k++)
        v[0][k] /= n0;
    complete_frame(v);
}

/* Box of the spheres idx[lo..hi): principal axes of the centres (one
 * pass of sums, taken relative to the first centre), extents of the
 * projections plus r, widened by 2^-40 of the magnitudes (the rounding of
 * projections and centre; coordinates are far below 2^20).  The
 * projections on the axis of largest extent are kept in s->proj for the
 * split. */
static int fit_node(cb_state *s, int lo, int hi)
{
    tree_node *nd = &s->node[s->nnodes];
    double o[3], sum[3] = {0, 0, 0}, sq[3][3] = {{0}}, p[3], v[3][3], cov[3][3];
    int cnt = hi - lo;
    position(s, s->idx[lo], o);
    for (int a = lo + 1; a < hi; a++) {
        position(s, s->idx[a], p);
        for (int i = 0; i < 3; i++) {
            p[i] -= o[i];
            sum[i] += p[i];
        }
        for (int i = 0; i < 3; i++)
            for (int j = i; j < 3; j++)
                sq[i][j] += p[i] * p[j];
    }
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++)
            cov[i][j] = cov[j][i] = sq[i][j] / cnt - sum[i] / cnt * (sum[j] / cnt);
    if (cnt == 2)
        segment_frame(sum, v); /* sum = the second centre minus the first */
    else
        principal_axes(cov, v);
    double lo_p[3] = {INFINITY, INFINITY, INFINITY}, hi_p[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int a = lo; a < hi; a++) {
        position(s, s->idx[a], p);
        double *x = s->proj + 3 * (size_t)a;
        for (int i = 0; i < 3; i++) {
            x[i] = v[i][0] * p[0] + v[i][1] * p[1] + v[i][2] * p[2];
            lo_p[i] = x[i] < lo_p[i] ? x[i] : lo_p[i];
            hi_p[i] = x[i] > hi_p[i] ? x[i] : hi_p[i];
        }
    }
    memcpy(nd->box.axis, v, sizeof v);
    double mag = 0;
    for (int j = 0; j < 3; j++) {
        nd->box.center[j] = 0;
        for (int i = 0; i < 3; i++)
            nd->box.center[j] += 0.5 * (lo_p[i] + hi_p[i]) * v[i][j];
        mag += fabs(nd->box.center[j]);
    }
    for (int i = 0; i < 3; i++) {
        double h = 0.5 * (hi_p[i] - lo_p[i]) + s->r;
        nd->box.half[i] = h + (h + mag) * 0x1p-40;
    }
    nd->lo = lo;
    nd->hi = hi;
    nd->left = nd->right = -1;
    return s->nnodes++;
}

/* Split idx[lo..hi) at the mean projection on the longest box axis (the
 * OBBTree rule), using the projections of fit_node; halves by count when
 * one side is empty. */
static int split(cb_state *s, int node, int lo, int hi)
{
    const hs_obb *b = &s->node[node].box;
    int ax = 0;
    for (int i = 1; i < 3; i++)
        if (b->half[i] > b->half[ax])
            ax = i;
    double mean = 0;
    for (int a = lo; a < hi; a++)
        mean += s->proj[3 * (size_t)a + ax];
    mean /= hi - lo;
    int i = lo, j = hi - 1;
    while (i <= j) {
        if (s->proj[3 * (size_t)i + ax] < mean) {
            i++;
            continue;
        }
        int t = s->idx[i];
        s->idx[i] = s->idx[j];
        s->idx[j] = t;
        for (int k = 0; k < 3; k++) {
            double x = s->proj[3 * (size_t)i + k];
            s->proj[3 * (size_t)i + k] = s->proj[3 * (size_t)j + k];
            s->proj[3 * (size_t)j + k] = x;
        }
        j--;
    }
    return i == lo || i == hi ? lo + (hi - lo) / 2 : i;
}

static int build(cb_state *s, int lo, int hi)
{
    if (hi - lo == 1) {
        tree_node *nd = &s->node[s->nnodes];
        position(s, s->idx[lo], nd->box.center);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++)
                nd->box.axis[i][j] = i == j;
            nd->box.half[i] = s->r * (1 + 0x1p-40);
        }
        nd->lo = lo;
        nd->hi = hi;
        nd->left = nd->right = -1;
        return s->nnodes++;
    }
    int me = fit_node(s, lo, hi);
    int cut = split(s, me, lo, hi);
    int l = build(s, lo, cut);
    int r = build(s, cut, hi);
    s->node[me].left = l;
    s->node[me].right = r;
    return me;
}

static int is_leaf(const tree_node *nd) { return nd->hi - nd->lo == 1; }

/* Two subtrees: spheres of leaves tested directly, boxes otherwise; the
 * node with more spheres is split. */
static int tree_pair(cb_state *s, int a, int b, int *i, int *j)
{
    const tree_node *A = &s->node[a], *B = &s->node[b];
    if (is_leaf(A) && is_leaf(B)) {
        int x = s->idx[A->lo], y = s->idx[B->lo];
        if (!spheres_meet(s, x, y))
            return 0;
        order_pair(x, y, i, j);
        return 1;
    }
    s->tests++;
    if (!hs_obb_overlap(&A->box, &B->box))
        return 0;
    if (!is_leaf(A) && (is_leaf(B) || A->hi - A->lo >= B->hi - B->lo))
        return tree_pair(s, A->left, b, i, j) || tree_pair(s, A->right, b, i, j);
    return tree_pair(s, a, B->left, i, j) || tree_pair(s, a, B->right, i, j);
}

static int tree_self(cb_state *s, int a, int *i, int *j)
{
    const tree_node *A = &s->node[a];
    if (is_leaf(A))
        return 0;
    return tree_self(s, A->left, i, j) || tree_self(s, A->right, i, j) ||
           tree_pair(s, A->left, A->right, i, j);
}

static int obbtree1_test(cb_state *s, int *i, int *j)
{
    for (int a = 0; a < s->n; a++)
        s->idx[a] = a;
    s->nnodes = 0;
    int root = build(s, 0, s->n);
    return tree_self(s, root, i, j);
}

static int obbtreek_test(cb_state *s, int k, int *i, int *j)
{
    for (int a = 0; a < s->n; a++)
        s->idx[a] = a;
    s->nnodes = 0;
    int ra = build(s, 0, k);
    int rb = build(s, k, s->n);
    return tree_pair(s, ra, rb, i, j);
}

int cb_self_collision(cb_state *s, long *tests, int *i, int *j)
{
    update_poses(s);
    s->tests = 0;
    int k = s->last_k, hit;
    switch (s->method) {
    case CB_GRID:
        hit = grid_test(s, k, i, j);
        break;
    case CB_OBBTREE1:
        hit = obbtree1_test(s, i, j);
        break;
    default:
        hit = obbtreek_test(s, k, i, j);
        break;
    }
    if (tests)
        *tests = s->tests;
    return hit;
}

int cb_check_all(cb_state *s, int *i, int *j)
{
    update_poses(s);
    s->g.gen++;
    for (int a = 0; a < s->n; a++) {
        int b;
        if (grid_query(s, a, &b)) {
            order_pair(a, b, i, j);
            return 1;
        }
        grid_insert(s, a);
    }
    return 0;
}
