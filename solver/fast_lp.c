/* fast_lp.c -- the fast engine's margin LP by the dual simplex method (see
 * fast_lp.h).
 *
 * A basis is D constraints (rows of the set or box bounds) whose normals
 * g_c, the rows of the D x D matrix G, are independent; its vertex is
 * z = G^-1 h.  It is dual feasible when each objective c_t (c_0 = e_tau,
 * c_t = e_{x_t}) is a combination sum_c lam_ct g_c whose rows
 * (lam_c0, lam_c1, ...) are lexicographically positive: z then maximises
 * the objectives lexicographically over the basis constraints alone, and
 * over all constraints once it violates none (then it is optimal).  With
 * G z = h, lam_ct = s_t (G^-1)_{v(t), c} for objective c_t = s_t e_v(t).
 *
 * A pivot.  A violated constraint r (g_r . z > h_r) enters.  With
 * G^T alpha = g_r, moving the multipliers to lam - theta alpha on the
 * basis and theta on r keeps every objective's combination, and lowers
 * the dual objective (the margin bound) by theta (g_r . z - h_r).  The
 * largest theta keeping every row of multipliers lexicographically
 * nonnegative picks the constraint that leaves: the lexicographic ratio
 * test, which rules out cycling.  No alpha_c > 0: the constraints have no
 * common point.  The inverse of G is updated by the row replacement
 * (Sherman-Morrison: the denominator is alpha_c) and recomputed from G by
 * Gaussian elimination every FLP_REFACTOR pivots.
 *
 * The start.  Every variable at the box bound its objective pushes it to
 * (the upper one for +x, the lower one for -x): G is a signed permutation
 * whose multipliers form the identity: dual feasible. */
#include "solver/fast_lp.h"

#include "polytope/dense.h"
#include "polytope/fp.h"
#include "polytope/select.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define FLP_REFACTOR 12
#define FLP_PIVOT_TOL 1e-11 /* |alpha_c| at least this times |alpha|: else no pivot on c */
/* More than FLP_STALL * D pivots in a row that leave the margin where it
 * was: numerical trouble.  At a degenerate corner (two faces lying on each
 * other, with many rows through their contact) rounding can defeat the
 * lexicographic rule, and the pivots wander until the limit; the longest
 * such run that still ended at an optimum was 20 pivots (D = 4) over
 * every dumped family of bench/pairs, the wandering one 108. */
#define FLP_STALL 10

/* Variable and sign of objective t (default: +tau, then +x_1..+x_n). */
static int obj_var(const flp_state *s, int t) { return s->ovar[t]; }
static double obj_sign(const flp_state *s, int t) { return s->osign[t]; }

/* Normal (D = n + 1 values) and right side of constraint id.  Inlined
 * where it is called, so that with a constant n the copies unroll. */
static FP_KERNEL void constraint_of_n(const flp_state *s, int n, int id, double *g, double *h)
{
    if (id < 0) {
        int var = SEIDEL_BOX_VAR(id), upper = SEIDEL_BOX_UPPER(id);
        FP_UNROLL
        for (int j = 0; j <= n; j++)
            g[j] = 0;
        g[var] = upper ? 1 : -1;
        *h = upper ? s->hi[var] : -s->lo[var];
        return;
    }
    const seidel_bank *b = id < s->bank[0].m ? &s->bank[0] : &s->bank[1];
    int i = id < s->bank[0].m ? id : id - s->bank[0].m;
    const double *a = b->a + (size_t)i * (size_t)n;
    FP_UNROLL
    for (int j = 0; j < n; j++)
        g[j] = a[j];
    g[n] = b->w ? b->w[i] : 0;
    *h = b->b[i];
}

static void constraint_of(const flp_state *s, int id, double *g, double *h)
{
    constraint_of_n(s, s->n, id, g, h);
}

/* Ginv from G (dense.c: Gauss-Jordan with partial pivoting); -1 when G
 * is singular to working precision. */
static int flp_refactor(flp_state *s)
{
    s->since_refactor = 0;
    return dense_inverse(s->D, s->G, s->Ginv);
}

/* The vertex z = Ginv h of a basis (D x D); 0, or -1 when a coordinate is
 * not finite. */
static FP_KERNEL int vertex_of(int D, const double *Ginv, const double *h, double *z)
{
    int finite = 1;
    FP_UNROLL
    for (int i = 0; i < D; i++) {
        double v = 0;
        FP_UNROLL
        for (int c = 0; c < D; c++)
            v += Ginv[i * D + c] * h[c];
        z[i] = v;
        finite &= isfinite(v);
    }
    return finite ? 0 : -1;
}

void flp_init(flp_state *s, int n, const seidel_bank bank[2], const double *lo,
              const double *hi, const int *objective, flp_hook hook, void *hook_user)
{
    int D = n + 1;
    s->n = n;
    s->D = D;
    s->bank[0] = bank[0];
    s->bank[1] = bank[1];
    s->lo = lo;
    s->hi = hi;
    s->hook = hook;
    s->hook_user = hook_user;
    s->pivots = 0;
    s->tab = NULL;
    s->tab_cap = s->ntab = 0;
    for (int t = 0; t < D; t++) {
        int code = objective ? objective[t] : (t == 0 ? n + 1 : t);
        s->ovar[t] = (code > 0 ? code : -code) - 1;
        s->osign[t] = code > 0 ? 1 : -1;
    }
    s->started = 0; /* (the box corner is made by the first flp_solve, unless a crash
                       basis replaces it first) */
}

/* The start at the corner of the box the objectives push to. */
static void start_at_corner(flp_state *s)
{
    int D = s->D;
    for (int t = 0; t < D; t++) {
        int var = obj_var(s, t);
        s->basis[t] = SEIDEL_BOX_ID(var, obj_sign(s, t) > 0);
        constraint_of(s, s->basis[t], s->G + t * D, &s->h[t]);
    }
    /* G is a signed permutation: its inverse is its transpose (what the
     * elimination would compute, exactly) */
    for (int i = 0; i < D; i++)
        for (int c = 0; c < D; c++)
            s->Ginv[i * D + c] = s->G[c * D + i];
    s->since_refactor = 0;
    (void)vertex_of(D, s->Ginv, s->h, s->z); /* (the box corner: finite when the box is) */
    s->started = 1;
}

/* The inverse of the crash basis G (rows ga, gb, then unit rows +-e_j of
 * the axes j != m), in closed form: ordering the columns as F = (m, n)
 * then the box axes, G = [P Q; 0 S] with P the 2 x 2 block of ga and gb
 * on F and S a signed identity, so G^-1 = [P^-1, -P^-1 Q S; 0, S] (S^-1 =
 * S).  det P = ga_m gb_n - ga_n gb_m is a sum of two terms of one sign
 * (ga_m, gb_m of opposite signs, the weights ga_n, gb_n > 0): no
 * cancellation.  Ginv[v * D + c] is row v (variable), column c (basis). */
static void crash_inverse(int n, int m, const double *G, double *Ginv)
{
    int D = n + 1;
    const double *ga = G, *gb = G + D;
    double det = ga[m] * gb[n] - ga[n] * gb[m];
    double p00 = gb[n] / det, p01 = -ga[n] / det, p10 = -gb[m] / det, p11 = ga[m] / det;
    memset(Ginv, 0, sizeof(double) * (size_t)(D * D));
    Ginv[m * D + 0] = p00; /* P^-1: (x_m, tau) from the rows ga, gb */
    Ginv[m * D + 1] = p01;
    Ginv[n * D + 0] = p10;
    Ginv[n * D + 1] = p11;
    for (int c = 2; c < D; c++) {
        const double *gc = G + c * D;
        int j = 0;
        while (gc[j] == 0)
            j++; /* the axis of unit row c, sign gc[j] */
        double sg = gc[j];
        Ginv[j * D + c] = sg;
        /* -P^-1 Q S: Q's column for axis j is (ga_j, gb_j), times S's sign */
        Ginv[m * D + c] = -(p00 * ga[j] + p01 * gb[j]) * sg;
        Ginv[n * D + c] = -(p10 * ga[j] + p11 * gb[j]) * sg;
    }
}

int flp_crash(flp_state *s, int ra, int rb)
{
    /* (made in place: a crash that fails leaves s unstarted, and the first
     * flp_solve makes its corner over what is left) */
    int D = s->D, n = s->n, m = -1, *basis = s->basis;
    double *G = s->G, *h = s->h, *Ginv = s->Ginv, *ga = G, *gb = G + D, best = 0;
    if (s->started || s->ovar[0] != n || s->osign[0] < 0)
        return 0; /* (only before the first flp_solve, for the margin objective) */
    basis[0] = ra;
    basis[1] = rb;
    constraint_of(s, ra, ga, &h[0]);
    constraint_of(s, rb, gb, &h[1]);
    for (int j = 0; j < n; j++) /* an axis on which the two normals oppose */
        if (ga[j] * gb[j] < 0 && fabs(ga[j]) + fabs(gb[j]) > best) {
            best = fabs(ga[j]) + fabs(gb[j]);
            m = j;
        }
    if (m < 0 || !(ga[n] > 0) || !(gb[n] > 0))
        return 0;
    /* e_tau = la ga + lb gb + the box bounds of the other axes, la, lb > 0 */
    double la = 1 / (ga[n] + fabs(ga[m] / gb[m]) * gb[n]), lb = la * fabs(ga[m] / gb[m]);
    for (int j = 0, c = 2; j < n; j++)
        if (j != m) {
            basis[c] = SEIDEL_BOX_ID(j, -(la * ga[j] + lb * gb[j]) > 0);
            constraint_of(s, basis[c], G + c * D, &h[c]);
            c++;
        }
    crash_inverse(n, m, G, Ginv);
    /* dual feasible: every basis constraint's row of multipliers (lam_ct =
     * s_t Ginv[v(t)][c], objectives in order) is lexicographically
     * positive.  ga and gb carry weight for tau.  A box bound carries
     * weight for tau unless the rows face each other exactly (a face on a
     * face), and then for a later objective: its side is the one that
     * makes its first weight positive (the other side negates its row of
     * G, its column of Ginv, its multipliers). */
    double top = 0;
    for (int c = 0; c < D; c++)
        top = fp_max(top, fabs(Ginv[n * D + c]));
    for (int c = 0; c < 2; c++)
        if (!(Ginv[n * D + c] > 1e-9 * top))
            return 0;
    for (int c = 2; c < D; c++) {
        double col = 0, first = 0;
        for (int t = 0; t < D; t++)
            col = fp_max(col, fabs(Ginv[obj_var(s, t) * D + c]));
        for (int t = 0; t < D && first == 0; t++) {
            double lam = obj_sign(s, t) * Ginv[obj_var(s, t) * D + c];
            if (fabs(lam) > 1e-9 * (t == 0 ? top : col))
                first = lam;
        }
        if (first == 0)
            return 0;
        if (first < 0) { /* the other bound of this axis */
            int var = SEIDEL_BOX_VAR(basis[c]), upper = SEIDEL_BOX_UPPER(basis[c]);
            basis[c] = SEIDEL_BOX_ID(var, !upper);
            constraint_of(s, basis[c], G + c * D, &h[c]);
            for (int v = 0; v < D; v++)
                Ginv[v * D + c] = -Ginv[v * D + c];
        }
    }
    if (vertex_of(D, Ginv, h, s->z) != 0)
        return 0;
    s->since_refactor = 0;
    s->started = 1;
    return 1;
}

/* How far row id (of the banks) is violated at s->z beyond its tolerance,
 * over the norm of its normal (its margin weight w, 1 when w = 0): > 0
 * when violated, else 0.  |a . x| + |w tau| <= (|a|_1 + |w|) zmax <=
 * (sqrt(n) |a|_2 + |w|) zmax, and w = |a|_2 for the margin rows: the
 * tolerance is a multiple of that bound (a row is violated only beyond
 * rounding noise).  zmax: the largest |z_j|.  The test of the packed rows
 * below is the same, with the tolerance's two parts stored. */
static FP_KERNEL double row_violation(const flp_state *s, int n, int id, double zmax)
{
    const double spread = sqrt((double)n) + 1;
    const seidel_bank *b = id < s->bank[0].m ? &s->bank[0] : &s->bank[1];
    int i = id < s->bank[0].m ? id : id - s->bank[0].m;
    const double *a = b->a + (size_t)i * (size_t)n;
    double w = b->w ? b->w[i] : 0, v = w * s->z[n] - b->b[i];
    for (int j = 0; j < n; j++)
        v += a[j] * s->z[j];
    double nrm = w > 0 ? w : 1;
    return v > SEIDEL_VIOLATION_TOL * (spread * nrm * zmax + fabs(b->b[i])) ? v / nrm : 0;
}

/* The most violated constraint (rows of the set, then box bounds), by
 * violation over the norm of its normal; FLP_NONE when none.  Inlined in
 * flp_solve_n (n constant there). */
#define FLP_NONE INT_MIN
static FP_KERNEL int most_violated(flp_state *s, int n, const int *set, int count)
{
    int D = n + 1, best = FLP_NONE, S = n + 4;
    double best_score = 0, zmax = 0;
    FP_UNROLL
    for (int j = 0; j < D; j++)
        zmax = fp_max(zmax, fabs(s->z[j]));
    const double spread = sqrt((double)n) + 1; /* (the tolerance: row_violation) */
    if (s->tab && count <= s->tab_cap) {
        /* The rows of the set, packed once (row k: a, w, b, and the two
         * parts of its tolerance), when the caller gave room for them. */
        for (int k = s->ntab; k < count; k++) {
            int id = set[k];
            const seidel_bank *b = id < s->bank[0].m ? &s->bank[0] : &s->bank[1];
            int i = id < s->bank[0].m ? id : id - s->bank[0].m;
            const double *a = b->a + (size_t)i * (size_t)n;
            double *row = s->tab + (size_t)k * (size_t)S, w = b->w ? b->w[i] : 0;
            FP_UNROLL
            for (int j = 0; j < n; j++)
                row[j] = a[j];
            row[n] = w;
            row[n + 1] = b->b[i];
            row[n + 2] = SEIDEL_VIOLATION_TOL * spread * (w > 0 ? w : 1);
            row[n + 3] = SEIDEL_VIOLATION_TOL * fabs(b->b[i]);
        }
        s->ntab = count;
        double z[FLP_MAX_D]; /* (in registers through the loop) */
        FP_UNROLL
        for (int j = 0; j <= n; j++)
            z[j] = s->z[j];
        /* Without branches: which rows are violated, and which most, is
         * a coin toss for the branch predictor in a cold query.  GCC
         * turns selects of doubles into branches, so the scores are
         * compared as the bits of nonnegative doubles (whose order as
         * unsigned integers is theirs), a row not violated scoring +0
         * (the tolerance is >= 0: a violated row has v > 0 and a score
         * > 0). */
        uint64_t top = 0;
        int at = -1; /* (the index, not set[at]: a load is not made a cmov) */
        for (int k = 0; k < count; k++) {
            const double *row = s->tab + (size_t)k * (size_t)S;
            double v = -row[n + 1];
            FP_UNROLL
            for (int j = 0; j <= n; j++)
                v += row[j] * z[j];
            double score = v / (row[n] > 0 ? row[n] : 1);
            uint64_t bits;
            memcpy(&bits, &score, sizeof bits);
            bits &= -(uint64_t)(v > row[n + 2] * zmax + row[n + 3]);
            at = bits > top ? k : at;
            top = bits > top ? bits : top;
        }
        memcpy(&best_score, &top, sizeof best_score);
        if (at >= 0)
            best = set[at];
    } else
        for (int k = 0; k < count; k++) {
            double score = row_violation(s, n, set[k], zmax);
            if (score > best_score) {
                best_score = score;
                best = set[k];
            }
        }
    for (int var = 0; var < D; var++) {
        if (!(s->z[var] < s->lo[var] || s->z[var] > s->hi[var]))
            continue; /* (the usual case: inside the box, no bound violated) */
        for (int upper = 0; upper < 2; upper++) {
            double v = upper ? s->z[var] - s->hi[var] : s->lo[var] - s->z[var];
            double mag = fabs(s->z[var]) + fabs(upper ? s->hi[var] : s->lo[var]);
            if (v > SEIDEL_VIOLATION_TOL * mag && v > best_score) {
                best_score = v;
                best = SEIDEL_BOX_ID(var, upper);
            }
        }
    }
    return best;
}

/* lam row c compared with lam row d, each divided by its alpha:
 * lexicographic sign of lam_c / alpha_c - lam_d / alpha_d, from objective
 * `from` on (the earlier ones equal within the tolerance). */
static int lex_compare(const flp_state *s, int c, double ac, int d, double ad, int from)
{
    int D = s->D;
    for (int t = from; t < D; t++) {
        int var = obj_var(s, t);
        double sg = obj_sign(s, t);
        double x = sg * s->Ginv[var * D + c] / ac, y = sg * s->Ginv[var * D + d] / ad;
        double tol = 1e-12 * (fabs(x) + fabs(y));
        if (x < y - tol)
            return -1;
        if (x > y + tol)
            return 1;
    }
    return 0;
}

void flp_set_table(flp_state *s, double *tab, int cap)
{
    s->tab = tab;
    s->tab_cap = cap;
    s->ntab = 0;
}

void flp_move_table(flp_state *s, double *tab, int cap)
{
    if (s->tab && s->ntab > 0 && s->ntab <= cap)
        memcpy(tab, s->tab, sizeof(double) * (size_t)(s->n + 4) * (size_t)s->ntab);
    else
        s->ntab = 0;
    s->tab = tab;
    s->tab_cap = cap;
}

/* flp_solve for n variables, inlined twice below: with n = 3 (the common
 * case: every loop over D = 4 unrolls) and with n as given. */
static FP_KERNEL flp_status flp_solve_n(flp_state *s, int n, const int *set, int count)
{
    int D = n + 1, limit = s->pivots + 8 * D + 2 * count + 16, flat = 0;
    double tau = s->z[n];
    for (;;) {
        int r = most_violated(s, n, set, count);
        if (r == FLP_NONE)
            return FLP_OPTIMAL;
        if (s->pivots >= limit || flat > FLP_STALL * D)
            return FLP_TROUBLE;
        double g[FLP_MAX_D], h, alpha[FLP_MAX_D], amax = 0;
        constraint_of_n(s, n, r, g, &h);
        FP_UNROLL
        for (int c = 0; c < D; c++) {
            double v = 0;
            FP_UNROLL
            for (int k = 0; k < D; k++)
                v += s->Ginv[k * D + c] * g[k];
            alpha[c] = v;
            amax = fp_max(amax, fabs(v));
        }
        /* the lexicographic ratio test; its first objective's ratios here
         * (they decide it but for ties), lex_compare for the others */
        int leave = -1, var0 = obj_var(s, 0);
        double sg0 = obj_sign(s, 0), x0 = 0;
        FP_UNROLL
        for (int c = 0; c < D; c++) {
            if (!(alpha[c] > FLP_PIVOT_TOL * amax))
                continue;
            double x = sg0 * s->Ginv[var0 * D + c] / alpha[c];
            if (leave >= 0) {
                double tol = 1e-12 * (fabs(x) + fabs(x0));
                if (x > x0 + tol ||
                    (!(x < x0 - tol) && lex_compare(s, c, alpha[c], leave, alpha[leave], 1) >= 0))
                    continue;
            }
            leave = c;
            x0 = x;
        }
        if (leave < 0)
            return amax > 0 ? FLP_INFEASIBLE : FLP_TROUBLE;
        /* Row replacement: Ginv' = Ginv - Ginv[:, leave] (alpha - e_leave)^T / alpha_leave */
        double col[FLP_MAX_D], f[FLP_MAX_D], al = alpha[leave];
        FP_UNROLL
        for (int k = 0; k < D; k++) {
            col[k] = s->Ginv[k * D + leave];
            f[k] = (alpha[k] - (k == leave)) / al;
        }
        FP_UNROLL
        for (int k = 0; k < D; k++)
            FP_UNROLL
            for (int j = 0; j < D; j++)
                s->Ginv[k * D + j] -= col[k] * f[j];
        FP_UNROLL
        for (int j = 0; j < D; j++)
            s->G[leave * D + j] = g[j];
        s->h[leave] = h;
        s->basis[leave] = r;
        s->pivots++;
        if (++s->since_refactor >= FLP_REFACTOR && flp_refactor(s) != 0)
            return FLP_TROUBLE;
        if (vertex_of(D, s->Ginv, s->h, s->z) != 0)
            return FLP_TROUBLE;
        if (s->z[n] < tau - 1e-12 * fabs(tau)) { /* (the margin bound went down) */
            tau = s->z[n];
            flat = 0;
        } else
            flat++;
        if (s->hook && s->z[n] < 0) {
            double lam_tau[FLP_MAX_D];
            FP_UNROLL
            for (int c = 0; c < D; c++)
                lam_tau[c] = s->Ginv[n * D + c];
            if (s->hook(s->hook_user, s->z, s->basis, lam_tau))
                return FLP_STOPPED;
        }
    }
}

flp_status flp_solve(flp_state *s, const int *set, int count)
{
    if (!s->started)
        start_at_corner(s);
    return s->n == 3 ? flp_solve_n(s, 3, set, count) : flp_solve_n(s, s->n, set, count);
}

/* The FLP_ROUND_JOIN rows most violated at s->z among those not in the
 * set (in[i] = 0), largest first, into join; how many.  Inlined with a
 * constant n below. */
static FP_KERNEL int most_violated_out(const flp_state *s, int n, const unsigned char *in, int m,
                                       int *join)
{
    double zmax = 0, best[FLP_ROUND_JOIN];
    int nj = 0;
    FP_UNROLL
    for (int j = 0; j <= n; j++)
        zmax = fp_max(zmax, fabs(s->z[j]));
    for (int i = 0; i < m; i++) {
        double score = in[i] ? 0 : row_violation(s, n, i, zmax);
        if (score > 0)
            keep_largest(best, join, &nj, FLP_ROUND_JOIN, score, i);
    }
    return nj;
}

flp_status flp_solve_rounds(flp_state *s, int *order, unsigned char *in, int count)
{
    int m = s->bank[0].m + s->bank[1].m;
    memset(in, 0, (size_t)m);
    for (int c = 0; c < count; c++)
        in[order[c]] = 1;
    for (int round = 0;; round++) {
        flp_status st = flp_solve(s, order, count);
        if (st != FLP_OPTIMAL || count == m)
            return st;
        if (round == FLP_ROUNDS) { /* (never seen) every row at once */
            for (int i = 0; i < m; i++)
                if (!in[i]) {
                    in[i] = 1;
                    order[count++] = i;
                }
            continue;
        }
        int join[FLP_ROUND_JOIN];
        int nj = s->n == 2   ? most_violated_out(s, 2, in, m, join)
                 : s->n == 3 ? most_violated_out(s, 3, in, m, join)
                             : most_violated_out(s, s->n, in, m, join);
        if (nj == 0)
            return FLP_OPTIMAL; /* over every row */
        for (int c = 0; c < nj; c++) {
            in[join[c]] = 1;
            order[count++] = join[c];
        }
    }
}
