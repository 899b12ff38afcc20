/* fast_exact_set.c -- the fast engine's exact classification of the rows
 * its LP ended with (fast_query.h: fq_exact_on_set).
 *
 * Two polytopes a rounding apart (a body set down on another with
 * floating-point transforms: their faces coincide only to rounding)
 * overlap, or miss, by about 1e-16 of their size.  The margin LP's sign is
 * then below its rounding and no double point certifies such a thin
 * overlap, so the fast engine cannot answer; the exact engine can, but
 * over every row (its setup alone is O(m) rationals).  Here the exact
 * engine classifies only the subsystem A', B' of the rows in the LP's
 * last set (tens of rows), Clarkson's way:
 *  - A' and B' disjoint: their Farkas certificate names rows of A and B,
 *    so it proves A and B disjoint (A is inside A', B inside B');
 *  - A' and B' overlap at the exact point x': when every row of A and B
 *    holds strictly at x' (doubles with a rigorous bound; rationals where
 *    the bound cannot decide) x' is the witness; otherwise the rows that
 *    do not join the set and the subsystem is classified again;
 *  - anything else (touching, or no answer within a few rounds) is left
 *    to the caller (the full exact engine).
 * Before that, an overlap in the sliver between the two faces that are
 * opposite to rounding (fq_sliver_point): on the line through the faces'
 * common region (fq_face_region_point, rounded to short numbers) across
 * their planes, each face bounds the one remaining coordinate from one
 * side; when the bounds leave an interval, its midpoint (a rational) is a
 * point of the sliver, and it is the witness once every row holds strictly
 * there.  Two rationals' arithmetic and a pass over the rows, against the
 * LP in rationals.  (When the two faces do not meet, engine_fast.c tries
 * them with the two rows where their planes come nearest as a Farkas
 * certificate: fq_sliver_basis in fast_faces.c.)
 * Every answer is exact; the verifier checks it like any other. */
#include "solver/fast_query.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/expansion.h"
#include "polytope/fp.h"
#include "polytope/hpoly.h"
#include "polytope/mem.h"
#include "polytope/predicates.h"
#include "solver/classify.h"
#include "solver/result.h"

#define EXACT_SET_ROUNDS 4

/* The subsystem of view k: its rows with use[id] set (stacked ids), into
 * a new polytope; idx receives each new row's index in the view. */
static hs_poly *subsystem(const fast_query *q, int k, const unsigned char *use, int *idx,
                          hs_error *err)
{
    const fast_view *V = q->V[k];
    int n = q->n, m = 0, base = k ? q->mA : 0;
    double *a = mem_alloc((size_t)V->m * (size_t)n + 1, sizeof(double));
    double *b = mem_alloc((size_t)V->m + 1, sizeof(double));
    hs_poly *p = NULL;
    if (a && b) {
        for (int i = 0; i < V->m; i++)
            if (use[base + i]) {
                memcpy(a + (size_t)m * (size_t)n, view_row(V, n, i), sizeof(double) * (size_t)n);
                b[m] = V->b[i];
                idx[m++] = i;
            }
        p = hs_poly_from_doubles(n, m, a, b, NULL, err);
    }
    free(a);
    free(b);
    return p;
}

/* Is every row of view k outside the subsystem (use, stacked ids) strict
 * at the subsystem's overlap point x (n entries; its own rows are)?  Rows
 * that are not join use; returns how many did. */
static int join_not_strict(const fast_query *q, int k, mpq_t *const x, const double *xd, int safe,
                           unsigned char *use, mpq_t acc, mpq_t t)
{
    const fast_view *V = q->V[k];
    int n = q->n, joined = 0, base = k ? q->mA : 0;
    for (int i = 0; i < V->m; i++) {
        if (use[base + i])
            continue;
        if (pred_row_sign_at(view_row(V, n, i), V->b[i], x, xd, safe, n, acc, t) >= 0) {
            use[base + i] = 1;
            joined++;
        }
    }
    return joined;
}

/* The subsystem's disjoint answer mapped to A and B in q->r: its Farkas
 * certificate, rows renumbered.  0, or -1 out of memory. */
static int answer_disjoint(fast_query *q, const hs_result *sub, int *const idx[2])
{
    hs_result *r = q->r;
    if (result_reset(r, HS_DISJOINT, q->n) != 0)
        return -1;
    r->kind = CERT_FARKAS;
    for (int c = 0; c < sub->nmult; c++) {
        const cert_mult *cm = &sub->mult[c];
        if (result_add_mult(r, cm->which, idx[cm->which][cm->row], cm->y) != 0)
            return -1;
    }
    return 0;
}

int fq_exact_on_set(fast_query *q, const int *set, int count, hs_error *err)
{
    int n = q->n, M = q->M, answered = 0, rounds = 0;
    unsigned char *use = mem_calloc((size_t)M, 1);
    int *idx[2] = {mem_alloc((size_t)q->V[0]->m + 1, sizeof(int)),
                   mem_alloc((size_t)q->V[1]->m + 1, sizeof(int))};
    double *xd = mem_alloc((size_t)n, sizeof(double));
    hs_result *sub = hs_result_new();
    mpq_t acc, t;
    mpq_inits(acc, t, NULL);
    if (!use || !idx[0] || !idx[1] || !xd || !sub)
        answered = -1;
    for (int c = 0; answered == 0 && c < count; c++)
        use[set[c]] = 1;
    for (int k = 0; answered == 0 && k < 2; k++) /* each side at least its candidates */
        for (int c = 0; c < q->ncand[k]; c++)
            use[q->cand[k][c] + (k ? q->mA : 0)] = 1;
    for (; answered == 0 && rounds < EXACT_SET_ROUNDS; rounds++) {
        hs_error sub_err;
        hs_poly *A = subsystem(q, 0, use, idx[0], &sub_err);
        hs_poly *B = A ? subsystem(q, 1, use, idx[1], &sub_err) : NULL;
        hs_code rc = A && B ? classify_pair(A, B, sub, &sub_err) : HS_ERR_NOMEM;
        hs_poly_free(A);
        hs_poly_free(B);
        if (rc != HS_OK) {
            answered = rc == HS_ERR_NOMEM ? -1 : 0;
            break;
        }
        hs_status st = hs_result_status(sub);
        if (st == HS_DISJOINT) {
            answered = answer_disjoint(q, sub, idx) == 0 ? 1 : -1;
            break;
        }
        if (st != HS_OVERLAP || !sub->has_point)
            break; /* touching: the full exact engine */
        int safe = pred_near_point(sub->point, n, xd);
        int joined = join_not_strict(q, 0, sub->point, xd, safe, use, acc, t) +
                     join_not_strict(q, 1, sub->point, xd, safe, use, acc, t);
        if (joined == 0) {
            if (result_reset(q->r, HS_OVERLAP, n) != 0) {
                answered = -1;
                break;
            }
            result_set_point_q(q->r, sub->point);
            answered = 1;
        }
    }
    if (answered == 1)
        fq_trace(q, "the rows of the LP's set (and %d rounds of rows joined) classified exactly: "
                    "%s for every row",
                 rounds, hs_status_name(hs_result_status(q->r)));
    mpq_clears(acc, t, NULL);
    hs_result_free(sub);
    free(xd);
    free(idx[0]);
    free(idx[1]);
    free(use);
    if (answered < 0)
        err_set(err, HS_ERR_NOMEM, "out of memory");
    return answered;
}

/* ------------------------------------------------------ the sliver's point */

/* g_k times the bound that face g . x <= gb puts on x_k on the line
 * through p along axis k (slab_open, below): gb - sum_{c != k} g_c p_c,
 * exactly, into h (5 components at most); its length. */
static int slab_offset(const double *g, double gb, int k, const double *p, double *h)
{
    double t[2], h3[3];
    int len = 1;
    h[0] = gb;
    for (int c = 0, at = 0; c < 3; c++) {
        if (c == k)
            continue;
        xp_two_prod(-g[c], p[c], &t[1], &t[0]);
        double *to = at++ ? h : h3, *from = to == h ? h3 : h;
        len = xp_sum(len, from, 2, t, to);
    }
    return len;
}

/* The sign of (upper bound - lower bound) of slab_open's interval
 * (below), exactly by expansions (no rationals): +1 open, 0 or -1 closed; 2 when an entry
 * lies outside the range where expansions are exact (slab_open then uses
 * rationals). */
static int slab_sign(const double *ga, double ba, const double *gb, double bb, int k,
                     const double *p)
{
    double in[8] = {ga[0], ga[1], ga[2], gb[0], gb[1], gb[2], ba, bb};
    double pc[2];
    for (int c = 0, t = 0; c < 3; c++)
        if (c != k)
            pc[t++] = p[c];
    if (!XP_RELIABLE || !pred_entries_moderate(in, 8) || !pred_entries_moderate(pc, 2))
        return 2;
    /* bound_a = Na / ga_k, bound_b = Nb / gb_k with ga_k, gb_k of opposite
     * signs: bound_a - bound_b has the sign of (Na gb_k - Nb ga_k) times
     * that of ga_k gb_k */
    double na[5], nb[5], x[10], y[10], d[20];
    int la = slab_offset(ga, ba, k, p, na), lb = slab_offset(gb, bb, k, p, nb);
    int lx = xp_scale(la, na, gb[k], x), ly = xp_scale(lb, nb, -ga[k], y);
    int diff = xp_sign(xp_sum(lx, x, ly, y, d), d) * (ga[k] * gb[k] > 0 ? 1 : -1);
    return ga[k] > 0 ? diff : -diff; /* (upper: the row with g_k > 0) */
}

/* The interval of x_k (into bound) that faces ra of A and rb of B leave
 * on the line through p (3 doubles; its coordinates other than k kept)
 * across their planes: 1 when it is open (bound[upper] > bound[lower]),
 * 0 when empty. */
static int slab_open(fast_query *q, int ra, int rb, int k, const double *p, mpq_t *bound,
                     mpq_t t, mpq_t u)
{
    const double *ga = view_row(q->V[0], 3, ra), *gb = view_row(q->V[1], 3, rb);
    int sign = slab_sign(ga, q->V[0]->b[ra], gb, q->V[1]->b[rb], k, p);
    if (sign != 2 && sign <= 0)
        return 0;
    /* on the line x_c = p_c (c != k): face ra holds for ga_k x_k < ra_rest,
     * face rb for gb_k x_k < rb_rest; one bounds x_k above, the other
     * below (opposite signs) */
    for (int w = 0; w < 2; w++) {
        const double *g = w ? gb : ga;
        mpq_set_d(bound[w], w ? q->V[1]->b[rb] : q->V[0]->b[ra]);
        for (int c = 0; c < 3; c++)
            if (c != k) {
                mpq_set_d(t, g[c]);
                mpq_set_d(u, p[c]);
                mpq_mul(t, t, u);
                mpq_sub(bound[w], bound[w], t);
            }
        mpq_set_d(t, g[k]);
        mpq_div(bound[w], bound[w], t);
    }
    int upper = ga[k] > 0 ? 0 : 1; /* (the bound of the row with g_k > 0) */
    return mpq_cmp(bound[upper], bound[!upper]) > 0;
}

/* Every row of A and B strictly negative at the point: when safe, the unit
 * rows' filter first (fast_prep.h: at xd, noise its bound plus the point's
 * own rounding), then each row it leaves signed exactly: at the rational x
 * (pred_row_sign_at, xd its rounding as pred_near_point makes it, safe its
 * return), or with x NULL at the double point xd itself.  1 when every row
 * holds strictly, 0 when not. */
static int rows_strict_at(fast_query *q, const double *xd, double noise, int safe, mpq_t *x,
                          mpq_t acc, mpq_t t)
{
    for (int w = 0; w < 2; w++) {
        const fast_view *V = q->V[w];
        const float *unit = safe ? fast_prep_unit_rows(q->F[w], V->a, V->b) : NULL;
        for (int i = 0; i < V->m; i++) {
            double nb;
            if (unit && fast_unit_value(unit + 4 * (size_t)i, xd, noise, &nb) + nb < 0)
                continue;
            const double *a = view_row(V, 3, i);
            int sign = x ? pred_row_sign_at(a, V->b[i], x, xd, safe, 3, acc, t)
                         : pred_row_sign(a, xd, V->b[i], 3, NULL);
            if (sign >= 0)
                return 0;
        }
    }
    return 1;
}

/* The sliver's point on the line through p across the two planes, in x
 * (initialised rationals): 1 when the faces leave an interval there and
 * its midpoint holds strictly in every row of A and B; 0 when not. */
static int sliver_at(fast_query *q, int ra, int rb, int k, const double *p, mpq_t *x,
                     mpq_t *bound, mpq_t t, mpq_t u, mpq_t acc)
{
    if (!slab_open(q, ra, rb, k, p, bound, t, u))
        return 0;
    mpq_add(x[k], bound[0], bound[1]);
    mpq_div_2exp(x[k], x[k], 1);
    for (int c = 0; c < 3; c++)
        if (c != k)
            mpq_set_d(x[c], p[c]);
    double xd[3], xmax = 0;
    int safe = pred_near_point(x, 3, xd);
    for (int c = 0; c < 3; c++)
        xmax = fp_max(xmax, fabs(xd[c]));
    /* the unit rows' filter first (fast_prep.h), at xd: its bound, plus
     * the point's own rounding (|x_c - xd_c| <= 2 u |xd_c|, the unit row's
     * entries summing to at most 1.75), settles most rows in a few flops */
    double noise = fast_unit_noise(xmax) + 1.75 * 2 * FP_U * xmax * (1 + 0x1p-40);
    return rows_strict_at(q, xd, noise, safe, x, acc, t); /* (the faces too) */
}

/* The sliver's point on the line through p as a double, when one lies
 * strictly between the two planes there: x_k at the middle of the two
 * planes' crossings, rounded.  1 when x (3 doubles) is certified strictly
 * inside every row of A and B (exact signs at a double point: no
 * rationals), 0 when not, or when no double was found inside the slab.
 * (Not fq_strictly_inside: its inner star cannot hold a point between two
 * faces, and asking it cost hull-rest-fp 8% more instructions.) */
static int sliver_at_double(fast_query *q, int ra, int rb, int k, const double *p, double *x)
{
    const double *ga = view_row(q->V[0], 3, ra), *gb = view_row(q->V[1], 3, rb);
    double ca = q->V[0]->b[ra], cb = q->V[1]->b[rb];
    for (int c = 0; c < 3; c++)
        if (c != k) {
            ca -= ga[c] * p[c];
            cb -= gb[c] * p[c];
            x[c] = p[c];
        }
    x[k] = 0.5 * (ca / ga[k] + cb / gb[k]);
    if (!isfinite(x[k]) || pred_row_sign(ga, x, q->V[0]->b[ra], 3, NULL) >= 0 ||
        pred_row_sign(gb, x, q->V[1]->b[rb], 3, NULL) >= 0)
        return 0;
    double xmax = fp_max(fabs(x[0]), fp_max(fabs(x[1]), fabs(x[2])));
    return rows_strict_at(q, x, fast_unit_noise(xmax), 1, NULL, NULL, NULL);
}

/* Points of the faces' common region where the sliver is tried: its point
 * farthest from its edges, then, when the planes cross inside the region
 * (the sliver is open on one side only), points from the vertex where it
 * is thickest towards that point, 1/2, 1/16, 1/256 and 1/4096 of the
 * way (inside the region: it is convex).  */
#define SLIVER_STEPS 4

int fq_sliver_point(fast_query *q, int scopes, int *basis, int *have_basis)
{
    *have_basis = 0;
    int ra = q->round_ra, rb = q->round_rb, n = q->n;
    if (n != 3 || !q->rounding_faces)
        return 0;
    const double *ga = view_row(q->V[0], 3, ra), *gb = view_row(q->V[1], 3, rb);
    int k = fp_largest_axis(ga, 3);
    if (ga[k] == 0 || gb[k] == 0 || (ga[k] > 0) == (gb[k] > 0))
        return 0;
    mpq_t x[3], bound[2], t, u, acc;
    for (int j = 0; j < 3; j++)
        mpq_init(x[j]);
    mpq_inits(bound[0], bound[1], t, u, acc, NULL);
    int found = 0, failed = 0, scope_basis[SEIDEL_MAX_DIM + 1], dfound = 0;
    double xdbl[3];
    /* the region as the faces' lists bound it (fq_face_list_set: ra's
     * exactly, and no smaller than rb's), or else as the LP's rows do,
     * then (a row left out may cut its points off) as every row does */
    int lists[FQ_FACE_LIST_SET], nlists = fq_face_list_set(q, ra, rb, lists);
    for (int scope = 0; scope < scopes && !found && !failed && !dfound; scope++) {
        const int *set = scope ? NULL : nlists ? lists : q->fw->order;
        int count = scope ? 0 : nlists ? nlists : q->set_count;
        double p[3], v[3];
        int got = fq_face_region_point(q, ra, rb, set, count, p);
        if (got < 0)
            failed = 1;
        if (got <= 0)
            continue;
        if ((dfound = sliver_at_double(q, ra, rb, k, p, xdbl)) != 0)
            break;
        found = sliver_at(q, ra, rb, k, p, x, bound, t, u, acc);
        int vertex = found ? 0 : fq_sliver_basis(q, ra, rb, set, count, scope_basis, v);
        failed |= vertex < 0;
        if (scope == 0 && vertex > 0) { /* (the caller's Farkas candidate) */
            memcpy(basis, scope_basis, sizeof scope_basis);
            *have_basis = 1;
        }
        /* the sliver is thickest at v over a region containing the true
         * one (the set's rows bound it, or every row does): closed there,
         * it is closed everywhere (a miss, or a touch): no point to find */
        if (vertex > 0 && !slab_open(q, ra, rb, k, v, bound, t, u))
            break;
        for (int step = 0; vertex > 0 && !found && step < SLIVER_STEPS; step++) {
            double f = ldexp(1, -1 - 4 * step), c[3];
            for (int j = 0; j < 3; j++)
                c[j] = v[j] + f * (p[j] - v[j]);
            if ((dfound = sliver_at_double(q, ra, rb, k, c, xdbl)) != 0)
                break;
            found = sliver_at(q, ra, rb, k, c, x, bound, t, u, acc);
        }
    }
    int answered = found || dfound ? 1 : failed ? -1 : 0;
    if (answered == 1 && result_reset(q->r, HS_OVERLAP, n) != 0)
        answered = -1;
    else if (dfound) {
        fq_trace(q, "A row %d and B row %d are opposite faces to rounding, a sliver apart: a "
                    "point of their common region between their planes, in doubles, is "
                    "certified strictly inside every row: overlap",
                 ra + 1, rb + 1);
        fq_answer_point(q, HS_OVERLAP, xdbl);
    } else if (found) {
        result_set_point_q(q->r, x);
        fq_trace(q, "A row %d and B row %d are opposite faces to rounding, a sliver apart: a "
                    "point of their common region midway between their planes is certified "
                    "strictly inside every row: overlap",
                 ra + 1, rb + 1);
    }
    for (int j = 0; j < 3; j++)
        mpq_clear(x[j]);
    mpq_clears(bound[0], bound[1], t, u, acc, NULL);
    return answered;
}
