/* test_fast_support.c -- the rows at a polyhedron's extreme vertex per
 * direction cell (solver/fast_support.c): on hulls of random points on a
 * lopsided egg (rounded facets: vertices in clusters a rounding apart, an
 * interior point off the middle) every row listed is tight at the exact extreme
 * vertex along the cell's center and every tight row the map's list does
 * not hold near its front is listed; a cell is made once and read back
 * the same; two threads that race make the same rows; out-of-range cells
 * list nothing; and queries on such hulls answer as the exact engine
 * does, nearly all disjoint ones in the first round of the LP. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/fast_prep.h"
#include "solver/fast_support.h"
#include "solver/seidel.h"
#include "solver/vertices.h"
#include "tests/helpers.h"

/* The hull of npts random points on a lopsided egg around c (half an
 * ellipsoid of semi-axes 1, 0.8 and 0.6 joined to one of 0.4, 0.8 and
 * 0.6, the points crowded towards one pole): its rows as a polyhedron
 * (about two facets a point, with an interior point far from the middle
 * of most of them, as on the hull of a real mesh). */
static hs_poly *cloud_hull(int npts, const double *c, uint64_t *rng)
{
    double *pts = malloc(sizeof(double) * 3 * (size_t)npts);
    for (int i = 0; i < npts; i++) {
        double u[3], len;
        do {
            for (int j = 0; j < 3; j++)
                u[j] = t_rng_sym(rng);
            if (i % 2)
                u[0] = fabs(u[0]); /* (half the points on the big half) */
            len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        } while (len < 0.1 || len > 1);
        double ax = u[0] > 0 ? 1 : 0.4;
        pts[3 * i] = c[0] + ax * u[0] / len;
        pts[3 * i + 1] = c[1] + 0.8 * u[1] / len;
        pts[3 * i + 2] = c[2] + 0.6 * u[2] / len;
    }
    hs_poly *P = t_hull_poly(pts, npts);
    free(pts);
    return P;
}

static const fast_prep *ready_prep(const hs_poly *P)
{
    const fast_prep *fp = t_ready_prep(P);
    ck_assert_int_gt(fp->map_cells, 0);
    return fp;
}

/* |a . x - b| within rel of the row's magnitude at x. */
static int tight_at(const hs_poly *P, int i, const double *x, double rel)
{
    const double *a = P->a + 3 * (size_t)i;
    double t0 = a[0] * x[0], t1 = a[1] * x[1], t2 = a[2] * x[2];
    double scale = fabs(P->b[i]) + fabs(t0) + fabs(t1) + fabs(t2);
    return fabs(P->b[i] - (t0 + t1 + t2)) <= rel * scale;
}

/* Cell by cell: what fast_support_rows lists against the exact vertices.
 * Returns how many cells were checked (those with a single extreme
 * cluster). */
static int check_cells(const hs_poly *P)
{
    const fast_prep *fp = ready_prep(P);
    vertex_set *vs = t_vertices(P, fp->center);
    seidel_work *sw = seidel_work_new();
    int *scratch = malloc(sizeof(int) * (size_t)P->m), checked = 0;
    ck_assert_ptr_nonnull(sw);
    for (int cell = 0; cell < fp->map_cells; cell++) {
        double e[3];
        fast_prep_cell_center(3, fp->map_g, cell, e);
        /* the extreme cluster: vertices within 1e-9 of the best along e */
        double best = -INFINITY, span = 0;
        for (int v = 0; v < vs->nverts; v++)
            best = fmax(best, e[0] * vs->x[3 * v] + e[1] * vs->x[3 * v + 1] +
                                  e[2] * vs->x[3 * v + 2]);
        int first = -1;
        unsigned char *tight = calloc((size_t)P->m, 1);
        for (int v = 0; v < vs->nverts; v++) {
            const double *x = vs->x + 3 * v;
            if (e[0] * x[0] + e[1] * x[1] + e[2] * x[2] < best - 1e-9 * (1 + fabs(best)))
                continue;
            if (first < 0)
                first = v;
            for (int j = 0; j < 3; j++)
                span = fmax(span, fabs(x[j] - vs->x[3 * first + j]));
            for (int t = vs->tight_start[v]; t < vs->tight_start[v + 1]; t++)
                tight[vs->tight[t]] = 1;
        }
        int rows[FAST_SUPPORT_MAX], again[FAST_SUPPORT_MAX];
        int count = fast_support_rows(fp, cell, sw, scratch, rows);
        ck_assert(count >= 0 && count <= FAST_SUPPORT_MAX);
        ck_assert_int_eq(fast_support_rows(fp, cell, sw, scratch, again), count);
        ck_assert(memcmp(rows, again, sizeof(int) * (size_t)count) == 0);
        if (span > 1e-6) { /* an edge or a face along e: the LP picks one end */
            free(tight);
            continue;
        }
        checked++;
        int seen_count = 0;
        const int *seen = fast_prep_list(fp, cell, &seen_count);
        seen_count = seen_count < FAST_SUPPORT_SEEN ? seen_count : FAST_SUPPORT_SEEN;
        for (int c = 0; c < count; c++) {
            ck_assert(rows[c] >= 0 && rows[c] < P->m);
            for (int s = 0; s < seen_count; s++)
                EXPECT(rows[c] != seen[s], "cell %d lists row %d, which its map list holds",
                       cell, rows[c]);
            EXPECT(tight_at(P, rows[c], vs->x + 3 * first, 1e-8),
                   "cell %d lists row %d, not tight at the extreme vertex", cell, rows[c]);
        }
        if (count < FAST_SUPPORT_MAX) /* not cut short: every tight row not seen */
            for (int i = 0; i < P->m; i++) {
                int listed = 0, in_seen = 0;
                for (int c = 0; c < count; c++)
                    listed |= rows[c] == i;
                for (int s = 0; s < seen_count; s++)
                    in_seen |= seen[s] == i;
                EXPECT(!tight[i] || listed || in_seen,
                       "cell %d misses row %d, tight at the extreme vertex", cell, i);
            }
        free(tight);
    }
    free(scratch);
    seidel_work_free(sw);
    vertex_set_free(vs);
    return checked;
}

START_TEST(rows_are_those_at_the_extreme_vertex)
{
    uint64_t rng = 0xfa57500ULL + (uint64_t)_i;
    double c[3] = {t_rng_sym(&rng) * 100, t_rng_sym(&rng), 0.25};
    hs_poly *P = cloud_hull(40 + 30 * _i, c, &rng);
    const fast_prep *fp = ready_prep(P);
    int checked = check_cells(P);
    EXPECT(2 * checked >= fp->map_cells, "only %d of %d cells had one extreme vertex", checked,
           fp->map_cells);
    hs_poly_free(P);
}
END_TEST

/* On a polyhedron tangent to a sphere, the extreme vertex's rows are the
 * ones the ray crosses first: most cells list nothing to add. */
START_TEST(round_body_adds_little)
{
    uint64_t rng = 0x5a11ULL;
    double c[3] = {0, 0, 0};
    hs_poly *P = t_ellipsoid_rows(60, 1, c, 1, &rng);
    const fast_prep *fp = ready_prep(P);
    check_cells(P);
    seidel_work *sw = seidel_work_new();
    int *scratch = malloc(sizeof(int) * (size_t)P->m), rows[FAST_SUPPORT_MAX], total = 0;
    for (int cell = 0; cell < fp->map_cells; cell++)
        total += fast_support_rows(fp, cell, sw, scratch, rows);
    EXPECT(total <= fp->map_cells, "%d rows over %d cells", total, fp->map_cells);
    /* out of range, or a polyhedron without a map: nothing */
    ck_assert_int_eq(fast_support_rows(fp, -1, sw, scratch, rows), 0);
    ck_assert_int_eq(fast_support_rows(fp, fp->map_cells, sw, scratch, rows), 0);
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    hs_poly *box = t_box_poly(3, lo, hi);
    const fast_prep *bp = NULL;
    ck_assert_int_eq(fast_prep_get(box, &bp, NULL), 0);
    ck_assert_int_eq(fast_support_rows(bp, 0, sw, scratch, rows), 0);
    hs_poly_free(box);
    free(scratch);
    seidel_work_free(sw);
    hs_poly_free(P);
}
END_TEST

typedef struct race {
    const fast_prep *fp;
    int reverse;
    int *rows; /* map_cells * (1 + FAST_SUPPORT_MAX): count, then rows */
} race;

static void *race_run(void *arg)
{
    race *r = arg;
    seidel_work *sw = seidel_work_new();
    int *scratch = malloc(sizeof(int) * (size_t)r->fp->m), cells = r->fp->map_cells;
    for (int k = 0; k < cells; k++) {
        int cell = r->reverse ? cells - 1 - k : k;
        int *out = r->rows + (size_t)cell * (1 + FAST_SUPPORT_MAX);
        out[0] = fast_support_rows(r->fp, cell, sw, scratch, out + 1);
    }
    free(scratch);
    seidel_work_free(sw);
    return NULL;
}

START_TEST(threads_make_the_same_rows)
{
    uint64_t rng = 0x7ace5ULL;
    double c[3] = {3, -2, 1};
    hs_poly *P = cloud_hull(120, c, &rng);
    const fast_prep *fp = ready_prep(P);
    size_t each = (size_t)fp->map_cells * (1 + FAST_SUPPORT_MAX);
    race r[2] = {{fp, 0, calloc(each, sizeof(int))}, {fp, 1, calloc(each, sizeof(int))}};
    pthread_t t[2];
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(pthread_create(&t[k], NULL, race_run, &r[k]), 0);
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    ck_assert(memcmp(r[0].rows, r[1].rows, each * sizeof(int)) == 0);
    free(r[0].rows);
    free(r[1].rows);
    hs_poly_free(P);
}
END_TEST

/* Pairs of lopsided hulls at random offsets: the fast engine answers as
 * the exact one, and with the extreme vertices' rows in its first set
 * nearly every disjoint pair is certified in the LP's first round. */
START_TEST(hull_pairs_answer_as_exact)
{
    uint64_t rng = 0x4a11ULL;
    hs_options fast, exact;
    char *trace = t_traced_options(&fast);
    hs_options_init(&exact);
    exact.engine = HS_ENGINE_EXACT;
    hs_result *r = hs_result_new(), *x = hs_result_new();
    int disjoint = 0, first_round = 0;
    for (int k = 0; k < 60; k++) {
        double ca[3] = {0, 0, 0}, cb[3];
        for (int j = 0; j < 3; j++)
            cb[j] = 1.6 * t_rng_sym(&rng);
        hs_poly *A = cloud_hull(100, ca, &rng), *B = cloud_hull(100, cb, &rng);
        hs_error err;
        trace[0] = 0;
        ck_assert_int_eq(hs_intersect(A, B, &fast, r, &err), HS_OK);
        ck_assert_int_eq(hs_intersect(A, B, &exact, x, &err), HS_OK);
        ck_assert_int_eq(hs_result_status(r), hs_result_status(x));
        ck_assert_int_eq(hs_result_fallback(r), 0);
        if (hs_result_status(r) == HS_DISJOINT && strstr(trace, "dual simplex")) {
            disjoint++;
            first_round += strstr(trace, "dual simplex: 1 rounds") != NULL;
        }
        hs_poly_free(A);
        hs_poly_free(B);
    }
    EXPECT(disjoint >= 10, "only %d disjoint pairs reached the LP", disjoint);
    /* (35 of 36 here, hulls of about 196 rows; 23 without the extreme
     * vertices' rows) */
    EXPECT(10 * first_round >= 9 * disjoint, "%d of %d disjoint pairs certified in the first round",
           first_round, disjoint);
    hs_result_free(r);
    hs_result_free(x);
    free(trace);
}
END_TEST

Suite *suite_fast_support(void)
{
    Suite *s = suite_create("fast_support");
    TCase *tc = tcase_create("fast_support");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, rows_are_those_at_the_extreme_vertex, 0, 4);
    tcase_add_test(tc, round_body_adds_little);
    tcase_add_test(tc, threads_make_the_same_rows);
    tcase_add_test(tc, hull_pairs_answer_as_exact);
    suite_add_tcase(s, tc);
    return s;
}
