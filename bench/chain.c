/* chain.c -- seed 003's experiment (section 5): self-collision of a
 * kinematic chain under random torsions, ChainTree (the library's
 * hs_chain) against the three baselines of bench/chain_baselines.c.
 *
 * Chains.
 *   Synthetic (seed 003's first benchmark): N spheres of radius 1, centres
 *   4 apart, in a compact cube-like configuration.  We make it a compact
 *   self-avoiding walk on the cubic lattice of spacing 4: a Hamiltonian
 *   path of the smallest near-cubic a x b x c box of lattice points with
 *   abc >= N, of which the first N points are kept, in two versions (the
 *   seed does not say how its chains were made):
 *     layered  the boustrophedon itself (rows, then layers): low contact
 *              order, links close in space are mostly close along the
 *              chain, as in folded proteins;
 *     mixed    the boustrophedon after 10 abc random "backbite" moves
 *              (Mansfield's Markov chain on Hamiltonian paths): a random
 *              compact walk of high contact order, where the two rigid
 *              pieces on either side of a joint touch along many lattice
 *              contacts (the hard case for a chain-aligned hierarchy).
 *   Every joint is a torsion joint.
 *   Proteins (seed 003's second benchmark): the backbone atoms N, CA, C of
 *   a PDB chain, one sphere per atom.  Only the phi (N-CA) and psi (CA-C)
 *   bonds turn; the peptide bond C-N stays fixed.  Radius: the seed does
 *   not give one; we use 1.1 A, the largest tenth of an Angstrom at which
 *   the three native structures are free of collision with only adjacent
 *   atoms skipped (their closest non-adjacent atoms, 1-3 pairs across a
 *   bond angle, are 2.25 A apart; 1-3 distances do not change under
 *   torsions).  So a collision means two backbone atoms closer than 2.2 A.
 *   Link i's frame: origin at the sphere's centre, x axis along the bond
 *   from centre i-1 to centre i, so a torsion at joint i is the rotation
 *   J_i <- J_i Rx(angle) about that bond.
 *
 * Iterations (seed 003): pick a random joint and a random angle, uniform
 * in [-max, max] (--max-angle, default 180 degrees); apply; test
 * self-collision (spheres of non-adjacent links at most 2r apart); undo
 * the change when it collides.  The move sequence depends only on --seed
 * and the chain; every method replays the same one and must agree on
 * which moves collide (the program fails otherwise).  Time: one clock
 * around the whole loop (change + test + undo) divided by the iterations.
 *
 * Output: a Markdown table per chain, then a fenced block of
 *   RESULT bench=chain walk=W|protein=ID n=N method=M us_per_iter=T box_tests=B
 *          collisions=C iters=I
 * (iters: the iterations run, fewer than --iters when --budget ran out). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/chain_baselines.h"
#include "bench/median.h"
#include "bench/pdb.h"

#define PI 3.14159265358979323846
#define NMETHODS 4

static const char *const method_names[NMETHODS] = {"chaintree", "grid", "obbtree1", "obbtreek"};

typedef struct options {
    int sizes[16], nsizes;
    int walks[2];          /* run the mixed / layered synthetic chains */
    int iters;
    uint64_t seed;
    int use[NMETHODS];
    const char *pdb[8];
    int npdb;
    double max_angle;      /* radians */
    double budget;         /* seconds per method and chain */
    double protein_radius; /* Angstrom */
    int repeat;            /* runs of chaintree and grid (median reported) */
} options;

/* A chain as the methods see it. */
typedef struct chain_case {
    char label[64];        /* "n=1000" or the PDB id */
    const char *protein;   /* NULL for the synthetic chains */
    const char *walk;      /* synthetic: "mixed" or "layered"; NULL for proteins */
    int n;
    double *joint;         /* n * 16: joint 0 = base pose */
    double r;
    int *movable, nmovable;
} chain_case;

#define MAX_REPEAT 15

typedef struct method_result {
    double us_per_iter;    /* median over the runs */
    double us_min, us_max; /* range over the runs */
    int runs;
    double tests_per_query;
    int collisions;
    int iters;              /* iterations run (a prefix when the budget ran out) */
} method_result;

static void die(const char *what)
{
    fprintf(stderr, "chain: %s\n", what);
    exit(EXIT_FAILURE);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) * 0x1p-53; }

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ------------------------------------------------ compact lattice walk */

typedef struct lattice {
    int dim[3], m;
    int *path;   /* m lattice points (x + a (y + b z)) */
    int *where;  /* position of each point in path */
} lattice;

static void boustrophedon(lattice *L)
{
    int a = L->dim[0], b = L->dim[1], c = L->dim[2], k = 0;
    int *layer = xmalloc((size_t)a * b * sizeof *layer);
    for (int y = 0; y < b; y++)
        for (int x = 0; x < a; x++)
            layer[y * a + x] = (y % 2 ? a - 1 - x : x) + a * y;
    for (int z = 0; z < c; z++)
        for (int t = 0; t < a * b; t++)
            L->path[k++] = layer[z % 2 ? a * b - 1 - t : t] + a * b * z;
    free(layer);
    for (int i = 0; i < L->m; i++)
        L->where[L->path[i]] = i;
}

static void reverse(lattice *L, int lo, int hi) /* path[lo..hi] */
{
    for (; lo < hi; lo++, hi--) {
        int t = L->path[lo];
        L->path[lo] = L->path[hi];
        L->path[hi] = t;
        L->where[L->path[lo]] = lo;
        L->where[L->path[hi]] = hi;
    }
}

/* Random lattice neighbour of point v, or -1 outside the box. */
static int neighbour(const lattice *L, int v, uint64_t *s)
{
    int a = L->dim[0], b = L->dim[1], xyz[3] = {v % a, v / a % b, v / (a * b)};
    int dir = (int)(rng_next(s) % 6), ax = dir / 2;
    xyz[ax] += dir % 2 ? 1 : -1;
    if (xyz[ax] < 0 || xyz[ax] >= L->dim[ax])
        return -1;
    return xyz[0] + a * (xyz[1] + b * xyz[2]);
}

/* One backbite move: join an end to a lattice neighbour and cut the path
 * edge that would close a cycle; the path stays Hamiltonian. */
static void backbite(lattice *L, uint64_t *s)
{
    int head = rng_next(s) & 1, end = head ? L->path[0] : L->path[L->m - 1];
    int v = neighbour(L, end, s);
    if (v < 0)
        return;
    int j = L->where[v];
    if (head && j >= 2)
        reverse(L, 0, j - 1);
    else if (!head && j <= L->m - 3)
        reverse(L, j + 1, L->m - 1);
}

static double *compact_walk(int n, uint64_t seed, int mixed)
{
    lattice L;
    int a = (int)ceil(cbrt((double)n) - 1e-9);
    L.dim[0] = L.dim[1] = a;
    L.dim[2] = (n + a * a - 1) / (a * a);
    L.m = a * a * L.dim[2];
    L.path = xmalloc((size_t)L.m * sizeof *L.path);
    L.where = xmalloc((size_t)L.m * sizeof *L.where);
    boustrophedon(&L);
    uint64_t s = seed ^ 0x5eedc4a1u;
    for (long it = 0; mixed && it < 10L * L.m; it++)
        backbite(&L, &s);
    double *p = xmalloc((size_t)n * 3 * sizeof *p);
    for (int i = 0; i < n; i++) {
        int v = L.path[i], xyz[3] = {v % a, v / a % a, v / (a * a)};
        for (int j = 0; j < 3; j++)
            p[3 * i + j] = 4.0 * (xyz[j] - L.dim[j] / 2);
    }
    free(L.path);
    free(L.where);
    return p;
}

/* -------------------------------------------------- frames and joints */

/* World pose of link i: origin at p_i, x axis along the incoming bond. */
static void link_frame(const double *p, int n, int i, double W[16])
{
    const double *a = p + 3 * (i > 0 ? i - 1 : 0), *b = p + 3 * (i > 0 ? i : 1 < n ? 1 : 0);
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, y[3], z[3];
    double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (!(len > 0))
        die("two consecutive links at the same point");
    for (int j = 0; j < 3; j++)
        u[j] /= len;
    int w = 0; /* the world axis least aligned with u */
    for (int j = 1; j < 3; j++)
        if (fabs(u[j]) < fabs(u[w]))
            w = j;
    for (int j = 0; j < 3; j++)
        y[j] = (j == w) - u[w] * u[j];
    double ly = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    for (int j = 0; j < 3; j++)
        y[j] /= ly;
    z[0] = u[1] * y[2] - u[2] * y[1];
    z[1] = u[2] * y[0] - u[0] * y[2];
    z[2] = u[0] * y[1] - u[1] * y[0];
    double R[9] = {u[0], y[0], z[0], u[1], y[1], z[1], u[2], y[2], z[2]};
    hs_pose_from_rt(W, R, p + 3 * i);
}

/* joint 0 = W_0, joint i = W_{i-1}^-1 W_i (rigid: R^T, -R^T t). */
static double *joints_from_points(const double *p, int n)
{
    double *J = xmalloc((size_t)n * 16 * sizeof *J), prev[16], cur[16], inv[16];
    link_frame(p, n, 0, prev);
    memcpy(J, prev, sizeof prev);
    for (int i = 1; i < n; i++) {
        link_frame(p, n, i, cur);
        hs_pose_identity(inv);
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++)
                inv[4 * r + c] = prev[4 * c + r];
            inv[4 * r + 3] = -(prev[r] * prev[3] + prev[4 + r] * prev[7] + prev[8 + r] * prev[11]);
        }
        hs_pose_multiply(J + 16 * i, inv, cur);
        memcpy(prev, cur, sizeof cur);
    }
    return J;
}

static void synthetic_case(chain_case *cc, int n, uint64_t seed, int mixed)
{
    double *p = compact_walk(n, seed, mixed);
    snprintf(cc->label, sizeof cc->label, "%s", mixed ? "mixed" : "layered");
    cc->walk = cc->label;
    cc->protein = NULL;
    cc->n = n;
    cc->r = 1;
    cc->joint = joints_from_points(p, n);
    cc->movable = xmalloc((size_t)n * sizeof *cc->movable);
    cc->nmovable = 0;
    for (int i = 1; i < n; i++)
        cc->movable[cc->nmovable++] = i;
    free(p);
}

/* "path[:chain]" -> the backbone; label = the file's base name. */
static void protein_case(chain_case *cc, const char *spec, double radius)
{
    char path[1024];
    char chain = 'A';
    snprintf(path, sizeof path, "%s", spec);
    char *colon = strrchr(path, ':');
    if (colon && colon[1] && !colon[2]) {
        chain = colon[1];
        *colon = 0;
    }
    pdb_backbone bb;
    hs_error err;
    if (pdb_read_backbone(path, chain, &bb, &err) != HS_OK) {
        fprintf(stderr, "chain: %s\n", err.msg);
        exit(2);
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(cc->label, sizeof cc->label, "%.*s", (int)strcspn(base, "."), base);
    cc->protein = cc->label;
    cc->walk = NULL;
    cc->n = bb.natoms;
    cc->r = radius;
    cc->joint = joints_from_points(bb.xyz, bb.natoms);
    cc->movable = xmalloc((size_t)bb.natoms * sizeof *cc->movable);
    cc->nmovable = 0;
    for (int i = 1; i < bb.natoms; i++)
        if (i % 3 != 0) /* CA (phi: N-CA bond) and C (psi: CA-C bond) */
            cc->movable[cc->nmovable++] = i;
    if (bb.nskipped)
        fprintf(stderr, "chain: %s: %d residues without N, CA and C skipped\n", path,
                bb.nskipped);
    pdb_backbone_free(&bb);
}

static void free_case(chain_case *cc)
{
    free(cc->joint);
    free(cc->movable);
}

/* ------------------------------------------------------------ methods */

typedef struct move {
    int k;
    double d[16];
} move;

static move *make_moves(const chain_case *cc, int iters, uint64_t seed, double max_angle)
{
    move *mv = xmalloc((size_t)iters * sizeof *mv);
    uint64_t s = seed;
    for (int it = 0; it < iters; it++) {
        mv[it].k = cc->movable[rng_next(&s) % (uint64_t)cc->nmovable];
        double th = (2 * rng_unit(&s) - 1) * max_angle, c = cos(th), sn = sin(th);
        double d[16] = {1, 0, 0, 0, 0, c, -sn, 0, 0, sn, c, 0, 0, 0, 0, 1};
        memcpy(mv[it].d, d, sizeof d);
    }
    return mv;
}

static hs_chain *make_chain(const chain_case *cc)
{
    hs_error err;
    hs_chain *c = hs_chain_new(cc->n, &err);
    const double zero[3] = {0, 0, 0};
    int ok = c != NULL && hs_chain_set_base(c, cc->joint, &err) == HS_OK;
    for (int i = 0; ok && i < cc->n; i++)
        ok = hs_chain_add_sphere(c, i, zero, cc->r, &err) == HS_OK &&
             (i == 0 || hs_chain_set_joint(c, i, cc->joint + 16 * i, &err) == HS_OK);
    if (!ok) {
        fprintf(stderr, "chain: building the hs_chain: %s\n", err.msg);
        exit(EXIT_FAILURE);
    }
    return c;
}

/* Time is checked every 32 iterations: past `budget` seconds the method
 * stops and its figures are those of the prefix it ran. */
static int out_of_time(int it, double t0, double budget)
{
    return (it & 31) == 31 && now_s() - t0 > budget;
}

static void run_chaintree(const chain_case *cc, const move *mv, int iters, double budget,
                          unsigned char *hit, method_result *res)
{
    hs_chain *c = make_chain(cc);
    hs_error err;
    hs_chain_stats st;
    int a, b;
    if (hs_chain_self_collision(c, &a, &b, &st, &err) != 0)
        die("chaintree: the start configuration collides (or error)");
    long tests = 0;
    double t0 = now_s();
    int it = 0;
    for (; it < iters && !(it && out_of_time(it - 1, t0, budget)); it++) {
        /* change, test, and undo on a collision: one call */
        int h = hs_chain_try_change(c, mv[it].k, mv[it].d, &a, &b, &st, &err);
        if (h < 0) {
            fprintf(stderr, "chain: chaintree: %s\n", err.msg);
            exit(EXIT_FAILURE);
        }
        tests += st.box_tests;
        hit[it] = (unsigned char)h;
    }
    res->iters = it;
    res->us_per_iter = (now_s() - t0) / it * 1e6;
    res->tests_per_query = (double)tests / it;
    hs_chain_free(c);
}

static void run_baseline(cb_method m, const chain_case *cc, const move *mv, int iters,
                         double budget, unsigned char *hit, method_result *res)
{
    cb_state *s = cb_new(m, cc->n, cc->joint, cc->r);
    if (!s)
        die("out of memory");
    long tests = 0, t;
    int a, b;
    double t0 = now_s();
    int it = 0;
    for (; it < iters && !(it && out_of_time(it - 1, t0, budget)); it++) {
        cb_change(s, mv[it].k, mv[it].d);
        int h = cb_self_collision(s, &t, &a, &b);
        tests += t;
        if (h)
            cb_undo(s);
        hit[it] = (unsigned char)h;
    }
    res->iters = it;
    res->us_per_iter = (now_s() - t0) / it * 1e6;
    res->tests_per_query = (double)tests / it;
    cb_free(s);
}

/* ------------------------------------------------------------- driver */

/* Seed 003, Table 1: average box tests per self-collision test. */
static const char *paper_tests(const chain_case *cc, int method)
{
    static const int sizes[4] = {1000, 2500, 5000, 10000};
    static const char *chaintree[4] = {"703", "715", "905", "964"};
    static const char *kobb[4] = {"114", "131", "163", "178"};
    static const char *prot_id[3] = {"1SHG", "1MPP", "7DDO"};
    static const char *prot_ct[3] = {"242 (1SHG)", "664 (1B4E)", "747 (1LOX)"};
    static const char *prot_k[3] = {"73 (1SHG)", "113 (1B4E)", "146 (1LOX)"};
    if (method != 0 && method != 3)
        return "-";
    for (int i = 0; i < 4 && !cc->protein; i++)
        if (cc->n == sizes[i])
            return method == 0 ? chaintree[i] : kobb[i];
    for (int i = 0; i < 3 && cc->protein; i++)
        if (!strcmp(cc->protein, prot_id[i]))
            return method == 0 ? prot_ct[i] : prot_k[i];
    return "-";
}

static void check_start(const chain_case *cc)
{
    cb_state *s = cb_new(CB_GRID, cc->n, cc->joint, cc->r);
    int a, b;
    if (!s)
        die("out of memory");
    if (cb_check_all(s, &a, &b)) {
        fprintf(stderr, "chain: %s: links %d and %d collide at the start\n", cc->label, a, b);
        exit(EXIT_FAILURE);
    }
    cb_free(s);
}

/* The same moves, the same answers: every method against the first. */
static void compare(const chain_case *cc, const move *mv, const char *name_a,
                    const unsigned char *a, const char *name_b, const unsigned char *b,
                    int iters)
{
    for (int it = 0; it < iters; it++)
        if (a[it] != b[it]) {
            fprintf(stderr, "chain: %s: %s and %s disagree at iteration %d (joint %d): %d vs %d\n",
                    cc->label, name_a, name_b, it, mv[it].k, a[it], b[it]);
            exit(EXIT_FAILURE);
        }
}

static void print_row(const chain_case *cc, int m, const method_result *r, int iters,
                      char *results, size_t cap)
{
    /* the grid's counter is cell visits: shown in the table, "-" in RESULT */
    char tests[32], shown[48], coll[48];
    snprintf(tests, sizeof tests, m == 1 ? "-" : "%.0f", r->tests_per_query);
    snprintf(shown, sizeof shown, m == 1 ? "(%.0f cell visits)" : "%.0f", r->tests_per_query);
    if (r->iters < iters)
        snprintf(coll, sizeof coll, "%d of the first %d", r->collisions, r->iters);
    else
        snprintf(coll, sizeof coll, "%d", r->collisions);
    char range[48] = "";
    if (r->runs > 1)
        snprintf(range, sizeof range, " (%.1f-%.1f)", r->us_min, r->us_max);
    printf("| %s | %.2f%s | %d | %s | %s | %s |\n", method_names[m], r->us_per_iter, range,
           r->runs, shown, coll, paper_tests(cc, m));
    fflush(stdout);
    size_t len = strlen(results);
    snprintf(results + len, cap - len,
             "RESULT bench=chain%s%s n=%d method=%s us_per_iter=%.2f box_tests=%s "
             "collisions=%d iters=%d runs=%d\n",
             cc->protein ? " protein=" : " walk=", cc->protein ? cc->protein : cc->walk, cc->n,
             method_names[m], r->us_per_iter, tests, r->collisions, r->iters, r->runs);
}

static void median_range(double *v, int n, method_result *r)
{
    r->us_per_iter = bench_median(v, n); /* sorts v */
    r->us_min = v[0];
    r->us_max = v[n - 1];
}

static void run_case(const chain_case *cc, const options *o, char *results, size_t cap)
{
    move *mv = make_moves(cc, o->iters, o->seed, o->max_angle);
    unsigned char *hit[NMETHODS] = {0};
    int ref = -1;
    method_result res[NMETHODS];
    check_start(cc);
    if (cc->protein)
        printf("\n### protein %s: %d links, %d movable joints, sphere radius %g\n\n",
               cc->label, cc->n, cc->nmovable, cc->r);
    else
        printf("\n### compact chain, %s walk, N = %d, sphere radius %g\n\n", cc->walk, cc->n,
               cc->r);
    printf("| method | us per iteration: median (range) | runs | box tests per test | "
           "colliding moves | paper's box tests |\n|---|---:|---:|---:|---:|---:|\n");
    /* chaintree and grid: o->repeat runs, interleaved, so that both see the
     * same moments of a shared machine; the OBB trees (100x slower) once */
    double us[NMETHODS][MAX_REPEAT];
    for (int m = 0; m < NMETHODS; m++)
        if (o->use[m])
            hit[m] = xmalloc((size_t)o->iters);
    for (int run = 0; run < o->repeat; run++)
        for (int m = 0; m < NMETHODS; m++) {
            if (!o->use[m] || (m >= 2 && run > 0))
                continue;
            if (m == 0)
                run_chaintree(cc, mv, o->iters, o->budget, hit[m], &res[m]);
            else
                run_baseline((cb_method)(m - 1), cc, mv, o->iters, o->budget, hit[m], &res[m]);
            us[m][run] = res[m].us_per_iter;
            res[m].runs = run + 1;
            if (ref < 0)
                ref = m;
            else if (m != ref)
                compare(cc, mv, method_names[ref], hit[ref], method_names[m], hit[m],
                        res[m].iters < res[ref].iters ? res[m].iters : res[ref].iters);
        }
    for (int m = 0; m < NMETHODS; m++) {
        if (!o->use[m])
            continue;
        median_range(us[m], res[m].runs, &res[m]);
        res[m].collisions = 0;
        for (int it = 0; it < res[m].iters; it++)
            res[m].collisions += hit[m][it];
        print_row(cc, m, &res[m], o->iters, results, cap);
    }
    double best = INFINITY;
    for (int m = 1; m < NMETHODS; m++)
        if (o->use[m] && res[m].us_per_iter < best)
            best = res[m].us_per_iter;
    if (o->use[0] && best < INFINITY)
        printf("\nChainTree speed-up over the best baseline: %.1fx.\n",
               best / res[0].us_per_iter);
    for (int m = 0; m < NMETHODS; m++)
        free(hit[m]);
    free(mv);
}

static int parse_list(const char *s, int *out, int max)
{
    int k = 0;
    for (const char *p = s; *p && k < max;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 3 || v > 1000000)
            return -1;
        out[k++] = (int)v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    return k;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: chain [--sizes N,N,..] [--iters I] [--seed S] [--methods m,m,..]\n"
            "             [--pdb FILE[:CHAIN]]... [--pdb none] [--max-angle DEG]\n"
            "             [--protein-radius R] [--budget SECONDS] [--walks mixed,layered|none]\n"
            "             [--repeat R]\n"
            "methods: chaintree grid obbtree1 obbtreek (default all)\n"
            "defaults: --sizes 1000,2500,5000,10000 --iters 20000 --seed 1 --max-angle 180\n"
            "          --protein-radius 1.1 --budget 12 --walks mixed,layered, --pdb the three\n"
            "          files of /work/shared/data/pdb (chain A; 1MPP has none: its only chain)\n"
            "          --repeat 5\n"
            "repeat: chaintree and grid run R times (1..15), interleaved, and report the\n"
            "        median time and the range; obbtree1 and obbtreek run once\n"
            "budget: a method stops after that many seconds on one chain and reports\n"
            "        the prefix of the move sequence it ran (the others are compared on it)\n");
}

static int parse_methods(const char *s, int *use)
{
    memset(use, 0, NMETHODS * sizeof *use);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        int m = 0;
        while (m < NMETHODS && strcmp(t, method_names[m]))
            m++;
        if (m == NMETHODS)
            return -1;
        use[m] = 1;
    }
    return 0;
}

static void parse_args(int argc, char **argv, options *o)
{
    static const char *default_pdb[] = {"/work/shared/data/pdb/1SHG.pdb:A",
                                        "/work/shared/data/pdb/1MPP.pdb:A",
                                        "/work/shared/data/pdb/7DDO.pdb:A"};
    int sizes[4] = {1000, 2500, 5000, 10000}, pdb_given = 0;
    memcpy(o->sizes, sizes, sizeof sizes);
    o->nsizes = 4;
    o->iters = 20000;
    o->seed = 1;
    o->max_angle = PI;
    o->protein_radius = 1.1;
    o->budget = 12;
    o->repeat = 5;
    o->walks[0] = o->walks[1] = 1;
    o->npdb = 0;
    for (int m = 0; m < NMETHODS; m++)
        o->use[m] = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!v) {
            bad = 1;
        } else if (!strcmp(a, "--sizes")) {
            bad = (o->nsizes = parse_list(v, o->sizes, 16)) < 0;
        } else if (!strcmp(a, "--iters")) {
            bad = (o->iters = atoi(v)) < 1;
        } else if (!strcmp(a, "--seed")) {
            o->seed = strtoull(v, NULL, 10);
        } else if (!strcmp(a, "--methods")) {
            bad = parse_methods(v, o->use) != 0;
        } else if (!strcmp(a, "--max-angle")) {
            o->max_angle = atof(v) * PI / 180;
            bad = !(o->max_angle > 0 && o->max_angle <= PI);
        } else if (!strcmp(a, "--protein-radius")) {
            o->protein_radius = atof(v);
            bad = !(o->protein_radius > 0);
        } else if (!strcmp(a, "--walks")) {
            o->walks[0] = strstr(v, "mixed") != NULL;
            o->walks[1] = strstr(v, "layered") != NULL;
            bad = !strcmp(v, "none") ? 0 : !(o->walks[0] || o->walks[1]);
        } else if (!strcmp(a, "--repeat")) {
            o->repeat = atoi(v);
            bad = !(o->repeat >= 1 && o->repeat <= MAX_REPEAT);
        } else if (!strcmp(a, "--budget")) {
            o->budget = atof(v);
            bad = !(o->budget > 0);
        } else if (!strcmp(a, "--pdb")) {
            pdb_given = 1;
            if (strcmp(v, "none") && o->npdb < 8)
                o->pdb[o->npdb++] = v;
        } else {
            bad = 1;
        }
        if (bad) {
            fprintf(stderr, "chain: bad option or value: %s %s\n", a, v ? v : "");
            usage(stderr);
            exit(1);
        }
        i++;
    }
    if (!pdb_given)
        for (int k = 0; k < 3; k++)
            o->pdb[o->npdb++] = default_pdb[k];
}

int main(int argc, char **argv)
{
    options o;
    parse_args(argc, argv, &o);
    static char results[1 << 16];
    results[0] = 0;
    printf("Seed 003's experiment: %d iterations of one random torsion (uniform in "
           "+-%.0f degrees) at a random joint, self-collision test, undo on collision; "
           "seed %llu.  Box tests: box-box overlap tests per self-collision test "
           "(grid: see the cell visits in the notes).\n",
           o.iters, o.max_angle * 180 / PI, (unsigned long long)o.seed);
    chain_case prot[8]; /* read first: a bad file stops the run before any timing */
    for (int k = 0; k < o.npdb; k++)
        protein_case(&prot[k], o.pdb[k], o.protein_radius);
    for (int k = 0; k < o.nsizes; k++)
        for (int w = 0; w < 2; w++) {
            if (!o.walks[w])
                continue;
            chain_case cc;
            synthetic_case(&cc, o.sizes[k], o.seed, w == 0);
            run_case(&cc, &o, results, sizeof results);
            free_case(&cc);
        }
    for (int k = 0; k < o.npdb; k++) {
        run_case(&prot[k], &o, results, sizeof results);
        free_case(&prot[k]);
    }
    printf("\n```\n%s```\n", results);
    return 0;
}
