/* fast_rounds.c -- the fast engine's margin LP in Clarkson's rounds
 * (fast_query.h): the LP on the candidate rows, the rows it violates join,
 * again, until none is violated; by Seidel's LP (seidel.c) or the dual
 * simplex (fast_lp.c); and contact certified from the final basis
 * (fast_touch.c). */
#include "solver/fast_query.h"

#include <stdlib.h>
#include <string.h>

#include "polytope/rng.h"
#include "polytope/select.h"
#include "solver/fast_lp.h"
#include "solver/fast_touch.h"

/* ---------------------------------------------------- the LP in rounds */

/* The candidates of A and B, alternately, strongest first: on two round
 * polyhedra (each within a box of half-side FAST_ROUND_RATIO times its
 * inradius: the sphere-like ones) the first FAST_ROUND_SEED of each,
 * whose faces are the ones facing the other (the LP prices fewer rows;
 * a certificate row further down joins from the map round), otherwise
 * all of them (an elongated polyhedron's certificate rows lie further
 * down its lists).  bench/pairs: spheres, near pairs and contacts up to
 * 20% faster; with the short seed for every pair, elongated ones were
 * 5-25% slower. */
#define FAST_ROUND_SEED 6
_Static_assert(FAST_ROUND_SEED >= FAST_SUPPORT_SEEN, "the support lists leave out rows the seed holds");
#define FAST_ROUND_RATIO 2
static int seed_candidates(fast_query *q, int forced)
{
    fast_work *w = q->fw;
    int count = 0, take[2], round = 1;
    for (int k = 0; k < 2; k++) {
        double half = 0;
        for (int j = 0; j < q->n; j++)
            half = fp_max(half, 0.5 * (q->V[k]->hi[j] - q->V[k]->lo[j]));
        round &= half < FAST_ROUND_RATIO * q->F[k]->inradius;
    }
    for (int k = 0; k < 2; k++)
        take[k] = round && q->V[k]->m > FAST_ALL_ROWS && q->ncand[k] > FAST_ROUND_SEED
                      ? FAST_ROUND_SEED
                      : q->ncand[k]; /* (a small polyhedron's list is all its rows) */
    for (int c = 0; c < take[0] || c < take[1]; c++)
        for (int k = 0; k < 2; k++)
            if (c < take[k]) {
                int id = q->cand[k][c] + (k ? q->mA : 0);
                w->order[count++] = id;
                w->in_set[id] = 1;
            }
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < q->nsup[k]; c++) {
            int id = q->sup[k][c] + (k ? q->mA : 0);
            if (!w->in_set[id]) {
                w->order[count++] = id;
                w->in_set[id] = 1;
            }
        }
    if (forced >= 0 && !w->in_set[forced]) { /* the LP must hold its forced row */
        w->order[count++] = forced;
        w->in_set[forced] = 1;
    }
    for (int c = 0; q->stale && c <= q->n; c++) {
        int which = q->stale->which[c], row = q->stale->row[c];
        if (which < 0 || which > 1) /* (a box bound completing the basis) */
            continue;
        int id = which ? q->mA + row : row;
        if (row < q->V[which]->m && !w->in_set[id]) {
            w->order[count++] = id;
            w->in_set[id] = 1;
        }
    }
    return count;
}

/* The seed of a query's random row orders, from the query itself (its
 * sizes and the first row of each system; made only when the safety net
 * runs: most queries never read those rows): the same two systems are
 * answered the same way, witness points included, whatever this scratch
 * answered before (a world query's pairs go to threads in any order). */
static uint64_t query_seed(const fast_query *q)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)q->n << 48) ^ ((uint64_t)q->mA << 24) ^
                 (uint64_t)q->M;
    for (int k = 0; k < 2; k++)
        if (q->V[k]->m > 0) {
            h = rng_seed_of(h, q->V[k]->a, q->n);
            h = rng_seed_of(h, q->V[k]->b, 1);
        }
    return h;
}

/* Safety net: every row, those facing along d first, each group in random
 * order (Seidel's expected bound). */
static void full_order(fast_query *q)
{
    fast_work *w = q->fw;
    int front = 0, back = q->M;
    w->rng = query_seed(q);
    for (int id = 0; id < q->M; id++) {
        const double *a = row_a(q, id);
        double along = 0;
        for (int j = 0; j < q->n; j++)
            along += a[j] * q->d[j];
        w->in_set[id] = 0;
        if (poly_of(q, id) ? along < 0 : along > 0)
            w->order[front++] = id;
        else
            w->order[--back] = id;
    }
    rng_shuffle(&w->rng, w->order, front);
    rng_shuffle(&w->rng, w->order + front, q->M - front);
}

/* The most rows that join the set in one round. */
#define FAST_ADD_MAX 32

/* The worst violators found so far by a scan, and whether every row read
 * is certainly strict at x (the filter of fq_strictly_inside). */
typedef struct scan_state {
    fast_query *q;
    const double *z;
    double spread;
    int room, added;
    int maybe_not_strict, unsure;
    int worst[FAST_ADD_MAX];
    double score[FAST_ADD_MAX];
} scan_state;

static void scan_init(scan_state *ss, fast_query *q, const double *z, int room)
{
    double zmax = 0;
    for (int j = 0; j <= q->n; j++)
        zmax = fp_max(zmax, fabs(z[j]));
    *ss = (scan_state){.q = q, .z = z, .room = room};
    ss->spread = (sqrt((double)q->n) + 1) * zmax;
}

/* Row id with violation v > tol of the margin row at z (norm w): among
 * the worst so far, it joins the list. */
static void scan_keep(scan_state *ss, double v, double w, int id)
{
    keep_largest(ss->score, ss->worst, &ss->added, ss->room, v / w, id);
}

/* Row id (stacked; norm w) whose a . x - b at z is ex: when it violates
 * the margin row beyond tol, among the worst so far it joins the list. */
static inline void scan_violated(scan_state *ss, double ex, double tol, double w, int id)
{
    double v = ex + w * ss->z[ss->q->n];
    if (v > tol && !ss->q->fw->in_set[id]) /* (rare: the LP holds its own rows) */
        scan_keep(ss, v, w, id);
}

/* The violation tolerance of a row with right side b and norm w. */
static inline double scan_tol(const scan_state *ss, double b, double w)
{
    return SEIDEL_VIOLATION_TOL * (ss->spread * w + fabs(b));
}

/* Row id (stacked; coefficients a, right side b, norm w) at z: its
 * violation of the margin row and its strictness at x. */
static inline void scan_row(scan_state *ss, const double *a, double b, double w, int id)
{
    int n = ss->q->n;
    double mag, ex = fq_row_excess(a, b, ss->z, n, &mag); /* a . x - b */
    double tol = scan_tol(ss, b, w);
    ss->maybe_not_strict |= ex > -tol; /* (a . x < b is all overlap needs) */
    ss->unsure |= !(mag < 0x1p+900 && mag > 0x1p-900 && ex < -(double)(n + 2) * FP_U * mag);
    scan_violated(ss, ex, tol, w, id);
}

/* The same violation test without the strictness bookkeeping, for an
 * optimum whose margin z_n is not positive (strictness settles nothing
 * there) and for the map rounds: the same value a . x - b, so the same
 * rows join (its magnitude, unused, is left to the compiler to drop). */
static inline void scan_row_violation(scan_state *ss, const double *a, double b, double w, int id)
{
    double mag, ex = fq_row_excess(a, b, ss->z, ss->q->n, &mag);
    (void)mag;
    scan_violated(ss, ex, scan_tol(ss, b, w), w, id);
}

/* The unit rows' part of a scan (3 variables, fast_prep.h): a row whose
 * unit value is clearly strict at x, clearly short of violating the margin
 * row and clearly outside the tolerance that flags a row as near is done
 * (it would change nothing in the state: the same rows join, and it is
 * certified strict); any other row is scanned in doubles as above.  noise:
 * fast_unit_noise for the scanned point. */
static inline int unit_row_clear(const scan_state *ss, const float *u, double noise)
{
    double nb, ex = fast_unit_value(u, ss->z, noise, &nb);
    double tol = SEIDEL_VIOLATION_TOL * (ss->spread + fabs(u[3]));
    return ex + nb < -tol && ex + ss->z[3] + nb < tol;
}

static inline int unit_row_not_violated(const scan_state *ss, const float *u, double noise)
{
    double nb, ex = fast_unit_value(u, ss->z, noise, &nb);
    return ex + ss->z[3] + nb < SEIDEL_VIOLATION_TOL * (ss->spread + fabs(u[3]));
}

static void scan_join(scan_state *ss, int *count)
{
    fast_work *w = ss->q->fw;
    for (int c = 0; c < ss->added; c++) {
        w->order[(*count)++] = ss->worst[c];
        w->in_set[ss->worst[c]] = 1;
    }
}

/* Clarkson's step: every row outside the candidate set is checked against
 * the optimum z = (x, tau); the worst violated rows (8, up to FAST_ADD_MAX
 * on large systems) join the set.  The test is a cheap bound: |a . x| +
 * |w tau| <= (sqrt(n) + 1) w max|z| for the margin rows (w = |a|), and a
 * row is violated beyond SEIDEL_VIOLATION_TOL of that (answers never
 * depend on it).  When no row is violated, *strict says whether every
 * row, set and others, holds strictly at x (certified, in the same pass
 * when the filter decides every row), which settles overlap. */
static int scan_rows(fast_query *q, const double *z, int *count, int *strict)
{
    /* more rows join per round on large systems: a round costs a scan of
     * all of them, a row in the set only a little more pricing */
    int room = q->M / 64 < 8 ? 8 : q->M / 64 > FAST_ADD_MAX ? FAST_ADD_MAX : q->M / 64;
    scan_state ss;
    scan_init(&ss, q, z, room);
    int bookkeeping = z[q->n] > 0;
    double xmax = 0;
    for (int j = 0; j < q->n; j++)
        xmax = fp_max(xmax, fabs(z[j]));
    double noise = fast_unit_noise(xmax);
    for (int k = 0; k < 2; k++) {
        const fast_view *V = q->V[k];
        const double *norm = q->F[k]->norm;
        int base = k ? q->mA : 0;
        const float *unit = q->n == 3 ? fast_prep_unit_rows(q->F[k], V->a, V->b) : NULL;
        if (unit && bookkeeping) {
            for (int i = 0; i < V->m; i++)
                if (!unit_row_clear(&ss, unit + 4 * (size_t)i, noise))
                    scan_row(&ss, V->a + (size_t)i * 3, V->b[i], norm[i], base + i);
        } else if (unit) {
            for (int i = 0; i < V->m; i++)
                if (!unit_row_not_violated(&ss, unit + 4 * (size_t)i, noise))
                    scan_row_violation(&ss, V->a + (size_t)i * 3, V->b[i], norm[i], base + i);
        } else if (bookkeeping)
            for (int i = 0; i < V->m; i++)
                scan_row(&ss, V->a + (size_t)i * (size_t)q->n, V->b[i], norm[i], base + i);
        else
            for (int i = 0; i < V->m; i++)
                scan_row_violation(&ss, V->a + (size_t)i * (size_t)q->n, V->b[i], norm[i],
                                   base + i);
    }
    scan_join(&ss, count);
    /* x strictly inside every row is overlap, whatever the margin rows say */
    *strict = z[q->n] > 0 && (!ss.unsure || ((ss.added == 0 || !ss.maybe_not_strict) &&
                                             fq_strictly_inside_both(q, z)));
    return ss.added;
}

/* Before a scan of every row: the faces that a ray from each polyhedron's
 * center towards the optimum's x crosses, from the direction maps (where
 * x most likely leaves it); those violated join the set.  A disjoint pair
 * whose first candidates missed its certificate usually finds it so
 * without reading every row.  Returns how many joined. */
static int map_round(fast_query *q, const double *z, int *count)
{
    const int *rows[2] = {NULL, NULL};
    int found[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        if (q->V[k]->m <= FAST_ALL_ROWS)
            continue; /* (every row is a candidate: in the set already) */
        const double *c = q->V[k]->center;
        double d[SEIDEL_MAX_DIM], len = 0;
        for (int j = 0; j < q->n; j++) {
            d[j] = z[j] - c[j];
            len += fabs(d[j]);
        }
        rows[k] = len > 0 ? fq_lookup(q, k, d, &found[k]) : NULL;
    }
    /* both lists' rows asked for before either is read (scattered lines:
     * their misses then overlap) */
    for (int k = 0; k < 2; k++)
        fq_prefetch_rows(q, k, rows[k], found[k], 0);
    scan_state ss;
    scan_init(&ss, q, z, FAST_ADD_MAX);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < found[k]; i++)
            scan_row_violation(&ss, view_row(q->V[k], q->n, rows[k][i]), q->V[k]->b[rows[k][i]],
                               q->F[k]->norm[rows[k][i]], rows[k][i] + (k ? q->mA : 0));
    scan_join(&ss, count);
    return ss.added;
}

static void clear_set(fast_query *q, int count)
{
    for (int k = 0; k < count; k++)
        q->fw->in_set[q->fw->order[k]] = 0;
}

static seidel_status solve_set(fast_query *q, int count, int forced, double *z, int *basis)
{
    seidel_problem sp = {q->n, {q->bank[0], q->bank[1]}, count, q->fw->order, q->lo, q->hi,
                         NULL, forced, fq_on_update, q};
    long recursions = 0;
    seidel_status st = seidel_solve(q->fw->sw, &sp, z, basis, &recursions);
    q->r->nodes += recursions;
    q->have_basis = st == SEIDEL_OPTIMAL;
    if (q->have_basis)
        memcpy(q->last_basis, basis, sizeof(int) * (size_t)(q->n + 1));
    return st;
}

/* The LP on the candidate set, a scan of the other rows, the worst
 * violators join; until nothing is violated (FAST_ROUNDS at most, then
 * one Seidel pass over every row).  z and *strict describe the optimum. */
#define FAST_ROUNDS 24
#define FAST_MAP_ROUNDS 3
/* Up to this many rows in all, a contact's proof is tried at the first
 * optimum whose margin is rounding noise, before the map round (the proof
 * reads every row but stops at the first one violated). */
#define FAST_PROOF_FIRST_ROWS 128
/* Up to this many rows in all, a scan of every row (which also certifies
 * an overlap) costs about what a map round does: the rounds scan only. */
#define FAST_SCAN_ONLY_ROWS 64
seidel_status fq_lp_rounds(fast_query *q, int forced, double *z, int *strict)
{
    int count = seed_candidates(q, forced), rounds = 0;
    int basis[SEIDEL_MAX_DIM + 1];
    seidel_status st = SEIDEL_OPTIMAL;
    *strict = 0;
    for (; rounds < FAST_ROUNDS; rounds++) {
        st = solve_set(q, count, forced, z, basis);
        if (q->certified || st != SEIDEL_OPTIMAL || scan_rows(q, z, &count, strict) == 0 ||
            *strict)
            break;
    }
    clear_set(q, count);
    if (!q->certified && st == SEIDEL_OPTIMAL && rounds == FAST_ROUNDS) {
        full_order(q);
        count = q->M;
        st = solve_set(q, count, forced, z, basis);
        *strict = st == SEIDEL_OPTIMAL && z[q->n] > 0 && fq_strictly_inside_both(q, z);
    }
    q->set_count = count; /* (the set stays in fw->order: rounding_apart reads it) */
    fq_trace(q, "%d rounds, LP on %d of %d rows, %ld violated rows became equalities", rounds + 1,
          count, q->M, q->r->nodes);
    return st;
}

/* The margin of z is rounding noise around 0 (what a contact gives) when
 * |z_tau| is at most this. */
double fq_margin_noise(const fast_query *q, const double *z)
{
    double scale = 0;
    for (int c = 0; c <= q->n; c++)
        scale = fp_max(scale, fabs(z[c]));
    return 1e-12 * (scale + 1e-300);
}

/* The same rounds with the dual simplex of fast_lp.c, which goes on from
 * its last basis when violated rows join instead of starting again.
 * Returns 0 when it reached an optimum over every row (z, *strict), or
 * certified disjointness on the way; -1 when it met trouble (the caller
 * then runs Seidel's LP). */
static int dual_hook(void *user, const double *z, const int *basis, const double *lam_tau)
{
    fast_query *q = user;
    for (int c = 0; c <= q->n; c++) /* a box bound with weight cannot certify */
        if (basis[c] < 0 && fabs(lam_tau[c]) > 1e-9)
            return 0;
    /* A margin that is rounding noise around 0 (a contact) is not worth
     * the exact determinants now; the final basis is tried at the end. */
    if (z[q->n] > -fq_margin_noise(q, z))
        return 0;
    return fq_on_update(q, z, basis);
}


/* The candidate of polyhedron k that starts the crash basis: the first one
 * (the first face a ray from its center along sign (t - s) crosses),
 * unless the list is short (at most FAST_ALL_ROWS: a small
 * polyhedron's rows come in index order), when they are compared. */
static int best_aligned(const fast_query *q, int k, double sign)
{
    int best = q->cand[k][0];
    if (q->ncand[k] > FAST_ALL_ROWS)
        return best;
    double top = -INFINITY;
    for (int i = 0; i < q->ncand[k]; i++) {
        int r = q->cand[k][i];
        const double *g = view_row(q->V[k], q->n, r);
        double along = 0;
        for (int j = 0; j < q->n; j++)
            along += g[j] * q->d[j];
        along = sign * along / q->F[k]->norm[r];
        if (along > top) {
            top = along;
            best = r;
        }
    }
    return best;
}

static int try_touching(fast_query *q, int defer);

/* The contact proof at the dual simplex's current basis (which becomes
 * q->last_basis): 1 when it certifies (q->touched, r holds the answer).
 * Where the basis's point is a degenerate corner (more rows through it
 * than the basis: two faces lying on each other, whose common region the
 * LP ends at a corner of), two opposite faces are searched for first
 * among the rows of the set tight there (once per set, *faced: the count
 * of the set last searched, which the rounds' own search also reads), then
 * among every row tight there (fq_try_face_at: one of the faces may not
 * have joined the set yet); passes over the rows, against the exact solve
 * in rationals that follows (about 200 k instructions on a resting pair
 * of mesh hulls). */
static int touch_at_basis(fast_query *q, const flp_state *st, int count, int *faced)
{
    memcpy(q->last_basis, st->basis, sizeof(int) * (size_t)(q->n + 1));
    q->have_basis = 1;
    int rc = try_touching(q, 1);
    if (rc == 2) { /* a degenerate corner: two faces on a face first, then exactly */
        int found = (*faced != count && fq_faces_in_set(q, st->z, count)) ||
                    fq_try_face_at(q, st->z);
        *faced = count; /* (this set searched: not again) */
        rc = found || (!q->rounding_faces && try_touching(q, 0) == 1);
    }
    q->touched = rc == 1;
    return q->touched;
}

/* Doubles of the dual simplex's packed rows kept on the stack (8 KB: 146
 * rows of n + 4 at n = 3, the usual set).  A larger set moves them to the
 * workspace, with room for every row (the set never outgrows it); without
 * that room, pricing reads the banks. */
#define FAST_STACK_TAB 1024
static void grow_table(fast_query *q, flp_state *st)
{
    fast_work *w = q->fw;
    long need = (long)(q->n + 4) * q->M;
    if (w->lp_tab_cap < need) {
        double *t = realloc(w->lp_tab, sizeof(double) * (size_t)need);
        if (t) {
            w->lp_tab = t;
            w->lp_tab_cap = (int)need;
        }
    }
    if (w->lp_tab_cap >= need)
        flp_move_table(st, w->lp_tab, q->M);
    else
        flp_set_table(st, NULL, 0);
}

int fq_lp_rounds_dual(fast_query *q, double *z, int *strict)
{
    flp_state st;
    flp_init(&st, q->n, q->bank, q->lo, q->hi, NULL, dual_hook, q);
    /* the packed rows on the stack while the set is small (a line of the
     * caller's recent stack is likelier cached than the workspace's) */
    double near_tab[FAST_STACK_TAB];
    flp_set_table(&st, near_tab, FAST_STACK_TAB / (q->n + 4));
    /* from A's and B's best candidates facing each other, when that basis
     * is dual feasible: about 2 of the box corner's first pivots saved;
     * from two faces on one plane when there are (a face on a face: the
     * contact's own rows, most of its pivots saved).  The faces before the
     * set is written: their search may use q->fw->order as scratch */
    int crash = q->ncand[0] > 0 && q->ncand[1] > 0 && !q->stale, ra = -1, rb = -1;
    int opposite = crash && fq_opposite_faces(q, &ra, &rb);
    int count = seed_candidates(q, -1), rounds = 0, rc = -1, maps = 0, tried = -1, faced = -1;
    *strict = 0;
    if (crash) {
        if (!opposite) {
            ra = best_aligned(q, 0, 1);
            rb = best_aligned(q, 1, -1);
        }
        flp_crash(&st, ra, rb + q->mA);
    }
    for (; rounds < FAST_ROUNDS; rounds++) {
        if (count > st.tab_cap)
            grow_table(q, &st);
        flp_status fs = flp_solve(&st, q->fw->order, count);
        if (fs == FLP_STOPPED || q->certified) {
            rc = 0;
            break;
        }
        if (fs != FLP_OPTIMAL)
            break;
        if (count == q->M && !(st.z[q->n] > 0)) { /* every row in the set: optimal, and */
            rc = 0;                                /* no overlap point to certify */
            break;
        }
        int at_noise = fabs(st.z[q->n]) <= fq_margin_noise(q, st.z); /* (a margin about 0) */
        /* a contact on few rows: its proof (which reads every row, and
         * stops at the first one violated) before the map round */
        if (maps == 0 && q->M <= FAST_PROOF_FIRST_ROWS && at_noise) {
            if (touch_at_basis(q, &st, count, &faced)) {
                rc = 0;
                break;
            }
            tried = st.pivots; /* (not again at this basis) */
        }
        /* two faces lying on each other among the rows of the set, tight
         * at a margin of rounding noise: their proof at once (the LP on
         * such a pair goes on through many degenerate rounds and pivots;
         * a pass over the set, against a pass over every row and the
         * rounds) */
        if (faced != count && at_noise) {
            faced = count;
            if (fq_faces_in_set(q, st.z, count)) {
                q->have_basis = q->touched = 1;
                rc = 0;
                break;
            }
        }
        /* two faces opposite to rounding (not exactly) among the tight
         * rows, at a margin of rounding noise: bodies a rounding apart.
         * They do not touch exactly, so the contact proof would fail, and
         * more rounds would only refine an optimum that rounding_apart
         * (engine_fast.c) does not need: its steps certify on every row
         * (hull-rest-fp: 17% fewer instructions, the same answers) */
        if (q->rounding_faces && at_noise) {
            rc = 0;
            break;
        }
        if (count < q->M && q->M > FAST_SCAN_ONLY_ROWS && maps < FAST_MAP_ROUNDS &&
            map_round(q, st.z, &count) > 0) {
            maps++;
            continue;
        }
        maps = FAST_MAP_ROUNDS; /* (once the maps find nothing, scans only) */
        if (tried != st.pivots && at_noise) {
            /* a margin of rounding noise around 0: the contact proof reads
             * every row with exact filters anyway, and when it succeeds the
             * contact is certified whether or not this optimum is the LP's
             * (a scan of every row saved); when it fails, the scan follows */
            if (touch_at_basis(q, &st, count, &faced)) {
                rc = 0;
                break;
            }
        }
        if (scan_rows(q, st.z, &count, strict) == 0 || *strict) {
            rc = 0;
            break;
        }
    }
    clear_set(q, count);
    q->set_count = count;
    memcpy(z, st.z, sizeof(double) * (size_t)(q->n + 1));
    memcpy(q->last_basis, st.basis, sizeof(int) * (size_t)(q->n + 1));
    if (rc == 0 && !q->certified && z[q->n] < -fq_margin_noise(q, z))
        fq_on_update(q, z, st.basis); /* a disjoint optimum the hook left alone (a
                                      margin of rounding noise: a contact, tried next) */
    q->have_basis = rc == 0 && !q->certified;

    q->r->nodes += st.pivots;
    fq_trace(q, "dual simplex: %d rounds, %d pivots, LP on %d of %d rows%s", rounds + 1, st.pivots,
          count, q->M, rc == 0 ? "" : " (numerical trouble: Seidel's LP instead)");
    return rc;
}


/* Contact: the last optimum's basis, certified exactly (fast_touch.c);
 * with defer, 2 where that needs the point in rationals. */
static int try_touching(fast_query *q, int defer)
{
    int D = q->n + 1, which[SEIDEL_MAX_DIM], row[SEIDEL_MAX_DIM];
    double G[SEIDEL_MAX_DIM * SEIDEL_MAX_DIM], h[SEIDEL_MAX_DIM];
    if (!q->have_basis || D > SEIDEL_MAX_DIM)
        return 0;
    for (int c = 0; c < D; c++) {
        int id = q->last_basis[c];
        fq_basis_column(q, id, G + c * D, &h[c]);
        which[c] = id >= 0 ? poly_of(q, id) : -1;
        row[c] = id >= 0 ? index_in(q, id) : -1;
    }
    fast_touch_job job = {q->n,  G,    h, which, row, {q->V[0], q->V[1]}, q->V[0]->center,
                          defer, NULL, 0, NULL, {NULL, NULL}, {0, 0}};
    return fast_touch_certify(&job, q->r, &q->fw->ps);
}

int fq_try_touching(fast_query *q)
{
    return try_touching(q, 0) == 1;
}

