/* crosscheck.c -- instance generator and runner of `halfspace crosscheck`.
 *
 * Generator.  Every instance is built from integer vectors with small
 * entries, so every number is an integer except the deliberate shifts of
 * +-2^-40; sums with those shifts are checked to be exact (an instance whose
 * numbers would round is drawn again).  Most constructions place a point p
 * and a normal c and put A on the side c.(x - p) <= 0 and B on the side
 * c.(x - p) >= 0, with p in both; since A is full-dimensional its interior
 * lies strictly on its side, so the relative interiors cannot meet and the
 * pair is TOUCHING.  "Strict rows at p" are random rows a.x <= a.p + s with
 * s >= 1: they keep p and a neighbourhood of it inside.
 *
 * Runner.  Each instance goes through the selected engines; the answers
 * are compared pairwise (see crosscheck.h).  A float engine that disagrees
 * is excused only near touching: when the reference says TOUCHING, or the
 * exact margin tau* of the stacked LP (from glp_exact) satisfies
 * |tau*| <= CC_NEAR_TOL * (largest |entry| of the data). */
#include "solver/crosscheck.h"

#include <errno.h>
#include <gmp.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/engines.h"
#include "polytope/error.h"
#include "polytope/mem.h"

/* Instances within this relative margin of touching excuse float answers. */
#define CC_NEAR_TOL 1e-9
/* The deliberate tiny shift. */
#define CC_TINY_EXP (-40)
/* Attempts at drawing an instance whose numbers are all exact. */
#define CC_DRAW_ATTEMPTS 50
/* A family variant whose random draw did not work out (drawn again). */
#define CC_DRAW_FAILED (-2)

/* ================================================================ random */

/* splitmix64: a tiny generator whose whole state is one word. */
typedef struct cc_rng {
    uint64_t state;
} cc_rng;

static uint64_t rng_next(cc_rng *g)
{
    uint64_t z = (g->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform integer in [lo, hi]. */
static int rng_int(cc_rng *g, int lo, int hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo + 1);
    return lo + (int)(rng_next(g) % span);
}

static int rng_coin(cc_rng *g) { return (int)(rng_next(g) >> 63); }

/* Independent stream for one instance: same (seed, index), same stream. */
static cc_rng rng_for_instance(uint64_t seed, long index)
{
    cc_rng g = {seed};
    g.state = rng_next(&g) ^ ((uint64_t)index * 0xD1B54A32D192ED03ull);
    rng_next(&g);
    return g;
}

/* =============================================================== vectors */

static double dot(int n, const double *a, const double *b)
{
    double s = 0.0;
    for (int j = 0; j < n; j++)
        s += a[j] * b[j];
    return s;
}

/* Nonzero integer vector with entries in [lo, hi]. */
static void rand_vec(cc_rng *g, int n, int lo, int hi, double *v)
{
    do {
        for (int j = 0; j < n; j++)
            v[j] = rng_int(g, lo, hi);
    } while (dot(n, v, v) == 0.0);
}

static void rand_point(cc_rng *g, int n, int range, double *p)
{
    for (int j = 0; j < n; j++)
        p[j] = rng_int(g, -range, range);
}

static void scale_vec(int n, double k, const double *v, double *out)
{
    for (int j = 0; j < n; j++)
        out[j] = k * v[j];
}

/* Row `rank` of the k x n matrix m holds a pivot in column col: clear
 * that column in the rows below it. */
static void eliminate_below(mpq_t *m, int k, int n, int rank, int col)
{
    mpq_t f, t;
    mpq_init(f);
    mpq_init(t);
    for (int i = rank + 1; i < k; i++) {
        mpq_div(f, m[i * n + col], m[rank * n + col]);
        for (int j = 0; j < n; j++) {
            mpq_mul(t, f, m[rank * n + j]);
            mpq_sub(m[i * n + j], m[i * n + j], t);
        }
    }
    mpq_clear(f);
    mpq_clear(t);
}

/* Rank of k vectors of length n (row-major), by exact elimination; -1
 * when out of memory. */
static int rank_of(int k, int n, const double *vecs)
{
    mpq_t *m = malloc(sizeof(mpq_t) * (size_t)(k * n));
    if (!m)
        return -1;
    for (int i = 0; i < k * n; i++) {
        mpq_init(m[i]);
        mpq_set_d(m[i], vecs[i]);
    }
    int rank = 0;
    for (int col = 0; col < n && rank < k; col++) {
        int piv = rank;
        while (piv < k && mpq_sgn(m[piv * n + col]) == 0)
            piv++;
        if (piv == k)
            continue;
        for (int j = 0; j < n; j++)
            mpq_swap(m[piv * n + j], m[rank * n + j]);
        eliminate_below(m, k, n, rank, col);
        rank++;
    }
    for (int i = 0; i < k * n; i++)
        mpq_clear(m[i]);
    free(m);
    return rank;
}

/* Are the k vectors linearly independent? */
static int independent(int k, int n, const double *vecs)
{
    return rank_of(k, n, vecs) == k;
}

/* x + y, and whether the double sum is exact (error-free transformation). */
static int exact_sum(double x, double y, double *out)
{
    double s = x + y;
    double yy = s - x;
    double e = (x - (s - yy)) + (y - yy);
    *out = s;
    return e == 0.0;
}

static int exact_product(double x, double y, double *out)
{
    *out = x * y;
    return fma(x, y, -*out) == 0.0;
}

/* ================================================================= rows */

/* A growing list of rows a.x <= b (or = b). */
typedef struct cc_rows {
    int n, m, cap;
    double *a;
    double *b;
    unsigned char *eq;
    int oom;     /* an allocation failed */
    int inexact; /* a number would have been rounded */
} cc_rows;

static void rows_init(cc_rows *R, int n)
{
    memset(R, 0, sizeof *R);
    R->n = n;
}

static void rows_free(cc_rows *R)
{
    free(R->a);
    free(R->b);
    free(R->eq);
    rows_init(R, R->n);
}

static int rows_reserve(cc_rows *R)
{
    if (R->m < R->cap)
        return 0;
    int cap = R->cap ? 2 * R->cap : 16;
    double *a = mem_realloc(R->a, (size_t)cap * (size_t)R->n, sizeof *a);
    if (a)
        R->a = a;
    double *b = mem_realloc(R->b, (size_t)cap, sizeof *b);
    if (b)
        R->b = b;
    unsigned char *eq = mem_realloc(R->eq, (size_t)cap, 1);
    if (eq)
        R->eq = eq;
    if (!a || !b || !eq) {
        R->oom = 1;
        return -1;
    }
    R->cap = cap;
    return 0;
}

static void rows_add(cc_rows *R, const double *a, double b, int eq)
{
    if (rows_reserve(R) != 0)
        return;
    memcpy(R->a + (size_t)R->m * (size_t)R->n, a, sizeof(double) * (size_t)R->n);
    R->b[R->m] = b;
    R->eq[R->m] = (unsigned char)eq;
    R->m++;
}

/* a.x <= a.p + extra (or = when eq), with the sum checked for exactness. */
static void rows_add_at(cc_rows *R, const double *a, const double *p, double extra, int eq)
{
    double b;
    if (!exact_sum(dot(R->n, a, p), extra, &b))
        R->inexact = 1;
    rows_add(R, a, b, eq);
}

/* `count` random rows a.x <= a.p + s, s in 1..6: p stays well inside. */
static void add_strict_rows(cc_rows *R, cc_rng *g, int count, const double *p)
{
    double a[CC_MAX_DIM];
    for (int k = 0; k < count; k++) {
        rand_vec(g, R->n, -5, 5, a);
        rows_add_at(R, a, p, rng_int(g, 1, 6), 0);
    }
}

/* Bounding box around p: |x_j - p_j| <= r_j, r_j in 1..8. */
static void add_box(cc_rows *R, cc_rng *g, const double *p)
{
    double e[CC_MAX_DIM] = {0};
    for (int j = 0; j < R->n; j++) {
        double r = rng_int(g, 1, 8);
        e[j] = 1.0;
        rows_add_at(R, e, p, r, 0);
        e[j] = -1.0;
        rows_add_at(R, e, p, r, 0);
        e[j] = 0.0;
    }
}

/* k a.x <= k beta (or = k beta when eq), k > 0. */
static void rows_add_scaled(cc_rows *R, double k, const double *a, double beta, int eq)
{
    double ka[CC_MAX_DIM], kb;
    for (int j = 0; j < R->n; j++)
        if (!exact_product(k, a[j], &ka[j]))
            R->inexact = 1;
    if (!exact_product(k, beta, &kb))
        R->inexact = 1;
    rows_add(R, ka, kb, eq);
}

/* A positive factor that leaves a row's meaning unchanged. */
static double pick_scale(cc_rng *g)
{
    static const double factors[4] = {1.0, 2.0, 3.0, 0.5};
    return factors[rng_int(g, 0, 3)];
}

/* c.p + extra, flagging R when the sum would round. */
static double plane_value(cc_rows *R, const double *c, const double *p, double extra)
{
    double beta;
    if (!exact_sum(dot(R->n, c, p), extra, &beta))
        R->inexact = 1;
    return beta;
}

/* The hyperplane c.x = beta: one equality row, or two opposite rows. */
static void add_plane(cc_rows *R, cc_rng *g, const double *c, double beta, int as_eq)
{
    if (as_eq) {
        rows_add_scaled(R, pick_scale(g), c, beta, 1);
        return;
    }
    double neg[CC_MAX_DIM];
    scale_vec(R->n, -1.0, c, neg);
    rows_add_scaled(R, pick_scale(g), c, beta, 0);
    rows_add_scaled(R, pick_scale(g), neg, -beta, 0);
}

/* Move the polyhedron by s*c: a.x <= b becomes a.x <= b + s (a.c). */
static void rows_translate(cc_rows *R, double s, const double *c)
{
    for (int i = 0; i < R->m; i++) {
        const double *a = R->a + (size_t)i * (size_t)R->n;
        double shift;
        if (!exact_product(s, dot(R->n, a, c), &shift) || !exact_sum(R->b[i], shift, &R->b[i]))
            R->inexact = 1;
    }
}

static void swap_rows(cc_rows *R, int i, int k)
{
    for (int j = 0; j < R->n; j++) {
        double t = R->a[(size_t)i * (size_t)R->n + (size_t)j];
        R->a[(size_t)i * (size_t)R->n + (size_t)j] = R->a[(size_t)k * (size_t)R->n + (size_t)j];
        R->a[(size_t)k * (size_t)R->n + (size_t)j] = t;
    }
    double tb = R->b[i];
    R->b[i] = R->b[k];
    R->b[k] = tb;
    unsigned char te = R->eq[i];
    R->eq[i] = R->eq[k];
    R->eq[k] = te;
}

/* Shuffle the rows (so the family's own rows are not always first) and
 * build the polyhedron. */
static hs_poly *rows_to_poly(cc_rows *R, cc_rng *g, hs_error *err)
{
    for (int i = R->m - 1; i > 0; i--)
        swap_rows(R, i, rng_int(g, 0, i));
    return hs_poly_from_doubles(R->n, R->m, R->a, R->b, R->eq, err);
}

/* ============================================================ contacts */

typedef enum contact_kind { CONTACT_FACE, CONTACT_VERTEX, CONTACT_EDGE } contact_kind;

/* A lies in c.(x - p) <= 0 and B in c.(x - p) >= 0; both contain p, and
 * p - eps c lies inside A for small eps > 0. */
typedef struct contact {
    int n;
    double c[CC_MAX_DIM];
    double p[CC_MAX_DIM];
    double wedge_a[CC_MAX_DIM]; /* first normal of A's wedge (edge contact) */
} contact;

static void contact_init(contact *ct, cc_rng *g, int n)
{
    ct->n = n;
    rand_vec(g, n, -3, 3, ct->c);
    rand_point(g, n, 3, ct->p);
}

/* side * c.x <= side * c.p */
static void add_facet(cc_rows *R, const contact *ct, double side)
{
    double a[CC_MAX_DIM];
    scale_vec(ct->n, side, ct->c, a);
    rows_add_at(R, a, ct->p, 0.0, 0);
}

/* Cone {g_j.(x - p) <= 0, j = 1..n} with independent g_j summing to -K c:
 * it lies in c.(x - p) >= 0 and meets c.(x - p) = 0 only at its apex p. */
static int add_cone(cc_rows *R, cc_rng *g, const contact *ct)
{
    int n = ct->n;
    double G[CC_MAX_DIM * CC_MAX_DIM];
    double *last = G + (size_t)(n - 1) * (size_t)n;
    for (int attempt = 0; attempt < 100; attempt++) {
        int K = rng_int(g, 1, 3);
        scale_vec(n, -K, ct->c, last);
        for (int i = 0; i < n - 1; i++) {
            rand_vec(g, n, -4, 4, G + (size_t)i * (size_t)n);
            for (int j = 0; j < n; j++)
                last[j] -= G[(size_t)i * (size_t)n + (size_t)j];
        }
        if (!independent(n, n, G))
            continue;
        for (int i = 0; i < n; i++)
            rows_add_at(R, G + (size_t)i * (size_t)n, ct->p, 0.0, 0);
        return 0;
    }
    return -1;
}

/* Is {c, g1} independent, and (when other is given) {c, other, g1} of full
 * rank min(3, n)? */
static int wedge_normal_ok(const contact *ct, const double *g1, const double *other)
{
    int n = ct->n;
    double V[3 * CC_MAX_DIM];
    memcpy(V, ct->c, sizeof(double) * (size_t)n);
    memcpy(V + n, g1, sizeof(double) * (size_t)n);
    if (!independent(2, n, V))
        return 0;
    if (!other)
        return 1;
    memcpy(V + 2 * n, other, sizeof(double) * (size_t)n);
    return rank_of(3, n, V) == (n < 3 ? n : 3);
}

/* Wedge {g1.(x - p) <= 0, g2.(x - p) <= 0} with g1 + g2 = side K c and
 * side (g_i . c) > 0 for both: side +1 puts it in c.(x - p) <= 0 with
 * p - eps c inside, side -1 in c.(x - p) >= 0.  Its edge (where both rows
 * are tight) lies in the plane c.(x - p) = 0. */
static int add_wedge(cc_rows *R, cc_rng *g, const contact *ct, int side, double *g1_out,
                     const double *other)
{
    int n = ct->n;
    double cc = dot(n, ct->c, ct->c), g1[CC_MAX_DIM], g2[CC_MAX_DIM];
    for (int attempt = 0; attempt < 100; attempt++) {
        rand_vec(g, n, -3, 3, g1);
        double gc = dot(n, g1, ct->c);
        if (gc == 0.0)
            continue;
        if (side * gc < 0.0) {
            scale_vec(n, -1.0, g1, g1);
            gc = -gc;
        }
        if (!wedge_normal_ok(ct, g1, other))
            continue;
        double K = floor(side * gc / cc) + 1 + rng_int(g, 0, 1);
        for (int j = 0; j < n; j++)
            g2[j] = side * K * ct->c[j] - g1[j];
        rows_add_at(R, g1, ct->p, 0.0, 0);
        rows_add_at(R, g2, ct->p, 0.0, 0);
        if (g1_out)
            memcpy(g1_out, g1, sizeof(double) * (size_t)n);
        return 0;
    }
    return -1;
}

/* Build A and B touching at p in the given manner, with m strict rows at
 * p on each; `capped` bounds cones and wedges.  Edge contact needs n >= 2
 * and falls back to facets in 1-D.  Returns the kind built, or -1. */
static int build_contact(cc_rng *g, int n, int m, contact_kind kind, int capped, contact *ct,
                         cc_rows *A, cc_rows *B)
{
    contact_init(ct, g, n);
    if (kind == CONTACT_EDGE && n == 1)
        kind = CONTACT_FACE;
    if (kind == CONTACT_EDGE) {
        if (add_wedge(A, g, ct, +1, ct->wedge_a, NULL) != 0 ||
            add_wedge(B, g, ct, -1, NULL, ct->wedge_a) != 0)
            return -1;
        if (capped) {
            add_box(A, g, ct->p);
            add_box(B, g, ct->p);
        }
    } else {
        add_facet(A, ct, 1.0);
        if (kind == CONTACT_FACE) {
            add_facet(B, ct, -1.0);
        } else {
            if (add_cone(B, g, ct) != 0)
                return -1;
            if (capped)
                rows_add_at(B, ct->c, ct->p, rng_int(g, 1, 8), 0);
        }
    }
    add_strict_rows(A, g, m, ct->p);
    add_strict_rows(B, g, m, ct->p);
    return (int)kind;
}

static const char *edge_variant_name(int n, int kind)
{
    if (kind != CONTACT_EDGE)
        return "facets (1-D)";
    if (n == 2)
        return "vertex against vertex";
    return n == 3 ? "edge across edge" : "ridge across ridge";
}

/* A second normal d independent of c (n >= 2). */
static int pick_other_normal(cc_rng *g, const contact *ct, double *d)
{
    double V[2 * CC_MAX_DIM];
    for (int attempt = 0; attempt < 100; attempt++) {
        rand_vec(g, ct->n, -3, 3, d);
        memcpy(V, ct->c, sizeof(double) * (size_t)ct->n);
        memcpy(V + ct->n, d, sizeof(double) * (size_t)ct->n);
        if (independent(2, ct->n, V))
            return 0;
    }
    return -1;
}

/* ============================================================= families */

/* Each builder fills A and B and the instance's variant and expected
 * class; returns 0, or -1 to have the instance drawn again. */
typedef int (*family_fn)(cc_rng *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                         cc_rows *B);

/* Random rows around two centres at most 2 apart per coordinate: in
 * dimensions 1..5 between 40% and 60% of the pairs overlap. */
static int fam_general(cc_rng *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                       cc_rows *B)
{
    double ca[CC_MAX_DIM], cb[CC_MAX_DIM];
    rand_point(g, n, 3, ca);
    for (int j = 0; j < n; j++)
        cb[j] = ca[j] + rng_int(g, -2, 2);
    add_strict_rows(A, g, m, ca);
    add_strict_rows(B, g, m, cb);
    inst->variant = "random rows";
    inst->expected = CC_UNKNOWN;
    return 0;
}

static int fam_face_face(cc_rng *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                         cc_rows *B)
{
    contact ct;
    if (build_contact(g, n, m, CONTACT_FACE, 0, &ct, A, B) < 0)
        return -1;
    inst->variant = "facets on one plane";
    inst->expected = HS_TOUCHING;
    return 0;
}

static int fam_vertex_face(cc_rng *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                           cc_rows *B)
{
    contact ct;
    if (build_contact(g, n, m, CONTACT_VERTEX, 1, &ct, A, B) < 0)
        return -1;
    inst->variant = "vertex of B on a facet of A";
    inst->expected = HS_TOUCHING;
    return 0;
}

static int fam_edge_edge(cc_rng *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                         cc_rows *B)
{
    contact ct;
    int kind = build_contact(g, n, m, CONTACT_EDGE, 1, &ct, A, B);
    if (kind < 0)
        return -1;
    inst->variant = edge_variant_name(n, kind);
    inst->expected = HS_TOUCHING;
    return 0;
}

/* Both below the plane c.(x - p) = 0 (and, sometimes, below a second one
 * through p), with strict rows at p: they share the corner region. */
static int coincident_body(cc_rng *g, int n, int m, cc_rows *A, cc_rows *B, int *ridge)
{
    contact ct;
    contact_init(&ct, g, n);
    double beta = dot(n, ct.c, ct.p);
    rows_add_scaled(A, 1.0, ct.c, beta, 0);
    rows_add_scaled(B, pick_scale(g), ct.c, beta, 0);
    *ridge = n >= 2 && rng_coin(g);
    if (*ridge) {
        double d[CC_MAX_DIM];
        if (pick_other_normal(g, &ct, d) != 0)
            return -1;
        double delta = dot(n, d, ct.p);
        rows_add_scaled(A, pick_scale(g), d, delta, 0);
        rows_add_scaled(B, pick_scale(g), d, delta, 0);
    }
    add_strict_rows(A, g, m, ct.p);
    add_strict_rows(B, g, m, ct.p);
    return 0;
}

static int fam_coincident(cc_rng *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                          cc_rows *B)
{
    int ridge = 0;
    if (coincident_body(g, n, m, A, B, &ridge) != 0)
        return -1;
    inst->variant = ridge ? "two facet planes shared" : "one facet plane shared";
    inst->expected = HS_OVERLAP;
    return 0;
}

/* Copy row i of R, with b increased by `extra` and everything times k. */
static void add_row_copy(cc_rows *R, int i, double extra, double k)
{
    double a[CC_MAX_DIM], b;
    memcpy(a, R->a + (size_t)i * (size_t)R->n, sizeof(double) * (size_t)R->n);
    if (!exact_sum(R->b[i], extra, &b))
        R->inexact = 1;
    rows_add_scaled(R, k, a, b, R->eq[i]);
}

/* Replace row i by k times itself. */
static void scale_row(cc_rows *R, int i, double k)
{
    for (int j = 0; j <= R->n; j++) {
        double *v = j == R->n ? &R->b[i] : &R->a[(size_t)i * (size_t)R->n + (size_t)j];
        if (!exact_product(k, *v, v))
            R->inexact = 1;
    }
}

/* Add redundant rows (a.x <= b + k), duplicates and scaled copies, and
 * scale some rows in place; none of it changes the polyhedron. */
static void decorate(cc_rows *R, cc_rng *g)
{
    static const double factors[8] = {2, 3, 5, 7, 0.5, 0.25, 0.125, 1.0 / 1024};
    int base = R->m;
    for (int k = rng_int(g, 1, 3); k > 0; k--) {
        int i = rng_int(g, 0, base - 1);
        if (!R->eq[i])
            add_row_copy(R, i, rng_int(g, 1, 4), 1.0);
    }
    for (int k = rng_int(g, 1, 2); k > 0; k--)
        add_row_copy(R, rng_int(g, 0, base - 1), 0.0, 1.0);
    for (int k = rng_int(g, 1, 3); k > 0; k--) {
        int i = rng_int(g, 0, base - 1);
        double f = factors[rng_int(g, 0, 7)];
        if (rng_coin(g))
            scale_row(R, i, f);
        else
            add_row_copy(R, i, 0.0, f);
    }
}

static int fam_redundant(cc_rng *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                         cc_rows *B)
{
    static const char *const names[4] = {
        "touching facets with extra rows", "vertex on facet with extra rows",
        "shared facet plane with extra rows", "parallel facets apart with extra rows"};
    static const int expect[4] = {HS_TOUCHING, HS_TOUCHING, HS_OVERLAP, HS_DISJOINT};
    int base = rng_int(g, 0, 3), ridge = 0, failed;
    contact ct;
    if (base == 2)
        failed = coincident_body(g, n, m, A, B, &ridge) != 0;
    else
        failed = build_contact(g, n, m, base == 1 ? CONTACT_VERTEX : CONTACT_FACE, 1, &ct, A,
                               B) < 0;
    if (failed)
        return -1;
    if (base == 3)
        rows_translate(B, 1.0, ct.c);
    decorate(A, g);
    decorate(B, g);
    inst->variant = names[base];
    inst->expected = expect[base];
    return 0;
}

/* Rows that leave nothing: see the variants below. */
static int empty_rows(cc_rows *R, cc_rng *g, int variant, const double *p)
{
    double d[CC_MAX_DIM], neg[CC_MAX_DIM], two[CC_MAX_DIM];
    rand_vec(g, R->n, -3, 3, d);
    scale_vec(R->n, -1.0, d, neg);
    scale_vec(R->n, 2.0, d, two);
    double tiny = ldexp(1.0, CC_TINY_EXP);
    switch (variant) {
    case 0: /* d.x <= d.p and -d.x <= -d.p - k */
    case 1: /* the same 2^-40 apart */
        rows_add_at(R, d, p, 0.0, 0);
        rows_add_at(R, neg, p, variant == 0 ? -rng_int(g, 1, 3) : -tiny, 0);
        return 0;
    case 2: /* d.x = d.p and 2 d.x = 2 d.p + k */
        rows_add_at(R, d, p, 0.0, 1);
        rows_add_at(R, two, p, rng_int(g, 1, 3), 1);
        return 0;
    default: { /* a cone in c.(x - p) >= 0 cut by c.x <= c.p - gap */
        contact ct;
        ct.n = R->n;
        memcpy(ct.c, d, sizeof(double) * (size_t)R->n);
        memcpy(ct.p, p, sizeof(double) * (size_t)R->n);
        if (add_cone(R, g, &ct) != 0)
            return -1;
        rows_add_at(R, d, p, rng_coin(g) ? -1.0 : -tiny, 0);
        return 0;
    }
    }
}

static int fam_empty(cc_rng *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                     cc_rows *B)
{
    static const char *const names[5] = {"contradictory rows", "rows 2^-40 apart",
                                         "inconsistent equalities", "cone cut off",
                                         "both empty"};
    double p[CC_MAX_DIM], q[CC_MAX_DIM];
    rand_point(g, n, 3, p);
    rand_point(g, n, 3, q);
    int variant = rng_int(g, 0, 4);
    if (empty_rows(A, g, variant == 4 ? 0 : variant, p) != 0)
        return -1;
    if (variant == 4 && empty_rows(B, g, 2, q) != 0)
        return -1;
    add_strict_rows(A, g, m, p);
    add_strict_rows(B, g, m, q);
    inst->variant = names[variant];
    inst->expected = HS_DISJOINT;
    return 0;
}

/* Slab lo <= c.x <= hi as two rows. */
static void add_slab(cc_rows *R, const double *c, double lo, double hi)
{
    double neg[CC_MAX_DIM];
    scale_vec(R->n, -1.0, c, neg);
    rows_add(R, c, hi, 0);
    rows_add(R, neg, -lo, 0);
}

/* Two slabs along c: B starts where A ends, plus t in {-1, 0, 1};
 * returns the class. */
static int parallel_slabs(cc_rng *g, const contact *ct, cc_rows *A, cc_rows *B)
{
    double top = dot(ct->n, ct->c, ct->p);
    int t = rng_int(g, -1, 1);
    add_slab(A, ct->c, top - rng_int(g, 1, 4), top);
    add_slab(B, ct->c, top + t, top + t + rng_int(g, 1, 4));
    return t < 0 ? HS_OVERLAP : t == 0 ? HS_TOUCHING : HS_DISJOINT;
}

/* Slabs along independent normals always overlap. */
static int crossing_slabs(cc_rng *g, const contact *ct, cc_rows *A, cc_rows *B)
{
    double d[CC_MAX_DIM];
    if (pick_other_normal(g, ct, d) != 0)
        return -1;
    double u = dot(ct->n, ct->c, ct->p), v = dot(ct->n, d, ct->p);
    add_slab(A, ct->c, u, u + rng_int(g, 1, 4));
    add_slab(B, d, v - rng_int(g, 1, 4), v);
    return 0;
}

/* Two half-spaces along c (variant 0: facing, touching; 1: same side;
 * 2: facing, apart); returns the class. */
static int half_spaces(cc_rng *g, int variant, const contact *ct, cc_rows *A, cc_rows *B)
{
    double beta = dot(ct->n, ct->c, ct->p), neg[CC_MAX_DIM];
    scale_vec(ct->n, -1.0, ct->c, neg);
    rows_add(A, ct->c, beta, 0);
    if (variant == 1) {
        rows_add_scaled(B, pick_scale(g), ct->c, beta + rng_int(g, -3, 3), 0);
        return HS_OVERLAP;
    }
    double gap = variant == 0 ? 0 : rng_int(g, 1, 3);
    rows_add_scaled(B, pick_scale(g), neg, -beta - gap, 0);
    return variant == 0 ? HS_TOUCHING : HS_DISJOINT;
}

/* The rows of unbounded variant `variant`; returns its class, CC_UNKNOWN,
 * or CC_DRAW_FAILED. */
static int unbounded_variant(cc_rng *g, int variant, int n, crosscheck_instance *inst,
                             cc_rows *A, cc_rows *B)
{
    contact ct;
    contact_init(&ct, g, n);
    switch (variant) {
    case 0:
    case 1:
    case 2: return half_spaces(g, variant, &ct, A, B);
    case 3: return parallel_slabs(g, &ct, A, B);
    case 4: return crossing_slabs(g, &ct, A, B) < 0 ? CC_DRAW_FAILED : HS_OVERLAP;
    case 5:
    case 6: {
        contact_kind kind = variant == 5 ? CONTACT_VERTEX : CONTACT_EDGE;
        return build_contact(g, n, 0, kind, 0, &ct, A, B) < 0 ? CC_DRAW_FAILED : HS_TOUCHING;
    }
    default: /* at most n rows each: never bounded */
        fam_general(g, n, rng_int(g, 1, n), inst, A, B);
        return CC_UNKNOWN;
    }
}

/* Only the family's own rows (no random ones): half-spaces, slabs,
 * uncapped cones and wedges, and systems of at most n random rows. */
static int fam_unbounded(cc_rng *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                         cc_rows *B)
{
    static const char *const names[8] = {
        "half-spaces facing, touching", "half-spaces on one side", "half-spaces facing, apart",
        "parallel slabs", "crossing slabs", "uncapped cone on a half-space",
        "uncapped wedges edge to edge", "few random rows"};
    (void)m;
    int variant = rng_int(g, 0, 7);
    if (n == 1 && (variant == 4 || variant == 6))
        variant--; /* needs two independent normals */
    int expected = unbounded_variant(g, variant, n, inst, A, B);
    if (expected == CC_DRAW_FAILED)
        return -1;
    inst->variant = names[variant];
    inst->expected = expected;
    return 0;
}

/* Flat piece of B in the plane c.x = c.p on A's facet. */
static void flat_on_facet(cc_rng *g, int n, int m, contact *ct, cc_rows *A, cc_rows *B,
                          int as_eq, double offset)
{
    contact_init(ct, g, n);
    add_facet(A, ct, 1.0);
    add_plane(B, g, ct->c, plane_value(B, ct->c, ct->p, offset), as_eq);
    add_strict_rows(A, g, m, ct->p);
    add_strict_rows(B, g, m, ct->p);
}

static int fam_tiny_gap(cc_rng *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                        cc_rows *B)
{
    static const char *const names[2][4] = {
        {"facets 2^-40 apart", "vertex 2^-40 off the facet", "edges 2^-40 apart",
         "flat piece 2^-40 off the facet"},
        {"facets overlapping by 2^-40", "vertex 2^-40 into the facet",
         "edges overlapping by 2^-40", "flat piece 2^-40 inside"}};
    int base = rng_int(g, 0, 3), closer = rng_coin(g);
    if (base == 2 && n == 1)
        base = 0;
    contact ct;
    if (base == 3)
        flat_on_facet(g, n, m, &ct, A, B, rng_coin(g), 0.0);
    else if (build_contact(g, n, m, (contact_kind)base, 1, &ct, A, B) < 0)
        return -1;
    rows_translate(B, ldexp(closer ? -1.0 : 1.0, CC_TINY_EXP), ct.c);
    inst->variant = names[closer][base];
    inst->expected = closer ? HS_OVERLAP : HS_DISJOINT;
    return 0;
}

/* A below c.(x - p) = 0 and cut down to the plane d.x = d.p; B above. */
static int flat_edge_on_facet(cc_rng *g, int n, int m, cc_rows *A, cc_rows *B)
{
    contact ct;
    double d[CC_MAX_DIM];
    contact_init(&ct, g, n);
    if (pick_other_normal(g, &ct, d) != 0)
        return -1;
    add_facet(A, &ct, 1.0);
    add_plane(A, g, d, dot(n, d, ct.p), rng_coin(g));
    add_facet(B, &ct, -1.0);
    add_strict_rows(A, g, m, ct.p);
    add_strict_rows(B, g, m, ct.p);
    return 0;
}

/* Flat pieces through p: of B only (A has p inside) or of both. */
static void flats_through(cc_rng *g, int n, int m, cc_rows *A, cc_rows *B, int both, int as_eq)
{
    contact ct;
    double d[CC_MAX_DIM];
    contact_init(&ct, g, n);
    rand_vec(g, n, -3, 3, d);
    if (both)
        add_plane(A, g, ct.c, dot(n, ct.c, ct.p), rng_coin(g));
    add_plane(B, g, d, dot(n, d, ct.p), as_eq);
    add_strict_rows(A, g, m, ct.p);
    add_strict_rows(B, g, m, ct.p);
}

static int fam_lower_dim(cc_rng *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                         cc_rows *B)
{
    static const char *const names[7] = {
        "flat piece (equality) on a facet", "flat piece (two rows) on a facet",
        "flat piece (equality) through A", "flat piece (two rows) through A",
        "two flat pieces crossing", "flat piece beside a facet",
        "flat A with an edge on B's facet"};
    static const int expect[7] = {HS_TOUCHING, HS_TOUCHING, HS_OVERLAP, HS_OVERLAP,
                                  HS_OVERLAP,  HS_DISJOINT, HS_TOUCHING};
    int variant = rng_int(g, 0, 6);
    if (variant == 6 && n == 1)
        variant = 0;
    contact ct;
    if (variant <= 1)
        flat_on_facet(g, n, m, &ct, A, B, variant == 0, 0.0);
    else if (variant == 5)
        flat_on_facet(g, n, m, &ct, A, B, rng_coin(g), rng_int(g, 1, 3));
    else if (variant <= 4)
        flats_through(g, n, m, A, B, variant == 4, variant != 3);
    else if (flat_edge_on_facet(g, n, m, A, B) != 0)
        return -1;
    inst->variant = names[variant];
    inst->expected = expect[variant];
    return 0;
}

static const family_fn family_builders[CC_FAMILY_COUNT] = {
    fam_general, fam_face_face, fam_vertex_face, fam_edge_edge, fam_coincident,
    fam_redundant, fam_empty, fam_unbounded, fam_tiny_gap, fam_lower_dim};

static const char *const family_names[CC_FAMILY_COUNT] = {
    "general", "face-face", "vertex-face", "edge-edge", "coincident",
    "redundant", "empty", "unbounded", "tiny-gap", "lower-dim"};

const char *crosscheck_family_name(cc_family f)
{
    if ((int)f < 0 || f >= CC_FAMILY_COUNT)
        return "unknown";
    return family_names[f];
}

/* ============================================================ generation */

/* Turn the rows into the instance's polyhedra. */
static hs_code make_polys(crosscheck_instance *inst, cc_rows *A, cc_rows *B, cc_rng *g,
                          hs_error *err)
{
    hs_error local;
    hs_error *e = err ? err : &local;
    inst->A = rows_to_poly(A, g, e);
    inst->B = inst->A ? rows_to_poly(B, g, e) : NULL;
    if (inst->B)
        return HS_OK;
    crosscheck_instance_free(inst);
    return e->code;
}

/* One attempt at the instance; *drawn stays 0 when the construction did
 * not work out and has to be drawn again. */
static hs_code draw_once(cc_rng *g, cc_family family, int n, int rows,
                         crosscheck_instance *inst, int *drawn, hs_error *err)
{
    cc_rows A, B;
    rows_init(&A, n);
    rows_init(&B, n);
    inst->variant = "";
    inst->expected = CC_UNKNOWN;
    int built = family_builders[family](g, n, rows, inst, &A, &B);
    hs_code rc = HS_OK;
    *drawn = 0;
    if (A.oom || B.oom) {
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    } else if (built == 0 && !A.inexact && !B.inexact) {
        rc = make_polys(inst, &A, &B, g, err);
        *drawn = rc == HS_OK;
    }
    rows_free(&A);
    rows_free(&B);
    return rc;
}

hs_code crosscheck_generate_family(uint64_t seed, long index, cc_family family, int n, int rows,
                                   crosscheck_instance *inst, hs_error *err)
{
    if (!inst)
        return err_set(err, HS_ERR_ARG, "crosscheck: instance is NULL");
    memset(inst, 0, sizeof *inst);
    if ((int)family < 0 || family >= CC_FAMILY_COUNT)
        return err_set(err, HS_ERR_ARG, "crosscheck: unknown family %d", (int)family);
    if (n < 1 || n > CC_MAX_DIM)
        return err_set(err, HS_ERR_ARG, "crosscheck: dimension %d is outside 1..%d", n,
                       CC_MAX_DIM);
    if (rows < 1 || rows > CC_MAX_ROWS)
        return err_set(err, HS_ERR_ARG, "crosscheck: rows %d is outside 1..%d", rows,
                       CC_MAX_ROWS);
    inst->family = family;
    inst->n = n;
    cc_rng g = rng_for_instance(seed, index);
    for (int attempt = 0; attempt < CC_DRAW_ATTEMPTS; attempt++) {
        int drawn = 0;
        hs_code rc = draw_once(&g, family, n, rows, inst, &drawn, err);
        if (rc != HS_OK || drawn)
            return rc;
    }
    return err_set(err, HS_ERR_INTERNAL,
                   "crosscheck: instance %ld (%s, n = %d) could not be drawn with exact numbers",
                   index, family_names[family], n);
}

hs_code crosscheck_generate(uint64_t seed, long index, int dim, int rows,
                            crosscheck_instance *inst, hs_error *err)
{
    if (index < 0)
        return err_set(err, HS_ERR_ARG, "crosscheck: negative instance number");
    cc_family family = (cc_family)(index % CC_FAMILY_COUNT);
    int n = dim > 0 ? dim : 1 + (int)((index / CC_FAMILY_COUNT) % 5);
    return crosscheck_generate_family(seed, index, family, n, rows, inst, err);
}

void crosscheck_instance_free(crosscheck_instance *inst)
{
    if (!inst)
        return;
    hs_poly_free(inst->A);
    hs_poly_free(inst->B);
    inst->A = NULL;
    inst->B = NULL;
}

/* ================================================================ runner */

void crosscheck_opts_init(crosscheck_opts *o)
{
    memset(o, 0, sizeof *o);
    o->count = 1000;
    o->dim = 0;
    o->rows = 8;
    o->seed = 1;
    o->verbose = 0;
    o->engines = CC_ALL_ENGINES;
}

/* The order in which the engines run; answers are indexed by hs_engine. */
#define CC_RUN 5
static const hs_engine run_order[CC_RUN] = {HS_ENGINE_EXACT, HS_ENGINE_GLPK_EXACT,
                                            HS_ENGINE_FAST, HS_ENGINE_FAITHFUL, HS_ENGINE_GLPK};
/* Answer slots are indexed by hs_engine. */
#define CC_ENGINE_SLOTS (HS_ENGINE_FAITHFUL_EXACT + 1)

typedef struct cc_answers {
    int have[CC_ENGINE_SLOTS];
    hs_status status[CC_ENGINE_SLOTS];
} cc_answers;

/* Everything the comparisons of one instance need. */
typedef struct cc_check {
    const crosscheck_instance *inst;
    long index;
    const cc_answers *ans;
    int ref;          /* engine whose answer is the reference, or -1 */
    int near_known;   /* near has been computed */
    int near;         /* within CC_NEAR_TOL of touching */
    FILE *out;
    crosscheck_summary *s;
} cc_check;

static void instance_label(const cc_check *k, char *buf, size_t cap)
{
    snprintf(buf, cap, "instance %ld (%s, %s, n=%d)", k->index,
             family_names[k->inst->family], k->inst->variant, k->inst->n);
}

static void run_engines(const crosscheck_instance *inst, long index, unsigned mask,
                        hs_result *r, cc_answers *ans, FILE *out, crosscheck_summary *s)
{
    for (int k = 0; k < CC_RUN; k++) {
        hs_engine e = run_order[k];
        ans->have[e] = 0;
        if (!(mask & CC_ENGINE_BIT(e)))
            continue;
        hs_options opt;
        hs_options_init(&opt);
        opt.engine = e;
        hs_error err;
        hs_error_clear(&err);
        if (hs_intersect(inst->A, inst->B, &opt, r, &err) != HS_OK) {
            s->engine_errors++;
            fprintf(out, "error: instance %ld (%s, %s, n=%d): engine %s failed: %s\n", index,
                    family_names[inst->family], inst->variant, inst->n, hs_engine_name(e),
                    err.msg);
            continue;
        }
        ans->have[e] = 1;
        ans->status[e] = hs_result_status(r);
        if (e == HS_ENGINE_FAST) {
            s->fast_queries++;
            s->fast_fallbacks += hs_result_fallback(r) != 0;
        }
    }
}

static double poly_data_scale(const hs_poly *P)
{
    double a[CC_MAX_DIM], b, big = 0.0;
    if (hs_poly_dim(P) > CC_MAX_DIM)
        return 0.0;
    for (int i = 0; i < hs_poly_rows(P); i++) {
        hs_poly_row(P, i, a, &b);
        big = fmax(big, fabs(b));
        for (int j = 0; j < hs_poly_dim(P); j++)
            big = fmax(big, fabs(a[j]));
    }
    return big;
}

/* Is the instance within tolerance of touching?  Computed on first use. */
static int near_touching(cc_check *k)
{
    if (k->near_known)
        return k->near;
    k->near_known = 1;
    k->near = k->ref >= 0 && k->ans->status[k->ref] == HS_TOUCHING;
    if (k->near)
        return 1;
    double tau = 0.0;
    hs_error err;
    hs_error_clear(&err);
    if (glpk_margin(k->inst->A, k->inst->B, 1, &tau, &err) != HS_OK) {
        char label[200];
        instance_label(k, label, sizeof label);
        k->s->engine_errors++;
        fprintf(k->out, "error: %s: margin LP failed: %s\n", label, err.msg);
        return 0;
    }
    double scale = fmax(poly_data_scale(k->inst->A), poly_data_scale(k->inst->B));
    k->near = fabs(tau) <= CC_NEAR_TOL * scale;
    return k->near;
}

static int meets(hs_status st)
{
    return st == HS_TOUCHING || st == HS_OVERLAP || st == HS_INTERSECT;
}

/* Count one comparison; print it when it is an unexplained disagreement. */
static void record(cc_check *k, cc_pair pair, int agree, int is_float, const char *left,
                   hs_status ls, const char *right, const char *rs)
{
    cc_pair_stats *st = &k->s->pair[pair];
    st->compared++;
    if (agree) {
        st->agree++;
        return;
    }
    if (is_float && near_touching(k)) {
        st->explained++;
        return;
    }
    st->unexplained++;
    char label[200];
    instance_label(k, label, sizeof label);
    fprintf(k->out, "disagreement: %s: %s says %s, %s says %s\n", label, left,
            hs_status_name(ls), right, rs);
}

static void record_engines(cc_check *k, cc_pair pair, hs_engine l, hs_engine r, int three_way,
                           int is_float)
{
    const cc_answers *a = k->ans;
    if (!a->have[l] || !a->have[r])
        return;
    int agree = three_way ? a->status[l] == a->status[r]
                          : meets(a->status[l]) == meets(a->status[r]);
    record(k, pair, agree, is_float, hs_engine_name(l), a->status[l], hs_engine_name(r),
           hs_status_name(a->status[r]));
}

static void compare_answers(cc_check *k)
{
    const cc_answers *a = k->ans;
    record_engines(k, CC_EXACT_VS_GLPK_EXACT, HS_ENGINE_EXACT, HS_ENGINE_GLPK_EXACT, 1, 0);
    record_engines(k, CC_FAST_VS_EXACT, HS_ENGINE_FAST, HS_ENGINE_EXACT, 1, 0);
    if (k->ref >= 0 && k->inst->expected != CC_UNKNOWN) {
        hs_status want = (hs_status)k->inst->expected;
        record(k, CC_EXACT_VS_EXPECTED, a->status[k->ref] == want, 0,
               hs_engine_name((hs_engine)k->ref), a->status[k->ref], "the construction",
               hs_status_name(want));
    }
    record_engines(k, CC_FAITHFUL_VS_GLPK, HS_ENGINE_FAITHFUL, HS_ENGINE_GLPK, 0, 1);
    record_engines(k, CC_FAITHFUL_VS_EXACT, HS_ENGINE_FAITHFUL, HS_ENGINE_EXACT, 0, 1);
    record_engines(k, CC_GLPK_VS_EXACT, HS_ENGINE_GLPK, HS_ENGINE_EXACT, 1, 1);
}

/* The exact engine when it ran; glp_exact when the exact engine was not
 * selected at all. */
static int reference_engine(const cc_answers *a, unsigned mask)
{
    if (a->have[HS_ENGINE_EXACT])
        return HS_ENGINE_EXACT;
    if (!(mask & CC_ENGINE_BIT(HS_ENGINE_EXACT)) && a->have[HS_ENGINE_GLPK_EXACT])
        return HS_ENGINE_GLPK_EXACT;
    return -1;
}

static void print_instance(const cc_check *k)
{
    const crosscheck_instance *inst = k->inst;
    fprintf(k->out, "instance %ld: %s (%s) n=%d rows=%d+%d expected=%s", k->index,
            family_names[inst->family], inst->variant, inst->n, hs_poly_rows(inst->A),
            hs_poly_rows(inst->B),
            inst->expected == CC_UNKNOWN ? "?" : hs_status_name((hs_status)inst->expected));
    for (int i = 0; i < CC_RUN; i++) {
        hs_engine e = run_order[i];
        fprintf(k->out, " %s=%s", hs_engine_name(e),
                k->ans->have[e] ? hs_status_name(k->ans->status[e]) : "-");
    }
    fputc('\n', k->out);
}

static void count_reference(crosscheck_summary *s, const cc_check *k)
{
    s->family_count[k->inst->family]++;
    if (k->ref < 0)
        return;
    hs_status st = k->ans->status[k->ref];
    int slot = st == HS_DISJOINT ? 0 : st == HS_TOUCHING ? 1 : st == HS_OVERLAP ? 2 : -1;
    if (slot >= 0)
        s->family_status[k->inst->family][slot]++;
}

static void check_instance(const crosscheck_opts *o, const crosscheck_instance *inst,
                           long index, hs_result *r, FILE *out, crosscheck_summary *s)
{
    cc_answers ans;
    run_engines(inst, index, o->engines, r, &ans, out, s);
    cc_check k = {inst, index, &ans, reference_engine(&ans, o->engines), 0, 0, out, s};
    compare_answers(&k);
    count_reference(s, &k);
    if (o->verbose)
        print_instance(&k);
}

static const char *pair_name(cc_pair p, unsigned mask)
{
    switch (p) {
    case CC_EXACT_VS_GLPK_EXACT: return "exact vs glpk-exact";
    case CC_FAST_VS_EXACT: return "fast vs exact";
    case CC_EXACT_VS_EXPECTED:
        return (mask & CC_ENGINE_BIT(HS_ENGINE_EXACT)) ? "exact vs expected class"
                                                       : "glpk-exact vs expected class";
    case CC_FAITHFUL_VS_GLPK: return "faithful vs glpk";
    case CC_FAITHFUL_VS_EXACT: return "faithful vs exact";
    case CC_GLPK_VS_EXACT: return "glpk vs exact";
    case CC_PAIR_COUNT: break;
    }
    return "?";
}

static void print_summary(const crosscheck_opts *o, FILE *out, const crosscheck_summary *s)
{
    for (int f = 0; f < CC_FAMILY_COUNT; f++)
        if (s->family_count[f])
            fprintf(out, "family %-12s %6ld instances: %ld disjoint, %ld touching, %ld overlap\n",
                    family_names[f], s->family_count[f], s->family_status[f][0],
                    s->family_status[f][1], s->family_status[f][2]);
    for (int p = 0; p < CC_PAIR_COUNT; p++) {
        const cc_pair_stats *st = &s->pair[p];
        fprintf(out, "%s: %ld compared, %ld agree", pair_name((cc_pair)p, o->engines),
                st->compared, st->agree);
        if (p >= CC_FAITHFUL_VS_GLPK)
            fprintf(out, ", %ld explained (near touching)", st->explained);
        fprintf(out, ", %ld disagreements\n", st->unexplained);
    }
    if (s->fast_queries)
        fprintf(out, "fast engine: %ld queries, %ld answered by the exact fallback (%.1f%%)\n",
                s->fast_queries, s->fast_fallbacks, 100.0 * (double)s->fast_fallbacks /
                                                        (double)s->fast_queries);
    fprintf(out, "engine errors: %ld\n", s->engine_errors);
    fprintf(out, "crosscheck: %ld instances, %ld disagreements\n", s->instances,
            s->disagreements);
}

hs_code crosscheck_run(const crosscheck_opts *o, FILE *out, crosscheck_summary *s,
                       hs_error *err)
{
    if (!o || !out || !s)
        return err_set(err, HS_ERR_ARG, "crosscheck: NULL argument");
    memset(s, 0, sizeof *s);
    hs_result *r = hs_result_new();
    if (!r)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_code rc = HS_OK;
    for (long i = 0; i < o->count && rc == HS_OK; i++) {
        crosscheck_instance inst;
        rc = crosscheck_generate(o->seed, i, o->dim, o->rows, &inst, err);
        if (rc != HS_OK)
            break;
        check_instance(o, &inst, i, r, out, s);
        crosscheck_instance_free(&inst);
        s->instances++;
    }
    hs_result_free(r);
    s->disagreements = s->engine_errors;
    for (int p = 0; p < CC_PAIR_COUNT; p++)
        s->disagreements += s->pair[p].unexplained;
    if (rc == HS_OK)
        print_summary(o, out, s);
    return rc;
}

/* ============================================================== options */

void crosscheck_usage(FILE *f)
{
    fprintf(f,
            "usage: halfspace crosscheck [--count N] [--dim n] [--rows m] [--seed s] "
            "[--verbose]\n"
            "\n"
            "Generate random pairs of polyhedra, many with a known answer, and compare\n"
            "the engines exact, glpk-exact, faithful and glpk on them.\n"
            "\n"
            "  --count N   number of instances (default 1000)\n"
            "  --dim n     dimension of every instance, 1..%d (default: 1..5 in turn)\n"
            "  --rows m    random rows per polyhedron before the family adds its own,\n"
            "              1..%d (default 8)\n"
            "  --seed s    seed of the instance stream (default 1)\n"
            "  --verbose   one line per instance\n"
            "  --help      show this text\n"
            "\n"
            "The last line reads \"crosscheck: N instances, D disagreements\".\n"
            "Exit status: 0 no disagreement, 3 disagreements, 1 bad options, 2 failure.\n",
            CC_MAX_DIM, CC_MAX_ROWS);
}

static int parse_long(const char *text, long lo, long hi, long *out)
{
    if (!text || !*text)
        return -1;
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_seed(const char *text, uint64_t *out)
{
    if (!text || !*text || *text == '-' || *text == '+')
        return -1;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* Apply option `name` with `value`; -1 with a message when bad. */
static int apply_option(crosscheck_opts *o, const char *name, const char *value, FILE *errout)
{
    long v = 0;
    int ok;
    if (strcmp(name, "--seed") == 0) {
        ok = parse_seed(value, &o->seed) == 0;
    } else if (strcmp(name, "--count") == 0) {
        ok = parse_long(value, 0, 1000000000L, &v) == 0;
        if (ok)
            o->count = v;
    } else if (strcmp(name, "--dim") == 0) {
        ok = parse_long(value, 1, CC_MAX_DIM, &v) == 0;
        if (ok)
            o->dim = (int)v;
    } else {
        ok = parse_long(value, 1, CC_MAX_ROWS, &v) == 0;
        if (ok)
            o->rows = (int)v;
    }
    if (!ok)
        fprintf(errout, "halfspace crosscheck: bad value '%s' for %s\n", value, name);
    return ok ? 0 : -1;
}

static int takes_value(const char *name)
{
    return strcmp(name, "--count") == 0 || strcmp(name, "--dim") == 0 ||
           strcmp(name, "--rows") == 0 || strcmp(name, "--seed") == 0;
}

int crosscheck_parse_args(int argc, char **argv, crosscheck_opts *o, FILE *out, FILE *errout)
{
    for (int i = 1; i < argc; i++) {
        char name[32];
        const char *arg = argv[i], *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1),
                 arg);
        if (!eq && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            crosscheck_usage(out);
            return 1;
        }
        if (!eq && strcmp(arg, "--verbose") == 0) {
            o->verbose = 1;
            continue;
        }
        if (len >= sizeof name || !takes_value(name)) {
            fprintf(errout, "halfspace crosscheck: unknown option '%s'\n", arg);
        } else {
            const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (value && apply_option(o, name, value, errout) == 0)
                continue;
            if (!value)
                fprintf(errout, "halfspace crosscheck: %s needs a value\n", name);
        }
        crosscheck_usage(errout);
        return -1;
    }
    return 0;
}
