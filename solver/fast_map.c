/* fast_map.c -- a 3-D (or low-dimensional) polyhedron's direction map
 * (fast_prep.h): for each cell of directions, the rows that a ray from the
 * center crosses first, made on first use; and the skeleton (its longest
 * chord through the center), made with it. */
#include "solver/fast_prep.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/hpoly.h"
#include "polytope/mem.h"
#include "solver/seidel.h"

#define MAP_LEN 12           /* rows listed per cell */
#define MAP_MAX_CELLS 4096

/* Cells along each cube-face axis: about sqrt(m)/4 in 3-D, so that a cell
 * is no wider than a couple of normals' spacing; fewer in more dimensions. */
static int map_resolution(int n, int m)
{
    if (n == 1)
        return 1;
    int g = (int)ceil(sqrt((double)m) / 4.0);
    if (g < 1)
        g = 1;
    for (;;) {
        double cells = 2.0 * n * pow(g, n - 1);
        if (cells <= MAP_MAX_CELLS || g == 1)
            return g;
        g--;
    }
}

/* The index along one axis of a cube face's g cells of u in [-1, 1]:
 * floor(v) clamped to [0, g - 1] (v >= 0 here, so the conversion, a
 * truncation, is the floor; NaN takes cell 0). */
static inline int cell_index(double u, int g)
{
    double v = (u + 1) * 0.5 * g;
    return v >= g ? g - 1 : v > 0 ? (int)v : 0;
}

/* Cell of direction d: the face is the axis of largest |d_k| with its
 * sign; the other coordinates, divided by |d_k|, lie in [-1, 1]. */
int fast_prep_cell(int n, int g, const double *d)
{
    if (n == 3) { /* (the usual case, written out: the same cells) */
        int k = fp_largest_axis(d, 3);
        int j0 = k == 0 ? 1 : 0, j1 = k == 2 ? 1 : 2;
        double top = fabs(d[k]);
        int cell = (2 * k + (d[k] < 0)) * g + cell_index(d[j0] / top, g);
        return cell * g + cell_index(d[j1] / top, g);
    }
    int k = fp_largest_axis(d, n);
    int cell = 2 * k + (d[k] < 0);
    for (int j = 0; j < n; j++)
        if (j != k)
            cell = cell * g + cell_index(d[j] / fabs(d[k]), g);
    return cell;
}

/* Direction at the center of a cell (the inverse of fast_prep_cell). */
void fast_prep_cell_center(int n, int g, int cell, double *d)
{
    int idx[SEIDEL_MAX_DIM], rest = cell;
    for (int j = n - 2; j >= 0; j--) {
        idx[j] = rest % g;
        rest /= g;
    }
    int k = rest / 2, neg = rest % 2;
    for (int j = 0, q = 0; j < n; j++) {
        if (j == k)
            d[j] = neg ? -1 : 1;
        else
            d[j] = -1 + (2.0 * idx[q++] + 1) / g;
    }
}

/* Row i's score along d: a_i . d / center_slack_i, the larger the sooner
 * the ray center + l d crosses the row (the slack is positive, so rows
 * facing away from d score below 0); NaN (from overflowing entries)
 * scores as -infinity, never first. */
static inline double row_score(const hs_poly *p, const fast_prep *fp, const double *d, int i)
{
    const double *a = hpoly_row(p, i);
    double sc = 0;
    if (p->n == 3) /* the common case unrolled: the same sum in the same order */
        sc = a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
    else
        for (int j = 0; j < p->n; j++)
            sc += a[j] * d[j];
    double v = sc / fp->center_slack[i];
    return v == v ? v : -INFINITY;
}

/* Does (key k, row i) come before (l, j) in a cell's list: the larger
 * score first, of equal scores the lower row. */
static inline int ranks_before(double k, int i, double l, int j)
{
    return k > l || (k == l && i < j);
}

/* (key k, row i) into the list keys/out of *count (at most len) in its
 * place; the last one leaves a full list. */
static inline void list_insert(double *keys, int *out, int *count, int len, double k, int i)
{
    int at = *count < len ? (*count)++ : len - 1;
    for (; at > 0 && ranks_before(k, i, keys[at - 1], out[at - 1]); at--) {
        keys[at] = keys[at - 1];
        out[at] = out[at - 1];
    }
    keys[at] = k;
    out[at] = i;
}

/* What best_rows reads besides a cell's direction: the polyhedron, its
 * preparation, the rows the seed put in a list (mark: m ints, equal to
 * the cell's stamp) and the range of the center slacks. */
typedef struct map_maker {
    const hs_poly *p;
    const fast_prep *fp;
    int *mark;
    double slack_lo, slack_hi;
    /* the rows in the order they are scanned, in blocks of MAP_BLOCK; for
     * block k (3 variables, MAP_BLOCK_ROWS rows or more; else NULL) cone
     * + 4 k: a center c and a reach R such that every score in the block
     * is below c . d + R |d| (map_cones) */
    int *order;
    double *cone;
} map_maker;

#define MAP_BLOCK 8
#define MAP_BLOCK_ROWS 64

/* The rows of a 3-D polyhedron of MAP_BLOCK_ROWS rows or more (fewer:
 * mm->order and mm->cone NULL, the rows scanned in their order, no bound)
 * grouped by the directions of u_i = a_i /
 * center_slack_i (whose dot with d is row i's score): sorted by the cube
 * cell of u_i (about MAP_BLOCK rows a cell), cut into blocks of MAP_BLOCK,
 * and for each block the mean c of its u_i and R = the largest |u_i - c|,
 * raised to cover the roundings of u_i, of the scores (fl(a . d) / slack:
 * within 4 2^-53 |u_i| |d| of u_i . d) and of c . d + R |d| itself, by a
 * margin of 2^-44 (|c| + R): a block whose bound c . d + R |d| is below a
 * list's last score holds no row that would join the list.  Into
 * mm->order and mm->cone (made here; NULL cone when not worth it). */
static int map_cones(map_maker *mm)
{
    const hs_poly *p = mm->p;
    int m = p->m, blocks = (m + MAP_BLOCK - 1) / MAP_BLOCK;
    mm->order = NULL;
    mm->cone = NULL;
    if (p->n != 3 || m < MAP_BLOCK_ROWS)
        return 0;
    mm->order = mem_alloc((size_t)m, sizeof(int));
    if (!mm->order)
        return -1;
    int g = (int)lround(sqrt(m / (6.0 * MAP_BLOCK)));
    g = g < 1 ? 1 : g;
    int cells = 6 * g * g;
    double *u = mem_alloc((size_t)m * 3, sizeof(double));
    int *cell = mem_alloc((size_t)m + (size_t)cells + 1, sizeof(int));
    mm->cone = mem_alloc((size_t)blocks * 4, sizeof(double));
    if (!u || !cell || !mm->cone) {
        free(u);
        free(cell);
        return -1; /* (the caller frees order and cone) */
    }
    int *start = cell + m; /* (a counting sort by cell) */
    for (int k = 0; k <= cells; k++)
        start[k] = 0;
    for (int i = 0; i < m; i++) {
        const double *a = hpoly_row(p, i);
        for (int j = 0; j < 3; j++)
            u[3 * i + j] = a[j] / mm->fp->center_slack[i];
        cell[i] = fast_prep_cell(3, g, u + 3 * i);
        start[cell[i] + 1]++;
    }
    for (int k = 0; k < cells; k++)
        start[k + 1] += start[k];
    for (int i = 0; i < m; i++)
        mm->order[start[cell[i]]++] = i;
    free(cell);
    double *cone = mm->cone;
    for (int b = 0; b < blocks; b++) {
        int lo = b * MAP_BLOCK, hi = lo + MAP_BLOCK < m ? lo + MAP_BLOCK : m;
        double c[3] = {0, 0, 0}, r = 0;
        for (int t = lo; t < hi; t++)
            for (int j = 0; j < 3; j++)
                c[j] += u[3 * mm->order[t] + j] / (hi - lo);
        for (int t = lo; t < hi; t++) {
            const double *v = u + 3 * mm->order[t];
            double e[3] = {v[0] - c[0], v[1] - c[1], v[2] - c[2]};
            r = fp_max(r, sqrt(dot3(e, e)));
        }
        cone[4 * b] = c[0];
        cone[4 * b + 1] = c[1];
        cone[4 * b + 2] = c[2];
        cone[4 * b + 3] = r * (1 + 0x1p-40) + 0x1p-44 * (sqrt(dot3(c, c)) + r);
    }
    free(u);
    return 0;
}

/* The product test's factor for a list whose last score is bar (see
 * best_rows), or 0 where the test does not apply: 3 variables only, a
 * positive bar, and no product bar * slack near underflow (whose rounding
 * the test's bound would not cover) or overflow. */
static double cut_of(const map_maker *mm, double bar)
{
    double cut = bar * (1 - 0x1p-50);
    return mm->p->n == 3 && bar > 0 && cut * mm->slack_lo >= 0x1p-1000 &&
                   bar * mm->slack_hi <= 0x1p+1000
               ? cut
               : 0;
}

/* The map_len rows with the largest scores along d (row_score), in
 * ranks_before's order, into out.  seed (map_len rows, or NULL): a
 * neighbouring cell's list, most of which is usually this cell's too:
 * scored first, it sets a bar that most rows fall below, and a row is
 * then dropped on a product, without its division: a . d < cut slack with
 * cut = bar (1 - 2^-50) (cut_of) puts its score certainly below the bar
 * (the product's two roundings and the quotient's, each within 2^-53 of
 * the value, cannot close a gap of 2^-50).  The list is the same whatever
 * the seed (the order is total).  Seeds only where mm->mark is made (on
 * polyhedra with blocks: on small ones the seed's own cost is not won
 * back). */
static void best_rows(const map_maker *mm, const double *d, const int *seed, int stamp, int *out)
{
    const hs_poly *p = mm->p;
    const double *slack = mm->fp->center_slack;
    int len = mm->fp->map_len, count = 0;
    double keys[MAP_LEN], cut = 0;
    for (int s = 0; seed && s < len; s++) {
        list_insert(keys, out, &count, len, row_score(p, mm->fp, d, seed[s]), seed[s]);
        mm->mark[seed[s]] = stamp;
    }
    if (count == len)
        cut = cut_of(mm, keys[len - 1]);
    const double d0 = d[0], d1 = mm->p->n == 3 ? d[1] : 0, d2 = mm->p->n == 3 ? d[2] : 0;
    const double dlen = mm->cone ? sqrt(d0 * d0 + d1 * d1 + d2 * d2) : 0;
    for (int lo = 0; lo < p->m; lo += MAP_BLOCK) {
        if (cut > 0 && mm->cone) { /* (cut > 0: the list's last score is positive) */
            const double *cb = mm->cone + 4 * (lo / MAP_BLOCK);
            if (cb[0] * d0 + cb[1] * d1 + cb[2] * d2 + cb[3] * dlen < keys[len - 1])
                continue;
        }
        int hi = lo + MAP_BLOCK < p->m ? lo + MAP_BLOCK : p->m;
        for (int t = lo; t < hi; t++) {
            int i = mm->order ? mm->order[t] : t;
            if (cut > 0) { /* (3 variables: d0, d1, d2 are d) */
                const double *a = p->a + (size_t)3 * (size_t)i;
                if (a[0] * d0 + a[1] * d1 + a[2] * d2 < cut * slack[i])
                    continue;
            }
            if (seed && mm->mark[i] == stamp)
                continue;
            double v = row_score(p, mm->fp, d, i);
            if (count < len || ranks_before(v, i, keys[len - 1], out[len - 1])) {
                list_insert(keys, out, &count, len, v, i);
                if (count == len)
                    cut = cut_of(mm, keys[len - 1]);
            }
        }
    }
}

void fast_map_plan(const hs_poly *p, fast_prep *fp)
{
    fp->map_g = map_resolution(p->n, p->m);
    fp->map_len = p->m < MAP_LEN ? p->m : MAP_LEN;
    fp->map_cells = 2 * p->n * (int)lround(pow(fp->map_g, p->n - 1));
    /* the star's cells: finer than the map's, whatever m (its lengths are
     * cheap to make, and a coarse cell's length is its worst direction's) */
    static const int star_g[] = {0, 1, 16, 8, 4};
    fp->star_g = p->n < (int)(sizeof star_g / sizeof star_g[0]) ? star_g[p->n] : 0;
    fp->star_cells = fp->star_g ? 2 * p->n * (int)lround(pow(fp->star_g, p->n - 1)) : 0;
}

/* Where the map's skeleton starts in its block (fast_prep_skeleton): after
 * the rows, at a multiple of a double. */
static size_t skeleton_offset(const fast_prep *fp)
{
    size_t ints = (size_t)fp->map_cells * (size_t)fp->map_len;
    return (ints * sizeof(int) + sizeof(double) - 1) / sizeof(double);
}

/* How far the rays center + l u and center - l u (u a unit vector) run
 * inside the rows, into *fwd and *bwd: the least center_slack_i / (a_i .
 * +-u) over the rows facing each way (rounded; INFINITY when none does),
 * from inv: 1 / center_slack_i (one pass, no division per row). */
static void reaches(const fast_prep *fp, const double *inv, const double *u, double *fwd,
                    double *bwd)
{
    const hs_poly *p = fp->poly;
    double f = 0, b = 0; /* the largest (a_i . +-u) / center_slack_i */
    for (int i = 0; i < p->m; i++) {
        double at = dot3(hpoly_row(p, i), u) * inv[i];
        f = fp_max(f, at);
        b = fp_max(b, -at);
    }
    *fwd = 1 / f;
    *bwd = 1 / b;
}

/* The length of the chord through the center along u. */
static double chord(const fast_prep *fp, const double *inv, const double *u)
{
    double fwd, bwd;
    reaches(fp, inv, u, &fwd, &bwd);
    return fwd + bwd;
}

/* The chord along u when it is longer than best; else a length at most
 * best.  The rays along u and -u first meet only the rows that the map
 * (rows: map_cells lists) lists for the cells of u and -u: the chord
 * through those rows alone is at least the true one (fewer rows cut it
 * shorter or not at all; 1/x and + round monotonically), so when it is
 * not above best neither is the chord, and the pass over every row is
 * saved.  The skeleton's choices, and so the skeleton, are those of
 * chord().  (Worth it only where the two lists hold fewer rows than the
 * polyhedron: make_skeleton's `lists`.) */
static double chord_above(const fast_prep *fp, const int *rows, const double *inv,
                          const double *u, double best)
{
    double f = 0, b = 0, minus[3] = {-u[0], -u[1], -u[2]};
    for (int w = 0; w < 2; w++) {
        const int *list = rows + (size_t)fast_prep_cell(3, fp->map_g, w ? minus : u) *
                                     (size_t)fp->map_len;
        for (int k = 0; k < fp->map_len; k++) {
            double at = dot3(hpoly_row(fp->poly, list[k]), u) * inv[list[k]];
            f = fp_max(f, at);
            b = fp_max(b, -at);
        }
    }
    double bound = 1 / f + 1 / b;
    return bound <= best ? bound : chord(fp, inv, u);
}

/* The skeleton of a 3-D polyhedron: its longest chord through the center
 * (nearly: the best of 13 directions, the axes and the diagonals of the
 * cube, and u0, the map cell's whose ray reaches farthest; then, on a body
 * whose best chord is SKELETON_ROUND times its inscribed diameter, a local
 * search of SKELETON_STEPS rounds of 4 chords, a pass over the rows each),
 * its ends pulled in to SKELETON_PULL of the way.  Every point of it lies
 * inside the polyhedron up to rounding (the chord joins two points of
 * it), and on an elongated polyhedron it runs along the long axis: where
 * two such bodies cross, the line where their skeletons come nearest
 * likely passes through both (the query's axis test, which certifies any
 * point it answers with).  A round body (the query's test wants an
 * elongation of 3) costs the map 14 passes over its rows.  out: the two
 * ends (6 doubles) and the chord's length over twice the inradius (its
 * elongation; 0 when not finite). */
#define SKELETON_PULL 0.875
#define SKELETON_STEPS 8
#define SKELETON_ROUND 1.5
static void make_skeleton(const fast_prep *fp, const int *rows, const double *u0,
                          const double *inv, double *out)
{
    static const double dirs[13][3] = {{1, 0, 0},  {0, 1, 0},  {0, 0, 1},   {1, 1, 0},  {1, -1, 0},
                                       {1, 0, 1},  {1, 0, -1}, {0, 1, 1},   {0, 1, -1}, {1, 1, 1},
                                       {1, 1, -1}, {1, -1, 1}, {-1, 1, 1}};
    double u[3] = {u0[0], u0[1], u0[2]}, best = chord(fp, inv, u), step = 0.5;
    int lists = fp->m > 2 * fp->map_len;
    for (int k = 0; k < 13; k++) {
        double v[3] = {dirs[k][0], dirs[k][1], dirs[k][2]};
        fp_normalize3(v);
        double c = lists ? chord_above(fp, rows, inv, v, best) : chord(fp, inv, v);
        if (c > best) {
            best = c;
            memcpy(u, v, sizeof u);
        }
    }
    int steps = best >= SKELETON_ROUND * 2 * fp->inradius ? SKELETON_STEPS : 0;
    for (int it = 0; it < steps; it++, step *= 0.5) {
        /* two directions across u */
        int k = fabs(u[0]) < fabs(u[1]) ? (fabs(u[0]) < fabs(u[2]) ? 0 : 2)
                                        : (fabs(u[1]) < fabs(u[2]) ? 1 : 2);
        double e[3] = {0, 0, 0}, t1[3], t2[3];
        e[k] = 1;
        cross3(u, e, t1);
        fp_normalize3(t1);
        cross3(u, t1, t2);
        for (int tries = 0; tries < 4; tries++) {
            const double *t = tries < 2 ? t1 : t2;
            double sg = tries % 2 ? -step : step, v[3];
            for (int j = 0; j < 3; j++)
                v[j] = u[j] + sg * t[j];
            fp_normalize3(v);
            double c = lists ? chord_above(fp, rows, inv, v, best) : chord(fp, inv, v);
            if (c > best) {
                best = c;
                memcpy(u, v, sizeof u);
            }
        }
    }
    double fwd, bwd;
    reaches(fp, inv, u, &fwd, &bwd);
    const double *c = fp->center;
    for (int j = 0; j < 3; j++) {
        out[j] = c[j] + SKELETON_PULL * fwd * u[j];
        out[3 + j] = c[j] - SKELETON_PULL * bwd * u[j];
    }
    out[6] = fp->inradius > 0 && isfinite(fwd + bwd) ? (fwd + bwd) / (2 * fp->inradius) : 0;
}

static void *build_map(const fast_prep *fp)
{
    size_t ints = (size_t)fp->map_cells * (size_t)fp->map_len;
    int three = fp->n == 3;
    size_t bytes = three ? (skeleton_offset(fp) + 7) * sizeof(double) : ints * sizeof(int);
    int *rows = mem_alloc(bytes, 1);
    if (!rows)
        return NULL;
    /* (the seeds, and the marks they need, on polyhedra with blocks) */
    map_maker mm = {fp->poly, fp, NULL, INFINITY, 0, NULL, NULL};
    if (map_cones(&mm) != 0 ||
        (mm.order && !(mm.mark = mem_alloc((size_t)fp->m, sizeof(int))))) {
        free(mm.mark);
        free(mm.order);
        free(mm.cone);
        free(rows);
        return NULL;
    }
    for (int i = 0; i < fp->m; i++) {
        if (mm.mark)
            mm.mark[i] = -1;
        mm.slack_lo = fp_min(mm.slack_lo, fp->center_slack[i]);
        mm.slack_hi = fp_max(mm.slack_hi, fp->center_slack[i]);
    }
    double d[SEIDEL_MAX_DIM], far = -1, u[3] = {1, 0, 0};
    for (int c = 0; c < fp->map_cells; c++) {
        int *list = rows + (size_t)c * (size_t)fp->map_len;
        fast_prep_cell_center(fp->n, fp->map_g, c, d);
        /* (the cell before: its neighbour but where a row of cells ends) */
        best_rows(&mm, d, c && mm.mark ? list - fp->map_len : NULL, c, list);
        if (three && list[0] >= 0) { /* the ray along d leaves by the first row */
            double along = dot3(hpoly_row(fp->poly, list[0]), d);
            double len = sqrt(dot3(d, d));
            double reach = along > 0 ? fp->center_slack[list[0]] / along * len : INFINITY;
            if (reach > far && isfinite(reach)) {
                far = reach;
                for (int j = 0; j < 3; j++)
                    u[j] = d[j] / len;
            }
        }
    }
    free(mm.mark);
    free(mm.order);
    free(mm.cone);
    double *inv = three ? mem_alloc((size_t)fp->m, sizeof(double)) : NULL;
    if (three && !inv) {
        free(rows);
        return NULL;
    }
    for (int i = 0; three && i < fp->m; i++)
        inv[i] = 1 / fp->center_slack[i];
    if (three) {
        double *sk = (double *)(void *)rows + skeleton_offset(fp);
        make_skeleton(fp, rows, u, inv, sk);
        /* (threads that race here store the same value) */
        atomic_store_explicit(&((fast_prep *)fp)->elongation16,
                              1 + (int)fmin(16 * sk[6], 1e9), memory_order_relaxed);
    }
    free(inv);
    return rows;
}

const int *fast_map_rows(const fast_prep *fp)
{
    fast_prep *mp = (fast_prep *)fp; /* only the atomic slot is written */
    return fp->map_cells ? fast_prep_lazy(fp, &mp->map_rows, build_map) : NULL;
}

const double *fast_prep_skeleton(const fast_prep *fp)
{
    if (fp->n != 3 || !fp->map_cells)
        return NULL;
    const int *map = fast_map_rows(fp);
    return map ? (const double *)(const void *)map + skeleton_offset(fp) : NULL;
}

int fast_prep_prefetch(const fast_prep *fp, const double *d)
{
    const int *map = atomic_load_explicit(&((fast_prep *)fp)->map_rows, memory_order_acquire);
    if (!map)
        return -1;
    int cell = fast_prep_cell(fp->n, fp->map_g, d);
    mem_prefetch(map + (size_t)cell * (size_t)fp->map_len);
    return cell;
}

/* The list of cell in map, and its length (lists are filled from the
 * front, -1 after their last row: a full one, the usual case, is not
 * walked). */
static const int *list_of_cell(const fast_prep *fp, const int *map, int cell, int *count)
{
    const int *list = map + (size_t)cell * (size_t)fp->map_len;
    int k = list[fp->map_len - 1] >= 0 ? fp->map_len : 0;
    while (k < fp->map_len && list[k] >= 0)
        k++;
    *count = k;
    return list;
}

const int *fast_prep_list(const fast_prep *fp, int cell, int *count)
{
    const int *map = fast_map_rows(fp); /* (made: the prefetch saw it) */
    *count = 0;
    return map ? list_of_cell(fp, map, cell, count) : NULL;
}

const int *fast_prep_lookup(const fast_prep *fp, const double *d, int *count)
{
    const int *map = fast_map_rows(fp);
    if (!map) {
        *count = 0;
        return NULL;
    }
    return list_of_cell(fp, map, fast_prep_cell(fp->n, fp->map_g, d), count);
}
