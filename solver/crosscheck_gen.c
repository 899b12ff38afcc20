/* crosscheck_gen.c -- the instance generator of `halfspace crosscheck`:
 * pairs of polyhedra, most with a known class, in ten families.
 *
 * Every instance is built from integer vectors with small entries, so
 * every number is an integer except the deliberate shifts of +-2^-40;
 * sums with those shifts are checked to be exact (an instance whose
 * numbers would round is drawn again).  Most constructions place a point p
 * and a normal c and put A on the side c.(x - p) <= 0 and B on the side
 * c.(x - p) >= 0, with p in both; since A is full-dimensional its interior
 * lies strictly on its side, so the relative interiors cannot meet and the
 * pair is TOUCHING.  "Strict rows at p" are random rows a.x <= a.p + s with
 * s >= 1: they keep p and a neighbourhood of it inside.  The row lists and
 * the exact arithmetic are in crosscheck_rows.c. */
#include "solver/crosscheck.h"

#include <math.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/rng.h"
#include "solver/crosscheck_rows.h"

/* The deliberate tiny shift. */
#define CC_TINY_EXP (-40)
/* Attempts at drawing an instance whose numbers are all exact. */
#define CC_DRAW_ATTEMPTS 50
/* A family variant whose random draw did not work out (drawn again). */
#define CC_DRAW_FAILED (-2)

/* Independent splitmix64 stream for one instance: same (seed, index),
 * same stream. */
static uint64_t instance_stream(uint64_t seed, long index)
{
    uint64_t g = seed;
    g = rng_splitmix(&g) ^ ((uint64_t)index * 0xD1B54A32D192ED03ull);
    rng_splitmix(&g);
    return g;
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

static void contact_init(contact *ct, uint64_t *g, int n)
{
    ct->n = n;
    cc_rand_vec(g, n, -3, 3, ct->c);
    cc_rand_point(g, n, 3, ct->p);
}

/* side * c.x <= side * c.p */
static void add_facet(cc_rows *R, const contact *ct, double side)
{
    double a[CC_MAX_DIM];
    cc_scale_vec(ct->n, side, ct->c, a);
    cc_rows_add_at(R, a, ct->p, 0.0, 0);
}

/* Cone {g_j.(x - p) <= 0, j = 1..n} with independent g_j summing to -K c:
 * it lies in c.(x - p) >= 0 and meets c.(x - p) = 0 only at its apex p. */
static int add_cone(cc_rows *R, uint64_t *g, const contact *ct)
{
    int n = ct->n;
    double G[CC_MAX_DIM * CC_MAX_DIM];
    double *last = G + (size_t)(n - 1) * (size_t)n;
    for (int attempt = 0; attempt < 100; attempt++) {
        int K = cc_rand_int(g, 1, 3);
        cc_scale_vec(n, -K, ct->c, last);
        for (int i = 0; i < n - 1; i++) {
            cc_rand_vec(g, n, -4, 4, G + (size_t)i * (size_t)n);
            for (int j = 0; j < n; j++)
                last[j] -= G[(size_t)i * (size_t)n + (size_t)j];
        }
        if (!cc_independent(n, n, G))
            continue;
        for (int i = 0; i < n; i++)
            cc_rows_add_at(R, G + (size_t)i * (size_t)n, ct->p, 0.0, 0);
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
    if (!cc_independent(2, n, V))
        return 0;
    if (!other)
        return 1;
    memcpy(V + 2 * n, other, sizeof(double) * (size_t)n);
    return cc_rank(3, n, V) == (n < 3 ? n : 3);
}

/* Wedge {g1.(x - p) <= 0, g2.(x - p) <= 0} with g1 + g2 = side K c and
 * side (g_i . c) > 0 for both: side +1 puts it in c.(x - p) <= 0 with
 * p - eps c inside, side -1 in c.(x - p) >= 0.  Its edge (where both rows
 * are tight) lies in the plane c.(x - p) = 0. */
static int add_wedge(cc_rows *R, uint64_t *g, const contact *ct, int side, double *g1_out,
                     const double *other)
{
    int n = ct->n;
    double cc = cc_dot(n, ct->c, ct->c), g1[CC_MAX_DIM], g2[CC_MAX_DIM];
    for (int attempt = 0; attempt < 100; attempt++) {
        cc_rand_vec(g, n, -3, 3, g1);
        double gc = cc_dot(n, g1, ct->c);
        if (gc == 0.0)
            continue;
        if (side * gc < 0.0) {
            cc_scale_vec(n, -1.0, g1, g1);
            gc = -gc;
        }
        if (!wedge_normal_ok(ct, g1, other))
            continue;
        double K = floor(side * gc / cc) + 1 + cc_rand_int(g, 0, 1);
        for (int j = 0; j < n; j++)
            g2[j] = side * K * ct->c[j] - g1[j];
        cc_rows_add_at(R, g1, ct->p, 0.0, 0);
        cc_rows_add_at(R, g2, ct->p, 0.0, 0);
        if (g1_out)
            memcpy(g1_out, g1, sizeof(double) * (size_t)n);
        return 0;
    }
    return -1;
}

/* Build A and B touching at p in the given manner, with m strict rows at
 * p on each; `capped` bounds cones and wedges.  Edge contact needs n >= 2
 * and falls back to facets in 1-D.  Returns the kind built, or -1. */
static int build_contact(uint64_t *g, int n, int m, contact_kind kind, int capped, contact *ct,
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
            cc_add_box(A, g, ct->p);
            cc_add_box(B, g, ct->p);
        }
    } else {
        add_facet(A, ct, 1.0);
        if (kind == CONTACT_FACE) {
            add_facet(B, ct, -1.0);
        } else {
            if (add_cone(B, g, ct) != 0)
                return -1;
            if (capped)
                cc_rows_add_at(B, ct->c, ct->p, cc_rand_int(g, 1, 8), 0);
        }
    }
    cc_add_strict_rows(A, g, m, ct->p);
    cc_add_strict_rows(B, g, m, ct->p);
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
static int pick_other_normal(uint64_t *g, const contact *ct, double *d)
{
    double V[2 * CC_MAX_DIM];
    for (int attempt = 0; attempt < 100; attempt++) {
        cc_rand_vec(g, ct->n, -3, 3, d);
        memcpy(V, ct->c, sizeof(double) * (size_t)ct->n);
        memcpy(V + ct->n, d, sizeof(double) * (size_t)ct->n);
        if (cc_independent(2, ct->n, V))
            return 0;
    }
    return -1;
}

/* ============================================================= families */

/* Each builder fills A and B and the instance's variant and expected
 * class; returns 0, or -1 to have the instance drawn again. */
typedef int (*family_fn)(uint64_t *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                         cc_rows *B);

/* Random rows around two centres at most 2 apart per coordinate: in
 * dimensions 1..5 between 40% and 60% of the pairs overlap. */
static int fam_general(uint64_t *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                       cc_rows *B)
{
    double ca[CC_MAX_DIM], cb[CC_MAX_DIM];
    cc_rand_point(g, n, 3, ca);
    for (int j = 0; j < n; j++)
        cb[j] = ca[j] + cc_rand_int(g, -2, 2);
    cc_add_strict_rows(A, g, m, ca);
    cc_add_strict_rows(B, g, m, cb);
    inst->variant = "random rows";
    inst->expected = CC_UNKNOWN;
    return 0;
}

static int fam_face_face(uint64_t *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                         cc_rows *B)
{
    contact ct;
    if (build_contact(g, n, m, CONTACT_FACE, 0, &ct, A, B) < 0)
        return -1;
    inst->variant = "facets on one plane";
    inst->expected = HS_TOUCHING;
    return 0;
}

static int fam_vertex_face(uint64_t *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                           cc_rows *B)
{
    contact ct;
    if (build_contact(g, n, m, CONTACT_VERTEX, 1, &ct, A, B) < 0)
        return -1;
    inst->variant = "vertex of B on a facet of A";
    inst->expected = HS_TOUCHING;
    return 0;
}

static int fam_edge_edge(uint64_t *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
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
static int coincident_body(uint64_t *g, int n, int m, cc_rows *A, cc_rows *B, int *ridge)
{
    contact ct;
    contact_init(&ct, g, n);
    double beta = cc_dot(n, ct.c, ct.p);
    cc_rows_add_scaled(A, 1.0, ct.c, beta, 0);
    cc_rows_add_scaled(B, cc_pick_scale(g), ct.c, beta, 0);
    *ridge = n >= 2 && cc_rand_coin(g);
    if (*ridge) {
        double d[CC_MAX_DIM];
        if (pick_other_normal(g, &ct, d) != 0)
            return -1;
        double delta = cc_dot(n, d, ct.p);
        cc_rows_add_scaled(A, cc_pick_scale(g), d, delta, 0);
        cc_rows_add_scaled(B, cc_pick_scale(g), d, delta, 0);
    }
    cc_add_strict_rows(A, g, m, ct.p);
    cc_add_strict_rows(B, g, m, ct.p);
    return 0;
}

static int fam_coincident(uint64_t *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                          cc_rows *B)
{
    int ridge = 0;
    if (coincident_body(g, n, m, A, B, &ridge) != 0)
        return -1;
    inst->variant = ridge ? "two facet planes shared" : "one facet plane shared";
    inst->expected = HS_OVERLAP;
    return 0;
}

/* Add redundant rows (a.x <= b + k), duplicates and scaled copies, and
 * scale some rows in place; none of it changes the polyhedron. */
static void decorate(cc_rows *R, uint64_t *g)
{
    static const double factors[8] = {2, 3, 5, 7, 0.5, 0.25, 0.125, 1.0 / 1024};
    int base = R->m;
    for (int k = cc_rand_int(g, 1, 3); k > 0; k--) {
        int i = cc_rand_int(g, 0, base - 1);
        if (!R->eq[i])
            cc_add_row_copy(R, i, cc_rand_int(g, 1, 4), 1.0);
    }
    for (int k = cc_rand_int(g, 1, 2); k > 0; k--)
        cc_add_row_copy(R, cc_rand_int(g, 0, base - 1), 0.0, 1.0);
    for (int k = cc_rand_int(g, 1, 3); k > 0; k--) {
        int i = cc_rand_int(g, 0, base - 1);
        double f = factors[cc_rand_int(g, 0, 7)];
        if (cc_rand_coin(g))
            cc_scale_row(R, i, f);
        else
            cc_add_row_copy(R, i, 0.0, f);
    }
}

static int fam_redundant(uint64_t *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                         cc_rows *B)
{
    static const char *const names[4] = {
        "touching facets with extra rows", "vertex on facet with extra rows",
        "shared facet plane with extra rows", "parallel facets apart with extra rows"};
    static const int expect[4] = {HS_TOUCHING, HS_TOUCHING, HS_OVERLAP, HS_DISJOINT};
    int base = cc_rand_int(g, 0, 3), ridge = 0, failed;
    contact ct;
    if (base == 2)
        failed = coincident_body(g, n, m, A, B, &ridge) != 0;
    else
        failed = build_contact(g, n, m, base == 1 ? CONTACT_VERTEX : CONTACT_FACE, 1, &ct, A,
                               B) < 0;
    if (failed)
        return -1;
    if (base == 3)
        cc_rows_translate(B, 1.0, ct.c);
    decorate(A, g);
    decorate(B, g);
    inst->variant = names[base];
    inst->expected = expect[base];
    return 0;
}

/* Rows that leave nothing: see the variants below. */
static int empty_rows(cc_rows *R, uint64_t *g, int variant, const double *p)
{
    double d[CC_MAX_DIM], neg[CC_MAX_DIM], two[CC_MAX_DIM];
    cc_rand_vec(g, R->n, -3, 3, d);
    cc_scale_vec(R->n, -1.0, d, neg);
    cc_scale_vec(R->n, 2.0, d, two);
    double tiny = ldexp(1.0, CC_TINY_EXP);
    switch (variant) {
    case 0: /* d.x <= d.p and -d.x <= -d.p - k */
    case 1: /* the same 2^-40 apart */
        cc_rows_add_at(R, d, p, 0.0, 0);
        cc_rows_add_at(R, neg, p, variant == 0 ? -cc_rand_int(g, 1, 3) : -tiny, 0);
        return 0;
    case 2: /* d.x = d.p and 2 d.x = 2 d.p + k */
        cc_rows_add_at(R, d, p, 0.0, 1);
        cc_rows_add_at(R, two, p, cc_rand_int(g, 1, 3), 1);
        return 0;
    default: { /* a cone in c.(x - p) >= 0 cut by c.x <= c.p - gap */
        contact ct;
        ct.n = R->n;
        memcpy(ct.c, d, sizeof(double) * (size_t)R->n);
        memcpy(ct.p, p, sizeof(double) * (size_t)R->n);
        if (add_cone(R, g, &ct) != 0)
            return -1;
        cc_rows_add_at(R, d, p, cc_rand_coin(g) ? -1.0 : -tiny, 0);
        return 0;
    }
    }
}

static int fam_empty(uint64_t *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                     cc_rows *B)
{
    static const char *const names[5] = {"contradictory rows", "rows 2^-40 apart",
                                         "inconsistent equalities", "cone cut off",
                                         "both empty"};
    double p[CC_MAX_DIM], q[CC_MAX_DIM];
    cc_rand_point(g, n, 3, p);
    cc_rand_point(g, n, 3, q);
    int variant = cc_rand_int(g, 0, 4);
    if (empty_rows(A, g, variant == 4 ? 0 : variant, p) != 0)
        return -1;
    if (variant == 4 && empty_rows(B, g, 2, q) != 0)
        return -1;
    cc_add_strict_rows(A, g, m, p);
    cc_add_strict_rows(B, g, m, q);
    inst->variant = names[variant];
    inst->expected = HS_DISJOINT;
    return 0;
}

/* Slab lo <= c.x <= hi as two rows. */
static void add_slab(cc_rows *R, const double *c, double lo, double hi)
{
    double neg[CC_MAX_DIM];
    cc_scale_vec(R->n, -1.0, c, neg);
    cc_rows_add(R, c, hi, 0);
    cc_rows_add(R, neg, -lo, 0);
}

/* Two slabs along c: B starts where A ends, plus t in {-1, 0, 1};
 * returns the class. */
static int parallel_slabs(uint64_t *g, const contact *ct, cc_rows *A, cc_rows *B)
{
    double top = cc_dot(ct->n, ct->c, ct->p);
    int t = cc_rand_int(g, -1, 1);
    add_slab(A, ct->c, top - cc_rand_int(g, 1, 4), top);
    add_slab(B, ct->c, top + t, top + t + cc_rand_int(g, 1, 4));
    return t < 0 ? HS_OVERLAP : t == 0 ? HS_TOUCHING : HS_DISJOINT;
}

/* Slabs along independent normals always overlap. */
static int crossing_slabs(uint64_t *g, const contact *ct, cc_rows *A, cc_rows *B)
{
    double d[CC_MAX_DIM];
    if (pick_other_normal(g, ct, d) != 0)
        return -1;
    double u = cc_dot(ct->n, ct->c, ct->p), v = cc_dot(ct->n, d, ct->p);
    add_slab(A, ct->c, u, u + cc_rand_int(g, 1, 4));
    add_slab(B, d, v - cc_rand_int(g, 1, 4), v);
    return 0;
}

/* Two half-spaces along c (variant 0: facing, touching; 1: same side;
 * 2: facing, apart); returns the class. */
static int half_spaces(uint64_t *g, int variant, const contact *ct, cc_rows *A, cc_rows *B)
{
    double beta = cc_dot(ct->n, ct->c, ct->p), neg[CC_MAX_DIM];
    cc_scale_vec(ct->n, -1.0, ct->c, neg);
    cc_rows_add(A, ct->c, beta, 0);
    if (variant == 1) {
        cc_rows_add_scaled(B, cc_pick_scale(g), ct->c, beta + cc_rand_int(g, -3, 3), 0);
        return HS_OVERLAP;
    }
    double gap = variant == 0 ? 0 : cc_rand_int(g, 1, 3);
    cc_rows_add_scaled(B, cc_pick_scale(g), neg, -beta - gap, 0);
    return variant == 0 ? HS_TOUCHING : HS_DISJOINT;
}

/* The rows of unbounded variant `variant`; returns its class, CC_UNKNOWN,
 * or CC_DRAW_FAILED. */
static int unbounded_variant(uint64_t *g, int variant, int n, crosscheck_instance *inst,
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
        fam_general(g, n, cc_rand_int(g, 1, n), inst, A, B);
        return CC_UNKNOWN;
    }
}

/* Only the family's own rows (no random ones): half-spaces, slabs,
 * uncapped cones and wedges, and systems of at most n random rows. */
static int fam_unbounded(uint64_t *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                         cc_rows *B)
{
    static const char *const names[8] = {
        "half-spaces facing, touching", "half-spaces on one side", "half-spaces facing, apart",
        "parallel slabs", "crossing slabs", "uncapped cone on a half-space",
        "uncapped wedges edge to edge", "few random rows"};
    (void)m;
    int variant = cc_rand_int(g, 0, 7);
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
static void flat_on_facet(uint64_t *g, int n, int m, contact *ct, cc_rows *A, cc_rows *B,
                          int as_eq, double offset)
{
    contact_init(ct, g, n);
    add_facet(A, ct, 1.0);
    cc_add_plane(B, g, ct->c, cc_plane_value(B, ct->c, ct->p, offset), as_eq);
    cc_add_strict_rows(A, g, m, ct->p);
    cc_add_strict_rows(B, g, m, ct->p);
}

static int fam_tiny_gap(uint64_t *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                        cc_rows *B)
{
    static const char *const names[2][4] = {
        {"facets 2^-40 apart", "vertex 2^-40 off the facet", "edges 2^-40 apart",
         "flat piece 2^-40 off the facet"},
        {"facets overlapping by 2^-40", "vertex 2^-40 into the facet",
         "edges overlapping by 2^-40", "flat piece 2^-40 inside"}};
    int base = cc_rand_int(g, 0, 3), closer = cc_rand_coin(g);
    if (base == 2 && n == 1)
        base = 0;
    contact ct;
    if (base == 3)
        flat_on_facet(g, n, m, &ct, A, B, cc_rand_coin(g), 0.0);
    else if (build_contact(g, n, m, (contact_kind)base, 1, &ct, A, B) < 0)
        return -1;
    cc_rows_translate(B, ldexp(closer ? -1.0 : 1.0, CC_TINY_EXP), ct.c);
    inst->variant = names[closer][base];
    inst->expected = closer ? HS_OVERLAP : HS_DISJOINT;
    return 0;
}

/* A below c.(x - p) = 0 and cut down to the plane d.x = d.p; B above. */
static int flat_edge_on_facet(uint64_t *g, int n, int m, cc_rows *A, cc_rows *B)
{
    contact ct;
    double d[CC_MAX_DIM];
    contact_init(&ct, g, n);
    if (pick_other_normal(g, &ct, d) != 0)
        return -1;
    add_facet(A, &ct, 1.0);
    cc_add_plane(A, g, d, cc_dot(n, d, ct.p), cc_rand_coin(g));
    add_facet(B, &ct, -1.0);
    cc_add_strict_rows(A, g, m, ct.p);
    cc_add_strict_rows(B, g, m, ct.p);
    return 0;
}

/* Flat pieces through p: of B only (A has p inside) or of both. */
static void flats_through(uint64_t *g, int n, int m, cc_rows *A, cc_rows *B, int both, int as_eq)
{
    contact ct;
    double d[CC_MAX_DIM];
    contact_init(&ct, g, n);
    cc_rand_vec(g, n, -3, 3, d);
    if (both)
        cc_add_plane(A, g, ct.c, cc_dot(n, ct.c, ct.p), cc_rand_coin(g));
    cc_add_plane(B, g, d, cc_dot(n, d, ct.p), as_eq);
    cc_add_strict_rows(A, g, m, ct.p);
    cc_add_strict_rows(B, g, m, ct.p);
}

static int fam_lower_dim(uint64_t *g, int n, int m, crosscheck_instance *inst, cc_rows *A,
                         cc_rows *B)
{
    static const char *const names[7] = {
        "flat piece (equality) on a facet", "flat piece (two rows) on a facet",
        "flat piece (equality) through A", "flat piece (two rows) through A",
        "two flat pieces crossing", "flat piece beside a facet",
        "flat A with an edge on B's facet"};
    static const int expect[7] = {HS_TOUCHING, HS_TOUCHING, HS_OVERLAP, HS_OVERLAP,
                                  HS_OVERLAP,  HS_DISJOINT, HS_TOUCHING};
    int variant = cc_rand_int(g, 0, 6);
    if (variant == 6 && n == 1)
        variant = 0;
    contact ct;
    if (variant <= 1)
        flat_on_facet(g, n, m, &ct, A, B, variant == 0, 0.0);
    else if (variant == 5)
        flat_on_facet(g, n, m, &ct, A, B, cc_rand_coin(g), cc_rand_int(g, 1, 3));
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
static hs_code make_polys(crosscheck_instance *inst, cc_rows *A, cc_rows *B, uint64_t *g,
                          hs_error *err)
{
    hs_error local;
    hs_error *e = err ? err : &local;
    inst->A = cc_rows_to_poly(A, g, e);
    inst->B = inst->A ? cc_rows_to_poly(B, g, e) : NULL;
    if (inst->B)
        return HS_OK;
    crosscheck_instance_free(inst);
    return e->code;
}

/* One attempt at the instance; *drawn stays 0 when the construction did
 * not work out and has to be drawn again. */
static hs_code draw_once(uint64_t *g, cc_family family, int n, int rows,
                         crosscheck_instance *inst, int *drawn, hs_error *err)
{
    cc_rows A, B;
    cc_rows_init(&A, n);
    cc_rows_init(&B, n);
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
    cc_rows_free(&A);
    cc_rows_free(&B);
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
    uint64_t g = instance_stream(seed, index);
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

