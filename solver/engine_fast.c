/* engine_fast.c -- the fast engine (see fast.h).
 *
 * A query for A and B, in the order of seed 002's intersection routine:
 *  Step 3.  s and t are the certified interior points of A and B, computed
 *     once per polyhedron (fast_prep.c).
 *  Steps 6-7, the candidates.  The faces of A whose normals point along
 *     d = t - s, and those of B pointing along -d, come from each
 *     polyhedron's direction map without reading every row, in the order
 *     in which the ray from its center along d (-d for B) crosses them.
 *  Step 5.  If s is strictly inside B, or t strictly inside A, the answer
 *     is overlap at once.  A candidate row that the point violates settles
 *     the question without reading the others.
 *  A face on a face.  Two candidate rows exactly opposite on one plane
 *     (the polyhedra cannot overlap then) are tried as a contact at the
 *     point of that plane below the smaller one's center (fast_faces.c,
 *     fast_touch.c), before Step 5 when both are small (every row a
 *     candidate), after the segment otherwise.
 *  The segment.  On p(l) = s + l d, a row of A is left where it becomes
 *     tight; B is entered where its last violated row becomes satisfied.
 *     If the segment leaves A only after entering B, the middle of the two
 *     is inside both: certified row by row, that is overlap.
 *  The boxes.  The middle of the common part of A's and B's boxes,
 *     certified row by row inside both, is overlap too (two elongated
 *     polyhedra crossing like an X, away from their centers).
 *  The LP.  Otherwise Seidel's randomized incremental LP (seidel.c), the
 *     seed's recursion (a violated row becomes an equality, a variable is
 *     eliminated), maximises the margin tau subject to a.x + |a| tau <= b:
 *     tau* > 0 overlap, tau* < 0 disjoint, tau* = 0 contact.  It runs
 *     first on the candidate rows; the others are scanned for violations
 *     and the worst join, until none is violated (Clarkson's rounds).
 *  Certification.  Each time the optimum moves to tau < 0, its D = n + 1
 *     tight rows are tested as a Farkas certificate by the signs of D + 2
 *     small determinants: Cramer's rule for y in G y = e_tau (y >= 0,
 *     exactly 0 on box bounds) and for the tau of the basis vertex (< 0).
 *     Then the answer is disjoint, without reading the remaining rows.  A
 *     final optimum with tau > 0 is overlap once every row is certified
 *     strict at its point.
 *  Anything else (contact, or a filter that cannot decide) goes to the
 *  exact engine, counted by hs_result_fallback. */
#include "solver/fast_query.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "polytope/mem.h"
#include "polytope/select.h"
#include "solver/engines.h"
#include "solver/fast_star.h"
#include "solver/fast_touch.h"

/* ------------------------------------------------------------ workspace */

static int fast_work_grow(fast_work *w, int m)
{
    int *order = realloc(w->order, sizeof(int) * (size_t)m);
    if (order)
        w->order = order;
    unsigned char *in_set = realloc(w->in_set, (size_t)m);
    if (in_set) {
        memset(in_set + w->cap_m, 0, (size_t)(m - w->cap_m));
        w->in_set = in_set;
    }
    if (!order || !in_set)
        return -1;
    w->cap_m = m;
    return 0;
}

static fast_work *work_for(hs_result *r, int n, int m)
{
    fast_work *w = r->fast;
    if (!w) {
        w = calloc(1, sizeof *w);
        if (!w || !(w->sw = seidel_work_new())) {
            free(w);
            return NULL;
        }
        r->fast = w;
    }
    if (m > w->cap_m && fast_work_grow(w, m) != 0)
        return NULL;
    if (seidel_reserve(w->sw, n, m) != 0 || result_lazy_reserve(r, n) != 0)
        return NULL;
    return w;
}

/* ------------------------------------------------ Step 5 and the segment */

/* The candidate rows of polyhedron k evaluated at x (the other center).
 * For A at t: a row
 * with value v > 0 and slack S at s is left at l = S/(S+v) on the segment;
 * for B at s: a row with value u > 0 and slack S at t is entered at
 * l = u/(u+S); *l keeps the first exit (A) or the last entry (B), *row
 * the row giving it.  Returns 1 when no row looked at is violated. */
static inline int rows_at(fast_query *q, int k, const double *x, double *l, int *row)
{
    const double *slack = q->F[k]->center_slack, *b = q->V[k]->b;
    const fast_view *P = q->V[k];
    const int *cand = q->cand[k];
    int none_violated = 1, count = q->ncand[k], best_row = *row;
    double best = *l; /* (in a register through the loop) */
    uint64_t best_bits;
    memcpy(&best_bits, &best, sizeof best_bits);
    /* without branches but the rare exact test in fq_row_value: which rows
     * are strict, and which is left first, is a coin toss for the branch
     * predictor in a cold query (GCC makes a select of doubles a branch:
     * the best is chosen by a mask on its bits) */
    for (int c = 0; c < count; c++) {
        int i = cand[c], strict;
        double v = fq_row_value(q, view_row(P, q->n, i), b[i], x, &strict);
        none_violated &= strict;
        double at = k == 0 ? slack[i] / (slack[i] + v) : v / (v + slack[i]);
        int better = !strict & (v > 0) & (k == 0 ? at < best : at > best);
        uint64_t at_bits, mask = -(uint64_t)better;
        memcpy(&at_bits, &at, sizeof at_bits);
        best_bits = (at_bits & mask) | (best_bits & ~mask);
        memcpy(&best, &best_bits, sizeof best);
        best_row = better ? i : best_row;
    }
    *l = best;
    *row = best_row;
    return none_violated;
}

static int step5(fast_query *q)
{
    const double *s = q->V[0]->center, *t = q->V[1]->center;
    q->entry_row = -1;
    q->lA = 1;
    q->lB = 0;
    q->exit_row = -1;
    if (rows_at(q, 1, s, &q->lB, &q->entry_row) && fq_strictly_inside(q, 1, s) &&
        (q->V[0]->center_certified || fq_strictly_inside(q, 0, s))) {
        fq_trace(q, "Step 5: s (the interior point of A) is strictly inside B: overlap");
        fq_answer_point(q, HS_OVERLAP, s);
        return 1;
    }
    if (rows_at(q, 0, t, &q->lA, &q->exit_row) && fq_strictly_inside(q, 0, t) &&
        (q->V[1]->center_certified || fq_strictly_inside(q, 1, t))) {
        fq_trace(q, "Step 5: t (the interior point of B) is strictly inside A: overlap");
        fq_answer_point(q, HS_OVERLAP, t);
        return 1;
    }
    fq_trace(q, "Step 5: s is not strictly inside B, t not strictly inside A");
    return 0;
}

static int try_midpoint(fast_query *q)
{
    double l = 0.5 * (q->lA + q->lB), p[SEIDEL_MAX_DIM];
    const double *s = q->V[0]->center;
    for (int j = 0; j < q->n; j++)
        p[j] = s[j] + l * q->d[j];
    if (!fq_strictly_inside_both(q, p))
        return 0;
    fq_trace(q, "the segment s-t is inside A up to %.6g and inside B from %.6g: its middle is "
             "certified inside both: overlap",
          q->lA, q->lB);
    fq_answer_point(q, HS_OVERLAP, p);
    return 1;
}

/* The middle of the stretch where the segment is in both, as the
 * candidates bound it (from outside: the first exit over some rows of A
 * comes no earlier than over all of them).  When that middle fails, the
 * LP decides: measuring the stretch over every row and trying again cost
 * two passes over all rows, mostly for pairs that turned out disjoint
 * (elong10 at m = 250: 11 -> 7 us cold without them). */
static int segment_overlap(fast_query *q)
{
    return q->lB < q->lA && try_midpoint(q);
}

/* The middle of the common part of the two boxes, certified row by row
 * inside both.  Two elongated polyhedra that cross (an X) overlap where
 * their boxes do, while the segment between their centers runs outside
 * one of them: the LP would find the common point in several pivots.  A
 * point outside either fails at its first row not certified strict.
 * bench/pairs, cold (glpk and MPR between our queries): 1:10 ellipsoids
 * at m = 60 3.47 -> 2.61 us, at m = 20 1.59 -> 1.31; their disjoint pairs
 * 2-5% slower. */
static int box_overlap(fast_query *q)
{
    double x[SEIDEL_MAX_DIM];
    for (int j = 0; j < q->n; j++) {
        double lo = fp_max(q->V[0]->lo[j], q->V[1]->lo[j]);
        double hi = fp_min(q->V[0]->hi[j], q->V[1]->hi[j]);
        x[j] = 0.5 * (lo + hi);
        if (!(lo < hi) || !isfinite(x[j]))
            return 0;
    }
    if (!fq_common_point(q, x))
        return 0;
    fq_trace(q, "the middle of the common part of A's and B's boxes is certified inside both: "
             "overlap");
    fq_answer_point(q, HS_OVERLAP, x);
    return 1;
}

/* ---------------------------------------------------- the search boxes */

/* Neither the box nor the bounds on tau can change an answer: a box bound
 * that carries weight in the final basis makes certification fail, and
 * the query is retried in the wide box or falls back.
 *  - near: around where the segment leaves A and enters B, padded by half
 *    |t - s|; Seidel's recursion starting from a nearby corner costs far
 *    fewer recursions than from a distant one;
 *  - wide: the box hints of both polyhedra, padded. */
static void set_tau_range(fast_query *q)
{
    int n = q->n;
    double diag2 = 0;
    for (int j = 0; j < n; j++)
        diag2 += (q->hi[j] - q->lo[j]) * (q->hi[j] - q->lo[j]);
    q->lo[n] = -(2 * sqrt(diag2) + 1);
    q->hi[n] = 2 * fp_max(q->F[0]->inradius, q->F[1]->inradius);
}

static void wide_box(fast_query *q)
{
    for (int j = 0; j < q->n; j++) {
        double lo = fp_min(q->V[0]->lo[j], q->V[1]->lo[j]);
        double hi = fp_max(q->V[0]->hi[j], q->V[1]->hi[j]);
        double pad = 0.01 * (hi - lo) + 1e-9 * (fabs(lo) + fabs(hi)) + 1e-300;
        q->lo[j] = lo - pad;
        q->hi[j] = hi + pad;
    }
    set_tau_range(q);
}

static void near_box(fast_query *q)
{
    const double *s = q->V[0]->center;
    double d2 = 0;
    for (int j = 0; j < q->n; j++)
        d2 += q->d[j] * q->d[j];
    double pad = 0.5 * sqrt(d2) + 1e-300;
    for (int j = 0; j < q->n; j++) {
        double pa = s[j] + q->lA * q->d[j], pb = s[j] + q->lB * q->d[j];
        q->lo[j] = fp_min(pa, pb) - pad;
        q->hi[j] = fp_max(pa, pb) + pad;
    }
    set_tau_range(q);
}

/* ----------------------------------------------------------- the query */

/* The rows of a view as an hs_poly (the view's own, or a plain copy). */
static const hs_poly *poly_of_view(const fast_view *v, int n, hs_poly **made, hs_error *err)
{
    *made = NULL;
    if (v->poly)
        return v->poly;
    *made = hpoly_from_rows(n, v->m, v->a, v->b);
    if (!*made)
        err_set(err, HS_ERR_NOMEM, "out of memory");
    return *made;
}

static hs_code fall_back(fast_query *q, const char *why, hs_error *err)
{
    fq_trace(q, "%s: exact engine", why);
    hs_poly *made[2];
    const hs_poly *A = poly_of_view(q->V[0], q->n, &made[0], err);
    const hs_poly *B = A ? poly_of_view(q->V[1], q->n, &made[1], err) : NULL;
    hs_code rc = (A && B) ? exact_intersect(A, B, q->opt, q->r, err) : HS_ERR_NOMEM;
    hs_poly_free(made[0]);
    if (A)
        hs_poly_free(made[1]);
    q->r->fell_back = 1;
    q->r->engine = HS_ENGINE_FAST;
    return rc;
}

static int fast_settled(const fast_query *q, seidel_status st, const double *z, int strict)
{
    return q->certified || st == SEIDEL_NOMEM || (st == SEIDEL_OPTIMAL && z[q->n] > 0 && strict);
}

/* A disjoint answer by basis (D stacked ids) when it is a certified
 * Farkas certificate (why: the trace's reason): 1, or 0. */
static int farkas_answer(fast_query *q, const int *basis, const char *why)
{
    if (!fq_farkas_answer(q, basis))
        return 0;
    fq_trace_basis(q, why, basis);
    return 1;
}

/* Faces q->round_ra of A and q->round_rb of B opposite to rounding: an
 * overlap in the sliver between them (fast_exact_set.c; scopes as there),
 * else those faces and the two rows where their planes come nearest as a
 * Farkas certificate (fast_faces.c).  1 answered, 0 not, -1 out of memory
 * (err set). */
static int sliver_steps(fast_query *q, int scopes, hs_error *err)
{
    int basis[SEIDEL_MAX_DIM + 1], have = 0, sliver = fq_sliver_point(q, scopes, basis, &have);
    if (sliver != 0) {
        if (sliver < 0)
            err_set(err, HS_ERR_NOMEM, "out of memory");
        return sliver;
    }
    if (q->rounding_faces && !have && q->set_count > 0) /* (the sliver's search did
                                                           not reach it) */
        have = fq_sliver_basis(q, q->round_ra, q->round_rb, q->fw->order, q->set_count, basis,
                               NULL) > 0;
    return have && farkas_answer(q, basis, "two faces a rounding apart that do not meet: they "
                                           "and the rows where their planes come nearest are "
                                           "a certified Farkas certificate: disjoint");
}

/* A margin of rounding noise at the LP's optimum z that no basis
 * certified: two bodies a rounding apart (3 variables).  The LP's last
 * basis as a Farkas certificate first (the rounds test it only below the
 * noise; exact signs of a few determinants: 25 of hull-rest-fp's 58
 * disjoint pairs); an overlap in the sliver between two faces opposite to
 * rounding, its point in rationals (fast_exact_set.c); two such faces
 * that do not meet, with the two rows where their planes come nearest, as
 * a Farkas certificate (fast_faces.c); then the LP's own rows (q->fw->order,
 * q->set_count) classified exactly.  After numerical trouble (no optimum)
 * only the steps of the two faces, when they were seen.  1 answered (r
 * holds it), 0 not, -1 out of memory (err set). */
static int rounding_apart(fast_query *q, const double *z, hs_error *err)
{
    /* (after numerical trouble there is no optimum: the two faces, when
     * they were seen, are still worth their steps) */
    int at_optimum = q->have_basis && fabs(z[q->n]) <= fq_margin_noise(q, z);
    if (q->n != 3 || !(at_optimum || q->rounding_faces))
        return 0;
    if (at_optimum && farkas_answer(q, q->last_basis,
                                    "margin of rounding noise, and the tight rows are a "
                                    "certified Farkas certificate: disjoint"))
        return 1;
    int got = sliver_steps(q, 2, err);
    if (got != 0)
        return got;
    return at_optimum ? fq_exact_on_set(q, q->fw->order, q->set_count, err) : 0;
}

/* Before the LP: two faces a rounding apart among the candidates
 * (fq_rounding_faces), each with its list or small, decided by the
 * sliver's steps on the region their lists bound (hull-rest-fp: the LP's
 * pivots and rounds saved where they answer).  1 answered, 0 not (q as
 * before: the LP finds its own faces), -1 out of memory (err set). */
static int faces_a_rounding_apart(fast_query *q, hs_error *err)
{
    if (!fq_rounding_faces(q))
        return 0;
    int got = sliver_steps(q, 1, err);
    if (got == 0)
        q->rounding_faces = 0;
    return got;
}

/* The LP, first with the face where the segment leaves A made an equality
 * (seed 002's move: near contact that face is tight at the optimum, and the
 * LP drops a dimension; a wrong guess just fails to certify), then with
 * every row free in the box near the segment, then in the wide box. */
static hs_code run_lp(fast_query *q, hs_error *err)
{
    double z[SEIDEL_MAX_DIM];
    int strict = 0, touching = 0;
    seidel_status st = SEIDEL_OPTIMAL;
    near_box(q);
    for (int box = 0; box < 2; box++) { /* the dual simplex near the segment, then wide */
        if (box == 1) {
            int on_box = 0;
            for (int c = 0; c <= q->n; c++)
                on_box |= q->last_basis[c] < 0;
            if (!q->have_basis || !on_box)
                break; /* the box did not bind: a wider one would not help */
            fq_trace(q, "the optimum is on the box near the segment: again in the wide box");
            wide_box(q);
        }
        if (fq_lp_rounds_dual(q, z, &strict) != 0) {
            /* numerical trouble, as at the corner of two faces lying on
             * each other (a degenerate optimum): those faces first */
            if ((touching = fq_try_face_at(q, z) ||
                            fq_try_face_region(q, q->fw->order, q->set_count)))
                goto settled;
            break;
        }
        touching = q->touched || (!fast_settled(q, st, z, strict) &&
                                  (!q->rounding_faces &&
                                   (fq_try_touching(q) || fq_try_face_at(q, z))));
        if (touching || fast_settled(q, st, z, strict))
            goto settled;
    }
    {
        int got = rounding_apart(q, z, err);
        if (got != 0)
            return got > 0 ? HS_OK : HS_ERR_NOMEM;
    }
    if (q->n >= FAST_PREP_SIMPLEX_DIM) /* Seidel's LP costs like n! here */
        return fall_back(q, "not settled by the dual simplex", err);
    near_box(q);
    if (q->exit_row >= 0) {
        fq_trace(q, "A row %d (where the segment leaves A) made an equality first",
              q->exit_row + 1);
        st = fq_lp_rounds(q, q->exit_row, z, &strict);
        touching = !fast_settled(q, st, z, strict) && st == SEIDEL_OPTIMAL && fq_try_touching(q);
    }
    if (!touching && !fast_settled(q, st, z, strict)) {
        fq_trace(q, "every row free, in the box near the segment");
        st = fq_lp_rounds(q, -1, z, &strict);
        touching = !fast_settled(q, st, z, strict) && st == SEIDEL_OPTIMAL && fq_try_touching(q);
    }
    if (!touching && !fast_settled(q, st, z, strict)) {
        fq_trace(q, "not settled in the box near the segment: again in the wide box");
        wide_box(q);
        st = fq_lp_rounds(q, -1, z, &strict);
        touching = !fast_settled(q, st, z, strict) && st == SEIDEL_OPTIMAL && fq_try_touching(q);
    }
settled:
    if (touching) {
        fq_trace_basis(q, "margin 0: the tight rows certify a contact point and a separating plane: "
                       "touching", q->last_basis);
        return HS_OK;
    }
    if (st == SEIDEL_NOMEM)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (q->certified)
        return HS_OK;
    if (st == SEIDEL_OPTIMAL && z[q->n] > 0 && strict) {
        fq_trace(q, "margin %.6g > 0 and every row certified strict at the optimum: overlap",
              z[q->n]);
        fq_answer_point(q, HS_OVERLAP, z);
        return HS_OK;
    }
    if (st == SEIDEL_OPTIMAL) { /* (Seidel's LP ended a rounding apart as well) */
        int got = rounding_apart(q, z, err);
        if (got != 0)
            return got > 0 ? HS_OK : HS_ERR_NOMEM;
    }
    char why[96];
    snprintf(why, sizeof why, "margin %.3g could not be certified", z[q->n]);
    return fall_back(q, why, err);
}

#define FAST_PREFETCH_ROWS 128

/* Cache lines of [p, p + bytes) asked for ahead of their reads (a cold
 * query would otherwise wait for each in turn). */
static void prefetch_lines(const void *p, size_t bytes)
{
    const char *c = p;
    for (size_t at = 0; at < bytes; at += 64)
        mem_prefetch(c + at);
}

/* A small polyhedron is read whole by most queries: all of it at once. */
static void prefetch_small(const fast_query *q)
{
    for (int k = 0; k < 2; k++) {
        const fast_view *V = q->V[k];
        if (V->m > FAST_PREFETCH_ROWS)
            continue;
        size_t m = (size_t)V->m;
        prefetch_lines(V->a, m * (size_t)q->n * sizeof(double));
        prefetch_lines(V->b, m * sizeof(double));
        prefetch_lines(q->F[k]->norm, m * sizeof(double));
        prefetch_lines(q->F[k]->center_slack, m * sizeof(double));
        /* its unit rows too, when they are made and the view reads the
         * polyhedron's own rows (those fast_prep_unit_rows gives): the
         * passes over every row read them, in Step 5 and at an LP's overlap
         * optimum (the pointer is only asked for here, never read through) */
        fast_prep *F = (fast_prep *)q->F[k]; /* (only the atomic is read) */
        const void *unit = atomic_load_explicit(&F->unit, memory_order_relaxed);
        if (unit && fast_prep_own_rows(F, V->a, V->b))
            prefetch_lines(unit, m * 4 * sizeof(float));
    }
}

/* The candidate rows, asked for as soon as the direction maps name them:
 * they are read at scattered places (a small polyhedron's were asked for
 * whole by prefetch_small). */
static void prefetch_candidates(const fast_query *q)
{
    for (int k = 0; k < 2; k++)
        if (q->V[k]->m > FAST_PREFETCH_ROWS)
            fq_prefetch_rows(q, k, q->cand[k], q->ncand[k], 1);
}

/* Without a direction map (many variables): the FAST_SCAN_CANDIDATES rows
 * of polyhedron k best aligned with d (query frame), by one pass. */
static const int *scan_candidates(fast_query *q, int k, const double *d, int *count)
{
    const fast_view *V = q->V[k];
    const double *norm = q->F[k]->norm;
    int *out = q->fw->cand[k], n = q->n, c = 0;
    double score[FAST_SCAN_CANDIDATES];
    for (int i = 0; i < V->m; i++) {
        const double *a = V->a + (size_t)i * (size_t)n;
        double s = 0;
        for (int j = 0; j < n; j++)
            s += a[j] * d[j];
        s /= norm[i] > 0 ? norm[i] : 1;
        keep_largest(score, out, &c, FAST_SCAN_CANDIDATES, s, i);
    }
    *count = c;
    return out;
}

static const int all_rows[FAST_ALL_ROWS] = {0, 1, 2, 3, 4, 5, 6, 7};

static const int *candidates(fast_query *q, int k, const double *dir, int *count)
{
    if (q->V[k]->m <= FAST_ALL_ROWS) {
        *count = q->V[k]->m;
        return all_rows;
    }
    if (q->map_cell[k] > 0) /* (the prefetch found dir's cell) */
        return fast_prep_list(q->F[k], q->map_cell[k] - 1, count);
    return fq_lookup(q, k, dir, count);
}

static void setup(fast_query *q)
{
    int n = q->n;
    double probe[SEIDEL_MAX_DIM], minus[SEIDEL_MAX_DIM], len = 0;
    for (int j = 0; j < n; j++)
        len += fabs(q->d[j]);
    for (int j = 0; j < n; j++) { /* equal centers: any direction serves */
        probe[j] = len > 0 ? q->d[j] : (j == 0);
        minus[j] = -probe[j];
    }
    q->cand[0] = candidates(q, 0, probe, &q->ncand[0]);
    q->cand[1] = candidates(q, 1, minus, &q->ncand[1]);
    int scanned = !q->cand[0] || !q->cand[1];
    if (!scanned)
        prefetch_candidates(q);
    if (!q->cand[0])
        q->cand[0] = scan_candidates(q, 0, probe, &q->ncand[0]);
    if (!q->cand[1])
        q->cand[1] = scan_candidates(q, 1, minus, &q->ncand[1]);
    for (int k = 0; k < 2; k++) {
        q->bank[k] = (seidel_bank){q->V[k]->a, q->F[k]->norm, q->V[k]->b, q->V[k]->m};
        /* the extreme vertices' rows, for the LP: asked for now, read
         * after the steps before it (fq_support_rows finds none but on
         * polyhedra of 100 rows or more) */
        q->nsup[k] = fq_support_rows(q, k, q->sup[k]);
        fq_prefetch_rows(q, k, q->sup[k], q->nsup[k], 0);
    }
    fq_trace(q, "candidate faces along t - s: %d of A, %d of B (%s)", q->ncand[0], q->ncand[1],
          scanned ? "by a scan of the rows"
                  : q->V[0]->m <= FAST_ALL_ROWS && q->V[1]->m <= FAST_ALL_ROWS
                      ? "every row: small polyhedra"
                      : "from the direction maps");
}

/* The lines the query reads first, asked for before the result and the
 * workspace are reset: the stars' lengths along t - s and s - t, and the
 * direction maps' lists for them (setup's candidates). */
static void prefetch_directions(fast_query *q)
{
    double minus[SEIDEL_MAX_DIM];
    int zero = 1;
    for (int j = 0; j < q->n; j++) {
        minus[j] = -q->d[j];
        zero &= q->d[j] == 0;
    }
    if (zero)
        return;
    for (int k = 0; k < 2; k++) {
        const double *dir = k ? minus : q->d;
        if (q->V[k]->use_star)
            q->star_cell[k] = 1 + fast_star_prefetch(q->F[k], dir);
        if (q->V[k]->m > FAST_ALL_ROWS)
            fq_prefetch_lookup(q, k, dir);
    }
}

/* Overlap by the inner stars alone, before any row is read: on the
 * segment s + l (t - s), A's star covers l < lA and B's covers l > 1 - lB;
 * when they overlap, the middle of the stretch both cover is certified by
 * both stars (fast_star.c): a common interior point. */
static int star_overlap(fast_query *q)
{
    if (!q->V[0]->use_star || !q->V[1]->use_star)
        return 0;
    int n = q->n;
    const double *s = q->V[0]->center, *d = q->d;
    double minus[SEIDEL_MAX_DIM], x[SEIDEL_MAX_DIM], big = 0;
    for (int j = 0; j < n; j++) {
        minus[j] = -d[j];
        big = fp_max(big, fabs(d[j]));
    }
    if (!(big > 0) || !isfinite(big))
        return 0;
    double lA = fast_star_reach(q->F[0], d, q->star_cell[0] - 1);
    double lB = fast_star_reach(q->F[1], minus, q->star_cell[1] - 1);
    if (!(lA + lB > 1))
        return 0;
    double l = 0.5 * (fp_min(lA, 1) + fp_max(1 - lB, 0));
    for (int j = 0; j < n; j++)
        x[j] = s[j] + l * d[j];
    if (!fast_star_inside(q->F[0], x) || !fast_star_inside(q->F[1], x))
        return 0;
    fq_trace(q, "the inner stars of A and B cover s + l (t - s) for l < %.6g and l > %.6g: "
             "their common point at l = %.6g is inside both: overlap", lA, 1 - lB, l);
    fq_answer_point(q, HS_OVERLAP, x);
    return 1;
}

/* The hint, certified: a disjoint basis must pass the Farkas check on
 * today's rows, an overlap point must be strictly inside both. */
static int try_hint(fast_query *q, const fast_hint *h)
{
    int n = q->n, basis[SEIDEL_MAX_DIM + 1];
    if (h->kind == FAST_HINT_OVERLAP) {
        if (!fq_strictly_inside_both(q, h->x))
            return 0;
        fq_trace(q, "the overlap point of the last query is still strictly inside both");
        fq_answer_point(q, HS_OVERLAP, h->x);
        return 1;
    }
    if (h->kind == FAST_HINT_FACE && n <= FAST_HINT_MAX_DIM) {
        if (h->which[0] != 0 || h->which[1] != 1 || !fq_face_basis_certifies(q, h->row[0],
                                                                           h->row[1], h->x))
            return 0;
        fq_trace_basis(q, "the contact of the last query's faces still certifies: touching",
                       q->last_basis);
        return 1;
    }
    if (h->kind == FAST_HINT_TOUCHING && n <= FAST_HINT_MAX_DIM) {
        for (int c = 0; c <= n; c++) {
            int which = h->which[c], row = h->row[c];
            if (which < 0 || which > 1 || row < 0 || row >= q->V[which]->m)
                return 0;
            q->last_basis[c] = which ? q->mA + row : row;
        }
        q->have_basis = 1;
        if (!fq_try_touching(q))
            return 0;
        fq_trace_basis(q, "the contact basis of the last query still certifies: touching",
                    q->last_basis);
        return 1;
    }
    if (h->kind != FAST_HINT_DISJOINT || n > FAST_HINT_MAX_DIM)
        return 0;
    for (int c = 0; c <= n; c++) {
        int which = h->which[c], row = h->row[c];
        if (which == FAST_HINT_BOX && row >= 0 && row < 2 * n) {
            basis[c] = SEIDEL_BOX_ID(row / 2, row % 2); /* (weight 0: its side is moot) */
            continue;
        }
        if (which < 0 || which > 1 || row < 0 || row >= q->V[which]->m)
            return 0;
        basis[c] = which ? q->mA + row : row;
    }
    return farkas_answer(q, basis, "the certificate rows of the last query still certify: "
                                   "disjoint");
}

/* The hint of a Farkas certificate with its multipliers written out (the
 * exact classification of the LP's rows, fq_exact_on_set: bodies a
 * rounding apart that miss): n + 1 distinct rows are a basis that the next
 * query certifies by determinants, as any other (the multipliers of n + 1
 * rows whose normals span the space are unique up to scale), instead of
 * classifying the rows again.  Fewer rows (in 3-D: three normals in a
 * plane, two opposite) are completed by box bounds of zero weight on axes
 * the rows' normals do not span (a guess in doubles: a singular basis
 * only fails to certify).  h->kind stays FAST_HINT_NONE otherwise. */
static void written_farkas_hint(const fast_query *q, fast_hint *h)
{
    const hs_result *r = q->r;
    int n = q->n, k = r->nmult, extra = n + 1 - k, axis[2] = {-1, -1};
    if (r->status != HS_DISJOINT || r->kind != CERT_FARKAS || k < 1 || extra < 0 ||
        (extra > 0 && n != 3) || extra > 2)
        return;
    for (int c = 0; c < k; c++) {
        int which = r->mult[c].which, row = r->mult[c].row;
        if (mpq_sgn(r->mult[c].y) <= 0 || which < 0 || which > 1 || row < 0 ||
            row >= q->V[which]->m)
            return;
        h->which[c] = which;
        h->row[c] = row;
    }
    if (extra > 0) {
        const double *g0 = view_row(q->V[h->which[0]], 3, h->row[0]);
        double c3[3] = {0, 0, 0};
        for (int t = 1; extra == 1 && t < k && c3[0] == 0 && c3[1] == 0 && c3[2] == 0; t++)
            cross3(g0, view_row(q->V[h->which[t]], 3, h->row[t]), c3);
        int top = fp_largest_axis(extra == 1 ? c3 : g0, 3);
        for (int j = 0, t = 0; j < 3; j++) /* one: the normal of the rows' plane; two: not g0 */
            if (extra == 1 ? j == top : j != top)
                axis[t++] = j;
    }
    for (int c = k, t = 0; c <= n; c++, t++) {
        h->which[c] = FAST_HINT_BOX;
        h->row[c] = 2 * axis[t] + 1;
    }
    h->kind = FAST_HINT_DISJOINT;
}

static void make_hint(const fast_query *q, fast_hint *h)
{
    const hs_result *r = q->r;
    int n = q->n;
    h->kind = FAST_HINT_NONE;
    if (n > FAST_HINT_MAX_DIM)
        return;
    if (!r->lazy) {
        written_farkas_hint(q, h);
        return;
    }
    if (r->status == HS_OVERLAP && r->has_point) {
        h->kind = FAST_HINT_OVERLAP;
        memcpy(h->x, r->point_d, sizeof(double) * (size_t)n);
        return;
    }
    if ((r->status != HS_DISJOINT && r->status != HS_TOUCHING) || r->lazy_D != n + 1)
        return;
    int face = r->status == HS_TOUCHING && n >= 2 && r->lazy_which[0] == 0 &&
               r->lazy_which[1] == 1;
    for (int c = 2; face && c <= n; c++)
        face = r->lazy_which[c] < 0;
    if (face) { /* a face on a face (fq_try_face_contact): its two rows, and the
                   point's coordinates that its unit rows fix */
        h->which[0] = 0;
        h->which[1] = 1;
        h->row[0] = r->lazy_row[0];
        h->row[1] = r->lazy_row[1];
        memcpy(h->x, r->point_d, sizeof(double) * (size_t)n);
        fast_touch_unit_coords(n, r->lazy_g, r->lazy_h, h->x);
        h->kind = FAST_HINT_FACE;
        return;
    }
    for (int c = 0; c <= n; c++) {
        if (r->lazy_which[c] < 0) /* a box bound: not a certificate of the rows alone */
            return;
        h->which[c] = r->lazy_which[c];
        h->row[c] = r->lazy_row[c];
    }
    h->kind = r->status == HS_TOUCHING ? FAST_HINT_TOUCHING : FAST_HINT_DISJOINT;
}

static void query_init(fast_query *q, const fast_view *A, const fast_view *B, int n,
                       const hs_options *opt, hs_result *r)
{
    memset(q, 0, sizeof *q);
    q->V[0] = A;
    q->V[1] = B;
    q->F[0] = A->prep;
    q->F[1] = B->prep;
    q->n = n;
    q->mA = A->m;
    q->M = A->m + B->m;
    q->r = r;
    q->opt = opt;
}

int fast_try_hint(const fast_view *A, const fast_view *B, int n, const hs_options *opt,
                  const fast_hint *hint, hs_result *r, hs_error *err)
{
    fast_query q;
    query_init(&q, A, B, n, opt, r);
    if (!hint || !q.F[0] || !q.F[1])
        return 0;
    if (result_reset(r, HS_DISJOINT, n) != 0 || !(q.fw = work_for(r, n, q.M))) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return -1;
    }
    return try_hint(&q, hint);
}

hs_code fast_intersect_views_hinted(const fast_view *A, const fast_view *B, int n,
                                    const hs_options *opt, const fast_hint *hint, hs_result *r,
                                    fast_hint *next, hs_error *err)
{
    fast_query q;
    query_init(&q, A, B, n, opt, r);
    if (next)
        next->kind = FAST_HINT_NONE;
    if (!q.F[0] || !q.F[1])
        return fall_back(&q, "not eligible for the fast path (see hs_poly_fast_ready)", err);
    for (int j = 0; j < n; j++) /* d = t - s, read by the stars, the prefetch and setup */
        q.d[j] = B->center[j] - A->center[j];
    if (!hint) /* (a hint usually settles the query without them) */
        prefetch_directions(&q);
    if (result_reset(r, HS_DISJOINT, n) != 0 || !(q.fw = work_for(r, n, q.M)))
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (!hint && star_overlap(&q))
        return HS_OK;
    prefetch_small(&q);
    if (hint && try_hint(&q, hint)) {
        if (next)
            *next = *hint;
        return HS_OK;
    }
    if (hint && hint->kind == FAST_HINT_DISJOINT && n <= FAST_HINT_MAX_DIM)
        q.stale = hint;
    setup(&q);
    hs_code rc = HS_OK;
    /* small polyhedra (every row a candidate: boxes in a world) try a face
     * on a face first: two faces exactly opposite on one plane rule out
     * overlap, so Step 5 and the segment would only cost */
    int small = q.V[0]->m <= FAST_ALL_ROWS && q.V[1]->m <= FAST_ALL_ROWS;
    if (!(small && fq_try_face_contact(&q)) && !step5(&q) && !segment_overlap(&q) &&
        !box_overlap(&q) && !fq_axis_overlap(&q) &&
        (small || (!fq_try_segment_face(&q) && !fq_try_face_contact(&q)))) {
        int got = small ? 0 : faces_a_rounding_apart(&q, err);
        rc = got > 0 ? HS_OK : got < 0 ? HS_ERR_NOMEM : run_lp(&q, err);
    }
    if (rc == HS_OK && next)
        make_hint(&q, next);
    return rc;
}

hs_code fast_intersect_views(const fast_view *A, const fast_view *B, int n,
                             const hs_options *opt, hs_result *r, hs_error *err)
{
    return fast_intersect_views_hinted(A, B, n, opt, NULL, r, NULL, err);
}

int fast_view_of_poly(fast_view *v, const hs_poly *p)
{
    const fast_prep *fp = NULL;
    int rc = fast_prep_get(p, &fp, NULL);
    *v = (fast_view){p->m, p->a, p->b, fp, fp ? fp->center : NULL, 1, NULL,
                     fp ? fp->lo : NULL, fp ? fp->hi : NULL, p, fp != NULL};
    return rc;
}

hs_code fast_intersect(const hs_poly *A, const hs_poly *B, const hs_options *opt, hs_result *r,
                       hs_error *err)
{
    fast_view va, vb;
    if (fast_view_of_poly(&va, A) != 0 || fast_view_of_poly(&vb, B) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    return fast_intersect_views(&va, &vb, A->n, opt, r, err);
}

hs_code fast_feasible(const hs_poly *P, const hs_options *opt, hs_result *r, hs_error *err)
{
    const fast_prep *fp = NULL;
    if (fast_prep_get(P, &fp, NULL) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    if (!fp) {
        hs_code rc = exact_feasible(P, opt, r, err);
        r->fell_back = 1;
        r->engine = HS_ENGINE_FAST;
        return rc;
    }
    if (result_reset(r, HS_FEASIBLE, P->n) != 0 || result_lazy_reserve(r, P->n) != 0)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    r->lazy = 1;
    r->has_point = 1;
    memcpy(r->point_d, fp->center, sizeof(double) * (size_t)P->n);
    return HS_OK;
}
