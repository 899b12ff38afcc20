/* test_broadphase.c -- the broad phase: the tree, the grid and the raw
 * method report exactly the pairs a brute-force scan finds, after random
 * insertions, removals and updates of awkward boxes (touching, equal,
 * points, flat, huge, unbounded, negative); queries; counts; misuse; the
 * balance and rebuilding of the tree; big items of the grid; readers on
 * several threads; everything moving fast and one item travelling; and a
 * 10k stress comparing tree and grid (with a timing print, never
 * asserted). */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "src/broadphase/bp_impl.h"
#include "tests/helpers.h"

/* Check records every assertion that passes, which is slow in hot loops;
 * these loops call must(), which only involves Check on failure. */
static void must(int ok, const char *what, int a, int b)
{
    if (!ok)
        ck_abort_msg("%s (%d, %d)", what, a, b);
}

static const hs_broadphase methods[3] = {HS_BROAD_TREE, HS_BROAD_GRID, HS_BROAD_RAW};
static const char *const method_names[3] = {"tree", "grid", "raw"};

/* ---------------------------------------------------------------- random numbers */

typedef struct rng {
    uint64_t s;
} rng;

static double uniform(rng *r)
{
    r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(r->s >> 11) * 0x1p-53;
}

static int below(rng *r, int n)
{
    return (int)(uniform(r) * n);
}

/* A multiple of 1/4 in [a, b]: coordinates that often coincide exactly. */
static double quarter(rng *r, double a, double b)
{
    return a + floor(uniform(r) * ((b - a) * 4 + 1)) / 4;
}

/* ---------------------------------------------------------------- pair lists */

typedef struct pairlist {
    int64_t *v;
    int n, cap;
} pairlist;

static void pair_add(void *user, int a, int b)
{
    pairlist *p = user;
    must(a < b, "pair not in order", a, b);
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 256;
        p->v = realloc(p->v, sizeof(int64_t) * (size_t)p->cap);
        must(p->v != NULL, "out of memory", p->cap, 0);
    }
    p->v[p->n++] = (int64_t)a << 32 | (uint32_t)b;
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static void pair_sort(pairlist *p)
{
    if (p->n > 1)
        qsort(p->v, (size_t)p->n, sizeof(int64_t), cmp_i64);
    for (int i = 1; i < p->n; i++)
        must(p->v[i - 1] != p->v[i], "pair reported twice", (int)(p->v[i] >> 32),
             (int)(uint32_t)p->v[i]);
}

static void assert_same_pairs(pairlist *got, pairlist *want, const char *what)
{
    pair_sort(got);
    pair_sort(want);
    for (int i = 0; i < got->n && i < want->n; i++)
        if (got->v[i] != want->v[i])
            ck_abort_msg("%s: pair %d differs: (%d, %d) vs (%d, %d)", what, i,
                         (int)(got->v[i] >> 32), (int)(uint32_t)got->v[i],
                         (int)(want->v[i] >> 32), (int)(uint32_t)want->v[i]);
    ck_assert_msg(got->n == want->n, "%s: %d pairs, expected %d", what, got->n, want->n);
}

/* ---------------------------------------------------------------- the mirror */

/* What the structures should hold: boxes by id. */
typedef struct mirror {
    bp_box *box;
    char *present;
    int n;
} mirror;

static mirror mirror_new(int n)
{
    mirror m = {calloc((size_t)n, sizeof(bp_box)), calloc((size_t)n, 1), n};
    ck_assert(m.box && m.present);
    return m;
}

static void mirror_free(mirror *m)
{
    free(m->box);
    free(m->present);
}

static int mirror_count(const mirror *m)
{
    int c = 0;
    for (int i = 0; i < m->n; i++)
        c += m->present[i];
    return c;
}

static void brute_pairs(const mirror *m, pairlist *out)
{
    for (int i = 0; i < m->n; i++)
        for (int j = i + 1; j < m->n; j++)
            if (m->present[i] && m->present[j] && bp_box_overlap(&m->box[i], &m->box[j]))
                pair_add(out, i, j);
}

/* ---------------------------------------------------------------- awkward boxes */

static void small_box(rng *r, bp_box *b, double size)
{
    for (int k = 0; k < 3; k++) {
        b->lo[k] = quarter(r, -8, 8);
        b->hi[k] = b->lo[k] + quarter(r, 0, size);
    }
}

/* Mostly small boxes on a quarter lattice (so many touch or coincide),
 * and now and then a point, a flat box, a copy of a present box, a huge
 * floor or an unbounded slab. */
static void awkward_box(rng *r, const mirror *m, bp_box *b)
{
    int kind = below(r, 100);
    if (kind < 60) {
        small_box(r, b, 2);
    } else if (kind < 68) {
        small_box(r, b, 0); /* a point */
    } else if (kind < 76) {
        small_box(r, b, 3);
        int k = below(r, 3); /* flat across axis k */
        b->hi[k] = b->lo[k];
    } else if (kind < 86) {
        int id = below(r, m->n);
        if (m->present[id])
            *b = m->box[id];
        else
            small_box(r, b, 1);
    } else if (kind < 92) {
        small_box(r, b, 12);
    } else if (kind < 97) {
        double top = quarter(r, -3, 3);
        *b = (bp_box){{-1000, -1000, top - 1}, {1000, 1000, top}}; /* a floor */
    } else {
        double top = quarter(r, -3, 3);
        *b = (bp_box){{-INFINITY, -INFINITY, -INFINITY}, {INFINITY, INFINITY, top}};
    }
}

/* The box moved by a quarter along one axis, or a fresh box. */
static void moved_box(rng *r, const mirror *m, const bp_box *old, bp_box *b)
{
    if (below(r, 4) == 0) {
        awkward_box(r, m, b);
        return;
    }
    *b = *old;
    int k = below(r, 3);
    double d = below(r, 2) ? 0.25 : -0.25;
    b->lo[k] += d;
    b->hi[k] += d;
}

/* ---------------------------------------------------------------- checks */

static void check_pairs(const broadphase *bp, const mirror *m, const char *what)
{
    pairlist got = {0}, want = {0};
    bp_pairs(bp, pair_add, &got);
    brute_pairs(m, &want);
    assert_same_pairs(&got, &want, what);
    ck_assert_int_eq(bp_count(bp), mirror_count(m));
    free(got.v);
    free(want.v);
}

typedef struct itemlist {
    int *ids;
    int n;
} itemlist;

static void item_add(void *user, int id)
{
    itemlist *l = user;
    l->ids[l->n++] = id;
}

static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

static void check_query(const broadphase *bp, const mirror *m, const bp_box *q)
{
    itemlist got = {calloc((size_t)m->n + 1, sizeof(int)), 0};
    ck_assert_ptr_nonnull(got.ids);
    bp_query(bp, q->lo, q->hi, item_add, &got);
    qsort(got.ids, (size_t)got.n, sizeof(int), cmp_int);
    int k = 0;
    for (int id = 0; id < m->n; id++) {
        if (!m->present[id] || !bp_box_overlap(&m->box[id], q))
            continue;
        must(k < got.n && got.ids[k] == id, "query misses item", id, k);
        k++;
    }
    ck_assert_int_eq(k, got.n);
    free(got.ids);
}

/* One random step: insert an absent id, remove or update a present one. */
static void random_step(broadphase *bp, mirror *m, rng *r)
{
    int id = below(r, m->n);
    bp_box b;
    if (!m->present[id]) {
        awkward_box(r, m, &b);
        must(bp_insert(bp, id, b.lo, b.hi) == 0, "insert failed", id, 0);
        m->box[id] = b;
        m->present[id] = 1;
    } else if (below(r, 5) == 0) {
        bp_remove(bp, id);
        m->present[id] = 0;
    } else {
        moved_box(r, m, &m->box[id], &b);
        must(bp_update(bp, id, b.lo, b.hi) == 0, "update failed", id, 0);
        m->box[id] = b;
    }
}

static void run_random_session(hs_broadphase method, uint64_t seed, int ids, int steps)
{
    rng r = {seed};
    mirror m = mirror_new(ids);
    broadphase *bp = bp_new(method);
    ck_assert_ptr_nonnull(bp);
    char what[64];
    for (int s = 1; s <= steps; s++) {
        random_step(bp, &m, &r);
        if (s % 97 == 0 || s == steps) {
            snprintf(what, sizeof what, "%s seed %d step %d", method_names[method],
                     (int)seed, s);
            check_pairs(bp, &m, what);
            bp_box q;
            awkward_box(&r, &m, &q);
            check_query(bp, &m, &q);
        }
    }
    bp_free(bp);
    mirror_free(&m);
}

/* ---------------------------------------------------------------- tests */

START_TEST(random_sessions_match_brute_force)
{
    for (uint64_t seed = 1; seed <= 4; seed++)
        run_random_session(methods[_i], seed, 40 + 90 * (int)seed, 1500);
}
END_TEST

START_TEST(touching_boxes_overlap)
{
    broadphase *bp = bp_new(methods[_i]);
    double lo0[3] = {0, 0, 0}, hi0[3] = {1, 1, 1};
    double lo1[3] = {1, 0, 0}, hi1[3] = {2, 1, 1};  /* shares a face */
    double lo2[3] = {2, 1, 1}, hi2[3] = {3, 2, 2};  /* touches 1 along an edge */
    double lo3[3] = {-1, -1, -1}, hi3[3] = {0, 0, 0}; /* touches 0 at a corner */
    double lo4[3] = {0.5, 0.5, 0.5}, hi4[3] = {0.5, 0.5, 0.5}; /* a point inside 0 */
    double lo5[3] = {5, 5, 5}, hi5[3] = {6, 6, 6}; /* alone */
    ck_assert_int_eq(bp_insert(bp, 10, lo0, hi0), 0);
    ck_assert_int_eq(bp_insert(bp, 11, lo1, hi1), 0);
    ck_assert_int_eq(bp_insert(bp, 12, lo2, hi2), 0);
    ck_assert_int_eq(bp_insert(bp, 3, lo3, hi3), 0);
    ck_assert_int_eq(bp_insert(bp, 4, lo4, hi4), 0);
    ck_assert_int_eq(bp_insert(bp, 5, lo5, hi5), 0);
    pairlist got = {0}, want = {0};
    bp_pairs(bp, pair_add, &got);
    pair_add(&want, 10, 11);
    pair_add(&want, 11, 12);
    pair_add(&want, 3, 10);
    pair_add(&want, 4, 10);
    assert_same_pairs(&got, &want, method_names[_i]);
    ck_assert_int_eq(bp_count(bp), 6);
    free(got.v);
    free(want.v);
    bp_free(bp);
}
END_TEST

START_TEST(misuse_is_refused_or_harmless)
{
    broadphase *bp = bp_new(methods[_i]);
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, bad[3] = {0, NAN, 0}, low[3] = {-1, 0, 0};
    ck_assert_int_eq(bp_insert(bp, 7, lo, hi), 0);
    ck_assert_int_eq(bp_insert(bp, 7, lo, hi), -1); /* twice */
    ck_assert_int_eq(bp_insert(bp, -1, lo, hi), -1);
    ck_assert_int_eq(bp_insert(bp, 8, lo, bad), -1);
    ck_assert_int_eq(bp_insert(bp, 8, lo, low), -1); /* lo > hi */
    ck_assert_int_eq(bp_update(bp, 8, lo, hi), -1);  /* absent */
    ck_assert_int_eq(bp_update(bp, 7, bad, hi), -1);
    bp_remove(bp, 8);
    bp_remove(bp, 123456);
    bp_remove(bp, -5);
    ck_assert_int_eq(bp_count(bp), 1);
    bp_remove(bp, 7);
    bp_remove(bp, 7);
    ck_assert_int_eq(bp_count(bp), 0);
    pairlist got = {0};
    bp_pairs(bp, pair_add, &got);
    ck_assert_int_eq(got.n, 0);
    ck_assert_int_eq(bp_insert(bp, 7, lo, hi), 0); /* back again */
    ck_assert_int_eq(bp_count(bp), 1);
    int ids[2] = {-1, -1};
    itemlist found = {ids, 0};
    double qlo[3] = {1, 1, 1}, qhi[3] = {2, 2, 2}, far_lo[3] = {1.5, 0, 0};
    bp_query(bp, qlo, qhi, item_add, &found); /* touches the corner */
    ck_assert_int_eq(found.n, 1);
    ck_assert_int_eq(ids[0], 7);
    bp_query(bp, far_lo, qhi, item_add, &found);
    bp_query(bp, hi, lo, item_add, &found); /* an empty query box */
    ck_assert_int_eq(found.n, 1);
    bp_free(bp);
    bp_free(NULL);
}
END_TEST

START_TEST(unbounded_and_huge_items)
{
    broadphase *bp = bp_new(methods[_i]);
    mirror m = mirror_new(64);
    rng r = {99};
    for (int id = 0; id < 60; id++) {
        small_box(&r, &m.box[id], 2);
        m.present[id] = 1;
    }
    m.box[60] = (bp_box){{-INFINITY, -INFINITY, -INFINITY}, {INFINITY, INFINITY, 0}};
    m.box[61] = (bp_box){{-1e300, -1e300, 1}, {1e300, 1e300, 1e300}};
    m.box[62] = (bp_box){{-1e4, -1e4, -2}, {1e4, 1e4, -1}};
    m.box[63] = (bp_box){{-1e4, 3, -1e4}, {1e4, 3, 1e4}};
    m.present[60] = m.present[61] = m.present[62] = m.present[63] = 1;
    for (int id = 0; id < 64; id++)
        ck_assert_int_eq(bp_insert(bp, id, m.box[id].lo, m.box[id].hi), 0);
    check_pairs(bp, &m, method_names[_i]);
    /* the huge ones move, shrink and grow */
    for (int round = 0; round < 20; round++) {
        int id = 60 + round % 4;
        bp_box b = m.box[id];
        if (round % 3 == 0 && id > 61)
            small_box(&r, &b, 1);
        else if (id > 61)
            b.hi[2] += 0.5;
        ck_assert_int_eq(bp_update(bp, id, b.lo, b.hi), 0);
        m.box[id] = b;
        check_pairs(bp, &m, method_names[_i]);
    }
    bp_free(bp);
    mirror_free(&m);
}
END_TEST

/* ---------------------------------------------------------------- method internals */

static void check_tree(const bp_tree *t, const mirror *m, int height_bound, const char *what)
{
    int h = bp_tree_height(t);
    ck_assert_msg(h <= height_bound, "%s: height %d", what, h);
    ck_assert_int_eq(bp_tree_count(t), mirror_count(m));
    pairlist got = {0}, want = {0};
    bp_tree_pairs(t, pair_add, &got);
    brute_pairs(m, &want);
    assert_same_pairs(&got, &want, what);
    free(got.v);
    free(want.v);
}

static void tree_set(bp_tree *t, mirror *m, int id, const bp_box *b)
{
    int rc = m->present[id] ? bp_tree_update(t, id, b) : bp_tree_insert(t, id, b);
    must(rc == 0, "insert or update failed", id, 0);
    m->box[id] = *b;
    m->present[id] = 1;
}

/* Insertion in order along a line (the worst order for a naive tree),
 * removals, everybody moving far (the tree is rebuilt), and positions
 * spread exponentially (the rebuilding splits at medians). */
START_TEST(tree_stays_balanced)
{
    enum { N = 4096 };
    bp_tree *t = bp_tree_new();
    mirror m = mirror_new(N);
    for (int i = 0; i < N; i++)
        tree_set(t, &m, i, &(bp_box){{i, 0, 0}, {i + 0.5, 1, 1}});
    check_tree(t, &m, 2 * 12 + 2, "in a line");
    for (int i = 0; i < N; i += 2) {
        bp_tree_remove(t, i);
        m.present[i] = 0;
    }
    check_tree(t, &m, 2 * 11 + 2, "after removals");
    for (int i = 1; i < N; i += 2)
        tree_set(t, &m, i, &(bp_box){{-i, 5, 5}, {-i + 0.5, 6, 6}});
    check_tree(t, &m, 2 * 11 + 2, "after moving far");
    for (int round = 0; round < 2; round++)
        for (int i = 1; i < N; i += 2) {
            double x = pow(1.01, i) + round;
            tree_set(t, &m, i, &(bp_box){{x, 0, 0}, {x + 1, 1, 1}});
        }
    check_tree(t, &m, 2 * 11 + 2, "spread exponentially");
    bp_tree_free(t);
    mirror_free(&m);
}
END_TEST

START_TEST(grid_keeps_big_items_apart)
{
    bp_grid *g = bp_grid_new();
    ck_assert_ptr_nonnull(g);
    rng r = {5};
    for (int i = 0; i < 500; i++) {
        bp_box b;
        small_box(&r, &b, 1);
        must(bp_grid_insert(g, i, &b) == 0, "insert failed", i, 0);
    }
    bp_box floor_box = {{-1e6, -1e6, -1}, {1e6, 1e6, 0}};
    bp_box slab = {{-INFINITY, 0, 0}, {INFINITY, 1, 1}};
    ck_assert_int_eq(bp_grid_insert(g, 500, &floor_box), 0);
    ck_assert_int_eq(bp_grid_insert(g, 501, &slab), 0);
    ck_assert_int_eq(bp_grid_big_count(g), 2);
    /* the floor shrinks to an ordinary box: back into cells */
    bp_box small = {{0, 0, 0}, {1, 1, 1}};
    ck_assert_int_eq(bp_grid_update(g, 500, &small), 0);
    ck_assert_int_eq(bp_grid_big_count(g), 1);
    /* every item grows tenfold: the grid is rebuilt, nobody becomes big */
    for (int i = 0; i < 500; i++) {
        bp_box b;
        small_box(&r, &b, 10);
        must(bp_grid_update(g, i, &b) == 0, "update failed", i, 0);
    }
    ck_assert_int_eq(bp_grid_big_count(g), 1);
    bp_grid_remove(g, 501);
    ck_assert_int_eq(bp_grid_big_count(g), 0);
    ck_assert_int_eq(bp_grid_count(g), 501);
    bp_grid_free(g);
}
END_TEST

/* ---------------------------------------------------------------- threads */

typedef struct reader {
    const broadphase *bp;
    long pairs;
} reader;

static void count_pair(void *user, int a, int b)
{
    (void)a;
    (void)b;
    ++*(long *)user;
}

static void *read_pairs(void *arg)
{
    reader *rd = arg;
    for (int k = 0; k < 5; k++)
        bp_pairs(rd->bp, count_pair, &rd->pairs);
    return NULL;
}

START_TEST(readers_on_several_threads)
{
    broadphase *bp = bp_new(methods[_i]);
    rng r = {11};
    for (int i = 0; i < 800; i++) {
        bp_box b;
        small_box(&r, &b, 2);
        must(bp_insert(bp, i, b.lo, b.hi) == 0, "insert failed", i, 0);
    }
    long alone = 0;
    bp_pairs(bp, count_pair, &alone);
    reader rd[4];
    pthread_t th[4];
    for (int k = 0; k < 4; k++) {
        rd[k] = (reader){bp, 0};
        ck_assert_int_eq(pthread_create(&th[k], NULL, read_pairs, &rd[k]), 0);
    }
    for (int k = 0; k < 4; k++) {
        pthread_join(th[k], NULL);
        ck_assert_int_eq(rd[k].pairs, 5 * alone);
    }
    bp_free(bp);
}
END_TEST

/* ---------------------------------------------------------------- motion */

static void compare_with_raw(broadphase *const bp[3], const char *what)
{
    pairlist want = {0};
    bp_pairs(bp[2], pair_add, &want);
    for (int m = 0; m < 2; m++) {
        pairlist got = {0};
        bp_pairs(bp[m], pair_add, &got);
        assert_same_pairs(&got, &want, what);
        free(got.v);
    }
    free(want.v);
}

/* Everything moves by up to its own size at every step (the tree then
 * rebuilds itself), then only one item travels across the others (the
 * tree reinserts it); the three methods keep agreeing. */
START_TEST(fast_motion_keeps_methods_agreeing)
{
    enum { N = 1500 };
    rng r = {77};
    bp_box *box = malloc(sizeof(bp_box) * N);
    broadphase *bp[3];
    for (int m = 0; m < 3; m++)
        bp[m] = bp_new(methods[m]);
    for (int i = 0; i < N; i++) {
        small_box(&r, &box[i], 1.5);
        for (int m = 0; m < 3; m++)
            must(bp_insert(bp[m], i, box[i].lo, box[i].hi) == 0, "insert failed", i, m);
    }
    for (int step = 0; step < 12; step++) {
        for (int i = 0; i < N; i++) {
            for (int k = 0; k < 3; k++) {
                double d = quarter(&r, -1.5, 1.5);
                box[i].lo[k] += d;
                box[i].hi[k] += d;
            }
            for (int m = 0; m < 3; m++)
                must(bp_update(bp[m], i, box[i].lo, box[i].hi) == 0, "update failed", i, m);
        }
        compare_with_raw(bp, "everything moves");
    }
    for (int step = 0; step < 60; step++) {
        for (int k = 0; k < 3; k++) {
            box[0].lo[k] = -12 + 0.4 * step;
            box[0].hi[k] = box[0].lo[k] + 1;
        }
        for (int m = 0; m < 3; m++)
            must(bp_update(bp[m], 0, box[0].lo, box[0].hi) == 0, "update failed", 0, m);
        if (step % 6 == 5)
            compare_with_raw(bp, "one item travels");
    }
    for (int m = 0; m < 3; m++)
        bp_free(bp[m]);
    free(box);
}
END_TEST

/* ---------------------------------------------------------------- 10k stress */

/* n boxes of average size 1 in a cube of side 30. */
static void scatter(rng *r, bp_box *box, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            double size = 0.5 + uniform(r);
            box[i].lo[k] = 30 * uniform(r) - 15;
            box[i].hi[k] = box[i].lo[k] + size;
        }
}

static void nudge(rng *r, bp_box *box, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            double d = 0.02 * (uniform(r) - 0.5);
            box[i].lo[k] += d;
            box[i].hi[k] += d;
        }
}

START_TEST(stress_10k_tree_and_grid_agree)
{
    enum { N = 10000, STEPS = 3 };
    rng r = {2024};
    bp_box *box = malloc(sizeof(bp_box) * N);
    ck_assert_ptr_nonnull(box);
    scatter(&r, box, N);
    broadphase *tree = bp_new(HS_BROAD_TREE), *grid = bp_new(HS_BROAD_GRID);
    for (int i = 0; i < N; i++) {
        must(bp_insert(tree, i, box[i].lo, box[i].hi) == 0, "insert failed", i, 0);
        must(bp_insert(grid, i, box[i].lo, box[i].hi) == 0, "insert failed", i, 1);
    }
    double spent[2] = {0, 0};
    broadphase *both[2] = {tree, grid};
    for (int s = 0; s < STEPS; s++) {
        nudge(&r, box, N);
        pairlist got[2] = {{0}, {0}};
        for (int m = 0; m < 2; m++) {
            double t0 = t_seconds();
            for (int i = 0; i < N; i++)
                bp_update(both[m], i, box[i].lo, box[i].hi);
            bp_pairs(both[m], pair_add, &got[m]);
            spent[m] += t_seconds() - t0;
        }
        ck_assert_int_gt(got[0].n, N / 2);
        assert_same_pairs(&got[0], &got[1], "tree vs grid at 10k");
        free(got[0].v);
        free(got[1].v);
    }
    printf("broadphase 10k: update all + pairs: tree %.2f ms, grid %.2f ms per step\n",
           1e3 * spent[0] / STEPS, 1e3 * spent[1] / STEPS);
    bp_free(tree);
    bp_free(grid);
    free(box);
}
END_TEST

Suite *suite_broadphase(void)
{
    Suite *s = suite_create("broadphase");
    TCase *tc = tcase_create("broadphase");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, random_sessions_match_brute_force, 0, 3);
    tcase_add_loop_test(tc, touching_boxes_overlap, 0, 3);
    tcase_add_loop_test(tc, misuse_is_refused_or_harmless, 0, 3);
    tcase_add_loop_test(tc, unbounded_and_huge_items, 0, 3);
    tcase_add_test(tc, tree_stays_balanced);
    tcase_add_test(tc, grid_keeps_big_items_apart);
    tcase_add_loop_test(tc, readers_on_several_threads, 0, 3);
    tcase_add_test(tc, fast_motion_keeps_methods_agreeing);
    tcase_add_test(tc, stress_10k_tree_and_grid_agree);
    suite_add_tcase(s, tc);
    return s;
}
