/* test_paper.c -- the seed-002 routines xianliang and qiujiao
 * (solver/seed.h) in both instantiations (double and exact rationals) and
 * through the faithful engine: the paper's Examples 1 and 2, their traces
 * (honest and replayed), hand-made cases in 1 to 5 dimensions, and a
 * randomized cross-check of qiujiao against xianliang on the stacked
 * system.  Every point returned is checked against the system(s): exactly
 * for the rational version, within a small tolerance for the double one. */
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/seed.h"
#include "tests/helpers.h"

enum { MAX_N = 8, MAX_ROWS = 64 };

/* ------------------------------------------------------------ building */

/* A system from rows "a1 .. an <= b" or "a1 .. an = b" separated by ';'
 * (numbers as exact decimal or p/q text). */
static hs_poly *sys_of(int n, const char *spec)
{
    char buf[8192];
    const char *a[MAX_ROWS * MAX_N], *b[MAX_ROWS];
    unsigned char eq[MAX_ROWS];
    int m = 0;
    ck_assert(strlen(spec) < sizeof buf);
    strcpy(buf, spec);
    char *row_save = NULL;
    for (char *row = strtok_r(buf, ";", &row_save); row; row = strtok_r(NULL, ";", &row_save)) {
        ck_assert_int_lt(m, MAX_ROWS);
        char *tok_save = NULL;
        for (int j = 0; j < n; j++) {
            a[m * n + j] = strtok_r(j ? NULL : row, " ", &tok_save);
            ck_assert_msg(a[m * n + j] != NULL, "row %d: missing coefficient", m + 1);
        }
        const char *rel = strtok_r(NULL, " ", &tok_save);
        ck_assert_msg(rel && (!strcmp(rel, "<=") || !strcmp(rel, "=")), "row %d: bad relation",
                      m + 1);
        eq[m] = rel[0] == '=';
        b[m] = strtok_r(NULL, " ", &tok_save);
        ck_assert_msg(b[m] != NULL, "row %d: missing right side", m + 1);
        m++;
    }
    hs_error err;
    hs_error_clear(&err);
    hs_poly *p = hs_poly_from_strings(n, m, a, b, eq, &err);
    ck_assert_msg(p != NULL, "build failed: %s", err.msg);
    return p;
}

/* The standard simplex {x >= 0, sum x <= 1} in n dimensions. */
static hs_poly *simplex(int n)
{
    char spec[2048] = "";
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            k += (size_t)snprintf(spec + k, sizeof spec - k, "%s ", i == j ? "-1" : "0");
        k += (size_t)snprintf(spec + k, sizeof spec - k, "<= 0;");
    }
    for (int j = 0; j < n; j++)
        k += (size_t)snprintf(spec + k, sizeof spec - k, "1 ");
    snprintf(spec + k, sizeof spec - k, "<= 1");
    return sys_of(n, spec);
}

/* One row "c c .. c rel b" in n dimensions. */
static hs_poly *uniform_row(int n, const char *c, const char *rel, const char *b)
{
    char spec[512] = "";
    size_t k = 0;
    for (int j = 0; j < n; j++)
        k += (size_t)snprintf(spec + k, sizeof spec - k, "%s ", c);
    snprintf(spec + k, sizeof spec - k, "%s %s", rel, b);
    return sys_of(n, spec);
}

static hs_poly *box(int n, const char *lo, const char *hi)
{
    return t_poly(t_box_text(n, lo, hi));
}

/* ------------------------------------------------------- point checks */

/* x lies in P exactly (equality rows hold with equality). */
static int in_exactly(const hs_poly *P, mpq_t *x)
{
    mpq_t lhs, v, b;
    mpq_inits(lhs, v, b, NULL);
    int ok = 1;
    for (int i = 0; i < P->m && ok; i++) {
        mpq_set_ui(lhs, 0, 1);
        for (int j = 0; j < P->n; j++) {
            hpoly_get_q(P, i, j, v);
            mpq_mul(v, v, x[j]);
            mpq_add(lhs, lhs, v);
        }
        hpoly_get_q(P, i, P->n, b);
        int c = mpq_cmp(lhs, b);
        ok = P->eq[i] ? c == 0 : c <= 0;
    }
    mpq_clears(lhs, v, b, NULL);
    return ok;
}

/* x lies in P within 1e-9 relative to the size of the terms. */
static int in_nearly(const hs_poly *P, const double *x)
{
    for (int i = 0; i < P->m; i++) {
        const double *a = hpoly_row(P, i);
        double lhs = 0, mag = fabs(P->b[i]);
        for (int j = 0; j < P->n; j++) {
            lhs += a[j] * x[j];
            mag += fabs(a[j] * x[j]);
        }
        double slack = 1e-9 * (mag + 1e-300);
        if (lhs - P->b[i] > slack || (P->eq[i] && P->b[i] - lhs > slack))
            return 0;
    }
    return 1;
}

static void q_vec_init(mpq_t *x, int n)
{
    for (int j = 0; j < n; j++)
        mpq_init(x[j]);
}

static void q_vec_clear(mpq_t *x, int n)
{
    for (int j = 0; j < n; j++)
        mpq_clear(x[j]);
}

static int q_is(const mpq_t q, const char *text)
{
    mpq_t v;
    mpq_init(v);
    ck_assert_int_eq(mpq_set_str(v, text, 10), 0);
    mpq_canonicalize(v);
    int same = mpq_equal(q, v);
    mpq_clear(v);
    return same;
}

/* ------------------------------------------- running both instantiations */

static int feasible_d(const hs_poly *P, const hs_options *opt)
{
    double x[MAX_N];
    long nodes = -1;
    hs_error err;
    hs_error_clear(&err);
    int got = seed_feasible_d(P, opt, x, &nodes, &err);
    ck_assert_msg(got >= 0, "seed_feasible_d: %s", err.msg);
    ck_assert_int_gt(nodes, 0);
    if (got)
        ck_assert_msg(in_nearly(P, x), "double point not in the system");
    return got;
}

static int feasible_q(const hs_poly *P, const hs_options *opt)
{
    mpq_t x[MAX_N];
    q_vec_init(x, P->n);
    long nodes = -1;
    hs_error err;
    hs_error_clear(&err);
    int got = seed_feasible_q(P, opt, x, &nodes, &err);
    ck_assert_msg(got >= 0, "seed_feasible_q: %s", err.msg);
    ck_assert_int_gt(nodes, 0);
    if (got)
        ck_assert_msg(in_exactly(P, x), "exact point not in the system");
    q_vec_clear(x, P->n);
    return got;
}

static int intersect_d(const hs_poly *A, const hs_poly *B, const hs_options *opt, double *x)
{
    double mine[MAX_N];
    if (!x)
        x = mine;
    long nodes = -1;
    hs_error err;
    hs_error_clear(&err);
    int got = seed_intersect_d(A, B, opt, x, &nodes, &err);
    ck_assert_msg(got >= 0, "seed_intersect_d: %s", err.msg);
    ck_assert_int_gt(nodes, 0);
    if (got)
        ck_assert_msg(in_nearly(A, x) && in_nearly(B, x), "double point not in A and B");
    return got;
}

/* x (n initialised rationals) receives the point; NULL for none. */
static int intersect_q(const hs_poly *A, const hs_poly *B, const hs_options *opt, mpq_t *x)
{
    mpq_t mine[MAX_N];
    int own = x == NULL;
    if (own) {
        q_vec_init(mine, A->n);
        x = mine;
    }
    long nodes = -1;
    hs_error err;
    hs_error_clear(&err);
    int got = seed_intersect_q(A, B, opt, x, &nodes, &err);
    ck_assert_msg(got >= 0, "seed_intersect_q: %s", err.msg);
    ck_assert_int_gt(nodes, 0);
    if (got)
        ck_assert_msg(in_exactly(A, x) && in_exactly(B, x), "exact point not in A and B");
    if (own)
        q_vec_clear(mine, A->n);
    return got;
}

/* Both instantiations, both orders of the pair, give `expect`. */
static void expect_pair(const hs_poly *A, const hs_poly *B, int expect)
{
    ck_assert_int_eq(intersect_d(A, B, NULL, NULL), expect);
    ck_assert_int_eq(intersect_q(A, B, NULL, NULL), expect);
    ck_assert_int_eq(intersect_d(B, A, NULL, NULL), expect);
    ck_assert_int_eq(intersect_q(B, A, NULL, NULL), expect);
}

static void expect_feasible(const hs_poly *P, int expect)
{
    ck_assert_int_eq(feasible_d(P, NULL), expect);
    ck_assert_int_eq(feasible_q(P, NULL), expect);
}

/* Frees both after the check. */
static void pair_case(hs_poly *A, hs_poly *B, int expect)
{
    expect_pair(A, B, expect);
    hs_poly_free(A);
    hs_poly_free(B);
}

/* --------------------------------------------------------- the examples */

/* In the three-way semantics both examples are `overlap`: Example 1's
 * polyhedra share the interior point (-0.6, 0.6, 0.6) and Example 2's the
 * interior point (-0.6, 0.6, 2.1).  The seed's routines (and so the
 * faithful engine) only answer "intersect". */
START_TEST(examples_overlap_points_are_interior)
{
    const char *names[2][2] = {{"paper/example1_A.ine", "paper/example1_B.ine"},
                               {"paper/example2_A.ine", "paper/example2_B.ine"}};
    const double inner[2][3] = {{-0.6, 0.6, 0.6}, {-0.6, 0.6, 2.1}};
    for (int e = 0; e < 2; e++) {
        hs_poly *A = t_example(names[e][0]), *B = t_example(names[e][1]);
        for (int i = 0; i < A->m + B->m; i++) {
            const hs_poly *P = i < A->m ? A : B;
            int r = i < A->m ? i : i - A->m;
            const double *a = hpoly_row(P, r);
            double lhs = a[0] * inner[e][0] + a[1] * inner[e][1] + a[2] * inner[e][2];
            ck_assert_msg(lhs < P->b[r] - 1e-9, "example %d row %d not strict", e + 1, i + 1);
        }
        hs_poly_free(A);
        hs_poly_free(B);
    }
}
END_TEST

START_TEST(example1_both_instantiations)
{
    hs_poly *A = t_example("paper/example1_A.ine"), *B = t_example("paper/example1_B.ine");
    double x[3];
    ck_assert_int_eq(intersect_d(A, B, NULL, x), 1);
    /* t = (-0.5, 0.5, 0.5) lies in A: the seed answers at once with t */
    ck_assert(x[0] == -0.5 && x[1] == 0.5 && x[2] == 0.5);
    mpq_t q[3];
    q_vec_init(q, 3);
    ck_assert_int_eq(intersect_q(A, B, NULL, q), 1);
    ck_assert(q_is(q[0], "-1/2") && q_is(q[1], "1/2") && q_is(q[2], "1/2"));
    q_vec_clear(q, 3);
    expect_feasible(A, 1);
    expect_feasible(B, 1);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(example2_both_instantiations)
{
    hs_poly *A = t_example("paper/example2_A.ine"), *B = t_example("paper/example2_B.ine");
    double x[3];
    ck_assert_int_eq(intersect_d(A, B, NULL, x), 1);
    ck_assert(x[0] == -0.5 && x[1] == 0.5 && x[2] == 2);
    mpq_t q[3];
    q_vec_init(q, 3);
    ck_assert_int_eq(intersect_q(A, B, NULL, q), 1);
    ck_assert(q_is(q[0], "-1/2") && q_is(q[1], "1/2") && q_is(q[2], "2"));
    q_vec_clear(q, 3);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(examples_through_the_faithful_engine)
{
    const char *names[2][2] = {{"paper/example1_A.ine", "paper/example1_B.ine"},
                               {"paper/example2_A.ine", "paper/example2_B.ine"}};
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_FAITHFUL;
    hs_result *r = hs_result_new();
    for (int e = 0; e < 2; e++) {
        hs_poly *A = t_example(names[e][0]), *B = t_example(names[e][1]);
        for (int exact_doubles = 0; exact_doubles < 2; exact_doubles++) {
            opt.faithful_tol = exact_doubles ? 0.0 : 1e-12;
            hs_error err;
            hs_error_clear(&err);
            ck_assert_msg(hs_intersect(A, B, &opt, r, &err) == HS_OK, "%s", err.msg);
            ck_assert_int_eq(hs_result_status(r), HS_INTERSECT);
            ck_assert(hs_result_has_point(r));
            ck_assert_int_gt(hs_result_nodes(r), 0);
            double x[3];
            ck_assert_int_eq(hs_result_point(r, x), HS_OK);
            ck_assert(in_nearly(A, x) && in_nearly(B, x));
            ck_assert_int_eq(hs_feasible(A, &opt, r, &err), HS_OK);
            ck_assert_int_eq(hs_result_status(r), HS_FEASIBLE);
        }
        hs_poly_free(A);
        hs_poly_free(B);
    }
    hs_result_free(r);
}
END_TEST

/* -------------------------------------------------------------- traces */

typedef struct lines {
    char *line[4096];
    int count;
} lines;

static void collect(void *user, const char *line)
{
    lines *L = user;
    ck_assert_int_lt(L->count, 4096);
    ck_assert(strchr(line, '\n') == NULL);
    L->line[L->count] = strdup(line);
    ck_assert(L->line[L->count] != NULL);
    L->count++;
}

static void lines_free(lines *L)
{
    for (int i = 0; i < L->count; i++)
        free(L->line[i]);
    L->count = 0;
}

/* Index of the first line at or after `from` whose text (without the
 * indentation) is `text`; fails the test when there is none. */
static int find_line(const lines *L, int from, const char *text)
{
    for (int i = from; i < L->count; i++)
        if (strcmp(L->line[i] + strspn(L->line[i], " "), text) == 0)
            return i;
    ck_abort_msg("trace line not found: \"%s\"", text);
    return -1;
}

static int has_text(const lines *L, const char *part)
{
    for (int i = 0; i < L->count; i++)
        if (strstr(L->line[i], part))
            return 1;
    return 0;
}

static int indent_of(const lines *L, int i)
{
    return (int)strspn(L->line[i], " ");
}

static hs_options tracing(lines *L)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.trace = collect;
    opt.trace_user = L;
    L->count = 0;
    return opt;
}

/* The lines, in order, from `from`; returns the index of the last. */
static int find_in_order(const lines *L, int from, const char *const *texts, int count)
{
    int at = from;
    for (int i = 0; i < count; i++)
        at = find_line(L, at, texts[i]) + 1;
    return at - 1;
}

/* Example 2 without replay: s = (0,0,2) (not the paper's (0,0,-2)), so
 * the only candidate face is row 3 (z >= 2) and the reduced A is the
 * paper's system (7). */
START_TEST(trace_example2_honest)
{
    hs_poly *A = t_example("paper/example2_A.ine"), *B = t_example("paper/example2_B.ine");
    lines L;
    hs_options opt = tracing(&L);
    ck_assert_int_eq(intersect_d(A, B, &opt, NULL), 1);
    static const char *const walk[] = {
        "qiujiao depth 0: 3 variables (x, y, z), |A| = 4, |B| = 6",
        "point (x, y, z) = (0, 0, 2)",
        "point (x, y, z) = (-0.5, 0.5, 0.5)",
        "Step 3: s = (0, 0, 2), t = (-0.5, 0.5, 0.5)",
        "Step 5: s is not in B (B row 1), t is not in A (A row 3)",
        "t - s = (-0.5, 0.5, -1.5)",
        "Step 6: |A| = 4 <= |B| = 6: faces of A with a.(t-s) > 0: A row 3",
        "A row 3 becomes an equality: -z = -2; eliminate z",
        "restriction: constant rows dropped: B row 3, B row 6",
        "reduced A = {x <= 0, -y <= 0, -x + y <= 2}",
        "reduced B = {x <= -0.5, -y <= -0.5, -x <= 3, y <= 3}",
        "qiujiao depth 1: 2 variables (x, y), |A| = 3, |B| = 4",
        "Step 3: s = (0, 0), t = (-0.5, 0.5)",
        "Step 5: t is in A -> TRUE, point (x, y) = (-0.5, 0.5)",
        "lifted point (x, y, z) = (-0.5, 0.5, 2)",
    };
    int last = find_in_order(&L, 0, walk, (int)(sizeof walk / sizeof walk[0]));
    ck_assert_int_eq(last, L.count - 1);
    ck_assert_int_eq(indent_of(&L, 0), 0);
    ck_assert_int_eq(indent_of(&L, find_line(&L, 0, walk[11])), 2);
    ck_assert(!has_text(&L, "replay"));
    lines_free(&L);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

/* The paper's own walk, replayed with its printed s = (0,0,-2) (a sign
 * slip: it violates row 3, z >= 2) and t = (-0.5,0.5,0.5).  t - s =
 * (-1/2,1/2,5/2) makes row 4 the only candidate; eliminating z with it
 * gives exactly the paper's systems (7) and (8). */
static void check_replayed_walk(int exact)
{
    hs_poly *A = t_example("paper/example2_A.ine"), *B = t_example("paper/example2_B.ine");
    lines L;
    hs_options opt = tracing(&L);
    const double s[3] = {0, 0, -2}, t[3] = {-0.5, 0.5, 0.5};
    opt.replay_s = s;
    opt.replay_t = t;
    if (exact) {
        mpq_t q[3];
        q_vec_init(q, 3);
        ck_assert_int_eq(intersect_q(A, B, &opt, q), 1);
        ck_assert(q_is(q[0], "-1/2") && q_is(q[1], "1/2") && q_is(q[2], "3"));
        q_vec_clear(q, 3);
    } else {
        double x[3];
        ck_assert_int_eq(intersect_d(A, B, &opt, x), 1);
        ck_assert(x[0] == -0.5 && x[1] == 0.5 && x[2] == 3);
    }
    const char *const walk_d[] = {
        "qiujiao depth 0: 3 variables (x, y, z), |A| = 4, |B| = 6",
        "replay: s = (0, 0, -2), t = (-0.5, 0.5, 0.5)",
        "replay: s violates A row 3: -z <= -2 (used anyway)",
        "Step 5: s is not in B (B row 1), t is not in A (A row 3)",
        "t - s = (-0.5, 0.5, 2.5)",
        "Step 6: |A| = 4 <= |B| = 6: faces of A with a.(t-s) > 0: A row 4",
        "A row 4 becomes an equality: -x + y + z = 4; eliminate z",
        "reduced A = {x <= 0, -y <= 0, -x + y <= 2}",
        "reduced B = {x <= -0.5, -y <= -0.5, -x + y <= 3.5, -x <= 3, y <= 3, x - y <= -1}",
        "qiujiao depth 1: 2 variables (x, y), |A| = 3, |B| = 6",
        "Step 3: s = (0, 0), t = (-0.5, 0.5)",
        "Step 5: t is in A -> TRUE, point (x, y) = (-0.5, 0.5)",
        "lifted point (x, y, z) = (-0.5, 0.5, 3)",
    };
    const char *const walk_q[] = {
        "qiujiao depth 0: 3 variables (x, y, z), |A| = 4, |B| = 6",
        "replay: s = (0, 0, -2), t = (-1/2, 1/2, 1/2)",
        "replay: s violates A row 3: -z <= -2 (used anyway)",
        "Step 5: s is not in B (B row 1), t is not in A (A row 3)",
        "t - s = (-1/2, 1/2, 5/2)",
        "Step 6: |A| = 4 <= |B| = 6: faces of A with a.(t-s) > 0: A row 4",
        "A row 4 becomes an equality: -x + y + z = 4; eliminate z",
        "reduced A = {x <= 0, -y <= 0, -x + y <= 2}",
        "reduced B = {x <= -1/2, -y <= -1/2, -x + y <= 7/2, -x <= 3, y <= 3, x - y <= -1}",
        "qiujiao depth 1: 2 variables (x, y), |A| = 3, |B| = 6",
        "Step 3: s = (0, 0), t = (-1/2, 1/2)",
        "Step 5: t is in A -> TRUE, point (x, y) = (-1/2, 1/2)",
        "lifted point (x, y, z) = (-1/2, 1/2, 3)",
    };
    int count = (int)(sizeof walk_d / sizeof walk_d[0]);
    int last = find_in_order(&L, 0, exact ? walk_q : walk_d, count);
    ck_assert_int_eq(last, L.count - 1);
    /* the replayed top level does not call xianliang; depth 1 does */
    ck_assert_int_gt(find_line(&L, 0, "xianliang(A) depth 0: 2 variables (x, y), 3 rows"),
                     find_line(&L, 0, walk_d[9]));
    ck_assert(!has_text(&L, "3 variables (x, y, z), 4 rows"));
    lines_free(&L);
    hs_poly_free(A);
    hs_poly_free(B);
}

START_TEST(trace_example2_replayed_double)
{
    check_replayed_walk(0);
}
END_TEST

START_TEST(trace_example2_replayed_exact)
{
    check_replayed_walk(1);
}
END_TEST

START_TEST(trace_example1)
{
    hs_poly *A = t_example("paper/example1_A.ine"), *B = t_example("paper/example1_B.ine");
    lines L;
    hs_options opt = tracing(&L);
    ck_assert_int_eq(intersect_q(A, B, &opt, NULL), 1);
    static const char *const walk[] = {
        "qiujiao depth 0: 3 variables (x, y, z), |A| = 4, |B| = 6",
        "xianliang(A) depth 0: 3 variables (x, y, z), 4 rows",
        "Step 2: split on x: |A1| = 1, |A2| = 2, |A3| = 1",
        "Step 5: |A1| = |A3| = 1, tie: A1 holds the earliest row: try the rows of A1 as "
        "equalities",
        "A row 1 becomes an equality: x = 0; eliminate x",
        "point (x, y, z) = (0, 0, 0)",
        "xianliang(B) depth 0: 3 variables (x, y, z), 6 rows",
        "point (x, y, z) = (-1/2, 1/2, 1/2)",
        "Step 3: s = (0, 0, 0), t = (-1/2, 1/2, 1/2)",
        "Step 5: t is in A -> TRUE, point (x, y, z) = (-1/2, 1/2, 1/2)",
    };
    int last = find_in_order(&L, 0, walk, (int)(sizeof walk / sizeof walk[0]));
    ck_assert_int_eq(last, L.count - 1);
    ck_assert(!has_text(&L, "t - s"));
    lines_free(&L);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(trace_equality_halves_and_long_names)
{
    lines L;
    hs_options opt = tracing(&L);
    hs_poly *P = sys_of(1, "1 <= 5; 1 = 1"); /* x <= 5, x = 1 */
    ck_assert_int_eq(feasible_q(P, &opt), 1);
    /* A1 = {x <= 5, x <= 1} is larger than A3 = {-x <= -1}: Step 6 */
    find_line(&L, 0, "Step 6: |A1| = 2 > |A3| = 1: try the rows of A3 as equalities");
    find_line(&L, 0, "A row 2 (>= half) becomes an equality: -x = -1; eliminate x");
    lines_free(&L);
    hs_poly_free(P);

    P = sys_of(4, "1 0 0 0 = 2; 0 1 -1/2 0 <= 3");
    ck_assert_int_eq(feasible_d(P, &opt), 1);
    find_line(&L, 0, "xianliang(A) depth 0: 4 variables (x1, x2, x3, x4), 3 rows");
    find_line(&L, 0, "A row 1 (<= half) becomes an equality: x1 = 2; eliminate x1");
    find_line(&L, 0, "Step 2: split on x2: |A1| = 1, |A2| = 0, |A3| = 0");
    find_line(&L, 0, "Step 4: only upper bounds on x2 (A3 empty): solve A2 without it, then x2 "
                     "= min over A1 of its bound");
    lines_free(&L);
    hs_poly_free(P);
}
END_TEST

/* A: x <= 0.  B: x >= y + 1 and 22 copies of x + y <= 100.  The face
 * x = 0 of A leaves 23 rows of B, too many to print. */
START_TEST(trace_long_systems_are_summarised)
{
    char spec[4096] = "-1 1 <= -1";
    for (int i = 0; i < 22; i++)
        strcat(spec, "; 1 1 <= 100");
    hs_poly *A = sys_of(2, "1 0 <= 0"), *B = sys_of(2, spec);
    lines L;
    hs_options opt = tracing(&L);
    mpq_t q[2];
    q_vec_init(q, 2);
    ck_assert_int_eq(intersect_q(A, B, &opt, q), 1);
    ck_assert(q_is(q[0], "0") && q_is(q[1], "-1"));
    q_vec_clear(q, 2);
    find_line(&L, 0, "Step 3: s = (0, 0), t = (101/2, 99/2)");
    find_line(&L, 0, "reduced A = {}");
    find_line(&L, 0, "reduced B: 23 rows (not shown)");
    find_line(&L, 0, "lifted point (x, y) = (0, -1)");
    lines_free(&L);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

/* Disjoint: every face tried fails and Step 8 answers FALSE. */
START_TEST(trace_disjoint_reaches_step8)
{
    hs_poly *A = sys_of(2, "-1 0 <= 0; 0 -1 <= 0; 1 1 <= 1");
    hs_poly *B = sys_of(2, "1 0 <= 2; 0 1 <= 2; -1 -1 <= -3/2");
    lines L;
    hs_options opt = tracing(&L);
    ck_assert_int_eq(intersect_d(A, B, &opt, NULL), 0);
    find_line(&L, 0, "Step 3: s = (0, 0), t = (2, 2)");
    find_line(&L, 0, "Step 6: |A| = 3 <= |B| = 3: faces of A with a.(t-s) > 0: A row 3");
    find_line(&L, 0, "A row 3 becomes an equality: x + y = 1; eliminate y");
    find_line(&L, 0, "B row 3: 0 <= -0.5 is a contradiction -> FALSE for this face");
    find_line(&L, 0, "Step 8: no face gave a common point -> FALSE");
    ck_assert_str_eq(L.line[L.count - 1], "FALSE");
    lines_free(&L);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(no_trace_without_callback)
{
    hs_poly *A = t_example("paper/example2_A.ine"), *B = t_example("paper/example2_B.ine");
    hs_options opt;
    hs_options_init(&opt);
    opt.trace_user = NULL;
    ck_assert_int_eq(intersect_q(A, B, &opt, NULL), 1);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

/* ---------------------------------------------------- hand-made cases */

START_TEST(one_dimension)
{
    pair_case(sys_of(1, "1 <= 1; -1 <= 0"), sys_of(1, "1 <= 3; -1 <= -2"), 0); /* [0,1],[2,3] */
    pair_case(sys_of(1, "1 <= 2; -1 <= 0"), sys_of(1, "1 <= 3; -1 <= -1"), 1); /* overlap */
    pair_case(sys_of(1, "1 <= 1; -1 <= 0"), sys_of(1, "1 <= 2; -1 <= -1"), 1); /* touch at 1 */
    pair_case(sys_of(1, "1 <= 5"), sys_of(1, "-1 <= -3"), 1);                  /* half-lines */
    pair_case(sys_of(1, "1 <= 2"), sys_of(1, "-1 <= -3"), 0);
    pair_case(sys_of(1, "2 <= 2"), sys_of(1, "-5 <= -5"), 1); /* scaled: x <= 1, x >= 1 */
    /* the touching point is exactly 1 */
    hs_poly *A = sys_of(1, "1 <= 1; -1 <= 0"), *B = sys_of(1, "1 <= 2; -1 <= -1");
    mpq_t q[1];
    q_vec_init(q, 1);
    ck_assert_int_eq(intersect_q(A, B, NULL, q), 1);
    ck_assert(q_is(q[0], "1"));
    q_vec_clear(q, 1);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(empty_systems)
{
    hs_poly *E = sys_of(1, "1 <= 0; -1 <= -1"); /* x <= 0 and x >= 1 */
    expect_feasible(E, 0);
    hs_poly *F = sys_of(1, "1 <= 7");
    expect_pair(E, F, 0);
    hs_poly_free(E);
    hs_poly_free(F);
    E = sys_of(2, "0 0 <= -1; 1 0 <= 1"); /* the constant row 0 <= -1 */
    expect_feasible(E, 0);
    F = sys_of(2, "0 0 <= 1; 1 1 <= 1"); /* 0 <= 1 says nothing */
    expect_feasible(F, 1);
    expect_pair(E, F, 0);
    hs_poly_free(E);
    hs_poly_free(F);
    E = sys_of(3, "1 1 1 <= 1; -1 -1 -1 <= -2; 1 0 0 <= 5"); /* 2 <= x+y+z <= 1 */
    expect_feasible(E, 0);
    F = box(3, "0", "1");
    expect_pair(E, F, 0);
    hs_poly_free(E);
    hs_poly_free(F);
    E = sys_of(2, "1 0 = 1; 1 0 = 2"); /* x = 1 and x = 2 */
    expect_feasible(E, 0);
    hs_poly_free(E);
}
END_TEST

START_TEST(two_dimensions_simplices)
{
    const char *tri = "-1 0 <= 0; 0 -1 <= 0; 1 1 <= 1";
    pair_case(sys_of(2, tri), sys_of(2, "-1 -1 <= -1/2; 1 0 <= 1; 0 1 <= 1"), 1);
    pair_case(sys_of(2, tri), sys_of(2, "-1 -1 <= -2; 1 0 <= 3; 0 1 <= 3"), 0);
    /* the triangle (1,0), (2,0), (1,-1) meets tri only at the vertex (1,0) */
    hs_poly *A = sys_of(2, tri), *B = sys_of(2, "-1 0 <= -1; 0 1 <= 0; 1 -1 <= 2");
    expect_pair(A, B, 1);
    mpq_t q[2];
    q_vec_init(q, 2);
    ck_assert_int_eq(intersect_q(A, B, NULL, q), 1);
    ck_assert(q_is(q[0], "1") && q_is(q[1], "0"));
    q_vec_clear(q, 2);
    hs_poly_free(A);
    hs_poly_free(B);
    /* duplicate rows change nothing */
    pair_case(sys_of(2, "-1 0 <= 0; -1 0 <= 0; 0 -1 <= 0; 1 1 <= 1; 1 1 <= 1"),
              sys_of(2, "-1 -1 <= -1/2; -1 -1 <= -1/2; 1 0 <= 1; 0 1 <= 1"), 1);
    pair_case(sys_of(2, "-1 0 <= 0; 0 -1 <= 0; 1 1 <= 1; 1 1 <= 1"),
              sys_of(2, "-1 -1 <= -2; -1 -1 <= -2; 1 0 <= 3"), 0);
}
END_TEST

START_TEST(two_dimensions_planes_and_lines)
{
    /* coincident planes, with rows scaled by constants */
    pair_case(sys_of(2, "1 1 <= 1"), sys_of(2, "-1 -1 <= -1"), 1);
    pair_case(sys_of(2, "2 2 <= 2"), sys_of(2, "-3 -3 <= -3"), 1);
    pair_case(sys_of(2, "1/3 1/3 <= 1/3"), sys_of(2, "-7 -7 <= -7; 1 -1 <= 0"), 1);
    pair_case(sys_of(2, "1 1 <= 1"), sys_of(2, "-3 -3 <= -4"), 0);
    /* equality rows: lines */
    const char *tri = "-1 0 <= 0; 0 -1 <= 0; 1 1 <= 1";
    pair_case(sys_of(2, tri), sys_of(2, "0 1 = 1/2"), 1);
    pair_case(sys_of(2, tri), sys_of(2, "0 2 = 4"), 0);
    pair_case(sys_of(2, "1 -1 = 0"), sys_of(2, "1 1 = 2"), 1); /* lines crossing at (1,1) */
    pair_case(sys_of(2, "1 -1 = 0"), sys_of(2, "2 -2 = 1"), 0); /* parallel lines */
    pair_case(sys_of(2, "1 -1 = 0"), sys_of(2, "-3 3 = 0"), 1); /* the same line */
    /* unbounded: slab in x against a quadrant far up */
    pair_case(sys_of(2, "1 0 <= 1; -1 0 <= 0"), sys_of(2, "0 -1 <= -5; -1 0 <= -1/2"), 1);
    pair_case(sys_of(2, "1 0 <= 1; -1 0 <= 0"), sys_of(2, "0 -1 <= -5; -1 0 <= -2"), 0);
    hs_poly *S = sys_of(2, "1 0 <= 1; -1 0 <= 0; 1 0 <= 1");
    expect_feasible(S, 1);
    hs_poly_free(S);
}
END_TEST

START_TEST(three_dimensions)
{
    pair_case(box(3, "0", "1"), box(3, "1/2", "2"), 1);
    pair_case(box(3, "0", "1"), box(3, "1", "2"), 1); /* touch at the corner (1,1,1) */
    pair_case(box(3, "0", "1"), box(3, "3/2", "2"), 0);
    pair_case(simplex(3), box(3, "1/4", "2"), 1);
    pair_case(simplex(3), box(3, "1/3", "2"), 1); /* touch at (1/3,1/3,1/3) */
    pair_case(simplex(3), box(3, "2/5", "2"), 0);
    pair_case(simplex(3), uniform_row(3, "-1", "<=", "-1"), 1); /* a whole face */
    pair_case(simplex(3), uniform_row(3, "1", "=", "-1/10"), 0);
    /* a half-space against a slab */
    pair_case(sys_of(3, "1 2 3 <= -100"), sys_of(3, "0 0 1 <= 1; 0 0 -1 <= 0"), 1);
    pair_case(sys_of(3, "0 0 1 <= -1"), sys_of(3, "0 0 1 <= 1; 0 0 -1 <= 0"), 0);
}
END_TEST

/* A: x = y = z, x + y + z <= 1; B: x + y + z >= 1.  They meet only at
 * (1/3, 1/3, 1/3), which the exact version must find exactly. */
START_TEST(exact_point_with_thirds)
{
    hs_poly *A = sys_of(3, "1 -1 0 = 0; 0 1 -1 = 0; 1 1 1 <= 1");
    hs_poly *B = sys_of(3, "-1 -1 -1 <= -1");
    mpq_t q[3];
    q_vec_init(q, 3);
    ck_assert_int_eq(intersect_q(A, B, NULL, q), 1);
    for (int j = 0; j < 3; j++)
        ck_assert(q_is(q[j], "1/3"));
    ck_assert_int_eq(intersect_q(B, A, NULL, q), 1);
    for (int j = 0; j < 3; j++)
        ck_assert(q_is(q[j], "1/3"));
    q_vec_clear(q, 3);
    double x[3];
    ck_assert_int_eq(intersect_d(A, B, NULL, x), 1);
    for (int j = 0; j < 3; j++)
        ck_assert(fabs(x[j] - 1.0 / 3.0) < 1e-12);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

/* x <= 0.1 (exactly 1/10) against x >= the double nearest 0.1 (which is
 * larger than 1/10): disjoint exactly, but equal as doubles. */
START_TEST(exact_version_reads_exact_rows)
{
    hs_poly *A = sys_of(1, "1 <= 0.1");
    hs_poly *B = sys_of(1, "-1 <= -0.1000000000000000055511151231257827021181583404541015625");
    ck_assert_int_eq(intersect_q(A, B, NULL, NULL), 0);
    ck_assert_int_eq(intersect_d(A, B, NULL, NULL), 1);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(four_and_five_dimensions)
{
    for (int n = 4; n <= 5; n++) {
        pair_case(simplex(n), box(n, "1/10", "2"), 1);
        pair_case(simplex(n), box(n, "3/10", "2"), 0);
        pair_case(simplex(n), uniform_row(n, "-1", "<=", "-1"), 1); /* touching face */
        pair_case(simplex(n), box(n, "-1", "0"), 1);                /* touching at 0 */
        pair_case(box(n, "0", "1"), box(n, "1", "2"), 1);           /* corner */
        pair_case(box(n, "0", "1"), box(n, "11/10", "2"), 0);
        /* unbounded: a half-space far from the orthant */
        hs_poly *H = uniform_row(n, "1", "<=", "-10");
        hs_poly *O = box(n, "0", "1000");
        expect_pair(H, O, 0);
        expect_feasible(H, 1);
        hs_poly_free(H);
        hs_poly_free(O);
    }
    /* equalities in 5 dimensions: x1 = x2, x3 = 2 x4, sum = 3, x5 >= 1/3 */
    hs_poly *E = sys_of(5, "1 -1 0 0 0 = 0; 0 0 1 -2 0 = 0; 1 1 1 1 1 = 3; 0 0 0 0 -1 <= -1/3");
    expect_feasible(E, 1);
    pair_case(E, box(5, "0", "1"), 1);
    /* slab 1 <= x1 + x2 <= 2 against x3 >= 7 in 4 dimensions */
    pair_case(sys_of(4, "1 1 0 0 <= 2; -1 -1 0 0 <= -1"), sys_of(4, "0 0 -1 0 <= -7"), 1);
}
END_TEST

START_TEST(five_dimensional_cross_check_thirds)
{
    /* x1 = x2 = ... = x5 and 3 * sum = 5: the point (1/3, ..., 1/3) */
    hs_poly *A = sys_of(5, "1 -1 0 0 0 = 0; 0 1 -1 0 0 = 0; 0 0 1 -1 0 = 0; 0 0 0 1 -1 = 0");
    hs_poly *B = sys_of(5, "3 3 3 3 3 = 5");
    mpq_t q[5];
    q_vec_init(q, 5);
    ck_assert_int_eq(intersect_q(A, B, NULL, q), 1);
    for (int j = 0; j < 5; j++)
        ck_assert(q_is(q[j], "1/3"));
    q_vec_clear(q, 5);
    ck_assert_int_eq(intersect_d(A, B, NULL, NULL), 1);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

/* ----------------------------------------------------- errors, options */

START_TEST(bad_arguments)
{
    hs_poly *A = box(2, "0", "1"), *B = box(3, "0", "1");
    double x[3];
    hs_error err;
    hs_error_clear(&err);
    ck_assert_int_eq(seed_intersect_d(A, B, NULL, x, NULL, &err), -1);
    ck_assert_int_eq(err.code, HS_ERR_ARG);
    hs_options opt;
    hs_options_init(&opt);
    opt.faithful_tol = -1;
    hs_error_clear(&err);
    ck_assert_int_eq(seed_feasible_d(A, &opt, x, NULL, &err), -1);
    ck_assert_int_eq(err.code, HS_ERR_ARG);
    opt.engine = HS_ENGINE_FAITHFUL;
    hs_result *r = hs_result_new();
    ck_assert_int_eq(hs_feasible(A, &opt, r, &err), HS_ERR_ARG);
    ck_assert_int_eq(hs_feasible(A, &opt, r, NULL), HS_ERR_ARG);
    hs_result_free(r);
    /* the exact version has no tolerance to check */
    mpq_t q[2];
    q_vec_init(q, 2);
    ck_assert_int_eq(seed_feasible_q(A, &opt, q, NULL, &err), 1);
    q_vec_clear(q, 2);
    hs_poly_free(A);
    hs_poly_free(B);
}
END_TEST

START_TEST(faithful_engine_answers)
{
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = HS_ENGINE_FAITHFUL;
    hs_result *r = hs_result_new();
    hs_error err;
    hs_poly *A = box(3, "0", "1"), *B = box(3, "2", "3"), *E = sys_of(1, "1 <= 0; -1 <= -1");
    ck_assert_int_eq(hs_intersect(A, B, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_DISJOINT);
    ck_assert(!hs_result_has_point(r));
    ck_assert_int_gt(hs_result_nodes(r), 0);
    ck_assert_int_eq(hs_feasible(E, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_INFEASIBLE);
    ck_assert(!hs_result_has_point(r));
    ck_assert_int_eq(hs_feasible(B, &opt, r, &err), HS_OK);
    ck_assert_int_eq(hs_result_status(r), HS_FEASIBLE);
    char *c0 = hs_result_point_str(r, 0);
    /* tie |A1| = |A3| = 1: the earliest row, x1 <= 3, becomes the equality */
    ck_assert_str_eq(c0, "3");
    hs_free(c0);
    hs_poly_free(A);
    hs_poly_free(B);
    hs_poly_free(E);
    hs_result_free(r);
}
END_TEST

/* ----------------------------------------------- randomized cross-check */

/* A small deterministic generator (no global state). */
static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 8) & 0xffffu;
}

static hs_poly *random_system(unsigned *state, int n, int m)
{
    char spec[4096] = "";
    size_t k = 0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++)
            k += (size_t)snprintf(spec + k, sizeof spec - k, "%d ",
                                  (int)(next_random(state) % 7) - 3);
        int eq = next_random(state) % 9 == 0;
        k += (size_t)snprintf(spec + k, sizeof spec - k, "%s %d;", eq ? "=" : "<=",
                              (int)(next_random(state) % 11) - 3);
    }
    spec[k - 1] = '\0';
    return sys_of(n, spec);
}

/* The two systems stacked into one. */
static hs_poly *stacked(const hs_poly *A, const hs_poly *B)
{
    hs_poly *S = hpoly_alloc(A->n, A->m + B->m, "stacked");
    ck_assert(S != NULL);
    mpq_t v;
    mpq_init(v);
    for (int i = 0; i < A->m + B->m; i++) {
        const hs_poly *P = i < A->m ? A : B;
        int r = i < A->m ? i : i - A->m;
        for (int j = 0; j <= A->n; j++) {
            const char *why = NULL;
            hpoly_get_q(P, r, j, v);
            ck_assert(hpoly_set_q(S, i, j, v, &why) == 0);
        }
        S->eq[i] = P->eq[r];
    }
    mpq_clear(v);
    return S;
}

/* qiujiao(A, B) must agree with xianliang on A and B stacked (exactly),
 * and the double version must agree on these small integer systems. */
START_TEST(random_pairs_agree_with_stacked_system)
{
    unsigned state = 20240601u;
    int met = 0, apart = 0;
    for (int round = 0; round < 400; round++) {
        int n = 1 + round % 4;
        hs_poly *A = random_system(&state, n, 2 + (int)(next_random(&state) % 5));
        hs_poly *B = random_system(&state, n, 2 + (int)(next_random(&state) % 5));
        hs_poly *S = stacked(A, B);
        int pair = intersect_q(A, B, NULL, NULL);
        ck_assert_int_eq(pair, feasible_q(S, NULL));
        ck_assert_int_eq(intersect_q(B, A, NULL, NULL), pair);
        ck_assert_int_eq(intersect_d(A, B, NULL, NULL), pair);
        met += pair;
        apart += !pair;
        hs_poly_free(A);
        hs_poly_free(B);
        hs_poly_free(S);
    }
    ck_assert_int_gt(met, 40);
    ck_assert_int_gt(apart, 40);
}
END_TEST

Suite *suite_paper(void)
{
    Suite *s = suite_create("paper");
    TCase *tc = tcase_create("paper");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, examples_overlap_points_are_interior);
    tcase_add_test(tc, example1_both_instantiations);
    tcase_add_test(tc, example2_both_instantiations);
    tcase_add_test(tc, examples_through_the_faithful_engine);
    tcase_add_test(tc, trace_example2_honest);
    tcase_add_test(tc, trace_example2_replayed_double);
    tcase_add_test(tc, trace_example2_replayed_exact);
    tcase_add_test(tc, trace_example1);
    tcase_add_test(tc, trace_equality_halves_and_long_names);
    tcase_add_test(tc, trace_long_systems_are_summarised);
    tcase_add_test(tc, trace_disjoint_reaches_step8);
    tcase_add_test(tc, no_trace_without_callback);
    tcase_add_test(tc, one_dimension);
    tcase_add_test(tc, empty_systems);
    tcase_add_test(tc, two_dimensions_simplices);
    tcase_add_test(tc, two_dimensions_planes_and_lines);
    tcase_add_test(tc, three_dimensions);
    tcase_add_test(tc, exact_point_with_thirds);
    tcase_add_test(tc, exact_version_reads_exact_rows);
    tcase_add_test(tc, four_and_five_dimensions);
    tcase_add_test(tc, five_dimensional_cross_check_thirds);
    tcase_add_test(tc, bad_arguments);
    tcase_add_test(tc, faithful_engine_answers);
    tcase_add_test(tc, random_pairs_agree_with_stacked_system);
    suite_add_tcase(s, tc);
    return s;
}
