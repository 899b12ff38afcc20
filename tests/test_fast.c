/* test_fast.c -- the fast engine: the same answers as the exact engine
 * (random and degenerate instances), certificates that verify, the exact
 * fallback and when it happens, the batch API, and memory that does not
 * grow over a million queries. */
#include <malloc.h>
#include <stdatomic.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "solver/crosscheck.h"
#include "solver/fast.h"
#include "solver/fast_prep.h"
#include "tests/helpers.h"

static hs_status run(hs_engine e, const hs_poly *A, const hs_poly *B, hs_result *r)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = e;
    hs_error err;
    hs_error_clear(&err);
    ck_assert_msg(hs_intersect(A, B, &opt, r, &err) == HS_OK, "%s", err.msg);
    return hs_result_status(r);
}

/* ------------------------------------------- random tangent polytopes */

static uint64_t state;
static double uniform(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(state >> 11) * 0x1p-53;
}

/* m tangent planes of the unit sphere around c, integer normals, dyadic
 * right sides (as bench/tangent.c does, smaller), into A (3 m) and b. */
static void tangent_rows(int m, const double *c, double *A, double *b)
{
    for (int i = 0; i < m; i++) {
        double u[3], n2;
        do {
            for (int j = 0; j < 3; j++)
                u[j] = floor(uniform() * 201) - 100;
            n2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
        } while (n2 == 0 || n2 > 10000);
        for (int j = 0; j < 3; j++)
            A[3 * i + j] = u[j];
        b[i] = ceil((sqrt(n2) + u[0] * c[0] + u[1] * c[1] + u[2] * c[2]) * 1024) / 1024;
    }
}

static hs_poly *tangent(int m, const double *c)
{
    double *A = malloc(sizeof(double) * 3 * (size_t)m), *b = malloc(sizeof(double) * (size_t)m);
    tangent_rows(m, c, A, b);
    return t_poly_from_owned(3, m, A, b, NULL);
}

START_TEST(agrees_with_exact_on_tangent_pairs)
{
    hs_result *rf = hs_result_new(), *rx = hs_result_new();
    int classes[6] = {0}, fallbacks = 0;
    state = 42;
    for (int k = 0; k < 300; k++) {
        double o[3] = {0, 0, 0}, c[3];
        double dist = 1.9 + 0.8 * uniform(), th = 6.283 * uniform(), z = 2 * uniform() - 1;
        c[0] = dist * sqrt(1 - z * z) * cos(th);
        c[1] = dist * sqrt(1 - z * z) * sin(th);
        c[2] = dist * z;
        for (int j = 0; j < 3; j++)
            c[j] = round(c[j] * 1024) / 1024;
        hs_poly *A = tangent(12 + k % 40, o), *B = tangent(12 + (7 * k) % 40, c);
        ck_assert(hs_poly_fast_ready(A, NULL) && hs_poly_fast_ready(B, NULL));
        hs_status f = run(HS_ENGINE_FAST, A, B, rf), x = run(HS_ENGINE_EXACT, A, B, rx);
        ck_assert_int_eq(f, x);
        hs_error err;
        ck_assert_msg(hs_result_verify(rf, A, B, &err) == HS_OK, "pair %d: %s", k, err.msg);
        if (f == HS_DISJOINT)
            ck_assert_int_le(hs_result_multiplier_count(rf), 4);
        classes[f]++;
        fallbacks += hs_result_fallback(rf);
        hs_poly_free(A);
        hs_poly_free(B);
    }
    ck_assert_msg(classes[HS_DISJOINT] > 50 && classes[HS_OVERLAP] > 50, /* both met */
                  "%d disjoint, %d overlap", classes[HS_DISJOINT], classes[HS_OVERLAP]);
    ck_assert_int_eq(fallbacks, 0); /* generic pairs never need the exact engine */
    hs_result_free(rf);
    hs_result_free(rx);
}
END_TEST

/* Every family of the crosscheck generator, in 1 to 5 dimensions. */
START_TEST(agrees_with_exact_on_degenerate_families)
{
    hs_result *rf = hs_result_new(), *rx = hs_result_new();
    long fallbacks = 0;
    for (long k = 0; k < 1500; k++) {
        crosscheck_instance inst;
        hs_error err;
        ck_assert_int_eq(crosscheck_generate(7, k, 0, 6, &inst, &err), HS_OK);
        hs_status f = run(HS_ENGINE_FAST, inst.A, inst.B, rf);
        ck_assert_int_eq(f, run(HS_ENGINE_EXACT, inst.A, inst.B, rx));
        ck_assert_msg(hs_result_verify(rf, inst.A, inst.B, &err) == HS_OK, "%ld (%s): %s", k,
                      inst.variant, err.msg);
        fallbacks += hs_result_fallback(rf);
        crosscheck_instance_free(&inst);
    }
    ck_assert(fallbacks > 0 && fallbacks < 1500); /* contacts fall back, the rest does not */
    hs_result_free(rf);
    hs_result_free(rx);
}
END_TEST

/* Boxes a hair apart, a hair overlapping, and touching are all certified
 * by the fast engine itself (touching: a basis of the margin LP proved
 * exactly, fast_touch.c), with no exact fallback. */
START_TEST(near_contact_and_contact)
{
    static const char *const cases[][3] = {
        {"1099511627777/1099511627776", "disjoint", "0"}, /* gap 2^-40 */
        {"1099511627775/1099511627776", "overlap", "0"},  /* overlap 2^-40 */
        {"1", "touching", "0"},
    };
    hs_result *r = hs_result_new();
    char a_text[4096];
    snprintf(a_text, sizeof a_text, "%s", t_box_text(3, "0", "1"));
    hs_poly *A = t_poly(a_text);
    hs_poly *B = t_poly(t_box_text(3, cases[_i][0], "2"));
    hs_status s = run(HS_ENGINE_FAST, A, B, r);
    ck_assert_str_eq(hs_status_name(s), cases[_i][1]);
    ck_assert_int_eq(hs_result_fallback(r), cases[_i][2][0] - '0');
    hs_error err;
    ck_assert_int_eq(hs_result_verify(r, A, B, &err), HS_OK);
    hs_poly_free(A);
    hs_poly_free(B);
    hs_result_free(r);
}
END_TEST

START_TEST(ineligible_inputs_use_the_exact_engine)
{
    const char *why = NULL;
    hs_poly *dec = t_poly("begin\n2 2 real\n0.3 -1\n0 1\nend\n"); /* 0 <= x <= 0.3 */
    ck_assert(!hs_poly_fast_ready(dec, &why));
    ck_assert_str_eq(why, "rows that are not exactly doubles");
    hs_poly *eq = t_poly("linearity 1 1\nbegin\n2 2 integer\n0 1\n1 1\nend\n");
    ck_assert(!hs_poly_fast_ready(eq, &why));
    ck_assert_str_eq(why, "equality rows");
    hs_poly *empty = t_example("basic/empty.ine");
    ck_assert(!hs_poly_fast_ready(empty, &why));
    hs_poly *seg = t_poly("begin\n2 2 integer\n1 -1\n0 1\nend\n"); /* 0 <= x <= 1 */
    ck_assert(hs_poly_fast_ready(seg, NULL));
    hs_result *r = hs_result_new();
    ck_assert_int_eq(run(HS_ENGINE_FAST, seg, dec, r), HS_OVERLAP);
    ck_assert(hs_result_fallback(r));
    hs_options opt;
    hs_options_init(&opt);
    hs_error err;
    ck_assert_int_eq(hs_feasible(empty, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_INFEASIBLE);
    ck_assert(hs_result_fallback(r));
    ck_assert_int_eq(hs_feasible(seg, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_FEASIBLE);
    ck_assert(!hs_result_fallback(r));
    ck_assert_int_eq(hs_result_verify(r, seg, NULL, &err), HS_OK);
    hs_poly_free(dec);
    hs_poly_free(eq);
    hs_poly_free(empty);
    hs_poly_free(seg);
    hs_result_free(r);
}
END_TEST

/* The certificate kept in double form reads, prints and verifies exactly. */
START_TEST(lazy_certificates_materialize)
{
    hs_poly *A = t_example("basic/unit_cube.ine"), *B = t_example("basic/cube_far.ine");
    hs_result *r = hs_result_new();
    ck_assert_int_eq(run(HS_ENGINE_FAST, A, B, r), HS_DISJOINT);
    ck_assert(!hs_result_fallback(r));
    int count = hs_result_multiplier_count(r);
    ck_assert(count >= 2 && count <= 4);
    int which, row;
    double v;
    char *exact = NULL;
    ck_assert_int_eq(hs_result_multiplier(r, 0, &which, &row, &v, &exact), HS_OK);
    ck_assert(v > 0 && exact && exact[0] != '-');
    hs_free(exact);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hs_error err;
    ck_assert_int_eq(hs_result_write_text(r, f, &err), HS_OK);
    fclose(f);
    static const char head[] = "disjoint\ncertificate farkas\nmultiplier ";
    ck_assert(strncmp(buf, head, sizeof head - 1) == 0);
    hs_result *back = hs_result_parse(buf, "cert", 3, &err);
    ck_assert(back != NULL);
    ck_assert_int_eq(hs_result_verify(back, A, B, &err), HS_OK);
    free(buf);
    hs_result_free(back);
    hs_poly_free(B);
    B = t_example("basic/cube_overlap.ine");
    ck_assert_int_eq(run(HS_ENGINE_FAST, A, B, r), HS_OVERLAP);
    double x[3];
    ck_assert_int_eq(hs_result_point(r, x), HS_OK);
    for (int j = 0; j < 3; j++)
        ck_assert(x[j] > 0.5 && x[j] < 1); /* strictly inside both */
    char *xs = hs_result_point_str(r, 0);
    ck_assert(xs != NULL);
    hs_free(xs);
    hs_poly_free(A);
    hs_poly_free(B);
    hs_result_free(r);
}
END_TEST

START_TEST(batch_matches_single_queries)
{
    enum { PAIRS = 64 };
    hs_poly *P[PAIRS + 1];
    const hs_poly *A[PAIRS], *B[PAIRS];
    state = 7;
    double o[3] = {0, 0, 0};
    P[0] = tangent(30, o);
    for (int k = 0; k < PAIRS; k++) {
        double c[3] = {round((1.5 + uniform()) * 1024) / 1024, 0, 0};
        P[k + 1] = tangent(20, c);
        A[k] = P[0];
        B[k] = P[k + 1];
    }
    hs_status st1[PAIRS], st2[PAIRS];
    hs_options opt;
    hs_options_init(&opt);
    hs_error err;
    ck_assert_int_eq(hs_intersect_batch(A, B, PAIRS, &opt, 1, st1, NULL, &err), HS_OK);
    ck_assert_int_eq(hs_intersect_batch(A, B, PAIRS, &opt, 3, st2, NULL, &err), HS_OK);
    hs_result *r = hs_result_new();
    for (int k = 0; k < PAIRS; k++) {
        ck_assert_int_eq(st1[k], run(HS_ENGINE_FAST, A[k], B[k], r));
        ck_assert_int_eq(st2[k], st1[k]);
    }
    hs_result_free(r);
    hs_poly *flat = t_poly("begin\n1 3 integer\n0 1 0\nend\n"); /* a pair of mismatched dims */
    B[5] = flat;
    ck_assert_int_eq(hs_intersect_batch(A, B, PAIRS, &opt, 2, st2, NULL, &err), HS_ERR_INPUT);
    ck_assert_msg(strncmp(err.msg, "pair 6: ", 8) == 0, "%s", err.msg);
    ck_assert_int_eq(st2[7], st1[7]); /* the others are still answered */
    ck_assert_int_eq(hs_intersect_batch(A, B, 0, &opt, 2, NULL, NULL, &err), HS_OK);
    hs_poly_free(flat);
    for (int k = 0; k <= PAIRS; k++)
        hs_poly_free(P[k]);
}
END_TEST

/* A million queries leave the heap exactly as the first ones left it:
 * the workspace is allocated once and reused.  (Under AddressSanitizer
 * mallinfo is not meaningful and the loop is shorter.) */
#if defined(__SANITIZE_ADDRESS__)
#define QUERIES 20000
#define HEAP_CHECK 0
#else
#define QUERIES 1000000
#define HEAP_CHECK 1
#endif
START_TEST(no_heap_growth_over_a_million_queries)
{
    state = 9;
    double o[3] = {0, 0, 0}, c1[3] = {1.75, 0.25, 0}, c2[3] = {4.5, 0.25, 0.5};
    hs_poly *A = tangent(16, o), *B = tangent(16, c1), *C = tangent(16, c2);
    hs_result *r = hs_result_new();
    hs_options opt;
    hs_options_init(&opt);
    hs_error err;
    for (int k = 0; k < 10; k++) { /* warm up: the workspace grows here */
        hs_intersect(A, B, &opt, r, &err);
        hs_intersect(A, C, &opt, r, &err);
    }
    /* no Check macro inside the loop: they record progress on the heap */
    long answers[6] = {0}, failures = 0;
    size_t before = mallinfo2().uordblks;
    for (long k = 0; k < QUERIES; k++) {
        failures += hs_intersect(A, (k & 1) ? B : C, &opt, r, &err) != HS_OK;
        answers[hs_result_status(r)]++;
    }
    size_t after = mallinfo2().uordblks;
    ck_assert_int_eq(failures, 0);
    if (HEAP_CHECK)
        ck_assert_msg(after == before, "heap in use grew from %zu to %zu bytes", before, after);
    ck_assert(answers[HS_OVERLAP] > 0 && answers[HS_DISJOINT] > 0);
    hs_poly_free(A);
    hs_poly_free(B);
    hs_poly_free(C);
    hs_result_free(r);
}
END_TEST

/* A unit box far from the origin (2^40, 2^48: its center's precision is
 * 2^-12 and 2^-4) is still fast-ready (its center LP is solved centred on
 * the box), and pairs of such boxes get exact, verified answers: face to
 * face touching, a gap of 2^-4, an overlap of 2^-4 (relative to the
 * coordinates these are near contacts, which the exact engine may settle). */
START_TEST(far_small_boxes_stay_fast)
{
    for (int e = 40; e <= 48; e += 8) {
        double L = ldexp(1, e), a[18] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
        double shift[3] = {1, 1 + 0x1p-4, 1 - 0x1p-4};
        hs_status want[3] = {HS_TOUCHING, HS_DISJOINT, HS_OVERLAP};
        double b[6] = {L + 1, -L, L + 1, -L, L + 1, -L};
        hs_error err;
        hs_poly *A = hs_poly_from_doubles(3, 6, a, b, NULL, &err);
        const char *why = NULL;
        ck_assert_msg(hs_poly_fast_ready(A, &why), "2^%d: %s", e, why ? why : "");
        hs_options opt;
        hs_options_init(&opt);
        hs_result *r = hs_result_new();
        for (int k = 0; k < 3; k++) {
            double c[6] = {L + 1 + shift[k], -(L + shift[k]), L + 1, -L, L + 1, -L};
            hs_poly *B = hs_poly_from_doubles(3, 6, a, c, NULL, &err);
            ck_assert_int_eq(hs_intersect(A, B, &opt, r, &err), HS_OK);
            ck_assert_int_eq(hs_result_status(r), want[k]);
            ck_assert_int_eq(hs_result_verify(r, A, B, &err), HS_OK);
            hs_poly_free(B);
        }
        hs_result_free(r);
        hs_poly_free(A);
    }
}
END_TEST

/* Unit rows (fast_prep.h): each row of a 3-D preparation divided by its
 * norm and rounded to float, within FAST_UNIT_REL of the quotient in every
 * entry; a row that float cannot hold (a nonzero entry below 2^-100 or
 * above 2^100 after the division) is all NaN. */
START_TEST(unit_rows_are_rounded_rows_or_nan)
{
    enum { M = 64 };
    double A[3 * M], b[M], c[3] = {0, 0, 0};
    state = 5;
    tangent_rows(M - 2, c, A, b);
    double tiny[3] = {0x1p-120, 1, 0}, huge[3] = {1, 0, 0};
    memcpy(A + 3 * (M - 2), tiny, sizeof tiny);
    b[M - 2] = 4;
    memcpy(A + 3 * (M - 1), huge, sizeof huge);
    b[M - 1] = 0x1p+110;
    hs_error err;
    hs_poly *P = hs_poly_from_doubles(3, M, A, b, NULL, &err);
    ck_assert_msg(P != NULL, "%s", err.msg);
    const fast_prep *fp = NULL;
    ck_assert_int_eq(fast_prep_get(P, &fp, NULL), 0);
    ck_assert_ptr_nonnull(fp);
    ck_assert_ptr_null(atomic_load(&((fast_prep *)fp)->unit)); /* (made on first use) */
    const float *unit = fast_prep_unit(fp);
    ck_assert_ptr_nonnull(unit);
    ck_assert_ptr_eq(fast_prep_unit(fp), unit);
    for (int i = 0; i < M; i++) {
        const float *u = unit + 4 * i;
        if (i >= M - 2) {
            for (int j = 0; j < 4; j++)
                ck_assert_msg(isnan(u[j]), "row %d entry %d: %g, not NaN", i, j, (double)u[j]);
            continue;
        }
        for (int j = 0; j < 4; j++) {
            double q = (j < 3 ? A[3 * i + j] : b[i]) / fp->norm[i];
            ck_assert_msg(fabs(u[j] - q) <= FAST_UNIT_REL * fabs(u[j]), "row %d entry %d", i, j);
        }
    }
    hs_poly_free(P);
}
END_TEST

/* Two tangent polytopes (m rows) cut by opposite rows through a common
 * point q: a face on a face (as bench/families.c builds them), with a far
 * row that unit rows cannot hold added to each.  The fast engine certifies
 * the contact without the exact engine (its row passes read unit rows and
 * ask the NaN rows in doubles), and the certificate verifies. */
START_TEST(contact_proof_reads_unit_rows)
{
    enum { M = 400 };
    static const double d[3] = {3, 4, 12}; /* |d| = 13 */
    double q[3], cB[3], o[3] = {0, 0, 0};
    for (int j = 0; j < 3; j++) {
        q[j] = round(0.7 * d[j] / 13 * 1024) / 1024;
        cB[j] = round((q[j] + 0.7 * d[j] / 13) * 1024) / 1024;
    }
    double dq = d[0] * q[0] + d[1] * q[1] + d[2] * q[2]; /* exact: dyadic */
    double A[3 * (M + 2)], bA[M + 2], B[3 * (M + 2)], bB[M + 2];
    state = 11;
    tangent_rows(M, o, A, bA);
    tangent_rows(M, cB, B, bB);
    for (int j = 0; j < 3; j++) {
        A[3 * M + j] = d[j];
        B[3 * M + j] = -d[j];
    }
    bA[M] = dq;
    bB[M] = -dq;
    double far[3] = {0x1p-120, 0, 1};
    memcpy(A + 3 * (M + 1), far, sizeof far);
    memcpy(B + 3 * (M + 1), far, sizeof far);
    bA[M + 1] = 0x1p+110;
    bB[M + 1] = 0x1p+110;
    hs_error err;
    hs_poly *PA = hs_poly_from_doubles(3, M + 2, A, bA, NULL, &err);
    hs_poly *PB = hs_poly_from_doubles(3, M + 2, B, bB, NULL, &err);
    ck_assert_ptr_nonnull(PA);
    ck_assert_ptr_nonnull(PB);
    hs_result *r = hs_result_new(), *x = hs_result_new();
    ck_assert_int_eq(run(HS_ENGINE_EXACT, PA, PB, x), HS_TOUCHING);
    ck_assert_int_eq(run(HS_ENGINE_FAST, PA, PB, r), HS_TOUCHING);
    ck_assert_int_eq(hs_result_fallback(r), 0);
    ck_assert_int_eq(hs_result_verify(r, PA, PB, &err), HS_OK);
    ck_assert_int_eq(run(HS_ENGINE_FAST, PB, PA, r), HS_TOUCHING);
    ck_assert_int_eq(hs_result_fallback(r), 0);
    ck_assert_int_eq(hs_result_verify(r, PB, PA, &err), HS_OK);
    hs_result_free(r);
    hs_result_free(x);
    hs_poly_free(PA);
    hs_poly_free(PB);
}
END_TEST

static hs_poly *box3(double x0, double x1, double y0, double y1, double z0, double z1)
{
    double a[18] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
    double b[6] = {x1, -x0, y1, -y0, z1, -z0};
    hs_error err;
    hs_poly *p = hs_poly_from_doubles(3, 6, a, b, NULL, &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    return p;
}

/* A face on a face (fq_try_face_contact): a box standing on a wider one is
 * certified touching at the point of the common plane below the smaller
 * box's center, without the LP; the answer gives a face hint, which the
 * next query (the box moved by 2^-20, still standing) confirms; a contact
 * whose region lies below neither center (two boxes meeting at a corner
 * of their faces: a 1/8 by 1/8 square) is certified at the point of that
 * region farthest from its edges (the margin LP in the faces' plane,
 * fast_faces.c), still without the LP in three variables. */
START_TEST(face_on_face_contact_without_the_lp)
{
    hs_poly *floor = box3(-8, 8, -8, 8, -1, 0), *box = box3(3, 4, 3, 4, 0, 1);
    hs_poly *moved = box3(3 + 0x1p-20, 4 + 0x1p-20, 3, 4, 0, 1);
    hs_result *r = hs_result_new();
    hs_options opt;
    char *trace = t_traced_options(&opt);
    fast_view va, vb, vm;
    ck_assert_int_eq(fast_view_of_poly(&va, floor), 0);
    ck_assert_int_eq(fast_view_of_poly(&vb, box), 0);
    ck_assert_int_eq(fast_view_of_poly(&vm, moved), 0);
    fast_hint hint, next;
    hs_error err;
    ck_assert_int_eq(fast_intersect_views_hinted(&va, &vb, 3, &opt, NULL, r, &hint, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_TOUCHING);
    ck_assert_int_eq(hs_result_fallback(r), 0);
    ck_assert_int_eq(hs_result_verify(r, floor, box, &err), HS_OK);
    ck_assert_msg(strstr(trace, "opposite faces on one plane") && !strstr(trace, "dual simplex"),
                  "%s", trace);
    ck_assert_int_eq(hint.kind, FAST_HINT_FACE);
    trace[0] = 0;
    ck_assert_int_eq(fast_intersect_views_hinted(&va, &vm, 3, &opt, &hint, r, &next, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_TOUCHING);
    ck_assert_int_eq(hs_result_verify(r, floor, moved, &err), HS_OK);
    ck_assert_msg(strstr(trace, "faces still certifies"), "%s", trace);
    ck_assert_int_eq(next.kind, FAST_HINT_FACE);

    /* a box half over the floor's edge: the point below its center is on
     * that edge, a row the face proof leaves to the general one (it is
     * tight there), which proves it exactly */
    hs_poly *edge = box3(7.5, 8.5, 3, 4, 0, 1);
    trace[0] = 0;
    ck_assert_int_eq(hs_intersect(floor, edge, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_TOUCHING);
    ck_assert_int_eq(hs_result_fallback(r), 0);
    ck_assert_int_eq(hs_result_verify(r, floor, edge, &err), HS_OK);
    ck_assert_msg(strstr(trace, "opposite faces on one plane"), "%s", trace);
    hs_poly_free(edge);

    hs_poly *a = box3(0, 2, 0, 2, 0, 2), *c = box3(1.875, 3.875, 1.875, 3.875, 2, 4);
    trace[0] = 0;
    ck_assert_int_eq(hs_intersect(a, c, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_TOUCHING);
    ck_assert_int_eq(hs_result_fallback(r), 0);
    ck_assert_msg(strstr(trace, "common region") && strstr(trace, "farthest from its edges") &&
                      !strstr(trace, "dual simplex"),
                  "%s", trace);
    ck_assert_int_eq(hs_result_verify(r, a, c, &err), HS_OK);
    ck_assert_int_eq(run(HS_ENGINE_FAST, c, a, r), HS_TOUCHING);
    ck_assert_int_eq(hs_result_verify(r, c, a, &err), HS_OK);
    free(trace);
    hs_result_free(r);
    hs_poly_free(floor);
    hs_poly_free(box);
    hs_poly_free(moved);
    hs_poly_free(a);
    hs_poly_free(c);
}
END_TEST

/* Two tapered bars crossing like an X, each thickest at the end away from
 * the crossing (so each one's interior point lies there): the segment
 * between those points runs outside one of them, and the middle of the
 * boxes' common part is certified inside both: overlap without the LP,
 * either way round.  The same bars apart in z are disjoint (the middle
 * fails a row; the LP certifies).  A diagonal bar (rows off the axes)
 * crossing a straight one: overlap.  Every answer verified. */
START_TEST(crossing_bars_overlap_at_their_boxes_middle)
{
    /* A along x in [0, 20], x/40 <= y <= 2 - x/40, 0 <= z <= 2; B along y
     * in [-18, 1], 17 + (y + 18)/40 <= x <= 19 - (y + 18)/40: they cross
     * near (18, 0.7, 1) */
    double aa[] = {-1, 0, 0, 1, 0, 0, 1, -40, 0, 1, 40, 0, 0, 0, -1, 0, 0, 1};
    double ab[] = {0, 20, 0, 80, 0, 2};
    double ba[] = {0, -1, 0, 0, 1, 0, -40, 1, 0, 40, 1, 0, 0, 0, -1, 0, 0, 1};
    double bb[] = {18, 1, -698, 742, 0, 2}, up[] = {18, 1, -698, 742, -3, 5};
    double da[] = {1, -1, 0, -1, 1, 0, 1, 1, 0, -1, -1, 0, 0, 0, 1, 0, 0, -1};
    double db[] = {1, 1, 20, 20, 1, 1};
    hs_error err;
    hs_poly *a = hs_poly_from_doubles(3, 6, aa, ab, NULL, &err);
    hs_poly *b = hs_poly_from_doubles(3, 6, ba, bb, NULL, &err);
    hs_poly *above = hs_poly_from_doubles(3, 6, ba, up, NULL, &err);
    hs_poly *diag = hs_poly_from_doubles(3, 6, da, db, NULL, &err);
    hs_poly *bar = box3(4, 24, 7, 9, -1, 1);
    ck_assert(a && b && above && diag && bar);
    hs_result *r = hs_result_new();
    hs_options opt;
    char *trace = t_traced_options(&opt);
    for (int k = 0; k < 2; k++) {
        const hs_poly *p = k ? b : a, *q = k ? a : b;
        trace[0] = 0;
        ck_assert_int_eq(hs_intersect(p, q, &opt, r, &err), HS_OK);
        ck_assert_int_eq(hs_result_status(r), HS_OVERLAP);
        ck_assert_int_eq(hs_result_verify(r, p, q, &err), HS_OK);
        ck_assert_msg(strstr(trace, "common part of A's and B's boxes") &&
                          !strstr(trace, "segment s-t is inside") &&
                          !strstr(trace, "dual simplex"),
                      "%s", trace);
    }
    trace[0] = 0;
    ck_assert_int_eq(hs_intersect(a, above, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_DISJOINT);
    ck_assert_int_eq(hs_result_verify(r, a, above, &err), HS_OK);
    ck_assert_msg(!strstr(trace, "boxes"), "%s", trace);
    ck_assert_int_eq(run(HS_ENGINE_EXACT, a, above, r), HS_DISJOINT);
    ck_assert_int_eq(hs_intersect(diag, bar, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_OVERLAP);
    ck_assert_int_eq(hs_result_verify(r, diag, bar, &err), HS_OK);
    ck_assert_int_eq(run(HS_ENGINE_FAST, bar, diag, r), HS_OVERLAP);
    ck_assert_int_eq(run(HS_ENGINE_EXACT, diag, bar, r), HS_OVERLAP);
    free(trace);
    hs_result_free(r);
    hs_poly_free(a);
    hs_poly_free(b);
    hs_poly_free(above);
    hs_poly_free(diag);
    hs_poly_free(bar);
}
END_TEST

/* A box with center c, axes u (3 rows of 3: unit, orthogonal; its rows
 * are +-u_k) and half-sides h. */
static hs_poly *turned_box(const double *c, const double *u, const double *h)
{
    double a[18], b[6];
    for (int k = 0; k < 3; k++)
        for (int sg = 0; sg < 2; sg++) {
            double *row = a + 3 * (2 * k + sg), at = 0;
            for (int j = 0; j < 3; j++) {
                row[j] = sg ? -u[3 * k + j] : u[3 * k + j];
                at += row[j] * c[j];
            }
            b[2 * k + sg] = at + h[k];
        }
    hs_error err;
    hs_poly *p = hs_poly_from_doubles(3, 6, a, b, NULL, &err);
    ck_assert_msg(p != NULL, "%s", err.msg);
    return p;
}

/* Two long bars turned off the axes, crossing near one end of each (their
 * long axes pass 0.5 apart, each bar 1.2 thick): the segment between
 * their centers and the middle of their boxes' common part miss the
 * crossing, and the line where their skeletons come nearest finds it:
 * overlap without the LP, certified.  Lifted 2 apart, the same bars are
 * disjoint (the LP's Farkas certificate); a bar crossing its own long
 * axis (the skeletons meet) overlaps there.  Every answer verified, and
 * the exact engine agrees. */
START_TEST(crossing_bars_overlap_where_their_skeletons_come_nearest)
{
    double s6 = sqrt(0.5), h[3] = {10, 0.6, 0.6};
    double ua[9] = {s6, s6, 0, -s6, s6, 0, 0, 0, 1};
    double ub[9] = {s6, -s6, 0, s6, s6, 0, 0, 0, 1};
    double ca[3] = {0, 0, 0}, cb[3], cup[3], cmid[3];
    for (int j = 0; j < 3; j++) { /* B's axis through A's at 8 along it, 0.5 higher */
        cb[j] = 8 * ua[j] + 7 * ub[j] + (j == 2 ? 0.5 : 0);
        cup[j] = cb[j] + (j == 2 ? 2 : 0);
        cmid[j] = 8 * ua[j] + 7 * ub[j];
    }
    hs_poly *a = turned_box(ca, ua, h), *b = turned_box(cb, ub, h);
    hs_poly *up = turned_box(cup, ub, h), *meet = turned_box(cmid, ub, h);
    /* A's skeleton: nearly its length over its thickness (20 / 1.2), both
     * ends inside it, along its long axis */
    const fast_prep *fp = NULL;
    ck_assert_int_eq(fast_prep_get(a, &fp, NULL), 0);
    const double *sk = fast_prep_skeleton(fp);
    ck_assert_ptr_nonnull(sk);
    ck_assert_msg(sk[6] > 0.95 * 20 / 1.2 && sk[6] < 1.01 * 20 / 1.2, "elongation %g", sk[6]);
    double along = 0;
    for (int e = 0; e < 2; e++)
        for (int i = 0; i < 6; i++) {
            ck_assert(dot3(a->a + 3 * i, sk + 3 * e) < a->b[i]);
        }
    for (int j = 0; j < 3; j++)
        along += (sk[j] - sk[3 + j]) * ua[j];
    ck_assert_msg(fabs(along) > 0.8 * 20, "%g", along);
    hs_result *r = hs_result_new();
    hs_options opt;
    hs_error err;
    char *trace = t_traced_options(&opt);
    const hs_poly *pairs[3][2] = {{a, b}, {b, a}, {a, meet}};
    for (int k = 0; k < 3; k++) {
        trace[0] = 0;
        ck_assert_int_eq(hs_intersect(pairs[k][0], pairs[k][1], &opt, r, &err), HS_OK);
        ck_assert_int_eq(hs_result_status(r), HS_OVERLAP);
        ck_assert_int_eq(hs_result_verify(r, pairs[k][0], pairs[k][1], &err), HS_OK);
        ck_assert_msg(strstr(trace, "skeletons come nearest") && !strstr(trace, "dual simplex") &&
                          !strstr(trace, "boxes"),
                      "%s", trace);
        ck_assert_int_eq(run(HS_ENGINE_EXACT, pairs[k][0], pairs[k][1], r), HS_OVERLAP);
    }
    trace[0] = 0;
    ck_assert_int_eq(hs_intersect(a, up, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_DISJOINT);
    ck_assert_int_eq(hs_result_verify(r, a, up, &err), HS_OK);
    ck_assert_msg(strstr(trace, "Farkas") && !strstr(trace, "skeletons"), "%s", trace);
    ck_assert_int_eq(run(HS_ENGINE_EXACT, a, up, r), HS_DISJOINT);
    free(trace);
    hs_result_free(r);
    hs_poly_free(a);
    hs_poly_free(b);
    hs_poly_free(up);
    hs_poly_free(meet);
}
END_TEST

/* The direction map is made by the first lookup, not with the rest of the
 * preparation; hs_poly_fast_ready makes it at once; both ways give the
 * same rows, and later lookups reuse the map. */
START_TEST(direction_map_made_on_first_lookup)
{
    double c[3] = {0.25, -0.5, 1};
    state = 77;
    hs_poly *P = tangent(60, c);
    state = 77;
    hs_poly *Q = tangent(60, c);
    const fast_prep *fp = NULL, *fq = NULL;
    ck_assert_int_eq(fast_prep_get(P, &fp, NULL), 0);
    ck_assert_ptr_nonnull(fp);
    ck_assert_ptr_null(atomic_load(&((fast_prep *)fp)->map_rows));
    ck_assert(hs_poly_fast_ready(Q, NULL));
    ck_assert_int_eq(fast_prep_get(Q, &fq, NULL), 0);
    ck_assert_ptr_nonnull(atomic_load(&((fast_prep *)fq)->map_rows));
    const int *first = NULL;
    for (int k = 0; k < 200; k++) {
        double d[3] = {uniform() - 0.5, uniform() - 0.5, uniform() - 0.5};
        int np = 0, nq = 0;
        const int *rp = fast_prep_lookup(fp, d, &np), *rq = fast_prep_lookup(fq, d, &nq);
        ck_assert_int_eq(np, 12);
        ck_assert_int_eq(nq, 12);
        ck_assert(memcmp(rp, rq, sizeof(int) * 12) == 0);
        const int *map = atomic_load(&((fast_prep *)fp)->map_rows);
        ck_assert_ptr_nonnull(map);
        if (!first)
            first = map;
        ck_assert_ptr_eq(map, first);
    }
    hs_poly_free(P);
    hs_poly_free(Q);
}
END_TEST

Suite *suite_fast(void)
{
    Suite *s = suite_create("fast");
    TCase *tc = tcase_create("fast");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, agrees_with_exact_on_tangent_pairs);
    tcase_add_test(tc, agrees_with_exact_on_degenerate_families);
    tcase_add_loop_test(tc, near_contact_and_contact, 0, 3);
    tcase_add_test(tc, ineligible_inputs_use_the_exact_engine);
    tcase_add_test(tc, unit_rows_are_rounded_rows_or_nan);
    tcase_add_test(tc, contact_proof_reads_unit_rows);
    tcase_add_test(tc, face_on_face_contact_without_the_lp);
    tcase_add_test(tc, crossing_bars_overlap_at_their_boxes_middle);
    tcase_add_test(tc, crossing_bars_overlap_where_their_skeletons_come_nearest);
    tcase_add_test(tc, lazy_certificates_materialize);
    tcase_add_test(tc, batch_matches_single_queries);
    tcase_add_test(tc, no_heap_growth_over_a_million_queries);
    tcase_add_test(tc, far_small_boxes_stay_fast);
    tcase_add_test(tc, direction_map_made_on_first_lookup);
    suite_add_tcase(s, tc);
    return s;
}
