/* vertices.c -- vertex enumeration of a 3-D H-polytope through the convex
 * hull of its dual points (see vertices.h). */
#include "solver/vertices.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/expansion.h"
#include "polytope/fp.h"
#include "polytope/hpoly.h"
#include "polytope/hull3.h"
#include "polytope/predicates.h"
#include "solver/simplex_q.h"
#include "polytope/rational.h"
#include "solver/rows_z.h"
#include "polytope/error.h"
#include "polytope/mem.h"

/* Working data of one enumeration. */
typedef struct venum {
    const hs_poly *P;
    int m;
    double *h4;     /* m * 4: (a_i, b_i) as nearest doubles */
    mpq_t *q4;      /* m * 4: (a_i, b_i) exactly; NULL when every row is
                       exact in doubles (h4 then holds the rows) */
    int *rows;      /* hull point -> row (rows with a_i != 0) */
    int npts;
    double *approx; /* npts * 3: dual points in double (heuristics only) */
    mpq_t c[3];     /* a point strictly inside P */
    mpq_t origin[4];
    mpq_t t[4];     /* scratch */
    mpq_t xq[3];    /* a vertex, when the set keeps no rationals */
    double cd[3];   /* c as doubles, when c_double (c given by the caller) */
    int c_double;
    int want_q;     /* fill vertex_set.q */
} venum;

static const double origin_d[4] = {0, 0, 0, 1};

static double *h4_row(const venum *ve, int r) { return ve->h4 + 4 * (size_t)r; }
static mpq_t *q4_row(const venum *ve, int r) { return ve->q4 + 4 * (size_t)r; }

static void ve_free(venum *ve)
{
    if (ve->q4)
        for (int i = 0; i < 4 * ve->m; i++)
            mpq_clear(ve->q4[i]);
    free(ve->q4);
    free(ve->h4);
    free(ve->rows);
    free(ve->approx);
    for (int j = 0; j < 4; j++) {
        mpq_clear(ve->origin[j]);
        mpq_clear(ve->t[j]);
        if (j < 3) {
            mpq_clear(ve->c[j]);
            mpq_clear(ve->xq[j]);
        }
    }
}

static int ve_init(venum *ve, const hs_poly *P)
{
    memset(ve, 0, sizeof *ve);
    ve->P = P;
    ve->m = P->m;
    for (int j = 0; j < 4; j++) {
        mpq_init(ve->origin[j]);
        mpq_init(ve->t[j]);
        if (j < 3) {
            mpq_init(ve->c[j]);
            mpq_init(ve->xq[j]);
        }
    }
    mpq_set_ui(ve->origin[3], 1, 1);
    ve->h4 = mem_alloc((size_t)P->m * 4, sizeof(double));
    ve->rows = mem_alloc((size_t)P->m, sizeof(int));
    ve->approx = mem_alloc((size_t)P->m * 3, sizeof(double));
    if (!ve->h4 || !ve->rows || !ve->approx)
        return -1;
    int all_exact = 1;
    for (int i = 0; i < P->m; i++) {
        all_exact = all_exact && P->exact[i];
        for (int j = 0; j < 4; j++)
            h4_row(ve, i)[j] = j < 3 ? hpoly_row(P, i)[j] : P->b[i];
    }
    if (all_exact)
        return 0; /* the doubles are the rows: no rationals needed */
    ve->q4 = mem_alloc_gmp((size_t)P->m * 4, sizeof(mpq_t));
    if (!ve->q4)
        return -1;
    for (int i = 0; i < P->m; i++)
        for (int j = 0; j < 4; j++) {
            mpq_init(q4_row(ve, i)[j]);
            hpoly_get_q(P, i, j, q4_row(ve, i)[j]);
        }
    return 0;
}

/* out = entry j of row r (j = 3: b_r), exactly. */
static void row_entry_q(const venum *ve, int r, int j, mpq_t out)
{
    if (ve->q4)
        mpq_set(out, q4_row(ve, r)[j]);
    else
        mpq_set_d(out, h4_row(ve, r)[j]);
}

/* Sign of entry j of row r. */
static int row_entry_sign(const venum *ve, int r, int j)
{
    if (ve->q4)
        return mpq_sgn(q4_row(ve, r)[j]);
    double v = h4_row(ve, r)[j];
    return (v > 0) - (v < 0);
}

/* ------------------------------------------------------------ checks */

static hs_code check_input(const hs_poly *P, hs_error *err)
{
    if (P->n != 3)
        return err_at(err, P->name, P->size_line,
                          "%d variables; vertex enumeration needs 3", P->n);
    for (int i = 0; i < P->m; i++)
        if (P->eq[i])
            return err_at(err, P->name, P->line[i],
                              "row %d is an equality (linearity) row; vertex enumeration "
                              "takes inequality rows only", i + 1);
    return HS_OK;
}

static int zero_normal(const venum *ve, int r)
{
    return row_entry_sign(ve, r, 0) == 0 && row_entry_sign(ve, r, 1) == 0 &&
           row_entry_sign(ve, r, 2) == 0;
}

/* Rows 0 . x <= b: empty when b < 0, otherwise left out of the hull. */
static hs_code collect_rows(venum *ve, hs_error *err)
{
    ve->npts = 0;
    for (int i = 0; i < ve->m; i++) {
        if (!zero_normal(ve, i)) {
            ve->rows[ve->npts++] = i;
            continue;
        }
        if (row_entry_sign(ve, i, 3) < 0)
            return err_at(err, ve->P->name, 0,
                              "the polyhedron is empty (row %d reads 0 <= a negative number)",
                              i + 1);
    }
    return HS_OK;
}

/* Sign of a_r . c - b_r, exactly (c: doubles cd when c_double). */
static int row_slack_sign(venum *ve, int r)
{
    if (!ve->q4 && ve->c_double) {
        const double *h = h4_row(ve, r);
        return pred_row_sign(h, ve->cd, h[3], 3, NULL);
    }
    mpq_set_ui(ve->t[0], 0, 1);
    for (int j = 0; j < 3; j++) {
        row_entry_q(ve, r, j, ve->t[2]);
        mpq_mul(ve->t[1], ve->t[2], ve->c[j]);
        mpq_add(ve->t[0], ve->t[0], ve->t[1]);
    }
    row_entry_q(ve, r, 3, ve->t[2]);
    return mpq_cmp(ve->t[0], ve->t[2]);
}

static hs_code take_interior(venum *ve, const double *interior, hs_error *err)
{
    for (int j = 0; j < 3; j++) {
        if (!isfinite(interior[j]))
            return err_set(err, HS_ERR_ARG,
                           "vertex enumeration: the interior point has a non-finite coordinate");
        mpq_set_d(ve->c[j], interior[j]);
        ve->cd[j] = interior[j];
    }
    ve->c_double = 1;
    for (int k = 0; k < ve->npts; k++)
        if (row_slack_sign(ve, ve->rows[k]) >= 0)
            return err_set(err, HS_ERR_ARG,
                           "vertex enumeration: the given point is not strictly inside %s "
                           "(row %d is not strict there)", ve->P->name, ve->rows[k] + 1);
    return HS_OK;
}

/* The exact slack LP: tau* > 0 gives a strictly interior point. */
static hs_code find_interior(venum *ve, hs_error *err)
{
    zrows z;
    lp_solution sol;
    unsigned char *kind = mem_calloc((size_t)ve->m, 1);
    if (!kind || zrows_build(&z, ve->P, NULL) != 0) {
        free(kind);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    hs_code rc = HS_OK;
    for (int k = 0; k < ve->npts; k++)
        kind[ve->rows[k]] = LP_SLACK;
    if (lp_solution_init(&sol, 3, ve->m) != 0)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    else {
        int lp = lp_solve(&z, kind, &sol);
        if (lp != 0)
            rc = lp == -1 ? err_set(err, HS_ERR_NOMEM, "out of memory")
                          : err_set(err, HS_ERR_INTERNAL,
                                    "vertex enumeration: the slack LP failed (please report)");
        else if (mpq_sgn(sol.tau) < 0)
            rc = err_at(err, ve->P->name, 0, "the polyhedron is empty");
        else if (mpq_sgn(sol.tau) == 0)
            rc = err_at(err, ve->P->name, 0,
                            "the polyhedron is not full-dimensional (it has no interior "
                            "point)");
        else
            for (int j = 0; j < 3; j++)
                mpq_set(ve->c[j], sol.x[j]);
        lp_solution_free(&sol);
    }
    zrows_free(&z);
    free(kind);
    return rc;
}

/* ------------------------------------------------------------ the dual hull */

/* y_i = a_i / (b_i - a_i . c) in double, for the hull's heuristics. */
static void dual_approx(venum *ve)
{
    double c[3] = {mpq_get_d(ve->c[0]), mpq_get_d(ve->c[1]), mpq_get_d(ve->c[2])};
    for (int k = 0; k < ve->npts; k++) {
        const double *h = h4_row(ve, ve->rows[k]);
        double s = h[3] - (h[0] * c[0] + h[1] * c[1] + h[2] * c[2]);
        if (!(s > 0))
            s = 0x1p-1000;
        for (int j = 0; j < 3; j++)
            ve->approx[3 * k + j] = h[j] / s;
    }
}

/* Orientation of the dual points of rows r[0..3]: the sign of
 * -det[a_i b_i] (see vertices.h). */
static int rows_orient(venum *ve, const int r[4])
{
    const hs_poly *P = ve->P;
    if (P->exact[r[0]] && P->exact[r[1]] && P->exact[r[2]] && P->exact[r[3]])
        return -pred_det4_rows(h4_row(ve, r[0]), h4_row(ve, r[1]), h4_row(ve, r[2]),
                                h4_row(ve, r[3]));
    return -pred_det4_sign_q(q4_row(ve, r[0]), q4_row(ve, r[1]), q4_row(ve, r[2]),
                              q4_row(ve, r[3]));
}

static int dual_orient(void *user, int i, int j, int k, int l)
{
    venum *ve = user;
    const int r[4] = {ve->rows[i], ve->rows[j], ve->rows[k], ve->rows[l]};
    return rows_orient(ve, r);
}

/* (a_i, b_i) is the image of the dual point's homogeneous coordinates
 * (a_i, b_i - a_i . c) under (a, s) -> (a, s + a . c), determinant 1. */
static void dual_exact(void *user, int i, mpq_t h[4])
{
    venum *ve = user;
    for (int j = 0; j < 4; j++)
        row_entry_q(ve, ve->rows[i], j, h[j]);
}

/* Orientation of the origin of the dual space (P's interior point)
 * against the dual facet through rows r0, r1, r2. */
static int origin_orient(venum *ve, int r0, int r1, int r2)
{
    const hs_poly *P = ve->P;
    if (P->exact[r0] && P->exact[r1] && P->exact[r2])
        return -pred_det4_rows(h4_row(ve, r0), h4_row(ve, r1), h4_row(ve, r2), origin_d);
    return -pred_det4_sign_q(q4_row(ve, r0), q4_row(ve, r1), q4_row(ve, r2), ve->origin);
}

static hs_code unbounded(const venum *ve, hs_error *err)
{
    return err_at(err, ve->P->name, 0,
                      "the polyhedron is unbounded (vertex enumeration needs a polytope)");
}

/* The row of point i as doubles, when they are its exact entries. */
static int dual_exact_d(void *user, int i, double h[4])
{
    venum *ve = user;
    int r = ve->rows[i];
    memcpy(h, h4_row(ve, r), 4 * sizeof(double));
    return ve->P->exact[r] != 0;
}

static hs_code dual_hull(venum *ve, hull3 **h, hs_error *err)
{
    dual_approx(ve);
    hull3_source src = {ve->npts, ve->approx, dual_orient, dual_exact, ve, dual_exact_d};
    hs_error herr;
    hs_error_clear(&herr);
    hs_code rc = hull3_from_source(&src, h, &herr);
    if (rc == HS_ERR_INPUT)
        return unbounded(ve, err); /* the normals do not surround the origin */
    if (rc != HS_OK) {
        if (err)
            *err = herr;
        return rc;
    }
    /* Bounded exactly when the origin is strictly inside every dual facet. */
    for (int f = 0; f < (*h)->nfacets; f++) {
        const int *c = (*h)->facet_vert + (*h)->facet_start[f];
        if (origin_orient(ve, ve->rows[c[0]], ve->rows[c[1]], ve->rows[c[2]]) >= 0)
            return unbounded(ve, err);
    }
    return HS_OK;
}

/* ------------------------------------------------------------ output */

/* x = the point where rows r[0..2] are tight (Cramer's rule); -1 if the
 * rows are dependent (cannot happen for three corners of a dual facet). */
static int solve_rows(venum *ve, const int r[3], mpq_t *x)
{
    mpq_t M[9], D, Dj;
    mpq_inits(D, Dj, NULL);
    for (int i = 0; i < 9; i++)
        mpq_init(M[i]);
    int ok = 1;
    for (int j = -1; j < 3 && ok; j++) {
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                row_entry_q(ve, r[i], k == j ? 3 : k, M[3 * i + k]);
        pred_det3_q(j < 0 ? D : Dj, M, ve->t[0], ve->t[1]);
        if (j < 0)
            ok = mpq_sgn(D) != 0;
        else
            mpq_div(x[j], Dj, D);
    }
    for (int i = 0; i < 9; i++)
        mpq_clear(M[i]);
    mpq_clears(D, Dj, NULL);
    return ok ? 0 : -1;
}

/* ------------------------------------------------ vertices of double rows
 *
 * When the three corner rows are exact doubles (the common case), the
 * vertex is solved by Cramer's rule with the determinants formed exactly
 * as floating-point expansions (polytope/expansion.h) instead of GMP
 * rationals: D = det A and D_j = det A_j (column j replaced by b).  Every
 * entry lying in [2^-250, 2^250] (or 0), the products of three are
 * multiples of 2^-906 below 2^753, so the expansions are exact.  Then
 *   - the rational x_j = D_j / D is built once from two integers (one
 *     canonicalisation: the same value, in lowest terms, as before);
 *   - its nearest double and its directed roundings come from exact signs
 *     of D_j - y D for candidate doubles y (y D an exact expansion when
 *     |y| lies in [2^-100, 2^200]: its products are then multiples of
 *     2^-1060 below 2^960); outside that range, or for entries outside
 *     theirs, the GMP path below is taken. */
#define XV_MIN 0x1p-250
#define XV_MAX 0x1p+250

/* The four 3x3 minors of the 3x4 matrix W (rows (a_i, b_i)) that
 * Cramer's rule needs, exactly, as compressed expansions of at most 24
 * components: out[3] = D = det(columns 0, 1, 2) and out[j] = D_j, column
 * j replaced by column 3.  The six 2x2 minors of rows 1 and 2 are formed
 * once; each 3x3 minor expands along row 0. */
static void cramer_expansions(double W[3][4], double out[4][24], int len[4])
{
    static const int cols[4][3] = {{3, 1, 2}, {0, 3, 2}, {0, 1, 3}, {0, 1, 2}};
    double m[4][4][4]; /* m[p][q]: W1p W2q - W1q W2p, p < q */
    int ml[4][4];
    for (int p = 0; p < 4; p++)
        for (int q = p + 1; q < 4; q++)
            ml[p][q] = xp_prod_diff(W[1][p], W[2][q], W[1][q], W[2][p], m[p][q]);
    for (int d = 0; d < 4; d++) {
        const int *c = cols[d];
        double t[3][8], u[16];
        int tl[3];
        for (int k = 0; k < 3; k++) {
            /* the minor of columns c[other two], kept in the order of
             * c: its sign flips when they are stored the other way */
            int a = c[k == 0 ? 1 : 0], b = c[k == 2 ? 1 : 2];
            double f = (k == 1 ? -1 : 1) * W[0][c[k]];
            if (a > b) {
                int tmp = a;
                a = b;
                b = tmp;
                f = -f;
            }
            tl[k] = xp_scale(ml[a][b], m[a][b], f, t[k]);
        }
        int ul = xp_sum(tl[0], t[0], tl[1], t[1], u);
        int l = xp_sum(ul, u, tl[2], t[2], out[d]);
        len[d] = xp_compress(l, out[d], out[d]);
    }
}

/* Lowest exponent l with every component of e a multiple of 2^l (a
 * component f 2^k, f in [1/2, 1), is a multiple of 2^(k - 53)). */
static int xp_low_exponent(int len, const double *e, int low)
{
    for (int i = 0; i < len; i++) {
        int k;
        frexp(e[i], &k);
        low = k - 53 < low ? k - 53 : low;
    }
    return low;
}

/* z = e / 2^low, an integer (low from xp_low_exponent). */
static void xp_to_mpz(mpz_t z, int len, const double *e, int low, mpz_t t)
{
    mpz_set_ui(z, 0);
    for (int i = 0; i < len; i++) {
        int k;
        double f = frexp(e[i], &k);
        mpz_set_d(t, ldexp(f, 53)); /* an integer of at most 53 bits */
        mpz_mul_2exp(t, t, (mp_bitcnt_t)(k - 53 - low));
        mpz_add(z, z, t);
    }
}

/* Sign of x - y for x = Dj / D (D nonzero), y a double in the range of the
 * comment above or 0: the sign of (Dj - y D) times that of D. */
static int quotient_cmp(int dlen, const double *D, int jlen, const double *Dj, double y)
{
    double yD[48], diff[72];
    int yl = xp_scale(dlen, D, -y, yD);
    int l = xp_sum(jlen, Dj, yl, yD, diff);
    return xp_sign(l, diff) * xp_sign(dlen, D);
}

static int in_quotient_range(double y)
{
    double m = fabs(y);
    return m >= 0x1p-100 && m <= 0x1p+200;
}

/* The sum of an expansion's components in floating point (smallest
 * first) and a bound on its error: recursive summation of len terms is
 * off by at most gamma_(len-1) times the sum of their magnitudes, here
 * taken generously as gamma_(2 len + 2) times the computed one. */
static double approx_sum(int len, const double *e, double *bound)
{
    double s = 0, mag = 0;
    for (int i = 0; i < len; i++) {
        s += e[i];
        mag += fabs(e[i]);
    }
    *bound = fp_gamma(2 * len + 2) * mag;
    return s;
}

/* The fast path of quotient_roundings: y a double in range, r = Dj - y D
 * exactly (so x - y = r / D).  When floating-point bounds on |r| / |D|
 * place x strictly inside the gap from y to its neighbour y2 on x's side,
 * away from the midpoint, the roundings follow; returns 0 then, -1 when
 * the bounds cannot decide. */
static int quotient_bracket(int dlen, const double *D, int rlen, const double *r, double y,
                            double *nearest, double *down, double *up)
{
    int s = xp_sign(rlen, r) * xp_sign(dlen, D);
    if (s == 0) {
        *nearest = *down = *up = y;
        return 0;
    }
    double y2 = nextafter(y, s > 0 ? INFINITY : -INFINITY);
    if (!in_quotient_range(y2))
        return -1;
    double er, ed, rr = fabs(approx_sum(rlen, r, &er)), dd = fabs(approx_sum(dlen, D, &ed));
    if (!(dd > 2 * ed))
        return -1;
    /* |x - y| = |r| / |D| within [lower, upper]; the three roundings of
     * each quotient are covered by the factors 1 -+ 8u */
    double lower = (rr - er) / (dd + ed) * (1 - 8 * FP_U);
    double upper = (rr + er) / (dd - ed) * (1 + 8 * FP_U);
    double gap = fabs(y2 - y), half = gap / 2; /* both exact */
    if (upper < half)
        *nearest = y;
    else if (lower > half && upper < gap)
        *nearest = y2;
    else
        return -1;
    *down = s > 0 ? y : y2;
    *up = s > 0 ? y2 : y;
    return 0;
}

/* r = Dj - y D exactly; returns its length (r holds 72 doubles). */
static int quotient_residual(int dlen, const double *D, int jlen, const double *Dj, double y,
                             double *r)
{
    double yD[48];
    int yl = xp_scale(dlen, D, -y, yD);
    return xp_sum(jlen, Dj, yl, yD, r);
}

/* The nearest double of x = Dj / D (ties to even), and the largest double
 * <= x and the smallest >= x, exactly; 0 on success, -1 when x is outside
 * the range where the expansions are exact (then nothing is written).
 * First a candidate y = fl(Dj / D) corrected once by the exact residual,
 * decided by quotient_bracket; when that cannot decide (x within a few
 * ulps of a double or a midpoint), exact signs of Dj - y D step by step. */
static int quotient_roundings(int dlen, const double *D, int jlen, const double *Dj,
                              double *nearest, double *down, double *up)
{
    if (jlen == 0) {
        *nearest = *down = *up = 0.0;
        return 0;
    }
    double er, dn = approx_sum(dlen, D, &er), nu = approx_sum(jlen, Dj, &er);
    double y = nu / dn; /* within a few units in the last place of x */
    if (in_quotient_range(y)) {
        double r[72];
        int rl = quotient_residual(dlen, D, jlen, Dj, y, r);
        double y1 = y + approx_sum(rl, r, &er) / dn; /* one correction */
        if (y1 != y && in_quotient_range(y1)) {
            y = y1;
            rl = quotient_residual(dlen, D, jlen, Dj, y, r);
        }
        if (quotient_bracket(dlen, D, rl, r, y, nearest, down, up) == 0)
            return 0;
    }
    for (int step = 0; step < 8; step++) {
        if (!in_quotient_range(y))
            return -1;
        int s = quotient_cmp(dlen, D, jlen, Dj, y);
        if (s == 0) {
            *nearest = *down = *up = y;
            return 0;
        }
        double y2 = nextafter(y, s > 0 ? INFINITY : -INFINITY);
        if (!in_quotient_range(y2))
            return -1;
        int s2 = quotient_cmp(dlen, D, jlen, Dj, y2);
        if (s2 == 0) {
            *nearest = *down = *up = y2;
            return 0;
        }
        if (s2 == s) { /* x lies beyond y2: move on */
            y = y2;
            continue;
        }
        double lo = s > 0 ? y : y2, hi = s > 0 ? y2 : y;
        *down = lo;
        *up = hi;
        /* x against the midpoint lo/2 + hi/2 (both halves exact) */
        double half[96], diff[144];
        int l1 = xp_scale(dlen, D, -lo / 2, half);
        int l2 = xp_scale(dlen, D, -hi / 2, half + 48);
        int hl = xp_sum(l1, half, l2, half + 48, diff);
        int l = xp_sum(jlen, Dj, hl, diff, half);
        int c = xp_sign(l, half) * xp_sign(dlen, D);
        if (c == 0) { /* a tie: the even significand */
            int e;
            double f = frexp(lo, &e);
            c = fmod(ldexp(f, 53), 2) != 0 ? 1 : -1;
        }
        *nearest = c > 0 ? hi : lo;
        return 0;
    }
    return -1;
}

/* Vertex f from double rows r[0..2] (all exact): the rationals x[0..2]
 * (unless x is NULL), vs->x and the box.  Returns 1 when done, 0 when the magnitudes call for
 * the GMP path, -1 when the rows are dependent. */
static int solve_double_rows(venum *ve, const int r[3], mpq_t *x, double xd[3], double lo[3],
                             double hi[3])
{
    double W[3][4], E[4][24];
    int len[4];
    for (int i = 0; i < 3; i++) {
        const double *h = h4_row(ve, r[i]);
        for (int k = 0; k < 4; k++) {
            double m = fabs(h[k]);
            if (m != 0 && (m < XV_MIN || m > XV_MAX))
                return 0;
        }
        memcpy(W[i], h, 4 * sizeof(double));
    }
    cramer_expansions(W, E, len);
    if (len[3] == 0)
        return -1;
    for (int j = 0; j < 3; j++)
        if (quotient_roundings(len[3], E[3], len[j], E[j], &xd[j], &lo[j], &hi[j]) != 0)
            return 0;
    if (!x)
        return 1;
    int low = xp_low_exponent(len[3], E[3], INT_MAX);
    for (int j = 0; j < 3; j++)
        low = xp_low_exponent(len[j], E[j], low);
    mpz_t den, t;
    mpz_inits(den, t, NULL);
    xp_to_mpz(den, len[3], E[3], low, t);
    for (int j = 0; j < 3; j++) {
        xp_to_mpz(mpq_numref(x[j]), len[j], E[j], low, t);
        mpz_set(mpq_denref(x[j]), den);
        if (mpz_sgn(den) < 0) {
            mpz_neg(mpq_numref(x[j]), mpq_numref(x[j]));
            mpz_neg(mpq_denref(x[j]), mpq_denref(x[j]));
        }
        mpq_canonicalize(x[j]);
    }
    mpz_clears(den, t, NULL);
    return 1;
}

static vertex_set *set_alloc(int m, int nverts, int nedges, int want_q)
{
    vertex_set *vs = calloc(1, sizeof *vs);
    if (!vs)
        return NULL;
    vs->m = m;
    vs->nverts = nverts;
    vs->q = want_q ? mem_alloc_gmp((size_t)nverts * 3, sizeof(mpq_t)) : NULL;
    if (vs->q)
        for (int i = 0; i < 3 * nverts; i++)
            mpq_init(vs->q[i]);
    vs->x = mem_alloc((size_t)nverts * 3, sizeof(double));
    vs->tight_start = mem_calloc((size_t)nverts + 1, sizeof(int));
    vs->edges = mem_alloc((size_t)nedges * 2, sizeof(int));
    vs->is_facet = mem_calloc((size_t)m, 1);
    if ((want_q && !vs->q) || !vs->x || !vs->tight_start || !vs->edges || !vs->is_facet) {
        vertex_set_free(vs);
        return NULL;
    }
    return vs;
}

static hs_code fill_vertices(venum *ve, const hull3 *h, vertex_set *vs, hs_error *err)
{
    for (int f = 0; f < h->nfacets; f++) {
        const int *c = h->facet_vert + h->facet_start[f];
        const int r[3] = {ve->rows[c[0]], ve->rows[c[1]], ve->rows[c[2]]};
        mpq_t *x = vs->q ? vs->q + 3 * (size_t)f : NULL;
        int done = 0;
        if (XP_RELIABLE && ve->P->exact[r[0]] && ve->P->exact[r[1]] && ve->P->exact[r[2]]) {
            double xd[3], lo[3], hi[3];
            done = solve_double_rows(ve, r, x, xd, lo, hi);
            for (int j = 0; done > 0 && j < 3; j++) {
                vs->x[3 * f + j] = xd[j];
                if (f == 0 || lo[j] < vs->lo[j])
                    vs->lo[j] = lo[j];
                if (f == 0 || hi[j] > vs->hi[j])
                    vs->hi[j] = hi[j];
            }
        }
        if (done > 0)
            continue;
        if (done < 0 || solve_rows(ve, r, x ? x : ve->xq) != 0)
            return err_set(err, HS_ERR_INTERNAL,
                           "vertex enumeration: dependent corner rows (please report)");
        for (int j = 0; j < 3; j++) {
            mpq_ptr xj = x ? x[j] : ve->xq[j];
            vs->x[3 * f + j] = q_nearest_double(xj, NULL);
            double lo = q_round_down(xj), hi = q_round_up(xj);
            if (f == 0 || lo < vs->lo[j])
                vs->lo[j] = lo;
            if (f == 0 || hi > vs->hi[j])
                vs->hi[j] = hi;
        }
    }
    return HS_OK;
}

static void fill_edges_and_facets(venum *ve, const hull3 *h, vertex_set *vs)
{
    int e = 0;
    for (int f = 0; f < h->nfacets; f++)
        for (int k = h->facet_start[f]; k < h->facet_start[f + 1]; k++)
            if (f < h->facet_nb[k]) {
                vs->edges[2 * e] = f;
                vs->edges[2 * e + 1] = h->facet_nb[k];
                e++;
            }
    vs->nedges = e;
    for (int i = 0; i < h->nverts; i++)
        vs->is_facet[ve->rows[h->verts[i]]] = 1;
    vs->nfacets = h->nverts;
}

/* ------------------------------------------------------------ tight rows */

/* Pairs (vertex, row) in a growing array. */
typedef struct pairs {
    int *v;
    int n, cap;
} pairs;

static int add_pair(pairs *pr, int vert, int row)
{
    if (pr->n + 2 > pr->cap) {
        int cap = pr->cap ? 2 * pr->cap : 256;
        int *nv = mem_realloc(pr->v, (size_t)cap, sizeof(int));
        if (!nv)
            return -1;
        pr->v = nv;
        pr->cap = cap;
    }
    pr->v[pr->n++] = vert;
    pr->v[pr->n++] = row;
    return 0;
}

/* Rows tight at vertex f: its dual facet's corners, the other dual points
 * on that facet's plane (redundant rows through the vertex, duplicates),
 * and rows 0 . x <= 0. */
static int collect_tight(venum *ve, const hull3 *h, pairs *pr)
{
    unsigned char *corner = mem_calloc((size_t)ve->npts, 1);
    int *always = mem_alloc((size_t)ve->m, sizeof(int)), nalways = 0;
    if (!corner || !always) {
        free(corner);
        free(always);
        return -1;
    }
    for (int i = 0; i < h->nverts; i++)
        corner[h->verts[i]] = 1;
    for (int i = 0; i < ve->m; i++)
        if (zero_normal(ve, i) && row_entry_sign(ve, i, 3) == 0)
            always[nalways++] = i;
    int rc = 0;
    for (int f = 0; f < h->nfacets && rc == 0; f++) {
        const int *c = h->facet_vert + h->facet_start[f];
        for (int k = h->facet_start[f]; k < h->facet_start[f + 1] && rc == 0; k++)
            rc = add_pair(pr, f, ve->rows[h->facet_vert[k]]);
        for (int p = 0; p < ve->npts && rc == 0; p++)
            if (!corner[p] && dual_orient(ve, c[0], c[1], c[2], p) == 0)
                rc = add_pair(pr, f, ve->rows[p]);
        for (int i = 0; i < nalways && rc == 0; i++)
            rc = add_pair(pr, f, always[i]);
    }
    free(corner);
    free(always);
    return rc;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* CSR lists from the pairs, each list ascending. */
static int fill_tight(const pairs *pr, vertex_set *vs)
{
    int count = pr->n / 2;
    vs->tight = mem_alloc((size_t)count, sizeof(int));
    int *fill = mem_alloc((size_t)vs->nverts + 1, sizeof(int));
    if (!vs->tight || !fill) {
        free(fill);
        return -1;
    }
    for (int i = 0; i < count; i++)
        vs->tight_start[pr->v[2 * i] + 1]++;
    for (int v = 0; v < vs->nverts; v++)
        vs->tight_start[v + 1] += vs->tight_start[v];
    memcpy(fill, vs->tight_start, ((size_t)vs->nverts + 1) * sizeof(int));
    for (int i = 0; i < count; i++)
        vs->tight[fill[pr->v[2 * i]]++] = pr->v[2 * i + 1];
    for (int v = 0; v < vs->nverts; v++)
        qsort(vs->tight + vs->tight_start[v], (size_t)(vs->tight_start[v + 1] - vs->tight_start[v]),
              sizeof(int), cmp_int);
    free(fill);
    return 0;
}

static hs_code build_set(venum *ve, const hull3 *h, vertex_set **out, hs_error *err)
{
    vertex_set *vs = set_alloc(ve->m, h->nfacets, h->nedges, ve->want_q);
    if (!vs)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_code rc = fill_vertices(ve, h, vs, err);
    pairs pr = {NULL, 0, 0};
    if (rc == HS_OK && (collect_tight(ve, h, &pr) != 0 || fill_tight(&pr, vs) != 0))
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    free(pr.v);
    if (rc != HS_OK) {
        vertex_set_free(vs);
        return rc;
    }
    fill_edges_and_facets(ve, h, vs);
    *out = vs;
    return HS_OK;
}

/* ------------------------------------------------------------ entry points */

static hs_code enumerate(const hs_poly *P, const double *interior, int want_q, vertex_set **out,
                         hs_error *err)
{
    if (!P || !out)
        return err_set(err, HS_ERR_ARG, "vertex enumeration: NULL argument");
    *out = NULL;
    hs_code rc = check_input(P, err);
    if (rc != HS_OK)
        return rc;
    venum ve;
    if (ve_init(&ve, P) != 0) {
        ve_free(&ve);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    ve.want_q = want_q;
    rc = collect_rows(&ve, err);
    if (rc == HS_OK)
        rc = interior ? take_interior(&ve, interior, err) : find_interior(&ve, err);
    hull3 *h = NULL;
    if (rc == HS_OK)
        rc = dual_hull(&ve, &h, err);
    if (rc == HS_OK)
        rc = build_set(&ve, h, out, err);
    hull3_free(h);
    ve_free(&ve);
    return rc;
}

hs_code vertex_enum(const hs_poly *P, const double *interior, vertex_set **out, hs_error *err)
{
    return enumerate(P, interior, 1, out, err);
}

hs_code vertex_enum_doubles(const hs_poly *P, const double *interior, vertex_set **out,
                            hs_error *err)
{
    return enumerate(P, interior, 0, out, err);
}

void vertex_set_free(vertex_set *vs)
{
    if (!vs)
        return;
    if (vs->q)
        for (int i = 0; i < 3 * vs->nverts; i++)
            mpq_clear(vs->q[i]);
    free(vs->q);
    free(vs->x);
    free(vs->tight_start);
    free(vs->tight);
    free(vs->edges);
    free(vs->is_facet);
    free(vs);
}
