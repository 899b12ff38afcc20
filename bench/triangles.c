/* triangles.c -- seed 000's experiment: the raw method (every triangle of
 * one object against every triangle of another) against the uniform grid
 * (space subdivision), on a scene of about 2000 triangles.
 *
 * Scene (units of a metre), three meshes, each a list of tessellated
 * primitives in its own frame:
 *   table  a top (box 2 x 1.2 x 0.1 whose upper face is the plane z = 1),
 *          four legs (boxes), and two cylinders (radius 0.08, length 0.5,
 *          40 sides) lying on the top along x; pose: identity.
 *   arm    a base cylinder on the floor, a vertical link, a joint sphere,
 *          a slanted link down to a gripper (a palm and two fingers,
 *          boxes) whose fingers sink about 2 cm into the second cylinder on
 *          the table; cylinders have 40 sides, the sphere 8 x 16; pose: a
 *          rotation by 0.5 rad about z and a translation, so the points of
 *          one mesh mapped into another's frame are rounded.
 *   ball   a sphere of radius 0.25 (16 bands x 28 sectors) resting on the
 *          table: its lowest vertex lies exactly on the plane z = 1 (the
 *          pose is a translation by exact doubles), so it touches.
 * A box is 12 triangles, a cylinder with s sides 4 s (sides and two fans),
 * a sphere with r bands and s sectors 2 s (r - 1).
 *
 * For each of the three pairs of meshes, tri_mesh_pairs with HS_TRI_RAW and
 * with HS_TRI_GRID; tri_tests counts the exact triangle-triangle tests
 * (tri_tri_classify calls).  Time: CLOCK_MONOTONIC around the whole scene
 * query (three mesh pairs, grid construction included), repeated, median
 * reported.  The pairs found (mesh pair, triangles, status, witness) must
 * be identical for both methods; the program fails otherwise.
 *
 * A note relates the counts to seed 000's estimate: it counts the pairs of
 * triangles of different meshes that the seed's grid would pair (one grid
 * over the whole scene in the world frame, cells the average triangle
 * extent, no box test), outside the timing.
 *
 * Output (stdout): a Markdown table and notes, then a fenced block with
 *   RESULT bench=triangles method=<raw|grid> tri_tests=N ms=T pairs=P
 *          overlap=O touching=H triangles=N reps=R */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "halfspace.h"
#include "src/shape/pose.h"
#include "src/shape/tri_mesh.h"
#include "src/shape/tri_tri.h"

/* ------------------------------------------------------------ meshes */

typedef struct mesh_buf {
    double *v;
    int *t;
    int nv, nt, capv, capt;
} mesh_buf;

static void *grow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return p;
    int c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(p, (size_t)c * size);
    if (!q) {
        fprintf(stderr, "triangles: out of memory\n");
        exit(EXIT_FAILURE);
    }
    *cap = c;
    return q;
}

static int add_point(mesh_buf *m, const double place[16], double x, double y, double z)
{
    m->v = grow(m->v, &m->capv, 3 * (m->nv + 1), sizeof(double));
    const double p[3] = {x, y, z};
    pose_apply(place, p, m->v + 3 * m->nv);
    return m->nv++;
}

static void add_tri(mesh_buf *m, int a, int b, int c)
{
    m->t = grow(m->t, &m->capt, 3 * (m->nt + 1), sizeof(int));
    m->t[3 * m->nt] = a;
    m->t[3 * m->nt + 1] = b;
    m->t[3 * m->nt + 2] = c;
    m->nt++;
}

/* Quad a b c d as two triangles. */
static void add_quad(mesh_buf *m, int a, int b, int c, int d)
{
    add_tri(m, a, b, c);
    add_tri(m, a, c, d);
}

/* Box [lo, hi] placed by `place`. */
static void add_box(mesh_buf *m, const double place[16], const double lo[3], const double hi[3])
{
    int v[8];
    for (int i = 0; i < 8; i++)
        v[i] = add_point(m, place, (i & 1) ? hi[0] : lo[0], (i & 2) ? hi[1] : lo[1],
                         (i & 4) ? hi[2] : lo[2]);
    add_quad(m, v[0], v[2], v[3], v[1]); /* z = lo */
    add_quad(m, v[4], v[5], v[7], v[6]); /* z = hi */
    add_quad(m, v[0], v[1], v[5], v[4]); /* y = lo */
    add_quad(m, v[2], v[6], v[7], v[3]); /* y = hi */
    add_quad(m, v[0], v[4], v[6], v[2]); /* x = lo */
    add_quad(m, v[1], v[3], v[7], v[5]); /* x = hi */
}

/* Cylinder of radius r about the z axis, z in [-h/2, h/2], s sides. */
static void add_cylinder(mesh_buf *m, const double place[16], double r, double h, int s)
{
    const double pi = 3.14159265358979323846;
    int bottom = add_point(m, place, 0, 0, -h / 2), top = add_point(m, place, 0, 0, h / 2);
    int first = m->nv;
    for (int i = 0; i < s; i++) {
        double a = 2 * pi * i / s;
        add_point(m, place, r * cos(a), r * sin(a), -h / 2);
        add_point(m, place, r * cos(a), r * sin(a), h / 2);
    }
    for (int i = 0; i < s; i++) {
        int lo0 = first + 2 * i, hi0 = lo0 + 1;
        int lo1 = first + 2 * ((i + 1) % s), hi1 = lo1 + 1;
        add_quad(m, lo0, lo1, hi1, hi0);
        add_tri(m, bottom, lo1, lo0);
        add_tri(m, top, hi0, hi1);
    }
}

/* Sphere of radius r, centre at the origin of `place`, `bands` bands of
 * latitude and s sectors; the poles are the points (0, 0, -r), (0, 0, r). */
static void add_sphere(mesh_buf *m, const double place[16], double r, int bands, int s)
{
    const double pi = 3.14159265358979323846;
    int south = add_point(m, place, 0, 0, -r), north = add_point(m, place, 0, 0, r);
    int first = m->nv;
    for (int b = 1; b < bands; b++) {
        double lat = -pi / 2 + pi * b / bands;
        for (int i = 0; i < s; i++) {
            double a = 2 * pi * i / s;
            add_point(m, place, r * cos(lat) * cos(a), r * cos(lat) * sin(a), r * sin(lat));
        }
    }
    for (int i = 0; i < s; i++) {
        int j = (i + 1) % s, last = first + (bands - 2) * s;
        add_tri(m, south, first + j, first + i);
        add_tri(m, north, last + i, last + j);
        for (int b = 0; b + 2 < bands; b++)
            add_quad(m, first + b * s + i, first + b * s + j, first + (b + 1) * s + j,
                     first + (b + 1) * s + i);
    }
}

static void place_at(double m[16], double x, double y, double z)
{
    const double t[3] = {x, y, z};
    hs_pose_from_rt(m, (const double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, t);
}

static void place_turned(double m[16], const double axis[3], double angle, double x, double y,
                         double z)
{
    const double t[3] = {x, y, z};
    if (hs_pose_from_axis_angle(m, axis, angle, t, NULL) != HS_OK)
        exit(EXIT_FAILURE);
}

static const double y_axis[3] = {0, 1, 0};
static const double z_axis[3] = {0, 0, 1};
#define SIDES 40

static void build_table(mesh_buf *m)
{
    double id[16], pl[16];
    hs_pose_identity(id);
    add_box(m, id, (const double[3]){-1, -0.6, 0.9}, (const double[3]){1, 0.6, 1});
    for (int i = 0; i < 4; i++) {
        double x = i & 1 ? 0.9 : -0.9, y = i & 2 ? 0.5 : -0.5;
        add_box(m, id, (const double[3]){x - 0.04, y - 0.04, 0},
                (const double[3]){x + 0.04, y + 0.04, 0.9});
    }
    place_turned(pl, y_axis, 1.5707963267948966, -0.3, 0.2, 1.08);
    add_cylinder(m, pl, 0.08, 0.5, SIDES);
    place_turned(pl, y_axis, 1.5707963267948966, 0.35, -0.25, 1.08);
    add_cylinder(m, pl, 0.08, 0.5, SIDES);
}

/* The arm in its own frame: base at the origin, reaching towards -x to
 * (-REACH, 0) where the second cylinder's centre lies once posed. */
#define REACH 0.9
#define ARM_TURN 0.5

static void build_arm(mesh_buf *m)
{
    double pl[16];
    place_at(pl, 0, 0, 0.1);
    add_cylinder(m, pl, 0.15, 0.2, SIDES);
    place_at(pl, 0, 0, 0.8);
    add_cylinder(m, pl, 0.05, 1.2, SIDES);
    place_at(pl, 0, 0, 1.45);
    add_sphere(m, pl, 0.08, 8, 16);
    double jx = 0, jz = 1.45, px = -REACH, pz = 1.32; /* joint to palm */
    double len = hypot(px - jx, pz - jz), phi = atan2(px - jx, pz - jz);
    place_turned(pl, y_axis, phi, (jx + px) / 2, 0, (jz + pz) / 2);
    add_cylinder(m, pl, 0.04, len, SIDES);
    place_at(pl, -REACH, 0, 0);
    add_box(m, pl, (const double[3]){-0.03, -0.08, 1.28}, (const double[3]){0.03, 0.08, 1.32});
    for (int f = -1; f <= 1; f += 2)
        add_box(m, pl, (const double[3]){-0.015, 0.05 * f - 0.015, 1.12},
                (const double[3]){0.015, 0.05 * f + 0.015, 1.28});
}

/* ------------------------------------------------------------ the query */

typedef struct scene {
    mesh_buf buf[3];
    tri_mesh *mesh[3];
    double pose[3][16];
    int ntris;
} scene;

static void build_scene(scene *sc)
{
    memset(sc, 0, sizeof *sc);
    build_table(&sc->buf[0]);
    build_arm(&sc->buf[1]);
    add_sphere(&sc->buf[2], (const double[16]){1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
               0.25, 16, 28);
    hs_pose_identity(sc->pose[0]);
    double bx = 0.35 + REACH * cos(ARM_TURN), by = -0.25 + REACH * sin(ARM_TURN);
    place_turned(sc->pose[1], z_axis, ARM_TURN, bx, by, 0);
    place_at(sc->pose[2], -0.5, -0.2, 1.25); /* lowest vertex at z = 1 */
    for (int i = 0; i < 3; i++) {
        mesh_buf *b = &sc->buf[i];
        sc->mesh[i] = tri_mesh_new(b->v, b->nv, b->t, b->nt);
        if (!sc->mesh[i])
            exit(EXIT_FAILURE);
        sc->ntris += b->nt;
    }
}

typedef struct hit {
    int pair, ia, ib;
    hs_status st;
    double w[3];
} hit;

typedef struct hits {
    hit *h;
    int n, cap, pair;
} hits;

static int on_hit(void *user, int ia, int ib, hs_status st, const double w[3])
{
    hits *l = user;
    l->h = grow(l->h, &l->cap, l->n + 1, sizeof *l->h);
    l->h[l->n++] = (hit){l->pair, ia, ib, st, {w[0], w[1], w[2]}};
    return 0;
}

static const int mesh_pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};

/* The whole scene by one method; tests per mesh pair into tests[]. */
static void query(const scene *sc, hs_tri_method method, hits *out, long tests[3])
{
    out->n = 0;
    for (int k = 0; k < 3; k++) {
        int a = mesh_pairs[k][0], b = mesh_pairs[k][1];
        double inv[16], T[16];
        pose_inverse(inv, sc->pose[a]);
        hs_pose_multiply(T, inv, sc->pose[b]);
        out->pair = k;
        if (tri_mesh_pairs(sc->mesh[a], sc->mesh[b], T, method, on_hit, out, &tests[k]) !=
            HS_OK) {
            fprintf(stderr, "triangles: tri_mesh_pairs failed\n");
            exit(EXIT_FAILURE);
        }
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median time of reps scene queries, in ms. */
static double time_method(const scene *sc, hs_tri_method method, hits *out, long tests[3],
                          int reps)
{
    double *t = malloc(sizeof *t * (size_t)reps);
    if (!t)
        exit(EXIT_FAILURE);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        query(sc, method, out, tests);
        t[r] = now_ms() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    double med = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
    free(t);
    return med;
}

/* ------------------------------------------------------------ seed-style grid */

/* For comparison with seed 000's estimate: the grid as the seed describes
 * it, over the whole scene (world frame) with cell sides equal to the
 * average triangle extent per axis and no box test: how many pairs of
 * triangles of different meshes share a cell, counted once per pair
 * (the seed's own rule) and once per shared cell. */
typedef struct seed_grid {
    double lo[3], side[3];
    int n[3];
    int ntri, *mesh, *range; /* per triangle: mesh, cell range c0[3] c1[3] */
} seed_grid;

static int seed_cell(const seed_grid *g, int d, double x)
{
    int c = (int)floor((x - g->lo[d]) / g->side[d]);
    return c < 0 ? 0 : c >= g->n[d] ? g->n[d] - 1 : c;
}

static void seed_ranges(const scene *sc, seed_grid *g, double *box)
{
    double hi[3] = {-INFINITY, -INFINITY, -INFINITY}, ext[3] = {0, 0, 0};
    for (int d = 0; d < 3; d++)
        g->lo[d] = INFINITY;
    int k = 0;
    for (int m = 0; m < 3; m++)
        for (int t = 0; t < sc->buf[m].nt; t++, k++) {
            double *b = box + 6 * k;
            for (int d = 0; d < 3; d++) {
                b[d] = INFINITY;
                b[3 + d] = -INFINITY;
            }
            for (int c = 0; c < 3; c++) {
                double w[3];
                pose_apply(sc->pose[m], sc->buf[m].v + 3 * sc->buf[m].t[3 * t + c], w);
                for (int d = 0; d < 3; d++) {
                    b[d] = fmin(b[d], w[d]);
                    b[3 + d] = fmax(b[3 + d], w[d]);
                }
            }
            for (int d = 0; d < 3; d++) {
                g->lo[d] = fmin(g->lo[d], b[d]);
                hi[d] = fmax(hi[d], b[3 + d]);
                ext[d] += b[3 + d] - b[d];
            }
            g->mesh[k] = m;
        }
    for (int d = 0; d < 3; d++) {
        g->side[d] = ext[d] / k;
        g->n[d] = (int)floor((hi[d] - g->lo[d]) / g->side[d]) + 1;
    }
    for (int t = 0; t < k; t++)
        for (int d = 0; d < 3; d++) {
            g->range[6 * t + d] = seed_cell(g, d, box[6 * t + d]);
            g->range[6 * t + 3 + d] = seed_cell(g, d, box[6 * t + 3 + d]);
        }
}

/* Distinct candidate pairs and pairs counted per shared cell. */
static void seed_counts(const scene *sc, long *distinct, long *per_cell, long *cells)
{
    seed_grid g = {.ntri = sc->ntris};
    double *box = malloc(sizeof(double) * 6 * (size_t)g.ntri);
    g.mesh = malloc(sizeof(int) * (size_t)g.ntri);
    g.range = malloc(sizeof(int) * 6 * (size_t)g.ntri);
    if (!box || !g.mesh || !g.range)
        exit(EXIT_FAILURE);
    seed_ranges(sc, &g, box);
    *cells = (long)g.n[0] * g.n[1] * g.n[2];
    *distinct = *per_cell = 0;
    for (int i = 0; i < g.ntri; i++)
        for (int j = i + 1; j < g.ntri; j++) {
            if (g.mesh[i] == g.mesh[j])
                continue;
            long shared = 1;
            for (int d = 0; d < 3; d++) {
                const int *ri = g.range + 6 * i, *rj = g.range + 6 * j;
                int lo = ri[d] > rj[d] ? ri[d] : rj[d];
                int hi = ri[3 + d] < rj[3 + d] ? ri[3 + d] : rj[3 + d];
                shared *= hi >= lo ? hi - lo + 1 : 0;
            }
            *distinct += shared > 0;
            *per_cell += shared;
        }
    free(box);
    free(g.mesh);
    free(g.range);
}

/* ------------------------------------------------------------ report */

static int cmp_hit(const void *x, const void *y)
{
    const hit *a = x, *b = y;
    if (a->pair != b->pair)
        return a->pair - b->pair;
    if (a->ia != b->ia)
        return a->ia - b->ia;
    return (a->ib > b->ib) - (a->ib < b->ib);
}

static int same_hits(hits *x, hits *y)
{
    if (x->n != y->n)
        return 0;
    qsort(x->h, (size_t)x->n, sizeof *x->h, cmp_hit);
    qsort(y->h, (size_t)y->n, sizeof *y->h, cmp_hit);
    for (int i = 0; i < x->n; i++) {
        const hit *a = &x->h[i], *b = &y->h[i];
        if (cmp_hit(a, b) || a->st != b->st || memcmp(a->w, b->w, sizeof a->w))
            return 0;
    }
    return 1;
}

static int count_status(const hits *l, int pair, hs_status st)
{
    int n = 0;
    for (int i = 0; i < l->n; i++)
        n += (pair < 0 || l->h[i].pair == pair) && l->h[i].st == st;
    return n;
}

static long sum3(const long t[3]) { return t[0] + t[1] + t[2]; }

static const char *mesh_name[3] = {"table", "arm", "ball"};

static void print_pairs_table(const scene *sc, const hits *found, const long raw[3],
                              const long grid[3])
{
    printf("| meshes (a / b) | triangles | raw tests | grid tests | raw / grid |"
           " overlap pairs | touching pairs |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < 3; k++) {
        int a = mesh_pairs[k][0], b = mesh_pairs[k][1];
        char ratio[32] = "no grid test";
        if (grid[k])
            snprintf(ratio, sizeof ratio, "%.0f", (double)raw[k] / (double)grid[k]);
        printf("| %s / %s | %d / %d | %ld | %ld | %s | %d | %d |\n", mesh_name[a],
               mesh_name[b], sc->buf[a].nt, sc->buf[b].nt, raw[k], grid[k], ratio,
               count_status(found, k, HS_OVERLAP), count_status(found, k, HS_TOUCHING));
    }
}

/* The seed-style grid counts, as a note. */
static void print_seed_note(const scene *sc, long raw_tests)
{
    long distinct, per_cell, cells;
    seed_counts(sc, &distinct, &per_cell, &cells);
    printf("\nFor comparison with seed 000's estimate (about 30,000 tests for 2000 "
           "triangles against about 2 million for the raw method): the grid as the seed "
           "describes it, over the whole scene (%ld cells, sides the average triangle extent "
           "per axis) and without box tests, would pair %ld distinct triangle pairs of "
           "different meshes (%ld counting each pair once per shared cell); the raw method "
           "makes %ld tests rather than n (n - 1) / 2 = %ld, since, as in the seed, two "
           "triangles of the same mesh are never tested.\n",
           cells, distinct, per_cell, raw_tests, (long)sc->ntris * (sc->ntris - 1) / 2);
}

static void print_results(const scene *sc, const hits *found, const long raw[3],
                          const long grid[3], double ms_raw, double ms_grid, int reps_raw,
                          int reps_grid)
{
    long tr = sum3(raw), tg = sum3(grid);
    int ov = count_status(found, -1, HS_OVERLAP), to = count_status(found, -1, HS_TOUCHING);
    printf("| method | triangle tests | ms per scene query (median) | pairs found |\n"
           "|---|---:|---:|---:|\n");
    printf("| raw | %ld | %.3f | %d |\n| grid | %ld | %.3f | %d |\n\n", tr, ms_raw, found->n,
           tg, ms_grid, found->n);
    print_pairs_table(sc, found, raw, grid);
    printf("\n%d triangles (table %d, arm %d, ball %d).  Grid / raw: %.1fx fewer triangle "
           "tests, %.1fx less time.  Identical pairs (mesh pair, triangles, status, witness) "
           "from both methods: yes.  Medians over %d (raw) and %d (grid) scene queries.\n",
           sc->ntris, sc->buf[0].nt, sc->buf[1].nt, sc->buf[2].nt, (double)tr / (double)tg,
           ms_raw / ms_grid, reps_raw, reps_grid);
    print_seed_note(sc, tr);
    printf("\n```text\n");
    printf("RESULT bench=triangles method=raw tri_tests=%ld ms=%.3f pairs=%d overlap=%d "
           "touching=%d triangles=%d reps=%d\n",
           tr, ms_raw, found->n, ov, to, sc->ntris, reps_raw);
    printf("RESULT bench=triangles method=grid tri_tests=%ld ms=%.3f pairs=%d overlap=%d "
           "touching=%d triangles=%d reps=%d\n",
           tg, ms_grid, found->n, ov, to, sc->ntris, reps_grid);
    printf("```\n");
}

static int arg_int(int argc, char **argv, const char *name, int def)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return atoi(argv[i + 1]) > 0 ? atoi(argv[i + 1]) : def;
    return def;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        printf("usage: triangles [--reps-raw N] [--reps-grid N]\n");
        return EXIT_SUCCESS;
    }
    int reps_raw = arg_int(argc, argv, "--reps-raw", 7);
    int reps_grid = arg_int(argc, argv, "--reps-grid", 101);
    scene sc;
    build_scene(&sc);
    hits hr = {0}, hg = {0};
    long raw[3], grid[3];
    double ms_raw = time_method(&sc, HS_TRI_RAW, &hr, raw, reps_raw);
    double ms_grid = time_method(&sc, HS_TRI_GRID, &hg, grid, reps_grid);
    if (!same_hits(&hr, &hg)) {
        fprintf(stderr, "triangles: raw and grid found different pairs (%d, %d)\n", hr.n, hg.n);
        return EXIT_FAILURE;
    }
    print_results(&sc, &hr, raw, grid, ms_raw, ms_grid, reps_raw, reps_grid);
    for (int i = 0; i < 3; i++) {
        tri_mesh_free(sc.mesh[i]);
        free(sc.buf[i].v);
        free(sc.buf[i].t);
    }
    free(hr.h);
    free(hg.h);
    return EXIT_SUCCESS;
}
