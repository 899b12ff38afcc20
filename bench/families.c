/* families.c -- generators of the instance families of bench/pairs (see
 * families.h for what each family is).
 *
 * Exact numbers.  Every family but hull writes rows whose numbers are
 * exact doubles by construction: integer normals and right sides that are
 * multiples of 2^-10 (2^-40 for near), computed in 64-bit integers.  The
 * touching constructions rely on that: the common point q and the cutting
 * rows are exact, so "touching" is a fact about the numbers written, and
 * the exact engine confirms it (bench/pairs takes its class as the
 * reference and reports any pair that is not what its family says).
 *
 * The touching constructions.  d is a random integer direction (|d|
 * between 100 and 1000), q = 0.7 or 0.8 d/|d| rounded to a multiple of
 * 2^-10, so q is well inside A's tangent rows (which contain the unit
 * ball around the origin) and, with |cB - q| < 0.95, inside B's (unit
 * ball around cB).
 *   face-face:   A gets the row d . x <= d . q, B the row -d . x <= -d . q
 *                with cB = q + 0.7 d/|d| + (up to 0.3 sideways): both cut
 *                a disk of radius about 0.7 out of the plane d . x = d . q
 *                around nearly the same point, so they share a 2-D face
 *                and are separated by the plane.
 *   vertex-face: A gets three rows (d + f_k) . x <= (d + f_k) . q with
 *                f_1 + f_2 + f_3 = 0, |f_k| < |d| and independent normals:
 *                a cone with apex q, and d = (n_1 + n_2 + n_3) / 3 lies
 *                inside its normal cone, so A meets the plane d . x = d . q
 *                in q only; B gets the row -d . x <= -d . q as above.
 *   edge-edge:   A gets (d + g) . x <= .. and (d - g) . x <= .. through q,
 *                B gets (-d + h) . x <= .. and (-d - h) . x <= .. through q,
 *                with d, g, h independent and |g|, |h| < |d|: the four
 *                normals sum to zero and span R^3, so the four half-spaces
 *                meet in q alone; A's edge (direction d x g) and B's
 *                (direction d x h) cross in q without being parallel.
 * The cutting rows take random positions among the tangent rows. */
#include "bench/families.h"

#include <glob.h>
#include <glpk.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/tangent.h"
#include "polytope/hull3.h"
#include "src/scene/scene.h"

#define FRAC TANGENT_FRAC_BITS /* rows and points: multiples of 2^-10 */
#define NEAR_BITS 30           /* near: B moves by k 2^-30 cB */
#define NEAR_K_LO (-(1L << 29)) /* centers at most 1.15 apart: overlap */
#define NEAR_K_HI (1L << 31)    /* centers at least 5.1 apart: disjoint */
#define TOUCH_MIN_D 100        /* |d| of the touching constructions */
#define TOUCH_TRIES 1000

static const char *const fam_names[FAM_COUNT] = {
    "sphere", "elong2", "elong4", "elong10", "near", "touch-ff", "touch-ee", "touch-vf", "hull",
    "hull-rest", "hull-rest-fp"};

const char *fam_name(fam_id f) { return f >= 0 && f < FAM_COUNT ? fam_names[f] : "?"; }

int fam_from_name(const char *name, fam_id *f)
{
    for (int i = 0; i < FAM_COUNT; i++)
        if (strcmp(name, fam_names[i]) == 0) {
            *f = (fam_id)i;
            return 0;
        }
    return -1;
}

int fam_needs_meshes(fam_id f)
{
    return f == FAM_HULL || f == FAM_HULL_REST || f == FAM_HULL_REST_FP;
}

int fam_has_m(fam_id f) { return !fam_needs_meshes(f); }

int fam_min_m(fam_id f)
{
    switch (f) {
    case FAM_TOUCH_FF: case FAM_TOUCH_EE: case FAM_TOUCH_VF: return 8;
    case FAM_HULL: case FAM_HULL_REST: case FAM_HULL_REST_FP: return 0;
    default: return 4;
    }
}

static hs_code fail(hs_error *err, hs_code code, const char *fmt, ...)
{
    if (err) {
        err->code = code;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void fam_pair_free(fam_pair *p)
{
    for (int k = 0; k < 2; k++) {
        free(p->a[k]);
        free(p->b[k]);
        p->a[k] = p->b[k] = NULL;
    }
}

static hs_code pair_alloc(fam_pair *p, int mA, int mB, hs_error *err)
{
    memset(p, 0, sizeof *p);
    p->m[0] = mA;
    p->m[1] = mB;
    for (int k = 0; k < 2; k++) {
        p->a[k] = malloc((size_t)p->m[k] * 3 * sizeof(double));
        p->b[k] = malloc((size_t)p->m[k] * sizeof(double));
        if (!p->a[k] || !p->b[k]) {
            fam_pair_free(p);
            return fail(err, HS_ERR_NOMEM, "out of memory");
        }
    }
    return HS_OK;
}

/* ============================================================ numbers */

/* x (a multiple of 2^-10) in units of 2^-10. */
static int64_t fx(double x) { return (int64_t)llround(ldexp(x, FRAC)); }
static double unfx(int64_t v) { return ldexp((double)v, -FRAC); }
/* Nearest multiple of 2^-10. */
static double round_fx(double x) { return ldexp(round(ldexp(x, FRAC)), -FRAC); }

static double norm3l(const long v[3])
{
    return sqrt((double)(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
}

/* n . q in units of 2^-10 (q multiples of 2^-10). */
static int64_t dot_fx(const long n[3], const double q[3])
{
    return (int64_t)n[0] * fx(q[0]) + (int64_t)n[1] * fx(q[1]) + (int64_t)n[2] * fx(q[2]);
}

static int64_t det3l(const long a[3], const long b[3], const long c[3])
{
    return (int64_t)a[0] * ((int64_t)b[1] * c[2] - (int64_t)b[2] * c[1]) -
           (int64_t)a[1] * ((int64_t)b[0] * c[2] - (int64_t)b[2] * c[0]) +
           (int64_t)a[2] * ((int64_t)b[0] * c[1] - (int64_t)b[1] * c[0]);
}

/* The stream of family f: the sphere family's is tangent_pair's. */
static tangent_rng family_rng(fam_id f, uint64_t seed, long index)
{
    return tangent_rng_for_pair(seed ^ (0x5851F42D4C957F2Dull * (uint64_t)f), index);
}

/* ============================================================ sphere */

static hs_code make_sphere(uint64_t seed, long index, int m, fam_pair *p, hs_error *err)
{
    static const double origin[3] = {0, 0, 0};
    tangent_rng g = tangent_rng_for_pair(seed, index); /* as tangent_pair */
    double c[3];
    tangent_pair_center(&g, c, NULL);
    hs_code rc = pair_alloc(p, m, m, err);
    if (rc != HS_OK)
        return rc;
    tangent_rows(&g, m, origin, p->a[0], p->b[0]);
    tangent_rows(&g, m, c, p->a[1], p->b[1]);
    memcpy(p->interior[1], c, sizeof c);
    snprintf(p->label, sizeof p->label, "sphere");
    return HS_OK;
}

/* ============================================================ elongated */

/* A signed permutation R: (R w)_j = sign[j] w[perm[j]]. */
typedef struct orient {
    int perm[3];
    int sign[3];
} orient;

static orient random_orient(tangent_rng *g)
{
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    orient R;
    int k = (int)tangent_rng_int(g, 0, 5);
    for (int j = 0; j < 3; j++) {
        R.perm[j] = perms[k][j];
        R.sign[j] = tangent_rng_int(g, 0, 1) ? 1 : -1;
    }
    return R;
}

/* Support function of the ellipsoid R S (unit ball), S = diag(1, 1/k,
 * 1/k), in the direction v: |S R^T v|. */
static double ellipsoid_support(const orient *R, int k, const double v[3])
{
    double z[3];
    for (int j = 0; j < 3; j++)
        z[R->perm[j]] = R->sign[j] * v[j];
    z[1] /= k;
    z[2] /= k;
    return sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
}

/* Distance along the unit vector v at which the ellipsoids R_A S (unit
 * ball) and R_B S (unit ball) + s v first touch: the radial function of
 * E_A + E_B (both symmetric about the origin) in the direction v, that is
 * the minimum over w with w . v = 1 of h_A(w) + h_B(w), a convex function
 * of the two coordinates of w orthogonal to v; found by pattern search. */
static double contact_distance(const orient *RA, const orient *RB, int k, const double v[3])
{
    int j0 = fabs(v[0]) <= fabs(v[1]) && fabs(v[0]) <= fabs(v[2]) ? 0
             : fabs(v[1]) <= fabs(v[2])                          ? 1
                                                                 : 2;
    double a[3] = {0, 0, 0}, e1[3], e2[3];
    a[j0] = 1;
    e1[0] = v[1] * a[2] - v[2] * a[1];
    e1[1] = v[2] * a[0] - v[0] * a[2];
    e1[2] = v[0] * a[1] - v[1] * a[0];
    double l = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int j = 0; j < 3; j++)
        e1[j] /= l;
    e2[0] = v[1] * e1[2] - v[2] * e1[1];
    e2[1] = v[2] * e1[0] - v[0] * e1[2];
    e2[2] = v[0] * e1[1] - v[1] * e1[0];
    double x = 0, y = 0, step = 1, best = INFINITY;
    for (int iter = 0; iter < 200000 && step > 1e-12; iter++) {
        static const int dx[5] = {0, 1, -1, 0, 0}, dy[5] = {0, 0, 0, 1, -1};
        int moved = 0;
        for (int d = iter ? 1 : 0; d < 5 && !moved; d++) {
            double xx = x + step * dx[d], yy = y + step * dy[d], w[3];
            for (int j = 0; j < 3; j++)
                w[j] = v[j] + xx * e1[j] + yy * e2[j];
            double f = ellipsoid_support(RA, k, w) + ellipsoid_support(RB, k, w);
            if (f < best) {
                best = f;
                x = xx;
                y = yy;
                moved = d > 0;
            }
        }
        if (!moved && iter)
            step /= 2;
    }
    return best;
}

/* m rows of R S (tangent polytope) + c: (R w) . y <= (R w) . c + r(u). */
static void elong_rows(tangent_rng *g, int m, int k, const orient *R, const double c[3],
                       double *a, double *b)
{
    for (int i = 0; i < m; i++) {
        long u[3], rw[3];
        tangent_direction(g, u);
        long w[3] = {u[0], k * u[1], k * u[2]};
        for (int j = 0; j < 3; j++)
            rw[j] = R->sign[j] * w[R->perm[j]];
        uint64_t r2 = (uint64_t)(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        int64_t norm = (int64_t)tangent_isqrt_ceil(r2 << (2 * FRAC));
        for (int j = 0; j < 3; j++)
            a[3 * i + j] = (double)rw[j];
        b[i] = unfx(dot_fx(rw, c) + norm);
    }
}

static hs_code make_elong(fam_id f, uint64_t seed, long index, int m, fam_pair *p, hs_error *err)
{
    static const double origin[3] = {0, 0, 0};
    int k = f == FAM_ELONG2 ? 2 : f == FAM_ELONG4 ? 4 : 10;
    tangent_rng g = family_rng(f, seed, index);
    orient RA = random_orient(&g), RB = random_orient(&g);
    long u[3];
    tangent_direction(&g, u);
    double len = norm3l(u), v[3] = {u[0] / len, u[1] / len, u[2] / len};
    double t = 0.85 + 0.3 * tangent_rng_unit(&g);
    double d = t * contact_distance(&RA, &RB, k, v), c[3];
    for (int j = 0; j < 3; j++)
        c[j] = round_fx(d * v[j]);
    hs_code rc = pair_alloc(p, m, m, err);
    if (rc != HS_OK)
        return rc;
    elong_rows(&g, m, k, &RA, origin, p->a[0], p->b[0]);
    elong_rows(&g, m, k, &RB, c, p->a[1], p->b[1]);
    memcpy(p->interior[1], c, sizeof c);
    snprintf(p->label, sizeof p->label, "axes 1:1/%d:1/%d, centers %.3g apart", k, k, d);
    return HS_OK;
}

/* ============================================================ near */

/* Rows of B moved by k 2^-30 cB: b' = b + k 2^-30 (u . cB), in integers
 * (units of 2^-40).  C is cB in units of 2^-10.  0, or -1 when a number
 * would not be an exact double. */
static int near_shift(const double *a, const double *b, int m, const int64_t C[3], long k,
                      double *nb)
{
    const int64_t limit = (int64_t)1 << 53;
    for (int i = 0; i < m; i++) {
        int64_t uc = 0;
        for (int j = 0; j < 3; j++) {
            if (a[3 * i + j] != (double)(int64_t)a[3 * i + j] ||
                fabs(a[3 * i + j]) > TANGENT_COORD_MAX)
                return -1;
            uc += (int64_t)a[3 * i + j] * C[j];
        }
        int64_t base = (int64_t)llround(ldexp(b[i], 40));
        int64_t num = base + (int64_t)k * uc;
        if (ldexp((double)base, -40) != b[i] || llabs(uc) >= ((int64_t)1 << 30) ||
            llabs(num) >= limit)
            return -1;
        nb[i] = ldexp((double)num, -40);
    }
    return 0;
}

typedef struct near_ctx {
    const hs_poly *A;
    const double *a, *b; /* B's rows as generated */
    int m;
    int64_t C[3];
    double *nb;          /* scratch: shifted right sides */
    hs_result *r;
} near_ctx;

/* Class of A and B moved by k steps with engine e; -1 on error. */
static int near_class(near_ctx *x, long k, hs_engine e, hs_status *st, hs_error *err)
{
    if (near_shift(x->a, x->b, x->m, x->C, k, x->nb) != 0) {
        fail(err, HS_ERR_INTERNAL, "near: B moved by %ld steps is not exactly in doubles", k);
        return -1;
    }
    hs_poly *Bk = hs_poly_from_doubles(3, x->m, x->a, x->nb, NULL, err);
    if (!Bk)
        return -1;
    hs_options opt;
    hs_options_init(&opt);
    opt.engine = e;
    int rc = hs_intersect(x->A, Bk, &opt, x->r, err) == HS_OK ? 0 : -1;
    if (rc == 0)
        *st = hs_result_status(x->r);
    hs_poly_free(Bk);
    return rc;
}

/* GLPK's estimate of the last contact: max kappa such that A meets
 * B + kappa cB, as k = floor(kappa 2^30) clamped to the bracket. */
static long near_estimate(const fam_pair *p, const double cB[3])
{
    int m = p->m[0] + p->m[1], nz = 0;
    int *ia = malloc((size_t)(4 * m + 1) * sizeof *ia);
    int *ja = malloc((size_t)(4 * m + 1) * sizeof *ja);
    double *ar = malloc((size_t)(4 * m + 1) * sizeof *ar);
    long k = 0;
    if (!ia || !ja || !ar)
        goto out;
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_rows(lp, m);
    glp_add_cols(lp, 4);
    for (int j = 1; j <= 3; j++)
        glp_set_col_bnds(lp, j, GLP_FR, 0, 0);
    glp_set_col_bnds(lp, 4, GLP_DB, ldexp((double)NEAR_K_LO, -NEAR_BITS),
                     ldexp((double)NEAR_K_HI, -NEAR_BITS));
    glp_set_obj_coef(lp, 4, 1);
    for (int i = 0; i < m; i++) {
        int s = i < p->m[0] ? 0 : 1, r = s ? i - p->m[0] : i;
        const double *a = p->a[s] + 3 * r;
        glp_set_row_bnds(lp, i + 1, GLP_UP, 0, p->b[s][r]);
        for (int j = 0; j < 4; j++) {
            double v = j < 3 ? a[j] : s ? -(a[0] * cB[0] + a[1] * cB[1] + a[2] * cB[2]) : 0;
            if (v != 0) {
                nz++;
                ia[nz] = i + 1;
                ja[nz] = j + 1;
                ar[nz] = v;
            }
        }
    }
    glp_load_matrix(lp, nz, ia, ja, ar);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    if (glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT)
        k = (long)floor(ldexp(glp_get_obj_val(lp), NEAR_BITS));
    glp_delete_prob(lp);
out:
    free(ia);
    free(ja);
    free(ar);
    return k < NEAR_K_LO ? NEAR_K_LO : k >= NEAR_K_HI ? NEAR_K_HI - 1 : k;
}

/* Largest k in [NEAR_K_LO, NEAR_K_HI) at which A and B + k 2^-30 cB meet
 * (the set of such k is an interval: A - B is convex), starting from the
 * estimate and decided by the fast engine (certified answers); then
 * checked at k and k + 1 by the exact engine.  -1 on error; -2 when the
 * pair has no last contact in the bracket (B's center so near A's that
 * moving it 2 cB away does not separate them: make_near draws another). */
static int near_last_contact(near_ctx *x, long est, long *k, hs_status *cls, hs_error *err)
{
    hs_status st;
    long lo = est, hi = est + 1, step = 1;
    /* lo must meet */
    for (;;) {
        if (near_class(x, lo, HS_ENGINE_FAST, &st, err) != 0)
            return -1;
        if (st != HS_DISJOINT)
            break;
        if (lo == NEAR_K_LO)
            return -2; /* no contact in the bracket */
        hi = lo;
        lo = lo - step < NEAR_K_LO ? NEAR_K_LO : lo - step;
        step *= 2;
    }
    /* hi must not */
    step = 1;
    for (;;) {
        if (near_class(x, hi, HS_ENGINE_FAST, &st, err) != 0)
            return -1;
        if (st == HS_DISJOINT)
            break;
        if (hi >= NEAR_K_HI)
            return -2; /* no separation in the bracket */
        lo = hi;
        hi = hi + step > NEAR_K_HI ? NEAR_K_HI : hi + step;
        step *= 2;
    }
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (near_class(x, mid, HS_ENGINE_FAST, &st, err) != 0)
            return -1;
        if (st == HS_DISJOINT)
            hi = mid;
        else
            lo = mid;
    }
    hs_status at_lo, at_hi;
    if (near_class(x, lo, HS_ENGINE_EXACT, &at_lo, err) != 0 ||
        near_class(x, lo + 1, HS_ENGINE_EXACT, &at_hi, err) != 0)
        return -1;
    if (at_lo == HS_DISJOINT || at_hi != HS_DISJOINT)
        return fail(err, HS_ERR_INTERNAL,
                    "near: the exact engine disagrees with the fast one at the last contact"),
               -1;
    *k = lo;
    *cls = at_lo;
    return 0;
}

/* Tries for a sphere pair whose last contact lies in the bracket (nearly
 * every first try; a pair whose centers nearly coincide is replaced by
 * the sphere pair of the same index under a shifted seed). */
#define NEAR_TRIES 8

/* One try of make_near on the sphere pair of (seed, index): 0 done, -1
 * error (p freed), -2 no last contact in the bracket (p freed). */
static int near_try(uint64_t seed, long index, int m, fam_pair *p, hs_error *err)
{
    hs_code rc = make_sphere(seed, index, m, p, err);
    if (rc != HS_OK)
        return -1;
    near_ctx x = {0};
    x.m = m;
    x.a = p->a[1];
    x.b = p->b[1];
    for (int j = 0; j < 3; j++)
        x.C[j] = fx(p->interior[1][j]);
    x.nb = malloc((size_t)m * sizeof *x.nb);
    x.r = hs_result_new();
    hs_poly *A = hs_poly_from_doubles(3, m, p->a[0], p->b[0], NULL, err);
    x.A = A;
    long k = 0;
    hs_status cls = HS_DISJOINT;
    int got = -1;
    if (!x.nb || !x.r)
        fail(err, HS_ERR_NOMEM, "out of memory");
    else if (A && (got = near_last_contact(&x, near_estimate(p, p->interior[1]), &k, &cls,
                                           err)) == 0) {
        if (index % 2 == 1)
            k++; /* first disjoint position */
        else if (cls == HS_TOUCHING)
            k--; /* k itself only touches: one step deeper */
        if (near_shift(x.a, x.b, m, x.C, k, x.nb) == 0) {
            memcpy(p->b[1], x.nb, (size_t)m * sizeof *x.nb);
            for (int j = 0; j < 3; j++) /* cB (1 + k 2^-30), exactly */
                p->interior[1][j] = ldexp((double)(x.C[j] * ((1LL << NEAR_BITS) + k)),
                                          -(FRAC + NEAR_BITS));
            snprintf(p->label, sizeof p->label, "%s by one step of 2^-30 |cB| (k = %ld)",
                     index % 2 ? "apart" : "overlapping", k);
        } else {
            fail(err, HS_ERR_INTERNAL, "near: the final shift is not exactly in doubles");
            got = -1;
        }
    }
    hs_poly_free(A);
    hs_result_free(x.r);
    free(x.nb);
    if (got != 0)
        fam_pair_free(p);
    return got;
}

static hs_code make_near(uint64_t seed, long index, int m, fam_pair *p, hs_error *err)
{
    for (int t = 0; t < NEAR_TRIES; t++) {
        int got = near_try(seed + (uint64_t)t * 0x9E3779B97F4A7C15u, index, m, p, err);
        if (got == 0)
            return HS_OK;
        if (got == -1)
            return err && err->code != HS_OK ? err->code : HS_ERR_INTERNAL;
    }
    return fail(err, HS_ERR_INTERNAL, "near: no pair with a last contact in %d tries", NEAR_TRIES);
}

/* ============================================================ touching */

/* Random integer vector with 0 < |v| <= r. */
static void int_vec(tangent_rng *g, double r, long v[3])
{
    long lim = (long)floor(r);
    double r2;
    do {
        for (int j = 0; j < 3; j++)
            v[j] = tangent_rng_int(g, -lim, lim);
        r2 = (double)(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    } while (r2 == 0 || r2 > r * r);
}

/* Put the special rows (n_k, n_k . q) at random positions among m rows
 * whose first m - count are tangent rows. */
static void place_rows(tangent_rng *g, int m, double *a, double *b, int count,
                       long n[][3], const double q[3])
{
    for (int s = 0; s < count; s++) {
        int at = m - count + s, to = (int)tangent_rng_int(g, 0, at);
        if (to != at) {
            memcpy(a + 3 * at, a + 3 * to, 3 * sizeof *a);
            b[at] = b[to];
        }
        for (int j = 0; j < 3; j++)
            a[3 * to + j] = (double)n[s][j];
        b[to] = unfx(dot_fx(n[s], q));
    }
}

/* cB = q + s d/|d| + up to 0.3 sideways, rounded; 0 when |cB - q| < 0.95
 * and the B rows n_k satisfy n_k . (cB - q) < 0 exactly (cB strictly
 * inside them). */
static int touch_center(tangent_rng *g, const long d[3], double s, const double q[3],
                        long nb[][3], int count, double cB[3])
{
    long r[3];
    tangent_direction(g, r);
    double len = norm3l(d), dh[3] = {d[0] / len, d[1] / len, d[2] / len};
    double w[3] = {dh[1] * r[2] - dh[2] * r[1], dh[2] * r[0] - dh[0] * r[2],
                   dh[0] * r[1] - dh[1] * r[0]};
    double wl = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    double side = 0.3 * tangent_rng_unit(g), dist2 = 0;
    for (int j = 0; j < 3; j++) {
        cB[j] = round_fx(q[j] + s * dh[j] + (wl > 0 ? side * w[j] / wl : 0));
        dist2 += (cB[j] - q[j]) * (cB[j] - q[j]);
    }
    if (!(dist2 < 0.95 * 0.95))
        return -1;
    double diff[3] = {cB[0] - q[0], cB[1] - q[1], cB[2] - q[2]}; /* exact */
    for (int k = 0; k < count; k++)
        if (dot_fx(nb[k], diff) >= 0)
            return -1;
    return 0;
}

static hs_code make_touch(fam_id f, uint64_t seed, long index, int m, fam_pair *p,
                          hs_error *err)
{
    static const double origin[3] = {0, 0, 0};
    tangent_rng g = family_rng(f, seed, index);
    long na[3][3], nb[2][3]; /* rows of A and B through q */
    int ca = 0, cbn = 0;
    double q[3], cB[3];
    const char *kind = "";
    int ok = 0;
    for (int tries = 0; tries < TOUCH_TRIES && !ok; tries++) {
        long d[3];
        do
            tangent_direction(&g, d);
        while (norm3l(d) < TOUCH_MIN_D);
        double len = norm3l(d), s = f == FAM_TOUCH_FF ? 0.7 : 0.8;
        for (int j = 0; j < 3; j++)
            q[j] = round_fx(s * d[j] / len);
        if (f == FAM_TOUCH_FF) {
            kind = "face-face";
            ca = cbn = 1;
            memcpy(na[0], d, sizeof na[0]);
        } else if (f == FAM_TOUCH_VF) {
            kind = "vertex-face";
            ca = 3;
            cbn = 1;
            long f1[3], f2[3];
            int_vec(&g, 0.35 * len, f1);
            int_vec(&g, 0.35 * len, f2);
            for (int j = 0; j < 3; j++) {
                na[0][j] = d[j] + f1[j];
                na[1][j] = d[j] + f2[j];
                na[2][j] = d[j] - f1[j] - f2[j];
            }
            if (det3l(na[0], na[1], na[2]) == 0)
                continue;
        } else {
            kind = "edge-edge";
            ca = cbn = 2;
            long gv[3], hv[3];
            int_vec(&g, 0.6 * len, gv);
            int_vec(&g, 0.6 * len, hv);
            if (det3l(d, gv, hv) == 0)
                continue;
            for (int j = 0; j < 3; j++) {
                na[0][j] = d[j] + gv[j];
                na[1][j] = d[j] - gv[j];
                nb[0][j] = -d[j] + hv[j];
                nb[1][j] = -d[j] - hv[j];
            }
        }
        if (cbn == 1)
            for (int j = 0; j < 3; j++)
                nb[0][j] = -d[j];
        /* the origin strictly inside A's rows through q */
        int inside = 1;
        for (int k = 0; k < ca; k++)
            inside = inside && dot_fx(na[k], q) > 0;
        ok = inside && touch_center(&g, d, s, q, nb, cbn, cB) == 0;
    }
    if (!ok)
        return fail(err, HS_ERR_INTERNAL, "%s: no construction after %d tries", fam_name(f),
                    TOUCH_TRIES);
    hs_code rc = pair_alloc(p, m, m, err);
    if (rc != HS_OK)
        return rc;
    tangent_rows(&g, m - ca, origin, p->a[0], p->b[0]);
    tangent_rows(&g, m - cbn, cB, p->a[1], p->b[1]);
    place_rows(&g, m, p->a[0], p->b[0], ca, na, q);
    place_rows(&g, m, p->a[1], p->b[1], cbn, nb, q);
    memcpy(p->interior[1], cB, sizeof cB);
    snprintf(p->label, sizeof p->label, "%s at q = (%.6g, %.6g, %.6g)", kind, q[0], q[1], q[2]);
    return HS_OK;
}

/* ============================================================ hulls */

typedef struct fam_mesh {
    char *name;
    double *pts; /* hull vertices, centred, scaled by a power of two */
    int n;
} fam_mesh;

struct fam_meshes {
    fam_mesh *mesh;
    int count;
    char skipped[2048]; /* files that could not be read, and why */
    char dups[2048];    /* files whose hull repeats an earlier file's */
};

void fam_meshes_free(fam_meshes *ms)
{
    if (!ms)
        return;
    for (int i = 0; i < ms->count; i++) {
        free(ms->mesh[i].name);
        free(ms->mesh[i].pts);
    }
    free(ms->mesh);
    free(ms);
}

int fam_meshes_count(const fam_meshes *ms) { return ms ? ms->count : 0; }
const char *fam_mesh_name(const fam_meshes *ms, int k) { return ms->mesh[k].name; }
const char *fam_meshes_skipped(const fam_meshes *ms) { return ms ? ms->skipped : ""; }
const char *fam_meshes_duplicates(const fam_meshes *ms) { return ms ? ms->dups : ""; }
int fam_mesh_points(const fam_meshes *ms, int k) { return ms->mesh[k].n; }
void fam_mesh_copy_points(const fam_meshes *ms, int k, double *out)
{
    memcpy(out, ms->mesh[k].pts, (size_t)ms->mesh[k].n * 3 * sizeof *out);
}

static int file_exists(const char *path)
{
    struct stat s;
    return stat(path, &s) == 0;
}

/* The hull vertices of one mesh file, centred at their box's center and
 * scaled by a power of two to a largest extent in [1, 2). */
static int load_mesh(const char *dir, const char *path, fam_mesh *out, char *note, size_t size)
{
    double *pts = NULL;
    int n = 0, line = 0;
    hull3 *h = NULL;
    hs_error err;
    hs_error_clear(&err);
    if (scene_mesh_points(path, &pts, &n, &line, &err) != HS_OK ||
        hull3_points(pts, n, &h, &err) != HS_OK) {
        snprintf(note, size, "%s", err.msg);
        free(pts);
        return -1;
    }
    out->n = h->nverts;
    out->pts = malloc((size_t)h->nverts * 3 * sizeof *out->pts);
    const char *rel = strncmp(path, dir, strlen(dir)) == 0 ? path + strlen(dir) : path;
    while (*rel == '/')
        rel++;
    out->name = strdup(rel);
    if (!out->pts || !out->name) {
        snprintf(note, size, "out of memory");
        hull3_free(h);
        free(pts);
        return -1;
    }
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < h->nverts; i++)
        for (int j = 0; j < 3; j++) {
            double v = pts[3 * h->verts[i] + j];
            out->pts[3 * i + j] = v;
            lo[j] = fmin(lo[j], v);
            hi[j] = fmax(hi[j], v);
        }
    double ext = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2])), mid[3];
    int e;
    frexp(ext, &e); /* ext in [2^(e-1), 2^e) */
    for (int j = 0; j < 3; j++)
        mid[j] = 0.5 * (lo[j] + hi[j]);
    for (int i = 0; i < 3 * h->nverts; i++)
        out->pts[i] = ldexp(out->pts[i] - mid[i % 3], 1 - e);
    hull3_free(h);
    free(pts);
    return 0;
}

/* Nonzero when mesh k has the same hull vertices as an earlier mesh (each
 * point within 1e-4 of the scaled size of a point of the other: the same
 * link read from another copy). */
static int duplicate_of_earlier(const fam_meshes *ms, int k)
{
    const fam_mesh *a = &ms->mesh[k];
    for (int i = 0; i < k; i++) {
        const fam_mesh *b = &ms->mesh[i];
        int same = b->n == a->n;
        for (int p = 0; same && p < a->n; p++) {
            int found = 0;
            for (int q = 0; q < b->n && !found; q++)
                found = fabs(a->pts[3 * p] - b->pts[3 * q]) <= 1e-4 &&
                        fabs(a->pts[3 * p + 1] - b->pts[3 * q + 1]) <= 1e-4 &&
                        fabs(a->pts[3 * p + 2] - b->pts[3 * q + 2]) <= 1e-4;
            same = found;
        }
        if (same)
            return 1;
    }
    return 0;
}

fam_meshes *fam_meshes_load(const char *dir, char *note, size_t note_size)
{
    static const char *const patterns[] = {"robots/*/collision/*.stl", "urdf/*/meshes/*.obj",
                                           "urdf/*/meshes/*.stl",
                                           "urdf/*/meshes/collision/*.obj", "meshes/fcl/*.obj"};
    if (!file_exists(dir)) {
        snprintf(note, note_size, "data folder %s not found", dir);
        return NULL;
    }
    fam_meshes *ms = calloc(1, sizeof *ms);
    if (!ms) {
        snprintf(note, note_size, "out of memory");
        return NULL;
    }
    char pat[4096];
    for (size_t p = 0; p < sizeof patterns / sizeof *patterns; p++) {
        glob_t gl;
        snprintf(pat, sizeof pat, "%s/%s", dir, patterns[p]);
        if (glob(pat, 0, NULL, &gl) != 0)
            continue;
        for (size_t i = 0; i < gl.gl_pathc; i++) {
            const char *path = gl.gl_pathv[i];
            size_t len = strlen(path);
            if (len > 4 && strcmp(path + len - 4, ".stl") == 0) {
                snprintf(pat, sizeof pat, "%.*s.obj", (int)(len - 4), path);
                if (file_exists(pat))
                    continue; /* the same link as OBJ is used */
            }
            fam_mesh *grown = realloc(ms->mesh, (size_t)(ms->count + 1) * sizeof *grown);
            if (!grown)
                break;
            ms->mesh = grown;
            memset(&ms->mesh[ms->count], 0, sizeof ms->mesh[ms->count]);
            int ok = load_mesh(dir, path, &ms->mesh[ms->count], note, note_size) == 0;
            if (ok && duplicate_of_earlier(ms, ms->count)) {
                size_t used = strlen(ms->dups);
                snprintf(ms->dups + used, sizeof ms->dups - used, "%s%s", used ? ", " : "",
                         ms->mesh[ms->count].name);
                free(ms->mesh[ms->count].name);
                free(ms->mesh[ms->count].pts);
            } else if (ok)
                ms->count++;
            else {
                size_t used = strlen(ms->skipped);
                snprintf(ms->skipped + used, sizeof ms->skipped - used, "%s%s", used ? "; " : "",
                         note);
                free(ms->mesh[ms->count].name);
                free(ms->mesh[ms->count].pts);
            }
        }
        globfree(&gl);
    }
    if (ms->count == 0) {
        snprintf(note, note_size, "no mesh file found under %s", dir);
        fam_meshes_free(ms);
        return NULL;
    }
    return ms;
}

/* Uniform random rotation (Shoemake's unit quaternion), row-major. */
static void random_rotation(tangent_rng *g, double R[9])
{
    double u1 = tangent_rng_unit(g), u2 = tangent_rng_unit(g), u3 = tangent_rng_unit(g);
    double a = sqrt(1 - u1), b = sqrt(u1), t2 = 2 * M_PI * u2, t3 = 2 * M_PI * u3;
    double x = a * sin(t2), y = a * cos(t2), z = b * sin(t3), w = b * cos(t3);
    R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - z * w), R[2] = 2 * (x * z + y * w);
    R[3] = 2 * (x * y + z * w), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - x * w);
    R[6] = 2 * (x * z - y * w), R[7] = 2 * (y * z + x * w), R[8] = 1 - 2 * (x * x + y * y);
}

hs_code fam_pair_hull(const double *pts, int n, fam_pair *p, int s, hs_error *err)
{
    hull3 *h = NULL;
    hs_code rc = hull3_points(pts, n, &h, err);
    if (rc != HS_OK)
        return rc;
    p->m[s] = h->nfacets;
    p->a[s] = malloc((size_t)h->nfacets * 3 * sizeof(double));
    p->b[s] = malloc((size_t)h->nfacets * sizeof(double));
    if (!p->a[s] || !p->b[s])
        rc = fail(err, HS_ERR_NOMEM, "out of memory");
    else
        rc = hull3_rows(h, pts, p->a[s], p->b[s], err);
    for (int j = 0; j < 3; j++) {
        double sum = 0;
        for (int i = 0; i < h->nverts; i++)
            sum += pts[3 * h->verts[i] + j];
        p->interior[s][j] = sum / h->nverts;
    }
    hull3_free(h);
    return rc;
}

static hs_code make_hull(uint64_t seed, long index, const fam_meshes *ms, fam_pair *p,
                         hs_error *err)
{
    if (!ms || ms->count == 0)
        return fail(err, HS_ERR_ARG, "hull: no meshes loaded");
    memset(p, 0, sizeof *p);
    tangent_rng g = family_rng(FAM_HULL, seed, index);
    const fam_mesh *mesh[2];
    double *pts[2] = {NULL, NULL}, lo[2][3], hi[2][3];
    hs_code rc = HS_OK;
    for (int s = 0; s < 2 && rc == HS_OK; s++) {
        mesh[s] = &ms->mesh[tangent_rng_int(&g, 0, ms->count - 1)];
        double R[9];
        random_rotation(&g, R);
        pts[s] = malloc((size_t)mesh[s]->n * 3 * sizeof(double));
        if (!pts[s]) {
            rc = fail(err, HS_ERR_NOMEM, "out of memory");
            break;
        }
        for (int j = 0; j < 3; j++)
            lo[s][j] = INFINITY, hi[s][j] = -INFINITY;
        for (int i = 0; i < mesh[s]->n; i++) {
            const double *v = mesh[s]->pts + 3 * i;
            for (int j = 0; j < 3; j++) {
                double x = R[3 * j] * v[0] + R[3 * j + 1] * v[1] + R[3 * j + 2] * v[2];
                pts[s][3 * i + j] = x;
                lo[s][j] = fmin(lo[s][j], x);
                hi[s][j] = fmax(hi[s][j], x);
            }
        }
    }
    if (rc == HS_OK) {
        /* B moves by t, uniform where the two boxes overlap */
        double t[3];
        for (int j = 0; j < 3; j++) {
            double a = lo[0][j] - hi[1][j], b = hi[0][j] - lo[1][j];
            t[j] = a + (b - a) * tangent_rng_unit(&g);
        }
        for (int i = 0; i < mesh[1]->n; i++)
            for (int j = 0; j < 3; j++)
                pts[1][3 * i + j] += t[j];
        for (int s = 0; s < 2 && rc == HS_OK; s++)
            rc = fam_pair_hull(pts[s], mesh[s]->n, p, s, err);
        snprintf(p->label, sizeof p->label, "%s vs %s", mesh[0]->name, mesh[1]->name);
    }
    free(pts[0]);
    free(pts[1]);
    if (rc != HS_OK)
        fam_pair_free(p);
    return rc;
}

/* ======================================================== hull-rest */

static hs_code make_hull_rest(uint64_t seed, long index, const fam_meshes *ms, int exact,
                              fam_pair *p, hs_error *err)
{
    hs_code rc = make_hull(seed, index, ms, p, err);
    if (rc != HS_OK)
        return rc;
    tangent_rng g = family_rng(FAM_HULL_REST, seed, index);
    fam_pair_rest(p, 2 * M_PI * tangent_rng_unit(&g), exact);
    char was[128];
    snprintf(was, sizeof was, "%s", p->label);
    snprintf(p->label, sizeof p->label, "%.90s, B resting on A%s", was,
             exact ? "" : " to rounding");
    return HS_OK;
}

/* ============================================================ dispatch */

hs_code fam_make(fam_id f, uint64_t seed, long index, int m, const fam_meshes *meshes,
                 fam_pair *out, hs_error *err)
{
    memset(out, 0, sizeof *out);
    if (fam_has_m(f) && m < fam_min_m(f))
        return fail(err, HS_ERR_ARG, "%s: m = %d is below %d", fam_name(f), m, fam_min_m(f));
    switch (f) {
    case FAM_SPHERE: return make_sphere(seed, index, m, out, err);
    case FAM_ELONG2: case FAM_ELONG4: case FAM_ELONG10:
        return make_elong(f, seed, index, m, out, err);
    case FAM_NEAR: return make_near(seed, index, m, out, err);
    case FAM_TOUCH_FF: case FAM_TOUCH_EE: case FAM_TOUCH_VF:
        return make_touch(f, seed, index, m, out, err);
    case FAM_HULL: return make_hull(seed, index, meshes, out, err);
    case FAM_HULL_REST: return make_hull_rest(seed, index, meshes, 1, out, err);
    case FAM_HULL_REST_FP: return make_hull_rest(seed, index, meshes, 0, out, err);
    default: return fail(err, HS_ERR_ARG, "unknown family %d", (int)f);
    }
}
